"""Profile 4-player random play (the games of bench_game.py) under cProfile.

    python benchmarks/profile_game.py --game mechanica|botfactory [--games 30] [--check] [--top 25]

Plays ``--games`` seeded games (seeds 0..games-1) through ``bgrules.core.playout.walk``, with every
state/transition invariant of the game's specs checked at every step when ``--check`` is given, and
prints the top functions by cumulative and by own time.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_game import spec_invariants

from bgrules.core.playout import walk
from bgrules.core.registry import load_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="mechanica", choices=["mechanica", "botfactory"])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    game = load_game(args.game, players=args.players)
    preds = spec_invariants(args.game, args.players) if args.check else []

    def run() -> int:
        steps = 0
        for seed in range(args.games):
            for before, action, after in walk(game, seed):
                steps += 1
                for kind, pred in preds:
                    msg = pred(game, after) if kind == "state" else pred(game, before, action, after)
                    if msg:
                        raise AssertionError(f"seed {seed}: {msg}")
        return steps

    prof = cProfile.Profile()
    prof.enable()
    steps = run()
    prof.disable()
    print(f"{args.game} {args.players}p, {args.games} games, {steps} steps, check={args.check}")
    print_profile(prof, args.top)


def print_profile(prof: cProfile.Profile, top: int) -> None:
    """The ``top`` functions of a profile by cumulative time, then by own time."""
    for order in ("cumulative", "tottime"):
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats(order).print_stats(top)
        print(out.getvalue())


if __name__ == "__main__":
    main()
