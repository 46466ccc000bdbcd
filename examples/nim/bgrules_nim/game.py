"""The rules of Nim (rules.md), as a bgrules Game.

NIM-SETUP: the heaps hold the ``heaps`` stones; player 0 moves first. NIM-TAKE: the player to move takes
from 1 to ``max_take`` stones (a whole heap when None) from one heap that has stones; then the next player
moves. NIM-END: the game ends when every heap is empty; the player who took the last stone wins (scores 1,
the others 0).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from bgrules import GameInfo, IllegalAction, InputError

RULES = ("NIM-SETUP", "NIM-TAKE", "NIM-END")


@attrs.frozen
class NimState:
    heaps: tuple[int, ...]
    to_move: int
    last: int | None = None
    """The player who took the last stones (the winner once every heap is empty)."""


@attrs.frozen
class Take:
    heap: int
    count: int


def _heaps(value: Any) -> tuple[int, ...]:
    if isinstance(value, str):
        value = [v for v in value.replace(",", " ").split()]
    try:
        heaps = tuple(int(v) for v in value)
    except (TypeError, ValueError):
        raise InputError("heaps", f"whole numbers of stones, not {value!r}") from None
    if not heaps or any(h < 0 for h in heaps) or not any(heaps):
        raise InputError("heaps", f"at least one heap with stones, none negative, not {value!r}")
    return heaps


class NimGame:
    """Nim for ``players`` players (2 to 4)."""

    def __init__(
        self, players: int = 2, variant: Any = None, heaps: Sequence[int] = (3, 4, 5), max_take: int | None = None
    ) -> None:
        if variant is not None:
            raise InputError("variant", "Nim has no variants")
        if max_take is not None and (type(max_take) is not int or max_take < 1):
            raise InputError("max_take", f"a whole number of at least 1, not {max_take!r}")
        self._players = players
        self.heaps = _heaps(heaps)
        self.max_take = max_take
        self._info = GameInfo(
            name="nim",
            min_players=2,
            max_players=4,
            has_chance=False,
            max_length=sum(self.heaps),
            parameters=(("players", "2"), ("heaps", "3,4,5"), ("max_take", "none")),
        )

    @property
    def info(self) -> GameInfo:
        return self._info

    @property
    def players(self) -> int:
        return self._players

    def state_type(self) -> type[Any]:
        return NimState

    def action_types(self) -> Sequence[type[Any]]:
        return (Take,)

    def initial_state(self) -> NimState:
        return NimState(self.heaps, 0)  # NIM-SETUP

    def is_terminal(self, state: NimState) -> bool:
        return not any(state.heaps)  # NIM-END

    def to_move(self, state: NimState) -> int | None:
        return None if self.is_terminal(state) else state.to_move

    def legal_actions(self, state: NimState) -> tuple[Take, ...]:
        if self.is_terminal(state):
            return ()
        return tuple(
            Take(i, n)
            for i, h in enumerate(state.heaps)
            for n in range(1, (h if self.max_take is None else min(h, self.max_take)) + 1)
        )

    def chance_outcomes(self, state: NimState) -> tuple[()]:
        return ()

    def apply(self, state: NimState, action: Any) -> NimState:
        if self.is_terminal(state):
            raise IllegalAction("NIM-END", "the game is over: every heap is empty")
        if not isinstance(action, Take):
            raise IllegalAction("NIM-TAKE", f"a move takes stones (Take), not {action!r}")
        if not 0 <= action.heap < len(state.heaps):
            raise IllegalAction("NIM-TAKE", f"there is no heap {action.heap}")
        most = state.heaps[action.heap] if self.max_take is None else min(state.heaps[action.heap], self.max_take)
        if not 1 <= action.count <= most:
            raise IllegalAction("NIM-TAKE", f"take 1 to {most} stone(s) from heap {action.heap}, not {action.count}")
        heaps = list(state.heaps)
        heaps[action.heap] -= action.count
        return NimState(tuple(heaps), (state.to_move + 1) % self._players, state.to_move)

    def scores(self, state: NimState) -> tuple[int, ...]:
        return tuple(int(self.is_terminal(state) and seat == state.last) for seat in range(self._players))

    def winners(self, state: NimState) -> tuple[int, ...]:
        return (state.last,) if self.is_terminal(state) and state.last is not None else ()

    def end_trigger(self, state: NimState) -> str | None:
        return "NIM-END" if self.is_terminal(state) else None

    def validate(self, state: Any) -> list[str]:
        if not isinstance(state, NimState):
            return [f"a {type(state).__name__}, not a NimState"]
        out = []
        if len(state.heaps) != len(self.heaps):
            out.append(f"{len(state.heaps)} heaps, not {len(self.heaps)}")
        if not 0 <= state.to_move < self._players:
            out.append(f"player {state.to_move} to move in a {self._players}-player game")
        return out


def canonical(game: NimGame, state: NimState) -> Any:
    """Nim's symmetry: which heap holds which stones does not matter (the descriptor's ``symmetries``)."""
    return (tuple(sorted(state.heaps)), state.to_move, state.last)


SCALE = 1.0
"""A typical lead (the agents' evaluation: the descriptor's ``evaluation`` is this module)."""


def evaluate(game: NimGame, state: NimState, seat: int) -> float:
    """The seat's prospects: 1 when the position is lost for the player to move (nim-sum 0) and it is not
    that seat's move, in the two-player game; else its score."""
    if game.is_terminal(state) or game.players != 2:
        return float(game.scores(state)[seat])
    nim_sum = 0
    for h in state.heaps:
        nim_sum ^= h
    mover_loses = nim_sum == 0 and game.max_take is None
    return float(mover_loses == (seat != state.to_move))


__all__ = ["RULES", "NimGame", "NimState", "Take", "canonical", "evaluate"]
