"""Every Mechanica ruling switch and the component data, in one frozen object.

The default is the seeds' reading as documented in docs/rules/mechanica.md. A TOML variant file has
an optional ``[rulings]`` table (any field of :class:`Rulings`) and optional ``[bots]`` / ``[tiles]``
tables whose entries replace the matching fields of the default component data.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import attrs

from bgrules.core.codec import read_package_toml, read_toml, show, structure
from bgrules.core.descriptor import other_games_tables
from bgrules.core.errors import InputError
from bgrules.mechanica.board import CELLS, ROWS, starting_factory
from bgrules.mechanica.components import (
    PROVENANCES,
    Catalogue,
    Zone,
    catalogue_from_data,
    default_catalogue,
    default_component_data,
)


@attrs.frozen(cache_hash=True)
class Rulings:
    """Readings of the open questions; each field's docstring names its rule ID."""

    off_floor: Literal["destroy", "forbid"] = "destroy"
    """MC-MOVE-OFF: a bot carried off the floor (top, bottom, or left into the Start Zone) is destroyed;
    ``forbid``: no improvement may be installed with an exit that leads off the floor except into the dock."""
    loop: Literal["destroy", "forbid"] = "destroy"
    """MC-MOVE-LOOP: a bot that would pass the same cell the same way twice in one run is destroyed;
    ``forbid``: no installation may make such a loop possible for any choice."""
    jigsaw: Literal["published", "strict"] = "published"
    """MC-PLACE-FIT: ``published``: an exit may only touch an entrance; ``strict``: every shared side must
    interlock (exit to entrance, flat to flat)."""
    flight: Literal["flat_side", "both_ways"] = "flat_side"
    """MC-FLIGHT: ``flat_side``: a Flight Tester throws toward its flat side only; ``both_ways``: anywhere
    in its row or column."""
    fabricator_over_fabricator: bool = False
    """MC-PLACE-START: may a fabricator tile be laid over another fabricator tile (not only the printed one)?"""
    bots_per_grade: int = 24
    """MC-STOCK: bots of each grade in the stock (box contents: 24 each, official)."""
    extras_4p: Literal["deck", "unused"] = "deck"
    """MC-SETUP-EXTRAS: with 4 players the 6 extras are shuffled into the deck (``deck``) or left in the box."""
    blueprint_turn: Literal["both", "completed"] = "both"
    """MC-BP-TURN: completing a Blueprint turns both face-up cards (the seed) or only the completed one."""
    tie_break: Literal["shared", "wallet"] = "shared"
    """MC-END-TIE: tied players share the win (the seed gives no tie-break) or the most money in hand wins."""
    shop_recycle: Literal["current", "none"] = "current"
    """MC-SHOP-RECYCLE: a tile falling into the Recycler makes its bot for the player whose turn it is, or none."""
    anytime: Literal["whole_turn", "every_step", "steps_1_3"] = "whole_turn"
    """MC-ANYTIME: the actions of "any time during your turn" (手番中にいつでも: Forks, trucks, Blueprints,
    demolishing). ``whole_turn`` (the seed): at every decision of one's own turn, while a bought tile waits to
    be placed and while a fallen tile is recycled included, and at a decision closing step (4) after the
    Shop has turned and drawn (phase TURN_END, ended by ``Next``), whether or not a tile fell; ``every_step``
    (0.4.0): the same without the closing decision, so step (4) offers them only while a fallen tile is
    recycled; ``steps_1_3`` (0.3.0): only in steps 1-3 outside the waits."""
    blueprint_match: Literal["part", "whole"] = "part"
    """MC-BP-MATCH: a Blueprint's bots are a part of the trucks' load, the rest staying on (``part``), or the
    bots on all the player's trucks together must be exactly the card's combination (``whole``)."""
    flight_landing: Literal["skip_forks", "any_cell"] = "skip_forks"
    """MC-FLIGHT: where a thrown bot may land. ``skip_forks`` (the seed: 装置の上かベルトコンベアの上かトラック,
    on an improvement, a belt or a truck): every cell toward the flat side but a Fork's, which the bot flies
    over (a jump, MC-FLIGHT-JUMP); ``any_cell`` (0.7.3): every cell toward the flat side, a Fork's included."""


@attrs.frozen
class Blueprint:
    """A Blueprint card: the bots it asks for on trucks and the coins it pays into the vault."""

    id: int
    basic: int
    plus: int
    deluxe: int
    value: int
    provenance: str = "assumed"

    @property
    def needs(self) -> tuple[int, int, int]:
        return (self.basic, self.plus, self.deluxe)


@attrs.frozen
class GameData:
    """Set-up, Shop and Blueprint figures of the whole game (data/game.toml)."""

    money: tuple[int, ...]
    extras: int
    improvements: tuple[str, ...]
    dealt: int
    prices: tuple[int, ...]
    blueprints: tuple[Blueprint, ...]
    provenance: dict[str, str] = attrs.field(factory=dict)


def _game_data(data: Mapping[str, Any], source: str) -> GameData:
    setup = data.get("setup", {})
    shop = data.get("shop", {})
    raw = {
        "money": setup.get("money"),
        "extras": setup.get("extras"),
        "improvements": setup.get("improvements"),
        "dealt": setup.get("dealt"),
        "prices": shop.get("prices"),
        "blueprints": data.get("blueprints"),
        "provenance": {
            k[: -len("_provenance")]: v
            for table in (setup, shop)
            for k, v in table.items()
            if k.endswith("_provenance")
        },
    }
    game = structure(raw, GameData, source)
    bad = {k: v for k, v in game.provenance.items() if v not in PROVENANCES}
    bad.update({f"blueprint {b.id}": b.provenance for b in game.blueprints if b.provenance not in PROVENANCES})
    if bad:
        name, value = next(iter(bad.items()))
        raise InputError(f"{source} {name}", f"provenance {value!r}; expected one of {', '.join(PROVENANCES)}")
    ids = [b.id for b in game.blueprints]
    if len(set(ids)) != len(ids):
        raise InputError(f"{source} blueprints", "Blueprint ids must be distinct")
    for b in game.blueprints:
        if min(b.needs) < 0 or sum(b.needs) < 1:
            raise InputError(f"{source} blueprints id {b.id}", "a Blueprint asks for at least one bot, none negative")
    if not game.prices or any(p < 0 for p in game.prices):
        raise InputError(f"{source} shop.prices", "the Shop needs at least one price, none negative")
    if game.dealt > len(game.prices) or game.extras < 0 or sum(game.money) < 0:
        raise InputError(f"{source} setup", "dealt fits the Shop's slots; extras and money are not negative")
    if game.dealt < 0 or any(m < 0 for m in game.money):
        raise InputError(f"{source} setup", "dealt and each coin of the starting money are not negative")
    if len(set(game.improvements)) != len(game.improvements):
        raise InputError(f"{source} setup.improvements", "each improvement kind is named once")
    for b in game.blueprints:
        if b.value < 0:
            raise InputError(f"{source} blueprints id {b.id}", f"a Blueprint's value is not negative, not {b.value}")
    return game


def default_game_data() -> dict[str, Any]:
    return read_package_toml("bgrules.mechanica", "data/game.toml")


_DEFAULT_GAME: GameData | None = None


def default_game() -> GameData:
    global _DEFAULT_GAME
    if _DEFAULT_GAME is None:
        _DEFAULT_GAME = _game_data(default_game_data(), "game.toml")
    return _DEFAULT_GAME


@attrs.frozen
class MechanicaVariant:
    rulings: Rulings = attrs.field(factory=Rulings)
    catalogue: Catalogue = attrs.field(factory=default_catalogue)
    game: GameData = attrs.field(factory=default_game)
    source: str = "default"


def default_variant() -> MechanicaVariant:
    return MechanicaVariant()


def _merge(base: dict[str, Any], override: Mapping[str, Any], where: str) -> None:
    for name, table in override.items():
        if not isinstance(table, Mapping):
            raise InputError(f"{where}.{name}", "expected a table")
        if name in base:
            merged = base[name]
            for key, value in table.items():
                if key == "provenance" and isinstance(value, Mapping) and isinstance(merged.get(key, {}), Mapping):
                    merged[key] = {**merged.get(key, {}), **value}
                else:
                    merged[key] = value
        else:
            base[name] = dict(table)


TITLE = "Mechanica"
"""The game's name in messages about variant files."""

TABLES = ("rulings", "bots", "tiles", "setup", "shop", "blueprints")
"""The tables a Mechanica variant may hold."""


def _other_game(data: Mapping[str, Any], source: str) -> None:
    """Another game's table or ruling in a Mechanica variant is named as such (:func:`other_games_tables`)."""
    other_games_tables(data, source, __name__)


def _check_catalogue(catalogue: Catalogue, source: str) -> None:
    """A variant's component data checked for meaning: no negative copies, values, capacities or sales;
    a bot's grade is its place (basic 0, plus 1, deluxe 2); an upgrade names a truck it upgrades."""
    for g, name in enumerate(("basic", "plus", "deluxe")):
        bot = catalogue.bots[name]
        if bot.sale < 0:
            raise InputError(f"{source} bots.{name}.sale", f"a sale price is not negative, not {bot.sale}")
        if bot.grade != g:
            raise InputError(f"{source} bots.{name}.grade", f"the {name} bot is grade {g}, not {bot.grade}")
    for key, tile in catalogue.tiles.items():
        for field in ("copies", "value", "capacity"):
            if getattr(tile, field) < 0:
                raise InputError(f"{source} tiles.{key}.{field}", f"not negative, not {getattr(tile, field)}")
        if tile.upgrade_price is not None and tile.upgrade_price < 1:
            raise InputError(f"{source} tiles.{key}.upgrade_price", "an upgrade's price is at least 1")
        if tile.upgrade_from is not None:
            base = catalogue.tiles.get(tile.upgrade_from)
            if base is None or base.zone is not Zone.DOCK or tile.zone is not Zone.DOCK:
                trucks = ", ".join(k for k, t in catalogue.tiles.items() if t.zone is Zone.DOCK)
                raise InputError(f"{source} tiles.{key}.upgrade_from", f"a truck upgrades a truck ({trucks})")


def variant_from_data(data: Mapping[str, Any], source: str = "variant") -> MechanicaVariant:
    """A variant from plain data (a TOML file's tables); every problem is an InputError naming the table,
    the key and the valid choices. Checked for meaning: no negative prices, copies, sales, values or
    counts; a bought tile costs at least 1."""
    if not isinstance(data, Mapping):
        raise InputError(source, "a variant is a table of tables ([rulings], [tiles], ...)")
    _other_game(data, source)
    tables = TABLES
    unknown = sorted(str(k) for k in set(data) - set(tables))
    if unknown:
        raise InputError(source, f"unknown table(s) {', '.join(unknown)}; expected {', '.join(tables)}")
    for table in ("rulings", "bots", "tiles", "setup", "shop"):
        if not isinstance(data.get(table, {}), Mapping):
            raise InputError(f"{source} [{table}]", "expected a table")
    if not isinstance(data.get("blueprints", []), list):
        raise InputError(f"{source} [[blueprints]]", "expected a list of tables ([[blueprints]])")
    rulings = structure(data.get("rulings", {}), Rulings, f"{source} [rulings]")
    if rulings.bots_per_grade < 1:
        raise InputError(f"{source} [rulings]", "bots_per_grade must be at least 1")
    if "bots" in data or "tiles" in data:
        components = copy.deepcopy(default_component_data())
        _merge(components["bots"], data.get("bots", {}), f"{source} bots")
        _merge(components["tiles"], data.get("tiles", {}), f"{source} tiles")
        catalogue = catalogue_from_data(components, source)
        _check_catalogue(catalogue, source)
    else:
        catalogue = default_catalogue()
    if {"setup", "shop", "blueprints"} & set(data):
        merged = copy.deepcopy(default_game_data())
        for table in ("setup", "shop"):
            if table in data:
                if not isinstance(data[table], Mapping):
                    raise InputError(f"{source} {table}", "expected a table")
                merged[table].update(data[table])
        if "blueprints" in data:
            merged["blueprints"] = data["blueprints"]
        game = _game_data(merged, source)
    else:
        game = default_game()
    for key in game.improvements:
        tile = catalogue.tiles.get(key)
        if tile is None or tile.printed or tile.price is not None or tile.zone is Zone.DOCK:
            raise InputError(f"{source} setup.improvements", f"{key!r} is not an improvement tile")
    for key, tile in catalogue.tiles.items():
        if tile.price is not None and tile.price < 1:
            raise InputError(f"{source} tiles.{key}", "a bought tile's price is at least 1")
    return MechanicaVariant(rulings=rulings, catalogue=catalogue, game=game, source=source)


def load_variant(spec: MechanicaVariant | str | Path | Mapping[str, Any] | None) -> MechanicaVariant:
    """A variant from None (the default), a variant, a mapping, or a TOML file path."""
    if spec is None:
        return default_variant()
    if isinstance(spec, MechanicaVariant):
        return spec
    if isinstance(spec, Mapping):
        return variant_from_data(spec)
    if not isinstance(spec, str | Path):
        raise InputError("variant", f"a variant is a TOML file's path or a table of tables, not {show(spec)}")
    return variant_from_data(read_toml(spec), str(spec))


# --- what every engine's constructor shares: the options' checks and the bounds on a game's length ---


def game_variant(players: object, variant: Any) -> MechanicaVariant:
    """The variant of a whole game of ``players`` players, loaded from ``variant``; every engine's constructor
    calls it, so that the same options are refused with the same words: 2 to 4 players; a stock that holds
    the bots of every new board (MC-STOCK, MC-SETUP-BOT)."""
    if not isinstance(players, int) or not 2 <= players <= 4:
        raise InputError("players", f"mechanica is for 2 to 4 players, not {players!r}")
    loaded = load_variant(variant)
    per = loaded.rulings.bots_per_grade
    if min(per - players * n for n in starting_factory().bot_counts()) < 0:
        raise InputError("variant", f"bots_per_grade {per} is too small for {players} players")
    return loaded


def max_length(variant: MechanicaVariant, players: int) -> int:
    """MC-END-BOUND, the formula of docs/rules/mechanica.md: every turn with a tile on the Shop turns some tile
    one slot nearer the Recycler, so turns <= tiles x slots + players. Per turn: sales, buys with placements,
    truck buys, Blueprints, demolitions, a Fork per coin the player can ever hold, fabricating, gifts,
    recycling, 3 Nexts; per run: a decision per bot per node, per collision and per activation. Every
    engine's ``info.max_length``."""
    data = variant.game
    n = players
    slots = len(data.prices)
    tiles = sum(variant.catalogue.tiles[k].copies for k in data.improvements)
    turns = (tiles + data.extras) * slots + n
    bots = 3 * variant.rulings.bots_per_grade
    per_run = bots * (CELLS * 5 + 1) + CELLS
    money_cap = sum(data.money) + turns * (bots * 6 + bots * CELLS * 5)
    per_turn = 9 + 2 * slots + 6 + 2 * len(data.blueprints) + 15 + 3 * (n - 1) + 2 + 3
    days = turns // n + 2
    return turns * per_turn + money_cap * 2 + days * n * per_run


DEFAULT_SUPPLY = (
    "upgrader",
    "gift_wrapper",
    "duplicator",
    "downgrader",
    "function_changer",
    "flight_tester",
    "static_charger",
    "advanced_fabricator",
    "overactive_fabricator",
    "fork",
    "fork",
    "big_truck",
    "huge_truck",
)
"""The factory sandbox's supply when none is given (MC-SUPPLY): one of each improvement, two Forks, a Big and
a Huge Truck."""


def sandbox_variant(players: object, days: object, variant: Any) -> MechanicaVariant:
    """The variant of a factory sandbox of ``players`` players and ``days`` days, loaded from ``variant``;
    every sandbox engine's constructor calls it: exactly 1 player; 1 to 1000 days (MC-DAY)."""
    if type(players) is not int or players != 1:
        raise InputError("players", f"mechanica-factory is played by exactly 1 player, not {show(players)}")
    if type(days) is not int or days < 1 or days > 1000:
        raise InputError("days", f"days must be a whole number from 1 to 1000, not {show(days)}")
    return load_variant(variant)


def sandbox_supply(supply: object, variant: MechanicaVariant) -> tuple[str, ...]:
    """MC-SUPPLY: the sandbox's supply (``DEFAULT_SUPPLY`` when None), a list of installable tile kinds; every
    sandbox engine's constructor calls it."""
    if supply is not None and (isinstance(supply, str | bytes) or not isinstance(supply, Sequence)):
        raise InputError("supply", "the supply is a list of tile kinds, e.g. ['upgrader', 'fork']")
    kinds: tuple[Any, ...] = tuple(DEFAULT_SUPPLY if supply is None else supply)
    for key in kinds:
        if not isinstance(key, str):
            raise InputError("supply", f"{show(key)} is not a tile kind")
        kind = variant.catalogue.tiles.get(key)
        if kind is None or kind.printed:
            raise InputError("supply", f"{key!r} is not an installable tile kind")
    return kinds


def sandbox_max_length(variant: MechanicaVariant, days: int, supply: int) -> int:
    """The factory sandbox's bound on a game's actions (``info.max_length``; docs/rules/mechanica.md,
    Termination, the sandbox): per run every bot may face one decision per node it enters (at most 60 nodes
    before a loop), plus one collision decision per bot and one activation decision per cell; per turn:
    sales, one install or demolition per supply tile each way, and the fabricate action."""
    bots = 3 * variant.rulings.bots_per_grade
    per_run = bots * (CELLS * 5) + bots + CELLS
    per_turn = 3 * 3 + 2 * supply + 2 * ROWS + 1
    return days * (per_run + per_turn)
