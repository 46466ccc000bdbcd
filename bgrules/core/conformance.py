"""The conformance suite every game must pass (after OpenSpiel's random_sim_test and pgx's api_test).

:func:`check_game` plays seeded random games and checks, at every visited state: the legal set is
non-empty unless terminal; ``apply`` never mutates its input; the state round-trips through JSON to an
equal state with an equal hash; chance outcomes' probabilities sum to 1; ``to_move`` agrees with
``is_terminal``. :func:`check_agents` plays seeded games with agents (one per seat) and checks that each
action an agent chooses is legal and that the same seed gives the same game again. :func:`trace_digest`
gives a digest of a seeded game, to compare across processes.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from bgrules.core.codec import action_from_data, action_to_data, dumps, loads
from bgrules.core.playout import walk
from bgrules.core.protocol import CHANCE, Game


class ConformanceError(AssertionError):
    pass


def check_state(game: Game, state: Any) -> None:
    terminal = game.is_terminal(state)
    mover = game.to_move(state)
    if terminal != (mover is None):
        raise ConformanceError(f"is_terminal={terminal} but to_move={mover!r}")
    if mover is CHANCE:
        outcomes = game.chance_outcomes(state)
        if not outcomes or sum((p for _a, p in outcomes), Fraction(0)) != 1:
            raise ConformanceError("chance outcomes must be non-empty and sum to 1")
    elif not terminal and not game.legal_actions(state):
        raise ConformanceError("a state that is not terminal has no legal action")
    text = dumps(state)
    back = loads(game, text)
    if back != state or hash(back) != hash(state) or dumps(back) != text:
        raise ConformanceError("the state does not round-trip through JSON")


def check_game(game: Game, seeds: range, max_steps: int | None = None) -> int:
    """Check every state of the seeded random games; returns the number of states checked."""
    types = tuple(game.action_types())
    n = 0
    for seed in seeds:
        check_state(game, game.initial_state())
        for before, action, after in walk(game, seed, max_steps):
            snapshot = copy.deepcopy(before)
            again = game.apply(before, action)
            if before != snapshot or dumps(before) != dumps(snapshot):
                raise ConformanceError(f"apply mutated its input (seed {seed}, {action!r})")
            if again != after:
                raise ConformanceError(f"apply is not deterministic (seed {seed}, {action!r})")
            if action_from_data(action_to_data(action), types) != action:
                raise ConformanceError(f"{action!r} does not round-trip through JSON")
            if eval(repr(action), _repr_namespace(types)) != action:  # reprs paste into a test
                raise ConformanceError(f"repr {action!r} does not rebuild the action")
            check_state(game, after)
            n += 1
    return n


def check_agents(game: Game, agents: Sequence[Any], seeds: range, max_steps: int | None = None) -> int:
    """Play each seed twice with ``agents`` (one per seat): every action an agent chooses must be among
    ``legal_actions`` of its state, and the two games must be equal action for action (agents are
    deterministic given the rng). Returns the number of agent decisions checked."""
    n = 0
    for seed in seeds:
        first = []
        for before, action, _after in walk(game, seed, max_steps, agents=agents):
            mover = game.to_move(before)
            if mover is not CHANCE:
                if action not in game.legal_actions(before):
                    name = agents[mover].name if isinstance(mover, int) else "?"
                    raise ConformanceError(f"{name} chose {action!r}, not a legal action (seed {seed})")
                n += 1
            first.append(action)
        again = [action for _b, action, _a in walk(game, seed, max_steps, agents=agents)]
        if again != first:
            raise ConformanceError(f"the agents' game of seed {seed} differs when played again")
    return n


def _repr_namespace(types: tuple[type, ...]) -> dict[str, Any]:
    ns: dict[str, Any] = {t.__name__: t for t in types}
    for t in types:
        module = __import__(t.__module__, fromlist=["*"])
        for name in ("Bot", "Dir"):
            if hasattr(module, name):
                ns[name] = getattr(module, name)
    return ns


def trace_digest(game: Game, seed: int, max_steps: int | None = None) -> str:
    """SHA-256 of the JSON of every action and state along the seeded game."""
    h = hashlib.sha256()
    for _before, action, after in walk(game, seed, max_steps):
        h.update(repr(action).encode())
        h.update(dumps(after).encode())
    return h.hexdigest()
