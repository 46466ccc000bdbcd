"""Proof obligations: z3 checks kept in ``proofs/``, each with an expected verdict in a manifest.

A proof module in ``proofs/`` defines ``obligations() -> list[Obligation]``. ``proofs/manifest.toml``
lists every obligation's id with its expected verdict::

    [[obligation]]
    id = "MC-PROOF-COLLIDE-FORK-SPLIT"
    module = "mechanica_collision"
    expected = "holds"

Verdicts: ``holds`` (the negation is unsatisfiable), ``violated`` (a witness was found; it is
reported), ``unknown`` (the solver gave up or timed out: never reported as holding).
"""

from __future__ import annotations

import importlib.util
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any, Literal

import attrs

from bgrules.core.codec import read_toml
from bgrules.core.errors import InputError
from bgrules.core.report import Report

Verdict = Literal["holds", "violated", "unknown"]
VERDICTS: tuple[str, ...] = ("holds", "violated", "unknown")


@attrs.frozen
class Outcome:
    verdict: Verdict
    detail: str = ""
    witness: Any = None


@attrs.frozen
class Obligation:
    id: str
    statement: str
    rules: tuple[str, ...]
    guarantee: str
    """What a ``holds`` verdict covers: ``inductive``, ``bounded k=...``, ``per factory: ...``."""
    check: Callable[[int], Outcome]
    """Run the check with a solver timeout in milliseconds."""


def _import(path: Path) -> ModuleType:
    name = f"bgrules_proofs_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise InputError(str(path), "cannot import this proof module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_manifest(directory: Path) -> dict[str, tuple[str, str]]:
    """id -> (module, expected verdict), from ``manifest.toml`` and any ``*.manifest.toml`` beside it."""
    out: dict[str, tuple[str, str]] = {}
    paths = [directory / "manifest.toml", *sorted(directory.glob("*.manifest.toml"))]
    for path in paths:
        _read_manifest(path, out)
    return out


def _read_manifest(path: Path, out: dict[str, tuple[str, str]]) -> None:
    data = read_toml(path)
    entries = data.get("obligation")
    if not isinstance(entries, list):
        raise InputError(str(path), "expected [[obligation]] entries")
    for i, entry in enumerate(entries):
        where = f"{path} obligation[{i}]"
        if not isinstance(entry, dict) or not {"id", "module", "expected"} <= set(entry):
            raise InputError(where, "each obligation needs id, module and expected")
        if entry["expected"] not in ("holds", "violated"):
            raise InputError(where, f"expected is 'holds' or 'violated', not {entry['expected']!r}")
        if entry["id"] in out:
            raise InputError(where, f"duplicate id {entry['id']!r}")
        out[entry["id"]] = (str(entry["module"]), str(entry["expected"]))


def collect(directory: Path) -> list[tuple[Obligation, str]]:
    """Every obligation of the manifest, with its expected verdict. Obligations defined in a module but
    missing from the manifest (or the other way round) are an error: expectations are written down."""
    manifest = load_manifest(directory)
    found: dict[str, Obligation] = {}
    for module_name in sorted({m for m, _ in manifest.values()}):
        path = directory / f"{module_name}.py"
        if not path.exists():
            raise InputError(str(directory / "manifest.toml"), f"module {module_name!r} has no file {path.name}")
        for ob in _import(path).obligations():
            found[ob.id] = ob
    missing = sorted(set(manifest) - set(found))
    if missing:
        raise InputError(str(directory / "manifest.toml"), f"no module defines {', '.join(missing)}")
    unlisted = sorted(set(found) - set(manifest))
    if unlisted:
        raise InputError(str(directory / "manifest.toml"), f"no expected verdict for {', '.join(unlisted)}")
    return [(found[i], manifest[i][1]) for i in manifest]


def run_obligation(ob: Obligation, expected: str, timeout_ms: int = 10_000) -> Report:
    start = time.perf_counter()
    outcome = ob.check(timeout_ms)
    seconds = time.perf_counter() - start
    return Report(
        ob.id,
        "proof",
        ob.statement,
        ob.rules,
        "proved",
        outcome.verdict,
        expected,
        ob.guarantee,
        seconds,
        outcome.detail,
        outcome.witness,
    )


def run_all(directory: Path, timeout_ms: int = 10_000, only: str | None = None) -> list[Report]:
    return [
        run_obligation(ob, expected, timeout_ms) for ob, expected in collect(directory) if only is None or only in ob.id
    ]
