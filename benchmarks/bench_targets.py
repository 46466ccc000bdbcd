"""Issue 12's speed targets in one run: random, checked and greedy play of both games beside python-chess.

    python -m pip install chess        # only for the comparison; not a dependency of bgrules
    python benchmarks/bench_targets.py [--seconds 6] [--blocks 6] [--json OUT.json]

Seven kinds of play run **in lockstep** in one process, each an endless sequence of seeded games stepped
one action at a time: python-chess random play; for Mechanica and for Bot Factory (4 players, default
readings) random play from seed 0, random play from seed 100000 with every state and transition invariant
of specs/<game>.toml for 4 players checked at every step (the loop of bench_cpu.py), and greedy play in
every seat from seed 0 (Bot Factory under the agents' benchmark cap of 100 rounds, as
``bench_agents.py --only speed``). The kind with the least CPU time so far (``time.process_time``) runs
next, for a slice of about 5 ms, so all seven meet the machine's noise alike (on a shared machine the
rate of one run alone moves by 2x from one second to the next). After a warm-up second per kind (not
kept), the run is cut into ``--blocks`` blocks of ``--seconds`` CPU seconds per kind; each ratio is taken
within a block, and the medians and ranges over the blocks are reported beside the targets:

- Mechanica random play >= 2.0x python-chess steps/s, Bot Factory >= 3.0x;
- greedy play >= 0.5x random play's steps/s (of the same game);
- checking every invariant at every step costs at most 1.5x (unchecked rate / checked rate).

Beside the timed run, untimed, the first ``--count-games`` greedy games of each game are played once more
with the game's ``apply`` counted: how many states greedy play builds per step of the game (its look-ahead's
successors, chance outcomes and second steps, plus the step itself) and how many legal actions its decisions
had. ``greedy_per_apply_over_random`` = greedy_over_random x applies per step: the rate of greedy play per
state it builds, over random play's rate per step (1.0 = each look-ahead state costs as much as a whole random
step; greedy_over_random cannot exceed 1 / applies per step unless one look-ahead state costs less than a
random step).

``--gc runners`` runs the whole process (python-chess too) under the collector setting of bgrules' own
processes (``bgrules.core.gcpolicy.RUNNERS``: what ``bgrules`` commands and campaign workers run with);
the default, ``--gc python``, keeps Python's default (what a program that imports bgrules gets).

Prints one JSON object, then a Markdown table (the README's).
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_game import spec_invariants

from bgrules.agents import make_agent
from bgrules.core import gcpolicy
from bgrules.core.playout import walk
from bgrules.core.registry import load_game

TARGETS = {
    "mechanica": {"random_over_chess": 2.0, "greedy_over_random": 0.5, "check_cost": 1.5},
    "botfactory": {"random_over_chess": 3.0, "greedy_over_random": 0.5, "check_cost": 1.5},
}
GREEDY_ROUNDS = {"botfactory": 100, "mechanica": None}
"""The runner's round cap for greedy games (bench_agents.py's ``--rounds`` default for Bot Factory)."""


def chess_steps() -> Iterator[None]:
    """python-chess random play (legal moves, a random choice, push, game-over test), one step a yield."""
    import chess

    rng = random.Random(1)
    while True:
        board = chess.Board()
        while not board.is_game_over() and board.fullmove_number < 300:
            board.push(rng.choice(list(board.legal_moves)))
            yield


def game_steps(name: str, mode: str) -> Iterator[None]:
    """Seeded 4-player games of ``name``, one step a yield: ``random``, ``checked`` (every state and
    transition invariant of the specs at every step, fresh seeds from 100000) or ``greedy``."""
    game = load_game(name, players=4)
    preds = spec_invariants(name, 4) if mode == "checked" else []
    agents = [make_agent("greedy") for _ in range(4)] if mode == "greedy" else None
    rounds = GREEDY_ROUNDS[name] if mode == "greedy" else None
    seed = 100_000 if mode == "checked" else 0
    while True:
        for before, action, after in walk(game, seed, agents=agents, max_rounds=rounds):
            for kind, pred in preds:
                msg = pred(game, after) if kind == "state" else pred(game, before, action, after)
                if msg:
                    raise AssertionError(f"{name} seed {seed}: {msg}")
            yield
        seed += 1


def greedy_load(name: str, games: int) -> dict[str, Any]:
    """Untimed: greedy play's seeds 0..games-1 of ``name`` (as the timed kind plays them) with ``apply``
    counted. Returns the steps, the applies (the walk's own and the look-ahead's), the player decisions
    with more than one legal action and their legal actions in all."""
    game = load_game(name, players=4)
    plain = game.apply
    calls = [0]

    def counted(state: Any, action: Any) -> Any:
        calls[0] += 1
        return plain(state, action)

    game.apply = counted  # type: ignore[method-assign]  # this instance only, for the count
    agents = [make_agent("greedy") for _ in range(4)]
    steps = decisions = legal_total = 0
    for seed in range(games):
        for before, _action, _after in walk(game, seed, agents=agents, max_rounds=GREEDY_ROUNDS[name]):
            steps += 1
            if isinstance(game.to_move(before), int):
                n = len(game.legal_actions(before))
                if n > 1:
                    decisions += 1
                    legal_total += n
    return {
        "games": games,
        "steps": steps,
        "applies": calls[0],
        "applies_per_step": round(calls[0] / steps, 2),
        "decisions": decisions,
        "legal_actions_per_decision": round(legal_total / max(1, decisions), 1),
    }


KINDS = ("chess", *(f"{g} {m}" for g in ("mechanica", "botfactory") for m in ("random", "checked", "greedy")))
SLICE = 0.005
"""CPU seconds a kind runs before the scheduler looks again."""


def lockstep(seconds: float, blocks: int) -> list[dict[str, Any]]:
    """Per block, each kind's steps and CPU seconds (about ``seconds`` each)."""
    clock = time.process_time
    gens: dict[str, Iterator[None]] = {"chess": chess_steps()}
    for kind in KINDS[1:]:
        name, mode = kind.split()
        gens[kind] = game_steps(name, mode)
    out = []
    for block in range(-1, blocks):  # block -1 warms up (imports, first games, memos) and is not kept
        steps = dict.fromkeys(KINDS, 0)
        used = dict.fromkeys(KINDS, 0.0)
        while min(used.values()) < (min(seconds, 1.0) if block < 0 else seconds):
            kind = min(KINDS, key=lambda k: used[k])
            gen, n = gens[kind], 0
            start = clock()
            stop = start + SLICE
            now = start
            while now < stop:
                next(gen)
                n += 1
                now = clock()
            steps[kind] += n
            used[kind] += now - start
        if block < 0:
            continue
        out.append({k: {"steps": steps[k], "cpu_seconds": round(used[k], 4)} for k in KINDS})
        print(f"block: { {k: round(steps[k] / used[k]) for k in KINDS} }", file=sys.stderr, flush=True)
    return out


def ratios(block: dict[str, Any]) -> dict[str, Any]:
    rate = {k: v["steps"] / v["cpu_seconds"] for k, v in block.items()}
    out: dict[str, Any] = {"chess_steps_per_cpu_second": round(rate["chess"], 1)}
    for name in ("mechanica", "botfactory"):
        unchecked, checked, greedy = (rate[f"{name} {m}"] for m in ("random", "checked", "greedy"))
        out[name] = {
            "random": round(unchecked, 1),
            "checked": round(checked, 1),
            "greedy": round(greedy, 1),
            "random_over_chess": round(unchecked / rate["chess"], 3),
            "check_cost": round(unchecked / checked, 3),
            "greedy_over_random": round(greedy / unchecked, 4),
        }
    return out


def summary(rounds: list[dict[str, Any]], load: dict[str, dict[str, Any]]) -> dict[str, Any]:
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
        per_step = load[name]["applies_per_step"]
        cell["greedy_load"] = load[name]
        cell["greedy_per_apply_over_random"] = {
            k: round(v * per_step, 3) for k, v in cell["greedy_over_random"].items() if k in ("median", "min", "max")
        }
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
    lines = ["| measure (medians of the blocks, ranges in brackets) | Mechanica | Bot Factory |", "|---|---|---|"]
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
    for label, key in (
        ("greedy play: states built per step (untimed count: look-ahead + the step)", "applies_per_step"),
        ("greedy play: legal actions per decision (decisions with a choice)", "legal_actions_per_decision"),
    ):
        loads = [result[name]["greedy_load"] for name in ("mechanica", "botfactory")]
        lines.append(f"| {label} | " + " | ".join(f"{g[key]:,} ({g['games']} games)" for g in loads) + " |")
    row = ["greedy play per state built, over random play per step"]
    for name in ("mechanica", "botfactory"):
        c = result[name]["greedy_per_apply_over_random"]
        row.append(f"{c['median']:.2f}x [{c['min']:.2f}-{c['max']:.2f}]")
    lines.append("| " + " | ".join(row) + " |")
    ch = result["chess_steps_per_cpu_second"]
    chess = f"{ch['median']:,.0f} [{ch['min']:,.0f}-{ch['max']:,.0f}]"
    lines.append(f"| python-chess random play, steps per CPU second | {chess} | {chess} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="CPU seconds per kind and block")
    parser.add_argument("--blocks", type=int, default=6)
    parser.add_argument("--json", type=Path, default=None, help="also write the JSON here")
    parser.add_argument("--count-games", type=int, default=2, help="greedy games per game counted (untimed)")
    parser.add_argument(
        "--gc", choices=["python", "runners"], default="python", help="the collector setting of the whole run"
    )
    args = parser.parse_args()
    if args.blocks < 1 or not args.seconds > 0 or args.count_games < 1:
        parser.error("--blocks and --count-games must be at least 1 and --seconds above 0")
    if args.gc == "runners" and not gcpolicy.for_runners():
        parser.error("--gc runners: this Python's collector thresholds are not its default (or BGRULES_GC=python)")
    started = time.perf_counter()
    blocks = lockstep(args.seconds, args.blocks)
    rounds = [ratios(b) for b in blocks]
    load = {name: greedy_load(name, args.count_games) for name in TARGETS}
    result: dict[str, Any] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "gc": {"setting": args.gc, "thresholds": list(gc.get_threshold())},
        "blocks": len(blocks),
        "seconds_per_kind_and_block": args.seconds,
        "summary": summary(rounds, load),
        "per_block": rounds,
        "raw": blocks,
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
