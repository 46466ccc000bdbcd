"""Finance board (04): raising values (BF-FIN, BF-FIN-RAISE, BF-FIN-LINE), reserving contracts
(BF-FIN-CONTRACT) and Sandra's raise (BF-FIN-SANDRA). The board has no additional action."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from bgrules.botfactory.reference.common import pay_tokens, replace
from bgrules.botfactory.state import BotFactoryState, Raise, Reserve

if TYPE_CHECKING:
    from bgrules.botfactory.reference.game import ReferenceBotFactoryGame


def raises(g: ReferenceBotFactoryGame, s: BotFactoryState, seat: int, left: int) -> tuple[Raise, ...]:
    """BF-FIN-RAISE: for a token of the action's N, any colour (colour order) below ``track_max``."""
    if left < 1 or s.hands[seat].tokens < 1:
        return ()
    return tuple(Raise(name) for c, name in enumerate(g.colours) if s.values[c] < g.c.finance.track_max)


def raise_value(
    g: ReferenceBotFactoryGame, s: BotFactoryState, seat: int, action: Raise
) -> tuple[BotFactoryState, str]:
    """BF-FIN-RAISE: a token to the supply, the value one step up; BF-FIN-LINE: reaching a line from below
    offers its reward ("part" or "project"; "" for none)."""
    c = g.colours.index(action.colour)
    s = pay_tokens(s, seat, 1)
    value = s.values[c] + 1
    s = attrs.evolve(s, values=replace(s.values, c, value))
    f = g.c.finance
    for line, reward in zip(f.lines, f.line_rewards, strict=True):
        if value == line:
            return s, reward
    return s, ""


def reservation_cost(g: ReferenceBotFactoryGame, s: BotFactoryState, slot: int) -> int | None:
    """BF-FIN-CONTRACT: the value of the contract's next free reservation space (None: no space left)."""
    taken = len(s.reserved[slot])
    costs = g.c.finance.reservation_costs
    return costs[taken] if taken < min(2, len(costs)) else None


def reserves(g: ReferenceBotFactoryGame, s: BotFactoryState, seat: int, left: int) -> tuple[Reserve, ...]:
    """BF-FIN-CONTRACT: a face-up contract (slot order) with a free space, not reserved by this player, whose
    cost fits in the action's N and in the hand (plus the one more token under ``reservation_tokens =
    "one_more"``)."""
    out = []
    extra = 1 if g.variant.rulings.reservation_tokens == "one_more" else 0
    for slot, contract in enumerate(s.display):
        if contract is None or seat in s.reserved[slot]:
            continue
        cost = reservation_cost(g, s, slot)
        if cost is None or cost > left or cost + extra > s.hands[seat].tokens:
            continue
        out.append(Reserve(slot))
    return tuple(out)


def reserve(g: ReferenceBotFactoryGame, s: BotFactoryState, seat: int, slot: int) -> tuple[BotFactoryState, int]:
    """BF-FIN-CONTRACT: pay the cost; one token lies on the contract (ruling ``reservation_tokens``); returns
    the state and the cost (counted within N)."""
    cost = reservation_cost(g, s, slot)
    assert cost is not None
    mode = g.variant.rulings.reservation_tokens
    if mode == "one_paid":
        s = pay_tokens(s, seat, cost, to_supply=cost - 1)
    elif mode == "one_more":
        s = pay_tokens(s, seat, cost + 1, to_supply=cost)
    else:
        s = pay_tokens(s, seat, cost, to_supply=0)
    return attrs.evolve(s, reserved=replace(s.reserved, slot, (*s.reserved[slot], seat))), cost


def sandra(g: ReferenceBotFactoryGame, s: BotFactoryState) -> BotFactoryState:
    """BF-FIN-SANDRA: the lowest value(s) rise one step, all tied lowest together; all tied, none rises."""
    low = min(s.values)
    if all(v == low for v in s.values):
        return s
    return attrs.evolve(s, values=tuple(v + 1 if v == low else v for v in s.values))
