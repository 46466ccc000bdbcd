"""Build or check the golden state counts: ``python tests/explore_counts.py --write`` rewrites the file.

Like chess's perft counts: for each game and player count, the distinct states (``bgrules.explore``, no
symmetry declared by the games yet) first reached at each depth from the initial state, under the seeds'
readings (the default variant), to a depth that explores in well under a second. A change to the rules
that alters them must say so (rewrite the file in the same commit, with the reason in its message).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import bgrules

GOLDEN = Path(__file__).parent / "data" / "explore_counts.json"

CONFIGS: tuple[tuple[str, int, int], ...] = (
    ("mechanica-factory", 1, 1),  # depth 2 holds 62,894 states: seconds, not a default test
    ("mechanica", 2, 4),
    ("mechanica", 3, 4),
    ("mechanica", 4, 3),
    ("botfactory", 2, 3),
    ("botfactory", 3, 3),
    ("botfactory", 4, 3),
)
"""(game, players, depth) of each count."""


def counts(name: str, players: int, depth: int) -> dict[str, Any]:
    found = bgrules.explore(bgrules.load_game(name, players=players), depth=depth)
    return {
        "game": name,
        "players": players,
        "depth": depth,
        "distinct": found.distinct,
        "complete": found.complete,
        "levels": [level.distinct for level in found.levels],
    }


def compute() -> list[dict[str, Any]]:
    return [counts(name, players, depth) for name, players, depth in CONFIGS]


if __name__ == "__main__":
    if "--write" in sys.argv:
        GOLDEN.write_text("[\n" + ",\n".join(json.dumps(c) for c in compute()) + "\n]\n")
        print(f"wrote {GOLDEN}")
    else:
        same = json.loads(GOLDEN.read_text()) == compute()
        print("the counts are unchanged" if same else "the counts differ: see tests/test_explore.py")
        sys.exit(0 if same else 1)
