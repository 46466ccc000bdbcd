"""The seeds' figures, pinned: each number a seed states, written here independently of the component data.

Each game keeps a table of :class:`Figure` rows (``bgrules.<game>.figures``): the figure's name, the value the
seed states, the seed file and line, the quote in the seed's language with an English translation, and an
accessor reading that figure from a loaded game (its variant's component data). :func:`departures` lists the
figures a game's variant departs from. The ``game`` specs of ``specs/botfactory.toml`` and
``specs/mechanica.toml`` whose predicate is :func:`pinned` check the default variants (a changed figure in
``data/*.toml`` fails verify, naming the figure and quoting its seed line); the commands taking ``--variant``
report a variant's departures under ``seed_departures`` (docs/verify.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from bgrules.core.descriptor import Table, descriptors, find

GAMES: Table[str, Any] = Table(lambda: {d.name: d.figures for d in descriptors() if d.figures is not None}, "GAMES")
"""The games with pinned figures, and the table of each (its descriptor's ``figures`` part)."""


@attrs.frozen
class Figure:
    game: str
    name: str
    seed: Any
    """The value the seed states (a number or a tuple of numbers)."""
    file: str
    """The seed file's name (in /work/shared/seeds)."""
    line: int
    quote: str
    """A part of the seed line, verbatim, in the seed's language."""
    english: str
    read: Callable[[Any], Any] = attrs.field(repr=False, eq=False)
    """The figure as a loaded game (its variant) has it."""

    def cite(self) -> str:
        return f"{self.file} line {self.line}: {self.quote} ({self.english})"


def _table_of(game: str) -> tuple[Figure, ...]:
    found = find(game)
    if found is None or found.figures is None:
        return ()
    table: tuple[Figure, ...] = found.part("figures")
    return table


def seed_figures(game: str) -> tuple[Figure, ...]:
    """The pinned figures of a game by name (``botfactory``, ``mechanica``); none for other games."""
    return _table_of(game)


def departures(game: Any) -> list[dict[str, Any]]:
    """The seed figures a loaded game's variant departs from: ``{figure, seed, variant, line, quote}`` each,
    in table order (empty for the default variants, or for a game without pinned figures)."""
    out: list[dict[str, Any]] = []
    for fig in _table_of(str(getattr(game.info, "name", ""))):
        value = fig.read(game)
        if value != fig.seed:
            out.append(
                {
                    "figure": fig.name,
                    "seed": _plain(fig.seed),
                    "variant": _plain(value),
                    "line": fig.line,
                    "quote": fig.quote,
                }
            )
    return out


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def describe(found: list[dict[str, Any]]) -> str:
    """One line: the departures, or that there are none."""
    if not found:
        return "seed figures: the variant departs from none"
    parts = [f"{d['figure']} {d['variant']} (seed {d['seed']}, line {d['line']})" for d in found]
    return "seed figures departed from: " + "; ".join(parts)


def pinned(game: Any, final: Any, steps: int) -> str | None:
    """A ``game`` spec predicate: every pinned figure of the default variant equals the seed's (None), else
    each departure named with its seed line. A game loaded from a variant file is a variant: it may depart
    (its reports say where, ``seed_departures``), so the check passes it."""
    if getattr(getattr(game, "variant", None), "source", "default") != "default":
        return None
    found = departures(game)
    if not found:
        return None
    by_name = {f.name: f for f in _table_of(str(game.info.name))}
    return "; ".join(
        f"{d['figure']} is {d['variant']}, the seed says {d['seed']} ({by_name[d['figure']].cite()})" for d in found
    )
