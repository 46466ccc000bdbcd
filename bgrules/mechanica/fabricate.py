"""Fabricating (MC-FAB) and the turn actions shared by the factory sandbox and the whole game."""

from __future__ import annotations

import itertools
from typing import Any

import attrs

from bgrules.core import coverage
from bgrules.core.codec import lenient
from bgrules.core.errors import IllegalAction
from bgrules.core.fastevolve import evolve
from bgrules.mechanica.components import Bot, bot_field
from bgrules.mechanica.factory import ROWS, Factory, StartSlot, Truck
from bgrules.mechanica.variant import MechanicaVariant

Stock = tuple[int, int, int]


def _bots_tuple(value: Any) -> tuple[Bot, ...]:
    return tuple(v if type(v) is Bot else Bot(v) for v in value)


def _ints(value: Any) -> tuple[int, ...]:
    return tuple(int(v) for v in value)


_lenient_declare = lenient(_bots_tuple, sequence=True)
_lenient_replace = lenient(_ints, sequence=True)


def _declare(value: Any) -> tuple[Bot, ...]:
    """``declare``'s converter: a list of grades (or their numbers), else the value as given (refused by apply)."""
    converted: tuple[Bot, ...] = _lenient_declare(value)
    return converted


def _replace(value: Any) -> tuple[int, ...]:
    """``replace``'s converter: a list of row numbers, else the value as given (refused by apply)."""
    converted: tuple[int, ...] = _lenient_replace(value)
    return converted


@attrs.frozen
class Fabricate:
    """MC-FAB: every fabricator makes a bot into its making hole.

    ``declare``: the bot each Overactive Fabricator makes, top row first (MC-FAB-OVERACTIVE).
    ``replace``: rows whose occupied making hole is emptied for the new bot (MC-FAB-REPLACE); a
    fabricator whose hole is occupied and not listed makes nothing.
    """

    declare: tuple[Bot, ...] = attrs.field(default=(), converter=_declare)
    replace: tuple[int, ...] = attrs.field(default=(), converter=_replace)


@attrs.frozen
class Sell:
    """MC-SELL: sell one ``bot`` from the truck in ``row`` for 2 / 4 / 6 coins into the wallet."""

    row: int
    bot: Bot = attrs.field(converter=bot_field)


def fabricators(factory: Factory, variant: MechanicaVariant) -> list[tuple[int, StartSlot, str]]:
    """(row, slot, what it makes) for every fabricator in the Start Zone, top row first."""
    cat = variant.catalogue
    return [(r, s, cat.tile(s.kind).makes or "") for r, s in enumerate(factory.start) if cat.tile(s.kind).makes]


def fabricate_options(factory: Factory, variant: MechanicaVariant) -> list[Fabricate]:
    fabs = fabricators(factory, variant)
    overactive = sum(1 for _, _, makes in fabs if makes == "any")
    occupied = [r for r, s, _ in fabs if s.holes[0] is not None]
    out = []
    for declare in itertools.product(tuple(Bot), repeat=overactive):
        for k in range(len(occupied) + 1):
            for replace in itertools.combinations(occupied, k):
                out.append(Fabricate(declare, replace))
    return out


def fabricate(
    factory: Factory, stock: Stock, variant: MechanicaVariant, action: Fabricate
) -> tuple[Factory, Stock, tuple[Bot, ...]]:
    """Every fabricator makes its bot (MC-FAB); raises IllegalAction for a malformed declaration.
    Also returns the bots the Overactive Fabricators actually made (MC-FAB-OVERACTIVE: only these
    let the other players make a lower bot)."""
    fabs = fabricators(factory, variant)
    overactive = sum(1 for _, _, makes in fabs if makes == "any")
    occupied = {r for r, s, _ in fabs if s.holes[0] is not None}
    if (
        len(action.declare) != overactive
        or not set(action.replace) <= occupied
        or list(action.replace) != sorted(set(action.replace))
    ):
        raise IllegalAction(
            "MC-FAB",
            f"{action!r}: declare one bot per Overactive Fabricator (top row first) and replace only "
            "occupied making holes",
        )
    coverage.effect("MC-FAB")
    s = list(stock)
    declared = iter(action.declare)
    made_any: list[Bot] = []
    for r, slot, makes in fabs:
        bot = next(declared) if makes == "any" else Bot[makes.upper()]
        holes = list(slot.holes)
        if holes[0] is not None:
            if r not in action.replace:
                continue
            coverage.effect("MC-FAB-REPLACE")
            s[holes[0]] += 1
            holes[0] = None
        if s[bot] > 0:  # MC-STOCK
            s[bot] -= 1
            holes[0] = bot
            if makes == "any":
                made_any.append(bot)
        factory = factory.with_start(r, evolve(slot, holes=tuple(holes)))
    return factory, (s[0], s[1], s[2]), tuple(made_any)


_SELLS = {(r, b): Sell(r, b) for r in range(ROWS) for b in Bot}


def sell_options(factory: Factory) -> list[Sell]:
    return [_SELLS[(r, b)] for r, truck in enumerate(factory.dock) for b in sorted(set(truck.load))]


def sell(factory: Factory, stock: Stock, variant: MechanicaVariant, action: Sell) -> tuple[Factory, Stock, int]:
    """MC-SELL: the bot goes back to the stock; returns the coins it earns."""
    if action.row not in range(ROWS):
        raise IllegalAction("MC-SELL", f"the Loading Dock has rows 0-2, not {action.row}")
    truck = factory.dock[action.row]
    if action.bot not in truck.load:
        raise IllegalAction("MC-SELL", f"the truck in row {action.row} carries no {action.bot.name.title()} bot")
    coverage.effect("MC-SELL")
    coverage.effect("MC-BOTS")
    load = list(truck.load)
    load.remove(action.bot)
    s = list(stock)
    s[action.bot] += 1
    return (
        factory.with_truck(action.row, Truck(truck.kind, tuple(load))),
        (s[0], s[1], s[2]),
        variant.catalogue.sale(action.bot),
    )


def put_in_start_hole(factory: Factory, stock: Stock, row: int, hole: int, bot: Bot) -> tuple[Factory, Stock]:
    """MC-FAB-REPLACE: put a made bot into a Start Zone hole; a bot already there goes back to the stock.
    MC-STOCK: a bot the stock lacks is not made."""
    if row not in range(ROWS) or hole not in range(len(factory.start[row].holes)):
        raise IllegalAction("MC-FAB-REPLACE", f"Start Zone row {row} has no hole {hole}")
    s = list(stock)
    slot = factory.start[row]
    holes = list(slot.holes)
    old = holes[hole]
    if old is not None:
        coverage.effect("MC-FAB-REPLACE")
        s[old] += 1
        holes[hole] = None
    if s[bot] > 0:
        s[bot] -= 1
        holes[hole] = bot
    return factory.with_start(row, evolve(slot, holes=tuple(holes))), (s[0], s[1], s[2])
