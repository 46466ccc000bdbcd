"""The commands that run checks: ``verify``, ``prove``, ``clarify``, ``coverage`` and ``adequacy`` (what they
compute is :mod:`bgrules.runners`' and :mod:`bgrules.core`'s; here the options are parsed and the results
printed)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click
from rich.markup import escape
from rich.progress import Progress
from rich.table import Table

from bgrules.cli import base
from bgrules.cli.base import _BAR, _GAME_HELP, _PATH, _fail, _guard, console, err_console, main, opt, options
from bgrules.core.defaults import default_dir
from bgrules.core.errors import InputError
from bgrules.core.jobs import check_jobs
from bgrules.integrations import ray_engine
from bgrules.runners.adequacy import run_adequacy
from bgrules.runners.commands import adequacy as ra
from bgrules.runners.commands import coverage as rc
from bgrules.runners.commands import verify as rv
from bgrules.runners.verify import clarification_tasks, proof_tasks

_WHERE = (
    "where the checks run: local worker processes (--jobs) or Ray tasks (--address); the results are the same "
    "either way (docs/verify.md)"
)


def _table(title: str, columns: tuple[str, ...], rows: list[tuple[str, ...]]) -> Table:
    table = Table(title=title)
    for col in columns:
        table.add_column(col, overflow="fold")
    for row in rows:
        table.add_row(*row)
    return table


@contextmanager
def _progress(title: str, *, disable: bool, lines: bool = False) -> Iterator[Callable[[str, int, int], None]]:
    """A progress line on stderr while a runner works (``lines``: on a pipe, a line per step after the first)."""
    with Progress(*_BAR, console=err_console, transient=True, disable=disable) as progress:
        bar = progress.add_task(title, total=None)

        def show(label: str, done: int, total: int) -> None:
            progress.update(bar, description=f"{title}: {label}", completed=done, total=total)
            if lines and not err_console.is_terminal and done > 0 and label != "done":  # a CI log: a line a step
                click.echo(f"[{done - 1}/{total - 1}] {label}", err=True)  # the baseline was step 0

        yield show


@main.command()
@options("specs", "proofs", "clarifications")
@options(
    opt("games", "--games", type=int, help="sampled checker: games per spec [default: the spec's budget, or 100]"),
    opt("examples", "--examples", type=int, help="searched checker: examples per spec [default: the spec's, or 50]"),
    opt("max-steps", "--max-steps", type=int, help="steps per game for both checkers [default: the spec's, or 200]"),
    "timeout",
    "checker",
    "only",
    opt("thorough", "--thorough", is_flag=True, help="each spec's and proof's thorough budget (several times the "
        "default)"),
    "jobs",
    opt("engine", "--engine", type=click.Choice(("local", "ray")), default="local", show_default=True, help=_WHERE),
    "address",
    "quiet",
    "json-list",
    "junit",
)  # fmt: skip
@options(
    opt("no-database", "--no-database", is_flag=True, help="searched checker: no example database (by default "
        ".bgrules/hypothesis in the current directory keeps the counterexamples found and replays them first next "
        "time)"),
    opt("trace-dir", help="write each counterexample's trace (the format bgrules replay reads) to this directory"),
    opt("coverage-json", "--coverage-json", type=_PATH, help="write the rule coverage table (docs/coverage.md) to "
        "this file, for any run"),
    opt("html", "--html", "html_dir", type=_PATH, help="write a browsable report to this directory: index.html and "
        "a stepping page per counterexample"),
)  # fmt: skip
@_guard
def verify(**o: Any) -> None:
    """Check every invariant spec, proof obligation and clarification; exit 1 on any unexpected verdict.
    A whole run (every checker, no --only) also fails when a rule ID of docs/rules is neither reached by
    a check nor exempt (specs/coverage-exempt.toml); its JSON ends with that row (docs/coverage.md).
    The specs, proofs and clarifications are the current directory's (specs/, proofs/,
    specs/clarifications/) when it has them, else the ones bgrules ships."""

    started = time.perf_counter()
    plan = {k: o[k] for k in ("quiet", "as_json", "engine", "address")}
    done = rv.run(lambda tasks: base._run_plan("bgrules verify", tasks, o["jobs"], **plan), **o)
    for line in done["notes"]:
        click.echo(line, err=True)
    for line in [] if o["quiet"] else done["by_spec"]:
        click.echo(line, err=o["as_json"])
    seconds = time.perf_counter() - started
    base._emit(done["rows"], "bgrules verify", o["as_json"], o["junit_xml"], seconds=seconds, jobs=o["jobs"],
               trace_dir=o["trace_dir"], extra=done["extra"], where=done["where"])  # fmt: skip


@main.command()
@options(
    "proofs", "timeout", "only", opt("thorough", "--thorough", is_flag=True, help="each obligation's thorough budget")
)
@options("jobs", "quiet", "json-list", "junit")
@_guard
def prove(**o: Any) -> None:
    """Run the z3 proof obligations of proofs/manifest.toml (the current directory's, else the shipped ones)."""

    rv.check_only(o["only"])
    rv.positive(o["timeout_ms"], "--timeout")
    started = time.perf_counter()
    tasks = proof_tasks(o["proofs_dir"] or default_dir("proofs"), o["timeout_ms"], o["only"], o["thorough"])
    rows = base._run_plan("bgrules prove", tasks, o["jobs"], quiet=o["quiet"], as_json=o["as_json"])
    seconds = time.perf_counter() - started
    base._emit(rows, "bgrules prove", o["as_json"], o["junit_xml"], seconds=seconds, jobs=o["jobs"])


@main.command()
@click.argument("files", nargs=-1, type=_PATH)
@options("jobs", "quiet", "json-list", "junit", opt("game", help="only the clarifications of this game: " + _GAME_HELP))
@options(opt("variant", help="a variant file (e.g. corrected component data) to run the clarifications of --game on"))
@_guard
def clarify(files: tuple[Path, ...], **o: Any) -> None:
    """Check rule clarification files (or directories of them): each witness and property with its guarantee.
    With no FILES, the clarifications verify checks: the current directory's specs/clarifications/ when it
    has one, else the ones bgrules ships. With ``--game G --variant FILE`` the clarifications of G run on
    that variant (the clarification's own ruling over it), so a corrected data file shows which witnesses
    it changes."""

    started = time.perf_counter()
    chosen = list(files) or [default_dir("clarifications")]
    if not files and not chosen[0].is_dir():
        raise InputError(str(chosen[0]), "no clarifications directory to check (name the files to check)")
    tasks = clarification_tasks(chosen, None, o["variant"], o["game_name"])
    rows = base._run_plan("bgrules clarify", tasks, o["jobs"], quiet=o["quiet"], as_json=o["as_json"])
    seconds = time.perf_counter() - started
    base._emit(rows, "bgrules clarify", o["as_json"], o["junit_xml"], seconds=seconds, jobs=o["jobs"])


@main.command()
@options(
    opt("game", help=_GAME_HELP + "; a game's rules document covers its sandbox too [default: every game]"),
    opt("agents", help="play sampled games instead of verify's checks, with these agents: one for every seat "
        "(greedy) or one per seat [default: random]"),
    opt("games", "--games", "n_games", type=int, help="play N sampled games per game and player count instead of "
        "verify's checks [default: 20 when sampling]"),
    opt("players", help="sampled games of this player count only [default: every one]"),
    opt("seed", "--seed", type=int, help="the first sampled game's seed [default: 0]"),
    opt("searched", "--searched/--no-searched", default=True, show_default=True, help="run the searched specs too"),
    "specs",
    "proofs",
    opt("json", help="print the coverage table as JSON (docs/coverage.md)"),
    opt("fail-under", "--fail-under", type=float, help="exit 1 if fewer than PCT percent of the rules not exempt "
        "are reached (or no state was visited)"),
    *base.CAMPAIGN,
)  # fmt: skip
@_guard
def coverage(**o: Any) -> None:
    """Rule coverage: per rule ID of docs/rules its title, how often its effect was applied and its guard
    refused, and which checkers reached it; exemptions from specs/coverage-exempt.toml. By default it runs
    the checks of ``bgrules verify`` (its sampled and searched specs, proofs and clarifications: the same
    table as verify's, for --game's rules); --games, --agents, --players, --seed, --results or --resume
    play sampled games instead (with the searched specs, the clarification witnesses and the proved ties;
    docs/coverage.md)."""

    plan = {"quiet": True, "as_json": o["as_json"], "engine": o["engine"], "address": o["address"]}
    result = rc.run(
        lambda tasks: base._run_plan("bgrules coverage", tasks, o["jobs"], **plan),
        lambda: _progress("bgrules coverage", disable=o["as_json"]),
        **o,
    )
    note = rc.unexpected_note(result)
    if note is not None:
        err_console.print(note, highlight=False)
    if o["as_json"]:
        click.echo(json.dumps(result, indent=2))
    else:
        console.print(_table(f"bgrules coverage: {o['game_name'] or 'both games'}", rc.COLUMNS, rc.table_rows(result)))
        console.print(rc.summary_line(result), highlight=False)
    failed = None if o["fail_under"] is None else rc.fail_under(result, o["fail_under"])
    if failed is not None:
        _fail(failed, 1)


@main.command()
@options(
    opt("game", help=_GAME_HELP + " [default: every game]"),
    opt("rule", "--rule", "rules", multiple=True, metavar="ID", help="only the mutants of this rule ID (repeatable)"),
    opt("mutant", "--mutant", "mutants", multiple=True, metavar="ID", help="only this mutant, by its id (repeatable)"),
    opt("max-mutants", "--max-mutants", type=int, help="try at most N mutants, spread evenly over the rules "
        "[default: every mutant]"),
    opt("seconds", "--seconds", type=float, default=120.0, show_default=True, help="wall budget of one mutant's "
        "checks: a mutant over it counts as caught"),
    "jobs",
    opt("engine", "--engine", type=click.Choice(("local", "ray")), default="local", show_default=True, help="where "
        "the mutants run: local worker processes (--jobs) or Ray tasks (--address)"),
    "address",
    opt("equivalent", "--equivalent", "equivalent_path", type=_PATH, help="the reviewed equivalent mutants "
        "[default: adequacy-equivalent.toml of the specs directory]"),
    "specs",
    "proofs",
    "clarifications",
    opt("checker", help="only the checks of this verify checker (repeatable) [default: every checker]"),
    "timeout",
    opt("json", help="print the report as JSON (docs/adequacy.md)"),
)  # fmt: skip
@_guard
def adequacy(**o: Any) -> None:
    """How many plausible rule bugs verify's checks catch: small edits (mutants) of the rule code, each
    checked, in a copy of the package, by the checks whose run reaches its rule; exit 0 when the run
    completed, whatever the score (docs/adequacy.md)."""

    rv.check_engine(o["engine"], o["jobs"], o["address"])
    if o["engine"] == "ray":
        ray_engine.connect(o["address"])  # a missing extra or an unreachable address: one line, before anything runs
    jobs = check_jobs(o["jobs"]) if o["engine"] == "local" else 1
    with _progress("bgrules adequacy", disable=not err_console.is_terminal, lines=True) as show:

        def warn(line: str) -> None:
            err_console.print(f"[yellow]warning:[/] {escape(line)}", highlight=False, soft_wrap=True)

        runs = {k: o[k] for k in ("rules", "mutants", "max_mutants", "seconds", "engine", "address", "specs_dir")}
        result = run_adequacy(
            o["game_name"], jobs=jobs, equivalent=o["equivalent_path"], proofs_dir=o["proofs_dir"],
            clarifications_dir=o["clarifications_dir"], timeout_ms=o["timeout_ms"], checkers=o["checkers"],
            progress=show, warn=warn, **runs,
        )  # fmt: skip
    if o["as_json"]:
        click.echo(json.dumps(result, indent=2))
        return
    console.print(_table(f"bgrules adequacy: {result['game'] or 'both games'}", ra.COLUMNS, ra.table_rows(result)))
    for line in ra.survivor_lines(result):
        click.echo(line)
    click.echo(ra.summary_line(result))
