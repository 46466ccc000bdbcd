"""Reference set-up of the whole game, read from docs/rules/mechanica.md, "Set-up (whole game)", and the seed's
lines 11-25: MC-SETUP-SEATS, MC-SETUP-BOT and MC-STOCK (the boards, the money, the stock), MC-SETUP-DECK (the
deck), the Blueprint piles (MC-BP-DAYEND); then the set-up's chance steps, MC-SETUP-EXTRAS and MC-SETUP-DEAL.
Where each field of the state stands at set-up is the page's "Engine conventions", The state's bookkeeping:
each rule below gives the fields it lays out, and ``first_state`` puts them together."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs

from bgrules.mechanica.board import Factory, Truck
from bgrules.mechanica.components import Bot
from bgrules.mechanica.reference.factory import COLS, ROWS, printed_slot, with_start
from bgrules.mechanica.reference.rules import PILES, Rules, add
from bgrules.mechanica.state import Draw, MechanicaState, Phase, Seat

BASIC_FABRICATOR_ROW = 1
"""MC-BOARD: the printed Basic Fabricator stands in the middle row."""


def new_board() -> Factory:
    """MC-BOARD: a Start Zone slot per belt row (the printed Basic Fabricator in row 1, a printed hole in the
    others), an empty Factory Floor of 3 x 4 cells and a printed truck on each row of the Loading Dock;
    MC-SETUP-BOT: 白（ベーシック）ボットを基本製作機の穴に置きます (seed line 13), a Basic bot in the Basic
    Fabricator's hole."""
    printed = Factory(
        floor=tuple(None for _cell in range(ROWS * COLS)),
        start=tuple(printed_slot(row) for row in range(ROWS)),
        dock=tuple(Truck("truck") for _row in range(ROWS)),
    )
    fabricator = printed.start[BASIC_FABRICATOR_ROW]
    return with_start(printed, BASIC_FABRICATOR_ROW, attrs.evolve(fabricator, holes=(Bot.BASIC,)))


def seats(rules: Rules) -> dict[str, Any]:
    """MC-SETUP-SEATS: seats 0 to n-1, each with a new board (MC-SETUP-BOT), an empty vault, no Blueprint
    completed, and the coins ５，１，１，１ (seed line 11) in the wallet: only their sum is kept."""
    coins = sum(rules.variant.game.money)
    return {"seats": tuple(Seat(factory=new_board(), wallet=coins) for _player in range(rules.players))}


def stock(rules: Rules) -> dict[str, Any]:
    """MC-STOCK: one stock for all players, ``bots_per_grade`` of each grade less the bots on the boards."""
    left = [rules.variant.rulings.bots_per_grade] * 3
    for _player in range(rules.players):
        for slot in new_board().start:
            for bot in slot.holes:
                if bot is not None:
                    left[bot] -= 1
    return {"stock": (left[Bot.BASIC], left[Bot.PLUS], left[Bot.DELUXE])}


def full_deck(rules: Rules) -> tuple[int, ...]:
    """MC-SETUP-DECK: every improvement's ``copies``, counted per kind in the order of ``[setup]
    improvements``."""
    return tuple(rules.variant.catalogue.tiles[kind].copies for kind in rules.kinds)


def deck_and_shop(rules: Rules) -> dict[str, Any]:
    """MC-SETUP-DECK: the whole deck face down, no extras set aside yet (MC-SETUP-EXTRAS draws them), the
    Shop's slots empty until MC-SETUP-DEAL, nothing in the Recycler."""
    no_tiles = tuple(0 for _kind in rules.kinds)
    return {
        "deck": full_deck(rules),
        "extras": no_tiles,
        "wheel": tuple(None for _price in rules.prices),
        "recycler": no_tiles,
    }


def blueprint_piles(rules: Rules) -> dict[str, Any]:
    """Blueprints (whole game): the cards shuffled into two face-down piles, every card unseen (the pool,
    by id), pile 0 holding the larger half; nothing put back under a pile, no top turned up yet (the set-up's
    reveals, MC-BP-DAYEND), none turned sideways."""
    cards = sorted(card.id for card in rules.variant.game.blueprints)
    larger = len(cards) - len(cards) // 2
    return {
        "bp_pool": tuple(cards),
        "bp_hidden": (larger, len(cards) - larger),
        "bp_bottom": tuple(() for _pile in range(PILES)),
        "bp_top": tuple(None for _pile in range(PILES)),
        "bp_turned": tuple(False for _pile in range(PILES)),
    }


def first_state(rules: Rules) -> MechanicaState:
    """The state before the set-up's chance steps (the caller settles it): the fields of MC-SETUP-SEATS,
    MC-STOCK, MC-SETUP-DECK and the Blueprint piles; day 1, seat 0 (the start player, whose card never
    moves), the extras to be drawn first (phase ``SETUP_EXTRAS``)."""
    return MechanicaState(
        **seats(rules),
        **stock(rules),
        **deck_and_shop(rules),
        **blueprint_piles(rules),
        day=1,
        phase=Phase.SETUP_EXTRAS,
        current=0,
    )


def draws(rules: Rules, counts: tuple[int, ...]) -> tuple[tuple[Draw, Fraction], ...]:
    """MC-CHANCE: each kind left with probability (its tiles) / (tiles left), kinds in data order."""
    total = sum(counts)
    return tuple((Draw(k), Fraction(n, total)) for k, n in zip(rules.kinds, counts, strict=True) if n > 0)


def extras_done(rules: Rules, state: MechanicaState) -> bool:
    return sum(state.extras) >= rules.extras_target or sum(state.deck) == 0


def deal_done(rules: Rules, state: MechanicaState) -> bool:
    dealt = sum(1 for t in state.wheel if t is not None)
    return dealt >= rules.variant.game.dealt or sum(state.deck) == 0


def set_aside(rules: Rules, state: MechanicaState, kind: str) -> MechanicaState:
    """MC-SETUP-EXTRAS: a tile from the deck into the extras."""
    i = rules.kind_index(kind)
    return attrs.evolve(state, deck=add(state.deck, i, -1), extras=add(state.extras, i, 1))


def deal(rules: Rules, state: MechanicaState, kind: str) -> MechanicaState:
    """MC-SETUP-DEAL: the deck's top tile onto the next Shop slot (price 7, then 5)."""
    slot = sum(1 for t in state.wheel if t is not None)
    wheel = tuple(kind if j == slot else t for j, t in enumerate(state.wheel))
    return attrs.evolve(state, deck=add(state.deck, rules.kind_index(kind), -1), wheel=wheel)
