"""The Shop (whole game): the wheel and buying from it, installing or recycling the bought tile, the
wheel's turn, the Recycler, the draw onto price 7 and the 2-3 player double rotation.

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
from bgrules.mechanica.base import MechanicaBase, add_at, replace_at
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

# Enum members the functions below compare with, as module constants: under Python 3.11 each ``Phase.X``
# is looked up through EnumType.__getattr__'s hook, about 0.2 us a time on a hot path (docs/speed.md).
_Phase_BUY = Phase.BUY
_Phase_DRAW = Phase.DRAW
_Phase_EXTRA = Phase.EXTRA
_Phase_PLACE = Phase.PLACE
_Phase_RECYCLE = Phase.RECYCLE
_Phase_SELL = Phase.SELL
_Phase_SETUP_DEAL = Phase.SETUP_DEAL
_Phase_SETUP_EXTRAS = Phase.SETUP_EXTRAS
_Phase_TURN_END = Phase.TURN_END
_Zone_FLOOR = Zone.FLOOR

_PLACE_ACTIONS = {(r, c, rot): Place(r, c, rot) for r in range(ROWS) for c in range(COLS) for rot in range(4)}
"""One shared Place per (row, col, rotation): the options of a waiting tile are looked up, not built."""
_RECYCLE_ACTIONS: dict[tuple[int, int], Recycle] = {}
"""One shared Recycle per (row, hole) (as many as the Start Zone's holes can be)."""


def _recycle_action(row: int, hole: int) -> Recycle:
    """MC-RECYCLE: the shared action putting the recycled tile's bot into hole ``hole`` of row ``row``."""
    found = _RECYCLE_ACTIONS.get((row, hole))
    if found is None:
        if len(_RECYCLE_ACTIONS) > 1_000:
            _RECYCLE_ACTIONS.clear()
        found = _RECYCLE_ACTIONS[(row, hole)] = Recycle(row, hole)
    return found


_FRACTIONS: dict[tuple[int, int], Fraction] = {}
"""Fraction(n, total) by (n, total): a draw's probabilities recur from one deck to the next (bounded)."""


def _fraction(n: int, total: int) -> Fraction:
    """MC-CHANCE: the probability ``n`` / ``total`` of a draw (one shared value per pair)."""
    found = _FRACTIONS.get((n, total))
    if found is None:
        if len(_FRACTIONS) > 20_000:
            _FRACTIONS.clear()
        found = _FRACTIONS[(n, total)] = Fraction(n, total)
    return found


class ShopRoom(MechanicaBase):
    """The Shop's rules, as methods of the whole game."""

    # --- the draws (chance) -------------------------------------------------------------------------

    def _draws(self, counts: tuple[int, ...]) -> tuple[tuple[Any, Fraction], ...]:
        """MC-CHANCE: each kind left, with probability (copies left) / (tiles left) (memoised per count
        vector; each (draw, probability) pair is shared by every vector that has it, so that a memo of many
        vectors holds few objects for the collector to visit)."""
        found = self._draw_memo.get(counts)
        if found is None:
            total = sum(counts)
            pairs = self._draw_pairs
            if len(pairs) > self.memos.bound("draw pairs"):
                pairs.clear()
            outcomes = []
            for k, n in zip(self.kinds, counts, strict=True):
                if n:
                    pair = pairs.get((k, n, total))
                    if pair is None:
                        pair = pairs[(k, n, total)] = (self._draw_actions[k], _fraction(n, total))
                    outcomes.append(pair)
            found = self.memos.put(self._draw_memo, counts, tuple(outcomes))
        return found

    def _draw(self, state: MechanicaState, action: Draw) -> MechanicaState:
        """A drawn tile: into the extras at set-up (MC-SETUP-EXTRAS), from the extras onto price 7 after a
        double rotation (MC-SHOP-DOUBLE), onto the Shop at set-up (MC-SETUP-DEAL) or onto price 7 in step 4
        (MC-SHOP-DRAW, then the double rotation). The outcome is checked by the caller (MC-CHANCE)."""
        phase = state.phase
        k = self.kind_index[action.kind]
        if phase is _Phase_SETUP_EXTRAS:  # MC-SETUP-EXTRAS
            coverage.effect("MC-SETUP-EXTRAS")
            return evolve(state, deck=add_at(state.deck, k, -1), extras=add_at(state.extras, k, 1))
        if phase is _Phase_EXTRA:  # MC-SHOP-DOUBLE
            coverage.effect("MC-SHOP-DOUBLE")
            return self._pass_turn(
                state, extras=add_at(state.extras, k, -1), wheel=replace_at(state.wheel, 0, action.kind)
            )
        if phase is _Phase_SETUP_DEAL:  # MC-SETUP-DEAL
            coverage.effect("MC-SETUP-DEAL")
            slot = state.wheel.index(None)
            return evolve(state, deck=add_at(state.deck, k, -1), wheel=replace_at(state.wheel, slot, action.kind))
        # MC-SHOP-DRAW, then the 2-3 player double rotation
        coverage.effect("MC-SHOP-DRAW")
        deck = add_at(state.deck, k, -1)
        wheel = replace_at(state.wheel, 0, action.kind)
        if self._doubles(wheel):
            return self._after_draw(evolve(state, deck=deck, wheel=wheel))
        return self._pass_turn(state, deck=deck, wheel=wheel)  # one copy

    def _doubles(self, wheel: tuple[str | None, ...]) -> bool:
        """MC-SHOP-DOUBLE: with 2-3 players, is only the price-7 tile left on the Shop?"""
        return self.double_rotation and wheel[0] is not None and all(w is None for w in wheel[1:]) and len(wheel) > 1

    def _after_draw(self, state: MechanicaState) -> MechanicaState:
        """MC-SHOP-DOUBLE: with 2-3 players, if only the price-7 tile is left, turn once more and put an
        extra on price 7 (once; not repeated)."""
        wheel = state.wheel
        if self._doubles(wheel):
            coverage.effect("MC-SHOP-DOUBLE")
            state = evolve(state, wheel=(None, *wheel[:-1]))
            if sum(state.extras):
                return evolve(state, phase=_Phase_EXTRA)
        return self._pass_turn(state)

    def _pass_turn(self, state: MechanicaState, **changes: Any) -> MechanicaState:
        """Step (4) is over (the rotation, the Recycler, the draws): under ``anytime = "whole_turn"`` the
        player's closing decision follows (phase TURN_END, MC-ANYTIME); otherwise the next seat's turn
        begins (MC-TURN-ORDER). ``changes``: the other fields the step changes (one copy of the state)."""
        if self._turn_end:
            return evolve(state, phase=_Phase_TURN_END, **changes)
        return evolve(state, phase=_Phase_SELL, current=state.current + 1, **changes)

    # --- buying and the bought tile -----------------------------------------------------------------

    def _buy(self, state: MechanicaState, action: Buy) -> MechanicaState:
        """MC-SHOP-BUY: pay the slot's price and take its tile, to install or recycle at once (phase PLACE)."""
        if state.phase is not _Phase_BUY:
            raise IllegalAction("MC-TURN-ORDER", "improvements are bought in the second step of the turn (after Next)")
        if action.slot not in range(len(self.prices)) or state.wheel[action.slot] is None:
            raise IllegalAction("MC-SHOP-BUY", f"Shop slot {action.slot} holds no improvement")
        seat = state.seats[state.current]
        price = self.prices[action.slot]
        if seat.wallet < price:
            raise IllegalAction("MC-SHOP-BUY", f"the improvement costs {price}; the wallet holds {seat.wallet}")
        kind = state.wheel[action.slot]
        coverage.effect("MC-SHOP-BUY")
        return self._seat(
            state,
            evolve(seat, wallet=seat.wallet - price),
            wheel=replace_at(state.wheel, action.slot, None),
            pending=kind,
            phase=_Phase_PLACE,
        )

    def _recycle_options(self, factory: Factory) -> list[Recycle]:
        """MC-RECYCLE: a recycled tile's bot may go into any Start Zone hole."""
        return [_recycle_action(r, h) for r, h in self._holes(factory)]

    def _place_options(self, state: MechanicaState, factory: Factory) -> list[Any]:
        """MC-SHOP-BUY: the bought tile is installed (MC-PLACE, MC-PLACE-START) or recycled (MC-RECYCLE)."""
        kind = self.variant.catalogue.tile(state.pending or "")
        out: list[Any] = []
        if kind.zone is _Zone_FLOOR:
            out.extend(map(_PLACE_ACTIONS.__getitem__, legal_placements(factory, self.variant, kind.key)))
        else:
            out.extend(PlaceFabricator(r) for r in range(ROWS) if self._ok_start(factory, kind.key, r))
        out.extend(self._recycle_options(factory))
        return out

    def _ok_start(self, factory: Factory, key: str, row: int) -> bool:
        """MC-PLACE-START: may fabricator tile ``key`` go on Start Zone row ``row``?"""
        try:
            check_install_start(factory, self.variant, key, row)
        except IllegalAction as exc:
            coverage.withdraw(exc)  # a probe of the options, not a refused action
            return False
        return True

    def _recycle(self, state: MechanicaState, key: str, action: Recycle, **changes: Any) -> MechanicaState:
        """MC-RECYCLE: the tile goes into the Recycler and its bot into a Start Zone hole (replacing one);
        ``changes``: the other fields the step changes (one copy of the state)."""
        seat = state.seats[state.current]
        if (action.row, action.hole) not in self._holes(seat.factory):
            raise IllegalAction("MC-RECYCLE", f"Start Zone row {action.row} has no hole {action.hole}")
        coverage.effect("MC-RECYCLE")
        bot = self.variant.catalogue.tile(key).recycle_bot
        factory, stock = put_in_start_hole(seat.factory, state.stock, action.row, action.hole, bot)
        return self._seat(
            state,
            evolve(seat, factory=factory),
            stock=stock,
            recycler=add_at(state.recycler, self.kind_index[key], 1),
            **changes,
        )

    def _place(self, state: MechanicaState, action: Any) -> MechanicaState:
        """MC-SHOP-BUY: install the bought tile (MC-PLACE, MC-PLACE-START) or recycle it (MC-RECYCLE); then
        back to the buying step."""
        key = state.pending
        assert key is not None
        seat = state.seats[state.current]
        if isinstance(action, Recycle):
            return self._recycle(state, key, action, pending=None, phase=_Phase_BUY)
        if isinstance(action, Place):
            factory = install(seat.factory, self.variant, key, action.row, action.col, action.rotation)
            stock = state.stock
        elif isinstance(action, PlaceFabricator):
            covered = seat.factory.start[action.row].kind if action.row in range(ROWS) else None
            factory, spilled = install_start(seat.factory, self.variant, key, action.row)
            if covered in self.kind_index:  # MC-PLACE-START: a covered fabricator tile goes to the Recycler
                state = evolve(state, recycler=add_at(state.recycler, self.kind_index[covered], 1))
            stock = restock(state.stock, spilled)
        else:
            raise IllegalAction(
                "MC-PLACE", f"{action!r}: install the bought {key} (Place / PlaceFabricator) or Recycle it"
            )
        return self._seat(state, evolve(seat, factory=factory), stock=stock, pending=None, phase=_Phase_BUY)

    # --- step 4: the wheel turns --------------------------------------------------------------------

    def _rotate(self, state: MechanicaState) -> MechanicaState:
        """MC-SHOP-ROTATE: the Shop turns one slot; the last slot's tile falls into the Recycler (one copy of
        the state)."""
        coverage.effect("MC-SHOP-ROTATE")
        wheel = state.wheel
        fallen = wheel[-1]
        turned = (None, *wheel[:-1])
        if fallen is None:
            return evolve(state, wheel=turned, gifts=(), phase=_Phase_DRAW)
        coverage.effect("MC-SHOP-RECYCLE")
        if self.variant.rulings.shop_recycle == "current":
            return evolve(state, wheel=turned, gifts=(), phase=_Phase_RECYCLE, fallen=fallen)
        recycler = add_at(state.recycler, self.kind_index[fallen], 1)
        return evolve(state, wheel=turned, gifts=(), recycler=recycler, phase=_Phase_DRAW)

    def _recycle_fallen(self, state: MechanicaState, action: Any) -> MechanicaState:
        """MC-SHOP-RECYCLE: the current player places the fallen tile's bot (MC-RECYCLE); then the draw."""
        if not isinstance(action, Recycle):
            raise IllegalAction("MC-SHOP-RECYCLE", f"{action!r}: place the fallen tile's bot first (Recycle)")
        assert state.fallen is not None
        return self._recycle(state, state.fallen, action, fallen=None, phase=_Phase_DRAW)
