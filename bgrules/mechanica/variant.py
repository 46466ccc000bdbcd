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

from bgrules.core.codec import read_toml, structure
from bgrules.core.errors import InputError
from bgrules.mechanica.components import Catalogue, catalogue_from_data, default_catalogue, default_component_data


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


@attrs.frozen
class MechanicaVariant:
    rulings: Rulings = attrs.field(factory=Rulings)
    catalogue: Catalogue = attrs.field(factory=default_catalogue)
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
    unknown = sorted(set(data) - {"rulings", "bots", "tiles", "game"})
    if unknown:
        raise InputError(source, f"unknown table(s) {', '.join(unknown)}; expected rulings, bots, tiles")
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
    return MechanicaVariant(rulings=rulings, catalogue=catalogue, source=source)


def load_variant(spec: MechanicaVariant | str | Path | Mapping[str, Any] | None) -> MechanicaVariant:
    """A variant from None (the default), a variant, a mapping, or a TOML file path."""
    if spec is None:
        return default_variant()
    if isinstance(spec, MechanicaVariant):
        return spec
    if isinstance(spec, Mapping):
        return variant_from_data(spec)
    return variant_from_data(read_toml(spec), str(spec))
