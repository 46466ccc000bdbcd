"""Campaigns: many seeded games split into shards, run anywhere, merged to the serial run's answer.

A :class:`Campaign` is what a ``simulate``, ``balance`` or ``coverage`` run plays: the command, the game,
its players, variant and options, the seeds (``games`` games from ``seed``), the agents and the command's
own settings, with the bgrules version that plays them. Its seeds are split into shards of a fixed size
(``shard_size``): shard ``i`` plays seeds ``seed + i*k`` to ``seed + (i+1)*k - 1`` (the last one fewer), so
the shards do not depend on how many workers run them.

Each shard is one task (:func:`run_shard`, the same function for the local runner,
:func:`bgrules.core.jobs.run_tasks`, and for Ray tasks, :mod:`bgrules.integrations.ray_engine`). A shard
returns accumulators, not game records: counts, sums, minima and maxima, and histograms of the values whose
median and spread a report shows, so the driver holds per shard a few hundred numbers whatever the number
of games. The driver merges the shards IN SHARD ORDER whichever finishes first (a finished shard waits until
the ones before it are merged), and the merged accumulators give the same JSON as the serial command with
the same seeds, apart from timings: every statistic a report shows is exact over integers (sums, counts,
``statistics.fmean``/``stdev``/``median`` of integer samples do not depend on the order of the values).

A campaign can write its results to a file as it goes (JSON lines): a header naming the campaign and the
bgrules version, then one line per finished shard, in the order they finish. :func:`run_campaign` with
``resume=FILE`` reads such a file, refuses one of another campaign or another version (one line naming the
difference; the file is left as it is), and runs only the shards it does not hold; a last line cut short
(the run was killed while writing it) is dropped and its shard played again.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import os
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import attrs

from bgrules.core.errors import BgrulesError, InputError

COMMANDS = ("simulate", "balance", "coverage")
DEFAULT_SHARD_SIZE = 100
"""Games per shard: small enough that a shard's overhead (a task, a results line) is spread over a few
seconds of play, large enough that a million-game campaign is ten thousand tasks, not a million."""
ALL_GAMES = "all"
"""The game of a coverage campaign over both games (``bgrules coverage`` without ``--game``)."""
FORMAT = 1
"""The results file's format (the header's ``bgrules_campaign``)."""
FIRST_VIOLATIONS = 20
"""simulate reports the first 20 invariant violations (in seed order) and counts all of them."""
SHARD_TARGET = "bgrules.core.campaign:run_shard"


def _version() -> str:
    from bgrules import __version__

    return str(__version__)


@attrs.frozen
class Campaign:
    """One campaign. ``options`` is the game options as given (key=value parsed); ``settings`` the command's
    own: simulate ``check``, ``max_rounds``, ``specs``; balance ``max_rounds``; coverage ``max_rounds`` and
    the game list it samples (``samples``: pairs of the game name and its player count)."""

    command: str
    game: str
    players: int
    seed: int
    games: int
    variant: str | None = None
    options: tuple[tuple[str, Any], ...] = ()
    agents: str | None = None
    settings: tuple[tuple[str, Any], ...] = ()
    shard_size: int = DEFAULT_SHARD_SIZE
    version: str = attrs.field(factory=_version)
    variant_sha256: str | None = attrs.field(default=None)

    def __attrs_post_init__(self) -> None:
        if self.command not in COMMANDS:
            raise InputError("campaign", f"command {self.command!r} is not one of {', '.join(COMMANDS)}")
        for name, value in (("--games", self.games), ("shard size", self.shard_size)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InputError(name, f"a whole number of at least 1, not {value!r}")
        if self.variant is not None and self.variant_sha256 is None:
            path = Path(self.variant)
            try:
                digest = hashlib.sha256(path.read_bytes()).hexdigest()
            except OSError as exc:
                raise InputError(f"--variant {self.variant}", exc.strerror or str(exc)) from None
            object.__setattr__(self, "variant_sha256", digest)

    @property
    def shards(self) -> int:
        return -(-self.games // self.shard_size)

    def seeds(self, shard: int) -> range:
        """The seeds of shard ``shard``."""
        if not 0 <= shard < self.shards:
            raise InputError("shard", f"{shard} is not a shard of this campaign (0 to {self.shards - 1})")
        first = self.seed + shard * self.shard_size
        return range(first, min(first + self.shard_size, self.seed + self.games))

    def setting(self, key: str, default: Any = None) -> Any:
        return dict(self.settings).get(key, default)

    def identity(self) -> dict[str, Any]:
        """What the results file's header names (the version apart): every field that changes the games."""
        return {
            "command": self.command,
            "game": self.game,
            "players": self.players,
            "variant": self.variant,
            "variant_sha256": self.variant_sha256,
            "options": {k: v for k, v in self.options},
            "seed": self.seed,
            "games": self.games,
            "agents": self.agents,
            "settings": {k: v for k, v in self.settings},
            "shard_size": self.shard_size,
        }

    def as_json(self) -> dict[str, Any]:
        return {**self.identity(), "version": self.version}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Campaign:
        return cls(
            command=data["command"],
            game=data["game"],
            players=data["players"],
            seed=data["seed"],
            games=data["games"],
            variant=data["variant"],
            options=tuple(sorted(data["options"].items())),
            agents=data["agents"],
            settings=tuple(sorted(data["settings"].items())),
            shard_size=data["shard_size"],
            version=data["version"],
            variant_sha256=data["variant_sha256"],
        )


def make_campaign(
    command: str,
    game: str,
    *,
    players: int | None = None,
    seed: int = 0,
    games: int = 100,
    variant: str | Path | None = None,
    options: dict[str, Any] | None = None,
    agents: str | None = None,
    shard_size: int = DEFAULT_SHARD_SIZE,
    **settings: Any,
) -> Campaign:
    """A campaign with its player count resolved (the game's default when None: ``--players`` omitted and
    ``--players 4`` name the same campaign) and its settings in key order. Bad input (an unknown game, a
    player count or option the game does not have) is refused here, before anything runs."""
    from bgrules.core.registry import load_game

    opts = dict(options or {})
    if command == "coverage":
        from bgrules.core.coverage import choice

        if game != ALL_GAMES:
            choice(game)  # an unknown game is refused here
        n = players if players is not None else 0  # 0: every player count of each game
    else:
        n = load_game(game, players=players, variant=str(variant) if variant else None, **opts).players
    if agents is not None and not agents.strip():
        agents = None
    if command == "simulate":  # the workers (Ray's run elsewhere) read the driver's specs, at an absolute path
        from bgrules.core.defaults import default_dir

        specs = settings.get("specs")
        settings["specs"] = str((Path(specs) if specs else default_dir("specs")).resolve())
    return Campaign(
        command=command,
        game=game,
        players=n,
        seed=seed,
        games=games,
        variant=None if variant is None else str(Path(variant).resolve()),
        options=tuple(sorted(opts.items())),
        agents=agents,
        settings=tuple(sorted(settings.items())),
        shard_size=shard_size,
    )


# --- the shards --------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=8)
def _loaded(key: str) -> tuple[Any, Any, list[tuple[str, str, Callable[..., str | None]]]]:
    """The game, agents and invariants of a campaign (by its JSON), loaded once per process."""
    from bgrules.core.registry import load_game

    c = Campaign.from_json(json.loads(key))
    game = load_game(c.game, players=c.players, variant=c.variant, **dict(c.options))
    agents: Any = None
    preds: list[tuple[str, str, Callable[..., str | None]]] = []
    if c.command == "simulate":
        from bgrules.agents import parse_agents
        from bgrules.core.defaults import default_dir
        from bgrules.core.specs import default_invariants

        agents = parse_agents(c.agents, game.players)
        if c.setting("check", True):
            specs = c.setting("specs")
            preds = default_invariants(c.game, game.players, Path(specs) if specs else default_dir("specs"))
    elif c.command == "balance":
        from bgrules.core.balance import resolve_agents

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
    from bgrules.core.playout import round_cap

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
    from bgrules.core.playout import end_trigger

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
    """``bgrules balance``'s games over ``seeds`` (:func:`bgrules.core.balance.record_of` of each playout),
    as counts and histograms of the finished games' scores, lengths and rounds."""
    from bgrules.core.balance import TRUNCATED, record_of
    from bgrules.core.playout import playout, round_cap

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
    effects and refusals they counted and the states they visited (:func:`bgrules.core.coverage.sample`'s
    loop, counted apart from any open recording and sent back as data)."""
    from bgrules.core import coverage
    from bgrules.core.playout import walk
    from bgrules.core.registry import load_game

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
    (or ``--players`` for the game itself, as :func:`bgrules.core.coverage.sample` is called)."""
    from bgrules.core import coverage
    from bgrules.core.registry import load_game

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
    from bgrules.core.playout import walk
    from bgrules.core.specs import Crash, one_line

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


# --- the merge ---------------------------------------------------------------------------------------


def _add_hist(into: Counter[int], pairs: Sequence[Sequence[int]]) -> None:
    for v, n in pairs:
        into[int(v)] += int(n)


def _lesser(a: int | None, b: int | None, pick: Callable[[int, int], int]) -> int | None:
    return b if a is None else a if b is None else pick(a, b)


class Merger:
    """The merged accumulators of a campaign's shards, added in shard order (:meth:`offer` takes them in
    any order and holds each until every shard before it has been added)."""

    def __init__(self, campaign: Campaign) -> None:
        self.campaign = campaign
        self.next = 0
        self.waiting: dict[int, dict[str, Any]] = {}
        self.acc: dict[str, Any] | None = None
        self.hists: dict[str, Any] = {}

    def offer(self, shard: int, result: dict[str, Any]) -> None:
        if shard < self.next or shard in self.waiting:
            return  # a shard already merged (a results file holding it twice): the first copy counts
        self.waiting[shard] = result
        while self.next in self.waiting:
            self._add(self.waiting.pop(self.next))
            self.next += 1

    def _add(self, r: dict[str, Any]) -> None:
        command = self.campaign.command
        if self.acc is None:
            self.acc = json.loads(json.dumps(r))  # a copy: the shard's own data stays as it came
            if command == "balance":
                self.hists = {
                    "scores": [Counter[int]() for _ in r["scores"]],
                    "length": Counter[int](),
                    "rounds": Counter[int](),
                }
                for i, pairs in enumerate(r["scores"]):
                    _add_hist(self.hists["scores"][i], pairs)
                _add_hist(self.hists["length"], r["length"])
                _add_hist(self.hists["rounds"], r["rounds"])
            return
        a = self.acc
        if command == "coverage":
            for key in ("effects", "refusals"):
                merged = Counter(a[key])
                merged.update(r[key])
                a[key] = dict(sorted(merged.items()))
            a["states"] += r["states"]
            return
        for key in ("games", "truncated"):
            a[key] += r[key]
        ended = Counter(a["ended_by"])
        ended.update(r["ended_by"])
        a["ended_by"] = dict(sorted(ended.items()))
        a["wins"] = [x + y for x, y in zip(a["wins"], r["wins"], strict=True)]
        if command == "simulate":
            a["steps"] += r["steps"]
            a["length_min"] = _lesser(a["length_min"], r["length_min"], min)
            a["length_max"] = _lesser(a["length_max"], r["length_max"], max)
            a["score_sum"] = [x + y for x, y in zip(a["score_sum"], r["score_sum"], strict=True)]
            a["score_min"] = [_lesser(x, y, min) for x, y in zip(a["score_min"], r["score_min"], strict=True)]
            a["score_max"] = [_lesser(x, y, max) for x, y in zip(a["score_max"], r["score_max"], strict=True)]
            a["violations"] += r["violations"]
            room = FIRST_VIOLATIONS - len(a["first_violations"])
            a["first_violations"].extend(r["first_violations"][: max(0, room)])
        else:
            a["shared_games"] += r["shared_games"]
            a["shared_wins"] = [x + y for x, y in zip(a["shared_wins"], r["shared_wins"], strict=True)]
            for i, pairs in enumerate(r["scores"]):
                _add_hist(self.hists["scores"][i], pairs)
            _add_hist(self.hists["length"], r["length"])
            _add_hist(self.hists["rounds"], r["rounds"])

    @property
    def done(self) -> int:
        return self.next

    def merged(self) -> dict[str, Any]:
        if self.acc is None:
            raise BgrulesError("no shard of the campaign was merged")
        if self.campaign.command == "balance":
            return {**self.acc, "hists": self.hists}
        return self.acc


def _expand(h: Counter[int]) -> list[int]:
    return list(itertools.chain.from_iterable(itertools.repeat(v, n) for v, n in sorted(h.items())))


def simulate_json(c: Campaign, acc: dict[str, Any], seconds: float, invariants: Sequence[str]) -> dict[str, Any]:
    """``bgrules simulate --json`` of the merged accumulators, key for key as the serial command writes it
    (``seconds`` and the rates are the campaign's wall time)."""
    from bgrules.agents import parse_agents
    from bgrules.core.playout import round_cap

    game, _agents, _preds = _loaded(_key(c))
    agents = parse_agents(c.agents, game.players)
    cap = round_cap(game, c.setting("max_rounds"))
    return simulate_report(c.game, game, c.seed, agents, acc, seconds, invariants, cap)


def simulate_report(
    name: str,
    game: Any,
    seed: int,
    agents: Any,
    acc: dict[str, Any],
    seconds: float,
    invariants: Sequence[str],
    cap: int | None,
) -> dict[str, Any]:
    """``bgrules simulate --json`` of simulate's accumulators (:func:`simulate_games`, or a campaign's
    merged ones): the one report of the serial command and of a campaign."""
    from bgrules.agents import agent_names
    from bgrules.core.figures import departures

    n, p = acc["games"], game.players
    finished = n - acc["truncated"]
    total_steps = acc["steps"]
    return {
        "game": name,
        "players": p,
        "games": n,
        "seed": seed,
        "steps": total_steps,
        "seconds": round(seconds, 3),
        "games_per_second": round(n / seconds, 2) if seconds else None,
        "steps_per_second": round(total_steps / seconds, 1) if seconds else None,
        # statistics.fmean of integers is their exact sum over n, rounded once: the same float
        "length": {"min": acc["length_min"], "mean": round(total_steps / n, 2), "max": acc["length_max"]},
        "agents": agent_names(agents),
        "ended_by": dict(sorted(acc["ended_by"].items())),
        "scores": {
            "mean": [round(acc["score_sum"][i] / n, 2) for i in range(p)],
            "min": list(acc["score_min"]),
            "max": list(acc["score_max"]),
        },
        "win_rate_by_seat": [round(w / finished, 4) if finished else None for w in acc["wins"]],
        "truncated": acc["truncated"],
        "finished": finished,
        "win_rate_denominator": "finished",
        "round_cap": cap,
        "invariants_checked": list(invariants),
        "invariant_violations": acc["violations"],
        "violations": acc["first_violations"][:FIRST_VIOLATIONS],
        "seed_departures": departures(game),
    }


def simulate_invariants(c: Campaign) -> list[str]:
    """The invariants a simulate campaign checks (their spec ids), as the serial command lists them."""
    return [p[0] for p in _loaded(_key(c))[2]]


def balance_json(c: Campaign, acc: dict[str, Any]) -> dict[str, Any]:
    """``bgrules balance --json`` (:func:`bgrules.core.balance.balance_json`) of the merged accumulators:
    the same keys and values as the serial run's report (docs/balance.md)."""
    from bgrules.core import balance
    from bgrules.core.figures import departures
    from bgrules.core.playout import round_cap
    from bgrules.core.stats import summarise, wilson_interval

    game, _agents, _preds = _loaded(_key(c))
    names = balance.resolve_agents(c.agents, game.players)[1]
    hists = acc["hists"]
    finished = acc["games"] - acc["truncated"]
    r = balance._round
    seats = []
    for seat in range(game.players):
        wins = acc["wins"][seat]
        low, high = wilson_interval(wins, finished)
        score = summarise(_expand(hists["scores"][seat]))
        seats.append(
            {
                "seat": seat,
                "agent": names[seat],
                "wins": wins,
                "shared_wins": acc["shared_wins"][seat],
                "win_rate": r(wins / finished if finished else None),
                "win_rate_low": r(low),
                "win_rate_high": r(high),
                "score_mean": None if score is None else r(score.mean),
                "score_sd": None if score is None else r(score.sd),
                "score_median": None if score is None else score.median,
                "score_min": None if score is None else score.min,
                "score_max": None if score is None else score.max,
            }
        )
    length, rounds = summarise(_expand(hists["length"])), summarise(_expand(hists["rounds"]))
    ended_by = {balance.TRUNCATED: 0, **acc["ended_by"]}
    return {
        "game": c.game,
        "players": game.players,
        "games": acc["games"],
        "seed": c.seed,
        "agents": list(names),
        "finished": finished,
        "truncated": acc["truncated"],
        "round_cap": round_cap(game, c.setting("max_rounds")),
        "ended_by": dict(sorted(ended_by.items())),
        "win_rate_denominator": "finished",
        "truncated_games_count_as": "no one's win; left out of win rates, scores and lengths",
        "shared_wins_count_for_each_tied_seat": True,
        "shared_games": acc["shared_games"],
        "interval": "wilson",
        "confidence": balance.CONFIDENCE,
        "length": None if length is None else length.as_dict(2),
        "rounds": None if rounds is None else rounds.as_dict(2),
        "seats": seats,
        "seed_departures": departures(game),
    }


def coverage_json(
    c: Campaign,
    acc: dict[str, Any],
    *,
    specs_dir: Path | None = None,
    proofs_dir: Path | None = None,
    searched: bool = True,
    progress: Callable[[str, int, int], None] | None = None,
) -> dict[str, Any]:
    """``bgrules coverage --json`` with the sampled games' counts ``acc`` of the campaign: the rest (the
    searched specs, the clarifications' witnesses, the proved rules) as
    :func:`bgrules.core.coverage.run_coverage` runs it, in this process."""
    from bgrules.core import coverage
    from bgrules.core.clarify import _check_witness, clarification_paths, load_clarification
    from bgrules.core.defaults import default_dir
    from bgrules.core.specs import Budget, load_specs, run_spec

    specs_dir = default_dir("specs") if specs_dir is None else specs_dir
    proofs_dir = default_dir("proofs") if proofs_dir is None else proofs_dir
    clarifications_dir = specs_dir / "clarifications"
    document, played = coverage.choice(None if c.game == ALL_GAMES else c.game)
    names = set(played)
    specs = (
        [s for s in load_specs(specs_dir) if s.game in names and "searched" in s.checkers]
        if searched and specs_dir.is_dir()
        else []
    )
    clarifications = clarification_paths([clarifications_dir]) if clarifications_dir.is_dir() else []
    total = len(specs) + len(clarifications)
    with coverage.collecting() as collector:
        with coverage.recording("sampled") as sampled:
            sampled.add(coverage.Counts("sampled", Counter(acc["effects"]), Counter(acc["refusals"]), acc["states"]))
        for i, spec in enumerate(specs):
            if progress is not None:
                progress(f"{spec.id} [searched]", i, total)
            run_spec(spec, Budget(), ("searched",))
        for j, path in enumerate(clarifications):
            if progress is not None:
                progress(f"{path.name} [witness]", len(specs) + j, total)
            cl = load_clarification(path)
            if cl.game in names:
                for w in cl.witnesses:
                    _check_witness(cl, w)
    rules = coverage.documented_rules()
    exempt = coverage.load_exempt(specs_dir / "coverage-exempt.toml", known=[r.id for r in rules])
    proved = coverage.proved_rules(coverage.load_ties(proofs_dir / "conformance.toml"))
    return coverage.table(collector.by_checker, game=document, proved=proved, exempt=exempt, rules=rules)


# --- the results file --------------------------------------------------------------------------------


def header(c: Campaign) -> dict[str, Any]:
    return {"bgrules_campaign": FORMAT, "version": c.version, "campaign": c.identity(), "shards": shard_count(c)}


def _show(v: Any) -> str:
    return json.dumps(v, sort_keys=True)


def _difference(theirs: Any, ours: dict[str, Any]) -> str:
    if not isinstance(theirs, dict):
        return "its header names no campaign"
    for key in ours:
        if theirs.get(key) != ours[key]:
            return f"{key} is {_show(theirs.get(key))} there, {_show(ours[key])} here"
    extra = sorted(set(theirs) - set(ours))
    return f"it names {', '.join(extra)}, which this campaign has not"


@attrs.frozen
class Finished:
    """What a results file holds: each finished shard's result and seconds, by shard; ``keep`` is the
    number of bytes that hold whole lines (a last line cut short is not kept)."""

    results: dict[int, dict[str, Any]]
    seconds: dict[int, float]
    keep: int
    size: int


def read_results(path: Path, c: Campaign) -> Finished:
    """The finished shards of ``path``, after checking its header names ``c`` and this bgrules version (an
    InputError naming the difference otherwise; the file is not touched). A last line without its newline
    (cut short) is left out; any other line that is not a shard line is an InputError."""
    where = str(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"--resume {where}", "no such results file") from None
    except OSError as exc:
        raise InputError(f"--resume {where}", exc.strerror or str(exc)) from None
    lines = data.split(b"\n")
    whole = lines[:-1]  # the piece after the last newline is a line cut short (or empty)
    if not whole:
        raise InputError(where, "not a bgrules campaign results file (no header line)")
    try:
        head = json.loads(whole[0])
    except (ValueError, RecursionError):  # not JSON, a number too long to read, or nested too deeply
        head = None
    if not isinstance(head, dict) or head.get("bgrules_campaign") != FORMAT:
        raise InputError(where, "not a bgrules campaign results file (its first line is not a campaign header)")
    if head.get("version") != c.version:
        raise InputError(
            where,
            f"written by bgrules {head.get('version')}, this is bgrules {c.version}: another version's shards "
            "are not merged; start a new results file",
        )
    theirs = head.get("campaign")
    if not isinstance(theirs, dict) or theirs != c.identity():
        raise InputError(where, f"the results of another campaign: {_difference(theirs, c.identity())}")
    results: dict[int, dict[str, Any]] = {}
    seconds: dict[int, float] = {}
    total = shard_count(c)
    for number, line in enumerate(whole[1:], start=2):
        try:
            row = json.loads(line)
            shard, result = row["shard"], row["result"]
            spent = row.get("seconds", 0.0)
            ok = (
                type(shard) is int
                and 0 <= shard < total
                and isinstance(result, dict)
                and type(spent) in (int, float)
                and 0 <= spent < float("inf")
            )
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
            ok = False
        if not ok:
            raise InputError(f"{where}:{number}", "not a shard line of this campaign; the file was left as it is")
        results.setdefault(shard, result)
        seconds.setdefault(shard, float(spent))
    return Finished(results, seconds, keep=len(data) - len(lines[-1]), size=len(data))


def _fresh(path: Path) -> None:
    if path.exists() and (not path.is_file() or path.stat().st_size > 0):
        raise InputError(
            f"--results {path}",
            "the file exists; continue it with --resume, or name another file (it was left as it is)",
        )


def check_files(c: Campaign, results: Path | None, resume: Path | None) -> Finished | None:
    """The finished shards of ``resume`` (None without one), after checking the files a campaign would
    write: ``resume`` must be this campaign's results file (:func:`read_results`), ``results`` a new file
    (an existing one is never overwritten), and with both, the same file."""
    if resume is not None and results is not None and Path(results) != Path(resume):
        raise InputError("--results", f"--resume {resume} appends to that file; --results {results} names another")
    if resume is not None:
        return read_results(resume, c)
    if results is not None:
        _fresh(results)
    return None


class ResultsFile:
    """Appends each finished shard to a results file, flushed to disk line by line."""

    def __init__(self, path: Path, c: Campaign, finished: Finished | None) -> None:
        self.path = path
        if finished is None:
            _fresh(path)
            self.out = path.open("w", encoding="utf-8")
            self._write(header(c))
        else:
            if finished.keep < finished.size:  # drop the line cut short before appending after it
                with path.open("r+b") as f:
                    f.truncate(finished.keep)
            self.out = path.open("a", encoding="utf-8")

    def _write(self, row: dict[str, Any]) -> None:
        self.out.write(json.dumps(row, separators=(",", ":")) + "\n")
        self.out.flush()
        os.fsync(self.out.fileno())

    def shard(self, shard: int, seeds: range | None, result: dict[str, Any], seconds: float) -> None:
        row: dict[str, Any] = {"shard": shard}
        if seeds is not None:
            row["seeds"] = [seeds.start, seeds.stop - 1]
        self._write({**row, "seconds": round(seconds, 4), "result": result})

    def close(self) -> None:
        self.out.close()


# --- running ----------------------------------------------------------------------------------------


@attrs.frozen
class Outcome:
    """A finished campaign: the merged accumulators, the shards run now and the ones read from the file,
    the wall time of this run and the shards' own seconds (this run's and the file's)."""

    campaign: Campaign
    merged: dict[str, Any]
    ran: tuple[int, ...]
    resumed: tuple[int, ...]
    seconds: float
    shard_seconds: float


Runner = Callable[[Sequence[Any], Callable[[int, Any, float], None]], None]
"""An engine: runs the tasks and calls ``on_done(index, value, seconds)`` as each finishes."""


def local_runner(jobs: int = 1) -> Runner:
    """The local engine: :func:`bgrules.core.jobs.run_tasks` over ``jobs`` worker processes."""
    from bgrules.core.jobs import check_jobs, run_tasks

    workers = check_jobs(jobs)

    def run(tasks: Sequence[Any], on_done: Callable[[int, Any, float], None]) -> None:
        run_tasks(list(tasks), workers, on_done=lambda d: on_done(d.index, d.value, d.seconds), keep=False)

    return run


def _check_merge(c: Campaign, finished: Finished, path: Path | None) -> None:
    """The finished shards of a results file merged on trial, in shard order, before anything runs: a shard
    line whose result is not of this campaign's shape (a file edited by hand) is an InputError naming the
    file and the line's shard, never an error half-way through the run."""
    trial = Merger(c)
    for shard in sorted(finished.results):
        try:
            trial._add(finished.results[shard])
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, ZeroDivisionError, RecursionError):
            raise InputError(
                f"--resume {path}",
                f"shard {shard}'s result is not one this campaign writes; the file was left as it is",
            ) from None


def run_campaign(
    c: Campaign,
    runner: Runner | None = None,
    *,
    results: Path | None = None,
    resume: Path | None = None,
    on_shard: Callable[[int, int], None] | None = None,
) -> Outcome:
    """Run every shard of ``c`` not already in ``resume`` with ``runner`` (default: this process), append
    each to the results file (``resume``'s, else ``results`` if given) as it finishes, and merge them in
    shard order. ``on_shard(done, total)`` after each shard (for progress)."""
    from bgrules.core.jobs import Task

    finished = check_files(c, results, resume)
    total = shard_count(c)
    merger = Merger(c)
    shard_seconds = 0.0
    if finished is not None:
        _check_merge(c, finished, resume)
        for shard in sorted(finished.results):
            merger.offer(shard, finished.results[shard])
            shard_seconds += finished.seconds[shard]
    todo = [i for i in range(total) if finished is None or i not in finished.results]
    target = resume if resume is not None else results
    out = ResultsFile(target, c, finished) if target is not None else None
    data = c.as_json()
    tasks = [Task(f"{c.command} {c.game} shard {i + 1}/{total}", SHARD_TARGET, (data, i)) for i in todo]
    done = total - len(todo)
    start = time.perf_counter()

    def on_done(index: int, value: Any, seconds: float) -> None:
        nonlocal done, shard_seconds
        shard = todo[index]
        if out is not None:
            out.shard(shard, c.seeds(shard) if c.command != "coverage" else None, value, seconds)
        merger.offer(shard, value)
        shard_seconds += seconds
        done += 1
        if on_shard is not None:
            on_shard(done, total)

    try:
        if tasks:
            (runner or local_runner(1))(tasks, on_done)
    finally:
        if out is not None:
            out.close()
    if merger.done != total:
        raise BgrulesError(f"only {merger.done} of the campaign's {total} shards were merged")
    return Outcome(
        campaign=c,
        merged=merger.merged(),
        ran=tuple(todo),
        resumed=tuple(sorted(finished.results)) if finished is not None else (),
        seconds=time.perf_counter() - start,
        shard_seconds=shard_seconds,
    )


def summary(o: Outcome) -> dict[str, Any]:
    """The campaign's run apart from its result (stderr and the benchmarks): shards run and resumed."""
    return {
        "shards": shard_count(o.campaign),
        "ran": len(o.ran),
        "resumed": len(o.resumed),
        "seconds": round(o.seconds, 3),
        "shard_seconds": round(o.shard_seconds, 3),
    }


__all__ = [
    "ALL_GAMES",
    "COMMANDS",
    "DEFAULT_SHARD_SIZE",
    "Campaign",
    "Finished",
    "Merger",
    "Outcome",
    "ResultsFile",
    "Runner",
    "balance_json",
    "check_files",
    "coverage_json",
    "coverage_samples",
    "header",
    "local_runner",
    "make_campaign",
    "read_results",
    "run_campaign",
    "run_shard",
    "shard_count",
    "simulate_invariants",
    "simulate_json",
    "summary",
]
