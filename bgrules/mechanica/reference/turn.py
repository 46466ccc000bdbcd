"""Reference turn steps (MC-TURN-ORDER, MC-SELL, MC-FAB, MC-FAB-OVERACTIVE, MC-FAB-REPLACE)."""

from __future__ import annotations

import itertools

import attrs

from bgrules.core.errors import IllegalAction
from bgrules.mechanica.board import Factory, Truck
from bgrules.mechanica.components import Bot, Effect
from bgrules.mechanica.fabricate import Fabricate, Sell
from bgrules.mechanica.reference import factory as board
from bgrules.mechanica.reference.rules import Rules, give_bots, seat_of, with_seat
from bgrules.mechanica.reference.shop import make_into_hole, rotate
from bgrules.mechanica.reference.workday import take
from bgrules.mechanica.state import Decline, Gift, MechanicaState, Phase
from bgrules.mechanica.variant import MechanicaVariant


def sells(factory: Factory) -> list[Sell]:
    """MC-SELL: one bot of each grade on each truck, rows top to bottom, grades lowest first."""
    return [Sell(r, b) for r, truck in enumerate(factory.dock) for b in sorted(set(truck.load))]


def sell(rules: Rules, state: MechanicaState, action: Sell) -> MechanicaState:
    """MC-SELL: the bot back to the stock, its sale price into the wallet."""
    seat = seat_of(state)
    if action not in sells(seat.factory):
        raise IllegalAction("MC-SELL", f"no {action.bot!r} on the truck of row {action.row}")
    truck = seat.factory.dock[action.row]
    load = list(truck.load)
    load.remove(action.bot)
    factory = board.with_truck(seat.factory, action.row, Truck(truck.kind, tuple(load)))
    price = rules.variant.catalogue.sale(action.bot)
    state = with_seat(state, state.current, attrs.evolve(seat, factory=factory, wallet=seat.wallet + price))
    return attrs.evolve(state, stock=give_bots(state.stock, [action.bot]))


def fabricator_rows(factory: Factory, variant: MechanicaVariant) -> list[tuple[int, str]]:
    """MC-FAB: the Start Zone rows holding a fabricator (printed Basic, Advanced, Overactive), with what it
    makes (``basic``, ``plus``, ``deluxe`` or ``any``)."""
    out = []
    for r, slot in enumerate(factory.start):
        kind = variant.catalogue.tile(slot.kind)
        if kind.effect is Effect.FABRICATE and kind.makes is not None:
            out.append((r, kind.makes))
    return out


def fabrications(rules: Rules, factory: Factory) -> list[Fabricate]:
    """MC-FAB: one grade declared per Overactive Fabricator (top row first), and any set of occupied
    making holes to replace (MC-FAB-REPLACE)."""
    rows = fabricator_rows(factory, rules.variant)
    n_any = sum(1 for _r, makes in rows if makes == "any")
    occupied = [r for r, _m in rows if factory.start[r].holes[0] is not None]
    subsets = [c for n in range(len(occupied) + 1) for c in itertools.combinations(occupied, n)]
    return [
        Fabricate(declare=tuple(declare), replace=tuple(replace))
        for declare in itertools.product(tuple(Bot), repeat=n_any)
        for replace in subsets
    ]


def make_bots(
    factory: Factory, stock: tuple[int, int, int], variant: MechanicaVariant, action: Fabricate
) -> tuple[Factory, tuple[int, int, int], list[Bot]]:
    """MC-FAB, MC-FAB-REPLACE: every fabricator, top row first, makes its bot (an Overactive Fabricator the
    declared one) from the stock into its making hole, an occupied hole only if it is replaced (its old bot
    back to the stock first; a bot the stock lacks is not made, MC-STOCK). Returns the board, the stock and
    the bots the Overactive Fabricators made, top row first (MC-FAB-OVERACTIVE)."""
    declared = list(action.declare)
    overactive: list[Bot] = []
    for r, makes in fabricator_rows(factory, variant):
        bot = declared.pop(0) if makes == "any" else Bot[makes.upper()]
        holes = list(factory.start[r].holes)
        if holes[0] is not None:
            if r not in action.replace:
                continue
            stock = give_bots(stock, [holes[0]])
            holes[0] = None
        stock, made = take(stock, bot)
        if made:
            holes[0] = bot
            if makes == "any":
                overactive.append(bot)
        factory = board.with_start(factory, r, attrs.evolve(factory.start[r], holes=tuple(holes)))
    return factory, stock, overactive


def fabricate(rules: Rules, state: MechanicaState, action: Fabricate) -> MechanicaState:
    """MC-FAB: every fabricator makes a bot into its making hole (``make_bots``); each Overactive Fabricator
    that made a Plus or Deluxe bot offers each other player, from the fabricating player's left, a gift
    (MC-FAB-OVERACTIVE, phase GIFT); then the Shop turns (MC-SHOP-ROTATE)."""
    seat = seat_of(state)
    if action not in fabrications(rules, seat.factory):
        raise IllegalAction("MC-FAB", "a declaration per Overactive Fabricator; replace only occupied making holes")
    factory, stock, overactive = make_bots(seat.factory, state.stock, rules.variant, action)
    others = [(state.current + k) % rules.players for k in range(1, rules.players)]
    gifts = [(p, bot) for bot in overactive if bot > Bot.BASIC for p in others]
    state = with_seat(state, state.current, attrs.evolve(seat, factory=factory))
    state = attrs.evolve(state, stock=stock)
    if gifts:
        return attrs.evolve(state, gifts=tuple(gifts), phase=Phase.GIFT)
    return rotate(rules, state)


def gift_options(state: MechanicaState) -> list[Gift | Decline]:
    """MC-FAB-OVERACTIVE: a lower bot into any Start Zone hole of the receiver's board, or nothing."""
    receiver, declared = state.gifts[0]
    factory = state.seats[receiver].factory
    out: list[Gift | Decline] = [
        Gift(b, r, h)
        for b in Bot
        if b < declared
        for r, slot in enumerate(factory.start)
        for h in range(len(slot.holes))
    ]
    return [*out, Decline()]


def gift(rules: Rules, state: MechanicaState, action: Gift | Decline) -> MechanicaState:
    if action not in gift_options(state):
        raise IllegalAction("MC-FAB-OVERACTIVE", "a gift is a lower bot into a Start Zone hole of one's own")
    receiver = state.gifts[0][0]
    if isinstance(action, Gift):
        seat = state.seats[receiver]
        factory, stock = make_into_hole(seat.factory, state.stock, action.row, action.hole, action.bot)
        state = attrs.evolve(with_seat(state, receiver, attrs.evolve(seat, factory=factory)), stock=stock)
    state = attrs.evolve(state, gifts=state.gifts[1:])
    if state.gifts:
        return state
    return rotate(rules, attrs.evolve(state, phase=Phase.FABRICATE))
