"""Campaigns: the driver's memory on a long campaign, and how campaigns scale on a local Ray.

    python benchmarks/bench_campaign.py memory [--game mechanica-factory] [--games 100000] [--jobs 2]
                                               [--engine local|ray] [--check] [--results FILE]
    python benchmarks/bench_campaign.py scaling [--game mechanica] [--players 4] [--games 256] [--cpus 2]

``memory`` runs one ``simulate`` campaign (random play, ``--no-check`` unless ``--check``) and reports the
driver's peak resident memory (``resource.getrusage(RUSAGE_SELF).ru_maxrss``: this process only, not the
worker processes), what it was before the campaign started, and games/s and steps/s.

``scaling`` starts a local Ray with ``--cpus`` CPUs and runs the same ``simulate --no-check`` campaign
split into W tasks for W = 1, 2, 8 and 64 (W tasks at once: 8 and 64 workers simulated by tasks on the
machine's CPUs), after a warm-up that starts Ray's workers. For each: wall time, games/s, steps/s, and the
games/s inside the tasks (games over the tasks' summed seconds: below the one-worker rate when tasks share
a core). The overhead per shard is measured on 64 tasks run one at a time (wall time beyond the tasks' own
time, per task: submitting, scheduling, shipping, merging, the results line), the driver's part of it
(merging a result in shard order and appending its line) apart. With the games/s of one core on a
``balance`` campaign of the same games, it projects the wall time of a million-game balance study on a
64-core cluster, with the arithmetic.
Prints JSON, then a Markdown table (docs/campaigns.md).
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bgrules.runners import campaign as cp
from bgrules.runners import campaign_merge as cp_merge
from bgrules.runners import campaign_run as cp_run


def peak_rss_mb() -> float:
    kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # kilobytes on Linux
    return round(kb / 1024, 1)


def current_rss_mb() -> float | None:
    try:
        for line in Path("/proc/self/status").read_text(encoding="utf-8").splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


def _runner(engine: str, jobs: int, cpus: int | None = None, in_flight: int | None = None) -> cp_run.Runner:
    if engine == "ray":
        from bgrules.integrations import ray_engine

        return ray_engine.runner(num_cpus=cpus or jobs, in_flight=in_flight)
    return cp_run.local_runner(jobs)


def memory(args: argparse.Namespace) -> dict[str, Any]:
    c = cp.make_campaign(
        "simulate",
        args.game,
        players=args.players,
        games=args.games,
        seed=args.seed,
        shard_size=args.shard_size,
        check=args.check,
        max_rounds=None,
        specs=None,
    )
    runner = _runner(args.engine, args.jobs)
    invariants = cp_merge.simulate_invariants(c)
    before_peak, before_now = peak_rss_mb(), current_rss_mb()
    samples: list[float] = []

    def on_shard(done: int, total: int) -> None:
        now = current_rss_mb()
        if now is not None:
            samples.append(now)
        if done % max(1, total // 10) == 0:
            print(f"  {done}/{total} shards, driver RSS {now} MB", file=sys.stderr, flush=True)

    results = Path(args.results) if args.results else None
    outcome = cp_run.run_campaign(c, runner, results=results, on_shard=on_shard)
    out = cp_merge.simulate_json(c, outcome.merged, outcome.seconds, invariants)
    return {
        "what": "simulate campaign, driver memory",
        "game": args.game,
        "players": out["players"],
        "games": out["games"],
        "steps": out["steps"],
        "check": args.check,
        "engine": args.engine,
        "jobs": args.jobs,
        "shard_size": args.shard_size,
        "shards": c.shards,
        "results_file": str(results) if results else None,
        "seconds": out["seconds"],
        "games_per_second": out["games_per_second"],
        "steps_per_second": out["steps_per_second"],
        "driver_rss_before_mb": before_now,
        "driver_peak_rss_before_mb": before_peak,
        "driver_rss_max_during_mb": max(samples) if samples else None,
        "driver_peak_rss_mb": peak_rss_mb(),
        "truncated": out["truncated"],
        "python": platform.python_version(),
    }


def _driver_cost(c: cp.Campaign, shard_results: list[dict[str, Any]]) -> float:
    """Seconds the driver spends per shard: the merge in shard order and the results file's line."""
    with tempfile.TemporaryDirectory() as tmp:
        out = cp_run.ResultsFile(Path(tmp) / "r.jsonl", c, None)
        merger = cp_merge.Merger(c)
        start = time.perf_counter()
        for i, r in enumerate(shard_results):
            out.shard(i, c.seeds(i), r, 0.0)
            merger.offer(i, r)
        seconds = time.perf_counter() - start
        out.close()
    return seconds / len(shard_results)


def scaling(args: argparse.Namespace) -> dict[str, Any]:
    from bgrules.integrations import ray_engine

    t0 = time.perf_counter()
    ray = ray_engine.connect(num_cpus=args.cpus)
    ray_start = time.perf_counter() - t0
    cpus = int(ray.cluster_resources().get("CPU", args.cpus))

    def campaign(command: str, tasks: int, games: int) -> cp.Campaign:
        extra: dict[str, Any] = {"check": False, "specs": None} if command == "simulate" else {}
        return cp.make_campaign(
            command,
            args.game,
            players=args.players,
            games=games,
            seed=args.seed,
            shard_size=-(-games // tasks),
            max_rounds=None,
            **extra,
        )

    # warm-up: Ray starts its worker processes and each imports bgrules and loads the game once
    warm = campaign("simulate", 2 * cpus, 4 * cpus)
    cp_run.run_campaign(warm, ray_engine.runner(in_flight=2 * cpus))

    rows = []
    shard_results: list[dict[str, Any]] = []
    for workers in (1, 2, 8, 64):
        c = campaign("simulate", workers, args.games)
        kept: dict[int, dict[str, Any]] = {}
        seconds: list[float] = []
        runner = ray_engine.runner(in_flight=workers)

        def timed(
            tasks: Any,
            on_done: Any,
            runner: cp_run.Runner = runner,
            kept: dict[int, dict[str, Any]] = kept,
            seconds: list[float] = seconds,
        ) -> None:
            def record(index: int, value: Any, s: float) -> None:
                kept[index] = value
                seconds.append(s)
                on_done(index, value, s)

            runner(tasks, record)

        o = cp_run.run_campaign(c, timed)
        merged = o.merged
        rows.append(
            {
                "workers": workers,
                "tasks": c.shards,
                "games_per_task": c.shard_size,
                "seconds": round(o.seconds, 3),
                "games_per_second": round(merged["games"] / o.seconds, 2),
                "steps_per_second": round(merged["steps"] / o.seconds, 1),
                "task_seconds": round(sum(seconds), 3),
                "games_per_task_second": round(merged["games"] / sum(seconds), 2),
            }
        )
        if workers == 64:
            shard_results = [kept[i] for i in sorted(kept)]
        print(f"  {rows[-1]}", file=sys.stderr, flush=True)
    driver_ms = 1000 * _driver_cost(campaign("simulate", 64, args.games), shard_results)
    # the overhead of a shard: 64 tasks one after another (one in flight), so the wall time beyond the
    # tasks' own time is what submitting, scheduling, shipping, merging and writing cost, CPUs apart
    seq = campaign("simulate", 64, 64)
    seq_seconds: list[float] = []
    one_at_a_time = ray_engine.runner(in_flight=1)

    def timed_seq(tasks: Any, on_done: Any) -> None:
        one_at_a_time(tasks, lambda i, v, s: (seq_seconds.append(s), on_done(i, v, s)))

    with tempfile.TemporaryDirectory() as tmp:
        o = cp_run.run_campaign(seq, timed_seq, results=Path(tmp) / "r.jsonl")
    task_ms = 1000 * (o.seconds - sum(seq_seconds)) / seq.shards

    # one core's rate on a balance campaign of the same games (the study projected below)
    b = campaign("balance", 1, args.balance_games)
    bseconds: list[float] = []
    one = ray_engine.runner(in_flight=1)

    def timed_b(tasks: Any, on_done: Any) -> None:
        one(tasks, lambda i, v, s: (bseconds.append(s), on_done(i, v, s)))

    cp_run.run_campaign(b, timed_b)
    balance_rate = args.balance_games / sum(bseconds)
    # the projection: a million games in shards of the default size, on 64 cores
    n, cores, size = 1_000_000, 64, cp.DEFAULT_SHARD_SIZE
    shards = -(-n // size)
    play = n / balance_rate / cores
    overhead = shards * task_ms / 1000 / cores
    driver = shards * driver_ms / 1000
    projected = play + overhead + driver
    projection = {
        "games": n,
        "cores": cores,
        "shard_size": size,
        "shards": shards,
        "balance_games_per_second_per_core": round(balance_rate, 2),
        "play_seconds": round(play, 1),
        "task_overhead_seconds": round(overhead, 1),
        "driver_seconds": round(driver, 1),
        "projected_seconds": round(projected, 1),
        "arithmetic": (
            f"{n:,} games / ({balance_rate:.2f} games/s/core x {cores} cores) = {play:.0f} s of play; "
            f"+ {shards:,} shards x {task_ms:.1f} ms overhead per shard / {cores} cores = {overhead:.1f} s; "
            f"+ {shards:,} shards x {driver_ms:.2f} ms in the driver (merge, results line; serial) = {driver:.1f} s; "
            f"total {projected:.0f} s = {projected / 60:.1f} min (assumes the cluster's cores run as fast as "
            "one core here and ignores starting the cluster)"
        ),
    }
    return {
        "what": "simulate --no-check campaign on a local Ray, W tasks at once",
        "game": args.game,
        "players": args.players,
        "games": args.games,
        "cpus": cpus,
        "ray_start_seconds": round(ray_start, 1),
        "rows": rows,
        "overhead_ms_per_shard": round(task_ms, 2),
        "driver_ms_per_shard": round(driver_ms, 3),
        "projection": projection,
        "python": platform.python_version(),
    }


def table(result: dict[str, Any]) -> str:
    lines = [
        f"{result['game']}, {result['players']} players, {result['games']} games, random play, no checks; "
        f"a local Ray with {result['cpus']} CPUs",
        "",
        "| workers | tasks | games/task | wall s | games/s | steps/s | games/s inside the tasks |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in result["rows"]:
        lines.append(
            f"| {r['workers']} | {r['tasks']} | {r['games_per_task']} | {r['seconds']} | {r['games_per_second']} "
            f"| {r['steps_per_second']} | {r['games_per_task_second']} |"
        )
    lines += [
        "",
        f"overhead per shard (64 one-game tasks one at a time: wall beyond the tasks' time): "
        f"{result['overhead_ms_per_shard']} ms; of it in the driver (merge + results line): "
        f"{result['driver_ms_per_shard']} ms",
        "",
    ]
    lines.append("projection: " + result["projection"]["arithmetic"])
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    m = sub.add_parser("memory")
    m.add_argument("--game", default="mechanica-factory")
    m.add_argument("--players", type=int, default=None)
    m.add_argument("--games", type=int, default=100_000)
    m.add_argument("--seed", type=int, default=0)
    m.add_argument("--shard-size", type=int, default=cp.DEFAULT_SHARD_SIZE)
    m.add_argument("--jobs", type=int, default=2)
    m.add_argument("--engine", choices=("local", "ray"), default="local")
    m.add_argument("--check", action="store_true", help="check every invariant at every step")
    m.add_argument("--results", default=None, help="also write the results file here")
    s = sub.add_parser("scaling")
    s.add_argument("--game", default="mechanica")
    s.add_argument("--players", type=int, default=4)
    s.add_argument("--games", type=int, default=256)
    s.add_argument("--balance-games", type=int, default=64)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--cpus", type=int, default=2)
    args = parser.parse_args()
    if args.what == "memory":
        print(json.dumps(memory(args), indent=2))
    else:
        result = scaling(args)
        print(json.dumps(result, indent=2))
        print()
        print(table(result))


if __name__ == "__main__":
    main()
