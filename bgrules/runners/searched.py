"""The ``searched`` checker: hypothesis chooses the actions (through its public API, steered by the
spec's ``target`` with ``hypothesis.target``), a failure shrunk to a short trace and kept in the example
database (:data:`DATABASE`) so that it is replayed first next time."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Any

import attrs

from bgrules.core.codec import action_to_data
from bgrules.core.errors import InputError
from bgrules.core.playout import past_cap, round_cap
from bgrules.core.protocol import CHANCE, Game
from bgrules.runners.report import Report
from bgrules.runners.sampled import _first_failure, _violated, shrink_trace
from bgrules.runners.specfile import Budget, Crash, Spec, _check_step, guarded, resolve_predicate
from bgrules.runners.trace import parse_actions

DATABASE = ".bgrules/hypothesis"
"""The searched checker's example database in a ``bgrules verify`` run, relative to the working directory
(``--no-database``: none). It only ever adds replays of counterexamples found before: a spec that holds
gets the same verdict and guarantee whatever the database holds."""


def check_searched(spec: Spec, game: Game, budget: Budget) -> Report:
    """Hypothesis chooses the actions (derandomized, so reports repeat), steered by the spec's
    ``target``; a failing trace is then shrunk by :func:`shrink_trace` within a fixed number of replays."""
    (report,) = check_searched_together([spec], game, budget)
    return report


def _choose(data: Any, n: int) -> int:
    """An index below ``n``, drawn as booleans, most significant first. Hypothesis's integer draws
    sometimes take a constant of the "local" modules the process has imported, so they would differ
    between processes with other import histories (a forked worker and a fresh one, an editable install
    and a wheel); its booleans never do, and shrink toward index 0 (the first legal action) all the same."""
    from hypothesis import strategies as st

    if n <= 1:
        return 0
    value = 0
    for _ in range((n - 1).bit_length()):
        value = 2 * value + int(data.draw(st.booleans()))
    return value - n if value >= n else value


def _database(budget: Budget) -> Any:
    if budget.database is None:
        return None
    from hypothesis.database import DirectoryBasedExampleDatabase

    return DirectoryBasedExampleDatabase(budget.database)


def _database_key(spec: Spec, game: Game) -> bytes:
    import json

    options = json.dumps(sorted(spec.options.items()), default=str)
    return f"bgrules-searched\0{spec.id}\0{spec.game}\0{game.players}\0{spec.variant}\0{options}".encode()


def _replayed(db: Any, spec: Spec, pred: Callable[..., str | None], game: Game) -> list[Any] | None:
    """The first counterexample saved for ``spec`` (in the order of their bytes) that still fails when
    replayed: its actions up to the failure; saved ones that no longer fail are deleted."""
    import json

    key = _database_key(spec, game)
    for value in sorted(db.fetch(key)):
        try:
            actions = parse_actions(game, json.loads(value.decode("utf-8")), "database")
        except Exception:  # another format, another version of the game's actions
            db.delete(key, value)
            continue
        first = _first_failure(spec, pred, game, actions)
        if first is not None:
            return actions[: first[0]]
        db.delete(key, value)
    return None


def _save(db: Any, spec: Spec, game: Game, actions: list[Any]) -> None:
    import json

    db.save(_database_key(spec, game), json.dumps([action_to_data(a) for a in actions], sort_keys=True).encode())


def check_searched_together(specs: list[Spec], game: Game, budget: Budget) -> list[Report]:
    """:func:`check_searched` of several specs of one game (and one ``target``) on the same hypothesis
    examples, every spec's predicate checked at each step. The examples hypothesis draws depend on the
    legal actions and the target alone (never on a predicate), so each spec meets the examples it would
    meet alone, up to its first failure, and reports what it would report alone; a spec that failed is no
    longer checked. Public hypothesis only: ``@given`` with its own derandomized ``settings``, the
    actions drawn as booleans (:func:`_choose`), ``hypothesis.target`` on the highest value of the
    target over each example's states. A counterexample saved in the example database
    (``budget.database``) is replayed first. Each report's ``seconds`` is the search's time shared
    evenly, plus its own shrinking."""
    from hypothesis import HealthCheck, Phase, given, settings, target
    from hypothesis import strategies as st

    preds = [guarded(resolve_predicate(spec.predicate, spec.source)) for spec in specs]
    aims = sorted({spec.target for spec in specs if spec.target is not None})
    goals: list[tuple[str, Callable[..., Any]]] = [
        (name, resolve_predicate(name, f"{specs[0].source} target")) for name in aims
    ]
    start = time.perf_counter()
    found: dict[int, list[Any]] = {}
    replayed: set[int] = set()
    db = _database(budget)
    if db is not None:
        for k, spec in enumerate(specs):
            if spec.kind in ("state", "transition"):
                again = _replayed(db, spec, preds[k], game)
                if again is not None:
                    found[k] = again
                    replayed.add(k)
    cap = round_cap(game, budget.max_rounds)
    steps_per = budget.search_steps or budget.max_steps
    examples = 0
    walked = 0
    highest: dict[str, float] = {}

    @settings(
        max_examples=budget.examples,
        database=None,
        deadline=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
        print_blob=False,
        phases=(Phase.generate, Phase.target) if goals else (Phase.generate,),
    )
    @given(st.data())
    def search(data: Any) -> None:
        nonlocal examples, walked
        examples += 1
        live = [k for k in range(len(specs)) if k not in found]
        state = game.initial_state()
        actions: list[Any] = []
        best = [float(fn(game, state)) for _name, fn in goals]
        for k in live:
            if specs[k].kind == "state" and preds[k](game, state):
                found[k] = []
        live = [k for k in live if k not in found]
        failed_here = False
        if len(found) == len(specs):
            raise _AllFound
        # The draws must not depend on which specs failed before (hypothesis notices a prefix it has seen
        # drawing less): an example goes on while any spec is live, and the search ends at once (not as a
        # failing example, which hypothesis would replay) when every spec has its counterexample.
        try:
            for _ in range(steps_per):
                if game.is_terminal(state) or past_cap(game, state, cap):
                    break
                if game.to_move(state) is CHANCE:
                    choices = [a for a, _p in game.chance_outcomes(state)]
                else:
                    choices = list(game.legal_actions(state))
                action = choices[_choose(data, len(choices))]
                try:
                    after = game.apply(state, action)
                except Exception:
                    if failed_here:  # past a counterexample the state may be one the rules cannot go on from
                        return
                    raise
                actions.append(action)
                walked += 1
                failed = [k for k in live if _check_step(specs[k].kind, preds[k], game, state, action, after)]
                for k in failed:
                    found[k] = list(actions)
                if failed:
                    failed_here = True
                    live = [k for k in live if k not in found]
                    if len(found) == len(specs):
                        raise _AllFound
                state = after
                for i, (_name, fn) in enumerate(goals):
                    best[i] = max(best[i], float(fn(game, state)))
        finally:
            for (name, _fn), value in zip(goals, best, strict=True):
                highest[name] = max(highest.get(name, value), value)
        for (name, _fn), value in zip(goals, best, strict=True):
            target(value, label=name)

    if len(found) < len(specs):
        with contextlib.suppress(_AllFound):
            search()
    share = (time.perf_counter() - start) / max(1, len(specs))
    out: list[Report] = []
    for k, spec in enumerate(specs):
        if k in found:
            began = time.perf_counter()
            actions, message = shrink_trace(spec, preds[k], game, found[k])
            if db is not None and not isinstance(message, Crash):
                _save(db, spec, game, actions)
            report = _violated(
                spec,
                "searched",
                share + time.perf_counter() - began,
                f"shrunk to {len(actions)} step(s): {message}",
                actions,
                game,
                preds[k],
                crashed=isinstance(message, Crash),
            )
            if k in replayed:
                report = attrs.evolve(report, guarantee=report.guarantee + " (replayed from the example database)")
            out.append(report)
            continue
        if not examples:
            raise InputError("budget", "the search ran no example; that is not a check")
        guarantee = f"searched: {examples} hypothesis examples of up to {steps_per} steps" + (
            f" within {cap} rounds" if cap is not None else ""
        )
        guarantee += f"; {walked} steps checked"
        if spec.target is not None:
            guarantee += f"; target {spec.target.rpartition(':')[2]}: highest {_number(highest[spec.target])}"
        out.append(
            Report(spec.id, "spec", spec.statement, spec.rules, "searched", "holds", spec.expected, guarantee, share)
        )
    return out


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.3g}"


class _AllFound(BaseException):
    """Every spec of a search has its counterexample: the search stops. A BaseException, so hypothesis
    lets it through at once instead of treating it as a failing example to replay."""


__all__ = [
    "check_searched",
    "check_searched_together",
]
