"""Part Production board (02): the Wheel (BF-PROD, BF-PROD-ROTATE, BF-PROD-TAKE, BF-PROD-MARK), the trade
(BF-PROD-TRADE) and Sandra's refill (BF-PROD-SANDRA)."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

import attrs

from bgrules.botfactory.reference.common import add_part, drawable, part_leaves_play, remove_part, replace
from bgrules.botfactory.state import BotFactoryState, Job, Refill, TakeOutput, TakeTop, Trade

if TYPE_CHECKING:
    from bgrules.botfactory.reference.game import ReferenceBotFactoryGame


def rotate(s: BotFactoryState) -> BotFactoryState:
    """BF-PROD-ROTATE: the Wheel turns two spaces clockwise: the tile on position p goes to p + 2 (mod 8)."""
    return attrs.evolve(s, wheel=tuple(s.wheel[(p - 2) % 8] for p in range(8)))


def first_empty_top(g: ReferenceBotFactoryGame, s: BotFactoryState, after: int | None = None) -> int | None:
    """BF-PROD-ROTATE: the next empty top space to offer a refill for, left first (after ``after``)."""
    tops = g.c.wheel.top
    start = 0 if after is None else tops.index(after) + 1
    for p in tops[start:]:
        if s.wheel[p] is None:
            return p
    return None


def refills(g: ReferenceBotFactoryGame, s: BotFactoryState, position: int) -> tuple[Refill, ...]:
    """BF-PROD-ROTATE / BF-PILE: fill ``position`` from any pile (colour order) that has a tile to draw."""
    return tuple(Refill(position, name) for c, name in enumerate(g.colours) if drawable(s, c))


def takes(g: ReferenceBotFactoryGame, s: BotFactoryState) -> tuple[TakeOutput, ...]:
    """BF-PROD-TAKE: an output space (left first) holding a tile."""
    return tuple(TakeOutput(p) for p in g.c.wheel.output if s.wheel[p] is not None)


def take(g: ReferenceBotFactoryGame, s: BotFactoryState, seat: int, position: int) -> tuple[BotFactoryState, bool]:
    """BF-PROD-TAKE: the tile goes to the hand; returns whether the space bears the mark (BF-PROD-MARK)."""
    part = s.wheel[position]
    assert part is not None
    s = add_part(attrs.evolve(s, wheel=replace(s.wheel, position, None)), seat, part)
    return s, position in g.c.wheel.marked


def top_takes(g: ReferenceBotFactoryGame, s: BotFactoryState) -> tuple[TakeTop, ...]:
    """BF-ASM-ICON / BF-PROD-TRADE / BF-SETUP-PARTS: the top of any pile (colour order) with a tile to draw."""
    return tuple(TakeTop(name) for c, name in enumerate(g.colours) if drawable(s, c))


def trades(g: ReferenceBotFactoryGame, s: BotFactoryState, seat: int) -> tuple[Trade, ...]:
    """BF-PROD-TRADE: each distinct three of the hand's parts (in sorted order), each with each pile (colour
    order) that has a tile to draw."""
    hand = s.hands[seat]
    threes = list(dict.fromkeys(combinations(hand.parts, 3)))
    colours = top_takes(g, s)
    return tuple(Trade(three, t.colour) for three in threes for t in colours)


def trade(g: ReferenceBotFactoryGame, s: BotFactoryState, seat: int, action: Trade) -> BotFactoryState:
    """BF-PROD-TRADE: the three parts leave play; a draw from the chosen pile to the hand."""
    for part in action.parts:
        s = remove_part(s, seat, part)
        s = part_leaves_play(g, s, part)
    job: Job = ("part", g.colours.index(action.colour), "hand", seat, 0)
    return attrs.evolve(s, draws=(*s.draws, job))


def sandra(g: ReferenceBotFactoryGame, s: BotFactoryState) -> BotFactoryState:
    """BF-PROD-SANDRA: every empty Wheel space, clockwise from ``[wheel] sandra_start``, gets a marker draw."""
    start = g.c.wheel.sandra_start
    jobs: tuple[Job, ...] = tuple(
        ("part", -1, "wheel", (start + k) % 8, 0) for k in range(8) if s.wheel[(start + k) % 8] is None
    )
    return attrs.evolve(s, draws=s.draws + jobs)
