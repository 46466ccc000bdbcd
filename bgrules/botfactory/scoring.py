"""Bot Factory's end and score (seed: 遊戲結束 and 計分): which rule ended a game (BF-END), the contracts
at their best assignment, every player's score (BF-SCORE) and the winners with the tie-breaks (BF-TIE).
Plain functions of the game and a state; the game's methods of the same names call them."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from bgrules.botfactory.state import OVER, BotFactoryState
from bgrules.core import coverage

if TYPE_CHECKING:
    from bgrules.botfactory.base import Base
    from bgrules.botfactory.round import RoundFlow


def end_trigger(game: Base, state: BotFactoryState) -> str | None:
    """BF-END: the rule that ended a terminal state: "BF-END-COLOUR" (a colour's bots all built; also when
    a fifth bot was built in the same round), "BF-END-FIFTH" (a player's fifth bot), or "max_rounds" (the
    game's own round cap, ``max_rounds``, not a rule of the seed); None while the game goes on."""
    if state.phase is not OVER:
        return None
    if any(left <= 0 for left in state.bots_left):
        return "BF-END-COLOUR"
    if any(len(h.done) >= game.c.counts.bots_to_end for h in state.hands):
        return "BF-END-FIFTH"
    return "max_rounds"


def contract_score(game: RoundFlow, state: BotFactoryState, seat: int) -> int:
    """BF-SCORE: the player assigns their bots to their reserved contracts at best (a bot to one
    contract; a contract may take two of them): a met contract scores its reservation value plus its
    points, an unmet one loses its reservation value. 0 without a reservation."""
    if not any(seat in seats for seats in state.reserved):
        return 0
    done = state.hands[seat].done
    key = (state.reserved, state.display, done, seat)
    memo = game._score_memo
    found = memo.get(key)
    if found is None:
        found = game.memos.put(memo, key, best_assignment(game, state, seat, done))
    return found


def best_assignment(game: RoundFlow, state: BotFactoryState, seat: int, done: tuple[str, ...]) -> int:
    """BF-SCORE: the best total over every choice of reserved contracts to meet (``contract_score``)."""
    costs = game.c.finance.reservation_costs
    mine = []
    for slot, seats in enumerate(state.reserved):
        for i, s in enumerate(seats):
            if s == seat:
                cid = state.display[slot]
                assert cid is not None
                mine.append((game.contracts[cid], costs[i]))
    bots = Counter(done)
    best = None
    for mask in range(1 << len(mine)):
        need: dict[str, int] = {}
        total = 0
        for i, (contract, value) in enumerate(mine):
            if mask >> i & 1:
                for c, n in contract.needs.items():
                    need[c] = need.get(c, 0) + n
                total += value + contract.points
            else:
                total -= value
        if all(bots[c] >= n for c, n in need.items()) and (best is None or total > best):
            best = total
    return best or 0


def scores(game: RoundFlow, state: BotFactoryState) -> tuple[int, ...]:
    """BF-SCORE: bots at their colour's value, contracts, a point per two tokens, -1 per part tile,
    -2 per unfinished Project."""
    coverage.effect("BF-SCORE")
    out = []
    for seat, hand in enumerate(state.hands):
        score = sum(state.values[game.colours.index(c)] for c in hand.done)
        score += contract_score(game, state, seat) + hand.tokens // 2
        score -= len(hand.parts) + 2 * len(hand.projects)
        out.append(score)
    return tuple(out)


def winners(game: RoundFlow, state: BotFactoryState) -> tuple[int, ...]:
    """BF-TIE: the highest score; ties to more bots, then to an odd number of tokens; else shared."""
    scores = game.scores(state)
    coverage.effect("BF-TIE")
    tied = [i for i, s in enumerate(scores) if s == max(scores)]
    most = max(len(state.hands[i].done) for i in tied)
    tied = [i for i in tied if len(state.hands[i].done) == most]
    odd = [i for i in tied if state.hands[i].tokens % 2 == 1]
    return tuple(odd if odd else tied)
