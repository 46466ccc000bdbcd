"""Counterexample traces people can use: replayable files, numbered steps, the rules each step applied.

A trace file is JSON that ``bgrules replay`` reads::

    {"format": "bgrules-trace", "version": 1, "game": "mechanica-factory", "players": 1,
     "options": {"days": 6}, "variant": null, "spec": "MC-...", "checker": "searched",
     "actions": [{"type": "Route", ...}, ...],
     "steps": [{"n": 1, "action": "Route(...)", "rules": ["MC-MOVE-BELT"], "invariant": null}, ...]}

``actions`` are the actions from the game's initial state (chance outcomes included, so the replay is
exact); ``variant`` is the variant's data (a table), so the file stands alone; ``steps`` is what
:func:`explain` found (each step's rule IDs, from rule coverage, and the invariant's value after it:
``null`` while it holds, its message once it fails; ``observed``, when the spec's predicate declares what
it reads, :mod:`bgrules.core.observe`: those counters after the step); ``initial``, when present, the
invariant's message at the initial state (a spec that fails before any action). A bare JSON list of
actions is read too (the format of 0.4.0), with the game named on the command line.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from bgrules.core import coverage
from bgrules.core.codec import action_from_data, action_to_data, parse_json, read_toml
from bgrules.core.descriptor import text_picture
from bgrules.core.errors import IllegalAction, InputError
from bgrules.core.observe import observed, shown
from bgrules.core.protocol import Game

FORMAT = "bgrules-trace"
VERSION = 1
TRACE_KEYS = (
    "format",
    "version",
    "game",
    "players",
    "options",
    "variant",
    "spec",
    "checker",
    "initial",
    "actions",
    "steps",
)


def explain(
    game: Game,
    actions: Sequence[Any],
    kind: str = "state",
    predicate: Callable[..., str | None] | None = None,
) -> list[dict[str, Any]]:
    """Replay ``actions`` from the initial state: per step its number, the action, the rule IDs it
    applied (effects counted by rule coverage, in sorted order) and, with a ``predicate`` of a spec of
    ``kind`` ``state`` or ``transition``, the invariant's value after it (None: holds; else its message)
    and, when the predicate declares what it reads, those values (``observed``, :mod:`bgrules.core.observe`).
    An action the rules refuse ends the explanation with that step's ``refused`` rule."""
    state = game.initial_state()
    steps: list[dict[str, Any]] = []
    for n, action in enumerate(actions, start=1):
        step: dict[str, Any] = {"n": n, "action": repr(action), "rules": [], "invariant": None}
        with coverage.probe() as counts:
            try:
                after = game.apply(state, action)
            except IllegalAction as exc:
                step["refused"] = exc.rule_id
                step["invariant"] = str(exc)
                steps.append(step)
                return steps
        step["rules"] = sorted(r for r, k in counts.effects.items() if k)
        if predicate is not None and kind in ("state", "transition"):
            args = (game, after) if kind == "state" else (game, state, action, after)
            step["invariant"] = predicate(*args)
            reads = observed(predicate, *args)
            if reads is not None:
                step["observed"] = reads
        steps.append(step)
        state = after
    return steps


def initial_value(game: Game, kind: str, predicate: Callable[..., str | None] | None) -> str | None:
    """The invariant's value at the initial state (state specs only; None: holds)."""
    if predicate is None or kind != "state":
        return None
    return predicate(game, game.initial_state())


def initial_observed(game: Game, kind: str, predicate: Callable[..., str | None] | None) -> dict[str, Any] | None:
    """What the invariant reads at the initial state (state specs whose predicate declares it; else None)."""
    if predicate is None or kind != "state":
        return None
    return observed(predicate, game, game.initial_state())


def make_trace(
    game_name: str,
    game: Game,
    actions: Sequence[Any],
    *,
    options: Mapping[str, Any] | None = None,
    variant: str | Mapping[str, Any] | None = None,
    spec: str = "",
    checker: str = "",
    steps: Sequence[Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """A trace file's contents (module docstring); ``variant`` a TOML path is read into its data."""
    data: Any = variant
    if isinstance(variant, str | Path):
        data = read_toml(variant)
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": game_name,
        "players": game.players,
        "options": dict(options or {}),
        "variant": data,
        "spec": spec,
        "checker": checker,
        "actions": [action_to_data(a) for a in actions],
        "steps": [dict(s) for s in steps] if steps is not None else [],
    }


def lines(trace: Mapping[str, Any]) -> list[str]:
    """The numbered action lines of a trace: ``  3. Route(...)  [MC-MOVE-BELT, MC-RUN]``, then what the
    invariant was before and after the step where it failed (``0. initial state`` when it failed there)."""
    out: list[str] = []
    initial = trace.get("initial")
    if initial:
        out.append(f"  0. initial state: {initial}")
    steps = list(trace.get("steps") or [])
    width = len(str(len(steps))) if steps else 1
    previous: str | None = None
    for step in steps:
        rules = ", ".join(step.get("rules") or []) or "no rule effect"
        out.append(f"  {step['n']:>{width}}. {step['action']}  [{rules}]")
        value = step.get("invariant")
        if step.get("refused"):
            out.append(f"  {'':>{width}}  refused: {value}")
        elif value and not previous:
            out.append(f"  {'':>{width}}  invariant before: holds; after: {value}")
            if step.get("observed"):
                out.append(f"  {'':>{width}}  it read: {shown(step['observed'])}")
        previous = value
    return out


def read_trace(path: Path, game_name: str | None = None) -> tuple[str | None, dict[str, Any]]:
    """Read a trace file (or a bare JSON list of actions): (the game it names, or ``game_name``; the
    trace as a mapping with at least ``actions``). Bad input is an InputError naming the file."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(str(path), f"cannot read: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(str(path), f"not UTF-8 text (byte {exc.start})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}:{exc.lineno}:{exc.colno}", exc.msg) from None
    except (RecursionError, ValueError):  # too deep, or a number too long to read: parse_json says which
        data = parse_json(text, f"{path} ")
    if isinstance(data, list):
        return game_name, {"actions": data, "options": {}, "variant": None, "players": None}
    if not isinstance(data, dict) or "actions" not in data:
        raise InputError(str(path), 'expected a trace (an object with "actions") or a JSON list of actions')
    unknown = sorted(set(data) - set(TRACE_KEYS))
    if unknown:
        raise InputError(str(path), f"unknown key(s) {', '.join(unknown)}; a trace has {', '.join(TRACE_KEYS)}")
    if data.get("format", FORMAT) != FORMAT or data.get("version", VERSION) != VERSION:
        raise InputError(str(path), f"not a {FORMAT} file of version {VERSION}")
    if not isinstance(data["actions"], list):
        raise InputError(f"{path} actions", "a JSON list of actions")
    named = data.get("game")
    if named is not None and not isinstance(named, str):
        raise InputError(f"{path} game", "a game name")
    if named and game_name and named != game_name:
        raise InputError("--game", f"{path} is a trace of {named!r}, not {game_name!r}")
    for key, kind in (("options", dict), ("variant", dict)):
        if data.get(key) is not None and not isinstance(data[key], kind):
            raise InputError(f"{path} {key}", "a table (JSON object)")
    players = data.get("players")
    if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
        raise InputError(f"{path} players", "a whole number")
    return named or game_name, data


def file_names(rows: Sequence[Mapping[str, Any]]) -> list[str | None]:
    """The file name ``--trace-dir`` gives each row's trace (None: the row has none): ``<id>-<checker>.json``
    (``<id>-<checker>-<n>p.json`` when one spec has traces at several player counts) with ``/`` as ``_`` (a
    clarification's witness, ``CL-X/name``), and anything a file name cannot hold (a control character,
    ``\\``, a name past 200 bytes) replaced, with a digest of the id so that the names
    stay apart. Two rows never get one name: a name already given gets the row's digest, so a trace never
    overwrites another, whatever the ids."""
    import hashlib
    import re

    out: list[str | None] = []
    used: set[str] = set()
    shared: dict[tuple[str, str], int] = {}
    for row in rows:
        if row.get("trace"):
            pair = (str(row.get("id", "")), str(row.get("checker", "")))
            shared[pair] = shared.get(pair, 0) + 1
    for row in rows:
        if not row.get("trace"):
            out.append(None)
            continue
        rid, checker = str(row.get("id", "")), str(row.get("checker", ""))
        digest = hashlib.sha256(f"{row.get('kind')}\0{rid}\0{checker}".encode()).hexdigest()[:10]
        stem = f"{rid}-{checker}".replace("/", "_")
        if shared[(rid, checker)] > 1 and row.get("players") is not None:  # one spec's rows per player count
            stem += f"-{row['players']}p"
        safe = re.sub(r"[\x00-\x1f\x7f\\:*?\"<>|]", "_", stem)
        if safe != stem or len(safe.encode()) > 200 or safe.startswith("."):
            safe = safe.encode()[:150].decode("utf-8", "ignore").lstrip(".") + "~" + digest
        name = f"{safe}.json"
        n = 1
        while name in used:
            name = f"{safe}~{digest}{'' if n == 1 else f'-{n}'}.json"
            n += 1
        used.add(name)
        out.append(name)
    return out


def parse_actions(game: Game, items: Sequence[Any], where: str) -> list[Any]:
    return [action_from_data(item, game.action_types(), f"{where} [{i}]") for i, item in enumerate(items)]


picture = text_picture
"""A text picture of a state where the game's descriptor gives one (:func:`bgrules.core.descriptor.text_picture`)."""


__all__ = [
    "FORMAT",
    "VERSION",
    "explain",
    "file_names",
    "initial_observed",
    "lines",
    "make_trace",
    "parse_actions",
    "picture",
    "read_trace",
]
