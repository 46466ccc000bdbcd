"""Every reading of Mechanica's rulings, for the tests that check the fast paths under each one
(tests/mechanica/test_fast_paths.py, test_workday_fast_paths.py, test_invariant_fast_paths.py). The fast
engine's answers under each ruling are held to the reference engine by tests/refinement/test_engines.py."""

from __future__ import annotations

import typing

import attrs

from bgrules.mechanica.game import MechanicaGame
from bgrules.mechanica.variant import MechanicaVariant, Rulings


def _ruling_values() -> list[tuple[str, object]]:
    """(field, value) for every value of every Literal or bool ruling other than its default."""
    hints = typing.get_type_hints(Rulings)
    out: list[tuple[str, object]] = [("default", None)]
    for field in attrs.fields(Rulings):
        hint = hints[field.name]
        values: tuple[object, ...] = ()
        if typing.get_origin(hint) is typing.Literal:
            values = typing.get_args(hint)
        elif hint is bool:
            values = (True, False)
        out.extend((field.name, v) for v in values if v != field.default)
    return out


RULINGS = _ruling_values()


def ruled_game(field: str, value: object, players: int) -> MechanicaGame:
    """The game with ruling ``field`` set to ``value`` ("default": every ruling at its default)."""
    rulings = Rulings() if field == "default" else Rulings(**{field: value})
    return MechanicaGame(players=players, variant=MechanicaVariant(rulings=rulings))
