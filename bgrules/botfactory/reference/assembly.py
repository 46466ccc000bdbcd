"""Assembly board (01): placing parts (BF-ASM, BF-ASM-REWARD, BF-ASM-PROJECT, BF-ASM-ICON), the swap
(BF-ASM-SWAP) and Sandra's refill of the spare parts (BF-ASM-SANDRA)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from bgrules.botfactory.reference.common import (
    colour_of,
    gain_tokens,
    part_leaves_play,
    pay_tokens,
    remove_part,
    replace,
    set_hand,
    slot_of,
)
from bgrules.botfactory.state import BotFactoryState, Job, PlacePart, Swap

if TYPE_CHECKING:
    from bgrules.botfactory.reference.game import ReferenceBotFactoryGame


def placements(g: ReferenceBotFactoryGame, s: BotFactoryState, seat: int) -> tuple[PlacePart, ...]:
    """BF-ASM / BF-ASM-PROJECT: each distinct part in the hand (sorted) onto each bot (colour order) whose
    space for its slot is empty: its own colour's bot, or any bot for a Universal part; the bot's third part
    only with an unfinished Project tile of its colour in hand and a bot of that colour left (ruling 26)."""
    hand = s.hands[seat]
    out = []
    for part in sorted(set(hand.parts)):
        colour, slot = colour_of(part), slot_of(part)
        k = g.slots.index(slot)
        for c, name in enumerate(g.colours):
            if colour not in ("any", name):
                continue
            column = s.columns[c]
            if column[k] is not None:
                continue
            if sum(p is not None for p in column) == 2 and (name not in hand.projects or s.bots_left[c] == 0):
                continue
            out.append(PlacePart(part, name))
    return tuple(out)


def place(g: ReferenceBotFactoryGame, s: BotFactoryState, seat: int, action: PlacePart) -> tuple[BotFactoryState, bool]:
    """BF-ASM: the part goes onto its space; BF-ASM-REWARD: 1 or 2 parts on the bot after it, 2 tokens;
    3 parts, BF-ASM-PROJECT: a bot of that colour onto an unfinished Project tile of that colour, which is
    completed. Returns the state and whether the space bears the icon (BF-ASM-ICON)."""
    c = g.colours.index(action.colour)
    k = g.slots.index(slot_of(action.part))
    s = remove_part(s, seat, action.part)
    column = replace(s.columns[c], k, action.part)
    s = attrs.evolve(s, columns=replace(s.columns, c, column))
    if sum(p is not None for p in column) < 3:
        s = gain_tokens(g, s, seat, 2)
    else:
        hand = s.hands[seat]
        projects = list(hand.projects)
        projects.remove(action.colour)
        done = tuple(sorted((*hand.done, action.colour)))
        s = set_hand(s, seat, attrs.evolve(hand, projects=tuple(projects), done=done))
        s = attrs.evolve(s, bots_left=replace(s.bots_left, c, s.bots_left[c] - 1))
    return s, slot_of(action.part) in g.c.boards.icon_slots


def swaps(g: ReferenceBotFactoryGame, s: BotFactoryState, seat: int) -> tuple[Swap, ...]:
    """BF-ASM-SWAP: for a token, each distinct part in hand (sorted) with each spare space holding a part
    (ruling 19) other than that very part (a swap of like for like changes nothing but the token)."""
    hand = s.hands[seat]
    if hand.tokens < 1:
        return ()
    return tuple(
        Swap(part, i)
        for part in sorted(set(hand.parts))
        for i, spare in enumerate(s.spares)
        if spare is not None and spare != part
    )


def swap(g: ReferenceBotFactoryGame, s: BotFactoryState, seat: int, action: Swap) -> BotFactoryState:
    """BF-ASM-SWAP: pay a token; the hand's part and the spare part change places."""
    spare = s.spares[action.spare]
    assert spare is not None
    s = pay_tokens(s, seat, 1)
    s = remove_part(s, seat, action.part)
    hand = s.hands[seat]
    s = set_hand(s, seat, attrs.evolve(hand, parts=tuple(sorted((*hand.parts, spare)))))
    return attrs.evolve(s, spares=replace(s.spares, action.spare, action.part))


def sandra(g: ReferenceBotFactoryGame, s: BotFactoryState) -> BotFactoryState:
    """BF-ASM-SANDRA: every spare part leaves play; one marker draw (BF-PILE) per spare space, first to last."""
    for part in s.spares:
        if part is not None:
            s = part_leaves_play(g, s, part)
    jobs: tuple[Job, ...] = tuple(("part", -1, "spare", i, 0) for i in range(len(s.spares)))
    return attrs.evolve(s, spares=(None,) * len(s.spares), draws=s.draws + jobs)


def completed_bots_leave(g: ReferenceBotFactoryGame, s: BotFactoryState) -> BotFactoryState:
    """BF-MAINT: each bot with all three parts: its parts leave play and its colour's value falls one step
    (not below 0)."""
    for c, column in enumerate(s.columns):
        if all(p is not None for p in column):
            for part in column:
                assert part is not None
                s = part_leaves_play(g, s, part)
            s = attrs.evolve(
                s,
                columns=replace(s.columns, c, (None,) * len(column)),
                values=replace(s.values, c, max(0, s.values[c] - 1)),
            )
    return s
