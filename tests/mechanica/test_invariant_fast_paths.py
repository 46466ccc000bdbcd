"""Mechanica's cheaper invariant checks (issue 12, item 3) give the plain computation's answers.

The fast paths of bgrules/mechanica/game_invariants.py share one record of the step (``_STEP``: which seats
of a state are not the very seats of the last state's, and what the boards of those seats changed) and
skip the seats whose money did not move. Here, on seeded playouts (2-4 players, every ruling's reading),
the step record equals a plain recount of the whole boards, also on boards corrupted one cell at a time,
on boards sharing no cell with the last (built afresh) and on boards whose parts have other lengths; the
money checks equal the plain check of every seat on steps whose after state is corrupted where the fast
path skips (a wallet or vault moved on an action that prices nothing, the mover's seat left as it was on
a purchase or a Blueprint); and every memoised predicate equals its plain recount when the record of the
step is stale, cleared, or holds another pair of equal seats.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from support import walks
from support.mechanica_rulings import RULINGS, ruled_game

from bgrules.core.fastevolve import evolve
from bgrules.core.registry import load_game
from bgrules.mechanica import game_invariants as mc
from bgrules.mechanica.board import Placed, StartSlot, Truck, _same_shape
from bgrules.mechanica.components import Bot
from bgrules.mechanica.fabricate import Sell
from bgrules.mechanica.state import Buy, BuyFork, BuyTruck, Complete

STATE_PREDICATES = ("improvements_conserved", "bots_conserved", "blueprint_once", "money_never_negative")
MONEY = ("wallet_changes", "vault_changes")


def _set(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return (*t[:i], v, *t[i + 1 :])


def _plain_counts(game: Any, board: Any) -> tuple[int, int, int, int]:
    """The bots by grade on a whole board (every bot read afresh) and its installed improvements."""
    c = [0, 0, 0]
    for bot in board.bots():
        c[bot] += 1
    installed = sum(1 for p in board.floor if p is not None and p.kind in game.kind_index)
    installed += sum(1 for s in board.start if s.kind in game.kind_index)
    return (c[0], c[1], c[2], installed)


def _plain_boards(game: Any, seats: tuple[Any, ...], old: tuple[Any, ...]) -> tuple[int, int, int, int]:
    """Every seat's whole-board counts minus its old board's, summed."""
    total = [0, 0, 0, 0]
    for new, prev in zip(seats, old, strict=True):
        a, b = _plain_counts(game, new.factory), _plain_counts(game, prev.factory)
        for g in range(4):
            total[g] += a[g] - b[g]
    return (total[0], total[1], total[2], total[3])


def _plain_changed(seats: tuple[Any, ...], old: tuple[Any, ...]) -> tuple[int, ...] | None:
    if len(seats) != len(old):
        return None
    return tuple(i for i in range(len(seats)) if seats[i] is not old[i])


def _step_record(game: Any, seats: tuple[Any, ...], old: tuple[Any, ...]) -> tuple[Any, Any]:
    changed = mc._changed(seats, old)
    assert changed == _plain_changed(seats, old)
    return changed, None if changed is None else mc._boards(game, seats, old, changed)


def _with_board(state: Any, i: int, board: Any) -> Any:
    return evolve(state, seats=_set(state.seats, i, evolve(state.seats[i], factory=board)))


def _copy(value: Any) -> Any:
    """An equal value sharing no tuple with ``value`` (the objects inside copied too)."""
    if isinstance(value, tuple):
        return tuple([_copy(v) for v in value])
    if attrs.has(type(value)):
        fields = [f for f in attrs.fields(type(value)) if f.init]  # (derived values are worked out afresh)
        return attrs.evolve(value, **{f.alias: _copy(getattr(value, f.name)) for f in fields})
    return value


BoardChange = Callable[[Any, random.Random], Any]

BOARD_CHANGES: dict[str, BoardChange] = {
    "truck loaded": lambda f, r: f.with_truck(
        r.randrange(3), Truck(f.dock[0].kind, (*f.dock[0].load, r.choice(list(Bot))))
    ),
    "truck emptied": lambda f, r: f.with_truck(r.randrange(3), Truck(f.dock[1].kind, ())),
    "start holes": lambda f, r: f.with_start(
        (i := r.randrange(3)), StartSlot(f.start[i].kind, tuple(r.choice((None, *Bot)) for _ in f.start[i].holes))
    ),
    "start tile": lambda f, r: f.with_start(
        r.randrange(3), StartSlot(r.choice(("advanced_fabricator", "start_hole", "upgrader")), (Bot.PLUS, None))
    ),
    "cell emptied": lambda f, r: f.with_cell(r.randrange(3), r.randrange(4), None),
    "cell tile": lambda f, r: f.with_cell(
        r.randrange(3), r.randrange(4), Placed(r.choice(("fork", "upgrader", "duplicator")), r.randrange(4))
    ),
    "cell bots": lambda f, r: f.with_cell(
        r.randrange(3),
        r.randrange(4),
        Placed("upgrader", 0, (r.choice(list(Bot)),) * r.randint(0, 3), (None, r.choice(list(Bot)))),
    ),
    "built afresh": lambda f, r: _copy(f),
    "floor shorter": lambda f, r: _same_shape(f.floor[:-1], f.start, f.dock),
    "dock longer": lambda f, r: _same_shape(f.floor, f.start, (*f.dock, Truck("t", (Bot.DELUXE,)))),
}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_step_record_equals_the_whole_boards_recount(players: int) -> None:
    """At every step of seeded playouts, and on after states with one to three boards changed one part at
    a time (compared with the before and the after state), the changed seats and the change of bots and
    installed improvements equal a recount of every whole board."""
    game: Any = load_game("mechanica", players=players)
    rng = random.Random(100 + players)
    mc._STEP.clear()
    corrupted = 0
    for seed in range(3):
        for before, _action, after in walks.steps(game, seed):
            changed, boards = _step_record(game, after.seats, before.seats)
            assert boards == _plain_boards(game, after.seats, before.seats), seed
            assert mc._boards(game, after.seats, before.seats, changed) == boards  # the kept answer
            if rng.random() < 0.2:
                bad = after
                for _ in range(rng.randint(1, 3)):
                    what = rng.choice(sorted(BOARD_CHANGES))
                    i = rng.randrange(players)
                    try:
                        bad = _with_board(bad, i, BOARD_CHANGES[what](bad.seats[i].factory, rng))
                    except (ValueError, IndexError):  # a board of other lengths: this change does not apply
                        continue
                    for old in (before, after):
                        mc._STEP.clear()
                        _changed, boards = _step_record(game, bad.seats, old.seats)
                        assert boards == _plain_boards(game, bad.seats, old.seats), (seed, what)
                        corrupted += boards != (0, 0, 0, 0)
    assert corrupted > 20


def test_the_step_record_is_recomputed_for_another_pair_or_game() -> None:
    """The record holds its pair of seat tuples: an equal tuple that is another object, another game, or
    a cleared record gives the plain answer again, never a stale one."""
    game: Any = load_game("mechanica", players=4)
    other: Any = load_game("mechanica", players=4)
    steps = [(b, a) for b, _x, a in walks.steps(game, 3)]
    before, after = next((b, a) for b, a in steps if _plain_boards(game, a.seats, b.seats) != (0, 0, 0, 0))
    want = _plain_boards(game, after.seats, before.seats)
    changed, boards = _step_record(game, after.seats, before.seats)
    assert boards == want
    # the same values, other objects: every seat differs by identity and the boards share no cell
    fresh = _copy(after.seats)
    assert fresh == after.seats and fresh is not after.seats
    changed2, boards2 = _step_record(game, fresh, before.seats)
    assert changed2 == tuple(range(4)) and boards2 == want
    # another game (its own kinds): recounted for it
    _step_record(game, after.seats, before.seats)
    assert mc._boards(other, after.seats, before.seats, changed) == want
    assert mc._STEP.game is other
    # a stale record for another pair is not read
    mc._STEP.clear()
    assert mc._changed(after.seats, after.seats) == ()
    assert mc._boards(game, after.seats, after.seats, ()) == (0, 0, 0, 0)
    assert _step_record(game, after.seats, before.seats) == (changed, want)
    assert mc._changed(after.seats, after.seats[:-1]) is None


def _check_state(game: Any, state: Any, where: str, rng: random.Random | None = None) -> None:
    """Every memoised state predicate against its plain recount, in the specs' order or (``rng``) a
    shuffled one: each may be the first or a later one to read the step record."""
    names = list(STATE_PREDICATES)
    if rng is not None:
        rng.shuffle(names)
    for name in names:
        assert getattr(mc, name)(game, state) == getattr(mc._Plain, name)(game, state), (where, name)


def _check_step(game: Any, before: Any, action: Any, after: Any, where: str) -> int:
    found = 0
    for name in MONEY:
        plain = getattr(mc._Plain, name)(game, before, action, after)
        assert getattr(mc, name)(game, before, action, after) == plain, (where, name, action)
        found += plain is not None
    return found


def _check_loop(game: Any, before: Any, action: Any, after: Any, where: str) -> int:
    """Every memoised predicate in the order the specs run them in the checked loop (money first, then
    the transitions, then the conservation counts), each against its plain answer."""
    found = 0
    for name in SPEC_ORDER:
        if name in MONEY:
            plain = getattr(mc._Plain, name)(game, before, action, after)
            assert getattr(mc, name)(game, before, action, after) == plain, (where, name, action)
        else:
            plain = getattr(mc._Plain, name)(game, after)
            assert getattr(mc, name)(game, after) == plain, (where, name)
        found += plain is not None
    return found


SPEC_ORDER = (
    "money_never_negative",
    "wallet_changes",
    "vault_changes",
    "improvements_conserved",
    "bots_conserved",
    "blueprint_once",
)


def _money(state: Any, i: int, wallet: int = 0, vault: int = 0) -> Any:
    seat = state.seats[i]
    return evolve(
        state, seats=_set(state.seats, i, evolve(seat, wallet=seat.wallet + wallet, vault=seat.vault + vault))
    )


PRICED = (
    Sell(0, Bot.PLUS),
    Buy(0),
    BuyFork(0, 0, 0),
    BuyTruck("big_truck", 0),
    BuyTruck("huge_truck", 1),
    Complete(0, ()),
)


@pytest.mark.parametrize(("field", "value"), RULINGS, ids=[f"{f}={v}" for f, v in RULINGS])
def test_every_memoised_check_equals_its_plain_recount_under_each_ruling(field: str, value: object) -> None:
    """Under every ruling's reading, along a seeded playout of 2-4 players: the state predicates equal
    their plain recounts at every step and on states whose stock, wheel or money is changed with the seats
    kept (the reused parts); the money checks equal the plain check of every seat on the real step, on
    its after state with one seat's wallet or vault moved (the seat changed or the before state's), and
    with the action replaced by a sale, purchase or Blueprint that the after state does not show."""
    rng = random.Random(hash((field, str(value))) % 1000)
    violated = 0
    for players in (2, 3, 4):
        game = ruled_game(field, value, players)
        for memo in mc.MEMOS:
            memo.clear()
        for i, (before, action, after) in enumerate(walks.steps(game, players)):
            where = f"{players}p step {i}"
            if i % 2:
                _check_state(game, after, where, rng)
                violated += _check_step(game, before, action, after, where)
            else:
                violated += _check_loop(game, before, action, after, where)
            if rng.random() < 0.25:
                seat = rng.randrange(players)
                kept = evolve(after, seats=_set(after.seats, seat, before.seats[seat]))
                afters = [
                    _money(after, seat, wallet=rng.choice((-1, 1, 5))),
                    _money(after, seat, vault=rng.choice((-2, 2))),
                    _money(kept, seat, wallet=1),
                    evolve(after, seats=before.seats),
                    kept,
                ]
                for a in afters:
                    violated += _check_step(game, before, action, a, where)
                    for other in PRICED:
                        violated += _check_step(game, before, other, a, f"{where} as {other!r}")
                wheel = after.wheel
                states = [
                    evolve(after, stock=(after.stock[0] + 1, *after.stock[1:])),
                    evolve(after, wheel=(None,) * len(wheel)),
                    evolve(after, wheel=tuple(w or "upgrader" for w in wheel)),
                    _money(after, seat, wallet=-after.seats[seat].wallet - 1),
                    _with_board(after, seat, BOARD_CHANGES["cell tile"](after.seats[seat].factory, rng)),
                    _with_board(after, seat, BOARD_CHANGES["start tile"](after.seats[seat].factory, rng)),
                    _with_board(after, seat, BOARD_CHANGES["truck loaded"](after.seats[seat].factory, rng)),
                ]
                for s in states:
                    _check_state(game, s, where, rng)
                _check_state(game, after, where, rng)  # and back
    assert violated > 50


def test_the_unrolled_comparisons_equal_a_loop() -> None:
    """Each length's generated comparison gives the indexes of the items that are not the very same
    objects (equal but other objects count as changed), and refuses a tuple of another length; seats
    beyond the generated lengths are compared by the loop."""
    rng = random.Random(12)
    for n in range(13):
        differ = mc._DIFFER[n]
        for _ in range(50):
            old = tuple(object() for _ in range(n))
            new = tuple(o if rng.random() < 0.6 else object() for o in old)
            assert differ(new, old) == tuple(i for i in range(n) if new[i] is not old[i])
        with pytest.raises(ValueError):
            differ(tuple(range(n + 1)), tuple(range(n)))
        with pytest.raises(ValueError):
            differ(tuple(range(n)), tuple(range(n + 1)))
    for n in (13, 16):
        mc._STEP.clear()
        before: Any = tuple(object() for _ in range(n))
        after: Any = (*before[:3], object(), *before[4:-1], object())
        assert mc._changed(after, before) == (3, n - 1)
