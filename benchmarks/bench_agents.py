"""The agents' targets (issue 9, item 4); run by hand, figures quoted in docs/agents.md and the README.

    python benchmarks/bench_agents.py [--games 40] [--mcts-games 40] [--rounds 100] [--jobs 2]
                                      [--only SECTION] [--json OUT.json]

Sections (``--only`` takes one, or a comma-separated list):

- ``ends``: greedy in every seat, Bot Factory, 2, 3 and 4 players: the share of games ended by the seed's
  triggers (BF-END-COLOUR, BF-END-FIFTH, counted apart) within the runner's cap of ``--rounds`` rounds,
  and the invariant violations of specs/botfactory.toml (state and transition specs on the default rules) at every step.
- ``mechanica``: greedy and random in every seat, Mechanica, 2, 3 and 4 players: the share of games whose
  winner scores above 0, and the medians of the winner's score (greedy / random).
- ``one``: one greedy seat against three random ones, 4 players, both games, the greedy seat rotating
  over the four seats: its win rate (a shared win counts).
- ``mcts``: mcts against greedy, 2 players, both games, seats alternating: mcts's win rate with its 95%
  Wilson interval (a shared win counts half). The README's budgets: ``mcts:iterations=800`` in Bot
  Factory (``--mcts-botfactory``), ``mcts`` (200 iterations) in Mechanica (``--mcts-mechanica``); the new
  node is scored by the greedy evaluation, no rollout.
- ``speed``: steps per CPU second of greedy and of random play (all seats), both games, 2 and 4 players
  (CPU time: the figures hold on a shared machine; benchmarks/profile_agents.py shows where greedy's time goes).

Seeds are S..S+N-1 for every cell (``--seed S``, default 0); each game is a seeded playout
(``bgrules.core.playout.playout``), so the figures repeat in any process.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

SEED_ENDS = ("BF-END-COLOUR", "BF-END-FIFTH")
"""Bot Factory's two end triggers (docs/rules/botfactory.md, BF-END-COLOUR and BF-END-FIFTH)."""

ROOT = Path(__file__).resolve().parent.parent


def wilson(successes: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The 95% Wilson score interval of a binomial proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def _predicates(game_name: str, players: int) -> list[tuple[str, str, Any]]:
    """The state and transition invariants that ``bgrules simulate`` checks (whole-game specs aside)."""
    from bgrules.runners.specfile import default_invariants

    return [p for p in default_invariants(game_name, players, ROOT / "specs") if p[1] in ("state", "transition")]


def play(job: tuple[str, int, str, int, int | None, bool]) -> dict[str, Any]:
    """One seeded game: (game, players, agents spec, seed, round cap, check invariants)."""
    from bgrules.agents import parse_agents
    from bgrules.core.playout import end_trigger, walk
    from bgrules.core.registry import load_game

    game_name, players, spec, seed, rounds, check = job
    game = load_game(game_name, players=players)
    agents = parse_agents(spec, players)
    preds = _predicates(game_name, players) if check else []
    violations = 0
    steps = 0
    state = game.initial_state()
    start = time.perf_counter()
    cpu = time.process_time()
    for before, action, after in walk(game, seed, max_rounds=rounds, agents=agents):
        steps += 1
        for _id, kind, pred in preds:
            if (pred(game, after) if kind == "state" else pred(game, before, action, after)) is not None:
                violations += 1
        state = after
    return {
        "game": game_name,
        "players": players,
        "agents": spec,
        "seed": seed,
        "ended_by": end_trigger(game, state),
        "scores": list(game.scores(state)),
        "winners": list(game.winners(state)) if game.is_terminal(state) else [],
        "steps": steps,
        "seconds": time.perf_counter() - start,
        "cpu_seconds": time.process_time() - cpu,
        "violations": violations,
        "round": getattr(state, "round", None),
    }


def run(jobs: list[tuple[str, int, str, int, int | None, bool]], workers: int) -> list[dict[str, Any]]:
    if workers <= 1:
        return [play(j) for j in jobs]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(play, jobs, chunksize=1))


def section_ends(args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {"round_cap": args.rounds}
    for n in (2, 3, 4):
        games = run(
            [("botfactory", n, "greedy", s, args.rounds, True) for s in range(args.seed, args.seed + args.games)],
            args.jobs,
        )
        seeds_end = [g for g in games if g["ended_by"] in SEED_ENDS]
        ended = len(seeds_end)
        rounds = [g["round"] for g in seeds_end]
        out[f"{n}p"] = {
            "games": len(games),
            "ended_by_seed": ended,
            "ended_by": {t: sum(1 for g in seeds_end if g["ended_by"] == t) for t in SEED_ENDS},
            "rate": round(ended / len(games), 4),
            "truncated": sum(1 for g in games if g["ended_by"] is None),
            "violations": sum(g["violations"] for g in games),
            "rounds_median": statistics.median(rounds) if rounds else None,
            "rounds_max": max(rounds) if rounds else None,
        }
        print(f"ends botfactory {n}p: {out[f'{n}p']}", flush=True)
    return out


def section_mechanica(args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for n in (2, 3, 4):
        cell: dict[str, Any] = {}
        for spec in ("greedy", "random"):
            games = run(
                [("mechanica", n, spec, s, None, False) for s in range(args.seed, args.seed + args.games)], args.jobs
            )
            best = [max(g["scores"]) for g in games]
            cell[spec] = {
                "games": len(games),
                "ended": sum(1 for g in games if g["ended_by"] == "MC-END"),
                "winner_above_0": round(sum(1 for b in best if b > 0) / len(best), 4),
                "winner_median": statistics.median(best),
            }
        r = cell["random"]["winner_median"]
        cell["median_ratio"] = None if r == 0 else round(cell["greedy"]["winner_median"] / r, 2)
        out[f"{n}p"] = cell
        print(f"mechanica {n}p: {cell}", flush=True)
    return out


def section_one(args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for game_name in ("botfactory", "mechanica"):
        jobs = []
        for s in range(args.seed, args.seed + args.games):
            seat = s % 4
            spec = ",".join("greedy" if i == seat else "random" for i in range(4))
            jobs.append((game_name, 4, spec, s, args.rounds if game_name == "botfactory" else None, False))
        games = run(jobs, args.jobs)
        wins = sum(1 for g in games if (g["seed"] % 4) in g["winners"])
        low, high = wilson(wins, len(games))
        out[game_name] = {
            "games": len(games),
            "greedy_wins": wins,
            "rate": round(wins / len(games), 4),
            "wilson95": [round(low, 4), round(high, 4)],
            "truncated": sum(1 for g in games if g["ended_by"] is None),
        }
        print(f"one greedy vs three random, {game_name}: {out[game_name]}", flush=True)
    return out


def section_mcts(args: argparse.Namespace) -> dict[str, Any]:
    seat = {"botfactory": args.mcts_botfactory or args.mcts, "mechanica": args.mcts_mechanica or args.mcts}
    out: dict[str, Any] = {"mcts": seat}
    for game_name in ("botfactory", "mechanica"):
        jobs = []
        for s in range(args.seed, args.seed + args.mcts_games):
            spec = f"{seat[game_name]},greedy" if s % 2 == 0 else f"greedy,{seat[game_name]}"
            jobs.append((game_name, 2, spec, s, args.rounds if game_name == "botfactory" else None, False))
        games = run(jobs, args.jobs)
        points = 0.0
        for g in games:
            seat = g["seed"] % 2
            if seat in g["winners"]:
                points += 1.0 / len(g["winners"])
        low, high = wilson(points, len(games))
        seconds = [g["seconds"] for g in games]
        out[game_name] = {
            "games": len(games),
            "mcts_points": points,
            "rate": round(points / len(games), 4),
            "wilson95": [round(low, 4), round(high, 4)],
            "truncated": sum(1 for g in games if g["ended_by"] is None),
            "seconds_per_game": round(statistics.fmean(seconds), 2),
        }
        print(f"mcts vs greedy, {game_name}: {out[game_name]}", flush=True)
    return out


def section_speed(args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for game_name in ("botfactory", "mechanica"):
        for n in (2, 4):
            cell = {}
            for spec in ("random", "greedy"):
                games = [
                    play((game_name, n, spec, s, args.rounds if game_name == "botfactory" else None, False))
                    for s in range(args.seed, args.seed + max(2, args.games // 10))
                ]
                steps = sum(g["steps"] for g in games)
                cell[spec] = round(steps / sum(g["cpu_seconds"] for g in games), 1)
            cell["greedy_over_random"] = round(cell["greedy"] / cell["random"], 4)
            out[f"{game_name} {n}p"] = cell
            print(f"speed {game_name} {n}p (steps/s): {cell}", flush=True)
    return out


SECTIONS = {
    "ends": section_ends,
    "mechanica": section_mechanica,
    "one": section_one,
    "mcts": section_mcts,
    "speed": section_speed,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per cell (ends, mechanica, one)")
    parser.add_argument("--mcts-games", type=int, default=40, help="mcts-vs-greedy games per game")
    parser.add_argument("--mcts", default="mcts", help="the mcts seat, e.g. mcts:iterations=200")
    parser.add_argument(
        "--mcts-botfactory", default="mcts:iterations=800", help="the mcts seat in Bot Factory (README's budget)"
    )
    parser.add_argument("--mcts-mechanica", default="mcts", help="the mcts seat in Mechanica (README's budget)")
    parser.add_argument("--rounds", type=int, default=100, help="the runner's round cap for Bot Factory")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0, help="the first seed of every cell")
    parser.add_argument("--only", default=",".join(SECTIONS))
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    chosen = [s.strip() for s in args.only.split(",") if s.strip()]
    bad = [s for s in chosen if s not in SECTIONS]
    if bad:
        print(f"error: unknown section(s) {', '.join(bad)}; valid: {', '.join(SECTIONS)}", file=sys.stderr)
        return 2
    result: dict[str, Any] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "games": args.games,
        "mcts_games": args.mcts_games,
        "round_cap": args.rounds,
        "seed": args.seed,
    }
    start = time.perf_counter()
    for name in chosen:
        result[name] = SECTIONS[name](args)
    result["seconds"] = round(time.perf_counter() - start, 1)
    text = json.dumps(result, indent=2)
    if args.json is not None:
        args.json.write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
