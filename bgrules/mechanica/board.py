"""A Mechanica factory board (MC-BOARD): its geometry, its tiles and the bots in them, nothing of the rules.

The board: a Start Zone of one hole per belt row (the printed Basic Fabricator in the middle row),
a Factory Floor of 3 rows x 4 columns of belts carrying bots east, and a Loading Dock of one truck per
row. Cells are addressed ``(row, col)``, row 0 at the top; column 4 means the row's truck.

The placement rules (:mod:`bgrules.mechanica.factory`) and the movement rules
(:mod:`bgrules.mechanica.movement`) both read the board from here; neither imports the other's
module for it, so the two rule modules form no import circle (factory -> movement -> board).
"""

from __future__ import annotations

import types
from collections.abc import Callable, Iterable, Iterator

import attrs

from bgrules.core import coverage
from bgrules.mechanica.components import Bot, Catalogue, TileKind

# Enum members the functions below compare with, as module constants: under Python 3.11 each ``Phase.X``
# is looked up through EnumType.__getattr__'s hook, about 0.2 us a time on a hot path (docs/speed.md).
_Bot_BASIC = Bot.BASIC

ROWS = 3
COLS = 4
CELLS = ROWS * COLS
DOCK_COL = COLS


def cell_index(row: int, col: int) -> int:
    return row * COLS + col


def on_floor(row: int, col: int) -> bool:
    return 0 <= row < ROWS and 0 <= col < COLS


_GRADES: dict[object, Bot] = {b.value: b for b in Bot}
"""Bot(v) by a dict look-up, as ``Bot`` itself first looks a value up (a Bot, or the int 0, 1, 2)."""
_MAYBE_GRADES: dict[object, Bot | None] = {None: None, **_GRADES}


def _bots(value: Iterable[int]) -> tuple[Bot, ...]:
    if type(value) is tuple:  # the fast path: every item a grade already (anything else: as Bot(v) does)
        try:
            return tuple(map(_GRADES.__getitem__, value))
        except (KeyError, TypeError):
            pass
    return tuple(Bot(v) for v in value)


def _sorted_bots(value: Iterable[int]) -> tuple[Bot, ...]:
    return tuple(sorted(_bots(value)))


def _maybe_bots(value: Iterable[int | None]) -> tuple[Bot | None, ...]:
    if type(value) is tuple:  # the fast path, as in _bots
        try:
            return tuple(map(_MAYBE_GRADES.__getitem__, value))
        except (KeyError, TypeError):
            pass
    return tuple(None if v is None else Bot(v) for v in value)


@attrs.frozen(cache_hash=True)
class Placed:
    """An improvement or Fork on the floor: its kind, rotation, and the bots in its holes."""

    kind: str
    rotation: int = attrs.field(validator=attrs.validators.in_(range(4)))
    inputs: tuple[Bot, ...] = attrs.field(default=(), converter=_bots)
    outputs: tuple[Bot | None, ...] = attrs.field(default=(), converter=_maybe_bots)


@attrs.frozen(cache_hash=True)
class StartSlot:
    """One row of the Start Zone: the printed hole, the printed Basic Fabricator, or a fabricator tile."""

    kind: str
    holes: tuple[Bot | None, ...] = attrs.field(converter=_maybe_bots)


@attrs.frozen(cache_hash=True)
class Truck:
    """One row of the Loading Dock: a truck and the bots loaded on it (kept sorted)."""

    kind: str
    load: tuple[Bot, ...] = attrs.field(default=(), converter=_sorted_bots)


Layout = tuple[tuple[tuple[str, int] | None, ...], tuple[str, ...], tuple[str, ...]]
"""A board's tiles without its bots: floor (kind, rotation) or None per cell, Start Zone kinds, truck kinds."""

_ENTRIES: dict[tuple[str, int], tuple[str, int]] = {}
"""Each (kind, rotation) entry of a layout's floor, one shared tuple per value (bounded). The collector stops
tracking a tuple of strings and numbers at its first pass, and a tuple of such tuples at the first pass
after; a layout of shared entries, already untracked, is itself untracked at its first young collection, so
that the memos keyed on layouts (board options, placements, movement tables, installed values) do not keep
tracked keys for the full collections to visit, as fresh entries made them (docs/speed.md)."""


def _entry(placed: Placed) -> tuple[str, int]:
    key = (placed.kind, placed.rotation)
    found = _ENTRIES.get(key)
    if found is None:
        if len(_ENTRIES) > 10_000:
            _ENTRIES.clear()
        found = _ENTRIES[key] = key
    return found


def _sized(n: int, what: str) -> Callable[[object, object, tuple[object, ...]], None]:
    def check(inst: object, attribute: object, value: tuple[object, ...]) -> None:
        if len(value) != n:
            raise ValueError(f"{what} has {n} entries, not {len(value)}")

    return check


class _Derived:
    """The slots of a board's derived values, worked out on first use and kept: no attrs fields, so no part
    of the board's value (not compared, hashed, shown, encoded, pickled or copied: a copy works them out
    again). Plain slots, not ``functools.cached_property``: attrs serves a cached property of a slotted
    class through a class ``__getattr__``, which sends every attribute read of every board through
    Python's lookup hook (about twice the cost of a plain slot read; docs/speed.md)."""

    __slots__ = ("_counts", "_layout")
    _counts: tuple[int, int, int]
    _layout: Layout


@attrs.frozen(cache_hash=True)
class Factory(_Derived):
    floor: tuple[Placed | None, ...] = attrs.field(validator=_sized(CELLS, "the floor"))
    start: tuple[StartSlot, ...] = attrs.field(validator=_sized(ROWS, "the Start Zone"))
    dock: tuple[Truck, ...] = attrs.field(validator=_sized(ROWS, "the Loading Dock"))

    @property
    def layout(self) -> Layout:
        """The tiles without the bots: floor (kind, rotation) cells, Start Zone kinds, truck kinds."""
        try:
            return self._layout
        except AttributeError:
            found: Layout = (
                tuple([None if p is None else _entry(p) for p in self.floor]),
                tuple(s.kind for s in self.start),
                tuple(t.kind for t in self.dock),
            )
            object.__setattr__(self, "_layout", found)
            return found

    def at(self, row: int, col: int) -> Placed | None:
        return self.floor[cell_index(row, col)]

    def bots(self) -> Iterator[Bot]:
        """Every bot on the board: in floor holes, Start Zone holes and on trucks."""
        for placed in self.floor:
            if placed is not None:
                yield from placed.inputs
                yield from (b for b in placed.outputs if b is not None)
        for slot in self.start:
            yield from (b for b in slot.holes if b is not None)
        for truck in self.dock:
            yield from truck.load

    def bot_counts(self) -> tuple[int, int, int]:
        """Bots on the board by grade (Basic, Plus, Deluxe)."""
        try:
            return self._counts
        except AttributeError:
            counts = [0, 0, 0]
            for bot in self.bots():
                counts[bot] += 1
            found = (counts[0], counts[1], counts[2])
            object.__setattr__(self, "_counts", found)
            return found

    def with_cell(self, row: int, col: int, placed: Placed | None) -> Factory:
        i = cell_index(row, col)
        floor = list(self.floor)
        floor[i] = placed
        new = _same_shape(tuple(floor), self.start, self.dock)
        # the layout passed on (a derived value, no part of equality or hashing): the same tiles but for
        # cell i, whose entry is replaced (the same layout object when only its bots changed)
        layout = self.layout
        cells = layout[0]
        entry = None if placed is None else _entry(placed)
        if entry != cells[i]:
            layout = ((*cells[:i], entry, *cells[i + 1 :]), layout[1], layout[2])
        object.__setattr__(new, "_layout", layout)
        return new

    def with_start(self, row: int, slot: StartSlot) -> Factory:
        start = list(self.start)
        start[row] = slot
        new = _same_shape(self.floor, tuple(start), self.dock)
        layout = self.layout
        if slot.kind != layout[1][row]:
            kinds = layout[1]
            layout = (layout[0], (*kinds[:row], slot.kind, *kinds[row + 1 :]), layout[2])
        object.__setattr__(new, "_layout", layout)
        return new

    def with_truck(self, row: int, truck: Truck) -> Factory:
        dock = list(self.dock)
        dock[row] = truck
        new = _same_shape(self.floor, self.start, tuple(dock))
        layout = self.layout
        if truck.kind != layout[2][row]:
            kinds = layout[2]
            layout = (layout[0], layout[1], (*kinds[:row], truck.kind, *kinds[row + 1 :]))
        object.__setattr__(new, "_layout", layout)
        return new


def _slot_builder() -> Callable[[tuple[Placed | None, ...], tuple[StartSlot, ...], tuple[Truck, ...]], Factory]:
    """``Factory(floor, start, dock)`` for the ``with_*`` copies, whose parts keep the lengths the validators
    checked on the original: built by the slots' own descriptors (what the attrs ``__init__`` stores, the
    hash cache unset), skipping the validators. Checked once against ``__init__`` here; the constructor
    itself if the two differ (another attrs version)."""
    slots = {name: Factory.__dict__.get(name) for name in ("floor", "start", "dock", "_attrs_cached_hash")}
    if not all(isinstance(d, types.MemberDescriptorType) for d in slots.values()):
        return Factory
    new = object.__new__
    set_floor, set_start, set_dock, set_hash = (d.__set__ for d in slots.values())  # type: ignore[union-attr]

    def build(floor: tuple[Placed | None, ...], start: tuple[StartSlot, ...], dock: tuple[Truck, ...]) -> Factory:
        f = new(Factory)
        set_floor(f, floor)
        set_start(f, start)
        set_dock(f, dock)
        set_hash(f, None)
        return f

    probe = Factory((None,) * CELLS, tuple(StartSlot("start_hole", (None,)) for _ in range(ROWS)), (Truck("t"),) * ROWS)
    built = build(probe.floor, probe.start, probe.dock)
    missing = object()
    same = all(getattr(built, n, missing) is getattr(probe, n, missing) for n in slots)
    return build if same and built == probe and hash(built) == hash(probe) else Factory


_same_shape = _slot_builder()


def restock(stock: tuple[int, int, int], bots: Iterable[Bot]) -> tuple[int, int, int]:
    """MC-STOCK: the stock after ``bots`` go back to it (destroyed, demolished, spilled or sold)."""
    coverage.effect("MC-STOCK")
    s = list(stock)
    for b in bots:
        s[b] += 1
    return (s[0], s[1], s[2])


def installed_value(factory: Factory, cat: Catalogue) -> int:
    """MC-SCORE: the values of the tiles installed on the floor and in the Start Zone (printed ones are 0);
    memoised in the catalogue's memos on the tiles of the floor and the Start Zone."""
    layout = factory.layout
    memos = cat.memos
    values = memos.get(INSTALLED_VALUE)
    if values is None:
        values = memos.memo(INSTALLED_VALUE, 50_000)
    found: int | None = values.get(layout)
    if found is not None:
        return found
    value = sum(cat.tile(p.kind).value for p in factory.floor if p is not None)
    value += sum(cat.tile(s.kind).value for s in factory.start if not cat.tile(s.kind).printed)
    memos.put(values, layout, value)
    return value


INSTALLED_VALUE = "installed value"
"""The catalogue's memo (``Catalogue.memos``) of :func:`installed_value`: (floor tiles, Start Zone kinds)
-> the value."""


def printed_start(row: int) -> StartSlot:
    """MC-BOARD: the Basic Fabricator is printed in the middle row; the others are plain holes."""
    return StartSlot("basic_fabricator" if row == 1 else "start_hole", (None,))


def empty_factory() -> Factory:
    return Factory(
        floor=(None,) * CELLS,
        start=tuple(printed_start(r) for r in range(ROWS)),
        dock=tuple(Truck("truck") for _ in range(ROWS)),
    )


def starting_factory() -> Factory:
    """A new player's board: a Basic bot in the printed Basic Fabricator's hole (MC-SETUP-BOT)."""
    return empty_factory().with_start(1, StartSlot("basic_fabricator", (_Bot_BASIC,)))


_NEW_PLACED: dict[tuple[str, int, int], Placed] = {}
"""Empty tiles by (kind, rotation, output holes): one immutable value each, shared (bounded)."""


def new_placed(kind: TileKind, rotation: int) -> Placed:
    key = (kind.key, rotation, len(kind.outputs))
    found = _NEW_PLACED.get(key)
    if found is None:
        found = Placed(kind.key, rotation, (), (None,) * len(kind.outputs))
        if len(_NEW_PLACED) > 10_000:
            _NEW_PLACED.clear()
        _NEW_PLACED[key] = found
    return found


def new_start_slot(kind: TileKind) -> StartSlot:
    return StartSlot(kind.key, (None,) * len(kind.outputs))
