"""One result record for every checker (sampled, searched, proved), as ``bgrules verify`` reports it."""

from __future__ import annotations

from typing import Any

import attrs


@attrs.frozen
class Report:
    """A verdict on one spec or proof obligation, with what it guarantees and how long it took."""

    id: str
    kind: str
    """``spec`` or ``proof``."""
    statement: str
    rules: tuple[str, ...]
    checker: str
    """``sampled``, ``searched`` or ``proved``."""
    verdict: str
    expected: str
    guarantee: str
    seconds: float
    detail: str = ""
    witness: Any = None
    trace: Any = None
    """A counterexample's replayable trace (:mod:`bgrules.core.trace`), or None."""

    @property
    def ok(self) -> bool:
        return self.verdict == self.expected

    def to_json(self) -> dict[str, Any]:
        witness = list(self.witness) if isinstance(self.witness, tuple) else self.witness
        return {
            "id": self.id,
            "kind": self.kind,
            "statement": self.statement,
            "rules": list(self.rules),
            "checker": self.checker,
            "verdict": self.verdict,
            "expected": self.expected,
            "guarantee": self.guarantee,
            "seconds": round(self.seconds, 4),
            "ok": self.ok,
            "detail": self.detail,
            "witness": witness,
            "trace": self.trace,
        }
