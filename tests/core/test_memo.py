"""bgrules.core.memo: a game's memos, bounded and emptied together."""

from __future__ import annotations

import pytest

from bgrules.core.memo import Memos


def test_a_memo_is_emptied_once_past_its_bound_and_put_returns_the_value() -> None:
    memos = Memos()
    memo: dict[int, str] = memos.memo("m", 2)
    for i in range(3):
        assert memos.put(memo, i, str(i)) == str(i)
    assert len(memo) == 3 and memo.get(0) == "0" and memos.bound("m") == 2  # at most bound + 1 entries
    memos.put(memo, 3, "3")
    assert memo == {3: "3"}


def test_put_refuses_a_dict_that_is_not_one_of_the_memos() -> None:
    with pytest.raises(KeyError):
        Memos().put({}, 1, 1)


def test_the_memos_of_one_owner_are_found_by_name_and_cleared_together() -> None:
    memos = Memos()
    a = memos.memo("a", 10)
    b = memos.memo("b", 10)
    assert memos.memo("a", 10) is a and memos["b"] is b and "a" in memos and "c" not in memos
    memos.put(a, 1, 1)
    memos.put(b, 2, 2)
    assert memos.sizes() == {"a": 1, "b": 1}
    memos.clear()
    assert memos.sizes() == {"a": 0, "b": 0} and memos["a"] is a and list(memos) == ["a", "b"]


def test_a_memo_has_one_bound() -> None:
    memos = Memos()
    memos.memo("a", 10)
    with pytest.raises(ValueError, match="bound 10"):
        memos.memo("a", 20)


def test_two_games_keep_their_own_memos() -> None:
    from bgrules.botfactory.game import BotFactoryGame
    from bgrules.core.playout import walk

    game, other = BotFactoryGame(players=2), BotFactoryGame(players=2)
    for _ in walk(game, 0, 200):
        pass
    assert game.memos["options"] and not other.memos["options"]
    assert game._options_memo is game.memos["options"]
    game.memos.clear()
    assert not any(game.memos.sizes().values())


def test_joined_memos_are_emptied_with_the_memos_that_join_them() -> None:
    shared, own = Memos(), Memos()
    own.join(shared)
    own.join(shared)  # joined once
    memo = shared.memo("s", 10)
    shared.put(memo, 1, 1)
    shared.clear()
    assert memo == {}  # emptying the shared memos leaves the joining ones alone
    shared.put(memo, 1, 1)
    own.clear()
    assert memo == {} and shared["s"] is memo


def test_a_copy_of_memos_is_empty_memos() -> None:
    import copy
    import pickle

    memos = Memos()
    memos.put(memos.memo("m", 5), 1, 1)
    for other in (copy.copy(memos), copy.deepcopy(memos), pickle.loads(pickle.dumps(memos))):
        assert type(other) is Memos and other == {}
        other.put(other.memo("m", 5), 2, 2)  # a working facility of its own
    assert memos["m"] == {1: 1}


@pytest.mark.parametrize("make", ["game", "sandbox"])
def test_a_mechanica_game_empties_its_catalogues_memos_with_its_own(make: str) -> None:
    """The catalogue's memos (placements, options tables, routes, tile values) are shared by the games of
    that catalogue and emptied by any one game's ``memos.clear()``."""
    import random

    import bgrules
    from bgrules.mechanica.sandbox import FactoryGame

    game = bgrules.load_game("mechanica", players=2) if make == "game" else FactoryGame()
    state = game.initial_state()
    rng = random.Random(3)
    for _ in range(300):
        if game.is_terminal(state):
            break
        if game.to_move(state) is bgrules.CHANCE:
            outcomes = game.chance_outcomes(state)
            state = game.apply(state, rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state = game.apply(state, rng.choice(game.legal_actions(state)))
    shared = game.variant.catalogue.memos
    assert any(shared.sizes().values())
    game.memos.clear()
    assert not any(shared.sizes().values()) and not any(game.memos.sizes().values())
