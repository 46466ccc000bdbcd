"""A Mechanica factory written in the text notation (:mod:`bgrules.mechanica.notation`) as ``bgrules check``
and ``bgrules render`` read it: loading it, drawing it, and checking it (legal, a loop, a collision in the
next workday, with the collision's witness as a trace of ``mechanica-factory`` and a page)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bgrules.core.codec import read_text
from bgrules.core.errors import InputError
from bgrules.core.registry import load_game
from bgrules.mechanica import smt
from bgrules.mechanica.movement import find_loop
from bgrules.mechanica.notation import parse_factory
from bgrules.mechanica.render import render_factory
from bgrules.mechanica.run import RunPhase
from bgrules.mechanica.variant import load_variant
from bgrules.pictures import draw_factory
from bgrules.runners import html
from bgrules.runners.trace import explain, make_trace

GAMES = ("mechanica", "mechanica-factory")
"""The games whose factories the text notation writes."""


def load_factory(text: str, variant: Path | None, source: str) -> tuple[Any, Any]:
    """(factory, variant) of a factory's text notation, under ``variant`` (None: the seeds' reading)."""

    v = load_variant(str(variant) if variant else None)
    return parse_factory(text, v, source=source), v


def picture(text: str, variant: Path | None, source: str, *, svg: bool) -> str:
    """The factory drawn as text (the terminal's) or, with ``svg``, as an SVG picture."""
    factory, v = load_factory(text, variant, source)
    if not svg:
        return render_factory(factory, v)

    return draw_factory(factory, v)


def check(path: Path, variant: Path | None) -> tuple[dict[str, Any], Any]:
    """``bgrules check``'s JSON of a factory file, and the solver's collision answer (None without z3)."""

    v = load_variant(str(variant) if variant else None)  # the variant first: its error before the file's
    factory = parse_factory(read_text(path), v, source=str(path))
    loop = find_loop(factory, v)
    result: dict[str, Any] = {"factory": str(path), "legal": True, "loop": loop}
    try:
        start = time.perf_counter()
        answer = smt.collision_query(factory, v)
        result["collision"] = answer.to_json()
        result["collision"]["seconds"] = round(time.perf_counter() - start, 4)
    except ImportError:
        result["collision"] = None
        answer = None
    return result, answer


def lines(result: dict[str, Any]) -> list[str]:
    """``bgrules check``'s lines of its JSON."""
    out = [
        f"{result['factory']}: legal factory",
        f"loop: {result['loop'] or 'none (every path reaches a hole, a truck, or destruction)'}",
    ]
    answer = result["collision"]
    if answer is not None:
        verdict = {"holds": "no", "violated": "yes", "unknown": "unknown (solver gave up)"}[answer["verdict"]]
        out.append(
            f"can two bots collide in the next workday? {verdict} (z3, every Fork and Flight choice; "
            f"{answer['seconds'] * 1000:.1f} ms)"
        )
        out.append(f"  {answer['detail']}")
        if answer.get("witness"):
            out.append(f"  witness: {json.dumps(answer['witness'], default=str)}")
    return out


def witness_files(
    factory_file: Path,
    variant: Path | None,
    answer: Any,
    trace_path: Path | None,
    html_path: Path | None,
    say: Callable[[str], None],
) -> None:
    """A collision's witness as a trace of ``mechanica-factory`` (the factory's notation as the ``factory``
    option, one day): the witness's Fork and Flight decisions in order, every other decision of the run
    (collisions, activations) its first legal one, as ``smt.replay`` runs it; then the page. ``say`` is
    told each file written (or that none was)."""

    if answer is None or answer.witness is None:
        say("no collision: no trace or page written")
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
        say(f"wrote {trace_path}")
    if html_path is not None:
        one = html.track("mechanica-factory", game, actions, steps)
        meta = [
            ("factory", str(factory_file)),
            ("collision", answer.detail),
            ("decisions", ", ".join(repr(d) for d in answer.witness.decisions) or "none (the run collides whatever)"),
            ("variant", chosen or "the seeds' reading (default)"),
        ]
        html_path.write_text(html.tracks_page(f"collision in {factory_file}", [one], meta), encoding="utf-8")
        say(f"wrote {html_path}")
