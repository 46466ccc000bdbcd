"""A Mechanica factory board as it looks: the Start Zone, the 3 x 4 Factory Floor and the Loading Dock.

Each floor tile is drawn turned as installed: an exit is a knob with an arrow pointing out, an entrance a
notch with an arrow pointing in, a flat side a thick bar. Empty cells show the bare belt, which carries
bots east. Holes are circles near the side they empty to; a bot in a hole is a disc in its grade's colour
with its letter. Every bot, hole, tile and edge carries ``data-*`` attributes naming where it is, so a
reader (or a test) can find what the picture says without measuring it.
"""

from __future__ import annotations

import math

from bgrules.mechanica.board import COLS, DOCK_COL, ROWS, Factory, Placed, StartSlot, Truck
from bgrules.mechanica.components import Bot, Catalogue, Dir, Edge, Effect, TileKind
from bgrules.mechanica.movement import LAND, TRUCK_BIN
from bgrules.mechanica.run import Moving, Run
from bgrules.mechanica.variant import MechanicaVariant, default_variant
from bgrules.pictures.style import (
    INK,
    MUTED,
    PANEL,
    RULE,
    bot_legend,
    bot_mark,
    box,
    document,
    dw,
    empty_hole,
    finish,
    hole,
    text,
)

CELL = 140
"""Side of a floor cell."""
INSET = 13
"""Gap between a cell's border and its tile, room for the exits' knobs."""
START_W = 130
DOCK_W = 140
HEAD = 34
"""Height of the column headings above the rows."""
KNOB = 9
FLOOR_X = START_W + 10
DOCK_X = FLOOR_X + COLS * CELL + 10
WIDTH = DOCK_X + DOCK_W
LEGEND_H = 84
HEIGHT = HEAD + ROWS * CELL + LEGEND_H

BELT = "#d9dde3"
BELT_INK = "#9aa3ad"
IMPROVEMENT = "#f3e6c8"
"""Beige: the seven kinds of floor improvements."""
FABRICATOR = "#e3d3ef"
"""Purple: the fabricator tiles of the Start Zone."""
FORK = "#cfe3d4"
PRINTED = "#eeeeee"
TRUCK = "#d6e6f5"

_UNIT: dict[Dir, tuple[int, int]] = {Dir.N: (0, -1), Dir.E: (1, 0), Dir.S: (0, 1), Dir.W: (-1, 0)}
"""Screen direction of each side (x right, y down)."""
ROTATION_WORDS = ("not turned", "turned 90\u00b0", "turned 180\u00b0", "turned 270\u00b0")


def _arrow(x: float, y: float, d: Dir, size: float, fill: str) -> dw.Lines:
    """A small filled triangle at (x, y) pointing in world direction ``d``."""
    ux, uy = _UNIT[d]
    px, py = -uy, ux
    tip = (x + ux * size, y + uy * size)
    a = (x - ux * size * 0.6 + px * size * 0.8, y - uy * size * 0.6 + py * size * 0.8)
    b = (x - ux * size * 0.6 - px * size * 0.8, y - uy * size * 0.6 - py * size * 0.8)
    return dw.Lines(*tip, *a, *b, close=True, fill=fill, stroke="none")


def _side_mid(x: float, y: float, size: float, d: Dir) -> tuple[float, float]:
    """The middle of side ``d`` of the square at (x, y) with side ``size``."""
    ux, uy = _UNIT[d]
    return x + size / 2 + ux * size / 2, y + size / 2 + uy * size / 2


def _edge(x: float, y: float, size: float, d: Dir, edge: Edge, fill: str, where: str, under: str = "") -> dw.Group:
    """One side of a tile: a knob bulging out with an arrow out (exit), a notch cut in with an arrow in
    (entrance), or a thick bar (flat). ``under``: the colour beneath the tile, which shows in a notch."""
    g = dw.Group(class_="edge", data_side=d.name, data_edge=edge.value, data_at=where)
    mx, my = _side_mid(x, y, size, d)
    ux, uy = _UNIT[d]
    px, py = -uy, ux
    if edge is Edge.FLAT:
        half = size / 2 - 3
        g.append(
            dw.Line(
                mx - px * half,
                my - py * half,
                mx + px * half,
                my + py * half,
                stroke=INK,
                stroke_width=4,
                stroke_linecap="round",
            )
        )
    else:
        out = edge is Edge.EXIT
        bay = under or (BELT if d in (Dir.E, Dir.W) else PANEL)
        p = dw.Path(fill=fill if out else bay, stroke=INK, stroke_width=1.2)
        p.M(mx - px * KNOB, my - py * KNOB).A(KNOB, KNOB, 0, 0, 1 if out else 0, mx + px * KNOB, my + py * KNOB)
        g.append(p)
        if out:
            g.append(_arrow(mx + ux * 3, my + uy * 3, d, 4.5, INK))
        else:
            g.append(_arrow(mx - ux * 4, my - uy * 4, d.opposite, 4.5, "#2e86c1"))
    g.append(dw.Title(f"{d.name} side: {edge.value}"))
    return g


def _wrap(name: str, width: int = 15) -> list[str]:
    """A tile's name on one or two lines."""
    words = name.split()
    lines: list[str] = []
    for w in words:
        if lines and len(lines[-1]) + 1 + len(w) <= width:
            lines[-1] += " " + w
        else:
            lines.append(w)
    return lines


def _tile_fill(kind: TileKind) -> str:
    if kind.effect is Effect.FORK:
        return FORK
    if kind.printed:
        return PRINTED
    return FABRICATOR if kind.effect is Effect.FABRICATE else IMPROVEMENT


def _output_spots(kind: TileKind, rotation: int, x: float, y: float, size: float) -> list[tuple[float, float]]:
    """Where each output hole is drawn: inside the tile, near the side it empties to."""
    dirs = kind.output_dirs(rotation)
    spots = []
    for i, d in enumerate(dirs):
        same = [j for j, e in enumerate(dirs) if e is d]
        k = same.index(i)
        spread = (k - (len(same) - 1) / 2) * 22
        ux, uy = _UNIT[d]
        px, py = -uy, ux
        cx = x + size / 2 + ux * (size / 2 - 11.5) + px * spread
        cy = y + size / 2 + uy * (size / 2 - 11.5) + py * spread
        spots.append((cx, cy))
    return spots


def _floor_tile(
    placed: Placed, kind: TileKind, cat: Catalogue, r: int, c: int, arrived: tuple[Bot, ...] = ()
) -> dw.Group:
    x0 = FLOOR_X + c * CELL + INSET
    y0 = HEAD + r * CELL + INSET
    size = CELL - 2 * INSET
    fill = _tile_fill(kind)
    g = dw.Group(
        class_="tile", data_kind=kind.key, data_name=kind.name, data_cell=f"{r},{c}", data_rotation=str(placed.rotation)
    )
    g.append(dw.Title(f"{kind.name} at row {r}, column {c}, {ROTATION_WORDS[placed.rotation]}"))
    g.append(dw.Rectangle(x0, y0, size, size, rx=4, fill=fill, stroke=INK, stroke_width=1.2))
    edges = cat.world_edges(placed.kind, placed.rotation)
    for d in Dir:
        g.append(_edge(x0, y0, size, d, edges[d], fill, f"floor {r} {c}"))
    lines = _wrap(kind.name, 11)
    ty = y0 + size / 2 - 6 * (len(lines) - 1) - 2
    for i, line in enumerate(lines):
        g.append(text(x0 + size / 2, ty + 12 * i, line, size=9.5, anchor="middle", weight="bold"))
    g.append(
        text(
            x0 + size / 2,
            ty + 12 * len(lines) - 1,
            ROTATION_WORDS[placed.rotation],
            size=8.5,
            anchor="middle",
            fill=MUTED,
        )
    )
    # input holes (squares) in the lower left corner, then any bots crowding them (a collision still to
    # settle) and the bots that arrived this run and are not poured in yet; output holes (circles) by the
    # side they empty to
    spots = _input_spots(x0, y0, size, max(kind.inputs, len(placed.inputs)) + len(arrived))
    k = 0
    for i in range(max(kind.inputs, len(placed.inputs))):
        bot = placed.inputs[i] if i < len(placed.inputs) else None
        hx, hy = spots[k]
        k += 1
        if i < kind.inputs:
            g.append(input_hole(hx, hy, bot, f"floor {r} {c} in {i}", f"cell {r} {c} in"))
        elif bot is not None:
            g.append(_crowding(hx, hy, bot, f"floor {r} {c} in {i}", f"cell {r} {c} in"))
    for j, bot in enumerate(arrived):
        hx, hy = spots[k]
        k += 1
        g.append(_arrived(hx, hy, bot, f"arrived floor {r} {c} {j}", f"arrived cell {r} {c}"))
    for i, (hx, hy) in enumerate(_output_spots(kind, placed.rotation, x0, y0, size)):
        bot = placed.outputs[i] if i < len(placed.outputs) else None
        g.append(hole(hx, hy, bot, r=7.5, at=f"floor {r} {c} out {i}", place=f"cell {r} {c} out"))
    return g


CROWD = "#c0392b"
"""Red: a bot over a hole's or truck's room (a collision still to settle, MC-COLLIDE), a bot on its way."""
ARRIVED = "#1e8449"
"""Green: a bot that arrived during this run, poured into its holes when every bot has moved."""


def _input_spots(x0: float, y0: float, size: float, n: int) -> list[tuple[float, float]]:
    """Where the input row's ``n`` spots are: left to right from the lower left corner, five a row, further
    rows above."""
    return [(x0 + 17 + (k % 5) * 19, y0 + size - 31 - (k // 5) * 19) for k in range(n)]


def _crowding(x: float, y: float, bot: Bot, at: str, place: str) -> dw.Group:
    """A bot past a hole's room: drawn beside the holes in a red ring."""
    g = dw.Group(class_="crowding")
    g.append(dw.Rectangle(x - 8.5, y - 8.5, 17, 17, rx=2, fill="#fdecea", stroke=CROWD, stroke_width=1.5))
    g.append(bot_mark(x, y, bot, r=7, at=at, place=place))
    g.append(dw.Title("more bots than holes: a collision to settle (MC-COLLIDE)"))
    return g


def _arrived(x: float, y: float, bot: Bot, at: str, place: str) -> dw.Group:
    """A bot that arrived this run: in a green dashed ring, until the bots are poured into their holes."""
    g = dw.Group(class_="arrived")
    g.append(dw.Circle(x, y, 9.5, fill="none", stroke=ARRIVED, stroke_width=1.8, stroke_dasharray="3,2"))
    g.append(bot_mark(x, y, bot, r=7, at=at, place=place))
    g.append(dw.Title("arrived this run (poured in once every bot has moved)"))
    return g


def input_hole(x: float, y: float, bot: Bot | None, at: str, place: str = "") -> dw.Group:
    """An input hole (a square), empty or holding ``bot`` (``place``: as for :func:`bot_mark`)."""
    g = dw.Group(class_="input-hole")
    g.append(
        dw.Rectangle(
            x - 8.5,
            y - 8.5,
            17,
            17,
            rx=2,
            fill="#e9e9e9",
            stroke=MUTED,
            stroke_width=1,
            stroke_dasharray="2,2",
            class_="hole" if bot is None else "",
            data_at=at,
        )
    )
    if bot is not None:
        g.append(bot_mark(x, y, bot, r=7, at=at, place=place))
    return g


def _belt_cell(r: int, c: int) -> dw.Group:
    x0 = FLOOR_X + c * CELL
    y0 = HEAD + r * CELL
    g = dw.Group(class_="belt", data_cell=f"{r},{c}")
    g.append(dw.Title(f"belt at row {r}, column {c} (carries bots east)"))
    cy = y0 + CELL / 2
    chevrons = dw.Path(fill="none", stroke=BELT_INK, stroke_width=3)
    for k in range(3):
        ax = x0 + 38 + k * 32
        chevrons.M(ax, cy - 9).L(ax + 10, cy).L(ax, cy + 9)
    g.append(chevrons)
    return g


def _start_slot(slot: StartSlot, kind: TileKind, r: int) -> dw.Group:
    x0, y0 = 6, HEAD + r * CELL + 8
    w, h = START_W - 12, CELL - 16
    g = dw.Group(class_="start", data_row=str(r), data_kind=kind.key, data_name=kind.name)
    g.append(dw.Title(f"Start Zone row {r}: {kind.name}"))
    g.append(dw.Rectangle(x0, y0, w, h, rx=4, fill=_tile_fill(kind), stroke=INK, stroke_width=1.2))
    name = kind.name.replace(" (printed)", "")
    lines = _wrap(name, 14)
    for i, line in enumerate(lines):
        g.append(text(x0 + 8, y0 + 18 + 12 * i, line, size=10.5, weight="bold"))
    if kind.printed:
        g.append(text(x0 + 8, y0 + 18 + 12 * len(lines), "printed", size=8.5, fill=MUTED))
    elif kind.makes:
        g.append(text(x0 + 8, y0 + 18 + 12 * len(lines), f"makes {kind.makes}", size=8.5, fill=MUTED))
    n = len(slot.holes)
    for i, bot in enumerate(slot.holes):
        hy = y0 + h - 18 - (n - 1 - i) * 20 if n > 1 else y0 + h - 22
        g.append(hole(x0 + w - 16, hy, bot, r=8, at=f"start {r} {i}", place=f"start {r}"))
    g.append(_arrow(x0 + w + 4, y0 + h / 2, Dir.E, 5, INK))
    return g


def _truck(truck: Truck, kind: TileKind, r: int, arrived: tuple[Bot, ...] = ()) -> dw.Group:
    x0, y0 = DOCK_X + 6, HEAD + r * CELL + 8
    w, h = DOCK_W - 12, CELL - 16
    g = dw.Group(
        class_="truck",
        data_row=str(r),
        data_kind=kind.key,
        data_name=kind.name,
        data_load="".join(b.letter for b in truck.load),
    )
    g.append(dw.Title(f"Loading Dock row {r}: {kind.name}, capacity {kind.capacity}, carrying {len(truck.load)}"))
    g.append(dw.Rectangle(x0, y0, w, h, rx=6, fill=TRUCK, stroke=INK, stroke_width=1.2))
    g.append(text(x0 + 8, y0 + 17, kind.name.replace(" (printed)", ""), size=10.5, weight="bold"))
    g.append(text(x0 + 8, y0 + 30, f"capacity {kind.capacity}", size=8.5, fill=MUTED))
    # a box per place, then the bots past its room (red: a collision to settle) and the bots that arrived
    # this run (green ring: loaded once every bot has moved); many bots shrink the boxes to fit
    load = len(truck.load)
    slots = max(kind.capacity, load) + len(arrived)
    per_row = max(5, math.ceil(slots / 3))
    step = min(22.0, (w - 16) / per_row)
    side = step * 18 / 22
    for i in range(slots):
        sx = x0 + 10 + (i % per_row) * step
        sy = y0 + 42 + (i // per_row) * step
        over = i >= kind.capacity and i < load
        g.append(
            dw.Rectangle(
                sx,
                sy,
                side,
                side,
                rx=3,
                fill="#fdecea" if over else "#ffffff",
                stroke=CROWD if over else MUTED,
                stroke_width=1.5 if over else 1,
            )
        )
        if i < load:
            g.append(
                bot_mark(
                    sx + side / 2,
                    sy + side / 2,
                    truck.load[i],
                    r=side * 7.5 / 18,
                    at=f"truck {r} {i}",
                    place=f"truck {r}",
                )
            )
        elif i >= max(kind.capacity, load):
            j = i - max(kind.capacity, load)
            g.append(_arrived(sx + side / 2, sy + side / 2, arrived[j], f"arrived truck {r} {j}", f"arrived truck {r}"))
    for k in range(2):
        g.append(dw.Circle(x0 + 26 + k * (w - 52), y0 + h, 7, fill=INK))
    return g


HEADING = "NESWL"
"""A moving bot's heading as a letter: the side it moves toward, or L, landing from a Flight Tester's throw."""


def _node_spot(r: int, c: int, h: int) -> tuple[float, float]:
    """Where a bot about to enter node (r, c, h) is drawn: on the side of the cell it comes in by, at the
    middle of the cell (or truck) it lands on, or, for a node off the board, at the board's edge."""
    if h == LAND:
        if c == DOCK_COL:
            x, y = DOCK_X + DOCK_W / 2, HEAD + r * CELL + CELL / 2
        else:
            x, y = FLOOR_X + c * CELL + 36, HEAD + r * CELL + 38  # the upper left corner, clear of the name
    elif c == DOCK_COL:
        x, y = DOCK_X - 4, HEAD + r * CELL + CELL / 2
    else:
        x, y = _side_mid(FLOOR_X + c * CELL, HEAD + r * CELL, CELL, Dir(h).opposite)
    return min(max(x, 12.0), WIDTH - 12.0), min(max(y, HEAD + 12.0), HEAD + ROWS * CELL - 12.0)


def _moving(m: Moving, i: int, k: int) -> dw.DrawingElement:
    """A bot on its way, drawn on the side of the cell it is about to enter (a bot landing from a throw: in
    the middle of the cell it lands on). ``k``: how many bots already drawn at the same node (shifted aside)."""
    r, c, h = m.node
    x, y = _node_spot(r, c, h)
    if h == LAND or h in (Dir.N, Dir.S):
        x += 24 * k
    else:
        y += 24 * k
    letter = HEADING[h] if 0 <= h < len(HEADING) else str(h)
    g = dw.Group(class_="moving", data_node=f"{r},{c},{letter}")
    if h == LAND:
        g.append(dw.Circle(x, y, 12, fill="#fdecea", stroke=CROWD, stroke_width=2, stroke_dasharray="3,2"))
        g.append(_arrow(x, y - 17, Dir.S, 4.5, CROWD))
        g.append(dw.Title(f"landing from a Flight Tester's throw on row {r}, column {c}"))
    else:
        g.append(dw.Circle(x, y, 11, fill="none", stroke=CROWD, stroke_width=2, stroke_dasharray="3,2"))
    g.append(bot_mark(x, y, m.bot, r=7.5, at=f"moving {r} {c} {letter} {i}", place=f"moving {r} {c} {letter}"))
    return g


def _arrivals(run: Run | None) -> tuple[dict[int, tuple[Bot, ...]], dict[int, tuple[Bot, ...]]]:
    """The bots of ``run.arrived`` by floor cell index and by truck row."""
    cells: dict[int, list[Bot]] = {}
    trucks: dict[int, list[Bot]] = {}
    for bin_id, bot in () if run is None else run.arrived:
        if bin_id >= TRUCK_BIN:
            trucks.setdefault(bin_id - TRUCK_BIN, []).append(bot)
        else:
            cells.setdefault(bin_id, []).append(bot)
    return {k: tuple(v) for k, v in cells.items()}, {k: tuple(v) for k, v in trucks.items()}


def factory_group(factory: Factory, variant: MechanicaVariant, run: Run | None = None) -> dw.Group:
    """The board drawn in a box of :data:`WIDTH` x ``HEAD + ROWS * CELL``, origin top left. ``run``: a
    workday under way on this board (``factory`` is then its live board): its moving bots are drawn where
    they are about to enter, the bots arrived this run by the holes or truck they go to."""
    arrived_cells, arrived_trucks = _arrivals(run)
    cat = variant.catalogue
    g = dw.Group(class_="factory")
    g.append(text(START_W / 2, 20, "Start Zone", size=12, anchor="middle", weight="bold"))
    g.append(text(FLOOR_X + COLS * CELL / 2, 14, "Factory Floor", size=12, anchor="middle", weight="bold"))
    for c in range(COLS):
        g.append(text(FLOOR_X + c * CELL + CELL / 2, 28, f"column {c}", size=9, anchor="middle", fill=MUTED))
    g.append(text(DOCK_X + DOCK_W / 2, 20, "Loading Dock", size=12, anchor="middle", weight="bold"))
    g.append(box(FLOOR_X, HEAD, COLS * CELL, ROWS * CELL, fill=PANEL, stroke=RULE))
    for r in range(ROWS):
        y = HEAD + r * CELL
        g.append(dw.Rectangle(FLOOR_X, y + CELL / 2 - 16, COLS * CELL, 32, fill=BELT, stroke="none"))
        g.append(text(FLOOR_X + 3, y + 11, f"row {r}", size=9, fill=MUTED))
        for c in range(1, COLS):
            g.append(dw.Line(FLOOR_X + c * CELL, HEAD, FLOOR_X + c * CELL, HEAD + ROWS * CELL, stroke=RULE))
        if r:
            g.append(dw.Line(FLOOR_X, y, FLOOR_X + COLS * CELL, y, stroke=RULE))
    for r in range(ROWS):
        for c in range(COLS):
            placed = factory.at(r, c)
            if placed is None:
                g.append(_belt_cell(r, c))
                for j, bot in enumerate(arrived_cells.get(r * COLS + c, ())):  # not a bin: drawn all the same
                    g.append(
                        _arrived(
                            FLOOR_X + c * CELL + 20 + 20 * j,
                            HEAD + r * CELL + 24,
                            bot,
                            f"arrived floor {r} {c} {j}",
                            f"arrived cell {r} {c}",
                        )
                    )
            else:
                g.append(_floor_tile(placed, cat.tile(placed.kind), cat, r, c, arrived_cells.get(r * COLS + c, ())))
        g.append(_start_slot(factory.start[r], cat.tile(factory.start[r].kind), r))
        g.append(_truck(factory.dock[r], cat.tile(factory.dock[r].kind), r, arrived_trucks.get(r, ())))
    if run is not None:
        at_node: dict[tuple[int, int, int], int] = {}
        for i, m in enumerate(run.moving):
            k = at_node.get(m.node, 0)
            at_node[m.node] = k + 1
            g.append(_moving(m, i, k))
    return g


def edge_legend(x: float, y: float) -> dw.Group:
    """The legend of the tile sides."""
    g = dw.Group(class_="legend", data_legend="edges")
    g.append(text(x, y, "Sides:", size=11, weight="bold"))
    items = (
        (Edge.EXIT, "exit (knob, bots leave)"),
        (Edge.ENTRANCE, "entrance (notch, bots come in)"),
        (Edge.FLAT, "flat side"),
    )
    cx = x + 44
    for edge, label in items:
        g.append(_edge(cx, y - 13, 16, Dir.E, edge, IMPROVEMENT, "legend"))
        g.append(text(cx + 30, y, label, size=10))
        cx += 30 + 6 * len(label) + 10
    g.append(dw.Rectangle(cx - 8, y - 12, 14, 14, rx=2, fill="#e9e9e9", stroke=MUTED, stroke_dasharray="2,2"))
    g.append(text(cx + 12, y, "input hole", size=10))
    g.append(empty_hole(cx + 84, y - 5, r=7))
    g.append(text(cx + 96, y, "output hole", size=10))
    return g


def legends(x: float, y: float) -> dw.Group:
    g = dw.Group()
    g.append(bot_legend(x, y))
    g.append(dw.Circle(x + 320, y - 4, 9, fill="none", stroke=CROWD, stroke_width=2, stroke_dasharray="3,2"))
    g.append(text(x + 334, y, "a bot on its way (during a workday)", size=10))
    g.append(dw.Circle(x + 8, y + 40, 9, fill="none", stroke=ARRIVED, stroke_width=1.8, stroke_dasharray="3,2"))
    g.append(text(x + 22, y + 44, "arrived this run (poured in once every bot has moved)", size=10))
    g.append(dw.Rectangle(x + 330, y + 33, 14, 14, rx=2, fill="#fdecea", stroke=CROWD, stroke_width=1.5))
    g.append(text(x + 350, y + 44, "more bots than room: a collision to settle", size=10))
    g.append(dw.Circle(x + 600, y + 40, 9, fill="#fdecea", stroke=CROWD, stroke_width=2, stroke_dasharray="3,2"))
    g.append(text(x + 614, y + 44, "landing from a throw", size=10))
    g.append(edge_legend(x, y + 22))
    return g


def draw_factory(factory: Factory, variant: MechanicaVariant | None = None) -> str:
    """The SVG document of one Mechanica factory board (``variant``: its component data; default: the box)."""
    v = variant or default_variant()
    d = document(WIDTH, HEIGHT + 8, "Mechanica factory")
    d.append(factory_group(factory, v))
    d.append(legends(8, HEAD + ROWS * CELL + 28))
    return finish(d)


def bot_counts_text(counts: tuple[int, int, int]) -> str:
    return ", ".join(f"{n} {name}" for n, name in zip(counts, ("Basic", "Plus", "Deluxe"), strict=True))


__all__ = ["HEIGHT", "WIDTH", "Bot", "draw_factory", "factory_group", "legends"]
