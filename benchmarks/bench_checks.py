"""The cost of checking every invariant, old commit's predicates against the working tree's, in one process.

    python benchmarks/bench_checks.py --old HEAD [--game botfactory] [--games 10] [--rounds 5] [--each] [--loop]

Records the steps of seeded 4-player random games once, then times (CPU seconds) every state/transition
predicate of the game's specs over those steps, with the predicates of ``--old`` (its module files read
with ``git show`` and loaded beside the current ones) and with the current ones in turn, ``rounds`` times,
and prints the median microseconds per step and the time of the play itself, so that
check cost = (play + checks) / play.

Before each recorded step's checks the game's legal-action memo is set to the after state's recorded
legal actions, as the checked loop leaves it: there ``never_stuck`` asks for the after state's legal
actions and the next step of the walk reuses them, so the play pays for them, not the check.
``--each`` adds the time of each predicate alone (old and new, interleaved). ``--fresh`` plays the steps
again (untimed) before each timed pass, so that no value memoised on the states by an earlier pass (a
Mechanica board's bot counts or layout) makes a later pass cheaper than the checked loop would be.
``--loop`` times the real checked loop instead (``walk`` plus every predicate at every step, as
bench_cpu.py and simulate run it): unchecked play, play checked by the old predicates and by the new
ones, interleaved ``rounds`` times, with the check cost of each side = checked time / unchecked time.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_game import ROOT

from bgrules.core.playout import walk
from bgrules.core.protocol import CHANCE
from bgrules.core.registry import load_game
from bgrules.runners.specfile import load_specs, resolve_predicate


def old_predicate(rev: str, ref: str, tmp: Path, cache: dict[str, Any]) -> Callable[..., Any]:
    """The predicate ``module:name`` as it was at ``rev``."""
    module, name = ref.split(":")
    if module not in cache:
        path = tmp / (module.replace(".", "_") + ".py")
        source = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{rev}:{module.replace('.', '/')}.py"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        path.write_text(source)
        spec = importlib.util.spec_from_file_location(f"old_{module.replace('.', '_')}", path)
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        cache[module] = mod
    fn: Callable[..., Any] = getattr(cache[module], name)
    return fn


Pred = tuple[str, Callable[..., Any]]


def check_steps(game: Any, steps: list[tuple[Any, Any, Any, Any]], preds: list[Pred], side: str) -> float:
    """CPU microseconds a step of ``preds`` over the recorded steps (the legal-action memo primed)."""
    t0 = time.process_time()
    for before, action, after, legal in steps:
        if legal is not None:
            game._last_legal = (after, legal)
        for kind, pred in preds:
            msg = pred(game, after) if kind == "state" else pred(game, before, action, after)
            if msg:
                raise AssertionError(f"{side}: {msg}")
    return (time.process_time() - t0) / len(steps) * 1e6


def checked_loop(game: Any, seeds: range, preds: list[Pred]) -> tuple[float, int]:
    """CPU seconds of the checked loop over ``seeds`` (no predicates: unchecked play), and its steps."""
    n = 0
    t0 = time.process_time()
    for seed in seeds:
        for before, action, after in walk(game, seed):
            n += 1
            for kind, pred in preds:
                msg = pred(game, after) if kind == "state" else pred(game, before, action, after)
                if msg:
                    raise AssertionError(f"seed {seed}: {msg}")
    return time.process_time() - t0, n


def record(game: Any, seeds: range) -> list[tuple[Any, Any, Any, Any]]:
    """The steps of ``seeds``, each with the after state's legal actions (None where it has none to ask)."""
    out = []
    for seed in seeds:
        for before, action, after in walk(game, seed):
            legal = None
            if not game.is_terminal(after) and game.to_move(after) is not CHANCE:
                legal = game.legal_actions(after)  # the walk's next step reuses it (memoised)
            out.append((before, action, after, legal))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--old", default="HEAD")
    parser.add_argument("--game", default="botfactory", choices=["mechanica", "botfactory"])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--each", action="store_true", help="also time each predicate alone")
    parser.add_argument("--loop", action="store_true", help="time the real checked loop instead")
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="play the steps again before each timed pass (no value memoised on a state by an earlier pass)",
    )
    args = parser.parse_args()
    game = load_game(args.game, players=4)
    specs = [
        s
        for s in load_specs(ROOT / "specs")
        if s.game == args.game and s.players is not None and 4 in s.players and s.kind in ("state", "transition")
    ]
    seeds = range(100_000, 100_000 + args.games)
    start = time.process_time()
    steps = record(game, seeds)
    play = (time.process_time() - start) / len(steps) * 1e6
    with tempfile.TemporaryDirectory() as tmp:
        cache: dict[str, Any] = {}
        sides: dict[str, list[Pred]] = {
            "old": [(s.kind, old_predicate(args.old, s.predicate, Path(tmp), cache)) for s in specs],
            "new": [(s.kind, resolve_predicate(s.predicate)) for s in specs],
        }
        if args.loop:
            loop(game, seeds, sides, args.rounds)
            return
        times: dict[str, list[float]] = {k: [] for k in sides}
        each: dict[tuple[str, str], list[float]] = {}
        for _ in range(args.rounds):
            for side, preds in sides.items():
                if args.fresh:
                    steps = record(game, seeds)
                times[side].append(check_steps(game, steps, preds, side))
            if args.each:
                for i, spec in enumerate(specs):
                    for side, preds in sides.items():
                        if args.fresh:
                            steps = record(game, seeds)
                        t = check_steps(game, steps, [preds[i]], side)
                        each.setdefault((spec.predicate.split(":")[1], side), []).append(t)
    print(f"{args.game}: {len(steps)} steps, {len(specs)} predicates, play {play:.1f} us/step (one pass)")
    for side, t in times.items():
        med = statistics.median(t)
        print(
            f"  {side}: checks {med:.1f} us/step (range {min(t):.1f}-{max(t):.1f}),"
            f" check cost {(play + med) / play:.2f}x"
        )
    names = list(dict.fromkeys(name for name, _side in each))
    for name in names:
        old, new = statistics.median(each[name, "old"]), statistics.median(each[name, "new"])
        print(f"    {name}: old {old:.2f}, new {new:.2f} us/step")


def loop(game: Any, seeds: range, sides: dict[str, list[Pred]], rounds: int) -> None:
    """The real checked loop: unchecked, old-checked, new-checked, interleaved (order rotated each round)."""
    runs: dict[str, list[float]] = {"unchecked": [], **{side: [] for side in sides}}
    preds: dict[str, list[Pred]] = {"unchecked": [], **sides}
    order = list(runs)
    n = 0
    for r in range(rounds):
        for name in order[r % len(order) :] + order[: r % len(order)]:
            t, n = checked_loop(game, seeds, preds[name])
            runs[name].append(t)
    base = statistics.median(runs["unchecked"])
    print(f"{len(seeds)} games, {n} steps, {rounds} rounds (CPU time, medians)")
    print(f"  unchecked: {base / n * 1e6:.1f} us/step")
    for side in sides:
        t = runs[side]
        costs = [c / u for c, u in zip(t, runs["unchecked"], strict=True)]
        print(
            f"  {side}: {statistics.median(t) / n * 1e6:.1f} us/step, check cost {statistics.median(t) / base:.2f}x"
            f" (per round {min(costs):.2f}-{max(costs):.2f}x)"
        )


if __name__ == "__main__":
    main()
