"""``load_game``: every game by name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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


def game_names() -> tuple[str, ...]:
    return tuple(sorted(GAMES))


def load_game(name: str, players: int | None = None, variant: Any = None, **options: Any) -> Game:
    """Load a game by name. ``variant`` is None (the seeds' reading), a variant object or a TOML path."""
    if name not in GAMES:
        raise InputError("game", f"unknown game {name!r}; known: {', '.join(game_names())}")
    factory, (lo, hi), default = GAMES[name]
    n = default if players is None else players
    if not isinstance(n, int) or isinstance(n, bool) or not lo <= n <= hi:
        allowed = f"{lo}" if lo == hi else f"{lo} to {hi}"
        raise InputError("players", f"{name} is for {allowed} player(s), not {players!r}")
    try:
        return factory(n, variant, **options)
    except TypeError as exc:
        raise InputError("options", f"{name}: {exc}") from None
