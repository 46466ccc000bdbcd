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
from support.invariant_checks import (
    BF_CORRUPTIONS,
    BF_MEMOISED,
    Corrupt,
    bump,
    flip,
    playouts,
    replaced,
    with_hand,
)
from support.walks import steps

from bgrules.botfactory import invariant_counts as bf_counts
from bgrules.botfactory import invariants as bf
from bgrules.botfactory import state as bf_state
from bgrules.core.fastevolve import evolve
from bgrules.core.registry import load_game
from bgrules.mechanica import game_invariants as mc
from bgrules.mechanica.board import StartSlot, Truck
from bgrules.mechanica.components import Bot

MC_MEMOISED = ("improvements_conserved", "bots_conserved", "blueprint_once", "money_never_negative")


def _board(s: Any, rng: random.Random, change: Callable[[Any], Any]) -> Any:
    seat = rng.randrange(len(s.seats))
    board = change(s.seats[seat].factory)
    return evolve(s, seats=replaced(s.seats, seat, evolve(s.seats[seat], factory=board)))


def _seat(s: Any, rng: random.Random, **change: Callable[[Any], Any]) -> Any:
    i = rng.randrange(len(s.seats))
    seat = evolve(s.seats[i], **{k: f(getattr(s.seats[i], k)) for k, f in change.items()})
    return evolve(s, seats=replaced(s.seats, i, seat))


def _without_a_tile(board: Any) -> Any:
    """The board with its first tile (if any) taken off the floor."""
    i = next((i for i, p in enumerate(board.floor) if p is not None), 0)
    return board.with_cell(i // 4, i % 4, None)


MC_CORRUPTIONS: dict[str, Corrupt] = {
    "deck": lambda s, r: evolve(s, deck=bump(s.deck, r)),
    "deck negative": lambda s, r: evolve(s, deck=replaced(s.deck, 0, -1)),
    "extras": lambda s, r: evolve(s, extras=bump(s.extras, r)),
    "recycler": lambda s, r: evolve(s, recycler=bump(s.recycler, r)),
    "wheel": lambda s, r: evolve(s, wheel=flip(s.wheel, r, ("upgrader", "duplicator"))),
    "pending": lambda s, r: evolve(s, pending=None if s.pending else "upgrader"),
    "stock": lambda s, r: evolve(s, stock=bump(s.stock, r)),
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
        s, seats=replaced(s.seats, 0, evolve(s.seats[0], completed=(*s.seats[0].completed, 1, 1)))
    ),
    "seats shape": lambda s, r: evolve(s, seats=s.seats[:-1]),
    "wallet": lambda s, r: _seat(s, r, wallet=lambda w: r.choice((-1, w + 1))),
    "vault": lambda s, r: _seat(s, r, vault=lambda v: r.choice((-2, v + 2))),
}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_botfactory_fast_paths_equal_the_plain_recount(players: int) -> None:
    assert playouts(bf, BF_MEMOISED, BF_CORRUPTIONS, "botfactory", players)[0] > 20


@pytest.mark.parametrize("players", [2, 3, 4])
def test_mechanica_fast_paths_equal_the_plain_recount(players: int) -> None:
    assert playouts(mc, MC_MEMOISED, MC_CORRUPTIONS, "mechanica", players)[0] > 10


def _state_after(name: str, count: int) -> tuple[Any, Any]:
    game = load_game(name, players=4)
    state = None
    for i, (_b, _a, after) in enumerate(steps(game, 7)):
        state = after
        if i == count:
            break
    return game, state


BF_CHANGES: dict[str, tuple[str, Corrupt]] = {
    "parts_conserved": ("piles", lambda s, r: evolve(s, piles=replaced(s.piles, 0, (9, 9, 9)))),
    "tokens_conserved": ("supply", lambda s, r: evolve(s, supply=replaced(s.supply, 0, s.supply[0] + 1))),
    "limits": ("tokens", lambda s, r: with_hand(s, r, tokens=lambda t: 10)),
    "bot_slots": ("columns", lambda s, r: evolve(s, columns=replaced(s.columns, 0, ("blue-legs", None, None)))),
    "bots_match_projects": (
        "bots left",
        lambda s, r: evolve(s, bots_left=replaced(s.bots_left, 0, s.bots_left[0] - 1)),
    ),
    "reservations": ("reserved", lambda s, r: evolve(s, reserved=replaced(s.reserved, 0, (1, 1)))),
    "order_is_permutation": ("order", lambda s, r: evolve(s, order=(0,) * len(s.order))),
    "projects_conserved": ("grid", lambda s, r: evolve(s, grid=replaced(s.grid, 0, ("red",) * len(s.grid[0])))),
}

MC_CHANGES: dict[str, tuple[str, Corrupt]] = {
    "improvements_conserved": ("recycler", lambda s, r: evolve(s, recycler=replaced(s.recycler, 0, s.recycler[0] + 1))),
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
    over = with_hand(state, random.Random(2), parts=lambda p: ("red-head",) * 6)
    pending = evolve(over, draws=(("project", -1, "grid", 0, 0),))
    assert bf.limits(game, pending) is None
    done = evolve(pending, draws=(), turn=None, phase=bf_state.Phase.MOVE)
    assert done.hands is pending.hands
    assert bf.limits(game, done) == bf_counts._Plain.limits(game, done) is not None
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
            for before, action, after in steps(game, seed):
                afters = [after, evolve(after, seats=before.seats)]
                i = rng.randrange(len(after.seats))
                afters.append(evolve(after, seats=replaced(after.seats, i, before.seats[i])))
                afters.append(MC_CORRUPTIONS["wallet"](after, rng))
                afters.append(MC_CORRUPTIONS["vault"](after, rng))
                for a in afters:
                    for name in ("wallet_changes", "vault_changes"):
                        plain = getattr(mc._Plain, name)(game, before, action, a)
                        assert getattr(mc, name)(game, before, action, a) == plain, (seed, action, name)
                        checked += 1
                        violated += plain is not None
    assert violated > checked // 10
