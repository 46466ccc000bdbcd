"""``load_game``: every game by name."""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Callable
from typing import Any

from bgrules.core.codec import show
from bgrules.core.errors import InputError
from bgrules.core.protocol import Game


def _mechanica_factory(players: int, variant: Any, **options: Any) -> Game:
    from bgrules.mechanica.sandbox import FactoryGame

    return FactoryGame(players=players, variant=variant, **options)


def _mechanica(players: int, variant: Any, **options: Any) -> Game:
    from bgrules.mechanica.game import MechanicaGame

    return MechanicaGame(players=players, variant=variant, **options)


def _botfactory(players: int, variant: Any, **options: Any) -> Game:
    from bgrules.botfactory.game import BotFactoryGame

    return BotFactoryGame(players=players, variant=variant, **options)


GAMES: dict[str, tuple[Callable[..., Game], tuple[int, int], int]] = {
    "botfactory": (_botfactory, (2, 4), 4),
    "mechanica": (_mechanica, (2, 4), 4),
    "mechanica-factory": (_mechanica_factory, (1, 1), 1),
}


OPTIONS: dict[str, tuple[str, ...]] = {
    "botfactory": ("max_rounds",),
    "mechanica": (),
    "mechanica-factory": ("factory", "supply", "days"),
}
"""The options each game takes besides ``players`` and ``variant`` (keyword arguments of ``load_game``)."""

REFERENCES: dict[str, str] = {
    "botfactory": "bgrules.botfactory.reference:ReferenceBotFactoryGame",
    "mechanica": "bgrules.mechanica.reference:ReferenceMechanicaGame",
    "mechanica-factory": "bgrules.mechanica.reference:ReferenceFactoryGame",
}
"""Each game's reference engine (``load_game(name, reference=True)``: docs/refinement.md), by its class's
path: plain functions written from docs/rules, which the fast engine must refine."""


def game_names() -> tuple[str, ...]:
    return tuple(sorted(GAMES))


def game_options(name: str) -> tuple[str, ...]:
    """The options ``load_game(name, ...)`` takes besides ``players`` and ``variant``."""
    return OPTIONS.get(name, ())


def load_game(
    name: str, players: int | None = None, variant: Any = None, reference: bool = False, **options: Any
) -> Game:
    """Load a game by name. ``variant`` is None (the seeds' reading), a variant object or a TOML path.
    ``reference=True`` gives the game's reference engine (the same protocol, states and actions, written
    plainly from docs/rules; slower): the one the fast engine is checked against (docs/refinement.md).
    The game records how it was loaded (``loaded_as``: name, players, variant, options)."""
    if not isinstance(name, str) or name not in GAMES:
        raise InputError("game", f"unknown game {show(name)}; known: {', '.join(game_names())}")
    factory, (lo, hi), default = GAMES[name]
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
    if reference:
        factory = _reference_factory(name)
    try:
        game = factory(n, variant, **options)
    except TypeError:
        raise InputError("options", f"{name}: an option of the wrong kind; its options: {', '.join(valid)}") from None
    with contextlib.suppress(AttributeError):  # a game class with __slots__ records nothing
        game.loaded_as = (name, n, variant, dict(options))  # type: ignore[attr-defined]
    return game


def _reference_factory(name: str) -> Callable[..., Game]:
    """The constructor of ``name``'s reference engine (``REFERENCES``), called as the fast one is."""
    path = REFERENCES.get(name)
    if path is None:
        raise InputError("reference", f"{name} has no reference engine")
    module_name, _, attr = path.partition(":")
    try:
        cls = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise InputError("reference", f"{name}'s reference engine {path} cannot be loaded: {exc}") from None

    def build(players: int, variant: Any, **options: Any) -> Game:
        made: Game = cls(players=players, variant=variant, **options)
        return made

    return build
