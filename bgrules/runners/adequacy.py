"""Specification adequacy (``bgrules adequacy``, docs/adequacy.md): how many plausible rule bugs the checks
of ``bgrules verify`` catch.

A *mutant* is one small edit of the rule code: a function of a game engine module (``bgrules/botfactory/*.py``,
``bgrules/mechanica/*.py``, not the invariants, encodings, validators, figures, scorers or notation) that cites
a rule ID (in a ``coverage.effect``/``refusal`` call, an ``IllegalAction``, its docstring or a comment). The
operators (:data:`OPERATORS`): an integer constant plus or minus one (``0`` to ``1``, ``1`` to ``0``), a
comparison turned (``<`` and ``<=``, ``>`` and ``>=``, ``==`` and ``!=``, ``in`` and ``not in``, ``is`` and
``is not``), ``and`` and ``or``, a ``not`` removed, an ``if`` (or a conditional expression) negated, ``+``
and ``-``, an index plus or minus one, two positional arguments swapped, ``True`` and ``False``, a returned
value replaced by ``None``. Mutants are sorted by module, line, column and operator; each has a stable id
(``bgrules/botfactory/production.py:44:12:cmp-eq-ne``: line and column, from 1, of the edited text) and a
unified diff. Each belongs to one rule, the rule ID cited nearest to it in its function (for the report),
and is checked by every check that reaches any rule its function cites.

Nothing runs in the package this process imported: the package directory (``bgrules.__file__``'s parent)
and the specs, proofs and clarifications are copied into a temporary directory, a mutant is written into a
copy of its own, and the checks run in a subprocess (the same ``sys.executable``) whose ``PYTHONPATH`` is that
copy. There, :func:`child_main` plans verify's checks (:func:`bgrules.runners.verify.plan`) and runs each one
in a forked process of its own under a coverage recording, so each check's verdict and the rules it reached
do not depend on the checks before it (memos are per process).

First the *baseline*: every check of the game on the unmutated copy. It gives the expected verdicts and
the map rule ID -> the checks whose run counted an effect or a refusal of it (plus the conformance
obligations that tie a rule's encoding to the code, proofs/conformance.toml). A mutant is *caught* when a
check of its selection gives a verdict other than the expected one, crashes, or the run exceeds
``seconds``. A reviewed file of *equivalent* mutants (``specs/adequacy-equivalent.toml``) lists those
that cannot change behaviour, each with its reason: they are not run and not counted.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

import bgrules
from bgrules.core import gcpolicy
from bgrules.core.codec import show
from bgrules.core.defaults import DEFAULT_TIMEOUT_MS, default_dir
from bgrules.core.errors import InputError
from bgrules.core.jobs import Task, check_jobs, run_tasks
from bgrules.core.limits import too_large
from bgrules.integrations import ray_engine
from bgrules.runners import coverage
from bgrules.runners.clarify import check_clarification, load_clarification
from bgrules.runners.mutants import (
    BASELINE_FLOOR,
    DEFAULT_SECONDS,
    EQUIVALENT_FILE,
    MAX_MUTANTS,
    MAX_SECONDS,
    AdequacyError,
    Mutant,
    find_mutants,
    load_equivalent,
    spread,
)
from bgrules.runners.specfile import Budget, one_line
from bgrules.runners.verify import CHECKERS, group_rows, plan, proof_rows

# --- the copy and the checks in a subprocess ---------------------------------------------------------


def _copy_package(package: Path, target: Path) -> None:
    """``package`` (its links followed: the packaged defaults) copied to ``target``, bytecode kept."""
    shutil.copytree(package, target, symlinks=False)


@attrs.frozen
class Workspace:
    """The run's temporary directory: the clean package copy and the specs, proofs and clarifications."""

    root: str
    package: str
    """The name of the package directory (``bgrules``)."""
    specs: str
    proofs: str
    clarifications: str
    games: tuple[str, ...]
    timeout_ms: int
    cwd: str
    checkers: tuple[str, ...] = ("sampled", "searched", "explored", "proved", "clarified")
    """verify's checkers whose checks are run (``--checker``)."""
    """The caller's directory (put last on the checks' import path, for a spec's own predicate module)."""


def make_workspace(
    package: Path,
    specs: Path,
    proofs: Path,
    clarifications: Path,
    games: Sequence[str],
    timeout_ms: int,
    checkers: Sequence[str] = ("sampled", "searched", "explored", "proved", "clarified"),
) -> Workspace:
    """A temporary directory holding a copy of ``package`` (``clean/<name>``) and of the three directories;
    an AdequacyError when something cannot be copied."""
    root = Path(tempfile.mkdtemp(prefix="bgrules-adequacy-"))
    try:
        _copy_package(package, root / "clean" / package.name)
        for name, src in (("specs", specs), ("proofs", proofs), ("clarifications", clarifications)):
            if src.is_dir():
                shutil.copytree(src, root / name, symlinks=False)
            else:
                (root / name).mkdir()
    except OSError as exc:
        shutil.rmtree(root, ignore_errors=True)
        raise AdequacyError(f"adequacy: cannot copy the package or its checks to {root}: {exc}") from None
    return Workspace(
        str(root),
        package.name,
        str(root / "specs"),
        str(root / "proofs"),
        str(root / "clarifications"),
        tuple(games),
        timeout_ms,
        os.getcwd(),
        tuple(checkers),
    )


@attrs.frozen
class Outcome:
    """What one run of the checks in a copy gave."""

    units: tuple[dict[str, Any], ...]
    """Each check unit run: ``checks`` (its check ids), ``rows`` (id, checker, verdict, expected, ok,
    detail), ``reached`` (rule IDs), ``error`` (None, or why it gave no rows)."""
    error: str | None
    """None, ``timeout``, or why the subprocess failed."""
    seconds: float


def run_checks(ws: Workspace, copy: Path, select: Sequence[str] | None, seconds: float) -> Outcome:
    """Run the checks ``select`` (check ids, ``ID [checker]``; None: every check of the games) in a
    subprocess importing the package at ``copy`` (the directory holding it), within ``seconds``."""
    request = {
        "root": str(copy),
        "package": ws.package,
        "specs": ws.specs,
        "proofs": ws.proofs,
        "clarifications": ws.clarifications,
        "games": list(ws.games),
        "timeout_ms": ws.timeout_ms,
        "select": None if select is None else list(select),
        "cwd": ws.cwd,
        "checkers": list(ws.checkers),
    }
    env = {k: v for k, v in os.environ.items() if k not in ("BGRULES_COVERAGE_FILE", "PYTHONSTARTUP")}
    env["PYTHONPATH"] = str(copy) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    code = f"import {ws.package}.runners.adequacy as a; a.child_main()"
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", code],
        cwd=copy,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        start_new_session=True,
    )
    error: str | None = None
    try:
        out, err = proc.communicate(json.dumps(request), timeout=seconds)
    except subprocess.TimeoutExpired:
        _kill(proc)
        out, err = proc.communicate()
        error = "timeout"
    units = []
    for line in out.splitlines():
        if line.startswith("{"):
            try:
                units.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    if error is None and proc.returncode != 0:
        last = (err.strip().splitlines() or [f"exit status {proc.returncode}"])[-1]
        error = f"the checks' process failed: {last[:300]}"
    return Outcome(tuple(u for u in units if "checks" in u), error, time.perf_counter() - start)


def _kill(proc: subprocess.Popen[str]) -> None:
    import signal

    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()


def run_mutant(ws: Workspace, mutant: Mutant, source: str, checks: Sequence[str], seconds: float) -> dict[str, Any]:
    """Write ``mutant`` into a copy of its own of the clean package and run ``checks`` there: the mutant's
    result (``id``, ``caught``, ``by``: the check ids that caught it, ``timeout``/``crash`` when the run
    itself did, ``seconds``). The copy is removed after."""
    root = Path(tempfile.mkdtemp(prefix="m-", dir=ws.root))
    try:
        target = root / ws.package
        shutil.copytree(Path(ws.root) / "clean" / ws.package, target, symlinks=True)
        path = root / mutant.module
        path.write_text(mutant.apply(source), encoding="utf-8")
        for stale in (path.parent / "__pycache__").glob(f"{path.stem}.*.pyc"):
            stale.unlink()
        outcome = run_checks(ws, root, checks, seconds)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    by: list[str] = []
    ran = set()
    for unit in outcome.units:
        ran.update(unit["checks"])
        if unit.get("error"):
            by.extend(unit["checks"])
            continue
        by.extend(f"{r['id']} [{r['checker']}]" for r in unit["rows"] if not r["ok"])
    if outcome.error == "timeout":
        by.append("timeout")
    elif outcome.error is not None:
        by.append("crash")
    elif set(checks) - ran:
        by.append("crash")  # some check gave no result: the process stopped short
    return {
        "id": mutant.id,
        "caught": bool(by),
        "by": sorted(set(by)),
        "seconds": round(outcome.seconds, 2),
        "error": outcome.error,
    }


# --- the child: verify's checks, each in a fork of its own --------------------------------------------


def _units(request: Mapping[str, Any]) -> list[tuple[list[str], Callable[[], list[dict[str, Any]]]]]:
    """verify's checks of the request's games, as units: (their check ids, the call giving their rows).
    A sampled or searched group is one unit (its specs walk the same games), a proof obligation one, and
    a clarification's witness or property one. ``select``: only those checks (a group keeps the selected
    specs; each reports what it would alone)."""

    select = None if request["select"] is None else set(request["select"])
    budget = Budget(games=100, examples=40, max_steps=200)  # verify's default run
    tasks, _specs = plan(
        Path(request["specs"]),
        Path(request["proofs"]),
        Path(request["clarifications"]),
        budget,
        tuple(request["checkers"]),
        None,
        int(request["timeout_ms"]),
        games=request["games"],
    )
    out: list[tuple[list[str], Callable[[], list[dict[str, Any]]]]] = []
    for task in tasks:
        if task.target.endswith(":group_rows"):
            group, b, checker = task.args
            kept = [s for s in group if select is None or f"{s.id} [{checker}]" in select]
            if kept:
                out.append(([f"{s.id} [{checker}]" for s in kept], _call(group_rows, kept, b, checker)))
        elif task.target.endswith(":proof_rows"):
            ob_id = task.args[1]
            if select is None or f"{ob_id} [proved]" in select:
                out.append(([f"{ob_id} [proved]"], _call(proof_rows, *task.args)))
        else:
            path, _only, base = task.args
            c = load_clarification(path, base)
            for w in c.witnesses:
                check = f"{c.id}/{w.name} [witness]"
                if select is None or check in select:
                    one = attrs.evolve(c, witnesses=(w,), properties=())
                    out.append(([check], _call(_reports, check_clarification, one)))
            for p in c.properties:
                checks = [f"{p.id} [{k}]" for k in p.checkers]
                if select is None or select & set(checks):
                    one = attrs.evolve(c, witnesses=(), properties=(p,))
                    out.append((checks, _call(_reports, check_clarification, one)))
    return out


def _call(fn: Callable[..., Any], *args: Any) -> Callable[[], Any]:
    return lambda: fn(*args)


def _reports(fn: Callable[..., Any], c: Any) -> list[dict[str, Any]]:
    return [r.to_json() for r in fn(c)]


def _run_unit(call: Callable[[], list[dict[str, Any]]]) -> dict[str, Any]:

    start = time.perf_counter()
    try:
        with coverage.recording("tests") as counts:
            rows = call()
    except Exception as exc:
        seconds = round(time.perf_counter() - start, 3)
        return {"rows": [], "reached": [], "error": f"the check raised {one_line(exc)}", "seconds": seconds}
    keep = ("id", "checker", "verdict", "expected", "ok")
    slim = [{**{k: r[k] for k in keep}, "detail": str(r.get("detail") or "")[:300]} for r in rows]
    seconds = round(time.perf_counter() - start, 3)
    named = {rule for r in rows for rule in r.get("rules") or ()}  # a check reaches the rules it names too
    return {"rows": slim, "reached": sorted(set(counts.reached()) | named), "error": None, "seconds": seconds}


def _forked(call: Callable[[], list[dict[str, Any]]]) -> dict[str, Any]:
    """``call``'s unit result, run in a forked process (a fresh copy of this one: no memo of an earlier
    check), or here where there is no fork."""
    if not hasattr(os, "fork"):
        return _run_unit(call)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the fork: run, write, leave at once
        code = 0
        try:
            os.close(read)
            data = json.dumps(_run_unit(call)).encode("utf-8")
            with os.fdopen(write, "wb") as pipe:
                pipe.write(data)
        except BaseException:
            code = 1
        os._exit(code)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        data = pipe.read()
    _, status = os.waitpid(pid, 0)
    if not data:
        return {"rows": [], "reached": [], "error": f"the check's process died (status {status})"}
    result: dict[str, Any] = json.loads(data)
    return result


def child_main() -> None:
    """The subprocess's side of :func:`run_checks`: the request (JSON) on stdin; one JSON line per check
    unit on stdout as each finishes."""

    request = json.load(sys.stdin)
    here = Path(bgrules.__file__).resolve().parent
    expected = (Path(request["root"]) / request["package"]).resolve()
    if here != expected:
        sys.stderr.write(f"adequacy: the checks imported {here}, not the copy {expected}\n")
        sys.exit(3)
    if request["cwd"] not in sys.path:
        sys.path.append(request["cwd"])  # a spec's own predicate module; never before the copy

    with contextlib.suppress(InputError):
        gcpolicy.for_runners()
    for checks, call in _units(request):
        result = _forked(call)
        sys.stdout.write(json.dumps({"checks": checks, **result}) + "\n")
        sys.stdout.flush()


# --- the run ----------------------------------------------------------------------------------------


def coverage_map(units: Iterable[Mapping[str, Any]], ties: Iterable[Any]) -> dict[str, list[str]]:
    """Rule ID -> the check ids reaching it: a unit's checks reach every rule it counted, and a
    conformance obligation every rule of its tie (proofs/conformance.toml)."""
    out: dict[str, set[str]] = {}
    obligations: dict[str, set[str]] = {}
    for tie in ties:
        for ob in tie.obligations:
            obligations.setdefault(f"{ob} [proved]", set()).update(tie.rules)
    for unit in units:
        for check in unit["checks"]:
            for rule in [*unit["reached"], *sorted(obligations.get(check, ()))]:
                out.setdefault(rule, set()).add(check)
    return {r: sorted(c) for r, c in sorted(out.items())}


def _check_figure(value: Any, option: str, maximum: float, whole: bool) -> None:
    bad = isinstance(value, bool) or not isinstance(value, int | float) or (whole and not isinstance(value, int))
    if bad or value < (1 if whole else 0) or (not whole and value <= 0):
        kind = "a whole number of at least 1" if whole else "a number of seconds above 0"
        raise InputError(option, f"{kind}, not {show(value)}")
    if value > maximum:
        raise InputError(option, f"at most {maximum:,g}, not {show(value)}")


def run_adequacy(
    game: str | None = None,
    *,
    rules: Sequence[str] = (),
    mutants: Sequence[str] = (),
    max_mutants: int | None = None,
    seconds: float = DEFAULT_SECONDS,
    jobs: int = 1,
    engine: str = "local",
    address: str | None = None,
    equivalent: Path | None = None,
    specs_dir: Path | None = None,
    proofs_dir: Path | None = None,
    clarifications_dir: Path | None = None,
    timeout_ms: int | None = None,
    checkers: Sequence[str] = (),
    progress: Callable[[str, int, int], None] | None = None,
    warn: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """The adequacy report of ``game``'s rule code (both games when None; docs/adequacy.md): its keys
    ``game``, ``mutants`` (tried, not equivalent), ``caught``, ``equivalent``, ``checks`` (the checks
    run on the baseline), ``seconds``, ``rules`` (``id``, ``mutants``, ``caught``, ``survivors``
    [``id``, ``diff``], ``by`` {check id: mutants caught}), ``results`` (each mutant tried: ``id``,
    ``rule``, ``caught``, ``by``, ``seconds``), ``selection`` (how ``max_mutants`` chose), ``warnings``.
    ``progress(label, done, total)`` before each mutant and at the end; ``warn(line)`` for each warning
    (the equivalent file's, a slow selection) as it is found. Bad input is an InputError; a package that
    cannot be copied, or a baseline whose check fails, an AdequacyError."""

    started = time.perf_counter()
    warnings: list[str] = []

    def note(line: str) -> None:
        warnings.append(line)
        if warn is not None:
            warn(line)

    document, played = coverage.choice(game)
    if max_mutants is not None:
        _check_figure(max_mutants, "--max-mutants", MAX_MUTANTS, True)
    _check_figure(seconds, "--seconds", MAX_SECONDS, False)
    if engine not in ("local", "ray"):
        raise InputError("--engine", f"local or ray, not {engine!r}")
    if engine == "local":
        jobs = check_jobs(jobs)
        problem = too_large("--jobs", jobs)
        if problem is not None:
            raise InputError("--jobs", problem)

    for c in checkers:
        if c not in CHECKERS:
            raise InputError("--checker", f"{c!r} is not one of verify's checkers ({', '.join(CHECKERS)})")
    checkers = tuple(c for c in CHECKERS if c in checkers) or CHECKERS
    timeout_ms = DEFAULT_TIMEOUT_MS if timeout_ms is None else timeout_ms
    _check_figure(timeout_ms, "--timeout", 86_400_000, True)
    documented = coverage.documented_rules()
    known = {r.id for r in documented}
    of_game = {r.id for r in documented if document is None or r.game == document}
    for r in rules:
        if r not in known:
            raise InputError("--rule", f"{r!r} is not a documented rule ID (docs/rules; bgrules coverage lists them)")
        if r not in of_game:
            raise InputError("--rule", f"{r} is not a rule of {game}")

    package = Path(bgrules.__file__).resolve().parent
    every, sources = find_mutants(package, document, of_game)
    specs_dir = default_dir("specs") if specs_dir is None else specs_dir
    given_equivalent = equivalent is not None
    equivalent = specs_dir / EQUIVALENT_FILE if equivalent is None else equivalent
    equivalents, problems = load_equivalent(
        equivalent, (m.id for m in every), required=given_equivalent, modules=sources
    )
    for line in problems:
        note(line)
    wanted = set(rules)
    pool = [m for m in every if not wanted or m.rule in wanted]
    for r in sorted(wanted - {m.rule for m in pool}):
        raise InputError("--rule", f"{r}: no rule code cites it, so there is nothing to mutate")
    if mutants:
        ids = {m.id for m in pool}
        for mutant_id in mutants:
            if mutant_id not in ids:
                scope = f" of {', '.join(sorted(wanted))}" if wanted else (f" of {game}" if game else "")
                raise InputError("--mutant", f"{mutant_id!r} is not a mutant{scope} (--json lists their ids)")
        pool = [m for m in pool if m.id in set(mutants)]
    equivalent_here = [m for m in pool if m.id in equivalents]
    pool = [m for m in pool if m.id not in equivalents]
    chosen = pool if max_mutants is None else spread(pool, max_mutants)
    broken = [m for m in chosen if not m.compiles(sources[m.module])]
    for m in broken:
        note(f"{m.id}: the edit does not compile; not tried")
    chosen = [m for m in chosen if m not in broken]
    if not chosen:
        raise InputError("--rule" if rules else "--game", "no mutant to try (every one is listed as equivalent)")
    selection = (
        f"all {len(pool)} mutants"
        if len(chosen) == len(pool)
        else f"{len(chosen)} of {len(pool)} mutants, spread evenly over their {len({m.rule for m in pool})} rules"
    )

    ws = make_workspace(
        package,
        specs_dir,
        default_dir("proofs") if proofs_dir is None else proofs_dir,
        default_dir("clarifications") if clarifications_dir is None else clarifications_dir,
        played,
        timeout_ms,
        checkers,
    )
    try:
        if progress is not None:
            progress("baseline: every check of the game on the unmutated copy", 0, len(chosen) + 1)
        base = run_checks(ws, Path(ws.root) / "clean", None, max(BASELINE_FLOOR, 10 * seconds))
        if base.error is not None or not base.units:
            raise AdequacyError(f"adequacy: the baseline (the unmutated copy) did not run: {base.error or 'no check'}")
        ties = coverage.load_ties(Path(ws.proofs) / "conformance.toml")
        reach = coverage_map(base.units, ties)
        failing: dict[str, str] = {}
        for unit in base.units:
            for check in unit["checks"]:
                if unit.get("error"):
                    failing[check] = unit["error"]
            for row in unit["rows"]:
                if not row["ok"]:
                    failing[f"{row['id']} [{row['checker']}]"] = f"{row['verdict']}, expected {row['expected']}"
        checks_of = {m.id: sorted({c for r in m.rules for c in reach.get(r, ())}) for m in chosen}
        selected = sorted({c for cs in checks_of.values() for c in cs})
        bad = [c for c in selected if c in failing]
        if bad:
            raise AdequacyError(
                f"adequacy: the baseline fails on the unmutated code: {bad[0]} ({failing[bad[0]]})"
                + (f" and {len(bad) - 1} more" if len(bad) > 1 else "")
                + "; fix it (bgrules verify) before measuring"
            )
        slowest = max(
            (sum(u["seconds"] for u in base.units if set(u["checks"]) & set(cs)) for cs in checks_of.values()),
            default=0.0,
        )
        if slowest > seconds / 2:
            note(
                f"the slowest mutant's checks take {slowest:.1f} s on the unmutated copy, over half of --seconds "
                f"{seconds:g}: a slower mutant may count as caught by its timeout; raise --seconds"
            )
        tasks = []
        results: dict[str, dict[str, Any]] = {}
        for m in chosen:
            if not checks_of[m.id]:
                results[m.id] = {"id": m.id, "caught": False, "by": [], "seconds": 0.0, "error": None}
                continue
            tasks.append(
                Task(m.id, "bgrules.runners.adequacy:run_mutant", (ws, m, sources[m.module], checks_of[m.id], seconds))
            )
        unreached = sorted({m.rule for m in chosen if not checks_of[m.id]})
        if unreached:
            note(f"no check reaches {', '.join(unreached)}: their mutants survive without a run")
        done_count = [1]

        def finished(done: Any) -> None:
            value = done.value
            results[value["id"]] = value
            done_count[0] += 1
            if progress is not None:
                verdict = f"caught by {', '.join(value['by'])}" if value["caught"] else "survived"
                progress(f"{value['id']}: {verdict} ({value['seconds']:.1f} s)", done_count[0], len(chosen) + 1)

        if engine == "ray":
            ray_engine.run_tasks(tasks, address, on_done=finished)
        else:
            run_tasks(tasks, jobs, on_done=finished, keep=False)
    finally:
        shutil.rmtree(ws.root, ignore_errors=True)
    if progress is not None:
        progress("done", len(chosen) + 1, len(chosen) + 1)
    return _report(game, chosen, results, sources, equivalent_here, equivalents, selected, selection, warnings, started)


def _report(
    game: str | None,
    chosen: Sequence[Mutant],
    results: Mapping[str, Mapping[str, Any]],
    sources: Mapping[str, str],
    equivalent_here: Sequence[Mutant],
    equivalents: Mapping[str, str],
    selected: Sequence[str],
    selection: str,
    warnings: Sequence[str],
    started: float,
) -> dict[str, Any]:
    by_rule: dict[str, list[Mutant]] = {}
    for m in chosen:
        by_rule.setdefault(m.rule, []).append(m)
    rows = []
    for rule in sorted(by_rule):
        caught = [m for m in by_rule[rule] if results[m.id]["caught"]]
        by: Counter[str] = Counter(c for m in caught for c in results[m.id]["by"])
        rows.append(
            {
                "id": rule,
                "mutants": len(by_rule[rule]),
                "caught": len(caught),
                "survivors": [
                    {"id": m.id, "diff": m.diff(sources[m.module])}
                    for m in by_rule[rule]
                    if not results[m.id]["caught"]
                ],
                "by": dict(sorted(by.items(), key=lambda kv: (-kv[1], kv[0]))),
            }
        )
    return {
        "game": game,
        "mutants": len(chosen),
        "caught": sum(1 for m in chosen if results[m.id]["caught"]),
        "equivalent": len(equivalent_here),
        "equivalents": [{"id": m.id, "reason": equivalents[m.id]} for m in equivalent_here],
        "checks": len(selected),
        "seconds": round(time.perf_counter() - started, 1),
        "selection": selection,
        "rules": rows,
        "results": [{"rule": m.rule, **results[m.id]} for m in chosen],
        "warnings": list(warnings),
    }


__all__ = [
    "Outcome",
    "Workspace",
    "child_main",
    "coverage_map",
    "run_adequacy",
    "run_checks",
    "run_mutant",
]
