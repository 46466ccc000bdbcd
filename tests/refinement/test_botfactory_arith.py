"""bgrules/botfactory/arith.py is shared by the fast engine and the z3 encodings (bgrules/botfactory/smt.py),
so the conformance proofs cannot see a slip in it: here its functions, called with ints, are checked against
the reference engine's own reading (bgrules.botfactory.reference) on the states of seeded playouts."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

from bgrules.botfactory import arith
from bgrules.botfactory.reference import ReferenceBotFactoryGame, finance, limits
from bgrules.botfactory.reference.common import gain_tokens, replace, set_hand
from bgrules.botfactory.state import BotFactoryState, Hand, Turn
from bgrules.core.protocol import CHANCE


def _states(game: ReferenceBotFactoryGame, seed: int, rounds: int) -> list[BotFactoryState]:
    rng = random.Random(seed)
    s = game.initial_state()
    out = [s]
    while not game.is_terminal(s) and s.round <= rounds:
        if game.to_move(s) is CHANCE:
            outcomes = game.chance_outcomes(s)
            action: Any = rng.choices([o for o, _ in outcomes], [float(p) for _, p in outcomes])[0]
        else:
            action = rng.choice(game.legal_actions(s))
        s = game.apply(s, action)
        out.append(s)
    return out


def _on_contracts(game: ReferenceBotFactoryGame, s: BotFactoryState, seat: int) -> int:
    """The reference's reading of BF-FIN-CONTRACT: one token per reservation, or the space's whole cost under
    ``reservation_tokens = "whole_cost"``."""
    costs = game.c.finance.reservation_costs
    whole = game.variant.rulings.reservation_tokens == "whole_cost"
    return sum(costs[seats.index(seat)] if whole else 1 for seats in s.reserved if seat in seats)


@pytest.mark.parametrize("mode", arith.RESERVATION_TOKENS)
def test_token_arithmetic_matches_the_reference(mode: str) -> None:
    game = ReferenceBotFactoryGame(3, {"rulings": {"reservation_tokens": mode}})
    counts = game.c.counts
    costs = game.c.finance.reservation_costs
    checked = 0
    for s in _states(game, 5, 30)[::3]:
        for seat, hand in enumerate(s.hands):
            on = _on_contracts(game, s, seat)
            theirs = sum(arith.tokens_on_contract(costs, seats, len(seats), seat, mode) for seats in s.reserved)
            assert theirs == on
            assert arith.supply_left(hand.tokens, on, counts.tokens_per_colour) == s.supply[seat]
            for held in range(counts.tokens_per_colour - on + 1):  # every holding the colour's tokens allow
                supply = counts.tokens_per_colour - on - held
                other = set_hand(attrs.evolve(s, supply=replace(s.supply, seat, supply)), seat, Hand(held))
                for n in range(4):
                    after = gain_tokens(game, other, seat, n).hands[seat].tokens
                    assert arith.gain(held, on, n, counts.token_cap, counts.tokens_per_colour) == after
            for slot, seats in enumerate(s.reserved):
                if s.display[slot] is None:
                    continue
                mine = seat in seats
                cost = finance.reservation_cost(game, s, slot)
                assert arith.can_reserve(len(seats), mine, 2) == (cost is not None and not mine)
                if cost is not None:
                    assert arith.reservation_cost(costs, len(seats)) == cost
                    extra = 1 if mode == "one_more" else 0
                    assert arith.can_afford_reservation(hand.tokens, cost, mode) == (hand.tokens >= cost + extra)
            checked += 1
    assert checked > 200


def test_limit_arithmetic_matches_the_reference() -> None:
    game = ReferenceBotFactoryGame(4)
    c = game.c.counts
    for s in _states(game, 6, 30):
        settled = attrs.evolve(s, turn=Turn(0, "open") if s.turn is not None else None, window=())
        for seat, hand in enumerate(s.hands):
            parts, unfinished, done = len(hand.parts), len(hand.projects), len(hand.done)
            assert arith.parts_over(parts, c.part_limit) == limits.over_parts(game, settled, seat)
            assert arith.projects_over(unfinished, done, c.project_limit) == limits.over_projects(game, s, seat)
            assert arith.over_limits(parts, unfinished, done, c.part_limit, c.project_limit) == (
                limits.over_parts(game, settled, seat) or limits.over_projects(game, s, seat)
            )
