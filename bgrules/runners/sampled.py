"""The ``sampled`` checker: seeded legal games (random, and a few with the greedy agent: the mix),
every state or transition checked; a failure is cut to the shortest prefix that still fails and shrunk
(:func:`shrink_trace`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from bgrules.agents import parse_agents
from bgrules.core import coverage
from bgrules.core.errors import IllegalAction, InputError
from bgrules.core.playout import end_trigger, round_cap, walk
from bgrules.core.protocol import Game
from bgrules.runners import trace as traces
from bgrules.runners.report import Report
from bgrules.runners.specfile import (
    AGENT_MIX_DEFAULT,
    MIX_LABELS,
    Budget,
    Crash,
    Spec,
    _check_step,
    guarded,
    one_line,
    resolve_predicate,
)

AGENT_MIX = AGENT_MIX_DEFAULT
"""The default mix of a sampled spec's games (``Budget.mix``): all the games but the agents' are random,
then 2 games with greedy in every seat, then 2 with one greedy seat (rotating) against random seats (a
count of 1 for ``random`` means "the rest"). The agents' games are few because greedy is 30-60x slower
per step than random play (docs/agents.md); each is played once per game and variant and replayed for
the other specs of that game (:func:`_agent_game`), so the mix costs little more than random games alone."""

_AGENT_GAMES: dict[tuple[Any, ...], tuple[tuple[tuple[Any, Any, Any], ...], coverage.Counts]] = {}
_AGENT_GAMES_LIMIT = 64


def _mix(budget: Budget, players: int) -> list[tuple[str, str | None, int]]:
    """The sampled games: (label, agents spec or None for random, seed), ``budget.games`` in all."""
    mix = budget.mix
    bad = [label for label, _n in mix if label not in MIX_LABELS]
    if bad:
        raise InputError("mix", f"unknown sampled games {', '.join(bad)}; valid: {', '.join(MIX_LABELS)}")
    agents_games = [(label, n) for label, n in mix if label != "random"]
    want = sum(n for _l, n in agents_games)
    if want > budget.games // 2:  # a small budget: at most half the games by agents, one of each first
        per = max(0, budget.games // 2) // max(1, len(agents_games))
        agents_games = [(label, min(n, per)) for label, n in agents_games]
        want = sum(n for _l, n in agents_games)
    out: list[tuple[str, str | None, int]] = []
    seed = budget.seed
    for _ in range(budget.games - want):
        out.append(("random", None, seed))
        seed += 1
    for label, n in agents_games:
        for k in range(n):
            if label == "greedy-vs-random":
                spec = ",".join("greedy" if i == k % players else "random" for i in range(players))
            else:
                spec = label
            out.append((label, spec, seed))
            seed += 1
    return out


def _agent_game(spec: Spec, game: Game, agents: str, seed: int, budget: Budget) -> tuple[tuple[Any, Any, Any], ...]:
    """The transitions of the seeded game played by ``agents`` (memoised per game, variant, options,
    seed and budget: every spec of a game checks the same agents' games)."""

    options = repr(sorted(spec.options.items()))
    key = (spec.game, spec.players, spec.variant, options, agents, seed, budget.max_steps, budget.max_rounds)
    got = _AGENT_GAMES.get(key)
    if got is None:
        with coverage.probe() as counted:
            steps = tuple(walk(game, seed, budget.max_steps, budget.max_rounds, parse_agents(agents, game.players)))
        got = (steps, counted)
        if len(_AGENT_GAMES) >= _AGENT_GAMES_LIMIT:
            _AGENT_GAMES.pop(next(iter(_AGENT_GAMES)))
        _AGENT_GAMES[key] = got
    here = coverage.active()
    if here is not None:  # the rules the game applied count each time it is checked, memoised or not
        here.effects.update(got[1].effects)
        here.refusals.update(got[1].refusals)
    return got[0]


def check_sampled(spec: Spec, game: Game, budget: Budget) -> Report:
    """Check every state (or transition, or whole game) of the sampled games of :func:`_mix`; the
    guarantee names the agents, the seeds, the states and how each game ended."""
    (report,) = check_sampled_together([spec], game, budget)
    return report


def check_sampled_together(specs: list[Spec], game: Game, budget: Budget) -> list[Report]:
    """:func:`check_sampled` of several specs of one game on the same sampled games, each game played
    once and every spec's predicate checked at each of its steps: what each spec reports is what it
    would report alone (its own verdict, guarantee and counterexample), but a group of n specs walks
    the games once instead of n times. Each report's ``seconds`` is the group's time shared evenly."""
    raw = [resolve_predicate(spec.predicate, spec.source) for spec in specs]
    preds = [guarded(p) for p in raw]
    start = time.perf_counter()
    states = 0
    truncated = 0
    plan = _mix(budget, game.players)
    ended: dict[str, int] = {}
    played: dict[str, list[int]] = {}
    failed: dict[int, tuple[str, list[Any]]] = {}
    crashes: set[int] = set()
    """The specs whose predicate raised: reported ``unknown``, not ``violated``."""
    live = list(range(len(specs)))
    initial = game.initial_state()
    for k in live:
        if specs[k].kind == "state":
            msg = preds[k](game, initial)
            if msg:
                failed[k] = (f"seed {plan[0][2] if plan else budget.seed}, initial state: {msg}", [])
                if isinstance(msg, Crash):
                    crashes.add(k)
    live = [k for k in live if k not in failed]
    for label, agents, seed in plan:
        if not live:
            break
        played.setdefault(label, []).append(seed)
        actions: list[Any] = []
        final = None
        steps = (
            walk(game, seed, budget.max_steps, budget.max_rounds)
            if agents is None
            else _agent_game(specs[0], game, agents, seed, budget)
        )
        stepwise = [k for k in live if specs[k].kind != "game"]
        # (index, is a state predicate, predicate) looked up once per game: the loop is verify's hot path
        # (the raw predicates, inside a try that costs nothing until one raises)
        checks = [(k, specs[k].kind == "state", raw[k]) for k in stepwise]
        for before, action, after in steps:
            actions.append(action)
            states += 1
            final = after
            hit = False
            for k, on_state, pred in checks:
                try:
                    msg = pred(game, after) if on_state else pred(game, before, action, after)
                except Exception as exc:
                    msg = Crash(f"the predicate raised {one_line(exc)}")
                if msg:
                    who = "" if agents is None else f" ({agents})"
                    failed[k] = (f"seed {seed}{who}, step {len(actions)}: {msg}", list(actions))
                    if isinstance(msg, Crash):
                        crashes.add(k)
                    hit = True
            if hit:
                checks = [c for c in checks if c[0] not in failed]
                live = [k for k in live if k not in failed]
                if not live:
                    break
        last = final if final is not None else initial
        if not game.is_terminal(last):
            truncated += 1
        else:  # a finished game has its winners among the seats (the seed's tie-breaks: BF-TIE, MC-END-TIE)
            won = game.winners(last)
            if not won or not set(won) <= set(range(game.players)):
                for k in live:
                    failed[k] = (f"seed {seed}: finished, winners {won!r}", list(actions))
                live = []
                break
        trigger = end_trigger(game, last) or "truncated"
        ended[trigger] = ended.get(trigger, 0) + 1
        for k in [k for k in live if specs[k].kind == "game"]:
            msg = preds[k](game, last, len(actions))
            if msg:
                failed[k] = (f"seed {seed}, after {len(actions)} steps: {msg}", list(actions))
                if isinstance(msg, Crash):
                    crashes.add(k)
        live = [k for k in live if k not in failed]
    share = (time.perf_counter() - start) / max(1, len(specs))
    out: list[Report] = []
    for k, spec in enumerate(specs):
        if k in failed:
            detail, trace = failed[k]
            if trace and spec.kind in ("state", "transition"):  # a short counterexample replays the same
                shorter, _message = shrink_trace(spec, preds[k], game, trace, max_replays=200)
                if len(shorter) < len(trace):
                    detail += f" (shrunk to {len(shorter)} step(s))"
                    trace = shorter
            out.append(_violated(spec, "sampled", share, detail, trace, game, preds[k], crashed=k in crashes))
            continue
        out.append(
            Report(
                spec.id,
                "spec",
                spec.statement,
                spec.rules,
                "sampled",
                "holds",
                spec.expected,
                _sampled_guarantee(game, budget, played, states, ended, truncated),
                share,
            )
        )
    return out


def _sampled_guarantee(
    game: Game, budget: Budget, played: dict[str, list[int]], states: int, ended: dict[str, int], truncated: int
) -> str:
    if not states:
        raise InputError("budget", "the sampled games visited no state; that is not a check")
    parts = [f"{len(seeds)} {label} ({_span(seeds)})" for label, seeds in played.items()]
    games = sum(len(seeds) for seeds in played.values())
    if list(played) == ["random"]:  # random games only: the wording of 0.4.0
        first = played["random"][0]
        guarantee = f"sampled: {games} random games (seeds {first}-{first + games - 1}), {states} states"
    else:
        guarantee = f"sampled: {games} games: {', '.join(parts)}; {states} states"
    guarantee += "; ended by " + ", ".join(f"{k} {v}" for k, v in sorted(ended.items()))
    if truncated:
        cap = round_cap(game, budget.max_rounds)
        at = f"{budget.max_steps} steps" + (f" or {cap} rounds" if cap is not None else "")
        guarantee += f"; {truncated} game(s) truncated by the runner at {at}"
    return guarantee


def _span(seeds: list[int]) -> str:
    return f"seeds {seeds[0]}-{seeds[-1]}" if len(seeds) > 1 else f"seed {seeds[0]}"


def _violated(
    spec: Spec,
    checker: str,
    seconds: float,
    detail: str,
    actions: list[Any],
    game: Game,
    pred: Callable[..., str | None],
    *,
    crashed: bool = False,
) -> Report:
    """A counterexample: its detail, the actions' reprs (``witness``) and the replayable trace
    (:mod:`bgrules.runners.trace`: every step's rule IDs and the invariant's value after it). ``crashed``: the
    predicate raised instead (``pred`` is :func:`guarded`): the verdict is ``unknown``, the trace the same."""

    steps = traces.explain(game, actions, spec.kind, pred)
    initial = traces.initial_value(game, spec.kind, pred)
    data = traces.make_trace(
        spec.game,
        game,
        actions,
        options=spec.options,
        variant=spec.variant,
        spec=spec.id,
        checker=checker,
        steps=steps,
    )
    if initial:
        data["initial"] = initial
    return Report(
        spec.id,
        "spec",
        spec.statement,
        spec.rules,
        checker,
        "unknown" if crashed else "violated",
        spec.expected,
        f"{checker}: the predicate raised an exception, so no verdict"
        if crashed
        else f"{checker}: counterexample found",
        seconds,
        detail,
        tuple(repr(a) for a in actions),
        data,
    )


def _first_failure(
    spec: Spec, pred: Callable[..., str | None], game: Game, actions: list[Any]
) -> tuple[int, str] | None:
    """Replay ``actions``; the index (1-based step) and message of the first violation, or None if the
    actions are not all legal or nothing fails."""

    state = game.initial_state()
    if spec.kind == "state":
        msg = pred(game, state)
        if msg:
            return 0, msg
    for i, action in enumerate(actions, start=1):
        if game.is_terminal(state):
            return None
        try:
            after = game.apply(state, action)
        except IllegalAction:
            return None
        msg = _check_step(spec.kind, pred, game, state, action, after)
        if msg:
            return i, msg
        state = after
    return None


def shrink_trace(
    spec: Spec, pred: Callable[..., str | None], game: Game, actions: list[Any], max_replays: int = 400
) -> tuple[list[Any], str]:
    """Delta debugging: drop chunks of actions while the rest stays legal and still fails.
    Bounded by ``max_replays`` replays, so a report never waits on an unbounded shrink."""
    first = _first_failure(spec, pred, game, actions)
    if first is None:  # the failure did not come back on replay (a predicate that is not a function of its arguments)
        return actions, "the failure did not repeat when the actions were replayed"
    actions = actions[: first[0]]
    message = first[1]
    replays = 0
    for k in range(len(actions) - 1, 0, -1):  # the longest removable prefix first
        replays += 1
        found = _first_failure(spec, pred, game, actions[k:])
        if found is not None:
            actions, message = actions[k:][: found[0]], found[1]
            break
    chunk = max(1, len(actions) // 2)
    while chunk >= 1 and replays < max_replays:
        i = 0
        changed = False
        while i < len(actions) and replays < max_replays:
            candidate = actions[:i] + actions[i + chunk :]
            replays += 1
            found = _first_failure(spec, pred, game, candidate)
            if found is not None:
                actions, message = candidate[: found[0]], found[1]
                changed = True
            else:
                i += chunk
        if not changed:
            chunk //= 2
    return actions, message


__all__ = [
    "check_sampled",
    "check_sampled_together",
]
