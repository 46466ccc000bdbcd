"""Where greedy play's time goes (issue 12, item 3: greedy play at >= 0.5x random play's steps/s).

    python benchmarks/profile_agents.py --game botfactory|mechanica [--players 4] [--games 2] [--profile] [--top 30]

Plays ``--games`` seeded games (seeds 0..games-1, Bot Factory capped at 40 rounds as in bench_agents.py)
with greedy in every seat and reports, in CPU time (``time.process_time``):

- greedy's and random play's steps per CPU second on the same seeds, and their ratio;
- the arithmetic of a greedy step: the applies (the step's own and the look-ahead's), evaluations,
  ``legal_actions`` and ``chance_outcomes`` calls per step and per decision, and the cost of one apply and
  one evaluation, measured apart by replaying the recorded look-ahead applies and re-evaluating the
  recorded states (memos cleared first, in play order, as play meets them);
- the bound this puts on the ratio: a greedy step costs at least its applies, so greedy/random is at most
  (random's CPU per step) / (applies per step x CPU per apply), whatever the evaluation costs.

``--profile`` adds the top functions under cProfile (by cumulative and by own time).
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import io
import pstats
import time
from collections import Counter
from typing import Any

from bgrules.agents import GreedyAgent
from bgrules.agents.base import EVALUATIONS
from bgrules.core.playout import walk
from bgrules.core.registry import load_game


def _cap(name: str) -> int | None:
    return 40 if name == "botfactory" else None


def play(game: Any, seeds: range, agents: Any) -> int:
    steps = 0
    for seed in seeds:
        for _ in walk(game, seed, max_rounds=_cap(game.info.name), agents=agents):
            steps += 1
    return steps


def _clear_memos(module: Any) -> None:
    for value in vars(module).values():
        if isinstance(value, dict) and value and all(isinstance(k, tuple) for k in list(value)[:3]):
            value.clear()


def counted(game: Any, seeds: range) -> tuple[Counter[str], list[tuple[Any, Any]], list[tuple[Any, int]]]:
    """The calls greedy play makes, and the look-ahead applies and evaluations it made, in order."""
    module = importlib.import_module(EVALUATIONS[game.info.name])
    evaluate = module.evaluate
    calls: Counter[str] = Counter()
    applies: list[tuple[Any, Any]] = []
    evaluated: list[tuple[Any, int]] = []
    inside = [False]
    apply, legal, outcomes = game.apply, game.legal_actions, game.chance_outcomes

    def apply_(state: Any, action: Any) -> Any:
        calls["apply (look-ahead)" if inside[0] else "apply (the step's)"] += 1
        if inside[0]:
            applies.append((state, action))
        return apply(state, action)

    def legal_(state: Any) -> Any:
        calls["legal_actions"] += 1
        return legal(state)

    def outcomes_(state: Any) -> Any:
        calls["chance_outcomes"] += 1
        return outcomes(state)

    def evaluate_(g: Any, state: Any, seat: int) -> float:
        calls["evaluations"] += 1
        evaluated.append((state, seat))
        return float(evaluate(g, state, seat))

    class Counted(GreedyAgent):
        def choose(self, g: Any, state: Any, rng: Any) -> Any:
            calls["decisions"] += 1
            inside[0] = True
            try:
                return super().choose(g, state, rng)
            finally:
                inside[0] = False

    game.apply, game.legal_actions, game.chance_outcomes = apply_, legal_, outcomes_
    try:
        calls["steps"] = play(game, seeds, [Counted(evaluation=evaluate_) for _ in range(game.players)])
    finally:
        del game.apply, game.legal_actions, game.chance_outcomes
    return calls, applies, evaluated


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="botfactory", choices=["botfactory", "mechanica"])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args()
    game = load_game(args.game, players=args.players)
    seeds = range(args.games)
    module = importlib.import_module(EVALUATIONS[args.game])

    _clear_memos(module)
    start = time.process_time()
    steps = play(game, seeds, [GreedyAgent() for _ in range(game.players)])
    greedy_cpu = time.process_time() - start
    start = time.process_time()
    random_steps = play(game, seeds, None)
    random_cpu = time.process_time() - start
    g_rate, r_rate = steps / greedy_cpu, random_steps / random_cpu
    print(f"{args.game} {args.players}p, seeds 0..{args.games - 1}")
    print(f"greedy {steps} steps in {greedy_cpu:.2f} CPU s: {g_rate:,.0f} steps/s")
    print(f"random {random_steps} steps in {random_cpu:.2f} CPU s: {r_rate:,.0f} steps/s")
    print(f"greedy / random: {g_rate / r_rate:.3f}")

    _clear_memos(module)
    calls, applies, evaluated = counted(game, seeds)
    per_step = {k: v / calls["steps"] for k, v in calls.items() if k != "steps"}
    per_decision = {k: v / calls["decisions"] for k, v in calls.items() if k not in ("steps", "decisions")}
    print("calls per step:     " + ", ".join(f"{k} {v:.2f}" for k, v in per_step.items()))
    print("calls per decision: " + ", ".join(f"{k} {v:.2f}" for k, v in per_decision.items()))

    start = time.process_time()
    for state, action in applies:
        game.apply(state, action)
    apply_us = (time.process_time() - start) / max(1, len(applies)) * 1e6
    _clear_memos(module)
    start = time.process_time()
    for state, seat in evaluated:
        module.evaluate(game, state, seat)
    eval_us = (time.process_time() - start) / max(1, len(evaluated)) * 1e6
    step_us = 1e6 / g_rate
    random_us = 1e6 / r_rate
    all_applies = per_step["apply (look-ahead)"] + per_step["apply (the step's)"]
    applies_us = all_applies * apply_us
    evals_us = per_step["evaluations"] * eval_us
    print(f"CPU per apply {apply_us:.1f} us, per evaluation {eval_us:.1f} us (memos cold, play order)")
    print(
        f"a greedy step: {step_us:.0f} us = applies {all_applies:.2f} x {apply_us:.1f} = {applies_us:.0f} us"
        f" + evaluations {per_step['evaluations']:.2f} x {eval_us:.1f} = {evals_us:.0f} us"
        f" + the rest {step_us - applies_us - evals_us:.0f} us; a random step: {random_us:.0f} us"
    )
    print(
        f"bound from the applies alone: greedy / random <= {random_us:.0f} / {applies_us:.0f}"
        f" = {random_us / applies_us:.3f} (0.5x needs a greedy step of <= {2 * random_us:.0f} us)"
    )

    if args.profile:
        _clear_memos(module)
        prof = cProfile.Profile()
        prof.enable()
        play(game, seeds, [GreedyAgent() for _ in range(game.players)])
        prof.disable()
        for order in ("cumulative", "tottime"):
            out = io.StringIO()
            pstats.Stats(prof, stream=out).sort_stats(order).print_stats(args.top)
            print(out.getvalue())


if __name__ == "__main__":
    main()
