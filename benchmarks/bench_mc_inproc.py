"""Mechanica unchecked random play, an old commit's ``bgrules`` against the working tree's, interleaved in
ONE process, step by step: a shared machine's load then falls on both sides alike, far more evenly than
across processes.

    python benchmarks/bench_mc_inproc.py --old REV [--new REV] [--rounds 8] [--games 20] [--players 4]
                                                    [--game mechanica|botfactory] [--check | --greedy]

The old commit's package is exported (``git archive``) and renamed ``bgrules_old`` (its imports rewritten),
so both import side by side. Each round plays seeds 0..games-1 (4-player uniform random play, ``walk``) on a
new game object of each side, the two sides in lockstep (one step of one, then one of the other, the
first side swapping every step), each step timed on its own in CPU seconds, with the cyclic garbage
collector off during a game (collected between games), and the module-level memos of both emptied at each
round's start (as in a fresh process, the figure ``bench_cpu.py`` measures). Prints per side the median
and range of the steps per CPU second, and the median of the per-round ratios new / old. The step counts
of the two sides must agree (the same seeds give the same games). ``--check`` times the checked loop
instead: each side checks every state and transition invariant of specs/<game>.toml (its own predicates,
``default_invariants``, as ``bgrules simulate`` does) at every step; a violation stops the run. ``--greedy``
times greedy play instead (each side's own ``greedy`` agent in every seat; Bot Factory under the agents'
benchmark cap of 100 rounds, as bench_targets.py).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_ab import export_as

MEMOS = {
    "mechanica.factory": ("_PLACEMENTS", "_ROTATIONS", "_CELL_PLACEMENTS"),
    "mechanica.movement": ("_TABLES", "_SHARED_STEPS"),
    "mechanica.workday": ("_ROUTES", "_RUN_COPIES"),
    "mechanica.run": ("_RUN_COPIES",),
    "mechanica.board": ("_INSTALLED_VALUE", "_ENTRIES", "_NEW_PLACED"),
    "mechanica.shop": ("_RECYCLE_ACTIONS", "_FRACTIONS"),
    "core.playout": ("_CUMULATIVE", "_CUMULATIVE_OF", "_SUMS_TO_ONE", "_SUMS_TO_ONE_OF"),
}
"""The module-level memos and shared pools emptied at each round's start (as in a fresh process), besides the
game's own memos; a name a side does not have (a newer or an older commit), or a module it does not have, is
skipped."""


ROOT = Path(__file__).resolve().parent.parent


def _module(name: str) -> Any:
    """The module ``name``, or None when this side has no such module."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError:
        return None


def side(package: str, check: bool, game: str, players: int, greedy: bool = False) -> tuple[Any, Any, list[ModuleType]]:
    walk = importlib.import_module(f"{package}.core.playout").walk
    if greedy:
        walk = with_agents(walk, importlib.import_module(f"{package}.agents").make_agent, players, game)
    load_game = importlib.import_module(f"{package}.core.registry").load_game
    mods = [_module(f"{package}.{m}") for m in MEMOS]
    if check:
        specs = _module(f"{package}.runners.specfile") or importlib.import_module(
            f"{package}.core.specs"
        )  # older sides
        found = specs.default_invariants(game, players, ROOT / "specs")
        # the specs name the predicates in ``bgrules``: each side takes its own package's
        preds = [(kind, mine(pred, package)) for _id, kind, pred in found if kind in ("state", "transition")]
        walk = checked(walk, preds)
    return walk, load_game, mods


def mine(pred: Any, package: str) -> Any:
    """The predicate of the same name in ``package`` (its module's ``bgrules`` prefix replaced)."""
    module = importlib.import_module(package + pred.__module__.removeprefix("bgrules"))
    return getattr(module, pred.__name__)


def with_agents(walk: Any, make_agent: Any, players: int, game: str) -> Any:
    """``walk`` with a fresh greedy agent in every seat (per game), Bot Factory capped at 100 rounds."""
    rounds = 100 if game == "botfactory" else None

    def run(g: Any, seed: int) -> Any:
        yield from walk(g, seed, agents=[make_agent("greedy") for _ in range(players)], max_rounds=rounds)

    return run


def checked(walk: Any, preds: list[tuple[str, Any]]) -> Any:
    """``walk`` with every predicate asked at every step (the checked loop of bench_cpu.py)."""

    def run(game: Any, seed: int) -> Any:
        for before, action, after in walk(game, seed):
            for kind, pred in preds:
                msg = pred(game, after) if kind == "state" else pred(game, before, action, after)
                if msg:
                    raise SystemExit(f"seed {seed}: {msg}")
            yield before, action, after

    return run


def fresh(walk: Any, load_game: Any, mods: list[ModuleType], players: int, game: str) -> tuple[Any, Any]:
    """A new game object of one side, with its memos emptied (``game.memos.clear()``, the memos of the data
    it shares with other games too) and, on an older side, that side's module-level memos."""
    for mod, names in zip(mods, MEMOS.values(), strict=True):
        for name in names:
            memo = getattr(mod, name, None) if mod is not None else None
            if memo is not None:
                memo.clear()
    made = load_game(game, players=players)
    memos = getattr(made, "memos", None)
    if memos is not None:
        memos.clear()
    return walk, made


def lockstep(games: dict[str, tuple[Any, Any]], seed: int, flip: bool) -> tuple[dict[str, int], dict[str, float]]:
    """Both sides play ``seed`` step by step, alternating (which side steps first swaps every step and with
    ``flip``), each step timed on its own: a change of the machine's load falls on both sides alike."""
    clock = time.process_time
    walks = {name: iter(walk(game, seed)) for name, (walk, game) in games.items()}
    steps = {name: 0 for name in games}
    secs = {name: 0.0 for name in games}
    order = ["new", "old"] if flip else ["old", "new"]
    live = set(order)
    while live:
        for name in order:
            if name not in live:
                continue
            start = clock()
            try:
                next(walks[name])
            except StopIteration:
                live.discard(name)
                continue
            finally:
                secs[name] += clock() - start
            steps[name] += 1
        order.reverse()
    return steps, secs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--old", default="HEAD")
    parser.add_argument("--new", default=None, help="a commit to compare instead of the working tree")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--game", default="mechanica", choices=["mechanica", "botfactory"])
    parser.add_argument("--check", action="store_true", help="the checked loop (every invariant, every step)")
    parser.add_argument("--greedy", action="store_true", help="greedy play in every seat instead of random play")
    args = parser.parse_args()
    if args.rounds < 1 or args.games < 1 or args.players < 1:
        parser.error("--rounds, --games and --players must each be at least 1 (nothing timed is no figure)")
    with tempfile.TemporaryDirectory() as tmp:
        export_as(args.old, Path(tmp), "bgrules_old")
        if args.new is not None:
            export_as(args.new, Path(tmp), "bgrules_new")
        sys.path.insert(0, tmp)
        new = "bgrules" if args.new is None else "bgrules_new"
        sides = {
            name: side(pkg, args.check, args.game, args.players, args.greedy)
            for name, pkg in (("old", "bgrules_old"), ("new", new))
        }
        rates: dict[str, list[float]] = {"old": [], "new": []}
        ratios = []
        for i in range(args.rounds):
            games = {name: fresh(*sides[name], args.players, args.game) for name in sides}
            steps = {"old": 0, "new": 0}
            secs = {"old": 0.0, "new": 0.0}
            for seed in range(args.games):
                gc.collect()
                gc.disable()  # a collection falls on whichever side allocated last: not in the timed steps
                try:
                    n, t = lockstep(games, seed, (i + seed) % 2 == 1)
                finally:
                    gc.enable()
                for name in sides:
                    steps[name] += n[name]
                    secs[name] += t[name]
            if steps["old"] != steps["new"]:
                raise SystemExit(f"the sides played different games: {steps['old']} and {steps['new']} steps")
            for name in rates:
                rates[name].append(steps[name] / secs[name])
            ratios.append(rates["new"][-1] / rates["old"][-1])
            print(
                f"round {i}: {steps['old']} steps, old {rates['old'][-1]:.0f}/s, new {rates['new'][-1]:.0f}/s",
                flush=True,
            )
    for name, r in rates.items():
        print(f"{name}: median {statistics.median(r):.0f} steps per CPU second (range {min(r):.0f}-{max(r):.0f})")
    print(f"new / old per round: median {statistics.median(ratios):.3f} (range {min(ratios):.3f}-{max(ratios):.3f})")


if __name__ == "__main__":
    main()
