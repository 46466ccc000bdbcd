"""A campaign's merge: the shards' accumulators added IN SHARD ORDER (:class:`Merger`) and the merged
figures as the serial command's JSON (:func:`simulate_json`, :func:`balance_json`, :func:`coverage_json`)."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bgrules.agents import agent_names, parse_agents
from bgrules.core.defaults import default_dir
from bgrules.core.errors import BgrulesError
from bgrules.core.figures import departures
from bgrules.core.playout import round_cap
from bgrules.core.stats import summarise, wilson_interval
from bgrules.runners import balance, coverage
from bgrules.runners.campaign import ALL_GAMES, FIRST_VIOLATIONS, Campaign
from bgrules.runners.campaign_shards import _key, _loaded
from bgrules.runners.clarify import _check_witness, clarification_paths, load_clarification
from bgrules.runners.specfile import Budget, load_specs
from bgrules.runners.specs import run_spec

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
    """``bgrules balance --json`` (:func:`bgrules.runners.balance.balance_json`) of the merged accumulators:
    the same keys and values as the serial run's report (docs/balance.md)."""

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
    :func:`bgrules.runners.coverage.run_coverage` runs it, in this process."""

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


__all__ = [
    "Merger",
    "balance_json",
    "coverage_json",
    "simulate_invariants",
    "simulate_json",
]
