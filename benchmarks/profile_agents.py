"""Where greedy play's time goes (issue 12, item 3: greedy play at >= 0.5x random play's steps/s).

    python benchmarks/profile_agents.py --game botfactory|mechanica [--players 4] [--games 2] [--profile] [--top 30]
    python benchmarks/profile_agents.py --game botfactory --old COMMIT [--rounds 5]

Plays ``--games`` seeded games (seeds 0..games-1, Bot Factory capped at 40 rounds as in bench_agents.py)
with greedy in every seat and reports, in CPU time (``time.process_time``):

- greedy's and random play's steps per CPU second on the same seeds, and their ratio;
- the arithmetic of a greedy step: the applies (the step's own and the look-ahead's), evaluations,
  ``legal_actions`` and ``chance_outcomes`` calls per step and per decision, and the CPU time of each kind
  of call, timed call by call (perf_counter) in a second run of the same games (memos cleared first);
- the bound this puts on the ratio: a greedy step costs at least its applies, so greedy/random is at most
  (random's CPU per step) / (applies per step x CPU per apply), whatever the evaluation costs.

``--profile`` adds the top functions under cProfile (by cumulative and by own time).

``--old COMMIT`` instead compares greedy play by the agent and the game's evaluation as they were at COMMIT
(bgrules/agents/greedy.py and the evaluation module, read with ``git show``) with the working tree's, the
rules being the working tree's for both: ``--rounds`` alternating runs of the same games, each with the
evaluation's memos cleared, in CPU time; it prints the medians and ranges and whether both played the
same actions.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import statistics
import subprocess
import sys
import time
import types
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from profile_game import print_profile

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


def counted(game: Any, seeds: range) -> tuple[Counter[str], Counter[str]]:
    """The calls greedy play makes (per kind) and the CPU time spent in each kind, timed call by call."""
    module = importlib.import_module(EVALUATIONS[game.info.name])
    evaluate = module.evaluate
    calls: Counter[str] = Counter()
    spent: Counter[str] = Counter()
    inside = [False]
    apply, legal, outcomes = game.apply, game.legal_actions, game.chance_outcomes
    clock = time.perf_counter  # 0.3 us a call here; process_time costs 2.5 us, too much to time each call

    def apply_(state: Any, action: Any) -> Any:
        kind = "apply (look-ahead)" if inside[0] else "apply (the step's)"
        calls[kind] += 1
        start = clock()
        got = apply(state, action)
        spent[kind] += clock() - start
        return got

    def timed(kind: str, ask: Any) -> Any:
        def asked(state: Any) -> Any:
            calls[kind] += 1
            start = clock()
            got = ask(state)
            spent[kind] += clock() - start
            return got

        return asked

    legal_, outcomes_ = timed("legal_actions", legal), timed("chance_outcomes", outcomes)

    def evaluate_(g: Any, state: Any, seat: int) -> float:
        calls["evaluations"] += 1
        start = clock()
        got = float(evaluate(g, state, seat))
        spent["evaluations"] += clock() - start
        return got

    class Counted(GreedyAgent):
        def choose(self, g: Any, state: Any, rng: Any) -> Any:
            calls["decisions"] += 1
            inside[0] = True
            try:
                return super().choose(g, state, rng)
            finally:
                inside[0] = False

    game.apply, game.legal_actions, game.chance_outcomes = apply_, legal_, outcomes_
    start = clock()
    try:
        calls["steps"] = play(game, seeds, [Counted(evaluation=evaluate_) for _ in range(game.players)])
    finally:
        del game.apply, game.legal_actions, game.chance_outcomes
    spent["total"] = clock() - start
    return calls, spent


ROOT = Path(__file__).resolve().parent.parent


def _module_at(commit: str, path: str, name: str) -> Any:
    """The module ``path`` of the checkout as it was at ``commit``."""
    src = subprocess.run(
        ["git", "show", f"{commit}:{path}"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    module = types.ModuleType(name)
    module.__file__ = path
    sys.modules[name] = module
    exec(compile(src, path, "exec"), module.__dict__)
    return module


def compare(game: Any, seeds: range, commit: str, rounds: int) -> None:
    from bgrules.agents import greedy

    path = EVALUATIONS[game.info.name].replace(".", "/") + ".py"
    sides = {
        "old": (_module_at(commit, "bgrules/agents/greedy.py", "old_greedy"), _module_at(commit, path, "old_eval")),
        "new": (greedy, importlib.import_module(EVALUATIONS[game.info.name])),
    }
    rates: dict[str, list[float]] = {"old": [], "new": []}
    actions: dict[str, list[Any]] = {}
    for _ in range(rounds):
        for side, (agents_module, evaluation) in sides.items():
            _clear_memos(evaluation)
            seats = [agents_module.GreedyAgent(evaluation=evaluation.evaluate) for _ in range(game.players)]
            played: list[Any] = []
            start = time.process_time()
            for seed in seeds:
                played += [a for _b, a, _n in walk(game, seed, max_rounds=_cap(game.info.name), agents=seats)]
            rates[side].append(len(played) / (time.process_time() - start))
            actions[side] = played
    old, new = statistics.median(rates["old"]), statistics.median(rates["new"])
    print(f"{game.info.name} {game.players}p, seeds {seeds.start}..{seeds.stop - 1}, {rounds} alternating rounds")
    for side in ("old", "new"):
        got = rates[side]
        print(
            f"  {side} ({commit if side == 'old' else 'working tree'}): median {statistics.median(got):,.0f}"
            f" steps per CPU s, range {min(got):,.0f}-{max(got):,.0f}"
        )
    print(f"  new / old: {new / old:.2f}; the same actions: {actions['old'] == actions['new']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="botfactory", choices=["botfactory", "mechanica"])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--old", default=None, help="compare with the agent and evaluation of this commit")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds of --old")
    args = parser.parse_args()
    game = load_game(args.game, players=args.players)
    seeds = range(args.games)
    if args.old is not None:
        compare(game, seeds, args.old, args.rounds)
        return
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
    calls, spent = counted(game, seeds)
    n, d = calls["steps"], calls["decisions"]
    kinds = [k for k in calls if k not in ("steps", "decisions")]
    print(f"{n} steps, {d} decisions (greedy's choose), timed call by call (the clock's own cost included):")
    for k in kinds:
        us = spent[k] / calls[k] * 1e6
        print(
            f"  {k:20} {calls[k] / n:6.2f} a step, {calls[k] / d:6.2f} a decision, {us:6.1f} us a call,"
            f" {spent[k] / n * 1e6:6.0f} us a step"
        )
    rest = spent["total"] - sum(spent[k] for k in kinds)
    step_us = spent["total"] / n * 1e6
    random_us = 1e6 / r_rate
    applies_us = (spent["apply (look-ahead)"] + spent["apply (the step's)"]) / n * 1e6
    print(f"  {'the rest (agent)':20} {rest / n * 1e6:6.0f} us a step; a greedy step {step_us:.0f} us here")
    print(
        f"a random step: {random_us:.0f} us; 0.5x needs a greedy step of <= {2 * random_us:.0f} us; the applies"
        f" alone cost {applies_us:.0f} us a step: greedy / random <= {random_us / applies_us:.3f} whatever the"
        " evaluation costs"
    )

    if args.profile:
        _clear_memos(module)
        prof = cProfile.Profile()
        prof.enable()
        play(game, seeds, [GreedyAgent() for _ in range(game.players)])
        prof.disable()
        print_profile(prof, args.top)


if __name__ == "__main__":
    main()
