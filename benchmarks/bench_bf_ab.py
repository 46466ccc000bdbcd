"""Before/after speed between two commits (not the working tree): alternating runs of bench_cpu.py on the
``bgrules`` of commit ``--old`` and of commit ``--new`` (both exported with ``git archive``), each beside
python-chess in the same run, timed in CPU seconds on the same fixed seeds.

    python benchmarks/bench_bf_ab.py --old REV --new REV [--game botfactory] [--rounds 4] [--games 15]

Unlike bench_ab.py (old commit against the working tree), both sides are commits, so other uncommitted work in
the same checkout does not enter the comparison: ``--old X~1 --new X`` measures commit X alone. Prints one line per
run and the median ratios (with ranges) of each side.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

from bench_ab import export, run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--old", required=True)
    parser.add_argument("--new", required=True)
    parser.add_argument("--game", default="botfactory", choices=["mechanica", "botfactory"])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--games", type=int, default=15)
    args = parser.parse_args()
    ratios: dict[str, dict[str, list[float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for side in ("old", "new"):
            (Path(tmp) / side).mkdir()
            paths[side] = str(export(getattr(args, side), Path(tmp) / side))
        for i in range(args.rounds):
            for side in ("old", "new") if i % 2 == 0 else ("new", "old"):
                d = run(args.game, args.games, paths[side])
                chess = d["chess_steps_per_cpu_second"]
                u = d["steps_per_cpu_second_unchecked"] / chess
                c = d["steps_per_cpu_second_checked"] / chess
                r = ratios.setdefault(side, {"unchecked": [], "checked": [], "cost": []})
                r["unchecked"].append(u)
                r["checked"].append(c)
                r["cost"].append(u / c)
                print(
                    f"{args.game} {side}: chess {chess:.0f}/s, unchecked {d['steps_per_cpu_second_unchecked']:.0f}/s"
                    f" ({u:.2f}x), checked {d['steps_per_cpu_second_checked']:.0f}/s ({c:.2f}x),"
                    f" check cost {u / c:.2f}x",
                    flush=True,
                )
    for side in ("old", "new"):
        r = ratios[side]
        print(
            f"{args.game} {side} ({getattr(args, side)}) median: unchecked {statistics.median(r['unchecked']):.2f}x"
            f" chess (range {min(r['unchecked']):.2f}-{max(r['unchecked']):.2f}), checked"
            f" {statistics.median(r['checked']):.2f}x (range {min(r['checked']):.2f}-{max(r['checked']):.2f}),"
            f" check cost {statistics.median(r['cost']):.2f}x"
        )


if __name__ == "__main__":
    main()
