"""Movement termination (MC-MOVE-LOOP) as a z3 search over factory floors.

"No legal factory floor of at most K tiles lets a bot go round a loop": per floor cell a free tile choice
(empty, or a floor kind of the catalogue, optionally limited to some kinds) and a rotation; the jigsaw fit
rule (MC-PLACE-FIT, the variant's reading) between touching tiles; at most K tiles (and at most each kind's
``copies``); and a nonempty set of floor movement nodes each of which has a successor in the set -- in a
finite graph such a set exists exactly when the graph has a cycle, so the search covers cycles of every
length (not only a bounded L).

A node's successors depend on the tile on its own cell, and a Flight Tester's landing places also on what
lies on the cells it throws to (MC-FLIGHT: under ``flight_landing = "skip_forks"`` a bot never lands on a
Fork). So the transition table is derived, per (cell, kind, rotation, heading), from
:func:`bgrules.mechanica.movement.options` on a probe factory holding that one tile (where every other cell
is a bare belt, a landing place), and the encoding adds the one condition on another cell: a step to a
landing node ``(r, c, LAND)`` is taken only where :func:`bgrules.mechanica.movement.lands_on` lets a bot
land on the tile chosen for (r, c). The encoding reads the Python rule functions. ``violated`` answers are
decoded into a factory (text notation) and only reported after ``factory_problems`` accepts it and
:func:`movement.find_loop` finds its loop.
"""

from __future__ import annotations

import time
from typing import Any, Literal

import attrs
import z3

from bgrules.core.proofs import solver as new_solver
from bgrules.mechanica.components import Dir, Edge, Zone
from bgrules.mechanica.factory import CELLS, COLS, ROWS, Factory, edges_fit, empty_factory, factory_problems, new_placed
from bgrules.mechanica.movement import LAND, Node, find_loop, lands_on, options
from bgrules.mechanica.notation import format_factory
from bgrules.mechanica.variant import MechanicaVariant

Verdict = Literal["holds", "violated", "unknown"]
Fault = Literal["ignore_jigsaw", "drop_edge_rule", "land_anywhere"]
"""Deliberate encoding bugs, for tests showing that the conformance checks catch a broken encoding
(``land_anywhere``: a throw's landing node taken whatever its cell holds, a Fork included)."""

HEADINGS = 5
Tile = tuple[str, int] | None
"""A cell's content: (kind, rotation), or None for a bare belt."""


def floor_kinds(variant: MechanicaVariant) -> tuple[str, ...]:
    return tuple(sorted(k.key for k in variant.catalogue.of_zone(Zone.FLOOR)))


def probe_successors(variant: MechanicaVariant, row: int, col: int, tile: Tile, heading: int) -> tuple[Node, ...]:
    """The floor nodes a bot about to enter (row, col, heading) may go to next, by :func:`movement.options`
    on a factory holding only ``tile`` at (row, col)."""
    factory = empty_factory()
    if tile is not None:
        factory = factory.with_cell(row, col, new_placed(variant.catalogue.tiles[tile[0]], tile[1]))
    out = []
    for s in options(factory, variant, (row, col, heading)):
        if s.then is not None and 0 <= s.then[0] < ROWS and 0 <= s.then[1] < COLS:
            out.append(s.then)
    return tuple(sorted(set(out)))


def _faulty_successors(variant: MechanicaVariant, row: int, col: int, tile: Tile, heading: int) -> tuple[Node, ...]:
    """``drop_edge_rule``: a bot entering by a side that is no entrance is not destroyed but goes on."""
    if tile is None or heading == LAND:
        return probe_successors(variant, row, col, tile, heading)
    kind = variant.catalogue.tiles[tile[0]]

    side = Dir(heading).opposite
    if kind.edge(side, tile[1]) is Edge.ENTRANCE:
        return probe_successors(variant, row, col, tile, heading)
    # re-enter through an entrance, whichever: take the successors of the first entrance heading
    for d in Dir:
        if kind.edge(d.opposite, tile[1]) is Edge.ENTRANCE:
            return probe_successors(variant, row, col, tile, int(d))
    return ()


@attrs.frozen
class Table:
    """successors[(cell, tile, heading)] -> floor nodes, for every cell, tile choice and heading, with the
    tile alone on the floor; a landing node among them is a successor where its cell's tile is a landing
    place (:func:`successors_in`)."""

    kinds: tuple[str, ...]
    successors: dict[tuple[int, Tile, int], tuple[Node, ...]]


def successors_in(
    table: Table, variant: MechanicaVariant, factory: Factory, row: int, col: int, heading: int
) -> tuple[Node, ...]:
    """The table's successors of (row, col, heading) on ``factory``'s floor: the lone tile's, less the
    landing nodes whose cell holds a tile a thrown bot may not land on (MC-FLIGHT, :func:`lands_on`), as
    the encoding's closure takes them."""
    p = factory.at(row, col)
    tile = None if p is None else (p.kind, p.rotation)
    out = []
    for n in table.successors[(row * COLS + col, tile, heading)]:
        q = factory.at(n[0], n[1]) if n[2] == LAND else None
        if q is None or lands_on(variant, q.kind):
            out.append(n)
    return tuple(out)


def derive_table(
    variant: MechanicaVariant, kinds: tuple[str, ...] | None = None, *, fault: Fault | None = None
) -> Table:
    kinds = kinds or floor_kinds(variant)
    succ_fn = _faulty_successors if fault == "drop_edge_rule" else probe_successors
    table: dict[tuple[int, Tile, int], tuple[Node, ...]] = {}
    tiles: list[Tile] = [None, *((k, r) for k in kinds for r in range(4))]
    for cell in range(CELLS):
        r, c = divmod(cell, COLS)
        for tile in tiles:
            for h in range(HEADINGS):
                table[(cell, tile, h)] = succ_fn(variant, r, c, tile, h)
    return Table(kinds, table)


@attrs.define
class LoopEncoding:
    variant: MechanicaVariant
    table: Table
    kind: list[Any]
    """Per cell: 0 for a bare belt, 1 + index into ``table.kinds``."""
    rot: list[Any]
    member: dict[Node, Any]
    constraints: list[Any]
    """Fit, tile count and rotation constraints (the factory's legality)."""
    cycle: Any
    """z3 Bool: a nonempty set of nodes each with a successor in the set (a cycle exists)."""


def _is(enc_kind: Any, enc_rot: Any, kinds: tuple[str, ...], tile: Tile) -> Any:
    if tile is None:
        return enc_kind == 0
    return z3.And(enc_kind == 1 + kinds.index(tile[0]), enc_rot == tile[1])


def encode_loops(
    variant: MechanicaVariant,
    max_tiles: int,
    kinds: tuple[str, ...] | None = None,
    *,
    copies: bool = True,
    fault: Fault | None = None,
    table: Table | None = None,
) -> LoopEncoding:
    table = table or derive_table(variant, kinds, fault=fault if fault == "drop_edge_rule" else None)
    kinds = table.kinds
    cat = variant.catalogue
    kv = [z3.Int(f"kind_{i}") for i in range(CELLS)]
    rv = [z3.Int(f"rot_{i}") for i in range(CELLS)]
    # the atoms, made once each (building z3 terms from Python dominates the encoding's cost)
    kind_is = [[k == n for n in range(len(kinds) + 1)] for k in kv]
    rot_is = [[r == n for n in range(4)] for r in rv]
    tile_is: dict[tuple[int, Tile], Any] = {}

    def is_tile(cell: int, tile: Tile) -> Any:
        found = tile_is.get((cell, tile))
        if found is None:
            found = (
                kind_is[cell][0]
                if tile is None
                else z3.And(kind_is[cell][1 + kinds.index(tile[0])], rot_is[cell][tile[1]])
            )
            tile_is[(cell, tile)] = found
        return found

    cons: list[Any] = []
    for i in range(CELLS):
        cons += [kv[i] >= 0, kv[i] <= len(kinds), rv[i] >= 0, rv[i] <= 3, z3.Implies(kv[i] == 0, rv[i] == 0)]
    cons.append(z3.Sum([z3.If(k > 0, 1, 0) for k in kv]) <= max_tiles)
    if copies:
        for n, key in enumerate(kinds):
            cons.append(z3.Sum([z3.If(k == n + 1, 1, 0) for k in kv]) <= cat.tiles[key].copies)
    strict = variant.rulings.jigsaw == "strict"
    if fault != "ignore_jigsaw":
        # MC-PLACE-FIT for each touching pair (east and south neighbours)

        for i in range(CELLS):
            r, c = divmod(i, COLS)
            for d, (nr, nc) in ((Dir.E, (r, c + 1)), (Dir.S, (r + 1, c))):
                if not (0 <= nr < ROWS and 0 <= nc < COLS):
                    continue
                j = nr * COLS + nc
                for ka in kinds:
                    for kb in kinds:
                        for ra in range(4):
                            for rb in range(4):
                                ea = cat.tiles[ka].edge(d, ra)
                                eb = cat.tiles[kb].edge(d.opposite, rb)
                                if not edges_fit(ea, eb, strict):
                                    cons.append(z3.Not(z3.And(is_tile(i, (ka, ra)), is_tile(j, (kb, rb)))))
    member = {(r, c, h): z3.Bool(f"in_{r}_{c}_{h}") for r in range(ROWS) for c in range(COLS) for h in range(HEADINGS)}
    closure: list[Any] = []
    tiles: list[Tile] = [None, *((k, r) for k in kinds for r in range(4))]
    # MC-FLIGHT: per cell, "a thrown bot may land here": no tile of a kind it may not land on
    not_landing = [k for k in kinds if not lands_on(variant, k)]
    landing = [
        z3.And([z3.Not(is_tile(i, (k, rot))) for k in not_landing for rot in range(4)]) if not_landing else None
        for i in range(CELLS)
    ]
    for (r, c, h), m in member.items():
        cell = r * COLS + c
        # by successor node: the tile choices that lead there
        ways: dict[Node, list[Any]] = {}
        for tile in tiles:
            for nxt in table.successors[(cell, tile, h)]:
                ways.setdefault(nxt, []).append(is_tile(cell, tile))
        steps = []
        for node, w in ways.items():
            lands = landing[node[0] * COLS + node[1]] if node[2] == LAND and fault != "land_anywhere" else None
            step = z3.And(z3.Or(w), member[node]) if lands is None else z3.And(z3.Or(w), lands, member[node])
            steps.append(step)
        closure.append(z3.Implies(m, z3.Or(steps or [z3.BoolVal(False)])))
    cycle = z3.And(z3.Or(list(member.values())), *closure)
    return LoopEncoding(variant, table, kv, rv, member, cons, cycle)


def decode_factory(enc: LoopEncoding, model: Any) -> Factory:
    factory = empty_factory()
    cat = enc.variant.catalogue
    for i in range(CELLS):
        k = model.eval(enc.kind[i], model_completion=True).as_long()
        if k:
            rot = model.eval(enc.rot[i], model_completion=True).as_long()
            factory = factory.with_cell(*divmod(i, COLS), new_placed(cat.tiles[enc.table.kinds[k - 1]], rot))
    return factory


def fix_layout(enc: LoopEncoding, factory: Factory) -> list[Any]:
    """Constraints pinning the encoding's tile choices to ``factory``'s floor."""
    out = []
    for i, p in enumerate(factory.floor):
        if p is None:
            out += [enc.kind[i] == 0]
        else:
            out += [enc.kind[i] == 1 + enc.table.kinds.index(p.kind), enc.rot[i] == p.rotation]
    return out


def layout_has_cycle(enc: LoopEncoding, factory: Factory) -> bool:
    """z3's answer to "is there a cycle in this fixed floor" (movement rules only, no legality)."""
    solver = new_solver()
    solver.add(*fix_layout(enc, factory))
    solver.add(enc.cycle)
    return bool(solver.check() == z3.sat)


@attrs.frozen
class LoopResult:
    verdict: Verdict
    detail: str
    factory: Factory | None = None
    notation: str = ""
    loop: str = ""
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"verdict": self.verdict, "detail": self.detail, "factory": self.notation, "loop": self.loop}


def loop_search(
    variant: MechanicaVariant,
    max_tiles: int,
    kinds: tuple[str, ...] | None = None,
    timeout_ms: int = 10_000,
    *,
    copies: bool = True,
    fault: Fault | None = None,
    verify: bool = True,
) -> LoopResult:
    """Is there a legal floor of at most ``max_tiles`` tiles (of ``kinds``) on which a bot can loop?
    ``holds``: no; ``violated``: yes, with the factory, checked by ``factory_problems`` and ``find_loop``."""
    start = time.perf_counter()
    enc = encode_loops(variant, max_tiles, kinds, copies=copies, fault=fault)
    solver = new_solver(max(1, int(timeout_ms)))
    solver.add(*enc.constraints)
    solver.add(enc.cycle)
    answer = solver.check()
    seconds = time.perf_counter() - start
    if answer == z3.unsat:
        return LoopResult(
            "holds", f"no floor of at most {max_tiles} tile(s) loops [{seconds * 1000:.0f} ms]", seconds=seconds
        )
    if answer != z3.sat:
        return LoopResult("unknown", f"z3: {solver.reason_unknown()}", seconds=seconds)
    factory = decode_factory(enc, solver.model())
    text = format_factory(factory, variant)
    problems = factory_problems(factory, variant)
    loop = find_loop(factory, variant)
    if verify and (problems or loop is None):
        why = problems[0] if problems else "find_loop finds no loop"
        return LoopResult("unknown", f"z3's factory does not check out: {why}", factory, text, "", seconds)
    return LoopResult(
        "violated",
        f"a bot can loop through {loop} [{seconds * 1000:.0f} ms]",
        factory,
        text,
        loop or "",
        seconds,
    )


__all__ = [
    "LoopEncoding",
    "LoopResult",
    "Table",
    "decode_factory",
    "derive_table",
    "encode_loops",
    "fix_layout",
    "floor_kinds",
    "layout_has_cycle",
    "loop_search",
    "probe_successors",
    "successors_in",
]
