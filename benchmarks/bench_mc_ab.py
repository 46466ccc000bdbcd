"""Mechanica unchecked random play, old commit against the working tree, alternating in CPU seconds.

    python benchmarks/bench_mc_ab.py --old REV [--rounds 6] [--games 20] [--players 4]

Each run is a fresh process playing seeds 0..games-1 (4-player uniform random play, ``walk``) on a new
game object, timed with ``time.process_time``; the sides alternate old/new/new/old... so a change in the
machine's load falls on both. Prints each run's steps per CPU second and, per side, the median and range,
and the ratio of the medians (new / old). The same seeds give the same steps on any commit whose behaviour
is unchanged (the step counts are printed: they must agree).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_ab import ROOT, export  # noqa: E402

CHILD = """
import json, sys, time
from bgrules.core.playout import walk
from bgrules.core.registry import load_game
games, players = int(sys.argv[1]), int(sys.argv[2])
game = load_game("mechanica", players=players)
steps = 0
start = time.process_time()
for seed in range(games):
    for _ in walk(game, seed):
        steps += 1
print(json.dumps({"steps": steps, "rate": steps / (time.process_time() - start)}))
"""


def run(games: int, players: int, pythonpath: str | None) -> dict[str, float]:
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    else:
        env.pop("PYTHONPATH", None)
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(games), str(players)],
        check=True,
        capture_output=True,
        text=True,
        env=env,
        cwd=str(ROOT) if pythonpath is None else pythonpath,
    ).stdout
    data: dict[str, float] = json.loads(out)
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--old", default="HEAD")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    rates: dict[str, list[float]] = {"old": [], "new": []}
    with tempfile.TemporaryDirectory() as tmp:
        old = str(export(args.old, Path(tmp)))
        for i in range(args.rounds):
            for side, path in (("old", old), ("new", None)) if i % 2 == 0 else (("new", None), ("old", old)):
                d = run(args.games, args.players, path)
                rates[side].append(d["rate"])
                print(f"{side}: {d['steps']:.0f} steps, {d['rate']:.0f} steps per CPU second", flush=True)
    for side, r in rates.items():
        print(f"{side} median {statistics.median(r):.0f}/s (range {min(r):.0f}-{max(r):.0f})")
    print(f"new / old: {statistics.median(rates['new']) / statistics.median(rates['old']):.3f}")


if __name__ == "__main__":
    main()
