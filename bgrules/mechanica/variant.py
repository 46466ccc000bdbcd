"""Every Mechanica ruling switch and the component data, in one frozen object.

The default is the seeds' reading as documented in docs/rules/mechanica.md. A TOML variant file has
an optional ``[rulings]`` table (any field of :class:`Rulings`) and optional ``[bots]`` / ``[tiles]``
tables whose entries replace the matching fields of the default component data.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import attrs

from bgrules.core.codec import read_package_toml, read_toml, structure
from bgrules.core.errors import InputError
from bgrules.mechanica.components import (
    PROVENANCES,
    Catalogue,
    Zone,
    catalogue_from_data,
    default_catalogue,
    default_component_data,
)


@attrs.frozen
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
    anytime: Literal["every_step", "steps_1_3"] = "every_step"
    """MC-ANYTIME: the actions of "any time during your turn" (手番中にいつでも: Forks, trucks, Blueprints,
    demolishing) are legal at every decision of one's own turn, while a bought tile waits to be placed and
    while a fallen tile is recycled included (the seed), or only in steps 1-3 outside those waits (0.3.0)."""
    blueprint_match: Literal["part", "whole"] = "part"
    """MC-BP-MATCH: a Blueprint's bots are a part of the trucks' load, the rest staying on (``part``), or the
    bots on all the player's trucks together must be exactly the card's combination (``whole``)."""


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
                if key == "provenance" and isinstance(value, Mapping):
                    merged.setdefault("provenance", {}).update(value)
                else:
                    merged[key] = value
        else:
            base[name] = dict(table)


def variant_from_data(data: Mapping[str, Any], source: str = "variant") -> MechanicaVariant:
    tables = ("rulings", "bots", "tiles", "setup", "shop", "blueprints")
    unknown = sorted(set(data) - set(tables))
    if unknown:
        raise InputError(source, f"unknown table(s) {', '.join(unknown)}; expected {', '.join(tables)}")
    rulings = structure(data.get("rulings", {}), Rulings, f"{source} [rulings]")
    if rulings.bots_per_grade < 1:
        raise InputError(f"{source} [rulings]", "bots_per_grade must be at least 1")
    if "bots" in data or "tiles" in data:
        components = copy.deepcopy(default_component_data())
        _merge(components["bots"], data.get("bots", {}), f"{source} bots")
        _merge(components["tiles"], data.get("tiles", {}), f"{source} tiles")
        catalogue = catalogue_from_data(components, source)
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
    return variant_from_data(read_toml(spec), str(spec))
