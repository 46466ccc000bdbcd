"""Shared plumbing of the reference engine: the game's data as plain attributes, token arithmetic and the
hand helpers (BF-LIMIT-TOKENS), all written from docs/rules/botfactory.md.

Nothing here is memoised: every function reads the state it is given and returns a new one with
``attrs.evolve``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from bgrules.botfactory.state import BotFactoryState, Hand

if TYPE_CHECKING:
    from bgrules.botfactory.reference.game import ReferenceBotFactoryGame

BOARD_ASSEMBLY, BOARD_PRODUCTION, BOARD_PROJECT, BOARD_FINANCE = 0, 1, 2, 3


def board_of(g: ReferenceBotFactoryGame, space: int) -> int:
    """The board (0 Assembly, 1 Production, 2 Project, 3 Finance) action space ``space`` lies on."""
    return g.spaces[space][0]


def actions_of(g: ReferenceBotFactoryGame, space: int) -> int:
    """The action count N printed on action space ``space``."""
    return g.spaces[space][2]


def colour_of(part: str) -> str:
    return part.split("-", 1)[0]


def slot_of(part: str) -> str:
    return part.split("-", 1)[1]


def set_hand(s: BotFactoryState, seat: int, hand: Hand) -> BotFactoryState:
    return attrs.evolve(s, hands=(*s.hands[:seat], hand, *s.hands[seat + 1 :]))


def replace(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*items[:index], value, *items[index + 1 :])


def gain_tokens(g: ReferenceBotFactoryGame, s: BotFactoryState, seat: int, amount: int) -> BotFactoryState:
    """BF-LIMIT-TOKENS: a gain of ``amount`` tokens from the supply of the player's colour, cut at the cap of
    held tokens and at what the supply holds; the rest is lost (stays in the supply)."""
    hand = s.hands[seat]
    got = max(0, min(amount, g.c.counts.token_cap - hand.tokens, s.supply[seat]))
    s = set_hand(s, seat, attrs.evolve(hand, tokens=hand.tokens + got))
    return attrs.evolve(s, supply=replace(s.supply, seat, s.supply[seat] - got))


def pay_tokens(s: BotFactoryState, seat: int, amount: int, to_supply: int | None = None) -> BotFactoryState:
    """BF-LIMIT-TOKENS: ``amount`` held tokens leave the hand; ``to_supply`` of them (all by default) go back
    to the supply (the others lie on a contract, BF-FIN-CONTRACT)."""
    back = amount if to_supply is None else to_supply
    hand = s.hands[seat]
    s = set_hand(s, seat, attrs.evolve(hand, tokens=hand.tokens - amount))
    return attrs.evolve(s, supply=replace(s.supply, seat, s.supply[seat] + back))


def add_part(s: BotFactoryState, seat: int, part: str) -> BotFactoryState:
    """A part tile into a hand (hands keep their parts sorted)."""
    hand = s.hands[seat]
    return set_hand(s, seat, attrs.evolve(hand, parts=tuple(sorted((*hand.parts, part)))))


def remove_part(s: BotFactoryState, seat: int, part: str) -> BotFactoryState:
    hand = s.hands[seat]
    parts = list(hand.parts)
    parts.remove(part)
    return set_hand(s, seat, attrs.evolve(hand, parts=tuple(parts)))


def part_leaves_play(g: ReferenceBotFactoryGame, s: BotFactoryState, part: str) -> BotFactoryState:
    """A part tile leaving play goes to its colour's discard; a Universal part back to the Universal supply
    (docs: Rules, "Discard"; ruling 20)."""
    colour, slot = colour_of(part), slot_of(part)
    k = g.slots.index(slot)
    if colour == "any":
        return attrs.evolve(s, universal=replace(s.universal, k, s.universal[k] + 1))
    c = g.colours.index(colour)
    return attrs.evolve(s, discards=replace(s.discards, c, replace(s.discards[c], k, s.discards[c][k] + 1)))


def drawable(s: BotFactoryState, c: int) -> bool:
    """BF-PILE: a player may choose colour ``c``'s pile if it or its discard holds a tile."""
    return sum(s.piles[c]) + sum(s.discards[c]) > 0
