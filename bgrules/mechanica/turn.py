"""The turn (whole game): its steps in order, selling, fabricating and the Overactive Fabricator's gifts.

A room of plain functions over the game (:class:`~bgrules.mechanica.base.MechanicaBase`).

Rules: MC-TURN-ORDER, MC-SELL, MC-FAB, MC-FAB-REPLACE, MC-FAB-OVERACTIVE; docs/rules/mechanica.md,
"The day and the turn". Buying is the Shop's room (:mod:`bgrules.mechanica.shop`), the actions of any
time in the turn are :mod:`bgrules.mechanica.blueprints`; the turn ends with the Shop's rotation.
"""

from __future__ import annotations

from typing import Any

from bgrules.core import coverage
from bgrules.core.errors import IllegalAction
from bgrules.core.fastevolve import evolve
from bgrules.mechanica import shop
from bgrules.mechanica.base import MechanicaBase, start_holes, with_board, with_board_wallet, with_phase, with_seat
from bgrules.mechanica.fabricate import Fabricate, Sell, fabricate, put_in_start_hole, sell
from bgrules.mechanica.state import Decline, Gift, MechanicaState, Next, Phase


def next_step(game: MechanicaBase, state: MechanicaState) -> MechanicaState:
    """MC-TURN-ORDER: ``Next`` closes selling (to buying) and buying (to fabricating); MC-FAB: it cannot
    close fabricating."""
    phase = state.phase._value_
    if phase == "fabricate":
        raise IllegalAction("MC-FAB", "every fabricator must fabricate before the turn goes on")
    coverage.effect("MC-TURN-ORDER")
    return with_phase(state, Phase.BUY if phase == "sell" else Phase.FABRICATE)


def end_turn(game: MechanicaBase, state: MechanicaState, action: Any) -> MechanicaState:
    """MC-ANYTIME (``anytime = "whole_turn"``): after step (4) the player takes the actions of any time in
    the turn (the phase stays) or ends the turn with ``Next`` (MC-TURN-ORDER: the next seat's turn, or
    the day's end after the last seat's)."""
    if isinstance(action, Next):
        coverage.effect("MC-TURN-ORDER")
        return evolve(state, phase=Phase.SELL, current=state.current + 1)
    raise IllegalAction(
        "MC-TURN-ORDER", f"{action!r}: step (4) is over; the actions of any time in the turn or Next() end it"
    )


def sell_bot(game: MechanicaBase, state: MechanicaState, action: Sell) -> MechanicaState:
    """MC-SELL in step 1 only (MC-TURN-ORDER): the bot goes back to the stock, its price to the wallet."""
    if state.phase._value_ != "sell":
        raise IllegalAction("MC-TURN-ORDER", "bots are sold in the first step of the turn only")
    seat = state.seats[state.current]
    factory, stock, coins = sell(seat.factory, state.stock, game.variant, action)
    return with_seat(state, with_board_wallet(seat, factory, seat.wallet + coins), stock=stock)


def fabricate_bots(game: MechanicaBase, state: MechanicaState, action: Fabricate) -> MechanicaState:
    """MC-FAB, MC-FAB-REPLACE: every fabricator makes its bot (MC-TURN-ORDER: in the third step);
    MC-FAB-OVERACTIVE: each Plus or Deluxe bot made by an Overactive Fabricator offers every other player a
    gift; then the Shop turns (MC-SHOP-ROTATE)."""
    if state.phase._value_ != "fabricate":
        raise IllegalAction("MC-TURN-ORDER", "fabricating is the third step of the turn (after Next)")
    seat = state.seats[state.current]
    factory, stock, made = fabricate(seat.factory, state.stock, game.variant, action)
    n = game._players  # a gift per Plus or Deluxe bot made (a Bot above Basic, 0), per other player
    gifts = tuple(((state.current + k) % n, declared) for declared in made if declared > 0 for k in range(1, n))
    if gifts:
        coverage.effect("MC-FAB-OVERACTIVE")
        return with_seat(state, with_board(seat, factory), stock=stock, gifts=gifts, phase=Phase.GIFT)
    return shop.rotate(game, with_seat(state, with_board(seat, factory), stock=stock))  # then the Shop turns


def gift(game: MechanicaBase, state: MechanicaState, action: Any) -> MechanicaState:
    """MC-FAB-OVERACTIVE: the receiving player makes a lower bot into any Start Zone hole, or declines;
    after the last gift the Shop turns (MC-SHOP-ROTATE)."""
    player, declared = state.gifts[0]
    rest = state.gifts[1:]
    if isinstance(action, Gift):
        if action.bot >= declared:
            raise IllegalAction("MC-FAB-OVERACTIVE", f"the gift must be lower than the declared {declared!r}")
        seat = state.seats[player]
        if (action.row, action.hole) not in start_holes(seat.factory):
            raise IllegalAction("MC-FAB-OVERACTIVE", f"Start Zone row {action.row} has no hole {action.hole}")
        coverage.effect("MC-FAB-OVERACTIVE")
        factory, stock = put_in_start_hole(seat.factory, state.stock, action.row, action.hole, action.bot)
        state = with_seat(state, evolve(seat, factory=factory), who=player, stock=stock)
    elif not isinstance(action, Decline):
        raise IllegalAction("MC-FAB-OVERACTIVE", f"{action!r}: make a lower bot (Gift) or Decline")
    state = evolve(state, gifts=rest)
    return state if rest else shop.rotate(game, state)
