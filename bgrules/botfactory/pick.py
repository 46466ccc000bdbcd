"""The set-up pick (BF-SETUP-PARTS): in reverse action order each player takes the top part of a pile of
their choice. Plain functions of the game and a state: the piles offered, and the guard with its effect."""

from __future__ import annotations

from typing import Any

from bgrules.botfactory.base import Base
from bgrules.botfactory.state import BotFactoryState, TakeTop
from bgrules.core import coverage
from bgrules.core.errors import IllegalAction
from bgrules.core.fastevolve import evolve


def options(game: Base, state: BotFactoryState) -> tuple[Any, ...]:
    """BF-SETUP-PARTS: the top part of any pile that has one (or whose discard would refill it)."""
    return tuple(TakeTop(col) for ci, col in enumerate(game.colours) if sum(state.piles[ci]) or sum(state.discards[ci]))


def act(game: Base, state: BotFactoryState, action: Any) -> BotFactoryState:
    """BF-SETUP-PARTS: the player takes the top part of the chosen pile (a draw to their hand)."""
    if not isinstance(action, TakeTop):
        raise IllegalAction("BF-SETUP-PARTS", f"{action!r}: take the top part of a pile (TakeTop)")
    seat = tuple(reversed(state.order))[state.index]
    ci = game.colour(action.colour)
    if not game._drawable(state, ci):
        raise IllegalAction("BF-SETUP-PARTS", f"the {action.colour} pile is empty")
    coverage.effect("BF-SETUP-PARTS")
    return evolve(state, draws=(("part", ci, "hand", seat, 0),), index=state.index + 1, after_discard="pick")
