"""The plan of ``bgrules verify`` (and ``prove``, ``clarify``): every check as an independent task.

The tasks are: one per group of sampled specs that play the same games (:func:`bgrules.runners.specs.
sampled_groups`), one per searched spec, one per proof obligation, one per clarification file. They run
side by side on :func:`bgrules.core.jobs.run_tasks`; each returns its result rows (``Report.to_json``),
and the rows come back in the plan's order, so the report is the same whatever ``--jobs``.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from bgrules.core.descriptor import BUILTIN, Table, descriptors, find
from bgrules.core.errors import BgrulesError, InputError
from bgrules.core.jobs import Task
from bgrules.runners import proofs
from bgrules.runners.clarify import check_clarification, load_clarification, load_files
from bgrules.runners.proofs import collect, load_proves
from bgrules.runners.report import Report
from bgrules.runners.specfile import Budget, Spec, load_specs, one_line, part_label, select, usable_specs
from bgrules.runners.specs import run_group, sampled_groups

Rows = list[dict[str, Any]]


def spec_tasks(
    specs_dir: Path,
    budget: Budget,
    checkers: Sequence[str],
    only: str | None,
    games: Sequence[str] | None = None,
    loaded: Sequence[Spec] | None = None,
) -> tuple[list[Task], list[Spec]]:
    """The sampled, searched and explored groups of ``specs_dir`` (``loaded``: its specs, already read) whose
    id contains ``only``, or the parts of them whose label does (``ID-3P``: :func:`bgrules.runners.specs.
    select`), of ``games`` only, when given."""
    every = load_specs(specs_dir) if loaded is None else loaded
    specs = [s for s in select(list(every), only) if games is None or s.game in games]
    tasks: list[Task] = []
    for checker in SPEC_CHECKERS:
        if checker not in checkers:
            continue
        for group in sampled_groups(specs, budget, checker):
            first = part_label(group[0])
            names = first if len(group) == 1 else f"{first} and {len(group) - 1} more"
            tasks.append(Task(f"{names} [{checker}]", "bgrules.runners.verify:group_rows", (group, budget, checker)))
    return tasks, specs


SPEC_CHECKERS = ("sampled", "searched", "explored")
"""The checkers of specs, in the order a spec's verdicts are reported."""

CHECKERS = ("sampled", "searched", "explored", "proved", "clarified")
"""``bgrules verify``'s checkers (``--checker``), all of them in a whole run."""


def plan(
    specs_dir: Path,
    proofs_dir: Path,
    clarifications_dir: Path,
    budget: Budget,
    checkers: Sequence[str] = CHECKERS,
    only: str | None = None,
    timeout_ms: int = 30_000,
    thorough: bool = False,
    games: Sequence[str] | None = None,
    labels: Mapping[str, str] | None = None,
) -> tuple[list[Task], list[Spec]]:
    """``bgrules verify``'s tasks (and the specs they check, in file order): the sampled groups and
    searched specs, the proof obligations, the clarification files (when ``clarifications_dir`` exists), of
    ``checkers``, whose ids contain ``only``. ``games`` (``bgrules coverage --game``): only the specs and
    clarifications of those games and the obligations of their rules (``MC-``, ``BF-``). ``labels``: how an
    error names the ``"specs"`` and ``"proofs"`` directories (:func:`bgrules.core.defaults.source_label`);
    a specs directory with no spec of a known game never stands in for the shipped specs."""
    labels = labels or {}
    spec_checkers = tuple(c for c in checkers if c in SPEC_CHECKERS)
    tasks: list[Task] = []
    specs: list[Spec] = []
    loaded: list[Spec] | None = None
    if spec_checkers:
        loaded = usable_specs(specs_dir, labels.get("specs", str(specs_dir)))
        tasks, specs = spec_tasks(specs_dir, budget, spec_checkers, only, games, loaded)
    if games is None and loaded and plugins_only(loaded):
        # a specs directory of plug-in games alone (docs/extending.md): the shipped proofs and clarifications
        # are of other games' rules, so only those of the specs' games (none) are checked
        games = sorted({s.game for s in loaded})
        checkers = [c for c in checkers if c != "proved"]
    if "proved" in checkers:
        prefixes = None if games is None else tuple({_PREFIX[g] for g in games if g in _PREFIX})
        try:
            found = proof_tasks(proofs_dir, timeout_ms, only, thorough)
            if loaded is None and specs_dir.is_dir():
                loaded = load_specs(specs_dir)
            check_proves(proofs_dir, loaded)
        except InputError as exc:
            label = labels.get("proofs", str(proofs_dir))
            if label == str(proofs_dir):
                raise
            raise InputError(f"{label}: {exc.where}", exc.why) from None
        tasks += [t for t in found if prefixes is None or t.label.startswith(prefixes)]
    if "clarified" in checkers and clarifications_dir.is_dir():
        tasks += clarification_tasks([clarifications_dir], only, games=games)
    return tasks, specs


def plugins_only(specs: Sequence[Spec]) -> bool:
    """Whether every spec is of a game that plays none of the shipped games' rules (no rule prefix of
    theirs: :data:`bgrules.core.descriptor.BUILTIN`)."""

    shipped = {_PREFIX.get(name) for name, _ in BUILTIN} - {None}
    for spec in specs:
        found = find(spec.game)
        if found is None or found.rule_prefix is None or f"{found.rule_prefix}-" in shipped:
            return False
    return True


_PREFIX: Table[str, str] = Table(
    lambda: {d.name: f"{d.rule_prefix}-" for d in descriptors() if d.rule_prefix is not None}, "_PREFIX"
)
"""The rule prefix of each game's proof obligations (its descriptor's ``rule_prefix``)."""


def group_rows(group: list[Spec], budget: Budget, checker: str) -> Rows:
    """The group's rows; a group whose game raised (not a predicate: those are each spec's own ``unknown``)
    gives each of its specs an ``unknown`` row naming the exception in one line, and the run goes on."""

    try:
        return [r.to_json() for r in run_group(group, budget, checker)]
    except BgrulesError:
        raise
    except Exception as exc:
        detail = f"the check raised {one_line(exc)}"
        return [
            Report(
                s.id, "spec", s.statement, s.rules, checker, "unknown", s.expected, f"{checker}: not run", 0.0, detail
            ).to_json()
            for s in group
        ]


_OBLIGATIONS: dict[str, dict[str, tuple[Any, str]]] = {}


def _obligations(proofs_dir: Path) -> dict[str, tuple[Any, str]]:
    """Obligation id -> (obligation, expected verdict), read once per process."""

    key = str(proofs_dir.resolve())
    found = _OBLIGATIONS.get(key)
    if found is None:
        found = _OBLIGATIONS[key] = {ob.id: (ob, expected) for ob, expected in collect(proofs_dir)}
    return found


def check_proves(proofs_dir: Path, specs: Sequence[Spec] | None) -> None:
    """Every ``proves`` of the manifests of ``proofs_dir`` names a spec of ``specs`` (every spec of the specs
    directory, whatever ``--only``), else an InputError naming the manifest, the obligation and the id.
    ``specs`` None (no specs directory): nothing to check against."""

    if specs is None:
        return
    known = {s.id for s in specs}
    for ob_id, (spec_id, where) in load_proves(proofs_dir).items():
        if spec_id not in known:
            raise InputError(f"{where} proves", f"obligation {ob_id} names no spec of the specs directory: {spec_id!r}")


def proof_tasks(proofs_dir: Path, timeout_ms: int, only: str | None, thorough: bool = False) -> list[Task]:
    """One task per obligation of ``proofs_dir`` whose id contains ``only`` (all loaded first, so a bad
    manifest stops the run before anything is checked)."""
    return [
        Task(f"{ob_id} [proved]", "bgrules.runners.verify:proof_rows", (proofs_dir, ob_id, timeout_ms, thorough))
        for ob_id in _obligations(proofs_dir)
        if not only or only in ob_id
    ]


def proof_rows(proofs_dir: Path, ob_id: str, timeout_ms: int, thorough: bool = False) -> Rows:
    ob, expected = _obligations(proofs_dir)[ob_id]
    run: Any = proofs.run_obligation
    if "thorough" in inspect.signature(run).parameters:
        row = run(ob, expected, timeout_ms, thorough=thorough).to_json()
    else:
        row = run(ob, expected, timeout_ms).to_json()
    proves = proofs.load_proves(proofs_dir).get(ob_id)
    if proves is not None:
        row["proves"] = proves[0]
    return [row]


def clarification_tasks(
    paths: Sequence[Path],
    only: str | None,
    variant: Path | None = None,
    game: str | None = None,
    *,
    games: Sequence[str] | None = None,
) -> list[Task]:
    """One task per clarification file (every file loaded and checked for duplicate ids first, so a
    malformed file stops the run before anything is checked); ``games``: only the clarifications of those
    games."""

    return [
        Task(f"{c.id} [clarified]", "bgrules.runners.verify:clarification_rows", (path, only, base))
        for path, c, base in load_files(paths, variant, game)
        if (not only or _matching(c, only)) and (games is None or c.game in games)
    ]


def clarification_rows(path: Path, only: str | None, base: Any = None) -> Rows:
    c = load_clarification(path, base)
    if only:
        c = _matching(c, only)
    return [r.to_json() for r in check_clarification(c) if not only or only in r.id]


def _matching(c: Any, only: str) -> Any:
    """The clarification with only the witnesses and properties whose report ids contain ``only`` (None:
    nothing of it matches), so an ``--only`` runs no other check."""
    import attrs

    witnesses = tuple(w for w in c.witnesses if only in f"{c.id}/{w.name}")
    properties = tuple(p for p in c.properties if only in p.id)
    if not witnesses and not properties:
        return None
    return attrs.evolve(c, witnesses=witnesses, properties=properties)


__all__ = [
    "CHECKERS",
    "SPEC_CHECKERS",
    "check_proves",
    "clarification_rows",
    "clarification_tasks",
    "group_rows",
    "plan",
    "proof_rows",
    "proof_tasks",
    "spec_tasks",
]
