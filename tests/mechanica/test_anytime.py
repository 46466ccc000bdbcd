"""MC-ANYTIME (issues 8 and 21): "at any time during your turn" (手番中にいつでも) under the three readings.

``anytime = "whole_turn"`` (default, the seed): Forks, trucks, Blueprints and demolishing are legal at every
decision of one's own turn, including while a bought tile waits to be placed (phase PLACE), while a fallen
tile is recycled (phase RECYCLE) and at the decision closing step (4) after the Shop's turn and its draws
(phase TURN_END, left by ``Next``), whether or not a tile fell. ``anytime = "every_step"`` (0.4.0): the same
without TURN_END. ``anytime = "steps_1_3"`` (0.3.0): only in SELL, BUY, FABRICATE.
"""

from __future__ import annotations

import random

import pytest
from support.mechanica_positions import (
    B,
    assert_illegal,
    check_invariants,
    four_quiet_turns,
    load,
    setup,
    with_board,
    with_seat,
)

from bgrules.mechanica import blueprints
from bgrules.mechanica.components import Bot
from bgrules.mechanica.fabricate import Fabricate, Sell
from bgrules.mechanica.sandbox import Demolish, DemolishFabricator
from bgrules.mechanica.state import (
    Buy,
    BuyFork,
    BuyTruck,
    Complete,
    Decline,
    Draw,
    Next,
    Phase,
    Place,
    PlaceFabricator,
    Recycle,
)

ANYTIME = (BuyFork, BuyTruck, Complete, Demolish, DemolishFabricator)
OLD = "steps_1_3"
"""The reading of 0.3.0: the anytime actions in SELL, BUY and FABRICATE only."""
WAITS = "every_step"
"""The reading of 0.4.0: also in the waits PLACE and RECYCLE, but step (4) has no closing decision."""
BOARD = "hole | . . . . | truck[B]\nbasic | . . . . | truck\nhole | FK0 . . . | big[BB]\n"
"""A Fork on (2, 0) and loaded trucks (B on row 0, B B on a Big Truck in row 2): every anytime action is possible."""


def _waiting(**rulings):
    """2 players, player 0 has bought the Upgrader on price 7 and must place it; wallet 3; a Fork on (2, 0)
    and loaded trucks (B on row 0, B B on a Big Truck in row 2) so that every anytime action is possible."""
    g = load(2, **rulings)
    s = setup(g)
    s = with_board(
        g, s, 0, "hole | . . . . | truck[B]\nbasic | . . . . | truck\nhole | FK0 . . . | big[BB]\n", wallet=10
    )
    s = g.apply(g.apply(s, Next()), Buy(0))
    assert s.phase is Phase.PLACE and s.pending == "upgrader" and s.seats[0].wallet == 3
    return g, s


def _recycling(**rulings):
    """4 players, player 3 must place the fallen Function Changer's bot (phase RECYCLE); wallet 8."""
    g, s = four_quiet_turns(**rulings)
    s = g.apply(s, next(a for a in g.legal_actions(s) if type(a).__name__ == "Fabricate"))
    assert s.phase is Phase.RECYCLE and s.fallen == "function_changer" and s.current == 3
    return g, s


def test_every_anytime_kind_is_offered_while_a_bought_tile_waits():
    g, s = _waiting()
    legal = g.legal_actions(s)
    kinds = {type(a) for a in legal}
    assert {Place, Recycle, BuyFork, BuyTruck, Demolish} <= kinds
    # a Blueprint needs the bots: card 1 asks for three Basic bots, which the trucks hold
    assert g.cards[1].needs == (3, 0, 0)
    assert Complete(0, ((0, B), (2, B), (2, B))) in legal
    # the old reading offers the placement only
    old = load(2, anytime=OLD)
    assert {type(a) for a in old.legal_actions(s)} == {Place, Recycle}


def test_a_fork_bought_while_the_tile_waits_keeps_the_tile_waiting():
    g, s = _waiting()
    t = g.apply(s, BuyFork(0, 0, 0))
    assert t.phase is Phase.PLACE and t.pending == "upgrader" and t.seats[0].wallet == 2
    assert t.seats[0].factory.at(0, 0).kind == "fork"
    assert not any(isinstance(a, Place) and (a.row, a.col) == (0, 0) for a in g.legal_actions(t))
    check_invariants(g, t)
    t = g.apply(t, Place(1, 1, 0))
    assert t.phase is Phase.BUY and t.pending is None and t.seats[0].factory.at(1, 1).kind == "upgrader"
    check_invariants(g, t)


def test_demolishing_while_the_tile_waits_frees_the_cell_for_it():
    g, s = _waiting()
    assert not any(isinstance(a, Place) and (a.row, a.col) == (2, 0) for a in g.legal_actions(s))
    assert_illegal(g, s, Place(2, 0, 0), "MC-PLACE-FREE")
    t = g.apply(s, Demolish(2, 0))
    assert t.phase is Phase.PLACE and t.seats[0].factory.at(2, 0) is None
    assert Place(2, 0, 0) in g.legal_actions(t)
    t = g.apply(t, Place(2, 0, 0))
    assert t.seats[0].factory.at(2, 0).kind == "upgrader" and t.phase is Phase.BUY
    check_invariants(g, t)


def test_a_truck_and_a_blueprint_while_the_tile_waits():
    g, s = _waiting()
    t = g.apply(s, BuyTruck("big_truck", 0))
    assert t.phase is Phase.PLACE and t.seats[0].wallet == 0 and t.seats[0].factory.dock[0].kind == "big_truck"
    t = g.apply(t, Complete(0, ((0, B), (2, B), (2, B))))
    assert t.phase is Phase.PLACE and t.seats[0].vault == 10 and t.bp_turned == (True, True)
    assert t.pending == "upgrader"
    check_invariants(g, t)
    # too poor now: no more Forks or trucks, and a refused buy changes nothing
    assert not any(isinstance(a, BuyFork | BuyTruck) for a in g.legal_actions(t))
    assert_illegal(g, t, BuyFork(0, 0, 0), "MC-FORK-BUY")
    assert_illegal(g, t, BuyTruck("huge_truck", 1), "MC-TRUCK-BUY")


@pytest.mark.parametrize(
    "action",
    [BuyFork(0, 0, 0), BuyTruck("big_truck", 0), Complete(0, ((0, B), (2, B), (2, B))), Demolish(2, 0)],
    ids=repr,
)
def test_the_old_reading_refuses_them_while_the_tile_waits(action):
    g, s = _waiting(anytime=OLD)
    assert action not in g.legal_actions(s)
    assert_illegal(g, s, action, "MC-PLACE")
    new, _s = _waiting()
    assert action in new.legal_actions(s)


def test_every_anytime_kind_while_a_fallen_tile_is_recycled():
    g, s = _recycling()
    s = with_board(
        g, s, 3, "advanced | . . . . | truck[B]\nbasic | FK0 . . . | truck\nhole | . . . . | truck\n", wallet=8
    )
    legal = g.legal_actions(s)
    assert {Recycle, BuyFork, BuyTruck, Demolish, DemolishFabricator} <= {type(a) for a in legal}
    # demolishing the Advanced Fabricator uncovers the printed hole, which then takes the recycled bot
    assert Recycle(0, 1) in legal
    t = g.apply(s, DemolishFabricator(0))
    assert t.phase is Phase.RECYCLE and t.fallen == "function_changer"
    assert t.seats[3].factory.start[0].kind == "start_hole"
    assert Recycle(0, 1) not in g.legal_actions(t)
    assert_illegal(g, t, Recycle(0, 1), "MC-RECYCLE")
    t = g.apply(t, BuyFork(0, 0, 0))
    assert t.phase is Phase.RECYCLE and t.seats[3].wallet == 7
    check_invariants(g, t)
    t = g.apply(t, Recycle(0, 0))
    assert t.phase is Phase.DRAW and t.fallen is None and t.seats[3].factory.start[0].holes == (Bot.DELUXE,)
    check_invariants(g, t)


@pytest.mark.parametrize(
    "action", [BuyFork(0, 0, 0), BuyTruck("big_truck", 0), Demolish(1, 0), DemolishFabricator(0)], ids=repr
)
def test_the_old_reading_refuses_them_while_a_fallen_tile_is_recycled(action):
    g, s = _recycling(anytime=OLD)
    s = with_board(
        g, s, 3, "advanced | . . . . | truck[B]\nbasic | FK0 . . . | truck\nhole | . . . . | truck\n", wallet=8
    )
    assert action not in g.legal_actions(s)
    assert_illegal(g, s, action, "MC-SHOP-RECYCLE")
    new = load(4)
    assert action in new.legal_actions(s)
    assert new.apply(s, action).phase is Phase.RECYCLE


def test_refusals_in_the_waits_change_nothing_under_the_new_reading():
    g, s = _waiting()
    assert_illegal(g, s, BuyFork(2, 0, 0), "MC-PLACE-FREE")  # the cell holds the Fork
    assert_illegal(g, s, Demolish(1, 1), "MC-DEMOLISH")  # nothing there
    assert_illegal(g, s, DemolishFabricator(0), "MC-DEMOLISH")  # a printed hole
    assert_illegal(g, s, Complete(1, ((0, B), (2, B), (2, B))), "MC-BP-COMPLETE")  # card 2 asks for a Plus
    assert_illegal(g, s, Next(), "MC-PLACE")
    assert_illegal(g, s, PlaceFabricator(0), "MC-PLACE-ZONE")
    poor = with_seat(s, 0, wallet=0)
    assert_illegal(g, poor, BuyFork(0, 0, 0), "MC-FORK-BUY")
    g2, r = _recycling()
    assert_illegal(g2, r, Next(), "MC-SHOP-RECYCLE")
    assert_illegal(g2, r, Demolish(0, 0), "MC-DEMOLISH")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_in_random_games_the_waits_offer_anytime_actions_exactly_under_every_step(players):
    """Random playouts under the new reading: in every PLACE and RECYCLE state, the anytime actions listed
    are those the old reading's game lists in the steps, and every one listed is accepted; the old
    reading's game lists none there and refuses each."""
    g = load(players)
    old = load(players, anytime=OLD)
    rng = random.Random(players)
    waits = 0
    for _game in range(6):
        s = g.initial_state()
        for _step in range(3000):
            if g.is_terminal(s):
                break
            legal = g.legal_actions(s)
            if s.phase in (Phase.PLACE, Phase.RECYCLE):
                waits += 1
                listed = [a for a in legal if isinstance(a, ANYTIME)]
                assert listed == list(blueprints.anytime_options(g, s, s.seats[s.current]))
                assert not any(isinstance(a, ANYTIME) for a in old.legal_actions(s))
                for a in listed[:3]:
                    assert g.apply(s, a).phase is s.phase
                    assert_illegal(old, s, a, "MC-PLACE" if s.phase is Phase.PLACE else "MC-SHOP-RECYCLE")
            s = g.apply(s, rng.choice(legal))
    assert waits > 20


def test_bgrules_diff_shows_where_the_readings_part():
    """The shortest difference: the set-up's ten chance steps, Next, Buy(0), then a Fork is legal under
    "every_step" only (the bought tile waits)."""
    from bgrules.runners.diff import find_difference

    result = find_difference("mechanica", None, {"rulings": {"anytime": OLD}}, players=2, max_nodes=3000)
    assert result.found and result.minimal and result.method == "bfs" and result.kind == "legal_actions"
    assert len(result.sequence) == 13 and result.sequence[-3:-1] == (Next(), Buy(0))
    assert isinstance(result.sequence[-1], BuyFork)
    assert "MC-ANYTIME" in [c.rule_id for c in result.citations]


# --- step (4): the decision closing the turn (anytime = "whole_turn") ---------------------------------


def _shop_turned(**rulings):
    """2 players, player 0 (wallet 10, ``BOARD``) sells nothing, buys nothing, fabricates; nothing falls from
    the Shop; the Duplicator is drawn onto price 7: step (4) is over."""
    g = load(2, **rulings)
    s = with_board(g, setup(g), 0, BOARD, wallet=10)
    s = g.apply(g.apply(g.apply(s, Next()), Next()), Fabricate())
    assert s.phase is Phase.DRAW and s.fallen is None and s.current == 0
    return g, g.apply(s, Draw("duplicator"))


def test_every_anytime_kind_is_offered_after_the_shop_has_turned_with_nothing_fallen():
    """MC-ANYTIME: with no tile in the Recycler, step (4) still holds a decision of the player's, after the
    rotation and the draw (the drawn tile is on price 7): Next, then the anytime actions of the board."""
    g, s = _shop_turned()
    assert s.phase is Phase.TURN_END and g.to_move(s) == 0 and s.current == 0
    assert s.wheel == ("duplicator", "upgrader", "gift_wrapper", None, None)
    legal = g.legal_actions(s)
    assert legal[0] == Next() and legal[1:] == blueprints.anytime_options(g, s, s.seats[0])
    assert {type(a) for a in legal} == {Next, BuyFork, BuyTruck, Complete, Demolish}
    assert Complete(0, ((0, B), (2, B), (2, B))) in legal
    check_invariants(g, s)


def test_anytime_actions_after_the_shop_has_turned_keep_the_step_and_next_passes_the_turn():
    g, s = _shop_turned()
    t = g.apply(s, BuyFork(0, 0, 0))
    assert t.phase is Phase.TURN_END and t.seats[0].wallet == 9 and t.seats[0].factory.at(0, 0).kind == "fork"
    t = g.apply(t, Complete(0, ((0, B), (2, B), (2, B))))
    assert t.phase is Phase.TURN_END and t.seats[0].vault == 10 and t.bp_turned == (True, True)
    t = g.apply(t, BuyTruck("big_truck", 1))
    t = g.apply(t, Demolish(2, 0))
    assert t.phase is Phase.TURN_END and t.seats[0].wallet == 6 and t.seats[0].factory.at(2, 0) is None
    check_invariants(g, t)
    done = g.apply(t, Next())
    assert done.phase is Phase.SELL and done.current == 1 and g.to_move(done) == 1
    assert done.seats[0] == t.seats[0] and done.wheel == t.wheel
    check_invariants(g, done)


@pytest.mark.parametrize("reading", [WAITS, OLD])
def test_the_older_readings_pass_the_turn_at_once_after_the_draw(reading):
    """Under "every_step" (0.4.0) and "steps_1_3" (0.3.0) step (4) has no decision when nothing falls: the
    draw passes the turn to the next seat, whose own actions follow."""
    g, s = _shop_turned(anytime=reading)
    assert s.phase is Phase.SELL and s.current == 1 and g.to_move(s) == 1
    assert s.wheel == ("duplicator", "upgrader", "gift_wrapper", None, None)


def test_a_fallen_tile_has_its_wait_and_the_turn_still_closes_with_a_decision():
    """MC-ANYTIME, MC-SHOP-RECYCLE: the anytime actions before the fallen tile's bot is placed (RECYCLE) and
    again after the draw (TURN_END); the last seat's Next ends the day. Under "every_step" the draw ends it."""
    g, s = _recycling()
    s = g.apply(g.apply(s, BuyFork(0, 0, 0)), Recycle(2, 0))
    assert s.phase is Phase.DRAW and s.seats[3].wallet == 7
    s = g.apply(s, Draw("static_charger"))
    assert s.phase is Phase.TURN_END and s.current == 3 and s.day == 1
    assert BuyFork(0, 1, 0) in g.legal_actions(s)
    s = g.apply(s, BuyFork(0, 1, 0))
    assert s.phase is Phase.TURN_END and s.seats[3].wallet == 6
    check_invariants(g, s)
    s = g.apply(s, Next())
    assert s.day == 2 and s.current == 0 and s.phase is not Phase.TURN_END
    g0, r = _recycling(anytime=WAITS)
    r = g0.apply(g0.apply(r, Recycle(2, 0)), Draw("static_charger"))
    assert r.day == 2 and r.current == 0 and r.phase is not Phase.TURN_END


@pytest.mark.parametrize(
    ("action", "rule"),
    [
        (Sell(0, B), "MC-TURN-ORDER"),
        (Buy(0), "MC-TURN-ORDER"),
        (Fabricate(), "MC-TURN-ORDER"),
        (Recycle(0, 0), "MC-TURN-ORDER"),
        (Place(0, 1, 0), "MC-TURN-ORDER"),
        (Decline(), "MC-TURN-ORDER"),
        (BuyFork(2, 0, 0), "MC-PLACE-FREE"),
        (Demolish(1, 1), "MC-DEMOLISH"),
    ],
    ids=repr,
)
def test_only_the_anytime_actions_and_next_are_legal_after_the_shop_has_turned(action, rule):
    """MC-TURN-ORDER: the steps (1)-(3) are over when step (4) closes; a refusal changes nothing."""
    g, s = _shop_turned()
    exc = assert_illegal(g, s, action, rule)
    if rule == "MC-TURN-ORDER":
        assert "step (4) is over" in exc.why


def test_a_turn_end_state_is_invalid_under_the_older_readings():
    """MC-ANYTIME: phase TURN_END exists under "whole_turn" only; validation says so for the other games."""
    g, s = _shop_turned()
    assert g.validate(s) == []
    for reading in (WAITS, OLD):
        problems = load(2, anytime=reading).validate(s)
        assert any("turn_end" in p and "whole_turn" in p for p in problems), problems


@pytest.mark.parametrize("players", [2, 3, 4])
def test_in_random_games_every_turn_closes_with_the_players_decision(players):
    """Random playouts under "whole_turn": every turn passes through TURN_END, the current player's, which
    lists Next and the anytime actions exactly; Next leads to the next seat's SELL, a new day or the end.
    Under "every_step" the same seeds never reach TURN_END."""
    for reading, closes in (("whole_turn", True), (WAITS, False)):
        g = load(players, anytime=reading)
        rng = random.Random(players)
        for _game in range(3):
            s = g.initial_state()
            ends = 0
            while not g.is_terminal(s):
                legal = g.legal_actions(s)
                if s.phase is Phase.TURN_END:
                    assert closes and g.to_move(s) == s.current
                    assert legal == (Next(), *blueprints.anytime_options(g, s, s.seats[s.current]))
                    ends += 1
                    after = g.apply(s, Next())
                    if s.current < players - 1:  # the next seat's turn
                        assert (after.phase, after.current, after.day) == (Phase.SELL, s.current + 1, s.day)
                    else:  # the day's end: a new day, or the end of the game
                        assert after.day == s.day + 1 or after.phase is Phase.OVER
                last = s
                s = g.apply(s, rng.choice(legal))
            if closes:  # the game ended with the last seat's Next closing the last turn
                assert ends > 0 and last.phase is Phase.TURN_END and last.current == players - 1
            else:
                assert ends == 0 and last.phase is not Phase.TURN_END


def test_bgrules_diff_finds_the_closing_decision():
    """The difference between "whole_turn" and "every_step": after the set-up, a quiet turn (Next, Next,
    Fabricate) and the draw, one reading waits for the player, the other has passed the turn."""
    from bgrules.runners.diff import find_difference

    result = find_difference("mechanica", None, {"rulings": {"anytime": WAITS}}, players=2, max_nodes=3000)
    assert result.found
    assert result.sequence[-4:-1] == (Next(), Next(), Fabricate())
    assert isinstance(result.sequence[-1], Draw)
    assert "MC-ANYTIME" in [c.rule_id for c in result.citations]
