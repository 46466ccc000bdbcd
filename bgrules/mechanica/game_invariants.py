"""Named predicates over whole-game Mechanica states: the executable half of specs/mechanica.toml.

State predicates take ``(game, state)``, transition predicates ``(game, before, action, after)``, game
predicates ``(game, final_state, steps)``; each returns None when the fact holds, or what is wrong.
The expected money changes are worked out here from the action and the price lists, independently of
the step functions that apply them.
"""

from __future__ import annotations

from typing import Any

from bgrules.core.protocol import CHANCE
from bgrules.mechanica.components import Effect
from bgrules.mechanica.fabricate import Sell
from bgrules.mechanica.factory import Factory
from bgrules.mechanica.game import MechanicaGame
from bgrules.mechanica.state import Buy, BuyFork, BuyTruck, Complete, MechanicaState, Phase


def money_never_negative(game: MechanicaGame, state: MechanicaState) -> str | None:
    """MC-SCORE: no wallet or vault is ever negative."""
    for i, seat in enumerate(state.seats):
        if seat.wallet < 0 or seat.vault < 0:
            return f"player {i}: wallet {seat.wallet}, vault {seat.vault}"
    return None


def _installed(game: MechanicaGame, factory: Factory) -> int:
    """How many of the 27 improvements stand on this board (Forks and printed tiles are not counted)."""
    floor, start, _dock = factory.layout
    key = (game.kinds, floor, start)
    found = _INSTALLED.get(key)
    if found is None:
        if len(_INSTALLED) > 100_000:
            _INSTALLED.clear()
        kinds = [cell[0] for cell in floor if cell is not None] + list(start)
        found = _INSTALLED[key] = sum(1 for k in kinds if k in game.kind_index)
    return found


_INSTALLED: dict[tuple[object, ...], int] = {}
_SUMS_TO_ONE: dict[tuple[tuple[Any, Any], ...], bool] = {}


def improvements_conserved(game: MechanicaGame, state: MechanicaState) -> str | None:
    """MC-SETUP-DECK: deck + extras + Shop + installed + Recycler (+ a tile in hand) = the 27 improvements."""
    for name, counts in (("deck", state.deck), ("extras", state.extras), ("Recycler", state.recycler)):
        if min(counts) < 0:
            return f"the {name} holds a negative count {counts}"
    total = sum(state.deck) + sum(state.extras) + sum(state.recycler)
    total += sum(1 for w in state.wheel if w is not None)
    total += sum(_installed(game, seat.factory) for seat in state.seats)
    total += (state.pending is not None) + (state.fallen is not None)
    if total != game.total_tiles:
        return f"{total} improvements accounted for, not {game.total_tiles}"
    return None


def bots_conserved(game: MechanicaGame, state: MechanicaState) -> str | None:
    """MC-STOCK: stock + every board + bots on the move = 3 x 24."""
    counts = [0, 0, 0]
    boards = [seat.factory for seat in state.seats]
    if state.run is not None:
        boards[state.current] = state.run.factory
        for m in state.run.moving:
            counts[m.bot] += 1
        for _bin, bot in state.run.arrived:
            counts[bot] += 1
    for board in boards:
        for g, n in enumerate(board.bot_counts()):
            counts[g] += n
    stock = state.run.stock if state.run is not None else state.stock
    per = game.variant.rulings.bots_per_grade
    for g in range(3):
        if stock[g] < 0 or stock[g] + counts[g] != per:
            return f"grade {g}: stock {stock[g]} + boards {counts[g]} != {per}"
    return None


def blueprint_once(game: MechanicaGame, state: MechanicaState) -> str | None:
    """MC-BP-ONCE: no player completes one Blueprint twice."""
    for i, seat in enumerate(state.seats):
        if len(set(seat.completed)) != len(seat.completed):
            return f"player {i} completed {seat.completed}"
        unknown = [c for c in seat.completed if c not in game.cards]
        if unknown:
            return f"player {i} completed unknown cards {unknown}"
    return None


def never_stuck(game: MechanicaGame, state: MechanicaState) -> str | None:
    """MC-END: a state that is not terminal has a legal action (or chance outcomes summing to 1)."""
    if game.is_terminal(state):
        return None
    if game.to_move(state) is CHANCE:
        outcomes = game.chance_outcomes(state)
        ok = _SUMS_TO_ONE.get(outcomes)
        if ok is None:
            if len(_SUMS_TO_ONE) > 100_000:
                _SUMS_TO_ONE.clear()
            ok = _SUMS_TO_ONE[outcomes] = bool(outcomes) and sum(p for _a, p in outcomes) == 1
        if not ok:
            return f"chance node in phase {state.phase.value} without outcomes summing to 1"
        return None
    if not game.legal_actions(state):
        return f"no legal action in phase {state.phase.value}"
    return None


def _runs_in_step(before: MechanicaState, after: MechanicaState) -> bool:
    return (
        before.phase is Phase.RUN
        or after.phase is Phase.RUN
        or after.day != before.day
        or (before.phase is Phase.REVEAL)
    )


def _has(game: MechanicaGame, factory: Factory, effect: Effect) -> bool:
    cat = game.variant.catalogue
    return any(p is not None and cat.tile(p.kind).effect is effect for p in factory.floor)


def _anytime_phases(game: MechanicaGame) -> tuple[Phase, ...]:
    """MC-ANYTIME: the phases in which the current player may buy a Fork or a truck or complete a Blueprint."""
    steps = (Phase.SELL, Phase.BUY, Phase.FABRICATE)
    return (*steps, Phase.PLACE, Phase.RECYCLE) if game.variant.rulings.anytime == "every_step" else steps


def wallet_changes(game: MechanicaGame, before: MechanicaState, action: Any, after: MechanicaState) -> str | None:
    """MC-SELL, MC-SHOP-BUY, MC-FORK-BUY, MC-TRUCK-BUY, MC-FLIGHT-JUMP: a wallet changes only by a sale, a
    purchase at its printed price, or, in a workday run, flight-jump coins (with a Flight Tester)."""
    cat = game.variant.catalogue
    for i, (b, a) in enumerate(zip(before.seats, after.seats, strict=True)):
        delta = a.wallet - b.wallet
        expected = 0
        if i == before.current and before.phase in _anytime_phases(game):
            if isinstance(action, Sell):
                expected = cat.sale(action.bot)
            elif isinstance(action, Buy):
                expected = -game.prices[action.slot]
            elif isinstance(action, BuyFork):
                expected = -(cat.tile("fork").price or 0)
            elif isinstance(action, BuyTruck):
                kind = cat.tile(action.kind)
                upgrade = kind.upgrade_from is not None and b.factory.dock[action.row].kind == kind.upgrade_from
                expected = -((kind.upgrade_price if upgrade else kind.price) or 0)
        if delta == expected:
            continue
        if delta > expected and _runs_in_step(before, after) and _has(game, b.factory, Effect.FLIGHT):
            continue
        return f"player {i}'s wallet changed by {delta} on {action!r}; expected {expected}"
    return None


def vault_changes(game: MechanicaGame, before: MechanicaState, action: Any, after: MechanicaState) -> str | None:
    """MC-BP-COMPLETE, MC-GIFT: a vault grows only by a Blueprint's value or, in a run, by Gift Wrappers."""
    for i, (b, a) in enumerate(zip(before.seats, after.seats, strict=True)):
        delta = a.vault - b.vault
        expected = 0
        if isinstance(action, Complete) and i == before.current and before.phase in _anytime_phases(game):
            card = before.bp_top[action.pile]
            expected = game.cards[card].value if card is not None else 0
        if delta == expected:
            continue
        if delta > expected and _runs_in_step(before, after) and _has(game, b.factory, Effect.GIFT):
            continue
        return f"player {i}'s vault changed by {delta} on {action!r}; expected {expected}"
    return None


def ends_within_bound(game: MechanicaGame, final: MechanicaState, steps: int) -> str | None:
    """MC-END-BOUND: every game ends, within the documented maximum length."""
    if not game.is_terminal(final):
        return f"not over after {steps} steps (the bound is {game.info.max_length})"
    return None
