"""The commands that run checks: ``verify``, ``prove``, ``clarify``, ``coverage`` and ``adequacy`` (what they
compute is :mod:`bgrules.runners`' and :mod:`bgrules.core`'s; here the options are parsed and the results
printed)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import click
from rich.progress import Progress
from rich.table import Table

from bgrules.cli import base
from bgrules.cli.base import (
    _BAR,
    _DIR_HELP,
    _GAME_HELP,
    _fail,
    _guard,
    _jobs_option,
    _quiet_option,
    _timeout_option,
    console,
    err_console,
    main,
)
from bgrules.cli.campaign import engine_options
from bgrules.core.defaults import default_dir, source_label
from bgrules.core.errors import InputError
from bgrules.core.jobs import check_jobs
from bgrules.integrations import ray_engine
from bgrules.runners import campaign_cli
from bgrules.runners import coverage as cov
from bgrules.runners.adequacy import run_adequacy
from bgrules.runners.commands import adequacy as ra
from bgrules.runners.commands import coverage as rc
from bgrules.runners.commands import verify as rv
from bgrules.runners.report import by_spec, by_spec_lines
from bgrules.runners.verify import clarification_tasks, plan, plugins_only, proof_tasks


def _table(title: str, columns: tuple[str, ...], rows: list[tuple[str, ...]]) -> Table:
    table = Table(title=title)
    for col in columns:
        table.add_column(col, overflow="fold")
    for row in rows:
        table.add_row(*row)
    return table


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

    rv.check_only(only)
    for value, option in ((games, "--games"), (examples, "--examples"), (max_steps, "--max-steps")):
        rv.positive(value, option)
    rv.positive(timeout_ms, "--timeout")
    rv.check_engine(engine, jobs, address)
    given = {"specs": specs_dir is not None, "proofs": proofs_dir is not None}
    given["clarifications"] = clarifications_dir is not None
    specs_dir = specs_dir or default_dir("specs")
    proofs_dir = proofs_dir or default_dir("proofs")
    clarifications_dir = clarifications_dir or default_dir("clarifications")
    used = rv.dirs_used(given, specs=specs_dir, proofs=proofs_dir, clarifications=clarifications_dir)
    if engine == "ray":  # the workers read the files at the paths the driver gives, on any node
        specs_dir, proofs_dir, clarifications_dir = (d.resolve() for d in (specs_dir, proofs_dir, clarifications_dir))
    chosen = checkers or rv.ALL_CHECKERS
    started = time.perf_counter()
    budget = rv.budget(games, examples, max_steps, thorough, database=not no_database)
    labels = {"specs": source_label("specs", specs_dir, given["specs"])}
    labels["proofs"] = source_label("proofs", proofs_dir, given["proofs"])
    tasks, specs = plan(
        specs_dir, proofs_dir, clarifications_dir, budget, chosen, only, timeout_ms, thorough, labels=labels
    )
    with cov.collecting() as collected:
        values = base._run_plan(
            "bgrules verify", tasks, jobs, quiet=quiet, as_json=as_json, engine=engine, address=address
        )
    rows, proof_rows = rv.verify_rows(values, specs, chosen)
    complete = only is None and set(chosen) == set(rv.ALL_CHECKERS)
    if specs and plugins_only(specs):  # the rule coverage is of docs/rules, which no plug-in game's spec reaches
        complete = False
    covered = cov.verify_row(
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
        index = rv.write_html(
            html_dir,
            rows,
            covered,
            complete=complete,
            seconds=time.perf_counter() - started,
            specs=specs,
            chosen=chosen,
            only=only,
        )
        click.echo(f"report: {index}", err=True)
    click.echo(f"bgrules verify used {used}", err=True)
    if not quiet:
        for line in by_spec_lines(by_spec(rows, specs, chosen)):
            click.echo(line, err=as_json)
    base._emit(
        rows,
        "bgrules verify",
        as_json,
        junit_xml,
        seconds=time.perf_counter() - started,
        jobs=jobs,
        trace_dir=trace_dir,
        extra=[covered] if complete else None,
        where=rv.ray_where(address) if engine == "ray" else None,
    )


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

    rv.check_only(only)
    rv.positive(timeout_ms, "--timeout")
    started = time.perf_counter()
    tasks = proof_tasks(proofs_dir or default_dir("proofs"), timeout_ms, only, thorough)
    rows = base._run_plan("bgrules prove", tasks, jobs, quiet=quiet, as_json=as_json)
    base._emit(rows, "bgrules prove", as_json, junit_xml, seconds=time.perf_counter() - started, jobs=jobs)


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

    started = time.perf_counter()
    chosen = list(files) or [default_dir("clarifications")]
    if not files and not chosen[0].is_dir():
        raise InputError(str(chosen[0]), "no clarifications directory to check (name the files to check)")
    tasks = clarification_tasks(chosen, None, variant, game_name)
    rows = base._run_plan("bgrules clarify", tasks, jobs, quiet=quiet, as_json=as_json)
    base._emit(rows, "bgrules clarify", as_json, junit_xml, seconds=time.perf_counter() - started, jobs=jobs)


@main.command()
@click.option(
    "--game",
    "game_name",
    default=None,
    help=_GAME_HELP + "; a game's rules document covers its sandbox too [default: every game]",
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

    sampling = any(x is not None for x in (n_games, agents_spec, players, seed, results, resume))
    if n_games is not None and n_games < 1:
        raise InputError("--games", f"play at least one game, not {n_games}")
    cov.choice(game_name)  # an unknown game: one line, before anything runs
    specs_dir = specs_dir or default_dir("specs")
    proofs_dir = proofs_dir or default_dir("proofs")
    if fail_under is not None and not 0 <= fail_under <= 100:
        raise InputError("--fail-under", f"a percentage from 0 to 100, not {fail_under}")
    n_games = 20 if n_games is None else n_games
    seed = 0 if seed is None else seed
    if not sampling:  # verify's checks
        result = rc.of_verify(
            game_name,
            searched,
            specs_dir,
            proofs_dir,
            engine,
            lambda tasks: base._run_plan(
                "bgrules coverage", tasks, jobs, quiet=True, as_json=as_json, engine=engine, address=address
            ),
        )
        note = rc.unexpected_note(result)
        if note is not None:
            err_console.print(note, highlight=False)
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
    if as_json:
        click.echo(json.dumps(result, indent=2))
    else:
        title = f"bgrules coverage: {game_name or 'both games'}"
        console.print(_table(title, rc.COLUMNS, rc.table_rows(result)))
        console.print(rc.summary_line(result), highlight=False)
    if fail_under is not None:
        failed = rc.fail_under(result, fail_under)
        if failed is not None:
            _fail(failed, 1)


@main.command()
@click.option("--game", "game_name", default=None, help=_GAME_HELP + " [default: every game]")
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

    rv.check_engine(engine, jobs, address)
    if engine == "ray":
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
    console.print(_table(f"bgrules adequacy: {result['game'] or 'both games'}", ra.COLUMNS, ra.table_rows(result)))
    for line in ra.survivor_lines(result):
        click.echo(line)
    click.echo(ra.summary_line(result))
