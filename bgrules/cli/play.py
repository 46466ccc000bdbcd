"""The commands that play or search a game: ``simulate``, ``balance``, ``diff``, ``explore`` and ``games``
(what they compute is :mod:`bgrules.runners`' and :mod:`bgrules.core`'s; here the options are parsed and
the results printed)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click
from rich.progress import Progress
from rich.table import Table

from bgrules.cli.base import (
    _BAR,
    _GAME_HELP,
    _PATH,
    CAMPAIGN,
    _guard,
    _parse_options,
    console,
    err_console,
    main,
    opt,
    options,
)
from bgrules.core.catalog import describe_all
from bgrules.core.errors import InputError
from bgrules.core.figures import describe
from bgrules.runners.commands import balance as rb
from bgrules.runners.commands import diff as rd
from bgrules.runners.commands import explore as rx
from bgrules.runners.commands import simulate as rs
from bgrules.runners.commands.games import lines
from bgrules.runners.diff import find_difference
from bgrules.runners.diff_report import render, to_json

_CAP = "the runner's round cap for games that count rounds"


def _say(line: str) -> None:
    click.echo(line, err=True)


@main.command()
@options(opt("game", required=True), opt("variant", "--variant", "variants", multiple=True, required=True, type=_PATH))
@options("players", "option", opt("depth", "--depth", default=60, show_default=True, help="the longest action "
    "sequence searched"))  # fmt: skip
@options(opt("nodes", "--nodes", default=20_000, show_default=True, help="the most positions searched"))
@options(opt("max-rounds", help=f"{_CAP} (default: the game's own, 40 for botfactory)"), "json")
@options(opt("trace-dir", help="write the difference's actions as two traces (A.json, B.json: one per variant) for "
    "bgrules replay"))  # fmt: skip
@options(opt("html", help="write one page that steps through the difference, variant A beside variant B"))
@_guard
def diff(**o: Any) -> None:
    """Find the shortest action sequence whose outcome differs between two rulings (two --variant files)."""

    name, variants, players, chosen = o["game_name"], o["variants"], o["players"], _parse_options(o["options"])
    if len(variants) != 2:
        raise InputError("--variant", f"give exactly two variant files, not {len(variants)}")
    with Progress(console=err_console, transient=True, disable=o["as_json"]) as progress:
        progress.add_task(f"bgrules diff {name}: up to {o['nodes']} positions, depth {o['depth']}", total=None)
        result = find_difference(name, str(variants[0]), str(variants[1]), players=players, options=chosen,
                                 max_depth=o["depth"], max_nodes=o["nodes"], max_rounds=o["max_rounds"])  # fmt: skip
    departed = rd.departures(name, variants, players, chosen)
    if o["as_json"]:
        click.echo(json.dumps({**to_json(result), "seed_departures": departed}, indent=2, default=str))
    else:
        click.echo(render(result))
        for label, found in departed.items():
            click.echo(f"{label}: {describe(found)}")
    if o["trace_dir"] is not None or o["html_path"] is not None:
        rd.write_files(result, name, variants, players, chosen, o["trace_dir"], o["html_path"], _say)


@main.command()
@options(opt("game", required=True), "players", opt("games", "--games", "n_games", default=100, show_default=True))
@options(opt("seed", "--seed", default=0, show_default=True), "variant", opt("option", help="game option key=value, "
    "e.g. -o days=4"))  # fmt: skip
@options(opt("check", "--check/--no-check", default=True, show_default=True, help="check every invariant at every "
    "step"))  # fmt: skip
@options(opt("max-rounds", help=f"{_CAP}: a game not over by then is truncated (default: the game's own, 40 for "
    f"botfactory)"))  # fmt: skip
@options(opt("agents", help="who plays: one agent name for every seat or one per seat, comma-separated (random, "
    "greedy, mcts; e.g. greedy,random or mcts:iterations=50) [default: random]"))  # fmt: skip
@options("specs", "json", *CAMPAIGN)
@_guard
def simulate(**o: Any) -> None:
    """Play legal games (random, or by ``--agents``), checking the game's invariants at every step, and
    summarise them. Games the runner cuts short (its step bound, or its round cap) count as ``truncated``:
    no one's win, so ``win_rate_by_seat`` is each seat's wins over the ``finished`` games (as balance
    counts them; null when none finished); ``ended_by`` counts the games each end trigger (a rule ID) ended."""

    @contextmanager
    def progress() -> Iterator[Callable[[], None]]:
        with Progress(*_BAR, console=err_console, transient=True, disable=as_json) as bar:
            task = bar.add_task(f"{o['game_name']}", total=o["n_games"])
            yield lambda: bar.advance(task)

    as_json = o.pop("as_json")
    result = rs.run(progress, None if as_json else _say, **{**o, "options": _parse_options(o["options"])})
    if as_json:
        click.echo(json.dumps(result, indent=2))
    else:
        table = Table(title=f"bgrules simulate: {o['game_name']}, {o['n_games']} games from seed {o['seed']}",
                      show_header=False)  # fmt: skip
        for key in rs.SHOWN:
            table.add_row(key, str(result[key]))
        console.print(table)
        console.print(rs.checked_line(result), highlight=False, soft_wrap=True)
        for v in result["violations"]:
            console.print(f"[red]{v['id']}[/] seed {v['seed']} step {v['step']}: {v['detail']}", highlight=False)
        if o["variant"] is not None:
            console.print(describe(result.get("seed_departures", [])), highlight=False, soft_wrap=True)
    if result["invariant_violations"]:
        sys.exit(1)


@main.command()
@options(opt("game", required=True), "players", opt("agents", help="one agent for every seat (greedy) or one per "
    "seat (greedy,random,random,mcts); default: random"))  # fmt: skip
@options(opt("games", "--games", "n_games", default=100, show_default=True))
@options(opt("seed", "--seed", default=0, show_default=True, help="game i is played from seed S + i"))
@options("variant", "option", opt("max-rounds", help="the runner's round cap: a game not over by then is truncated, "
    "no one's win (default: the game's own)"))  # fmt: skip
@options(opt("json", help="print the report as JSON (docs/balance.md)"))
@options(opt("plot", "--plot", "plot_path", type=_PATH, help="draw it to OUT.png or .svg"))
@options(*CAMPAIGN)
@_guard
def balance(**o: Any) -> None:
    """Win rate per seat with 95% Wilson intervals, scores, game length and end triggers (docs/balance.md).
    Shared wins count for each tied seat; games truncated by the runner's cap are no one's win."""

    as_json = o.pop("as_json")
    with Progress(console=err_console, transient=True, disable=as_json) as progress:
        task = progress.add_task(f"{o['game_name']}", total=o["n_games"])
        result = rb.run(lambda _r: progress.advance(task), **{**o, "options": _parse_options(o["options"])})
    if as_json:
        click.echo(json.dumps(result, indent=2))
        return
    n_games = o["n_games"]
    table = Table(title=f"bgrules balance: {o['game_name']}, {result['players']} players, {n_games} games from seed "
        f"{o['seed']}")  # fmt: skip
    for column in rb.COLUMNS:
        table.add_column(column, justify="left" if column == "agent" else "right")
    for row in rb.seat_rows(result):
        table.add_row(*row)
    console.print(table)
    for line in rb.lines(result, n_games):
        console.print(line, highlight=False)
    if o["variant"] is not None:
        console.print(describe(result["seed_departures"]), highlight=False, soft_wrap=True)
    if o["plot_path"] is not None:
        console.print(f"plot: {o['plot_path']}", highlight=False)


@main.command()
@options(opt("json", help="print a JSON list of games"))
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
@options(opt("game", help=_GAME_HELP + " [default: the --from state file's]"), opt("players", help="[default: the "
    "game's, or the --from state file's]"))  # fmt: skip
@options("option", opt("variant", help="a variant TOML file"), opt("depth", "--depth", type=int, help="plies from "
    "the start to explore [default: no limit]"))  # fmt: skip
@options(opt("max-states", "--max-states", type=int, default=EXPLORE_MAX_STATES, show_default=True, help="the "
    "distinct states to keep at most (the memory bound: about 1-5 KB a state)"))  # fmt: skip
@options(opt("seconds", "--seconds", type=float, help="wall time to explore for [default: no limit]"))
@options(opt("from", "--from", "from_path", type=_PATH, help="start from this state (a file of replay --state-out, "
    "or a bare bgrules.dumps state with --game)"))  # fmt: skip
@options(opt("symmetry", "--symmetry/--no-symmetry", default=None, help="count states up to the game's declared "
    "symmetries (--symmetry: required) [default: when declared]"))  # fmt: skip
@options(opt("json", help="print the counts as JSON"))
@_guard
def explore(**o: Any) -> None:
    """Every state reachable from the initial state (or --from STATE.json), breadth-first, each chance
    node expanded with every outcome: the distinct states first reached at each depth, and whether the
    exploration is complete (nothing was left unexplored)."""

    as_json = o.pop("as_json")
    name, game, found = rx.explore(**{**o, "options": _parse_options(o["options"])})
    if as_json:
        click.echo(json.dumps(rx.as_json(name, game, found), indent=2))
        return
    for line in rx.lines(name, game, found, o["from_path"]):
        click.echo(line)
