"""Mechanica collision obligations: "no two bots reach the same hole in one workday", per sample factory,
checked by the z3 encoding of the workday's movement (bgrules.mechanica.smt) over every Fork exit and
every Flight Tester landing; and the encoding's conformance with the Python run on seeded random factories.

A ``violated`` verdict carries the witness (the holes bots left, the decisions in the order the Python
run asks them, the overflowing bin) and is only reported after the witness has been replayed through
``workday.decide`` to an actual collision; a witness that does not replay is ``unknown``, never a verdict.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

from bgrules.core.proofs import Budget, Obligation, Outcome
from bgrules.mechanica import smt, smt_conformance
from bgrules.mechanica.components import Bot, Zone
from bgrules.mechanica.factory import (
    COLS,
    ROWS,
    Factory,
    Placed,
    StartSlot,
    Truck,
    empty_factory,
    factory_problems,
    legal_placements,
    new_placed,
)
from bgrules.mechanica.notation import format_factory, parse_factory
from bgrules.mechanica.variant import MechanicaVariant, Rulings, default_variant

STATEMENT = "no two bots reach the same hole in one workday"
GUARANTEE = "per factory: one workday, all fork and flight choices"
RULES = (
    "MC-MOVE-SRC",
    "MC-MOVE-BELT",
    "MC-MOVE-EDGE",
    "MC-MOVE-OFF",
    "MC-MOVE-LOOP",
    "MC-FORK",
    "MC-FLIGHT",
    "MC-MOVE-STOP",
    "MC-COLLIDE",
)

# name -> (notation, flight ruling, what the factory shows)
SAMPLES: dict[str, tuple[str, str, str]] = {
    "PRELOADED": (
        """
        hole[B]  | .  .  .  . | truck
        basic[B] | .  .  .  . | truck
        hole[B]  | .  .  .  . | truck[B]
        """,
        "flat_side",
        "a bot rides row 2 onto a truck already full: collides whatever the choices",
    ),
    "TWIN": (
        """
        hole          | .  .  .  . | truck
        advanced[BP]  | .  .  .  . | truck
        hole          | .  .  .  . | big
        """,
        "flat_side",
        "the Advanced Fabricator's two bots ride row 1 into a one-bot truck",
    ),
    "FORK-MERGE": (
        """
        hole[B]  | .  .    .  . | truck
        basic[P] | .  FK0  .  . | truck
        hole     | .  .    .  . | truck
        """,
        "flat_side",
        "a Fork may send the row-1 bot north onto row 0's truck",
    ),
    "FLIGHT-ROW0": (
        """
        hole[B]  | .  .    .  . | truck
        basic[B] | .  .    .  . | big
        hole[B]  | .  FT3  .  . | truck
        """,
        "flat_side",
        "a Flight Tester may throw the row-2 bot onto row 0, whose truck is taken",
    ),
    "FLIGHT-BOTH-WAYS": (
        """
        hole[B]  | .  .    .  . | truck
        basic[B] | .  FT1  .  . | truck
        hole     | .  .    .  . | truck
        """,
        "both_ways",
        "thrown both ways, the Flight Tester may land its bot on row 0 (toward its flat side only it may not)",
    ),
    "FORK-MAZE": (
        """
        overactive[B] | FK3       FK2  GW1       FK2      | big
        basic[P]      | SC0[/BB]  FK1  FK1       GW0      | huge
        hole[D]       | FT3       FK2  DU1[/BB]  DU0[/DP] | huge[P]
        """,
        "flat_side",
        "eleven launched bots through seven Forks and a Flight Tester",
    ),
    "ROOMY": (
        """
        hole[D]       | .  .  .  . | truck
        advanced[BP]  | .  .  .  . | big
        hole[B]       | .  .  .  . | truck
        """,
        "flat_side",
        "one bot per truck, two on the Big Truck",
    ),
    "FORK-SPLIT": (
        """
        hole[B]  | .  .    .  . | big
        basic[P] | .  FK0  .  . | truck
        hole[D]  | .  .    .  . | truck
        """,
        "flat_side",
        "a Fork splits row 1 between its own truck and row 0's Big Truck: either way there is room",
    ),
    "FLIGHT-FLAT-SIDE": (
        """
        hole[B]  | .  .    .  . | truck
        basic[B] | .  FT1  .  . | truck
        hole     | .  .    .  . | truck
        """,
        "flat_side",
        "the same Flight Tester thrown toward its flat side only lands its bot on the free row 2",
    ),
    "FLIGHT-LOOP": (
        """
        hole[B] | .  FT1  .  . | truck
        basic   | .  FT3  .  . | truck
        hole    | .  .    .  . | truck
        """,
        "flat_side",
        "two Flight Testers throwing at each other: a loop destroys the bot, or it lands on row 2",
    ),
    "HUGE-TRUCKS": (
        """
        advanced[BB] | FT1  FT2  DU2[/PD]  .   | huge
        basic[B]     | GW0  .    .         FT2 | huge[BD]
        hole[D]      | FT3  .    .         FK0 | huge[BP]
        """,
        "flat_side",
        "six bots, four Flight Testers and a Fork, Huge Trucks with room for all",
    ),
}


def _variant(flight: str) -> MechanicaVariant:
    return default_variant() if flight == "flat_side" else MechanicaVariant(rulings=Rulings(flight="both_ways"))


def _collision_check(text: str, flight: str) -> Callable[[Budget], Outcome]:
    def check(budget: Budget) -> Outcome:
        variant = _variant(flight)
        factory = parse_factory(text, variant)
        result = smt.collision_query(factory, variant, budget.solver_ms)
        if result.verdict != "violated" or result.witness is None:
            proved = 1 if result.verdict == "holds" else 0
            return Outcome(result.verdict, f"{result.detail} [{result.seconds * 1000:.1f} ms]", checked=proved)
        run = smt_conformance.replay(factory, variant, result.witness.decisions)
        if run.collisions == 0:
            return Outcome(
                "unknown",
                f"z3 found {result.detail}, but the Python run with its decisions does not collide",
                result.witness.to_json(),
            )
        return Outcome(
            "violated",
            f"{result.detail}; replayed in the Python run: {run.collisions} collision(s) "
            f"[{result.seconds * 1000:.1f} ms]",
            result.witness.to_json(),
        )

    return check


# --- conformance on seeded random factories --------------------------------------------------------------

CONFORMANCE_FACTORIES = 100
"""Factories of the --thorough conformance (the budget before issue 10)."""
DEFAULT_FACTORIES = 30
CONFORMANCE_SEED = 20_240_611
_EXHAUSTIVE = 32
"""Factories with at most this many assignments of the choice variables are checked for all of them."""
_SAMPLED = 8


def _table_chooser(table: dict[tuple[int, int], int]) -> smt_conformance.Chooser:
    return lambda b, t, n: table.get((b, t), 0) % n


def _choosers(enc: smt.MovementEncoding, rng: random.Random) -> list[smt_conformance.Chooser]:
    keys = sorted(enc.choices)
    ranges = [range(enc.domains[k]) for k in keys]
    total = 1
    for r in ranges:
        total *= len(r)
    if total <= _EXHAUSTIVE:
        tables = [dict(zip(keys, v, strict=True)) for v in itertools.product(*ranges)]
    else:
        tables = [{k: 0 for k in keys}, {k: enc.domains[k] - 1 for k in keys}]
        tables += [{k: rng.randrange(enc.domains[k]) for k in keys} for _ in range(_SAMPLED - 2)]
    return [_table_chooser(table) for table in tables]


KIND_WEIGHTS = {
    "fork": 4,
    "flight_tester": 3,
    "gift_wrapper": 1,
    "static_charger": 1,
    "upgrader": 1,
    "duplicator": 1,
    "downgrader": 1,
    "function_changer": 1,
}


def seeded_factory(rng: random.Random, variant: MechanicaVariant) -> Factory:
    """A legal factory drawn with ``rng``: 2-12 floor tiles laid where the placement rules allow (Forks and
    Flight Testers favoured), fabricators, trucks, and bots in most holes."""
    cat = variant.catalogue
    kinds = [k for k in KIND_WEIGHTS if k in cat.tiles]
    factory = empty_factory()
    for _ in range(rng.randint(2, 12)):
        key = rng.choices(kinds, [KIND_WEIGHTS[k] for k in kinds])[0]
        spots = legal_placements(factory, variant, key)
        if spots:
            r, c, rot = rng.choice(spots)
            factory = factory.with_cell(r, c, new_placed(cat.tiles[key], rot))
    bots = list(Bot)

    def some() -> Bot | None:
        return rng.choice(bots) if rng.random() < 0.7 else None

    starts = [k for k in cat.of_zone(Zone.START) if not k.printed]
    for r in range(ROWS):
        if starts and rng.random() < 0.5:
            kind = rng.choice(starts)
            factory = factory.with_start(r, StartSlot(kind.key, tuple(some() for _ in kind.outputs)))
        else:
            slot = factory.start[r]
            factory = factory.with_start(r, StartSlot(slot.kind, tuple(some() for _ in slot.holes)))
    trucks = list(cat.of_zone(Zone.DOCK))
    for r in range(ROWS):
        kind = rng.choice(trucks)
        factory = factory.with_truck(
            r, Truck(kind.key, tuple(rng.choice(bots) for _ in range(rng.randint(0, kind.capacity))))
        )
    for i, p in enumerate(factory.floor):
        if p is not None:
            n_in = rng.randint(0, max(0, cat.tile(p.kind).inputs - 1))
            placed = Placed(
                p.kind, p.rotation, tuple(rng.choice(bots) for _ in range(n_in)), tuple(some() for _ in p.outputs)
            )
            factory = factory.with_cell(*divmod(i, COLS), placed)
    return factory


def _conformance(budget: Budget) -> Outcome:
    planned_n = budget.size(DEFAULT_FACTORIES, CONFORMANCE_FACTORIES)
    stop = budget.stop()
    problems: list[str] = []
    seen = {"factories": 0, "runs": 0, "choices": 0}
    variants = (default_variant(), MechanicaVariant(rulings=Rulings(flight="both_ways")))
    for i in range(planned_n):
        if stop():
            break
        rng = random.Random(CONFORMANCE_SEED + i)
        variant = variants[i % 2]
        factory = seeded_factory(rng, variant)
        bad = factory_problems(factory, variant)
        if bad:
            return Outcome("unknown", f"seeded factory {i} is not legal: {bad[0]}")
        seen["factories"] += 1
        enc = smt.encode_workday(factory, variant)
        solver = smt.evaluator(enc)
        seen["choices"] += len(enc.choices)
        for chooser in _choosers(enc, rng):
            if stop():
                break
            seen["runs"] += 1
            mismatch = smt_conformance.conformance_mismatch(factory, variant, chooser, enc, budget.solver_ms, solver)
            if mismatch is not None and len(problems) < 5:
                problems.append(f"factory {i}: {mismatch}\n{format_factory(factory, variant)}")
    summary = (
        f"{seen['factories']} seeded random factories ({seen['choices']} choice variables), "
        f"{seen['runs']} choice assignments"
    )
    planned = _planned(planned_n)
    guarantee = f"sampled: {planned}: {summary} compared" + (budget.stopped(planned) if stop.hit else "")
    if problems:
        return Outcome("violated", f"z3 and the Python run disagree: {summary}", problems)
    return Outcome("holds", f"z3 and the Python run agree: {summary}", None, seen["runs"], guarantee)


def _planned(factories: int) -> str:
    return (
        f"{factories} seeded random factories (random.Random({CONFORMANCE_SEED} + i)), every choice assignment "
        f"up to {_EXHAUSTIVE} a factory, else {_SAMPLED} sampled"
    )


def obligations() -> list[Obligation]:
    out = [
        Obligation(
            f"MC-PROOF-COLLIDE-{name}",
            f"{STATEMENT} ({what}; flight ruling {flight})",
            RULES,
            GUARANTEE,
            _collision_check(text, flight),
        )
        for name, (text, flight, what) in SAMPLES.items()
    ]
    out.append(
        Obligation(
            "MC-PROOF-SMT-CONFORMANCE",
            "the z3 encoding of a workday's movement and the Python run agree on every bot's final bin or "
            "destruction, the decisions asked, the coins paid, and whether a bin overflows",
            (*RULES, "MC-GIFT", "MC-FLIGHT-JUMP"),
            f"sampled: {_planned(DEFAULT_FACTORIES)} (--thorough: {CONFORMANCE_FACTORIES} factories); the report "
            "gives the assignments compared",
            _conformance,
        )
    )
    return out
