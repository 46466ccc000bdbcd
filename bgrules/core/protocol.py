"""The Game protocol shared by every game in bgrules.

A game is a set of pure functions over immutable states. Chance is an explicit player
(:data:`CHANCE`) whose outcomes come with exact probabilities; states hold no random generator.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Protocol, runtime_checkable

import attrs


class _Chance(enum.Enum):
    CHANCE = "chance"

    def __repr__(self) -> str:
        return "bgrules.CHANCE"


CHANCE = _Chance.CHANCE
"""Returned by ``to_move`` at a chance node."""

Mover = int | _Chance | None


@attrs.frozen
class GameInfo:
    """A game's nature and bounds (after OpenSpiel's GameType / GameInfo)."""

    name: str
    min_players: int
    max_players: int
    has_chance: bool
    max_length: int
    """An upper bound on the number of actions in any game, as documented in docs/rules."""
    parameters: tuple[tuple[str, str], ...] = ()
    """Parameter names with their default values, as text."""


class GameBase:
    """The protocol's bookkeeping shared by every game: its info record, player count, state class and
    action classes (set by the game's ``__init__`` and class attributes)."""

    STATE: Any
    ACTIONS: tuple[type, ...]
    _info: GameInfo
    _players: int

    @property
    def info(self) -> GameInfo:
        return self._info

    @property
    def players(self) -> int:
        return self._players

    def action_types(self) -> Sequence[type[Any]]:
        return self.ACTIONS

    _last_legal: tuple[Any, tuple[Any, ...]] | None = None

    def legal_actions(self, state: Any) -> tuple[Any, ...]:
        """Every legal action, in a fixed order (memoised for the last state asked about: a playout asks
        once per state, and an invariant checker may ask again)."""
        last = self._last_legal
        if last is not None and last[0] is state:
            return last[1]
        actions = self._legal_actions(state)
        self._last_legal = (state, actions)
        return actions

    def _legal_actions(self, state: Any) -> tuple[Any, ...]:
        raise NotImplementedError

    _last_chance: tuple[Any, tuple[tuple[Any, Fraction], ...]] | None = None

    def chance_outcomes(self, state: Any) -> tuple[tuple[Any, Fraction], ...]:
        """The chance outcomes with exact probabilities, () at a player's decision (memoised for the last
        chance state asked about: a playout's draw, ``apply`` and an invariant checker ask about the same
        one). A game whose ``_chance_outcomes`` is defined gets this; another may define its own."""
        last = self._last_chance
        if last is not None and last[0] is state:  # the very state (held: no id reuse)
            return last[1]
        found = self._chance_outcomes(state)
        if found:
            self._last_chance = (state, found)
        return found

    def _chance_outcomes(self, state: Any) -> tuple[tuple[Any, Fraction], ...]:
        raise NotImplementedError


@runtime_checkable
class Game(Protocol):
    """What every game offers. Actions are small frozen values; states are frozen attrs classes."""

    @property
    def info(self) -> GameInfo: ...

    @property
    def players(self) -> int: ...

    def initial_state(self) -> Any: ...

    def to_move(self, state: Any) -> Mover: ...

    def legal_actions(self, state: Any) -> tuple[Any, ...]: ...

    def chance_outcomes(self, state: Any) -> tuple[tuple[Any, Fraction], ...]: ...

    def apply(self, state: Any, action: Any) -> Any: ...

    def is_terminal(self, state: Any) -> bool: ...

    def scores(self, state: Any) -> tuple[int, ...]: ...

    def winners(self, state: Any) -> tuple[int, ...]: ...

    def state_type(self) -> type[Any]: ...

    def action_types(self) -> Sequence[type[Any]]: ...
