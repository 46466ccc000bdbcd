"""``validate(state)`` of Mechanica and of the factory sandbox: every way a state breaks the shape of the
states the game can reach.

A state read from a file (``bgrules.loads``, a clarification's ``start`` patch) has the right types but may
still be one the engine cannot play on: a floor cell out of range, a tile of an unknown kind, a bot counted
twice, a workday run outside the run phase. :func:`problems` (whole game) and :func:`sandbox_problems`
(``mechanica-factory``) list every violation as ``"<field path>: <reason>"``; an empty list means the engine
can play on the state (legal actions, apply) without failing. The checks come in layers: every field's
size, range and names, then (when those hold) the counts the game conserves (the predicates of
:mod:`bgrules.mechanica.game_invariants` and :mod:`bgrules.mechanica.invariants`), the phase's fields, and
whether the state is settled (a player or chance has something to do). See docs/validation.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from bgrules.core.codec import show
from bgrules.mechanica.base import PILES
from bgrules.mechanica.components import Effect, Zone
from bgrules.mechanica.factory import CELLS, COLS, DOCK_COL, ROWS, Factory, factory_problems
from bgrules.mechanica.movement import TRUCK_BIN
from bgrules.mechanica.run import Run, RunPhase
from bgrules.mechanica.state import MechanicaState, Phase
from bgrules.mechanica.variant import MechanicaVariant
from bgrules.mechanica.workday import decisions

MechanicaGame = Any
"""The whole game (``bgrules.mechanica.game.MechanicaGame``). This module imports neither game module nor
their invariant modules (which import the games): the games call it, and tests/mechanica/test_structure.py
holds the package free of import circles. The conserved counts are therefore counted here, as
``game_invariants.bots_conserved`` / ``improvements_conserved`` and ``invariants.bots_conserved`` count
them (tests/runners/test_validate.py holds the verdicts equal)."""
FactoryGame = Any
SandboxState = Any

CHANCE = (Phase.SETUP_EXTRAS, Phase.SETUP_DEAL, Phase.DRAW, Phase.EXTRA, Phase.REVEAL)


class _Report:
    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, path: str, reason: str) -> None:
        self.items.append(f"{path}: {reason}")

    def count(self, path: str, value: int, most: int | None = None) -> bool:
        if value < 0:
            self.add(path, f"{value} is negative; a count is 0 or more")
            return False
        if most is not None and value > most:
            self.add(path, f"{_num(value)} is more than {most}")
            return False
        return True

    def index(self, path: str, value: int, size: int, what: str) -> bool:
        if not 0 <= value < size:
            self.add(path, f"{_num(value)} is not {what} (0 to {size - 1})")
            return False
        return True

    def size(self, path: str, value: Sequence[Any], n: int, what: str) -> bool:
        if len(value) != n:
            self.add(path, f"has {len(value)} entries; {what} has {n}")
            return False
        return True


def _num(value: int) -> str:
    return show(value)


# --- a board and a run (both games) -----------------------------------------------------------------


def _factory(factory: Factory, variant: MechanicaVariant, where: str, r: _Report, crowded: bool = False) -> bool:
    """MC-BOARD, MC-PLACE-*, MC-HOLE: the board's tiles and holes (``factory_problems``); ``crowded``: a
    run resolving collisions, whose bins may hold more bots than holes until MC-COLLIDE is settled."""
    before = len(r.items)
    for text in factory_problems(factory, variant):
        if crowded and text.startswith("MC-HOLE") and (" bots in " in text or " carries " in text):
            continue
        r.add(where, text)
    return len(r.items) == before


def _at_rest(factory: Factory, variant: MechanicaVariant, where: str, r: _Report) -> None:
    """MC-ACT: outside its run a board's input holes are empty, except a half-filled Function Changer."""
    cat = variant.catalogue
    for i, p in enumerate(factory.floor):
        if p is None or not p.inputs:
            continue
        kind = cat.tile(p.kind)
        if kind.effect is Effect.CHANGE and len(p.inputs) < kind.inputs:
            continue
        r.add(
            f"{where}.floor[{i}].inputs",
            f"({i // COLS}, {i % COLS}) {kind.name} holds {len(p.inputs)} bot(s) outside a workday run "
            "(activation empties input holes, MC-ACT)",
        )


def _run(run: Run, variant: MechanicaVariant, where: str, r: _Report) -> None:
    """A workday run under way: its board, stock, the bots on the move, the bins they arrived at, the
    Static Chargers' passes, the activation cursor, and a decision for the owner (MC-RUN)."""
    before = len(r.items)
    cat = variant.catalogue
    if not _factory(run.factory, variant, f"{where}.factory", r, crowded=run.phase is RunPhase.COLLIDE):
        return
    for g, k in enumerate(run.stock):
        r.count(f"{where}.stock[{g}]", k)
    for name in ("vault", "wallet", "destroyed", "collisions"):
        r.count(f"{where}.{name}", getattr(run, name))
    if run.phase is RunPhase.DONE:
        r.add(f"{where}.phase", "a finished run is never left in a state (its results are already taken)")
    for i, m in enumerate(run.moving):
        row, col, heading = m.node
        if not (-1 <= row <= ROWS and -1 <= col <= DOCK_COL and 0 <= heading <= 4):
            r.add(f"{where}.moving[{i}].node", f"{list(m.node)}: rows -1 to {ROWS}, columns -1 to 4, headings 0 to 4")
        if not 0 <= m.visited < 1 << (CELLS * 5):
            r.add(f"{where}.moving[{i}].visited", f"{_num(m.visited)} is not a set of the {CELLS * 5} floor nodes")
    if run.moving and run.phase is not RunPhase.MOVE:
        r.add(f"{where}.moving", f"bots move only in the movement phase, not {run.phase.value}")
    if run.arrived and run.phase is not RunPhase.MOVE:
        r.add(
            f"{where}.arrived", f"arrived bots are poured into their bins when movement ends, not in {run.phase.value}"
        )
    for i, (bin_id, _bot) in enumerate(run.arrived):
        if bin_id >= TRUCK_BIN:
            r.index(
                f"{where}.arrived[{i}][0]", bin_id - TRUCK_BIN, ROWS, f"a truck (bins {TRUCK_BIN} to {TRUCK_BIN + 2})"
            )
            continue
        if not r.index(f"{where}.arrived[{i}][0]", bin_id, CELLS, f"a floor cell (or a truck, {TRUCK_BIN} + row)"):
            continue
        p = run.factory.floor[bin_id]
        if p is None or cat.tile(p.kind).inputs < 1:
            r.add(f"{where}.arrived[{i}][0]", f"cell {bin_id} holds no tile with input holes")
    if r.size(f"{where}.charges", run.charges, CELLS, "the floor"):
        for i, k in enumerate(run.charges):
            if not r.count(f"{where}.charges[{i}]", k) or not k:
                continue
            p = run.factory.floor[i]
            if p is None or cat.tile(p.kind).effect is not Effect.CHARGE:
                r.add(f"{where}.charges[{i}]", f"cell {i} holds no Static Charger (MC-CHARGE)")
    r.count(f"{where}.cursor", run.cursor, CELLS)
    if run.phase is RunPhase.ACTIVATE and run.cursor < CELLS:
        p = run.factory.floor[run.cursor]
        if p is None or not p.inputs:
            r.add(f"{where}.cursor", f"activation waits at cell {run.cursor}, which holds no bot to activate")
    elif run.phase is RunPhase.ACTIVATE:
        r.add(f"{where}.cursor", "activation waits past the last cell")
    if len(r.items) == before and not decisions(run, variant):
        r.add(f"{where}.phase", f"the run's {run.phase.value} phase awaits no decision (a settled run does)")


def _bots(boards: Sequence[Factory], run: Run | None, stock: Sequence[int], per: int, r: _Report) -> None:
    """MC-STOCK: for each grade, the stock + every board + the bots of a run on the move = the box's supply."""
    counts = [0, 0, 0]
    for board in boards:
        for g, k in enumerate(board.bot_counts()):
            counts[g] += k
    if run is not None:
        for m in run.moving:
            counts[m.bot] += 1
        for _bin, bot in run.arrived:
            counts[bot] += 1
    for g, name in enumerate(("Basic", "Plus", "Deluxe")):
        if stock[g] + counts[g] != per:
            r.add("stock", f"{name}: stock {stock[g]} + boards {counts[g]} != {per} (MC-STOCK)")


def _tile_key(variant: MechanicaVariant, key: str, where: str, r: _Report, zone: Zone | None = None) -> bool:
    tile = variant.catalogue.tiles.get(key)
    if tile is None or tile.printed or (zone is not None and tile.zone is not zone):
        names = sorted(k for k, t in variant.catalogue.tiles.items() if not t.printed)
        r.add(where, f"{key!r} is not an installable tile kind ({', '.join(names)})")
        return False
    return True


# --- the whole game -------------------------------------------------------------------------------


def problems(game: MechanicaGame, state: MechanicaState) -> list[str]:
    """Every violated shape condition of a whole-game ``state`` for ``game`` (players, variant, rulings)."""
    r = _Report()
    if not isinstance(state, MechanicaState):
        r.add("$", "not a Mechanica state")
        return r.items
    if _shape(game, state, r):
        _conserved(game, state, r)
        _phase(game, state, r)
    return r.items


def _shape(game: MechanicaGame, s: MechanicaState, r: _Report) -> bool:
    before = len(r.items)
    n = game.players
    variant = game.variant
    kinds = game.kinds
    if r.size("seats", s.seats, n, f"a game of {n} players"):
        for i, seat in enumerate(s.seats):
            where = f"seats[{i}]"
            if _factory(seat.factory, variant, f"{where}.factory", r):
                _at_rest(seat.factory, variant, f"{where}.factory", r)
            r.count(f"{where}.wallet", seat.wallet)
            r.count(f"{where}.vault", seat.vault)
            for j, card in enumerate(seat.completed):
                if card not in game.cards:
                    r.add(f"{where}.completed[{j}]", f"{_num(card)} is not a Blueprint id")
            if len(set(seat.completed)) != len(seat.completed):
                r.add(f"{where}.completed", "a Blueprint completed twice (MC-BP-ONCE)")
            if list(seat.completed) != sorted(seat.completed):
                r.add(f"{where}.completed", "is not in sorted order (the game keeps it sorted)")
    for g, k in enumerate(s.stock):
        r.count(f"stock[{g}]", k, variant.rulings.bots_per_grade)
    for name in ("deck", "extras", "recycler"):
        counts = getattr(s, name)
        if r.size(name, counts, len(kinds), f"the improvement kinds ({', '.join(kinds)})"):
            for k, copies in enumerate(game.copies):
                r.count(f"{name}[{k}]", counts[k], copies)
    if r.size("wheel", s.wheel, len(game.prices), "the Shop's price slots"):
        for i, kind in enumerate(s.wheel):
            if kind is not None and kind not in game.kind_index:
                r.add(f"wheel[{i}]", f"{kind!r} is not an improvement ({', '.join(kinds)})")
    for i, card in enumerate(s.bp_pool):
        if card not in game.cards:
            r.add(f"bp_pool[{i}]", f"{_num(card)} is not a Blueprint id")
    if list(s.bp_pool) != sorted(s.bp_pool):
        r.add("bp_pool", "is not in sorted order (the game keeps it sorted)")
    for name in ("bp_hidden", "bp_bottom", "bp_top", "bp_turned"):
        r.size(name, getattr(s, name), PILES, "the Blueprint piles")
    for i, k in enumerate(s.bp_hidden):
        r.count(f"bp_hidden[{i}]", k)
    for i, pile in enumerate(s.bp_bottom):
        for j, card in enumerate(pile):
            if card not in game.cards:
                r.add(f"bp_bottom[{i}][{j}]", f"{_num(card)} is not a Blueprint id")
    for i, top in enumerate(s.bp_top):
        if top is not None and top not in game.cards:
            r.add(f"bp_top[{i}]", f"{_num(top)} is not a Blueprint id")
    if s.day < 1:
        r.add("day", f"{s.day}; days are numbered from 1")
    r.index("current", s.current, n, "a seat")
    r.count("reveal", s.reveal, PILES)
    for name in ("pending", "fallen"):
        kind = getattr(s, name)
        if kind is not None and kind not in game.kind_index:
            r.add(name, f"{kind!r} is not an improvement ({', '.join(kinds)})")
    for i, (player, _bot) in enumerate(s.gifts):
        r.index(f"gifts[{i}][0]", player, n, "a seat")
    if s.run is not None:
        _run(s.run, variant, "run", r)
    return len(r.items) == before


def _conserved(game: MechanicaGame, s: MechanicaState, r: _Report) -> None:
    """MC-STOCK, MC-SETUP-DECK, MC-BP-ONCE and the Blueprint cards: the predicates of the specs."""
    boards = [seat.factory for seat in s.seats]
    stock = s.stock
    if s.run is not None:
        boards[s.current] = s.run.factory
        stock = s.run.stock
    _bots(boards, s.run, stock, game.variant.rulings.bots_per_grade, r)
    per_kind = [a + b + c for a, b, c in zip(s.deck, s.extras, s.recycler, strict=True)]
    placed = [w for w in s.wheel if w is not None] + [k for k in (s.pending, s.fallen) if k is not None]
    for seat in s.seats:  # improvements installed (Forks and printed tiles are not among them)
        placed += [p.kind for p in seat.factory.floor if p is not None] + [slot.kind for slot in seat.factory.start]
    for kind in placed:
        if kind in game.kind_index:
            per_kind[game.kind_index[kind]] += 1
    total = sum(per_kind)
    if total != game.total_tiles:
        r.add("deck", f"{total} improvements accounted for, not {game.total_tiles} (MC-SETUP-DECK)")
    else:
        for kind, k, copies in zip(game.kinds, per_kind, game.copies, strict=True):
            if k != copies:
                r.add("deck", f"{k} {kind} tiles accounted for, not {copies} (MC-SETUP-DECK)")
    seen = Counter([*s.bp_pool, *(c for c in s.bp_top if c is not None), *(c for p in s.bp_bottom for c in p)])
    twice = sorted(c for c, k in seen.items() if k > 1)
    missing = sorted(set(game.cards) - set(seen))
    if twice:
        r.add("bp_pool", f"Blueprint(s) {twice} in two places (pool, piles' tops and bottoms)")
    if missing:
        r.add("bp_pool", f"Blueprint(s) {missing} nowhere (not in the pool, on a pile's top or under it)")
    if sum(s.bp_hidden) != len(s.bp_pool):
        r.add("bp_hidden", f"the piles hold {sum(s.bp_hidden)} unseen cards; the pool has {len(s.bp_pool)}")
    for i, (turned, top) in enumerate(zip(s.bp_turned, s.bp_top, strict=True)):
        if turned and top is None:
            r.add(f"bp_turned[{i}]", "a turned Blueprint lies on the pile's top (MC-BP-TURN)")


def _phase(game: MechanicaGame, s: MechanicaState, r: _Report) -> None:
    """Each phase's own fields (run, pending, fallen, gifts, reveal), present in that phase only, and a
    chance phase with something to draw."""
    phase = s.phase
    fields = (
        ("run", s.run is not None, Phase.RUN, "a workday run"),
        ("pending", s.pending is not None, Phase.PLACE, "a bought tile to place"),
        ("fallen", s.fallen is not None, Phase.RECYCLE, "a fallen tile to recycle"),
        ("gifts", bool(s.gifts), Phase.GIFT, "gifts to offer"),
    )
    for name, present, owner, what in fields:
        if present and phase is not owner:
            r.add(name, f"only the {owner.value} phase has {what}, not {phase.value}")
        if not present and phase is owner:
            r.add(name, f"the {owner.value} phase has {what}; it is missing")
    for i, (player, bot) in enumerate(s.gifts):
        if player == s.current:
            r.add(f"gifts[{i}][0]", "a player's Overactive Fabricator gives to the other players (MC-FAB-OVERACTIVE)")
        if bot.value < 1:
            r.add(f"gifts[{i}][1]", "only a Plus or Deluxe bot made offers a gift (MC-FAB-OVERACTIVE)")
    if phase is Phase.TURN_END and game.variant.rulings.anytime != "whole_turn":
        r.add("phase", 'the turn_end phase closes step (4) under anytime = "whole_turn" only (MC-ANYTIME)')
    if s.reveal and phase is not Phase.REVEAL:
        r.add("reveal", f"names the pile being turned up in the reveal phase only, not {phase.value}")
    if phase in (Phase.SETUP_EXTRAS, Phase.SETUP_DEAL) and s.day != 1:
        r.add("day", "set-up is on day 1")
    if phase in (Phase.DRAW, Phase.EXTRA) and s.wheel[0] is not None:
        r.add("wheel[0]", "the tile drawn goes onto price 7, which the rotation left empty")
    dealt = sum(1 for w in s.wheel if w is not None)
    can = {
        Phase.SETUP_EXTRAS: sum(s.extras) < game.extras_target and any(s.deck),
        Phase.SETUP_DEAL: dealt < game.variant.game.dealt and any(s.deck),
        Phase.DRAW: any(s.deck),
        Phase.EXTRA: any(s.extras),
        Phase.REVEAL: s.reveal < PILES and s.bp_top[s.reveal] is None and s.bp_hidden[s.reveal] > 0 and bool(s.bp_pool),
    }
    if phase in can and not can[phase]:
        r.add("phase", f"the chance phase {phase.value} has nothing to draw (a settled state's draw can happen)")


# --- the factory sandbox --------------------------------------------------------------------------


def sandbox_problems(game: FactoryGame, state: SandboxState) -> list[str]:
    """Every violated shape condition of a ``mechanica-factory`` state for ``game`` (its supply, days)."""
    r = _Report()
    if not isinstance(state, game.state_type()):
        r.add("$", "not a factory-sandbox state")
        return r.items
    variant = game.variant
    shaped = _factory(state.factory, variant, "factory", r)
    if shaped and state.run is None:
        _at_rest(state.factory, variant, "factory", r)
    for g, k in enumerate(state.stock):
        r.count(f"stock[{g}]", k, variant.rulings.bots_per_grade)
    for name in ("wallet", "vault", "collisions", "destroyed"):
        r.count(name, getattr(state, name))
    supply_ok = True
    for i, key in enumerate(state.supply):
        supply_ok = _tile_key(variant, key, f"supply[{i}]", r) and supply_ok
    if supply_ok:
        extra = Counter(state.supply) - Counter(game.start_supply)
        if extra:
            more = ", ".join(f"{k} x{n}" for k, n in sorted(extra.items()))
            r.add("supply", f"holds more than this game's supply gives: {more} (MC-SUPPLY)")
    if not 1 <= state.day <= game.days:
        r.add("day", f"{_num(state.day)} is not a day of this game (1 to {game.days})")
    if (state.run is not None) != (state.phase.value == "run"):
        r.add("run", "a workday run is present in the run phase, and only there")
    if state.run is not None:
        _run(state.run, variant, "run", r)
    if not r.items:
        board = state.run.factory if state.run is not None else state.factory
        stock = state.run.stock if state.run is not None else state.stock
        _bots([board], state.run, stock, variant.rulings.bots_per_grade, r)
    return r.items


__all__ = ["problems", "sandbox_problems"]
