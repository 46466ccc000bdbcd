"""Self-contained HTML pages that step through a trace (``bgrules replay TRACE.json --html OUT.html``).

One page holds everything: the CSS, a few lines of JavaScript, and per state its picture
(:func:`bgrules.pictures.draw`, SVG inlined in a ``<template>``, so only the shown state's SVG is live in
the document and the drawings' ids never clash), the action taken, the step in game terms (who acted and
what changed, as a player reads the board: :func:`bgrules.pictures.narrate.describe`), the rule IDs it
applied (:func:`bgrules.runners.trace.explain`), the invariant's value where the trace has one, and, folded
under it, what changed field by field: every field of the state (its ``bgrules.dumps`` data) whose value
differs from the previous state's. Nothing is
fetched from the network. Keys: right/left arrow (or the Next/Previous buttons), Home, End.

A page has one *track* per game the actions are replayed in: one for a verify counterexample, two for a
ruling diff (variant A beside variant B, the same actions in lock-step). Every text is escaped
(:func:`html.escape`); the output is deterministic (no dates, no ids from memory addresses).
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from bgrules.core.codec import unstructure
from bgrules.core.errors import InputError
from bgrules.core.protocol import Game
from bgrules.core.registry import load_game
from bgrules.pictures import draw
from bgrules.pictures.narrate import describe
from bgrules.runners.trace import explain, parse_actions

MAX_CHANGES = 400
"""Changed fields listed per step; past it the page says how many more."""

Draw = Callable[[Game, Any], str]
Describe = Callable[[Game, Any, Any, Any], str]
"""(game, state before, action, state after) -> the step in game terms."""


def esc(value: Any) -> str:
    """``value`` as HTML text (quotes escaped too, so it is safe in an attribute)."""
    return html.escape(str(value), quote=True)


@attrs.frozen
class Entry:
    """One state of a track: the action that led to it (None for the initial state), what it applied."""

    picture: str
    """The state's picture: SVG, or (a proof's abstract state) an HTML table; inlined as it is."""
    action: str | None = None
    rules: tuple[str, ...] = ()
    invariant: str | None = None
    refused: str | None = None
    """The rule that refused the action (the state is then the one before it)."""
    changes: tuple[tuple[str, str, str], ...] = ()
    """(field path, before, after) of every field that changed, at most :data:`MAX_CHANGES`."""
    more: int = 0
    """Changed fields left out past :data:`MAX_CHANGES`."""
    story: str = ""
    """The step in game terms: who acted and what changed ("P2 took the red head from the Wheel")."""


@attrs.frozen
class Track:
    """A game and the states the actions led to in it."""

    label: str
    entries: tuple[Entry, ...]


def _short(value: Any, limit: int = 120) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def changes(before: Any, after: Any, path: str = "") -> list[tuple[str, str, str]]:
    """Every field path whose value differs between two plain-data states (``unstructure`` output), in
    field order: objects by their keys (sorted), lists by index (an added or removed item is a change
    from or to ``-``)."""
    out: list[tuple[str, str, str]] = []
    _changes(before, after, path, out)
    return out


def _changes(a: Any, b: Any, path: str, out: list[tuple[str, str, str]]) -> None:
    if a == b and type(a) is type(b):
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            sub = f"{path}.{key}" if path else str(key)
            if key not in a:
                out.append((sub, "-", _short(b[key])))
            elif key not in b:
                out.append((sub, _short(a[key]), "-"))
            else:
                _changes(a[key], b[key], sub, out)
        return
    if isinstance(a, list) and isinstance(b, list):
        for i in range(max(len(a), len(b))):
            sub = f"{path}[{i}]"
            if i >= len(a):
                out.append((sub, "-", _short(b[i])))
            elif i >= len(b):
                out.append((sub, _short(a[i]), "-"))
            else:
                _changes(a[i], b[i], sub, out)
        return
    out.append((path or "(state)", _short(a), _short(b)))


def default_draw() -> Draw:
    """:func:`bgrules.pictures.draw`: the SVG picture of any state of any game."""

    return draw


def default_describe() -> Describe:
    """:func:`bgrules.pictures.narrate.describe`: any step of any game in game terms."""

    return describe


def _svg_body(svg: str) -> str:
    """The ``<svg>`` element of an SVG document (its XML declaration and doctype dropped, for inlining)."""
    start = svg.find("<svg")
    return svg[start:] if start >= 0 else svg


def track(
    label: str,
    game: Game,
    actions: Sequence[Any],
    steps: Sequence[Mapping[str, Any]] | None = None,
    *,
    draw: Draw | None = None,
    describe: Describe | None = None,
) -> Track:
    """Replay ``actions`` in ``game`` from its initial state: an entry per state. ``steps`` are a trace
    file's steps (their ``invariant`` values are shown); the rules each step applied are found again by
    replaying (:func:`bgrules.runners.trace.explain`). An action the rules refuse ends the track with an
    entry that names the refusing rule and keeps the state before it."""

    picture = draw or default_draw()
    story = describe or default_describe()
    found = explain(game, actions)
    given = list(steps or [])
    state = game.initial_state()
    data = unstructure(state)
    shown = _svg_body(picture(game, state))
    entries = [Entry(shown)]
    for i, step in enumerate(found):
        invariant = step.get("invariant")
        if i < len(given) and isinstance(given[i], Mapping) and "refused" not in step:
            value = given[i].get("invariant")
            invariant = value if isinstance(value, str) else None
        if step.get("refused"):
            entries.append(Entry(shown, step["action"], (), str(step.get("invariant") or ""), str(step["refused"])))
            break
        before, state = state, game.apply(state, actions[i])
        words = story(game, before, actions[i], state)
        after = unstructure(state)
        diff = changes(data, after)
        data = after
        shown = _svg_body(picture(game, state))
        entries.append(
            Entry(
                shown,
                step["action"],
                tuple(step.get("rules") or ()),
                invariant,
                None,
                tuple(diff[:MAX_CHANGES]),
                max(0, len(diff) - MAX_CHANGES),
                words,
            )
        )
    return Track(label, tuple(entries))


def trace_game(
    trace: Mapping[str, Any],
    where: str,
    *,
    game_name: str | None = None,
    players: int | None = None,
    variant: Any = None,
    options: Mapping[str, Any] | None = None,
) -> tuple[str, Game, list[Any]]:
    """The game a trace (:mod:`bgrules.runners.trace`) names, loaded with its players, options and variant
    (each overridden by the arguments given), and its actions parsed: (game name, game, actions)."""

    name = game_name or trace.get("game")
    if not isinstance(name, str) or not name:
        raise InputError("--game", f"{where} does not name its game: name it (--game)")
    chosen = {**(trace.get("options") or {}), **(options or {})}
    game = load_game(
        name,
        players=players or trace.get("players"),
        variant=variant if variant is not None else trace.get("variant"),
        **chosen,
    )
    return name, game, parse_actions(game, trace["actions"], where)


_CSS = """
:root { --fg: #1d2330; --muted: #5b6475; --line: #d6dae3; --bad: #b3261e; --good: #1e7b34; --warn: #8a5a00;
  --bg: #ffffff; --panel: #f5f7fa; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); }
body { margin: 0 auto; max-width: 1600px; padding: 1rem 1.5rem 3rem; background: var(--bg); line-height: 1.4; }
h1 { font-size: 1.4rem; margin: .2rem 0 .6rem; } h2 { font-size: 1.15rem; margin: 1.2rem 0 .4rem; }
code, .mono { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, monospace; font-size: .88em; }
table { border-collapse: collapse; margin: .4rem 0 1rem; } th, td { border: 1px solid var(--line);
  padding: .25rem .5rem; text-align: left; vertical-align: top; } th { background: var(--panel); }
.meta { color: var(--muted); margin: .2rem 0; } .meta b { color: var(--fg); }
nav.steps { position: sticky; top: 0; background: var(--bg); padding: .5rem 0; border-bottom: 1px solid var(--line);
  display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; z-index: 2; }
nav.steps button { font: inherit; padding: .3rem .8rem; border: 1px solid var(--line); border-radius: 4px;
  background: var(--panel); cursor: pointer; } nav.steps button:disabled { opacity: .4; cursor: default; }
#counter { font-weight: 600; min-width: 9rem; } section.step { scroll-margin-top: 4rem; }
.hint { color: var(--muted); font-size: .9em; }
.tracks { display: grid; gap: 1rem; grid-template-columns: repeat(var(--tracks), minmax(0, 1fr)); }
.track { border: 1px solid var(--line); border-radius: 6px; padding: .6rem .8rem; background: var(--bg); }
.track h3 { margin: 0 0 .4rem; font-size: 1rem; }
.stage svg { max-width: 100%; height: auto; display: block; margin: .4rem 0; background: #fff; }
.story { font-size: 1.05em; margin: .3rem 0; }
.action { font-weight: 600; } .rules code { background: var(--panel); padding: 0 .25rem; border-radius: 3px; }
.fail { color: var(--bad); font-weight: 600; } .ok { color: var(--good); }
.refused { color: var(--warn); font-weight: 600; }
table.changes td { font-family: ui-monospace, monospace; font-size: .82em; word-break: break-all; }
details summary { cursor: pointer; color: var(--muted); }
a { color: #1a56b0; }
"""

_JS = """
(function () {
  "use strict";
  var steps = Array.prototype.slice.call(document.querySelectorAll("section.step"));
  var counter = document.getElementById("counter");
  var buttons = {
    first: document.getElementById("first"), prev: document.getElementById("prev"),
    next: document.getElementById("next"), last: document.getElementById("last")
  };
  var current = -1;
  function show(i) {
    i = Math.max(0, Math.min(steps.length - 1, i));
    if (i === current) { return; }
    steps.forEach(function (section, j) {
      section.hidden = j !== i;
      section.querySelectorAll(".stage").forEach(function (stage) {
        while (stage.firstChild) { stage.removeChild(stage.firstChild); }
        if (j === i) {
          var picture = stage.parentNode.querySelector("template.picture");
          if (picture) { stage.appendChild(document.importNode(picture.content, true)); }
        }
      });
    });
    current = i;
    document.body.setAttribute("data-step", String(i));
    counter.textContent = "step " + i + " of " + (steps.length - 1);
    buttons.first.disabled = buttons.prev.disabled = i === 0;
    buttons.next.disabled = buttons.last.disabled = i === steps.length - 1;
    if (window.history && window.history.replaceState) { window.history.replaceState(null, "", "#step-" + i); }
  }
  buttons.first.addEventListener("click", function () { show(0); });
  buttons.prev.addEventListener("click", function () { show(current - 1); });
  buttons.next.addEventListener("click", function () { show(current + 1); });
  buttons.last.addEventListener("click", function () { show(steps.length - 1); });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var to = {ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: steps.length - 1}[event.key];
    if (to !== undefined) { event.preventDefault(); show(to); }
  });
  function fromHash() {
    var match = /^#step-(\\d+)$/.exec(window.location.hash);
    return match ? parseInt(match[1], 10) : 0;
  }
  window.addEventListener("hashchange", function () { show(fromHash()); });
  show(fromHash());
}());
"""


def page(title: str, body: str, *, script: str = "", css: str = "") -> str:
    """A whole HTML document: the title escaped, ``body`` as it is (already escaped HTML), the CSS (and
    ``css``) and ``script`` inline."""
    js = f"<script>{script}</script>\n" if script else ""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(title)}</title>\n<style>{_CSS}{css}</style>\n</head>\n<body>\n{body}\n{js}</body>\n</html>\n"
    )


def _entry_html(entry: Entry | None, label: str, previous: bool) -> str:
    head = f"<h3>{esc(label)}</h3>" if label else ""
    if entry is None:
        return f'<div class="track">{head}<p class="meta">this track ended at an earlier step</p></div>'
    parts = [head]
    if entry.story:
        parts.append(f'<p class="story">{esc(entry.story)}</p>')
    if entry.action is not None:
        parts.append(f'<p class="action mono">{esc(entry.action)}</p>')
    if entry.refused is not None:
        parts.append(
            f'<p class="refused">refused by <code>{esc(entry.refused)}</code>: {esc(entry.invariant or "")}</p>'
            '<p class="meta">the state is unchanged (the rules refuse the action)</p>'
        )
    elif entry.action is not None:
        rules = " ".join(f"<code>{esc(r)}</code>" for r in entry.rules) or '<span class="meta">no rule effect</span>'
        parts.append(f'<p class="rules">rules applied: {rules}</p>')
        if entry.invariant:
            parts.append(f'<p class="fail">invariant fails: {esc(entry.invariant)}</p>')
        elif previous:
            parts.append('<p class="ok">invariant holds</p>')
    parts.append('<div class="stage"></div>')
    parts.append(f'<template class="picture">{entry.picture}</template>')
    if entry.action is not None and entry.refused is None:
        if entry.changes:
            rows = "".join(f"<tr><td>{esc(p)}</td><td>{esc(a)}</td><td>{esc(b)}</td></tr>" for p, a, b in entry.changes)
            more = f'<p class="meta">... and {entry.more} more changed field(s)</p>' if entry.more else ""
            parts.append(
                f"<details><summary>what changed, field by field: {len(entry.changes) + entry.more} field(s)"
                "</summary>"
                f'<table class="changes"><tr><th>field</th><th>before</th><th>after</th></tr>{rows}</table>'
                f"{more}</details>"
            )
        else:
            parts.append('<p class="meta">no field of the state changed</p>')
    return f'<div class="track">{"".join(parts)}</div>'


def _first_failure(tracks: Sequence[Track]) -> tuple[int | None, str]:
    """The first step where an invariant fails or an action is refused, in any track, and what happens."""
    for i in range(max(len(t.entries) for t in tracks)):
        for t in tracks:
            entry = t.entries[i] if i < len(t.entries) else None
            if entry is not None and entry.refused is not None:
                return i, f"{entry.refused} refuses the action"
            if entry is not None and entry.invariant:
                return i, "the invariant fails"
    return None, ""


def tracks_page(
    title: str,
    tracks: Sequence[Track],
    meta: Sequence[tuple[str, str]] = (),
    *,
    back: str | None = None,
    checks: bool = False,
) -> str:
    """A stepping page over ``tracks`` (steps aligned by index). ``meta``: (label, text) lines shown above
    (escaped); ``back``: a relative link shown first (to a report's index); ``checks``: say "invariant
    holds" on steps where the trace's invariant holds (a spec's counterexample)."""
    if not tracks:
        raise InputError("tracks", "a page needs at least one track")
    n = max(len(t.entries) for t in tracks)
    bad, why = _first_failure(tracks)
    head = [f'<p><a href="{esc(back)}">&larr; back to the report</a></p>' if back else "", f"<h1>{esc(title)}</h1>"]
    head += [f'<p class="meta"><b>{esc(k)}:</b> {esc(v)}</p>' for k, v in meta]
    nav = (
        '<nav class="steps"><button id="first" type="button">&laquo; First</button>'
        '<button id="prev" type="button">&#x25C0; Previous</button>'
        f'<span id="counter">step 0 of {n - 1}</span>'
        '<button id="next" type="button">Next &#x25B6;</button>'
        '<button id="last" type="button">Last &raquo;</button>'
        '<span class="hint">keys: &larr; &rarr; Home End</span>'
        + (f' <a href="#step-{bad}" id="to-failure">go to step {bad}, where {esc(why)}</a>' if bad is not None else "")
        + "</nav>"
    )
    sections = [
        '<noscript><p class="meta">The pictures and the stepping need JavaScript; '
        "without it every step shows as text.</p></noscript>"
    ]
    for i in range(n):
        cells = []
        for t in tracks:
            entry = t.entries[i] if i < len(t.entries) else None
            cells.append(_entry_html(entry, t.label if len(tracks) > 1 else "", checks))
        heading = "initial state" if i == 0 else f"step {i}"
        sections.append(
            f'<section class="step" id="step-{i}" data-step="{i}">'
            f"<h2>{esc(heading)}</h2>"
            f'<div class="tracks" style="--tracks: {len(tracks)}">{"".join(cells)}</div></section>'
        )
    return page(title, "\n".join([*head, nav, *sections]), script=_JS)


def _variant_text(variant: Any) -> str:
    if variant is None:
        return "the seeds' reading (default)"
    if isinstance(variant, Mapping):
        return "variant data in the trace: " + (_short(variant, 300) if variant else "{}")
    return str(variant)


def trace_html(
    trace: Mapping[str, Any],
    where: str,
    *,
    game_name: str | None = None,
    players: int | None = None,
    variant: Any = None,
    options: Mapping[str, Any] | None = None,
    back: str | None = None,
    draw: Draw | None = None,
) -> tuple[str, Track]:
    """The stepping page of a trace file's contents (``bgrules replay TRACE --html``): (HTML, its track)."""
    name, game, actions = trace_game(
        trace, where, game_name=game_name, players=players, variant=variant, options=options
    )
    steps = trace.get("steps")
    one = track(name, game, actions, steps if isinstance(steps, list) else None, draw=draw)
    spec = trace.get("spec") or ""
    checker = trace.get("checker") or ""
    title = f"{spec} [{checker}]" if spec else f"trace of {name}"
    meta = [
        ("game", f"{name}, {game.players} player(s)"),
        ("options", _short(dict(trace.get("options") or {}, **(options or {})), 300)),
        ("variant", _variant_text(variant if variant is not None else trace.get("variant"))),
        (
            "actions",
            f"{len(actions)}"
            + (f" (replayed until one was refused: {one.entries[-1].refused})" if one.entries[-1].refused else ""),
        ),
    ]
    initial = trace.get("initial")
    if isinstance(initial, str) and initial:
        meta.append(("invariant at the initial state", initial))
    return tracks_page(title, [one], meta, back=back, checks=bool(spec)), one


def refused(one: Track) -> Entry | None:
    """The entry of the refused action that ended ``one``, if one did."""
    last = one.entries[-1]
    return last if last.refused is not None else None


__all__ = [
    "MAX_CHANGES",
    "Describe",
    "Entry",
    "Track",
    "changes",
    "default_describe",
    "default_draw",
    "esc",
    "page",
    "refused",
    "trace_game",
    "trace_html",
    "track",
    "tracks_page",
]
