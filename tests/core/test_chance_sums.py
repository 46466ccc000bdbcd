"""``sums_to_one`` (the ``never_stuck`` invariant of both games at a chance node) gives the exact answer of
adding the Fractions, and both games' ``never_stuck`` report a chance node whose outcomes do not sum to 1.
Also ``sample_chance``'s running sums are those of ``float(p)``, so the sampled games are unchanged."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bgrules.botfactory import invariants as bf
from bgrules.core import playout
from bgrules.core.playout import sums_to_one, walk
from bgrules.core.protocol import CHANCE
from bgrules.core.registry import load_game
from bgrules.mechanica import game_invariants as mc

PROB = st.one_of(
    st.fractions(min_value=0, max_value=1, max_denominator=60),
    st.sampled_from([0, 1]),
)


def plain(outcomes: tuple[tuple[Any, Any], ...]) -> bool:
    return bool(outcomes) and sum(p for _a, p in outcomes) == 1


@given(st.lists(PROB, max_size=12))
def test_sums_to_one_is_the_fraction_sum(probs: list[Any]) -> None:
    outcomes = tuple((f"o{i}", p) for i, p in enumerate(probs))
    assert sums_to_one(outcomes) is plain(outcomes)
    assert sums_to_one(outcomes) is plain(outcomes)  # the memoised answer, the same


@given(st.lists(st.integers(1, 40), min_size=1, max_size=12), st.integers(-2, 2))
def test_counts_over_their_total_sum_to_one_and_off_by_one_do_not(counts: list[int], shift: int) -> None:
    """The games' draws: each count over the total; with one count shifted, the sum is not 1."""
    total = sum(counts)
    exact = tuple((i, Fraction(c, total)) for i, c in enumerate(counts))
    assert sums_to_one(exact)
    shifted = (*exact[:-1], (len(counts), Fraction(counts[-1] + shift, total)))
    assert sums_to_one(shifted) is (shift == 0)


def test_empty_outcomes_do_not_sum_to_one() -> None:
    assert sums_to_one(()) is False


def test_the_memo_goes_by_identity_and_holds_the_tuple() -> None:
    good = ((0, Fraction(1, 2)), (1, Fraction(1, 2)))
    bad = ((0, Fraction(1, 2)), (1, Fraction(1, 3)))
    assert sums_to_one(good) and not sums_to_one(bad)
    assert playout._SUMS_TO_ONE_OF[id(good)] is good and playout._SUMS_TO_ONE[id(good)] is True
    assert sums_to_one(good) and not sums_to_one(bad)
    # an equal tuple that is another object is worked out afresh, not read from the memo by value
    playout._SUMS_TO_ONE[id(good)] = False  # a planted wrong answer for the held tuple only
    assert sums_to_one(good) is False  # the held tuple reads the memo (proof that the memo is read) ...
    copy = ((0, Fraction(1, 2)), (1, Fraction(2, 4)))
    assert copy == good and copy is not good
    assert sums_to_one(copy) is True  # ... an equal but other tuple does not
    playout._SUMS_TO_ONE.clear()
    playout._SUMS_TO_ONE_OF.clear()


def test_the_cumulative_memo_goes_by_identity_and_holds_the_tuple() -> None:
    outcomes = ((0, Fraction(1, 4)), (1, Fraction(3, 4)))
    assert playout._cumulative(outcomes) == (0.25, 1.0)
    assert playout._CUMULATIVE_OF[id(outcomes)] is outcomes
    other = ((0, Fraction(3, 4)), (1, Fraction(1, 4)))
    assert playout._cumulative(other) == (0.75, 1.0)
    assert playout._cumulative(outcomes) == (0.25, 1.0)


@pytest.mark.parametrize("name", ["mechanica", "botfactory"])
def test_cumulative_sums_are_those_of_float(name: str) -> None:
    game = load_game(name, players=3)
    seen = 0
    for before, _action, _after in walk(game, 5):
        if game.to_move(before) is CHANCE:
            outcomes = game.chance_outcomes(before)
            acc, want = 0.0, []
            for _o, p in outcomes:
                acc += float(p)
                want.append(acc)
            assert playout._cumulative(outcomes) == tuple(want)
            seen += 1
    assert seen > 0


@pytest.mark.parametrize(("name", "module"), [("mechanica", mc), ("botfactory", bf)])
def test_never_stuck_reports_chance_outcomes_that_do_not_sum_to_one(name: str, module: Any) -> None:
    game = load_game(name, players=2)
    rng = random.Random(3)
    chance_states = [b for b, _a, _n in walk(game, 11) if game.to_move(b) is CHANCE]
    assert chance_states
    state = rng.choice(chance_states)
    assert module.never_stuck(game, state) is None
    real = game.chance_outcomes(state)
    short = (*real[:-1], (real[-1][0], real[-1][1] / 2)) if len(real) > 1 else ((real[0][0], Fraction(1, 2)),)
    game.chance_outcomes = lambda _s: short  # type: ignore[method-assign]
    why = module.never_stuck(game, state)
    assert why is not None and "summing to 1" in why
    game.chance_outcomes = lambda _s: ()  # type: ignore[method-assign]
    assert module.never_stuck(game, state) is not None


@pytest.mark.parametrize("name", ["mechanica", "botfactory"])
def test_the_last_chance_state_memo_answers_only_for_that_very_state(name: str) -> None:
    """chance_outcomes remembers the last state it answered (the walk, apply and never_stuck ask about the
    same one): asked about states in turn, and about equal states built afresh, it gives each its own
    outcomes, those of a game without any memo warm."""
    from bgrules import dumps, loads

    game = load_game(name, players=3)
    fresh_game = load_game(name, players=3)
    states = [b for b, _a, _n in walk(game, 2) if game.to_move(b) is CHANCE][:40]
    assert len(states) > 10
    for first, second in itertools.pairwise(states):
        for state in (first, second, first):
            assert game.chance_outcomes(state) == load_game(name, players=3).chance_outcomes(state)
        rebuilt = loads(fresh_game, dumps(second))
        assert rebuilt is not second and game.chance_outcomes(rebuilt) == game.chance_outcomes(second)
    assert game.chance_outcomes(game.initial_state()) == fresh_game.chance_outcomes(game.initial_state())
