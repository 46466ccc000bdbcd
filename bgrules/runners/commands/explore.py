"""``bgrules explore``: the game (or the state file's) to explore, and its counts as JSON or lines
(:func:`bgrules.core.explore.explore` explores)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bgrules.core.codec import read_text
from bgrules.core.errors import InputError
from bgrules.core.explore import explore as run_explore
from bgrules.core.explore import has_symmetry
from bgrules.core.registry import load_game
from bgrules.runners.commands.state import read_state


def explore(
    *,
    game_name: str | None,
    players: int | None,
    options: dict[str, Any],
    variant: Path | None,
    depth: int | None,
    max_states: int | None,
    seconds: float | None,
    from_path: Path | None,
    symmetry: bool | None,
) -> tuple[str, Any, Any]:
    """(game name, game, what was found) of an exploration from the initial state or ``from_path``."""

    for flag, value in (("--depth", depth), ("--max-states", max_states), ("--seconds", seconds)):
        if value is not None and not value > 0:
            raise InputError(flag, f"must be more than 0, not {value:g}")
    start = None
    if from_path is not None:
        game_name, game, start = read_state(from_path, read_text(from_path), game_name, players, variant, options)
    elif game_name is None:
        raise InputError("--game", "name the game to explore (or give --from STATE.json)")
    else:
        game = load_game(game_name, players=players, variant=str(variant) if variant else None, **options)
    if symmetry and not has_symmetry(game):
        raise InputError("--symmetry", f"{game_name} declares no symmetries (no canonical): use --no-symmetry")
    found = run_explore(
        game, depth=depth, symmetry=symmetry is not False, max_states=max_states, seconds=seconds, start=start
    )
    return game_name, game, found


def as_json(game_name: str, game: Any, found: Any) -> dict[str, Any]:
    return {
        "game": game_name,
        "players": game.players,
        "symmetric": found.symmetric,
        "distinct": found.distinct,
        "complete": found.complete,
        "stopped": found.stopped,
        "levels": [{"depth": level.depth, "distinct": level.distinct} for level in found.levels],
    }


def lines(game_name: str, game: Any, found: Any, from_path: Path | None) -> list[str]:
    up_to = " up to its symmetries" if found.symmetric else ""
    out = [f"{game_name}, {game.players} player(s){up_to}, from {from_path or 'the initial state'}:", "depth  distinct"]
    out += [f"{level.depth:>5}  {level.distinct}" for level in found.levels]
    stop = {"depth": "--depth", "max_states": "--max-states", "seconds": "--seconds"}
    how = "complete" if found.complete else f"incomplete (stopped by {stop[found.stopped or 'depth']})"
    out.append(f"{found.distinct} distinct state(s), {how}")
    return out
