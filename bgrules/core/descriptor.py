"""One descriptor per game: everything the registries, runners, agents, adapters and pictures know about a
game, in one frozen object, and their discovery through the entry-point group ``bgrules.games``
(docs/extending.md).

A game package exports its descriptor (``bgrules.botfactory:DESCRIPTOR``, ``bgrules.mechanica:MECHANICA`` and
``bgrules.mechanica:FACTORY``) and declares it in its ``pyproject.toml``::

    [project.entry-points."bgrules.games"]
    nim = "nim_game:DESCRIPTOR"

Parts. Every part besides ``game`` is optional (None: the game lacks it, and a tool that needs it says so in
one line). A part is either the object itself or a ``"module:attr"`` string (``attr`` may be dotted),
imported on first use by :meth:`GameDescriptor.part`: a descriptor costs nothing to construct and a game
package's ``__init__`` stays light. This module imports nothing above :mod:`bgrules.core`: the parts of the
shipped games are strings, so that neither the registries nor the descriptors import a game, an agent, an
adapter or a picture before it is used.

Discovery (:func:`discover`): the shipped games first, in the order of :data:`BUILTIN` (so that they load
even when the installed metadata lacks the entry points, e.g. an editable install made from an older
checkout), then every entry point of the group, sorted by distribution and entry-point name; a name seen
before is skipped (the same descriptor declared twice, e.g. the shipped games' own entry points) or reported
(another package's game of a taken name). An entry point that fails to import, or gives something that is no
well-formed descriptor, is one problem line naming its package; the other games still load.
"""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar

import attrs

from bgrules.core.codec import show
from bgrules.core.errors import InputError

GROUP = "bgrules.games"
"""The entry-point group of game descriptors."""

BUILTIN: tuple[tuple[str, str], ...] = (
    ("botfactory", "bgrules.botfactory:DESCRIPTOR"),
    ("mechanica", "bgrules.mechanica:MECHANICA"),
    ("mechanica-factory", "bgrules.mechanica:FACTORY"),
)
"""The shipped games' entry points (name, ``module:attr``), as pyproject.toml declares them (a test checks
that the two agree): loaded first, whatever the installed metadata holds."""

Part = Any
"""A descriptor's part: the object itself, or a ``"module:attr"`` string imported on first use."""

_NAME = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")
_TARGET = re.compile(r"^[A-Za-z_][\w.]*(?::[A-Za-z_][\w.]*)?$")

PARTS = (
    "game",
    "reference",
    "variant",
    "evaluation",
    "observation",
    "observation_specs",
    "action_space",
    "adapter_parser",
    "picture",
    "text_picture",
    "narration",
    "tie_break",
    "state_type",
    "symmetries",
    "figures",
)
"""The fields of :class:`GameDescriptor` that hold parts (objects or ``"module:attr"`` strings)."""

_MEANING = {
    "game": "Game class",
    "reference": "reference engine",
    "variant": "variant module (Rulings)",
    "evaluation": "evaluation for the agents",
    "observation": "observation writer",
    "observation_specs": "one-hot observation specs",
    "action_space": "action codec",
    "adapter_parser": "adapter parameters parser",
    "picture": "picture function",
    "text_picture": "text picture of a state",
    "narration": "narration of a step",
    "tie_break": "tie-break words",
    "state_type": "state class",
    "symmetries": "symmetries (canonical states)",
    "figures": "pinned seed figures",
}


def _pairs(value: Any) -> tuple[tuple[str, Any], ...]:
    """A mapping (or pairs) as a tuple of pairs in its own order: hashable, and frozen like the descriptor."""
    if isinstance(value, Mapping):
        return tuple(value.items())
    return tuple(tuple(p) for p in value)


@attrs.frozen
class GameDescriptor:
    """What bgrules knows about one game (see the module's documentation for parts and discovery)."""

    name: str
    """The game's name in ``load_game(name)``, ``--game`` and ``bgrules games``: lower case, words joined by -."""
    game: Part
    """The Game class (or factory), called ``game(players=n, variant=variant, **options)``."""
    players: tuple[int, int]
    """The player counts ``(least, most)``."""
    default_players: int
    options: tuple[tuple[str, str], ...] = attrs.field(default=(), converter=_pairs)
    """The options ``load_game`` takes besides ``players`` and ``variant``, each with its meaning (a mapping
    is accepted and kept as pairs in its order)."""
    reference: Part | None = None
    """The reference engine's class (``load_game(name, reference=True)``), called as ``game`` is."""
    variant: Part | None = None
    """The variant module: its ``Rulings`` class is a variant file's ``[rulings]`` table (``bgrules games``)."""
    rule_prefix: str | None = None
    """The prefix of the game's rule IDs (``BF``, ``MC``: ``BF-END``)."""
    rules_doc: str | None = None
    """The stem of the game's rules document in the rules directory (docs/rules/<stem>.md); games playing
    one document's rules share it (``mechanica`` and ``mechanica-factory``)."""
    evaluation: Part | None = None
    """An object (a module) with ``evaluate(game, state, seat) -> float`` and ``SCALE`` (a typical lead)."""
    observation: Part | None = None
    """``write(game, state, observer, out)`` appending the (name, int) pairs of the observation vector."""
    observation_specs: Part | None = None
    """``specs(game, names) -> tuple[Spec, ...]``: the one-hot encoding of each observation entry."""
    action_space: Part | None = None
    """``build(game) -> (actions, chance outcomes)``: the fixed action numbering of the adapters."""
    adapter_options: tuple[tuple[str, Any], ...] = attrs.field(default=(), converter=_pairs)
    """Options both adapters (OpenSpiel, PettingZoo) fill in when not given, e.g. a round cap so that every
    game ends (Bot Factory: ``max_rounds``, the runners' cap)."""
    adapter_parameters: tuple[tuple[str, Any], ...] = attrs.field(default=(), converter=_pairs)
    """The OpenSpiel parameters of the other options, with their defaults as plain values (text, numbers)."""
    adapter_parser: Part | None = None
    """``parse(params) -> options``: OpenSpiel parameters (those of ``adapter_options`` and
    ``adapter_parameters``, defaults filled in) to ``load_game`` options; None: every one as given."""
    rewards: str = "win"
    """The adapters' default rewards: ``"win"`` or ``"score"``."""
    chance: bool = True
    """Whether the game has chance nodes (OpenSpiel's chance mode)."""
    picture: Part | None = None
    """``draw(game, state) -> str``: the SVG text of a state (:func:`bgrules.pictures.draw`)."""
    text_picture: Part | None = None
    """``text(game, state) -> str | None``: a state in plain text (``bgrules replay``, the PettingZoo
    adapter's ``human`` render); None, or a None answer: the state's JSON."""
    narration: Part | None = None
    """``words(game, before, action, after) -> str``: one step in game terms (the traces' and pages' text;
    None: the mover and the action's repr)."""
    tie_break: Part | None = None
    """``words(game, state, tied, winners) -> str``: what decided a shared best score, with its rule ID
    (None: nothing said)."""
    state_type: Part | None = None
    """The class of the game's states (the pictures tell a state of another game by it)."""
    symmetries: Part | None = None
    """``canonical(game, state)``: a hashable key equal for states the game declares symmetric (explore)."""
    figures: Part | None = None
    """The tuple of the seed's pinned figures (:class:`bgrules.core.figures.Figure`)."""
    specs: str | Path | None = None
    """The directory of the game's own invariant specs (``bgrules verify --specs``)."""

    def part(self, field: str, tool: str | None = None) -> Any:
        """The part ``field``, imported when it is a ``"module:attr"`` string. A part the game lacks, or one
        that cannot be imported, is an InputError in one line naming ``tool`` (e.g. ``pictures``)."""

        value = getattr(self, field)
        where = tool or field
        if value is None:
            raise InputError(where, f"game {self.name!r} provides no {_MEANING.get(field, field)}")
        if not isinstance(value, str):
            return value
        try:
            return resolve(value)
        except Exception as exc:  # an entry point's code may raise anything: report it, in one line
            why = _one_line(exc)
            raise InputError(where, f"game {self.name!r}: its {field} {value} cannot be loaded: {why}") from None

    def has(self, field: str) -> bool:
        return getattr(self, field) is not None

    def option_names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.options)

    def problems(self) -> list[str]:
        """What is malformed in this descriptor (empty when it is well formed); nothing is imported."""
        out: list[str] = []
        if not isinstance(self.name, str) or not _NAME.match(self.name):
            out.append(f"name {self.name!r} is not lower-case words joined by -")
        lohi = self.players
        if (
            not isinstance(lohi, tuple)
            or len(lohi) != 2
            or not all(type(n) is int for n in lohi)
            or not 1 <= lohi[0] <= lohi[1]
        ):
            out.append(f"players {lohi!r} is not (least, most) with 1 <= least <= most")
        elif type(self.default_players) is not int or not lohi[0] <= self.default_players <= lohi[1]:
            out.append(f"default_players {self.default_players!r} is not within players {lohi!r}")
        if self.game is None:
            out.append("it names no game (Game class)")
        for name, meaning in self.options:
            if not isinstance(name, str) or not name.isidentifier() or not isinstance(meaning, str):
                out.append(f"option {name!r}: a keyword name with a meaning in words, not {meaning!r}")
        for field in PARTS:
            value = getattr(self, field)
            if isinstance(value, str) and not _TARGET.match(value):
                out.append(f"{field} {value!r} is not a 'module:attr' path")
        if self.rewards not in ("win", "score"):
            out.append(f"rewards {self.rewards!r} is not 'win' or 'score'")
        if self.rule_prefix is not None and not re.fullmatch(r"[A-Z][A-Z0-9]*", str(self.rule_prefix)):
            out.append(f"rule_prefix {self.rule_prefix!r} is not upper-case letters")
        return out


K = TypeVar("K")
V = TypeVar("V")


class Table(Mapping[K, V]):
    """A read-only table computed from the descriptors each time it is read (so that it follows
    :func:`forget`): what the registries' tables of names (``registry.GAMES``, ``catalog.OPTION_MEANINGS``,
    ...) now are."""

    def __init__(self, build: Callable[[], Mapping[K, V]], what: str) -> None:
        self._build = build
        self._what = what

    def __getitem__(self, key: K) -> V:
        return self._build()[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._build())

    def __len__(self) -> int:
        return len(self._build())

    def __repr__(self) -> str:
        return f"<{self._what}: {dict(self._build())!r}>"


def resolve(target: str) -> Any:
    """The object a ``"module:attr"`` path names (``attr`` may be dotted; no ``:attr``: the module)."""
    module, _, attr = target.partition(":")
    found: Any = importlib.import_module(module)
    for piece in attr.split(".") if attr else ():
        found = getattr(found, piece)
    return found


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


@attrs.frozen
class Discovery:
    """The games found (in order, names unique) and a line per problem met on the way."""

    descriptors: tuple[GameDescriptor, ...]
    problems: tuple[str, ...]
    packages: tuple[tuple[str, str], ...] = ()
    """(game name, the package that provides it), in the order of ``descriptors``."""

    def package(self, name: str) -> str:
        return dict(self.packages).get(name, "?")

    def by_name(self) -> dict[str, GameDescriptor]:
        return {d.name: d for d in self.descriptors}


def _entry_points() -> list[tuple[str, str, Callable[[], Any]]]:
    """(package, entry point name, loader) of each entry point of :data:`GROUP`, sorted by package and name."""
    from importlib.metadata import entry_points

    out = []
    for ep in entry_points(group=GROUP):
        dist = getattr(ep, "dist", None)
        package = getattr(dist, "name", None) or ep.value.partition(":")[0].partition(".")[0]
        out.append((str(package), str(ep.name), ep.load))
    out.sort(key=lambda row: (row[0], row[1]))
    return out


def _builtin() -> list[tuple[str, str, Callable[[], Any]]]:
    return [("bgrules", name, functools.partial(resolve, target)) for name, target in BUILTIN]


def _found(value: Any) -> list[Any]:
    if isinstance(value, GameDescriptor):
        return [value]
    if isinstance(value, list | tuple) and value and all(isinstance(v, GameDescriptor) for v in value):
        return list(value)
    return [value]


def collect(sources: Iterable[tuple[str, str, Callable[[], Any]]]) -> Discovery:
    """The games of ``sources`` (package, entry point name, loader) in their order, de-duplicated by name."""
    games: dict[str, GameDescriptor] = {}
    owner: dict[str, str] = {}
    problems: list[str] = []
    for package, ep_name, load in sources:
        where = f"package {package} (entry point {ep_name!r} of {GROUP})"
        try:
            loaded = load()
        except Exception as exc:  # an entry point's code may raise anything: report it, in one line
            problems.append(f"{where}: cannot be loaded: {_one_line(exc)}")
            continue
        for value in _found(loaded):
            if not isinstance(value, GameDescriptor):
                problems.append(f"{where}: gives a {type(value).__name__}, not a bgrules GameDescriptor")
                continue
            try:
                wrong = value.problems()
            except Exception as exc:  # a field of a shape problems() cannot even read
                wrong = [_one_line(exc)]
            if wrong:
                problems.append(f"{where}: a malformed descriptor: {'; '.join(wrong)}")
                continue
            if value.name in games:
                if games[value.name] != value:
                    problems.append(
                        f"{where}: game {value.name!r} is already provided by package {owner[value.name]}; ignored"
                    )
                continue
            games[value.name] = value
            owner[value.name] = package
    return Discovery(tuple(games.values()), tuple(problems), tuple(owner.items()))


@functools.cache
def discover() -> Discovery:
    """The shipped games, then the entry points' (cached: :func:`forget` clears it)."""
    try:
        points = _entry_points()
        trouble: list[str] = []
    except Exception as exc:  # broken metadata: the shipped games still load
        points, trouble = [], [f"the entry points of {GROUP} cannot be read: {_one_line(exc)}"]
    found = collect(_builtin() + points)
    return Discovery(found.descriptors, (*trouble, *found.problems), found.packages)


@functools.cache
def _by_name() -> dict[str, GameDescriptor]:
    return discover().by_name()


def forget() -> None:
    """Forget what :func:`discover` found (after installing a game, or in a test)."""
    discover.cache_clear()
    _by_name.cache_clear()


def descriptors() -> tuple[GameDescriptor, ...]:
    """Every game's descriptor, sorted by name."""
    return tuple(sorted(discover().descriptors, key=lambda d: d.name))


def descriptor(name: str, where: str = "game") -> GameDescriptor:
    """The descriptor of the game ``name``; an unknown name is an InputError listing the known ones."""
    found = _by_name().get(name) if isinstance(name, str) else None
    if found is None:
        known = ", ".join(d.name for d in descriptors())
        raise InputError(where, f"unknown game {show(name)}; known: {known}")
    return found


def find(name: Any) -> GameDescriptor | None:
    """The descriptor of ``name``, or None (no error)."""
    return _by_name().get(name) if isinstance(name, str) else None


def other_games_tables(data: Mapping[str, Any], source: str, mine: str) -> None:
    """A variant file of the game whose variant module is ``mine`` that holds another game's table or
    ruling (read from the other descriptors' variant modules: ``TABLES``, ``Rulings``, ``TITLE``) is an
    InputError naming that game, the table or ruling and this game's own."""
    own: Any = importlib.import_module(mine)
    title = getattr(own, "TITLE", mine)
    tables = tuple(getattr(own, "TABLES", ()))
    ours = {a.name for a in attrs.fields(own.Rulings)}
    seen: set[str] = {mine}
    for d in descriptors():
        if not isinstance(d.variant, str) or d.variant in seen:
            continue
        seen.add(d.variant)
        try:
            other: Any = resolve(d.variant)
        except Exception:  # a game whose variant module fails to load has no tables to confuse with
            continue
        theirs = getattr(other, "TITLE", d.name)
        foreign = sorted(str(k) for k in data if k not in tables and k in tuple(getattr(other, "TABLES", ())))
        if foreign:
            raise InputError(
                f"{source} [{foreign[0]}]",
                f"[{foreign[0]}] is a {theirs} table, not a {title} one; {title}'s: {', '.join(tables)}",
            )
        rulings = data.get("rulings")
        kinds = getattr(other, "Rulings", None)
        if isinstance(rulings, Mapping) and isinstance(kinds, type) and attrs.has(kinds):
            names = {a.name for a in attrs.fields(kinds)}
            wrong = sorted(str(k) for k in rulings if k not in ours and k in names)
            if wrong:
                raise InputError(
                    f"{source} [rulings] {wrong[0]}",
                    f"{wrong[0]} is a {theirs} ruling, not a {title} one; {title}'s: {', '.join(sorted(ours))}",
                )


def text_picture(game: Any, state: Any) -> str | None:
    """A text picture of ``state`` where the game's descriptor has one (``text_picture``: Mechanica's
    factories), else None."""
    found = find(getattr(getattr(game, "info", None), "name", ""))
    if found is None or found.text_picture is None:
        return None
    text = found.part("text_picture", "picture")(game, state)
    return text if isinstance(text, str) else None


__all__ = [
    "BUILTIN",
    "GROUP",
    "Discovery",
    "GameDescriptor",
    "Table",
    "collect",
    "descriptor",
    "descriptors",
    "discover",
    "find",
    "forget",
    "other_games_tables",
    "resolve",
    "text_picture",
]
