"""The whole game of Mechanica for 2 to 4 players, ``bgrules.load_game("mechanica", players=n)``.

A day (seed section A then B): every factory runs (seat order, each owner deciding in their own run),
then each player in turn (1) sells bots on trucks, (2) buys improvements from the Shop and installs or
recycles each, (3) fabricates, (4) turns the Shop one slot, recycles what falls into the Recycler and
draws onto price 7 (with 2-3 players, the double rotation and an extra), and closes the turn (``Next``).
At any time in their turn, step (4) included, a player may buy a Fork or a truck, complete a Blueprint,
or demolish. At the day's end turned
Blueprints go under their piles; the game ends when the deck and the Shop are empty.

This module is the house: the constructor, the initial state and the protocol's dispatch to the rooms
(see :mod:`bgrules.mechanica.base`): the Shop (:mod:`~bgrules.mechanica.shop`), the turn
(:mod:`~bgrules.mechanica.turn`), Blueprints and trucks (:mod:`~bgrules.mechanica.blueprints`), the day
and the end (:mod:`~bgrules.mechanica.dayend`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from bgrules.core import coverage
from bgrules.core.codec import ActionGuard
from bgrules.core.errors import IllegalAction
from bgrules.core.fastevolve import evolve
from bgrules.core.memo import Memos
from bgrules.core.protocol import GameInfo
from bgrules.mechanica.base import CHANCE_PHASES, GAME_NAME, PILES, TURN_PHASES, shared
from bgrules.mechanica.blueprints import BlueprintRoom, loads_key
from bgrules.mechanica.components import GRADES
from bgrules.mechanica.dayend import DayRoom
from bgrules.mechanica.fabricate import Fabricate, Sell, fabricate_options, sell_options
from bgrules.mechanica.factory import check_install, starting_factory
from bgrules.mechanica.run import RUN_DECISION_TYPES, Change, ChooseOutput, Discard, Fly, Route
from bgrules.mechanica.sandbox import Demolish, DemolishFabricator
from bgrules.mechanica.state import (
    Buy,
    BuyFork,
    BuyTruck,
    Complete,
    Decline,
    Draw,
    Gift,
    MechanicaState,
    Next,
    Phase,
    Place,
    PlaceFabricator,
    Recycle,
    Reveal,
    Seat,
)
from bgrules.mechanica.turn import TurnRoom
from bgrules.mechanica.validate import problems
from bgrules.mechanica.variant import MechanicaVariant, game_variant
from bgrules.mechanica.workday import decide, decisions

# Enum members the functions below compare with, as module constants: under Python 3.11 each ``Phase.X``
# is looked up through EnumType.__getattr__'s hook, about 0.2 us a time on a hot path (docs/speed.md).
_Phase_BUY = Phase.BUY
_Phase_DRAW = Phase.DRAW
_Phase_EXTRA = Phase.EXTRA
_Phase_GIFT = Phase.GIFT
_Phase_OVER = Phase.OVER
_Phase_PLACE = Phase.PLACE
_Phase_RECYCLE = Phase.RECYCLE
_Phase_REVEAL = Phase.REVEAL
_Phase_RUN = Phase.RUN
_Phase_SELL = Phase.SELL
_Phase_SETUP_DEAL = Phase.SETUP_DEAL
_Phase_SETUP_EXTRAS = Phase.SETUP_EXTRAS
_Phase_TURN_END = Phase.TURN_END

ACTION_TYPES: tuple[type, ...] = (
    *RUN_DECISION_TYPES,
    Sell,
    Next,
    Buy,
    Place,
    PlaceFabricator,
    Recycle,
    BuyFork,
    BuyTruck,
    Complete,
    Demolish,
    DemolishFabricator,
    Fabricate,
    Gift,
    Decline,
    Draw,
    Reveal,
)
_NEXT = Next()
ANYTIME_TYPES = (BuyFork, BuyTruck, Complete, Demolish, DemolishFabricator)
RUN_TYPES = (Route, Fly, Discard, Change, ChooseOutput)
"""A run's decisions (MC-RUN), a tuple: ``isinstance`` with ``A | B`` builds the union each call."""
"""MC-ANYTIME: the actions allowed at any time during one's own turn."""


class MechanicaGame(TurnRoom, DayRoom, BlueprintRoom):
    """Mechanica for 2-4 players through the Game protocol."""

    ACTIONS = ACTION_TYPES

    def __init__(self, players: int = 4, variant: MechanicaVariant | str | None = None) -> None:
        self.variant = game_variant(players, variant)
        self._players = players
        data = self.variant.game
        cat = self.variant.catalogue
        self.kinds = data.improvements
        self.kind_index = {k: i for i, k in enumerate(self.kinds)}
        self.copies = tuple(cat.tiles[k].copies for k in self.kinds)
        self.total_tiles = sum(self.copies)
        self.prices = data.prices
        self.cards = {b.id: b for b in data.blueprints}
        rulings = self.variant.rulings
        uses_extras = players in (2, 3) or rulings.extras_4p == "unused"
        self.extras_target = min(data.extras, self.total_tiles) if uses_extras else 0
        self.double_rotation = players in (2, 3)
        self._anytime_waits = rulings.anytime != "steps_1_3"
        self._turn_end = rulings.anytime == "whole_turn"
        self._guard = ActionGuard(ACTION_TYPES, "MC-TURN-ORDER")
        memos = self.memos = Memos()
        """Every memo of the game (``bgrules.core.memo``): bounded, emptied together by ``memos.clear()``; a
        memo and the pools its answers share are emptied together when it passes its bound."""
        memos.join(self.variant.catalogue.memos)  # the catalogue's memos, emptied with the game's
        self._board_memo = memos.memo("board", 50_000)
        self._board_parts = []
        self._dock_memo = memos.memo("dock", 50_000)  # emptied with the board memo
        self._start_memo = memos.memo("start", 50_000)  # emptied with the board memo
        self._sell_memo = memos.memo("sell", 20_000)
        self._sell_shared = memos.memo("sell pool", 20_000)  # emptied with the sell memo
        self._fabricate_memo = memos.memo("fabricate", 20_000)
        self._complete_memo = memos.memo("complete", 50_000)
        self._complete_shared = memos.memo("complete pool", 50_000)  # emptied with the complete memo
        self._draw_memo = memos.memo("draw", 50_000)
        self._draw_pairs = memos.memo("draw pairs", 20_000)
        self._reveal_memo = memos.memo("reveal", 20_000)
        self._reveal_pairs = memos.memo("reveal pairs", 20_000)  # emptied with the reveal memo
        self._truck_prices = self._price_table()
        self._buys = tuple(Buy(i) for i in range(len(self.prices)))
        self._draw_actions = {k: Draw(k) for k in self.kinds}
        fork = self.variant.catalogue.tiles.get("fork")
        self.fork_price = fork.price if fork is not None and fork.price is not None else 1_000_000
        self._info = GameInfo(
            name=GAME_NAME,
            min_players=2,
            max_players=4,
            has_chance=True,
            max_length=self._max_length(),
            parameters=(("players", "4"),),
        )

    # --- protocol -----------------------------------------------------------------------------------

    def initial_state(self) -> MechanicaState:
        """MC-SETUP-SEATS, MC-SETUP-BOT, MC-STOCK, MC-SETUP-DECK: boards, money, stock and deck; the random
        parts of the set-up follow as chance nodes."""
        coverage.effect("MC-SETUP-SEATS")
        coverage.effect("MC-BOARD")
        coverage.effect("MC-SETUP-BOT")
        coverage.effect("MC-STOCK")
        coverage.effect("MC-SETUP-DECK")
        data = self.variant.game
        factory = starting_factory()
        seats = tuple(Seat(factory, sum(data.money)) for _ in range(self._players))
        per = self.variant.rulings.bots_per_grade
        placed = factory.bot_counts()
        stock = (per - self._players * placed[0], per - self._players * placed[1], per - self._players * placed[2])

        n_cards = len(data.blueprints)
        state = MechanicaState(
            seats=seats,
            stock=stock,
            deck=self.copies,
            extras=(0,) * len(self.kinds),
            wheel=(None,) * len(self.prices),
            recycler=(0,) * len(self.kinds),
            bp_pool=tuple(sorted(self.cards)),
            bp_hidden=((n_cards + 1) // 2, n_cards // 2),
            bp_bottom=((), ()),
            bp_top=(None, None),
            bp_turned=(False, False),
            day=1,
            phase=_Phase_SETUP_EXTRAS,
        )
        return self._settle(state)

    def validate(self, state: MechanicaState) -> list[str]:
        """Every way ``state`` breaks the shape of this game's reachable states ("<field path>: <reason>";
        empty = the engine can play on it): indexes in range, counts conserved, phase fields consistent
        (MC-BOARD, MC-STOCK, MC-SETUP-DECK, MC-BP-ONCE, MC-TURN-ORDER; :mod:`bgrules.mechanica.validate`,
        docs/validation.md). ``bgrules.loads`` refuses a state with any."""

        return problems(self, state)

    # --- chance -------------------------------------------------------------------------------------

    def _chance_outcomes(self, state: MechanicaState) -> tuple[tuple[Any, Fraction], ...]:
        """MC-CHANCE: tile draws from the deck or the extras (the Shop's room), Blueprint reveals (the
        Blueprints' room); nothing outside a chance phase (``chance_outcomes`` memoises the last state)."""
        phase = state.phase
        if phase in (_Phase_SETUP_EXTRAS, _Phase_SETUP_DEAL, _Phase_DRAW):
            return self._draws(state.deck)
        if phase is _Phase_EXTRA:
            return self._draws(state.extras)
        if phase is _Phase_REVEAL:
            return self._reveals(state)
        return ()

    def _chance(self, state: MechanicaState, action: Any) -> MechanicaState:
        """MC-CHANCE: only a listed outcome; a Blueprint revealed (MC-BP-DAYEND) or a tile drawn (MC-SHOP-DRAW,
        MC-SETUP-EXTRAS, MC-SETUP-DEAL, MC-SHOP-DOUBLE)."""
        outcomes = self.chance_outcomes(state)
        if not any(action is a for a, _p in outcomes) and not any(action == a for a, _p in outcomes):
            raise IllegalAction("MC-CHANCE", f"{action!r} is not a possible chance outcome here")
        coverage.effect("MC-CHANCE")
        if isinstance(action, Reveal):
            return self._reveal(state, action)
        assert isinstance(action, Draw)
        return self._draw(state, action)

    # --- legal actions ------------------------------------------------------------------------------

    def _legal_actions(self, state: MechanicaState) -> tuple[Any, ...]:
        """Every legal action, by phase: chance outcomes, run decisions (MC-RUN), the bought tile
        (MC-SHOP-BUY), the fallen tile (MC-SHOP-RECYCLE), the turn's close (``Next``, MC-ANYTIME), gifts
        (MC-FAB-OVERACTIVE), or a step of the turn (MC-TURN-ORDER) followed by the actions of any time in
        the turn (MC-ANYTIME)."""
        phase = state.phase
        if phase in CHANCE_PHASES:
            return tuple(a for a, _p in self.chance_outcomes(state))
        if phase is _Phase_OVER:
            return ()
        if phase is _Phase_RUN:
            assert state.run is not None
            return decisions(state.run, self.variant)
        seat = state.seats[state.gifts[0][0] if phase is _Phase_GIFT else state.current]
        if phase is _Phase_PLACE:
            waiting: tuple[Any, ...] = tuple(self._place_options(state, seat.factory))
            return waiting + self._anytime_options(state, seat) if self._anytime_waits else waiting
        if phase is _Phase_RECYCLE:
            waiting = tuple(self._recycle_options(seat.factory))
            return waiting + self._anytime_options(state, seat) if self._anytime_waits else waiting
        if phase is _Phase_TURN_END:  # MC-ANYTIME: the decision closing step (4)
            return (_NEXT, *self._anytime_options(state, seat))
        if phase is _Phase_GIFT:
            _player, declared = state.gifts[0]
            return (
                *(Gift(b, r, h) for b in GRADES if b < declared for r, h in self._holes(seat.factory)),
                Decline(),
            )
        first: tuple[Any, ...] | None
        if phase is _Phase_SELL:
            dock = seat.factory.dock
            last = self._last_sell
            if last is not None and last[0] is dock:  # the very dock of last time (held: no id reuse)
                first = last[1]
            else:
                loads = loads_key(dock)  # MC-SELL reads only the loads: a key of bytes, untracked
                first = self._sell_memo.get(loads)
                if first is None:
                    if len(self._sell_memo) > self.memos.bound("sell"):
                        self._sell_memo.clear()
                        self._sell_shared.clear()
                    options = (*sell_options(seat.factory), _NEXT)
                    first = self._sell_memo[loads] = shared(self._sell_shared, options)
                self._last_sell = (dock, first)
        elif phase is _Phase_BUY:
            wallet, prices = seat.wallet, self.prices
            buys = (self._buys[i] for i, kind in enumerate(state.wheel) if kind is not None and wallet >= prices[i])
            first = (*buys, _NEXT)
        else:
            start = seat.factory.start
            first = self._fabricate_memo.get(start)
            if first is None:
                first = self.memos.put(
                    self._fabricate_memo, start, tuple(fabricate_options(seat.factory, self.variant))
                )
        return first + self._anytime_options(state, seat)

    # --- apply --------------------------------------------------------------------------------------

    def apply(self, state: MechanicaState, action: Any) -> MechanicaState:
        """Apply ``action``, or raise IllegalAction naming the rule broken (the state is never changed): MC-END
        after the end, MC-CHANCE, MC-RUN, the bought tile (MC-SHOP-BUY, or MC-ANYTIME), the fallen tile
        (MC-SHOP-RECYCLE, or MC-ANYTIME), gifts (MC-FAB-OVERACTIVE), the steps (MC-TURN-ORDER). An action
        whose fields are not of their declared kinds (a text or ``true`` for a row) is refused with
        IllegalAction naming the action's rule, as is one the rules cannot read here."""
        return self._guard.apply(self, state, action, self._apply)

    def _apply(self, state: MechanicaState, action: Any) -> MechanicaState:
        """The dispatch of :meth:`apply` by phase: MC-END, MC-CHANCE, MC-RUN, MC-SHOP-BUY, MC-SHOP-RECYCLE,
        MC-ANYTIME, MC-FAB-OVERACTIVE, MC-TURN-ORDER (and the turn's close after step (4), MC-ANYTIME)."""
        phase = state.phase
        if phase is _Phase_OVER:
            raise IllegalAction("MC-END", "the game is over; no action is legal")
        if phase in CHANCE_PHASES:
            return self._settle(self._chance(state, action))
        if phase is _Phase_RUN:
            if not isinstance(action, RUN_TYPES):
                raise IllegalAction("MC-RUN", f"{action!r}: a workday run awaits its owner's decision")
            assert state.run is not None
            return self._settle(evolve(state, run=decide(state.run, self.variant, action)))
        if phase is _Phase_PLACE:
            if self._anytime_waits and isinstance(action, ANYTIME_TYPES):  # MC-ANYTIME, every step
                return self._anytime(state, action)
            return self._settle(self._place(state, action))
        if phase is _Phase_RECYCLE:
            if self._anytime_waits and isinstance(action, ANYTIME_TYPES):  # MC-ANYTIME, every step
                return self._anytime(state, action)
            return self._settle(self._recycle_fallen(state, action))
        if phase is _Phase_GIFT:
            return self._settle(self._gift(state, action))
        if phase is _Phase_TURN_END:
            if isinstance(action, ANYTIME_TYPES):  # MC-ANYTIME, after the Shop's turn
                return self._anytime(state, action)
            return self._settle(self._end_turn(state, action))
        if isinstance(action, Next):
            return self._next(state)
        if isinstance(action, Sell):
            return self._sell(state, action)
        if isinstance(action, Buy):
            return self._buy(state, action)
        if isinstance(action, Fabricate):
            return self._settle(self._fabricate(state, action))
        if isinstance(action, ANYTIME_TYPES):
            return self._anytime(state, action)
        raise IllegalAction("MC-TURN-ORDER", f"{action!r} is not an action of this step ({phase.value})")


__all__ = ["ACTION_TYPES", "GAME_NAME", "PILES", "TURN_PHASES", "MechanicaGame", "check_install"]
