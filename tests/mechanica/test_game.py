"""The whole game of Mechanica for 2-4 players: load_game("mechanica", players=n).

Positions are built by driving the game with explicit actions (chance outcomes are ordinary actions:
``Draw(kind)``, ``Reveal(card)``) or by ``attrs.evolve`` on a real state, keeping the bot and tile
totals consistent so the conservation checks apply to every scenario too.
"""

from __future__ import annotations

import random
from fractions import Fraction

import attrs
import pytest
from support.mechanica_positions import (
    BOTS_PER_GRADE,
    EXTRAS_2_3,
    NAME,
    TOTAL_TILES,
    B,
    D,
    P,
    assert_illegal,
    blueprint_day,
    check_invariants,
    close_turn,
    end_turn,
    four_quiet_turns,
    load,
    settle_chance_and_runs,
    setup,
    tile_total,
    with_board,
    with_seat,
)

import bgrules
from bgrules import CHANCE, InputError
from bgrules.core.conformance import check_game
from bgrules.core.playout import walk
from bgrules.mechanica.fabricate import Fabricate, Sell
from bgrules.mechanica.factory import starting_factory
from bgrules.mechanica.run import Change, ChooseOutput, Discard, Fly, Route
from bgrules.mechanica.sandbox import Demolish, DemolishFabricator
from bgrules.mechanica.state import (
    Buy,
    BuyFork,
    BuyTruck,
    Complete,
    Decline,
    Draw,
    Gift,
    Next,
    Phase,
    Place,
    PlaceFabricator,
    Recycle,
    Reveal,
)

# --- player counts and set-up -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_player_counts_load(players):
    g = bgrules.load_game(NAME, players=players)
    assert g.players == players
    assert g.info.name == NAME and g.info.min_players == 2 and g.info.max_players == 4 and g.info.has_chance
    assert len(g.initial_state().seats) == players


@pytest.mark.parametrize("players", [1, 5, 0, -2])
def test_wrong_player_counts_are_input_errors(players):
    with pytest.raises(InputError) as info:
        bgrules.load_game(NAME, players=players)
    assert info.value.where == "players"
    assert "2 to 4" in str(info.value)


def test_wrong_player_count_on_the_class_too():
    from bgrules.mechanica.game import MechanicaGame

    for n in (1, 5):
        with pytest.raises(InputError, match="2 to 4"):
            MechanicaGame(players=n)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_seat_starts_with_8_and_a_basic_bot_in_the_basic_fabricator(players):
    g = load(players)
    s = g.initial_state()
    assert s.phase is Phase.SETUP_EXTRAS if players < 4 else s.phase is Phase.SETUP_DEAL
    assert g.to_move(s) is CHANCE
    for seat in s.seats:
        assert seat.wallet == 8 and seat.vault == 0 and seat.completed == ()
        assert seat.factory == starting_factory()
        assert seat.factory.start[1].kind == "basic_fabricator"
        assert seat.factory.start[1].holes == (B,)
    assert s.stock == (BOTS_PER_GRADE - players, BOTS_PER_GRADE, BOTS_PER_GRADE)
    assert s.wheel == (None,) * 5 and sum(s.deck) == TOTAL_TILES
    check_invariants(g, s)


@pytest.mark.parametrize(
    ("players", "rulings", "extras"),
    [(2, {}, 6), (3, {}, 6), (4, {}, 0), (4, {"extras_4p": "unused"}, 6), (4, {"extras_4p": "deck"}, 0)],
)
def test_setup_extras_and_deal(players, rulings, extras):
    g = load(players, **rulings)
    s = g.initial_state()
    drawn = 0
    while s.phase is Phase.SETUP_EXTRAS:
        assert g.to_move(s) is CHANCE
        s = g.apply(s, g.chance_outcomes(s)[0][0])
        drawn += 1
    assert drawn == extras and sum(s.extras) == extras
    assert sum(s.deck) == TOTAL_TILES - extras
    assert s.phase is Phase.SETUP_DEAL
    s = g.apply(s, Draw("duplicator"))
    assert s.wheel == ("duplicator", None, None, None, None)  # the price-7 slot first
    s = g.apply(s, Draw("advanced_fabricator"))
    assert s.wheel == ("duplicator", "advanced_fabricator", None, None, None)  # then price 5
    assert g.prices[:2] == (7, 5)
    assert sum(s.deck) == TOTAL_TILES - extras - 2
    assert s.phase is Phase.REVEAL
    check_invariants(g, s)


def test_chance_outcomes_are_exact_fractions_matching_the_counts():
    g = load(2)
    s = g.initial_state()
    out = g.chance_outcomes(s)
    assert all(isinstance(p, Fraction) for _a, p in out)
    assert sum(p for _a, p in out) == 1
    assert dict(out) == {Draw(k): Fraction(3, 27) for k in g.kinds}
    s = g.apply(s, Draw("upgrader"))
    out = dict(g.chance_outcomes(s))
    assert out[Draw("upgrader")] == Fraction(2, 26) and out[Draw("duplicator")] == Fraction(3, 26)
    assert sum(out.values()) == 1
    for _ in range(2):
        s = g.apply(s, Draw("upgrader"))
    out = dict(g.chance_outcomes(s))
    assert Draw("upgrader") not in out  # no copy left: not an outcome
    assert sum(out.values()) == 1 and out[Draw("gift_wrapper")] == Fraction(3, 24)
    assert set(g.legal_actions(s)) == set(out)


def test_blueprint_tops_are_revealed_with_exact_probabilities():
    g = load(3)
    s = setup(g, tops=())
    assert s.phase is Phase.REVEAL and g.to_move(s) is CHANCE
    out = g.chance_outcomes(s)
    assert dict(out) == {Reveal(c): Fraction(1, 15) for c in range(1, 16)}
    s = g.apply(s, Reveal(7))
    out = g.chance_outcomes(s)
    assert Reveal(7) not in dict(out) and sum(p for _a, p in out) == 1 and out[0][1] == Fraction(1, 14)
    s = g.apply(s, Reveal(11))
    assert s.bp_top == (7, 11) and s.bp_turned == (False, False)
    assert 7 not in s.bp_pool and 11 not in s.bp_pool and len(s.bp_pool) == 13
    assert s.phase is Phase.SELL and s.day == 1
    check_invariants(g, s)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_factory_runs_before_the_first_turn(players):
    g = load(players)
    s = setup(g, extras=EXTRAS_2_3 if players < 4 else ())
    assert s.phase is Phase.SELL and s.current == 0 and g.to_move(s) == 0 and s.run is None
    for seat in s.seats:  # the Basic bot rode the empty belt to the middle truck
        assert seat.factory.start[1].holes == (None,)
        assert seat.factory.dock[1].load == (B,)
        assert seat.wallet == 8
    check_invariants(g, s)


def test_runs_go_in_seat_order_and_their_decisions_belong_to_the_owner():
    g = load(3)
    s = setup(g, tops=(1,))
    # seat 1 has a Fork in its Basic bot's path: its run needs its owner's decision
    s = with_board(g, s, 1, "hole | . . . . | truck\nbasic[B] | FK0 . . . | truck\nhole | . . . . | truck\n")
    s = g.apply(s, Reveal(2))
    assert s.phase is Phase.RUN and s.current == 1 and g.to_move(s) == 1
    assert s.seats[0].factory.dock[1].load == (B,)  # seat 0 has already run
    assert s.seats[2].factory.dock[1].load == ()  # seat 2 has not
    legal = g.legal_actions(s)
    assert legal and all(isinstance(a, Route) for a in legal)
    check_invariants(g, s)
    assert_illegal(g, s, Next(), "MC-RUN")
    assert_illegal(g, s, Sell(1, B), "MC-RUN")
    s = g.apply(s, legal[0])
    s = settle_chance_and_runs(g, s)
    assert s.phase is Phase.SELL and s.current == 0
    assert s.seats[2].factory.dock[1].load == (B,)
    check_invariants(g, s)


# --- the turn's steps ---------------------------------------------------------------------------------


def test_sell_only_in_the_sell_step_and_buy_only_in_the_buy_step():
    g = load(2)
    s = setup(g)
    legal = g.legal_actions(s)
    assert Sell(1, B) in legal and Next() in legal
    assert not any(isinstance(a, Buy | Fabricate | Place | Recycle) for a in legal)
    assert_illegal(g, s, Buy(0), "MC-TURN-ORDER")
    assert_illegal(g, s, Fabricate(), "MC-TURN-ORDER")
    s = g.apply(s, Sell(1, B))
    assert s.seats[0].wallet == 10 and s.seats[0].factory.dock[1].load == () and s.stock[B] == 23
    s = g.apply(s, Next())
    assert s.phase is Phase.BUY
    legal = g.legal_actions(s)
    assert Buy(0) in legal and Buy(1) in legal and Buy(2) not in legal
    assert not any(isinstance(a, Sell | Fabricate) for a in legal)
    s2 = with_board(g, s, 0, "hole | . . . . | truck\nbasic | . . . . | truck[P]\nhole | . . . . | truck\n")
    assert_illegal(g, s2, Sell(1, P), "MC-TURN-ORDER")
    assert_illegal(g, s, Fabricate(), "MC-TURN-ORDER")
    assert_illegal(g, s, Buy(3), "MC-SHOP-BUY")  # an empty slot
    s = g.apply(s, Buy(0))  # price 7
    assert s.seats[0].wallet == 3 and s.pending == "upgrader" and s.phase is Phase.PLACE
    assert s.wheel == (None, "gift_wrapper", None, None, None)
    check_invariants(g, s)
    legal = g.legal_actions(s)
    # the bought tile waits: install or recycle it; the anytime actions (MC-ANYTIME) are offered beside
    assert legal and all(isinstance(a, Place | Recycle | BuyFork | BuyTruck | Complete | Demolish) for a in legal)
    assert any(isinstance(a, Recycle) for a in legal) and any(isinstance(a, Place) for a in legal)
    assert_illegal(g, s, Next(), "MC-PLACE")
    assert_illegal(g, s, Buy(1), "MC-PLACE")
    assert_illegal(g, s, PlaceFabricator(0))
    s = g.apply(s, Place(1, 0, 0))
    assert s.seats[0].factory.at(1, 0).kind == "upgrader" and s.pending is None and s.phase is Phase.BUY
    assert Buy(1) not in g.legal_actions(s)  # 3 coins left, the price-5 tile is too dear
    assert_illegal(g, s, Buy(1), "MC-SHOP-BUY")
    check_invariants(g, s)


def test_a_bought_tile_recycled_makes_its_bot_in_a_start_hole():
    g = load(2)
    s = setup(g, deal=("upgrader", "function_changer"))
    s = g.apply(s, Next())
    s = g.apply(s, Buy(1))  # price 5
    assert s.seats[0].wallet == 3 and s.pending == "function_changer"
    holes = {a for a in g.legal_actions(s) if isinstance(a, Recycle)}
    assert holes == {Recycle(0, 0), Recycle(1, 0), Recycle(2, 0)}
    assert_illegal(g, s, Recycle(3, 0))
    assert_illegal(g, s, Recycle(0, 1))
    s = g.apply(s, Recycle(2, 0))  # a plain Start Zone hole, no fabricator there
    f = s.seats[0].factory
    assert f.start[2].holes == (D,) and s.stock[D] == BOTS_PER_GRADE - 1
    assert s.recycler[g.kind_index["function_changer"]] == 1
    assert s.pending is None and s.phase is Phase.BUY
    check_invariants(g, s)


def test_buying_and_placing_a_fabricator_tile():
    g = load(2)
    s = setup(g, deal=("upgrader", "advanced_fabricator"))
    s = g.apply(s, Next())
    s = g.apply(s, Buy(1))
    legal = g.legal_actions(s)
    assert PlaceFabricator(0) in legal and PlaceFabricator(2) in legal
    assert not any(isinstance(a, Place) for a in legal)
    assert_illegal(g, s, Place(0, 0, 0))
    assert_illegal(g, s, PlaceFabricator(3))
    s = g.apply(s, PlaceFabricator(0))
    assert s.seats[0].factory.start[0].kind == "advanced_fabricator" and s.phase is Phase.BUY
    check_invariants(g, s)
    s = g.apply(s, Next())
    s = g.apply(s, Fabricate())
    assert s.seats[0].factory.start[0].holes[0] == B  # it fabricates this very turn
    assert s.seats[0].factory.start[1].holes == (B,)
    check_invariants(g, s)


def test_fabricating_is_mandatory():
    g = load(2)
    s = setup(g)
    s = g.apply(g.apply(s, Next()), Next())
    assert s.phase is Phase.FABRICATE
    legal = g.legal_actions(s)
    assert Next() not in legal and Fabricate() in legal
    assert not any(isinstance(a, Sell | Buy) for a in legal)
    assert_illegal(g, s, Next(), "MC-FAB")
    assert_illegal(g, s, Fabricate(declare=(P,)), "MC-FAB")  # no Overactive Fabricator to declare for
    assert_illegal(g, s, Buy(0), "MC-TURN-ORDER")
    s = g.apply(s, Fabricate())
    assert s.seats[0].factory.start[1].holes == (B,)
    assert s.phase is Phase.DRAW  # the Shop turned; nothing fell
    check_invariants(g, s)


OVERACTIVE_BOARD = "overactive | . . . . | truck\nbasic | . . . . | truck[B]\nhole | . . . . | truck\n"


def _overactive_turn(players: int):
    g = load(players)
    s = setup(g, extras=EXTRAS_2_3 if players < 4 else ())
    s = with_board(g, s, 0, OVERACTIVE_BOARD)
    s = g.apply(g.apply(s, Next()), Next())
    return g, s


@pytest.mark.parametrize("players", [2, 3, 4])
def test_overactive_gifts_are_offered_to_every_other_player_in_turn_order(players):
    g, s = _overactive_turn(players)
    declares = {a.declare for a in g.legal_actions(s) if isinstance(a, Fabricate)}
    assert declares == {(B,), (P,), (D,)}
    s = g.apply(s, Fabricate(declare=(D,)))
    assert s.seats[0].factory.start[0].holes == (D,)
    assert s.phase is Phase.GIFT
    order = []
    while s.phase is Phase.GIFT:
        who = g.to_move(s)
        order.append(who)
        legal = g.legal_actions(s)
        assert Decline() in legal
        gifts = {a for a in legal if isinstance(a, Gift)}
        assert {a.bot for a in gifts} == {B, P}  # lower than the declared Deluxe
        assert {(a.row, a.hole) for a in gifts} == {(0, 0), (1, 0), (2, 0)}
        assert_illegal(g, s, Gift(D, 0, 0), "MC-FAB-OVERACTIVE")
        assert_illegal(g, s, Gift(B, 5, 0), "MC-FAB-OVERACTIVE")
        assert_illegal(g, s, Next(), "MC-FAB-OVERACTIVE")
        assert_illegal(g, s, BuyFork(0, 0, 0), "MC-FAB-OVERACTIVE")
        before = s.seats[who].factory
        s = g.apply(s, Gift(P, 0, 0))
        assert s.seats[who].factory.start[0].holes == (P,)
        assert s.seats[who].factory.start[1:] == before.start[1:]
        check_invariants(g, s)
    assert order == list(range(1, players))
    assert s.phase is Phase.DRAW


def test_overactive_gift_order_wraps_round_the_table():
    g = load(3)
    s = setup(g)
    s = with_board(g, s, 1, OVERACTIVE_BOARD)
    s = end_turn(g, s, draw="duplicator")
    assert s.current == 1 and s.phase is Phase.SELL
    s = g.apply(g.apply(s, Next()), Next())
    s = g.apply(s, Fabricate(declare=(P,)))
    assert g.to_move(s) == 2
    assert {a for a in g.legal_actions(s) if isinstance(a, Gift)} == {Gift(B, r, 0) for r in range(3)}
    s = g.apply(s, Decline())
    assert g.to_move(s) == 0
    s = g.apply(s, Gift(B, 2, 0))
    assert s.seats[0].factory.start[2].holes == (B,) and s.phase is Phase.DRAW
    check_invariants(g, s)


def test_a_gift_replaces_a_bot_already_in_the_hole():
    g, s = _overactive_turn(2)
    s = g.apply(s, Fabricate(declare=(D,)))
    s = with_board(g, s, 1, "hole | . . . . | truck\nbasic[P] | . . . . | truck\nhole | . . . . | truck\n")
    stock = s.stock
    s = g.apply(s, Gift(B, 1, 0))
    assert s.seats[1].factory.start[1].holes == (B,)
    assert s.stock == (stock[0] - 1, stock[1] + 1, stock[2])
    check_invariants(g, s)


@pytest.mark.parametrize("declared", [B])
def test_no_gift_when_a_basic_bot_is_declared(declared):
    g, s = _overactive_turn(3)
    s = g.apply(s, Fabricate(declare=(declared,)))
    assert s.phase is Phase.DRAW and s.gifts == ()
    check_invariants(g, s)


@pytest.mark.parametrize("why", ["hole occupied", "stock empty"])
def test_no_gift_when_the_overactive_fabricator_makes_nothing(why):
    g, s = _overactive_turn(3)
    if why == "hole occupied":
        s = with_board(g, s, 0, OVERACTIVE_BOARD.replace("overactive", "overactive[B]", 1))
        made = (B,)
    else:  # MC-STOCK: no Deluxe bot left to make (the stock alone is emptied for this check)
        s = attrs.evolve(s, stock=(s.stock[0], s.stock[1], 0))
        made = (None,)
    s = g.apply(s, Fabricate(declare=(D,), replace=()))
    assert s.seats[0].factory.start[0].holes == made  # nothing made
    assert s.phase is not Phase.GIFT


def test_a_covered_fabricator_tile_is_not_lost():
    g = load(2, fabricator_over_fabricator=True)
    s = setup(g, deal=("advanced_fabricator", "overactive_fabricator"))
    s = with_seat(s, 0, wallet=20)
    s = g.apply(s, Next())
    s = g.apply(g.apply(s, Buy(0)), PlaceFabricator(0))
    s = g.apply(s, Buy(1))
    assert PlaceFabricator(0) in g.legal_actions(s)
    s = g.apply(s, PlaceFabricator(0))
    assert s.seats[0].factory.start[0].kind == "overactive_fabricator"
    assert tile_total(g, s) == TOTAL_TILES


def test_shop_rotation_the_last_tile_falls_and_the_current_player_recycles_it():
    g, s = four_quiet_turns()
    s = g.apply(s, Fabricate())
    assert s.phase is Phase.RECYCLE and s.fallen == "function_changer" and g.to_move(s) == 3
    assert s.wheel == (None, "gift_wrapper", "downgrader", "duplicator", "upgrader")
    check_invariants(g, s)
    legal = g.legal_actions(s)
    # the fallen tile's bot, or an action of any time in the turn (MC-ANYTIME): Forks, the wallet holding 8
    recycles = {Recycle(0, 0), Recycle(1, 0), Recycle(2, 0)}
    assert recycles <= set(legal) and all(isinstance(a, Recycle | BuyFork | BuyTruck) for a in legal)
    assert any(isinstance(a, BuyFork) for a in legal)
    old_game = load(4, shop_recycle="current", anytime="steps_1_3")
    assert set(old_game.legal_actions(s)) == recycles
    assert_illegal(old_game, s, BuyFork(0, 0, 0), "MC-SHOP-RECYCLE")
    assert_illegal(g, s, Next(), "MC-SHOP-RECYCLE")
    assert_illegal(g, s, Draw("upgrader"), "MC-SHOP-RECYCLE")
    assert_illegal(g, s, Recycle(4, 0), "MC-RECYCLE")
    s = g.apply(s, Recycle(0, 0))
    assert s.seats[3].factory.start[0].holes == (D,)  # the Function Changer recycles into a Deluxe bot
    assert s.recycler[g.kind_index["function_changer"]] == 1 and s.fallen is None
    assert s.phase is Phase.DRAW and g.to_move(s) is CHANCE
    check_invariants(g, s)
    s = g.apply(s, Draw("static_charger"))
    assert s.wheel == ("static_charger", "gift_wrapper", "downgrader", "duplicator", "upgrader")
    s = close_turn(g, s)
    # the day is over: new day, runs, seat 0's turn (4 players: no double rotation)
    assert s.day == 2 and s.phase is Phase.SELL and s.current == 0
    check_invariants(g, s)


def test_shop_rotation_without_recycling_under_shop_recycle_none():
    g, s = four_quiet_turns(shop_recycle="none")
    boards = [seat.factory for seat in s.seats]
    s = g.apply(s, Fabricate())
    assert s.phase is Phase.DRAW and s.fallen is None
    assert s.recycler[g.kind_index["function_changer"]] == 1
    assert s.seats[3].factory.start[0].holes == (None,) and s.seats[3].factory.start[2].holes == (None,)
    assert [seat.factory for seat in s.seats][:3] == boards[:3]
    check_invariants(g, s)


def test_drawing_onto_price_7_after_each_rotation():
    g = load(3)
    s = setup(g, deal=("upgrader", "gift_wrapper"))
    s = g.apply(g.apply(s, Next()), Next())
    s = g.apply(s, Fabricate())
    assert s.phase is Phase.DRAW and s.wheel == (None, "upgrader", "gift_wrapper", None, None)
    deck = s.deck
    s = g.apply(s, Draw("downgrader"))
    assert s.wheel == ("downgrader", "upgrader", "gift_wrapper", None, None)
    assert s.deck[g.kind_index["downgrader"]] == deck[g.kind_index["downgrader"]] - 1
    s = close_turn(g, s)
    assert s.current == 1 and s.phase is Phase.SELL
    check_invariants(g, s)


def _buy_out_the_shop(players: int):
    g = load(players)
    s = setup(g, deal=("upgrader", "gift_wrapper"), extras=EXTRAS_2_3 if players < 4 else ())
    s = with_seat(s, 0, wallet=20)
    s = g.apply(s, Next())
    for slot in (0, 1):
        s = g.apply(s, Buy(slot))
        s = g.apply(s, Recycle(0, 0))
    assert s.wheel == (None,) * 5 and s.seats[0].wallet == 8
    s = g.apply(s, Next())
    s = g.apply(s, Fabricate())
    assert s.phase is Phase.DRAW
    return g, s


@pytest.mark.parametrize("players", [2, 3])
def test_double_rotation_with_an_extra_for_2_and_3_players(players):
    g, s = _buy_out_the_shop(players)
    s = g.apply(s, Draw("duplicator"))
    # only the price-7 tile was left: the Shop turns once more and an extra goes on price 7
    assert s.phase is Phase.EXTRA and g.to_move(s) is CHANCE
    assert s.wheel == (None, "duplicator", None, None, None)
    out = g.chance_outcomes(s)
    assert dict(out) == {Draw("static_charger"): Fraction(1, 2), Draw("flight_tester"): Fraction(1, 2)}
    deck = s.deck
    s = g.apply(s, Draw("flight_tester"))
    assert s.wheel == ("flight_tester", "duplicator", None, None, None)
    assert s.extras[g.kind_index["flight_tester"]] == 2 and sum(s.extras) == 5 and s.deck == deck
    assert s.phase is Phase.TURN_END and s.wheel == ("flight_tester", "duplicator", None, None, None)  # once
    s = close_turn(g, s)
    assert s.phase is Phase.SELL and s.current == 1
    check_invariants(g, s)


def test_no_double_rotation_with_4_players():
    g, s = _buy_out_the_shop(4)
    s = g.apply(s, Draw("duplicator"))
    assert s.wheel == ("duplicator", None, None, None, None)
    s = close_turn(g, s)
    assert s.phase is Phase.SELL and s.current == 1
    check_invariants(g, s)


def test_no_double_rotation_while_another_tile_is_left():
    g = load(2)
    s = setup(g)
    s = with_seat(s, 0, wallet=20)
    s = g.apply(g.apply(s, Next()), Buy(0))
    s = g.apply(s, Recycle(0, 0))
    s = g.apply(g.apply(s, Next()), Fabricate())
    s = g.apply(s, Draw("duplicator"))
    assert s.wheel == ("duplicator", None, "gift_wrapper", None, None)
    s = close_turn(g, s)
    assert s.phase is Phase.SELL and s.current == 1 and sum(s.extras) == 6


# --- anytime actions ----------------------------------------------------------------------------------


def test_buy_fork_at_any_step_of_the_turn():
    g = load(2)
    s = setup(g)
    for _step in range(3):  # SELL, BUY, FABRICATE
        forks = [a for a in g.legal_actions(s) if isinstance(a, BuyFork)]
        assert BuyFork(0, 0, 0) in forks
        t = g.apply(s, BuyFork(0, 0, 0))
        assert t.seats[0].wallet == s.seats[0].wallet - 1 and t.phase is s.phase
        assert t.seats[0].factory.at(0, 0).kind == "fork"
        assert_illegal(g, t, BuyFork(0, 0, 1), "MC-PLACE-FREE")  # the cell is taken
        check_invariants(g, t)
        if s.phase is not Phase.FABRICATE:
            s = g.apply(s, Next())
    broke = with_seat(s, 0, wallet=0)
    assert not any(isinstance(a, BuyFork) for a in g.legal_actions(broke))
    assert_illegal(g, broke, BuyFork(0, 0, 0), "MC-FORK-BUY")


def test_forks_are_placed_legally_only():
    g = load(2)
    s = setup(g)
    s = with_board(g, s, 0, "hole | . . . . | truck\nbasic | UP0 . . . | truck[B]\nhole | . . . . | truck\n")
    legal = {a for a in g.legal_actions(s) if isinstance(a, BuyFork)}
    assert not any((a.row, a.col) == (1, 0) for a in legal)
    for r in range(3):
        for c in range(4):
            for rot in range(4):
                a = BuyFork(r, c, rot)
                if a in legal:
                    g.apply(s, a)
                else:
                    assert_illegal(g, s, a)
    assert_illegal(g, s, BuyFork(3, 0, 0))
    assert_illegal(g, s, BuyFork(0, 0, 4))


def test_buy_trucks():
    g = load(2)
    s = setup(g)
    s = with_seat(s, 0, wallet=30)
    legal = set(g.legal_actions(s))
    assert {BuyTruck(k, r) for k in ("big_truck", "huge_truck") for r in range(3)} <= legal
    s = g.apply(s, BuyTruck("big_truck", 1))
    dock = s.seats[0].factory.dock
    assert s.seats[0].wallet == 27 and dock[1].kind == "big_truck" and dock[1].load == (B,)  # load stays on
    assert_illegal(g, s, BuyTruck("big_truck", 1), "MC-PLACE-TRUCK")  # not a larger one
    s = g.apply(s, BuyTruck("huge_truck", 1))  # Big -> Huge: 3
    assert s.seats[0].wallet == 24 and s.seats[0].factory.dock[1].kind == "huge_truck"
    s = g.apply(s, BuyTruck("huge_truck", 0))  # Huge outright: 5
    assert s.seats[0].wallet == 19 and s.seats[0].factory.dock[0].kind == "huge_truck"
    for kind in ("big_truck", "huge_truck"):
        assert BuyTruck(kind, 0) not in g.legal_actions(s)
        assert_illegal(g, s, BuyTruck(kind, 0), "MC-PLACE-TRUCK")
    assert_illegal(g, s, BuyTruck("truck", 2), "MC-PLACE-ZONE")
    assert_illegal(g, s, BuyTruck("upgrader", 2), "MC-PLACE-ZONE")
    assert_illegal(g, s, BuyTruck("big_truck", 3))
    poor = with_seat(s, 0, wallet=2)
    assert not any(isinstance(a, BuyTruck) for a in g.legal_actions(poor))
    assert_illegal(g, poor, BuyTruck("big_truck", 2), "MC-TRUCK-BUY")
    three = with_seat(s, 0, wallet=3)
    assert BuyTruck("big_truck", 2) in g.legal_actions(three)
    assert BuyTruck("huge_truck", 2) not in g.legal_actions(three)
    assert_illegal(g, three, BuyTruck("huge_truck", 2), "MC-TRUCK-BUY")
    check_invariants(g, s)


def test_demolish_improvements_forks_and_fabricators():
    g = load(2)
    s = setup(g)
    s = with_board(
        g,
        s,
        0,
        "advanced[BP] | . . . . | truck\nbasic | UP0[P/.] FK0 . . | truck[B]\nhole | DU0[/BB] . . . | truck\n",
    )
    check_invariants(g, s)
    legal = set(g.legal_actions(s))
    assert {Demolish(1, 0), Demolish(1, 1), Demolish(2, 0), DemolishFabricator(0)} <= legal
    assert DemolishFabricator(1) not in legal  # the printed Basic Fabricator stays
    wallet, stock, recycler = s.seats[0].wallet, s.stock, s.recycler
    t = g.apply(s, Demolish(1, 0))
    assert t.seats[0].factory.at(1, 0) is None and t.seats[0].wallet == wallet  # no recycling value
    assert t.stock == (stock[0], stock[1] + 1, stock[2])  # its bot destroyed
    assert t.recycler[g.kind_index["upgrader"]] == recycler[g.kind_index["upgrader"]] + 1
    check_invariants(g, t)
    t = g.apply(s, Demolish(2, 0))
    assert t.stock == (stock[0] + 2, stock[1], stock[2])
    check_invariants(g, t)
    t = g.apply(s, Demolish(1, 1))  # a Fork goes back to the box
    assert t.seats[0].factory.at(1, 1) is None and t.recycler == recycler
    check_invariants(g, t)
    t = g.apply(s, DemolishFabricator(0))
    assert t.seats[0].factory.start[0].kind == "start_hole" and t.seats[0].factory.start[0].holes == (None,)
    assert t.stock == (stock[0] + 1, stock[1] + 1, stock[2])
    assert t.recycler[g.kind_index["advanced_fabricator"]] == 1
    check_invariants(g, t)
    assert_illegal(g, s, Demolish(0, 0), "MC-DEMOLISH")
    assert_illegal(g, s, Demolish(3, 0), "MC-DEMOLISH")
    assert_illegal(g, s, DemolishFabricator(1), "MC-DEMOLISH")
    assert_illegal(g, s, DemolishFabricator(2), "MC-DEMOLISH")


def test_complete_a_blueprint():
    g, s = blueprint_day()
    legal = {a for a in g.legal_actions(s) if isinstance(a, Complete)}
    assert Complete(0, ((0, B), (0, B), (0, B))) in legal
    assert Complete(0, ((1, B), (2, B), (2, B))) in legal  # bots may come from different trucks
    assert Complete(1, ((0, B), (1, B), (1, P))) in legal
    assert all(sorted(b for _r, b in a.take) == sorted([B] * 3) for a in legal if a.pile == 0)
    stock = s.stock
    t = g.apply(s, Complete(0, ((0, B), (2, B), (2, B))))
    seat = t.seats[0]
    assert seat.vault == 10 and seat.wallet == 8 and seat.completed == (1,)
    assert seat.factory.dock[0].load == (B, B) and seat.factory.dock[2].load == ()
    assert t.stock == (stock[0] + 3, stock[1], stock[2])
    assert t.bp_turned == (True, True) and t.bp_top == (1, 2)  # both cards turn
    check_invariants(g, t)
    # MC-BP-ONCE: not the same card twice, though the bots are there
    assert not any(isinstance(a, Complete) and a.pile == 0 for a in g.legal_actions(t))
    assert_illegal(g, t, Complete(0, ((0, B), (0, B), (1, B))), "MC-BP-ONCE")
    # the other card, turned, may still be completed
    t = g.apply(t, Complete(1, ((0, B), (1, B), (1, P))))
    assert t.seats[0].vault == 22 and t.seats[0].completed == (1, 2)
    check_invariants(g, t)


def test_wrong_blueprint_completions_are_illegal():
    g, s = blueprint_day()
    assert_illegal(g, s, Complete(0, ((0, B), (0, B))), "MC-BP-COMPLETE")  # too few
    assert_illegal(g, s, Complete(0, ((0, B), (0, B), (0, B), (2, B))), "MC-BP-COMPLETE")  # too many
    assert_illegal(g, s, Complete(0, ((0, B), (0, B), (1, P))), "MC-BP-COMPLETE")  # wrong grades
    assert_illegal(g, s, Complete(0, ((1, B), (1, B), (1, B))), "MC-BP-COMPLETE")  # truck 1 has one Basic
    assert_illegal(g, s, Complete(1, ((0, B), (0, B), (0, P))), "MC-BP-COMPLETE")  # no Plus on truck 0
    assert_illegal(g, s, Complete(0, ((5, B), (0, B), (0, B))), "MC-BP-COMPLETE")
    assert_illegal(g, s, Complete(2, ((0, B), (0, B), (0, B))), "MC-BP-COMPLETE")
    empty = attrs.evolve(s, bp_top=(None, 2))
    assert_illegal(g, empty, Complete(0, ((0, B), (0, B), (0, B))), "MC-BP-COMPLETE")


def test_another_player_completes_a_turned_card_the_same_day():
    g, s = blueprint_day()
    s = g.apply(s, Complete(0, ((0, B), (0, B), (0, B))))
    s = end_turn(g, s, draw="duplicator")
    assert s.current == 1 and s.day == 1
    s = with_board(g, s, 1, "hole | . . . . | huge[BBB]\nbasic | . . . . | truck\nhole | . . . . | truck\n")
    assert Complete(0, ((0, B), (0, B), (0, B))) in g.legal_actions(s)
    s = g.apply(s, Complete(0, ((0, B), (0, B), (0, B))))
    assert s.seats[1].vault == 10 and s.seats[1].completed == (1,) and s.seats[0].completed == (1,)
    check_invariants(g, s)


@pytest.mark.parametrize(
    ("rule", "turned", "bottom"), [("both", (True, True), ((1,), (2,))), ("completed", (True, False), ((1,), ()))]
)
def test_turned_cards_go_under_their_piles_at_day_end(rule, turned, bottom):
    g, s = blueprint_day(blueprint_turn=rule)
    s = g.apply(s, Complete(0, ((0, B), (0, B), (0, B))))
    assert s.bp_turned == turned
    s = end_turn(g, s, draw="duplicator")
    s = end_turn(g, s, draw="downgrader")
    # the day's end: turned cards under their piles, new tops turned up (chance)
    assert s.phase is Phase.REVEAL and g.to_move(s) is CHANCE
    assert s.bp_bottom == bottom and s.bp_turned == (False, False)
    check_invariants(g, s)
    s = g.apply(s, Reveal(9))
    if rule == "both":
        assert s.phase is Phase.REVEAL
        s = g.apply(s, Reveal(4))
        assert s.bp_top == (9, 4)
    else:
        assert s.bp_top == (9, 2)
    assert s.day == 2 and s.phase is Phase.RUN  # seat 0's full Big Truck: which bot to destroy
    s = settle_chance_and_runs(g, s)
    assert s.day == 2 and s.phase is Phase.SELL and s.current == 0
    check_invariants(g, s)
    # the player who completed card 1 never may again, even when it comes back up
    back = attrs.evolve(s, bp_top=(1, s.bp_top[1]), bp_bottom=((), s.bp_bottom[1]), bp_pool=(*s.bp_pool, 9))
    assert_illegal(g, back, Complete(0, ((0, B), (0, B), (0, B))), "MC-BP-ONCE")


def test_a_pile_whose_unseen_cards_are_gone_shows_its_bottom_cards_again():
    g, s = blueprint_day()
    # pile 0 has no never-seen card left: its turned card comes back up from under the pile
    pool = tuple(c for c in s.bp_pool)
    s = attrs.evolve(s, bp_hidden=(0, len(pool)))
    s = g.apply(s, Complete(0, ((0, B), (0, B), (0, B))))
    s = end_turn(g, s, draw="duplicator")
    s = end_turn(g, s, draw="downgrader")
    assert s.phase is Phase.REVEAL and s.reveal == 1  # pile 0 took its bottom card without chance
    assert s.bp_top[0] == 1 and s.bp_bottom == ((), (2,))
    s = settle_chance_and_runs(g, s)
    assert s.phase is Phase.SELL and s.day == 2


# --- the end ------------------------------------------------------------------------------------------


def _empty_deck(g, s):
    """Move the rest of the deck into the Recycler (keeps the totals)."""
    return attrs.evolve(
        s, recycler=tuple(a + b for a, b in zip(s.recycler, s.deck, strict=True)), deck=(0,) * len(s.deck)
    )


def test_the_game_ends_at_the_end_of_a_day_when_deck_and_shop_are_empty():
    g = load(2)
    s = _empty_deck(g, setup(g))
    turns = 0
    days = [s.day]
    while not g.is_terminal(s):
        assert s.phase is Phase.SELL
        emptied_in_turn = s.current == 0 and s.wheel == (None, None, None, None, "upgrader")
        s = end_turn(g, s)
        s = settle_chance_and_runs(g, s)
        turns += 1
        days.append(s.day)
        check_invariants(g, s)
        if emptied_in_turn:
            assert not g.is_terminal(s) and s.current == 1  # the day goes on though the Shop is empty
    # (7, 5) -> the price-5 tile falls on turn 4, the price-7 tile on turn 5; day 3 ends after turn 6
    assert turns == 6 and s.day == 3
    assert s.phase is Phase.OVER and g.to_move(s) is None and g.legal_actions(s) == ()
    assert s.wheel == (None,) * 5 and sum(s.deck) == 0 and sum(s.extras) == 6  # the extras stay unused
    assert_illegal(g, s, Next(), "MC-END")
    assert_illegal(g, s, Draw("upgrader"), "MC-END")


def test_the_game_goes_on_while_the_shop_holds_a_tile():
    g = load(4)
    s = _empty_deck(g, setup(g, extras=()))
    for _ in range(4):
        s = end_turn(g, s)
    s = settle_chance_and_runs(g, s)
    assert s.wheel == (None, None, None, None, "upgrader") and not g.is_terminal(s) and s.day == 2


def _scored_end(g, wallets, vaults, boards):
    s = setup(g)
    for i, board in enumerate(boards):
        s = with_board(g, s, i, board) if board else s
    for i, (w, v) in enumerate(zip(wallets, vaults, strict=True)):
        s = with_seat(s, i, wallet=w, vault=v)
    s = _empty_deck(g, s)
    on_wheel = [w for w in s.wheel if w is not None]
    recycler = tuple(r + on_wheel.count(k) for r, k in zip(s.recycler, g.kinds, strict=True))
    s = attrs.evolve(s, wheel=(None,) * 5, recycler=recycler, phase=Phase.OVER)
    check_invariants(g, s)
    return s


# installed: Upgrader 2 + Gift Wrapper 3 + Overactive Fabricator 4 (+ Fork 0, trucks 0, printed 0) = 9
VALUED = "overactive | UP0 FK0 . . | huge\nbasic | GW0 . . . | truck\nhole | . . . . | big\n"


def test_scores_are_wallet_plus_vault_plus_installed_improvements():
    g = load(2)
    s = _scored_end(g, (5, 20), (10, 3), (VALUED, None))
    assert g.scores(s) == (5 + 10 + 9, 23)
    assert g.winners(s) == (0,)
    s = _scored_end(g, (5, 1), (10, 1), (VALUED, None))
    assert g.winners(s) == (0,)


def test_tie_is_shared_by_default():
    g = load(3)
    s = _scored_end(g, (5, 20, 1), (10, 4, 0), (VALUED, None, None))
    assert g.scores(s) == (24, 24, 1)
    assert g.winners(s) == (0, 1)


def test_tie_broken_by_money_in_hand_under_the_wallet_variant():
    g = load(3, tie_break="wallet")
    s = _scored_end(g, (5, 20, 1), (10, 4, 0), (VALUED, None, None))
    assert g.scores(s) == (24, 24, 1)
    assert g.winners(s) == (1,)
    s = _scored_end(g, (20, 20, 1), (4, 4, 0), (None, None, None))
    assert g.winners(s) == (0, 1)  # still tied: shared


# --- illegal actions leave the state unchanged --------------------------------------------------------


def _phase_samples():
    """A state in each phase of the game (3 players), and every legal action seen in any of them."""
    g = load(3)
    samples = {}
    s = g.initial_state()
    samples[Phase.SETUP_EXTRAS] = s
    s = setup(g, deal=(), tops=())
    samples[Phase.SETUP_DEAL] = s
    s = setup(g, deal=("upgrader", "overactive_fabricator"), tops=())
    samples[Phase.REVEAL] = s
    s = g.apply(g.apply(s, Reveal(1)), Reveal(2))
    s = with_board(
        g, s, 0, "overactive | UP0[P/.] . . . | huge[BBB]\nbasic | FK0 . . . | big[BP]\nhole | . . . . | truck[D]\n"
    )
    samples[Phase.SELL] = s
    s = g.apply(s, Next())
    samples[Phase.BUY] = s
    samples[Phase.PLACE] = g.apply(s, Buy(0))
    samples["place_start"] = g.apply(s, Buy(1))
    s = g.apply(s, Next())
    samples[Phase.FABRICATE] = s
    samples[Phase.GIFT] = g.apply(s, Fabricate(declare=(D,)))
    s = g.apply(s, Fabricate(declare=(B,)))
    samples[Phase.DRAW] = s
    g2, t = four_quiet_turns()
    t = g2.apply(t, Fabricate())
    samples[Phase.RECYCLE] = t
    g3, u = _buy_out_the_shop(2)
    samples[Phase.EXTRA] = g3.apply(u, Draw("duplicator"))
    v = setup(g, tops=(1,))
    v = with_board(g, v, 1, "hole | . . . . | truck\nbasic[B] | FK0 . . . | truck\nhole | . . . . | truck\n")
    samples[Phase.RUN] = g.apply(v, Reveal(2))
    w = _empty_deck(g, setup(g))
    samples[Phase.OVER] = attrs.evolve(
        w,
        wheel=(None,) * 5,
        phase=Phase.OVER,
        recycler=tuple(r + (k in ("upgrader", "gift_wrapper")) for r, k in zip(w.recycler, g.kinds, strict=True)),
    )
    games = {Phase.RECYCLE: g2, Phase.EXTRA: g3}
    return g, games, samples


WRONG = (
    Next(),
    Sell(0, B),
    Sell(1, D),
    Sell(7, B),
    Buy(0),
    Buy(4),
    Buy(9),
    Place(0, 0, 0),
    Place(9, 9, 0),
    Place(0, 0, 7),
    PlaceFabricator(0),
    PlaceFabricator(1),
    PlaceFabricator(9),
    Recycle(0, 0),
    Recycle(5, 0),
    BuyFork(1, 0, 0),
    BuyFork(9, 0, 0),
    BuyTruck("huge_truck", 0),
    BuyTruck("big_truck", 1),
    BuyTruck("nonsense", 0),
    BuyTruck("fork", 0),
    Complete(0, ((0, B), (0, B), (0, B))),
    Complete(0, ()),
    Complete(1, ((1, P),)),
    Complete(3, ((0, B),)),
    Demolish(0, 0),
    Demolish(0, 1),
    Demolish(9, 9),
    DemolishFabricator(0),
    DemolishFabricator(1),
    DemolishFabricator(7),
    Fabricate(),
    Fabricate(declare=(D,)),
    Fabricate(declare=(B, B)),
    Fabricate(declare=(B,), replace=(1,)),
    Gift(B, 0, 0),
    Gift(P, 1, 0),
    Gift(D, 0, 0),
    Gift(B, 4, 0),
    Decline(),
    Draw("upgrader"),
    Draw("static_charger"),
    Draw("nonsense"),
    Reveal(1),
    Reveal(3),
    Reveal(99),
    Route(1, 0, 1),
    Fly(0, 0, 0, 4),
    Discard(1, 4, B),
    Change(0, 0, B),
    ChooseOutput(0, 0, 0),
)


def test_illegal_actions_in_every_phase_raise_and_leave_the_state_unchanged():
    g, games, samples = _phase_samples()
    for key, s in samples.items():
        phase = key if isinstance(key, Phase) else s.phase
        assert s.phase is phase, (key, s.phase)
    # every action legal somewhere, plus the malformed ones, tried everywhere else
    pool = set(WRONG)
    for key, s in samples.items():
        pool.update(games.get(key, g).legal_actions(s))
    tried = 0
    for key, s in samples.items():
        game = games.get(key, g)
        legal = set(game.legal_actions(s))
        for action in sorted(pool - legal, key=repr):
            assert_illegal(game, s, action)
            tried += 1
        for action in legal:  # and the legal ones are accepted
            game.apply(s, action)
    assert tried > 1000


def test_legal_actions_of_other_phases_are_refused_with_turn_rules():
    g, _games, samples = _phase_samples()
    sell, buy, fab = samples[Phase.SELL], samples[Phase.BUY], samples[Phase.FABRICATE]
    assert_illegal(g, sell, Buy(0), "MC-TURN-ORDER")
    assert_illegal(g, sell, Place(0, 1, 0), "MC-TURN-ORDER")
    assert_illegal(g, sell, Recycle(0, 0), "MC-TURN-ORDER")
    assert_illegal(g, sell, Gift(B, 0, 0), "MC-TURN-ORDER")
    assert_illegal(g, sell, Decline(), "MC-TURN-ORDER")
    assert_illegal(g, sell, Draw("upgrader"), "MC-TURN-ORDER")
    assert_illegal(g, sell, Reveal(3), "MC-TURN-ORDER")
    assert_illegal(g, sell, Route(1, 0, 1), "MC-TURN-ORDER")
    assert_illegal(g, buy, Sell(0, B), "MC-TURN-ORDER")
    assert_illegal(g, fab, Sell(0, B), "MC-TURN-ORDER")
    assert_illegal(g, fab, Buy(0), "MC-TURN-ORDER")
    assert_illegal(g, samples[Phase.PLACE], Sell(0, B), "MC-PLACE")
    waiting = samples[Phase.PLACE]
    forked = g.apply(waiting, BuyFork(0, 1, 0))  # MC-ANYTIME: a Fork while the bought tile waits
    assert forked.phase is Phase.PLACE and forked.pending == waiting.pending
    assert forked.seats[0].wallet == waiting.seats[0].wallet - 1 and forked.seats[0].factory.at(0, 1).kind == "fork"
    old_reading = load(3, anytime="steps_1_3")
    assert_illegal(old_reading, samples[Phase.PLACE], BuyFork(0, 1, 0), "MC-PLACE")
    assert_illegal(g, samples[Phase.DRAW], Next(), "MC-CHANCE")
    assert_illegal(g, samples[Phase.DRAW], Reveal(3), "MC-CHANCE")
    assert_illegal(g, samples[Phase.REVEAL], Reveal(99), "MC-CHANCE")
    assert_illegal(g, samples[Phase.REVEAL], Draw("upgrader"), "MC-CHANCE")
    assert_illegal(g, samples[Phase.SETUP_DEAL], Reveal(1), "MC-CHANCE")
    assert_illegal(g, samples[Phase.RUN], Decline(), "MC-RUN")


# --- random playouts ----------------------------------------------------------------------------------


def _check_walk(game, seed: int) -> int:
    steps = 0
    completed_before = [()] * game.players
    vault_before = [0] * game.players
    last = game.initial_state()
    check_invariants(game, last)
    for _before, _action, after in walk(game, seed):
        check_invariants(game, after)
        for i, seat in enumerate(after.seats):
            assert set(completed_before[i]) <= set(seat.completed)
            assert seat.vault >= vault_before[i]
            completed_before[i], vault_before[i] = seat.completed, seat.vault
        last = after
        steps += 1
    assert steps <= game.info.max_length
    assert game.is_terminal(last) and last.phase is Phase.OVER
    assert sum(last.deck) == 0 and last.wheel == (None,) * len(last.wheel)
    winners = game.winners(last)
    scores = game.scores(last)
    assert winners and all(scores[w] == max(scores) for w in winners)
    return steps


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(6))
def test_conservation_over_random_playouts(players, seed):
    assert _check_walk(load(players), seed) > 0


@pytest.mark.parametrize(
    ("players", "rulings"),
    [
        (2, {"shop_recycle": "none"}),
        (3, {"blueprint_turn": "completed"}),
        (4, {"extras_4p": "unused"}),
        (3, {"tie_break": "wallet"}),
    ],
)
def test_conservation_over_random_playouts_with_variants(players, rulings):
    g = load(players, **rulings)
    for seed in range(3):
        _check_walk(g, seed)


class _Weighted:
    """A playout policy that first picks an action type uniformly, then an action of that type: random
    legal play that buys, completes and gifts far more often than a uniform pick among many Forks."""

    def __init__(self, game, seed):
        self.game = game
        self.rng = random.Random(seed)

    def run(self):
        g, rng = self.game, self.rng
        s = g.initial_state()
        completions = 0
        for step in range(g.info.max_length):
            if g.is_terminal(s):
                return s, step, completions
            if g.to_move(s) is CHANCE:
                outcomes = g.chance_outcomes(s)
                action = rng.choices([a for a, _p in outcomes], weights=[float(p) for _a, p in outcomes])[0]
            else:
                by_type = {}
                for a in g.legal_actions(s):
                    by_type.setdefault(type(a).__name__, []).append(a)
                kinds = sorted(by_type)
                if "BuyFork" in kinds and len(kinds) > 1 and rng.random() < 0.8:
                    kinds.remove("BuyFork")
                if "Demolish" in kinds and len(kinds) > 1 and rng.random() < 0.8:
                    kinds.remove("Demolish")
                action = rng.choice(by_type[rng.choice(kinds)])
            completions += isinstance(action, Complete)
            s = g.apply(s, action)
            check_invariants(g, s)
        raise AssertionError("the game did not end within info.max_length")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_conservation_over_type_weighted_playouts(players):
    g = load(players)
    completions = 0
    for seed in range(4):
        final, _steps, done = _Weighted(g, seed).run()
        assert g.is_terminal(final)
        completions += done
    assert completions > 0  # the check covered Blueprints too


@pytest.mark.heavy
@pytest.mark.parametrize("players", [2, 3, 4])
def test_conservation_over_many_playouts(players):
    g = load(players)
    for seed in range(100):
        _check_walk(g, seed)
        _Weighted(g, 1000 + seed).run()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance_suite(players):
    assert check_game(load(players), range(2)) > 0


@pytest.mark.parametrize(
    "rulings",
    [{"shop_recycle": "none", "blueprint_turn": "completed"}, {"extras_4p": "unused", "tie_break": "wallet"}],
)
def test_conformance_suite_with_variants(rulings):
    assert check_game(load(4, **rulings), range(1)) > 0
    assert check_game(load(2, **rulings), range(1)) > 0


@pytest.mark.heavy
@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance_suite_heavy(players):
    assert check_game(load(players), range(2, 40)) > 0
