"""The rewards both adapters give at the end of a game (docs/integrations.md, "Rewards")."""

from __future__ import annotations

from typing import Any

from bgrules.core.codec import show
from bgrules.core.descriptor import descriptor
from bgrules.core.errors import InputError
from bgrules.core.protocol import Game

REWARDS = ("win", "score")

SCORE_BOUND = 1_000_000
"""The bound declared under ``rewards="score"`` (OpenSpiel's min and max utility): no game's score comes near
it; a score past it is an error, never a return out of bounds."""


def default_rewards(name: str) -> str:
    """The game's descriptor's ``rewards``: ``"score"`` for the one-player factory sandbox (a win is certain
    there), ``"win"`` for the others."""

    return descriptor(name).rewards


def check_rewards(value: Any) -> str:
    if value not in REWARDS:
        raise InputError("rewards", f'"win" or "score", not {show(value)}')
    return str(value)


def final_rewards(game: Game, state: Any, rewards: str) -> list[float]:
    """Each seat's reward for a finished game: under ``"win"`` each of the k winners (``game.winners``, ties
    shared) gets ``1/k`` and every other seat 0 (they sum to 1; no winner at all: ``1/n`` each); under
    ``"score"`` the game's scores (``game.scores``)."""
    n = game.players
    if rewards == "score":
        scores = [float(s) for s in game.scores(state)]
        if any(abs(s) > SCORE_BOUND for s in scores):
            raise AssertionError(f"a score past the declared bound of {SCORE_BOUND}: {scores}")
        return scores
    winners = set(game.winners(state))
    if not winners:
        return [1.0 / n] * n
    return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(n)]
