"""A fixed action space per game: an index for every action a game can ever offer (docs/integrations.md).

OpenSpiel and PettingZoo number actions ``0 .. n-1`` once per game; bgrules' actions are small frozen values.
:func:`action_space` lists, for one loaded game (its player count, options and variant data), every action
its players can ever be offered and, apart, every outcome its chance nodes can ever give, each list in a
fixed order; :func:`encode` and :func:`decode` go between an action and its index.

The order is built deterministically from the action classes and the game's data, never from the order of
a set: the game's action classes in the order of ``game.action_types()``; within a class the product of its
fields' values, the first field slowest, each field's values in the order of the game's data (colours and
slots as the components list them, tile kinds as the catalogue lists them, rows, columns and rotations
counting up). The few fields that hold a combination are enumerated by rule:

- Mechanica ``Complete(pile, take)``: per pile, per distinct bot combination of the Blueprints (in the
  order of the cards' ids), every way of taking that many bots of each grade from the three trucks;
- ``Fabricate(declare, replace)``: declarations of 0 up to as many Overactive Fabricators as the Start Zone
  can hold (the lesser of its rows and the tiles' copies), times every sorted subset of the rows;
- Bot Factory ``Trade(parts, colour)``: every sorted multiset of three part names (the 12 colour parts
  colour-major, then the 3 Universal parts), times the colour; ``Exchange(projects, slot)``: every sorted
  multiset of two Project colours, times the Universal slot.

Player actions and chance outcomes are disjoint classes (Mechanica ``Draw``, ``Reveal``; Bot Factory
``DrawPart``, ``DrawProject``, ``DrawContract``) and are numbered in two spaces: ``space.size`` player
actions, ``space.chance_size`` chance outcomes. ``tests/integrations/test_openspiel.py`` checks that every legal action
and chance outcome met in seeded random playouts of every game and player count encodes to an index that
decodes to itself, and that indices are unique.
"""

from __future__ import annotations

import itertools
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from bgrules.core.codec import show, show_action
from bgrules.core.descriptor import descriptors, find
from bgrules.core.errors import InputError
from bgrules.core.protocol import Game
from bgrules.mechanica.base import PILES
from bgrules.mechanica.components import Bot, Dir, Zone
from bgrules.mechanica.factory import COLS, DOCK_COL, ROWS

CHANCE_TYPE_NAMES = ("Draw", "Reveal", "DrawPart", "DrawProject", "DrawContract")
"""The action classes that are chance outcomes (numbered in the chance space)."""


class ActionSpace:
    """The fixed numbering of one game's actions: ``actions[i]`` is the player action of index ``i``,
    ``chance[j]`` the chance outcome of index ``j``."""

    def __init__(self, name: str, players: int, actions: Sequence[Any], chance: Sequence[Any]) -> None:
        self.name = name
        self.players = players
        self.actions: tuple[Any, ...] = tuple(actions)
        self.chance: tuple[Any, ...] = tuple(chance)
        self._index = _numbered(self.actions, "player action")
        self._chance_index = _numbered(self.chance, "chance outcome")

    @property
    def size(self) -> int:
        """How many player actions the space numbers."""
        return len(self.actions)

    @property
    def chance_size(self) -> int:
        """How many chance outcomes the space numbers."""
        return len(self.chance)

    def encode(self, action: Any) -> int:
        """The index of a player action; InputError for an action this game can never offer."""
        try:
            return self._index[action]
        except (KeyError, TypeError):
            raise InputError("action", f"{show_action(action)} is no action of {self.name}'s action space") from None

    def encode_chance(self, outcome: Any) -> int:
        """The index of a chance outcome; InputError for an outcome this game's chance never gives."""
        try:
            return self._chance_index[outcome]
        except (KeyError, TypeError):
            raise InputError("action", f"{show_action(outcome)} is no chance outcome of {self.name}") from None

    def decode(self, index: int) -> Any:
        """The player action of ``index``; InputError for an index outside ``0 .. size-1``."""
        return _at(self.actions, index, f"{self.name} action index")

    def decode_chance(self, index: int) -> Any:
        """The chance outcome of ``index``; InputError for an index outside ``0 .. chance_size-1``."""
        return _at(self.chance, index, f"{self.name} chance outcome index")


def _numbered(values: tuple[Any, ...], what: str) -> dict[Any, int]:
    index: dict[Any, int] = {}
    for i, value in enumerate(values):
        if value in index:
            raise AssertionError(f"the {what} {value!r} is numbered twice ({index[value]} and {i})")
        index[value] = i
    return index


def _at(values: tuple[Any, ...], index: int, where: str) -> Any:
    if type(index) is not int and not (hasattr(index, "__index__") and not isinstance(index, bool | float)):
        raise InputError(where, f"expected a whole number, not {show(index)}")
    i = int(index)
    if not 0 <= i < len(values):
        raise InputError(where, f"{i} is outside 0 to {len(values) - 1}")
    return values[i]


_SPACES: weakref.WeakKeyDictionary[Any, ActionSpace] = weakref.WeakKeyDictionary()


def action_space(game: Game) -> ActionSpace:
    """The fixed action space of a loaded game (built once per game object)."""
    found = _SPACES.get(game)
    if found is None:
        name = game.info.name

        described = find(name)
        if described is None or described.action_space is None:
            known = ", ".join(d.name for d in descriptors() if d.action_space is not None)
            raise InputError("game", f"no action space for the game {show(name)}; known: {known}")
        builder: Callable[[Any], tuple[list[Any], list[Any]]] = described.part("action_space", "actions")
        actions, chance = builder(game)
        found = _SPACES[game] = ActionSpace(name, game.players, actions, chance)
    return found


def encode(game: Game, action: Any) -> int:
    """The index of ``action`` (a player action or a chance outcome) in ``game``'s fixed action space."""
    space = action_space(game)
    if type(action).__name__ in CHANCE_TYPE_NAMES:
        return space.encode_chance(action)
    return space.encode(action)


def decode(game: Game, index: int, chance: bool = False) -> Any:
    """The player action (``chance=True``: the chance outcome) of ``index`` in ``game``'s space."""
    space = action_space(game)
    return space.decode_chance(index) if chance else space.decode(index)


def ranges(game: Game) -> list[tuple[str, int, int]]:
    """Each action class of ``game``'s space with its first and last index, player actions first, then the
    chance outcomes (each class's indices are consecutive)."""
    space = action_space(game)
    out: list[tuple[str, int, int]] = []
    for values in (space.actions, space.chance):
        for i, value in enumerate(values):
            name = type(value).__name__
            if out and out[-1][0] == name and out[-1][2] == i - 1:
                out[-1] = (name, out[-1][1], i)
            else:
                out.append((name, i, i))
    return out


def size(game: Game) -> int:
    """How many player actions ``game``'s space numbers."""
    return action_space(game).size


# --- per game ---------------------------------------------------------------------------------------


def _product(cls: Callable[..., Any], *domains: Iterable[Any]) -> Iterator[Any]:
    for values in itertools.product(*(tuple(d) for d in domains)):
        yield cls(*values)


def _split(classes: Sequence[type], build: dict[str, Callable[[type], Iterable[Any]]]) -> tuple[list[Any], list[Any]]:
    """Every class of ``classes`` (the game's order) enumerated by ``build`` (by class name): a class
    without a builder has no fields and one action. Chance classes go to the second list."""
    actions: list[Any] = []
    chance: list[Any] = []
    for cls in classes:
        maker = build.get(cls.__name__)
        values = list(maker(cls)) if maker is not None else [cls()]
        (chance if cls.__name__ in CHANCE_TYPE_NAMES else actions).extend(values)
    return actions, chance


def _mechanica_common(game: Any) -> dict[str, Callable[[type], Iterable[Any]]]:
    """The Mechanica board's actions, shared by the whole game and the factory sandbox."""

    cat = game.variant.catalogue
    rows, cols = range(ROWS), range(COLS)
    floor_holes = range(max([len(k.outputs) for k in cat.of_zone(Zone.FLOOR)] + [1]))
    overactive = sum(k.copies for k in cat.tiles.values() if k.makes == "any")
    bots = tuple(Bot)
    return {
        "Route": lambda c: _product(c, rows, cols, tuple(Dir)),
        "Fly": lambda c: _product(c, rows, cols, rows, range(DOCK_COL + 1)),
        "Discard": lambda c: _product(c, rows, range(DOCK_COL + 1), bots),
        "Change": lambda c: _product(c, rows, cols, bots),
        "ChooseOutput": lambda c: _product(c, rows, cols, floor_holes),
        "Sell": lambda c: _product(c, rows, bots),
        "Demolish": lambda c: _product(c, rows, cols),
        "DemolishFabricator": lambda c: _product(c, rows),
        "Fabricate": lambda c: (
            c(declare, replace)
            for n in range(min(ROWS, overactive) + 1)
            for declare in itertools.product(bots, repeat=n)
            for k in range(ROWS + 1)
            for replace in itertools.combinations(rows, k)
        ),
    }


def _start_holes(game: Any) -> range:
    return range(max([len(k.outputs) for k in game.variant.catalogue.of_zone(Zone.START)] + [1]))


def _takes(needs: tuple[int, int, int]) -> Iterator[tuple[tuple[int, Any], ...]]:
    """Every way of taking ``needs`` (Basic, Plus, Deluxe) bots from the trucks of rows 0..ROWS-1, as the
    sorted (row, bot) pairs of ``Complete.take``."""

    per_grade = []
    for grade, need in zip(Bot, needs, strict=True):
        per_grade.append(
            [
                tuple((r, grade) for r in range(ROWS) for _ in range(split[r]))
                for split in itertools.product(range(need + 1), repeat=ROWS)
                if sum(split) == need
            ]
        )
    for combo in itertools.product(*per_grade):
        yield tuple(sorted(x for part in combo for x in part))


def _mechanica(game: Any) -> tuple[list[Any], list[Any]]:

    cat = game.variant.catalogue
    rows, cols, rots = range(ROWS), range(COLS), range(4)
    holes = _start_holes(game)
    cards = sorted(game.cards.values(), key=lambda b: b.id)
    combos = list(dict.fromkeys(b.needs for b in cards))
    trucks = tuple(k.key for k in cat.of_zone(Zone.DOCK) if k.price is not None or k.upgrade_price is not None)
    build = _mechanica_common(game)
    build.update(
        {
            "Buy": lambda c: _product(c, range(len(game.prices))),
            "Place": lambda c: _product(c, rows, cols, rots),
            "PlaceFabricator": lambda c: _product(c, rows),
            "Recycle": lambda c: _product(c, rows, holes),
            "BuyFork": lambda c: _product(c, rows, cols, rots),
            "BuyTruck": lambda c: _product(c, trucks, rows),
            "Complete": lambda c: (
                c(pile, take) for pile in range(PILES) for needs in combos for take in _takes(needs)
            ),
            "Gift": lambda c: _product(c, tuple(Bot), rows, holes),
            "Draw": lambda c: _product(c, game.kinds),
            "Reveal": lambda c: _product(c, tuple(b.id for b in cards)),
        }
    )
    return _split(game.action_types(), build)


def _mechanica_factory(game: Any) -> tuple[list[Any], list[Any]]:

    cat = game.variant.catalogue
    rows, cols, rots = range(ROWS), range(COLS), range(4)
    floor = tuple(k.key for k in cat.of_zone(Zone.FLOOR))
    start = tuple(k.key for k in cat.of_zone(Zone.START) if not k.printed)
    dock = tuple(k.key for k in cat.of_zone(Zone.DOCK) if not k.printed)
    build = _mechanica_common(game)
    build.update(
        {
            "Install": lambda c: _product(c, floor, rows, cols, rots),
            "InstallFabricator": lambda c: _product(c, start, rows),
            "InstallTruck": lambda c: _product(c, dock, rows),
        }
    )
    return _split(game.action_types(), build)


def _botfactory(game: Any) -> tuple[list[Any], list[Any]]:
    c = game.c
    colours, slots = tuple(c.colours), tuple(c.slots)
    parts = (*(f"{col}-{s}" for col in colours for s in slots), *(f"any-{s}" for s in slots))
    b = c.boards
    spaces = range(len(b.assembly) + len(b.production) + len(b.project) + len(b.finance))
    contracts = sorted(k.id for k in c.contracts)
    build: dict[str, Callable[[type], Iterable[Any]]] = {
        "TakeTop": lambda k: _product(k, colours),
        "MoveWorker": lambda k: _product(k, spaces),
        "PlacePart": lambda k: _product(k, parts, colours),
        "Refill": lambda k: _product(k, sorted(c.wheel.top), colours),
        "TakeOutput": lambda k: _product(k, sorted(c.wheel.output)),
        "TakeProject": lambda k: _product(k, range(b.project_columns), range(b.project_rows)),
        "Raise": lambda k: _product(k, colours),
        "Reserve": lambda k: _product(k, range(c.finance.contracts_face_up)),
        "Swap": lambda k: _product(k, parts, range(b.spares)),
        "Trade": lambda k: _product(k, itertools.combinations_with_replacement(parts, 3), colours),
        "Exchange": lambda k: _product(k, itertools.combinations_with_replacement(colours, 2), slots),
        "DiscardPart": lambda k: _product(k, parts),
        "DiscardProject": lambda k: _product(k, colours),
        "DrawPart": lambda k: _product(k, slots),
        "DrawProject": lambda k: _product(k, colours),
        "DrawContract": lambda k: _product(k, contracts),
    }
    return _split(game.action_types(), build)
