"""A factory's workday run as a value (seed section A): :class:`Run`, its phase, the bots moving and arrived,
and the decisions a run asks for (:class:`Route`, :class:`Fly`, :class:`Discard`, :class:`Change`,
:class:`ChooseOutput`); :func:`_copy` is ``Run``'s copy on the hot path. :mod:`bgrules.mechanica.workday`
plays a run."""

from __future__ import annotations

import enum
import types
from collections.abc import Callable, Iterable
from typing import Any, cast

import attrs

from bgrules.mechanica.components import Bot, Dir, bot_field, dir_field
from bgrules.mechanica.factory import (
    COLS,
    ROWS,
    Factory,
)


class RunPhase(enum.Enum):
    MOVE = "move"
    COLLIDE = "collide"
    ACTIVATE = "activate"
    DONE = "done"

    def __repr__(self) -> str:
        return f"RunPhase.{self.name}"


# --- decisions inside a run -------------------------------------------------------------------------


@attrs.frozen
class Route:
    """MC-FORK: send the bot at the Fork on (row, col) out by side ``exit``."""

    row: int
    col: int
    exit: Dir = attrs.field(converter=dir_field)


@attrs.frozen
class Fly:
    """MC-FLIGHT: the Flight Tester on (row, col) throws its bot onto (to_row, to_col); column 4 is the truck."""

    row: int
    col: int
    to_row: int
    to_col: int


@attrs.frozen
class Discard:
    """MC-COLLIDE: destroy one ``bot`` of the bots crowding the hole(s) at (row, col); column 4 is the truck."""

    row: int
    col: int
    bot: Bot = attrs.field(converter=bot_field)


@attrs.frozen
class Change:
    """MC-ACT-CHANGE: the Function Changer on (row, col) makes ``bot`` from its two bots."""

    row: int
    col: int
    bot: Bot = attrs.field(converter=bot_field)


@attrs.frozen
class ChooseOutput:
    """MC-ACT-DOWNGRADE: the Downgrader on (row, col) puts its Basic bot into output hole ``hole``."""

    row: int
    col: int
    hole: int


RunDecision = Route | Fly | Discard | Change | ChooseOutput
RUN_DECISION_TYPES: tuple[type, ...] = (Route, Fly, Discard, Change, ChooseOutput)


def _node(value: Any) -> tuple[int, int, int]:
    r, c, h = value
    return (int(r), int(c), int(h))


@attrs.frozen
class Moving:
    """A bot on its way: the node it is about to enter and the nodes it has left (a bitmask)."""

    bot: Bot = attrs.field(converter=Bot)
    node: tuple[int, int, int] = attrs.field(converter=_node)
    visited: int = 0


def _stock(value: Iterable[int]) -> tuple[int, int, int]:
    if isinstance(value, tuple) and len(value) == 3 and all(type(v) is int for v in value):
        a, b, c = value
        return (a, b, c)
    t = tuple(int(v) for v in value)
    if len(t) != 3:
        raise ValueError("the stock has three counts: Basic, Plus, Deluxe")
    return (t[0], t[1], t[2])


@attrs.frozen(cache_hash=True)
class Run:
    factory: Factory
    stock: tuple[int, int, int] = attrs.field(converter=_stock)
    moving: tuple[Moving, ...] = ()
    arrived: tuple[tuple[int, Bot], ...] = ()
    charges: tuple[int, ...] = (0,) * (ROWS * COLS)
    cursor: int = 0
    phase: RunPhase = RunPhase.MOVE
    vault: int = 0
    """Coins paid into the vault during this run (MC-GIFT)."""
    wallet: int = 0
    """Coins paid into the wallet during this run (MC-FLIGHT-JUMP)."""
    destroyed: int = 0
    collisions: int = 0


_RUN_FIELDS: tuple[str, ...] = tuple(a.name for a in attrs.fields(Run))
_RUN_SLOTS: tuple[str, ...] = (*_RUN_FIELDS, "_attrs_cached_hash")
"""The slots an attrs ``__init__`` of ``Run`` sets: its fields, then the hash cache (None)."""
_RUN_COPIES: dict[tuple[str, ...], Callable[[Run, dict[str, Any]], Run]] = {}


def _copier(changed: tuple[str, ...], by_slots: bool) -> Callable[[Run, dict[str, Any]], Run]:
    """The copy of a run with the fields ``changed`` taken from the changes: built slot by slot (what the
    attrs ``__init__`` stores, the hash cache unset) when ``by_slots`` and every slot is a plain slot of
    ``Run``; else through ``Run.__init__``."""
    unknown = sorted(set(changed).difference(_RUN_FIELDS))
    if unknown:
        raise TypeError(f"Run has no field(s) {', '.join(unknown)}")
    values = [f"changes[{n!r}]" if n in changed else f"run.{n}" for n in _RUN_FIELDS]
    namespace: dict[str, Any] = {"Run": Run, "new": object.__new__}
    if by_slots and all(isinstance(Run.__dict__.get(n), types.MemberDescriptorType) for n in _RUN_SLOTS):
        lines = ["    o = new(Run)"]
        for i, (n, v) in enumerate(zip(_RUN_SLOTS, [*values, "None"], strict=True)):
            namespace[f"set{i}"] = Run.__dict__[n].__set__
            lines.append(f"    set{i}(o, {v})")
        lines.append("    return o")
    else:
        lines = [f"    return Run({', '.join(values)})"]
    source = "def copy(run, changes):\n" + "\n".join(lines) + "\n"
    exec(compile(source, "<workday run copy>", "exec"), namespace)
    return cast("Callable[[Run, dict[str, Any]], Run]", namespace["copy"])


def _checked_copier(run: Run, changes: dict[str, Any]) -> Callable[[Run, dict[str, Any]], Run]:
    """The slot copy for this change set, compared on its first use with the copy ``Run.__init__`` makes:
    every slot must hold an equal value of the same type (the stock's converter only returns an equal new
    tuple); if not, the ``__init__`` copy (another attrs version)."""
    fast = _copier(tuple(changes), by_slots=True)
    slow = _copier(tuple(changes), by_slots=False)
    a, b = fast(run, changes), slow(run, changes)
    same = all(type(x) is type(y) and x == y for x, y in ((getattr(a, n), getattr(b, n)) for n in _RUN_SLOTS))
    return fast if same else slow


def _copy(run: Run, **changes: Any) -> Run:
    """``evolve(run, **changes)`` for values already of their fields' types (the stock a tuple of three
    ints): ``Run``'s converter would return an equal tuple, so the copy skips it and sets the slots. One
    generated copy per change set (a dozen call sites; bounded all the same)."""
    key = tuple(changes)
    copy = _RUN_COPIES.get(key)
    if copy is None:
        if len(_RUN_COPIES) > 1000:
            _RUN_COPIES.clear()
        copy = _RUN_COPIES[key] = _checked_copier(run, changes)
    return copy(run, changes)
