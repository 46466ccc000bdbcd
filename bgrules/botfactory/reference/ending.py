"""The end (BF-END, BF-END-COLOUR, BF-END-FIFTH), the final score (BF-SCORE) and the winners (BF-TIE)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import TYPE_CHECKING

from bgrules.botfactory.state import BotFactoryState, Phase
from bgrules.botfactory.variant import BotFactoryVariant

if TYPE_CHECKING:
    from bgrules.botfactory.reference.game import ReferenceBotFactoryGame


def bots_in_play(variant: BotFactoryVariant, players: int) -> int:
    """BF-END: each colour has as many bots in play as there are players (四人局每一種顏色有四隻, seed line
    16), or ``bots_per_colour_to_end`` when that switch is not 0; never more than the box's
    ``bots_per_colour``."""
    wanted = variant.rulings.bots_per_colour_to_end or players
    return min(wanted, variant.components.counts.bots_per_colour)


def end_triggered(g: ReferenceBotFactoryGame, s: BotFactoryState) -> bool:
    """BF-END-COLOUR: every bot of a colour in play built (``bots_left`` 0); BF-END-FIFTH: a player built
    ``bots_to_end`` bots; or (the option ``max_rounds``) the capped round is over."""
    if any(left == 0 for left in s.bots_left):
        return True
    if any(len(hand.done) >= g.c.counts.bots_to_end for hand in s.hands):
        return True
    return g.max_rounds is not None and s.round >= g.max_rounds


def trigger(g: ReferenceBotFactoryGame, s: BotFactoryState) -> str | None:
    """BF-END: the rule that ended a finished game: BF-END-COLOUR when a colour in play has no bot left to
    build (also when a fifth bot was built the same round: the seed names the colour first, line 16),
    else BF-END-FIFTH when a player holds ``bots_to_end`` bots, else ``max_rounds`` (the game's own cap,
    not a rule of the seed); None while the game goes on."""
    if s.phase is not Phase.OVER:
        return None
    if any(left == 0 for left in s.bots_left):
        return "BF-END-COLOUR"
    if any(len(hand.done) >= g.c.counts.bots_to_end for hand in s.hands):
        return "BF-END-FIFTH"
    return "max_rounds"


def contract_score(g: ReferenceBotFactoryGame, s: BotFactoryState, seat: int) -> int:
    """BF-SCORE (ruling 11): the player's reserved contracts, each worth its space's value (2 or 1); the
    best assignment of the player's bots (each to at most one contract, a contract taking all it needs)
    scores value + points for each satisfied contract and minus the value for each other one."""
    mine = []
    costs = g.c.finance.reservation_costs
    for slot, seats in enumerate(s.reserved):
        if seat in seats:
            contract = s.display[slot]
            assert contract is not None
            mine.append((costs[seats.index(seat)], g.contracts[contract]))
    bots = Counter(s.hands[seat].done)
    best = None
    for k in range(len(mine) + 1):
        for chosen in combinations(range(len(mine)), k):
            need: Counter[str] = Counter()
            for i in chosen:
                need.update(mine[i][1].needs)
            if any(bots[colour] < n for colour, n in need.items()):
                continue
            total = sum(value + c.points if i in chosen else -value for i, (value, c) in enumerate(mine))
            best = total if best is None else max(best, total)
    return best if best is not None else 0


def scores(g: ReferenceBotFactoryGame, s: BotFactoryState) -> tuple[int, ...]:
    """BF-SCORE: each built bot at its colour's value, the contracts, a point per two held tokens, -1 per
    part tile held (Universal ones included), -2 per unfinished Project tile."""
    out = []
    for seat, hand in enumerate(s.hands):
        total = sum(s.values[g.colours.index(colour)] for colour in hand.done)
        total += contract_score(g, s, seat)
        total += hand.tokens // 2 - len(hand.parts) - 2 * len(hand.projects)
        out.append(total)
    return tuple(out)


def winners(g: ReferenceBotFactoryGame, s: BotFactoryState) -> tuple[int, ...]:
    """BF-TIE: the highest score; among the tied, more bots; then those holding an odd number of tokens;
    players still tied share the win (ruling 17)."""
    points = scores(g, s)
    tied = [seat for seat, p in enumerate(points) if p == max(points)]
    most = max(len(s.hands[seat].done) for seat in tied)
    tied = [seat for seat in tied if len(s.hands[seat].done) == most]
    odd = [seat for seat in tied if s.hands[seat].tokens % 2 == 1]
    return tuple(odd or tied)
