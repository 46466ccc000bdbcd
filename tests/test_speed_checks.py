"""The invariants' fast paths (issue 12, item 3) give the plain recount's answers.

Bot Factory's and Mechanica's conservation predicates reuse their last answer while the parts of the state
they read are the very same objects as the last state's, and update their counts by only the parts that
changed. Here, on seeded playouts (2-4 players), every memoised predicate's answer equals its plain recount
(``_Plain``) at every step, also on states corrupted one part at a time (each corruption shares every
other part with the real state, as a step does, so the incremental path is the one exercised), on the
real states that follow a corrupted one, and on states built afresh (decoded: equal values, no shared
objects). A reused answer is recomputed when an input changes, when the game changes, and when the state
is built afresh.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import attrs
import pytest

from bgrules import dumps, loads
from bgrules.botfactory import invariants as bf
from bgrules.core.fastevolve import evolve
from bgrules.core.playout import walk
from bgrules.core.registry import load_game
from bgrules.mechanica import game_invariants as mc
from bgrules.mechanica.board import StartSlot, Truck
from bgrules.mechanica.components import Bot

BF_MEMOISED = (
    "limits",
    "tokens_conserved",
    "parts_conserved",
    "bot_slots",
    "bots_match_projects",
    "reservations",
    "order_is_permutation",
    "projects_conserved",
)
MC_MEMOISED = ("improvements_conserved", "bots_conserved", "blueprint_once", "money_never_negative")

Corrupt = Callable[[Any, random.Random], Any]


def _set(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return (*t[:i], v, *t[i + 1 :])


def _bump(t: tuple[int, ...], rng: random.Random) -> tuple[int, ...]:
    i = rng.randrange(len(t))
    return _set(t, i, t[i] + rng.choice((-1, 1)))


def _bump_nested(t: tuple[tuple[int, ...], ...], rng: random.Random) -> tuple[tuple[int, ...], ...]:
    i = rng.randrange(len(t))
    return _set(t, i, _bump(t[i], rng))


def _flip(t: tuple[Any, ...], rng: random.Random, values: tuple[Any, ...]) -> tuple[Any, ...]:
    """One entry replaced: a None by a value, a value by None or another value."""
    i = rng.randrange(len(t))
    return _set(t, i, rng.choice(values) if t[i] is None or rng.random() < 0.5 else None)


def _hand(s: Any, rng: random.Random, **change: Callable[[Any], Any]) -> Any:
    seat = rng.randrange(len(s.hands))
    hand = s.hands[seat]
    hand = evolve(hand, **{k: f(getattr(hand, k)) for k, f in change.items()})
    return evolve(s, hands=_set(s.hands, seat, hand))


BF_PARTS = ("red-head", "blue-body", "green-legs", "yellow-head", "any-body", "red-legs")
BF_COLOURS = ("red", "blue", "green", "yellow")

BF_CORRUPTIONS: dict[str, Corrupt] = {
    "piles": lambda s, r: evolve(s, piles=_bump_nested(s.piles, r)),
    "discards": lambda s, r: evolve(s, discards=_bump_nested(s.discards, r)),
    "universal": lambda s, r: evolve(s, universal=_bump(s.universal, r)),
    "wheel": lambda s, r: evolve(s, wheel=_flip(s.wheel, r, BF_PARTS)),
    "spares": lambda s, r: evolve(s, spares=_flip(s.spares, r, BF_PARTS)),
    "column": lambda s, r: evolve(
        s, columns=_set(s.columns, (i := r.randrange(len(s.columns))), _flip(s.columns[i], r, BF_PARTS))
    ),
    "columns shape": lambda s, r: evolve(s, columns=s.columns[:-1]),
    "hand parts": lambda s, r: _hand(s, r, parts=lambda p: (*p, r.choice(BF_PARTS))),
    "hand parts lost": lambda s, r: _hand(s, r, parts=lambda p: p[1:]),
    "hand tokens": lambda s, r: _hand(s, r, tokens=lambda t: t + r.choice((-1, 1, 9))),
    "hand projects": lambda s, r: _hand(s, r, projects=lambda p: (*p, r.choice(BF_COLOURS))),
    "hand done": lambda s, r: _hand(s, r, done=lambda p: (*p, r.choice(BF_COLOURS))),
    "hands shape": lambda s, r: evolve(s, hands=s.hands[:-1]),
    "supply": lambda s, r: evolve(s, supply=_bump(s.supply, r)),
    "reserved": lambda s, r: evolve(s, reserved=_set(s.reserved, 0, (*s.reserved[0], 0, 0))),
    "order": lambda s, r: evolve(s, order=(s.order[0], *s.order[:-1])),
    "grid": lambda s, r: evolve(s, grid=_set(s.grid, (i := r.randrange(len(s.grid))), _flip(s.grid[i], r, BF_COLOURS))),
    "project pile": lambda s, r: evolve(s, project_pile=_bump(s.project_pile, r)),
    "project discard": lambda s, r: evolve(s, project_discard=_bump(s.project_discard, r)),
    "bots left": lambda s, r: evolve(s, bots_left=_bump(s.bots_left, r)),
    "settling": lambda s, r: evolve(s, draws=() if s.draws else (("project", -1, "grid", 0, 0),)),
}


def _board(s: Any, rng: random.Random, change: Callable[[Any], Any]) -> Any:
    seat = rng.randrange(len(s.seats))
    board = change(s.seats[seat].factory)
    return evolve(s, seats=_set(s.seats, seat, evolve(s.seats[seat], factory=board)))


def _seat(s: Any, rng: random.Random, **change: Callable[[Any], Any]) -> Any:
    i = rng.randrange(len(s.seats))
    seat = evolve(s.seats[i], **{k: f(getattr(s.seats[i], k)) for k, f in change.items()})
    return evolve(s, seats=_set(s.seats, i, seat))


def _without_a_tile(board: Any) -> Any:
    """The board with its first tile (if any) taken off the floor."""
    i = next((i for i, p in enumerate(board.floor) if p is not None), 0)
    return board.with_cell(i // 4, i % 4, None)


MC_CORRUPTIONS: dict[str, Corrupt] = {
    "deck": lambda s, r: evolve(s, deck=_bump(s.deck, r)),
    "deck negative": lambda s, r: evolve(s, deck=_set(s.deck, 0, -1)),
    "extras": lambda s, r: evolve(s, extras=_bump(s.extras, r)),
    "recycler": lambda s, r: evolve(s, recycler=_bump(s.recycler, r)),
    "wheel": lambda s, r: evolve(s, wheel=_flip(s.wheel, r, ("upgrader", "duplicator"))),
    "pending": lambda s, r: evolve(s, pending=None if s.pending else "upgrader"),
    "stock": lambda s, r: evolve(s, stock=_bump(s.stock, r)),
    "truck load": lambda s, r: _board(
        s, r, lambda f: f.with_truck(0, Truck(f.dock[0].kind, (*f.dock[0].load, Bot.PLUS)))
    ),
    "start hole": lambda s, r: _board(
        s, r, lambda f: f.with_start(1, StartSlot(f.start[1].kind, (Bot.DELUXE,) * len(f.start[1].holes)))
    ),
    "start tile": lambda s, r: _board(
        s, r, lambda f: f.with_start(0, StartSlot(r.choice(("advanced_fabricator", "start_hole")), (None,)))
    ),
    "floor emptied": lambda s, r: _board(s, r, lambda f: f.with_cell(0, 0, None)),
    "floor tile": lambda s, r: _board(
        s,
        r,
        lambda f: f.with_cell(*next(((i // 4, i % 4) for i, p in enumerate(f.floor) if p is not None), (0, 0)), None),
    ),
    "completed twice": lambda s, r: evolve(
        s, seats=_set(s.seats, 0, evolve(s.seats[0], completed=(*s.seats[0].completed, 1, 1)))
    ),
    "seats shape": lambda s, r: evolve(s, seats=s.seats[:-1]),
    "wallet": lambda s, r: _seat(s, r, wallet=lambda w: r.choice((-1, w + 1))),
    "vault": lambda s, r: _seat(s, r, vault=lambda v: r.choice((-2, v + 2))),
}


def _check(mod: Any, names: tuple[str, ...], game: Any, state: Any, where: str) -> None:
    for name in names:
        try:
            plain = getattr(mod._Plain, name)(game, state)
        except Exception as e:  # a corrupted shape may break the plain recount: then so must the fast path
            with pytest.raises(type(e)):
                getattr(mod, name)(game, state)
            for memo in mod.MEMOS:  # a raising predicate leaves no answer behind
                memo.clear()
            continue
        assert getattr(mod, name)(game, state) == plain, (where, name)


def _playouts(
    mod: Any,
    names: tuple[str, ...],
    corruptions: dict[str, Corrupt],
    name: str,
    players: int,
    *,
    prefer: tuple[str, ...] = (),
    rate: float = 0.15,
    rng_seed: int | None = None,
) -> tuple[int, int]:
    """Seeded playouts: fast == plain at every step, on corrupted copies and afterwards; returns how many
    corrupted states were checked that some predicate found violated, and how many were checked.
    ``prefer``: corruptions drawn 7 times in 10 (the rest from all of ``corruptions``); ``rate``: the share
    of steps corrupted."""
    game = load_game(name, players=players)
    rng = random.Random(players if rng_seed is None else rng_seed)
    violated = checked = 0
    for memo in mod.MEMOS:
        memo.clear()
    for seed in range(3):
        for i, (_before, _action, after) in enumerate(walk(game, seed)):
            _check(mod, names, game, after, f"seed {seed} step {i}")
            if rng.random() < rate:
                # one to three corruptions, each on top of the last (a violation kept while other parts change)
                bad = after
                for _ in range(rng.randint(1, 3)):
                    pool = prefer if prefer and rng.random() < 0.7 else tuple(corruptions)
                    what = rng.choice(sorted(pool))
                    try:
                        bad = corruptions[what](bad, rng)
                    except (IndexError, ValueError, TypeError):  # this corruption does not apply here
                        continue
                    _check(mod, names, game, bad, f"seed {seed} step {i}: {what}")
                    checked += 1
                    try:
                        violated += any(getattr(mod._Plain, n)(game, bad) for n in names)
                    except Exception:
                        violated += 1
            if rng.random() < 0.03:
                fresh = loads(game, dumps(after))
                assert fresh == after and fresh is not after
                _check(mod, names, game, fresh, f"seed {seed} step {i}: built afresh")
    return violated, checked


@pytest.mark.parametrize("players", [2, 3, 4])
def test_botfactory_fast_paths_equal_the_plain_recount(players: int) -> None:
    assert _playouts(bf, BF_MEMOISED, BF_CORRUPTIONS, "botfactory", players)[0] > 20


@pytest.mark.parametrize("players", [2, 3, 4])
def test_mechanica_fast_paths_equal_the_plain_recount(players: int) -> None:
    assert _playouts(mc, MC_MEMOISED, MC_CORRUPTIONS, "mechanica", players)[0] > 10


def _state_after(name: str, steps: int) -> tuple[Any, Any]:
    game = load_game(name, players=4)
    state = None
    for i, (_b, _a, after) in enumerate(walk(game, 7)):
        state = after
        if i == steps:
            break
    return game, state


BF_CHANGES: dict[str, tuple[str, Corrupt]] = {
    "parts_conserved": ("piles", lambda s, r: evolve(s, piles=_set(s.piles, 0, (9, 9, 9)))),
    "tokens_conserved": ("supply", lambda s, r: evolve(s, supply=_set(s.supply, 0, s.supply[0] + 1))),
    "limits": ("tokens", lambda s, r: _hand(s, r, tokens=lambda t: 10)),
    "bot_slots": ("columns", lambda s, r: evolve(s, columns=_set(s.columns, 0, ("blue-legs", None, None)))),
    "bots_match_projects": ("bots left", lambda s, r: evolve(s, bots_left=_set(s.bots_left, 0, s.bots_left[0] - 1))),
    "reservations": ("reserved", lambda s, r: evolve(s, reserved=_set(s.reserved, 0, (1, 1)))),
    "order_is_permutation": ("order", lambda s, r: evolve(s, order=(0,) * len(s.order))),
    "projects_conserved": ("grid", lambda s, r: evolve(s, grid=_set(s.grid, 0, ("red",) * len(s.grid[0])))),
}

MC_CHANGES: dict[str, tuple[str, Corrupt]] = {
    "improvements_conserved": ("recycler", lambda s, r: evolve(s, recycler=_set(s.recycler, 0, s.recycler[0] + 1))),
    "bots_conserved": ("truck", MC_CORRUPTIONS["truck load"]),
    "blueprint_once": ("completed", MC_CORRUPTIONS["completed twice"]),
    "money_never_negative": ("wallet", lambda s, r: _seat(s, r, wallet=lambda w: -1)),
}


@pytest.mark.parametrize(
    ("mod", "name", "change"),
    [(bf, n, c) for n, c in BF_CHANGES.items()] + [(mc, n, c) for n, c in MC_CHANGES.items()],
    ids=[*BF_CHANGES, *MC_CHANGES],
)
def test_a_reused_answer_is_recomputed_when_an_input_changes(mod: Any, name: str, change: Any) -> None:
    """The answer kept for a state (reused for a later state sharing its parts) is worked out again for a
    state whose part changed, for another game, and for a state built afresh from the changed one."""
    game, state = _state_after("botfactory" if mod is bf else "mechanica", 60)
    pred = getattr(mod, name)
    assert pred(game, state) is None
    assert pred(game, evolve(state)) is None  # every part shared: the answer reused
    bad = change[1](state, random.Random(1))
    found = pred(game, bad)
    assert found is not None and found == getattr(mod._Plain, name)(game, bad)
    assert pred(game, state) is None  # and back
    other = load_game("botfactory" if mod is bf else "mechanica", players=4)
    assert pred(other, bad) == found  # another game: recounted
    # a state built afresh (no object shared with the last one) equal to the bad one: the same answer
    fresh = _copy(bad)
    assert pred(game, state) is None
    assert pred(game, fresh) == found


def _copy(value: Any) -> Any:
    """An equal value sharing no tuple with ``value`` (the objects inside copied too)."""
    if isinstance(value, tuple):
        return tuple([_copy(v) for v in value])
    if attrs.has(type(value)):
        return attrs.evolve(value, **{f.name: _copy(getattr(value, f.name)) for f in attrs.fields(type(value))})
    return value


def test_limits_are_recomputed_when_a_pending_choice_ends() -> None:
    """Bot Factory's part limit does not apply while a discard (or draw) is pending: the same hands, over
    the limit, hold while the draw is pending and break the limit once it is not."""
    game, state = _state_after("botfactory", 60)
    over = _hand(state, random.Random(2), parts=lambda p: ("red-head",) * 6)
    pending = evolve(over, draws=(("project", -1, "grid", 0, 0),))
    assert bf.limits(game, pending) is None
    done = evolve(pending, draws=(), turn=None, phase=bf.Phase.MOVE)
    assert done.hands is pending.hands
    assert bf.limits(game, done) == bf._Plain.limits(game, done) is not None
    assert bf.limits(game, pending) is None


def test_mechanica_money_changes_skip_only_what_the_plain_check_passes() -> None:
    """wallet_changes and vault_changes skip the seats a step left as they were: on seeded steps, and on
    steps whose after state is corrupted (a wallet or vault changed, the before state's seats kept though
    the action was a purchase or a Blueprint, one seat put back as it was), they answer as the plain check
    of every seat."""
    rng = random.Random(5)
    checked = violated = 0
    for players, seeds in ((2, (0, 10, 13)), (3, (1,)), (4, (8,))):  # seeds with Blueprints completed
        game = load_game("mechanica", players=players)
        for seed in seeds:
            for before, action, after in walk(game, seed):
                afters = [after, evolve(after, seats=before.seats)]
                i = rng.randrange(len(after.seats))
                afters.append(evolve(after, seats=_set(after.seats, i, before.seats[i])))
                afters.append(MC_CORRUPTIONS["wallet"](after, rng))
                afters.append(MC_CORRUPTIONS["vault"](after, rng))
                for a in afters:
                    for name in ("wallet_changes", "vault_changes"):
                        plain = getattr(mc._Plain, name)(game, before, action, a)
                        assert getattr(mc, name)(game, before, action, a) == plain, (seed, action, name)
                        checked += 1
                        violated += plain is not None
    assert violated > checked // 10
