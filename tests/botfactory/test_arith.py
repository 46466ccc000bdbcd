"""Bot Factory's token arithmetic (bgrules.botfactory.arith), pinned exactly where a mutmut run of the rule
modules found the suite silent (docs/mutation.md): each function against the rule written out by hand over
every small value, as ints and as z3 terms, and the edges (the cap, an empty supply, the last space)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
import z3

from bgrules.botfactory import arith


def ev(term: Any) -> Any:
    """A z3 term over constants evaluated to an int or a bool; a plain value is returned as it is."""
    if not isinstance(term, z3.ExprRef):
        return term
    v = z3.simplify(term)
    return v.as_long() if z3.is_int_value(v) else z3.is_true(v)


Z = z3.IntVal


# --- BF-LIMIT-TOKENS ---------------------------------------------------------------------------------


def test_gain_up_to_the_cap_and_the_colours_supply() -> None:
    """BF-LIMIT-TOKENS: a gain brings at most what the supply of the player's colour holds (the box's
    tokens less those held and those on contracts) and never past the cap; the excess is lost and a
    gain is never negative."""
    for held, on, n, cap, per in itertools.product(range(0, 5), range(0, 3), range(-1, 6), (3, 4), (4, 6)):
        supply = per - held - on
        want_gained = max(0, min(n, supply, cap - held))
        assert arith.supply_left(held, on, per) == supply
        assert arith.gain_room(held, on, cap, per) == min(supply, cap - held)
        assert arith.gained(held, on, n, cap, per) == want_gained
        assert arith.gain(held, on, n, cap, per) == held + want_gained
    # the worked example of the module's docstring: 7 held, 1 on contracts, a gain of 2, cap 9, 9 per colour
    assert arith.gain(7, 1, 2, 9, 9) == 8
    assert ev(arith.gain(Z(7), Z(1), Z(2), 9, 9)) == 8
    assert ev(arith.gained(Z(3), Z(0), Z(-2), 9, 9)) == 0
    assert ev(arith.gain_room(Z(3), Z(2), 4, 9)) == 1
    assert ev(arith.supply_left(Z(3), Z(2), 9)) == 4


def test_pay() -> None:
    """Paying: a cost may be paid from exactly as many tokens, not from fewer."""
    assert arith.can_pay(3, 3) is True and arith.can_pay(2, 3) is False and arith.can_pay(4, 3) is True
    assert arith.pay(5, 3) == 2
    assert ev(arith.can_pay(Z(3), Z(3))) is True and ev(arith.can_pay(Z(2), Z(3))) is False


# --- BF-FIN-CONTRACT -----------------------------------------------------------------------------------


@pytest.mark.parametrize("costs", [(3, 1), (5, 3, 1), (4,), (6, 4, 2, 1)])
def test_reservation_cost_reads_the_next_space_as_int_and_as_z3(costs: tuple[int, ...]) -> None:
    """BF-FIN-CONTRACT: the next free space of a contract reserved ``taken`` times costs ``costs[taken]``,
    the higher space first; a z3 term reads the same value for every representable ``taken`` and the last
    cost past the printed spaces."""
    for taken in range(len(costs)):
        assert arith.reservation_cost(costs, taken) == costs[taken]
        assert ev(arith.reservation_cost(costs, Z(taken))) == costs[taken]
    for past in (len(costs), len(costs) + 1):
        assert ev(arith.reservation_cost(costs, Z(past))) == costs[-1]


def test_reservation_open_and_can_reserve() -> None:
    """BF-FIN-CONTRACT: a player may reserve a contract with a free space they have not reserved."""
    for taken, mine, spaces in itertools.product(range(4), (False, True), (1, 2, 3)):
        want = taken < spaces and not mine
        assert arith.reservation_open(taken, spaces) is (taken < spaces)
        assert arith.can_reserve(taken, mine, spaces) is want
        assert ev(arith.can_reserve(Z(taken), z3.BoolVal(mine), spaces)) is want


@pytest.mark.parametrize(
    ("mode", "paid", "placed"),
    [("one_paid", 3, 1), ("one_more", 4, 1), ("whole_cost", 3, 3)],
)
def test_reservation_tokens_readings(mode: str, paid: int, placed: int) -> None:
    """BF-FIN-CONTRACT ruling ``reservation_tokens``: a reservation costing 3 takes the cost (one more under
    one_more) and places one token (the whole cost under whole_cost) on the contract."""
    assert mode in arith.RESERVATION_TOKENS
    assert arith.reservation_paid(3, mode) == paid
    assert arith.reservation_placed(3, mode) == placed
    assert arith.can_afford_reservation(paid, 3, mode) is True
    assert arith.can_afford_reservation(paid - 1, 3, mode) is False
    assert ev(arith.reservation_paid(Z(3), mode)) == paid
    assert ev(arith.reservation_placed(Z(3), mode)) == placed


def test_tokens_on_contract_counts_the_seats_spaces() -> None:
    """The tokens a seat has on one contract: the value of each filled space it holds (under whole_cost,
    the default), one token per space under the other readings; the seats of a contract may be listed only
    as far as they are filled."""
    costs = (3, 1)
    assert arith.tokens_on_contract(costs, (2,), 1, 2) == 3
    assert arith.tokens_on_contract(costs, (2,), 1, 0) == 0
    assert arith.tokens_on_contract(costs, (2, 0), 2, 0) == 1
    assert arith.tokens_on_contract(costs, (2, 0), 1, 0) == 0  # the second space is not filled yet
    assert arith.tokens_on_contract(costs, (2, 2), 2, 2) == 4
    assert arith.tokens_on_contract(costs, (2, 2), 2, 2, "one_paid") == 2
    assert arith.tokens_on_contract(costs, (2, 2), 2, 2, "whole_cost") == 4
    assert arith.tokens_on_contract(costs, (), 0, 2) == 0
    zs = [Z(2), Z(0)]
    assert ev(arith.tokens_on_contract(costs, zs, Z(2), Z(0))) == 1
    assert ev(arith.tokens_on_contract(costs, zs, Z(1), Z(2))) == 3
    assert ev(arith.tokens_on_contract(costs, zs, Z(2), Z(2), "one_more")) == 1


# --- BF-LIMIT-PARTS / BF-LIMIT-PROJECTS ----------------------------------------------------------------


def test_limits() -> None:
    """BF-LIMIT-PARTS: more parts than the limit; BF-LIMIT-PROJECTS: more Project tiles than the limit,
    completed ones included, with an unfinished one to discard."""
    for parts, unfinished, completed in itertools.product(range(5), range(4), range(4)):
        over_parts = parts > 3
        over_projects = unfinished + completed > 2 and unfinished > 0
        assert arith.parts_over(parts, 3) is over_parts
        assert arith.projects_over(unfinished, completed, 2) is over_projects
        assert arith.over_limits(parts, unfinished, completed, 3, 2) is (over_parts or over_projects)
        assert ev(arith.over_limits(Z(parts), Z(unfinished), Z(completed), 3, 2)) is (over_parts or over_projects)
