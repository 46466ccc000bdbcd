"""Reference set-up of the whole game (MC-SETUP-SEATS, MC-SETUP-BOT, MC-STOCK, MC-SETUP-DECK,
MC-SETUP-EXTRAS, MC-SETUP-DEAL): the first state, and the set-up's chance steps."""

from __future__ import annotations

from fractions import Fraction

import attrs

from bgrules.mechanica.board import Factory, Truck
from bgrules.mechanica.components import Bot
from bgrules.mechanica.reference.factory import ROWS, printed_slot, with_start
from bgrules.mechanica.reference.rules import Rules, add
from bgrules.mechanica.state import Draw, MechanicaState, Phase, Seat


def new_board() -> Factory:
    """MC-BOARD, MC-SETUP-BOT: the printed board with a Basic bot in the Basic Fabricator (row 1)."""
    empty = Factory(
        floor=(None,) * 12,
        start=tuple(printed_slot(r) for r in range(ROWS)),
        dock=tuple(Truck("truck") for _ in range(ROWS)),
    )
    return with_start(empty, 1, attrs.evolve(empty.start[1], holes=(Bot.BASIC,)))


def first_state(rules: Rules) -> MechanicaState:
    """MC-SETUP-SEATS: every player a board and the sum of ``[setup] money``; MC-STOCK: ``bots_per_grade``
    of each grade less the bots on the boards; MC-SETUP-DECK: every improvement's copies in the deck; the
    Blueprints all unseen, pile 0 holding the larger half (MC-BP-DAYEND)."""
    data = rules.variant.game
    board = new_board()
    per = rules.variant.rulings.bots_per_grade
    on_boards = [0, 0, 0]
    for bot in (b for s in board.start for b in s.holes if b is not None):
        on_boards[bot] += rules.players
    cards = sorted(b.id for b in data.blueprints)
    return MechanicaState(
        seats=tuple(Seat(board, sum(data.money)) for _ in range(rules.players)),
        stock=(per - on_boards[0], per - on_boards[1], per - on_boards[2]),
        deck=tuple(rules.variant.catalogue.tiles[k].copies for k in rules.kinds),
        extras=(0,) * len(rules.kinds),
        wheel=(None,) * len(rules.prices),
        recycler=(0,) * len(rules.kinds),
        bp_pool=tuple(cards),
        bp_hidden=((len(cards) + 1) // 2, len(cards) // 2),
        bp_bottom=((), ()),
        bp_top=(None, None),
        bp_turned=(False, False),
        day=1,
        phase=Phase.SETUP_EXTRAS,
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
