"""Proof obligations: z3 checks kept in ``proofs/``, each with an expected verdict in a manifest.

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
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any, Literal

import attrs
import z3

from bgrules.core.codec import read_toml
from bgrules.core.defaults import DEFAULT_TIMEOUT_MS
from bgrules.core.errors import InputError
from bgrules.core.report import Report

Verdict = Literal["holds", "violated", "unknown"]
VERDICTS: tuple[str, ...] = ("holds", "violated", "unknown")
SOLVER_MAX_MS = 2**32 - 1
"""z3's timeout is an unsigned 32-bit number (0 means none): a longer budget is given to the solver as this."""
SEED = 0
"""The random seed of every solver: the same witnesses on every run."""


def check_timeout(timeout_ms: object, where: str = "timeout") -> int:
    """``timeout_ms`` as a whole number of milliseconds of at least 1, else an InputError."""
    if isinstance(timeout_ms, bool) or not isinstance(timeout_ms, int) or timeout_ms < 1:
        raise InputError(where, f"a whole number of milliseconds of at least 1, not {timeout_ms!r}")
    return timeout_ms


@attrs.frozen
class Budget:
    """What one obligation may spend. ``timeout_ms``: its wall budget, from its start: each solver check it
    makes gets what is left as its solver timeout (:attr:`solver_ms`), and a sampled obligation stops
    sampling once it is spent (its guarantee says how many samples it compared). ``thorough``: the deeper
    sample sizes (at least the budgets before issue 10)."""

    timeout_ms: int = DEFAULT_TIMEOUT_MS
    thorough: bool = False
    started: float = attrs.field(factory=time.perf_counter, eq=False)

    def __attrs_post_init__(self) -> None:
        check_timeout(self.timeout_ms)

    @property
    def solver_ms(self) -> int:
        """The timeout to give the next solver check: what is left of the budget (at least 1 ms, at most
        z3's 2**32 - 1)."""
        return max(1, min(int(self.timeout_ms - self.elapsed_ms()), SOLVER_MAX_MS))

    def elapsed_ms(self) -> float:
        return (time.perf_counter() - self.started) * 1000

    def expired(self) -> bool:
        """Is the wall budget spent?"""
        return self.elapsed_ms() >= self.timeout_ms

    def size(self, default: int, thorough: int) -> int:
        """A sample size: ``thorough`` under ``--thorough``, else ``default``."""
        return thorough if self.thorough else default

    def pick(self, default: Any, thorough: Any) -> Any:
        return thorough if self.thorough else default

    def stop(self) -> Stop:
        """A stop signal for a sampled loop (true once the budget is spent)."""
        return Stop(self)

    def stopped(self, planned: str) -> str:
        """The words a sampled guarantee adds when the wall budget ended it early."""
        return f"; stopped by the {self.timeout_ms} ms budget before the planned {planned}"


class Stop:
    """Asked before each sample: true once the budget is spent; :attr:`hit` says whether it ever was, so
    the guarantee can say the sampling stopped short of its plan."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.hit = False

    def __call__(self) -> bool:
        if not self.hit and self.budget.expired():
            self.hit = True
        return self.hit


class Undecided(Exception):
    """The solver could not decide one check of a sampled comparison (a timeout or a give-up): no verdict
    either way; :func:`run_obligation` reports the obligation ``unknown``."""


def solver(timeout_ms: int | Budget | None = None, logic: str | None = None) -> Any:
    """A z3 solver with the fixed random seed and, when given, the timeout (clamped to z3's range)."""
    s = z3.SolverFor(logic) if logic is not None else z3.Solver()
    s.set("random_seed", SEED)
    if timeout_ms is not None:
        ms = timeout_ms.solver_ms if isinstance(timeout_ms, Budget) else min(check_timeout(timeout_ms), SOLVER_MAX_MS)
        s.set("timeout", ms)
    return s


@attrs.frozen
class Outcome:
    verdict: Verdict
    detail: str = ""
    witness: Any = None
    checked: int = 0
    """The evidence behind the verdict: solver ``unsat`` answers (a proof) or samples compared (a sampled
    obligation). A ``holds`` with nothing checked is reported as ``unknown``."""
    guarantee: str | None = None
    """The budget really spent, when it is only known after the run (a sampled obligation: how many
    samples it compared); None: the obligation's own ``guarantee``."""


@attrs.frozen
class Obligation:
    id: str
    statement: str
    rules: tuple[str, ...]
    guarantee: str
    """What a ``holds`` verdict covers: ``inductive``, ``bounded k=...``, ``per factory: ...``, ``sampled:
    ...`` (the planned budget; the report gives the spent one, :attr:`Outcome.guarantee`)."""
    check: Callable[[Budget], Outcome]
    """Run the check within a :class:`Budget` (solver timeout per check, wall budget, thoroughness)."""


def _import(path: Path) -> ModuleType:
    """Import a proof module from its file: this runs its code (docs/verify.md, "Code that runs"); an
    import that fails is an InputError naming the file and the exception in one line."""
    from bgrules.core.specs import one_line

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
    from bgrules.core.codec import show

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
    from bgrules.core.codec import identifier, show

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
    from bgrules.core.codec import show
    from bgrules.core.specs import one_line

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


def _seed() -> None:
    z3.set_param("smt.random_seed", SEED)
    z3.set_param("sat.random_seed", SEED)


@contextmanager
def fresh_context() -> Iterator[None]:
    """Run in a new z3 main context, the caller's restored after. A solver's answer (which model it finds)
    depends on the terms created before it in its context, so an obligation run after others, in another
    order or in another worker process would find other witnesses; in a context of its own it finds the
    same ones on every run."""
    module: Any = z3.z3
    saved = module._main_ctx
    module._main_ctx = None
    try:
        yield
    finally:
        module._main_ctx = saved


def run_obligation(
    ob: Obligation, expected: str, timeout_ms: int = DEFAULT_TIMEOUT_MS, thorough: bool = False
) -> Report:
    """Run one obligation. ``timeout_ms`` (at least 1, else InputError) is the solver timeout of each of its
    checks and, for a sampled obligation, its wall budget; ``thorough`` picks the deeper sample sizes. A
    solver failure or any exception of the check is the verdict ``unknown`` with its reason in the detail;
    a ``holds`` that checked nothing (no ``unsat``, no compared sample) is ``unknown`` too."""
    check_timeout(timeout_ms)
    _seed()
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
