"""Random play of two versions of the engine interleaved in ONE process: steadier than separate runs on a shared
machine (the same caches, the same load at the same moment).

    python benchmarks/bench_bf_walk.py --old REV [--new REV] [--game botfactory] [--games 10] [--rounds 7]

The ``bgrules`` package of commit ``--old`` (and of ``--new``; default: the working tree's, imported as usual) is
exported with ``git archive`` and imported under another name (``bgrules_old`` / ``bgrules_new``: every
``bgrules`` module name in its sources renamed). Round i plays fresh seeds (i*games .. i*games+games-1) of
4-player uniform random play (``walk``) on a freshly loaded game for each side (so the engine's memos start
empty, as in a campaign's new games: replaying the same seeds would find every memo warm), game by game on each
side in turn (alternating which goes first), timed in CPU seconds; both sides must play the same number of
steps (the same games). Prints microseconds per step of each side per round,
the medians and the ratio old/new (above 1: the new side is faster) with the range of the per-round ratios.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_ab import export_as


def side(package: str, game_name: str) -> tuple[Any, Any]:
    """The side's ``load_game`` (bound to the game's name, 4 players) and ``walk``."""
    registry = importlib.import_module(f"{package}.core.registry")
    playout = importlib.import_module(f"{package}.core.playout")
    return (lambda: registry.load_game(game_name, players=4)), playout.walk


def play(game: Any, walk: Any, first: int, games: int) -> tuple[float, int]:
    steps = 0
    start = time.process_time()
    for seed in range(first, first + games):
        for _ in walk(game, seed):
            steps += 1
    return time.process_time() - start, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--old", required=True)
    parser.add_argument("--new", default=None)
    parser.add_argument("--game", default="botfactory", choices=["mechanica", "botfactory"])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        export_as(args.old, Path(tmp), "bgrules_old")
        new_package = "bgrules"
        if args.new is not None:
            export_as(args.new, Path(tmp), "bgrules_new")
            new_package = "bgrules_new"
        sys.path.insert(0, tmp)
        sides = {"old": side("bgrules_old", args.game), "new": side(new_package, args.game)}
        for load, walk in sides.values():  # warm up: imports, generated code (seeds past the measured ones)
            play(load(), walk, 10**6, 1)
        per_step: dict[str, list[float]] = {"old": [], "new": []}
        steps_of = [0] * args.games
        for i in range(args.rounds):
            seconds = {"old": 0.0, "new": 0.0}
            games = {label: load() for label, (load, _walk) in sides.items()}  # memos empty
            for seed in range(args.games):  # alternate game by game: the load drifts less in between
                counts = {}
                for label in ("old", "new") if (i + seed) % 2 == 0 else ("new", "old"):
                    taken, steps = play(games[label], sides[label][1], i * args.games + seed, 1)
                    seconds[label] += taken
                    counts[label] = steps
                assert counts["old"] == counts["new"], f"seed {seed}: the sides played different games: {counts}"
                steps_of[seed] = counts["new"]
            for label in ("old", "new"):
                per_step[label].append(seconds[label] / sum(steps_of) * 1e6)
            print(
                f"round {i + 1}: old {per_step['old'][-1]:.2f} us/step, new {per_step['new'][-1]:.2f} us/step"
                f" ({sum(steps_of)} steps)",
                flush=True,
            )
    ratios = [o / n for o, n in zip(per_step["old"], per_step["new"], strict=True)]
    print(
        f"{args.game}: old ({args.old}) {statistics.median(per_step['old']):.2f} us/step, new"
        f" ({args.new or 'working tree'}) {statistics.median(per_step['new']):.2f} us/step; old/new"
        f" {statistics.median(ratios):.3f}x (range {min(ratios):.3f}-{max(ratios):.3f})"
    )


if __name__ == "__main__":
    main()
