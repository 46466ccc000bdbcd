"""``bgrules games``: every game's lines (:func:`bgrules.core.catalog.describe_all` describes them)."""

from __future__ import annotations

import json
from typing import Any


def lines(described: list[dict[str, Any]]) -> list[str]:
    out = []
    for g in described:
        lo, hi = g["min_players"], g["max_players"]
        out.append(f"{g['name']}: {lo if lo == hi else f'{lo}-{hi}'} player(s), {g['default_players']} by default")
        for o in g["options"]:
            out.append(f"  option {o['name']} = {json.dumps(o['default'])}: {o['meaning']}")
        for r in g["rulings"]:
            choices = r["choices"] if isinstance(r["choices"], str) else " | ".join(json.dumps(c) for c in r["choices"])
            out.append(f"  ruling {r['name']} = {json.dumps(r['default'])} ({choices}): {r['meaning']}")
    return out
