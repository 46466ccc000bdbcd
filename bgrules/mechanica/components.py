"""Mechanica component catalogue: bots, improvements, fabricators, forks and trucks.

The figures live in ``data/components.toml``, each with a provenance (``seed``, ``official``,
``assumed``). Nothing in the rules hard-codes a tile's edges, holes, value or recycle bot; a variant
file may replace any of them (see docs/rules/mechanica.md, "Correcting component data").
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any

import attrs

from bgrules.core.codec import lenient, read_package_toml, register_named_enum, structure
from bgrules.core.errors import InputError
from bgrules.core.memo import Memos

PROVENANCES = ("seed", "official", "assumed")


class Bot(enum.IntEnum):
    """Bot grades, lowest first (MC-BOTS): Basic (white), Plus (orange), Deluxe (purple)."""

    BASIC = 0
    PLUS = 1
    DELUXE = 2

    def __repr__(self) -> str:
        return f"Bot.{self.name}"

    @property
    def letter(self) -> str:
        return "BPD"[self.value]


_BOT_KEYS = {b: b.name.lower() for b in Bot}
"""Each grade's key in a catalogue's bots table (``basic``, ``plus``, ``deluxe``)."""


GRADES: tuple[Bot, ...] = tuple(Bot)
"""The grades in order, as a tuple: iterating the enum class itself runs a Python generator (docs/speed.md)."""
BOT_BY_LETTER = {b.letter: b for b in Bot}
BOT_BY_NAME = {b.name.lower(): b for b in Bot}


class Dir(enum.IntEnum):
    """World directions; rotation r turns a tile r quarter turns clockwise."""

    N = 0
    E = 1
    S = 2
    W = 3

    def __repr__(self) -> str:
        return f"Dir.{self.name}"

    @property
    def opposite(self) -> Dir:
        return Dir((self.value + 2) % 4)

    def rotated(self, rotation: int) -> Dir:
        return Dir((self.value + rotation) % 4)


register_named_enum(Bot)
register_named_enum(Dir)

_lenient_bot = lenient(Bot)
_lenient_dir = lenient(Dir)


def bot_field(value: Any) -> Any:
    """An action's bot-grade field converter: a grade as it is, a grade's number converted, anything else
    left as it was for ``apply`` to refuse with the rule and the field (:func:`bgrules.core.codec.lenient`)."""
    return value if type(value) is Bot else _lenient_bot(value)


def dir_field(value: Any) -> Any:
    """An action's side field converter (as :func:`bot_field`, for a :class:`Dir`)."""
    return value if type(value) is Dir else _lenient_dir(value)


DELTA: dict[Dir, tuple[int, int]] = {Dir.N: (-1, 0), Dir.E: (0, 1), Dir.S: (1, 0), Dir.W: (0, -1)}


class Edge(enum.Enum):
    """A jigsaw side: bots come in by an entrance (indented), leave by an exit (protruding)."""

    ENTRANCE = "entrance"
    EXIT = "exit"
    FLAT = "flat"

    def __repr__(self) -> str:
        return f"Edge.{self.name}"


class Zone(enum.Enum):
    FLOOR = "floor"
    START = "start"
    DOCK = "dock"


class Effect(enum.Enum):
    UPGRADE = "upgrade"
    GIFT = "gift"
    DUPLICATE = "duplicate"
    DOWNGRADE = "downgrade"
    CHANGE = "change"
    FLIGHT = "flight"
    CHARGE = "charge"
    FORK = "fork"
    FABRICATE = "fabricate"
    HOLE = "hole"
    TRUCK = "truck"


PASS_THROUGH = frozenset({Effect.GIFT, Effect.CHARGE, Effect.FORK, Effect.FLIGHT})


@attrs.frozen
class BotSpec:
    grade: int
    sale: int
    provenance: str


def _check_provenance(inst: Any, attribute: Any, value: Mapping[str, str]) -> None:
    for key, prov in value.items():
        if prov not in PROVENANCES:
            raise ValueError(f"provenance of {key!r} is {prov!r}; expected one of {', '.join(PROVENANCES)}")


@attrs.frozen
class TileKind:
    """One kind of tile. ``edges`` are N, E, S, W at rotation 0; ``outputs`` name each output hole's side."""

    key: str
    code: str
    name: str
    zone: Zone
    effect: Effect
    edges: tuple[Edge, Edge, Edge, Edge]
    inputs: int
    outputs: tuple[Dir, ...]
    value: int
    recycle: str
    copies: int
    provenance: dict[str, str] = attrs.field(validator=_check_provenance)
    makes: str | None = None
    capacity: int = 0
    price: int | None = None
    upgrade_from: str | None = None
    upgrade_price: int | None = None
    printed: bool = False

    @property
    def recycle_bot(self) -> Bot:
        return BOT_BY_NAME[self.recycle]

    def edge(self, world: Dir, rotation: int) -> Edge:
        """The edge this tile shows on world side ``world`` when turned ``rotation`` quarter turns."""
        return self.edges[(world.value - rotation) % 4]

    def exits(self, rotation: int) -> tuple[Dir, ...]:
        return tuple(d for d in Dir if self.edge(d, rotation) is Edge.EXIT)

    def flats(self, rotation: int) -> tuple[Dir, ...]:
        return tuple(d for d in Dir if self.edge(d, rotation) is Edge.FLAT)

    def output_dirs(self, rotation: int) -> tuple[Dir, ...]:
        return tuple(d.rotated(rotation) for d in self.outputs)


@attrs.frozen
class Catalogue:
    bots: dict[str, BotSpec]
    tiles: dict[str, TileKind]
    _edges: dict[tuple[str, int], tuple[Edge, Edge, Edge, Edge]] = attrs.field(
        factory=dict, eq=False, repr=False, alias="_edges"
    )
    memos: Memos = attrs.field(factory=Memos, eq=False, repr=False, init=False)
    """The memos of the rules computed from this catalogue (placements, options tables, routes, tile
    values), shared by every game of it; each game's memos join them (``bgrules.core.memo``)."""

    def world_edges(self, key: str, rotation: int) -> tuple[Edge, Edge, Edge, Edge]:
        """The edges a tile shows on its N, E, S, W sides when turned ``rotation`` (memoised)."""
        found = self._edges.get((key, rotation))
        if found is None:
            e = self.tiles[key].edges
            found = (e[-rotation % 4], e[(1 - rotation) % 4], e[(2 - rotation) % 4], e[(3 - rotation) % 4])
            self._edges[(key, rotation)] = found
        return found

    def tile(self, key: str) -> TileKind:
        try:
            return self.tiles[key]
        except KeyError:
            raise InputError("tile", f"unknown tile kind {key!r}") from None

    def by_code(self, code: str) -> TileKind | None:
        for kind in self.tiles.values():
            if kind.code == code:
                return kind
        return None

    def sale(self, bot: Bot) -> int:
        key = _BOT_KEYS.get(bot) if type(bot) is Bot else None  # a Bot's name by a look-up, not the enum's property
        return self.bots[bot.name.lower() if key is None else key].sale

    def of_zone(self, zone: Zone) -> tuple[TileKind, ...]:
        return tuple(k for k in self.tiles.values() if k.zone is zone)


def _validate_kind(kind: TileKind, source: str) -> None:
    where = f"{source} tiles.{kind.key}"
    exits = kind.exits(0)
    if kind.inputs < 0 or kind.inputs > 2:
        raise InputError(where, f"inputs must be 0, 1 or 2, not {kind.inputs}")
    if kind.zone is Zone.FLOOR:
        for d in kind.outputs:
            if kind.edges[d.value] is not Edge.EXIT:
                raise InputError(where, f"output hole leaves by side {d.name}, which is not an exit")
        if kind.effect in (Effect.GIFT, Effect.CHARGE, Effect.FORK) and not exits:
            raise InputError(where, "a pass-through tile needs an exit")
        if kind.effect is Effect.FLIGHT and len(kind.flats(0)) != 1:
            raise InputError(where, "a Flight Tester needs exactly one flat side")
        activating = (Effect.UPGRADE, Effect.DUPLICATE, Effect.DOWNGRADE, Effect.CHANGE)
        if kind.effect in activating and (kind.inputs < 1 or not kind.outputs):
            raise InputError(where, "an activating improvement needs input and output holes")
        if kind.effect is Effect.CHARGE and not kind.outputs:
            raise InputError(where, "a Static Charger needs output holes")
        if Edge.ENTRANCE not in kind.edges:
            raise InputError(where, "a floor tile needs an entrance")
    if kind.zone is Zone.START and not kind.outputs:  # MC-FAB, MC-MOVE-SRC: it makes into a hole, sends it out
        raise InputError(
            f"{where}.outputs", "a Start Zone tile (a fabricator or the printed hole) needs an output side"
        )
    if (
        kind.zone is Zone.START
        and kind.effect is Effect.FABRICATE
        and kind.makes not in ("basic", "plus", "deluxe", "any")
    ):
        raise InputError(where, "a fabricator must make basic, plus, deluxe or any")
    if kind.zone is Zone.DOCK and kind.capacity < 1:
        raise InputError(where, "a truck needs a capacity of at least 1")
    if kind.recycle not in BOT_BY_NAME:
        raise InputError(where, f"recycle must be one of basic, plus, deluxe, not {kind.recycle!r}")


def catalogue_from_data(data: Mapping[str, Any], where: str = "components") -> Catalogue:
    """Build and check a catalogue from plain data shaped like ``data/components.toml``."""
    if not isinstance(data, Mapping) or "tiles" not in data or "bots" not in data:
        raise InputError(where, "component data needs [bots] and [tiles] tables")
    bots = {name: structure(spec, BotSpec, f"{where} bots.{name}") for name, spec in data["bots"].items()}
    if sorted(bots) != sorted(BOT_BY_NAME):
        raise InputError(f"{where} bots", "the bots are exactly basic, plus and deluxe")
    tiles: dict[str, TileKind] = {}
    for key in sorted(data["tiles"]):
        raw = data["tiles"][key]
        if not isinstance(raw, Mapping):
            raise InputError(f"{where} tiles.{key}", "a tile is a table")
        kind = structure({"key": key, **raw}, TileKind, f"{where} tiles.{key}")
        _validate_kind(kind, where)
        tiles[key] = kind
    codes = [k.code for k in tiles.values()]
    if len(set(codes)) != len(codes):
        raise InputError(f"{where} tiles", "tile codes must be distinct")
    for required in ("start_hole", "basic_fabricator", "truck"):
        if required not in tiles:
            raise InputError(f"{where} tiles", f"the printed tile {required!r} is required")
    return Catalogue(bots=bots, tiles=tiles)


def default_component_data() -> dict[str, Any]:
    return read_package_toml("bgrules.mechanica", "data/components.toml")


_DEFAULT: Catalogue | None = None


def default_catalogue() -> Catalogue:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = catalogue_from_data(default_component_data(), "components.toml")
    return _DEFAULT
