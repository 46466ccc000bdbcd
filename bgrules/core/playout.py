"""Seeded playouts: the driver samples decisions and chance outcomes; states hold no generator."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import attrs

from bgrules.core import coverage
from bgrules.core.errors import InputError
from bgrules.core.protocol import CHANCE, Game


@attrs.frozen
class Playout:
    seed: int
    actions: tuple[Any, ...]
    final: Any
    truncated: bool
    ended_by: str | None = None
    """The rule ID of the end trigger that ended the game (``game.end_trigger``), None when truncated."""


_CUMULATIVE: dict[int, tuple[float, ...]] = {}
"""Per outcomes tuple (by identity: games memoise their outcomes, so the same tuple comes back), the running
sums of its probabilities as floats, as :func:`sample_chance` adds them. Bounded. The tuple itself is held
in ``_CUMULATIVE_OF`` (an id is only reused once its object is gone), apart from the sums: a tuple of floats
is one the cyclic collector stops tracking, so a long run's memo costs the collector nothing but the dicts."""
_CUMULATIVE_OF: dict[int, Any] = {}


def _cumulative(outcomes: Any) -> tuple[float, ...]:
    key = id(outcomes)
    if _CUMULATIVE_OF.get(key) is outcomes:
        return _CUMULATIVE[key]
    sums = []
    acc = 0.0
    for _action, p in outcomes:
        acc += p.numerator / p.denominator  # float(p), as Fraction.__float__ computes it, without its call
        sums.append(acc)
    if len(_CUMULATIVE) > 10_000:
        _CUMULATIVE.clear()
        _CUMULATIVE_OF.clear()
    found = _CUMULATIVE[key] = tuple(sums)
    _CUMULATIVE_OF[key] = outcomes
    return found


_SUMS_TO_ONE: dict[int, bool] = {}
"""Per outcomes tuple (by identity, the tuple held in ``_SUMS_TO_ONE_OF``), whether its probabilities sum
to exactly 1. Bounded."""
_SUMS_TO_ONE_OF: dict[int, Any] = {}


def sums_to_one(outcomes: Any) -> bool:
    """Whether a chance node's ``(outcome, probability)`` pairs are not empty and their probabilities
    (Fractions or ints) sum to exactly 1: in whole numbers over the least common denominator, not by
    adding Fractions (each sum of two reduces by a gcd). Memoised per tuple by identity (games memoise
    their outcomes, so the same tuple comes back), as the invariant ``never_stuck`` of both games asks
    at every chance node."""
    key = id(outcomes)
    if _SUMS_TO_ONE_OF.get(key) is outcomes:
        return _SUMS_TO_ONE[key]
    ok = False
    if outcomes:
        ratios = [p.as_integer_ratio() for _action, p in outcomes]
        common = math.lcm(*[den for _num, den in ratios])
        ok = sum([num * (common // den) for num, den in ratios]) == common
    if len(_SUMS_TO_ONE) > 10_000:
        _SUMS_TO_ONE.clear()
        _SUMS_TO_ONE_OF.clear()
    _SUMS_TO_ONE[key] = ok
    _SUMS_TO_ONE_OF[key] = outcomes
    return ok


def sample_chance(game: Game, state: Any, rng: random.Random) -> Any:
    """The outcome drawn by ``rng.random()`` against the running sums of the probabilities (as floats)."""
    outcomes = game.chance_outcomes(state)
    x = rng.random()
    for i, acc in enumerate(_cumulative(outcomes)):
        if x < acc:
            return outcomes[i][0]
    return outcomes[-1][0]


def round_cap(game: Game, max_rounds: int | None = None) -> int | None:
    """The runner's round cap for ``game``: ``max_rounds`` if given, else the game's own default for
    runners (``game.runner_rounds``, e.g. Bot Factory without a cap of its own: 40), else None. Only games
    that count rounds (``game.round_of(state)``) are capped by rounds."""
    if getattr(game, "round_of", None) is None:
        return None
    if max_rounds is not None:
        if not isinstance(max_rounds, int) or max_rounds < 1:
            raise InputError("max_rounds", f"a whole number of at least 1, not {max_rounds!r}")
        return max_rounds
    cap = getattr(game, "runner_rounds", None)
    return cap if isinstance(cap, int) else None


def past_cap(game: Game, state: Any, cap: int | None) -> bool:
    """A runner's truncation: the game, not over, has entered round ``cap + 1`` (the rules did not end it
    within ``cap`` rounds). Such a game is reported truncated, never scored as finished."""
    return cap is not None and not game.is_terminal(state) and int(game.round_of(state)) > cap  # type: ignore[attr-defined]


def end_trigger(game: Game, state: Any) -> str | None:
    """The rule ID that ended a terminal ``state`` (``game.end_trigger``; "terminal" for a game without
    one), None when the game is not over."""
    if not game.is_terminal(state):
        return None
    trigger = getattr(game, "end_trigger", None)
    found = trigger(state) if trigger is not None else None
    return str(found) if found is not None else "terminal"


def walk(
    game: Game,
    seed: int,
    max_steps: int | None = None,
    max_rounds: int | None = None,
    agents: Sequence[Any] | None = None,
) -> Iterator[tuple[Any, Any, Any]]:
    """Yield (state, action, next_state) along one legal playout from ``seed``, at most ``max_steps``
    actions (default ``game.info.max_length``) and, for games that count rounds, at most
    :func:`round_cap` rounds (the runner's truncation: the walk stops as the next round begins).
    ``agents`` (one :class:`bgrules.agents.Agent` per seat; None = uniform random, the same games as
    before agents existed) choose the players' actions; chance is sampled from the same rng."""
    if agents is not None and len(agents) != game.players:
        raise InputError("agents", f"{game.players} seats need {game.players} agents, not {len(agents)}")
    rng = random.Random(seed)
    state = game.initial_state()
    limit = game.info.max_length if max_steps is None else max_steps
    cap = round_cap(game, max_rounds)
    # the protocol's methods looked up once (the loop is the hot path of every runner); past_cap inlined
    is_terminal, to_move, legal_actions, apply = game.is_terminal, game.to_move, game.legal_actions, game.apply
    round_of = getattr(game, "round_of", None) if cap is not None else None
    for _ in range(limit):
        if is_terminal(state) or (round_of is not None and cap is not None and int(round_of(state)) > cap):
            return
        mover = to_move(state)
        if mover is CHANCE:
            action = sample_chance(game, state, rng)
        elif agents is None:
            legal = legal_actions(state)
            action = legal[rng.randrange(len(legal))]
        else:
            assert isinstance(mover, int)
            with coverage.probe():  # an agent's look-ahead is not what the playout applied: no evidence
                action = agents[mover].choose(game, state, rng)
        nxt = apply(state, action)
        yield state, action, nxt
        state = nxt


def playout(
    game: Game,
    seed: int,
    max_steps: int | None = None,
    observe: Callable[[Any], None] | None = None,
    max_rounds: int | None = None,
    agents: Sequence[Any] | None = None,
) -> Playout:
    """One legal game from ``seed`` (random, or played by ``agents``, one per seat); the same seed gives
    the same game in any process. A game cut short by ``max_steps`` or the runner's round cap
    (:func:`round_cap`) is ``truncated``; one that ended names its end trigger in ``ended_by``."""
    actions = []
    state = game.initial_state()
    if observe is not None:
        observe(state)
    for _before, action, after in walk(game, seed, max_steps, max_rounds, agents):
        actions.append(action)
        state = after
        if observe is not None:
            observe(state)
    return Playout(seed, tuple(actions), state, not game.is_terminal(state), end_trigger(game, state))


def replay(game: Game, actions: Any) -> Any:
    state = game.initial_state()
    for action in actions:
        state = game.apply(state, action)
    return state
