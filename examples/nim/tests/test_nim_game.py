"""Nim's own tests (run in bgrules' default test run too: its pyproject's testpaths). They use bgrules'
public API only: the Game protocol, IllegalAction, explore, dumps/loads."""

from __future__ import annotations

import pytest
from bgrules_nim import DESCRIPTOR
from bgrules_nim.game import NimGame, NimState, Take, canonical
from bgrules_nim.invariants import a_move_takes_from_one_heap, heaps_never_negative

import bgrules


def test_the_descriptor_is_well_formed_and_names_the_game_class() -> None:
    assert DESCRIPTOR.problems() == []
    assert DESCRIPTOR.part("game") is NimGame
    assert DESCRIPTOR.option_names() == ("heaps", "max_take")


def test_a_take_lowers_one_heap_and_passes_the_move() -> None:
    game = NimGame(players=3, heaps=(2, 1))
    after = game.apply(game.initial_state(), Take(0, 2))
    assert after == NimState((0, 1), 1, 0)


def test_max_take_bounds_the_legal_takes() -> None:
    game = NimGame(heaps=(5,), max_take=2)
    assert game.legal_actions(game.initial_state()) == (Take(0, 1), Take(0, 2))


@pytest.mark.parametrize("action", [Take(0, 3), Take(0, 0), Take(2, 1), "take"])
def test_an_illegal_take_names_nim_take(action: object) -> None:
    game = NimGame(heaps=(2, 1))
    with pytest.raises(bgrules.IllegalAction) as caught:
        game.apply(game.initial_state(), action)
    assert caught.value.rule_id == "NIM-TAKE"


def test_whoever_takes_the_last_stone_wins() -> None:
    game = NimGame(heaps=(1, 1))
    state = game.apply(game.apply(game.initial_state(), Take(0, 1)), Take(1, 1))
    assert game.is_terminal(state) and game.to_move(state) is None
    assert game.winners(state) == (1,) and game.scores(state) == (0, 1)
    with pytest.raises(bgrules.IllegalAction, match="NIM-END"):
        game.apply(state, Take(0, 1))


def test_the_invariants_hold_on_every_explored_edge_and_catch_a_bad_one() -> None:
    game = NimGame(heaps=(2, 3), max_take=2)
    state = game.initial_state()
    for action in game.legal_actions(state):
        after = game.apply(state, action)
        assert heaps_never_negative(game, after) is None
        assert a_move_takes_from_one_heap(game, state, action, after) is None
    assert a_move_takes_from_one_heap(game, state, Take(1, 3), NimState((2, 0), 1, 0)) is not None  # 3 > max_take
    assert a_move_takes_from_one_heap(game, state, Take(0, 1), NimState((1, 2), 1, 0)) is not None  # two heaps
    assert heaps_never_negative(game, NimState((-1, 3), 1, 0)) is not None


def test_the_symmetry_merges_swapped_heaps_and_the_exploration_is_complete() -> None:
    game = NimGame(heaps=(1, 2))
    assert canonical(game, NimState((2, 1), 0)) == canonical(game, NimState((1, 2), 0))
    found = bgrules.explore(game, symmetry=False)  # state by state: 1 + 3 + 3 + 1 (tests/core/test_plugin_game.py: 7)
    assert found.complete and found.distinct == 8


def test_a_state_round_trips_through_the_codec() -> None:
    game = NimGame(heaps=(3, 4, 5))
    state = game.apply(game.initial_state(), Take(2, 4))
    assert bgrules.loads(game, bgrules.dumps(state)) == state
