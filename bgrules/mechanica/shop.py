"""The Shop (whole game): the wheel and buying from it, installing or recycling the bought tile, the
wheel's turn, the Recycler, the draw onto price 7 and the 2-3 player double rotation.

A room of plain functions over the game (:class:`~bgrules.mechanica.base.MechanicaBase`).

Rules: MC-SHOP-BUY, MC-PLACE, MC-PLACE-START, MC-RECYCLE, MC-SHOP-ROTATE, MC-SHOP-RECYCLE, MC-SHOP-DRAW,
MC-SHOP-DOUBLE, and the tile draws of set-up (MC-SETUP-EXTRAS, MC-SETUP-DEAL); docs/rules/mechanica.md,
"The Shop (whole game)".
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from bgrules.core import coverage
from bgrules.core.errors import IllegalAction
from bgrules.core.fastevolve import evolve
from bgrules.mechanica.base import MechanicaBase, add_at, replace_at, start_holes, with_seat
from bgrules.mechanica.components import Zone
from bgrules.mechanica.fabricate import put_in_start_hole
from bgrules.mechanica.factory import (
    COLS,
    ROWS,
    Factory,
    check_install_start,
    install,
    install_start,
    legal_placements,
    restock,
)
from bgrules.mechanica.state import Buy, Draw, MechanicaState, Phase, Place, PlaceFabricator, Recycle

_FLOOR = Zone.FLOOR
"""The floor zone (MC-PLACE): the zone of a tile installed on the board's grid."""

_PLACE_ACTIONS = {(r, c, rot): Place(r, c, rot) for r in range(ROWS) for c in range(COLS) for rot in range(4)}
"""One Place per (row, col, rotation): the options of a waiting tile (MC-PLACE)."""


def recycle_action(game: MechanicaBase, row: int, hole: int) -> Recycle:
    """MC-RECYCLE: the action putting the recycled tile's bot into hole ``hole`` of row ``row`` (one per
    (row, hole), a memo of the game)."""
    found = game._recycle_actions.get((row, hole))
    if found is None:
        found = game.memos.put(game._recycle_actions, (row, hole), Recycle(row, hole))
    return found


def fraction(game: MechanicaBase, n: int, total: int) -> Fraction:
    """MC-CHANCE: the probability ``n`` / ``total`` of a draw (one value per pair, a memo of the game)."""
    found = game._fractions.get((n, total))
    if found is None:
        found = game.memos.put(game._fractions, (n, total), Fraction(n, total))
    return found


# --- the draws (chance) -----------------------------------------------------------------------------


def draws(game: MechanicaBase, counts: tuple[int, ...]) -> tuple[tuple[Any, Fraction], ...]:
    """MC-CHANCE: each kind left, with probability (copies left) / (tiles left) (memoised per count
    vector)."""
    found = game._draw_memo.get(counts)
    if found is None:
        total = sum(counts)
        pairs = game._draw_pairs
        if len(pairs) > game.memos.bound("draw pairs"):
            pairs.clear()
        outcomes = []
        for k, n in zip(game.kinds, counts, strict=True):
            if n:
                pair = pairs.get((k, n, total))
                if pair is None:
                    pair = pairs[(k, n, total)] = (game._draw_actions[k], fraction(game, n, total))
                outcomes.append(pair)
        found = game.memos.put(game._draw_memo, counts, tuple(outcomes))
    return found


def draw(game: MechanicaBase, state: MechanicaState, action: Draw) -> MechanicaState:
    """A drawn tile: into the extras at set-up (MC-SETUP-EXTRAS), from the extras onto price 7 after a
    double rotation (MC-SHOP-DOUBLE), onto the Shop at set-up (MC-SETUP-DEAL) or onto price 7 in step 4
    (MC-SHOP-DRAW, then the double rotation). The outcome is checked by the caller (MC-CHANCE)."""
    phase = state.phase._value_
    k = game.kind_index[action.kind]
    if phase == "setup_extras":  # MC-SETUP-EXTRAS
        coverage.effect("MC-SETUP-EXTRAS")
        return evolve(state, deck=add_at(state.deck, k, -1), extras=add_at(state.extras, k, 1))
    if phase == "extra":  # MC-SHOP-DOUBLE
        coverage.effect("MC-SHOP-DOUBLE")
        return pass_turn(game, state, extras=add_at(state.extras, k, -1), wheel=replace_at(state.wheel, 0, action.kind))
    if phase == "setup_deal":  # MC-SETUP-DEAL
        coverage.effect("MC-SETUP-DEAL")
        slot = state.wheel.index(None)
        return evolve(state, deck=add_at(state.deck, k, -1), wheel=replace_at(state.wheel, slot, action.kind))
    # MC-SHOP-DRAW, then the 2-3 player double rotation
    coverage.effect("MC-SHOP-DRAW")
    deck = add_at(state.deck, k, -1)
    wheel = replace_at(state.wheel, 0, action.kind)
    if doubles(game, wheel):
        return after_draw(game, evolve(state, deck=deck, wheel=wheel))
    return pass_turn(game, state, deck=deck, wheel=wheel)  # one copy


def doubles(game: MechanicaBase, wheel: tuple[str | None, ...]) -> bool:
    """MC-SHOP-DOUBLE: with 2-3 players, is only the price-7 tile left on the Shop?"""
    return game.double_rotation and wheel[0] is not None and all(w is None for w in wheel[1:]) and len(wheel) > 1


def after_draw(game: MechanicaBase, state: MechanicaState) -> MechanicaState:
    """MC-SHOP-DOUBLE: with 2-3 players, if only the price-7 tile is left, turn once more and put an
    extra on price 7 (once; not repeated)."""
    wheel = state.wheel
    if doubles(game, wheel):
        coverage.effect("MC-SHOP-DOUBLE")
        state = evolve(state, wheel=(None, *wheel[:-1]))
        if sum(state.extras):
            return evolve(state, phase=Phase.EXTRA)
    return pass_turn(game, state)


def pass_turn(game: MechanicaBase, state: MechanicaState, **changes: Any) -> MechanicaState:
    """Step (4) is over (the rotation, the Recycler, the draws): under ``anytime = "whole_turn"`` the
    player's closing decision follows (phase TURN_END, MC-ANYTIME); otherwise the next seat's turn
    begins (MC-TURN-ORDER). ``changes``: the other fields the step changes."""
    if game._turn_end:
        return evolve(state, phase=Phase.TURN_END, **changes)
    return evolve(state, phase=Phase.SELL, current=state.current + 1, **changes)


# --- buying and the bought tile ---------------------------------------------------------------------


def buy(game: MechanicaBase, state: MechanicaState, action: Buy) -> MechanicaState:
    """MC-SHOP-BUY: pay the slot's price and take its tile, to install or recycle at once (phase PLACE);
    MC-TURN-ORDER: in the buying step only."""
    if state.phase._value_ != "buy":
        raise IllegalAction("MC-TURN-ORDER", "improvements are bought in the second step of the turn (after Next)")
    if action.slot not in range(len(game.prices)) or state.wheel[action.slot] is None:
        raise IllegalAction("MC-SHOP-BUY", f"Shop slot {action.slot} holds no improvement")
    seat = state.seats[state.current]
    price = game.prices[action.slot]
    if seat.wallet < price:
        raise IllegalAction("MC-SHOP-BUY", f"the improvement costs {price}; the wallet holds {seat.wallet}")
    kind = state.wheel[action.slot]
    coverage.effect("MC-SHOP-BUY")
    return with_seat(
        state,
        evolve(seat, wallet=seat.wallet - price),
        wheel=replace_at(state.wheel, action.slot, None),
        pending=kind,
        phase=Phase.PLACE,
    )


def recycle_options(game: MechanicaBase, factory: Factory) -> list[Recycle]:
    """MC-RECYCLE: a recycled tile's bot may go into any Start Zone hole."""
    return [recycle_action(game, r, h) for r, h in start_holes(factory)]


def place_options(game: MechanicaBase, state: MechanicaState, factory: Factory) -> list[Any]:
    """MC-SHOP-BUY: the bought tile is installed (MC-PLACE, MC-PLACE-START) or recycled (MC-RECYCLE)."""
    kind = game.variant.catalogue.tile(state.pending or "")
    out: list[Any] = []
    if kind.zone is _FLOOR:
        out.extend(map(_PLACE_ACTIONS.__getitem__, legal_placements(factory, game.variant, kind.key)))
    else:
        out.extend(PlaceFabricator(r) for r in range(ROWS) if ok_start(game, factory, kind.key, r))
    out.extend(recycle_options(game, factory))
    return out


def ok_start(game: MechanicaBase, factory: Factory, key: str, row: int) -> bool:
    """MC-PLACE-START: may fabricator tile ``key`` go on Start Zone row ``row``?"""
    try:
        check_install_start(factory, game.variant, key, row)
    except IllegalAction as exc:
        coverage.withdraw(exc)  # a probe of the options, not a refused action
        return False
    return True


def recycle(game: MechanicaBase, state: MechanicaState, key: str, action: Recycle, **changes: Any) -> MechanicaState:
    """MC-RECYCLE: the tile goes into the Recycler and its bot into a Start Zone hole (replacing one);
    ``changes``: the other fields the step changes."""
    seat = state.seats[state.current]
    if (action.row, action.hole) not in start_holes(seat.factory):
        raise IllegalAction("MC-RECYCLE", f"Start Zone row {action.row} has no hole {action.hole}")
    coverage.effect("MC-RECYCLE")
    bot = game.variant.catalogue.tile(key).recycle_bot
    factory, stock = put_in_start_hole(seat.factory, state.stock, action.row, action.hole, bot)
    return with_seat(
        state,
        evolve(seat, factory=factory),
        stock=stock,
        recycler=add_at(state.recycler, game.kind_index[key], 1),
        **changes,
    )


def place(game: MechanicaBase, state: MechanicaState, action: Any) -> MechanicaState:
    """MC-SHOP-BUY: install the bought tile (MC-PLACE, MC-PLACE-START) or recycle it (MC-RECYCLE); then
    back to the buying step."""
    key = state.pending
    assert key is not None
    seat = state.seats[state.current]
    if isinstance(action, Recycle):
        return recycle(game, state, key, action, pending=None, phase=Phase.BUY)
    if isinstance(action, Place):
        factory = install(seat.factory, game.variant, key, action.row, action.col, action.rotation)
        stock = state.stock
    elif isinstance(action, PlaceFabricator):
        covered = seat.factory.start[action.row].kind if action.row in range(ROWS) else None
        factory, spilled = install_start(seat.factory, game.variant, key, action.row)
        if covered in game.kind_index:  # MC-PLACE-START: a covered fabricator tile goes to the Recycler
            state = evolve(state, recycler=add_at(state.recycler, game.kind_index[covered], 1))
        stock = restock(state.stock, spilled)
    else:
        raise IllegalAction("MC-PLACE", f"{action!r}: install the bought {key} (Place / PlaceFabricator) or Recycle it")
    return with_seat(state, evolve(seat, factory=factory), stock=stock, pending=None, phase=Phase.BUY)


# --- step 4: the wheel turns ------------------------------------------------------------------------


def rotate(game: MechanicaBase, state: MechanicaState) -> MechanicaState:
    """MC-SHOP-ROTATE: the Shop turns one slot; the last slot's tile falls into the Recycler
    (MC-SHOP-RECYCLE)."""
    coverage.effect("MC-SHOP-ROTATE")
    wheel = state.wheel
    fallen = wheel[-1]
    turned = (None, *wheel[:-1])
    if fallen is None:
        return evolve(state, wheel=turned, gifts=(), phase=Phase.DRAW)
    coverage.effect("MC-SHOP-RECYCLE")
    if game.variant.rulings.shop_recycle == "current":
        return evolve(state, wheel=turned, gifts=(), phase=Phase.RECYCLE, fallen=fallen)
    recycler = add_at(state.recycler, game.kind_index[fallen], 1)
    return evolve(state, wheel=turned, gifts=(), recycler=recycler, phase=Phase.DRAW)


def recycle_fallen(game: MechanicaBase, state: MechanicaState, action: Any) -> MechanicaState:
    """MC-SHOP-RECYCLE: the current player places the fallen tile's bot (MC-RECYCLE); then the draw."""
    if not isinstance(action, Recycle):
        raise IllegalAction("MC-SHOP-RECYCLE", f"{action!r}: place the fallen tile's bot first (Recycle)")
    assert state.fallen is not None
    return recycle(game, state, state.fallen, action, fallen=None, phase=Phase.DRAW)
