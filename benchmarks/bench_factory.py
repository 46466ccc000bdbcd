"""Throughput of the Mechanica factory model; run by hand, figures quoted in the README.

    python benchmarks/bench_factory.py [--factories 300] [--seconds 5]

Measures: (1) workday runs per second on random full factories (12 floor cells tried, every output and
fabricator hole holding a bot, random decisions); (2) random sandbox play in steps per second, without
and with every invariant of specs/mechanica-factory.toml checked at every step; (3) the z3 collision
query's time per factory on random full factories.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time

import attrs

from bgrules.core.playout import walk
from bgrules.mechanica import invariants
from bgrules.mechanica.components import Bot, Zone
from bgrules.mechanica.factory import (
    CELLS,
    ROWS,
    Factory,
    StartSlot,
    Truck,
    empty_factory,
    legal_placements,
    new_placed,
)
from bgrules.mechanica.run import RunPhase
from bgrules.mechanica.sandbox import FactoryGame
from bgrules.mechanica.variant import default_variant
from bgrules.mechanica.workday import decide, decisions, start_run


def random_full_factory(rng: random.Random) -> Factory:
    variant = default_variant()
    cat = variant.catalogue
    kinds = sorted(k.key for k in cat.of_zone(Zone.FLOOR))
    factory = empty_factory()
    for _ in range(CELLS * 2):
        key = rng.choice(kinds)
        spots = legal_placements(factory, variant, key)
        if spots:
            r, c, rot = rng.choice(spots)
            factory = factory.with_cell(r, c, new_placed(cat.tiles[key], rot))
    bots = list(Bot)
    floor = tuple(
        None if p is None else attrs.evolve(p, outputs=tuple(rng.choice(bots) for _ in p.outputs))
        for p in factory.floor
    )
    fabs = sorted(k.key for k in cat.of_zone(Zone.START) if not k.printed)
    start = []
    for r in range(ROWS):
        printed = "basic_fabricator" if r == 1 else "start_hole"
        kind = cat.tiles[rng.choice([*fabs, printed])]
        start.append(StartSlot(kind.key, tuple(rng.choice(bots) for _ in kind.outputs)))
    dock = tuple(Truck(rng.choice(["truck", "big_truck", "huge_truck"])) for _ in range(ROWS))
    return Factory(floor, tuple(start), dock)


def bench_runs(n_factories: int, seconds: float) -> dict[str, float]:
    rng = random.Random(1)
    variant = default_variant()
    factories = [random_full_factory(rng) for _ in range(n_factories)]
    tiles = sum(sum(p is not None for p in f.floor) for f in factories) / n_factories
    bots = sum(sum(1 for _ in f.bots()) for f in factories) / n_factories
    runs = decisions_taken = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for f in factories:
            run = start_run(f, (24, 24, 24), variant)
            while run.phase is not RunPhase.DONE:
                legal = decisions(run, variant)
                run = decide(run, variant, legal[rng.randrange(len(legal))])
                decisions_taken += 1
            runs += 1
    elapsed = time.perf_counter() - start
    return {
        "workday_runs_per_second": round(runs / elapsed, 1),
        "decisions_per_second": round(decisions_taken / elapsed, 1),
        "mean_tiles": round(tiles, 2),
        "mean_bots_launched": round(bots, 2),
    }


STATE_CHECKS = (
    invariants.bots_conserved,
    invariants.one_bot_per_hole,
    invariants.sources_empty_after_movement,
    invariants.inputs_empty_after_activation,
    invariants.money_never_negative,
    invariants.is_over_when_days_done,
)


def bench_sandbox(seconds: float, check: bool) -> dict[str, float]:
    game = FactoryGame(players=1)
    steps = games = 0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds:
        for before, action, after in walk(game, seed):
            steps += 1
            if check:
                for pred in STATE_CHECKS:
                    pred(game, after)
                invariants.vault_only_by_gift_wrappers(game, before, action, after)
        games += 1
        seed += 1
    elapsed = time.perf_counter() - start
    key = "checked" if check else "unchecked"
    return {
        f"sandbox_steps_per_second_{key}": round(steps / elapsed, 1),
        f"sandbox_games_per_second_{key}": round(games / elapsed, 2),
    }


def bench_smt(n_factories: int) -> dict[str, float]:
    """The z3 collision query (build, solve, decode) on random full factories: median and p90 in ms."""
    from bgrules.mechanica.smt import collision_query

    rng = random.Random(2)
    variant = default_variant()
    factories = [random_full_factory(rng) for _ in range(n_factories)]
    collision_query(factories[0], variant)
    times = []
    for f in factories:
        start = time.perf_counter()
        collision_query(f, variant)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return {
        "smt_query_ms_median": round(times[len(times) // 2], 2),
        "smt_query_ms_p90": round(times[int(len(times) * 0.9)], 2),
        "smt_query_ms_max": round(times[-1], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--factories", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    result: dict[str, object] = {"python": platform.python_version(), "machine": platform.machine()}
    result.update(bench_runs(args.factories, args.seconds))
    result.update(bench_sandbox(args.seconds, check=False))
    result.update(bench_sandbox(args.seconds, check=True))
    result.update(bench_smt(min(args.factories, 200)))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
