"""Reference actions of any time in one's turn (MC-ANYTIME): Forks (MC-FORK-BUY), trucks (MC-TRUCK-BUY),
Blueprints (MC-BP-COMPLETE, MC-BP-MATCH, MC-BP-ONCE, MC-BP-TURN) and demolishing (MC-DEMOLISH)."""

from __future__ import annotations

import itertools

import attrs

from bgrules.core.errors import IllegalAction
from bgrules.mechanica.board import Factory, Truck
from bgrules.mechanica.components import Bot, Zone
from bgrules.mechanica.reference import factory as board
from bgrules.mechanica.reference.rules import PILES, Rules, add, give_bots, seat_of, with_seat
from bgrules.mechanica.sandbox import Demolish, DemolishFabricator
from bgrules.mechanica.state import BuyFork, BuyTruck, Complete, MechanicaState

Anytime = BuyFork | BuyTruck | Complete | Demolish | DemolishFabricator


def fork_price(rules: Rules) -> int | None:
    fork = rules.variant.catalogue.tiles.get("fork")
    return None if fork is None else fork.price


def truck_kinds(rules: Rules) -> list[str]:
    """The trucks in the box (MC-TRUCK-BUY), by key."""
    return sorted(k for k, t in rules.variant.catalogue.tiles.items() if t.zone is Zone.DOCK and not t.printed)


def truck_price(rules: Rules, factory: Factory, kind: str, row: int) -> int:
    """MC-TRUCK-BUY: the truck's price, or its upgrade price over the truck it upgrades."""
    tile = rules.variant.catalogue.tile(kind)
    if tile.upgrade_from is not None and tile.upgrade_price is not None and factory.dock[row].kind == tile.upgrade_from:
        return tile.upgrade_price
    return tile.price if tile.price is not None else 0


def takes(rules: Rules, factory: Factory, needs: tuple[int, int, int]) -> list[tuple[tuple[int, Bot], ...]]:
    """MC-BP-COMPLETE, MC-BP-MATCH: every way of taking exactly ``needs`` bots from the trucks (under
    ``blueprint_match = "whole"`` only when that is every bot on the trucks)."""
    if rules.variant.rulings.blueprint_match == "whole":
        on_trucks = [0, 0, 0]
        for truck in factory.dock:
            for b in truck.load:
                on_trucks[b] += 1
        if tuple(on_trucks) != needs:
            return []
    per_grade: list[list[tuple[tuple[int, Bot], ...]]] = []
    for grade in Bot:
        have = [truck.load.count(grade) for truck in factory.dock]
        ways = []
        for split in itertools.product(*(range(h + 1) for h in have)):
            if sum(split) == needs[grade]:
                ways.append(tuple((r, grade) for r, n in enumerate(split) for _ in range(n)))
        per_grade.append(ways)
    return [tuple(sorted(a + b + c)) for a, b, c in itertools.product(*per_grade)]


def completions(rules: Rules, state: MechanicaState) -> list[Complete]:
    seat = seat_of(state)
    out = []
    for pile in range(PILES):
        card = state.bp_top[pile]
        if card is None or card in seat.completed:
            continue
        out += [Complete(pile, t) for t in takes(rules, seat.factory, rules.card(card).needs)]
    return out


def anytime_actions(rules: Rules, state: MechanicaState) -> list[Anytime]:
    """MC-ANYTIME, in this order: Forks, trucks, Blueprints, floor demolitions, fabricator demolitions."""
    seat = seat_of(state)
    factory = seat.factory
    out: list[Anytime] = []
    price = fork_price(rules)
    if price is not None and seat.wallet >= price:
        out += [BuyFork(r, c, rot) for r, c, rot in board.placements(factory, rules.variant, "fork")]
    for kind in truck_kinds(rules):
        for row in range(board.ROWS):
            if board.truck_problem(factory, rules.variant, kind, row) is None and seat.wallet >= truck_price(
                rules, factory, kind, row
            ):
                out.append(BuyTruck(kind, row))
    out += completions(rules, state)
    out += [Demolish(i // board.COLS, i % board.COLS) for i, p in enumerate(factory.floor) if p is not None]
    out += [
        DemolishFabricator(r)
        for r, slot in enumerate(factory.start)
        if not rules.variant.catalogue.tile(slot.kind).printed
    ]
    return out


def anytime_problem(rules: Rules, state: MechanicaState, action: Anytime) -> tuple[str, str] | None:
    """The rule ``action`` breaks here, or None (checked on its own, without listing every action)."""
    seat = seat_of(state)
    factory = seat.factory
    if isinstance(action, BuyFork):
        price = fork_price(rules)
        if price is None or seat.wallet < price:
            return ("MC-FORK-BUY", "a Fork costs more than the wallet holds")
        return board.placement_problem(factory, rules.variant, "fork", action.row, action.col, action.rotation)
    if isinstance(action, BuyTruck):
        problem = board.truck_problem(factory, rules.variant, action.kind, action.row)
        if problem is None and seat.wallet < truck_price(rules, factory, action.kind, action.row):
            return ("MC-TRUCK-BUY", "the truck costs more than the wallet holds")
        return problem
    if isinstance(action, Complete):
        card = state.bp_top[action.pile] if action.pile in range(PILES) else None
        if card is not None and card in seat.completed:
            return ("MC-BP-ONCE", f"card {card} was completed by this player already")
        if action not in completions(rules, state):
            return ("MC-BP-COMPLETE", "no face-up card, or not its combination on one's trucks")
        return None
    if isinstance(action, Demolish):
        if not board.on_floor(action.row, action.col) or factory.floor[board.cell(action.row, action.col)] is None:
            return ("MC-DEMOLISH", f"no floor tile on ({action.row}, {action.col})")
        return None
    if action.row not in range(board.ROWS) or rules.variant.catalogue.tile(factory.start[action.row].kind).printed:
        return ("MC-DEMOLISH", f"no fabricator tile on Start Zone row {action.row}")
    return None


def apply_anytime(rules: Rules, state: MechanicaState, action: Anytime) -> MechanicaState:
    """Apply one action of any time in the turn; the phase does not change."""
    problem = anytime_problem(rules, state, action)
    if problem is not None:
        raise IllegalAction(*problem)
    seat = seat_of(state)
    factory = seat.factory
    if isinstance(action, BuyFork):
        price = fork_price(rules) or 0
        factory = board.install(factory, rules.variant, "fork", action.row, action.col, action.rotation)
        return with_seat(state, state.current, attrs.evolve(seat, factory=factory, wallet=seat.wallet - price))
    if isinstance(action, BuyTruck):
        price = truck_price(rules, factory, action.kind, action.row)
        factory = board.install_truck(factory, rules.variant, action.kind, action.row)
        return with_seat(state, state.current, attrs.evolve(seat, factory=factory, wallet=seat.wallet - price))
    if isinstance(action, Complete):
        return complete(rules, state, action)
    if isinstance(action, Demolish):
        factory, kind, bots = board.demolish(factory, action.row, action.col)
    else:
        factory, kind, bots = board.demolish_start(factory, rules.variant, action.row)
    state = with_seat(state, state.current, attrs.evolve(seat, factory=factory))
    state = attrs.evolve(state, stock=give_bots(state.stock, bots))
    if kind in rules.kinds:  # MC-DEMOLISH: an improvement into the Recycler; a Fork back to the box
        state = attrs.evolve(state, recycler=add(state.recycler, rules.kind_index(kind), 1))
    return state


def complete(rules: Rules, state: MechanicaState, action: Complete) -> MechanicaState:
    """MC-BP-COMPLETE: the bots back to the stock, the card's value into the vault; MC-BP-ONCE; MC-BP-TURN:
    both face-up cards turn sideways (``blueprint_turn = "completed"``: only this one)."""
    seat = seat_of(state)
    card = state.bp_top[action.pile]
    assert card is not None
    factory = seat.factory
    for row, bot in action.take:
        truck = factory.dock[row]
        load = list(truck.load)
        load.remove(bot)
        factory = board.with_truck(factory, row, Truck(truck.kind, tuple(load)))
    seat = attrs.evolve(
        seat,
        factory=factory,
        vault=seat.vault + rules.card(card).value,
        completed=tuple(sorted((*seat.completed, card))),
    )
    state = with_seat(state, state.current, seat)
    if rules.variant.rulings.blueprint_turn == "both":
        turned = tuple(t or state.bp_top[p] is not None for p, t in enumerate(state.bp_turned))
    else:
        turned = tuple(True if p == action.pile else t for p, t in enumerate(state.bp_turned))
    return attrs.evolve(state, stock=give_bots(state.stock, [b for _r, b in action.take]), bp_turned=turned)
