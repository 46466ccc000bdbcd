"""``bgrules render``: a state (a ``bgrules-state`` file or a bare state with ``--game``) or a factory in
the text notation, drawn as text or as an SVG picture."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bgrules.core.codec import read_text
from bgrules.core.errors import InputError
from bgrules.pictures import draw
from bgrules.runners import factory as factory_file
from bgrules.runners.commands.state import read_state
from bgrules.runners.trace import picture


def render(
    path: Path,
    *,
    variant: Path | None,
    game_name: str | None,
    players: int | None,
    options: dict[str, Any],
    svg: bool,
) -> str:
    """The text picture of the file (``svg`` False: ending in a newline) or its SVG picture."""

    text = read_text(path)
    if path.suffix.lower() == ".json" or text.lstrip().startswith(("{", "[")):
        name, game, state = read_state(path, text, game_name, players, variant, options)
        if not svg:
            art = picture(game, state)
            if art is None:
                raise InputError("--svg", f"a {name} state has no text picture: draw it with --svg OUT.svg")
            return art if art.endswith("\n") else art + "\n"

        drawn: str = draw(game, state)
        return drawn

    if game_name is not None and game_name not in factory_file.GAMES:
        raise InputError("--game", f"{path} is a Mechanica factory in the text notation, not a {game_name} state")
    return factory_file.picture(text, variant, str(path), svg=svg)
