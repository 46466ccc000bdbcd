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
        self._carry: tuple[Game, Any, tuple[Any, ...], list[tuple[Any, float]]] | None = None
        """What the last choice looked at beyond itself: (the game, the state the chosen action led to, its
        legal actions, each one's successor with its value one level down), when that state was the same
        player's to decide again and its second step was looked at. When the next decision comes at an
        equal state, its actions' successors and values are taken from here instead of being applied and
        evaluated again (the same states and the same values: the choices are the same)."""

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
        return self._value(game, state, seat, depth, None)

    def _value(self, game: Game, state: Any, seat: int, depth: int, seen: list[Any] | None) -> float:
        """:meth:`value`; where the second step is looked at and ``seen`` is a list, (the legal actions,
        each one's successor with its value) is appended to it."""
        evaluate = self._eval(game)
        if game.is_terminal(state):
            return evaluate(game, state, seat) + (WIN_BONUS if seat in game.winners(state) else 0.0)
        mover = game.to_move(state)
        if depth >= 1 and mover is CHANCE:
            total = 0.0
            for outcome, p in game.chance_outcomes(state):
                total += float(p) * self._value(game, game.apply(state, outcome), seat, 0, None)
            return total
        if depth >= 2 and mover == seat:
            best = self._second(game, state, seat, seen)
            if best is not None:
                return best
        return evaluate(game, state, seat)

    def _second(self, game: Game, state: Any, seat: int, seen: list[Any] | None) -> float | None:
        """The best value of the same player's next actions at ``state`` (one level down each), or None
        where the second step is not looked at (too many pairs, or a single action)."""
        width = self._width
        if not (width <= FEW or 2 * width <= self.pair_limit):
            return None
        legal = tuple(game.legal_actions(state))
        if not (len(legal) > 1 and (width <= FEW or len(legal) * width <= self.pair_limit)):
            return None
        if seen is None:
            return max(self._value(game, game.apply(state, a), seat, 1, None) for a in legal)
        children = []
        for a in legal:
            after = game.apply(state, a)
            children.append((after, self._value(game, after, seat, 1, None)))
        seen.append((legal, children))
        return max(v for _after, v in children)

    def _again(self, game: Game, state: Any, seat: int, known: float, seen: list[Any]) -> float:
        """:meth:`value` at depth 2 of a state whose value at depth 1 is ``known``: the two differ only where
        the same player decides again at ``state`` and the second step is looked at."""
        if game.is_terminal(state) or game.to_move(state) != seat:
            return known  # a terminal state, a chance node or another player's decision: valued alike
        best = self._second(game, state, seat, seen)
        return known if best is None else best

    _width = 1

    def scored(self, game: Game, state: Any) -> list[tuple[float, Any]]:
        """Every legal action with its value for the player to move."""
        return self._scored(game, state, tuple(game.legal_actions(state)), None, None)[0]

    def _scored(
        self,
        game: Game,
        state: Any,
        legal: tuple[Any, ...],
        known: list[tuple[Any, float]] | None,
        seen: list[Any] | None,
    ) -> tuple[list[tuple[float, Any]], list[Any]]:
        """:meth:`scored`, with each action's successor and its value one level down taken from ``known``
        where given, and (the successors, what each one's second step looked at) beside."""
        seat = game.to_move(state)
        assert isinstance(seat, int)
        self._width = len(legal)
        out = []
        successors = []
        looked: list[Any] = []
        for i, a in enumerate(legal):
            step: list[Any] | None = [] if seen is not None else None
            if known is None:
                after = game.apply(state, a)
                v = self._value(game, after, seat, 2, step)
            else:
                after, v1 = known[i]
                v = self._again(game, after, seat, v1, step if step is not None else [])
            out.append((v, a))
            successors.append(after)
            looked.append(step[0] if step else None)
        return out, [successors, looked]

    def choose(self, game: Game, state: Any, rng: random.Random) -> Any:
        carry, self._carry = self._carry, None
        known = None
        if carry is not None and carry[0] is game and carry[1] == state:
            legal, known = carry[2], carry[3]
        else:
            legal = tuple(game.legal_actions(state))
        if len(legal) == 1:
            return legal[0]
        scored, (successors, looked) = self._scored(game, state, legal, known, [])
        best = max(v for v, _a in scored)
        tied = [i for i, (v, _a) in enumerate(scored) if v >= best - EPSILON]
        pick = tied[rng.randrange(len(tied))] if len(tied) > 1 else tied[0]
        if looked[pick] is not None:
            self._carry = (game, successors[pick], looked[pick][0], looked[pick][1])
        return scored[pick][1]
