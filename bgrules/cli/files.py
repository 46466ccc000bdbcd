"""The commands that read a file: ``render`` (a state or a factory), ``check`` (a Mechanica factory) and
``replay`` (a trace); what they compute is :mod:`bgrules.runners`' (and the game package's); here the
options are parsed and the results printed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from bgrules.cli.base import _GAME_HELP, _PATH, _guard, _parse_options, console, main, opt, options
from bgrules.core.errors import require_extra
from bgrules.pictures import to_png
from bgrules.runners.commands import replay as rr
from bgrules.runners.commands.check import check as run_check
from bgrules.runners.commands.render import render as draw


def _say(line: str) -> None:
    click.echo(line, err=True)


@main.command()
@click.argument("factory_file", metavar="STATE.json|FACTORY.txt", type=_PATH)
@options(opt("variant", help="[default: the state file's]"))
@options(opt("svg", "--svg", "svg_path", type=_PATH, help="write the SVG picture here"))
@options(opt("png", "--png", "png_path", type=_PATH, help="write a PNG here (extra bgrules[png])"))
@options(opt("game", help=_GAME_HELP + " (for a bare bgrules.dumps state)"), opt("players", help="[default: the "
    "state file's, else the count the state fits]"))  # fmt: skip
@options(opt("option", help="game option key=value [default: the state file's]"))
@_guard
def render(factory_file: Path, svg_path: Path | None, png_path: Path | None, **o: Any) -> None:
    """Draw a factory written in the text notation, or a state (a file of replay --state-out, or a bare
    bgrules.dumps state with --game): as text on the terminal, or with --svg / --png as a picture."""

    if png_path is not None:
        require_extra("cairosvg", "png", "--png")
    svg = svg_path is not None or png_path is not None
    picture = draw(factory_file, svg=svg, **{**o, "options": _parse_options(o["options"])})
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
@click.argument("factory_file", type=_PATH)
@options("variant", "json", opt("trace", "--trace", "trace_path", type=_PATH, help="write a collision's witness as "
    "a trace of the mechanica-factory game (one workday) for bgrules replay"))  # fmt: skip
@options(opt("html", help="write a page that steps through a collision's witness, decision by decision"))
@_guard
def check(factory_file: Path, **o: Any) -> None:
    """Check a Mechanica factory: is it legal, can a bot loop, can two bots collide in its next workday?"""

    result, lines = run_check(
        factory_file, o["variant"], trace_path=o["trace_path"], html_path=o["html_path"], say=_say
    )
    if o["as_json"]:
        click.echo(json.dumps(result, indent=2, default=str))
        return
    for line in lines:
        console.print(line, highlight=False)


@main.command()
@click.argument("actions_file", type=_PATH)
@options(opt("game", help=_GAME_HELP + " [default: the one the trace file names]"), opt("players", help="[default: "
    "the trace file's, else the game's]"))  # fmt: skip
@options(opt("variant", help="[default: the trace file's]"), opt("option", help="game option key=value [default: "
    "the trace file's]"))  # fmt: skip
@options(opt("step", "--step", is_flag=True, help="print each state in turn: the action, the rules it applied, the "
    "trace's invariant and what it read, a picture"))  # fmt: skip
@options(opt("specs", help="--step: where the trace's spec is, to show its invariant [default: the specs verify "
    "finds]"))  # fmt: skip
@options(opt("html", help="write one self-contained page that steps through the trace (pictures, actions, rules, "
    "changes)"))  # fmt: skip
@options(opt("state-out", "--state-out", type=_PATH, help="write the final state to this file with its game, "
    "players, options and variant (bgrules render reads it)"))  # fmt: skip
@_guard
def replay(**o: Any) -> None:
    """Replay a trace (the files verify --trace-dir writes) or a JSON list of actions ({"type": ..., fields})
    and print the final state as JSON; with --step, every state in turn, with the trace's invariant (its
    spec's value and the counters its predicate reads) at each; with --html, write a page that steps
    through it instead (docs/html.md)."""

    for line in rr.run(_say, **{**o, "options": _parse_options(o["options"])}):
        click.echo(line)
