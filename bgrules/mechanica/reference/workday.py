"""Reference reading of a factory's workday run (MC-RUN): movement, collisions, Static Chargers, then
activation, written from docs/rules/mechanica.md. It builds the shared :class:`Run` record (the fields
evolve as docs/rules/mechanica.md, "Engine conventions", says) with ``attrs.evolve``; no memos."""

from __future__ import annotations

import attrs

from bgrules.core.errors import IllegalAction
from bgrules.mechanica.board import Factory, Placed, Truck
from bgrules.mechanica.components import Bot, Dir, Effect
from bgrules.mechanica.reference.factory import (
    COLS,
    ROWS,
    TRUCK_BIN,
    TRUCK_COL,
    Way,
    launches,
    on_floor,
    ways,
    with_cell,
    with_start,
    with_truck,
)
from bgrules.mechanica.run import Change, ChooseOutput, Discard, Fly, Moving, Route, Run, RunPhase
from bgrules.mechanica.variant import MechanicaVariant

Stock = tuple[int, int, int]
RunDecision = Route | Fly | Discard | Change | ChooseOutput


def give(stock: Stock, bots: tuple[Bot, ...] | list[Bot]) -> Stock:
    """MC-STOCK: bots going back to the stock."""
    s = list(stock)
    for b in bots:
        s[b] += 1
    return (s[0], s[1], s[2])


def take(stock: Stock, bot: Bot) -> tuple[Stock, bool]:
    """MC-STOCK: one ``bot`` from the stock, if it has one (a bot the stock lacks is not made)."""
    if stock[bot] < 1:
        return stock, False
    s = list(stock)
    s[bot] -= 1
    return (s[0], s[1], s[2]), True


def node_bit(node: tuple[int, int, int]) -> int:
    r, c, h = node
    return 1 << ((r * COLS + c) * 5 + h)


def start_run(factory: Factory, stock: Stock, variant: MechanicaVariant) -> Run:
    """MC-MOVE-SRC: every source hole empties at once and its bot sets off; then the run goes on until the
    owner must decide."""
    moving = tuple(Moving(bot, node, 0) for bot, node in launches(factory, variant))
    for r, slot in enumerate(factory.start):
        factory = with_start(factory, r, attrs.evolve(slot, holes=(None,) * len(slot.holes)))
    for i, placed in enumerate(factory.floor):
        if placed is not None and any(b is not None for b in placed.outputs):
            factory = with_cell(
                factory, i // COLS, i % COLS, attrs.evolve(placed, outputs=(None,) * len(placed.outputs))
            )
    if not moving:  # nothing sets off: the run is over at once
        return Run(factory=factory, stock=stock, phase=RunPhase.DONE, cursor=ROWS * COLS)
    return advance(Run(factory=factory, stock=stock, moving=moving), variant)


def _take_way(run: Run, way: Way) -> Run:
    """One step of the bot at the head of ``moving`` (MC-MOVE, MC-GIFT, MC-CHARGE, MC-FLIGHT-JUMP)."""
    head = run.moving[0]
    rest = run.moving[1:]
    run = attrs.evolve(run, vault=run.vault + way.gift, wallet=run.wallet + way.jump)
    if way.charge is not None:
        charges = list(run.charges)
        charges[way.charge] += 1
        run = attrs.evolve(run, charges=tuple(charges))
    if way.then is not None:
        moved = Moving(head.bot, way.then, head.visited | node_bit(head.node))
        return attrs.evolve(run, moving=(moved, *rest))
    if way.arrive is not None:
        return attrs.evolve(run, moving=rest, arrived=(*run.arrived, (way.arrive, head.bot)))
    return attrs.evolve(run, moving=rest, stock=give(run.stock, [head.bot]), destroyed=run.destroyed + 1)


def _bins(run: Run, variant: MechanicaVariant) -> list[tuple[int, int, int, tuple[Bot, ...]]]:
    """MC-COLLIDE: every hole with its capacity and bots, floor cells row by row, then trucks."""
    cat = variant.catalogue
    out: list[tuple[int, int, int, tuple[Bot, ...]]] = []
    for i, placed in enumerate(run.factory.floor):
        if placed is not None:
            out.append((i // COLS, i % COLS, cat.tile(placed.kind).inputs, placed.inputs))
    for r, truck in enumerate(run.factory.dock):
        out.append((r, TRUCK_COL, cat.tile(truck.kind).capacity, truck.load))
    return out


def _pour(run: Run, variant: MechanicaVariant) -> Run:
    """MC-MOVE-STOP: the arrived bots enter their holes (in the order they arrived) and trucks."""
    factory = run.factory
    for where, bot in run.arrived:
        if where >= TRUCK_BIN:
            truck = factory.dock[where - TRUCK_BIN]
            factory = with_truck(factory, where - TRUCK_BIN, Truck(truck.kind, (*truck.load, bot)))
        else:
            placed = factory.floor[where]
            assert placed is not None
            factory = with_cell(
                factory, where // COLS, where % COLS, attrs.evolve(placed, inputs=tuple(sorted((*placed.inputs, bot))))
            )
    run = attrs.evolve(run, factory=factory, arrived=(), phase=RunPhase.COLLIDE, cursor=0)
    crowded = sum(1 for _r, _c, cap, bots in _bins(run, variant) if len(bots) > cap)
    return attrs.evolve(run, collisions=run.collisions + crowded)


def _discard(run: Run, row: int, col: int, bot: Bot) -> Run:
    """MC-COLLIDE: one ``bot`` crowding the hole(s) at (row, col) is destroyed."""
    if col == TRUCK_COL:
        truck = run.factory.dock[row]
        load = list(truck.load)
        load.remove(bot)
        factory = with_truck(run.factory, row, Truck(truck.kind, tuple(load)))
    else:
        placed = run.factory.floor[row * COLS + col]
        assert placed is not None
        inputs = list(placed.inputs)
        inputs.remove(bot)
        factory = with_cell(run.factory, row, col, attrs.evolve(placed, inputs=tuple(inputs)))
    return attrs.evolve(run, factory=factory, stock=give(run.stock, [bot]), destroyed=run.destroyed + 1)


def _crowded(run: Run, variant: MechanicaVariant) -> tuple[int, int, tuple[Bot, ...]] | None:
    for r, c, cap, bots in _bins(run, variant):
        if len(bots) > cap:
            return r, c, bots
    return None


def _charge(run: Run, variant: MechanicaVariant) -> Run:
    """MC-CHARGE: one Basic bot per pass into an empty output hole of the Static Charger (at most one a hole)."""
    factory, stock = run.factory, run.stock
    for i, passes in enumerate(run.charges):
        placed = factory.floor[i]
        if passes == 0 or placed is None:
            continue
        outputs = list(placed.outputs)
        for j, held in enumerate(outputs):
            if passes == 0:
                break
            if held is None:
                stock, made = take(stock, Bot.BASIC)
                if made:
                    outputs[j] = Bot.BASIC
                passes -= 1
        factory = with_cell(factory, i // COLS, i % COLS, attrs.evolve(placed, outputs=tuple(outputs)))
    return attrs.evolve(run, factory=factory, stock=stock, charges=(0,) * (ROWS * COLS))


def _activates(placed: Placed | None) -> bool:
    return placed is not None and len(placed.inputs) > 0


def _choices(run: Run, variant: MechanicaVariant, i: int) -> tuple[RunDecision, ...]:
    """MC-ACT-CHANGE, MC-ACT-DOWNGRADE: the owner's choice at the activation of cell ``i``, if any."""
    placed = run.factory.floor[i]
    assert placed is not None
    kind = variant.catalogue.tile(placed.kind)
    r, c = divmod(i, COLS)
    if kind.effect is Effect.CHANGE and len(placed.inputs) >= kind.inputs:
        return tuple(Change(r, c, b) for b in Bot)
    if kind.effect is Effect.DOWNGRADE and placed.inputs[0] is Bot.BASIC and len(placed.outputs) > 1:
        return tuple(ChooseOutput(r, c, j) for j in range(len(placed.outputs)))
    return ()


def _activate(run: Run, variant: MechanicaVariant, i: int, choice: Bot | int | None) -> Run:
    """MC-ACT-*: the tile on cell ``i`` works inside itself: input holes emptied, output holes filled."""
    placed = run.factory.floor[i]
    assert placed is not None
    kind = variant.catalogue.tile(placed.kind)
    stock = run.stock
    inputs = placed.inputs
    outputs: list[Bot | None] = list(placed.outputs)
    if kind.effect is Effect.UPGRADE:
        bot = inputs[0]
        if bot is Bot.DELUXE:
            outputs[0] = bot
        else:
            stock = give(stock, [bot])
            stock, made = take(stock, Bot(bot + 1))
            if made:
                outputs[0] = Bot(bot + 1)
        inputs = ()
    elif kind.effect is Effect.DUPLICATE:
        bot = inputs[0]
        outputs[0] = bot
        for j in range(1, len(outputs)):
            stock, made = take(stock, bot)
            if made:
                outputs[j] = bot
        inputs = ()
    elif kind.effect is Effect.DOWNGRADE:
        bot = inputs[0]
        if bot is Bot.BASIC:
            outputs[choice if isinstance(choice, int) else 0] = bot
        else:
            stock = give(stock, [bot])
            for j in range(len(outputs)):
                stock, made = take(stock, Bot(bot - 1))
                if made:
                    outputs[j] = Bot(bot - 1)
        inputs = ()
    elif kind.effect is Effect.CHANGE and len(inputs) >= kind.inputs:  # one bot alone waits (MC-ACT-CHANGE)
        assert isinstance(choice, Bot)
        stock = give(stock, list(inputs))
        stock, made = take(stock, choice)
        if made:
            outputs[0] = choice
        inputs = ()
    factory = with_cell(run.factory, i // COLS, i % COLS, attrs.evolve(placed, inputs=inputs, outputs=tuple(outputs)))
    return attrs.evolve(run, factory=factory, stock=stock, cursor=i + 1)


def advance(run: Run, variant: MechanicaVariant) -> Run:
    """Take every forced step until the owner must decide or the run is done (MC-RUN, MC-COLLIDE,
    forced decisions taken automatically)."""
    while True:
        if run.phase is RunPhase.MOVE:
            if not run.moving:
                run = _pour(run, variant)
                continue
            head = run.moving[0]
            r, c, _h = head.node
            if on_floor(r, c) and head.visited & node_bit(head.node):
                run = _take_way(run, Way(destroy="MC-MOVE-LOOP"))  # MC-MOVE-LOOP
                continue
            found = ways(run.factory, variant, head.node)
            if len(found) > 1:
                return run
            run = _take_way(run, found[0])
        elif run.phase is RunPhase.COLLIDE:
            crowded = _crowded(run, variant)
            if crowded is None:
                run = attrs.evolve(_charge(run, variant), phase=RunPhase.ACTIVATE, cursor=0)
                continue
            r, c, bots = crowded
            if len(set(bots)) > 1:
                return run
            run = _discard(run, r, c, bots[0])
        elif run.phase is RunPhase.ACTIVATE:
            i = run.cursor
            while i < ROWS * COLS and not _activates(run.factory.floor[i]):
                i += 1
            if i >= ROWS * COLS:
                return attrs.evolve(run, phase=RunPhase.DONE, cursor=ROWS * COLS)
            run = attrs.evolve(run, cursor=i)
            if _choices(run, variant, i):
                return run
            run = _activate(run, variant, i, None)
        else:
            return run


def decisions(run: Run, variant: MechanicaVariant) -> tuple[RunDecision, ...]:
    """The owner's choices where the run waits (MC-FORK, MC-FLIGHT, MC-COLLIDE, MC-ACT-*)."""
    if run.phase is RunPhase.MOVE and run.moving:
        r, c, _h = run.moving[0].node
        out: list[RunDecision] = []
        for way in ways(run.factory, variant, run.moving[0].node):
            if isinstance(way.label, Dir):
                out.append(Route(r, c, way.label))
            elif way.label is not None:
                out.append(Fly(r, c, way.label[0], way.label[1]))
        return tuple(out)
    if run.phase is RunPhase.COLLIDE:
        crowded = _crowded(run, variant)
        if crowded is None:
            return ()
        r, c, bots = crowded
        return tuple(Discard(r, c, b) for b in sorted(set(bots)))
    if run.phase is RunPhase.ACTIVATE and run.cursor < ROWS * COLS:
        return _choices(run, variant, run.cursor)
    return ()


def decide(run: Run, variant: MechanicaVariant, action: object) -> Run:
    """Apply one of :func:`decisions` and go on; anything else raises IllegalAction naming the rule."""
    legal = decisions(run, variant)
    if action not in legal:
        rule = {Route: "MC-FORK", Fly: "MC-FLIGHT", Discard: "MC-COLLIDE", Change: "MC-ACT-CHANGE"}.get(
            type(action), "MC-ACT-DOWNGRADE" if isinstance(action, ChooseOutput) else "MC-RUN"
        )
        raise IllegalAction(rule, f"{action!r} is not a decision of this run ({len(legal)} are)")
    if isinstance(action, Route | Fly):
        label = action.exit if isinstance(action, Route) else (action.to_row, action.to_col)
        way = next(w for w in ways(run.factory, variant, run.moving[0].node) if w.label == label)
        return advance(_take_way(run, way), variant)
    if isinstance(action, Discard):
        return advance(_discard(run, action.row, action.col, action.bot), variant)
    if isinstance(action, Change):
        return advance(_activate(run, variant, run.cursor, action.bot), variant)
    assert isinstance(action, ChooseOutput)
    return advance(_activate(run, variant, run.cursor, action.hole), variant)
