"""A fixed-length observation vector per game, seen from one seat (docs/integrations.md).

Both adapters observe through :func:`observe`: a list of whole numbers whose length depends only on the game
and its player count (:func:`feature_names` names each entry). Every game is of perfect information in
bgrules' states (what is face down is drawn by chance when it is turned up), so each seat sees the whole
state; the vector is written from the observer's point of view:

- seats are listed starting with the observer, then the next seats in seat order; every seat number in the
  state (the player to move, workers, reservations, gifts) is written relative to the observer
  (``(seat - observer) % players``); "to move" is ``players`` at a chance node and ``players + 1`` at the end;
- a categorical value (a phase, a tile kind, a part, a colour, a card) is written ``1 + its index`` in the
  game's data order, ``0`` for none; counts and money are written as they are.

The vector is a summary for learning, not the state: the canonical JSON of the state (``bgrules.dumps``)
is the complete observation (OpenSpiel's observation string; PettingZoo's ``env.state_json()``).

:func:`observe_onehot` writes the same vector with every entry in [0, 1] (the adapters' option
``observation="onehot"``): each categorical entry one-hot, each count divided by its bound from the game's
data (the token cap, a tile's copies, the bots per grade), money and days without a bound as
``v / (v + s)``; :func:`feature_specs` says how each entry is encoded and :func:`onehot_names` names the
encoded entries.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from bgrules.botfactory.state import Phase as BotFactoryPhase
from bgrules.core.codec import show
from bgrules.core.descriptor import descriptor
from bgrules.core.errors import InputError
from bgrules.core.protocol import CHANCE, Game
from bgrules.mechanica.components import Zone
from bgrules.mechanica.sandbox import Phase as SandboxPhase
from bgrules.mechanica.state import Phase as MechanicaPhase

Writer = Callable[[Any, Any, int, list[tuple[str, int]]], None]


def _rel(seat: int | None, observer: int, players: int) -> int:
    """1 + a seat relative to the observer, 0 for none."""
    return 0 if seat is None else 1 + (seat - observer) % players


def _mover(game: Game, state: Any, observer: int) -> int:
    n = game.players
    if game.is_terminal(state):
        return n + 1
    who = game.to_move(state)
    if who is CHANCE or who is None:
        return n
    return (int(who) - observer) % n


def _numbering(values: Iterable[Any]) -> dict[Any, int]:
    """Each value's number: 1 + its index in ``values`` (0 is kept for none)."""
    return {v: i + 1 for i, v in enumerate(values)}


def _index(numbers: Mapping[Any, int], value: Any) -> int:
    """``value``'s number in ``numbers`` (:func:`_numbering`), 0 for None."""
    return 0 if value is None else numbers[value]


def _seats(observer: int, players: int) -> list[int]:
    return [(observer + k) % players for k in range(players)]


# --- Mechanica ---------------------------------------------------------------------------------------


_GRADES = ("basic", "plus", "deluxe")
"""The bot grades in the order of ``bgrules.mechanica.components.Bot`` (0, 1, 2)."""


def _factory(out: list[tuple[str, int]], tiles: Mapping[str, int], prefix: str, factory: Any) -> None:
    def bots(where: str, held: Sequence[Any]) -> None:
        counts = [0, 0, 0]
        for b in held:
            if b is not None:
                counts[b] += 1
        out.append((where + ".basic", counts[0]))
        out.append((where + ".plus", counts[1]))
        out.append((where + ".deluxe", counts[2]))

    for i, placed in enumerate(factory.floor):
        where = f"{prefix}.floor[{i}]"
        out.append((f"{where}.tile", 0 if placed is None else _index(tiles, placed.kind)))
        out.append((f"{where}.rotation", 0 if placed is None else placed.rotation))
        bots(where, () if placed is None else (*placed.inputs, *placed.outputs))
    for r, slot in enumerate(factory.start):
        where = f"{prefix}.start[{r}]"
        out.append((f"{where}.tile", _index(tiles, slot.kind)))
        bots(where, slot.holes)
    for r, truck in enumerate(factory.dock):
        where = f"{prefix}.dock[{r}]"
        out.append((f"{where}.tile", _index(tiles, truck.kind)))
        bots(where, truck.load)


def _moving(out: list[tuple[str, int]], run: Any) -> None:
    """The bots moving in a run under way, by grade."""
    moving = [0, 0, 0]
    for m in () if run is None else run.moving:
        moving[m.bot] += 1
    out.extend((f"run.moving.{g}", moving[i]) for i, g in enumerate(_GRADES))


def _mechanica(game: Any, state: Any, observer: int, out: list[tuple[str, int]]) -> None:
    n = game.players
    tiles = _numbering(game.variant.catalogue.tiles)
    kinds = _numbering(game.kinds)
    out.append(("phase", _index(_numbering(MechanicaPhase), state.phase)))
    out.append(("to_move", _mover(game, state, observer)))
    out.append(("current", _rel(state.current, observer, n)))
    out.append(("day", state.day))
    out.extend((f"stock.{g}", state.stock[i]) for i, g in enumerate(_GRADES))
    for name in ("deck", "extras", "recycler"):
        counts = getattr(state, name)
        out.extend((f"{name}.{k}", counts[i]) for i, k in enumerate(game.kinds))
    out.extend((f"wheel[{i}]", _index(kinds, k)) for i, k in enumerate(state.wheel))
    out.extend((f"bp_top[{i}]", 0 if c is None else c) for i, c in enumerate(state.bp_top))
    out.extend((f"bp_turned[{i}]", int(t)) for i, t in enumerate(state.bp_turned))
    out.extend((f"bp_hidden[{i}]", h) for i, h in enumerate(state.bp_hidden))
    out.append(("pending", _index(tiles, state.pending)))
    out.append(("fallen", _index(tiles, state.fallen)))
    out.append(("gifts", len(state.gifts)))
    out.append(("gift.to", _rel(state.gifts[0][0], observer, n) if state.gifts else 0))
    out.append(("gift.declared", 1 + int(state.gifts[0][1]) if state.gifts else 0))
    run = state.run
    _moving(out, run)
    for k, seat_no in enumerate(_seats(observer, n)):
        seat = state.seats[seat_no]
        prefix = f"seat[{k}]"
        out.append((f"{prefix}.wallet", seat.wallet))
        out.append((f"{prefix}.vault", seat.vault))
        out.append((f"{prefix}.completed", len(seat.completed)))
        live = run.factory if run is not None and seat_no == state.current else seat.factory
        _factory(out, tiles, prefix, live)


def _mechanica_factory(game: Any, state: Any, observer: int, out: list[tuple[str, int]]) -> None:
    tiles = _numbering(game.variant.catalogue.tiles)
    out.append(("phase", _index(_numbering(SandboxPhase), state.phase)))
    out.append(("to_move", _mover(game, state, observer)))
    out.append(("day", state.day))
    out.append(("wallet", state.wallet))
    out.append(("vault", state.vault))
    out.append(("selling", int(state.selling)))
    out.extend((f"stock.{g}", state.live_stock[i]) for i, g in enumerate(_GRADES))
    out.extend((f"supply.{k}", state.supply.count(k)) for k in tiles)
    run = state.run
    _moving(out, run)
    _factory(out, tiles, "factory", state.board)


# --- Bot Factory ---------------------------------------------------------------------------------------


_TURN_MAIN = ("share", "extra", "open", "closed")


def _botfactory(game: Any, state: Any, observer: int, out: list[tuple[str, int]]) -> None:
    n = game.players
    colours, slots = tuple(game.colours), tuple(game.slots)
    parts = (*(f"{c}-{s}" for c in colours for s in slots), *(f"any-{s}" for s in slots))
    part_no, colour_no = _numbering(parts), _numbering(colours)
    seats = _seats(observer, n)
    out.append(("phase", _index(_numbering(BotFactoryPhase), state.phase)))
    out.append(("to_move", _mover(game, state, observer)))
    out.append(("round", state.round))
    out.append(("marker", state.marker))
    out.append(("sandra", state.sandra))
    out.extend((f"order[{i}]", _rel(s, observer, n)) for i, s in enumerate(state.order))
    out.append(("index", state.index))
    turn = state.turn
    out.append(("turn.left", 0 if turn is None else turn.left))
    out.append(("turn.main", 0 if turn is None else _index(_numbering(_TURN_MAIN), turn.main)))
    out.append(("turn.prompt", 0 if turn is None else len(turn.prompt)))
    out.append(("discarder", _rel(state.discarder, observer, n)))
    out.append(("window", len(state.window)))
    out.append(("window.first", _rel(state.window[0], observer, n) if state.window else 0))
    for k, seat in enumerate(seats):
        hand = state.hands[seat]
        prefix = f"seat[{k}]"
        out.append((f"{prefix}.tokens", hand.tokens))
        out.append((f"{prefix}.supply", state.supply[seat]))
        out.append((f"{prefix}.worker", 0 if state.workers[seat] is None else 1 + state.workers[seat]))
        out.append((f"{prefix}.paid", 1 if seat in state.paid else 0))
        out.extend((f"{prefix}.parts.{p}", hand.parts.count(p)) for p in parts)
        out.extend((f"{prefix}.projects.{c}", hand.projects.count(c)) for c in colours)
        out.extend((f"{prefix}.done.{c}", hand.done.count(c)) for c in colours)
    for ci, c in enumerate(colours):
        out.extend((f"piles.{c}.{s}", state.piles[ci][si]) for si, s in enumerate(slots))
        out.extend((f"discards.{c}.{s}", state.discards[ci][si]) for si, s in enumerate(slots))
        out.extend((f"columns.{c}.{s}", _index(part_no, state.columns[ci][si])) for si, s in enumerate(slots))
        out.append((f"bots_left.{c}", state.bots_left[ci]))
        out.append((f"values.{c}", state.values[ci]))
        out.append((f"project_pile.{c}", state.project_pile[ci]))
        out.append((f"project_discard.{c}", state.project_discard[ci]))
    out.extend((f"universal.{s}", state.universal[si]) for si, s in enumerate(slots))
    out.extend((f"wheel[{i}]", _index(part_no, p)) for i, p in enumerate(state.wheel))
    out.extend((f"spares[{i}]", _index(part_no, p)) for i, p in enumerate(state.spares))
    for col, column in enumerate(state.grid):
        out.extend((f"grid[{col}][{row}]", _index(colour_no, c)) for row, c in enumerate(column))
    out.append(("contract_pool", len(state.contract_pool)))
    for i, contract in enumerate(state.display):
        out.append((f"display[{i}]", 0 if contract is None else contract))
        who = state.reserved[i]
        out.extend(
            (f"display[{i}].reserved.seat[{k}]", who.index(seat) + 1 if seat in who else 0)
            for k, seat in enumerate(seats)
        )


def _part(game: Game, field: str) -> Any:
    """The descriptor's observation part ``field`` of ``game``: a game without one is an InputError."""

    return descriptor(game.info.name).part(field, "observations")


def _pairs(game: Game, state: Any, observer: int) -> list[tuple[str, int]]:
    writer: Writer = _part(game, "observation")
    out: list[tuple[str, int]] = []
    writer(game, state, observer, out)
    return out


_NAMES: weakref.WeakKeyDictionary[Any, tuple[str, ...]] = weakref.WeakKeyDictionary()


def feature_names(game: Game) -> tuple[str, ...]:
    """The name of each entry of :func:`observe`'s vector for ``game`` (its length is fixed per game and
    player count)."""
    found = _NAMES.get(game)
    if found is None:
        found = _NAMES[game] = tuple(name for name, _ in _pairs(game, game.initial_state(), 0))
    return found


def observe(game: Game, state: Any, observer: int) -> list[int]:
    """The observation vector of ``state`` seen by seat ``observer`` (see the module's documentation)."""
    values = [v for _, v in _pairs(game, state, observer)]
    if len(values) != len(feature_names(game)):
        raise AssertionError(
            f"{game.info.name}: an observation of {len(values)} entries, not {len(feature_names(game))}"
        )
    return values


# --- the one-hot encoding ------------------------------------------------------------------------------

ENCODINGS = ("vector", "onehot")
"""The adapters' ``observation`` option: :func:`observe`'s vector as it is (whole numbers, the default) or
one-hot encoded (:func:`observe_onehot`: floats in [0, 1])."""


def check_encoding(value: Any) -> str:
    """``value`` if it is one of :data:`ENCODINGS`, else an InputError naming them."""
    if value not in ENCODINGS:
        raise InputError("observation", f'"vector" or "onehot", not {show(value)}')
    return str(value)


Spec = tuple[str, int]
"""How one entry of the vector is encoded by :func:`observe_onehot`: ``("cat", m)``, a categorical value
from 0 to m-1, written as m entries of which the value's is 1; ``("count", b)``, a count bounded by ``b``
(the game's data), written ``v / b``; ``("soft", s)``, a quantity with no bound in the data (money, days),
written ``v / (v + s)``, ``s`` being a typical size."""

MONEY_SCALE = 20
"""``s`` of the money entries (wallets, vaults): ``v / (v + 20)`` (a starting wallet is 8 coins)."""

DAY_SCALE = 6
"""``s`` of Mechanica's day and of Bot Factory's round with no cap (six days is the sandbox's default)."""


def _rules(table: Sequence[tuple[str, Spec]], names: Sequence[str], game: str) -> tuple[Spec, ...]:
    """Each name's spec: the first pattern of ``table`` that matches the whole name (in a pattern ``[]``
    stands for any index, ``*`` for any word); a name no pattern matches is an AssertionError (the tests
    run every game and player count)."""
    import re

    def compile_(pattern: str) -> re.Pattern[str]:
        return re.compile(re.escape(pattern).replace(r"\[\]", r"\[\d+\]").replace(r"\*", "[a-z_]+"))

    compiled = [(compile_(p), s) for p, s in table]
    out = []
    for name in names:
        spec = next((s for p, s in compiled if p.fullmatch(name)), None)
        if spec is None:
            raise AssertionError(f"{game}: no one-hot encoding for the entry {name!r}")
        out.append(spec)
    return tuple(out)


def _holes(game: Any) -> tuple[int, int, int]:
    """The most bots one floor tile, one Start Zone tile and one truck can hold (the catalogue)."""

    cat = game.variant.catalogue
    floor = max([k.inputs + len(k.outputs) for k in cat.of_zone(Zone.FLOOR)] + [1])
    start = max([len(k.outputs) for k in cat.of_zone(Zone.START)] + [1])
    dock = max([k.capacity for k in cat.of_zone(Zone.DOCK)] + [1])
    return floor, start, dock


def _board_rules(game: Any, prefix: str, bots: int) -> list[tuple[str, Spec]]:
    floor, start, dock = _holes(game)
    tiles = ("cat", len(game.variant.catalogue.tiles) + 1)
    out: list[tuple[str, Spec]] = []
    for where, most in (("floor", floor), ("start", start), ("dock", dock)):
        out.append((f"{prefix}.{where}[].tile", tiles))
        out.extend((f"{prefix}.{where}[].{g}", ("count", min(most, bots))) for g in _GRADES)
    out.append((f"{prefix}.floor[].rotation", ("cat", 4)))
    return out


def _mechanica_specs(game: Any, names: Sequence[str]) -> tuple[Spec, ...]:
    n, bots = game.players, game.variant.rulings.bots_per_grade
    cards = len(game.cards)
    table: list[tuple[str, Spec]] = [
        ("phase", ("cat", len(MechanicaPhase) + 1)),
        ("to_move", ("cat", n + 2)),
        ("current", ("cat", n + 1)),
        ("day", ("soft", DAY_SCALE)),
        ("wheel[]", ("cat", len(game.kinds) + 1)),
        ("bp_top[]", ("cat", max(game.cards) + 1)),
        ("bp_turned[]", ("count", 1)),
        ("bp_hidden[]", ("count", cards)),
        ("pending", ("cat", len(game.variant.catalogue.tiles) + 1)),
        ("fallen", ("cat", len(game.variant.catalogue.tiles) + 1)),
        ("gifts", ("count", max(1, n - 1))),
        ("gift.to", ("cat", n + 1)),
        ("gift.declared", ("cat", 3)),
        ("seat[].wallet", ("soft", MONEY_SCALE)),
        ("seat[].vault", ("soft", MONEY_SCALE)),
        ("seat[].completed", ("count", cards)),
        *_board_rules(game, "seat[]", bots),
    ]
    table += [(f"{w}.{g}", ("count", bots)) for w in ("stock", "run.moving") for g in _GRADES]
    for kind, copies in zip(game.kinds, game.copies, strict=True):
        table += [(f"{pile}.{kind}", ("count", max(1, copies))) for pile in ("deck", "extras", "recycler")]
    return _rules(table, names, "mechanica")


def _mechanica_factory_specs(game: Any, names: Sequence[str]) -> tuple[Spec, ...]:
    bots = game.variant.rulings.bots_per_grade
    first = game.initial_state()
    board = first.board
    on_board = [p.kind for p in board.floor if p is not None] + [s.kind for s in board.start]
    on_board += [t.kind for t in board.dock]
    table: list[tuple[str, Spec]] = [
        ("phase", ("cat", len(SandboxPhase) + 1)),
        ("to_move", ("cat", 3)),
        ("day", ("count", game.days)),
        ("wallet", ("soft", MONEY_SCALE)),
        ("vault", ("soft", MONEY_SCALE)),
        ("selling", ("count", 1)),
        *_board_rules(game, "factory", bots),
    ]
    table += [(f"{w}.{g}", ("count", bots)) for w in ("stock", "run.moving") for g in _GRADES]
    table += [
        (f"supply.{k}", ("count", max(1, first.supply.count(k) + on_board.count(k))))
        for k in game.variant.catalogue.tiles
    ]
    return _rules(table, names, "mechanica-factory")


def _botfactory_specs(game: Any, names: Sequence[str]) -> tuple[Spec, ...]:
    n, c = game.players, game.c
    k, b = c.counts, c.boards
    colours, slots = tuple(c.colours), tuple(c.slots)
    parts = len(colours) * len(slots) + len(slots)
    spaces = len(b.assembly) + len(b.production) + len(b.project) + len(b.finance)
    most_actions = max((*b.assembly, *b.production, *b.project, *b.finance))
    table: list[tuple[str, Spec]] = [
        ("phase", ("cat", len(BotFactoryPhase) + 1)),
        ("to_move", ("cat", n + 2)),
        ("round", ("soft", DAY_SCALE) if game.max_rounds is None else ("count", game.max_rounds)),
        ("marker", ("cat", len(c.wheel.setup))),
        ("sandra", ("cat", spaces)),
        ("order[]", ("cat", n + 1)),
        ("index", ("count", n + 1)),
        ("turn.left", ("count", most_actions)),
        ("turn.main", ("cat", len(_TURN_MAIN) + 1)),
        ("turn.prompt", ("count", 2)),
        ("discarder", ("cat", n + 1)),
        ("window", ("count", n)),
        ("window.first", ("cat", n + 1)),
        ("seat[].tokens", ("count", k.token_cap)),
        ("seat[].supply", ("count", k.tokens_per_colour)),
        ("seat[].worker", ("cat", spaces + 1)),
        ("seat[].paid", ("count", 1)),
        ("seat[].parts.any-*", ("count", k.universal_per_slot)),
        ("seat[].parts.*-*", ("count", k.parts_per_colour_slot)),
        ("seat[].projects.*", ("count", k.projects_per_colour)),
        ("seat[].done.*", ("count", min(k.projects_per_colour, k.bots_per_colour))),
        ("piles.*.*", ("count", k.parts_per_colour_slot)),
        ("discards.*.*", ("count", k.parts_per_colour_slot)),
        ("columns.*.*", ("cat", parts + 1)),
        ("bots_left.*", ("count", k.bots_per_colour)),
        ("values.*", ("count", c.finance.track_max)),
        ("project_pile.*", ("count", k.projects_per_colour)),
        ("project_discard.*", ("count", k.projects_per_colour)),
        ("universal.*", ("count", k.universal_per_slot)),
        ("wheel[]", ("cat", parts + 1)),
        ("spares[]", ("cat", parts + 1)),
        ("grid[][]", ("cat", len(colours) + 1)),
        ("contract_pool", ("count", len(c.contracts))),
        ("display[]", ("cat", max(x.id for x in c.contracts) + 1)),
        ("display[].reserved.seat[]", ("cat", n + 1)),
    ]
    return _rules(table, names, "botfactory")


_SPECS: weakref.WeakKeyDictionary[Any, tuple[Spec, ...]] = weakref.WeakKeyDictionary()


def feature_specs(game: Game) -> tuple[Spec, ...]:
    """How :func:`observe_onehot` encodes each entry of :func:`observe`'s vector (:data:`Spec`), in the
    order of :func:`feature_names`; the bounds come from the game's data (token cap, copies, bots)."""
    found = _SPECS.get(game)
    if found is None:
        specs: Callable[[Any, Sequence[str]], tuple[Spec, ...]] = _part(game, "observation_specs")
        found = _SPECS[game] = specs(game, feature_names(game))
    return found


_ONEHOT_NAMES: weakref.WeakKeyDictionary[Any, tuple[str, ...]] = weakref.WeakKeyDictionary()


def onehot_names(game: Game) -> tuple[str, ...]:
    """The name of each entry of :func:`observe_onehot`'s vector: a categorical entry ``name`` with ``m``
    values becomes ``name=0`` .. ``name=m-1``, every other entry keeps its name."""
    found = _ONEHOT_NAMES.get(game)
    if found is None:
        out: list[str] = []
        for name, (kind, size) in zip(feature_names(game), feature_specs(game), strict=True):
            if kind == "cat":
                out.extend(f"{name}={v}" for v in range(size))
            else:
                out.append(name)
        found = _ONEHOT_NAMES[game] = tuple(out)
    return found


def encode_onehot(game: Game, vector: Sequence[int]) -> list[float]:
    """:func:`observe`'s ``vector`` one-hot encoded (see :data:`Spec`): every entry in [0, 1]. A count past
    its bound is written 1 and a categorical value out of range none of its entries (neither happens in
    play: the tests check seeded playouts of every game)."""
    out: list[float] = []
    for v, (kind, size) in zip(vector, feature_specs(game), strict=True):
        if kind == "cat":
            hot = [0.0] * size
            if 0 <= v < size:
                hot[v] = 1.0
            out.extend(hot)
        elif kind == "count":
            out.append(min(v, size) / size)
        else:
            out.append(v / (v + size))
    return out


def observe_onehot(game: Game, state: Any, observer: int) -> list[float]:
    """The one-hot observation of ``state`` seen by seat ``observer``: :func:`observe`'s vector with every
    categorical entry one-hot encoded and every count scaled into [0, 1] (:func:`encode_onehot`); its
    entries are named by :func:`onehot_names`."""
    return encode_onehot(game, observe(game, state, observer))
