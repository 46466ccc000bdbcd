"""The cost of checking every invariant, old commit's predicates against the working tree's, in one process.

    python benchmarks/bench_checks.py --old HEAD [--game botfactory] [--games 10] [--rounds 5]

Records the steps of seeded 4-player random games once, then times (CPU seconds) every state/transition
predicate of the game's specs over those steps, with the predicates of ``--old`` (its module files read
with ``git show`` and loaded beside the current ones) and with the current ones in turn, ``rounds`` times,
and prints the median microseconds per step and the time of the play itself, so that
check cost = (play + checks) / play.
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
from bgrules.core.registry import load_game
from bgrules.core.specs import load_specs, resolve_predicate


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--old", default="HEAD")
    parser.add_argument("--game", default="botfactory", choices=["mechanica", "botfactory"])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    game = load_game(args.game, players=4)
    specs = [
        s
        for s in load_specs(ROOT / "specs")
        if s.game == args.game and s.players == 4 and s.kind in ("state", "transition")
    ]
    start = time.process_time()
    steps = [step for seed in range(100_000, 100_000 + args.games) for step in walk(game, seed)]
    play = (time.process_time() - start) / len(steps) * 1e6
    with tempfile.TemporaryDirectory() as tmp:
        cache: dict[str, Any] = {}
        sides = {
            "old": [(s.kind, old_predicate(args.old, s.predicate, Path(tmp), cache)) for s in specs],
            "new": [(s.kind, resolve_predicate(s.predicate)) for s in specs],
        }
        times: dict[str, list[float]] = {k: [] for k in sides}
        for _ in range(args.rounds):
            for side, preds in sides.items():
                t0 = time.process_time()
                for before, action, after in steps:
                    for kind, pred in preds:
                        msg = pred(game, after) if kind == "state" else pred(game, before, action, after)
                        if msg:
                            raise AssertionError(f"{side}: {msg}")
                times[side].append((time.process_time() - t0) / len(steps) * 1e6)
    print(f"{args.game}: {len(steps)} steps, {len(specs)} predicates, play {play:.1f} us/step (one pass)")
    for side, t in times.items():
        med = statistics.median(t)
        print(
            f"  {side}: checks {med:.1f} us/step (range {min(t):.1f}-{max(t):.1f}),"
            f" check cost {(play + med) / play:.2f}x"
        )


if __name__ == "__main__":
    main()
