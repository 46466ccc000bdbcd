"""The ``random`` agent: a uniform choice among the legal actions (the playouts' choice since 0.1)."""

from __future__ import annotations

import random
from typing import Any

from bgrules.core.protocol import Game


class RandomAgent:
    """Uniform over ``legal_actions`` with one ``rng.randrange`` call: a game of random agents is exactly
    the playout of the same seed without agents."""

    name = "random"

    def choose(self, game: Game, state: Any, rng: random.Random) -> Any:
        legal = game.legal_actions(state)
        return legal[rng.randrange(len(legal))]

    def __repr__(self) -> str:
        return "RandomAgent()"
