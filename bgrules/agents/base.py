"""What every agent shares: the protocol, the per-game evaluation and the validation of options."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from bgrules.core.descriptor import Table, descriptors, find
from bgrules.core.errors import InputError
from bgrules.core.protocol import Game

Evaluation = Callable[[Any, Any, int], float]


EVALUATIONS: Table[str, Any] = Table(
    lambda: {d.name: d.evaluation for d in descriptors() if d.evaluation is not None}, "EVALUATIONS"
)
"""Each game's evaluation part (the module holding ``evaluate(game, state, seat)`` and ``SCALE``), by name,
from the descriptors (:mod:`bgrules.core.descriptor`)."""


@runtime_checkable
class Agent(Protocol):
    """A seeded, deterministic policy over the Game protocol: ``choose`` returns a legal action of the
    player to move (never called at a chance node or a terminal state)."""

    name: str

    def choose(self, game: Game, state: Any, rng: random.Random) -> Any: ...


def scores_evaluation(game: Any, state: Any, seat: int) -> float:
    """The fallback for a game without an evaluation of its own: its score now."""
    return float(game.scores(state)[seat])


def evaluation_for(game: Game) -> tuple[Evaluation, float]:
    """The game's evaluation and its scale (a typical lead worth a clear advantage, used by mcts to turn
    leads into rewards)."""

    found = find(getattr(getattr(game, "info", None), "name", None))
    if found is None or found.evaluation is None:
        return scores_evaluation, 5.0
    module = found.part("evaluation", "agents")
    fn: Evaluation = module.evaluate
    return fn, float(module.SCALE)


def positive_int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InputError(where, f"a whole number of at least 1, not {value!r}")
    return value


def positive_float(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise InputError(where, f"a number above 0, not {value!r}")
    return float(value)
