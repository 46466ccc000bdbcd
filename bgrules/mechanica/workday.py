"""One factory's workday run (seed section A): movement, collisions, then activation.

The run is a small state machine over immutable :class:`Run` values. :func:`start_run` launches every
bot and advances until the owner must decide something; :func:`decisions` lists the decisions and
:func:`decide` applies one. Forced steps (a single option, or a collision between identical bots)
are taken automatically, so every node the caller sees is a real choice.
"""

from __future__ import annotations

from collections.abc import Callable

from bgrules.core import coverage
from bgrules.core.errors import IllegalAction
from bgrules.core.fastevolve import evolve
from bgrules.mechanica.components import Bot, Dir, Effect
from bgrules.mechanica.factory import (
    COLS,
    DOCK_COL,
    ROWS,
    Factory,
    Placed,
    Truck,
    cell_index,
    on_floor,
    restock,
)
from bgrules.mechanica.movement import (
    LAND,
    TRUCK_BIN,
    Node,
    Step,
    launch_nodes,
    node_code,
    options_table,
    table_options,
)
from bgrules.mechanica.run import (
    RUN_DECISION_TYPES,
    Change,
    ChooseOutput,
    Discard,
    Fly,
    Moving,
    Route,
    Run,
    RunDecision,
    RunPhase,
    _copy,
)
from bgrules.mechanica.variant import MechanicaVariant

# --- stock helpers (MC-STOCK) -----------------------------------------------------------------------


def _give_back(stock: tuple[int, int, int], bots: tuple[Bot, ...] | list[Bot]) -> tuple[int, int, int]:
    return restock(stock, bots)


def _take(stock: tuple[int, int, int], bot: Bot, n: int) -> tuple[tuple[int, int, int], int]:
    """Take up to n bots of a grade; MC-STOCK: a bot the stock lacks is not made."""
    coverage.effect("MC-STOCK")
    got = min(n, stock[bot])
    s = list(stock)
    s[bot] -= got
    return (s[0], s[1], s[2]), got


# --- movement ---------------------------------------------------------------------------------------


def start_run(factory: Factory, stock: tuple[int, int, int], variant: MechanicaVariant) -> Run:
    """MC-MOVE-SRC: empty every output and fabricator hole at once and set those bots moving."""
    coverage.effect("MC-RUN")
    launches = launch_nodes(factory, variant)
    if not launches and not any(p is not None and p.inputs for p in factory.floor):
        return Run(factory, stock, phase=RunPhase.DONE, cursor=len(factory.floor))
    moving = []
    board = factory
    for area, index, _hole, node in launches:
        if area == "start":
            slot = factory.start[index]
            bot = slot.holes[_hole]
            board = board.with_start(index, evolve(slot, holes=(None,) * len(slot.holes)))
        else:
            placed = factory.floor[index]
            assert placed is not None
            bot = placed.outputs[_hole]
            r, c = divmod(index, COLS)
            board = board.with_cell(r, c, evolve(placed, outputs=(None,) * len(placed.outputs)))
        assert bot is not None
        moving.append(Moving(bot, node, 0))
        coverage.effect("MC-MOVE-SRC")
        coverage.effect("MC-MOVE")
    run = Run(board, stock, tuple(moving))
    return advance(run, variant)


class _Mover:
    """Scratch space for the movement phase: forced steps are taken on plain lists and counters, and an
    immutable :class:`Run` is built only where the owner must decide or movement ends."""

    __slots__ = ("arrived", "charges", "destroyed", "moving", "run", "stock", "vault", "wallet")

    def __init__(self, run: Run) -> None:
        self.run = run
        self.moving = list(run.moving)
        self.arrived = list(run.arrived)
        self.charges: list[int] | None = None
        self.stock = list(run.stock)
        self.vault = run.vault
        self.wallet = run.wallet
        self.destroyed = run.destroyed

    def follow(self, step: Step) -> None:
        coverage.effect(step.rule)  # the movement rule of the step (MC-MOVE-*, MC-GIFT, MC-CHARGE, MC-FORK, MC-FLIGHT)
        head = self.moving[0]
        self.vault += step.gift
        self.wallet += step.jump
        if step.jump:
            coverage.effect("MC-FLIGHT-JUMP")
        if step.charge is not None:
            if self.charges is None:
                self.charges = list(self.run.charges)
            self.charges[step.charge] += 1
        if step.then is not None:
            r, c, _h = head.node
            visited = head.visited | (1 << node_code(head.node)) if on_floor(r, c) else head.visited
            self.moving[0] = Moving(head.bot, step.then, visited)
            return
        del self.moving[0]
        if step.arrive is not None:
            self.arrived.append((step.arrive, head.bot))
        else:
            self.stock[head.bot] += 1
            self.destroyed += 1

    def take(self, route: _Route) -> bool:
        """The head bot follows ``route`` (its forced steps, as :meth:`follow` takes them one by one);
        True when it then faces a decision (it stays at the head, moved to the route's end)."""
        rules, gift, jump, charges, end, node, visited = route
        for rule in rules:
            coverage.effect(rule)
        self.vault += gift
        self.wallet += jump
        if charges:
            if self.charges is None:
                self.charges = list(self.run.charges)
            for i in charges:
                self.charges[i] += 1
        head = self.moving[0]
        if node is not None:
            if rules:  # it moved on to the decision
                self.moving[0] = Moving(head.bot, node, visited)
            return True
        del self.moving[0]
        if end is not None:
            self.arrived.append((end, head.bot))
        else:
            self.stock[head.bot] += 1
            self.destroyed += 1
        return False

    def to_run(self) -> Run:
        return _copy(
            self.run,
            moving=tuple(self.moving),
            arrived=tuple(self.arrived),
            charges=self.run.charges if self.charges is None else tuple(self.charges),
            stock=(self.stock[0], self.stock[1], self.stock[2]),
            vault=self.vault,
            wallet=self.wallet,
            destroyed=self.destroyed,
        )


_Route = tuple[tuple[str, ...], int, int, tuple[int, ...], int | None, Node | None, int]
"""A bot's forced steps from a node: the rules they report (in order), the coins they pay to the vault
(MC-GIFT) and the wallet (MC-FLIGHT-JUMP), the Static Chargers passed (MC-CHARGE, one entry a pass), and
where the bot ends: the bin it arrives in (or None: destroyed), or the node and visited set where it
faces a decision (None, ... when it stopped)."""

ROUTES = "routes"
"""The catalogue's memo (``Catalogue.memos``) of :func:`_routes`: id of an options table -> (the table,
held: ids are reused; its routes)."""


def _routes(factory: Factory, variant: MechanicaVariant) -> dict[tuple[Node, int], _Route]:
    """The memo of :func:`_route` for the floor layout of ``factory``: one per options table (the same key,
    :func:`options_table`), kept with the table it belongs to (compared by ``is``)."""
    table = options_table(factory, variant)
    memos = variant.catalogue.memos
    all_routes = memos.get(ROUTES)
    if all_routes is None:
        all_routes = memos.memo(ROUTES, 4096)
    found = all_routes.get(id(table))
    if found is not None and found[0] is table:
        return found[1]  # type: ignore[no-any-return]
    routes: dict[tuple[Node, int], _Route] = {}
    memos.put(all_routes, id(table), (table, routes))
    return routes


def _route(factory: Factory, variant: MechanicaVariant, node: Node, visited: int) -> _Route:
    """The forced steps of a bot about to enter ``node`` having left the nodes of ``visited``, as
    :meth:`_Mover.follow` takes them, up to its first decision or its stop (MC-MOVE-LOOP first, as
    :func:`head_options`)."""
    table = options_table(factory, variant)
    rules: list[str] = []
    gift = jump = 0
    charges: list[int] = []
    while True:
        r, c, _h = node
        if on_floor(r, c) and visited >> node_code(node) & 1:
            step = _LOOP_STEP
        else:
            steps = table.get(node)
            if steps is None:
                steps = table[node] = table_options(factory, variant, node)
            if len(steps) > 1:
                return (tuple(rules), gift, jump, tuple(charges), None, node, visited)
            step = steps[0]
        rules.append(step.rule)
        gift += step.gift
        jump += step.jump
        if step.jump:
            rules.append("MC-FLIGHT-JUMP")
        if step.charge is not None:
            charges.append(step.charge)
        if step.then is None:
            return (tuple(rules), gift, jump, tuple(charges), step.arrive, None, visited)
        if on_floor(r, c):
            visited |= 1 << node_code(node)
        node = step.then


def _follow(run: Run, step: Step) -> Run:
    mover = _Mover(run)
    mover.follow(step)
    return mover.to_run()


def _move_forced(run: Run, variant: MechanicaVariant) -> Run:
    """Take forced movement steps until a bot faces a decision or every bot has stopped: each bot's forced
    steps at once, by its route from where it stands (memoised per floor layout, :func:`_routes`)."""
    mover = _Mover(run)
    routes = _routes(run.factory, variant)
    while mover.moving:
        head = mover.moving[0]
        key = (head.node, head.visited)
        route = routes.get(key)
        if route is None:
            route = routes[key] = _route(run.factory, variant, head.node, head.visited)
        if mover.take(route):
            break
    return mover.to_run()


_LOOP_STEP = Step(destroy="MC-MOVE-LOOP", rule="MC-MOVE-LOOP")


def head_options(run: Run, variant: MechanicaVariant) -> tuple[Step, ...]:
    """The options of the bot at the head of the queue, with MC-MOVE-LOOP applied first."""
    head = run.moving[0]
    node = head.node
    r, c, _h = node
    if on_floor(r, c) and head.visited >> node_code(node) & 1:
        return (_LOOP_STEP,)
    table = options_table(run.factory, variant)
    steps = table.get(node)
    if steps is None:
        steps = table[node] = table_options(run.factory, variant, node)
    return steps


def _pour(run: Run) -> Run:
    """All bots have moved: put each arrived bot into its bin (crowding allowed until MC-COLLIDE)."""
    factory = run.factory  # the bots change, not the tiles: the with_* copies pass the board's layout on
    for bin_id, bot in run.arrived:
        if bin_id >= TRUCK_BIN:
            t = factory.dock[bin_id - TRUCK_BIN]
            factory = factory.with_truck(bin_id - TRUCK_BIN, Truck(t.kind, (*t.load, bot)))
        else:
            p = factory.floor[bin_id]
            assert p is not None
            r, c = divmod(bin_id, COLS)
            factory = factory.with_cell(r, c, evolve(p, inputs=tuple(sorted((*p.inputs, bot)))))
    return _copy(run, factory=factory, arrived=(), phase=RunPhase.COLLIDE)


def _bins(run: Run, variant: MechanicaVariant) -> list[tuple[int, int, int, tuple[Bot, ...]]]:
    """(row, col, capacity, bots) of every bin that holds bots; col 4 is a truck."""
    cat = variant.catalogue
    out = []
    for i, p in enumerate(run.factory.floor):
        if p is not None and p.inputs:
            r, c = divmod(i, COLS)
            out.append((r, c, cat.tile(p.kind).inputs, p.inputs))
    for r, t in enumerate(run.factory.dock):
        if t.load:
            out.append((r, DOCK_COL, cat.tile(t.kind).capacity, t.load))
    return out


def _discard(run: Run, row: int, col: int, bot: Bot) -> Run:
    coverage.effect("MC-COLLIDE")
    factory = run.factory
    if col == DOCK_COL:
        t = factory.dock[row]
        load = list(t.load)
        load.remove(bot)
        factory = factory.with_truck(row, Truck(t.kind, tuple(load)))
    else:
        p = factory.at(row, col)
        assert p is not None
        inputs = list(p.inputs)
        inputs.remove(bot)
        factory = factory.with_cell(row, col, evolve(p, inputs=tuple(inputs)))
    return evolve(run, factory=factory, stock=_give_back(run.stock, [bot]), destroyed=run.destroyed + 1)


def _collision_choices(run: Run, variant: MechanicaVariant) -> tuple[Run, tuple[Discard, ...]]:
    """Resolve forced collisions; return the first one that needs the owner's choice, if any."""
    for r, c, cap, bots in _bins(run, variant):
        if len(bots) <= cap:
            continue
        kinds = sorted(set(bots))
        if len(kinds) == 1:
            for _ in range(len(bots) - cap):
                run = _discard(run, r, c, kinds[0])
            continue
        return run, tuple(Discard(r, c, b) for b in kinds)
    return run, ()


def _place_charges(run: Run, variant: MechanicaVariant) -> Run:
    """MC-CHARGE: each pass through a Static Charger makes a Basic bot into one of its output holes."""
    if not any(run.charges):
        return run
    coverage.effect("MC-CHARGE")
    factory, stock = run.factory, run.stock
    for i, n in enumerate(run.charges):
        if not n:
            continue
        p = factory.floor[i]
        assert p is not None
        holes = list(p.outputs)
        for h in range(len(holes)):
            if n and holes[h] is None:
                stock, got = _take(stock, Bot.BASIC, 1)
                if got:
                    holes[h] = Bot.BASIC
                n -= 1
        r, c = divmod(i, COLS)
        factory = factory.with_cell(r, c, evolve(p, outputs=tuple(holes)))
    return evolve(run, factory=factory, stock=stock, charges=(0,) * (ROWS * COLS))


# --- activation -------------------------------------------------------------------------------------


def _activation_choices(run: Run, variant: MechanicaVariant) -> tuple[Change | ChooseOutput, ...]:
    p = run.factory.floor[run.cursor]
    assert p is not None
    r, c = divmod(run.cursor, COLS)
    kind = variant.catalogue.tile(p.kind)
    if kind.effect is Effect.CHANGE:
        return tuple(Change(r, c, b) for b in Bot)
    return tuple(ChooseOutput(r, c, h) for h in range(len(kind.outputs)))


def _needs_choice(p: Placed, variant: MechanicaVariant) -> bool:
    kind = variant.catalogue.tile(p.kind)
    if kind.effect is Effect.CHANGE:
        return len(p.inputs) >= kind.inputs
    if kind.effect is Effect.DOWNGRADE:
        return p.inputs[0] is Bot.BASIC and len(kind.outputs) > 1
    return False


def _activate(run: Run, variant: MechanicaVariant, choice: Bot | int | None) -> Run:
    """Activate the improvement under the cursor (MC-ACT-*) and move the cursor on."""
    coverage.effect("MC-ACT")
    i = run.cursor
    p = run.factory.floor[i]
    assert p is not None and p.inputs
    kind = variant.catalogue.tile(p.kind)
    stock = run.stock
    outputs: list[Bot | None] = list(p.outputs)
    inputs: tuple[Bot, ...] = ()
    bot = p.inputs[0]
    if kind.effect is Effect.UPGRADE:
        # MC-ACT-UPGRADE: one grade up; a Deluxe bot stays Deluxe and is moved as it is
        coverage.effect("MC-ACT-UPGRADE")
        if bot is Bot.DELUXE:
            outputs[0] = bot
        else:
            stock = _give_back(stock, [bot])
            stock, got = _take(stock, Bot(bot + 1), 1)
            outputs[0] = Bot(bot + 1) if got else None
    elif kind.effect is Effect.DUPLICATE:
        # MC-ACT-DUPLICATE: the bot to one output hole, a copy from the stock to each other one
        coverage.effect("MC-ACT-DUPLICATE")
        outputs[0] = bot
        for h in range(1, len(outputs)):
            stock, got = _take(stock, bot, 1)
            outputs[h] = bot if got else None
    elif kind.effect is Effect.DOWNGRADE:
        # MC-ACT-DOWNGRADE: one bot a grade lower into every output hole; a Basic bot stays one bot
        coverage.effect("MC-ACT-DOWNGRADE")
        if bot is Bot.BASIC:
            hole = choice if isinstance(choice, int) and not isinstance(choice, Bot) else 0
            outputs[hole] = bot
        else:
            stock = _give_back(stock, [bot])
            lower = Bot(bot - 1)
            for h in range(len(outputs)):
                stock, got = _take(stock, lower, 1)
                outputs[h] = lower if got else None
    elif kind.effect is Effect.CHANGE:
        # MC-ACT-CHANGE: waits for two bots; then both go and one bot of the owner's choice comes out
        coverage.effect("MC-ACT-CHANGE")
        if len(p.inputs) >= kind.inputs:
            assert isinstance(choice, Bot)
            stock = _give_back(stock, p.inputs)
            stock, got = _take(stock, choice, 1)
            outputs[0] = choice if got else None
        else:
            inputs = p.inputs
    r, c = divmod(i, COLS)
    factory = run.factory.with_cell(r, c, evolve(p, inputs=inputs, outputs=tuple(outputs)))
    return _copy(run, factory=factory, stock=stock, cursor=i + 1)


# --- the driver -------------------------------------------------------------------------------------


def _holds_inputs(p: Placed | None) -> bool:
    return p is not None and bool(p.inputs)


def advance(run: Run, variant: MechanicaVariant) -> Run:
    """Take every forced step until the owner must decide or the run is done."""
    while True:
        if run.phase is RunPhase.MOVE:
            if run.moving:
                run = _move_forced(run, variant)
                if run.moving:
                    return run
            run = _pour(run)
            crowded = sum(1 for _r, _c, cap, bots in _bins(run, variant) if len(bots) > cap)
            if crowded:  # MC-HOLE: more bots than the holes hold
                coverage.effect("MC-HOLE")
            run = _copy(run, collisions=run.collisions + crowded)
        elif run.phase is RunPhase.COLLIDE:
            run, choices = _collision_choices(run, variant)
            if choices:
                return run
            run = _copy(_place_charges(run, variant), phase=RunPhase.ACTIVATE)
        elif run.phase is RunPhase.ACTIVATE:
            floor = run.factory.floor
            i = run.cursor
            while i < len(floor) and not _holds_inputs(floor[i]):
                i += 1
            if i >= len(floor):
                return _copy(run, cursor=len(floor), phase=RunPhase.DONE)
            run = _copy(run, cursor=i)
            p = floor[i]
            assert p is not None
            if _needs_choice(p, variant):
                return run
            run = _activate(run, variant, None)
        else:
            return run


def decisions(run: Run, variant: MechanicaVariant) -> tuple[RunDecision, ...]:
    """The owner's legal decisions, in a fixed order; empty when the run is done."""
    if run.phase is RunPhase.MOVE and run.moving:
        head = run.moving[0]
        r, c, _h = head.node
        out: list[RunDecision] = []
        for s in head_options(run, variant):
            if isinstance(s.label, Dir):
                out.append(Route(r, c, s.label))
            elif isinstance(s.label, tuple):
                out.append(Fly(r, c, s.label[0], s.label[1]))
        return tuple(out)
    if run.phase is RunPhase.COLLIDE:
        return _collision_choices(run, variant)[1]
    if run.phase is RunPhase.ACTIVATE:
        return _activation_choices(run, variant)
    return ()


def decide(run: Run, variant: MechanicaVariant, action: RunDecision) -> Run:
    """Apply one decision; raise IllegalAction (naming the rule) if it is not a legal one here."""
    legal = decisions(run, variant)
    if action not in legal:
        rule = {
            Route: "MC-FORK",
            Fly: "MC-FLIGHT",
            Discard: "MC-COLLIDE",
            Change: "MC-ACT-CHANGE",
            ChooseOutput: "MC-ACT-DOWNGRADE",
        }.get(type(action), "MC-RUN")
        if not legal:
            raise IllegalAction(rule, f"{action!r}: the workday run awaits no decision")
        raise IllegalAction(rule, f"{action!r} is not legal now; legal: {', '.join(map(repr, legal))}")
    if isinstance(action, Route | Fly):
        for s in head_options(run, variant):
            if (isinstance(action, Route) and s.label == action.exit) or (
                isinstance(action, Fly) and s.label == (action.to_row, action.to_col)
            ):
                return advance(_follow(run, s), variant)
        raise AssertionError("unreachable: a legal routing decision has a step")
    if isinstance(action, Discard):
        return advance(_discard(run, action.row, action.col, action.bot), variant)
    if isinstance(action, Change):
        return advance(_activate(run, variant, action.bot), variant)
    return advance(_activate(run, variant, action.hole), variant)


Policy = Callable[[Run, tuple[RunDecision, ...]], RunDecision]


def first_choice(run: Run, legal: tuple[RunDecision, ...]) -> RunDecision:
    return legal[0]


def run_workday(
    factory: Factory, stock: tuple[int, int, int], variant: MechanicaVariant, policy: Policy = first_choice
) -> Run:
    """A whole run, the owner's decisions taken by ``policy``."""
    run = start_run(factory, stock, variant)
    while run.phase is not RunPhase.DONE:
        run = decide(run, variant, policy(run, decisions(run, variant)))
    return run


def cell_of(node: Node) -> tuple[int, int]:
    return node[0], node[1]


__all__ = [
    "LAND",
    "RUN_DECISION_TYPES",
    "Change",
    "ChooseOutput",
    "Discard",
    "Fly",
    "Moving",
    "Route",
    "Run",
    "RunDecision",
    "RunPhase",
    "advance",
    "cell_index",
    "decide",
    "decisions",
    "run_workday",
    "start_run",
]
