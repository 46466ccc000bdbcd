"""The commands that play or search a game: ``simulate``, ``balance``, ``diff``, ``explore`` and ``games``
(what they compute is :mod:`bgrules.runners`' and :mod:`bgrules.core`'s; here the options are parsed and
the results printed)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click
from rich.progress import Progress
from rich.table import Table

from bgrules.cli.base import _BAR, _DIR_HELP, _GAME_HELP, _fail, _guard, _parse_options, console, err_console, main
from bgrules.cli.campaign import engine_options
from bgrules.core.catalog import describe_all
from bgrules.core.errors import InputError, MissingExtra
from bgrules.core.figures import describe
from bgrules.runners import campaign_cli
from bgrules.runners.balance import check_plot_path
from bgrules.runners.commands import balance as rb
from bgrules.runners.commands import diff as rd
from bgrules.runners.commands import explore as rx
from bgrules.runners.commands import simulate as rs
from bgrules.runners.commands.games import lines
from bgrules.runners.diff import find_difference
from bgrules.runners.diff_report import render, to_json


def _note_departures(found: list[dict[str, Any]]) -> None:
    console.print(describe(found), highlight=False, soft_wrap=True)


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

    departed = rd.departures(game_name, variants, players, _parse_options(options))
    if as_json:
        click.echo(json.dumps({**to_json(result), "seed_departures": departed}, indent=2, default=str))
    else:
        click.echo(render(result))
        for label, found in departed.items():
            click.echo(f"{label}: {describe(found)}")
    if trace_dir is not None or html_path is not None:
        rd.write_files(result, game_name, variants, players, _parse_options(options), trace_dir, html_path, _say)


def _say(line: str) -> None:
    click.echo(line, err=True)


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

    if n_games < 1:
        raise InputError("--games", "play at least one game")
    if check and specs_dir is None:
        specs_dir = rs.own_specs(game_name)
    if campaign_cli.wanted(engine, jobs, address, results, resume):  # the games as a campaign (docs/campaigns.md)
        result = campaign_cli.simulate(
            game=game_name, players=players, games=n_games, seed=seed, variant=variant, options=_parse_options(options),
            check=check, max_rounds=max_rounds, agents=agents_spec, specs_dir=specs_dir, engine=engine, jobs=jobs,
            address=address, results=results, resume=resume,
        )  # fmt: skip
    else:

        @contextmanager
        def progress() -> Iterator[Callable[[], None]]:
            with Progress(*_BAR, console=err_console, transient=True, disable=as_json) as bar:
                task = bar.add_task(f"{game_name}", total=n_games)
                yield lambda: bar.advance(task)

        result = rs.simulate(
            game_name=game_name, players=players, n_games=n_games, seed=seed, variant=variant,
            options=_parse_options(options), check=check, max_rounds=max_rounds, agents_spec=agents_spec,
            specs_dir=specs_dir, used=None if as_json else _say, progress=progress,
        )  # fmt: skip
    if as_json:
        click.echo(json.dumps(result, indent=2))
    else:
        table = Table(title=f"bgrules simulate: {game_name}, {n_games} games from seed {seed}", show_header=False)
        for key in rs.SHOWN:
            table.add_row(key, str(result[key]))
        console.print(table)
        console.print(rs.checked_line(result), highlight=False, soft_wrap=True)
        for v in result["violations"]:
            console.print(f"[red]{v['id']}[/] seed {v['seed']} step {v['step']}: {v['detail']}", highlight=False)
        if variant is not None:
            _note_departures(result.get("seed_departures", []))
    if result["invariant_violations"]:
        sys.exit(1)


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

    if n_games < 1:
        raise InputError("--games", f"a whole number of games, at least 1, not {n_games}")
    if plot_path is not None:
        try:
            check_plot_path(plot_path)
        except MissingExtra as exc:
            _fail(str(exc))  # the extra's name, bgrules[plot], is printed as text by _fail
    if campaign_cli.wanted(engine, jobs, address, results, resume):  # the games as a campaign (docs/campaigns.md)
        if plot_path is not None:
            raise InputError("--plot", "draws each game's scores: run it without --engine/--jobs/--results/--resume")
        result = campaign_cli.balance(
            game=game_name, players=players, agents=agents_spec, games=n_games, seed=seed, variant=variant,
            options=_parse_options(options), max_rounds=max_rounds, engine=engine, jobs=jobs, address=address,
            results=results, resume=resume,
        )  # fmt: skip
    else:
        with Progress(console=err_console, transient=True, disable=as_json) as progress:
            task = progress.add_task(f"{game_name}", total=n_games)
            result = rb.balance(
                game_name=game_name, players=players, agents_spec=agents_spec, n_games=n_games, seed=seed,
                variant=variant, options=_parse_options(options), max_rounds=max_rounds, plot_path=plot_path,
                on_game=lambda _r: progress.advance(task),
            )  # fmt: skip
    if as_json:
        click.echo(json.dumps(result, indent=2))
        return
    table = Table(title=f"bgrules balance: {game_name}, {result['players']} players, {n_games} games from seed {seed}")
    for column in rb.COLUMNS:
        table.add_column(column, justify="left" if column == "agent" else "right")
    for row in rb.seat_rows(result):
        table.add_row(*row)
    console.print(table)
    for line in rb.lines(result, n_games):
        console.print(line, highlight=False)
    if variant is not None:
        _note_departures(result["seed_departures"])
    if plot_path is not None:
        console.print(f"plot: {plot_path}", highlight=False)


@main.command()
@click.option("--json", "as_json", is_flag=True, help="print a JSON list of games")
@_guard
def games(as_json: bool) -> None:
    """Every game: its player counts, the options of load_game (default, meaning) and the rulings of its
    variant files (choices, default)."""

    described, problems = describe_all()
    for line in problems:  # a plug-in game that does not load: one line each, on stderr; the others list
        click.echo(f"bgrules games: {line}", err=True)
    if as_json:
        click.echo(json.dumps(described, indent=2, ensure_ascii=False))
        return
    for line in lines(described):
        click.echo(line)


EXPLORE_MAX_STATES = 500_000
"""`bgrules explore`'s default bound on the states kept: a run that reaches it stops and is reported
incomplete (stopped by max_states) instead of filling the machine's memory; `--max-states` sets another."""


@main.command()
@click.option("--game", "game_name", default=None, help=_GAME_HELP + " [default: the --from state file's]")
@click.option("--players", type=int, default=None, help="[default: the game's, or the --from state file's]")
@click.option("--option", "-o", "options", multiple=True, help="game option key=value")
@click.option("--variant", type=click.Path(path_type=Path), default=None, help="a variant TOML file")
@click.option("--depth", type=int, default=None, help="plies from the start to explore [default: no limit]")
@click.option(
    "--max-states",
    type=int,
    default=EXPLORE_MAX_STATES,
    show_default=True,
    help="the distinct states to keep at most (the memory bound: about 1-5 KB a state)",
)
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

    name, game, found = rx.explore(
        game_name=game_name, players=players, options=_parse_options(options), variant=variant, depth=depth,
        max_states=max_states, seconds=seconds, from_path=from_path, symmetry=symmetry,
    )  # fmt: skip
    if as_json:
        click.echo(json.dumps(rx.as_json(name, game, found), indent=2))
        return
    for line in rx.lines(name, game, found, from_path):
        click.echo(line)
