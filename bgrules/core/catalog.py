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

from bgrules.core.descriptor import GameDescriptor, Table, descriptor, descriptors, discover

OPTION_MEANINGS: Table[str, dict[str, str]] = Table(
    lambda: {d.name: dict(d.options) for d in descriptors()}, "OPTION_MEANINGS"
)
"""What each option of ``load_game`` means, per game (from the descriptors; a test checks that every option
has one)."""


def _text(value: Any) -> Any:
    """A default as JSON shows it (None stays null)."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def options(name: str) -> list[dict[str, Any]]:
    """The options of ``load_game(name, ...)``: name, default and meaning."""
    found = descriptor(name)
    cls = found.part("game", "games")
    meanings = dict(found.options)
    out = []
    for p in inspect.signature(cls.__init__).parameters.values():
        if p.name in ("self", "players", "variant") or p.kind in (p.VAR_KEYWORD, p.VAR_POSITIONAL):
            continue
        out.append(
            {
                "name": p.name,
                "default": _text(None if p.default is inspect.Parameter.empty else p.default),
                "meaning": meanings.get(p.name, ""),
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

    found = descriptor(name)
    if found.variant is None:
        return []
    cls = found.part("variant", "games").Rulings
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
    return [_describe(d) for d in descriptors()]


def _describe(found: GameDescriptor) -> dict[str, Any]:
    lo, hi = found.players
    return {
        "name": found.name,
        "min_players": lo,
        "max_players": hi,
        "default_players": found.default_players,
        "options": options(found.name),
        "rulings": rulings(found.name),
    }


def describe_all() -> tuple[list[dict[str, Any]], list[str]]:
    """``bgrules games``: the games that load (as :func:`describe_games`) and a line per problem: an entry
    point that failed to import or gave a malformed descriptor, or a game whose parts cannot be read."""

    found = discover()
    problems = list(found.problems)
    out = []
    for d in descriptors():
        try:
            out.append(_describe(d))
        except Exception as exc:  # a plug-in game's code may raise anything: report it, in one line
            why = " ".join(str(exc).split()) or type(exc).__name__
            problems.append(f"package {found.package(d.name)}: game {d.name!r} cannot be described: {why}")
    return out, problems


__all__ = ["OPTION_MEANINGS", "describe_all", "describe_games", "options", "rulings"]
