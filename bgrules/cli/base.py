"""What every ``bgrules`` command shares: the group, the consoles, the one-line errors and exit codes, the
path and whole-number checks of the options, the common options, and running a plan of checks with its
progress and its result lines (the commands are :mod:`bgrules.cli.checks`, :mod:`bgrules.cli.play` and
:mod:`bgrules.cli.files`).

Every command exits 0 on success, 1 when a check's verdict differs from its expected one, and 2 on
bad input (with a one-line message that says where and why, never a traceback).
"""

from __future__ import annotations

import json
import sys
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

from bgrules import __version__
from bgrules.core import gcpolicy
from bgrules.core.defaults import DEFAULT_TIMEOUT_MS
from bgrules.core.descriptor import descriptors
from bgrules.core.errors import BgrulesError, IllegalAction, InputError
from bgrules.core.jobs import check_jobs, run_tasks
from bgrules.core.limits import too_large
from bgrules.integrations import ray_engine
from bgrules.runners import coverage
from bgrules.runners.campaign_cli import ENGINES
from bgrules.runners.commands import verify as rv

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
_GAME_HELP = ", ".join(d.name for d in descriptors()) + " (the installed games: bgrules games lists them)"
"""The ``--game`` help: the games the descriptors name (a plug-in game's too)."""
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
    """Every bgrules command: its path options (:data:`_PATH`) refuse an empty path, and its whole-number options
    a figure past their maximum (:mod:`bgrules.core.limits`), in one line and exit 2, before the command runs."""

    def invoke(self, ctx: click.Context) -> Any:
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

    _cwd_on_path()  # a spec's own predicate module is found the same way by bgrules and python -m bgrules

    coverage.write_on_exit()  # only with BGRULES_COVERAGE_FILE set (docs/coverage.md)
    try:
        gcpolicy.for_runners()  # this process is bgrules' own: full collections rarer (docs/speed.md)
    except InputError as exc:
        _fail(str(exc))


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
        text = rv.text(row)
        if self.out.is_terminal:
            from rich.text import Text

            style = "bold red" if not row["ok"] else ("yellow" if row["verdict"] == "violated" else "green")
            target = self.progress.console if self.progress is not None else self.out
            target.print(Text(text, style=style), soft_wrap=True, highlight=False)
        else:
            click.echo(text, err=self.out is err_console)


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

    rv.check_engine(engine, jobs, address)
    if not tasks:  # no vacuous pass: an --only that matched nothing, or empty directories
        _fail(f"{title}: {rv.NOTHING}")
    if engine == "ray":
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

    if not rows:
        _fail(f"{title}: {rv.NOTHING}")
    for row in extra or []:
        click.echo(rv.text(row), err=as_json)
    rows = rows + list(extra or [])
    if trace_dir is not None:
        rv.write_traces(rows, trace_dir)
    if junit is not None:
        rv.write_junit(rows, junit)
    bad, summary = rv.summary(rows, title, seconds, where or f"{check_jobs(jobs)} job(s)")
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        click.echo(summary, err=True)
    else:
        if bad:
            click.echo("\nunexpected verdicts:")
            for r in bad:
                click.echo("  " + rv.head(r))
        click.echo(summary)
    if bad:
        sys.exit(1)


_PATH = _PathOption(path_type=Path)
"""Every path option and argument's type."""
_ADDRESS = "--engine ray: the Ray cluster's address (host:port, ray://host:port or auto) [default: start a local Ray]"
_CHECKERS = click.Choice(["sampled", "searched", "explored", "proved", "clarified"])
_OPTIONS: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    "specs": (("--specs", "specs_dir"), {"type": _PATH, "help": _DIR_HELP["specs"]}),
    "proofs": (("--proofs", "proofs_dir"), {"type": _PATH, "help": _DIR_HELP["proofs"]}),
    "clarifications": (
        ("--clarifications", "clarifications_dir"), {"type": _PATH, "help": _DIR_HELP["clarifications"]}
    ),
    "jobs": (("--jobs", "-j"), {"type": int, "help": "checks run side by side [default: every core]; the results "
        "are the same whatever N"}),
    "timeout": (("--timeout", "timeout_ms"), {"default": DEFAULT_TIMEOUT_MS, "show_default": True, "help": "wall "
        "budget per proof obligation (ms): each solver check gets what is left; a sampled obligation stops sampling "
        "when it is spent (docs/proofs.md)"}),
    "quiet": (("--quiet", "-q"), {"is_flag": True, "help": "print only failures and the summary"}),
    "json": (("--json", "as_json"), {"is_flag": True}),
    "json-list": (("--json", "as_json"), {"is_flag": True, "help": "print a JSON list of results (progress goes to "
        "stderr)"}),
    "junit": (("--junit-xml",), {"type": _PATH}),
    "only": (("--only",), {"help": "only ids containing this text"}),
    "checker": (("--checker", "checkers"), {"multiple": True, "type": _CHECKERS}),
    "address": (("--address",), {"metavar": "ADDR", "help": _ADDRESS}),
    "game": (("--game", "game_name"), {"help": _GAME_HELP}),
    "players": (("--players",), {"type": int}),
    "option": (("--option", "-o", "options"), {"multiple": True, "help": "game option key=value"}),
    "variant": (("--variant",), {"type": _PATH}),
    "max-rounds": (("--max-rounds",), {"type": int}),
    "agents": (("--agents", "agents_spec"), {}),
    "html": (("--html", "html_path"), {"type": _PATH}),
    "trace-dir": (("--trace-dir",), {"type": _PATH}),
    # the campaigns' options (simulate, balance, coverage; docs/campaigns.md)
    "engine": (("--engine",), {"type": click.Choice(ENGINES), "default": "local", "show_default": True, "help":
        "where the games' shards run: local worker processes (--jobs) or Ray tasks (--address); the results are "
        "the same either way (docs/campaigns.md)"}),
    "shard-jobs": (("--jobs", "-j"), {"type": int, "help": "local worker processes for the shards [default: 1]; the "
        "results are the same whatever N"}),
    "results": (("--results",), {"type": _PATH, "metavar": "FILE", "help": "append each finished shard to FILE as "
        "it finishes (JSON lines; a new file)"}),
    "resume": (("--resume",), {"type": _PATH, "metavar": "FILE", "help": "continue the campaign of results file "
        "FILE: only its missing shards run, appended to it"}),
}  # fmt: skip
"""The options the commands share, by name: their flags and click's keywords (a command may give others)."""
CAMPAIGN = ("engine", "shard-jobs", "address", "results", "resume")
"""``--engine``, ``--jobs``, ``--address``, ``--results``, ``--resume``: a campaign's (docs/campaigns.md)."""

Decorator = Callable[[Callable[..., None]], Callable[..., None]]


def opt(name: str, *flags: str, **keywords: Any) -> Decorator:
    """The option ``name`` of the table (with ``keywords`` over its own), or, with ``flags``, a new one."""
    shared, own = _OPTIONS.get(name, ((), {}))
    return click.option(*(flags or shared), **{**own, **keywords})


def options(*chosen: str | Decorator) -> Decorator:
    """The options, in the order given (names of the table, or options made by :func:`opt`)."""

    def apply(fn: Callable[..., None]) -> Callable[..., None]:
        for o in reversed(chosen):
            fn = (opt(o) if isinstance(o, str) else o)(fn)
        return fn

    return apply


def engine_options(fn: Callable[..., None]) -> Callable[..., None]:
    """A campaign's options (:data:`CAMPAIGN`: parameters ``engine``, ``jobs``, ``address``, ``results``,
    ``resume``)."""
    return options(*CAMPAIGN)(fn)
