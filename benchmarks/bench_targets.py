"""Issue 12's speed targets in one run: random, checked and greedy play of both games beside python-chess.

    python -m pip install chess        # only for the comparison; not a dependency of bgrules
    python benchmarks/bench_targets.py [--rounds 3] [--games 20] [--greedy-games 3] [--json OUT.json]

Each round times fixed work in CPU seconds (``time.process_time``: the machine's other jobs move wall-clock
rates far more), in this order: python-chess random play (``--chess-games`` seeded games), then for Mechanica
and Bot Factory (4 players, default readings): random play of seeds 0..games-1 unchecked; the same number of
games from seed 100000 with every state and transition invariant of specs/<game>.toml for 4 players checked
at every step (the loop of bench_cpu.py); greedy play in every seat of seeds 0..greedy-games-1 (Bot Factory
under the agents' benchmark cap of 100 rounds, as ``bench_agents.py --only speed``). Every ratio is taken
within its round (python-chess and the game measured minutes apart at most), then the medians and ranges
over the rounds are reported, beside the targets:

- Mechanica random play >= 2.0x python-chess steps/s, Bot Factory >= 3.0x;
- greedy play >= 0.5x random play's steps/s (of the same game);
- checking every invariant at every step costs at most 1.5x (unchecked rate / checked rate).

Prints one JSON object, then a Markdown table (the README's).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_cpu import chess_cpu, game_cpu

from bgrules.agents import make_agent
from bgrules.core.playout import walk
from bgrules.core.registry import load_game

TARGETS = {
    "mechanica": {"random_over_chess": 2.0, "greedy_over_random": 0.5, "check_cost": 1.5},
    "botfactory": {"random_over_chess": 3.0, "greedy_over_random": 0.5, "check_cost": 1.5},
}
GREEDY_ROUNDS = {"botfactory": 100, "mechanica": None}
"""The runner's round cap for greedy games (bench_agents.py's ``--rounds`` default for Bot Factory)."""


def greedy_cpu(name: str, players: int, games: int) -> tuple[float, int]:
    """Steps per CPU second of greedy play in every seat, seeds 0..games-1."""
    game = load_game(name, players=players)
    agents = [make_agent("greedy") for _ in range(players)]
    steps = 0
    start = time.process_time()
    for seed in range(games):
        for _ in walk(game, seed, agents=agents, max_rounds=GREEDY_ROUNDS[name]):
            steps += 1
    return steps / (time.process_time() - start), steps


def one_round(args: argparse.Namespace) -> dict[str, Any]:
    chess_rate = chess_cpu(args.chess_games)
    out: dict[str, Any] = {"chess_steps_per_cpu_second": round(chess_rate, 1)}
    for name in ("mechanica", "botfactory"):
        unchecked, steps = game_cpu(name, 4, args.games, False, 0)
        checked, _ = game_cpu(name, 4, args.games, True, 100_000)
        greedy, greedy_steps = greedy_cpu(name, 4, args.greedy_games)
        out[name] = {
            "steps": steps,
            "greedy_steps": greedy_steps,
            "random": round(unchecked, 1),
            "checked": round(checked, 1),
            "greedy": round(greedy, 1),
            "random_over_chess": round(unchecked / chess_rate, 3),
            "check_cost": round(unchecked / checked, 3),
            "greedy_over_random": round(greedy / unchecked, 4),
        }
        print(f"round: {name} {out[name]} (chess {chess_rate:.0f})", file=sys.stderr, flush=True)
    return out


def summary(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, targets in TARGETS.items():
        cell: dict[str, Any] = {}
        for key in ("random", "checked", "greedy", *targets):
            values = [r[name][key] for r in rounds]
            cell[key] = {"median": statistics.median(values), "min": min(values), "max": max(values)}
        for key, target in targets.items():
            median = cell[key]["median"]
            cell[key]["target"] = target
            cell[key]["met"] = median <= target if key == "check_cost" else median >= target
        out[name] = cell
    chess = [r["chess_steps_per_cpu_second"] for r in rounds]
    out["chess_steps_per_cpu_second"] = {"median": statistics.median(chess), "min": min(chess), "max": max(chess)}
    return out


def table(result: dict[str, Any]) -> str:
    labels = {
        "random_over_chess": "random play, steps/s over python-chess's",
        "greedy_over_random": "greedy play, steps/s over random play's",
        "check_cost": "check cost (unchecked rate / every-invariant-checked rate)",
    }
    lines = ["| measure (medians of the rounds, ranges in brackets) | Mechanica | Bot Factory |", "|---|---|---|"]
    for key in ("random", "checked", "greedy"):
        row = [f"{key} play, steps per CPU second" if key != "checked" else "checked play, steps per CPU second"]
        for name in ("mechanica", "botfactory"):
            c = result[name][key]
            row.append(f"{c['median']:,.0f} [{c['min']:,.0f}-{c['max']:,.0f}]")
        lines.append("| " + " | ".join(row) + " |")
    for key, label in labels.items():
        row = [label]
        for name in ("mechanica", "botfactory"):
            c = result[name][key]
            sign = "<=" if key == "check_cost" else ">="
            verdict = "met" if c["met"] else "not met"
            d = 3 if key == "greedy_over_random" else 2
            figure = f"{c['median']:.{d}f}x [{c['min']:.{d}f}-{c['max']:.{d}f}]"
            row.append(f"{figure} (target {sign} {c['target']}: {verdict})")
        lines.append("| " + " | ".join(row) + " |")
    ch = result["chess_steps_per_cpu_second"]
    chess = f"{ch['median']:,.0f} [{ch['min']:,.0f}-{ch['max']:,.0f}]"
    lines.append(f"| python-chess random play, steps per CPU second | {chess} | {chess} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=20, help="random games per game and round (as many checked)")
    parser.add_argument("--greedy-games", type=int, default=3, help="greedy games per game and round")
    parser.add_argument("--chess-games", type=int, default=40)
    parser.add_argument("--json", type=Path, default=None, help="also write the JSON here")
    args = parser.parse_args()
    for name in ("rounds", "games", "greedy_games", "chess_games"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    started = time.perf_counter()
    rounds = [one_round(args) for _ in range(args.rounds)]
    result: dict[str, Any] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "rounds": len(rounds),
        "games": args.games,
        "greedy_games": args.greedy_games,
        "summary": summary(rounds),
        "per_round": rounds,
        "seconds": round(time.perf_counter() - started, 1),
    }
    text = json.dumps(result, indent=2)
    print(text)
    if args.json is not None:
        args.json.write_text(text + "\n", encoding="utf-8")
    print()
    print(table(result["summary"]))


if __name__ == "__main__":
    main()
