"""The reference engines' speed and the checks built on them, beside python-chess random play in one run.

    python -m pip install chess        # only for the comparison; not a dependency of bgrules
    python benchmarks/bench_reference.py [--seconds 3] [--blocks 3] [--json OUT.json]

Kinds of work run **in lockstep** in one process (the kind with the least CPU time so far runs next, a
slice at a time, so all meet the machine's noise alike), each counted in the unit it is judged by:

- ``chess``: python-chess random play, steps;
- ``<game> fast`` and ``<game> reference``: seeded random play of the 4-player game (Bot Factory to the
  runners' 40-round cap), steps, on the fast engine and on the reference engine (docs/refinement.md);
- ``<game> refinement``: the refinement check (``bgrules.core.refinement.difference``: both engines asked
  everything, every action and outcome applied on both) at every state of random play, states checked;
- ``<game> explore``: ``bgrules.explore`` from the kept mid-game starts (tests/data/explore_starts.json)
  on the fast engine, distinct states found.

After a warm-up block (not kept) the run is cut into ``--blocks`` blocks of ``--seconds`` CPU seconds per
kind; each rate is taken over chess's rate within its block, and the medians and ranges are reported.
Prints one JSON object, then a Markdown table (the README's).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import bgrules
from bgrules.core.playout import walk
from bgrules.core.refinement import difference, reference_of
from bgrules.core.registry import load_game

GAMES = ("mechanica", "botfactory")
MODES = ("fast", "reference", "refinement", "explore")
KINDS = ("chess", *(f"{g} {m}" for g in GAMES for m in MODES))
SLICE = 0.005
STARTS = Path(__file__).resolve().parent.parent / "tests" / "data" / "explore_starts.json"


def chess_steps() -> Iterator[int]:
    import chess

    rng = random.Random(1)
    while True:
        board = chess.Board()
        while not board.is_game_over() and board.fullmove_number < 300:
            board.push(rng.choice(list(board.legal_moves)))
            yield 1


def play_steps(name: str, reference: bool) -> Iterator[int]:
    game = load_game(name, players=4, reference=reference)
    seed = 0
    while True:
        for _ in walk(game, seed):
            yield 1
        seed += 1


def refinement_steps(name: str) -> Iterator[int]:
    fast = load_game(name, players=4)
    ref = reference_of(fast)
    seed = 0
    while True:
        for before, _action, _after in walk(fast, seed):
            found = difference(fast, ref, before)
            if found is not None:
                raise AssertionError(f"{name} seed {seed}: {found}")
            yield 1
        seed += 1


def explore_steps(name: str) -> Iterator[int]:
    rows = [r for r in json.loads(STARTS.read_text(encoding="utf-8")) if r["game"] == name]
    games = {r["players"]: load_game(name, players=r["players"]) for r in rows}
    while True:
        for r in rows:
            game = games[r["players"]]
            found = bgrules.explore(game, depth=r["depth"], start=bgrules.loads(game, r["start"]))
            yield found.distinct


def generator(kind: str) -> Iterator[int]:
    if kind == "chess":
        return chess_steps()
    name, mode = kind.split()
    if mode in ("fast", "reference"):
        return play_steps(name, mode == "reference")
    return refinement_steps(name) if mode == "refinement" else explore_steps(name)


def lockstep(seconds: float, blocks: int) -> list[dict[str, Any]]:
    clock = time.process_time
    gens = {kind: generator(kind) for kind in KINDS}
    out = []
    for block in range(-1, blocks):  # block -1 warms up and is not kept
        counted = dict.fromkeys(KINDS, 0)
        used = dict.fromkeys(KINDS, 0.0)
        while min(used.values()) < (min(seconds, 1.0) if block < 0 else seconds):
            kind = min(KINDS, key=lambda k: used[k])
            gen, n = gens[kind], 0
            start = now = clock()
            while now < start + SLICE:
                n += next(gen)
                now = clock()
            counted[kind] += n
            used[kind] += now - start
        if block >= 0:
            out.append({k: counted[k] / used[k] for k in KINDS})
            print(f"block: { {k: round(v) for k, v in out[-1].items()} }", file=sys.stderr, flush=True)
    return out


def summary(blocks: list[dict[str, float]]) -> dict[str, Any]:
    result: dict[str, Any] = {"python": platform.python_version(), "blocks": len(blocks), "per_second": {}}
    for kind in KINDS:
        rates = [b[kind] for b in blocks]
        over = [b[kind] / b["chess"] for b in blocks]
        result["per_second"][kind] = {
            "median": round(statistics.median(rates)),
            "over_chess": round(statistics.median(over), 3),
            "over_chess_range": [round(min(over), 3), round(max(over), 3)],
        }
    return result


def table(result: dict[str, Any]) -> str:
    unit = {"fast": "steps", "reference": "steps", "refinement": "states checked", "explore": "distinct states"}
    lines = ["| work | per CPU second (median) | over chess random play (range) |", "|---|---|---|"]
    for kind in KINDS:
        r = result["per_second"][kind]
        what = "python-chess random play, steps" if kind == "chess" else f"{kind}, {unit[kind.split()[1]]}"
        lo, hi = r["over_chess_range"]
        lines.append(f"| {what} | {r['median']:,} | {r['over_chess']:.3f}x ({lo:.3f}-{hi:.3f}) |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--blocks", type=int, default=3)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    result = summary(lockstep(args.seconds, args.blocks))
    print(json.dumps(result, indent=1))
    print(table(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
