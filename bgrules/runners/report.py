"""One result record for every checker (sampled, searched, proved), as ``bgrules verify`` reports it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
    """``sampled``, ``searched``, ``explored`` or ``proved`` (``witness`` for a clarification's)."""
    verdict: str
    expected: str
    guarantee: str
    seconds: float
    detail: str = ""
    witness: Any = None
    trace: Any = None
    """A counterexample's replayable trace (:mod:`bgrules.runners.trace`), or None."""
    players: int | None = None
    """The player count a spec naming its counts was checked at (the row's ``players`` key), else None."""
    proves: str | None = None
    """The spec a proof obligation proves (the row's ``proves`` key), else None."""

    @property
    def ok(self) -> bool:
        return self.verdict == self.expected

    def to_json(self) -> dict[str, Any]:
        witness = list(self.witness) if isinstance(self.witness, tuple) else self.witness
        row: dict[str, Any] = {
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
        if self.players is not None:
            row["players"] = self.players
        if self.proves is not None:
            row["proves"] = self.proves
        return row


SPEC_VERDICTS = ("sampled", "searched", "explored", "proved")
"""The verdicts :func:`by_spec` gathers under each spec."""


def by_spec(
    rows: Sequence[Mapping[str, Any]], specs: Sequence[Any], run: Sequence[str] = SPEC_VERDICTS
) -> list[dict[str, Any]]:
    """The rows of a run grouped under each spec (in the specs' order): per checker of
    :data:`SPEC_VERDICTS` its rows (a spec's own rows, one per player count; for ``proved`` the rows of the
    obligations whose ``proves`` names it), or the reason there are none: ``not in checkers`` (the spec
    does not list it), ``not run`` (``run``, the checkers of this run, leaves it out), ``no proof obligation
    names it``. ``specs`` are :class:`bgrules.runners.specfile.Spec`."""
    out: list[dict[str, Any]] = []
    for spec in specs:
        entry: dict[str, Any] = {"id": spec.id, "statement": spec.statement, "players": list(spec.players or ())}
        for checker in SPEC_VERDICTS:
            if checker == "proved":
                found = [r for r in rows if r.get("kind") == "proof" and r.get("proves") == spec.id]
                reason = "not run" if checker not in run else "no proof obligation names it"
            else:
                found = [r for r in rows if r.get("kind") == "spec" and r["id"] == spec.id and r["checker"] == checker]
                reason = "not in checkers" if checker not in spec.checkers else "not run"
            entry[checker] = {"rows": found, "reason": None if found else reason}
        out.append(entry)
    return out


def _cell(checker: str, found: Sequence[Mapping[str, Any]]) -> str:
    """One checker's verdicts in a few words: ``holds (2, 3, 4 players)``; an unexpected verdict says so."""
    groups: dict[tuple[str, bool], list[str]] = {}
    for r in found:
        who = str(r["id"]) if checker == "proved" else (str(r["players"]) if r.get("players") is not None else "")
        groups.setdefault((str(r["verdict"]), bool(r["ok"])), []).append(who)
    parts = []
    for (verdict, ok), names in groups.items():
        words = verdict if ok else f"FAIL {verdict}"
        named = [w for w in names if w]
        if checker == "proved":
            parts.append(f"{words} ({', '.join(named)})")
        elif named:
            parts.append(f"{words} ({', '.join(named)} players)")
        else:
            parts.append(words)
    return ", ".join(parts)


def by_spec_lines(grouped: Sequence[Mapping[str, Any]]) -> list[str]:
    """:func:`by_spec` as text: a heading, then one line per spec (never wrapped)."""
    if not grouped:
        return []
    lines = ["by spec (sampled; searched; explored; proved):"]
    for entry in grouped:
        cells = []
        for checker in SPEC_VERDICTS:
            got = entry[checker]
            cells.append(f"{checker} " + (_cell(checker, got["rows"]) if got["rows"] else f"- ({got['reason']})"))
        lines.append(f"  {entry['id']}: " + "; ".join(cells))
    return lines
