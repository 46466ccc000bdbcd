"""Fixed work timed in CPU seconds (``time.process_time``): a shared machine's load changes wall-clock rates
from one second to the next, much less the CPU time of a fixed set of games.

    python benchmarks/bench_cpu.py [--game mechanica|botfactory] [--games 20] [--chess-games 40]

Plays seeds 0..games-1 of 4-player random play (the games of bench_game.py) unchecked, and as many from
seed 100000 with every state/transition invariant checked (fresh seeds, as bench_game.py does), and
``--chess-games`` seeded python-chess random games, and reports steps per CPU second and the ratios to
python-chess. The same seeds give the same steps on any commit whose behaviour is unchanged, so two
commits compare on identical work.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_game import spec_invariants

from bgrules.core.playout import walk
from bgrules.core.registry import load_game


def chess_cpu(games: int) -> float:
    import chess

    rng = random.Random(1)
    steps = 0
    start = time.process_time()
    for _ in range(games):
        board = chess.Board()
        while not board.is_game_over() and board.fullmove_number < 300:
            board.push(rng.choice(list(board.legal_moves)))
            steps += 1
    return steps / (time.process_time() - start)


def game_cpu(name: str, players: int, games: int, check: bool, first_seed: int) -> tuple[float, int]:
    game = load_game(name, players=players)
    preds = spec_invariants(name, players) if check else []
    steps = 0
    start = time.process_time()
    for seed in range(first_seed, first_seed + games):
        for before, action, after in walk(game, seed):
            steps += 1
            for kind, pred in preds:
                msg = pred(game, after) if kind == "state" else pred(game, before, action, after)
                if msg:
                    raise AssertionError(f"seed {seed}: {msg}")
    return steps / (time.process_time() - start), steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="mechanica", choices=["mechanica", "botfactory"])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--chess-games", type=int, default=40)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    chess_rate = chess_cpu(args.chess_games)
    unchecked, steps = game_cpu(args.game, args.players, args.games, False, 0)
    checked, _ = game_cpu(args.game, args.players, args.games, True, 100_000)
    result: dict[str, Any] = {
        "game": args.game,
        "steps": steps,
        "chess_steps_per_cpu_second": round(chess_rate, 1),
        "steps_per_cpu_second_unchecked": round(unchecked, 1),
        "steps_per_cpu_second_checked": round(checked, 1),
        "ratio_unchecked": round(unchecked / chess_rate, 3),
        "ratio_checked": round(checked / chess_rate, 3),
        "check_cost": round(unchecked / checked, 3),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
