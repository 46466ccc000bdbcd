"""The ``greedy`` agent: a one-step lookahead on the game's evaluation, two-step where cheap.

For each legal action of the player to move, the state it leads to is valued for that player by the
game's evaluation (``bgrules.<game>.evaluate.evaluate``): a chance node by the expected value over its
``chance_outcomes`` (exact probabilities, one level deep), a terminal state by its final score plus a bonus
for a win, and, where cheap, a state in which the same player decides again by the best of their next
actions (two steps: at most ``pair_limit`` action pairs, or any number after a choice among at most
``FEW`` first actions, such as paying a toll). The best action is taken; ties are broken by the
rng, so the agent is deterministic given its rng.
"""

from __future__ import annotations

import random
from typing import Any

from bgrules.agents.base import Evaluation, evaluation_for, positive_int
from bgrules.core.protocol import CHANCE, Game

WIN_BONUS = 1000.0
"""Added to a terminal state's value for a winner: ending the game as a winner beats anything else."""
EPSILON = 1e-9
FEW = 3
"""With at most this many first actions (a toll to pay or not, a reward to take or not) the second step
is always looked at."""


class GreedyAgent:
    name = "greedy"

    def __init__(self, pair_limit: int = 64, evaluation: Evaluation | None = None) -> None:
        self.pair_limit = positive_int(pair_limit, "greedy pair_limit")
        self.evaluation = evaluation
        self._for: tuple[Game, Evaluation] | None = None

    def __repr__(self) -> str:
        return f"GreedyAgent(pair_limit={self.pair_limit})"

    def _eval(self, game: Game) -> Evaluation:
        if self.evaluation is not None:
            return self.evaluation
        cached = self._for
        if cached is None or cached[0] is not game:  # the game itself, not its id: ids are reused
            cached = (game, evaluation_for(game)[0])
            self._for = cached
        return cached[1]

    def value(self, game: Game, state: Any, seat: int, depth: int = 2) -> float:
        """The value of ``state`` for ``seat``: see the module doc. ``depth`` 2 allows a chance level and
        the second step of the same player, 1 a chance level, 0 neither."""
        evaluate = self._eval(game)
        if game.is_terminal(state):
            return evaluate(game, state, seat) + (WIN_BONUS if seat in game.winners(state) else 0.0)
        mover = game.to_move(state)
        if depth >= 1 and mover is CHANCE:
            total = 0.0
            for outcome, p in game.chance_outcomes(state):
                total += float(p) * self.value(game, game.apply(state, outcome), seat, 0)
            return total
        if depth >= 2 and mover == seat and (self._width <= FEW or 2 * self._width <= self.pair_limit):
            legal = tuple(game.legal_actions(state))
            if len(legal) > 1 and (self._width <= FEW or len(legal) * self._width <= self.pair_limit):
                return max(self.value(game, game.apply(state, a), seat, 1) for a in legal)
        return evaluate(game, state, seat)

    _width = 1

    def scored(self, game: Game, state: Any) -> list[tuple[float, Any]]:
        """Every legal action with its value for the player to move."""
        seat = game.to_move(state)
        assert isinstance(seat, int)
        legal = tuple(game.legal_actions(state))
        self._width = len(legal)
        return [(self.value(game, game.apply(state, a), seat, 2), a) for a in legal]

    def choose(self, game: Game, state: Any, rng: random.Random) -> Any:
        legal = game.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        scored = self.scored(game, state)
        best = max(v for v, _a in scored)
        tied = [a for v, a in scored if v >= best - EPSILON]
        return tied[rng.randrange(len(tied))] if len(tied) > 1 else tied[0]
