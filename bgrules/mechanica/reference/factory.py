"""Reference reading of the factory board's rules: tile sides, placement and movement options.

Written from docs/rules/mechanica.md (rule IDs below) and the component data only; it shares the board
records (:mod:`bgrules.mechanica.board`) and the catalogue (:mod:`bgrules.mechanica.components`) with the
fast engine, never its functions. Plain code: no memos.
"""

from __future__ import annotations

import attrs

from bgrules.core.errors import IllegalAction
from bgrules.mechanica.board import Factory, Placed, StartSlot, Truck
from bgrules.mechanica.components import Bot, Dir, Edge, Effect, TileKind, Zone
from bgrules.mechanica.variant import MechanicaVariant

ROWS = 3
COLS = 4
TRUCK_COL = 4
"""MC-BOARD: column 4 of a row is its truck."""
LAND = 4
"""The heading of a thrown bot landing on a cell from above (MC-FLIGHT)."""
TRUCK_BIN = 100
"""A truck's bin number is 100 + its row; a floor cell's is row * 4 + col."""

STEP = {Dir.N: (-1, 0), Dir.E: (0, 1), Dir.S: (1, 0), Dir.W: (0, -1)}

Node = tuple[int, int, int]


def on_floor(row: int, col: int) -> bool:
    return 0 <= row < ROWS and 0 <= col < COLS


def cell(row: int, col: int) -> int:
    return row * COLS + col


def side_edge(kind: TileKind, rotation: int, side: Dir) -> Edge:
    """The jigsaw side a tile turned ``rotation`` quarter turns clockwise shows on world side ``side``:
    the side that was at ``side - rotation`` at rotation 0 (MC-PLACE-ROT)."""
    return kind.edges[(side - rotation) % 4]


def sides_of(kind: TileKind, rotation: int, edge: Edge) -> tuple[Dir, ...]:
    return tuple(d for d in Dir if side_edge(kind, rotation, d) is edge)


def output_sides(kind: TileKind, rotation: int) -> tuple[Dir, ...]:
    """MC-MOVE-SRC: the world side each output hole's bot leaves by (the hole's side turned with the tile)."""
    return tuple(Dir((d + rotation) % 4) for d in kind.outputs)


# --- placement (MC-PLACE-*) ------------------------------------------------------------------------


def sides_fit(mine: Edge, theirs: Edge, strict: bool) -> bool:
    """MC-PLACE-FIT: an exit must meet an entrance; under ``jigsaw = "strict"`` flat must meet flat too."""
    if strict:
        return (mine, theirs) in ((Edge.EXIT, Edge.ENTRANCE), (Edge.ENTRANCE, Edge.EXIT), (Edge.FLAT, Edge.FLAT))
    if mine is Edge.EXIT and theirs is not Edge.ENTRANCE:
        return False
    return not (theirs is Edge.EXIT and mine is not Edge.ENTRANCE)


def placement_problem(
    factory: Factory, variant: MechanicaVariant, key: str, row: int, col: int, rotation: int
) -> tuple[str, str] | None:
    """The rule a floor installation breaks, with a reason, or None (MC-PLACE-ZONE, MC-PLACE-FREE,
    MC-PLACE-ROT, MC-PLACE-FIT, MC-MOVE-OFF and MC-MOVE-LOOP under their ``forbid`` rulings)."""
    cat = variant.catalogue
    kind = cat.tiles.get(key)
    if kind is None or kind.zone is not Zone.FLOOR or kind.printed:
        return ("MC-PLACE-ZONE", f"{key!r} is not a floor tile")
    if not on_floor(row, col):
        return ("MC-PLACE-FREE", f"({row}, {col}) is not a floor cell")
    if rotation not in range(4):
        return ("MC-PLACE-ROT", f"rotation {rotation} is not 0-3")
    if factory.floor[cell(row, col)] is not None:
        return ("MC-PLACE-FREE", f"({row}, {col}) already holds a tile")
    strict = variant.rulings.jigsaw == "strict"
    for side in Dir:
        dr, dc = STEP[side]
        nr, nc = row + dr, col + dc
        if not on_floor(nr, nc):
            continue
        other = factory.floor[cell(nr, nc)]
        if other is None:
            continue
        theirs = side_edge(cat.tile(other.kind), other.rotation, Dir((side + 2) % 4))
        if not sides_fit(side_edge(kind, rotation, side), theirs, strict):
            return ("MC-PLACE-FIT", f"side {side.name} does not fit the tile on ({nr}, {nc})")
    if variant.rulings.off_floor == "forbid":
        for side in sides_of(kind, rotation, Edge.EXIT):
            dr, dc = STEP[side]
            nr, nc = row + dr, col + dc
            if not on_floor(nr, nc) and not (side is Dir.E and nc == TRUCK_COL):
                return ("MC-MOVE-OFF", f"the exit {side.name} leads off the floor")
    if variant.rulings.loop == "forbid":
        placed = Placed(key, rotation, (), (None,) * len(kind.outputs))
        if has_loop(with_cell(factory, row, col, placed), variant):
            return ("MC-MOVE-LOOP", "a bot could loop")
    return None


def placements(factory: Factory, variant: MechanicaVariant, key: str) -> tuple[tuple[int, int, int], ...]:
    """Every legal (row, col, rotation) for floor tile ``key``, in that order (MC-PLACE)."""
    return tuple(
        (r, c, rot)
        for r in range(ROWS)
        for c in range(COLS)
        for rot in range(4)
        if factory.floor[cell(r, c)] is None and placement_problem(factory, variant, key, r, c, rot) is None
    )


def with_cell(factory: Factory, row: int, col: int, placed: Placed | None) -> Factory:
    floor = list(factory.floor)
    floor[cell(row, col)] = placed
    return attrs.evolve(factory, floor=tuple(floor))


def with_start(factory: Factory, row: int, slot: StartSlot) -> Factory:
    start = list(factory.start)
    start[row] = slot
    return attrs.evolve(factory, start=tuple(start))


def with_truck(factory: Factory, row: int, truck: Truck) -> Factory:
    dock = list(factory.dock)
    dock[row] = truck
    return attrs.evolve(factory, dock=tuple(dock))


def install(factory: Factory, variant: MechanicaVariant, key: str, row: int, col: int, rotation: int) -> Factory:
    """MC-PLACE: an empty tile of ``key`` on (row, col), or IllegalAction naming the rule broken."""
    problem = placement_problem(factory, variant, key, row, col, rotation)
    if problem is not None:
        raise IllegalAction(*problem)
    kind = variant.catalogue.tile(key)
    return with_cell(factory, row, col, Placed(key, rotation, (), (None,) * len(kind.outputs)))


def start_problem(factory: Factory, variant: MechanicaVariant, key: str, row: int) -> tuple[str, str] | None:
    """MC-PLACE-START / MC-PLACE-ZONE: may fabricator tile ``key`` go on Start Zone row ``row``?"""
    kind = variant.catalogue.tiles.get(key)
    if kind is None or kind.zone is not Zone.START or kind.printed:
        return ("MC-PLACE-ZONE", f"{key!r} is not a fabricator tile")
    if row not in range(ROWS):
        return ("MC-PLACE-START", f"no Start Zone row {row}")
    here = variant.catalogue.tile(factory.start[row].kind)
    if not here.printed and not variant.rulings.fabricator_over_fabricator:
        return ("MC-PLACE-START", f"row {row} already holds a fabricator tile")
    return None


def install_start(factory: Factory, variant: MechanicaVariant, key: str, row: int) -> tuple[Factory, tuple[Bot, ...]]:
    """MC-PLACE-START: the covered holes' bots move into the new tile's holes in order; the rest spill."""
    problem = start_problem(factory, variant, key, row)
    if problem is not None:
        raise IllegalAction(*problem)
    kind = variant.catalogue.tile(key)
    old = [b for b in factory.start[row].holes if b is not None]
    n = len(kind.outputs)
    holes = tuple(old[i] if i < len(old) else None for i in range(n))
    return with_start(factory, row, StartSlot(key, holes)), tuple(old[n:])


def truck_problem(factory: Factory, variant: MechanicaVariant, key: str, row: int) -> tuple[str, str] | None:
    """MC-PLACE-TRUCK / MC-PLACE-ZONE: a truck tile goes only over a smaller truck."""
    kind = variant.catalogue.tiles.get(key)
    if kind is None or kind.zone is not Zone.DOCK or kind.printed:
        return ("MC-PLACE-ZONE", f"{key!r} is not a truck tile")
    if row not in range(ROWS):
        return ("MC-PLACE-TRUCK", f"no Loading Dock row {row}")
    if kind.capacity <= variant.catalogue.tile(factory.dock[row].kind).capacity:
        return ("MC-PLACE-TRUCK", f"{key} is not larger than the truck on row {row}")
    return None


def install_truck(factory: Factory, variant: MechanicaVariant, key: str, row: int) -> Factory:
    """MC-PLACE-TRUCK: the larger truck covers the old one; the load stays on."""
    problem = truck_problem(factory, variant, key, row)
    if problem is not None:
        raise IllegalAction(*problem)
    return with_truck(factory, row, Truck(key, factory.dock[row].load))


def demolish(factory: Factory, row: int, col: int) -> tuple[Factory, str, tuple[Bot, ...]]:
    """MC-DEMOLISH: the floor tile leaves; the bots in its holes are destroyed (returned)."""
    if not on_floor(row, col) or factory.floor[cell(row, col)] is None:
        raise IllegalAction("MC-DEMOLISH", f"no floor tile on ({row}, {col})")
    placed = factory.floor[cell(row, col)]
    assert placed is not None
    bots = (*placed.inputs, *(b for b in placed.outputs if b is not None))
    return with_cell(factory, row, col, None), placed.kind, bots


def printed_slot(row: int) -> StartSlot:
    """MC-BOARD: the printed Basic Fabricator in row 1, printed holes elsewhere."""
    return StartSlot("basic_fabricator" if row == 1 else "start_hole", (None,))


def demolish_start(factory: Factory, variant: MechanicaVariant, row: int) -> tuple[Factory, str, tuple[Bot, ...]]:
    """MC-DEMOLISH: a fabricator tile leaves, uncovering the printed slot; its bots are destroyed."""
    if row not in range(ROWS) or variant.catalogue.tile(factory.start[row].kind).printed:
        raise IllegalAction("MC-DEMOLISH", f"no fabricator tile on Start Zone row {row}")
    slot = factory.start[row]
    return with_start(factory, row, printed_slot(row)), slot.kind, tuple(b for b in slot.holes if b is not None)


# --- movement (MC-MOVE-*, MC-GIFT, MC-CHARGE, MC-FORK, MC-FLIGHT) ------------------------------------


@attrs.frozen
class Way:
    """One way a bot about to enter a node may go: on to ``then``, into bin ``arrive``, or destroyed
    (``destroy`` names the rule). ``label`` is the owner's choice (a Fork's side, a landing cell)."""

    then: Node | None = None
    """MC-MOVE: the node the bot goes on to."""
    arrive: int | None = None
    """MC-MOVE-STOP: the bin it stops in (a floor cell's input holes, or ``TRUCK_BIN`` + row)."""
    destroy: str | None = None
    """The rule that destroys it (MC-MOVE-EDGE, MC-MOVE-OFF, MC-FLIGHT-NONE, MC-MOVE-LOOP)."""
    label: Dir | tuple[int, int] | None = None
    gift: int = 0
    """MC-GIFT: the coins a Gift Wrapper passed on the way puts in the vault."""
    jump: int = 0
    """MC-FLIGHT-JUMP: the coins of a throw over a tile."""
    charge: int | None = None
    """MC-CHARGE: the cell of the Static Charger the bot passes."""


def next_node(row: int, col: int, side: Dir) -> Node:
    dr, dc = STEP[side]
    return (row + dr, col + dc, int(side))


def lands_on(variant: MechanicaVariant, placed: Placed | None) -> bool:
    """MC-FLIGHT: a bare belt and every improvement are landing places; a Fork only under ``any_cell``."""
    if placed is None or variant.rulings.flight_landing == "any_cell":
        return True
    return variant.catalogue.tile(placed.kind).effect is not Effect.FORK


def throws(factory: Factory, variant: MechanicaVariant, row: int, col: int, flat: Dir) -> list[Way]:
    """MC-FLIGHT, MC-FLIGHT-JUMP: the landing places toward ``flat`` (both ways under ``flight =
    "both_ways"``), the row's truck when throwing east; a coin when the throw passes over a tile."""
    ways: list[Way] = []
    for d in (flat,) if variant.rulings.flight == "flat_side" else (flat, Dir((flat + 2) % 4)):
        dr, dc = STEP[d]
        r, c = row + dr, col + dc
        over = False
        while True:
            if d is Dir.E and c == TRUCK_COL and 0 <= r < ROWS:
                ways.append(Way(label=(r, c), then=(r, c, LAND), jump=int(over)))
                break
            if not on_floor(r, c):
                break
            placed = factory.floor[cell(r, c)]
            if lands_on(variant, placed):
                ways.append(Way(label=(r, c), then=(r, c, LAND), jump=int(over)))
            if placed is not None:
                over = True
            r, c = r + dr, c + dc
    return sorted(ways, key=lambda w: w.then or (0, 0, 0))


def ways(factory: Factory, variant: MechanicaVariant, node: Node) -> tuple[Way, ...]:
    """Every way a bot about to enter ``node`` = (row, col, heading) may go (MC-MOVE-*)."""
    r, c, h = node
    if c == TRUCK_COL and 0 <= r < ROWS:
        return (Way(arrive=TRUCK_BIN + r),)  # MC-MOVE-STOP: the truck
    if not on_floor(r, c):
        return (Way(destroy="MC-MOVE-OFF"),)
    placed = factory.floor[cell(r, c)]
    if placed is None:
        return (Way(then=(r, c + 1, int(Dir.E))),)  # MC-MOVE-BELT
    kind = variant.catalogue.tile(placed.kind)
    if h != LAND and side_edge(kind, placed.rotation, Dir((h + 2) % 4)) is not Edge.ENTRANCE:
        return (Way(destroy="MC-MOVE-EDGE"),)
    if kind.inputs > 0:
        return (Way(arrive=cell(r, c)),)  # MC-MOVE-STOP: its input holes
    exits = sides_of(kind, placed.rotation, Edge.EXIT)
    if kind.effect is Effect.FLIGHT:
        flats = sides_of(kind, placed.rotation, Edge.FLAT)
        found = throws(factory, variant, r, c, flats[0]) if flats else []
        return tuple(found) if found else (Way(destroy="MC-FLIGHT-NONE"),)
    gift = 1 if kind.effect is Effect.GIFT else 0
    charge = cell(r, c) if kind.effect is Effect.CHARGE else None
    out = tuple(Way(label=d, then=next_node(r, c, d), gift=gift, charge=charge) for d in exits)
    if kind.effect is not Effect.FORK and len(out) == 1:
        return (attrs.evolve(out[0], label=None),)
    return out if out else (Way(destroy="MC-MOVE-EDGE"),)


def successors(factory: Factory, variant: MechanicaVariant, node: Node) -> list[Node]:
    return [w.then for w in ways(factory, variant, node) if w.then is not None]


def has_loop(factory: Factory, variant: MechanicaVariant) -> bool:
    """MC-MOVE-LOOP: is there a cycle of on-floor nodes some bot could follow for some choices? (A depth
    first search over every node of every cell and heading.)"""
    nodes = [(r, c, h) for r in range(ROWS) for c in range(COLS) for h in range(5)]
    succ = {n: [m for m in successors(factory, variant, n) if on_floor(m[0], m[1])] for n in nodes}
    colour: dict[Node, int] = {}

    def visit(start: Node) -> bool:
        stack = [(start, iter(succ[start]))]
        colour[start] = 1
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                colour[node] = 2
                stack.pop()
                continue
            state = colour.get(nxt, 0)
            if state == 1:
                return True
            if state == 0:
                colour[nxt] = 1
                stack.append((nxt, iter(succ[nxt])))
        return False

    return any(colour.get(n, 0) == 0 and visit(n) for n in nodes)


def launches(factory: Factory, variant: MechanicaVariant) -> list[tuple[Bot, Node]]:
    """MC-MOVE-SRC: every bot in a Start Zone hole (entering column 0 of its row from the west, by its
    tile's output side) and in a floor tile's output hole (by its hole's side), Start Zone rows top to
    bottom, then floor cells row by row, holes in order."""
    cat = variant.catalogue
    out: list[tuple[Bot, Node]] = []
    for r, slot in enumerate(factory.start):
        sides = cat.tile(slot.kind).outputs
        for i, bot in enumerate(slot.holes):
            if bot is not None:
                side = sides[i] if i < len(sides) else Dir.E
                out.append((bot, next_node(r, -1, side)))
    for i, placed in enumerate(factory.floor):
        if placed is None:
            continue
        r, c = divmod(i, COLS)
        sides = output_sides(cat.tile(placed.kind), placed.rotation)
        for j, bot in enumerate(placed.outputs):
            if bot is not None:
                out.append((bot, next_node(r, c, sides[j])))
    return out


def board_problems(factory: Factory, variant: MechanicaVariant) -> list[str]:
    """Every way a whole board breaks the board and placement rules (empty: a valid board): MC-PLACE-ZONE,
    MC-PLACE-FIT between every two touching floor tiles, MC-HOLE, MC-BOARD (the printed Basic Fabricator
    in row 1 only), and MC-MOVE-OFF / MC-MOVE-LOOP under their ``forbid`` rulings."""
    cat = variant.catalogue
    out: list[str] = []
    strict = variant.rulings.jigsaw == "strict"
    for i, placed in enumerate(factory.floor):
        if placed is None:
            continue
        r, c = divmod(i, COLS)
        kind = cat.tiles.get(placed.kind)
        if kind is None or kind.zone is not Zone.FLOOR or kind.printed:
            out.append(f"MC-PLACE-ZONE: ({r}, {c}) holds {placed.kind!r}, no floor tile")
            continue
        if len(placed.inputs) > kind.inputs or len(placed.outputs) != len(kind.outputs):
            out.append(f"MC-HOLE: ({r}, {c}) holds more bots than its holes")
        for side in (Dir.E, Dir.S):
            dr, dc = STEP[side]
            if not on_floor(r + dr, c + dc):
                continue
            other = factory.floor[cell(r + dr, c + dc)]
            if other is None or other.kind not in cat.tiles:
                continue
            theirs = side_edge(cat.tile(other.kind), other.rotation, Dir((side + 2) % 4))
            if not sides_fit(side_edge(kind, placed.rotation, side), theirs, strict):
                out.append(f"MC-PLACE-FIT: ({r}, {c}) and ({r + dr}, {c + dc}) do not fit")
        if variant.rulings.off_floor == "forbid":
            for side in sides_of(kind, placed.rotation, Edge.EXIT):
                dr, dc = STEP[side]
                if not on_floor(r + dr, c + dc) and not (side is Dir.E and c + dc == TRUCK_COL):
                    out.append(f"MC-MOVE-OFF: the exit {side.name} of ({r}, {c}) leads off the floor")
    for r, slot in enumerate(factory.start):
        kind = cat.tiles.get(slot.kind)
        if kind is None or kind.zone is not Zone.START:
            out.append(f"MC-PLACE-ZONE: Start Zone row {r} holds {slot.kind!r}")
            continue
        if slot.kind == "basic_fabricator" and r != 1:
            out.append(f"MC-BOARD: the printed Basic Fabricator is in row 1, not row {r}")
        if kind.printed and slot.kind != printed_slot(r).kind:
            out.append(f"MC-BOARD: row {r} shows {slot.kind!r}, not its printed slot")
        if len(slot.holes) != len(kind.outputs):
            out.append(f"MC-HOLE: Start Zone row {r} has {len(slot.holes)} holes, not {len(kind.outputs)}")
    for r, truck in enumerate(factory.dock):
        kind = cat.tiles.get(truck.kind)
        if kind is None or kind.zone is not Zone.DOCK:
            out.append(f"MC-PLACE-ZONE: Loading Dock row {r} holds {truck.kind!r}")
        elif len(truck.load) > kind.capacity:
            out.append(f"MC-HOLE: the truck of row {r} holds more than {kind.capacity}")
    if not out and variant.rulings.loop == "forbid" and has_loop(factory, variant):
        out.append("MC-MOVE-LOOP: a bot could loop")
    return out
