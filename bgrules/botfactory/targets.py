"""Targets of the searched checker for Bot Factory's specs (``target = "module:function"`` in specs/):
each gives a number from a state, and hypothesis steers its examples toward states where it is high
(``hypothesis.target``; docs/verify.md, "The searched checker"). They read the state only."""

from __future__ import annotations

from bgrules.botfactory.game import BotFactoryGame
from bgrules.botfactory.state import BotFactoryState


def fullest_hand(game: BotFactoryGame, state: BotFactoryState) -> float:
    """How close a player's hand comes to its limits (BF-LIMIT-TOKENS, BF-LIMIT-PARTS, BF-LIMIT-PROJECTS):
    the most, over the players, of tokens held / 9 + part tiles / 5 + Project tiles (completed ones
    included) / 5, so 3.0 is a hand at all three limits at once. Full hands are where the limits, the
    discards and the conservation of tokens, parts and Projects are put to the test."""
    c = game.c.counts
    best = 0.0
    for hand in state.hands:
        value = (
            hand.tokens / c.token_cap
            + len(hand.parts) / c.part_limit
            + (len(hand.projects) + len(hand.done)) / c.project_limit
        )
        best = max(best, value)
    return best


def most_tokens_held(game: BotFactoryGame, state: BotFactoryState) -> int:
    """The most Speech tokens a player holds (BF-LIMIT-TOKENS: at most 9)."""
    return max((hand.tokens for hand in state.hands), default=0)
