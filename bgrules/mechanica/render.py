"""A picture of a factory in text: each floor cell drawn with its four sides.

Side marks show which way a bot crosses that side: an arrow pointing out of the cell is an exit
(``^ > v <`` on the N, E, S, W sides), an arrow pointing in is an entrance, and ``-`` / ``|`` is a flat
side. A bare belt cell shows ``=====>`` (belts carry bots east). The middle line names the tile and
its rotation, then the bots in its holes as ``inputs/outputs``.
"""

from __future__ import annotations

from bgrules.mechanica.components import Bot, Dir, Edge
from bgrules.mechanica.factory import COLS, ROWS, Factory
from bgrules.mechanica.variant import MechanicaVariant, default_variant

_OUT = {Dir.N: "^", Dir.E: ">", Dir.S: "v", Dir.W: "<"}
_IN = {Dir.N: "v", Dir.E: "<", Dir.S: "^", Dir.W: ">"}
_FLAT = {Dir.N: "-", Dir.E: "|", Dir.S: "-", Dir.W: "|"}
W = 11


def _mark(edge: Edge, side: Dir) -> str:
    return {Edge.EXIT: _OUT, Edge.ENTRANCE: _IN, Edge.FLAT: _FLAT}[edge][side]


def _holes(bots: tuple[Bot | None, ...]) -> str:
    return "".join("." if b is None else b.letter for b in bots)


def render_factory(factory: Factory, variant: MechanicaVariant | None = None) -> str:
    cat = (variant or default_variant()).catalogue
    inner = W - 2
    lines = ["      start   " + "".join(f"col {c}".center(W) for c in range(COLS)) + "  dock"]
    for r in range(ROWS):
        top, mid, bot = [], [], []
        for c in range(COLS):
            p = factory.at(r, c)
            if p is None:
                top.append(" " * W)
                mid.append(" " + "=" * (inner - 1) + "> ")
                bot.append(" " * W)
                continue
            edges = cat.world_edges(p.kind, p.rotation)
            half = (inner - 1) // 2
            top.append("+" + "-" * half + _mark(edges[Dir.N], Dir.N) + "-" * (inner - 1 - half) + "+")
            bot.append("+" + "-" * half + _mark(edges[Dir.S], Dir.S) + "-" * (inner - 1 - half) + "+")
            label = f"{cat.tile(p.kind).code}{p.rotation}"
            if p.inputs or any(b is not None for b in p.outputs):
                label += " " + "".join(b.letter for b in p.inputs) + "/" + _holes(p.outputs)
            mid.append(_mark(edges[Dir.W], Dir.W) + label[:inner].center(inner) + _mark(edges[Dir.E], Dir.E))
        slot = factory.start[r]
        start = cat.tile(slot.kind).code
        if any(b is not None for b in slot.holes):
            start += f"[{_holes(slot.holes)}]"
        truck = factory.dock[r]
        dock = cat.tile(truck.kind).code + (f"[{''.join(b.letter for b in truck.load)}]" if truck.load else "")
        lines.append(" " * 14 + "".join(top))
        lines.append(f"row {r} {start:<8}" + "".join(mid) + "  " + dock)
        lines.append(" " * 14 + "".join(bot))
    return "\n".join(line.rstrip() for line in lines) + "\n"


def text_picture(game: object, state: object) -> str | None:
    """A state's factories in text (the descriptors' ``text_picture``): a sandbox's factory, or every seat's
    factory of a Mechanica game with its money; None for a state that holds neither."""
    variant = getattr(game, "variant", None)
    chosen = variant if isinstance(variant, MechanicaVariant) else None
    factory = getattr(state, "factory", None)
    if isinstance(factory, Factory):
        return render_factory(factory, chosen)
    seats = getattr(state, "seats", None)
    if isinstance(seats, tuple) and seats and all(isinstance(getattr(s, "factory", None), Factory) for s in seats):
        parts = []
        for i, seat in enumerate(seats):
            money = f"wallet {getattr(seat, 'wallet', '?')}, vault {getattr(seat, 'vault', '?')}"
            parts.append(f"seat {i} ({money})\n{render_factory(seat.factory, chosen)}")
        return "\n".join(parts)
    return None
