"""The cyclic garbage collector's share of 4-player play, under Python's default setting or the runners'.

    python benchmarks/bench_gc.py [--game mechanica|botfactory] [--mode random|checked] [--seconds 12]
                                  [--gc python|runners] [--rounds 1]

Plays fresh seeds (from 100000) through ``walk`` for ``--seconds`` CPU seconds, with every state and
transition invariant of specs/<game>.toml checked at every step under ``--mode checked``, and times every
collection with ``gc.callbacks``: prints the steps per CPU second, the collector's share of the time and
its microseconds per step, how many full (oldest-generation) collections ran and their share, and the
tracked objects at the end. ``--gc runners`` first applies ``bgrules.core.gcpolicy.for_runners()`` (the
setting of ``bgrules`` commands and campaign workers). Each round is a new process (the memos start
empty), the two settings alternating when ``--gc both``.
"""

from __future__ import annotations

import argparse
import gc
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def one(game_name: str, mode: str, seconds: float, setting: str) -> dict[str, Any]:
    from bench_game import spec_invariants

    from bgrules.core import gcpolicy
    from bgrules.core.playout import walk
    from bgrules.core.registry import load_game

    if setting == "runners" and not gcpolicy.for_runners():
        raise SystemExit("--gc runners: the thresholds are not Python's default (or BGRULES_GC=python)")
    game = load_game(game_name, players=4)
    preds = spec_invariants(game_name, 4) if mode == "checked" else []
    spent = {"all": 0.0, "full": 0.0, "fulls": 0}
    began = [0.0]

    def timed(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            began[0] = time.perf_counter()
            return
        took = time.perf_counter() - began[0]
        spent["all"] += took
        if info["generation"] == 2:
            spent["full"] += took
            spent["fulls"] += 1

    gc.callbacks.append(timed)
    start = time.process_time()
    seed, steps = 100_000, 0
    while time.process_time() - start < seconds:
        for before, action, after in walk(game, seed):
            for kind, pred in preds:
                msg = pred(game, after) if kind == "state" else pred(game, before, action, after)
                if msg:
                    raise SystemExit(f"seed {seed}: {msg}")
            steps += 1
        seed += 1
    used = time.process_time() - start
    gc.callbacks.remove(timed)
    return {
        "game": game_name,
        "mode": mode,
        "gc": setting,
        "thresholds": list(gc.get_threshold()),
        "steps": steps,
        "steps_per_cpu_second": round(steps / used),
        "gc_share": round(spent["all"] / used, 4),
        "gc_us_per_step": round(1e6 * spent["all"] / steps, 2),
        "full_collections": spent["fulls"],
        "full_share": round(spent["full"] / used, 4),
        "tracked_at_end": len(gc.get_objects()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="mechanica", choices=["mechanica", "botfactory"])
    parser.add_argument("--mode", default="random", choices=["random", "checked"])
    parser.add_argument("--seconds", type=float, default=12.0)
    parser.add_argument("--gc", default="both", choices=["python", "runners", "both"])
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)  # a round's own process
    args = parser.parse_args()
    if args.rounds < 1 or not args.seconds > 0:
        parser.error("--rounds must be at least 1 and --seconds above 0")
    if args.one:
        print(json.dumps(one(args.game, args.mode, args.seconds, args.gc)))
        return
    settings = ["python", "runners"] if args.gc == "both" else [args.gc]
    rows = []
    for _ in range(args.rounds):
        for setting in settings:
            cmd = [sys.executable, __file__, "--one", "--game", args.game, "--mode", args.mode]
            cmd += ["--seconds", str(args.seconds), "--gc", setting]
            done = subprocess.run(cmd, capture_output=True, text=True, check=True)
            row = json.loads(done.stdout)
            rows.append(row)
            print(
                f"{row['game']} {row['mode']} gc={setting}: {row['steps_per_cpu_second']:,} steps/s, collector "
                f"{100 * row['gc_share']:.1f}% ({row['gc_us_per_step']} us/step), {row['full_collections']} full "
                f"= {100 * row['full_share']:.1f}%, {row['tracked_at_end']:,} tracked at the end",
                flush=True,
            )
    print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
