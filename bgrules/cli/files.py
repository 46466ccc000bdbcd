"""The commands that read a file: ``render`` (a state or a factory), ``check`` (a Mechanica factory) and
``replay`` (a trace); what they compute is :mod:`bgrules.runners`' (and the game package's); here the
options are parsed and the results printed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from bgrules.cli.base import _GAME_HELP, _guard, _parse_options, console, main
from bgrules.core.codec import dumps
from bgrules.core.errors import InputError, require_extra
from bgrules.core.registry import load_game
from bgrules.pictures import to_png
from bgrules.runners.commands import replay as rr
from bgrules.runners.commands.check import check as run_check
from bgrules.runners.commands.render import render as draw
from bgrules.runners.commands.state import state_file
from bgrules.runners.trace import parse_actions, read_trace


def _say(line: str) -> None:
    click.echo(line, err=True)


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

    if png_path is not None:
        require_extra("cairosvg", "png", "--png")
    svg = svg_path is not None or png_path is not None
    picture = draw(
        factory_file, variant=variant, game_name=game_name, players=players, options=_parse_options(options), svg=svg
    )
    if not svg:
        click.echo(picture, nl=False)
        return
    if svg_path is not None:
        svg_path.write_text(picture, encoding="utf-8")
        click.echo(f"wrote {svg_path}")
    if png_path is not None:
        png_path.write_bytes(to_png(picture))
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

    result, lines = run_check(factory_file, variant, trace_path=trace_path, html_path=html_path, say=_say)
    if as_json:
        click.echo(json.dumps(result, indent=2, default=str))
        return
    for line in lines:
        console.print(line, highlight=False)


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

    name, trace = read_trace(actions_file, game_name)
    if name is None:
        raise InputError("--game", f"{actions_file} is a list of actions: name its game (--game)")
    chosen_options = {**(trace.get("options") or {}), **_parse_options(options)}
    chosen_variant: Any = str(variant) if variant else trace.get("variant")
    if html_path is not None:
        rr.write_page(
            html_path, trace, str(actions_file), game_name=name, players=players, variant=variant,
            options=_parse_options(options), say=_say,
        )  # fmt: skip
        if not step and state_out is None:
            return
    game = load_game(name, players=players or trace.get("players"), variant=chosen_variant, **chosen_options)
    replayed = rr.Replay(name, game, parse_actions(game, trace["actions"], str(actions_file)))
    if step:
        for line in replayed.lines(rr.trace_invariant(trace, specs_dir, _say)):
            click.echo(line)
    else:
        replayed.run()
    if state_out is not None:
        data = state_file(name, game, replayed.state, chosen_options, chosen_variant)
        state_out.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    if not step and html_path is None:
        click.echo(dumps(replayed.state))
