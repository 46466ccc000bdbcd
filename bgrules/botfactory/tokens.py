"""Speech tokens: gains under the cap (BF-LIMIT-TOKENS), payments, and the tokens lying on contracts."""

from __future__ import annotations

from bgrules.botfactory import arith
from bgrules.botfactory.base import _HAND_TOKENS, _WITH_HANDS_SUPPLY, Base, _set
from bgrules.botfactory.state import BotFactoryState
from bgrules.core import coverage
from bgrules.core.errors import IllegalAction
from bgrules.core.fastevolve import evolve


class Tokens(Base):
    def on_contracts(self, state: BotFactoryState, seat: int) -> int:
        """The Speech tokens ``seat`` has lying on reserved contracts (BF-FIN-CONTRACT): on each space they
        hold, the tokens placed there (``arith.reservation_placed``: one, or the space's cost)."""
        costs = self.c.finance.reservation_costs
        mode = self.variant.rulings.reservation_tokens
        if mode != "whole_cost":
            return sum(seats.count(seat) for seats in state.reserved)
        return sum(costs[i] for seats in state.reserved for i, s in enumerate(seats) if s == seat)

    def _gain(self, state: BotFactoryState, seat: int, n: int) -> BotFactoryState:
        """BF-LIMIT-TOKENS: a player holds at most 9 tokens (and only the tokens of their colour left in the
        supply); a gain past that is lost."""
        hand = state.hands[seat]
        counts = self.c.counts
        held = arith.gain(hand.tokens, self.on_contracts(state, seat), n, counts.token_cap, counts.tokens_per_colour)
        taken = held - hand.tokens
        if held < hand.tokens + n:  # BF-LIMIT-TOKENS: the cap (or the colour's supply) cuts the gain
            coverage.effect("BF-LIMIT-TOKENS")
        return _WITH_HANDS_SUPPLY(
            state,
            _set(state.hands, seat, _HAND_TOKENS(hand, held)),
            _set(state.supply, seat, state.supply[seat] - taken),
        )

    def _pay(self, state: BotFactoryState, seat: int, n: int, rule: str, to_supply: bool = True) -> BotFactoryState:
        """Pay ``n`` tokens: back to the supply, or (``to_supply=False``) onto a contract (BF-FIN-CONTRACT)."""
        hand = state.hands[seat]
        if not arith.can_pay(hand.tokens, n):
            raise IllegalAction(rule, f"it costs {n} Speech token(s); the player holds {hand.tokens}")
        hands = _set(state.hands, seat, _HAND_TOKENS(hand, arith.pay(hand.tokens, n)))
        if to_supply:
            return _WITH_HANDS_SUPPLY(state, hands, _set(state.supply, seat, state.supply[seat] + n))
        return evolve(state, hands=hands)
