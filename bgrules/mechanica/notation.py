"""A text notation for a factory, with a parse/format pair that round-trips.

One line per belt row, top row first::

    hole      | .      UP0        .   .  | truck
    basic[B]  | GW0    FK0        .   .  | big[BP]
    hole      | .      FC0[P/.]   .   .  | truck

* Start Zone: a start tile's code (``hole``, ``basic``, ``advanced``, ``overactive``), then optionally
  its holes in brackets, one letter each (``B``asic, ``P``lus, ``D``eluxe, ``.`` empty): ``advanced[B.]``.
* Floor cells: ``.`` for a bare belt, or a tile code and its rotation (quarter turns clockwise, 0-3),
  then optionally ``[inputs/outputs]``: the input holes' bots, and the output holes in order with
  ``.`` for an empty one: ``DG2[P/...]``, ``SC0[/B.]``.
* Loading Dock: a truck code (``truck``, ``big``, ``huge``), then optionally its load: ``huge[BBD]``.

``#`` starts a comment; blank lines are ignored. Errors name the line and column.
"""

from __future__ import annotations

import re

from bgrules.core.errors import InputError
from bgrules.mechanica.components import BOT_BY_LETTER, Bot, Zone
from bgrules.mechanica.factory import COLS, ROWS, Factory, Placed, StartSlot, Truck, factory_problems
from bgrules.mechanica.variant import MechanicaVariant, default_variant

_TOKEN = re.compile(r"\S+")
_CELL = re.compile(r"^(?P<code>[A-Za-z_]+?)(?P<rot>[0-3])?(?:\[(?P<body>[^\]]*)\])?$")


def _letters(text: str, where: str, allow_empty: bool) -> tuple[Bot | None, ...]:
    out: list[Bot | None] = []
    for ch in text:
        if ch == "." and allow_empty:
            out.append(None)
        elif ch in BOT_BY_LETTER:
            out.append(BOT_BY_LETTER[ch])
        else:
            allowed = "B, P, D" + (" or ." if allow_empty else "")
            raise InputError(where, f"{ch!r} is not a bot letter ({allowed})")
    return tuple(out)


def _err(source: str, line: int, col: int) -> str:
    return f"{source}:{line}:{col}"


_CELL_REF = re.compile(r"\((\d+), ?(\d+)\)")
_ROW_REF = re.compile(r"(?:Start Zone row|Loading Dock row|truck) (\d+)")


def _located(problem: str, cells: dict[tuple[int, int], tuple[int, int]], source: str) -> str:
    """The ``source:line:col`` of the first cell a board problem names (its row's first token when the
    problem names a Start Zone row or a truck)."""
    m = _CELL_REF.search(problem)
    if m and (int(m.group(1)), int(m.group(2))) in cells:
        line, col = cells[(int(m.group(1)), int(m.group(2)))]
        return _err(source, line, col)
    m = _ROW_REF.search(problem)
    if m:
        row = int(m.group(1))
        key = (row, -1) if "Start Zone" in problem else (row, COLS)
        if key in cells:
            return _err(source, *cells[key])
    line, col = cells.get((0, -1), (1, 1))
    return _err(source, line, col)


def parse_factory(text: str, variant: MechanicaVariant | None = None, source: str = "factory") -> Factory:
    """Parse the notation into a :class:`Factory`, checking the board and placement rules. Every problem
    is an InputError whose ``where`` is ``source:line:column`` (of the token at fault, or of the first
    cell a board rule names)."""
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            head = bytes(text)[: exc.start]
            line, col = head.count(b"\n") + 1, exc.start - (head.rfind(b"\n") + 1) + 1
            raise InputError(_err(source, line, col), f"not UTF-8 text (byte {exc.start})") from None
    if not isinstance(text, str):
        raise InputError(_err(source, 1, 1), "a factory is written as text, one line per belt row")
    variant = variant or default_variant()
    cat = variant.catalogue
    rows: list[tuple[int, str]] = []
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0]
        if line.strip():
            rows.append((n, line))
    if len(rows) != ROWS:
        lineno = rows[ROWS][0] if len(rows) > ROWS else len(text.splitlines()) + 1
        where = _err(source, lineno, 1)
        raise InputError(where, f"a factory has {ROWS} rows (one line each), found {len(rows)}")
    floor: list[Placed | None] = []
    start: list[StartSlot] = []
    dock: list[Truck] = []
    cells: dict[tuple[int, int], tuple[int, int]] = {}
    """(row, col) -> (line, column) of its token; col -1 is the Start Zone, COLS the truck."""
    for r, (n, line) in enumerate(rows):
        parts = line.split("|")
        if len(parts) != 3:
            raise InputError(_err(source, n, 1), "a row is 'start | four cells | truck' (two '|' separators)")
        offset = 0
        tokens: list[list[tuple[int, str]]] = []
        for part in parts:
            tokens.append([(offset + m.start() + 1, m.group()) for m in _TOKEN.finditer(part)])
            offset += len(part) + 1
        (start_tokens, cell_tokens, dock_tokens) = tokens
        if len(start_tokens) != 1:
            raise InputError(_err(source, n, 1), "the Start Zone part holds one start tile")
        if len(cell_tokens) != COLS:
            col = cell_tokens[COLS][0] if len(cell_tokens) > COLS else len(parts[0]) + 2
            raise InputError(_err(source, n, col), f"a row has {COLS} floor cells, found {len(cell_tokens)}")
        if len(dock_tokens) != 1:
            raise InputError(_err(source, n, len(parts[0]) + len(parts[1]) + 3), "the dock part holds one truck")
        col0, tok = start_tokens[0]
        cells[(r, -1)] = (n, col0)
        cells[(r, COLS)] = (n, dock_tokens[0][0])
        for c, (colno, _tok) in enumerate(cell_tokens):
            cells[(r, c)] = (n, colno)
        m = _CELL.match(tok)
        kind = cat.by_code(m.group("code")) if m else None
        if m is None or kind is None or kind.zone is not Zone.START or m.group("rot"):
            raise InputError(_err(source, n, col0), f"{tok!r} is not a start tile (hole, basic, advanced, overactive)")
        body = m.group("body")
        holes = _letters(body, _err(source, n, col0), True) if body is not None else (None,) * len(kind.outputs)
        if len(holes) != len(kind.outputs):
            raise InputError(_err(source, n, col0), f"{kind.name} has {len(kind.outputs)} hole(s), not {len(holes)}")
        start.append(StartSlot(kind.key, holes))
        for colno, tok in cell_tokens:
            where = _err(source, n, colno)
            if tok == ".":
                floor.append(None)
                continue
            m = _CELL.match(tok)
            kind = cat.by_code(m.group("code")) if m else None
            if m is None or kind is None or kind.zone is not Zone.FLOOR:
                codes = ", ".join(k.code for k in cat.of_zone(Zone.FLOOR))
                raise InputError(where, f"{tok!r} is not a floor tile: a code ({codes}) and a rotation 0-3, or '.'")
            if m.group("rot") is None:
                raise InputError(where, f"{tok!r} needs a rotation digit 0-3 after the code")
            body = m.group("body")
            inputs: tuple[Bot | None, ...] = ()
            outputs: tuple[Bot | None, ...] = (None,) * len(kind.outputs)
            if body is not None:
                if "/" not in body:
                    raise InputError(where, "holes are written [inputs/outputs], e.g. [P/.]")
                ins, outs = body.split("/", 1)
                inputs = _letters(ins, where, False)
                if len(inputs) > kind.inputs:
                    raise InputError(where, f"{kind.name} has {kind.inputs} input hole(s), not {len(inputs)}")
                outputs = _letters(outs, where, True) if outs else outputs
                if len(outputs) != len(kind.outputs):
                    raise InputError(where, f"{kind.name} has {len(kind.outputs)} output hole(s), not {len(outputs)}")
            floor.append(Placed(kind.key, int(m.group("rot")), tuple(b for b in inputs if b is not None), outputs))
        colno, tok = dock_tokens[0]
        m = _CELL.match(tok)
        kind = cat.by_code(m.group("code")) if m else None
        if m is None or kind is None or kind.zone is not Zone.DOCK or m.group("rot"):
            raise InputError(_err(source, n, colno), f"{tok!r} is not a truck (truck, big, huge)")
        body = m.group("body") or ""
        load = tuple(b for b in _letters(body, _err(source, n, colno), False) if b is not None)
        if len(load) > kind.capacity:
            raise InputError(_err(source, n, colno), f"{kind.name} carries {kind.capacity} bot(s), not {len(load)}")
        dock.append(Truck(kind.key, load))
    factory = Factory(tuple(floor), tuple(start), tuple(dock))
    problems = factory_problems(factory, variant)
    if problems:
        raise InputError(_located(problems[0], cells, source), problems[0])
    return factory


def _holes(bots: tuple[Bot | None, ...]) -> str:
    return "".join("." if b is None else b.letter for b in bots)


def format_factory(factory: Factory, variant: MechanicaVariant | None = None) -> str:
    """The notation of a factory; ``parse_factory(format_factory(f)) == f``."""
    cat = (variant or default_variant()).catalogue
    start_cells = []
    for slot in factory.start:
        code = cat.tile(slot.kind).code
        start_cells.append(code + (f"[{_holes(slot.holes)}]" if any(b is not None for b in slot.holes) else ""))
    grid: list[list[str]] = []
    for r in range(ROWS):
        row = []
        for c in range(COLS):
            p = factory.at(r, c)
            if p is None:
                row.append(".")
                continue
            text = f"{cat.tile(p.kind).code}{p.rotation}"
            if p.inputs or any(b is not None for b in p.outputs):
                text += f"[{''.join(b.letter for b in p.inputs)}/{_holes(p.outputs)}]"
            row.append(text)
        grid.append(row)
    docks = []
    for t in factory.dock:
        code = cat.tile(t.kind).code
        docks.append(code + (f"[{''.join(b.letter for b in t.load)}]" if t.load else ""))
    sw = max(len(s) for s in start_cells)
    widths = [max(len(grid[r][c]) for r in range(ROWS)) for c in range(COLS)]
    lines = []
    for r in range(ROWS):
        cells = "  ".join(grid[r][c].ljust(widths[c]) for c in range(COLS))
        lines.append(f"{start_cells[r].ljust(sw)} | {cells} | {docks[r]}")
    return "\n".join(lines) + "\n"
