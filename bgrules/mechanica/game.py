"""The whole game of Mechanica for 2 to 4 players, ``bgrules.load_game("mechanica", players=n)``.

A day (seed section A then B): every factory runs (seat order, each owner deciding in their own run),
then each player in turn (1) sells bots on trucks, (2) buys improvements from the Shop and installs or
recycles each, (3) fabricates, (4) turns the Shop one slot, recycles what falls into the Recycler and
draws onto price 7 (with 2-3 players, the double rotation and an extra), and closes the turn (``Next``).
At any time in their turn, step (4) included, a player may buy a Fork or a truck, complete a Blueprint,
or demolish. At the day's end turned
Blueprints go under their piles; the game ends when the deck and the Shop are empty.

This module is the house: the constructor, the initial state and the protocol's dispatch to the rooms
(see :mod:`bgrules.mechanica.base`), each a module of plain functions: the Shop
(:mod:`~bgrules.mechanica.shop`), the turn (:mod:`~bgrules.mechanica.turn`), Blueprints and trucks
(:mod:`~bgrules.mechanica.blueprints`), the day and the end (:mod:`~bgrules.mechanica.dayend`). A
decision goes to its room through the tables of phases (``LEGAL``, ``ACTS``, ``OUTCOMES``: phase value ->
the function answering it), and the automatic steps follow (``dayend.settle``).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from bgrules.core import coverage
from bgrules.core.codec import ActionGuard
from bgrules.core.errors import IllegalAction
from bgrules.core.fastevolve import evolve
from bgrules.core.memo import Memos
from bgrules.core.protocol import GameInfo
from bgrules.mechanica import blueprints, dayend, shop, turn
from bgrules.mechanica.base import CHANCE_PHASES, GAME_NAME, PILES, TURN_PHASES, MechanicaBase, shared, start_holes
from bgrules.mechanica.blueprints import loads_key
from bgrules.mechanica.components import GRADES
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
from bgrules.mechanica.validate import problems
from bgrules.mechanica.variant import MechanicaVariant, game_variant
from bgrules.mechanica.workday import decide, decisions

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
"""MC-ANYTIME: the actions allowed at any time during one's own turn."""
RUN_TYPES = (Route, Fly, Discard, Change, ChooseOutput)
"""A run's decisions (MC-RUN)."""


# --- legal actions, by phase --------------------------------------------------------------------------


def _chance_options(game: MechanicaBase, state: MechanicaState) -> tuple[Any, ...]:
    """MC-CHANCE: the outcomes of a chance phase."""
    return tuple(a for a, _p in game.chance_outcomes(state))


def _no_options(game: MechanicaBase, state: MechanicaState) -> tuple[Any, ...]:
    """MC-END: nothing after the end."""
    return ()


def _run_options(game: MechanicaBase, state: MechanicaState) -> tuple[Any, ...]:
    """MC-RUN: the decisions of the running factory's owner."""
    assert state.run is not None
    return decisions(state.run, game.variant)


def _place_options(game: MechanicaBase, state: MechanicaState) -> tuple[Any, ...]:
    """MC-SHOP-BUY: the bought tile installed or recycled; MC-ANYTIME: with the anytime actions when the
    ruling offers them while a tile waits."""
    seat = state.seats[state.current]
    waiting: tuple[Any, ...] = tuple(shop.place_options(game, state, seat.factory))
    return waiting + blueprints.anytime_options(game, state, seat) if game._anytime_waits else waiting


def _recycle_options(game: MechanicaBase, state: MechanicaState) -> tuple[Any, ...]:
    """MC-SHOP-RECYCLE: the fallen tile's bot placed; MC-ANYTIME: with the anytime actions when the ruling
    offers them while a tile waits."""
    seat = state.seats[state.current]
    waiting = tuple(shop.recycle_options(game, seat.factory))
    return waiting + blueprints.anytime_options(game, state, seat) if game._anytime_waits else waiting


def _turn_end_options(game: MechanicaBase, state: MechanicaState) -> tuple[Any, ...]:
    """MC-ANYTIME: the decision closing step (4): ``Next`` and the anytime actions."""
    return (_NEXT, *blueprints.anytime_options(game, state, state.seats[state.current]))


def _gift_options(game: MechanicaBase, state: MechanicaState) -> tuple[Any, ...]:
    """MC-FAB-OVERACTIVE: a lower bot into any Start Zone hole of the receiving player's, or ``Decline``."""
    player, declared = state.gifts[0]
    factory = state.seats[player].factory
    return (*(Gift(b, r, h) for b in GRADES if b < declared for r, h in start_holes(factory)), Decline())


def _sell_options(game: MechanicaBase, state: MechanicaState) -> tuple[Any, ...]:
    """MC-SELL: the sales the Loading Dock allows, then ``Next`` (MC-TURN-ORDER), and the anytime actions
    (MC-ANYTIME)."""
    seat = state.seats[state.current]
    dock = seat.factory.dock
    last = game._last_sell
    first: tuple[Any, ...] | None
    if last is not None and last[0] is dock:  # the very dock of last time
        first = last[1]
    else:
        loads = loads_key(dock)  # MC-SELL reads only the loads
        first = game._sell_memo.get(loads)
        if first is None:
            if len(game._sell_memo) > game.memos.bound("sell"):
                game._sell_memo.clear()
                game._sell_shared.clear()
            options = (*sell_options(seat.factory), _NEXT)
            first = game._sell_memo[loads] = shared(game._sell_shared, options)
        game._last_sell = (dock, first)
    return first + blueprints.anytime_options(game, state, seat)


def _buy_options(game: MechanicaBase, state: MechanicaState) -> tuple[Any, ...]:
    """MC-SHOP-BUY: each affordable Shop slot, then ``Next`` (MC-TURN-ORDER), and the anytime actions
    (MC-ANYTIME)."""
    seat = state.seats[state.current]
    wallet, prices = seat.wallet, game.prices
    buys = (game._buys[i] for i, kind in enumerate(state.wheel) if kind is not None and wallet >= prices[i])
    return (*buys, _NEXT, *blueprints.anytime_options(game, state, seat))


def _fabricate_options(game: MechanicaBase, state: MechanicaState) -> tuple[Any, ...]:
    """MC-FAB: the ways to fabricate, and the anytime actions (MC-ANYTIME)."""
    seat = state.seats[state.current]
    start = seat.factory.start
    first = game._fabricate_memo.get(start)
    if first is None:
        first = game.memos.put(game._fabricate_memo, start, tuple(fabricate_options(seat.factory, game.variant)))
    return first + blueprints.anytime_options(game, state, seat)


LEGAL: dict[str, Callable[[MechanicaBase, MechanicaState], tuple[Any, ...]]] = {
    **dict.fromkeys((p.value for p in CHANCE_PHASES), _chance_options),
    Phase.OVER.value: _no_options,
    Phase.RUN.value: _run_options,
    Phase.PLACE.value: _place_options,
    Phase.RECYCLE.value: _recycle_options,
    Phase.TURN_END.value: _turn_end_options,
    Phase.GIFT.value: _gift_options,
    Phase.SELL.value: _sell_options,
    Phase.BUY.value: _buy_options,
    Phase.FABRICATE.value: _fabricate_options,
}
"""The legal actions of each phase, by the phase's value."""


# --- chance -------------------------------------------------------------------------------------------


def _deck_draws(game: MechanicaBase, state: MechanicaState) -> tuple[tuple[Any, Fraction], ...]:
    """MC-CHANCE: a tile drawn from the deck (MC-SETUP-EXTRAS, MC-SETUP-DEAL, MC-SHOP-DRAW)."""
    return shop.draws(game, state.deck)


def _extra_draws(game: MechanicaBase, state: MechanicaState) -> tuple[tuple[Any, Fraction], ...]:
    """MC-CHANCE: a tile drawn from the extras (MC-SHOP-DOUBLE)."""
    return shop.draws(game, state.extras)


def _reveals(game: MechanicaBase, state: MechanicaState) -> tuple[tuple[Any, Fraction], ...]:
    """MC-CHANCE: a Blueprint revealed (MC-BP-DAYEND)."""
    return blueprints.reveals(game, state)


OUTCOMES: dict[str, Callable[[MechanicaBase, MechanicaState], tuple[tuple[Any, Fraction], ...]]] = {
    Phase.SETUP_EXTRAS.value: _deck_draws,
    Phase.SETUP_DEAL.value: _deck_draws,
    Phase.DRAW.value: _deck_draws,
    Phase.EXTRA.value: _extra_draws,
    Phase.REVEAL.value: _reveals,
}
"""The chance outcomes of each chance phase, by the phase's value (none in another phase)."""


def resolve_chance(game: MechanicaBase, state: MechanicaState, action: Any) -> MechanicaState:
    """MC-CHANCE: only a listed outcome; a Blueprint revealed (MC-BP-DAYEND) or a tile drawn (MC-SHOP-DRAW,
    MC-SETUP-EXTRAS, MC-SETUP-DEAL, MC-SHOP-DOUBLE)."""
    outcomes = game.chance_outcomes(state)
    if not any(action is a for a, _p in outcomes) and not any(action == a for a, _p in outcomes):
        raise IllegalAction("MC-CHANCE", f"{action!r} is not a possible chance outcome here")
    coverage.effect("MC-CHANCE")
    if isinstance(action, Reveal):
        return blueprints.reveal(game, state, action)
    assert isinstance(action, Draw)
    return shop.draw(game, state, action)


# --- apply, by phase ----------------------------------------------------------------------------------


def _act_over(game: MechanicaBase, state: MechanicaState, action: Any) -> MechanicaState:
    """MC-END: no action after the end."""
    raise IllegalAction("MC-END", "the game is over; no action is legal")


def _act_chance(game: MechanicaBase, state: MechanicaState, action: Any) -> MechanicaState:
    """MC-CHANCE: a chance outcome, then the automatic steps."""
    return dayend.settle(game, resolve_chance(game, state, action))


def _act_run(game: MechanicaBase, state: MechanicaState, action: Any) -> MechanicaState:
    """MC-RUN: a decision of the running factory's owner, then the automatic steps."""
    if not isinstance(action, RUN_TYPES):
        raise IllegalAction("MC-RUN", f"{action!r}: a workday run awaits its owner's decision")
    assert state.run is not None
    return dayend.settle(game, evolve(state, run=decide(state.run, game.variant, action)))


def _act_place(game: MechanicaBase, state: MechanicaState, action: Any) -> MechanicaState:
    """MC-SHOP-BUY: the bought tile installed or recycled (or, every step, MC-ANYTIME)."""
    if game._anytime_waits and isinstance(action, ANYTIME_TYPES):  # MC-ANYTIME, every step
        return blueprints.anytime(game, state, action)
    return dayend.settle(game, shop.place(game, state, action))


def _act_recycle(game: MechanicaBase, state: MechanicaState, action: Any) -> MechanicaState:
    """MC-SHOP-RECYCLE: the fallen tile's bot placed (or, every step, MC-ANYTIME)."""
    if game._anytime_waits and isinstance(action, ANYTIME_TYPES):  # MC-ANYTIME, every step
        return blueprints.anytime(game, state, action)
    return dayend.settle(game, shop.recycle_fallen(game, state, action))


def _act_gift(game: MechanicaBase, state: MechanicaState, action: Any) -> MechanicaState:
    """MC-FAB-OVERACTIVE: a gift taken or declined."""
    return dayend.settle(game, turn.gift(game, state, action))


def _act_turn_end(game: MechanicaBase, state: MechanicaState, action: Any) -> MechanicaState:
    """MC-ANYTIME after the Shop's turn, or the turn's close (MC-TURN-ORDER)."""
    if isinstance(action, ANYTIME_TYPES):  # MC-ANYTIME, after the Shop's turn
        return blueprints.anytime(game, state, action)
    return dayend.settle(game, turn.end_turn(game, state, action))


def _act_step(game: MechanicaBase, state: MechanicaState, action: Any) -> MechanicaState:
    """MC-TURN-ORDER: a step of the turn (selling, buying, fabricating), ``Next`` or an action of any time
    (MC-ANYTIME)."""
    if isinstance(action, Next):
        return turn.next_step(game, state)
    if isinstance(action, Sell):
        return turn.sell_bot(game, state, action)
    if isinstance(action, Buy):
        return shop.buy(game, state, action)
    if isinstance(action, Fabricate):
        return dayend.settle(game, turn.fabricate_bots(game, state, action))
    if isinstance(action, ANYTIME_TYPES):
        return blueprints.anytime(game, state, action)
    raise IllegalAction("MC-TURN-ORDER", f"{action!r} is not an action of this step ({state.phase.value})")


ACTS: dict[str, Callable[[MechanicaBase, MechanicaState, Any], MechanicaState]] = {
    **dict.fromkeys((p.value for p in CHANCE_PHASES), _act_chance),
    Phase.OVER.value: _act_over,
    Phase.RUN.value: _act_run,
    Phase.PLACE.value: _act_place,
    Phase.RECYCLE.value: _act_recycle,
    Phase.GIFT.value: _act_gift,
    Phase.TURN_END.value: _act_turn_end,
    Phase.SELL.value: _act_step,
    Phase.BUY.value: _act_step,
    Phase.FABRICATE.value: _act_step,
}
"""The guard and effect of an action in each phase, by the phase's value."""


class MechanicaGame(MechanicaBase):
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
        self._recycle_actions = memos.memo("recycle actions", 1_000)
        self._fractions = memos.memo("fractions", 20_000)
        self._truck_prices = blueprints.price_table(self)
        self._buys = tuple(Buy(i) for i in range(len(self.prices)))
        self._draw_actions = {k: Draw(k) for k in self.kinds}
        fork = self.variant.catalogue.tiles.get("fork")
        self.fork_price = fork.price if fork is not None and fork.price is not None else 1_000_000
        self._info = GameInfo(
            name=GAME_NAME,
            min_players=2,
            max_players=4,
            has_chance=True,
            max_length=dayend.max_length_bound(self),
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
            phase=Phase.SETUP_EXTRAS,
        )
        return dayend.settle(self, state)

    def validate(self, state: MechanicaState) -> list[str]:
        """Every way ``state`` breaks the shape of this game's reachable states ("<field path>: <reason>";
        empty = the engine can play on it): indexes in range, counts conserved, phase fields consistent
        (MC-BOARD, MC-STOCK, MC-SETUP-DECK, MC-BP-ONCE, MC-TURN-ORDER; :mod:`bgrules.mechanica.validate`,
        docs/validation.md). ``bgrules.loads`` refuses a state with any."""

        return problems(self, state)

    # --- the protocol's dispatch through the tables of phases --------------------------------------

    def _chance_outcomes(self, state: MechanicaState) -> tuple[tuple[Any, Fraction], ...]:
        """MC-CHANCE: tile draws from the deck or the extras (the Shop's room), Blueprint reveals (the
        Blueprints' room); nothing outside a chance phase (``chance_outcomes`` remembers the last state)."""
        found = OUTCOMES.get(state.phase._value_)
        return () if found is None else found(self, state)

    def _legal_actions(self, state: MechanicaState) -> tuple[Any, ...]:
        """Every legal action, by phase (``LEGAL``): chance outcomes, run decisions (MC-RUN), the bought tile
        (MC-SHOP-BUY), the fallen tile (MC-SHOP-RECYCLE), the turn's close (``Next``, MC-ANYTIME), gifts
        (MC-FAB-OVERACTIVE), or a step of the turn (MC-TURN-ORDER) followed by the actions of any time in
        the turn (MC-ANYTIME)."""
        return LEGAL[state.phase._value_](self, state)

    # --- apply --------------------------------------------------------------------------------------

    def apply(self, state: MechanicaState, action: Any) -> MechanicaState:
        """Apply ``action``, or raise IllegalAction naming the rule broken (the state is never changed): MC-END
        after the end, MC-CHANCE, MC-RUN, the bought tile (MC-SHOP-BUY, or MC-ANYTIME), the fallen tile
        (MC-SHOP-RECYCLE, or MC-ANYTIME), gifts (MC-FAB-OVERACTIVE), the steps (MC-TURN-ORDER). An action
        whose fields are not of their declared kinds (a text or ``true`` for a row) is refused with
        IllegalAction naming the action's rule, as is one the rules cannot read here."""
        return self._guard.apply(self, state, action, self._apply)

    def _apply(self, state: MechanicaState, action: Any) -> MechanicaState:
        """The dispatch of :meth:`apply` by phase (``ACTS``): MC-END, MC-CHANCE, MC-RUN, MC-SHOP-BUY,
        MC-SHOP-RECYCLE, MC-ANYTIME, MC-FAB-OVERACTIVE, MC-TURN-ORDER (and the turn's close after step (4),
        MC-ANYTIME)."""
        return ACTS[state.phase._value_](self, state, action)

    # --- the end and the score (:mod:`bgrules.mechanica.dayend`) -------------------------------------

    def scores(self, state: MechanicaState) -> tuple[int, ...]:
        """MC-SCORE: wallet + vault + the values of installed improvements."""
        return dayend.scores(self, state)

    def winners(self, state: MechanicaState) -> tuple[int, ...]:
        """MC-END-TIE: the highest score wins; ties shared, or broken by money in hand (variant)."""
        return dayend.winners(self, state)

    def end_trigger(self, state: MechanicaState) -> str | None:
        """MC-END: the rule that ended a terminal state; None while the game goes on."""
        return dayend.end_trigger(self, state)


__all__ = ["ACTION_TYPES", "GAME_NAME", "PILES", "TURN_PHASES", "MechanicaGame", "check_install"]
