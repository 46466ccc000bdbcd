"""``bgrules verify``, ``prove``, ``clarify``: the result lines of a row, the JUnit file, the trace files,
the summary, the order of the rows and the budget (:mod:`bgrules.runners.verify` plans the checks)."""

from __future__ import annotations

import json
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bgrules import __version__
from bgrules.core.defaults import default_dir, describe_dir, source_label
from bgrules.core.errors import InputError
from bgrules.integrations import ray_engine
from bgrules.runners import coverage as cov
from bgrules.runners.report import by_spec, by_spec_lines
from bgrules.runners.report_html import write_report
from bgrules.runners.searched import DATABASE
from bgrules.runners.specfile import Budget
from bgrules.runners.trace import file_names, lines
from bgrules.runners.verify import plan, plugins_only

NOTHING = "nothing was checked (no spec, proof or clarification matched); that is not a pass"
"""Said (after the command's title) when a run has no check: no vacuous pass."""


def head(row: dict[str, Any]) -> str:
    """One result line: ``ok``, ``FAIL``, or ``ok`` for a counterexample that was expected, then the id,
    the checker, the verdict against the expected one, the seconds and the guarantee (never wrapped)."""
    if not row["ok"]:
        status = "FAIL"
    elif row["verdict"] == "violated":
        status = "ok  " if row["kind"] == "coverage" else "ok* "
    else:
        status = "ok  "
    verdict = row["verdict"]
    if row["ok"] and verdict == "violated":
        verdict = "violated, the expected counterexample"
    elif not row["ok"]:
        verdict = f"{verdict}, expected {row['expected']}"
    players = f" ({row['players']} players)" if row.get("players") is not None else ""
    return f"{status} {row['id']} [{row['checker']}]{players} {verdict} ({row['seconds']:.2f} s): {row['guarantee']}"


def body(row: dict[str, Any]) -> list[str]:
    """What follows a counterexample's (or a failure's) line: its detail, then its trace as numbered
    steps with the rules each applied (bgrules.runners.trace), or a proof's witness."""

    if row["ok"] and row["verdict"] != "violated":
        return []
    out = [f"     {row['detail']}"] if row.get("detail") else []
    if row.get("trace"):
        out += ["   " + line for line in lines(row["trace"])]
    elif row["verdict"] == "violated" and row.get("witness") is not None:
        out.append(f"     witness: {json.dumps(row['witness'], default=str)}")
    return out


def text(row: dict[str, Any]) -> str:
    """A row's result line and what follows it."""
    return "\n".join([head(row), *body(row)])


def write_junit(rows: list[dict[str, Any]], path: Path) -> None:
    suite = ET.Element(
        "testsuite", name="bgrules verify", tests=str(len(rows)), failures=str(sum(1 for r in rows if not r["ok"]))
    )
    for row in rows:
        case = ET.SubElement(
            suite,
            "testcase",
            classname=f"bgrules.{row['kind']}",
            name=f"{row['id']}[{row['checker']}]" + (f"[{row['players']}p]" if row.get("players") is not None else ""),
            time=str(row["seconds"]),
        )
        shown = text(row)
        if not row["ok"]:
            failure = ET.SubElement(case, "failure", message=f"verdict {row['verdict']}, expected {row['expected']}")
            failure.text = shown
        out = ET.SubElement(case, "system-out")
        out.text = f"guarantee: {row['guarantee']}\n{shown}"
    ET.ElementTree(suite).write(path, encoding="unicode", xml_declaration=True)


def write_traces(rows: list[dict[str, Any]], trace_dir: Path) -> None:
    """Each counterexample's trace, one file a row (two rows never share a file)."""

    trace_dir.mkdir(parents=True, exist_ok=True)
    for row, name in zip(rows, file_names(rows), strict=True):
        if name is not None:
            (trace_dir / name).write_text(json.dumps(row["trace"], indent=2) + "\n", encoding="utf-8")


def summary(rows: list[dict[str, Any]], title: str, seconds: float, where: str) -> tuple[list[dict[str, Any]], str]:
    """The unexpected rows and the summary line of a run."""
    bad = [r for r in rows if not r["ok"]]
    expected_cx = sum(1 for r in rows if r["ok"] and r["verdict"] == "violated" and r["kind"] != "coverage")
    line = (
        f"{title}: {len(rows) - len(bad)} of {len(rows)} verdicts as expected "
        f"({expected_cx} expected counterexample(s), marked ok*), {len(bad)} unexpected; "
        f"{seconds:.1f} s on {where}"
    )
    return bad, line


def check_only(only: str | None) -> None:
    """``--only ""`` (an empty CI variable) is bad input, not "everything"."""
    if only is not None and not only.strip():
        raise InputError("--only", "give some text of the ids to check (an empty --only would match every id)")


def positive(value: int | None, option: str) -> None:
    """No vacuous pass: a count, budget or timeout below 1 is bad input (exit 2), never a silent default."""
    if value is not None and value < 1:
        raise InputError(option, f"a whole number of at least 1, not {value}")


def check_engine(engine: str, jobs: int | None, address: str | None) -> None:
    """``--engine local`` takes ``--jobs``, ``--engine ray`` takes ``--address``; not the other way round."""
    if engine == "ray":
        if jobs is not None:
            raise InputError("--jobs", "is for --engine local (Ray places the tasks on its cluster's CPUs)")
    elif address is not None:
        raise InputError("--address", "names a Ray cluster: give it with --engine ray")


def spec_order(rows: list[dict[str, Any]], specs: list[Any]) -> list[dict[str, Any]]:
    """Spec rows in the specs' order (each spec's checkers in its own order, each checker's player counts
    in the spec's order), whatever the groups."""
    rank = {(s.id, c): (i, j) for i, s in enumerate(specs) for j, c in enumerate(s.checkers)}
    counts = {s.id: list(s.players or ()) for s in specs}

    def key(r: dict[str, Any]) -> tuple[int, int, int]:
        i, j = rank.get((r["id"], r["checker"]), (len(rank), 0))
        listed = counts.get(r["id"], [])
        return i, j, listed.index(r["players"]) if r.get("players") in listed else 0

    return sorted(rows, key=key)


def dirs_used(given: dict[str, bool], **dirs: Path) -> str:
    """Which specs, proofs and clarifications directories a run used, in one line (stderr): the current
    directory's replace the shipped ones, so a run says so."""

    return "; ".join(describe_dir(kind, path, given[kind]) for kind, path in dirs.items())


def budget(
    games: int | None, examples: int | None, max_steps: int | None, thorough: bool, *, database: bool = True
) -> Any:
    """verify's budget: the specs' own unless a figure is given (``bgrules coverage`` runs the default);
    ``database``: the searched checker's example database (:data:`bgrules.runners.searched.DATABASE`)."""

    forced = games is not None or examples is not None or max_steps is not None
    return Budget(
        games=games or 100,
        examples=examples or 50,
        max_steps=max_steps or 200,
        forced=forced,
        thorough=thorough,
        database=DATABASE if database else None,
    )


def ray_where(address: str | None) -> str:
    return f"Ray ({ray_engine.cpus(address)} CPUs)"


ALL_CHECKERS = ("sampled", "searched", "explored", "proved", "clarified")


def verify_rows(values: list[dict[str, Any]], specs: list[Any], chosen: tuple[str, ...]) -> tuple[list[Any], Any]:
    """verify's rows in order (specs in the specs' order, then proofs, then the rest) and its proof rows
    (None when ``proved`` was not chosen)."""
    spec_rows = spec_order([r for r in values if r["kind"] == "spec"], specs)
    proof_rows = [r for r in values if r["kind"] == "proof"] if "proved" in chosen else None
    return spec_rows + (proof_rows or []) + [r for r in values if r["kind"] not in ("spec", "proof")], proof_rows


def write_html(
    html_dir: Path,
    rows: list[dict[str, Any]],
    covered: dict[str, Any],
    *,
    complete: bool,
    seconds: float,
    specs: list[Any],
    chosen: tuple[str, ...],
    only: str | None,
) -> Path:
    """verify's browsable report (index.html and a page per counterexample); returns the index."""

    selection = [f"checkers {', '.join(chosen)}"] + ([f"ids containing {only!r}"] if only else [])
    index: Path = write_report(
        html_dir,
        rows + ([covered] if complete else []),
        seconds=seconds,
        coverage=covered["coverage"],
        complete=complete,
        meta=[("bgrules", __version__), ("selection", "; ".join(selection))],
        grouped=by_spec(rows, specs, chosen),
    )
    return index


def run(
    run_plan: Callable[[list[Any]], list[dict[str, Any]]],
    *,
    specs_dir: Path | None,
    proofs_dir: Path | None,
    clarifications_dir: Path | None,
    games: int | None,
    examples: int | None,
    max_steps: int | None,
    timeout_ms: int,
    checkers: tuple[str, ...],
    only: str | None,
    thorough: bool,
    jobs: int | None,
    engine: str,
    address: str | None,
    no_database: bool,
    coverage_json: Path | None,
    html_dir: Path | None,
    **_printing: Any,
) -> dict[str, Any]:
    """``bgrules verify``: the options checked, the plan made and run by ``run_plan(tasks)``, the coverage row,
    the coverage file and the browsable report written. Returns the rows (``rows``), the coverage row when
    the run was whole (``extra``), the lines for stderr (``notes``), the per-spec lines (``by_spec``) and
    where the checks ran (``where``: None for local jobs)."""

    check_only(only)
    for value, option in ((games, "--games"), (examples, "--examples"), (max_steps, "--max-steps")):
        positive(value, option)
    positive(timeout_ms, "--timeout")
    check_engine(engine, jobs, address)
    given = {"specs": specs_dir is not None, "proofs": proofs_dir is not None}
    given["clarifications"] = clarifications_dir is not None
    specs_dir = specs_dir or default_dir("specs")
    proofs_dir = proofs_dir or default_dir("proofs")
    clarifications_dir = clarifications_dir or default_dir("clarifications")
    used = dirs_used(given, specs=specs_dir, proofs=proofs_dir, clarifications=clarifications_dir)
    if engine == "ray":  # the workers read the files at the paths the driver gives, on any node
        specs_dir, proofs_dir, clarifications_dir = (d.resolve() for d in (specs_dir, proofs_dir, clarifications_dir))
    chosen = checkers or ALL_CHECKERS
    started = time.perf_counter()
    labels = {"specs": source_label("specs", specs_dir, given["specs"])}
    labels["proofs"] = source_label("proofs", proofs_dir, given["proofs"])
    tasks, specs = plan(
        specs_dir,
        proofs_dir,
        clarifications_dir,
        budget(games, examples, max_steps, thorough, database=not no_database),
        chosen,
        only,
        timeout_ms,
        thorough,
        labels=labels,
    )
    with cov.collecting() as collected:
        values = run_plan(tasks)
    rows, proof_rows = verify_rows(values, specs, chosen)
    complete = only is None and set(chosen) == set(ALL_CHECKERS)
    if specs and plugins_only(specs):  # the rule coverage is of docs/rules, which no plug-in game's spec reaches
        complete = False
    seconds = time.perf_counter() - started
    covered = cov.verify_row(
        collected, proof_rows, specs_dir=specs_dir, proofs_dir=proofs_dir, complete=complete, seconds=seconds
    )
    if coverage_json is not None:
        coverage_json.write_text(json.dumps(covered["coverage"], indent=2) + "\n", encoding="utf-8")
    notes = []
    if html_dir is not None:
        seconds = time.perf_counter() - started
        index = write_html(
            html_dir, rows, covered, complete=complete, seconds=seconds, specs=specs, chosen=chosen, only=only
        )
        notes.append(f"report: {index}")
    notes.append(f"bgrules verify used {used}")
    return {
        "rows": rows,
        "extra": [covered] if complete else None,
        "notes": notes,
        "by_spec": by_spec_lines(by_spec(rows, specs, chosen)),
        "where": ray_where(address) if engine == "ray" else None,
    }
