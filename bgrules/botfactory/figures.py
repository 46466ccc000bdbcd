"""The Bot Factory seed's figures (seed 000_a7a09e9bc70ab148.txt, Chinese), pinned: see bgrules.core.figures."""

from __future__ import annotations

from typing import Any

from bgrules.core.figures import Figure

SEED = "000_a7a09e9bc70ab148.txt"


def _counts(key: str) -> Any:
    return lambda game: getattr(game.c.counts, key)


# fmt: off
FIGURES = (
    Figure(
        "botfactory", "token_cap", 9, SEED, 6, "話語指示物的持有上限是 9 個", "a player holds at most 9 tokens",
        _counts("token_cap"),
    ),
    Figure(
        "botfactory", "part_limit", 5, SEED, 79, "最多持有五個部件板塊", "at most five part tiles are held",
        _counts("part_limit"),
    ),
    Figure(
        "botfactory", "project_limit", 5, SEED, 97, "最多只能持有五個專案板塊",
        "at most five Project tiles may be held", _counts("project_limit"),
    ),
)
# fmt: on
