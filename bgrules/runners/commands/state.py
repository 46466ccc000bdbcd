"""State files: the ``bgrules-state`` file ``replay --state-out`` writes, and reading one (or a bare
``bgrules.dumps`` state with ``--game``) back for ``render`` and ``explore --from``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bgrules.core.codec import parse_json, problems_error, read_toml, structure, unstructure
from bgrules.core.descriptor import descriptor
from bgrules.core.errors import InputError
from bgrules.core.registry import game_names, load_game

STATE_FORMAT = "bgrules-state"
"""The ``format`` of a state file the CLI writes (``replay --state-out``): the state with its game."""
STATE_KEYS = ("format", "version", "game", "players", "options", "variant", "state")


def state_file(name: str, game: Any, state: Any, options: dict[str, Any], variant: Any) -> dict[str, Any]:
    """A state file's contents: ``{"format": "bgrules-state", "version": 1, "game", "players", "options",
    "variant", "state"}``; ``state`` is the ``bgrules.dumps`` data, ``variant`` the variant's data (a table)
    or null, so the file stands alone (docs/html.md)."""

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
