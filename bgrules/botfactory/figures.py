"""The Bot Factory seed's figures (seed 000_a7a09e9bc70ab148.txt, Chinese), pinned: see bgrules.core.figures."""

from __future__ import annotations

from typing import Any

from bgrules.botfactory.state import Hand, PlacePart
from bgrules.core.figures import Figure
from bgrules.core.playout import walk

SEED = "000_a7a09e9bc70ab148.txt"


def _counts(key: str) -> Any:
    return lambda game: getattr(game.c.counts, key)


def _score_of(game: Any, **hand: Any) -> int:
    """BF-SCORE's effect, not its arithmetic: the score the engine gives seat 0 of the initial state when
    seat 0's hand is set to ``hand`` (no bots, no contracts: only tokens, parts and Projects count)."""
    import attrs

    state = game.initial_state()
    hands = (Hand(**{"tokens": 0, **hand}), *state.hands[1:])
    score: int = game.scores(attrs.evolve(state, hands=hands))[0]
    return score


def _tokens_per_point(game: Any) -> int | None:
    """The fewest unused tokens the engine scores a point for (None: no number up to 20 scores one)."""
    base = _score_of(game)
    return next((n for n in range(1, 21) if _score_of(game, tokens=n) - base >= 1), None)


def _placement_gains(game: Any) -> dict[int, int]:
    """BF-ASM-REWARD's effect: the most tokens a placement by the engine paid the placer, by the bot's part
    count after it (1, 2), over sampled games' placements (seeds 0-9) where the placer held at most
    ``token_cap - 3`` tokens and the colour's supply had 3 (so a larger reward would show). Memoised per
    game object: a simulate run asks once per game."""
    memo = game.memos.memo("figures", 10)  # the game's memos (``bgrules.core.memo``)
    found: dict[int, int] | None = memo.get("placement_gains")
    if found is not None:
        return found

    gains: dict[int, int] = {}
    cap = game.c.counts.token_cap
    for seed in range(10):
        for before, action, after in walk(game, seed, 3000):
            if not isinstance(action, PlacePart):
                continue
            seat = next(i for i, (a, b) in enumerate(zip(before.hands, after.hands, strict=True)) if a.parts != b.parts)
            column = after.columns[game.colours.index(action.colour)]
            count = sum(x is not None for x in column)
            if count >= 3 or before.hands[seat].tokens > cap - 3 or before.supply[seat] < 3:
                continue
            gained = after.hands[seat].tokens - before.hands[seat].tokens
            gains[count] = max(gains.get(count, gained), gained)
        if len(gains) == 2:
            break
    return dict(game.memos.put(memo, "placement_gains", gains))


def _part_penalty(game: Any) -> int:
    return _score_of(game, parts=("red-head",)) - _score_of(game)


def _project_penalty(game: Any) -> int:
    return _score_of(game, projects=("red",)) - _score_of(game)


# fmt: off
FIGURES = (
    Figure(
        "botfactory", "token_cap", 9, SEED, 6, "話語指示物的持有上限是 9 個", "a player holds at most 9 tokens",
        _counts("token_cap"),
    ),
    Figure(
        "botfactory", "part_limit", 5, SEED, 79, "最多持有五個部件板塊", "at most five part tiles are held",
        _counts("part_limit"),
    ),
    Figure(
        "botfactory", "project_limit", 5, SEED, 97, "最多只能持有五個專案板塊",
        "at most five Project tiles may be held", _counts("project_limit"),
    ),
    Figure(
        "botfactory", "first_part_reward", 2, SEED, 52, "獲得兩個自己顏色的話語指示物。",
        "gain two Speech tokens of your colour (the 1st part)", lambda game: _placement_gains(game).get(1),
    ),
    Figure(
        "botfactory", "second_part_reward", 2, SEED, 53, "獲得兩個自己顏色的話語指示物。",
        "gain two Speech tokens of your colour (the 2nd part)", lambda game: _placement_gains(game).get(2),
    ),
    Figure(
        "botfactory", "tokens_per_point", 2, SEED, 143, "未使用的話語指示物，兩個一分。",
        "unused Speech tokens: one point per two", _tokens_per_point,
    ),
    Figure(
        "botfactory", "part_penalty", -1, SEED, 146, "每一個部件板塊扣一分。",
        "each part tile loses one point", _part_penalty,
    ),
    Figure(
        "botfactory", "project_penalty", -2, SEED, 147, "每一個未完成的專案板塊扣兩分。",
        "each unfinished Project tile loses two points", _project_penalty,
    ),
)
# fmt: on
