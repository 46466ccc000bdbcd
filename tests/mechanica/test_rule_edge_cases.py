"""Mechanica's rule edge cases, pinned where a mutation run found the suite silent (issue 8, item 4).

- MC-STOCK with MC-RECYCLE / MC-SHOP-RECYCLE / MC-FAB-OVERACTIVE / MC-FAB-REPLACE: a bot made into an
  occupied Start Zone hole when the stock lacks its grade: the old bot goes back to the stock first, so the
  hole ends empty (or holds the bot again when the old bot was of the lacking grade); never a non-bot.
- MC-FORK-BUY with a free Fork: price 0 charges 0.
- MC-SHOP-DOUBLE with a one-price Shop under 2-3 players.
- ``Step.rule`` on every kind of movement step (MC-MOVE-*, MC-GIFT, MC-CHARGE, MC-FORK, MC-FLIGHT*).
- MC-MOVE-LOOP: the cycle description given by ``find_loop`` and by the placement / factory checks.

Positions are reached through the Game protocol; a seat's board is replaced (``with_board``) by taking its
bots from the stock and its improvements from the deck, so bot and tile totals stay exact.
"""

from __future__ import annotations

import re
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings

import bgrules
from bgrules import IllegalAction, InputError
from bgrules.mechanica import workday
from bgrules.mechanica.components import Bot, Catalogue, Dir, Edge
from bgrules.mechanica.fabricate import Fabricate
from bgrules.mechanica.movement import LAND, TRUCK_BIN, find_loop, node_code, options
from bgrules.mechanica.notation import parse_factory
from bgrules.mechanica.sandbox import Demolish
from bgrules.mechanica.state import (
    Buy,
    BuyFork,
    Draw,
    Gift,
    Next,
    Phase,
    Recycle,
    Reveal,
)
from bgrules.mechanica.strategies import factories
from bgrules.mechanica.variant import MechanicaVariant, Rulings, default_variant, load_variant

B, P, D = Bot.BASIC, Bot.PLUS, Bot.DELUXE
V = default_variant()
NAME = "mechanica"
EXTRAS = ("static_charger",) * 3 + ("flight_tester",) * 3


# --- helpers --------------------------------------------------------------------------------------------


class Table:
    """A loaded game with the order of its improvement kinds (read from the variant, not the game)."""

    def __init__(self, players: int, spec: Any = None) -> None:
        self.game = bgrules.load_game(NAME, players=players, variant=spec)
        self.variant = spec if isinstance(spec, MechanicaVariant) else load_variant(spec)
        self.kinds: tuple[str, ...] = self.variant.game.improvements
        self.per_grade = self.variant.rulings.bots_per_grade

    def k(self, kind: str) -> int:
        return self.kinds.index(kind)

    def setup(self, deal: tuple[str, ...], tops=(1, 2), extras=EXTRAS):
        """Play the set-up's chance steps with chosen outcomes (extras first, then the deal, the tops)."""
        g = self.game
        s = g.initial_state()
        picks = iter(extras)
        while s.phase is Phase.SETUP_EXTRAS:
            s = g.apply(s, Draw(next(picks)))
        for kind in deal:
            assert s.phase is Phase.SETUP_DEAL
            s = g.apply(s, Draw(kind))
        for card in tops:
            assert s.phase is Phase.REVEAL
            s = g.apply(s, Reveal(card))
        assert s.phase is Phase.SELL and s.current == 0
        return s

    def installed(self, factory) -> list[str]:
        kinds = [p.kind for p in factory.floor if p is not None] + [slot.kind for slot in factory.start]
        return [k for k in kinds if k in self.kinds]

    def with_board(self, s, seat: int, text: str, **changes):
        old = s.seats[seat].factory
        new = parse_factory(text, self.variant)
        a, b = old.bot_counts(), new.bot_counts()
        stock = tuple(s.stock[g] - (b[g] - a[g]) for g in range(3))
        deck = list(s.deck)
        for kind in self.installed(new):
            deck[self.k(kind)] -= 1
        for kind in self.installed(old):
            deck[self.k(kind)] += 1
        assert min(stock) >= 0 and min(deck) >= 0
        seats = list(s.seats)
        seats[seat] = attrs.evolve(s.seats[seat], factory=new, **changes)
        return attrs.evolve(s, seats=tuple(seats), stock=stock, deck=tuple(deck))

    def bot_totals(self, s) -> tuple[int, int, int]:
        assert s.run is None
        counts = list(s.stock)
        for seat in s.seats:
            for g, n in enumerate(seat.factory.bot_counts()):
                counts[g] += n
        return (counts[0], counts[1], counts[2])

    def tile_total(self, s) -> int:
        n = sum(s.deck) + sum(s.extras) + sum(w is not None for w in s.wheel) + sum(s.recycler)
        n += sum(len(self.installed(seat.factory)) for seat in s.seats)
        return n + (s.pending is not None) + (s.fallen is not None)


def holes_hold_bots_only(factory) -> bool:
    return all(h is None or type(h) is Bot for slot in factory.start for h in slot.holes)


# Stock-short boards (bots_per_grade = 3): all three Deluxe bots, or all three Plus bots, on this board.
DRAIN_DELUXE = "hole[D] | . . . . | truck\nbasic[B] | . . . . | truck[D]\nhole[D] | . . . . | truck\n"
DRAIN_PLUS = "hole[P] | . . . . | truck\nbasic[B] | . . . . | truck[P]\nhole[P] | . . . . | truck\n"
SHORT = {"rulings": {"bots_per_grade": 3}}


# --- 1. a bot made into an occupied hole when the stock lacks its grade (MC-STOCK) --------------------


@pytest.mark.parametrize(
    ("row", "after", "back"),
    [
        (1, (None,), (1, 0, 0)),  # the Basic bot goes back; no Deluxe to make: the hole ends empty
        (0, (D,), (0, 0, 0)),  # the Deluxe bot goes back first, so a Deluxe bot is made again
    ],
)
def test_recycling_a_bought_tile_into_an_occupied_hole_with_the_grade_out_of_stock(row, after, back):
    t = Table(2, SHORT)
    g = t.game
    s = t.setup(deal=("upgrader", "function_changer"))  # the Function Changer (recycles Deluxe) on price 5
    s = t.with_board(s, 0, DRAIN_DELUXE)
    assert s.stock[D] == 0
    totals = t.bot_totals(s)
    s = g.apply(g.apply(s, Next()), Buy(1))
    assert s.phase is Phase.PLACE and s.pending == "function_changer"
    stock = s.stock
    s = g.apply(s, Recycle(row, 0))  # MC-RECYCLE
    board = s.seats[0].factory
    assert board.start[row].holes == after
    assert holes_hold_bots_only(board)
    assert s.stock == tuple(stock[i] + back[i] for i in range(3))
    assert min(s.stock) >= 0 and t.bot_totals(s) == totals
    assert s.recycler[t.k("function_changer")] == 1 and s.pending is None and s.phase is Phase.BUY
    assert t.tile_total(s) == sum(t.variant.catalogue.tiles[k].copies for k in t.kinds)


@pytest.mark.parametrize(("row", "after", "back"), [(1, (None,), (1, 0, 0)), (2, (D,), (0, 0, 0))])
def test_recycling_a_fallen_tile_into_an_occupied_hole_with_the_grade_out_of_stock(row, after, back):
    # a two-slot Shop: the price-5 tile falls into the Recycler at the first rotation (MC-SHOP-RECYCLE)
    t = Table(2, {**SHORT, "shop": {"prices": [7, 5]}})
    g = t.game
    s = t.setup(deal=("upgrader", "function_changer"))
    s = t.with_board(s, 0, DRAIN_DELUXE)
    totals = t.bot_totals(s)
    s = g.apply(g.apply(g.apply(s, Next()), Next()), Fabricate())  # every making hole occupied: nothing made
    assert s.phase is Phase.RECYCLE and s.fallen == "function_changer" and s.stock[D] == 0
    stock = s.stock
    s = g.apply(s, Recycle(row, 0))
    board = s.seats[0].factory
    assert board.start[row].holes == after and holes_hold_bots_only(board)
    assert s.stock == tuple(stock[i] + back[i] for i in range(3))
    assert t.bot_totals(s) == totals
    assert s.fallen is None and s.phase is Phase.DRAW
    assert s.recycler[t.k("function_changer")] == 1


OVERACTIVE = "overactive | . . . . | truck\nbasic | . . . . | truck\nhole | . . . . | truck\n"


@pytest.mark.parametrize(("row", "after", "back"), [(1, (None,), (1, 0, 0)), (0, (P,), (0, 0, 0))])
def test_a_gift_into_an_occupied_hole_with_the_grade_out_of_stock(row, after, back):
    t = Table(2, SHORT)
    g = t.game
    s = t.setup(deal=("upgrader", "gift_wrapper"))
    s = t.with_board(s, 0, OVERACTIVE)
    s = t.with_board(s, 1, DRAIN_PLUS)
    assert s.stock[P] == 0
    totals = t.bot_totals(s)
    s = g.apply(g.apply(g.apply(s, Next()), Next()), Fabricate(declare=(D,)))
    assert s.phase is Phase.GIFT and g.to_move(s) == 1
    assert Gift(P, row, 0) in g.legal_actions(s)  # the grade is offered even though the stock lacks it
    stock = s.stock
    s = g.apply(s, Gift(P, row, 0))  # MC-FAB-OVERACTIVE, MC-FAB-REPLACE
    board = s.seats[1].factory
    assert board.start[row].holes == after and holes_hold_bots_only(board)
    assert s.stock == tuple(stock[i] + back[i] for i in range(3))
    assert t.bot_totals(s) == totals and min(s.stock) >= 0
    assert s.phase is Phase.DRAW


def test_a_fabricator_replacing_its_bot_with_the_grade_out_of_stock_ends_empty_and_offers_no_gift():
    t = Table(2, SHORT)
    g = t.game
    s = t.setup(deal=("upgrader", "gift_wrapper"))
    s = t.with_board(s, 0, OVERACTIVE.replace("overactive", "overactive[P]", 1).replace("hole |", "hole[D] |"))
    s = t.with_board(s, 1, "hole[D] | . . . . | truck[D]\nbasic | . . . . | truck\nhole | . . . . | truck\n")
    assert s.stock[D] == 0
    totals = t.bot_totals(s)
    s = g.apply(g.apply(s, Next()), Next())
    stock = s.stock
    s = g.apply(s, Fabricate(declare=(D,), replace=(0,)))  # MC-FAB-REPLACE, MC-STOCK
    board = s.seats[0].factory
    assert board.start[0].holes == (None,) and holes_hold_bots_only(board)
    assert board.start[1].holes == (B,)  # the Basic Fabricator still makes its Basic bot
    assert s.stock == (stock[0] - 1, stock[1] + 1, 0)
    assert t.bot_totals(s) == totals
    assert s.phase is not Phase.GIFT and s.gifts == ()  # MC-FAB-OVERACTIVE: nothing made, no gift


# --- 2. a free Fork (MC-FORK-BUY) -------------------------------------------------------------------------


def free_fork_variant() -> MechanicaVariant:
    """A variant whose Fork costs 0. The variant file loader refuses it (a bought tile's price is at least
    1), so it is built in Python, as ``load_game`` accepts a ``MechanicaVariant`` as it is."""
    cat = V.catalogue
    tiles = {**cat.tiles, "fork": attrs.evolve(cat.tiles["fork"], price=0)}
    return MechanicaVariant(catalogue=Catalogue(bots=cat.bots, tiles=tiles))


def test_the_variant_loader_refuses_a_free_fork():
    with pytest.raises(InputError, match=r"tiles\.fork"):
        load_variant({"tiles": {"fork": {"price": 0}}})


@pytest.mark.parametrize("wallet", [0, 5])
def test_a_free_fork_charges_nothing_at_every_step(wallet):
    t = Table(2, free_fork_variant())
    g = t.game
    s = t.setup(deal=("upgrader", "gift_wrapper"))
    seats = list(s.seats)
    seats[0] = attrs.evolve(seats[0], wallet=wallet)
    s = attrs.evolve(s, seats=tuple(seats))
    for step in (Phase.SELL, Phase.BUY, Phase.FABRICATE):
        assert s.phase is step
        assert BuyFork(0, 0, 0) in g.legal_actions(s)  # offered even with an empty wallet
        after = g.apply(s, BuyFork(0, 0, 0))
        assert after.seats[0].wallet == wallet  # price 0 charges 0
        assert after.seats[0].factory.at(0, 0).kind == "fork" and after.phase is step
        # the Fork leaves for the box when demolished: it costs nothing either way
        again = g.apply(after, Demolish(0, 0))
        assert again.seats[0].wallet == wallet and again.seats[0].factory.at(0, 0) is None
        # so buying and demolishing a free Fork comes back to the very same state: the money bound on Fork
        # buys in MC-END-BOUND needs a price of at least 1, which is why variant files refuse price 0
        assert again == s
        if step is not Phase.FABRICATE:
            s = g.apply(s, Next())


def test_a_priced_fork_from_a_variant_file_charges_its_price():
    t = Table(2, {"tiles": {"fork": {"price": 2}}})
    g = t.game
    s = t.setup(deal=("upgrader", "gift_wrapper"))
    assert g.apply(s, BuyFork(0, 0, 0)).seats[0].wallet == s.seats[0].wallet - 2
    seats = list(s.seats)
    seats[0] = attrs.evolve(seats[0], wallet=1)
    poor = attrs.evolve(s, seats=tuple(seats))
    assert not any(isinstance(a, BuyFork) for a in g.legal_actions(poor))
    with pytest.raises(IllegalAction) as info:
        g.apply(poor, BuyFork(0, 0, 0))
    assert info.value.rule_id == "MC-FORK-BUY"


@pytest.mark.parametrize("reference", [False, True])
def test_a_fork_without_a_price_is_not_for_sale(reference):
    """A variant whose Fork has no price sells none: no BuyFork is offered, and one applied anyway is refused
    (MC-FORK-BUY) by both engines, whatever the wallet holds (not given away for nothing)."""
    cat = V.catalogue
    unsold = MechanicaVariant(
        catalogue=Catalogue(bots=cat.bots, tiles={**cat.tiles, "fork": attrs.evolve(cat.tiles["fork"], price=None)})
    )
    g = bgrules.load_game("mechanica", players=2, variant=unsold, reference=reference)
    s = Table(2, unsold).setup(deal=("upgrader", "gift_wrapper"))
    assert s.seats[0].wallet > 0
    assert not any(isinstance(a, BuyFork) for a in g.legal_actions(s))
    with pytest.raises(IllegalAction) as info:
        g.apply(s, BuyFork(0, 0, 0))
    assert info.value.rule_id == "MC-FORK-BUY"


# --- 3. a one-price Shop under the 2-3 player double rotation (MC-SHOP-DOUBLE) ----------------------------

ONE_PRICE = {"shop": {"prices": [7]}, "setup": {"dealt": 1}}


@pytest.mark.parametrize("players", [2, 3])
def test_a_one_price_shop_never_turns_twice_and_loses_no_tile(players):
    """With a single price slot every rotation drops its tile into the Recycler (MC-SHOP-ROTATE), and after
    the draw the price-7 tile is always the only one: the double rotation cannot move it to a cheaper slot
    (there is none), so it does not happen; the drawn tile stays on price 7 and the extras stay unused."""
    t = Table(players, ONE_PRICE)
    g = t.game
    s = t.setup(deal=("upgrader",))
    assert s.wheel == ("upgrader",)
    tiles = t.tile_total(s)
    extras = s.extras
    draws = ("duplicator", "downgrader", "gift_wrapper", "function_changer")
    fallen = ["upgrader", *draws[:-1]]
    for turn, drawn in enumerate(draws):
        seat = s.current
        s = g.apply(g.apply(s, Next()), Next())
        s = g.apply(s, next(a for a in g.legal_actions(s) if isinstance(a, Fabricate)))
        assert s.phase is Phase.RECYCLE and s.fallen == fallen[turn]  # MC-SHOP-ROTATE, MC-SHOP-RECYCLE
        assert s.wheel == (None,)
        s = g.apply(s, Recycle(0, 0))
        assert s.phase is Phase.DRAW
        s = g.apply(s, Draw(drawn))  # MC-SHOP-DRAW
        assert s.wheel == (drawn,), "the drawn tile must stay on the only price slot"
        assert s.extras == extras, "no extra is put out: there was no double rotation"
        assert s.recycler[t.k(fallen[turn])] >= 1
        assert t.tile_total(s) == tiles
        assert s.phase is Phase.TURN_END and s.current == seat  # MC-ANYTIME: the turn's closing decision
        s = g.apply(s, Next())
        assert s.wheel == (drawn,) and s.extras == extras and s.phase is Phase.SELL
        assert s.current == seat + 1 or (seat == players - 1 and s.day == 2 and s.current == 0)
        if s.current == 0:  # a new day: the runs are over, each seat's turn comes again
            break


@pytest.mark.parametrize("players", [2, 3])
def test_a_two_price_shop_still_turns_twice_when_only_price_7_holds_a_tile(players):
    """The contrast: with two slots the same position does turn once more and puts out an extra."""
    t = Table(players, {"shop": {"prices": [7, 5]}, "setup": {"dealt": 1}})
    g = t.game
    s = t.setup(deal=("upgrader",))
    tiles = t.tile_total(s)
    s = g.apply(g.apply(s, Next()), Buy(0))  # the only tile bought: the Shop is empty
    s = g.apply(g.apply(s, Recycle(0, 0)), Next())
    s = g.apply(s, next(a for a in g.legal_actions(s) if isinstance(a, Fabricate)))
    assert s.phase is Phase.DRAW and s.wheel == (None, None)
    s = g.apply(s, Draw("downgrader"))
    # only the price-7 tile is left: it moves to price 5 and an extra goes on price 7
    assert s.phase is Phase.EXTRA and s.wheel == (None, "downgrader")
    s = g.apply(s, Draw("flight_tester"))
    assert s.wheel == ("flight_tester", "downgrader") and sum(s.extras) == 5
    assert s.phase is Phase.TURN_END and s.current == 0  # MC-ANYTIME: the turn's closing decision
    s = g.apply(s, Next())
    assert s.phase is Phase.SELL and s.current == 1
    assert t.tile_total(s) == tiles


@pytest.mark.parametrize("players", [2, 3])
def test_a_one_price_shop_bought_empty_gets_the_draw_and_no_extra(players):
    t = Table(players, ONE_PRICE)
    g = t.game
    s = t.setup(deal=("upgrader",))
    tiles = t.tile_total(s)
    s = g.apply(g.apply(s, Next()), Buy(0))
    s = g.apply(g.apply(s, Recycle(0, 0)), Next())
    s = g.apply(s, next(a for a in g.legal_actions(s) if isinstance(a, Fabricate)))
    assert s.phase is Phase.DRAW and s.wheel == (None,)  # nothing fell
    s = g.apply(s, Draw("downgrader"))
    assert s.wheel == ("downgrader",) and sum(s.extras) == 6
    assert s.phase is Phase.TURN_END and s.current == 0  # MC-ANYTIME: the turn's closing decision
    s = g.apply(s, Next())
    assert s.phase is Phase.SELL and s.current == 1 and s.wheel == ("downgrader",) and sum(s.extras) == 6
    assert t.tile_total(s) == tiles


# --- 5. the rule ID on every kind of movement step (Step.rule) --------------------------------------------

E, N, S, W = int(Dir.E), int(Dir.N), int(Dir.S), int(Dir.W)


def board(middle_row_1: str, row_0: str = ". . . .") -> str:
    return f"hole | {row_0} | truck\nbasic | {middle_row_1} | truck\nhole | . . . . | truck\n"


def only(steps):
    assert len(steps) == 1, steps
    return steps[0]


def test_belt_step_rule():
    step = only(options(parse_factory(board(". . . .")), V, (1, 1, E)))
    assert (step.rule, step.then, step.label) == ("MC-MOVE-BELT", (1, 2, E), None)
    # a bot sent down onto a bare belt rides it east whatever its heading
    step = only(options(parse_factory(board(". . . .")), V, (1, 1, S)))
    assert (step.rule, step.then) == ("MC-MOVE-BELT", (1, 2, E))


def test_stop_step_rules_truck_and_input_hole():
    f = parse_factory(board(". . UP0 ."))
    truck = only(options(f, V, (1, 4, E)))
    assert (truck.rule, truck.arrive, truck.then, truck.destroy) == ("MC-MOVE-STOP", TRUCK_BIN + 1, None, None)
    hole = only(options(f, V, (1, 2, E)))  # the Upgrader's west side is an entrance
    assert (hole.rule, hole.arrive) == ("MC-MOVE-STOP", 1 * 4 + 2)
    landed = only(options(f, V, (1, 2, LAND)))  # a thrown bot stops in the input hole too
    assert (landed.rule, landed.arrive) == ("MC-MOVE-STOP", 6)


@pytest.mark.parametrize("node", [(-1, 1, N), (3, 2, S), (1, -1, W)])
def test_off_floor_step_rule(node):
    step = only(options(parse_factory(board(". . . .")), V, node))
    assert (step.rule, step.destroy, step.then, step.arrive) == ("MC-MOVE-OFF", "MC-MOVE-OFF", None, None)


@pytest.mark.parametrize("tile", ["DU2", "FT2"])  # west side an exit, or flat
def test_edge_step_rule(tile):
    step = only(options(parse_factory(board(f". . {tile} .")), V, (1, 2, E)))
    assert (step.rule, step.destroy) == ("MC-MOVE-EDGE", "MC-MOVE-EDGE")


def test_a_pass_through_tile_without_an_exit_destroys_by_the_edge_rule():
    """Variant files refuse a pass-through tile with no exit; a catalogue built in Python may still hold one,
    and a bot entering it has nowhere to go: MC-MOVE-EDGE."""
    cat = V.catalogue
    closed = attrs.evolve(cat.tiles["gift_wrapper"], edges=(Edge.ENTRANCE,) * 4)
    variant = MechanicaVariant(catalogue=Catalogue(bots=cat.bots, tiles={**cat.tiles, "gift_wrapper": closed}))
    step = only(options(parse_factory(board(". . GW0 ."), variant), variant, (1, 2, E)))
    assert (step.rule, step.destroy, step.gift) == ("MC-MOVE-EDGE", "MC-MOVE-EDGE", 0)


def test_gift_wrapper_step_rule():
    step = only(options(parse_factory(board(". . GW0 .")), V, (1, 2, E)))
    assert (step.rule, step.then, step.gift, step.charge) == ("MC-GIFT", (1, 3, E), 1, None)


def test_static_charger_step_rule():
    step = only(options(parse_factory(board(". . SC0 .")), V, (1, 2, E)))
    assert (step.rule, step.then, step.charge, step.gift) == ("MC-CHARGE", (1, 3, E), 6, 0)


def test_fork_step_rules():
    steps = options(parse_factory(board(". . FK0 .")), V, (1, 2, E))  # exits N and E
    assert [(s.rule, s.label, s.then) for s in steps] == [
        ("MC-FORK", Dir.N, (0, 2, N)),
        ("MC-FORK", Dir.E, (1, 3, E)),
    ]


def test_flight_step_rules_with_and_without_a_jump():
    steps = options(parse_factory(board(". FT0 . .")), V, (1, 1, E))  # flat side east
    assert [(s.rule, s.label, s.then, s.jump) for s in steps] == [
        ("MC-FLIGHT", (1, 2), (1, 2, LAND), 0),
        ("MC-FLIGHT", (1, 3), (1, 3, LAND), 0),
        ("MC-FLIGHT", (1, 4), (1, 4, LAND), 0),
    ]
    steps = options(parse_factory(board(". FT0 GW0 .")), V, (1, 1, E))
    assert [(s.rule, s.label, s.jump) for s in steps] == [
        ("MC-FLIGHT", (1, 2), 0),
        ("MC-FLIGHT", (1, 3), 1),  # MC-FLIGHT-JUMP: over the Gift Wrapper; the rule is still the throw's
        ("MC-FLIGHT", (1, 4), 1),
    ]


def test_flight_with_nowhere_to_land_step_rule():
    # FT3: flat side north, in row 0
    step = only(options(parse_factory(board(". . . .", row_0=". FT3 . .")), V, (0, 1, E)))
    assert (step.rule, step.destroy) == ("MC-FLIGHT-NONE", "MC-FLIGHT-NONE")


def test_loop_step_rule():
    f = parse_factory(board(". . . ."))
    node = (1, 1, E)
    fresh = workday.Run(f, (24, 24, 24), moving=(workday.Moving(B, node, 0),))
    assert only(workday.head_options(fresh, V)).rule == "MC-MOVE-BELT"
    seen = workday.Run(f, (24, 24, 24), moving=(workday.Moving(B, node, 1 << node_code(node)),))
    step = only(workday.head_options(seen, V))
    assert (step.rule, step.destroy, step.then) == ("MC-MOVE-LOOP", "MC-MOVE-LOOP", None)


BY_KIND = {"gift_wrapper": "MC-GIFT", "static_charger": "MC-CHARGE", "fork": "MC-FORK", "flight_tester": "MC-FLIGHT"}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(factories())
def test_every_step_names_the_rule_of_what_it_does(factory):
    """Over random factories and every floor node: a step's rule agrees with its effect and its cell."""
    for r in range(-1, 4):
        for c in range(-1, 5):
            for h in range(5):
                for step in options(factory, V, (r, c, h)):
                    assert step.rule.startswith("MC-")
                    assert sum(x is not None for x in (step.then, step.arrive, step.destroy)) == 1
                    if step.destroy is not None:
                        assert step.rule == step.destroy
                    elif step.arrive is not None:
                        assert step.rule == "MC-MOVE-STOP"
                    else:
                        on_floor = 0 <= r < 3 and 0 <= c < 4
                        placed = factory.at(r, c) if on_floor else None
                        expected = "MC-MOVE-BELT" if placed is None else BY_KIND[placed.kind]
                        assert step.rule == expected, (r, c, h, step)
                    assert (step.gift > 0) == (step.rule == "MC-GIFT")
                    assert (step.charge is not None) == (step.rule == "MC-CHARGE")
                    assert isinstance(step.label, Dir) == (step.rule == "MC-FORK")
                    assert isinstance(step.label, tuple) == (step.rule == "MC-FLIGHT")


# --- 6. a loop's cycle description (MC-MOVE-LOOP) ---------------------------------------------------------

GW_LOOP = "hole[B] | .  GW1  GW2  . | truck\nbasic   | .  .    GW3  . | truck\nhole    | .  .    .    . | truck\n"
FLIGHT_LOOP = "hole[B] | .  FT1  .  . | truck\nbasic   | .  FT3  .  . | truck\nhole    | .  .    .  . | truck\n"
FORK_LOOP = "hole | . GW1 GW2 . | truck\nbasic[B] | . FK1 GW3 . | truck\nhole | . . . . | truck\n"
NO_LOOP = "hole[B] | .  GW1  GW2  . | truck\nbasic   | .  .    GW0  . | truck\nhole    | .  .    .    . | truck\n"


def cycle_nodes(text: str) -> list[tuple[int, int, int]]:
    heads = "NESWL"
    out = []
    for part in text.split(" -> "):
        m = re.fullmatch(r"\((\d),(\d)\)([NESWL])", part)
        assert m, part
        out.append((int(m[1]), int(m[2]), heads.index(m[3])))
    return out


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the bot enters (0,1) from the west, goes down to (1,1), east into GW3, up into GW2, west into GW1,
        # and down to (1,1) again: the cycle starts at the first node entered twice; the lead-in is not in it
        (GW_LOOP, "(1,1)S -> (1,2)E -> (0,2)N -> (0,1)W"),
        # FT1 throws south onto FT3, which throws north back onto FT1: landings are heading L
        (FLIGHT_LOOP, "(1,1)L -> (0,1)L"),
        # the Fork's east exit closes the same ring of Gift Wrappers (its south exit leaves it)
        (FORK_LOOP, "(1,1)S -> (1,2)E -> (0,2)N -> (0,1)W"),
        # the ring opened: (1,2) sends the bot east to the truck instead of up
        (NO_LOOP, None),
    ],
)
def test_find_loop_describes_the_cycle(text, expected):
    f = parse_factory(text)
    found = find_loop(f, V)
    assert found == expected
    if found is None:
        return
    nodes = cycle_nodes(found)
    assert len(set(nodes)) == len(nodes)
    for a, b in zip(nodes, [*nodes[1:], nodes[0]], strict=True):
        assert b in [s.then for s in options(f, V, a)], (a, b)  # each node leads to the next, and round


def test_the_loop_refusals_quote_the_cycle():
    forbid = MechanicaVariant(rulings=Rulings(loop="forbid"))
    with pytest.raises(InputError) as info:
        parse_factory(GW_LOOP, forbid)
    assert "MC-MOVE-LOOP: a bot can loop through (1,1)S -> (1,2)E -> (0,2)N -> (0,1)W" in str(info.value)
    two = parse_factory(GW_LOOP.replace("GW3", ". "), forbid)
    game = bgrules.load_game("mechanica-factory", players=1, variant=forbid, factory=two, supply=["gift_wrapper"])
    assert find_loop(two, forbid) is None
    from bgrules.mechanica.sandbox import Install

    with pytest.raises(IllegalAction) as refused:
        game.apply(game.initial_state(), Install("gift_wrapper", 1, 2, 3))
    assert refused.value.rule_id == "MC-MOVE-LOOP"
    assert "(1,1)S -> (1,2)E -> (0,2)N -> (0,1)W" in str(refused.value)
