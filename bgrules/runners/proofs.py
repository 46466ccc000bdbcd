"""Running the proof obligations: z3 checks kept in ``proofs/``, each with an expected verdict in a manifest
(the obligations' types are :mod:`bgrules.core.proofs`').

A proof module in ``proofs/`` defines ``obligations() -> list[Obligation]``. ``proofs/manifest.toml``
lists every obligation's id with its expected verdict::

    [[obligation]]
    id = "MC-PROOF-COLLIDE-FORK-SPLIT"
    module = "mechanica_collision"
    expected = "holds"
    proves = "SPEC-ID"          # optional: the spec whose invariant it proves (bgrules verify checks it exists)

Verdicts: ``holds`` (the negation is unsatisfiable, or every sample compared agreed), ``violated`` (a
witness was found; it is reported), ``unknown`` (the solver gave up, timed out or failed: never reported
as holding). Each check gets a :class:`Budget`: ``timeout_ms`` is the solver timeout of every solver check
it makes and the wall budget of a sampled (conformance) obligation; ``thorough`` picks the deeper sample
sizes. A ``holds`` needs evidence (``Outcome.checked``: a solver ``unsat`` or a compared sample); an
exception of the solver or the check is an ``unknown`` with its reason, never an escape (docs/proofs.md).
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs
import z3

from bgrules.core.codec import identifier, read_toml, show
from bgrules.core.defaults import DEFAULT_TIMEOUT_MS
from bgrules.core.errors import InputError
from bgrules.core.proofs import (
    Budget,
    Obligation,
    Outcome,
    Undecided,
    check_timeout,
    fresh_context,
    seed_solvers,
)
from bgrules.runners.report import Report
from bgrules.runners.specfile import one_line


def _import(path: Path) -> ModuleType:
    """Import a proof module from its file: this runs its code (docs/verify.md, "Code that runs"); an
    import that fails is an InputError naming the file and the exception in one line."""

    name = f"bgrules_proofs_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise InputError(str(path), "cannot import this proof module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        sys.modules.pop(name, None)
        raise InputError(str(path), f"importing the proof module failed: {one_line(exc)}") from None
    return module


_MODULE = re.compile(r"[A-Za-z_]\w*")
"""A proof manifest's ``module``: the stem of a ``.py`` file in the proofs directory itself."""


def _module_file(directory: Path, module: Any, where: str) -> Path:
    """The file ``directory/<module>.py`` a manifest's ``module`` names, checked before anything is imported:
    a plain Python name, so ``../x``, an absolute path or a dotted name is refused, and the file (links
    resolved) inside ``directory``."""

    if not isinstance(module, str) or not _MODULE.fullmatch(module):
        raise InputError(
            f"{where} module",
            f"the name of a .py file in the proofs directory (letters, digits, _), not {show(module)}",
        )
    path = directory / f"{module}.py"
    try:
        inside = path.resolve().is_relative_to(directory.resolve())
    except (OSError, RuntimeError):
        inside = False
    if not inside:
        raise InputError(f"{where} module", f"{path} is not inside the proofs directory {directory}")
    return path


def load_manifest(directory: Path) -> dict[str, tuple[str, str]]:
    """id -> (module, expected verdict), from ``manifest.toml`` and any ``*.manifest.toml`` beside it."""
    out: dict[str, tuple[str, str]] = {}
    paths = [directory / "manifest.toml", *sorted(directory.glob("*.manifest.toml"))]
    for path in paths:
        _read_manifest(path, out)
    return out


def load_proves(directory: Path) -> dict[str, tuple[str, str]]:
    """Obligation id -> (the spec id its ``proves`` names, where: the manifest and the obligation), for
    the obligations of ``directory``'s manifests that name the spec they prove (read once per process)."""
    key = str(directory.resolve())
    found = _PROVES.get(key)
    if found is None:
        found = {}
        for path in [directory / "manifest.toml", *sorted(directory.glob("*.manifest.toml"))]:
            _read_manifest(path, {}, found)
        _PROVES[key] = found
    return found


_PROVES: dict[str, dict[str, tuple[str, str]]] = {}


def _read_manifest(
    path: Path, out: dict[str, tuple[str, str]], proves: dict[str, tuple[str, str]] | None = None
) -> None:
    data = read_toml(path)
    entries = data.get("obligation")
    if not isinstance(entries, list):
        raise InputError(str(path), "expected [[obligation]] entries")

    for i, entry in enumerate(entries):
        where = f"{path} obligation[{i}]"
        if not isinstance(entry, dict) or not {"id", "module", "expected"} <= set(entry):
            raise InputError(where, "each obligation needs id, module and expected")
        unknown = sorted(str(k) for k in set(entry) - {"id", "module", "expected", "proves"})
        if unknown:
            raise InputError(
                where, f"unknown key(s) {', '.join(unknown)}; an obligation has id, module, expected, proves"
            )
        ob_id = identifier(entry["id"], f"{where} id")
        _module_file(path.parent, entry["module"], where)
        if entry["expected"] not in ("holds", "violated"):
            raise InputError(f"{where} expected", f"'holds' or 'violated', not {show(entry['expected'])}")
        if ob_id in out:
            raise InputError(f"{where} id", f"duplicate id {ob_id!r}")
        out[ob_id] = (str(entry["module"]), str(entry["expected"]))
        if "proves" in entry:
            spec_id = identifier(entry["proves"], f"{where} proves")
            if proves is not None:
                proves[ob_id] = (spec_id, where)


def collect(directory: Path) -> list[tuple[Obligation, str]]:
    """Every obligation of the manifest, with its expected verdict. Obligations defined in a module but
    missing from the manifest (or the other way round) are an error: expectations are written down."""
    manifest = load_manifest(directory)
    if not manifest:
        raise InputError(str(directory), "its manifests list no proof obligation")
    found: dict[str, Obligation] = {}
    for module_name in sorted({m for m, _ in manifest.values()}):
        path = _module_file(directory, module_name, str(directory / "manifest.toml"))
        if not path.is_file():
            raise InputError(str(directory / "manifest.toml"), f"module {module_name!r} has no file {path.name}")
        for ob in _obligations_of(path):
            found[ob.id] = ob
    missing = sorted(set(manifest) - set(found))
    if missing:
        raise InputError(str(directory / "manifest.toml"), f"no module defines {', '.join(missing)}")
    unlisted = sorted(set(found) - set(manifest))
    if unlisted:
        raise InputError(str(directory / "manifest.toml"), f"no expected verdict for {', '.join(unlisted)}")
    return [(found[i], manifest[i][1]) for i in manifest]


def _obligations_of(path: Path) -> list[Obligation]:
    """``obligations()`` of the proof module at ``path``: a list of :class:`Obligation`; a module without
    it, one whose call raises, or one that gives anything else is an InputError naming the file."""

    make = getattr(_import(path), "obligations", None)
    if not callable(make):
        raise InputError(str(path), "a proof module defines obligations() -> list[Obligation]")
    try:
        obs = make()
    except Exception as exc:
        raise InputError(str(path), f"obligations() raised {one_line(exc)}") from None
    if not isinstance(obs, list | tuple) or not all(isinstance(ob, Obligation) for ob in obs):
        raise InputError(str(path), f"obligations() gives a list of Obligation, not {show(repr(obs))}")
    for ob in obs:
        if not isinstance(ob.id, str):
            raise InputError(str(path), f"an obligation's id is text, not {show(ob.id)}")
    return list(obs)


def run_obligation(
    ob: Obligation, expected: str, timeout_ms: int = DEFAULT_TIMEOUT_MS, thorough: bool = False
) -> Report:
    """Run one obligation. ``timeout_ms`` (at least 1, else InputError) is the solver timeout of each of its
    checks and, for a sampled obligation, its wall budget; ``thorough`` picks the deeper sample sizes. A
    solver failure or any exception of the check is the verdict ``unknown`` with its reason in the detail;
    a ``holds`` that checked nothing (no ``unsat``, no compared sample) is ``unknown`` too."""
    check_timeout(timeout_ms)
    seed_solvers()
    budget = Budget(timeout_ms, thorough)
    try:
        with fresh_context():
            outcome = ob.check(budget)
    except z3.Z3Exception as exc:
        outcome = Outcome("unknown", f"solver failure: {_reason(exc)}")
    except Undecided as exc:
        outcome = Outcome("unknown", f"solver undecided: {_reason(exc)}")
    except Exception as exc:  # a failure of the check is no verdict: unknown, with its reason
        outcome = Outcome("unknown", f"check failed: {type(exc).__name__}: {_reason(exc)}")
    seconds = budget.elapsed_ms() / 1000
    if outcome.verdict == "holds" and outcome.checked < 1:
        outcome = attrs.evolve(outcome, verdict="unknown", detail=f"nothing was checked ({outcome.detail})")
    return Report(
        ob.id,
        "proof",
        ob.statement,
        ob.rules,
        "proved",
        outcome.verdict,
        expected,
        outcome.guarantee or ob.guarantee,
        seconds,
        outcome.detail,
        outcome.witness,
    )


def _reason(exc: BaseException) -> str:
    value = getattr(exc, "value", None)
    text = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value if value else exc)
    return " ".join(text.split()) or type(exc).__name__


def run_all(
    directory: Path,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
    only: str | None = None,
    thorough: bool = False,
) -> list[Report]:
    """Every obligation of ``directory``'s manifests (ids containing ``only``), in manifest order."""
    check_timeout(timeout_ms)
    return [
        run_obligation(ob, expected, timeout_ms, thorough)
        for ob, expected in collect(directory)
        if only is None or only in ob.id
    ]
