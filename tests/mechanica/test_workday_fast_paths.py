"""The speed paths of Mechanica's workday run give the answers of the plain computations (issue 12, item 3).

Along seeded random playouts under every value of every ruling, every call of ``workday._move_forced``
(each bot's forced steps taken at once by its memoised route, :func:`workday._route`) is compared with the
plain step-by-step reading (``movement.options`` at each node, ``_Mover.follow`` for each step, the
MC-MOVE-LOOP check first): the same run, and the same effects counted for coverage, rule by rule. Every
run copy made by ``workday._copy`` (slot by slot, the stock's converter skipped) equals, slot for slot,
the copy ``Run.__init__`` makes; and the boards of the runs (built by ``with_*``, which pass the layout
on) carry the layout their tiles give.

The run a workday ends in is also the refinement harness's (tests/refinement/test_engines.py, the fast
engine against the reference engine under every ruling); what only this test sees is that the memoised
route counts each rule's effect for coverage as the step-by-step reading does, and the copies slot by slot.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import attrs
import pytest
from support.mechanica_rulings import RULINGS, ruled_game
from support.walks import states

from bgrules.core import coverage
from bgrules.mechanica import workday
from bgrules.mechanica.board import on_floor
from bgrules.mechanica.factory import Factory
from bgrules.mechanica.movement import node_code, options
from bgrules.mechanica.run import Run
from bgrules.mechanica.variant import MechanicaVariant


def _plain_move_forced(run: Run, variant: MechanicaVariant) -> Run:
    """The movement phase one step at a time, every node's options computed afresh (no memo)."""
    mover = workday._Mover(run)
    while mover.moving:
        head = mover.moving[0]
        r, c, _h = head.node
        if on_floor(r, c) and head.visited >> node_code(head.node) & 1:
            mover.follow(workday._LOOP_STEP)
            continue
        steps = options(run.factory, variant, head.node)
        if len(steps) > 1:
            break
        mover.follow(steps[0])
    return mover.to_run()


_NAMES = (*(a.name for a in attrs.fields(Run)), "_attrs_cached_hash")


def _same_slots(a: Run, b: Run) -> bool:
    missing = object()
    return all(getattr(a, n, missing) == getattr(b, n, missing) for n in _NAMES)


def _check_layout(board: Factory) -> None:
    """The layout a run's board carries (passed on by ``with_*``) is the one its tiles give."""
    fresh = Factory(board.floor, board.start, board.dock)
    assert board == fresh and hash(board) == hash(fresh) and board.layout == fresh.layout


class _Watch:
    """Wraps ``_move_forced`` and ``_copy`` (module globals, as ``advance`` and the step functions call
    them) to compare each call with the plain computation."""

    def __init__(self, variant: MechanicaVariant) -> None:
        self.variant = variant
        self.moves = 0
        self.copies: Counter[tuple[str, ...]] = Counter()
        self.real_move = workday._move_forced
        self.real_copy = workday._copy

    def move_forced(self, run: Run, variant: MechanicaVariant) -> Run:
        with coverage.probe() as plain_counts:
            plain = _plain_move_forced(run, variant)
        with coverage.probe() as counts:
            got = self.real_move(run, variant)
        assert got == plain
        assert got.moving == plain.moving and got.stock == plain.stock and got.charges == plain.charges
        assert counts.effects == plain_counts.effects
        _check_layout(run.factory)
        self.moves += 1
        return self.real_move(run, variant)  # again, outside the probes: counted as the caller counts it

    def copy(self, run: Run, **changes: Any) -> Run:
        got = self.real_copy(run, **changes)
        reference = attrs.evolve(run, **changes)
        assert _same_slots(got, reference) and got == reference and hash(got) == hash(reference)
        assert type(got.stock) is tuple and all(type(n) is int for n in got.stock)
        _check_layout(got.factory)
        self.copies[tuple(changes)] += 1
        return got


@pytest.mark.parametrize(("field", "value"), RULINGS, ids=[f"{f}={v}" for f, v in RULINGS])
def test_workday_speed_paths_agree_along_playouts(field: str, value: object, monkeypatch: pytest.MonkeyPatch) -> None:
    players = 4 if field != "default" else 3
    game = ruled_game(field, value, players)
    watch = _Watch(game.variant)
    monkeypatch.setattr(workday, "_move_forced", watch.move_forced)
    monkeypatch.setattr(workday, "_copy", watch.copy)
    steps = 80 if field == "loop" else 400  # under loop = "forbid" every placement looks for a loop: slow
    for seed in range(3):
        for _state in states(game, seed, max_steps=steps):
            pass
    assert watch.moves > 10
    assert len(watch.copies) >= 4
