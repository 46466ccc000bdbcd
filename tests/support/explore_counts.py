"""Build or check the golden state counts: ``python tests/support/explore_counts.py --write`` rewrites the files.

Like chess's perft counts: for each game and player count, the distinct states (``bgrules.explore``; the
games declare no symmetry, docs/explore.md) first reached at each depth, under the seeds' readings (the
default variant), from two fixed starts: the initial state (``explore_counts.json``) and a mid-game
position (``explore_starts.json``: the state, as ``bgrules.dumps`` text, that a seeded random playout
reached, kept in the file so that it stays fixed), each to a depth that the fast engine explores in well
under a second. The counts are checked on the fast and on the reference engine (docs/refinement.md). A
change to the rules that alters them must say so (rewrite the files in the same commit, with the reason in
its message).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import bgrules
from bgrules.core.refinement import walk_states

GOLDEN = Path(__file__).parents[1] / "data" / "explore_counts.json"
STARTS = Path(__file__).parents[1] / "data" / "explore_starts.json"

CONFIGS: tuple[tuple[str, int, int], ...] = (
    ("mechanica-factory", 1, 1),  # depth 2 holds 62,894 states: seconds, not a default test
    ("mechanica", 2, 4),
    ("mechanica", 3, 4),
    ("mechanica", 4, 3),
    ("botfactory", 2, 3),
    ("botfactory", 3, 3),
    ("botfactory", 4, 3),
)
"""(game, players, depth) of each count from the initial state."""

MIDGAME: tuple[tuple[str, int, int, int], ...] = (
    ("mechanica-factory", 1, 5, 2),
    ("mechanica", 2, 30, 5),
    ("mechanica", 3, 60, 4),
    ("mechanica", 4, 30, 2),
    ("botfactory", 2, 30, 5),
    ("botfactory", 3, 40, 5),
    ("botfactory", 4, 50, 7),
)
"""(game, players, steps, depth): the start is the state after ``steps`` steps of seed 0's random playout."""


def _game(name: str, players: int, reference: bool) -> Any:
    return bgrules.load_game(name, players=players, reference=reference)


def counts(name: str, players: int, depth: int, reference: bool = False, start: Any = None) -> dict[str, Any]:
    found = bgrules.explore(_game(name, players, reference), depth=depth, start=start)
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


def midgame_start(name: str, players: int, steps: int) -> str:
    """The start position of a MIDGAME row, as the codec's text (computed when the file is written)."""
    game = _game(name, players, False)
    *_, (state, _) = walk_states(game, 0, steps)
    return bgrules.dumps(state)


def start_state(row: dict[str, Any], reference: bool = False) -> Any:
    """The start a row of ``explore_starts.json`` keeps, read (and validated) by the game."""
    return bgrules.loads(_game(row["game"], row["players"], reference), row["start"])


def midgame_counts(row: dict[str, Any], reference: bool = False) -> dict[str, Any]:
    """The counts of a row of ``explore_starts.json`` from its start, recomputed (the start kept)."""
    found = counts(row["game"], row["players"], row["depth"], reference, start_state(row, reference))
    return {**found, "steps": row["steps"], "start": row["start"]}


def compute_midgame() -> list[dict[str, Any]]:
    rows = []
    for name, players, steps, depth in MIDGAME:
        row = {"game": name, "players": players, "steps": steps, "depth": depth}
        rows.append(midgame_counts({**row, "start": midgame_start(name, players, steps)}))
    return rows


def _write(path: Path, rows: list[dict[str, Any]]) -> None:
    path.write_text("[\n" + ",\n".join(json.dumps(c) for c in rows) + "\n]\n", encoding="utf-8")
    print(f"wrote {path}")


if __name__ == "__main__":
    if "--write" in sys.argv:
        _write(GOLDEN, compute())
        _write(STARTS, compute_midgame())
    else:
        kept = json.loads(STARTS.read_text(encoding="utf-8"))
        same = json.loads(GOLDEN.read_text(encoding="utf-8")) == compute() and kept == [
            midgame_counts(row) for row in kept
        ]
        print("the counts are unchanged" if same else "the counts differ: see tests/core/test_explore.py")
        sys.exit(0 if same else 1)
