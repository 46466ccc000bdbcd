"""The ``bgrules`` command: verify, prove, simulate, check, render, replay.

Every command exits 0 on success, 1 when a check's verdict differs from its expected one, and 2 on
bad input (with a one-line message that says where and why, never a traceback).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from bgrules import __version__
from bgrules.core.campaign_cli import engine_options
from bgrules.core.defaults import DEFAULT_TIMEOUT_MS
from bgrules.core.errors import BgrulesError, IllegalAction, InputError

# On a pipe (a CI log) rich would wrap at 80 columns and split ids over lines: tables get room instead.
console = Console() if sys.stdout.isatty() else Console(width=240)
err_console = Console(stderr=True) if sys.stderr.isatty() else Console(stderr=True, width=240)

_BAR = (
    SpinnerColumn(),
    TextColumn("{task.description}"),
    BarColumn(),
    MofNCompleteColumn(),
    TimeElapsedColumn(),
    TimeRemainingColumn(),
)
"""The progress columns: done/total, what runs, elapsed, estimate."""
_GAME_HELP = "botfactory, mechanica or mechanica-factory (bgrules games lists them)"
_DIR_HELP = {
    "specs": "the specs directory [default: ./specs, else the specs bgrules ships]",
    "proofs": "the proofs directory [default: ./proofs, else the proofs bgrules ships]",
    "clarifications": "the clarifications [default: ./specs/clarifications, else the ones bgrules ships]",
}


def _fail(message: str, code: int = 2) -> None:
    """One line on stderr, the message printed as it is (brackets in names such as bgrules[plot] or a file
    called ``box[1].toml`` are text, not rich markup)."""
    from rich.markup import escape

    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    sys.exit(code)


def _guard(fn: Callable[..., None]) -> Callable[..., None]:
    """Turn every deliberate bgrules error into a one-line message and exit code 2."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        try:
            fn(*args, **kwargs)
        except IllegalAction as exc:
            _fail(f"illegal action: {exc}")
        except BgrulesError as exc:
            _fail(str(exc))
        except OSError as exc:
            _fail(f"{getattr(exc, 'filename', '') or ''}: {exc.strerror or exc}")
        except UnicodeDecodeError as exc:  # a file read without the loaders' own check: still one line
            _fail(f"a file is not UTF-8 text (byte {exc.start} is {exc.object[exc.start]:#04x})")

    return wrapper


class _PathOption(click.Path):
    """A path option or argument: as click.Path, but an empty text stays as it is (``""``, not ``Path(".")``),
    so that :class:`_Command` refuses it: ``--html ''`` (an empty CI variable) names no file or directory."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.strip():
            return value
        return super().convert(value, param, ctx)


class _Command(click.Command):
    """Every bgrules command: its path options refuse an empty path, and its whole-number options a figure
    past their maximum (:mod:`bgrules.core.limits`), in one line and exit 2, before the command runs."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:
            if isinstance(param.type, click.Path) and not isinstance(param.type, _PathOption):
                old = param.type
                param.type = _PathOption(
                    exists=old.exists,
                    file_okay=old.file_okay,
                    dir_okay=old.dir_okay,
                    writable=old.writable,
                    readable=old.readable,
                    resolve_path=old.resolve_path,
                    allow_dash=old.allow_dash,
                    path_type=old.type,
                    executable=getattr(old, "executable", False),
                )

    def invoke(self, ctx: click.Context) -> Any:
        from bgrules.core.limits import too_large

        for param in self.params:
            value = ctx.params.get(param.name or "")
            values = value if isinstance(value, tuple) else (value,)
            name = param.opts[0] if isinstance(param, click.Option) else (param.name or "").upper()
            if isinstance(param.type, _PathOption) and any(isinstance(v, str) for v in values):
                _fail(f"{name}: an empty path names no file or directory")
            if isinstance(param.type, click.types.IntParamType):
                for v in values:
                    problem = too_large(name, v) if isinstance(v, int) else None
                    if problem is not None:
                        _fail(f"{name}: {problem}")
        return super().invoke(ctx)


def _cwd_on_path() -> None:
    """Put the current directory first on the import path, as ``python -m bgrules`` has it, so that the
    ``bgrules`` console script finds a user's predicate modules (``my_checks:money`` in a spec) the same
    way (docs/verify.md, "Code that runs")."""
    import os

    here = os.getcwd()
    if not any(os.path.abspath(p or os.curdir) == here for p in sys.path):
        sys.path.insert(0, here)


def _parse_options(pairs: tuple[str, ...]) -> dict[str, Any]:
    import tomllib

    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise InputError(f"--option {pair}", "options are written key=value")
        try:
            out[key] = tomllib.loads(f"v = {value}")["v"]
        except tomllib.TOMLDecodeError:
            out[key] = value
        except (RecursionError, ValueError):  # nested too deeply, or a number too long to read
            raise InputError(f"--option {key}", "a value nested too deeply or a number too long to read") from None
    return out


class _Group(click.Group):
    command_class = _Command


@click.group(cls=_Group)
@click.version_option(version=__version__, prog_name="bgrules")
def main() -> None:
    """Executable, formally checked rules of Bot Factory and Mechanica."""
    from bgrules.core import coverage, gcpolicy

    _cwd_on_path()  # a spec's own predicate module is found the same way by bgrules and python -m bgrules

    coverage.write_on_exit()  # only with BGRULES_COVERAGE_FILE set (docs/coverage.md)
    try:
        gcpolicy.for_runners()  # this process is bgrules' own: full collections rarer (docs/speed.md)
    except InputError as exc:
        _fail(str(exc))


# --- verify / prove --------------------------------------------------------------------------------


def _head(row: dict[str, Any]) -> str:
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


def _body(row: dict[str, Any]) -> list[str]:
    """What follows a counterexample's (or a failure's) line: its detail, then its trace as numbered
    steps with the rules each applied (bgrules.core.trace), or a proof's witness."""
    from bgrules.core.trace import lines

    if row["ok"] and row["verdict"] != "violated":
        return []
    out = [f"     {row['detail']}"] if row.get("detail") else []
    if row.get("trace"):
        out += ["   " + line for line in lines(row["trace"])]
    elif row["verdict"] == "violated" and row.get("witness") is not None:
        out.append(f"     witness: {json.dumps(row['witness'], default=str)}")
    return out


def _junit(rows: list[dict[str, Any]], path: Path) -> None:
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
        text = "\n".join([_head(row), *_body(row)])
        if not row["ok"]:
            failure = ET.SubElement(case, "failure", message=f"verdict {row['verdict']}, expected {row['expected']}")
            failure.text = text
        out = ET.SubElement(case, "system-out")
        out.text = f"guarantee: {row['guarantee']}\n{text}"
    ET.ElementTree(suite).write(path, encoding="unicode", xml_declaration=True)


def _only(only: str | None) -> None:
    """``--only ""`` (an empty CI variable) is bad input, not "everything"."""
    if only is not None and not only.strip():
        raise InputError("--only", "give some text of the ids to check (an empty --only would match every id)")


def _positive(value: int | None, option: str) -> None:
    """No vacuous pass: a count, budget or timeout below 1 is bad input (exit 2), never a silent default."""
    if value is not None and value < 1:
        raise InputError(option, f"a whole number of at least 1, not {value}")


class _Live:
    """Progress while tasks run and each result as it arrives. On a terminal: a rich progress line
    (done/total, the checks running, elapsed, estimate) under the result lines; on a pipe: plain lines,
    one result a line. ``quiet``: only failures (and, at the end, the summary). With ``--json`` the
    lines go to stderr, so stdout holds the JSON alone."""

    def __init__(self, title: str, total: int, *, quiet: bool, to_stderr: bool) -> None:
        self.title = title
        self.quiet = quiet
        self.out = err_console if to_stderr else console
        self.running: dict[int, str] = {}
        self.progress: Progress | None = None
        self.bar: Any = None
        if self.out.is_terminal:
            self.progress = Progress(*_BAR, console=self.out, transient=True)
            self.bar = self.progress.add_task(title, total=total)

    def __enter__(self) -> _Live:
        if self.progress is not None:
            self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None:
            self.progress.stop()

    def start(self, index: int, task: Any) -> None:
        self.running[index] = task.label
        self._describe()

    def _describe(self) -> None:
        if self.progress is not None:
            labels = list(self.running.values())
            shown = ", ".join(labels[:2]) + (f" +{len(labels) - 2}" if len(labels) > 2 else "")
            self.progress.update(self.bar, description=f"{self.title}: {shown}")

    def done(self, done: Any) -> None:
        self.running.pop(done.index, None)
        for row in done.value:
            self.row(row)
        if self.progress is not None:
            self.progress.advance(self.bar)
        self._describe()

    def row(self, row: dict[str, Any]) -> None:
        if self.quiet and row["ok"]:
            return
        text = "\n".join([_head(row), *_body(row)])
        if self.out.is_terminal:
            from rich.text import Text

            style = "bold red" if not row["ok"] else ("yellow" if row["verdict"] == "violated" else "green")
            target = self.progress.console if self.progress is not None else self.out
            target.print(Text(text, style=style), soft_wrap=True, highlight=False)
        else:
            click.echo(text, err=self.out is err_console)


def _check_engine(engine: str, jobs: int | None, address: str | None) -> None:
    """``--engine local`` takes ``--jobs``, ``--engine ray`` takes ``--address``; not the other way round."""
    if engine == "ray":
        if jobs is not None:
            raise InputError("--jobs", "is for --engine local (Ray places the tasks on its cluster's CPUs)")
    elif address is not None:
        raise InputError("--address", "names a Ray cluster: give it with --engine ray")


def _run_plan(
    title: str,
    tasks: list[Any],
    jobs: int | None,
    *,
    quiet: bool,
    as_json: bool,
    engine: str = "local",
    address: str | None = None,
) -> list[dict[str, Any]]:
    """Every task's rows in the plan's order: in ``jobs`` local processes, or (``engine="ray"``) as Ray
    tasks on the cluster at ``address`` (None: a local Ray), with the same task function either way."""
    from bgrules.core.jobs import check_jobs, run_tasks

    _check_engine(engine, jobs, address)
    if not tasks:  # no vacuous pass: an --only that matched nothing, or empty directories
        _fail(f"{title}: nothing was checked (no spec, proof or clarification matched); that is not a pass")
    if engine == "ray":
        from bgrules.integrations import ray_engine

        ray_engine.connect(address)  # a missing extra or an unreachable address: one line, before any progress
        with _Live(title, len(tasks), quiet=quiet, to_stderr=as_json) as live:
            values = ray_engine.run_tasks(tasks, address, on_start=live.start, on_done=live.done)
    else:
        workers = check_jobs(jobs)
        with _Live(title, len(tasks), quiet=quiet, to_stderr=as_json) as live:
            values = run_tasks(tasks, workers, on_start=live.start, on_done=live.done)
    return [row for rows in values for row in rows]


def _emit(
    rows: list[dict[str, Any]],
    title: str,
    as_json: bool,
    junit: Path | None,
    *,
    seconds: float,
    jobs: int | None,
    trace_dir: Path | None = None,
    extra: list[dict[str, Any]] | None = None,
    where: str | None = None,
) -> None:
    """The end of a run: the extra rows (coverage) as result lines, the trace files, the JUnit file, the
    JSON, and the summary (with the unexpected verdicts again, at the bottom where a reader looks)."""
    from bgrules.core.jobs import check_jobs

    if not rows:
        _fail(f"{title}: nothing was checked (no spec, proof or clarification matched); that is not a pass")
    for row in extra or []:
        click.echo("\n".join([_head(row), *_body(row)]), err=as_json)
    rows = rows + list(extra or [])
    if trace_dir is not None:
        from bgrules.core.trace import file_names

        trace_dir.mkdir(parents=True, exist_ok=True)
        for row, name in zip(rows, file_names(rows), strict=True):  # two rows never share a file
            if name is not None:
                (trace_dir / name).write_text(json.dumps(row["trace"], indent=2) + "\n", encoding="utf-8")
    if junit is not None:
        _junit(rows, junit)
    bad = [r for r in rows if not r["ok"]]
    expected_cx = sum(1 for r in rows if r["ok"] and r["verdict"] == "violated" and r["kind"] != "coverage")
    summary = (
        f"{title}: {len(rows) - len(bad)} of {len(rows)} verdicts as expected "
        f"({expected_cx} expected counterexample(s), marked ok*), {len(bad)} unexpected; "
        f"{seconds:.1f} s on {where or f'{check_jobs(jobs)} job(s)'}"
    )
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        click.echo(summary, err=True)
    else:
        if bad:
            click.echo("\nunexpected verdicts:")
            for r in bad:
                click.echo("  " + _head(r))
        click.echo(summary)
    if bad:
        sys.exit(1)


def _spec_order(rows: list[dict[str, Any]], specs: list[Any]) -> list[dict[str, Any]]:
    """Spec rows in the specs' order (each spec's checkers in its own order, each checker's player counts
    in the spec's order), whatever the groups."""
    rank = {(s.id, c): (i, j) for i, s in enumerate(specs) for j, c in enumerate(s.checkers)}
    counts = {s.id: list(s.players or ()) for s in specs}

    def key(r: dict[str, Any]) -> tuple[int, int, int]:
        i, j = rank.get((r["id"], r["checker"]), (len(rank), 0))
        listed = counts.get(r["id"], [])
        return i, j, listed.index(r["players"]) if r.get("players") in listed else 0

    return sorted(rows, key=key)


def _jobs_option(fn: Callable[..., None]) -> Callable[..., None]:
    return click.option(
        "--jobs",
        "-j",
        type=int,
        default=None,
        help="checks run side by side [default: every core]; the results are the same whatever N",
    )(fn)


def _timeout_option(fn: Callable[..., None]) -> Callable[..., None]:
    return click.option(
        "--timeout",
        "timeout_ms",
        default=DEFAULT_TIMEOUT_MS,
        show_default=True,
        help="wall budget per proof obligation (ms): each solver check gets what is left; a sampled obligation "
        "stops sampling when it is spent (docs/proofs.md)",
    )(fn)


def _quiet_option(fn: Callable[..., None]) -> Callable[..., None]:
    return click.option("--quiet", "-q", is_flag=True, help="print only failures and the summary")(fn)


@main.command()
@click.option("--specs", "specs_dir", type=click.Path(path_type=Path), default=None, help=_DIR_HELP["specs"])
@click.option("--proofs", "proofs_dir", type=click.Path(path_type=Path), default=None, help=_DIR_HELP["proofs"])
@click.option(
    "--clarifications",
    "clarifications_dir",
    type=click.Path(path_type=Path),
    default=None,
    help=_DIR_HELP["clarifications"],
)
@click.option(
    "--games", type=int, default=None, help="sampled checker: games per spec [default: the spec's budget, or 100]"
)
@click.option(
    "--examples", type=int, default=None, help="searched checker: examples per spec [default: the spec's, or 50]"
)
@click.option(
    "--max-steps", type=int, default=None, help="steps per game for both checkers [default: the spec's, or 200]"
)
@_timeout_option
@click.option(
    "--checker",
    "checkers",
    multiple=True,
    type=click.Choice(["sampled", "searched", "explored", "proved", "clarified"]),
)
@click.option("--only", default=None, help="only ids containing this text")
@click.option("--thorough", is_flag=True, help="each spec's and proof's thorough budget (several times the default)")
@_jobs_option
@click.option(
    "--engine",
    type=click.Choice(("local", "ray")),
    default="local",
    show_default=True,
    help="where the checks run: local worker processes (--jobs) or Ray tasks (--address); the results are "
    "the same either way (docs/verify.md)",
)
@click.option(
    "--address",
    default=None,
    metavar="ADDR",
    help="--engine ray: the Ray cluster's address (host:port, ray://host:port or auto) [default: start a local Ray]",
)
@_quiet_option
@click.option("--json", "as_json", is_flag=True, help="print a JSON list of results (progress goes to stderr)")
@click.option("--junit-xml", type=click.Path(path_type=Path), default=None)
@click.option(
    "--no-database",
    is_flag=True,
    help="searched checker: no example database (by default .bgrules/hypothesis in the current directory keeps "
    "the counterexamples found and replays them first next time)",
)
@click.option(
    "--trace-dir",
    type=click.Path(path_type=Path),
    default=None,
    help="write each counterexample's trace (the format bgrules replay reads) to this directory",
)
@click.option(
    "--coverage-json",
    type=click.Path(path_type=Path),
    default=None,
    help="write the rule coverage table (docs/coverage.md) to this file, for any run",
)
@click.option(
    "--html",
    "html_dir",
    type=click.Path(path_type=Path),
    default=None,
    help="write a browsable report to this directory: index.html and a stepping page per counterexample",
)
@_guard
def verify(
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
    quiet: bool,
    as_json: bool,
    junit_xml: Path | None,
    no_database: bool,
    trace_dir: Path | None,
    coverage_json: Path | None,
    html_dir: Path | None,
) -> None:
    """Check every invariant spec, proof obligation and clarification; exit 1 on any unexpected verdict.
    A whole run (every checker, no --only) also fails when a rule ID of docs/rules is neither reached by
    a check nor exempt (specs/coverage-exempt.toml); its JSON ends with that row (docs/coverage.md).
    The specs, proofs and clarifications are the current directory's (specs/, proofs/,
    specs/clarifications/) when it has them, else the ones bgrules ships."""
    from bgrules.core import coverage
    from bgrules.core.defaults import default_dir, source_label
    from bgrules.core.verify import plan, plugins_only

    _only(only)
    for value, option in ((games, "--games"), (examples, "--examples"), (max_steps, "--max-steps")):
        _positive(value, option)
    _positive(timeout_ms, "--timeout")
    _check_engine(engine, jobs, address)
    given = {"specs": specs_dir is not None, "proofs": proofs_dir is not None}
    given["clarifications"] = clarifications_dir is not None
    specs_dir = specs_dir or default_dir("specs")
    proofs_dir = proofs_dir or default_dir("proofs")
    clarifications_dir = clarifications_dir or default_dir("clarifications")
    used = _dirs_used(given, specs=specs_dir, proofs=proofs_dir, clarifications=clarifications_dir)
    if engine == "ray":  # the workers read the files at the paths the driver gives, on any node
        specs_dir, proofs_dir, clarifications_dir = (d.resolve() for d in (specs_dir, proofs_dir, clarifications_dir))
    chosen = checkers or ("sampled", "searched", "explored", "proved", "clarified")
    started = time.perf_counter()
    budget = _verify_budget(games, examples, max_steps, thorough, database=not no_database)
    labels = {"specs": source_label("specs", specs_dir, given["specs"])}
    labels["proofs"] = source_label("proofs", proofs_dir, given["proofs"])
    tasks, specs = plan(
        specs_dir, proofs_dir, clarifications_dir, budget, chosen, only, timeout_ms, thorough, labels=labels
    )
    with coverage.collecting() as collected:
        values = _run_plan("bgrules verify", tasks, jobs, quiet=quiet, as_json=as_json, engine=engine, address=address)
    spec_rows = _spec_order([r for r in values if r["kind"] == "spec"], specs)
    proof_rows = [r for r in values if r["kind"] == "proof"] if "proved" in chosen else None
    rows = spec_rows + (proof_rows or []) + [r for r in values if r["kind"] not in ("spec", "proof")]
    complete = only is None and set(chosen) == {"sampled", "searched", "explored", "proved", "clarified"}
    if specs and plugins_only(specs):  # the rule coverage is of docs/rules, which no plug-in game's spec reaches
        complete = False
    covered = coverage.verify_row(
        collected,
        proof_rows,
        specs_dir=specs_dir,
        proofs_dir=proofs_dir,
        complete=complete,
        seconds=time.perf_counter() - started,
    )
    if coverage_json is not None:
        coverage_json.write_text(json.dumps(covered["coverage"], indent=2) + "\n", encoding="utf-8")
    if html_dir is not None:
        from bgrules.core.report_html import write_report

        selection = [f"checkers {', '.join(chosen)}"] + ([f"ids containing {only!r}"] if only else [])
        from bgrules.core.report import by_spec

        index = write_report(
            html_dir,
            rows + ([covered] if complete else []),
            seconds=time.perf_counter() - started,
            coverage=covered["coverage"],
            complete=complete,
            meta=[("bgrules", __version__), ("selection", "; ".join(selection))],
            grouped=by_spec(rows, specs, chosen),
        )
        click.echo(f"report: {index}", err=True)
    click.echo(f"bgrules verify used {used}", err=True)
    if not quiet:
        from bgrules.core.report import by_spec, by_spec_lines

        for line in by_spec_lines(by_spec(rows, specs, chosen)):
            click.echo(line, err=as_json)
    _emit(
        rows,
        "bgrules verify",
        as_json,
        junit_xml,
        seconds=time.perf_counter() - started,
        jobs=jobs,
        trace_dir=trace_dir,
        extra=[covered] if complete else None,
        where=_ray_where(address) if engine == "ray" else None,
    )


def _dirs_used(given: dict[str, bool], **dirs: Path) -> str:
    """Which specs, proofs and clarifications directories a run used, in one line (stderr): the current
    directory's replace the shipped ones, so a run says so."""
    from bgrules.core.defaults import describe_dir

    return "; ".join(describe_dir(kind, path, given[kind]) for kind, path in dirs.items())


def _verify_budget(
    games: int | None, examples: int | None, max_steps: int | None, thorough: bool, *, database: bool = True
) -> Any:
    """verify's budget: the specs' own unless a figure is given (``bgrules coverage`` runs the default);
    ``database``: the searched checker's example database (:data:`bgrules.core.specs.DATABASE`)."""
    from bgrules.core.specs import DATABASE, Budget

    forced = games is not None or examples is not None or max_steps is not None
    return Budget(
        games=games or 100,
        examples=examples or 50,
        max_steps=max_steps or 200,
        forced=forced,
        thorough=thorough,
        database=DATABASE if database else None,
    )


def _ray_where(address: str | None) -> str:
    from bgrules.integrations import ray_engine

    return f"Ray ({ray_engine.cpus(address)} CPUs)"


@main.command()
@click.option("--proofs", "proofs_dir", type=click.Path(path_type=Path), default=None, help=_DIR_HELP["proofs"])
@_timeout_option
@click.option("--only", default=None, help="only ids containing this text")
@click.option("--thorough", is_flag=True, help="each obligation's thorough budget")
@_jobs_option
@_quiet_option
@click.option("--json", "as_json", is_flag=True, help="print a JSON list of results (progress goes to stderr)")
@click.option("--junit-xml", type=click.Path(path_type=Path), default=None)
@_guard
def prove(
    proofs_dir: Path | None,
    timeout_ms: int,
    only: str | None,
    thorough: bool,
    jobs: int | None,
    quiet: bool,
    as_json: bool,
    junit_xml: Path | None,
) -> None:
    """Run the z3 proof obligations of proofs/manifest.toml (the current directory's, else the shipped ones)."""
    from bgrules.core.defaults import default_dir
    from bgrules.core.verify import proof_tasks

    _only(only)
    _positive(timeout_ms, "--timeout")
    started = time.perf_counter()
    tasks = proof_tasks(proofs_dir or default_dir("proofs"), timeout_ms, only, thorough)
    rows = _run_plan("bgrules prove", tasks, jobs, quiet=quiet, as_json=as_json)
    _emit(rows, "bgrules prove", as_json, junit_xml, seconds=time.perf_counter() - started, jobs=jobs)


@main.command()
@click.argument("files", nargs=-1, type=click.Path(path_type=Path))
@_jobs_option
@_quiet_option
@click.option("--json", "as_json", is_flag=True, help="print a JSON list of results (progress goes to stderr)")
@click.option("--junit-xml", type=click.Path(path_type=Path), default=None)
@click.option("--game", "game_name", default=None, help="only the clarifications of this game: " + _GAME_HELP)
@click.option(
    "--variant",
    type=click.Path(path_type=Path),
    default=None,
    help="a variant file (e.g. corrected component data) to run the clarifications of --game on",
)
@_guard
def clarify(
    files: tuple[Path, ...],
    jobs: int | None,
    quiet: bool,
    as_json: bool,
    junit_xml: Path | None,
    game_name: str | None,
    variant: Path | None,
) -> None:
    """Check rule clarification files (or directories of them): each witness and property with its guarantee.
    With no FILES, the clarifications verify checks: the current directory's specs/clarifications/ when it
    has one, else the ones bgrules ships. With ``--game G --variant FILE`` the clarifications of G run on
    that variant (the clarification's own ruling over it), so a corrected data file shows which witnesses
    it changes."""
    from bgrules.core.defaults import default_dir
    from bgrules.core.verify import clarification_tasks

    started = time.perf_counter()
    chosen = list(files) or [default_dir("clarifications")]
    if not files and not chosen[0].is_dir():
        raise InputError(str(chosen[0]), "no clarifications directory to check (name the files to check)")
    tasks = clarification_tasks(chosen, None, variant, game_name)
    rows = _run_plan("bgrules clarify", tasks, jobs, quiet=quiet, as_json=as_json)
    _emit(rows, "bgrules clarify", as_json, junit_xml, seconds=time.perf_counter() - started, jobs=jobs)


@main.command()
@click.option("--game", "game_name", required=True, help=_GAME_HELP)
@click.option("--variant", "variants", multiple=True, required=True, type=click.Path(path_type=Path))
@click.option("--players", type=int, default=None)
@click.option("--option", "-o", "options", multiple=True, help="game option key=value")
@click.option("--depth", default=60, show_default=True, help="the longest action sequence searched")
@click.option("--nodes", default=20_000, show_default=True, help="the most positions searched")
@click.option(
    "--max-rounds",
    type=int,
    default=None,
    help="the runner's round cap for games that count rounds (default: the game's own, 40 for botfactory)",
)
@click.option("--json", "as_json", is_flag=True)
@click.option(
    "--trace-dir",
    type=click.Path(path_type=Path),
    default=None,
    help="write the difference's actions as two traces (A.json, B.json: one per variant) for bgrules replay",
)
@click.option(
    "--html",
    "html_path",
    type=click.Path(path_type=Path),
    default=None,
    help="write one page that steps through the difference, variant A beside variant B",
)
@_guard
def diff(
    game_name: str,
    variants: tuple[Path, ...],
    players: int | None,
    options: tuple[str, ...],
    depth: int,
    nodes: int,
    max_rounds: int | None,
    as_json: bool,
    trace_dir: Path | None,
    html_path: Path | None,
) -> None:
    """Find the shortest action sequence whose outcome differs between two rulings (two --variant files)."""
    from bgrules.core.diff import find_difference, render, to_json

    if len(variants) != 2:
        raise InputError("--variant", f"give exactly two variant files, not {len(variants)}")
    with Progress(console=err_console, transient=True, disable=as_json) as progress:
        progress.add_task(f"bgrules diff {game_name}: up to {nodes} positions, depth {depth}", total=None)
        result = find_difference(
            game_name,
            str(variants[0]),
            str(variants[1]),
            players=players,
            options=_parse_options(options),
            max_depth=depth,
            max_nodes=nodes,
            max_rounds=max_rounds,
        )
    from bgrules.core.figures import describe
    from bgrules.core.registry import load_game

    departed = {  # the seed figures each variant departs from (bgrules.core.figures)
        label: _seed_departures(load_game(game_name, players=players, variant=str(v), **_parse_options(options)))
        for label, v in zip(("A", "B"), variants, strict=True)
    }
    if as_json:
        click.echo(json.dumps({**to_json(result), "seed_departures": departed}, indent=2, default=str))
    else:
        click.echo(render(result))
        for label, found in departed.items():
            click.echo(f"{label}: {describe(found)}")
    if trace_dir is not None or html_path is not None:
        _diff_files(result, game_name, variants, players, _parse_options(options), trace_dir, html_path)


def _diff_files(
    result: Any,
    game_name: str,
    variants: tuple[Path, ...],
    players: int | None,
    options: dict[str, Any],
    trace_dir: Path | None,
    html_path: Path | None,
) -> None:
    """The difference's actions as a trace per variant (``A.json``, ``B.json``; B's last action is the one
    B refuses when the difference is about legality) and as one page with A beside B."""
    from bgrules.core import html
    from bgrules.core.registry import load_game
    from bgrules.core.trace import explain, make_trace

    if not result.found:
        click.echo("no difference found: no trace or page written", err=True)
        return
    spec = f"diff ({result.kind}): {result.detail}"
    games = [load_game(game_name, players=players, variant=str(v), **options) for v in variants]
    if trace_dir is not None:
        trace_dir.mkdir(parents=True, exist_ok=True)
        for label, variant, game in zip(("A", "B"), variants, games, strict=True):
            data = make_trace(
                game_name,
                game,
                result.sequence,
                options=options,
                variant=str(variant),
                spec=spec,
                checker=f"{label}: {variant}",
                steps=explain(game, result.sequence),
            )
            (trace_dir / f"{label}.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        click.echo(f"wrote {trace_dir / 'A.json'} and {trace_dir / 'B.json'}", err=True)
    if html_path is not None:
        tracks = [
            html.track(f"{label}: {variant}", game, result.sequence)
            for label, variant, game in zip(("A", "B"), variants, games, strict=True)
        ]
        meta = [
            ("game", f"{game_name}, {result.players} player(s)"),
            ("variants", f"A = {result.variant_a}, B = {result.variant_b}"),
            ("rulings that differ", "; ".join(f"{c.field}: A {c.a}, B {c.b}" for c in result.rulings) or "none"),
            ("difference", f"after {len(result.sequence)} action(s), {result.kind}: {result.detail}"),
            ("rules cited", ", ".join(f"{c.rule_id} ({c.source})" for c in result.citations) or "none"),
        ]
        title = f"ruling diff of {game_name}"
        html_path.write_text(html.tracks_page(title, tracks, meta), encoding="utf-8")
        click.echo(f"wrote {html_path}", err=True)


# --- simulate --------------------------------------------------------------------------------------


def _game_predicates(game_name: str, players: int, specs_dir: Path) -> list[tuple[str, str, Callable[..., str | None]]]:
    from bgrules.core.specs import default_invariants

    return default_invariants(game_name, players, specs_dir)


def _seed_departures(game: Any) -> list[dict[str, Any]]:
    """The seed figures a loaded game's variant departs from (``seed_departures``, bgrules.core.figures)."""
    from bgrules.core.figures import departures

    return departures(game)


def _note_departures(found: list[dict[str, Any]]) -> None:
    from bgrules.core.figures import describe

    console.print(describe(found), highlight=False, soft_wrap=True)


@main.command()
@click.option("--game", "game_name", required=True, help=_GAME_HELP)
@click.option("--players", type=int, default=None)
@click.option("--games", "n_games", default=100, show_default=True)
@click.option("--seed", default=0, show_default=True)
@click.option("--variant", type=click.Path(path_type=Path), default=None)
@click.option("--option", "-o", "options", multiple=True, help="game option key=value, e.g. -o days=4")
@click.option("--check/--no-check", default=True, show_default=True, help="check every invariant at every step")
@click.option(
    "--max-rounds",
    type=int,
    default=None,
    help="the runner's round cap for games that count rounds: a game not over by then is truncated "
    "(default: the game's own, 40 for botfactory)",
)
@click.option(
    "--agents",
    "agents_spec",
    default=None,
    help="who plays: one agent name for every seat or one per seat, comma-separated "
    "(random, greedy, mcts; e.g. greedy,random or mcts:iterations=50) [default: random]",
)
@click.option("--specs", "specs_dir", type=click.Path(path_type=Path), default=None, help=_DIR_HELP["specs"])
@click.option("--json", "as_json", is_flag=True)
@engine_options
@_guard
def simulate(
    game_name: str,
    players: int | None,
    n_games: int,
    seed: int,
    variant: Path | None,
    options: tuple[str, ...],
    check: bool,
    max_rounds: int | None,
    agents_spec: str | None,
    specs_dir: Path | None,
    as_json: bool,
    engine: str,
    jobs: int | None,
    address: str | None,
    results: Path | None,
    resume: Path | None,
) -> None:
    """Play legal games (random, or by ``--agents``), checking the game's invariants at every step, and
    summarise them. Games the runner cuts short (its step bound, or its round cap) count as ``truncated``:
    no one's win, so ``win_rate_by_seat`` is each seat's wins over the ``finished`` games (as balance
    counts them; null when none finished); ``ended_by`` counts the games each end trigger (a rule ID) ended."""
    from bgrules.agents import agent_names, parse_agents
    from bgrules.core.playout import end_trigger, round_cap
    from bgrules.core.registry import load_game

    if n_games < 1:
        raise InputError("--games", "play at least one game")
    if check and specs_dir is None:
        specs_dir = _own_specs(game_name)
    from bgrules.core import campaign_cli

    if campaign_cli.wanted(engine, jobs, address, results, resume):  # the games as a campaign (docs/campaigns.md)
        result = campaign_cli.simulate(
            game=game_name, players=players, games=n_games, seed=seed, variant=variant, options=_parse_options(options),
            check=check, max_rounds=max_rounds, agents=agents_spec, specs_dir=specs_dir, engine=engine, jobs=jobs,
            address=address, results=results, resume=resume,
        )  # fmt: skip
        _print_simulate(result, game_name, n_games, seed, as_json, variant is not None)
        return
    game = load_game(game_name, players=players, variant=str(variant) if variant else None, **_parse_options(options))
    cap = round_cap(game, max_rounds)
    agents = parse_agents(agents_spec, game.players)
    ended_by: dict[str, int] = {}
    from bgrules.core.defaults import default_dir

    where = specs_dir or default_dir("specs")
    preds = _game_predicates(game_name, game.players, where) if check else []
    if check and not preds:  # no vacuous pass: asked to check, and nothing to check with
        from bgrules.core.defaults import source_label

        label = source_label("specs", where, specs_dir is not None)
        raise InputError(
            "--check", f"no invariant of {game_name} ({game.players} players) in {label}; pass --no-check to only play"
        )
    if check and not as_json:  # (with --json the output is the JSON alone, stderr included)
        from bgrules.core.defaults import describe_dir

        click.echo(f"bgrules simulate used {describe_dir('specs', where, specs_dir is not None)}", err=True)
    step_preds = [p for p in preds if p[1] != "game"]
    game_preds = [p for p in preds if p[1] == "game"]
    lengths: list[int] = []
    scores: list[tuple[int, ...]] = []
    wins = [0] * game.players
    violations: list[dict[str, Any]] = []
    truncated = 0
    from bgrules.core.campaign import checked_game
    from bgrules.core.coverage import recording

    start = time.perf_counter()
    with recording("simulate"), Progress(*_BAR, console=err_console, transient=True, disable=as_json) as progress:
        task = progress.add_task(f"{game_name}", total=n_games)

        def violated(spec_id: str, s: int, step: int, msg: str) -> None:
            violations.append({"id": spec_id, "seed": s, "step": step, "detail": msg})

        for s in range(seed, seed + n_games):
            steps, state = checked_game(game, s, cap, agents, step_preds, game_preds, violated)
            if not game.is_terminal(state):
                truncated += 1
            trigger = end_trigger(game, state) or "truncated"
            ended_by[trigger] = ended_by.get(trigger, 0) + 1
            lengths.append(steps)
            scores.append(tuple(game.scores(state)))
            if game.is_terminal(state):  # a truncated game is no one's win (as balance counts it)
                for w in game.winners(state):
                    wins[w] += 1
            progress.advance(task)
    seconds = time.perf_counter() - start
    total_steps = sum(lengths)
    result = {
        "game": game_name,
        "players": game.players,
        "games": n_games,
        "seed": seed,
        "steps": total_steps,
        "seconds": round(seconds, 3),
        "games_per_second": round(n_games / seconds, 2) if seconds else None,
        "steps_per_second": round(total_steps / seconds, 1) if seconds else None,
        "length": {"min": min(lengths), "mean": round(statistics.fmean(lengths), 2), "max": max(lengths)},
        "agents": agent_names(agents),
        "ended_by": dict(sorted(ended_by.items())),
        "scores": {
            "mean": [round(statistics.fmean(s[i] for s in scores), 2) for i in range(game.players)],
            "min": [min(s[i] for s in scores) for i in range(game.players)],
            "max": [max(s[i] for s in scores) for i in range(game.players)],
        },
        "win_rate_by_seat": [round(w / (n_games - truncated), 4) if n_games > truncated else None for w in wins],
        "truncated": truncated,
        "finished": n_games - truncated,
        "win_rate_denominator": "finished",
        "round_cap": cap,
        "invariants_checked": [p[0] for p in preds],
        "invariant_violations": len(violations),
        "violations": violations[:20],
        "seed_departures": _seed_departures(game),
    }
    _print_simulate(result, game_name, n_games, seed, as_json, variant is not None)


def _own_specs(game_name: str) -> Path | None:
    """The game's own specs directory (its descriptor's ``specs``: a plug-in game's) when the default specs
    directory holds none of its specs, else None (the default)."""
    from bgrules.core.defaults import default_dir
    from bgrules.core.descriptor import find
    from bgrules.core.specs import load_specs

    found = find(game_name)
    if found is None or found.specs is None or not Path(found.specs).is_dir():
        return None
    where = default_dir("specs")
    if where.is_dir() and any(s.game == game_name for s in load_specs(where)):
        return None
    return Path(found.specs)


def _print_simulate(
    result: dict[str, Any], game_name: str, n_games: int, seed: int, as_json: bool, variant: bool = False
) -> None:
    checked_ids = result["invariants_checked"]
    if as_json:
        click.echo(json.dumps(result, indent=2))
    else:
        table = Table(title=f"bgrules simulate: {game_name}, {n_games} games from seed {seed}", show_header=False)
        for key in (
            "agents",
            "games",
            "steps",
            "seconds",
            "games_per_second",
            "steps_per_second",
            "length",
            "scores",
            "win_rate_by_seat",
            "ended_by",
            "truncated",
            "finished",
            "invariant_violations",
        ):
            table.add_row(key, str(result[key]))
        console.print(table)
        checked = (
            f"{len(checked_ids)} invariant(s) checked at every step"
            if checked_ids
            else "no invariant checked (--no-check)"
        )
        console.print(
            f"{checked}: {', '.join(checked_ids)}" if checked_ids else checked, highlight=False, soft_wrap=True
        )
        for v in result["violations"]:
            console.print(f"[red]{v['id']}[/] seed {v['seed']} step {v['step']}: {v['detail']}", highlight=False)
        if variant:
            _note_departures(result.get("seed_departures", []))
    if result["invariant_violations"]:
        sys.exit(1)


# --- balance ---------------------------------------------------------------------------------------


@main.command()
@click.option("--game", "game_name", required=True, help=_GAME_HELP)
@click.option("--players", type=int, default=None)
@click.option(
    "--agents",
    "agents_spec",
    default=None,
    help="one agent for every seat (greedy) or one per seat (greedy,random,random,mcts); default: random",
)
@click.option("--games", "n_games", default=100, show_default=True)
@click.option("--seed", default=0, show_default=True, help="game i is played from seed S + i")
@click.option("--variant", type=click.Path(path_type=Path), default=None)
@click.option("--option", "-o", "options", multiple=True, help="game option key=value")
@click.option(
    "--max-rounds",
    type=int,
    default=None,
    help="the runner's round cap: a game not over by then is truncated, no one's win (default: the game's own)",
)
@click.option("--json", "as_json", is_flag=True, help="print the report as JSON (docs/balance.md)")
@click.option("--plot", "plot_path", type=click.Path(path_type=Path), default=None, help="draw it to OUT.png or .svg")
@engine_options
@_guard
def balance(
    game_name: str,
    players: int | None,
    agents_spec: str | None,
    n_games: int,
    seed: int,
    variant: Path | None,
    options: tuple[str, ...],
    max_rounds: int | None,
    as_json: bool,
    plot_path: Path | None,
    engine: str,
    jobs: int | None,
    address: str | None,
    results: Path | None,
    resume: Path | None,
) -> None:
    """Win rate per seat with 95% Wilson intervals, scores, game length and end triggers (docs/balance.md).
    Shared wins count for each tied seat; games truncated by the runner's cap are no one's win."""
    from bgrules.core.balance import (
        balance_json,
        check_plot_path,
        plot_balance,
        resolve_agents,
        run_balance,
    )
    from bgrules.core.errors import MissingExtra
    from bgrules.core.registry import load_game

    if n_games < 1:
        raise InputError("--games", f"a whole number of games, at least 1, not {n_games}")
    if plot_path is not None:
        try:
            check_plot_path(plot_path)
        except MissingExtra as exc:
            _fail(str(exc))  # the extra's name, bgrules[plot], is printed as text by _fail
    from bgrules.core import campaign_cli

    if campaign_cli.wanted(engine, jobs, address, results, resume):  # the games as a campaign (docs/campaigns.md)
        if plot_path is not None:
            raise InputError("--plot", "draws each game's scores: run it without --engine/--jobs/--results/--resume")
        result = campaign_cli.balance(
            game=game_name, players=players, agents=agents_spec, games=n_games, seed=seed, variant=variant,
            options=_parse_options(options), max_rounds=max_rounds, engine=engine, jobs=jobs, address=address,
            results=results, resume=resume,
        )  # fmt: skip
    else:
        game = load_game(
            game_name, players=players, variant=str(variant) if variant else None, **_parse_options(options)
        )
        agents, names = resolve_agents(agents_spec, game.players)
        with Progress(console=err_console, transient=True, disable=as_json) as progress:
            task = progress.add_task(f"{game_name}", total=n_games)
            report = run_balance(
                game, game_name, n_games, seed, agents, names, max_rounds, on_game=lambda _r: progress.advance(task)
            )
        if plot_path is not None:
            plot_balance(report, plot_path)
        result = balance_json(report)
        result["seed_departures"] = _seed_departures(game)
    if as_json:
        click.echo(json.dumps(result, indent=2))
        return
    title = f"bgrules balance: {game_name}, {result['players']} players, {n_games} games from seed {seed}"
    table = Table(title=title)
    for column in ("seat", "agent", "wins", "win rate [95% Wilson]", "score mean ± sd", "score min..max"):
        table.add_column(column, justify="left" if column == "agent" else "right")
    for s in result["seats"]:
        rate = "-" if s["win_rate"] is None else f"{s['win_rate']:.3f}"
        interval = f"{rate} [{s['win_rate_low']:.3f}, {s['win_rate_high']:.3f}]"
        mean = "-" if s["score_mean"] is None else f"{s['score_mean']:.2f} ± {s['score_sd']:.2f}"
        span = "-" if s["score_min"] is None else f"{s['score_min']}..{s['score_max']}"
        table.add_row(str(s["seat"]), s["agent"], str(s["wins"]), interval, mean, span)
    console.print(table)
    length = result["length"]
    lines = [
        f"finished {result['finished']} of {n_games}; truncated {result['truncated']} "
        f"(the runner's round cap {result['round_cap']}: no one's win, left out)",
        f"shared games {result['shared_games']} (a win for each tied seat)",
        "ended by: " + ", ".join(f"{k} {v}" for k, v in result["ended_by"].items()),
    ]
    if length is not None:
        lines.append(f"length (actions): {length['mean']} ± {length['sd']}, {length['min']}..{length['max']}")
    for line in lines:
        console.print(line, highlight=False)
    if variant is not None:
        _note_departures(result["seed_departures"])
    if plot_path is not None:
        console.print(f"plot: {plot_path}", highlight=False)


# --- coverage --------------------------------------------------------------------------------------


def _coverage_table(result: dict[str, Any], title: str) -> Table:
    table = Table(title=title)
    for col in ("rule", "title", "effects", "refusals", "checkers", "exempt"):
        table.add_column(col, overflow="fold")
    for r in result["rules"]:
        style = "green" if r["checkers"] else ("yellow" if r["exempt"] else "bold red")
        table.add_row(
            f"[{style}]{r['id']}[/]",
            r["title"],
            str(r["effects"]),
            str(r["refusals"]),
            ", ".join(r["checkers"]) or "-",
            r["exempt"] or "",
        )
    return table


@main.command()
@click.option(
    "--game",
    "game_name",
    default=None,
    help="botfactory, mechanica (with its factory sandbox) or mechanica-factory alone [default: both games]",
)
@click.option(
    "--agents",
    "agents_spec",
    default=None,
    help="play sampled games instead of verify's checks, with these agents: one for every seat (greedy) or "
    "one per seat [default: random]",
)
@click.option(
    "--games",
    "n_games",
    type=int,
    default=None,
    help="play N sampled games per game and player count instead of verify's checks [default: 20 when sampling]",
)
@click.option("--players", type=int, default=None, help="sampled games of this player count only [default: every one]")
@click.option("--seed", type=int, default=None, help="the first sampled game's seed [default: 0]")
@click.option("--searched/--no-searched", default=True, show_default=True, help="run the searched specs too")
@click.option("--specs", "specs_dir", type=click.Path(path_type=Path), default=None, help=_DIR_HELP["specs"])
@click.option("--proofs", "proofs_dir", type=click.Path(path_type=Path), default=None, help=_DIR_HELP["proofs"])
@click.option("--json", "as_json", is_flag=True, help="print the coverage table as JSON (docs/coverage.md)")
@click.option(
    "--fail-under",
    type=float,
    default=None,
    help="exit 1 if fewer than PCT percent of the rules not exempt are reached (or no state was visited)",
)
@engine_options
@_guard
def coverage(
    game_name: str | None,
    agents_spec: str | None,
    n_games: int | None,
    players: int | None,
    seed: int | None,
    searched: bool,
    specs_dir: Path | None,
    proofs_dir: Path | None,
    as_json: bool,
    fail_under: float | None,
    engine: str,
    jobs: int | None,
    address: str | None,
    results: Path | None,
    resume: Path | None,
) -> None:
    """Rule coverage: per rule ID of docs/rules its title, how often its effect was applied and its guard
    refused, and which checkers reached it; exemptions from specs/coverage-exempt.toml. By default it runs
    the checks of ``bgrules verify`` (its sampled and searched specs, proofs and clarifications: the same
    table as verify's, for --game's rules); --games, --agents, --players, --seed, --results or --resume
    play sampled games instead (with the searched specs, the clarification witnesses and the proved ties;
    docs/coverage.md)."""
    from bgrules.core import coverage as cov
    from bgrules.core.defaults import default_dir

    sampling = any(x is not None for x in (n_games, agents_spec, players, seed, results, resume))
    if n_games is not None and n_games < 1:
        raise InputError("--games", f"play at least one game, not {n_games}")
    cov.choice(game_name)  # an unknown game: one line, before anything runs
    specs_dir = specs_dir or default_dir("specs")
    proofs_dir = proofs_dir or default_dir("proofs")
    if fail_under is not None and not 0 <= fail_under <= 100:
        raise InputError("--fail-under", f"a percentage from 0 to 100, not {fail_under}")
    from bgrules.core import campaign_cli

    n_games = 20 if n_games is None else n_games
    seed = 0 if seed is None else seed
    if not sampling:  # verify's checks
        result = _coverage_of_verify(game_name, searched, specs_dir, proofs_dir, engine, jobs, address, as_json)
    elif campaign_cli.wanted(engine, jobs, address, results, resume):  # the sampled games as a campaign
        result = campaign_cli.coverage(
            game=game_name, agents=agents_spec, games=n_games, players=players, seed=seed, searched=searched,
            specs_dir=specs_dir, proofs_dir=proofs_dir, engine=engine, jobs=jobs, address=address,
            results=results, resume=resume,
        )  # fmt: skip
    else:
        with Progress(*_BAR, console=err_console, transient=True, disable=as_json) as progress:
            bar = progress.add_task("bgrules coverage", total=None)

            def show(label: str, done: int, total: int) -> None:
                progress.update(bar, description=f"bgrules coverage: {label}", completed=done, total=total)

            result = cov.run_coverage(
                game_name,
                n_games=n_games,
                seed=seed,
                agents=agents_spec,
                players=players,
                specs_dir=specs_dir,
                clarifications_dir=specs_dir / "clarifications",
                proofs_dir=proofs_dir,
                searched=searched,
                progress=show,
            )
    pct = cov.percent(result)
    if as_json:
        click.echo(json.dumps(result, indent=2))
    else:
        console.print(_coverage_table(result, f"bgrules coverage: {game_name or 'both games'}"))
        missing = cov.unreached(result)
        evidence = (
            f"{result['states']} states visited"
            if result["states"] is not None
            else f"{result['checks']} of verify's checks run"
        )
        console.print(
            f"{result['reached']} of {result['total']} rule IDs reached ({pct:.1f}% of those not exempt), "
            f"{result['exempt']} exempt, {evidence}"
            + (f"; neither reached nor exempt: {', '.join(missing)}" if missing else ""),
            highlight=False,
        )
    if fail_under is not None:
        if result["states"] == 0:
            _fail("--fail-under: no state was visited, so no rule was checked", 1)
        if pct < fail_under:
            _fail(f"rule coverage {pct:.1f}% is under --fail-under {fail_under:g}%", 1)


def _coverage_of_verify(
    game_name: str | None,
    searched: bool,
    specs_dir: Path,
    proofs_dir: Path,
    engine: str,
    jobs: int | None,
    address: str | None,
    as_json: bool,
) -> dict[str, Any]:
    """``bgrules coverage``'s default: the table of ``bgrules verify``'s own plan (its default budget,
    every checker; --game: that game's specs, clarifications and obligations), as verify's coverage row
    has it, with ``checks`` (the result rows) and ``unexpected`` (the ids whose verdict was not the
    expected one: verify would fail on them) beside the table's keys."""
    from bgrules.core import coverage as cov
    from bgrules.core.verify import CHECKERS, plan

    document, played = cov.choice(game_name)
    if engine == "ray":  # the workers read the files at the paths the driver gives, on any node
        specs_dir, proofs_dir = specs_dir.resolve(), proofs_dir.resolve()
    checkers = tuple(c for c in CHECKERS if searched or c != "searched")
    budget = _verify_budget(None, None, None, False)
    tasks, _specs = plan(
        specs_dir,
        proofs_dir,
        specs_dir / "clarifications",
        budget,
        checkers,
        None,
        DEFAULT_TIMEOUT_MS,
        games=None if game_name is None else played,
    )
    started = time.perf_counter()
    with cov.collecting() as collected:
        rows = _run_plan("bgrules coverage", tasks, jobs, quiet=True, as_json=as_json, engine=engine, address=address)
    row = cov.verify_row(
        collected,
        [r for r in rows if r["kind"] == "proof"],
        specs_dir=specs_dir,
        proofs_dir=proofs_dir,
        complete=False,
        seconds=time.perf_counter() - started,
        game=document,
    )
    result: dict[str, Any] = row["coverage"]
    result["checks"] = len(rows)
    result["unexpected"] = [f"{r['id']} [{r['checker']}]" for r in rows if not r["ok"]]
    if result["unexpected"]:
        err_console.print(
            f"[yellow]note:[/] {len(result['unexpected'])} check(s) gave an unexpected verdict "
            f"(bgrules verify fails on them): {', '.join(result['unexpected'])}",
            highlight=False,
        )
    return result


# --- games ----------------------------------------------------------------------------------------


# --- adequacy ----------------------------------------------------------------------------------------


def _adequacy_table(result: dict[str, Any]) -> Table:
    from rich.markup import escape

    table = Table(title=f"bgrules adequacy: {result['game'] or 'both games'}")
    for col in ("rule", "mutants", "caught", "survivors", "caught by"):
        table.add_column(col, overflow="fold")
    for r in result["rules"]:
        survivors = len(r["survivors"])
        style = "green" if not survivors else ("bold red" if not r["caught"] else "yellow")
        top = ", ".join(f"{check} ({n})" for check, n in list(r["by"].items())[:3])
        more = len(r["by"]) - 3
        by = escape(top + (f" +{more} more" if more > 0 else ""))
        table.add_row(f"[{style}]{r['id']}[/]", str(r["mutants"]), str(r["caught"]), str(survivors), by)
    return table


@main.command()
@click.option("--game", "game_name", default=None, help=_GAME_HELP + " [default: both games]")
@click.option("--rule", "rules", multiple=True, metavar="ID", help="only the mutants of this rule ID (repeatable)")
@click.option("--mutant", "mutants", multiple=True, metavar="ID", help="only this mutant, by its id (repeatable)")
@click.option(
    "--max-mutants",
    type=int,
    default=None,
    help="try at most N mutants, spread evenly over the rules [default: every mutant]",
)
@click.option(
    "--seconds",
    type=float,
    default=120.0,
    show_default=True,
    help="wall budget of one mutant's checks: a mutant over it counts as caught",
)
@_jobs_option
@click.option(
    "--engine",
    type=click.Choice(("local", "ray")),
    default="local",
    show_default=True,
    help="where the mutants run: local worker processes (--jobs) or Ray tasks (--address)",
)
@click.option(
    "--address",
    default=None,
    metavar="ADDR",
    help="--engine ray: the Ray cluster's address (host:port, ray://host:port or auto) [default: start a local Ray]",
)
@click.option(
    "--equivalent",
    "equivalent_path",
    type=click.Path(path_type=Path),
    default=None,
    help="the reviewed equivalent mutants [default: adequacy-equivalent.toml of the specs directory]",
)
@click.option("--specs", "specs_dir", type=click.Path(path_type=Path), default=None, help=_DIR_HELP["specs"])
@click.option("--proofs", "proofs_dir", type=click.Path(path_type=Path), default=None, help=_DIR_HELP["proofs"])
@click.option(
    "--clarifications",
    "clarifications_dir",
    type=click.Path(path_type=Path),
    default=None,
    help=_DIR_HELP["clarifications"],
)
@click.option(
    "--checker",
    "checkers",
    multiple=True,
    type=click.Choice(["sampled", "searched", "explored", "proved", "clarified"]),
    help="only the checks of this verify checker (repeatable) [default: every checker]",
)
@_timeout_option
@click.option("--json", "as_json", is_flag=True, help="print the report as JSON (docs/adequacy.md)")
@_guard
def adequacy(
    game_name: str | None,
    rules: tuple[str, ...],
    mutants: tuple[str, ...],
    max_mutants: int | None,
    seconds: float,
    jobs: int | None,
    engine: str,
    address: str | None,
    equivalent_path: Path | None,
    specs_dir: Path | None,
    proofs_dir: Path | None,
    clarifications_dir: Path | None,
    checkers: tuple[str, ...],
    timeout_ms: int,
    as_json: bool,
) -> None:
    """How many plausible rule bugs verify's checks catch: small edits (mutants) of the rule code, each
    checked, in a copy of the package, by the checks whose run reaches its rule; exit 0 when the run
    completed, whatever the score (docs/adequacy.md)."""
    from bgrules.core.adequacy import run_adequacy
    from bgrules.core.jobs import check_jobs

    _check_engine(engine, jobs, address)
    if engine == "ray":
        from bgrules.integrations import ray_engine

        ray_engine.connect(address)  # a missing extra or an unreachable address: one line, before anything runs
    with Progress(*_BAR, console=err_console, transient=True, disable=not err_console.is_terminal) as progress:
        bar = progress.add_task("bgrules adequacy", total=None)

        def show(label: str, done: int, total: int) -> None:
            progress.update(bar, description=f"bgrules adequacy: {label}", completed=done, total=total)
            if not err_console.is_terminal and done > 0 and label != "done":  # a CI log: a line per mutant
                click.echo(f"[{done - 1}/{total - 1}] {label}", err=True)  # the baseline was step 0

        def warn(line: str) -> None:
            from rich.markup import escape

            progress.console.print(f"[yellow]warning:[/] {escape(line)}", highlight=False, soft_wrap=True)

        result = run_adequacy(
            game_name,
            rules=rules,
            mutants=mutants,
            max_mutants=max_mutants,
            seconds=seconds,
            jobs=check_jobs(jobs) if engine == "local" else 1,
            engine=engine,
            address=address,
            equivalent=equivalent_path,
            specs_dir=specs_dir,
            proofs_dir=proofs_dir,
            clarifications_dir=clarifications_dir,
            timeout_ms=timeout_ms,
            checkers=checkers,
            progress=show,
            warn=warn,
        )
    if as_json:
        click.echo(json.dumps(result, indent=2))
        return
    console.print(_adequacy_table(result))
    for r in result["rules"]:
        for s in r["survivors"]:
            click.echo(f"\nsurvivor {s['id']} ({r['id']}):\n{s['diff'].rstrip()}")
    share = 100.0 * result["caught"] / result["mutants"]
    click.echo(
        f"\nbgrules adequacy: {result['caught']} of {result['mutants']} mutants caught ({share:.1f}%), "
        f"{result['equivalent']} equivalent not counted; {result['selection']}; {result['checks']} checks; "
        f"{result['seconds']:.1f} s"
    )


@main.command()
@click.option("--json", "as_json", is_flag=True, help="print a JSON list of games")
@_guard
def games(as_json: bool) -> None:
    """Every game: its player counts, the options of load_game (default, meaning) and the rulings of its
    variant files (choices, default)."""
    from bgrules.core.catalog import describe_all

    described, problems = describe_all()
    for line in problems:  # a plug-in game that does not load: one line each, on stderr; the others list
        click.echo(f"bgrules games: {line}", err=True)
    if as_json:
        click.echo(json.dumps(described, indent=2, ensure_ascii=False))
        return
    for g in described:
        lo, hi = g["min_players"], g["max_players"]
        click.echo(f"{g['name']}: {lo if lo == hi else f'{lo}-{hi}'} player(s), {g['default_players']} by default")
        for o in g["options"]:
            click.echo(f"  option {o['name']} = {json.dumps(o['default'])}: {o['meaning']}")
        for r in g["rulings"]:
            choices = r["choices"] if isinstance(r["choices"], str) else " | ".join(json.dumps(c) for c in r["choices"])
            click.echo(f"  ruling {r['name']} = {json.dumps(r['default'])} ({choices}): {r['meaning']}")


@main.command()
@click.option("--game", "game_name", default=None, help=_GAME_HELP + " [default: the --from state file's]")
@click.option("--players", type=int, default=None, help="[default: the game's, or the --from state file's]")
@click.option("--option", "-o", "options", multiple=True, help="game option key=value")
@click.option("--variant", type=click.Path(path_type=Path), default=None, help="a variant TOML file")
@click.option("--depth", type=int, default=None, help="plies from the start to explore [default: no limit]")
@click.option("--max-states", type=int, default=None, help="the distinct states to keep at most [default: no limit]")
@click.option("--seconds", type=float, default=None, help="wall time to explore for [default: no limit]")
@click.option(
    "--from",
    "from_path",
    type=click.Path(path_type=Path),
    default=None,
    help="start from this state (a file of replay --state-out, or a bare bgrules.dumps state with --game)",
)
@click.option(
    "--symmetry/--no-symmetry",
    default=None,
    help="count states up to the game's declared symmetries (--symmetry: required) [default: when declared]",
)
@click.option("--json", "as_json", is_flag=True, help="print the counts as JSON")
@_guard
def explore(
    game_name: str | None,
    players: int | None,
    options: tuple[str, ...],
    variant: Path | None,
    depth: int | None,
    max_states: int | None,
    seconds: float | None,
    from_path: Path | None,
    symmetry: bool | None,
    as_json: bool,
) -> None:
    """Every state reachable from the initial state (or --from STATE.json), breadth-first, each chance
    node expanded with every outcome: the distinct states first reached at each depth, and whether the
    exploration is complete (nothing was left unexplored)."""
    from bgrules.core.explore import explore as run_explore
    from bgrules.core.explore import has_symmetry

    for flag, value in (("--depth", depth), ("--max-states", max_states), ("--seconds", seconds)):
        if value is not None and not value > 0:
            raise InputError(flag, f"must be more than 0, not {value:g}")
    start = None
    if from_path is not None:
        from bgrules.core.codec import read_text

        game_name, game, start = read_state(
            from_path, read_text(from_path), game_name, players, variant, _parse_options(options)
        )
    elif game_name is None:
        raise InputError("--game", "name the game to explore (or give --from STATE.json)")
    else:
        from bgrules.core.registry import load_game

        game = load_game(
            game_name, players=players, variant=str(variant) if variant else None, **_parse_options(options)
        )
    if symmetry and not has_symmetry(game):
        raise InputError("--symmetry", f"{game_name} declares no symmetries (no canonical): use --no-symmetry")
    found = run_explore(
        game, depth=depth, symmetry=symmetry is not False, max_states=max_states, seconds=seconds, start=start
    )
    if as_json:
        out = {
            "game": game_name,
            "players": game.players,
            "symmetric": found.symmetric,
            "distinct": found.distinct,
            "complete": found.complete,
            "stopped": found.stopped,
            "levels": [{"depth": level.depth, "distinct": level.distinct} for level in found.levels],
        }
        click.echo(json.dumps(out, indent=2))
        return
    up_to = " up to its symmetries" if found.symmetric else ""
    click.echo(f"{game_name}, {game.players} player(s){up_to}, from {from_path or 'the initial state'}:")
    click.echo("depth  distinct")
    for level in found.levels:
        click.echo(f"{level.depth:>5}  {level.distinct}")
    stop = {"depth": "--depth", "max_states": "--max-states", "seconds": "--seconds"}
    how = "complete" if found.complete else f"incomplete (stopped by {stop[found.stopped or 'depth']})"
    click.echo(f"{found.distinct} distinct state(s), {how}")


# --- factories: check / render ---------------------------------------------------------------------


def _load_factory(path: Path, variant: Path | None) -> tuple[Any, Any]:
    from bgrules.mechanica.notation import parse_factory
    from bgrules.mechanica.variant import load_variant

    v = load_variant(str(variant) if variant else None)
    from bgrules.core.codec import read_text

    return parse_factory(read_text(path), v, source=str(path)), v


STATE_FORMAT = "bgrules-state"
"""The ``format`` of a state file the CLI writes (``replay --state-out``): the state with its game."""
STATE_KEYS = ("format", "version", "game", "players", "options", "variant", "state")


def state_file(name: str, game: Any, state: Any, options: dict[str, Any], variant: Any) -> dict[str, Any]:
    """A state file's contents: ``{"format": "bgrules-state", "version": 1, "game", "players", "options",
    "variant", "state"}``; ``state`` is the ``bgrules.dumps`` data, ``variant`` the variant's data (a table)
    or null, so the file stands alone (docs/html.md)."""
    from bgrules.core.codec import read_toml, unstructure

    data = read_toml(variant) if isinstance(variant, str | Path) else variant
    return {
        "format": STATE_FORMAT,
        "version": 1,
        "game": name,
        "players": game.players,
        "options": dict(options),
        "variant": data,
        "state": unstructure(state),
    }


def _reads_as(data: Any, exclude: str | None) -> list[str]:
    """The games whose state type ``data`` has the shape of (besides ``exclude``)."""
    from bgrules.core.codec import structure
    from bgrules.core.registry import game_names, load_game

    out = []
    for other in game_names():
        if other == exclude:
            continue
        try:
            structure(data, load_game(other).state_type(), other)
        except InputError:
            continue
        out.append(other)
    return out


def read_state(
    path: Path,
    text: str,
    game_name: str | None,
    players: int | None,
    variant: Path | None,
    options: dict[str, Any],
) -> tuple[str, Any, Any]:
    """(game name, game, state) of a state file: a ``bgrules-state`` file (which names its game, players,
    options and variant) or a bare ``bgrules.dumps`` state with ``--game`` (``--players`` found from the
    state when not given). A state of another game, or a malformed one, is one InputError."""
    from bgrules.core.codec import parse_json, structure
    from bgrules.core.descriptor import descriptor
    from bgrules.core.registry import load_game

    where = f"state file {path}"
    if not text.strip():
        raise InputError(where, "the file is empty")
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        if not text[exc.pos :].strip():  # the error is at the end of the text: it stops short
            raise InputError(
                where, f"the JSON stops short at line {exc.lineno} column {exc.colno} (a truncated file?)"
            ) from None
    except (RecursionError, ValueError):
        pass  # parse_json names these
    data = parse_json(text, f"{where} ")
    named_by_file = False
    chosen_variant: Any = str(variant) if variant else None
    if isinstance(data, dict) and data.get("format") == STATE_FORMAT:
        unknown = sorted(set(data) - set(STATE_KEYS))
        if unknown:
            raise InputError(where, f"unknown key(s) {', '.join(unknown)}; a state file has {', '.join(STATE_KEYS)}")
        if data.get("version") != 1 or "state" not in data:
            raise InputError(where, f"not a {STATE_FORMAT} file of version 1 with a state")
        named = data.get("game")
        if not isinstance(named, str):
            raise InputError(f"{where} game", "a game name")
        if game_name and game_name != named:
            raise InputError("--game", f"{path} is a state of {named!r}, not {game_name!r}")
        for key in ("options", "variant"):
            if data.get(key) is not None and not isinstance(data[key], dict):
                raise InputError(f"{where} {key}", "a table (JSON object)")
        game_name = named
        named_by_file = True
        players = players or data.get("players")
        options = {**(data.get("options") or {}), **options}
        chosen_variant = chosen_variant or data.get("variant")
        data = data["state"]
    elif game_name is None:
        seen = _reads_as(data, None)
        hint = f" (it reads as a state of {' or '.join(seen)})" if seen else ""
        raise InputError("--game", f"{path} is a bare state that names no game: give --game{hint}")
    game = load_game(game_name, players=players, variant=chosen_variant, **options)
    try:
        state = structure(data, game.state_type(), f"{game_name} state")
    except InputError as exc:
        others = _reads_as(data, game_name)
        if others:
            said = "the file says" if named_by_file else "--game"
            raise InputError(where, f"a state of {' or '.join(others)}, not of {game_name} ({said})") from None
        raise InputError(where, str(exc)) from None
    from bgrules.core.codec import problems_error

    # the player count: the one given (or the file's), else the default or, for a bare state of another
    # count, the count under which the state breaks its game's shape least (none: the state is read)
    counts = (
        [game.players]
        if players is not None
        else [game.players, *range(descriptor(game_name).players[0], descriptor(game_name).players[1] + 1)]
    )
    best: tuple[int, Any, list[str]] | None = None
    for n in dict.fromkeys(counts):
        candidate = game if n == game.players else load_game(game_name, players=n, variant=chosen_variant, **options)
        problems = candidate.validate(state) if hasattr(candidate, "validate") else []
        if not problems:
            return game_name, candidate, state
        if best is None or len(problems) < len(best[2]):
            best = (n, candidate, problems)
    assert best is not None
    n, candidate, problems = best
    read = f" (read as a state of {n} player(s))" if len(set(counts)) > 1 else ""
    raise InputError(where, str(problems_error(f"{game_name} state", problems)) + read)


@main.command()
@click.argument("factory_file", metavar="STATE.json|FACTORY.txt", type=click.Path(path_type=Path))
@click.option("--variant", type=click.Path(path_type=Path), default=None, help="[default: the state file's]")
@click.option("--svg", "svg_path", type=click.Path(path_type=Path), default=None, help="write the SVG picture here")
@click.option(
    "--png", "png_path", type=click.Path(path_type=Path), default=None, help="write a PNG here (extra bgrules[png])"
)
@click.option("--game", "game_name", default=None, help=_GAME_HELP + " (for a bare bgrules.dumps state)")
@click.option("--players", type=int, default=None, help="[default: the state file's, else the count the state fits]")
@click.option("--option", "-o", "options", multiple=True, help="game option key=value [default: the state file's]")
@_guard
def render(
    factory_file: Path,
    variant: Path | None,
    svg_path: Path | None,
    png_path: Path | None,
    game_name: str | None,
    players: int | None,
    options: tuple[str, ...],
) -> None:
    """Draw a factory written in the text notation, or a state (a file of replay --state-out, or a bare
    bgrules.dumps state with --game): as text on the terminal, or with --svg / --png as a picture."""
    from bgrules.core.codec import read_text

    if png_path is not None:
        from bgrules.core.errors import require_extra

        require_extra("cairosvg", "png", "--png")
    text = read_text(factory_file)
    if factory_file.suffix.lower() == ".json" or text.lstrip().startswith(("{", "[")):
        name, game, state = read_state(factory_file, text, game_name, players, variant, _parse_options(options))
        if svg_path is None and png_path is None:
            from bgrules.core.trace import picture

            art = picture(game, state)
            if art is None:
                raise InputError("--svg", f"a {name} state has no text picture: draw it with --svg OUT.svg")
            click.echo(art, nl=not art.endswith("\n"))
            return
        from bgrules.pictures import draw

        svg = draw(game, state)
    else:
        if game_name is not None and game_name not in ("mechanica", "mechanica-factory"):
            raise InputError(
                "--game", f"{factory_file} is a Mechanica factory in the text notation, not a {game_name} state"
            )
        from bgrules.mechanica.notation import parse_factory
        from bgrules.mechanica.variant import load_variant

        v = load_variant(str(variant) if variant else None)
        factory = parse_factory(text, v, source=str(factory_file))
        if svg_path is None and png_path is None:
            from bgrules.mechanica.render import render_factory

            click.echo(render_factory(factory, v), nl=False)
            return
        from bgrules.pictures import draw_factory

        svg = draw_factory(factory, v)
    if svg_path is not None:
        svg_path.write_text(svg, encoding="utf-8")
        click.echo(f"wrote {svg_path}")
    if png_path is not None:
        from bgrules.pictures import to_png

        png_path.write_bytes(to_png(svg))
        click.echo(f"wrote {png_path}")


@main.command()
@click.argument("factory_file", type=click.Path(path_type=Path))
@click.option("--variant", type=click.Path(path_type=Path), default=None)
@click.option("--json", "as_json", is_flag=True)
@click.option(
    "--trace",
    "trace_path",
    type=click.Path(path_type=Path),
    default=None,
    help="write a collision's witness as a trace of the mechanica-factory game (one workday) for bgrules replay",
)
@click.option(
    "--html",
    "html_path",
    type=click.Path(path_type=Path),
    default=None,
    help="write a page that steps through a collision's witness, decision by decision",
)
@_guard
def check(
    factory_file: Path, variant: Path | None, as_json: bool, trace_path: Path | None, html_path: Path | None
) -> None:
    """Check a Mechanica factory: is it legal, can a bot loop, can two bots collide in its next workday?"""
    from bgrules.mechanica.movement import find_loop

    factory, v = _load_factory(factory_file, variant)
    loop = find_loop(factory, v)
    result: dict[str, Any] = {"factory": str(factory_file), "legal": True, "loop": loop}
    try:
        from bgrules.mechanica import smt

        start = time.perf_counter()
        answer = smt.collision_query(factory, v)
        result["collision"] = answer.to_json()
        result["collision"]["seconds"] = round(time.perf_counter() - start, 4)
    except ImportError:
        result["collision"] = None
        answer = None
    if trace_path is not None or html_path is not None:
        _check_files(factory_file, variant, answer, trace_path, html_path)
    if as_json:
        click.echo(json.dumps(result, indent=2, default=str))
        return
    console.print(f"{factory_file}: legal factory", highlight=False)
    console.print(f"loop: {loop or 'none (every path reaches a hole, a truck, or destruction)'}", highlight=False)
    answer = result["collision"]
    if answer is not None:
        verdict = {"holds": "no", "violated": "yes", "unknown": "unknown (solver gave up)"}[answer["verdict"]]
        console.print(
            f"can two bots collide in the next workday? {verdict} (z3, every Fork and Flight choice; "
            f"{answer['seconds'] * 1000:.1f} ms)",
            highlight=False,
        )
        console.print(f"  {answer['detail']}", highlight=False)
        if answer.get("witness"):
            console.print(f"  witness: {json.dumps(answer['witness'], default=str)}", highlight=False)


def _check_files(
    factory_file: Path, variant: Path | None, answer: Any, trace_path: Path | None, html_path: Path | None
) -> None:
    """A collision's witness as a trace of ``mechanica-factory`` (the factory's notation as the ``factory``
    option, one day): the witness's Fork and Flight decisions in order, every other decision of the run
    (collisions, activations) its first legal one, as ``smt.replay`` runs it; then the page."""
    from bgrules.core import html
    from bgrules.core.codec import read_text
    from bgrules.core.registry import load_game
    from bgrules.core.trace import explain, make_trace
    from bgrules.mechanica.workday import RunPhase

    if answer is None or answer.witness is None:
        click.echo("no collision: no trace or page written", err=True)
        return
    options: dict[str, Any] = {"factory": read_text(factory_file), "days": 1}
    chosen = str(variant) if variant else None
    game = load_game("mechanica-factory", variant=chosen, **options)
    pending = list(answer.witness.decisions)
    state: Any = game.initial_state()
    actions: list[Any] = []
    while state.run is not None and not game.is_terminal(state):
        if state.run.phase is RunPhase.MOVE:
            if not pending:
                raise InputError(str(factory_file), "the run asks a decision the collision's witness lacks")
            action = pending.pop(0)
        else:
            action = game.legal_actions(state)[0]
        actions.append(action)
        state = game.apply(state, action)
    spec = f"check {factory_file}: {answer.detail}"
    steps = explain(game, actions)
    if trace_path is not None:
        data = make_trace(
            "mechanica-factory", game, actions, options=options, variant=chosen, spec=spec, checker="z3", steps=steps
        )
        trace_path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        click.echo(f"wrote {trace_path}", err=True)
    if html_path is not None:
        one = html.track("mechanica-factory", game, actions, steps)
        meta = [
            ("factory", str(factory_file)),
            ("collision", answer.detail),
            ("decisions", ", ".join(repr(d) for d in answer.witness.decisions) or "none (the run collides whatever)"),
            ("variant", chosen or "the seeds' reading (default)"),
        ]
        html_path.write_text(html.tracks_page(f"collision in {factory_file}", [one], meta), encoding="utf-8")
        click.echo(f"wrote {html_path}", err=True)


# --- replay ----------------------------------------------------------------------------------------


@main.command()
@click.argument("actions_file", type=click.Path(path_type=Path))
@click.option("--game", "game_name", default=None, help=_GAME_HELP + " [default: the one the trace file names]")
@click.option("--players", type=int, default=None, help="[default: the trace file's, else the game's]")
@click.option("--variant", type=click.Path(path_type=Path), default=None, help="[default: the trace file's]")
@click.option("--option", "-o", "options", multiple=True, help="game option key=value [default: the trace file's]")
@click.option(
    "--step",
    is_flag=True,
    help="print each state in turn: the action, the rules it applied, the trace's invariant and what it read, "
    "a picture",
)
@click.option(
    "--specs",
    "specs_dir",
    type=click.Path(path_type=Path),
    default=None,
    help="--step: where the trace's spec is, to show its invariant [default: the specs verify finds]",
)
@click.option(
    "--html",
    "html_path",
    type=click.Path(path_type=Path),
    default=None,
    help="write one self-contained page that steps through the trace (pictures, actions, rules, changes)",
)
@click.option(
    "--state-out",
    type=click.Path(path_type=Path),
    default=None,
    help="write the final state to this file with its game, players, options and variant (bgrules render reads it)",
)
@_guard
def replay(
    actions_file: Path,
    game_name: str | None,
    players: int | None,
    variant: Path | None,
    options: tuple[str, ...],
    step: bool,
    specs_dir: Path | None,
    html_path: Path | None,
    state_out: Path | None,
) -> None:
    """Replay a trace (the files verify --trace-dir writes) or a JSON list of actions ({"type": ..., fields})
    and print the final state as JSON; with --step, every state in turn, with the trace's invariant (its
    spec's value and the counters its predicate reads) at each; with --html, write a page that steps
    through it instead (docs/html.md)."""
    from bgrules.core.codec import dumps
    from bgrules.core.registry import load_game
    from bgrules.core.trace import explain, parse_actions, picture, read_trace

    name, trace = read_trace(actions_file, game_name)
    if name is None:
        raise InputError("--game", f"{actions_file} is a list of actions: name its game (--game)")
    chosen_options = {**(trace.get("options") or {}), **_parse_options(options)}
    chosen_variant: Any = str(variant) if variant else trace.get("variant")
    if html_path is not None:
        from bgrules.core import html

        text, one = html.trace_html(
            trace,
            str(actions_file),
            game_name=name,
            players=players,
            variant=str(variant) if variant else None,
            options=_parse_options(options),
        )
        html_path.write_text(text, encoding="utf-8")
        click.echo(f"wrote {html_path}: {len(one.entries)} state(s) of {name}", err=True)
        last = html.refused(one)
        if last is not None:
            click.echo(f"the last action was refused ({last.refused}: {last.invariant}); the page shows it", err=True)
        if not step and state_out is None:
            return
    game = load_game(name, players=players or trace.get("players"), variant=chosen_variant, **chosen_options)
    actions = parse_actions(game, trace["actions"], str(actions_file))
    state = game.initial_state()
    if step:
        invariant = _trace_invariant(trace, specs_dir)
        kind, predicate = (invariant[1], invariant[2]) if invariant is not None else ("state", None)
        steps = explain(game, actions, kind, predicate)

        def show(s: Any) -> None:
            art = picture(game, s)
            click.echo(art if art is not None else dumps(s))

        click.echo(f"0. initial state ({name}, {game.players} player(s))")
        if invariant is not None and kind == "state":
            from bgrules.core.trace import initial_observed, initial_value

            _echo_invariant(invariant[0], initial_value(game, kind, predicate), initial_observed(game, kind, predicate))
        show(state)
    for i, action in enumerate(actions):
        before = state
        try:
            state = game.apply(state, action)
        except IllegalAction as exc:
            raise IllegalAction(exc.rule_id, f"action {i} {action!r}: {exc.why}") from None
        if step:
            from bgrules.pictures.narrate import describe

            rules = ", ".join(steps[i]["rules"]) or "no rule effect"
            click.echo(f"\n{i + 1}. {action!r}  [{rules}]")
            click.echo(f"   {describe(game, before, action, state)}")
            if invariant is not None and kind in ("state", "transition"):
                _echo_invariant(invariant[0], steps[i]["invariant"], steps[i].get("observed"))
            show(state)
    if state_out is not None:
        data = state_file(name, game, state, chosen_options, chosen_variant)
        state_out.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    if not step and html_path is None:
        click.echo(dumps(state))


def _trace_invariant(
    trace: dict[str, Any], specs_dir: Path | None
) -> tuple[str, str, Callable[..., str | None]] | None:
    """The trace's spec (its id, kind and predicate) from ``specs_dir`` (default: the specs verify finds),
    or None with a note on stderr when the trace names none or it is not there (a bare list of actions,
    a spec since renamed)."""
    from bgrules.core.defaults import default_dir
    from bgrules.core.specs import find_spec, load_specs, resolve_predicate

    spec_id = trace.get("spec")
    if not isinstance(spec_id, str) or not spec_id:
        return None
    where = specs_dir or default_dir("specs")
    try:
        one = find_spec(load_specs(where), spec_id)  # a spec's id, or an old per-count id (BF-INV-LIMITS-3P)
        found = [] if one is None else [one]
    except InputError as exc:
        if specs_dir is not None:
            raise
        found, why = [], f"({exc})"
    else:
        why = ""
    if not found:
        click.echo(f"note: the trace's spec {spec_id} is not in {where} {why}: its invariant is not shown", err=True)
        return None
    spec = found[0]
    if spec.kind == "game":
        click.echo(f"note: {spec_id} is checked on the whole game, not after each step", err=True)
    return spec.id, spec.kind, resolve_predicate(spec.predicate, spec.source)


def _echo_invariant(spec_id: str, value: str | None, reads: dict[str, Any] | None) -> None:
    from bgrules.core.observe import shown

    click.echo(f"   invariant {spec_id}: " + ("holds" if value is None else f"fails: {value}"))
    if reads:
        click.echo(f"   it reads: {shown(reads)}")


if __name__ == "__main__":
    main()
