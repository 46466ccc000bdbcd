"""The ``explored`` checker: every state reachable within ``depth`` plies from the start (and from
midgame starts), breadth-first (:func:`bgrules.core.explore.explore`), each one checked; a violation
comes with the shortest trace."""

from __future__ import annotations

import time
from typing import Any

from bgrules.core.errors import InputError
from bgrules.core.explore import explore
from bgrules.core.playout import walk
from bgrules.core.protocol import Game
from bgrules.runners.report import Report
from bgrules.runners.sampled import _violated
from bgrules.runners.specfile import Budget, Crash, Spec, guarded, resolve_predicate


def check_explored(spec: Spec, game: Game, budget: Budget) -> Report:
    """Every state reachable within ``budget.depth`` plies checked (:func:`check_explored_together`)."""
    (report,) = check_explored_together([spec], game, budget)
    return report


def midgame_starts(game: Game, count: int, seed: int = 0) -> list[tuple[list[Any], Any]]:
    """``count`` states from the middle of games, each with the actions (chance outcomes included) that
    reach it from the initial state: start ``i`` is the state ``(i + 1) / count`` of the way through the
    uniform random game of seed ``seed + i`` (:func:`bgrules.core.playout.walk`, the runner's bounds), so
    the starts spread from early play to the last state before the game's end (or its truncation). The
    same game and figures give the same starts."""
    out: list[tuple[list[Any], Any]] = []
    for i in range(count):
        steps = list(walk(game, seed + i))
        if not steps:
            continue
        at = max(0, len(steps) * (i + 1) // count - 1)
        out.append(([a for _s, a, _n in steps[:at]], steps[at][0]))
    return out


def check_explored_together(specs: list[Spec], game: Game, budget: Budget) -> list[Report]:
    """The explored checker: :func:`bgrules.core.explore.explore` breadth-first from the initial state to
    ``budget.depth`` plies (at most ``budget.max_states`` distinct states, every state itself: no
    symmetry), then as far from each of ``budget.starts`` mid-game states (:func:`midgame_starts`), each
    spec's predicate checked on every distinct state (a state spec) or on every edge expanded (a
    transition spec: every action and chance outcome of every state expanded). The first violation found
    from a start is at the least depth from it, and its trace the actions to the start, then the
    explorer's shortest path from there, then the step; it is not shrunk further. The guarantee names the
    depth, the starts, the distinct states and whether each exploration was complete (nothing left
    unexplored)."""

    for spec in specs:
        if spec.kind not in ("state", "transition"):
            raise InputError(spec.source, "the explored checker takes state and transition specs")
    preds = [guarded(resolve_predicate(spec.predicate, spec.source)) for spec in specs]
    start = time.perf_counter()
    failed: dict[int, tuple[list[Any], int, Any, str]] = {}
    """spec -> (the actions of its trace, how many reach its start, the step's state or None at a start,
    the message)."""
    live = list(range(len(specs)))
    edges = distinct = 0
    stopped: list[str] = []
    starts = [([], game.initial_state()), *midgame_starts(game, budget.starts, budget.seed)]
    hits: dict[int, tuple[Any, Any, str]] = {}
    """spec -> (the state the failing step came from, the step, the message), from the current start."""

    def visit(state: Any, step: Any, child: Any, new: bool) -> bool:
        nonlocal live, edges
        edges += 1
        hit = False
        for k in live:
            if specs[k].kind == "state":
                if not new:
                    continue
                msg = preds[k](game, child)
            else:
                msg = preds[k](game, state, step, child)
            if msg:
                hits[k] = (state, step, msg)
                hit = True
        if hit:
            live = [k for k in live if k not in hits]
        return not live

    for prefix, state0 in starts:
        if not live:
            break
        for k in live:
            if specs[k].kind == "state":
                msg = preds[k](game, state0)
                if msg:
                    failed[k] = (list(prefix), len(prefix), None, msg)
        live = [k for k in live if k not in failed]
        hits.clear()
        found = explore(
            game,
            depth=budget.depth,
            symmetry=False,
            max_states=budget.max_states,
            start=state0,
            visit=visit if live else None,
        )
        distinct += found.distinct
        if not found.complete:
            stopped.append(found.stopped or "budget")
        for k, (state, step, msg) in hits.items():
            path = found.path_to(state)
            assert path is not None  # every state expanded was reached
            failed[k] = ([*prefix, *path, step], len(prefix), state, msg)
    share = (time.perf_counter() - start) / max(1, len(specs))
    how = "complete" if not stopped else f"incomplete (stopped by {', '.join(sorted(set(stopped)))})"
    where = "the initial state"
    if len(starts) > 1:
        seeds = f"seed {budget.seed}" if len(starts) == 2 else f"seeds {budget.seed}-{budget.seed + len(starts) - 2}"
        where += f" and of {len(starts) - 1} mid-game state(s) (random games, {seeds})"
    out: list[Report] = []
    for k, spec in enumerate(specs):
        if k in failed:
            actions, before, at, msg = failed[k]
            if at is None:
                detail = f"mid-game start after {before} actions: {msg}" if before else f"initial state: {msg}"
            elif before:
                detail = f"depth {len(actions) - before} from the mid-game start after {before} actions: {msg}"
            else:
                detail = f"depth {len(actions)} (a shortest trace): {msg}"
            out.append(
                _violated(spec, "explored", share, detail, actions, game, preds[k], crashed=isinstance(msg, Crash))
            )
            continue
        what = "states" if spec.kind == "state" else f"states, {edges} edges"
        guarantee = (
            f"explored: every state within {budget.depth} plies of {where} ({distinct} distinct "
            f"{what}; max_states {budget.max_states}), {how}"
        )
        out.append(
            Report(spec.id, "spec", spec.statement, spec.rules, "explored", "holds", spec.expected, guarantee, share)
        )
    return out


__all__ = [
    "check_explored",
    "check_explored_together",
]
