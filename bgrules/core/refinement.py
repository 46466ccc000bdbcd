"""Refinement: the fast engine of a game must do what its reference engine does, at every state.

Each game ships two engines with the same protocol, the same state and action classes and the same
component data: the fast one (``bgrules.load_game(name)``) and a plain reference written from the rules as
documented (``bgrules.load_game(name, reference=True)``; docs/refinement.md). At a state both are asked
the same questions and must give the same answers:

- ``to_move`` and ``is_terminal``;
- at a player's decision, the same legal actions in the same order, and for each the same successor;
- the same initial state (:func:`initial_difference`);
- at a chance node, the same outcomes in the same order with the same exact probabilities (of the same
  type: a float 0.5 is not the Fraction 1/2), and for each the same successor;
- at a terminal state, the same ``scores`` and ``winners`` (and ``end_trigger`` where both have one);
- at a player's decision, the near misses of the listed actions (:func:`near_misses`) refused by both,
  naming the same rule (:func:`refusal_difference`);
- an engine that raises where the other answers differs too (its exception is the difference).

:func:`difference` gives the first disagreement at one state, in words (None when they agree);
:func:`refines` is the state predicate of the refinement specs (specs/refinement.toml), so the sampled,
searched and explored checkers run it like any invariant; :func:`compare_walks` is the harness the tests
and the benchmarks use, over seeded playouts.
"""

from __future__ import annotations

import enum
import random
import weakref
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import attrs

from bgrules.core.errors import IllegalAction, InputError
from bgrules.core.observe import observes
from bgrules.core.playout import past_cap, round_cap, sample_chance
from bgrules.core.protocol import CHANCE, Game
from bgrules.core.registry import game_options, load_game

_REFERENCES: weakref.WeakKeyDictionary[Any, Game] = weakref.WeakKeyDictionary()


def reference_of(game: Game) -> Game:
    """The reference engine with ``game``'s settings (players, variant, options): ``game`` must have been
    loaded with :func:`bgrules.load_game`, which records them. Built once per game object."""
    found = _REFERENCES.get(game)
    if found is not None:
        return found

    loaded = getattr(game, "loaded_as", None)
    if loaded is None:  # built by its class: its settings are its attributes, when it keeps every option
        name = getattr(getattr(game, "info", None), "name", "")
        wanted = game_options(name) if name else ("info",)
        if not all(hasattr(game, k) for k in wanted):
            raise InputError(
                "refinement", f"{type(game).__name__} was not loaded with bgrules.load_game: its settings are unknown"
            )
        loaded = (name, game.players, getattr(game, "variant", None), {k: getattr(game, k) for k in wanted})
    name, players, variant, options = loaded

    ref = load_game(name, players=players, variant=variant, reference=True, **options)
    _REFERENCES[game] = ref
    return ref


def _ask(fn: Callable[..., Any], *args: Any) -> tuple[bool, Any]:
    """(True, answer) or (False, "ExceptionName: message")."""
    try:
        return True, fn(*args)
    except Exception as exc:  # an engine's failure is a difference, reported, not raised
        return False, f"{type(exc).__name__}: {exc}"


def fields_apart(a: Any, b: Any, limit: int = 4) -> str:
    """The fields two states of one attrs class differ in (``name: fast … / reference …``), else both
    values shortened."""
    if attrs.has(type(a)) and type(a) is type(b):
        parts = []
        for f in attrs.fields(type(a)):
            x, y = getattr(a, f.name), getattr(b, f.name)
            if x != y:
                parts.append(f"{f.name}: fast {_short(x)} / reference {_short(y)}")
        if parts:
            more = f" (and {len(parts) - limit} more field(s))" if len(parts) > limit else ""
            return "; ".join(parts[:limit]) + more
    return f"fast {_short(a)} / reference {_short(b)}"


def _short(value: Any, width: int = 160) -> str:
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def _same(label: str, fast: tuple[bool, Any], ref: tuple[bool, Any]) -> str | None:
    if fast == ref:
        return None
    if fast[0] and ref[0]:
        return f"{label}: {fields_apart(fast[1], ref[1])}"
    return f"{label}: fast {'gives ' + _short(fast[1]) if fast[0] else 'raises ' + fast[1]}, reference " + (
        "gives " + _short(ref[1]) if ref[0] else "raises " + ref[1]
    )


def _listing(label: str, fast: Sequence[Any], ref: Sequence[Any]) -> str:
    """How two listings (legal actions, chance outcomes) differ: first index apart, or what one lacks."""
    only_fast = [x for x in fast if x not in ref]
    only_ref = [x for x in ref if x not in fast]
    if only_fast or only_ref:
        said = []
        if only_fast:
            said.append(f"only the fast engine has {_short(only_fast[:3])}" + (" ..." if len(only_fast) > 3 else ""))
        if only_ref:
            said.append(f"only the reference has {_short(only_ref[:3])}" + (" ..." if len(only_ref) > 3 else ""))
        return f"{label} differ ({len(fast)} vs {len(ref)}): " + "; ".join(said)
    for i, (x, y) in enumerate(zip(fast, ref, strict=False)):
        if x != y:
            return f"{label} in another order: at {i}, fast {_short(x)} / reference {_short(y)}"
    return f"{label} differ in length ({len(fast)} vs {len(ref)}): repeated entries"


def difference(fast: Game, ref: Game, state: Any, successors: bool = True) -> str | None:
    """The first way ``fast`` and ``ref`` disagree at ``state`` (module docstring), or None.

    ``successors=False`` skips applying every action and outcome (the listings are still compared)."""
    for label in ("to_move", "is_terminal"):
        found = _same(label, _ask(getattr(fast, label), state), _ask(getattr(ref, label), state))
        if found:
            return found
    if fast.is_terminal(state):
        for label in ("scores", "winners", "end_trigger"):
            if not (hasattr(fast, label) and hasattr(ref, label)):
                continue
            found = _same(label, _ask(getattr(fast, label), state), _ask(getattr(ref, label), state))
            if found:
                return found
        return None
    chance = fast.to_move(state) is CHANCE
    label = "chance outcomes" if chance else "legal actions"
    ask = "chance_outcomes" if chance else "legal_actions"
    got_f, got_r = _ask(getattr(fast, ask), state), _ask(getattr(ref, ask), state)
    if not (got_f[0] and got_r[0]):
        return _same(label, got_f, got_r)
    listed_f, listed_r = tuple(got_f[1]), tuple(got_r[1])
    if listed_f != listed_r:
        return _listing(label, listed_f, listed_r)
    if chance:
        for (outcome, p), (_o, q) in zip(listed_f, listed_r, strict=True):
            if type(p) is not type(q):
                return (
                    f"chance outcomes: the probability of {_short(outcome, 100)} is a {type(p).__name__} in the "
                    f"fast engine, a {type(q).__name__} in the reference"
                )
    if not chance:
        found = refusal_difference(fast, ref, state, listed_f)
        if found:
            return found
    if not successors:
        return None
    for entry in listed_f:
        step = entry[0] if chance else entry
        found = _same(f"successor of {_short(step, 100)}", _ask(fast.apply, state, step), _ask(ref.apply, state, step))
        if found:
            return found
    return None


NEAR_MISSES = 24
"""How many near-miss actions :func:`refusal_difference` tries at one state (evenly spread over them)."""

_UNKNOWN = "?"
"""A text no game names a part, colour or tile by: a near miss with it must be refused cleanly."""


def _field_values(value: Any, texts: Sequence[str]) -> list[Any]:
    """The near values of one field of a legal action: its neighbours for a number, the other texts (and
    one that names nothing) for a text, the other members for an enum, the tuple without its last entry."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, enum.Enum):
        return [m for m in type(value) if m is not value]
    if isinstance(value, int):
        return [value + 1, value - 1]
    if isinstance(value, str):
        return [t for t in texts if t != value] + [_UNKNOWN]
    if isinstance(value, tuple) and value:
        return [value[:-1]]
    return []


def near_misses(listed: Sequence[Any], limit: int = NEAR_MISSES) -> list[Any]:
    """Actions a field away from a legal one and not legal themselves (``listed`` is the legal actions):
    each field of each attrs action changed to a near value (:func:`_field_values`; the texts are those
    the listed actions use), or a plain number's neighbours. In the listing's order, duplicates dropped,
    at most ``limit`` of them spread evenly over the whole list: a function of the listing alone, so the
    same in every process."""
    legal = set(listed)
    texts = sorted(
        {v for a in listed if attrs.has(type(a)) for v in attrs.astuple(a, recurse=False) if isinstance(v, str)}
    )
    out: list[Any] = []
    seen: set[Any] = set()
    for action in listed:
        if attrs.has(type(action)):
            tried = []
            for f in attrs.fields(type(action)):
                for value in _field_values(getattr(action, f.name), texts):
                    try:
                        tried.append(attrs.evolve(action, **{f.alias or f.name: value}))
                    except (TypeError, ValueError):  # the action class refuses the value itself
                        continue
        elif isinstance(action, int) and not isinstance(action, bool):
            tried = [action + 1, action - 1]
        else:
            continue
        for candidate in tried:
            if candidate not in legal and candidate not in seen:
                seen.add(candidate)
                out.append(candidate)
    if len(out) > limit:
        out = [out[i * len(out) // limit] for i in range(limit)]
    return out


def _refusal(game: Game, state: Any, action: Any) -> tuple[str, str, str]:
    """How ``game`` answers an action it does not list, as (kind, what is compared, what is said):
    ("refused", rule ID, ...), ("accepted", successor, ...) or ("raised", exception type, message)."""
    try:
        after = game.apply(state, action)
    except IllegalAction as exc:
        return "refused", exc.rule_id, exc.rule_id
    except Exception as exc:  # another error: compared by its type (a game of another package may raise its own)
        return "raised", type(exc).__name__, f"{type(exc).__name__}: {exc}"
    return "accepted", repr(after), _short(after, 100)


def refusal_difference(fast: Game, ref: Game, state: Any, listed: Sequence[Any]) -> str | None:
    """The first near miss (:func:`near_misses` of ``listed``, the legal actions at ``state``) that the two
    engines answer differently, or that either accepts: an action no engine lists must be refused, by an
    :class:`IllegalAction` naming the same rule in both (unless the reference declares in
    ``REFUSAL_RULES_DIFFER`` why its refusals name rules in another order: then both must refuse), or by
    an error of the same type in both where the game raises errors of its own."""
    same_rule = not getattr(ref, "REFUSAL_RULES_DIFFER", "")
    for action in near_misses(listed):
        got_f, got_r = _refusal(fast, state, action), _refusal(ref, state, action)
        if got_f[0] != "accepted" and (got_f[:2] == got_r[:2] or (got_f[0] == got_r[0] == "refused" and not same_rule)):
            continue
        said = {"refused": "refuses it by ", "accepted": "accepts it, giving ", "raised": "raises "}
        return (
            f"the unlisted action {_short(action, 100)}: fast {said[got_f[0]]}{got_f[2]}, "
            f"reference {said[got_r[0]]}{got_r[2]}"
        )
    return None


def initial_difference(fast: Game, ref: Game) -> str | None:
    """How the two engines' initial states differ (None: the same state)."""
    return _same("initial state", _ask(fast.initial_state), _ask(ref.initial_state))


_STARTS_CHECKED: weakref.WeakSet[Any] = weakref.WeakSet()
"""The games whose initial state :func:`refines` has compared with its reference's (once per game)."""


def _refinement_reads(game: Game, state: Any) -> dict[str, Any]:
    mover = game.to_move(state)
    shown = "chance" if mover is CHANCE else ("none" if mover is None else mover)
    listed = game.chance_outcomes(state) if mover is CHANCE else game.legal_actions(state)
    return {"to move": shown, "choices": len(listed)}


@observes(_refinement_reads)
def refines(game: Game, state: Any) -> str | None:
    """REFINEMENT: the fast engine agrees with the reference engine at ``state``: the same mover, terminal
    test, legal actions in order, chance outcomes with their probabilities, successor of every action and
    outcome, and on a terminal state the same scores and winners (:func:`difference`); and, the first time
    a game is asked, the same initial state (:func:`initial_difference`)."""
    ref = reference_of(game)
    if game not in _STARTS_CHECKED:
        found = initial_difference(game, ref)
        if found is not None:
            return f"the fast engine and the reference disagree: {found}"
        _STARTS_CHECKED.add(game)
    found = difference(game, ref, state)
    return None if found is None else f"the fast engine and the reference disagree: {found}"


@attrs.frozen
class WalkReport:
    """What :func:`compare_walks` checked: ``states`` compared over ``games`` playouts (``finished`` of them
    ended by the rules), and the first difference with the actions that led to it (None: they agree)."""

    games: int
    states: int
    finished: int
    difference: str | None = None
    seed: int | None = None
    trace: tuple[Any, ...] = ()

    def __bool__(self) -> bool:
        return self.difference is None


def _choose(game: Game, state: Any, rng: random.Random, agents: Sequence[Any] | None) -> Any:
    mover = game.to_move(state)
    if mover is CHANCE:
        return sample_chance(game, state, rng)
    if agents is not None:
        return agents[mover].choose(game, state, rng)  # type: ignore[index]
    return rng.choice(game.legal_actions(state))


def walk_states(
    game: Game, seed: int, max_steps: int, agents: Sequence[Any] | None = None
) -> Iterator[tuple[Any, tuple[Any, ...]]]:
    """Every state of one seeded playout of ``game`` (the fast engine chooses; chance drawn from the same
    rng), with the actions that led to it, up to ``max_steps`` steps and the runner's round cap."""
    rng = random.Random(seed)
    cap = round_cap(game)
    state = game.initial_state()
    trace: list[Any] = []
    for _ in range(max_steps + 1):
        yield state, tuple(trace)
        if game.is_terminal(state) or past_cap(game, state, cap):
            return
        step = _choose(game, state, rng, agents)
        trace.append(step)
        state = game.apply(state, step)


def compare_walks(
    fast: Game,
    ref: Game,
    seeds: Sequence[int],
    max_steps: int = 5000,
    agents: Callable[[int], Sequence[Any] | None] | None = None,
    successors: bool = True,
) -> WalkReport:
    """Walk a playout from each seed on ``fast`` and compare the engines at every state (:func:`difference`);
    ``agents(seed)`` may give the seats' agents for that game (None: uniform random). Stops at the first
    difference and reports it with its seed and trace; the initial states are compared first (a difference
    there has no seed)."""
    states = finished = played = 0
    found = initial_difference(fast, ref)
    if found is not None:
        return WalkReport(0, 0, 0, found)
    for seed in seeds:
        played += 1
        last = None
        for state, trace in walk_states(fast, seed, max_steps, None if agents is None else agents(seed)):
            states += 1
            found = difference(fast, ref, state, successors)
            if found is not None:
                return WalkReport(played, states, finished, found, seed, trace)
            last = state
        if last is not None and fast.is_terminal(last):
            finished += 1
    return WalkReport(played, states, finished)


__all__ = [
    "WalkReport",
    "compare_walks",
    "difference",
    "fields_apart",
    "initial_difference",
    "near_misses",
    "reference_of",
    "refines",
    "refusal_difference",
    "walk_states",
]
