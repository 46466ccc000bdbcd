"""Where a moving bot goes: the movement rules of a workday (MC-MOVE-*), one node at a time.

A node is ``(row, col, heading)``: the cell a bot is about to enter and the way it is moving
(a :class:`Dir` value, or :data:`LAND` for a bot landing from a Flight Tester's throw). Column 4 is the
row's truck. :func:`options` lists what may happen next; more than one option is a player decision
(a Fork's exit, a Flight Tester's landing place). The workday run, the loop check and the z3 encoding
all read movement from this one function.
"""

from __future__ import annotations

import attrs

from bgrules.mechanica.board import COLS, DOCK_COL, ROWS, Factory, cell_index, on_floor
from bgrules.mechanica.components import DELTA, Dir, Edge, Effect
from bgrules.mechanica.variant import MechanicaVariant

LAND = 4
"""Heading of a bot landing from a throw: it enters the cell from above, by no side."""

Node = tuple[int, int, int]
TRUCK_BIN = 100
"""Bin numbers: 0-11 are floor cells' input holes, TRUCK_BIN + row is that row's truck."""


def node_code(node: Node) -> int:
    """A small integer for an on-floor node (for visited sets and the z3 encoding)."""
    r, c, h = node
    return (r * COLS + c) * 5 + h


NODE_CODES = CELLS_X5 = ROWS * COLS * 5


@attrs.frozen
class Step:
    """One way a bot may go from a node. Exactly one of ``then``, ``arrive``, ``destroy`` is set."""

    label: Dir | tuple[int, int] | None = None
    """What the owner chooses: a Fork's exit side, or a Flight Tester's landing cell; None if forced."""
    then: Node | None = None
    arrive: int | None = None
    destroy: str | None = None
    gift: int = 0
    jump: int = 0
    charge: int | None = None
    rule: str = "MC-MOVE-BELT"


def bin_of_truck(row: int) -> int:
    return TRUCK_BIN + row


def launch_nodes(factory: Factory, variant: MechanicaVariant) -> list[tuple[str, int, int, Node]]:
    """MC-MOVE-SRC: every bot in an output or fabricator hole leaves at once (a Start Zone hole sits west
    of column 0 and leaves by its tile's exit side). Returns, in a fixed order
    (Start Zone rows top to bottom, then floor cells row by row), (area, index, hole, first node)."""
    cat = variant.catalogue
    out: list[tuple[str, int, int, Node]] = []
    for r, slot in enumerate(factory.start):
        dirs = cat.tile(slot.kind).outputs
        for h, bot in enumerate(slot.holes):
            if bot is not None:
                d = dirs[h] if h < len(dirs) else Dir.E
                dr, dc = DELTA[d]
                out.append(("start", r, h, (r + dr, dc - 1, int(d))))
    for i, placed in enumerate(factory.floor):
        if placed is None:
            continue
        r, c = divmod(i, COLS)
        dirs = cat.tile(placed.kind).output_dirs(placed.rotation)
        for h, bot in enumerate(placed.outputs):
            if bot is not None:
                d = dirs[h]
                dr, dc = DELTA[d]
                out.append(("floor", i, h, (r + dr, c + dc, int(d))))
    return out


def lands_on(variant: MechanicaVariant, kind: str | None) -> bool:
    """MC-FLIGHT: may a thrown bot land on a floor cell holding a tile of ``kind`` (None: a bare belt)?
    Under ``flight_landing = "skip_forks"`` (the seed, 装置の上かベルトコンベアの上かトラック: on an
    improvement, a belt or a truck) not on a Fork, which is neither; under ``"any_cell"`` anywhere."""
    if kind is None or variant.rulings.flight_landing == "any_cell":
        return True
    return variant.catalogue.tile(kind).effect is not Effect.FORK


def flight_targets(factory: Factory, variant: MechanicaVariant, row: int, col: int, flat: Dir) -> list[Step]:
    """MC-FLIGHT: the landing places of a throw from the Flight Tester at (row, col) whose flat side is
    ``flat``: cells of its row (flat side east or west) or column (north or south) toward the flat side
    (or both ways, by variant), but a Fork's (:func:`lands_on`), and the row's truck when throwing east.
    MC-FLIGHT-JUMP: one wallet coin when the throw passes over any improvement or Fork."""
    dirs = [flat] if variant.rulings.flight == "flat_side" else [flat, flat.opposite]
    every_cell = variant.rulings.flight_landing == "any_cell"
    steps: list[Step] = []
    for d in dirs:
        dr, dc = DELTA[d]
        r, c = row + dr, col + dc
        jumped = False
        while on_floor(r, c) or (d is Dir.E and c == DOCK_COL and 0 <= r < ROWS):
            if c == DOCK_COL:
                steps.append(Step(label=(r, c), then=(r, c, LAND), jump=1 if jumped else 0, rule="MC-FLIGHT"))
                break
            placed = factory.at(r, c)
            if every_cell or placed is None or lands_on(variant, placed.kind):
                steps.append(Step(label=(r, c), then=(r, c, LAND), jump=1 if jumped else 0, rule="MC-FLIGHT"))
            if placed is not None:
                jumped = True
            r, c = r + dr, c + dc
    steps.sort(key=lambda s: s.then or (0, 0, 0))
    return steps


def options(factory: Factory, variant: MechanicaVariant, node: Node) -> tuple[Step, ...]:
    """Every way a bot about to enter ``node`` may go (one forced step, or a decision)."""
    r, c, h = node
    if c == DOCK_COL and 0 <= r < ROWS:
        return (Step(arrive=bin_of_truck(r), rule="MC-MOVE-STOP"),)
    if not on_floor(r, c):
        return (Step(destroy="MC-MOVE-OFF", rule="MC-MOVE-OFF"),)
    placed = factory.at(r, c)
    if placed is None:
        return (Step(then=(r, c + 1, int(Dir.E)), rule="MC-MOVE-BELT"),)
    kind = variant.catalogue.tile(placed.kind)
    rot = placed.rotation
    if h != LAND and variant.catalogue.world_edges(placed.kind, rot)[(h + 2) % 4] is not Edge.ENTRANCE:
        return (Step(destroy="MC-MOVE-EDGE", rule="MC-MOVE-EDGE"),)
    if kind.inputs > 0:
        return (Step(arrive=cell_index(r, c), rule="MC-MOVE-STOP"),)
    effect = kind.effect
    if effect is Effect.FLIGHT:
        flat = kind.flats(rot)[0]
        targets = flight_targets(factory, variant, r, c, flat)
        if not targets:
            return (Step(destroy="MC-FLIGHT-NONE", rule="MC-FLIGHT-NONE"),)
        return tuple(targets)
    exits = kind.exits(rot)
    gift = 1 if effect is Effect.GIFT else 0
    charge = cell_index(r, c) if effect is Effect.CHARGE else None
    rule = {Effect.GIFT: "MC-GIFT", Effect.CHARGE: "MC-CHARGE", Effect.FORK: "MC-FORK"}.get(effect, "MC-MOVE-BELT")
    steps = []
    for d in exits:
        dr, dc = DELTA[d]
        steps.append(
            Step(
                label=d if len(exits) > 1 else None,
                then=(r + dr, c + dc, int(d)),
                gift=gift,
                charge=charge,
                rule=rule,
            )
        )
    if not steps:
        return (Step(destroy="MC-MOVE-EDGE", rule="MC-MOVE-EDGE"),)
    return tuple(steps)


TABLES = "options tables"
"""The catalogue's memo (``Catalogue.memos``) of :func:`options_table`: (rulings, floor layout) -> table."""


def options_table(factory: Factory, variant: MechanicaVariant) -> dict[Node, tuple[Step, ...]]:
    """A memo of :func:`options` for one floor layout (tiles and rotations; bots do not matter), filled
    lazily by the caller. Kept in the catalogue's memos, keyed on the rulings and the layout."""
    memos = variant.catalogue.memos
    tables = memos.get(TABLES)
    if tables is None:
        tables = memos.memo(TABLES, 4096)
    key = (variant.rulings, factory.layout[0])
    found: dict[Node, tuple[Step, ...]] | None = tables.get(key)
    if found is not None:
        return found
    return memos.put(tables, key, {})


_SHARED_STEPS: dict[object, object] = {}
"""The one instance of each Step and of each tuple of Steps the tables hold (bounded)."""


def table_options(factory: Factory, variant: MechanicaVariant, node: Node) -> tuple[Step, ...]:
    """:func:`options` as an options table keeps it: the one shared tuple of shared Steps equal to it, so
    that many tables hold few objects for the cyclic collector's full passes to visit (docs/speed.md)."""
    steps = options(factory, variant, node)
    pool = _SHARED_STEPS
    found = pool.get(steps)
    if found is None:
        if len(pool) > 4096:
            pool.clear()
        found = pool[steps] = tuple([pool.setdefault(step, step) for step in steps])
    return found  # type: ignore[return-value]


def find_loop(factory: Factory, variant: MechanicaVariant) -> str | None:
    """MC-MOVE-LOOP: a cycle of nodes some bot could follow forever (for some choices), or None.

    The result names the cycle's cells in order, e.g. ``(0,0)S -> (1,0)E -> ...``.
    """
    succ: dict[Node, list[Node]] = {}
    for r in range(ROWS):
        for c in range(COLS):
            for h in range(5):
                node = (r, c, h)
                succ[node] = [s.then for s in options(factory, variant, node) if s.then is not None]
    state: dict[Node, int] = {}
    for start in sorted(succ):
        if start in state:
            continue
        stack: list[tuple[Node, int]] = [(start, 0)]
        path: list[Node] = [start]
        state[start] = 1
        while stack:
            node, i = stack[-1]
            nexts = [n for n in succ.get(node, []) if n in succ]
            if i < len(nexts):
                stack[-1] = (node, i + 1)
                n = nexts[i]
                if state.get(n) == 1:
                    cycle = path[path.index(n) :]
                    return " -> ".join(f"({a},{b}){'NESWL'[x]}" for a, b, x in cycle)
                if n not in state:
                    state[n] = 1
                    stack.append((n, 0))
                    path.append(n)
            else:
                state[node] = 2
                stack.pop()
                path.pop()
    return None
