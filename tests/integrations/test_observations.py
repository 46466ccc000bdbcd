"""The observation encodings (bgrules.integrations.observations): the one-hot encoding's bounds come from the
games' data and hold in play, every categorical entry is one-hot, and the encoding loses nothing."""

from __future__ import annotations

import random

import pytest

import bgrules
from bgrules.core.errors import InputError
from bgrules.core.protocol import CHANCE
from bgrules.integrations.observations import (
    DAY_SCALE,
    MONEY_SCALE,
    check_encoding,
    encode_onehot,
    feature_names,
    feature_specs,
    observe,
    observe_onehot,
    onehot_names,
)

SEATINGS = [("mechanica", 2), ("mechanica", 3), ("mechanica", 4), ("mechanica-factory", 1)] + [
    ("botfactory", n) for n in (2, 3, 4)
]


def _game(name: str, players: int) -> bgrules.Game:
    return bgrules.load_game(name, players=players, **({"max_rounds": 40} if name == "botfactory" else {}))


def _states(game: bgrules.Game, seeds: range, steps: int, every: int):
    """Every ``every``-th state of seeded random playouts (chance drawn with its probabilities), and the
    last."""
    for seed in seeds:
        rng = random.Random(seed)
        state = game.initial_state()
        for step in range(steps):
            if step % every == 0 or game.is_terminal(state):
                yield state
            if game.is_terminal(state):
                break
            if game.to_move(state) is CHANCE:
                outcomes = game.chance_outcomes(state)
                action = rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
            else:
                action = rng.choice(game.legal_actions(state))
            state = game.apply(state, action)


def _decode(game: bgrules.Game, onehot: list[float]) -> list[float]:
    """The vector back from its one-hot encoding: categories from where the 1 is, counts times their bound,
    soft-scaled entries by inverting v / (v + s)."""
    out: list[float] = []
    i = 0
    for kind, size in feature_specs(game):
        if kind == "cat":
            group = onehot[i : i + size]
            assert sorted(group) == [0.0] * (size - 1) + [1.0], "a categorical entry that is not one-hot"
            out.append(group.index(1.0))
            i += size
        elif kind == "count":
            out.append(onehot[i] * size)
            i += 1
        else:
            out.append(onehot[i] * size / (1 - onehot[i]))
            i += 1
    assert i == len(onehot)
    return out


def _check_in_play(name: str, players: int, seeds: range, steps: int, every: int) -> int:
    """In seeded playouts every count stays within its bound and every categorical value within its
    categories (the encoding never clips), every entry is in [0, 1], and the vector decodes back; how many
    observations were checked."""
    game = _game(name, players)
    names, specs = feature_names(game), feature_specs(game)
    assert len(specs) == len(names)
    width = len(onehot_names(game))
    seen = 0
    for state in _states(game, seeds, steps, every):
        for seat in range(players):
            vector = observe(game, state, seat)
            over = [
                (entry, value, size)
                for entry, value, (kind, size) in zip(names, vector, specs, strict=True)
                if value < 0 or (kind == "cat" and value >= size) or (kind == "count" and value > size)
            ]
            assert not over
            onehot = observe_onehot(game, state, seat)
            assert len(onehot) == width and min(onehot) >= 0 and max(onehot) <= 1
            assert max(abs(a - b) for a, b in zip(_decode(game, onehot), vector, strict=True)) < 1e-9
            seen += 1
    return seen


@pytest.mark.parametrize(("name", "players"), SEATINGS)
def test_the_onehot_encoding_holds_in_play_and_loses_nothing(name: str, players: int) -> None:
    # the sandbox's random games are short (a few dozen decisions): every other state of them
    every = 2 if name == "mechanica-factory" else 12
    assert _check_in_play(name, players, range(3), 600, every) >= 12


@pytest.mark.heavy
@pytest.mark.parametrize(("name", "players"), SEATINGS)
def test_the_onehot_encoding_holds_in_longer_play(name: str, players: int) -> None:
    assert _check_in_play(name, players, range(3, 23), 5000, 3) >= 200


def test_the_bounds_are_the_games_data() -> None:
    bf = _game("botfactory", 3)
    spec = dict(zip(feature_names(bf), feature_specs(bf), strict=True))
    counts = bf.c.counts
    assert spec["seat[0].tokens"] == ("count", counts.token_cap) == ("count", 9)
    assert spec["seat[2].parts.any-legs"] == ("count", counts.universal_per_slot)
    assert spec["seat[1].parts.red-head"] == ("count", counts.parts_per_colour_slot)
    assert spec["round"] == ("count", 40)
    assert spec["columns.red.head"] == ("cat", 16)  # none or one of the 15 part names
    assert spec["to_move"] == ("cat", 5)  # a seat, chance, the end
    uncapped = bgrules.load_game("botfactory", players=2)
    assert dict(zip(feature_names(uncapped), feature_specs(uncapped), strict=True))["round"] == ("soft", DAY_SCALE)
    mc = _game("mechanica", 2)
    spec = dict(zip(feature_names(mc), feature_specs(mc), strict=True))
    assert spec["deck.upgrader"] == ("count", mc.variant.catalogue.tiles["upgrader"].copies) == ("count", 3)
    assert spec["stock.basic"] == ("count", mc.variant.rulings.bots_per_grade)
    assert spec["seat[0].wallet"] == ("soft", MONEY_SCALE)
    assert spec["seat[1].floor[3].rotation"] == ("cat", 4)


def test_known_onehot_entries() -> None:
    game = _game("botfactory", 2)
    state = game.initial_state()
    vector = observe(game, state, 0)
    onehot = dict(zip(onehot_names(game), observe_onehot(game, state, 0), strict=True))
    tokens = vector[feature_names(game).index("seat[0].tokens")]
    assert onehot["seat[0].tokens"] == tokens / 9
    mover = vector[feature_names(game).index("to_move")]
    assert [onehot[f"to_move={v}"] for v in range(4)] == [1.0 if v == mover else 0.0 for v in range(4)]
    assert "seat[0].worker=0" in onehot and "seat[0].worker" not in onehot
    # a count past its bound is written 1, a category out of range none of its entries (never in play)
    specs = feature_specs(game)
    wide = list(vector)
    wide[feature_names(game).index("seat[0].tokens")] = 50
    wide[feature_names(game).index("to_move")] = 99
    clipped = dict(zip(onehot_names(game), encode_onehot(game, wide), strict=True))
    assert clipped["seat[0].tokens"] == 1.0 and all(clipped[f"to_move={v}"] == 0.0 for v in range(specs[1][1]))


def test_a_bad_encoding_is_one_line() -> None:
    assert check_encoding("onehot") == "onehot"
    with pytest.raises(InputError, match='observation: "vector" or "onehot", not'):
        check_encoding("pixels")
