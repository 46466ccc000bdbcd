"""Seeded playouts for the tests, walked by the refinement harness's walker
(:func:`bgrules.core.refinement.walk_states`, docs/refinement.md), so that the speed tests and the
refinement tests visit the very same states for the same seed: a uniform random choice per decision (or
the seats' agents), chance drawn from the same rng, at most ``max_steps`` actions (default the game's
``info.max_length``) and the runner's round cap."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from bgrules.core.protocol import Game
from bgrules.core.refinement import walk_states


def states(game: Game, seed: int, max_steps: int | None = None, agents: Sequence[Any] | None = None) -> Iterator[Any]:
    """Every state of the playout from ``seed``, the initial one first."""
    limit = game.info.max_length if max_steps is None else max_steps
    for state, _trace in walk_states(game, seed, limit, agents):
        yield state


def steps(
    game: Game, seed: int, max_steps: int | None = None, agents: Sequence[Any] | None = None
) -> Iterator[tuple[Any, Any, Any]]:
    """(state, action, next state) for every action of the playout from ``seed``."""
    before = None
    limit = game.info.max_length if max_steps is None else max_steps
    for state, trace in walk_states(game, seed, limit, agents):
        if trace:
            yield before, trace[-1], state
        before = state


def actions(game: Game, seed: int, max_steps: int | None = None, agents: Sequence[Any] | None = None) -> list[Any]:
    """The actions (and chance outcomes) of the playout from ``seed``, in order."""
    limit = game.info.max_length if max_steps is None else max_steps
    last: tuple[Any, ...] = ()
    for _state, trace in walk_states(game, seed, limit, agents):
        last = trace
    return list(last)
