"""The fast engines refine the reference engines (bgrules.core.refinement, docs/refinement.md): along
seeded random and greedy playouts of every game, for every player count and under every value of every
ruling switch, the two agree at every state (legal actions in order, each successor, chance outcomes with
their probabilities, the terminal test, scores and winners). One harness for all of them; heavier sweeps
(more games, every ruling at every player count) under ``-m heavy``."""

from __future__ import annotations

import typing
from typing import Any

import attrs
import pytest

from bgrules.agents import make_agent
from bgrules.core.refinement import compare_walks, reference_of
from bgrules.core.registry import load_game

GAMES = (("botfactory", (2, 3, 4)), ("mechanica", (2, 3, 4)), ("mechanica-factory", (1,)))
EXTRA_VALUES: dict[str, tuple[object, ...]] = {"bots_per_colour_to_end": (1, 2), "bots_per_grade": (3,)}
"""Values to try of the whole-number rulings (the others: every Literal value and both booleans)."""


def readings(name: str) -> list[tuple[str, object]]:
    """(ruling, value) for every value of every ruling of ``name`` other than its default."""
    rulings_class = type(load_game(name).variant.rulings)  # type: ignore[attr-defined]
    hints = typing.get_type_hints(rulings_class)
    out: list[tuple[str, object]] = []
    for field in attrs.fields(rulings_class):
        hint = hints[field.name]
        if typing.get_origin(hint) is typing.Literal:
            values: tuple[object, ...] = typing.get_args(hint)
        elif hint is bool:
            values = (True, False)
        else:
            values = EXTRA_VALUES.get(field.name, ())
        out.extend((field.name, v) for v in values if v != field.default)
    return out


def _pair(name: str, players: int, ruling: tuple[str, object] | None = None, **options: Any) -> tuple[Any, Any]:
    variant = None if ruling is None else {"rulings": {ruling[0]: ruling[1]}}
    fast = load_game(name, players=players, variant=variant, **options)
    return fast, reference_of(fast)


def _greedy(players: int) -> Any:
    return lambda seed: tuple(make_agent("greedy") for _ in range(players))


def _checked(report: Any) -> None:
    assert report.states > 0
    assert report, f"seed {report.seed}: {report.difference}\n  after {len(report.trace)} steps: {report.trace[-5:]}"


@pytest.mark.parametrize(("name", "players"), [(n, p) for n, counts in GAMES for p in counts])
def test_the_engines_agree_on_random_play(name: str, players: int) -> None:
    fast, ref = _pair(name, players)
    _checked(compare_walks(fast, ref, seeds=range(2), max_steps=1500))


@pytest.mark.parametrize(("name", "players"), [("botfactory", 2), ("mechanica", 3), ("mechanica", 2)])
def test_the_engines_agree_on_greedy_play_to_the_end(name: str, players: int) -> None:
    fast, ref = _pair(name, players)
    report = compare_walks(fast, ref, seeds=[0], agents=_greedy(players))
    _checked(report)
    assert report.finished == 1, "a greedy game ends by the rules: scores and winners compared"


@pytest.mark.parametrize(
    ("name", "ruling"), [(n, r) for n in ("botfactory", "mechanica", "mechanica-factory") for r in readings(n)]
)
def test_the_engines_agree_under_every_ruling(name: str, ruling: tuple[str, object]) -> None:
    players = 1 if name == "mechanica-factory" else 3
    fast, ref = _pair(name, players, ruling)
    _checked(compare_walks(fast, ref, seeds=[1], max_steps=1200))


def test_the_engines_agree_on_a_short_capped_bot_factory() -> None:
    fast, ref = _pair("botfactory", 4, max_rounds=2)
    report = compare_walks(fast, ref, seeds=range(3))
    _checked(report)
    assert report.finished == 3


@pytest.mark.heavy
@pytest.mark.parametrize(("name", "players"), [(n, p) for n, counts in GAMES for p in counts])
def test_the_engines_agree_on_many_games_under_every_ruling(name: str, players: int) -> None:
    for ruling in [None, *readings(name)]:
        fast, ref = _pair(name, players, ruling)
        _checked(compare_walks(fast, ref, seeds=range(4)))
        _checked(compare_walks(fast, ref, seeds=[7], agents=_greedy(players)))
