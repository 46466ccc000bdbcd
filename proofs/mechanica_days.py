"""Mechanica obligations over several workdays and over factory floors.

1. Collisions within k workdays (bgrules.mechanica.smt_days): for a sample factory, can a collision happen
   within k workdays, the layout fixed, with the run's decisions (Route, Fly, Change, ChooseOutput) and the
   player's sales and Fabricate declarations between runs free? A ``violated`` verdict is reported only after
   its decoded action list replays in the sandbox to ``state.collisions > 0``.
2. Movement termination (bgrules.mechanica.smt_loops): can a legal floor of at most K tiles let a bot loop
   (MC-MOVE-LOOP)? A ``violated`` verdict's factory is checked by ``factory_problems`` and ``find_loop``;
   under ``loop = "forbid"`` the install check must refuse the tile that closes the loop.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from bgrules.core.errors import IllegalAction
from bgrules.core.proofs import Budget, Obligation, Outcome
from bgrules.mechanica import smt_days, smt_loops
from bgrules.mechanica.factory import COLS, check_install
from bgrules.mechanica.movement import find_loop
from bgrules.mechanica.notation import parse_factory
from bgrules.mechanica.variant import MechanicaVariant, Rulings, default_variant

DAY_RULES = (
    "MC-MOVE-SRC",
    "MC-MOVE-LOOP",
    "MC-FORK",
    "MC-FLIGHT",
    "MC-COLLIDE",
    "MC-CHARGE",
    "MC-ACT-UPGRADE",
    "MC-ACT-DUPLICATE",
    "MC-ACT-DOWNGRADE",
    "MC-ACT-CHANGE",
    "MC-SELL",
    "MC-FAB",
)
LOOP_RULES = ("MC-MOVE-LOOP", "MC-MOVE-BELT", "MC-MOVE-EDGE", "MC-FORK", "MC-FLIGHT", "MC-PLACE-FIT")

# name -> (notation, k, what it shows)
DAY_SAMPLES: dict[str, tuple[str, int, str]] = {
    "ROOMY-1": (
        """
        hole[D]       | .  .  .  . | truck
        advanced[BP]  | .  .  .  . | big
        hole[B]       | .  .  .  . | truck
        """,
        1,
        "one bot per truck on day 1",
    ),
    "ROOMY-2": (
        """
        hole[D]       | .  .  .  . | truck
        advanced[BP]  | .  .  .  . | big
        hole[B]       | .  .  .  . | truck
        """,
        2,
        "on day 2 the Advanced Fabricator's new bot rides into the Big Truck, which is full unless sold from",
    ),
    "UPGRADER-3": (
        """
        hole          | .    .    .    . | huge
        basic[B]      | UP0  GW0  .    . | huge
        hole          | .    .    .    . | huge
        """,
        3,
        "one bot a day through an Upgrader into a Huge Truck: three days fill it, no collision",
    ),
    "CHANGER-3": (
        """
        hole             | .    .    .    . | truck
        overactive[B]    | FC0  .    .    . | huge
        hole             | .    .    .    . | truck
        """,
        3,
        "a Function Changer waits for two bots, then makes one: within three days the Huge Truck is not overfilled",
    ),
    "DOWNGRADER-2": (
        """
        hole      | .    .    .  . | truck
        basic[P]  | DG0  .    .  . | truck
        hole      | .    .    .  . | truck
        """,
        2,
        "a Downgrader turns a Plus bot into three Basic bots, one to each truck on day 2: no collision yet",
    ),
    "DOWNGRADER-3": (
        """
        hole      | .    .    .  . | truck
        basic[P]  | DG0  .    .  . | truck
        hole      | .    .    .  . | truck
        """,
        3,
        "on day 3 the Downgrader's Basic bot goes to a truck already loaded on day 2 (unless sold from)",
    ),
}


def _witness(found: dict[str, Any]) -> dict[str, Any]:
    """A result as a witness: its detail (with the milliseconds it took) is the report's, not the witness's,
    so the witness is the same on every run."""
    return {k: v for k, v in found.items() if k != "detail"}


def _days_check(text: str, k: int) -> Callable[[Budget], Outcome]:
    def check(budget: Budget) -> Outcome:
        variant = default_variant()
        factory = parse_factory(text, variant)
        result = smt_days.collision_within(factory, variant, k, budget.solver_ms)
        witness = _witness(result.to_json()) if result.actions else None
        return Outcome(result.verdict, result.detail, witness, 1 if result.verdict == "holds" else 0)

    return check


DAYS_CONFORMANCE_SEED = 20_250_101
DAYS_CONFORMANCE_FACTORIES = 30
"""Factories of the --thorough conformance (the budget before issue 10)."""
DAYS_DEFAULT_FACTORIES = 10
DAYS_CONFORMANCE_K = 3
DAYS_ASSIGNMENTS = 3


def _days_conformance(budget: Budget) -> Outcome:
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location("_mc_collision", Path(__file__).with_name("mechanica_collision.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    variant = default_variant()
    planned_n = budget.size(DAYS_DEFAULT_FACTORIES, DAYS_CONFORMANCE_FACTORIES)
    stop = budget.stop()
    problems: list[str] = []
    runs = factories = encoded = 0
    for i in range(planned_n):
        if stop():
            break
        factories += 1
        rng = random.Random(DAYS_CONFORMANCE_SEED + i)
        factory = module.seeded_factory(rng, variant)
        try:
            enc = smt_days.encode_days(factory, variant, DAYS_CONFORMANCE_K)
        except smt_days.OutOfScope:
            continue
        encoded += 1
        for _ in range(DAYS_ASSIGNMENTS):
            if stop():
                break
            runs += 1
            bad = smt_days.conformance_mismatch(enc, rng, budget.solver_ms)
            if bad is not None and len(problems) < 3:
                problems.append(f"factory {i}: {bad}")
    summary = f"{factories} seeded factories ({encoded} in scope), {runs} sampled {DAYS_CONFORMANCE_K}-day assignments"
    planned = _days_planned(planned_n)
    guarantee = f"sampled: {planned}: {summary} compared" + (budget.stopped(planned) if stop.hit else "")
    if problems:
        return Outcome("violated", f"z3 and the sandbox disagree: {summary}", problems)
    return Outcome("holds", f"z3 and the sandbox agree: {summary}", None, runs, guarantee)


def _days_planned(factories: int) -> str:
    return (
        f"{factories} seeded factories (random.Random({DAYS_CONFORMANCE_SEED} + i)), {DAYS_ASSIGNMENTS} "
        f"assignments of {DAYS_CONFORMANCE_K} days each"
    )


# --- loops ---------------------------------------------------------------------------------------------


def _loop_check(max_tiles: int, kinds: tuple[str, ...] | None) -> Callable[[Budget], Outcome]:
    def check(budget: Budget) -> Outcome:
        result = smt_loops.loop_search(default_variant(), max_tiles, kinds, budget.solver_ms)
        witness = _witness(result.to_json()) if result.factory is not None else None
        return Outcome(result.verdict, result.detail, witness, 1 if result.verdict == "holds" else 0)

    return check


def _forbid_refuses(budget: Budget) -> Outcome:
    """The counterexample of three Gift Wrappers: under ``loop = "forbid"`` the install check refuses a tile
    that closes the loop (one whose removal leaves a loop-free floor), and the default accepts it."""
    default = default_variant()
    forbid = MechanicaVariant(rulings=Rulings(loop="forbid"))
    found = smt_loops.loop_search(default, 3, ("gift_wrapper",), budget.solver_ms)
    if found.verdict != "violated" or found.factory is None:
        return Outcome("unknown", f"no counterexample to check: {found.detail}")
    factory = found.factory
    for i in reversed(range(len(factory.floor))):
        placed = factory.floor[i]
        if placed is None:
            continue
        r, c = divmod(i, COLS)
        before = factory.with_cell(r, c, None)
        if find_loop(before, default) is not None:
            continue
        check_install(before, default, placed.kind, r, c, placed.rotation)  # the default reading accepts it
        try:
            check_install(before, forbid, placed.kind, r, c, placed.rotation)
        except IllegalAction as exc:
            if exc.rule_id == "MC-MOVE-LOOP":
                return Outcome(
                    "holds",
                    f"check_install refuses {placed.kind} at ({r}, {c}) turned {placed.rotation}: {exc}",
                    _witness(found.to_json()),
                    checked=1,
                )
            return Outcome("unknown", f"refused for another reason: {exc}", _witness(found.to_json()))
        return Outcome(
            "violated", f"check_install accepts the loop-closing tile at ({r}, {c})", _witness(found.to_json())
        )
    return Outcome("unknown", "no tile of the counterexample closes the loop alone", _witness(found.to_json()))


def obligations() -> list[Obligation]:
    out = [
        Obligation(
            f"MC-PROOF-DAYS-{name}",
            f"no collision within {k} workday(s) ({what})",
            DAY_RULES,
            f"bounded k={k} workdays, per factory: layout fixed, all run decisions, sales and Fabricate declarations",
            _days_check(text, k),
        )
        for name, (text, k, what) in DAY_SAMPLES.items()
    ]
    out.append(
        Obligation(
            "MC-PROOF-DAYS-CONFORMANCE",
            "the k-workday encoding and the sandbox agree on each day's collision and the board after each run "
            "and its sales, for sampled assignments of every free variable",
            DAY_RULES,
            f"sampled: {_days_planned(DAYS_DEFAULT_FACTORIES)} (--thorough: {DAYS_CONFORMANCE_FACTORIES} "
            "factories); the report gives the assignments compared",
            _days_conformance,
        )
    )
    no_flight = tuple(k for k in smt_loops.floor_kinds(default_variant()) if k != "flight_tester")
    loops: list[tuple[str, int, tuple[str, ...] | None, str]] = [
        ("K1", 1, None, "any floor kinds"),
        ("K2", 2, None, "any floor kinds (two Flight Testers throwing at each other loop)"),
        ("K2-NO-FLIGHT", 2, no_flight, "every floor kind but the Flight Tester"),
        ("GW-K2", 2, ("gift_wrapper",), "Gift Wrappers only"),
        ("GW-K3", 3, ("gift_wrapper",), "Gift Wrappers only (three can loop)"),
    ]
    for name, k, kinds, what in loops:
        out.append(
            Obligation(
                f"MC-PROOF-LOOP-{name}",
                f"no legal floor of at most {k} tile(s) lets a bot loop ({what})",
                LOOP_RULES,
                f"all floors of at most {k} tiles, published jigsaw fit, copies limits, cycles of every length",
                _loop_check(k, kinds),
            )
        )
    out.append(
        Obligation(
            "MC-PROOF-LOOP-FORBID-REFUSES",
            'under loop = "forbid" the install check refuses the tile that closes the Gift Wrapper loop',
            ("MC-MOVE-LOOP", "MC-PLACE-FIT"),
            "per factory: the decoded counterexample of MC-PROOF-LOOP-GW-K3",
            _forbid_refuses,
        )
    )
    return out
