"""Named predicates over whole-game Mechanica states: the executable half of specs/mechanica.toml.

State predicates take ``(game, state)``, transition predicates ``(game, before, action, after)``, game
predicates ``(game, final_state, steps)``; each returns None when the fact holds, or what is wrong.
The expected money changes are worked out here from the action and the price lists, independently of
the step functions that apply them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bgrules.core.observe import observes
from bgrules.core.playout import sums_to_one
from bgrules.core.protocol import CHANCE
from bgrules.mechanica.components import Effect
from bgrules.mechanica.fabricate import Sell
from bgrules.mechanica.factory import Factory
from bgrules.mechanica.game import MechanicaGame
from bgrules.mechanica.state import Buy, BuyFork, BuyTruck, Complete, MechanicaState, Phase, Seat


def money_never_negative(game: MechanicaGame, state: MechanicaState) -> str | None:
    """MC-SCORE: no wallet or vault is ever negative."""
    m = _MONEY
    last = m.state
    if last is not None and m.answer is None:  # every seat of the last state was fine: check the new ones
        seats, old = state.seats, last.seats
        s = _STEP
        changed = s.changed if s.new is seats and s.old is old else _changed(seats, old)
        if changed is not None:
            for i in changed:
                seat = seats[i]
                if seat.wallet < 0 or seat.vault < 0:
                    m.clear()
                    return f"player {i}: wallet {seat.wallet}, vault {seat.vault}"
            m.state = state
            return None
    answer = _Plain.money_never_negative(game, state)
    m.keep(game, state, answer, ())
    return answer


def _installed(game: MechanicaGame, factory: Factory) -> int:
    """How many of the 27 improvements stand on this board (Forks and printed tiles are not counted)."""
    floor, start, _dock = factory.layout
    memos = game.memos
    memo = memos.get(_INSTALLED)
    if memo is None:
        memo = memos.memo(_INSTALLED, 100_000)
    key = (floor, start)
    found: int | None = memo.get(key)
    if found is None:
        kinds = [cell[0] for cell in floor if cell is not None] + list(start)
        found = sum(1 for k in kinds if k in game.kind_index)
        memos.put(memo, key, found)
    return found


_INSTALLED = "invariants: installed improvements"
"""The game's memo (``game.memos``) of :func:`_installed`: (floor layout, Start Zone kinds) -> the count."""


class _Memo:
    """A predicate's last game, the last state it answered for, its answer and the parts of that answer
    (per seat, per area). States are immutable and a step shares every part it does not change, so a part
    that is the very same object (``is``) as the last state's gives the same part of the answer
    (docs/speed.md); only the changed parts are worked out again. It holds the state, so no identity is
    reused. (A class, not module functions: the module's two-argument functions are its predicates.)"""

    __slots__ = ("answer", "game", "parts", "state")

    def __init__(self) -> None:
        self.game: object = None
        self.state: MechanicaState | None = None
        self.answer: str | None = None
        self.parts: tuple[Any, ...] = ()

    def keep(self, game: MechanicaGame, state: MechanicaState, answer: str | None, parts: tuple[Any, ...]) -> None:
        self.game, self.state, self.answer, self.parts = game, state, answer, parts

    def clear(self) -> None:
        self.game, self.state, self.answer, self.parts = None, None, None, ()


class _Step:
    """The last pair of seat tuples asked about (a state's seats and the last state's, or a step's after and
    before seats: every predicate of a step asks about the same pair), holding both: which seats of the new
    tuple are not the very seats of the old, and (once asked, for ``game``) what their boards changed. The
    predicates read its fields in line (one identity test, no call) and call :func:`_changed` on a miss."""

    __slots__ = ("boards", "changed", "game", "new", "old")

    def __init__(self) -> None:
        self.new: tuple[Seat, ...] | None = None
        self.old: tuple[Seat, ...] | None = None
        self.changed: tuple[int, ...] | None = None
        self.game: object = None
        self.boards: tuple[int, int, int, int] | None = None

    def clear(self) -> None:
        self.new = self.old = self.changed = self.game = self.boards = None


_IMPROVEMENTS = _Memo()
_BOTS = _Memo()
_BLUEPRINTS = _Memo()
_MONEY = _Memo()
_STEP = _Step()
MEMOS = (_IMPROVEMENTS, _BOTS, _BLUEPRINTS, _MONEY, _STEP)
"""Every predicate's memo (tests clear them to check the plain recount)."""

Differ = Callable[[tuple[Any, ...], tuple[Any, ...]], tuple[int, ...]]

_MASKS = tuple(tuple(i for i in range(12) if mask >> i & 1) for mask in range(1 << 12))
"""The indexes (ascending) of the set bits of each mask of 12 bits: the answers of the comparisons below."""


def _differ_of(n: int) -> Differ:
    """A function of two ``n``-tuples (``n`` <= 12): the indexes (ascending) at which their items are not
    the very same objects. Unrolled (one unpacking of each tuple, one identity test an item, a bit set for
    each item that differs, the answer looked up by its bits: on this hot path several times cheaper than
    a loop or ``compress``); a tuple of another length raises ValueError."""
    if n == 0:

        def none(new: tuple[Any, ...], old: tuple[Any, ...]) -> tuple[int, ...]:
            if len(new) or len(old):
                raise ValueError("not two empty tuples")
            return ()

        return none
    a = "".join(f"a{i}, " for i in range(n))
    b = "".join(f"b{i}, " for i in range(n))
    tests = "".join(f"    if a{i} is not b{i}:\n        m += {1 << i}\n" for i in range(n))
    code = f"def differ(new, old):\n    {a}= new\n    {b}= old\n    m = 0\n{tests}    return masks[m]\n"
    space: dict[str, Any] = {"masks": _MASKS}
    exec(code, space)  # generated from the length alone
    found: Differ = space["differ"]
    return found


_DIFFER: dict[int, Differ] = {n: _differ_of(n) for n in range(13)}
"""The unrolled comparisons by length: the seats of up to 12 players, a board's 12 cells, 3 slots, 3 trucks."""


def _changed(new: tuple[Seat, ...], old: tuple[Seat, ...]) -> tuple[int, ...] | None:
    """The indexes (ascending) of the seats of ``new`` that are not those of ``old`` (None when the two have
    different numbers of seats), kept in ``_STEP`` for the pair."""
    s = _STEP
    if s.new is new and s.old is old:
        return s.changed
    n = len(new)
    if n != len(old):
        found: tuple[int, ...] | None = None
    elif new is old:
        found = ()
    elif n in _DIFFER:
        found = _DIFFER[n](new, old)
    else:
        found = tuple([i for i in range(n) if new[i] is not old[i]])
    s.new, s.old, s.changed, s.game, s.boards = new, old, found, None, None
    return found


def _boards(game: MechanicaGame, seats: tuple[Seat, ...], old: tuple[Seat, ...], changed: tuple[int, ...]) -> Delta:
    """Over the seats ``changed`` (those of ``seats`` that are not ``old``'s): the bots by grade on their
    boards minus those on their old boards, then their installed improvements minus the old boards'.
    Only the cells (floor cells, Start Zone slots, trucks) that are not the very same objects are read
    (a board whose floor, Start Zone or dock has another length than the old one's is counted whole);
    the answer is kept in ``_STEP`` when it holds this pair (improvements_conserved and bots_conserved
    ask in a row)."""
    s = _STEP
    if s.boards is not None and s.game is game and s.new is seats and s.old is old:
        return s.boards
    kinds = game.kind_index
    differ = _DIFFER
    c = [0, 0, 0]
    n = 0
    for i in changed:
        new, prev = seats[i].factory, old[i].factory
        if new is prev:
            continue
        nf, of, ns, os, nd, od = new.floor, prev.floor, new.start, prev.start, new.dock, prev.dock
        try:
            cells = () if nf is of else differ[len(nf)](nf, of)
            slots = () if ns is os else differ[len(ns)](ns, os)
            trucks = () if nd is od else differ[len(nd)](nd, od)
        except (KeyError, ValueError):  # no cell-by-cell pairing: the whole boards counted
            x, y = new.bot_counts(), prev.bot_counts()
            c[0] += x[0] - y[0]
            c[1] += x[1] - y[1]
            c[2] += x[2] - y[2]
            n += _installed(game, new) - _installed(game, prev)
            continue
        for k in cells:
            q = of[k]
            if q is not None:
                for b in q.inputs:
                    c[b] -= 1
                for o in q.outputs:
                    if o is not None:
                        c[o] -= 1
                if q.kind in kinds:
                    n -= 1
            p = nf[k]
            if p is not None:
                for b in p.inputs:
                    c[b] += 1
                for o in p.outputs:
                    if o is not None:
                        c[o] += 1
                if p.kind in kinds:
                    n += 1
        for k in slots:
            t, u = os[k], ns[k]
            for h in t.holes:
                if h is not None:
                    c[h] -= 1
            for h in u.holes:
                if h is not None:
                    c[h] += 1
            n += (u.kind in kinds) - (t.kind in kinds)
        for k in trucks:
            for b in od[k].load:
                c[b] -= 1
            for b in nd[k].load:
                c[b] += 1
    found = (c[0], c[1], c[2], n)
    if s.new is seats and s.old is old:
        s.game, s.boards = game, found
    return found


Delta = tuple[int, int, int, int]


def improvements_conserved(game: MechanicaGame, state: MechanicaState) -> str | None:
    """MC-SETUP-DECK: deck + extras + Shop + installed + Recycler (+ a tile in hand) = the 27 improvements."""
    m = _IMPROVEMENTS
    last = m.state
    if last is None or game is not m.game:
        return _Fast.improvements(game, state)
    # the parts: the count of the deck, extras and Recycler; the Shop's; the installed improvements
    piles, shop, installed = m.parts
    if state.deck is not last.deck or state.extras is not last.extras or state.recycler is not last.recycler:
        for name, area in (("deck", state.deck), ("extras", state.extras), ("Recycler", state.recycler)):
            if min(area) < 0:
                m.clear()  # the answer names the negative count: not kept
                return f"the {name} holds a negative count {area}"
        piles = sum(state.deck) + sum(state.extras) + sum(state.recycler)
    wheel = state.wheel
    if wheel is not last.wheel:
        shop = len(wheel) - wheel.count(None)
    seats = state.seats
    if seats is not last.seats:
        s, old = _STEP, last.seats
        if s.new is seats and s.old is old:
            if s.boards is not None and s.game is game:
                installed += s.boards[3]
            elif s.changed is None:
                return _Fast.improvements(game, state)
            else:
                installed += _boards(game, seats, old, s.changed)[3]
        else:
            changed = _changed(seats, old)
            if changed is None:
                return _Fast.improvements(game, state)
            installed += _boards(game, seats, old, changed)[3]
    total = piles + shop + installed + (state.pending is not None) + (state.fallen is not None)
    answer = None if total == game.total_tiles else f"{total} improvements accounted for, not {game.total_tiles}"
    m.state, m.answer, m.parts = state, answer, (piles, shop, installed)
    return answer


def bots_conserved(game: MechanicaGame, state: MechanicaState) -> str | None:
    """MC-STOCK: stock + every board + bots on the move = 3 x 24."""
    m = _BOTS
    if state.run is not None:  # a workday run's board, stock and moving bots: recounted
        m.clear()
        return _Plain.bots_conserved(game, state)
    last = m.state
    stock = state.stock
    seats = state.seats
    total: tuple[int, int, int] | None = None
    if last is not None and game is m.game:
        if seats is last.seats:
            if stock is last.stock:
                m.state = state
                return m.answer
            total = m.parts
        else:
            s, old = _STEP, last.seats
            d: Delta | None = None
            if s.new is seats and s.old is old:
                if s.boards is not None and s.game is game:
                    d = s.boards
                elif s.changed is not None:
                    d = _boards(game, seats, old, s.changed)
            else:
                changed = _changed(seats, old)
                if changed is not None:
                    d = _boards(game, seats, old, changed)
            if d is not None:
                t = m.parts
                total = (t[0] + d[0], t[1] + d[1], t[2] + d[2])
    if total is None:  # counted afresh
        counts = [0, 0, 0]
        for seat in seats:
            for g, k in enumerate(seat.factory.bot_counts()):
                counts[g] += k
        total = (counts[0], counts[1], counts[2])
    per = game.variant.rulings.bots_per_grade
    if stock[0] + total[0] == per and stock[1] + total[1] == per and stock[2] + total[2] == per and min(stock) >= 0:
        answer = None
    else:
        answer = _Fast.bots_answer(game, stock, total)
    m.game, m.state, m.answer, m.parts = game, state, answer, total
    return answer


def blueprint_once(game: MechanicaGame, state: MechanicaState) -> str | None:
    """MC-BP-ONCE: no player completes one Blueprint twice."""
    m = _BLUEPRINTS
    last = m.state if game is m.game else None
    if last is not None:
        seats, old = state.seats, last.seats
        s = _STEP
        changed = s.changed if s.new is seats and s.old is old else _changed(seats, old)
        if changed is not None:
            answer = m.answer
            for i in changed:
                seat = seats[i]
                if seat.completed is old[i].completed:
                    continue
                if answer is not None:  # the last answer may no longer hold: the plain check
                    break
                found = _Plain.completed(game, i, seat)
                if found is not None:
                    m.keep(game, state, found, ())
                    return found
            else:  # no seat's completed cards changed (or each new one is fine, all the last were)
                m.state = state
                return answer
    answer = _Plain.blueprint_once(game, state)
    m.keep(game, state, answer, ())
    return answer


class _Fast:
    """The fast paths' counts of a state, keeping the parts of their answers for the next step."""

    @staticmethod
    def improvements(game: MechanicaGame, state: MechanicaState) -> str | None:
        """Counted afresh, the parts kept for the next step."""
        for name, counts in (("deck", state.deck), ("extras", state.extras), ("Recycler", state.recycler)):
            if min(counts) < 0:
                _IMPROVEMENTS.clear()  # the answer names the negative count: not kept
                return f"the {name} holds a negative count {counts}"
        piles = sum(state.deck) + sum(state.extras) + sum(state.recycler)
        installed = sum(_installed(game, seat.factory) for seat in state.seats)
        shop = len(state.wheel) - state.wheel.count(None)
        total = piles + shop + installed + (state.pending is not None) + (state.fallen is not None)
        answer = None if total == game.total_tiles else f"{total} improvements accounted for, not {game.total_tiles}"
        _IMPROVEMENTS.keep(game, state, answer, (piles, shop, installed))
        return answer

    @staticmethod
    def bots_answer(game: MechanicaGame, stock: tuple[int, int, int], counts: tuple[int, int, int]) -> str | None:
        per = game.variant.rulings.bots_per_grade
        for g in range(3):
            if stock[g] < 0 or stock[g] + counts[g] != per:
                return f"grade {g}: stock {stock[g]} + boards {counts[g]} != {per}"
        return None


class _Plain:
    """Each predicate with a fast path as a plain recount of the whole state or step (what the fast paths
    reuse or skip)."""

    @staticmethod
    def improvements_conserved(game: MechanicaGame, state: MechanicaState) -> str | None:
        for name, counts in (("deck", state.deck), ("extras", state.extras), ("Recycler", state.recycler)):
            if min(counts) < 0:
                return f"the {name} holds a negative count {counts}"
        total = sum(state.deck) + sum(state.extras) + sum(state.recycler)
        total += sum(1 for w in state.wheel if w is not None)
        total += sum(_installed(game, seat.factory) for seat in state.seats)
        total += (state.pending is not None) + (state.fallen is not None)
        if total != game.total_tiles:
            return f"{total} improvements accounted for, not {game.total_tiles}"
        return None

    @staticmethod
    def bots_conserved(game: MechanicaGame, state: MechanicaState) -> str | None:
        counts = [0, 0, 0]
        boards = [seat.factory for seat in state.seats]
        if state.run is not None:
            boards[state.current] = state.run.factory
            for m in state.run.moving:
                counts[m.bot] += 1
            for _bin, bot in state.run.arrived:
                counts[bot] += 1
        for board in boards:
            for g, n in enumerate(board.bot_counts()):
                counts[g] += n
        stock = state.run.stock if state.run is not None else state.stock
        per = game.variant.rulings.bots_per_grade
        for g in range(3):
            if stock[g] < 0 or stock[g] + counts[g] != per:
                return f"grade {g}: stock {stock[g]} + boards {counts[g]} != {per}"
        return None

    @staticmethod
    def wallet_changes(game: MechanicaGame, before: MechanicaState, action: Any, after: MechanicaState) -> str | None:
        mover = before.current if before.phase in _anytime_phases(game) else -1
        for i in range(len(before.seats)):
            found = _Plain.wallet_of(game, i, mover, before, action, after)
            if found is not None:
                return found
        return None

    @staticmethod
    def wallet_of(
        game: MechanicaGame, i: int, mover: int, before: MechanicaState, action: Any, after: MechanicaState
    ) -> str | None:
        """What is wrong with player ``i``'s wallet change in this step, if anything (``mover``: the seat that
        may sell, buy or complete in it, or -1). The plain check and the fast path both ask it."""
        b, a = before.seats[i], after.seats[i]
        delta = a.wallet - b.wallet
        expected = 0
        if i == mover:
            cat = game.variant.catalogue
            if isinstance(action, Sell):
                expected = cat.sale(action.bot)
            elif isinstance(action, Buy):
                expected = -game.prices[action.slot]
            elif isinstance(action, BuyFork):
                expected = -(cat.tile("fork").price or 0)
            elif isinstance(action, BuyTruck):
                kind = cat.tile(action.kind)
                upgrade = kind.upgrade_from is not None and b.factory.dock[action.row].kind == kind.upgrade_from
                expected = -((kind.upgrade_price if upgrade else kind.price) or 0)
        if delta == expected:
            return None
        if delta > expected and _runs_in_step(before, after) and _has(game, b.factory, Effect.FLIGHT):
            return None
        return f"player {i}'s wallet changed by {delta} on {action!r}; expected {expected}"

    @staticmethod
    def vault_changes(game: MechanicaGame, before: MechanicaState, action: Any, after: MechanicaState) -> str | None:
        for i in range(len(before.seats)):
            found = _Plain.vault_of(game, i, before, action, after)
            if found is not None:
                return found
        return None

    @staticmethod
    def vault_of(game: MechanicaGame, i: int, before: MechanicaState, action: Any, after: MechanicaState) -> str | None:
        """What is wrong with player ``i``'s vault change in this step, if anything."""
        b, a = before.seats[i], after.seats[i]
        delta = a.vault - b.vault
        expected = 0
        if isinstance(action, Complete) and i == before.current and before.phase in _anytime_phases(game):
            card = before.bp_top[action.pile]
            expected = game.cards[card].value if card is not None else 0
        if delta == expected:
            return None
        if delta > expected and _runs_in_step(before, after) and _has(game, b.factory, Effect.GIFT):
            return None
        return f"player {i}'s vault changed by {delta} on {action!r}; expected {expected}"

    @staticmethod
    def blueprint_once(game: MechanicaGame, state: MechanicaState) -> str | None:
        for i, seat in enumerate(state.seats):
            found = _Plain.completed(game, i, seat)
            if found is not None:
                return found
        return None

    @staticmethod
    def completed(game: MechanicaGame, i: int, seat: Seat) -> str | None:
        """What is wrong with player ``i``'s completed Blueprints, if anything."""
        if len(set(seat.completed)) != len(seat.completed):
            return f"player {i} completed {seat.completed}"
        unknown = [c for c in seat.completed if c not in game.cards]
        if unknown:
            return f"player {i} completed unknown cards {unknown}"
        return None

    @staticmethod
    def money_never_negative(game: MechanicaGame, state: MechanicaState) -> str | None:
        for i, seat in enumerate(state.seats):
            if seat.wallet < 0 or seat.vault < 0:
                return f"player {i}: wallet {seat.wallet}, vault {seat.vault}"
        return None


def never_stuck(game: MechanicaGame, state: MechanicaState) -> str | None:
    """MC-END: a state that is not terminal has a legal action (or chance outcomes summing to 1)."""
    if game.is_terminal(state):
        return None
    if game.to_move(state) is CHANCE:
        if not sums_to_one(game.chance_outcomes(state)):
            return f"chance node in phase {state.phase.value} without outcomes summing to 1"
        return None
    if not game.legal_actions(state):
        return f"no legal action in phase {state.phase.value}"
    return None


def _runs_in_step(before: MechanicaState, after: MechanicaState) -> bool:
    return (
        before.phase is Phase.RUN
        or after.phase is Phase.RUN
        or after.day != before.day
        or (before.phase is Phase.REVEAL)
    )


def _has(game: MechanicaGame, factory: Factory, effect: Effect) -> bool:
    cat = game.variant.catalogue
    return any(p is not None and cat.tile(p.kind).effect is effect for p in factory.floor)


def _anytime_phases(game: MechanicaGame) -> tuple[Phase, ...]:
    """MC-ANYTIME: the phases in which the current player may buy a Fork or a truck or complete a Blueprint."""
    anytime = game.variant.rulings.anytime
    return _WHOLE_TURN if anytime == "whole_turn" else _EVERY_STEP if anytime == "every_step" else _STEPS_1_3


_STEPS_1_3 = (Phase.SELL, Phase.BUY, Phase.FABRICATE)
_EVERY_STEP = (*_STEPS_1_3, Phase.PLACE, Phase.RECYCLE)
_WHOLE_TURN = (*_EVERY_STEP, Phase.TURN_END)


def wallet_changes(game: MechanicaGame, before: MechanicaState, action: Any, after: MechanicaState) -> str | None:
    """MC-SELL, MC-SHOP-BUY, MC-FORK-BUY, MC-TRUCK-BUY, MC-FLIGHT-JUMP: a wallet changes only by a sale, a
    purchase at its printed price, or, in a workday run, flight-jump coins (with a Flight Tester)."""
    seats_before, seats = before.seats, after.seats
    s = _STEP
    changed = s.changed if s.new is seats and s.old is seats_before else _changed(seats, seats_before)
    if changed is None:
        return _Plain.wallet_changes(game, before, action, after)
    # only the seats that changed can break the rule, and the mover's on a sale or a purchase (any other
    # action expects no change of the mover's wallet either: there the mover is checked as any seat)
    mover = -1
    if isinstance(action, _PRICED):
        phases = _PHASES[1] if _PHASES[0] is game else _phases_of(game)
        mover = before.current if before.phase in phases else -1
        if 0 <= mover < len(seats_before) and mover not in changed:
            changed = tuple(sorted((*changed, mover)))
    for i in changed:
        if i != mover and seats[i].wallet == seats_before[i].wallet:  # no change, none expected
            continue
        found = _Plain.wallet_of(game, i, mover, before, action, after)
        if found is not None:
            return found
    return None


def _phases_of(game: MechanicaGame) -> tuple[Phase, ...]:
    """The game's anytime phases, kept for it in ``_PHASES`` (holding the game)."""
    phases = _anytime_phases(game)
    _PHASES[:] = [game, phases]
    return phases


_PHASES: list[Any] = [None, ()]
"""The last game asked about and its anytime phases (a game's rulings do not change)."""

_PRICED = (Sell, Buy, BuyFork, BuyTruck)
"""The actions that change the mover's wallet (_Plain.wallet_of); any other expects no change of a wallet."""


def vault_changes(game: MechanicaGame, before: MechanicaState, action: Any, after: MechanicaState) -> str | None:
    """MC-BP-COMPLETE, MC-GIFT: a vault grows only by a Blueprint's value or, in a run, by Gift Wrappers."""
    seats_before, seats = before.seats, after.seats
    s = _STEP
    changed = s.changed if s.new is seats and s.old is seats_before else _changed(seats, seats_before)
    if changed is None:
        return _Plain.vault_changes(game, before, action, after)
    # only the seats that changed, and the current player's on a Blueprint, can break the rule
    if isinstance(action, Complete):
        cur = before.current
        if 0 <= cur < len(seats_before) and cur not in changed:
            changed = tuple(sorted((*changed, cur)))
        for i in changed:
            found = _Plain.vault_of(game, i, before, action, after)
            if found is not None:
                return found
        return None
    for i in changed:  # no Blueprint: every vault is expected to stay as it was
        if seats[i].vault != seats_before[i].vault:
            found = _Plain.vault_of(game, i, before, action, after)
            if found is not None:
                return found
    return None


def ends_within_bound(game: MechanicaGame, final: MechanicaState, steps: int) -> str | None:
    """MC-END-BOUND: every game ends, within the documented maximum length."""
    if not game.is_terminal(final):
        return f"not over after {steps} steps (the bound is {game.info.max_length})"
    return None


# --- what each predicate reads (bgrules.core.observe: shown by replay --step at every step) ----------------


class _Reads:
    """What each predicate reads (:func:`bgrules.core.observe.observes`). A class, not module functions: the
    module's two-argument functions are its predicates."""

    @staticmethod
    def money(game: MechanicaGame, state: MechanicaState) -> dict[str, Any]:
        return {"wallets": [s.wallet for s in state.seats], "vaults": [s.vault for s in state.seats]}

    @staticmethod
    def improvements(game: MechanicaGame, state: MechanicaState) -> dict[str, Any]:
        return {
            "deck": sum(state.deck),
            "extras": sum(state.extras),
            "Recycler": sum(state.recycler),
            "shop": sum(1 for w in state.wheel if w is not None),
            "installed": [_installed(game, seat.factory) for seat in state.seats],
            "pending or fallen": (state.pending is not None) + (state.fallen is not None),
            "of": game.total_tiles,
        }

    @staticmethod
    def bots(game: MechanicaGame, state: MechanicaState) -> dict[str, Any]:
        boards = [seat.factory for seat in state.seats]
        moving = [0, 0, 0]
        if state.run is not None:
            boards[state.current] = state.run.factory
            for m in state.run.moving:
                moving[m.bot] += 1
            for _bin, bot in state.run.arrived:
                moving[bot] += 1
        counts = [sum(b.bot_counts()[g] for b in boards) for g in range(3)]
        stock = state.run.stock if state.run is not None else state.stock
        return {
            "stock": list(stock),
            "boards": counts,
            "on the move": moving,
            "per grade": game.variant.rulings.bots_per_grade,
        }

    @staticmethod
    def blueprints(game: MechanicaGame, state: MechanicaState) -> dict[str, Any]:
        return {"Blueprints completed": [len(seat.completed) for seat in state.seats]}

    @staticmethod
    def stuck(game: MechanicaGame, state: MechanicaState) -> dict[str, Any]:
        if game.is_terminal(state):
            return {"terminal": True}
        if game.to_move(state) is CHANCE:
            return {"terminal": False, "to move": "chance", "outcomes": len(game.chance_outcomes(state))}
        return {"terminal": False, "to move": game.to_move(state), "legal actions": len(game.legal_actions(state))}

    @staticmethod
    def wallets(game: MechanicaGame, before: MechanicaState, action: Any, after: MechanicaState) -> dict[str, Any]:
        return {
            "wallets before": [s.wallet for s in before.seats],
            "wallets after": [s.wallet for s in after.seats],
            "phase before": before.phase.name,
        }

    @staticmethod
    def vaults(game: MechanicaGame, before: MechanicaState, action: Any, after: MechanicaState) -> dict[str, Any]:
        return {
            "vaults before": [s.vault for s in before.seats],
            "vaults after": [s.vault for s in after.seats],
            "Blueprints completed after": [len(s.completed) for s in after.seats],
        }


for _predicate, _reader in (
    (money_never_negative, _Reads.money),
    (improvements_conserved, _Reads.improvements),
    (bots_conserved, _Reads.bots),
    (blueprint_once, _Reads.blueprints),
    (never_stuck, _Reads.stuck),
    (wallet_changes, _Reads.wallets),
    (vault_changes, _Reads.vaults),
):
    observes(_reader)(_predicate)
del _predicate, _reader
