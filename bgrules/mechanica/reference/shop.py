"""Reference Shop (MC-SHOP-BUY, MC-PLACE, MC-PLACE-START, MC-RECYCLE, MC-SHOP-ROTATE, MC-SHOP-RECYCLE,
MC-SHOP-DRAW, MC-SHOP-DOUBLE): buying, installing or recycling the bought tile, the wheel's turn."""

from __future__ import annotations

import attrs

from bgrules.core.errors import IllegalAction
from bgrules.mechanica.board import Factory
from bgrules.mechanica.components import Bot, Zone
from bgrules.mechanica.reference import factory as board
from bgrules.mechanica.reference.dayend import end_turn
from bgrules.mechanica.reference.rules import Rules, add, give_bots, seat_of, with_seat
from bgrules.mechanica.reference.workday import take
from bgrules.mechanica.state import Buy, MechanicaState, Phase, Place, PlaceFabricator, Recycle


def buys(rules: Rules, state: MechanicaState) -> list[Buy]:
    """MC-SHOP-BUY: every slot holding a tile the wallet affords, slot 0 (price 7) first."""
    wallet = seat_of(state).wallet
    return [Buy(i) for i, t in enumerate(state.wheel) if t is not None and rules.prices[i] <= wallet]


def buy(rules: Rules, state: MechanicaState, action: Buy) -> MechanicaState:
    """MC-SHOP-BUY: pay the slot's price; the tile waits to be installed or recycled (phase PLACE)."""
    if action not in buys(rules, state):
        raise IllegalAction("MC-SHOP-BUY", f"slot {action.slot} is empty or costs more than the wallet holds")
    seat = seat_of(state)
    state = with_seat(state, state.current, attrs.evolve(seat, wallet=seat.wallet - rules.prices[action.slot]))
    kind = state.wheel[action.slot]
    wheel = tuple(None if j == action.slot else t for j, t in enumerate(state.wheel))
    return attrs.evolve(state, wheel=wheel, pending=kind, phase=Phase.PLACE)


def recycles(factory: Factory) -> list[Recycle]:
    """MC-RECYCLE: any hole of any Start Zone row."""
    return [Recycle(r, h) for r, slot in enumerate(factory.start) for h in range(len(slot.holes))]


def make_into_hole(
    factory: Factory, stock: tuple[int, int, int], row: int, hole: int, bot: Bot
) -> tuple[Factory, tuple[int, int, int]]:
    """MC-FAB-REPLACE, MC-STOCK: a bot already in the hole goes back to the stock, then ``bot`` is taken
    from the stock into it (if the stock has one)."""
    slot = factory.start[row]
    holes = list(slot.holes)
    old = holes[hole]
    if old is not None:
        stock = give_bots(stock, [old])
        holes[hole] = None
    stock, made = take(stock, bot)
    if made:
        holes[hole] = bot
    return board.with_start(factory, row, attrs.evolve(slot, holes=tuple(holes))), stock


def placements(rules: Rules, state: MechanicaState) -> list[Place | PlaceFabricator | Recycle]:
    """Phase PLACE: the bought tile's installations (MC-PLACE or MC-PLACE-START), then its recycling."""
    assert state.pending is not None
    factory = seat_of(state).factory
    kind = rules.variant.catalogue.tile(state.pending)
    out: list[Place | PlaceFabricator | Recycle] = []
    if kind.zone is Zone.FLOOR:
        out += [Place(r, c, rot) for r, c, rot in board.placements(factory, rules.variant, state.pending)]
    elif kind.zone is Zone.START:
        out += [
            PlaceFabricator(r)
            for r in range(board.ROWS)
            if board.start_problem(factory, rules.variant, kind.key, r) is None
        ]
    return out + recycles(factory)


def recycle_bot(rules: Rules, state: MechanicaState, kind: str, action: Recycle, rule: str) -> MechanicaState:
    """MC-RECYCLE / MC-SHOP-RECYCLE: the tile into the Recycler, its recycle bot into a Start Zone hole."""
    seat = seat_of(state)
    if action not in recycles(seat.factory):
        raise IllegalAction(rule, f"no Start Zone hole ({action.row}, {action.hole})")
    bot = rules.variant.catalogue.tile(kind).recycle_bot
    factory, stock = make_into_hole(seat.factory, state.stock, action.row, action.hole, bot)
    state = with_seat(state, state.current, attrs.evolve(seat, factory=factory))
    return attrs.evolve(state, stock=stock, recycler=add(state.recycler, rules.kind_index(kind), 1))


def place(rules: Rules, state: MechanicaState, action: Place | PlaceFabricator | Recycle) -> MechanicaState:
    """Phase PLACE: install the bought tile (MC-PLACE, MC-PLACE-START) or recycle it (MC-RECYCLE); then
    back to buying."""
    assert state.pending is not None
    kind = state.pending
    seat = seat_of(state)
    if isinstance(action, Recycle):
        state = recycle_bot(rules, state, kind, action, "MC-RECYCLE")
    elif isinstance(action, Place):
        if rules.variant.catalogue.tile(kind).zone is not Zone.FLOOR:
            raise IllegalAction("MC-PLACE-ZONE", f"{kind} is not a floor tile")
        factory = board.install(seat.factory, rules.variant, kind, action.row, action.col, action.rotation)
        state = with_seat(state, state.current, attrs.evolve(seat, factory=factory))
    else:
        covered = seat.factory.start[action.row].kind if action.row in range(board.ROWS) else None
        factory, spilled = board.install_start(seat.factory, rules.variant, kind, action.row)
        state = with_seat(state, state.current, attrs.evolve(seat, factory=factory))
        state = attrs.evolve(state, stock=give_bots(state.stock, spilled))
        if covered is not None and not rules.variant.catalogue.tile(covered).printed and covered in rules.kinds:
            state = attrs.evolve(state, recycler=add(state.recycler, rules.kind_index(covered), 1))  # MC-PLACE-START
    return attrs.evolve(state, pending=None, phase=Phase.BUY)


def rotate(rules: Rules, state: MechanicaState) -> MechanicaState:
    """MC-SHOP-ROTATE: every tile one slot cheaper; the last slot's tile falls into the Recycler
    (MC-SHOP-RECYCLE: its bot is the player's to place, phase RECYCLE; under ``shop_recycle = "none"`` no
    bot). Then the draw (MC-SHOP-DRAW)."""
    fallen = state.wheel[-1]
    state = attrs.evolve(state, wheel=(None, *state.wheel[:-1]))
    if fallen is not None:
        if rules.variant.rulings.shop_recycle == "current":
            return attrs.evolve(state, fallen=fallen, phase=Phase.RECYCLE)
        state = attrs.evolve(state, recycler=add(state.recycler, rules.kind_index(fallen), 1))
    return draw_step(rules, state)


def recycle_fallen(rules: Rules, state: MechanicaState, action: Recycle) -> MechanicaState:
    """MC-SHOP-RECYCLE: the fallen tile's bot into the hole the player picks; then the draw."""
    assert state.fallen is not None
    state = recycle_bot(rules, state, state.fallen, action, "MC-RECYCLE")
    return draw_step(rules, attrs.evolve(state, fallen=None))


def draw_step(rules: Rules, state: MechanicaState) -> MechanicaState:
    """MC-SHOP-DRAW: the deck's top onto price 7 (a chance node), nothing from an empty deck."""
    if sum(state.deck) > 0:
        return attrs.evolve(state, phase=Phase.DRAW)
    return after_draw(rules, state)


def drawn(rules: Rules, state: MechanicaState, kind: str) -> MechanicaState:
    state = attrs.evolve(state, deck=add(state.deck, rules.kind_index(kind), -1), wheel=(kind, *state.wheel[1:]))
    return after_draw(rules, state)


def after_draw(rules: Rules, state: MechanicaState) -> MechanicaState:
    """MC-SHOP-DOUBLE: with 2-3 players, if only price 7 holds a tile, the wheel turns once more and an
    extra (a chance node) goes onto price 7 if any is left. Then step 4 is over."""
    if rules.players in (2, 3) and state.wheel[0] is not None and all(t is None for t in state.wheel[1:]):
        state = attrs.evolve(state, wheel=(None, *state.wheel[:-1]))
        if sum(state.extras) > 0:
            return attrs.evolve(state, phase=Phase.EXTRA)
    return step_four_over(rules, state)


def extra_drawn(rules: Rules, state: MechanicaState, kind: str) -> MechanicaState:
    state = attrs.evolve(state, extras=add(state.extras, rules.kind_index(kind), -1), wheel=(kind, *state.wheel[1:]))
    return step_four_over(rules, state)


def step_four_over(rules: Rules, state: MechanicaState) -> MechanicaState:
    """MC-ANYTIME: under ``anytime = "whole_turn"`` the player's closing decision (phase TURN_END); else the
    turn ends at once."""
    if rules.variant.rulings.anytime == "whole_turn":
        return attrs.evolve(state, phase=Phase.TURN_END)
    return end_turn(rules, state)
