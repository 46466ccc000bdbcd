"""MC-ANYTIME (issue 8): "at any time during your turn" (手番中にいつでも) under both readings.

``anytime = "every_step"`` (default, the seed): Forks, trucks, Blueprints and demolishing are legal at every
decision of one's own turn, including while a bought tile waits to be placed (phase PLACE) and while a
fallen tile is recycled (phase RECYCLE). ``anytime = "steps_1_3"`` (0.3.0): only in SELL, BUY, FABRICATE.
"""

from __future__ import annotations

import random

import pytest
from test_mechanica_game import (
    B,
    _four_quiet_turns,
    assert_illegal,
    check_invariants,
    load,
    setup,
    with_board,
    with_seat,
)

from bgrules.mechanica.components import Bot
from bgrules.mechanica.sandbox import Demolish, DemolishFabricator
from bgrules.mechanica.state import Buy, BuyFork, BuyTruck, Complete, Next, Phase, Place, PlaceFabricator, Recycle

ANYTIME = (BuyFork, BuyTruck, Complete, Demolish, DemolishFabricator)
OLD = "steps_1_3"


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
    g, s = _four_quiet_turns(**rulings)
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
                assert listed == list(g._anytime_options(s, s.seats[s.current]))
                assert not any(isinstance(a, ANYTIME) for a in old.legal_actions(s))
                for a in listed[:3]:
                    assert g.apply(s, a).phase is s.phase
                    assert_illegal(old, s, a, "MC-PLACE" if s.phase is Phase.PLACE else "MC-SHOP-RECYCLE")
            s = g.apply(s, rng.choice(legal))
    assert waits > 20


def test_bgrules_diff_shows_where_the_readings_part():
    """The shortest difference: the set-up's ten chance steps, Next, Buy(0), then a Fork is legal under
    "every_step" only (the bought tile waits)."""
    from bgrules.core.diff import find_difference

    result = find_difference("mechanica", None, {"rulings": {"anytime": OLD}}, players=2, max_nodes=3000)
    assert result.found and result.minimal and result.method == "bfs" and result.kind == "legal_actions"
    assert len(result.sequence) == 13 and result.sequence[-3:-1] == (Next(), Buy(0))
    assert isinstance(result.sequence[-1], BuyFork)
    assert "MC-ANYTIME" in [c.rule_id for c in result.citations]
