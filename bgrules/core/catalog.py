"""Every game with its player counts, options and rulings: what ``bgrules games`` lists.

The options are the keyword parameters ``load_game(name, **options)`` takes (read from the game's
constructor, so the list cannot drift from the code), each with its default and the meaning written in
:data:`OPTION_MEANINGS`; the rulings are the fields of the game's ``Rulings`` (a variant file's
``[rulings]`` table), each with its choices, its default and the first sentence of its docstring.
"""

from __future__ import annotations

import ast
import inspect
import itertools
import textwrap
import typing
from typing import Any

from bgrules.core.registry import GAMES, game_names

OPTION_MEANINGS: dict[str, dict[str, str]] = {
    "botfactory": {
        "max_rounds": "end the game, scored as finished, after this round (BF-END); none: only the seed's triggers",
    },
    "mechanica": {},
    "mechanica-factory": {
        "factory": "the factory to start from, in the notation of docs/mechanica-notation.md (default: the start)",
        "supply": "the improvements a player may install, by kind, comma-separated (Forks may repeat)",
        "days": "workdays to play (MC-DAY)",
    },
}
"""What each option of ``load_game`` means, per game (a test checks that every option has one)."""

_RULINGS = {
    "botfactory": "bgrules.botfactory.variant",
    "mechanica": "bgrules.mechanica.variant",
    "mechanica-factory": "bgrules.mechanica.variant",
}
_CLASSES = {
    "botfactory": "bgrules.botfactory.game:BotFactoryGame",
    "mechanica": "bgrules.mechanica.game:MechanicaGame",
    "mechanica-factory": "bgrules.mechanica.sandbox:FactoryGame",
}


def _import(target: str) -> Any:
    import importlib

    module, _, name = target.partition(":")
    loaded = importlib.import_module(module)
    return getattr(loaded, name) if name else loaded


def _text(value: Any) -> Any:
    """A default as JSON shows it (None stays null)."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def options(name: str) -> list[dict[str, Any]]:
    """The options of ``load_game(name, ...)``: name, default and meaning."""
    cls = _import(_CLASSES[name])
    out = []
    for p in inspect.signature(cls.__init__).parameters.values():
        if p.name in ("self", "players", "variant") or p.kind in (p.VAR_KEYWORD, p.VAR_POSITIONAL):
            continue
        out.append(
            {
                "name": p.name,
                "default": _text(None if p.default is inspect.Parameter.empty else p.default),
                "meaning": OPTION_MEANINGS[name].get(p.name, ""),
            }
        )
    return out


def _field_docs(cls: type) -> dict[str, str]:
    """Attribute docstrings (the string right after each annotated field) of a class, by field name."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    body = tree.body[0].body  # type: ignore[attr-defined]
    out: dict[str, str] = {}
    for field, doc in itertools.pairwise(body):
        if (
            isinstance(field, ast.AnnAssign)
            and isinstance(field.target, ast.Name)
            and isinstance(doc, ast.Expr)
            and isinstance(doc.value, ast.Constant)
            and isinstance(doc.value.value, str)
        ):
            out[field.target.id] = " ".join(doc.value.value.split())
    return out


def _choices(hint: Any) -> list[Any] | str:
    if typing.get_origin(hint) is typing.Literal:
        return list(typing.get_args(hint))
    if hint is bool:
        return [False, True]
    if hint is int:
        return "a whole number"
    return str(hint)


def rulings(name: str) -> list[dict[str, Any]]:
    """The rulings of ``name``'s variant files: name, choices, default and meaning."""
    import attrs

    cls = _import(_RULINGS[name] + ":Rulings")
    hints = typing.get_type_hints(cls)
    docs = _field_docs(cls)
    return [
        {
            "name": f.name,
            "choices": _choices(hints[f.name]),
            "default": _text(f.default),
            "meaning": docs.get(f.name, ""),
        }
        for f in attrs.fields(cls)
    ]


def describe_games() -> list[dict[str, Any]]:
    """``bgrules games --json``: one object per game with ``name``, ``min_players``, ``max_players``,
    ``default_players``, ``options`` and ``rulings``."""
    out = []
    for name in game_names():
        _factory, (lo, hi), default = GAMES[name]
        out.append(
            {
                "name": name,
                "min_players": lo,
                "max_players": hi,
                "default_players": default,
                "options": options(name),
                "rulings": rulings(name),
            }
        )
    return out


__all__ = ["OPTION_MEANINGS", "describe_games", "options", "rulings"]
