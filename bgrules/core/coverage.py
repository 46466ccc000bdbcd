"""Rule coverage: how often each rule ID's effect was applied and its guard refused an action, and which
checkers reached it.

The rule rooms call :func:`effect` once where a rule's effect is applied (``coverage.effect("BF-ASM")``);
:class:`bgrules.IllegalAction` calls :func:`refusal` when it is raised, so every guard's refusal is
counted where it names its rule. Both are no-ops unless a :func:`recording` is open: off, a call is one
global test (see docs/coverage.md for the measured cost).

A recording names its checker (``sampled``, ``searched``, ``witness``, ``simulate``, ``tests``);
recordings nest, an inner one's counts are added to the outer one when it closes, and a
:func:`collecting` block gathers every recording closed within it by checker. The tables made of them
(``bgrules coverage --json``), the rule IDs of docs/rules and their exemptions are
:mod:`bgrules.runners.coverage`'s.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import attrs

CHECKERS = ("sampled", "searched", "explored", "witness", "proved", "simulate", "tests")
"""The checkers a rule may be reached by, in the order the table lists them."""
NOT_RULES = ("-INV-", "-Q-", "-PROOF-", "-GAME-")
"""Markers of IDs that name invariants, questions, proofs or games, not rules (as tests/core/test_docs.py)."""


@attrs.define
class Counts:
    """The counts of one recording: effects and refusals per rule ID, and the states it visited (a
    runner adds them with :meth:`visit`)."""

    checker: str
    effects: Counter[str] = attrs.field(factory=Counter)
    refusals: Counter[str] = attrs.field(factory=Counter)
    states: int = 0

    def visit(self, n: int = 1) -> None:
        self.states += n

    def add(self, other: Counts) -> None:
        self.effects.update(other.effects)
        self.refusals.update(other.refusals)
        self.states += other.states

    def reached(self) -> set[str]:
        return {r for r, n in self.effects.items() if n} | {r for r, n in self.refusals.items() if n}


@attrs.define
class Collector:
    """Every recording closed inside a :func:`collecting` block, summed per checker."""

    by_checker: dict[str, Counts] = attrs.field(factory=dict)
    closed: list[Counts] = attrs.field(factory=list)
    """Each recording that closed, as it closed (what a worker sends back, :func:`absorb`)."""

    def add(self, counts: Counts) -> None:
        self.closed.append(counts)
        mine = self.by_checker.get(counts.checker)
        if mine is None:
            mine = self.by_checker[counts.checker] = Counts(counts.checker)
        mine.add(counts)

    @property
    def states(self) -> int:
        return sum(c.states for c in self.by_checker.values())


_current: Counts | None = None
_collectors: list[Collector] = []


def effect(rule_id: str) -> None:
    """Count one application of ``rule_id``'s effect (no-op when no recording is open)."""
    if _current is not None:
        _current.effects[rule_id] += 1


def refusal(rule_id: str) -> None:
    """Count one refusal by ``rule_id``'s guard (``IllegalAction`` calls it; no-op when off)."""
    if _current is not None:
        _current.refusals[rule_id] += 1


def withdraw(refused: Any) -> None:
    """Take back the refusal an ``IllegalAction`` counted when the code only probed a guard to list the
    options (a candidate action, not one submitted): ``except IllegalAction as exc: coverage.withdraw(exc)``."""
    if _current is not None:
        rule_id = refused.rule_id
        n = _current.refusals[rule_id] - 1
        if n > 0:
            _current.refusals[rule_id] = n
        else:
            del _current.refusals[rule_id]


def active() -> Counts | None:
    """The innermost open recording, or None (coverage is off)."""
    return _current


def visit(n: int = 1) -> None:
    """A runner visited ``n`` states (the states a recording's evidence rests on)."""
    if _current is not None:
        _current.states += n


@contextmanager
def recording(checker: str) -> Iterator[Counts]:
    """Count effects and refusals for ``checker`` within the block; the counts are exact for the block
    (nested recordings are added to it when they close)."""
    global _current
    if checker not in CHECKERS:
        raise ValueError(f"{checker!r} is not a coverage checker ({', '.join(CHECKERS)})")  # a caller's slip
    counts = Counts(checker)
    parent = _current
    _current = counts
    try:
        yield counts
    finally:
        _current = parent
        if parent is not None:
            parent.add(counts)
        for collector in _collectors:
            collector.add(counts)


@contextmanager
def collecting() -> Iterator[Collector]:
    """Gather every recording that closes within the block, by checker."""
    collector = Collector()
    _collectors.append(collector)
    try:
        yield collector
    finally:
        _collectors.remove(collector)


@contextmanager
def probe() -> Iterator[Counts]:
    """Count the effects and refusals within the block for the caller alone: nothing is added to an open
    recording or collector (a trace's explanation, :mod:`bgrules.runners.trace`, reads which rules each step
    applied without counting the replay as evidence)."""
    global _current
    counts = Counts("tests")
    parent = _current
    _current = counts
    try:
        yield counts
    finally:
        _current = parent


def absorb(top: Counts | None, closed: Iterable[Counts]) -> None:
    """Add what a task counted elsewhere (a worker process of :mod:`bgrules.core.jobs`) as if it had run
    here. ``top``: everything it counted inside the recording the worker opened in the name of the one open
    here (its nested recordings included), added to the open recording; ``closed``: each recording that
    closed within the task, added to every collector, as each would have been on closing here."""
    if top is not None and _current is not None:
        _current.add(top)
    for c in closed:
        if top is None and _current is not None:
            _current.add(c)
        for collector in _collectors:
            collector.add(c)


def detach() -> None:
    """Forget the recordings and collectors inherited from a parent process (a forked worker starts with
    none; what it records travels back with its results, :func:`absorb`)."""
    global _current, _on_exit
    _current = None
    _on_exit = None
    _collectors.clear()


_on_exit: Collector | None = None


def process_collector() -> tuple[Collector, bool]:
    """The collector of the whole process: one per process (forgotten by :func:`detach`), gathering every
    recording closed from its making on; returned with whether this call made it
    (:func:`bgrules.runners.coverage.write_on_exit` writes its table at exit)."""
    global _on_exit
    if _on_exit is not None:
        return _on_exit, False
    collector = _on_exit = Collector()
    _collectors.append(collector)
    return collector, True


__all__ = [
    "CHECKERS",
    "NOT_RULES",
    "Collector",
    "Counts",
    "absorb",
    "active",
    "collecting",
    "detach",
    "effect",
    "probe",
    "process_collector",
    "recording",
    "refusal",
    "visit",
    "withdraw",
]
