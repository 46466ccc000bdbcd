"""bgrules.core.memo: a game's memos, bounded and emptied together."""

from __future__ import annotations

import pytest

from bgrules.core.memo import Memo, Memos


def test_a_memo_is_emptied_once_past_its_bound_and_put_returns_the_value() -> None:
    memo: Memo[int, str] = Memo("m", 2)
    for i in range(3):
        assert memo.put(i, str(i)) == str(i)
    assert len(memo) == 3 and memo.get(0) == "0"  # at most bound + 1 entries
    memo.put(3, "3")
    assert dict(memo) == {3: "3"}


def test_the_memos_of_one_owner_are_found_by_name_and_cleared_together() -> None:
    memos = Memos()
    a = memos.memo("a", 10)
    b = memos.memo("b", 10)
    assert memos.memo("a", 10) is a and memos["b"] is b and "a" in memos and "c" not in memos
    a.put(1, 1)
    b.put(2, 2)
    assert memos.sizes() == {"a": 1, "b": 1}
    memos.clear()
    assert memos.sizes() == {"a": 0, "b": 0} and memos["a"] is a
    assert [m.name for m in memos] == ["a", "b"]


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
