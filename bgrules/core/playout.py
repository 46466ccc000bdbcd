"""Seeded playouts: the driver samples decisions and chance outcomes; states hold no generator."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import attrs

from bgrules.core.protocol import CHANCE, Game


@attrs.frozen
class Playout:
    seed: int
    actions: tuple[Any, ...]
    final: Any
    truncated: bool


def sample_chance(game: Game, state: Any, rng: random.Random) -> Any:
    outcomes = game.chance_outcomes(state)
    x = rng.random()
    acc = 0.0
    for action, p in outcomes:
        acc += float(p)
        if x < acc:
            return action
    return outcomes[-1][0]


def walk(game: Game, seed: int, max_steps: int | None = None) -> Iterator[tuple[Any, Any, Any]]:
    """Yield (state, action, next_state) along one random legal playout from ``seed``."""
    rng = random.Random(seed)
    state = game.initial_state()
    limit = game.info.max_length if max_steps is None else max_steps
    for _ in range(limit):
        if game.is_terminal(state):
            return
        if game.to_move(state) is CHANCE:
            action = sample_chance(game, state, rng)
        else:
            legal = game.legal_actions(state)
            action = legal[rng.randrange(len(legal))]
        nxt = game.apply(state, action)
        yield state, action, nxt
        state = nxt


def playout(
    game: Game, seed: int, max_steps: int | None = None, observe: Callable[[Any], None] | None = None
) -> Playout:
    """One random legal game from ``seed``; the same seed gives the same game in any process."""
    actions = []
    state = game.initial_state()
    if observe is not None:
        observe(state)
    for _before, action, after in walk(game, seed, max_steps):
        actions.append(action)
        state = after
        if observe is not None:
            observe(state)
    return Playout(seed, tuple(actions), state, not game.is_terminal(state))


def replay(game: Game, actions: Any) -> Any:
    state = game.initial_state()
    for action in actions:
        state = game.apply(state, action)
    return state
