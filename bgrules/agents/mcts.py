"""The ``mcts`` agent: Monte-Carlo tree search (UCT over every seat's reward, max^n style).

Each iteration walks down the tree from the state to decide: at a player's node it takes the child with
the highest upper confidence bound for that player (``c`` the exploration constant); at a chance node it
samples an outcome with its exact ``chance_outcomes`` probability (each outcome met becomes a child). A
node not yet fully expanded expands one untried action (in ``legal_actions`` order, or with
``order="greedy"`` best first by the evaluation one step on). At the root only the
``top`` actions greedy values best are searched (all of them when there are no more). From the new node a
rollout plays at most ``rollout_steps`` actions by the ``rollout`` policy (``random`` or ``greedy``;
chance sampled), and is then scored: a finished game gives 1 to each winner (shared), a game cut short
(the rollout cut short and scored by the greedy evaluation ``e``) gives each seat, with ``reward="own"``
(the default), ``1 / (1 + exp(-(e_i - e_i(root)) / scale))``, its own gain since the state to decide, as
greedy counts it, or with ``reward="lead"`` ``1 / (1 + exp(-(e_i - max_j!=i e_j) / scale))``, its lead.
``prior`` > 0 starts each root child with that many visits at greedy's value of it. Rewards are added up
the path. The move is the root's most visited child (ties to the first in legal order).

The budget is ``iterations`` (default 200; deterministic given the rng) or ``seconds`` (a wall-clock
budget, so not reproducible; with both, whichever runs out first). ``rollout_steps`` defaults to 0: the
new node itself is scored by the evaluation (random rollouts lose value in Mechanica, docs/agents.md).
Only the rng passed to ``choose`` is used.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from bgrules.agents.base import evaluation_for, positive_float, positive_int
from bgrules.agents.greedy import GreedyAgent
from bgrules.agents.uniform import RandomAgent
from bgrules.core.errors import InputError
from bgrules.core.playout import sample_chance
from bgrules.core.protocol import CHANCE, Game

ROLLOUTS = ("random", "greedy")
ORDERS = ("legal", "greedy")
REWARDS = ("lead", "own")
DEFAULT_ITERATIONS = 200
"""The budget when neither ``iterations`` nor ``seconds`` is given (the budget of docs/agents.md's figures)."""


class _Node:
    __slots__ = ("actions", "children", "mover", "n", "ready", "state", "untried", "w")

    def __init__(self, game: Game, state: Any, players: int) -> None:
        self.state = state
        self.mover = game.to_move(state)
        self.n = 0
        self.w = [0.0] * players
        self.children: dict[Any, _Node] = {}
        if self.mover is None or self.mover is CHANCE:
            self.actions: tuple[Any, ...] = ()
        else:
            self.actions = tuple(game.legal_actions(state))
        self.untried = list(range(len(self.actions)))
        self.ready: dict[int, Any] | None = None


class MctsAgent:
    name = "mcts"

    def __init__(
        self,
        iterations: int | None = None,
        seconds: float | None = None,
        rollout: str = "random",
        rollout_steps: int = 0,
        c: float = 0.7,
        top: int = 8,
        order: str = "legal",
        prior: int = 0,
        reward: str = "own",
    ) -> None:
        self.seconds: float | None = None if seconds is None else positive_float(seconds, "mcts seconds")
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        self.iterations: int | None = None if iterations is None else positive_int(iterations, "mcts iterations")
        if rollout not in ROLLOUTS:
            raise InputError("mcts rollout", f"unknown rollout {rollout!r}; valid: {', '.join(ROLLOUTS)}")
        self.rollout = rollout
        if isinstance(rollout_steps, bool) or not isinstance(rollout_steps, int) or rollout_steps < 0:
            raise InputError("mcts rollout_steps", f"a whole number of at least 0, not {rollout_steps!r}")
        self.rollout_steps = rollout_steps
        self.c = positive_float(c, "mcts c")
        self.top = positive_int(top, "mcts top")
        if order not in ORDERS:
            raise InputError("mcts order", f"unknown order {order!r}; valid: {', '.join(ORDERS)}")
        self.order = order
        if isinstance(prior, bool) or not isinstance(prior, int) or prior < 0:
            raise InputError("mcts prior", f"a whole number of at least 0, not {prior!r}")
        self.prior = prior
        if reward not in REWARDS:
            raise InputError("mcts reward", f"unknown reward {reward!r}; valid: {', '.join(REWARDS)}")
        self.reward = reward
        self._base: list[float] = []
        self._greedy = GreedyAgent(pair_limit=1)
        self._policy: RandomAgent | GreedyAgent = GreedyAgent(pair_limit=1) if rollout == "greedy" else RandomAgent()

    def __repr__(self) -> str:
        budget = f"seconds={self.seconds}" if self.seconds is not None else f"iterations={self.iterations}"
        return f"MctsAgent({budget}, rollout={self.rollout!r}, rollout_steps={self.rollout_steps})"

    def choose(self, game: Game, state: Any, rng: random.Random) -> Any:
        legal = game.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        players = game.players
        evaluate, scale = evaluation_for(game)
        root = _Node(game, state, players)
        self._base = [evaluate(game, state, seat) for seat in range(players)] if self.reward == "own" else []
        prior: dict[int, float] = {}
        if len(root.actions) > self.top or self.prior:  # the root's candidates: greedy's best ``top``
            scored = self._greedy.scored(game, state)
            ranked = sorted(sorted(range(len(scored)), key=lambda i: -scored[i][0])[: self.top])
            root.actions = tuple(root.actions[i] for i in ranked)
            root.untried = list(range(len(root.actions)))
            best_value = max(scored[i][0] for i in ranked)
            for k, i in enumerate(ranked):
                lead = max(-60.0, min(60.0, (scored[i][0] - best_value) / scale))
                prior[k] = 1.0 / (1.0 + math.exp(-lead))
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            self._iterate(game, root, rng, players, evaluate, scale, prior)
            done += 1
        best_n = -1
        best = root.actions[0]
        for i, action in enumerate(root.actions):
            child = root.children.get(i)
            if child is not None and child.n > best_n:
                best_n, best = child.n, action
        return best

    def _iterate(
        self,
        game: Game,
        root: _Node,
        rng: random.Random,
        players: int,
        evaluate: Any,
        scale: float,
        priors: dict[int, float],
    ) -> None:
        node = root
        path = [node]
        while True:
            if node.mover is None:
                break
            if node.mover is CHANCE:
                outcome = sample_chance(game, node.state, rng)
                child = node.children.get(outcome)
                if child is None:
                    child = _Node(game, game.apply(node.state, outcome), players)
                    node.children[outcome] = child
                    node = child
                    path.append(node)
                    break
                node = child
                path.append(node)
                continue
            if node.untried:
                if self.order == "greedy" and node is not root and len(node.untried) == len(node.actions) > 1:
                    self._order(game, node, evaluate)
                i = node.untried.pop(0)
                after = node.ready.pop(i, None) if node.ready else None
                child = _Node(game, game.apply(node.state, node.actions[i]) if after is None else after, players)
                if node is root and self.prior and isinstance(node.mover, int):
                    child.n = self.prior  # greedy's value of the action, as ``prior`` visits
                    child.w[node.mover] = self.prior * priors[i]
                node.children[i] = child
                node = child
                path.append(node)
                break
            node = self._select(node)
            path.append(node)
        reward = self._rollout(game, node.state, rng, players, evaluate, scale)
        for visited in path:
            visited.n += 1
            w = visited.w
            for seat in range(players):
                w[seat] += reward[seat]

    def _order(self, game: Game, node: _Node, evaluate: Any) -> None:
        """Expand the mover's actions best first by the evaluation one step on (``order="greedy"``): the
        first expansions of an opponent's node are then its greedy replies."""
        seat = node.mover
        assert isinstance(seat, int)
        ready = {i: game.apply(node.state, a) for i, a in enumerate(node.actions)}
        values = {i: evaluate(game, s, seat) for i, s in ready.items()}
        node.untried = sorted(node.untried, key=lambda i: -values[i])
        node.ready = ready

    def _select(self, node: _Node) -> _Node:
        seat = node.mover
        assert isinstance(seat, int)
        log_n = math.log(node.n)
        best = None
        best_u = -math.inf
        for i in range(len(node.actions)):
            child = node.children[i]
            u = child.w[seat] / child.n + self.c * math.sqrt(log_n / child.n)
            if u > best_u:
                best_u, best = u, child
        assert best is not None
        return best

    def _rollout(
        self, game: Game, state: Any, rng: random.Random, players: int, evaluate: Any, scale: float
    ) -> list[float]:
        for _ in range(self.rollout_steps):
            mover = game.to_move(state)
            if mover is None:
                break
            action = sample_chance(game, state, rng) if mover is CHANCE else self._policy.choose(game, state, rng)
            state = game.apply(state, action)
        if game.is_terminal(state):
            winners = game.winners(state)
            return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(players)]
        values = [evaluate(game, state, seat) for seat in range(players)]
        if self.reward == "own":  # each seat's own gain since the root, as greedy counts it
            return [
                1.0 / (1.0 + math.exp(max(-60.0, min(60.0, -(values[s] - self._base[s]) / scale))))
                for s in range(players)
            ]
        if players == 1:
            return [1.0 / (1.0 + math.exp(-values[0] / scale))]
        out = []
        for seat in range(players):
            lead = values[seat] - max(v for j, v in enumerate(values) if j != seat)
            out.append(1.0 / (1.0 + math.exp(max(-60.0, min(60.0, -lead / scale)))))
        return out
