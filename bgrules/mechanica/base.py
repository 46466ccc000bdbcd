"""What every room of the whole game of Mechanica shares: the game's data, set by ``MechanicaGame.__init__``,
and the small helpers all rooms use.

The whole game (``bgrules.mechanica.game.MechanicaGame``) is a house of rooms, one per part of the rules
as docs/rules/mechanica.md orders them, each a module of plain functions taking the game
(:class:`MechanicaBase`) as their first argument:

- :mod:`bgrules.mechanica.shop`: the Shop wheel, buying, installing or recycling the bought tile, the
  rotation, the Recycler, the draw and the double rotation (MC-SHOP-BUY to MC-SHOP-DOUBLE, MC-RECYCLE,
  MC-PLACE);
- :mod:`bgrules.mechanica.turn`: the steps of a turn, selling, fabricating and the gifts
  (MC-TURN-ORDER, MC-SELL, MC-FAB, MC-FAB-OVERACTIVE);
- :mod:`bgrules.mechanica.blueprints`: the actions of any time in one's turn: Forks, trucks, Blueprints
  and demolishing (MC-ANYTIME, MC-FORK-BUY, MC-TRUCK-BUY, MC-BP-COMPLETE, MC-BP-ONCE, MC-BP-TURN,
  MC-DEMOLISH);
- :mod:`bgrules.mechanica.dayend`: set-up steps, the day (runs, turns), the day's end, the end of the
  game and scoring (MC-DAY, MC-BP-DAYEND, MC-END, MC-SCORE, MC-END-TIE, MC-END-BOUND);
- :mod:`bgrules.mechanica.game`: the constructor and the protocol's dispatch (``legal_actions``,
  ``apply``, ``chance_outcomes``) to the rooms through its tables of phases.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, TypeVar

from bgrules.core.fastevolve import copier, evolve
from bgrules.core.memo import Memos
from bgrules.core.protocol import CHANCE, GameBase, Mover
from bgrules.mechanica.factory import Factory
from bgrules.mechanica.state import (
    BuyFork,
    BuyTruck,
    Complete,
    Draw,
    MechanicaState,
    Phase,
    Recycle,
    Reveal,
    Seat,
)
from bgrules.mechanica.variant import Blueprint, MechanicaVariant

GAME_NAME = "mechanica"
PILES = 2
"""MC-BP-DAYEND: the Blueprints lie in two piles."""
TURN_PHASES = (Phase.SELL, Phase.BUY, Phase.FABRICATE)
CHANCE_PHASES = (Phase.SETUP_EXTRAS, Phase.SETUP_DEAL, Phase.DRAW, Phase.EXTRA, Phase.REVEAL)

BoardOptions = tuple[tuple[BuyFork, ...], tuple[tuple[BuyTruck, int], ...], tuple[Any, ...]]
"""The anytime actions a board allows before money is considered: Forks, (truck, price), demolitions."""


_T = TypeVar("_T")


def shared(pool: dict[Any, Any], value: _T) -> _T:
    """The one instance of ``value`` kept in ``pool`` (``value`` itself when first seen). Each pool belongs
    to one memo and is emptied with it. Only for immutable values whose equality means the same answer: the
    actions and lists of actions memoised for MC-SELL, MC-ANYTIME and MC-BP-COMPLETE."""
    found = pool.get(value)
    if found is None:
        found = pool[value] = value
    return found


def replace_at(t: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    """``t`` with item ``i`` replaced by ``value``."""
    return (*t[:i], value, *t[i + 1 :])


def add_at(counts: tuple[int, ...], i: int, n: int) -> tuple[int, ...]:
    """``counts`` with ``n`` added to item ``i``."""
    return (*counts[:i], counts[i] + n, *counts[i + 1 :])


_WITH_SEATS = copier(MechanicaState, "seats")
"""``evolve(state, seats=...)`` by position (every action of a seat's own)."""
with_phase = copier(MechanicaState, "phase")
"""``evolve(state, phase=...)`` by position (a step of the turn ends)."""
with_board = copier(Seat, "factory")
"""``evolve(seat, factory=...)`` by position (a demolition, a fabrication)."""
with_board_wallet = copier(Seat, "factory", "wallet")
"""``evolve(seat, factory=..., wallet=...)`` by position (a Fork or a truck bought, a bot sold)."""


class MechanicaBase(GameBase):
    """The data every room reads (set by ``MechanicaGame.__init__``) and the protocol's simple parts."""

    variant: MechanicaVariant
    kinds: tuple[str, ...]
    """The improvement kinds in the order of the state's per-kind counts (``[setup] improvements``)."""
    kind_index: dict[str, int]
    copies: tuple[int, ...]
    total_tiles: int
    prices: tuple[int, ...]
    cards: dict[int, Blueprint]
    extras_target: int
    double_rotation: bool
    fork_price: int
    _anytime_waits: bool
    """MC-ANYTIME (``anytime = "whole_turn"`` or ``"every_step"``): the anytime actions are offered while a
    bought tile waits (phase PLACE) and while a fallen tile is recycled (phase RECYCLE) too."""
    _turn_end: bool
    """MC-ANYTIME (``anytime = "whole_turn"``): step (4) closes with a decision of the player's (phase
    TURN_END: the anytime actions, and ``Next`` passing the turn) before the next seat's turn."""
    _players: int
    memos: Memos
    """Every memo of the game (:mod:`bgrules.core.memo`), emptied together by ``memos.clear()``."""
    _board_memo: dict[tuple[object, ...], tuple[int, int, int]]
    """Per board layout, the places in :attr:`_board_parts` of its Forks, trucks and demolitions."""
    _board_parts: list[tuple[Any, ...]]
    """The Fork, truck and demolition tuples of the layouts :attr:`_board_memo` holds (the trucks once)."""
    _last_board: tuple[object, BoardOptions] | None = None
    """The last board layout :func:`~bgrules.mechanica.blueprints.board_options` was asked about, and its
    answer."""
    _last_complete: tuple[object, object, object, tuple[Complete, ...]] | None = None
    """The dock, piles' tops and completed cards :func:`~bgrules.mechanica.blueprints.complete_options` last
    read, and its answer."""
    _last_sell: tuple[object, tuple[Any, ...]] | None = None
    """The dock the selling step's options were last listed for and those options."""
    _dock_memo: dict[tuple[str, ...], int]
    """The place in :attr:`_board_parts` of the trucks a Loading Dock allows, with their prices, per truck
    kinds (MC-TRUCK-BUY)."""
    _start_memo: dict[tuple[str, ...], tuple[Any, ...]]
    """The fabricator tiles that may be demolished, per Start Zone kinds (MC-DEMOLISH)."""
    _sell_memo: dict[bytes, tuple[Any, ...]]
    """The sales a Loading Dock allows, then ``Next`` (MC-SELL, MC-TURN-ORDER), per the trucks' loads
    (``loads_key``)."""
    _sell_shared: dict[Any, Any]
    """The one instance of each list of sales :attr:`_sell_memo` holds (:func:`shared`, emptied with it)."""
    _complete_shared: dict[Any, Any]
    """The one instance of each Complete and list of them :attr:`_complete_memo` holds (emptied with it)."""
    _fabricate_memo: dict[tuple[object, ...], tuple[Any, ...]]
    """The ways to fabricate (MC-FAB), per Start Zone."""
    _truck_prices: dict[tuple[str, str], int]
    _buys: tuple[Any, ...]
    _draw_actions: dict[str, Draw]
    _complete_memo: dict[tuple[object, ...], tuple[Complete, ...]]
    _draw_memo: dict[tuple[int, ...], tuple[tuple[Any, Fraction], ...]]
    _draw_pairs: dict[tuple[str, int, int], tuple[Any, Fraction]]
    """(kind, copies left, tiles left) -> the (Draw, probability) pair, shared by the memoised outcomes."""
    _reveal_memo: dict[tuple[int, ...], tuple[tuple[Reveal, Fraction], ...]]
    _reveal_pairs: dict[tuple[int, int], tuple[Reveal, Fraction]]
    """(card, cards in the pool) -> the (Reveal, probability) pair, shared by the memoised outcomes."""
    _recycle_actions: dict[tuple[int, int], Recycle]
    """One Recycle per (row, hole) of a Start Zone (MC-RECYCLE)."""
    _fractions: dict[tuple[int, int], Fraction]
    """Fraction(n, total) by (n, total): a draw's probabilities (MC-CHANCE)."""

    def state_type(self) -> type[MechanicaState]:
        return MechanicaState

    def to_move(self, state: MechanicaState) -> Mover:
        """Nobody after the end (MC-END), chance in a chance phase (MC-CHANCE), the receiving player during a
        gift (MC-FAB-OVERACTIVE), otherwise the player whose turn or run it is (MC-DAY)."""
        phase = state.phase
        if phase._value_ == "over":
            return None
        if phase in CHANCE_PHASES:
            return CHANCE
        if phase._value_ == "gift":
            return state.gifts[0][0]
        return state.current

    def is_terminal(self, state: MechanicaState) -> bool:
        """MC-END: the game is over."""
        return state.phase._value_ == "over"


def with_seat(state: MechanicaState, seat: Seat, who: int | None = None, **changes: Any) -> MechanicaState:
    """``state`` with seat ``who`` (default: the current player) replaced, and ``changes``."""
    i = state.current if who is None else who
    if not changes:
        return _WITH_SEATS(state, replace_at(state.seats, i, seat))
    return evolve(state, seats=replace_at(state.seats, i, seat), **changes)


def start_holes(factory: Factory) -> list[tuple[int, int]]:
    """Every Start Zone hole (row, hole) of a board: where recycled and gifted bots may go (MC-RECYCLE,
    MC-FAB-OVERACTIVE)."""
    return [(r, h) for r, slot in enumerate(factory.start) for h in range(len(slot.holes))]
