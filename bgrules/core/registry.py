"""``load_game``: every game by name, as its descriptor (:mod:`bgrules.core.descriptor`, found through the
entry-point group ``bgrules.games``) describes it."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from bgrules.core.codec import show
from bgrules.core.descriptor import GameDescriptor, Table, descriptor, descriptors, find, resolve
from bgrules.core.errors import InputError
from bgrules.core.protocol import Game

GAMES: Table[str, tuple[Callable[..., Game], tuple[int, int], int]] = Table(
    lambda: {d.name: (_factory(d, "game"), d.players, d.default_players) for d in descriptors()}, "GAMES"
)
"""Each game's constructor, player range and default players (from the descriptors)."""

OPTIONS: Table[str, tuple[str, ...]] = Table(lambda: {d.name: d.option_names() for d in descriptors()}, "OPTIONS")
"""The options each game takes besides ``players`` and ``variant`` (keyword arguments of ``load_game``)."""

REFERENCES: Table[str, Any] = Table(
    lambda: {d.name: d.reference for d in descriptors() if d.reference is not None}, "REFERENCES"
)
"""Each game's reference engine (``load_game(name, reference=True)``: docs/refinement.md), by its class (or
its class's path): plain functions written from docs/rules, which the fast engine must refine."""


def game_names() -> tuple[str, ...]:
    return tuple(d.name for d in descriptors())


def game_options(name: str) -> tuple[str, ...]:
    """The options ``load_game(name, ...)`` takes besides ``players`` and ``variant``."""
    found = find(name)
    return () if found is None else found.option_names()


def load_game(
    name: str, players: int | None = None, variant: Any = None, reference: bool = False, **options: Any
) -> Game:
    """Load a game by name. ``variant`` is None (the seeds' reading), a variant object or a TOML path.
    ``reference=True`` gives the game's reference engine (the same protocol, states and actions, written
    plainly from docs/rules; slower): the one the fast engine is checked against (docs/refinement.md).
    The game records how it was loaded (``loaded_as``: name, players, variant, options)."""
    found = descriptor(name)
    (lo, hi), default = found.players, found.default_players
    n = default if players is None else players
    if not isinstance(n, int) or isinstance(n, bool) or not lo <= n <= hi:
        allowed = f"{lo}" if lo == hi else f"{lo} to {hi}"
        raise InputError("players", f"{name} is for {allowed} player(s), not {show(players)}")
    valid = game_options(name)
    unknown = sorted(k for k in options if k not in valid)
    if unknown:
        takes = f"it takes {', '.join(valid)}" if valid else "it takes none"
        raise InputError(
            f"options {', '.join(unknown)}",
            f"{name} takes no option {', '.join(map(repr, unknown))}; {takes} (besides players and variant)",
        )
    if not isinstance(reference, bool):
        raise InputError("reference", f"True or False, not {show(reference)}")
    factory = _factory(found, "reference" if reference else "game")
    try:
        game = factory(n, variant, **options)
    except TypeError:
        raise InputError("options", f"{name}: an option of the wrong kind; its options: {', '.join(valid)}") from None
    with contextlib.suppress(AttributeError):  # a game class with __slots__ records nothing
        game.loaded_as = (name, n, variant, dict(options))  # type: ignore[attr-defined]
    return game


def _factory(found: GameDescriptor, part: str) -> Callable[..., Game]:
    """The constructor of the descriptor's Game class (``game``) or reference engine (``reference``), called
    ``(players, variant, **options)``; a game without a reference engine, or one that cannot be imported, is
    an InputError."""
    if part == "reference" and found.reference is None:
        raise InputError("reference", f"{found.name} has no reference engine")

    def build(players: int, variant: Any, **options: Any) -> Game:
        cls = _part(found, part)
        made: Game = cls(players=players, variant=variant, **options)
        return made

    return build


def _part(found: GameDescriptor, part: str) -> Any:
    value = getattr(found, part)
    if part == "reference" and isinstance(value, str):
        try:
            return resolve(value)
        except (ImportError, AttributeError) as exc:
            raise InputError("reference", f"{found.name}'s reference engine {value} cannot be loaded: {exc}") from None
    return found.part(part)
