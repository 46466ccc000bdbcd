"""A campaign's shards: the games of one shard of seeds played and folded into accumulators (counts,
sums, extremes, histograms), the same function for every runner (:func:`run_shard`: local jobs and Ray
tasks)."""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from bgrules.agents import parse_agents
from bgrules.core.defaults import default_dir
from bgrules.core.errors import BgrulesError, InputError
from bgrules.core.playout import end_trigger, playout, round_cap, walk
from bgrules.core.registry import load_game
from bgrules.runners import coverage
from bgrules.runners.balance import TRUNCATED, record_of, resolve_agents
from bgrules.runners.campaign import ALL_GAMES, FIRST_VIOLATIONS, Campaign, _version
from bgrules.runners.specfile import Crash, default_invariants, one_line

# --- the shards --------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=8)
def _loaded(key: str) -> tuple[Any, Any, list[tuple[str, str, Callable[..., str | None]]]]:
    """The game, agents and invariants of a campaign (by its JSON), loaded once per process."""

    c = Campaign.from_json(json.loads(key))
    game = load_game(c.game, players=c.players, variant=c.variant, **dict(c.options))
    agents: Any = None
    preds: list[tuple[str, str, Callable[..., str | None]]] = []
    if c.command == "simulate":
        agents = parse_agents(c.agents, game.players)
        if c.setting("check", True):
            specs = c.setting("specs")
            preds = default_invariants(c.game, game.players, Path(specs) if specs else default_dir("specs"))
    elif c.command == "balance":
        agents = resolve_agents(c.agents, game.players)[0]
    return game, agents, preds


def _key(c: Campaign) -> str:
    return json.dumps(c.as_json(), sort_keys=True)


def _hist(values: Iterable[int]) -> list[list[int]]:
    """A histogram as sorted [value, count] pairs (JSON has no integer keys)."""
    return [[v, n] for v, n in sorted(Counter(values).items())]


def _int(x: Any, what: str) -> int:
    if isinstance(x, bool) or int(x) != x:
        raise BgrulesError(f"{what} {x!r} is not a whole number: a campaign merges exact integer sums")
    return int(x)


def _simulate_shard(c: Campaign, seeds: range) -> dict[str, Any]:
    """``bgrules simulate``'s loop over ``seeds``, its accumulators only."""

    game, agents, preds = _loaded(_key(c))
    return simulate_games(game, agents, round_cap(game, c.setting("max_rounds")), preds, seeds)


def simulate_games(
    game: Any,
    agents: Any,
    cap: int | None,
    preds: Sequence[tuple[str, str, Callable[..., str | None]]],
    seeds: Iterable[int],
    on_game: Callable[[], None] | None = None,
) -> dict[str, Any]:
    """Play the games of ``seeds`` (the runner's round ``cap``), checking ``preds`` (:func:`checked_game`),
    and return simulate's accumulators: the serial command and every campaign shard play with it;
    ``on_game`` is called after each game (a progress bar)."""

    step_preds = [p for p in preds if p[1] != "game"]
    game_preds = [p for p in preds if p[1] == "game"]
    p = game.players
    acc: dict[str, Any] = {
        "games": 0,
        "steps": 0,
        "length_min": None,
        "length_max": None,
        "score_sum": [0] * p,
        "score_min": [None] * p,
        "score_max": [None] * p,
        "wins": [0] * p,
        "ended_by": {},
        "truncated": 0,
        "violations": 0,
        "first_violations": [],
    }
    violations: list[dict[str, Any]] = acc["first_violations"]

    def violated(spec_id: str, seed: int, step: int, msg: str) -> None:
        acc["violations"] += 1
        if len(violations) < FIRST_VIOLATIONS:
            violations.append({"id": spec_id, "seed": seed, "step": step, "detail": msg})

    for s in seeds:
        steps, state = checked_game(game, s, cap, agents, step_preds, game_preds, violated)
        if not game.is_terminal(state):
            acc["truncated"] += 1
        trigger = end_trigger(game, state) or "truncated"
        acc["ended_by"][trigger] = acc["ended_by"].get(trigger, 0) + 1
        acc["games"] += 1
        acc["steps"] += steps
        acc["length_min"] = steps if acc["length_min"] is None else min(acc["length_min"], steps)
        acc["length_max"] = steps if acc["length_max"] is None else max(acc["length_max"], steps)
        for i, score in enumerate(game.scores(state)):
            v = _int(score, "a score")
            acc["score_sum"][i] += v
            acc["score_min"][i] = v if acc["score_min"][i] is None else min(acc["score_min"][i], v)
            acc["score_max"][i] = v if acc["score_max"][i] is None else max(acc["score_max"][i], v)
        if game.is_terminal(state):  # a truncated game is no one's win (as balance counts it)
            for w in game.winners(state):
                acc["wins"][w] += 1
        if on_game is not None:
            on_game()
    return acc


def _balance_shard(c: Campaign, seeds: range) -> dict[str, Any]:
    """``bgrules balance``'s games over ``seeds`` (:func:`bgrules.runners.balance.record_of` of each playout),
    as counts and histograms of the finished games' scores, lengths and rounds."""

    game, agents, _preds = _loaded(_key(c))
    cap = round_cap(game, c.setting("max_rounds"))
    p = game.players
    ended_by: Counter[str] = Counter()
    scores: list[Counter[int]] = [Counter() for _ in range(p)]
    lengths: Counter[int] = Counter()
    rounds: Counter[int] = Counter()
    wins, shared_wins = [0] * p, [0] * p
    truncated = shared = 0
    for s in seeds:
        rec = record_of(game, playout(game, s, max_rounds=cap, agents=agents))
        if rec.truncated:
            truncated += 1
            ended_by[TRUNCATED] += 1
            continue
        ended_by[str(rec.ended_by)] += 1
        if len(rec.winners) > 1:
            shared += 1
        for w in rec.winners:
            wins[w] += 1
            if len(rec.winners) > 1:
                shared_wins[w] += 1
        for i, v in enumerate(rec.scores):
            scores[i][v] += 1
        lengths[rec.length] += 1
        if rec.rounds is not None:
            rounds[rec.rounds] += 1
    return {
        "games": len(seeds),
        "truncated": truncated,
        "shared_games": shared,
        "ended_by": dict(sorted(ended_by.items())),
        "wins": wins,
        "shared_wins": shared_wins,
        "scores": [_hist(h.elements()) for h in scores],
        "length": _hist(lengths.elements()),
        "rounds": _hist(rounds.elements()),
    }


def _coverage_shard(c: Campaign, shard: int) -> dict[str, Any]:
    """The sampled games of ``bgrules coverage`` for one (game, player count, seeds) shard: the rule
    effects and refusals they counted and the states they visited (:func:`bgrules.runners.coverage.sample`'s
    loop, counted apart from any open recording and sent back as data)."""

    name, players, seeds = coverage_shard_of(c, shard)
    game = load_game(name, players=players)
    seats = coverage._agents(c.agents, players)
    with coverage.probe() as counts:
        for s in seeds:
            last = game.initial_state()
            counts.visit()
            for _before, _action, after in walk(game, s, max_rounds=c.setting("max_rounds"), agents=seats):
                counts.visit()
                last = after
            if game.is_terminal(last):
                game.scores(last)
                game.winners(last)
    return {
        "effects": dict(sorted(counts.effects.items())),
        "refusals": dict(sorted(counts.refusals.items())),
        "states": counts.states,
    }


def coverage_samples(c: Campaign) -> list[tuple[str, int]]:
    """The (game name, player count) pairs a coverage campaign samples, in ``run_coverage``'s order: each
    game of the rules document (Mechanica: the game and the factory sandbox), each of its player counts
    (or ``--players`` for the game itself, as :func:`bgrules.runners.coverage.sample` is called)."""

    played = coverage.choice(None if c.game == ALL_GAMES else c.game)[1]
    out = []
    for name in played:
        first = load_game(name)
        asked = c.players if (c.players and (name in coverage.GAMES or name == c.game)) else None
        for n in coverage._seat_counts(first, c.agents, asked):
            out.append((name, n))
    return out


def coverage_shard_of(c: Campaign, shard: int) -> tuple[str, int, range]:
    """A coverage campaign's shard ``shard``: each sampled (game, player count) has ``c.shards`` shards of
    seeds; shard ``i`` is sample ``i // c.shards``, seeds shard ``i % c.shards``."""
    samples = coverage_samples(c)
    total = len(samples) * c.shards
    if not 0 <= shard < total:
        raise InputError("shard", f"{shard} is not a shard of this campaign (0 to {total - 1})")
    name, n = samples[shard // c.shards]
    return name, n, c.seeds(shard % c.shards)


def shard_count(c: Campaign) -> int:
    """How many shards the campaign runs (coverage: one set of seed shards per sampled game and count)."""
    return len(coverage_samples(c)) * c.shards if c.command == "coverage" else c.shards


def checked_game(
    game: Any,
    seed: int,
    cap: int | None,
    agents: Any,
    step_preds: Sequence[tuple[str, str, Any]],
    game_preds: Sequence[tuple[str, str, Any]],
    violated: Callable[[str, int, int, str], None],
) -> tuple[int, Any]:
    """Play the game of ``seed`` (the runner's round ``cap``, ``agents``), checking every state and
    transition predicate at every step and every whole-game predicate at the end; each violation goes to
    ``violated(spec_id, seed, step, message)``. Returns (steps, final state). simulate's serial run and
    the campaigns' shards play their games with it."""

    steps = 0
    state = game.initial_state()
    for before, action, after in walk(game, seed, max_rounds=cap, agents=agents):
        steps += 1
        for spec_id, kind, pred in step_preds:
            try:  # costs nothing until a predicate raises; then its exception is that spec's violation
                msg = pred(game, after) if kind == "state" else pred(game, before, action, after)
            except Exception as exc:
                msg = Crash(f"the predicate raised {one_line(exc)}")
            if msg:
                violated(spec_id, seed, steps, msg)
        state = after
    for spec_id, _kind, pred in game_preds:
        try:
            msg = pred(game, state, steps)
        except Exception as exc:
            msg = Crash(f"the predicate raised {one_line(exc)}")
        if msg:
            violated(spec_id, seed, steps, msg)
    return steps, state


def run_shard(campaign: dict[str, Any], shard: int) -> dict[str, Any]:
    """Play shard ``shard`` of ``campaign`` (:meth:`Campaign.as_json`) and return its accumulators (JSON
    data). The one shard function of every engine: the local runner's tasks and Ray's tasks call it."""
    c = Campaign.from_json(campaign)
    if c.version != _version():
        raise BgrulesError(f"this worker runs bgrules {_version()}, the campaign is of bgrules {c.version}")
    if c.command == "simulate":
        return _simulate_shard(c, c.seeds(shard))
    if c.command == "balance":
        return _balance_shard(c, c.seeds(shard))
    return _coverage_shard(c, shard)


__all__ = [
    "coverage_samples",
    "run_shard",
    "shard_count",
]
