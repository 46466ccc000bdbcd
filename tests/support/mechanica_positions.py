"""Mechanica positions for the tests: load the game with rulings, the bot and tile bookkeeping and the
invariants it keeps, and positions built by driving the game with explicit actions (chance outcomes are
ordinary actions: ``Draw(kind)``, ``Reveal(card)``) or by ``attrs.evolve`` on a real state, keeping the bot
and tile totals consistent so the conservation checks apply to every scenario too.
"""

from __future__ import annotations

import attrs
import pytest

import bgrules
from bgrules import IllegalAction
from bgrules.mechanica.components import Bot
from bgrules.mechanica.fabricate import Fabricate
from bgrules.mechanica.notation import parse_factory
from bgrules.mechanica.state import (
    Decline,
    Draw,
    Next,
    Phase,
    Recycle,
    Reveal,
)

B, P, D = Bot.BASIC, Bot.PLUS, Bot.DELUXE
NAME = "mechanica"
TOTAL_TILES = 27
BOTS_PER_GRADE = 24
CARDS = 15
EXTRAS_2_3 = ("static_charger", "static_charger", "static_charger", "flight_tester", "flight_tester", "flight_tester")
CHANCE_PHASES = (Phase.SETUP_EXTRAS, Phase.SETUP_DEAL, Phase.REVEAL, Phase.DRAW, Phase.EXTRA)


def load(players: int, **rulings: object):
    variant = {"rulings": rulings} if rulings else None
    return bgrules.load_game(NAME, players=players, variant=variant)


# --- bookkeeping ---------------------------------------------------------------------------------------


def installed_kinds(factory, game) -> list[str]:
    """The improvements (not Forks, not printed parts) installed on a board."""
    kinds = [p.kind for p in factory.floor if p is not None]
    kinds += [s.kind for s in factory.start]
    return [k for k in kinds if k in game.kind_index]


def tile_total(game, s) -> int:
    """deck + extras + Shop + installed + Recycler + the pending bought tile + the fallen tile."""
    n = sum(s.deck) + sum(s.extras) + sum(w is not None for w in s.wheel) + sum(s.recycler)
    n += sum(len(installed_kinds(seat.factory, game)) for seat in s.seats)
    n += (s.pending is not None) + (s.fallen is not None)
    return n


def bot_totals(game, s) -> tuple[int, int, int]:
    """stock + all boards + the run in progress, per grade. During a run the stock and the running
    board live in ``s.run``."""
    counts = [0, 0, 0]
    stock = s.stock
    for i, seat in enumerate(s.seats):
        factory = seat.factory
        if s.run is not None and i == s.current:
            factory = s.run.factory
        for b in factory.bots():
            counts[b] += 1
    if s.run is not None:
        stock = s.run.stock
        for m in s.run.moving:
            counts[m.bot] += 1
        for _bin, b in s.run.arrived:
            counts[b] += 1
    return (counts[0] + stock[0], counts[1] + stock[1], counts[2] + stock[2])


def check_invariants(game, s) -> None:
    assert tile_total(game, s) == TOTAL_TILES, s
    assert bot_totals(game, s) == (BOTS_PER_GRADE,) * 3, s
    live_stock = s.run.stock if s.run is not None else s.stock
    assert min(live_stock) >= 0
    for seat in s.seats:
        assert seat.wallet >= 0 and seat.vault >= 0
        assert len(set(seat.completed)) == len(seat.completed)  # MC-BP-ONCE
    assert min(s.deck) >= 0 and min(s.extras) >= 0 and min(s.recycler) >= 0
    # Blueprints: never-seen pool + tops + bottoms are the 15 cards, each once
    seen = [c for c in s.bp_top if c is not None] + [c for pile in s.bp_bottom for c in pile]
    assert sorted([*s.bp_pool, *seen]) == list(range(1, CARDS + 1))
    assert sum(s.bp_hidden) == len(s.bp_pool)


def with_board(game, s, seat: int, text: str, **changes):
    """Replace a seat's board by ``text`` (factory notation), taking the bots from (or giving them back to)
    the stock and the installed improvements from the deck, so the totals stay right."""
    old = s.seats[seat].factory
    new = parse_factory(text)
    a, b = old.bot_counts(), new.bot_counts()
    stock = tuple(s.stock[g] - (b[g] - a[g]) for g in range(3))
    deck = list(s.deck)
    for k in installed_kinds(new, game):
        deck[game.kind_index[k]] -= 1
    for k in installed_kinds(old, game):
        deck[game.kind_index[k]] += 1
    assert min(stock) >= 0 and min(deck) >= 0
    seats = list(s.seats)
    seats[seat] = attrs.evolve(s.seats[seat], factory=new, **changes)
    return attrs.evolve(s, seats=tuple(seats), stock=stock, deck=tuple(deck))


def with_seat(s, seat: int, **changes):
    seats = list(s.seats)
    seats[seat] = attrs.evolve(s.seats[seat], **changes)
    return attrs.evolve(s, seats=tuple(seats))


def setup(game, deal=("upgrader", "gift_wrapper"), tops=(1, 2), extras=EXTRAS_2_3):
    """Play the set-up's chance steps with chosen outcomes: extras, the two dealt tiles, the two tops."""
    s = game.initial_state()
    picks = iter(extras)
    while s.phase is Phase.SETUP_EXTRAS:
        s = game.apply(s, Draw(next(picks)))
    for kind in deal:
        assert s.phase is Phase.SETUP_DEAL
        s = game.apply(s, Draw(kind))
    for card in tops:
        assert s.phase is Phase.REVEAL
        s = game.apply(s, Reveal(card))
    return s


def first_fabricate(game, s):
    return next(a for a in game.legal_actions(s) if isinstance(a, Fabricate))


def end_turn(game, s, draw=None, recycle=(0, 0), extra=None):
    """From the current player's SELL / BUY / FABRICATE step to the next player to act: nothing bought,
    the first fabricate option, gifts declined, the fallen tile's bot into ``recycle``, ``draw`` drawn, and
    the turn closed (``Next`` in phase TURN_END)."""
    while s.phase in (Phase.SELL, Phase.BUY):
        s = game.apply(s, Next())
    s = game.apply(s, first_fabricate(game, s))
    while s.phase is Phase.GIFT:
        s = game.apply(s, Decline())
    if s.phase is Phase.RECYCLE:
        s = game.apply(s, Recycle(*recycle))
    if s.phase is Phase.DRAW:
        s = game.apply(s, Draw(draw) if draw else game.chance_outcomes(s)[0][0])
    if s.phase is Phase.EXTRA:
        s = game.apply(s, Draw(extra) if extra else game.chance_outcomes(s)[0][0])
    if s.phase is Phase.TURN_END:  # MC-ANYTIME: the decision closing step (4), taken with nothing more done
        s = game.apply(s, Next())
    return s


def close_turn(game, s):
    """MC-ANYTIME (``anytime = "whole_turn"``): step (4) done, the current player's closing decision (phase
    TURN_END) offers ``Next``; take it, and the turn passes."""
    assert s.phase is Phase.TURN_END and game.to_move(s) == s.current and Next() in game.legal_actions(s)
    return game.apply(s, Next())


def settle_chance_and_runs(game, s):
    """Take chance steps (first outcome) and run decisions (first option) until a turn step or the end."""
    while s.phase in (*CHANCE_PHASES, Phase.RUN):
        s = game.apply(s, game.legal_actions(s)[0])
    return s


def assert_illegal(game, s, action, rule: str | None = None) -> IllegalAction:
    before = bgrules.dumps(s)
    with pytest.raises(IllegalAction) as info:
        game.apply(s, action)
    assert info.value.rule_id.startswith("MC-"), info.value
    if rule is not None:
        assert info.value.rule_id == rule, info.value
    assert bgrules.dumps(s) == before
    return info.value


def four_quiet_turns(**rulings):
    """4 players, nothing bought: the price-5 tile reaches the last slot on the 4th turn's rotation."""
    g = load(4, **rulings)
    s = setup(g, deal=("upgrader", "function_changer"), extras=())
    for kind in ("duplicator", "downgrader", "gift_wrapper"):
        s = end_turn(g, s, draw=kind)
    assert s.current == 3
    assert s.wheel == ("gift_wrapper", "downgrader", "duplicator", "upgrader", "function_changer")
    s = g.apply(g.apply(s, Next()), Next())
    return g, s


# Blueprint 1: 3 Basic, value 10. Blueprint 2: 2 Basic + 1 Plus, value 12.
BP_BOARD = "hole | . . . . | huge[BBB]\nbasic | . . . . | big[BP]\nhole | . . . . | big[BB]\n"


def blueprint_day(**rulings):
    """2 players, Blueprints 1 and 2 on top, seat 0 on ``BP_BOARD``: trucks loaded BBB, BP and BB."""
    g = load(2, **rulings)
    s = setup(g, tops=(1, 2))
    assert g.cards[1].needs == (3, 0, 0) and g.cards[1].value == 10
    assert g.cards[2].needs == (2, 1, 0) and g.cards[2].value == 12
    return g, with_board(g, s, 0, BP_BOARD)


def blueprint_day_with(text: str, **rulings):
    """``blueprint_day`` with seat 0's board replaced by ``text`` (factory notation)."""
    g, s = blueprint_day(**rulings)
    return g, with_board(g, s, 0, text)
