"""Corrupted states for the tests of the invariants' fast paths (tests/core/test_invariant_memos.py,
tests/botfactory/test_invariant_fast_paths.py): each corruption changes one part of a real state and shares every other
part with it, as a step does, so the memoised predicates take their incremental paths; and the seeded
playouts (walked by the refinement harness's walker, support.walks) on which a memoised predicate must
give its plain recount's answer at every step, on corrupted copies and on the real states after them."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from bgrules import dumps, loads
from bgrules.core.fastevolve import evolve
from bgrules.core.registry import load_game

from .walks import steps

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
Corrupt = Callable[[Any, random.Random], Any]


def replaced(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return (*t[:i], v, *t[i + 1 :])


def bump(t: tuple[int, ...], rng: random.Random) -> tuple[int, ...]:
    i = rng.randrange(len(t))
    return replaced(t, i, t[i] + rng.choice((-1, 1)))


def bump_nested(t: tuple[tuple[int, ...], ...], rng: random.Random) -> tuple[tuple[int, ...], ...]:
    i = rng.randrange(len(t))
    return replaced(t, i, bump(t[i], rng))


def flip(t: tuple[Any, ...], rng: random.Random, values: tuple[Any, ...]) -> tuple[Any, ...]:
    """One entry replaced: a None by a value, a value by None or another value."""
    i = rng.randrange(len(t))
    return replaced(t, i, rng.choice(values) if t[i] is None or rng.random() < 0.5 else None)


def with_hand(s: Any, rng: random.Random, **change: Callable[[Any], Any]) -> Any:
    seat = rng.randrange(len(s.hands))
    hand = s.hands[seat]
    hand = evolve(hand, **{k: f(getattr(hand, k)) for k, f in change.items()})
    return evolve(s, hands=replaced(s.hands, seat, hand))


BF_PARTS = ("red-head", "blue-body", "green-legs", "yellow-head", "any-body", "red-legs")
BF_COLOURS = ("red", "blue", "green", "yellow")

BF_CORRUPTIONS: dict[str, Corrupt] = {
    "piles": lambda s, r: evolve(s, piles=bump_nested(s.piles, r)),
    "discards": lambda s, r: evolve(s, discards=bump_nested(s.discards, r)),
    "universal": lambda s, r: evolve(s, universal=bump(s.universal, r)),
    "wheel": lambda s, r: evolve(s, wheel=flip(s.wheel, r, BF_PARTS)),
    "spares": lambda s, r: evolve(s, spares=flip(s.spares, r, BF_PARTS)),
    "column": lambda s, r: evolve(
        s, columns=replaced(s.columns, (i := r.randrange(len(s.columns))), flip(s.columns[i], r, BF_PARTS))
    ),
    "columns shape": lambda s, r: evolve(s, columns=s.columns[:-1]),
    "hand parts": lambda s, r: with_hand(s, r, parts=lambda p: (*p, r.choice(BF_PARTS))),
    "hand parts lost": lambda s, r: with_hand(s, r, parts=lambda p: p[1:]),
    "hand tokens": lambda s, r: with_hand(s, r, tokens=lambda t: t + r.choice((-1, 1, 9))),
    "hand projects": lambda s, r: with_hand(s, r, projects=lambda p: (*p, r.choice(BF_COLOURS))),
    "hand done": lambda s, r: with_hand(s, r, done=lambda p: (*p, r.choice(BF_COLOURS))),
    "hands shape": lambda s, r: evolve(s, hands=s.hands[:-1]),
    "supply": lambda s, r: evolve(s, supply=bump(s.supply, r)),
    "reserved": lambda s, r: evolve(s, reserved=replaced(s.reserved, 0, (*s.reserved[0], 0, 0))),
    "order": lambda s, r: evolve(s, order=(s.order[0], *s.order[:-1])),
    "grid": lambda s, r: evolve(
        s, grid=replaced(s.grid, (i := r.randrange(len(s.grid))), flip(s.grid[i], r, BF_COLOURS))
    ),
    "project pile": lambda s, r: evolve(s, project_pile=bump(s.project_pile, r)),
    "project discard": lambda s, r: evolve(s, project_discard=bump(s.project_discard, r)),
    "bots left": lambda s, r: evolve(s, bots_left=bump(s.bots_left, r)),
    "settling": lambda s, r: evolve(s, draws=() if s.draws else (("project", -1, "grid", 0, 0),)),
}


def check_fast_equals_plain(mod: Any, names: tuple[str, ...], game: Any, state: Any, where: str) -> None:
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


def playouts(
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
        for i, (_before, _action, after) in enumerate(steps(game, seed)):
            check_fast_equals_plain(mod, names, game, after, f"seed {seed} step {i}")
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
                    check_fast_equals_plain(mod, names, game, bad, f"seed {seed} step {i}: {what}")
                    checked += 1
                    try:
                        violated += any(getattr(mod._Plain, n)(game, bad) for n in names)
                    except Exception:
                        violated += 1
            if rng.random() < 0.03:
                fresh = loads(game, dumps(after))
                assert fresh == after and fresh is not after
                check_fast_equals_plain(mod, names, game, fresh, f"seed {seed} step {i}: built afresh")
    return violated, checked
