"""The Finance board (財務部): spending tokens (BF-FIN) on raising a bot's value (BF-FIN-RAISE) with the value
lines' rewards (BF-FIN-LINE) and on reserving contracts (BF-FIN-CONTRACT); no additional action; Sandra
raises the lowest values (BF-FIN-SANDRA).

A room of the round (``rooms.ROOMS``): plain functions of the game and a state. ``main_options`` /
``main`` are the main action's options and its guards with its effects (BF-FIN), ``additional_options`` /
``additional`` its (absent) additional action's (BF-ADDITIONAL), ``sandra`` Sandra's action
(BF-FIN-SANDRA)."""

from __future__ import annotations

from typing import Any

from bgrules.botfactory import arith
from bgrules.botfactory.base import _set, additional_rule
from bgrules.botfactory.state import BotFactoryState, Raise, Reserve, Turn
from bgrules.botfactory.tokens import Tokens
from bgrules.core import coverage
from bgrules.core.errors import IllegalAction
from bgrules.core.fastevolve import evolve

RULE = "BF-FIN"
"""The rule of the board's main action (what an action of another board is refused under)."""
ADDITIONAL_RULE: str | None = None
"""The board has no additional action (BF-ADDITIONAL)."""
PLACE_RULE: str | None = None
"""The board offers no paid placement (its value lines' placements are free: BF-FIN-LINE)."""


# --- main action: spend tokens ------------------------------------------------------------------------


def main_options(game: Tokens, state: BotFactoryState, seat: int, turn: Turn) -> list[Any]:
    """BF-FIN: raises (BF-FIN-RAISE, a token each) and reservations (BF-FIN-CONTRACT, their cost within the actions
    left and what the hand can pay, ``arith.can_afford_reservation``)."""
    hand = state.hands[seat]
    out: list[Any] = []
    if hand.tokens >= 1:
        top = game.c.finance.track_max
        out.extend(game._action(Raise, col) for ci, col in enumerate(game.colours) if state.values[ci] < top)
    costs = game.c.finance.reservation_costs
    mode = game.variant.rulings.reservation_tokens
    for slot, seats in enumerate(state.reserved):
        if state.display[slot] is None or seat in seats or len(seats) >= len(costs):
            continue
        cost = costs[len(seats)]
        if arith.can_afford_reservation(hand.tokens, cost, mode) and turn.left >= cost:
            out.append(game._action(Reserve, slot))
    return out


def main(game: Tokens, state: BotFactoryState, seat: int, turn: Turn, action: Any) -> BotFactoryState:
    """BF-FIN: one step of the main action, a raise (BF-FIN-RAISE) or a reservation (BF-FIN-CONTRACT); any
    other main action is not this board's."""
    if isinstance(action, Raise):
        return raise_value(game, state, seat, turn, action)
    if isinstance(action, Reserve):
        return reserve(game, state, seat, turn, action)
    raise IllegalAction(RULE, f"{action!r} is not this board's action")


def raise_value(game: Tokens, state: BotFactoryState, seat: int, turn: Turn, action: Raise) -> BotFactoryState:
    """BF-FIN-RAISE: a token raises a bot's value by one; BF-FIN-LINE: crossing a line offers its reward."""
    ci = game.colour(action.colour)
    if state.values[ci] >= game.c.finance.track_max:
        raise IllegalAction("BF-FIN-RAISE", f"the {action.colour} value is at the top of the track")
    state = game._pay(state, seat, 1, "BF-FIN-RAISE")
    coverage.effect("BF-FIN")
    coverage.effect("BF-FIN-RAISE")
    old = state.values[ci]
    after = evolve(turn, left=turn.left - 1)
    for line, reward in zip(game.c.finance.lines, game.c.finance.line_rewards, strict=True):
        if old < line <= old + 1:  # BF-FIN-LINE
            coverage.effect("BF-FIN-LINE")
            after = evolve(after, prompt=("place_free",) if reward == "part" else ("project",))
    return evolve(state, values=_set(state.values, ci, old + 1), turn=after)


def reserve(game: Tokens, state: BotFactoryState, seat: int, turn: Turn, action: Reserve) -> BotFactoryState:
    """BF-FIN-CONTRACT: at most two players per contract (the first on the higher space), nobody twice;
    the cost is paid (at most the actions left) and one token goes onto the contract's space, one of
    those paid or one more (ruling ``reservation_tokens``; ``"whole_cost"``: the whole cost lies there)."""
    costs = game.c.finance.reservation_costs
    if action.slot not in range(len(state.display)) or state.display[action.slot] is None:
        raise IllegalAction("BF-FIN-CONTRACT", f"no contract in display slot {action.slot}")
    seats = state.reserved[action.slot]
    if not arith.can_reserve(len(seats), seat in seats, len(costs)):
        if seat in seats:
            raise IllegalAction("BF-FIN-CONTRACT", "a player reserves a contract once only")
        raise IllegalAction("BF-FIN-CONTRACT", f"the contract already has {len(seats)} reservations")
    cost = arith.reservation_cost(costs, len(seats))
    if turn.left < cost:
        raise IllegalAction("BF-FIN", f"reserving costs {cost} tokens; {turn.left} may still be spent")
    mode = game.variant.rulings.reservation_tokens
    paid = arith.reservation_paid(cost, mode)
    state = game._pay(state, seat, paid, "BF-FIN-CONTRACT", to_supply=False)
    coverage.effect("BF-FIN")
    coverage.effect("BF-FIN-CONTRACT")
    back = paid - arith.reservation_placed(cost, mode)  # the tokens paid that do not lie on the contract
    if back:
        state = evolve(state, supply=_set(state.supply, seat, state.supply[seat] + back))
    return evolve(
        state, reserved=_set(state.reserved, action.slot, (*seats, seat)), turn=evolve(turn, left=turn.left - cost)
    )


# --- no additional action --------------------------------------------------------------------------


def additional_options(game: Tokens, state: BotFactoryState, seat: int) -> tuple[Any, ...]:
    """BF-ADDITIONAL: the Finance board has no additional action."""
    return ()


def additional(game: Tokens, state: BotFactoryState, seat: int, action: Any) -> BotFactoryState:
    """BF-ADDITIONAL: the Finance board has no additional action: every one is refused (under its own
    board's rule)."""
    raise IllegalAction(additional_rule(action), f"{action!r} is not an additional action of this board now")


# --- Sandra ---------------------------------------------------------------------------------------


def sandra(game: Tokens, state: BotFactoryState, **changes: Any) -> BotFactoryState:
    """BF-FIN-SANDRA: the lowest value(s) rise by one; none when all tie (``changes``: fields it does not
    read, go into its state)."""
    coverage.effect("BF-FIN-SANDRA")
    low = min(state.values)
    if all(v == low for v in state.values):
        return evolve(state, **changes) if changes else state
    values = tuple(v + 1 if v == low else v for v in state.values)
    return evolve(state, values=values, **changes)


__all__ = [
    "ADDITIONAL_RULE",
    "PLACE_RULE",
    "RULE",
    "additional",
    "additional_options",
    "main",
    "main_options",
    "raise_value",
    "reserve",
    "sandra",
]
