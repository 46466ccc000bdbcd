"""Bot Factory's token and hand-limit arithmetic, written once over Python ints or z3 terms.

The game (its rooms: :mod:`bgrules.botfactory.tokens`, :mod:`~bgrules.botfactory.finance`,
:mod:`~bgrules.botfactory.limits`) calls these functions with ints to play; the z3 encodings
(:mod:`bgrules.botfactory.smt`) call the very same functions with z3 terms to prove. Every function takes
numbers (``int`` or z3 arithmetic terms) and returns a number or a truth value: a ``bool`` when every
argument is a Python value, a z3 term as soon as one argument is a z3 term. The component figures (cap,
tokens per colour, reservation costs, limits) are arguments, read from the variant by the caller.

    gain(held=7, on_contracts=1, n=2, cap=9, per_colour=9)   # 8: the colour's supply has one token left
    gain(z3.Int("h"), z3.Int("o"), z3.Int("n"), 9, 9)         # the same rule as a z3 term
"""

from __future__ import annotations

from collections.abc import Sequence

from bgrules.core.arith import Num, Truth, both, either, ite, maximum, minimum, negate, symbolic

__all__ = ["Num", "Truth", "both", "either", "ite", "maximum", "minimum", "negate"]
_symbolic = symbolic


# --- BF-LIMIT-TOKENS: gains ------------------------------------------------------------------------------


def supply_left(held: Num, on_contracts: Num, per_colour: Num) -> Num:
    """The tokens of the player's colour still in the supply: the box's ``per_colour`` less those held and
    those lying on contracts."""
    return per_colour - held - on_contracts


def gain_room(held: Num, on_contracts: Num, cap: Num, per_colour: Num) -> Num:
    """How many tokens a gain may still bring: up to the cap, and no more than the colour's supply holds."""
    return minimum(supply_left(held, on_contracts, per_colour), cap - held)


def gained(held: Num, on_contracts: Num, n: Num, cap: Num, per_colour: Num) -> Num:
    """BF-LIMIT-TOKENS: the tokens actually received from a gain of ``n`` (the excess is lost; never
    negative)."""
    return maximum(0, minimum(n, gain_room(held, on_contracts, cap, per_colour)))


def gain(held: Num, on_contracts: Num, n: Num, cap: Num, per_colour: Num) -> Num:
    """BF-LIMIT-TOKENS: the tokens held after gaining ``n``."""
    return held + gained(held, on_contracts, n, cap, per_colour)


# --- paying ------------------------------------------------------------------------------------------------


def can_pay(held: Num, n: Num) -> Truth:
    """A cost of ``n`` tokens may be paid from ``held`` (the only guard of ``BotFactoryGame._pay``)."""
    return held >= n


def pay(held: Num, n: Num) -> Num:
    """The tokens held after paying ``n`` (guarded by :func:`can_pay`)."""
    return held - n


# --- BF-FIN-CONTRACT: reservations -------------------------------------------------------------------------


def reservation_cost(costs: Sequence[Num], taken: Num) -> Num:
    """The cost (and value) of the next free reservation space of a contract already reserved ``taken``
    times: ``costs[taken]`` (the higher space first). Only meaningful when ``taken < len(costs)``; past the
    printed spaces a z3 term reads the last cost."""
    if not _symbolic(taken):
        return costs[taken]
    out: Num = costs[-1]
    for i in range(len(costs) - 2, -1, -1):
        out = ite(taken == i, costs[i], out)
    return out


def reservation_open(taken: Num, spaces: int) -> Truth:
    """BF-FIN-CONTRACT: a contract reserved ``taken`` times has a free space (at most ``spaces``, two)."""
    return taken < spaces


def can_reserve(taken: Num, already_mine: Truth, spaces: int) -> Truth:
    """BF-FIN-CONTRACT: a player may reserve a contract with a free space that they have not reserved."""
    return both(negate(already_mine), reservation_open(taken, spaces))


RESERVATION_TOKENS = ("one_paid", "one_more", "whole_cost")
"""The readings of BF-FIN-CONTRACT's token (ruling ``reservation_tokens``): one of the tokens paid goes onto
the contract, the rest to the supply; the cost goes to the supply and one more token onto the contract; or
the whole cost onto the contract (0.3.0)."""


def reservation_paid(cost: Num, mode: str) -> Num:
    """BF-FIN-CONTRACT: the tokens a reservation of ``cost`` takes from the hand (``mode``: one of
    :data:`RESERVATION_TOKENS`): the cost, and one more under ``"one_more"``."""
    return cost + 1 if mode == "one_more" else cost


def reservation_placed(cost: Num, mode: str) -> Num:
    """BF-FIN-CONTRACT: the tokens a reservation of ``cost`` puts on the contract's space: the whole cost
    under ``"whole_cost"``, else one token (the seed: 放置一個自己的話語指示物到合約板塊上)."""
    return cost if mode == "whole_cost" else 1


def can_afford_reservation(held: Num, cost: Num, mode: str) -> Truth:
    """BF-FIN-CONTRACT: the hand holds what a reservation of ``cost`` takes."""
    return can_pay(held, reservation_paid(cost, mode))


def tokens_on_contract(
    costs: Sequence[Num], seats: Sequence[Num], taken: Num, seat: Num, mode: str = "whole_cost"
) -> Num:
    """The tokens ``seat`` has on one contract whose reservation spaces, in order, hold ``seats`` (the first
    ``taken`` of them filled): on each space they hold, :func:`reservation_placed` of its value
    (``BotFactoryGame.on_contracts`` sums this over the display)."""
    total: Num = 0
    for i, (cost, s) in enumerate(zip(costs, seats, strict=False)):
        total = total + ite(both(i < taken, s == seat), reservation_placed(cost, mode), 0)
    return total


# --- BF-LIMIT-PARTS / BF-LIMIT-PROJECTS --------------------------------------------------------------------


def parts_over(parts: Num, part_limit: Num) -> Truth:
    """BF-LIMIT-PARTS: more part tiles than the limit (these are discarded first)."""
    return parts > part_limit


def projects_over(unfinished: Num, completed: Num, project_limit: Num) -> Truth:
    """BF-LIMIT-PROJECTS: more Project tiles than the limit, completed ones included, with an unfinished
    one to discard (completed ones are never discarded)."""
    return both(unfinished + completed > project_limit, unfinished > 0)


def over_limits(parts: Num, unfinished: Num, completed: Num, part_limit: Num, project_limit: Num) -> Truth:
    """The player must discard before play goes on (``limits.check``)."""
    return either(parts_over(parts, part_limit), projects_over(unfinished, completed, project_limit))
