"""Bot Factory's cheaper invariant checks (issue 12, item 3) give the plain recount's answers.

The fast paths of bgrules/botfactory/invariants.py keep the very parts of the last state they read and
reuse their answer while a state shares them; the limits keep whether the last hands keep the part and
Project limits and check only the hands a step changed; bot_slots checks only the columns a step changed;
the part counts move only the places of a tuple whose tile is not the very same object when the old and
new tuple are as long; the Project tiles are counted as one packed int (a colour a base-2**32 digit), by
value-memoised counts of the changed tuples and of the piles' sums. Here, on seeded playouts (2-4
players), every memoised predicate equals its plain recount (``_Plain``) at every step, on states
corrupted where those paths look (a tile replaced in a tuple of the same length, a tile replaced by an
equal string that is not the same object, an unknown part or colour, a hand over a limit, two bad
columns, piles whose packed sum is the right one with other counts (a carried digit), a float equal to
the right count, piles and grids of other lengths), and on the real states after them.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from support.invariant_checks import BF_CORRUPTIONS, BF_MEMOISED, Corrupt, playouts, replaced, with_hand
from support.walks import steps

from bgrules.botfactory import invariant_counts as bf_counts
from bgrules.botfactory import invariants as bf
from bgrules.botfactory import state as bf_state
from bgrules.core.fastevolve import evolve
from bgrules.core.registry import load_game

PARTS = ("red-head", "blue-torso", "green-legs", "yellow-head", "any-torso", "red-legs")
COLOURS = ("red", "blue", "green", "yellow")


def _equal_copy(p: Any) -> Any:
    """An equal string that is not the same object (None stays None)."""
    return None if p is None else "".join(list(p))


def _replace(t: tuple[Any, ...], rng: random.Random, values: tuple[Any, ...]) -> tuple[Any, ...]:
    """One entry replaced by another value: the tuple keeps its length."""
    i = rng.randrange(len(t))
    return replaced(t, i, rng.choice(values))


def _copies(t: tuple[Any, ...]) -> tuple[Any, ...]:
    """An equal tuple of equal strings, none of them the same objects."""
    return tuple([_equal_copy(p) for p in t])


def _carry(t: tuple[int, ...], rng: random.Random) -> tuple[int, ...]:
    """One count up by 2**32 and the next down by one: the same packed sum (base 2**32), other counts."""
    i = rng.randrange(len(t) - 1)
    return replaced(replaced(t, i, t[i] - 2**32), i + 1, t[i + 1] + 1)


def _project_to_grid(s: Any, rng: random.Random) -> Any:
    """A hand's unfinished Project put on an empty grid space: still conserved (when both exist)."""
    seats = [i for i, h in enumerate(s.hands) if h.projects]
    spaces = [(c, j) for c, col in enumerate(s.grid) for j, t in enumerate(col) if t is None]
    if not seats or not spaces:
        raise IndexError("no Project in hand or no empty space")
    seat, (c, j) = rng.choice(seats), rng.choice(spaces)
    hand = s.hands[seat]
    grid = replaced(s.grid, c, replaced(s.grid[c], j, hand.projects[0]))
    return evolve(s, grid=grid, hands=replaced(s.hands, seat, evolve(hand, projects=hand.projects[1:])))


def _row(s: Any, rng: random.Random, field: str, change: Any) -> Any:
    rows = getattr(s, field)
    i = rng.randrange(len(rows))
    return evolve(s, **{field: replaced(rows, i, change(rows[i]))})


TARGETED: dict[str, Corrupt] = {
    "hand part replaced": lambda s, r: with_hand(s, r, parts=lambda p: _replace(p, r, PARTS)),
    "hand parts copied": lambda s, r: with_hand(s, r, parts=_copies),
    "hand project replaced": lambda s, r: with_hand(s, r, projects=lambda p: _replace(p, r, COLOURS)),
    "hand done replaced": lambda s, r: with_hand(s, r, done=lambda p: _replace(p, r, COLOURS)),
    "hand projects copied": lambda s, r: with_hand(s, r, projects=_copies, done=_copies),
    "wheel replaced": lambda s, r: evolve(s, wheel=_replace(s.wheel, r, (*PARTS, None))),
    "wheel copied": lambda s, r: evolve(s, wheel=_copies(s.wheel)),
    "spares copied": lambda s, r: evolve(s, spares=_copies(s.spares)),
    "unknown part": lambda s, r: evolve(s, wheel=_replace(s.wheel, r, ("purple-head",))),
    "column replaced": lambda s, r: _row(s, r, "columns", lambda c: _replace(c, r, (*PARTS, None))),
    "column copied": lambda s, r: _row(s, r, "columns", _copies),
    "columns copied": lambda s, r: evolve(s, columns=tuple([_copies(c) for c in s.columns])),
    "grid replaced": lambda s, r: _row(s, r, "grid", lambda c: _replace(c, r, (*COLOURS, None))),
    "grid copied": lambda s, r: evolve(s, grid=tuple([_copies(c) for c in s.grid])),
    "hand over the part limit": lambda s, r: with_hand(s, r, parts=lambda p: (*p, *PARTS)),
    "hand over the Project limit": lambda s, r: with_hand(s, r, projects=lambda p: (*p, *COLOURS, *COLOURS)),
    "hand over the token limit": lambda s, r: with_hand(s, r, tokens=lambda t: r.choice((-1, 10))),
    "hand tokens moved": lambda s, r: with_hand(s, r, tokens=lambda t: t + r.choice((-1, 1))),
    "supply copied": lambda s, r: evolve(s, supply=tuple(list(s.supply))),
    "reserved copied": lambda s, r: evolve(s, reserved=tuple(list(s.reserved))),
    "order copied": lambda s, r: evolve(s, order=tuple(list(s.order))),
    "settling": BF_CORRUPTIONS["settling"],
    "project carried": lambda s, r: evolve(s, project_pile=_carry(s.project_pile, r)),
    "project discard carried": lambda s, r: evolve(s, project_discard=_carry(s.project_discard, r)),
    "project pile huge": lambda s, r: evolve(s, project_pile=replaced(s.project_pile, 0, 2**40)),
    "project pile longer": lambda s, r: evolve(s, project_pile=(*s.project_pile, 0)),
    "project pile shorter": lambda s, r: evolve(s, project_pile=s.project_pile[:-1]),
    "project discard float": lambda s, r: evolve(
        s, project_discard=replaced(s.project_discard, 1, float(s.project_discard[1]))
    ),
    "grid unknown colour": lambda s, r: _row(s, r, "grid", lambda c: _replace(c, r, ("purple",))),
    "grid shorter": lambda s, r: evolve(s, grid=s.grid[:-1]),
    "hand project none": lambda s, r: with_hand(s, r, projects=lambda p: (*p, None)),
    "hand project moved to grid": lambda s, r: _project_to_grid(s, r),
}
"""Corruptions where the new fast paths look, beside the general ones (support.invariant_checks)."""


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fast_paths_equal_the_plain_recount_where_they_skip(players: int) -> None:
    violated, checked = playouts(
        bf,
        BF_MEMOISED,
        {**BF_CORRUPTIONS, **TARGETED},
        "botfactory",
        players,
        prefer=tuple(TARGETED),
        rate=0.25,
        rng_seed=100 + players,
    )
    assert checked > 100
    assert 20 < violated < checked  # both kinds met


def _state_after(count: int, seed: int = 7) -> tuple[Any, Any]:
    game = load_game("botfactory", players=4)
    state = None
    for i, (_b, _a, after) in enumerate(steps(game, seed)):
        state = after
        if i == count:
            break
    return game, state


def test_limits_follow_a_hand_over_the_part_limit_through_a_pending_draw() -> None:
    """While a draw is pending a hand may hold 6 part tiles; other hands changing meanwhile keep the answer;
    once the draw is over the limit is broken unless that hand discarded back to 5."""
    game, state = _state_after(60)
    for memo in bf_counts.MEMOS:
        memo.clear()
    assert bf.limits(game, state) is None
    seat = 1
    hand = state.hands[seat]
    over = evolve(hand, parts=("red-head",) * 6, projects=(), done=())
    pending = evolve(state, hands=replaced(state.hands, seat, over), draws=(("project", -1, "grid", 0, 0),))
    assert bf.limits(game, pending) is None
    other = (seat + 1) % 4
    moved = evolve(pending, hands=replaced(pending.hands, other, evolve(pending.hands[other], tokens=2)))
    assert bf.limits(game, moved) is None
    ended = evolve(moved, draws=(), turn=None, phase=bf_state.Phase.MOVE)
    assert bf.limits(game, ended) == bf_counts._Plain.limits(game, ended) == f"player {seat} holds 6 part tiles"
    assert bf.limits(game, moved) is None  # pending again, the same hands
    fixed = evolve(moved, hands=replaced(moved.hands, seat, evolve(over, parts=("red-head",) * 5)))
    assert bf.limits(game, fixed) is None
    assert bf.limits(game, evolve(fixed, draws=(), turn=None, phase=bf_state.Phase.MOVE)) is None
    # a changed hand over the token limit, pending or not
    bad = evolve(fixed, hands=replaced(fixed.hands, other, evolve(fixed.hands[other], tokens=10)))
    assert bf.limits(game, bad) == f"player {other} holds 10 tokens"
    assert bf.limits(game, fixed) is None


def test_bot_slots_name_the_first_bad_column_of_those_changed() -> None:
    """Two columns changed, both wrong: the answer names the first, as the plain check does; one of them
    put right: the other."""
    game, state = _state_after(60)
    for memo in bf_counts.MEMOS:
        memo.clear()
    assert bf.bot_slots(game, state) is None
    n = len(game.slots)
    cols = state.columns
    wrong = replaced(replaced(cols, 1, ("red-legs",) + (None,) * (n - 1)), 3, (None,) * (n + 1))
    bad = evolve(state, columns=wrong)
    assert bf.bot_slots(game, bad) == bf_counts._Plain.bot_slots(game, bad) is not None
    assert game.colours[1] in (bf.bot_slots(game, bad) or "")
    half = evolve(state, columns=replaced(wrong, 1, cols[1]))
    answer = f"the {game.colours[3]} bot has {n + 1} spaces"
    assert bf.bot_slots(game, half) == bf_counts._Plain.bot_slots(game, half) == answer
    assert bf.bot_slots(game, state) is None


def test_a_reused_answer_holds_the_parts_it_read() -> None:
    """The parts a memoised answer was read from are held (so no identity is reused) and an equal copy
    of them, not the same object, is read again: the same answer."""
    game, state = _state_after(80)
    for memo in bf_counts.MEMOS:
        memo.clear()
    for name in BF_MEMOISED:
        assert getattr(bf, name)(game, state) is None, name
    memo = bf_counts
    assert memo._TOKENS.a is state.supply and memo._TOKENS.b is state.reserved and memo._TOKENS.c is state.hands
    assert memo._SLOTS.a is state.columns and memo._RESERVED.a is state.reserved and memo._ORDER.a is state.order
    assert bf_counts._BOTS.a is state.bots_left and bf_counts._LIMITS.a is state.hands
    copied = evolve(
        state,
        supply=tuple(list(state.supply)),
        reserved=tuple(list(state.reserved)),
        order=tuple(list(state.order)),
        bots_left=tuple(list(state.bots_left)),
        columns=tuple([_copies(c) for c in state.columns]),
        hands=tuple([evolve(h, parts=_copies(h.parts)) for h in state.hands]),
    )
    for name in BF_MEMOISED:
        assert getattr(bf, name)(game, copied) is None, name
    assert bf_counts._TOKENS.a is copied.supply and bf_counts._SLOTS.a is copied.columns
