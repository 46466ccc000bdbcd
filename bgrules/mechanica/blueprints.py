"""Blueprints and trucks (whole game): the actions allowed at any time in one's turn (buying a Fork or a
truck, completing a Blueprint, demolishing) and the Blueprint cards coming up.

A room of plain functions over the game (:class:`~bgrules.mechanica.base.MechanicaBase`).

Rules: MC-ANYTIME, MC-FORK-BUY, MC-TRUCK-BUY, MC-PLACE-TRUCK, MC-BP-COMPLETE, MC-BP-ONCE, MC-BP-TURN,
MC-DEMOLISH, and the Blueprints' chance draw (MC-CHANCE); docs/rules/mechanica.md, "Any time in one's
turn (whole game)" and "Blueprints (whole game)".
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

from bgrules.core import coverage
from bgrules.core.errors import IllegalAction
from bgrules.core.fastevolve import evolve
from bgrules.mechanica.base import (
    PILES,
    BoardOptions,
    MechanicaBase,
    add_at,
    replace_at,
    shared,
    with_board,
    with_board_wallet,
    with_seat,
)
from bgrules.mechanica.board import Layout
from bgrules.mechanica.components import GRADES, Bot, Zone
from bgrules.mechanica.factory import (
    COLS,
    ROWS,
    Factory,
    Truck,
    check_install_truck,
    demolish,
    demolish_start,
    install,
    install_truck,
    legal_placements,
    restock,
    starting_factory,
)
from bgrules.mechanica.sandbox import Demolish, DemolishFabricator
from bgrules.mechanica.state import BuyFork, BuyTruck, Complete, MechanicaState, Reveal, Seat

_TRUCK_ACTIONS = {(k, r): BuyTruck(k, r) for k in ("big_truck", "huge_truck") for r in range(ROWS)}
_DEMOLISH_ACTIONS = tuple(Demolish(i // COLS, i % COLS) for i in range(ROWS * COLS))
_DEMOLISH_START_ACTIONS = tuple(DemolishFabricator(r) for r in range(ROWS))


def loads_key(dock: tuple[Truck, ...]) -> bytes:
    """MC-BP-COMPLETE reads the trucks' loads; here as bytes: each load's grades (Bot is an IntEnum of 0-2),
    a tab between trucks (a memo key)."""
    return b"\t".join([bytes(truck.load) for truck in dock])


_FORK_ACTIONS = {(r, c, rot): BuyFork(r, c, rot) for r in range(ROWS) for c in range(COLS) for rot in range(4)}


# --- trucks: prices -----------------------------------------------------------------------------


def price_table(game: MechanicaBase) -> dict[tuple[str, str], int]:
    """(truck on the row, truck bought) -> price, for every allowed purchase (MC-TRUCK-BUY)."""
    cat = game.variant.catalogue
    table: dict[tuple[str, str], int] = {}
    for current in cat.of_zone(Zone.DOCK):
        for bought in cat.of_zone(Zone.DOCK):
            probe = starting_factory().with_truck(0, Truck(current.key))
            price = truck_price(game, probe, bought.key, 0)
            if price is not None:
                table[(current.key, bought.key)] = price
    return table


def truck_price(game: MechanicaBase, factory: Factory, key: str, row: int) -> int | None:
    """MC-TRUCK-BUY: the price of putting truck ``key`` on ``row``, or None if that is not allowed."""
    try:
        check_install_truck(factory, game.variant, key, row)
    except IllegalAction as exc:
        coverage.withdraw(exc)  # a probe of the price, not a refused action
        return None
    kind = game.variant.catalogue.tiles[key]
    if kind.upgrade_from is not None and factory.dock[row].kind == kind.upgrade_from:
        return kind.upgrade_price
    return kind.price


# --- what is offered ----------------------------------------------------------------------------


def anytime_options(game: MechanicaBase, state: MechanicaState, seat: Seat) -> tuple[Any, ...]:
    """MC-ANYTIME: Fork and truck buys, Blueprints and demolitions, at any time in one's own turn."""
    forks, trucks, demolitions = board_options(game, seat.factory)
    wallet = seat.wallet
    affordable = [action for action, price in trucks if wallet >= price] if trucks else ()
    if wallet >= game.fork_price:
        return (*forks, *affordable, *complete_options(game, state, seat), *demolitions)
    return (*affordable, *complete_options(game, state, seat), *demolitions)


def board_options(game: MechanicaBase, factory: Factory) -> BoardOptions:
    """The anytime actions a board allows before money is considered (memoised per board layout):
    Forks (MC-FORK-BUY under MC-PLACE), trucks with their prices (MC-TRUCK-BUY) and demolitions
    (MC-DEMOLISH)."""
    layout = factory.layout
    last = game._last_board
    if last is not None and last[0] is layout:  # the same board's tiles as last time
        return last[1]
    parts = game._board_parts
    known = game._board_memo.get(layout)
    if known is not None:
        if known[0] < 0:  # the second time: its Forks and demolitions kept
            parts.append(tuple(map(_FORK_ACTIONS.__getitem__, fork_placements(game, factory))))
            parts.append(demolitions(game, layout))
            known = game._board_memo[layout] = (len(parts) - 2, known[1], len(parts) - 1)
        found = (parts[known[0]], parts[known[1]], parts[known[2]])
        game._last_board = (layout, found)
        return found
    if len(game._board_memo) > game.memos.bound("board"):
        game._board_memo.clear()
        game._dock_memo.clear()
        game._start_memo.clear()
        parts.clear()
    trucks = game._dock_memo.get(layout[2])
    if trucks is None:
        trucks = game._dock_memo[layout[2]] = len(parts)
        parts.append(dock_options(game, factory))
    game._board_memo[layout] = (-1, trucks, -1)
    forks = tuple(map(_FORK_ACTIONS.__getitem__, fork_placements(game, factory)))
    found = (forks, parts[trucks], demolitions(game, layout))
    game._last_board = (layout, found)
    return found


def demolitions(game: MechanicaBase, layout: Layout) -> tuple[Any, ...]:
    """MC-DEMOLISH: every floor tile (a cell of the layout is None when empty), then the fabricator
    tiles (those of the Start Zone kinds not printed on the board)."""
    fabricators = game._start_memo.get(layout[1])
    if fabricators is None:
        cat = game.variant.catalogue
        fabricators = game._start_memo[layout[1]] = tuple(
            _DEMOLISH_START_ACTIONS[r] for r, kind in enumerate(layout[1]) if not cat.tile(kind).printed
        )
    return (*itertools.compress(_DEMOLISH_ACTIONS, layout[0]), *fabricators)


def fork_placements(game: MechanicaBase, factory: Factory) -> tuple[tuple[int, int, int], ...]:
    """MC-FORK-BUY under MC-PLACE: where a Fork may go on the board (none when Forks are not sold)."""
    fork = game.variant.catalogue.tiles.get("fork")
    if fork is None or fork.price is None:
        return ()
    return legal_placements(factory, game.variant, "fork")


def dock_options(game: MechanicaBase, factory: Factory) -> tuple[tuple[BuyTruck, int], ...]:
    """MC-TRUCK-BUY: the trucks the Loading Dock allows, with their prices."""
    cat = game.variant.catalogue
    trucks = []
    for key in ("big_truck", "huge_truck"):
        if key in cat.tiles:
            for r in range(ROWS):
                price = game._truck_prices.get((factory.dock[r].kind, key))
                if price is not None:
                    trucks.append((_TRUCK_ACTIONS[(key, r)], price))
    return tuple(trucks)


def complete_options(game: MechanicaBase, state: MechanicaState, seat: Seat) -> tuple[Complete, ...]:
    """MC-BP-COMPLETE: every way to complete a face-up Blueprint from the trucks (memoised)."""
    dock = seat.factory.dock
    for truck in dock:
        if truck.load:
            break
    else:
        return ()
    tops, completed = state.bp_top, seat.completed
    last = game._last_complete
    if last is not None and last[0] is dock and last[1] is tops and last[2] is completed:
        return last[3]  # the very inputs of last time
    key = (loads_key(dock), tops, completed)
    found = game._complete_memo.get(key)
    if found is None:
        if len(game._complete_memo) > game.memos.bound("complete"):
            game._complete_memo.clear()
            game._complete_shared.clear()
        pool = game._complete_shared  # each Complete and each list shared by every key that has it
        found = tuple([shared(pool, action) for action in complete_uncached(game, state, seat)])
        found = game._complete_memo[key] = shared(pool, found)
    game._last_complete = (dock, tops, completed, found)
    return found


def complete_uncached(game: MechanicaBase, state: MechanicaState, seat: Seat) -> list[Complete]:
    """MC-BP-COMPLETE, MC-BP-ONCE: each face-up card not yet completed by the player, taken every way
    the trucks allow; MC-BP-MATCH: under ``blueprint_match = "whole"`` only a card matching the whole
    load of the trucks."""
    out: list[Complete] = []
    whole = game.variant.rulings.blueprint_match == "whole"
    loads = [t.load for t in seat.factory.dock]
    on_trucks = [sum(load.count(g) for load in loads) for g in GRADES]
    for pile in range(PILES):
        card_id = state.bp_top[pile]
        if card_id is None or card_id in seat.completed:
            continue
        if any(have < need for have, need in zip(on_trucks, game.cards[card_id].needs, strict=True)):
            continue
        if whole and tuple(on_trucks) != game.cards[card_id].needs:  # MC-BP-MATCH: the whole load
            continue
        per_grade: list[list[tuple[tuple[int, Bot], ...]]] = []
        for grade, need in zip(GRADES, game.cards[card_id].needs, strict=True):
            have = [load.count(grade) for load in loads]
            ways = [
                tuple((r, grade) for r in range(ROWS) for _ in range(split[r]))
                for split in itertools.product(*(range(h + 1) for h in have))
                if sum(split) == need
            ]
            per_grade.append(ways)
        for combo in itertools.product(*per_grade):
            out.append(Complete(pile, tuple(x for part in combo for x in part)))
    return out


# --- applying them ------------------------------------------------------------------------------


def anytime(game: MechanicaBase, state: MechanicaState, action: Any) -> MechanicaState:
    """MC-ANYTIME: a Fork (MC-FORK-BUY), a truck (MC-TRUCK-BUY), a Blueprint (MC-BP-COMPLETE) or a
    demolition (MC-DEMOLISH); the step of the turn stays as it was."""
    coverage.effect("MC-ANYTIME")
    seat = state.seats[state.current]
    cat = game.variant.catalogue
    if isinstance(action, BuyFork):
        price = cat.tile("fork").price  # None: the variant sells no Fork (none is offered either)
        if price is None or seat.wallet < price:
            raise IllegalAction("MC-FORK-BUY", f"a Fork costs {price}; the wallet holds {seat.wallet}")
        factory = install(seat.factory, game.variant, "fork", action.row, action.col, action.rotation)
        coverage.effect("MC-FORK-BUY")
        return with_seat(state, with_board_wallet(seat, factory, seat.wallet - price))
    if isinstance(action, BuyTruck):
        price_or_none = truck_price(game, seat.factory, action.kind, action.row) if action.kind in cat.tiles else None
        if price_or_none is None:
            check_install_truck(seat.factory, game.variant, action.kind, action.row)
            raise IllegalAction("MC-TRUCK-BUY", f"{action.kind!r} cannot go on row {action.row}")
        if seat.wallet < price_or_none:
            raise IllegalAction("MC-TRUCK-BUY", f"it costs {price_or_none}; the wallet holds {seat.wallet}")
        factory = install_truck(seat.factory, game.variant, action.kind, action.row)
        coverage.effect("MC-TRUCK-BUY")
        return with_seat(state, with_board_wallet(seat, factory, seat.wallet - price_or_none))
    if isinstance(action, Complete):
        return complete(game, state, seat, action)
    if isinstance(action, Demolish):
        factory, kind, destroyed = demolish(seat.factory, action.row, action.col)
    else:
        factory, kind, destroyed = demolish_start(seat.factory, game.variant, action.row)
    recycler = state.recycler
    if kind in game.kind_index:  # MC-DEMOLISH: improvements to the Recycler; Forks back to the box
        recycler = add_at(recycler, game.kind_index[kind], 1)
    return with_seat(state, with_board(seat, factory), stock=restock(state.stock, destroyed), recycler=recycler)


def complete(game: MechanicaBase, state: MechanicaState, seat: Seat, action: Complete) -> MechanicaState:
    """MC-BP-COMPLETE: the bots taken go back to the stock and the card pays into the vault; MC-BP-MATCH:
    by default they may be a part of the trucks' load, under ``blueprint_match = "whole"`` they must be
    all of it; MC-BP-ONCE; MC-BP-TURN: the face-up cards turn sideways."""
    if action.pile not in range(PILES) or state.bp_top[action.pile] is None:
        raise IllegalAction("MC-BP-COMPLETE", f"pile {action.pile} shows no Blueprint")
    card_id = state.bp_top[action.pile]
    assert card_id is not None
    if card_id in seat.completed:
        raise IllegalAction("MC-BP-ONCE", f"Blueprint {card_id} was already completed by this player")
    card = game.cards[card_id]
    given = [0, 0, 0]
    for _row, bot in action.take:
        given[bot] += 1
    if tuple(given) != card.needs:
        raise IllegalAction("MC-BP-COMPLETE", f"Blueprint {card_id} asks for {card.needs} (Basic, Plus, Deluxe)")
    dock = list(seat.factory.dock)
    for row, bot in action.take:
        if row not in range(ROWS) or bot not in dock[row].load:
            raise IllegalAction("MC-BP-COMPLETE", f"the truck in row {row} carries no {bot.name.title()} bot")
        load = list(dock[row].load)
        load.remove(bot)
        dock[row] = evolve(dock[row], load=tuple(load))
    if game.variant.rulings.blueprint_match == "whole" and any(t.load for t in dock):
        left = sum(len(t.load) for t in dock)
        raise IllegalAction(
            "MC-BP-MATCH",
            f"the trucks carry {left} bot(s) more than Blueprint {card_id} shows; the whole load must match it",
        )
    coverage.effect("MC-BP-COMPLETE")
    coverage.effect("MC-BP-MATCH")
    coverage.effect("MC-BP-ONCE")
    coverage.effect("MC-BP-TURN")
    stock = tuple(state.stock[g] + given[g] for g in range(3))
    factory = evolve(seat.factory, dock=tuple(dock))
    if game.variant.rulings.blueprint_turn == "both":
        turned = tuple(t or top is not None for t, top in zip(state.bp_turned, state.bp_top, strict=True))
    else:
        turned = replace_at(state.bp_turned, action.pile, True)
    seat = evolve(
        seat, factory=factory, vault=seat.vault + card.value, completed=tuple(sorted((*seat.completed, card_id)))
    )
    return with_seat(state, seat, stock=stock, bp_turned=turned)


# --- the cards coming up (chance) ---------------------------------------------------------------


def reveals(game: MechanicaBase, state: MechanicaState) -> tuple[tuple[Any, Fraction], ...]:
    """MC-CHANCE: a pile's top turned up while it holds unseen cards is any card of the pool, uniformly
    (memoised per pool; each (Reveal, probability) pair shared by every pool that has it)."""
    found = game._reveal_memo.get(state.bp_pool)
    if found is None:
        n = len(state.bp_pool)
        pairs = game._reveal_pairs  # each (card, pool size) pair shared by every pool that has it
        if len(game._reveal_memo) > game.memos.bound("reveal"):
            game._reveal_memo.clear()
            pairs.clear()
        outcomes = []
        for c in state.bp_pool:
            pair = pairs.get((c, n))
            if pair is None:
                pair = pairs[(c, n)] = (Reveal(c), Fraction(1, n))
            outcomes.append(pair)
        found = game._reveal_memo[state.bp_pool] = tuple(outcomes)
    return found


def reveal(game: MechanicaBase, state: MechanicaState, action: Reveal) -> MechanicaState:
    """MC-BP-DAYEND: the revealed card comes up on the pile being turned (``state.reveal``)."""
    coverage.effect("MC-BP-DAYEND")
    pile = state.reveal
    return evolve(
        state,
        bp_pool=tuple(c for c in state.bp_pool if c != action.card),
        bp_hidden=replace_at(state.bp_hidden, pile, state.bp_hidden[pile] - 1),
        bp_top=replace_at(state.bp_top, pile, action.card),
    )
