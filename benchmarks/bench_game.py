"""Random play of whole 4-player games, against python-chess random play in the same run.

    python -m pip install chess        # only for the comparison; not a dependency of bgrules
    python benchmarks/bench_game.py [--game mechanica|botfactory] [--seconds 10] [--players 4]

Reports steps (actions, chance outcomes included) and whole games per second, unchecked and with every
invariant of the game's specs for that player count checked at every step, and python-chess's
random-play steps per second (legal moves, a random choice, push, game-over test).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time
from pathlib import Path
from typing import Any

from bgrules.core.playout import walk
from bgrules.core.registry import load_game
from bgrules.runners.specfile import default_invariants

ROOT = Path(__file__).resolve().parent.parent


def spec_invariants(name: str, players: int) -> list[tuple[str, Any]]:
    """(kind, predicate) of every state and transition invariant of specs/ for this game and player count on
    its default rules: what ``bgrules simulate`` checks at every step (``default_invariants``)."""
    found = default_invariants(name, players, ROOT / "specs")
    return [(kind, pred) for _id, kind, pred in found if kind in ("state", "transition")]


def chess_random_play(seconds: float) -> dict[str, float] | None:
    try:
        import chess
    except ImportError:
        return None
    rng = random.Random(1)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        board = chess.Board()
        while not board.is_game_over() and board.fullmove_number < 300:
            board.push(rng.choice(list(board.legal_moves)))
            steps += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"chess_steps_per_second": round(steps / elapsed, 1), "chess_games_per_second": round(games / elapsed, 2)}


def random_play(name: str, players: int, seconds: float, check: bool, first_seed: int) -> dict[str, Any]:
    game = load_game(name, players=players)
    preds = spec_invariants(name, players) if check else []
    steps = games = 0
    seed = first_seed
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for before, action, after in walk(game, seed):
            steps += 1
            for kind, pred in preds:
                msg = pred(game, after) if kind == "state" else pred(game, before, action, after)
                if msg:
                    raise AssertionError(f"seed {seed}: {msg}")
        games += 1
        seed += 1
    elapsed = time.perf_counter() - start
    key = "checked" if check else "unchecked"
    return {
        f"steps_per_second_{key}": round(steps / elapsed, 1),
        f"games_per_second_{key}": round(games / elapsed, 2),
        f"mean_steps_per_game_{key}": round(steps / max(games, 1), 1),
        f"invariants_{key}": len(preds),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--game", default="mechanica", choices=["mechanica", "botfactory"])
    args = parser.parse_args()
    result: dict[str, Any] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "players": args.players,
    }
    chess_figures = chess_random_play(args.seconds)
    result.update(chess_figures or {"chess": "not installed (pip install chess)"})
    # fresh seeds for each measurement, so no game is played twice
    result["game"] = args.game
    result.update(random_play(args.game, args.players, args.seconds, False, first_seed=0))
    result.update(random_play(args.game, args.players, args.seconds, True, first_seed=100_000))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
