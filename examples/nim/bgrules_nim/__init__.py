"""Nim as a bgrules game: the example of docs/extending.md, built on bgrules' public API only.

The package exports its descriptor, :data:`DESCRIPTOR`, which its pyproject.toml registers in the entry-point
group ``bgrules.games``; once installed (``pip install -e examples/nim``), ``bgrules.load_game("nim")`` and
every command (``bgrules games``, ``simulate``, ``verify --specs examples/nim/specs``, ``explore``) find it.
"""

from __future__ import annotations

from pathlib import Path

from bgrules.core.descriptor import GameDescriptor

DESCRIPTOR = GameDescriptor(
    name="nim",
    game="bgrules_nim.game:NimGame",
    players=(2, 4),
    default_players=2,
    options={
        "heaps": "the stones in each heap at the start (NIM-SETUP)",
        "max_take": "the most stones one move may take (NIM-TAKE); none: a whole heap",
    },
    rule_prefix="NIM",
    rules_doc="nim",
    evaluation="bgrules_nim.game",
    symmetries="bgrules_nim.game:canonical",
    specs=Path(__file__).resolve().parent.parent / "specs",
)
"""Nim's descriptor: the entry point ``nim`` of ``bgrules.games``. No variant, reference engine, adapters'
codec or picture: the tools that need one say that Nim provides none."""

__all__ = ["DESCRIPTOR"]
