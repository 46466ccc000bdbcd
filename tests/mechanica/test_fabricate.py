"""Fabricating, selling and filling Start Zone holes (bgrules.mechanica.fabricate), pinned exactly.

These tests close the gaps a mutmut run of the rule modules left (docs/mutation.md): every option list is
compared whole and in order, every stock count and hole after the action is checked, and every refusal
names its rule and says why.
"""

from __future__ import annotations

import pytest

from bgrules import IllegalAction
from bgrules.core import coverage
from bgrules.mechanica.components import Bot
from bgrules.mechanica.fabricate import (
    Fabricate,
    Sell,
    fabricate,
    fabricate_options,
    fabricators,
    put_in_start_hole,
    sell,
    sell_options,
)
from bgrules.mechanica.factory import Factory
from bgrules.mechanica.notation import parse_factory
from bgrules.mechanica.variant import default_variant

V = default_variant()
B, P, D = Bot.BASIC, Bot.PLUS, Bot.DELUXE


def F(text: str) -> Factory:
    return parse_factory(text, V)


# Advanced Fabricator in row 0 (making hole empty, second hole holding a Plus), the printed Basic
# Fabricator in row 1 (occupied), an Overactive Fabricator in row 2 (occupied).
THREE = F(
    """
    advanced[.P] | . . . . | truck
    basic[D]     | . . . . | truck
    overactive[B]| . . . . | truck
    """
)


# --- MC-FAB: which tiles fabricate ------------------------------------------------------------------


def test_fabricators_lists_only_fabricator_tiles_top_row_first() -> None:
    """MC-FAB: the Advanced and Basic Fabricators make Basic bots, the Overactive one any bot; a printed
    Start Zone hole makes nothing."""
    assert [(r, s.kind, makes) for r, s, makes in fabricators(THREE, V)] == [
        (0, "advanced_fabricator", "basic"),
        (1, "basic_fabricator", "basic"),
        (2, "overactive_fabricator", "any"),
    ]
    plain = F("hole | . . . . | truck\nbasic | . . . . | truck\nhole | . . . . | truck\n")
    assert [(r, makes) for r, _s, makes in fabricators(plain, V)] == [(1, "basic")]


def test_fabricate_options_declare_per_overactive_and_every_replace_subset() -> None:
    """MC-FAB-OVERACTIVE: one declared bot per Overactive Fabricator; MC-FAB-REPLACE: any set of the
    occupied making holes (hole 0) may be emptied. The Advanced Fabricator's making hole is empty (its
    second hole is not a making hole), so only rows 1 and 2 can be replaced."""
    opts = fabricate_options(THREE, V)
    want = [Fabricate((bot,), rep) for bot in (B, P, D) for rep in ((), (1,), (2,), (1, 2))]
    assert opts == want


def test_fabricate_options_without_overactive_or_occupied_holes() -> None:
    empty = F("hole | . . . . | truck\nbasic | . . . . | truck\nhole | . . . . | truck\n")
    assert fabricate_options(empty, V) == [Fabricate((), ())]
    full = F("hole | . . . . | truck\nbasic[P] | . . . . | truck\nhole | . . . . | truck\n")
    assert fabricate_options(full, V) == [Fabricate((), ()), Fabricate((), (1,))]


# --- MC-FAB: making -------------------------------------------------------------------------------


def test_fabricate_fills_empty_making_holes_and_keeps_unreplaced_ones() -> None:
    """MC-FAB: a fabricator with an empty making hole makes its bot from the stock; an occupied hole not
    listed in ``replace`` keeps its bot and nothing is made there."""
    factory, stock, made = fabricate(THREE, (5, 5, 5), V, Fabricate((P,), ()))
    assert [s.holes for s in factory.start] == [(B, P), (D,), (B,)]
    assert stock == (4, 5, 5)
    assert made == ()


def test_fabricate_replace_returns_the_old_bot_and_reports_overactive_bots() -> None:
    """MC-FAB-REPLACE: a replaced hole's bot goes back to the stock first; MC-FAB-OVERACTIVE: the bots the
    Overactive Fabricators actually made are returned (the Basic Fabricator's are not)."""
    factory, stock, made = fabricate(THREE, (5, 5, 5), V, Fabricate((D,), (1, 2)))
    assert [s.holes for s in factory.start] == [(B, P), (B,), (D,)]
    # row 0 takes a Basic, row 1 gives back its Deluxe and takes a Basic, row 2 gives back a Basic and
    # takes a Deluxe
    assert stock == (5 - 1 + 0 - 1 + 1, 5, 5 + 1 - 1)
    assert made == (D,)


def test_fabricate_with_the_grade_missing_leaves_the_replaced_hole_empty() -> None:
    """MC-STOCK: a bot the stock lacks is not made; a replaced making hole ends empty, never holding a
    stale or non-bot value, and the Overactive Fabricator reports nothing made."""
    factory, stock, made = fabricate(THREE, (0, 3, 0), V, Fabricate((D,), (2,)))
    assert [s.holes for s in factory.start] == [(None, P), (D,), (None,)]
    assert stock == (1, 3, 0)  # row 2's Basic went back; no Basic for row 0, no Deluxe for row 2
    assert made == ()
    # a bot given back by one row can be made by a later row, in row order
    factory, stock, made = fabricate(THREE, (0, 3, 0), V, Fabricate((D,), (1, 2)))
    assert [s.holes for s in factory.start] == [(None, P), (None,), (D,)]
    assert stock == (1, 3, 0) and made == (D,)
    factory, stock, made = fabricate(THREE, (0, 0, 0), V, Fabricate((B,), (2,)))
    assert [s.holes for s in factory.start] == [(None, P), (D,), (B,)]
    assert stock == (0, 0, 0) and made == (B,)


@pytest.mark.parametrize(
    "action",
    [
        Fabricate((), ()),  # no declaration for the Overactive Fabricator
        Fabricate((B, P), ()),  # one too many
        Fabricate((B,), (0,)),  # row 0's making hole is empty
        Fabricate((B,), (2, 1)),  # not in row order
        Fabricate((B,), (1, 1)),  # a row twice
    ],
)
def test_fabricate_refuses_malformed_declarations(action: Fabricate) -> None:
    """MC-FAB: one bot per Overactive Fabricator, and only occupied making holes replaced, each once."""
    with pytest.raises(IllegalAction) as e:
        fabricate(THREE, (5, 5, 5), V, action)
    assert e.value.rule_id == "MC-FAB"
    assert e.value.why == (
        f"{action!r}: declare one bot per Overactive Fabricator (top row first) and replace only occupied making holes"
    )


# --- MC-SELL ----------------------------------------------------------------------------------------

DOCK = F(
    """
    hole  | . . . . | huge[BDB]
    basic | . . . . | truck
    hole  | . . . . | big[P]
    """
)


def test_sell_options_one_per_grade_per_truck_in_row_and_grade_order() -> None:
    """MC-SELL: any one bot of a truck may be sold; two Basic bots on one truck are one option."""
    assert sell_options(DOCK) == [Sell(0, B), Sell(0, D), Sell(2, P)]


def test_sell_takes_one_bot_back_to_the_stock_for_its_price() -> None:
    """MC-SELL: 2 / 4 / 6 coins for a Basic / Plus / Deluxe bot; the bot goes back to the stock."""
    factory, stock, coins = sell(DOCK, (1, 2, 3), V, Sell(0, B))
    assert factory.dock[0].load == (B, D) and factory.dock[0].kind == "huge_truck"
    assert factory.dock[2].load == (P,)
    assert stock == (2, 2, 3) and coins == 2
    factory, stock, coins = sell(DOCK, (1, 2, 3), V, Sell(0, D))
    assert factory.dock[0].load == (B, B) and stock == (1, 2, 4) and coins == 6
    factory, stock, coins = sell(DOCK, (1, 2, 3), V, Sell(2, P))
    assert factory.dock[2].load == () and factory.dock[2].kind == "big_truck"
    assert stock == (1, 3, 3) and coins == 4


@pytest.mark.parametrize(
    ("action", "why"),
    [
        (Sell(3, B), "the Loading Dock has rows 0-2, not 3"),
        (Sell(-1, B), "the Loading Dock has rows 0-2, not -1"),
        (Sell(0, P), "the truck in row 0 carries no Plus bot"),
        (Sell(1, B), "the truck in row 1 carries no Basic bot"),
    ],
)
def test_sell_refuses_a_missing_row_or_bot(action: Sell, why: str) -> None:
    with pytest.raises(IllegalAction) as e:
        sell(DOCK, (1, 2, 3), V, action)
    assert (e.value.rule_id, e.value.why) == ("MC-SELL", why)


# --- MC-FAB-REPLACE: a made bot into a Start Zone hole ------------------------------------------------


def test_put_in_start_hole_empty_and_occupied() -> None:
    """MC-FAB-REPLACE: the made bot goes into the hole; a bot already there goes back to the stock."""
    factory, stock = put_in_start_hole(THREE, (2, 2, 2), 0, 0, D)
    assert factory.start[0].holes == (D, P) and stock == (2, 2, 1)
    factory, stock = put_in_start_hole(THREE, (2, 2, 2), 0, 1, B)
    assert factory.start[0].holes == (None, B) and stock == (1, 3, 2)
    assert factory.start[1:] == THREE.start[1:] and factory.floor == THREE.floor


def test_put_in_start_hole_without_the_grade_leaves_the_hole_empty() -> None:
    """MC-STOCK: a bot the stock lacks is not made; the bot that was in the hole still goes back, so the
    hole ends empty (never a non-bot)."""
    factory, stock = put_in_start_hole(THREE, (3, 3, 0), 2, 0, D)
    assert factory.start[2].holes == (None,) and stock == (4, 3, 0)
    # the bot given back is the one asked for: it comes straight back into the hole
    factory, stock = put_in_start_hole(THREE, (0, 0, 0), 1, 0, D)
    assert factory.start[1].holes == (D,) and stock == (0, 0, 0)


@pytest.mark.parametrize(("row", "hole"), [(3, 0), (-1, 0), (1, 1), (0, 2), (0, -1)])
def test_put_in_start_hole_refuses_a_missing_hole(row: int, hole: int) -> None:
    with pytest.raises(IllegalAction) as e:
        put_in_start_hole(THREE, (2, 2, 2), row, hole, B)
    assert (e.value.rule_id, e.value.why) == ("MC-FAB-REPLACE", f"Start Zone row {row} has no hole {hole}")


def test_action_converters_take_plain_values() -> None:
    """The action classes convert JSON-ish values (ints) to bots and row numbers."""
    a = Fabricate([2, 0], ["1"])  # type: ignore[arg-type]
    assert a.declare == (D, B) and a.replace == (1,)
    assert all(type(b) is Bot for b in a.declare) and all(type(r) is int for r in a.replace)
    s = Sell(1, 1)  # type: ignore[arg-type]
    assert s.bot is P and type(s.bot) is Bot


# --- rule coverage: each effect counted where it is applied (bgrules.core.coverage) -----------------------


def test_rule_coverage_of_fabricating_selling_and_filling_holes() -> None:
    """Rule coverage (docs/coverage.md): MC-FAB once per fabricating, MC-FAB-REPLACE once per emptied
    making hole, MC-SELL and MC-BOTS once per sale, MC-FAB-REPLACE when a made bot displaces another."""
    with coverage.recording("tests") as counts:
        fabricate(THREE, (5, 5, 5), V, Fabricate((D,), (1, 2)))
    assert dict(counts.effects) == {"MC-FAB": 1, "MC-FAB-REPLACE": 2}
    with coverage.recording("tests") as counts:
        sell(DOCK, (1, 2, 3), V, Sell(0, B))
    assert dict(counts.effects) == {"MC-SELL": 1, "MC-BOTS": 1}
    with coverage.recording("tests") as counts:
        put_in_start_hole(THREE, (2, 2, 2), 0, 1, B)  # the hole held a Plus
    assert dict(counts.effects) == {"MC-FAB-REPLACE": 1}
    with coverage.recording("tests") as counts:
        put_in_start_hole(THREE, (2, 2, 2), 0, 0, B)  # an empty hole: nothing displaced
    assert dict(counts.effects) == {}
