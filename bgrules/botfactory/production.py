"""The Part Production board (生產部) and its Wheel: rotating with refills of the top spaces
(BF-PROD-ROTATE), taking an output part (BF-PROD-TAKE) with the marked space's paid placement
(BF-PROD-MARK), the additional action trading three parts for a pile's top part (BF-PROD-TRADE) and
Sandra's action refilling the Wheel (BF-PROD-SANDRA).

A room of the round (``rooms.ROOMS``): plain functions of the game and a state. ``main_options`` /
``main`` are the main action's options and its guards with its effects (BF-PROD), ``additional_options`` /
``additional`` the additional action's (BF-PROD-TRADE), ``sandra`` Sandra's action (BF-PROD-SANDRA)."""

from __future__ import annotations

import itertools
from typing import Any

from bgrules.botfactory.base import _HAND_PARTS, _TURN_LEFT, _TURN_PROMPT, PRODUCTION, _offered, _set, additional_rule
from bgrules.botfactory.state import ROTATE, SKIP, BotFactoryState, Refill, Rotate, TakeOutput, Trade, Turn
from bgrules.botfactory.tokens import Tokens
from bgrules.core import coverage
from bgrules.core.errors import IllegalAction
from bgrules.core.fastevolve import copier, evolve

_OUTPUT_TAKEN = copier(BotFactoryState, "hands", "wheel", "turn")


RULE = "BF-PROD"
"""The rule of the board's main action (what an action of another board is refused under)."""
ADDITIONAL_RULE: str | None = "BF-PROD-TRADE"
"""The rule of the board's additional action."""
PLACE_RULE: str | None = "BF-PROD-MARK"
"""The rule of the board's paid placement (the ``place`` prompt of a marked output space)."""


# --- main action: rotate or take ------------------------------------------------------------------


def main_options(game: Tokens, state: BotFactoryState, seat: int, turn: Turn) -> list[Any]:
    """BF-PROD: the Production action's steps: rotate (BF-PROD-ROTATE) or take an output part (BF-PROD-TAKE)."""
    wheel = state.wheel
    action = game._action
    return [ROTATE, *[action(TakeOutput, p) for p in game.c.wheel.output if wheel[p] is not None]]


def main(game: Tokens, state: BotFactoryState, seat: int, turn: Turn, action: Any) -> BotFactoryState:
    """BF-PROD: one step of the main action, a rotation (BF-PROD-ROTATE) or an output part taken
    (BF-PROD-TAKE); any other main action is not this board's."""
    if isinstance(action, Rotate):
        return rotate(game, state, turn)
    if isinstance(action, TakeOutput):
        return take_output(game, state, seat, turn, action)
    raise IllegalAction(RULE, f"{action!r} is not this board's action")


def rotate(game: Tokens, state: BotFactoryState, turn: Turn) -> BotFactoryState:
    """BF-PROD-ROTATE: the Wheel turns 90 degrees (two spaces) clockwise, then its empty top spaces may
    be refilled."""
    coverage.effect("BF-PROD")
    coverage.effect("BF-PROD-ROTATE")
    wheel = tuple(state.wheel[(i - 2) % 8] for i in range(8))
    return next_refill(game, state, -1, wheel=wheel, turn=_TURN_LEFT(turn, turn.left - 1))


def take_output(game: Tokens, state: BotFactoryState, seat: int, turn: Turn, action: TakeOutput) -> BotFactoryState:
    """BF-PROD-TAKE: take an output part; BF-PROD-MARK: a marked space offers a paid placement."""
    if action.position not in game.c.wheel.output or state.wheel[action.position] is None:
        raise IllegalAction("BF-PROD-TAKE", f"output space {action.position} holds no part")
    part = state.wheel[action.position]
    assert part is not None
    coverage.effect("BF-PROD")
    coverage.effect("BF-PROD-TAKE")
    hand = state.hands[seat]
    hands = _set(state.hands, seat, _HAND_PARTS(hand, tuple(sorted((*hand.parts, part)))))
    after = _TURN_LEFT(turn, turn.left - 1)
    if action.position in game.c.wheel.marked:
        coverage.effect("BF-PROD-MARK")
        after = _TURN_PROMPT(after, ("place",))
    return _OUTPUT_TAKEN(state, hands, _set(state.wheel, action.position, None), after)


def next_refill(
    game: Tokens,
    state: BotFactoryState,
    after: int,
    wheel: tuple[str | None, ...] | None = None,
    turn: Turn | None = None,
    **changes: Any,
) -> BotFactoryState:
    """BF-PROD-ROTATE: each empty top space, left first, may be refilled from the top of any pile. The
    state takes on ``wheel`` and ``turn`` (default: its own) and ``changes``."""
    wheel = state.wheel if wheel is None else wheel
    turn = state.turn if turn is None else turn
    assert turn is not None
    top = game.c.wheel.top  # left first, as the component data lists them
    for pos in top[top.index(after) + 1 :] if after in top else top:
        if wheel[pos] is None:
            return evolve(state, wheel=wheel, turn=_TURN_PROMPT(turn, ("refill", str(pos))), **changes)
    return evolve(state, wheel=wheel, turn=_TURN_PROMPT(turn, ()), **changes)


def refill_options(game: Tokens, state: BotFactoryState, pos: int) -> list[Any]:
    """BF-PROD-ROTATE: refill top space ``pos`` from the top of any pile, or leave it empty."""
    piles = state.piles
    key = ("refill", pos, len(piles)) + piles + state.discards  # noqa: RUF005
    found = game._options_memo.get(key)
    if found is None:
        found = game._remember(
            key,
            tuple([game._action(Refill, pos, col) for ci, col in enumerate(game.colours) if game._drawable(state, ci)]),
        )
    return [*found, SKIP]


def refill(game: Tokens, state: BotFactoryState, pos: int, action: Any) -> BotFactoryState:
    """BF-PROD-ROTATE: refill top space ``pos`` (a draw) or leave it, then offer the next empty one."""
    if isinstance(action, Refill):
        ci = game.colour(action.colour)
        return next_refill(game, state, pos, draws=(("part", ci, "wheel", pos, 0),), after_discard="action")
    return next_refill(game, state, pos)


# --- additional action: trade three parts ------------------------------------------------------------


def additional_options(game: Tokens, state: BotFactoryState, seat: int) -> tuple[Any, ...]:
    """BF-PROD-TRADE: the additional action's options, any number of times: none under three parts."""
    hand = state.hands[seat]
    if len(hand.parts) < 3:  # BF-PROD-TRADE: three parts are needed
        return ()
    key = (PRODUCTION, hand.parts, game._drawables(state))
    found = game._options_memo.get(key)
    if found is None:
        found = game._remember(key, tuple(trade_options(game, state, seat)))
    return found


def trade_options(game: Tokens, state: BotFactoryState, seat: int) -> list[Any]:
    """BF-PROD-TRADE: three parts from hand to the discard for the top part of any pile."""
    hand = state.hands[seat]
    out: list[Any] = []
    if len(hand.parts) >= 3:
        colours = [col for ci, col in enumerate(game.colours) if game._drawable(state, ci)]
        for three in sorted(set(itertools.combinations(hand.parts, 3))):
            out.extend(game._action(Trade, three, col) for col in colours)
    return out


def additional(game: Tokens, state: BotFactoryState, seat: int, action: Any) -> BotFactoryState:
    """BF-ADDITIONAL, BF-PROD-TRADE: an offered trade (``additional_options``), taken (``trade``)."""
    if not _offered(action, additional_options(game, state, seat)):
        raise IllegalAction(additional_rule(action), f"{action!r} is not an additional action of this board now")
    coverage.effect("BF-ADDITIONAL")
    return trade(game, state, seat, action)


def trade(game: Tokens, state: BotFactoryState, seat: int, action: Trade) -> BotFactoryState:
    """BF-PROD-TRADE: the three parts to their discards, a draw from the chosen pile to the hand."""
    coverage.effect("BF-PROD-TRADE")
    parts = list(state.hands[seat].parts)
    for p in action.parts:
        parts.remove(p)
    ci = game.colour(action.colour)
    hands = _set(state.hands, seat, _HAND_PARTS(state.hands[seat], tuple(parts)))
    state = evolve(state, hands=hands, draws=(("part", ci, "hand", seat, 0),), after_discard="action")
    for p in action.parts:
        state = game._discard_part_tile(state, p)
    return state


# --- Sandra ---------------------------------------------------------------------------------------


def sandra(game: Tokens, state: BotFactoryState, **changes: Any) -> BotFactoryState:
    """BF-PROD-SANDRA: fill every empty space clockwise from left of the outputs, by the marker
    (``changes``: fields it does not read, go into its state)."""
    coverage.effect("BF-PROD-SANDRA")
    start = game.c.wheel.sandra_start
    order = [(start + k) % 8 for k in range(8)]
    jobs = tuple(("part", -1, "wheel", pos, 0) for pos in order if state.wheel[pos] is None)
    return evolve(state, draws=jobs, **changes)


__all__ = [
    "ADDITIONAL_RULE",
    "PLACE_RULE",
    "RULE",
    "additional",
    "additional_options",
    "main",
    "main_options",
    "refill",
    "refill_options",
    "sandra",
]
