"""The table of rooms (BF-ROUND): the room of each board, a module of plain functions
(:mod:`~bgrules.botfactory.assembly`, :mod:`~bgrules.botfactory.production`,
:mod:`~bgrules.botfactory.projects`, :mod:`~bgrules.botfactory.finance`), by the board's number; the round's
phases hand a board's main action, its additional action and Sandra's action there to its room."""

from __future__ import annotations

from typing import Any, Protocol

from bgrules.botfactory import assembly, finance, production, projects
from bgrules.botfactory.state import BotFactoryState, Exchange, Swap, Trade, Turn
from bgrules.botfactory.tokens import Tokens

ADDITIONAL_TYPES = (Swap, Trade, Exchange)
"""The additional actions (BF-ADDITIONAL)."""


class Room(Protocol):
    """A board's room (a module of functions: :mod:`~bgrules.botfactory.assembly`,
    :mod:`~bgrules.botfactory.production`, :mod:`~bgrules.botfactory.projects`,
    :mod:`~bgrules.botfactory.finance`): its main action's options and its guard with its effect, its
    additional action's (BF-ADDITIONAL), and Sandra's action there (BF-SANDRA-ACT)."""

    RULE: str
    ADDITIONAL_RULE: str | None
    """The rule of the board's additional action; None: the board has none."""
    PLACE_RULE: str | None
    """The rule of the board's paid placement (a ``place`` prompt); None: the board offers none."""

    def main_options(self, game: Tokens, state: BotFactoryState, seat: int, turn: Turn) -> list[Any]:
        """BF-ROUND: the main action's options of ``seat`` standing on the board, its turn ``turn`` open."""
        ...

    def main(self, game: Tokens, state: BotFactoryState, seat: int, turn: Turn, action: Any) -> BotFactoryState:
        """BF-ROUND: one step of the board's main action, guarded (an action of another board is refused under
        the board's ``RULE``), and its effect."""
        ...

    def additional_options(self, game: Tokens, state: BotFactoryState, seat: int) -> tuple[Any, ...]:
        """BF-ADDITIONAL: the board's additional actions open to ``seat`` (any number of times)."""
        ...

    def additional(self, game: Tokens, state: BotFactoryState, seat: int, action: Any) -> BotFactoryState:
        """BF-ADDITIONAL: an additional action, guarded (one of ``additional_options``), and its effect."""
        ...

    def sandra(self, game: Tokens, state: BotFactoryState, **changes: Any) -> BotFactoryState:
        """BF-SANDRA-ACT: Sandra's action on the board; ``changes`` (fields it does not read) go into its state."""
        ...


ROOMS: tuple[Room, ...] = (assembly, production, projects, finance)
"""BF-ROUND: the room of each board, by the board's number (ASSEMBLY, PRODUCTION, PROJECT, FINANCE): where
the round hands a main action, an additional action and Sandra's action."""
