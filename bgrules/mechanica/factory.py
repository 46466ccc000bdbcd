"""The placement rules of a Mechanica factory board (MC-PLACE-*, MC-DEMOLISH) and its validity check.

The board itself (MC-BOARD: geometry, tiles, the bots in them) is :mod:`bgrules.mechanica.board`, whose
names this module re-exports for the modules that import them from here. The loop check (MC-MOVE-LOOP)
comes from :mod:`bgrules.mechanica.movement`, which reads the board module and not this one, so the
imports run one way: factory -> movement -> board.
"""

from __future__ import annotations

import operator

from bgrules.core import coverage
from bgrules.core.errors import IllegalAction
from bgrules.mechanica.board import (
    CELLS,
    COLS,
    DOCK_COL,
    ROWS,
    Factory,
    Layout,
    Placed,
    StartSlot,
    Truck,
    cell_index,
    empty_factory,
    installed_value,
    new_placed,
    new_start_slot,
    on_floor,
    printed_start,
    restock,
    starting_factory,
)
from bgrules.mechanica.components import DELTA, Bot, Catalogue, Dir, Edge, Effect, TileKind, Zone
from bgrules.mechanica.movement import find_loop
from bgrules.mechanica.variant import MechanicaVariant

# Enum members the functions below compare with, as module constants: under Python 3.11 each ``Phase.X``
# is looked up through EnumType.__getattr__'s hook, about 0.2 us a time on a hot path (docs/speed.md).
_Dir_E = Dir.E
_Dir_S = Dir.S
_Edge_ENTRANCE = Edge.ENTRANCE
_Edge_EXIT = Edge.EXIT
_Edge_FLAT = Edge.FLAT
_Effect_FABRICATE = Effect.FABRICATE
_Zone_DOCK = Zone.DOCK
_Zone_FLOOR = Zone.FLOOR
_Zone_START = Zone.START

__all__ = [
    "CELLS",
    "COLS",
    "DOCK_COL",
    "ROWS",
    "Factory",
    "Layout",
    "Placed",
    "StartSlot",
    "Truck",
    "cell_index",
    "check_install",
    "check_install_start",
    "check_install_truck",
    "demolish",
    "demolish_start",
    "edges_fit",
    "empty_factory",
    "factory_problems",
    "fit_problems",
    "install",
    "install_start",
    "install_truck",
    "installed_value",
    "legal_placements",
    "new_placed",
    "new_start_slot",
    "off_floor_exits",
    "on_floor",
    "printed_start",
    "restock",
    "starting_factory",
]

# --- placement -------------------------------------------------------------------------------------


def edges_fit(a: Edge, b: Edge, strict: bool) -> bool:
    """MC-PLACE-FIT for two touching sides. Published ruling: an exit (knob) must meet an entrance;
    ``strict`` also demands flat against flat and entrance against exit."""
    if strict:
        return (a, b) in ((_Edge_EXIT, _Edge_ENTRANCE), (_Edge_ENTRANCE, _Edge_EXIT), (_Edge_FLAT, _Edge_FLAT))
    if a is _Edge_EXIT:
        return b is _Edge_ENTRANCE
    if b is _Edge_EXIT:
        return a is _Edge_ENTRANCE
    return True


def fit_problems(
    factory: Factory, cat: Catalogue, kind: TileKind, row: int, col: int, rotation: int, strict: bool
) -> list[str]:
    problems = []
    for d in Dir:
        dr, dc = DELTA[d]
        r, c = row + dr, col + dc
        if not on_floor(r, c):
            continue
        other = factory.at(r, c)
        if other is None:
            continue
        mine = kind.edge(d, rotation)
        theirs = cat.tile(other.kind).edge(d.opposite, other.rotation)
        if not edges_fit(mine, theirs, strict):
            problems.append(
                f"its {d.name} side ({mine.value}) does not fit the {theirs.value} side of {other.kind} at ({r}, {c})"
            )
    return problems


_NEIGHBOURS = tuple(
    tuple((d, r + DELTA[d][0], c + DELTA[d][1]) for d in Dir if on_floor(r + DELTA[d][0], c + DELTA[d][1]))
    for r in range(ROWS)
    for c in range(COLS)
)


Placements = tuple[tuple[int, int, int], ...]

_PLACEMENTS = "placements"
"""The catalogue's memo (``Catalogue.memos``) of :func:`legal_placements`: rulings id -> (the rulings,
held: ids are reused; {(floor layout, tile key): placements})."""


def legal_placements(factory: Factory, variant: MechanicaVariant, key: str) -> tuple[tuple[int, int, int], ...]:
    """Every (row, col, rotation) where :func:`check_install` accepts ``key``, in that order; the same
    verdicts, computed from memoised edges (a test holds the two equal on random factories) and memoised
    per floor layout."""
    layout = factory.layout[0]
    rulings = variant.rulings
    memos = variant.catalogue.memos
    buckets = memos.get(_PLACEMENTS)
    if buckets is None:
        buckets = memos.memo(_PLACEMENTS, 100)
    bucket = buckets.get(id(rulings))
    if bucket is None or bucket[0] is not rulings:
        bucket = memos.put(buckets, id(rulings), (rulings, {}))
    memo: dict[tuple[object, str], Placements] = bucket[1]
    found = memo.get((layout, key))
    if found is not None:
        return found
    if len(memo) > 50_000:
        memo.clear()
    if variant.rulings.loop == "forbid":  # MC-MOVE-LOOP looks at the whole floor
        result = tuple(_legal_placements(factory, variant, key))
    else:
        result = _placements_by_cell(layout, variant, key)
    memo[(layout, key)] = result
    return result


_ROTATIONS = "rotations"
"""The catalogue's memo of the rotations that fit: (strict, kind) -> {the edges touching a cell's four
sides: rotations that fit}."""

_AROUND = tuple(operator.itemgetter(i, *(nr * COLS + nc for _d, nr, nc in _NEIGHBOURS[i])) for i in range(CELLS))
"""Per cell, the getter of its own layout entry and those of the cells touching it (a tuple)."""

_CELL_PLACEMENTS = "cell placements"
"""The catalogue's memo of each cell's placements: (strict, forbid off-floor exits, kind) -> per cell {the
layout entries of the cell and of the cells touching it: that cell's placements}."""


def _placements_by_cell(
    cells: tuple[tuple[str, int] | None, ...], variant: MechanicaVariant, key: str
) -> tuple[tuple[int, int, int], ...]:
    """:func:`_legal_placements` where no placement's verdict depends on more than the cell and the tiles
    touching it (MC-PLACE-FREE, MC-PLACE-FIT, MC-MOVE-OFF; not MC-MOVE-LOOP under ``loop = "forbid"``):
    each empty cell's placements memoised on the cell and the (kind, rotation) of its neighbours, the
    cells in order, so the same list in the same order."""
    cat = variant.catalogue
    kind = cat.tiles.get(key)
    if kind is None or kind.zone is not _Zone_FLOOR:
        return ()
    strict = variant.rulings.jigsaw == "strict"
    forbid_off = variant.rulings.off_floor == "forbid"
    memos = cat.memos
    buckets = memos.get(_CELL_PLACEMENTS)
    if buckets is None:
        buckets = memos.memo(_CELL_PLACEMENTS, 1_000)
    bucket: list[dict[tuple[object, ...], Placements]] | None = buckets.get((strict, forbid_off, key))
    if bucket is None:
        bucket = memos.put(buckets, (strict, forbid_off, key), [{} for _ in range(CELLS)])
    out: list[tuple[int, int, int]] = []
    for i, memo in enumerate(bucket):
        if cells[i] is not None:
            continue
        around = _AROUND[i](cells)
        found = memo.get(around)
        if found is None:
            if len(memo) > 20_000:
                memo.clear()
            found = memo[around] = _cell_placements(cells, cat, kind, i, strict, forbid_off)
        out.extend(found)
    return tuple(out)


def _cell_placements(
    cells: tuple[tuple[str, int] | None, ...],
    cat: Catalogue,
    kind: TileKind,
    i: int,
    strict: bool,
    forbid_off: bool,
) -> tuple[tuple[int, int, int], ...]:
    """The placements of ``kind`` on empty cell ``i`` of a floor laid as ``cells`` (MC-PLACE-FIT, and
    MC-MOVE-OFF under ``off_floor = "forbid"``), rotations in order."""
    r, c = divmod(i, COLS)
    touching: list[Edge | None] = [None, None, None, None]
    for d, nr, nc in _NEIGHBOURS[i]:
        other = cells[nr * COLS + nc]
        if other is not None:
            touching[d] = cat.world_edges(other[0], other[1])[(d + 2) % 4]
    out = []
    for rot in range(4):
        mine = cat.world_edges(kind.key, rot)
        if not all(theirs is None or edges_fit(mine[d], theirs, strict) for d, theirs in enumerate(touching)):
            continue
        if forbid_off and off_floor_exits(kind, r, c, rot):
            continue
        out.append((r, c, rot))
    return tuple(out)


def _legal_placements(factory: Factory, variant: MechanicaVariant, key: str) -> list[tuple[int, int, int]]:
    cat = variant.catalogue
    kind = cat.tiles.get(key)
    if kind is None or kind.zone is not _Zone_FLOOR:
        return []
    strict = variant.rulings.jigsaw == "strict"
    forbid_off = variant.rulings.off_floor == "forbid"
    forbid_loop = variant.rulings.loop == "forbid"
    out = []
    floor = factory.floor
    memo: dict[tuple[Edge | None, ...], tuple[int, ...]] = cat.memos.memo(_ROTATIONS, 1_000).setdefault(
        (strict, key), {}
    )
    for i in range(CELLS):
        if floor[i] is not None:
            continue
        r, c = divmod(i, COLS)
        # the edge each touching tile shows this cell, per side (None: nothing touches that side)
        touching: list[Edge | None] = [None, None, None, None]
        for d, nr, nc in _NEIGHBOURS[i]:
            other = floor[nr * COLS + nc]
            if other is not None:
                touching[d] = cat.world_edges(other.kind, other.rotation)[(d + 2) % 4]
        sides = tuple(touching)
        fitting = memo.get(sides)
        if fitting is None:
            fitting = memo[sides] = tuple(
                rot
                for rot in range(4)
                if all(
                    theirs is None or edges_fit(cat.world_edges(key, rot)[d], theirs, strict)
                    for d, theirs in enumerate(sides)
                )
            )
        for rot in fitting:
            if forbid_off and off_floor_exits(kind, r, c, rot):
                continue
            if forbid_loop and find_loop(factory.with_cell(r, c, new_placed(kind, rot)), variant) is not None:
                continue
            out.append((r, c, rot))
    return out


def off_floor_exits(kind: TileKind, row: int, col: int, rotation: int) -> list[Dir]:
    """Exits that lead off the floor other than east into the row's truck (MC-MOVE-OFF)."""
    bad = []
    for d in kind.exits(rotation):
        dr, dc = DELTA[d]
        r, c = row + dr, col + dc
        if not on_floor(r, c) and not (d is _Dir_E and c == DOCK_COL):
            bad.append(d)
    return bad


def check_install(factory: Factory, variant: MechanicaVariant, key: str, row: int, col: int, rotation: int) -> None:
    """Raise IllegalAction unless ``key`` may be installed at ``(row, col)`` turned ``rotation``."""
    cat = variant.catalogue
    if key not in cat.tiles:
        raise IllegalAction("MC-PLACE-ZONE", f"unknown tile kind {key!r}")
    kind = cat.tiles[key]
    if kind.zone is not _Zone_FLOOR:
        raise IllegalAction("MC-PLACE-ZONE", f"{kind.name} goes in the {kind.zone.value} zone, not on the floor")
    if not on_floor(row, col):
        raise IllegalAction("MC-PLACE-FREE", f"({row}, {col}) is not a floor cell (rows 0-2, columns 0-3)")
    if rotation not in range(4):
        raise IllegalAction("MC-PLACE-ROT", f"rotation is 0, 1, 2 or 3 quarter turns, not {rotation}")
    occupant = factory.at(row, col)
    if occupant is not None:
        raise IllegalAction("MC-PLACE-FREE", f"({row}, {col}) already holds {occupant.kind}")
    problems = fit_problems(factory, cat, kind, row, col, rotation, variant.rulings.jigsaw == "strict")
    if problems:
        raise IllegalAction("MC-PLACE-FIT", f"{kind.name} at ({row}, {col}) turned {rotation}: {problems[0]}")
    if variant.rulings.off_floor == "forbid":
        bad = off_floor_exits(kind, row, col, rotation)
        if bad:
            raise IllegalAction("MC-MOVE-OFF", f"{kind.name}'s {bad[0].name} exit would lead off the floor")
    if variant.rulings.loop == "forbid":
        after = factory.with_cell(row, col, new_placed(kind, rotation))
        loop = find_loop(after, variant)
        if loop is not None:
            raise IllegalAction("MC-MOVE-LOOP", f"{kind.name} there would let a bot loop through {loop}")


def install(factory: Factory, variant: MechanicaVariant, key: str, row: int, col: int, rotation: int) -> Factory:
    """Install ``key`` at (row, col) turned ``rotation``, or raise IllegalAction naming the rule broken."""
    if (row, col, rotation) not in legal_placements(factory, variant, key):
        check_install(factory, variant, key, row, col, rotation)  # raises, naming the rule
    coverage.effect("MC-PLACE")
    coverage.effect("MC-PLACE-ZONE")  # the guards passed (MC-PLACE-ZONE, -FREE, -ROT, -FIT)
    coverage.effect("MC-PLACE-FREE")
    coverage.effect("MC-PLACE-ROT")
    coverage.effect("MC-PLACE-FIT")
    return factory.with_cell(row, col, new_placed(variant.catalogue.tiles[key], rotation))


def check_install_start(factory: Factory, variant: MechanicaVariant, key: str, row: int) -> None:
    cat = variant.catalogue
    kind = cat.tiles.get(key)
    if kind is None or kind.zone is not _Zone_START or kind.printed:
        raise IllegalAction("MC-PLACE-ZONE", f"{key!r} is not a fabricator tile for the Start Zone")
    if row not in range(ROWS):
        raise IllegalAction("MC-PLACE-START", f"the Start Zone has rows 0-2, not {row}")
    current = cat.tile(factory.start[row].kind)
    if not current.printed and not variant.rulings.fabricator_over_fabricator:
        raise IllegalAction("MC-PLACE-START", f"row {row} already holds {current.name}; demolish it first")


def install_start(factory: Factory, variant: MechanicaVariant, key: str, row: int) -> tuple[Factory, tuple[Bot, ...]]:
    """Lay a fabricator tile on a Start Zone row. Bots in the covered holes move into the new tile's holes
    in order (MC-PLACE-START); any that do not fit are returned to the stock (the second value)."""
    check_install_start(factory, variant, key, row)
    coverage.effect("MC-PLACE-START")
    coverage.effect("MC-PLACE-ZONE")
    kind = variant.catalogue.tiles[key]
    held = [b for b in factory.start[row].holes if b is not None]
    holes: list[Bot | None] = [None] * len(kind.outputs)
    for i in range(min(len(held), len(holes))):
        holes[i] = held[i]
    return factory.with_start(row, StartSlot(key, tuple(holes))), tuple(held[len(holes) :])


def check_install_truck(factory: Factory, variant: MechanicaVariant, key: str, row: int) -> None:
    cat = variant.catalogue
    kind = cat.tiles.get(key)
    if kind is None or kind.zone is not _Zone_DOCK or kind.printed:
        raise IllegalAction("MC-PLACE-ZONE", f"{key!r} is not a truck tile for the Loading Dock")
    if row not in range(ROWS):
        raise IllegalAction("MC-PLACE-TRUCK", f"the Loading Dock has rows 0-2, not {row}")
    current = cat.tile(factory.dock[row].kind)
    if kind.capacity <= current.capacity:
        raise IllegalAction("MC-PLACE-TRUCK", f"{kind.name} (capacity {kind.capacity}) does not enlarge {current.name}")


def install_truck(factory: Factory, variant: MechanicaVariant, key: str, row: int) -> Factory:
    """MC-PLACE-TRUCK: a larger truck covers the row's truck; its load stays on."""
    check_install_truck(factory, variant, key, row)
    coverage.effect("MC-PLACE-TRUCK")
    coverage.effect("MC-PLACE-ZONE")
    return factory.with_truck(row, Truck(key, factory.dock[row].load))


def demolish(factory: Factory, row: int, col: int) -> tuple[Factory, str, tuple[Bot, ...]]:
    """MC-DEMOLISH: remove a floor tile. Returns the factory, the removed kind and the destroyed bots."""
    if not on_floor(row, col):
        raise IllegalAction("MC-DEMOLISH", f"({row}, {col}) is not a floor cell")
    placed = factory.at(row, col)
    if placed is None:
        raise IllegalAction("MC-DEMOLISH", f"({row}, {col}) holds no improvement")
    coverage.effect("MC-DEMOLISH")
    destroyed = tuple(placed.inputs) + tuple(b for b in placed.outputs if b is not None)
    return factory.with_cell(row, col, None), placed.kind, destroyed


def demolish_start(factory: Factory, variant: MechanicaVariant, row: int) -> tuple[Factory, str, tuple[Bot, ...]]:
    if row not in range(ROWS):
        raise IllegalAction("MC-DEMOLISH", f"the Start Zone has rows 0-2, not {row}")
    slot = factory.start[row]
    if variant.catalogue.tile(slot.kind).printed:
        raise IllegalAction("MC-DEMOLISH", f"row {row} of the Start Zone holds no fabricator tile")
    coverage.effect("MC-DEMOLISH")
    destroyed = tuple(b for b in slot.holes if b is not None)
    return factory.with_start(row, printed_start(row)), slot.kind, destroyed


def factory_problems(factory: Factory, variant: MechanicaVariant) -> list[str]:
    """Every way this factory breaks the board and placement rules, as named messages (empty = valid)."""
    cat = variant.catalogue
    problems: list[str] = []
    strict = variant.rulings.jigsaw == "strict"
    for r in range(ROWS):
        for c in range(COLS):
            placed = factory.at(r, c)
            if placed is None:
                continue
            kind = cat.tiles.get(placed.kind)
            if kind is None or kind.zone is not _Zone_FLOOR:
                problems.append(f"MC-PLACE-ZONE: ({r}, {c}) holds {placed.kind!r}, not a floor tile")
                continue
            if len(placed.inputs) > kind.inputs:
                problems.append(f"MC-HOLE: ({r}, {c}) holds {len(placed.inputs)} bots in {kind.inputs} input holes")
            if len(placed.outputs) != len(kind.outputs):
                problems.append(
                    f"MC-HOLE: ({r}, {c}) lists {len(placed.outputs)} output holes, not {len(kind.outputs)}"
                )
            # each touching pair once: look east and south only
            for d in (_Dir_E, _Dir_S):
                dr, dc = DELTA[d]
                other = factory.at(r + dr, c + dc) if on_floor(r + dr, c + dc) else None
                if other is None or other.kind not in cat.tiles:
                    continue
                a = kind.edge(d, placed.rotation)
                b = cat.tiles[other.kind].edge(d.opposite, other.rotation)
                if not edges_fit(a, b, strict):
                    problems.append(f"MC-PLACE-FIT: ({r}, {c}) {d.name} side does not fit ({r + dr}, {c + dc})")
            if variant.rulings.off_floor == "forbid" and off_floor_exits(kind, r, c, placed.rotation):
                problems.append(f"MC-MOVE-OFF: ({r}, {c}) has an exit leading off the floor")
    for r, slot in enumerate(factory.start):
        kind = cat.tiles.get(slot.kind)
        if kind is None or kind.zone is not _Zone_START:
            problems.append(f"MC-PLACE-ZONE: Start Zone row {r} holds {slot.kind!r}")
        elif len(slot.holes) != len(kind.outputs):
            problems.append(f"MC-HOLE: Start Zone row {r} lists {len(slot.holes)} holes, not {len(kind.outputs)}")
        elif kind.effect is _Effect_FABRICATE and kind.printed and r != 1:
            problems.append(f"MC-BOARD: the printed Basic Fabricator is in row 1, not row {r}")
    for r, truck in enumerate(factory.dock):
        kind = cat.tiles.get(truck.kind)
        if kind is None or kind.zone is not _Zone_DOCK:
            problems.append(f"MC-PLACE-ZONE: Loading Dock row {r} holds {truck.kind!r}")
        elif len(truck.load) > kind.capacity:
            problems.append(f"MC-HOLE: truck {r} carries {len(truck.load)} bots, capacity {kind.capacity}")
    if variant.rulings.loop == "forbid" and not problems:
        loop = find_loop(factory, variant)
        if loop is not None:
            problems.append(f"MC-MOVE-LOOP: a bot can loop through {loop}")
    return problems
