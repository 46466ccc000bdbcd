"""The fast paths of Bot Factory's third speed session (issue 12, item 3) give the answers of the plain
computations they replace, along seeded random playouts: the chance outcomes built from shared action
objects and Fractions."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from bgrules.botfactory.game import BotFactoryGame
from bgrules.botfactory.state import BotFactoryState, DrawContract, DrawPart, DrawProject
from bgrules.core.playout import walk


def _plain_outcomes(game: BotFactoryGame, state: BotFactoryState) -> tuple[tuple[Any, Fraction], ...]:
    """The next draw's outcomes computed afresh (0.7.0's ``_outcomes``: new objects every time)."""
    what, source, _dest, _a, _b = state.draws[0]
    if what == "contract":
        pool = state.contract_pool
        return tuple((DrawContract(i), Fraction(1, len(pool))) for i in pool)
    if what == "project":
        counts = state.project_pile
        total = sum(counts)
        return tuple((DrawProject(c), Fraction(k, total)) for c, k in zip(game.colours, counts, strict=True) if k)
    counts = state.piles[state.marker if source < 0 else source]
    total = sum(counts)
    return tuple((DrawPart(s), Fraction(k, total)) for s, k in zip(game.slots, counts, strict=True) if k)


def test_the_chance_outcomes_are_the_plain_ones() -> None:
    """At every chance node of seeded 2- and 4-player games (memo cold and warm): the same outcomes, in
    the same order, with the same probabilities; the memo miss path gives them too."""
    seen = 0
    for players in (2, 4):
        game = BotFactoryGame(players=players)
        for seed in range(4):
            for before, _action, _after in walk(game, seed):
                if not before.draws:
                    continue
                plain = _plain_outcomes(game, before)
                assert game.chance_outcomes(before) == plain
                key = game._chance_key(before)
                fresh = game._outcomes(key[0], key[1])
                assert fresh == plain
                assert [type(p) for _a, p in fresh] == [Fraction] * len(plain)
                seen += 1
    assert seen > 1000
