"""Refactors keep behaviour: playouts of fixed seeds under the old readings give the recorded traces."""

from __future__ import annotations

import json

import pytest
from support.golden_traces import CONFIGS, GOLDEN, digest

RECORDED: dict[str, str] = json.loads(GOLDEN.read_text())


@pytest.mark.parametrize(("name", "players", "count"), CONFIGS)
def test_playouts_under_old_readings_are_unchanged(name: str, players: int, count: int) -> None:
    for seed in range(count):
        key = f"{name}/{players}/{seed}"
        assert digest(name, players, seed) == RECORDED[key], f"{key}: the playout changed"


def test_the_golden_file_covers_every_config() -> None:
    assert len(RECORDED) == sum(count for _n, _p, count in CONFIGS)
