"""Pictures of the games' states as SVG (drawn with drawsvg), and PNG through cairosvg.

* :func:`draw` ``(game, state)``: the picture of any state of any registered game;
* :func:`draw_factory` ``(factory, variant=None)``: one Mechanica factory board;
* :func:`to_png` ``(svg_text)``: PNG bytes (the ``png`` extra: ``pip install 'bgrules[png]'``).

The output is deterministic: the same state gives byte-identical SVG text. What each picture shows:
docs/pictures.md.
"""

from __future__ import annotations

from typing import Any

from bgrules.core.descriptor import descriptors, find
from bgrules.core.errors import InputError, require_extra
from bgrules.core.protocol import Game
from bgrules.mechanica.board import Factory
from bgrules.pictures.factory import draw_factory

__all__ = ["draw", "draw_factory", "to_png"]


def _state_games() -> dict[type, str]:
    """Each registered game's state class (its descriptor's ``state_type``) and the game's name."""

    return {d.part("state_type", "pictures"): d.name for d in descriptors() if d.state_type is not None}


def draw(game: Game, state: Any) -> str:
    """The SVG document text of ``state``, a state of ``game`` (a game from :func:`bgrules.load_game`), drawn
    by the game's descriptor's ``picture``. A state of another game, something that is no state, or a state
    the game's ``validate`` finds broken (another player count, an unknown tile, an index out of range), or a
    game without a picture function, raises :class:`bgrules.InputError` naming the problem."""

    info = getattr(game, "info", None)
    name = getattr(info, "name", None)
    found = find(name)
    if found is None:
        raise InputError("game", f"no pictures for {game!r}: pass a game from bgrules.load_game")
    picture = found.part("picture", "pictures")
    if found.state_type is not None:
        owners = _state_games()
        owner = owners.get(type(state))
        if owner is None:
            hint = "; draw a lone factory with bgrules.pictures.draw_factory" if isinstance(state, Factory) else ""
            raise InputError("state", f"a {type(state).__name__} is not a state of any game, not of {name}{hint}")
        if owner != name:
            raise InputError("state", f"a {type(state).__name__} is a state of {owner}, not of {name}")
    problems = game.validate(state) if hasattr(game, "validate") else []
    if problems:
        more = f" (and {len(problems) - 1} more problem(s))" if len(problems) > 1 else ""
        raise InputError("state", f"not a {name} state this game can have: {problems[0]}{more}")
    return str(picture(game, state))


def to_png(svg_text: str) -> bytes:
    """The PNG image of an SVG document (needs cairosvg: ``pip install 'bgrules[png]'``, else
    :class:`bgrules.core.errors.MissingExtra`)."""
    cairosvg: Any = require_extra("cairosvg", "png", "--png")
    if not isinstance(svg_text, str):
        raise InputError("svg", f"an SVG document's text, not {type(svg_text).__name__}")
    png = cairosvg.svg2png(bytestring=svg_text.encode("utf-8"))
    assert isinstance(png, bytes)
    return png
