"""Mechanica unchecked random play, an old commit's ``bgrules`` against the working tree's, interleaved in
ONE process: a shared machine's load then falls on both sides alike, far more evenly than across processes.

    python benchmarks/bench_mc_inproc.py --old REV [--rounds 8] [--games 20] [--players 4]

The old commit's package is exported (``git archive``) and renamed ``bgrules_old`` (its imports rewritten),
so both import side by side. Each round plays seeds 0..games-1 (4-player uniform random play, ``walk``) on a
new game object of each side, in alternating order, with the module-level memos of both emptied first (as
in a fresh process, the figure ``bench_cpu.py`` measures), timed in CPU seconds. Prints per side the median
and range of the steps per CPU second, and the median of the per-round ratios new / old. The step counts
of the two sides must agree (the same seeds give the same games).
"""

from __future__ import annotations

import argparse
import importlib
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MEMOS = {
    "mechanica.factory": ("_PLACEMENTS", "_ROTATIONS", "_CELL_PLACEMENTS"),
    "mechanica.movement": ("_TABLES",),
}


def export_renamed(rev: str, into: Path) -> None:
    """``bgrules`` of commit ``rev`` as package ``bgrules_old`` under ``into``."""
    archive = into / "old.tar"
    subprocess.run(["git", "-C", str(ROOT), "archive", "-o", str(archive), rev, "bgrules"], check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    (into / "bgrules").rename(into / "bgrules_old")
    for path in (into / "bgrules_old").rglob("*.py"):
        text = path.read_text()
        path.write_text(re.sub(r"\bbgrules\b(?=[.\s])", "bgrules_old", text))


def side(package: str) -> tuple[Any, Any, list[ModuleType]]:
    walk = importlib.import_module(f"{package}.core.playout").walk
    load_game = importlib.import_module(f"{package}.core.registry").load_game
    mods = [importlib.import_module(f"{package}.{m}") for m in MEMOS]
    return walk, load_game, mods


def play(walk: Any, load_game: Any, mods: list[ModuleType], games: int, players: int) -> tuple[int, float]:
    for mod, names in zip(mods, MEMOS.values(), strict=True):
        for name in names:
            memo = getattr(mod, name, None)
            if memo is not None:
                memo.clear()
    game = load_game("mechanica", players=players)
    steps = 0
    start = time.process_time()
    for seed in range(games):
        for _ in walk(game, seed):
            steps += 1
    return steps, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--old", default="HEAD")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        export_renamed(args.old, Path(tmp))
        sys.path.insert(0, tmp)
        sides = {"old": side("bgrules_old"), "new": side("bgrules")}
        rates: dict[str, list[float]] = {"old": [], "new": []}
        ratios = []
        for i in range(args.rounds):
            got = {}
            for name in ("old", "new") if i % 2 == 0 else ("new", "old"):
                steps, secs = play(*sides[name], args.games, args.players)
                got[name] = (steps, steps / secs)
                rates[name].append(steps / secs)
            if got["old"][0] != got["new"][0]:
                raise SystemExit(f"the sides played different games: {got['old'][0]} and {got['new'][0]} steps")
            ratios.append(got["new"][1] / got["old"][1])
            print(f"round {i}: {got['old'][0]} steps, old {got['old'][1]:.0f}/s, new {got['new'][1]:.0f}/s", flush=True)
    for name, r in rates.items():
        print(f"{name}: median {statistics.median(r):.0f} steps per CPU second (range {min(r):.0f}-{max(r):.0f})")
    print(f"new / old per round: median {statistics.median(ratios):.3f} (range {min(ratios):.3f}-{max(ratios):.3f})")


if __name__ == "__main__":
    main()
