"""Build or check the golden playout traces: ``python tests/support/golden_traces.py --write`` rewrites the file.

The golden file records, for a fixed set of seeds, a digest of every playout's actions and final state under
the rulings that keep the readings of 0.3.0 (``OLD_READINGS``). A refactor must leave them unchanged.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import bgrules
from bgrules.core.playout import playout

GOLDEN = Path(__file__).parents[1] / "data" / "golden_traces.json"

# The rulings (and runner options) that select the readings of bgrules 0.3.0, per game.
OLD_READINGS: dict[str, dict[str, Any]] = {
    "botfactory": {
        "variant": {
            "rulings": {
                "last_space_toll": "combined",
                "project_clear_out": "bottom_space",
                "reservation_tokens": "whole_cost",
                "additional_actions": "own_turn",
                "opening_window": "none",
                "paid_sharer": "own_turn",
            }
        },
        "options": {"max_rounds": 40},
    },
    "mechanica": {"variant": {"rulings": {"anytime": "steps_1_3", "flight_landing": "any_cell"}}, "options": {}},
    "mechanica-factory": {"variant": {"rulings": {"flight_landing": "any_cell"}}, "options": {}},
}
CONFIGS: tuple[tuple[str, int, int], ...] = (
    ("botfactory", 2, 12),
    ("botfactory", 3, 8),
    ("botfactory", 4, 8),
    ("mechanica", 2, 12),
    ("mechanica", 3, 8),
    ("mechanica", 4, 8),
    ("mechanica-factory", 1, 12),
)


def digest(name: str, players: int, seed: int) -> str:
    old = OLD_READINGS[name]
    game = bgrules.load_game(name, players=players, variant=old["variant"], **old["options"])
    result = playout(game, seed=seed)
    h = hashlib.sha256()
    for action in result.actions:
        h.update(repr(action).encode())
        h.update(b"\n")
    h.update(bgrules.dumps(result.final).encode())
    h.update(repr(result.truncated).encode())
    return f"{len(result.actions)}:{h.hexdigest()[:24]}"


def compute() -> dict[str, str]:
    return {
        f"{name}/{players}/{seed}": digest(name, players, seed)
        for name, players, count in CONFIGS
        for seed in range(count)
    }


if __name__ == "__main__":
    if "--write" in sys.argv:
        GOLDEN.write_text(json.dumps(compute(), indent=1, sort_keys=True) + "\n")
        print(f"wrote {GOLDEN}")
