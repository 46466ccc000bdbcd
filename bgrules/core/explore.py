"""An exhaustive explorer: every state reachable from a start, breadth-first.

:func:`explore` needs only the play protocol (``initial_state``, ``to_move``, ``legal_actions``,
``chance_outcomes``, ``apply``, ``is_terminal``) and states that are hashable values, so a game written
outside bgrules (its states plain tuples) explores too. A game may declare its symmetries with
``canonical(state)``: a hashable key equal for states the game declares symmetric; with ``symmetry=True``
(the default) the explorer counts those keys instead of the states themselves.

Each step from a state is one ply: a player's action, or one outcome of a chance node (every outcome is
expanded, in the order ``chance_outcomes`` gives them). The order is fixed (breadth-first, children in
``legal_actions`` order), so the counts, the first state found for each key and the shortest paths are
the same in any process. Terminal states are counted and not expanded.

The result keeps, for every key it saw, the key it was first reached from and the action (or chance
outcome) taken: :meth:`Exploration.path_to` gives a shortest path from the start, which replays (from the
start, with ``apply``) to the very state that was found first with that key.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Mapping
from typing import Any

import attrs

from bgrules.core.descriptor import find
from bgrules.core.errors import InputError
from bgrules.core.protocol import CHANCE

Key = Hashable


@attrs.frozen
class Level:
    """The states first reached at one depth (plies from the start): ``distinct`` keys new at ``depth``."""

    depth: int
    distinct: int


def canonical_of(game: Any) -> Callable[[Any], Key] | None:
    """The game's declared symmetries as a key of a state: its own callable ``canonical(state)``, else its
    descriptor's ``symmetries`` part (``canonical(game, state)``: :mod:`bgrules.core.descriptor`), else
    None."""
    own = getattr(game, "canonical", None)
    if callable(own):
        return own  # type: ignore[no-any-return]

    found = find(getattr(getattr(game, "info", None), "name", None))
    if found is None or found.symmetries is None:
        return None
    part = found.part("symmetries", "explore")

    def key(state: Any) -> Key:
        return part(game, state)  # type: ignore[no-any-return]

    return key


def has_symmetry(game: Any) -> bool:
    """Whether the game declares its symmetries (a callable ``canonical``, or its descriptor's
    ``symmetries``)."""
    return canonical_of(game) is not None


@attrs.frozen(eq=False)
class Exploration:
    """What :func:`explore` found.

    ``distinct`` counts the keys seen (states, or canonical keys when ``symmetric``); ``levels`` counts
    them per depth of first reach; ``complete`` is True only when nothing was left unexplored (the
    frontier emptied: every state seen was expanded, or was terminal); ``stopped`` names the budget that
    ended the run (``"depth"``, ``"max_states"``, ``"seconds"``, ``"visit"``) or is None when the run was complete.
    """

    distinct: int
    complete: bool
    levels: tuple[Level, ...]
    symmetric: bool
    stopped: str | None
    _parents: Mapping[Key, tuple[Key, Any] | None] = attrs.field(repr=False, alias="parents")
    _key: Callable[[Any], Key] = attrs.field(repr=False, alias="key")

    def key_of(self, state: Any) -> Key:
        """The key this exploration counted ``state`` under (its canonical key when symmetric)."""
        return self._key(state)

    def __contains__(self, state: object) -> bool:
        return self._key(state) in self._parents

    def path_to(self, state: Any) -> tuple[Any, ...] | None:
        """A shortest sequence of actions (and chance outcomes) from the start to ``state`` (to the first
        state found that is symmetric to it, when symmetric), or None when it was not reached."""
        key = self._key(state)
        if key not in self._parents:
            return None
        steps: list[Any] = []
        link = self._parents[key]
        while link is not None:
            key, action = link
            steps.append(action)
            link = self._parents[key]
        return tuple(reversed(steps))


def _budget(name: str, value: Any, kind: type | tuple[type, ...]) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, kind) or not value > 0:  # type: ignore[operator]
        raise InputError(name, f"must be a positive number, not {value!r}")


def _identity(state: Any) -> Key:
    return state  # type: ignore[no-any-return]


def explore(
    game: Any,
    depth: int | None = None,
    symmetry: bool = True,
    max_states: int | None = None,
    seconds: float | None = None,
    start: Any = None,
    visit: Callable[[Any, Any, Any, bool], bool] | None = None,
) -> Exploration:
    """Explore breadth-first from ``start`` (default: ``game.initial_state()``).

    ``symmetry=True`` counts states by ``game.canonical`` when the game declares one (a game that does
    not is explored state by state: check :func:`has_symmetry` to require it). Budgets, each None for
    none: ``depth`` (plies from the start), ``max_states`` (the keys kept: ``distinct`` never exceeds
    it), ``seconds`` (wall time). A budget of zero or less raises :class:`InputError`.

    ``visit(state, step, child, new)``, when given, is called on every edge expanded, in the order of the
    exploration (``new``: ``child``'s key was not seen before); its True ends the run (``stopped``
    ``"visit"``, so it is not complete). The checker of specs (:func:`bgrules.runners.explored.check_explored`)
    checks its predicates there.
    """
    _budget("depth", depth, int)
    _budget("max_states", max_states, int)
    _budget("seconds", seconds, (int, float))
    canonical = canonical_of(game) if symmetry else None
    symmetric = canonical is not None
    key: Callable[[Any], Key] = canonical if canonical is not None else _identity
    state0 = game.initial_state() if start is None else start
    deadline = None if seconds is None else time.monotonic() + seconds

    parents: dict[Key, tuple[Key, Any] | None] = {key(state0): None}
    frontier: list[tuple[Key, Any]] = [(key(state0), state0)]
    levels = [Level(0, 1)]
    stopped: str | None = None
    level = 0
    while frontier:
        if depth is not None and level >= depth:
            if any(not game.is_terminal(s) for _, s in frontier):
                stopped = "depth"
            break
        fresh: list[tuple[Key, Any]] = []
        for at, state in frontier:
            if deadline is not None and time.monotonic() > deadline:
                stopped = "seconds"
                break
            if game.is_terminal(state):
                continue
            if game.to_move(state) is CHANCE:
                steps = tuple(outcome for outcome, _ in game.chance_outcomes(state))
            else:
                steps = tuple(game.legal_actions(state))
            for step in steps:
                child = game.apply(state, step)
                k = key(child)
                if k in parents:
                    if visit is not None and visit(state, step, child, False):
                        stopped = "visit"
                        break
                    continue
                if max_states is not None and len(parents) >= max_states:
                    stopped = "max_states"
                    break
                parents[k] = (at, step)
                fresh.append((k, child))
                if visit is not None and visit(state, step, child, True):
                    stopped = "visit"
                    break
            if stopped is not None:
                break
        level += 1
        if fresh:
            levels.append(Level(level, len(fresh)))
        if stopped is not None:
            break
        frontier = fresh
    return Exploration(
        distinct=len(parents),
        complete=stopped is None,
        levels=tuple(levels),
        symmetric=symmetric,
        stopped=stopped,
        parents=parents,
        key=key,
    )
