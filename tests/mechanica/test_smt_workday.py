"""The z3 encoding of a workday's movement (bgrules.mechanica.smt) against the Python run (workday.py):
random factories with random Fork / Flight choices must end every bot in the same bin (or destroyed),
ask the same decisions in the same order, pay the same coins and agree on whether a bin overflows.
Hand-made factories pin down collide / never collide / collide for some choice, with witnesses replayed
in Python, and deliberately broken encodings must be caught by the same conformance check."""

from __future__ import annotations

import itertools
import time

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from bgrules.core.errors import IllegalAction
from bgrules.mechanica import smt, smt_conformance
from bgrules.mechanica.components import Dir
from bgrules.mechanica.factory import Factory
from bgrules.mechanica.movement import TRUCK_BIN, options
from bgrules.mechanica.notation import parse_factory
from bgrules.mechanica.run import Fly, Route, RunPhase
from bgrules.mechanica.strategies import factories
from bgrules.mechanica.variant import MechanicaVariant, Rulings, default_variant
from bgrules.mechanica.workday import decide, decisions, start_run

V = default_variant()
BOTH_WAYS = MechanicaVariant(rulings=Rulings(flight="both_ways"))
ANY_CELL = MechanicaVariant(rulings=Rulings(flight_landing="any_cell"))
"""MC-FLIGHT under the reading of 0.7.3: a thrown bot may land on a Fork."""
VARIANTS = (V, BOTH_WAYS, ANY_CELL)


def F(text: str, variant: MechanicaVariant = V) -> Factory:
    return parse_factory(text, variant)


# --- hand-made factories ------------------------------------------------------------------------------

# three Basic bots, one to each row's truck; truck 2 already holds a bot
PRELOADED = """
hole[B]  | .  .  .  . | truck
basic[B] | .  .  .  . | truck
hole[B]  | .  .  .  . | truck[B]
"""

# the Advanced Fabricator's two bots both ride row 1 into a one-bot truck
TWIN = """
hole          | .  .  .  . | truck
advanced[BP]  | .  .  .  . | truck
hole          | .  .  .  . | big
"""

# every bot has room: a Big Truck for the Advanced Fabricator's pair, one bot per other row
ROOMY = """
hole[D]       | .  .  .  . | truck
advanced[BP]  | .  .  .  . | big
hole[B]       | .  .  .  . | truck
"""

# a Fork on row 1: north sends the row-1 bot to truck 0 (already taken by the row-0 bot), east is safe
FORK_SPLIT = """
hole[B]  | .  .    .  . | truck
basic[P] | .  FK0  .  . | truck
hole     | .  .    .  . | truck
"""

# the same Fork with a Big Truck on row 0: both exits are safe
FORK_SAFE = """
hole[B]  | .  .    .  . | big
basic[P] | .  FK0  .  . | truck
hole[D]  | .  .    .  . | truck
"""

# a Flight Tester on row 2 throws north: onto row 1 (a Big Truck, room) or row 0 (taken)
FLIGHT_FORK = """
hole[B]  | .  .    .    . | truck
basic[B] | .  FT0  FK0  . | truck
hole     | .  .    .    . | truck
"""
"""A Flight Tester throwing east with a Fork next to it (MC-FLIGHT: a landing place only under "any_cell")."""

FLIGHT_SPLIT = """
hole[B]  | .  .    .  . | truck
basic[B] | .  .    .  . | big
hole[B]  | .  FT3  .  . | truck
"""

# two Flight Testers throwing at each other: (0,1) south onto (1,1) or (2,1), (1,1) north onto (0,1).
# Landing on (1,1) twice is MC-MOVE-LOOP; a throw over (1,1) onto (2,1) pays a jump coin.
FLIGHT_LOOP = """
hole[B] | .  FT1  .  . | truck
basic   | .  FT3  .  . | truck
hole    | .  .    .  . | truck
"""

# an Upgrader on row 1 holding nothing: the row-1 bot stops in it; a Gift Wrapper on row 0 pays a coin
STOPS = """
hole[B]  | .  GW0  .  . | truck
basic[B] | .  UP0  .  . | truck
hole     | .  .    .  . | truck
"""


def all_choices(factory: Factory, variant: MechanicaVariant, cap: int = 512) -> list[smt_conformance.Chooser]:
    """Choosers covering every assignment of the encoding's choice variables (taken modulo the options
    actually offered), up to ``cap`` of them."""
    enc = smt.encode_workday(factory, variant)
    keys = sorted(enc.choices)
    out: list[smt_conformance.Chooser] = []
    for values in itertools.islice(itertools.product(*(range(enc.domains[k]) for k in keys)), cap):
        out.append(table_chooser(dict(zip(keys, values, strict=True))))
    return out


def table_chooser(table: dict[tuple[int, int], int]) -> smt_conformance.Chooser:
    return lambda b, t, n: table.get((b, t), 0) % n


def play(factory: Factory, variant: MechanicaVariant, moves: list[Route | Fly]):
    """Run the workday taking ``moves`` in order as the movement decisions (first legal one otherwise)."""
    return smt_conformance.replay(factory, variant, tuple(moves))


# --- the collision query on hand-made factories --------------------------------------------------------


@pytest.mark.parametrize("text", [PRELOADED, TWIN], ids=["preloaded", "twin"])
def test_must_collide(text: str) -> None:
    f = F(text)
    result = smt.collision_query(f, V)
    assert result.verdict == "violated", result
    assert result.witness is not None
    assert result.witness.decisions == ()
    (over,) = result.witness.overflows
    assert over.col == 4 and over.count == over.capacity + 1
    run = play(f, V, [])
    assert run.collisions > 0
    # and for every choice (there are none): the Python run collides
    for chooser in all_choices(f, V):
        assert smt_conformance.python_movement(f, V, chooser).collisions > 0


@pytest.mark.parametrize("text", [ROOMY, FORK_SAFE, STOPS, FLIGHT_LOOP], ids=["roomy", "fork-safe", "stops", "loop"])
def test_must_not_collide(text: str) -> None:
    f = F(text)
    result = smt.collision_query(f, V)
    assert result.verdict == "holds", result
    assert result.witness is None
    for chooser in all_choices(f, V):
        assert smt_conformance.python_movement(f, V, chooser).collisions == 0


def test_fork_collides_only_going_north() -> None:
    f = F(FORK_SPLIT)
    result = smt.collision_query(f, V)
    assert result.verdict == "violated"
    assert result.witness is not None
    assert result.witness.decisions == (Route(1, 1, Dir.N),)
    assert [o.describe() for o in result.witness.overflows] == ["truck 0 holds 2 bot(s) (0 already there), capacity 1"]
    assert result.witness.finals == (TRUCK_BIN + 0, TRUCK_BIN + 0)
    assert [s.describe() for s in result.witness.sources] == [
        "Start Zone row 0 hole 0 (B)",
        "Start Zone row 1 hole 0 (P)",
    ]
    # the witness replays in the Python run through decide() to an actual collision ...
    run = start_run(f, (24, 24, 24), V)
    assert decisions(run, V) == (Route(1, 1, Dir.N), Route(1, 1, Dir.E))
    for move in result.witness.decisions:
        run = decide(run, V, move)
    assert run.phase is RunPhase.COLLIDE  # two different bots on one truck: the owner discards one
    assert run.collisions == 1
    assert len(run.factory.dock[0].load) == 2
    # ... and the other exit does not collide
    assert play(f, V, [Route(1, 1, Dir.E)]).collisions == 0


def test_flight_collides_only_landing_on_row_0() -> None:
    f = F(FLIGHT_SPLIT)
    result = smt.collision_query(f, V)
    assert result.verdict == "violated"
    assert result.witness is not None
    assert result.witness.decisions == (Fly(2, 1, 0, 1),)
    assert play(f, V, list(result.witness.decisions)).collisions > 0
    assert play(f, V, [Fly(2, 1, 1, 1)]).collisions == 0


def test_flight_both_ways_adds_choices() -> None:
    # a Flight Tester at (1,1) with its flat side south: thrown toward the flat side only, the bot lands on
    # (2,1) (forced, and row 2 is free); thrown both ways it may land on (0,1), whose truck is taken
    text = """
    hole[B]  | .  .    .  . | truck
    basic[B] | .  FT1  .  . | truck
    hole     | .  .    .  . | truck
    """
    assert smt.collision_query(F(text), V).verdict == "holds"
    f = F(text, BOTH_WAYS)
    result = smt.collision_query(f, BOTH_WAYS)
    assert result.verdict == "violated"
    assert result.witness is not None
    assert result.witness.decisions == (Fly(1, 1, 0, 1),)
    assert play(f, BOTH_WAYS, list(result.witness.decisions)).collisions > 0
    assert play(f, BOTH_WAYS, [Fly(1, 1, 2, 1)]).collisions == 0


def test_a_flight_collides_only_where_a_bot_may_land_on_the_fork() -> None:
    """MC-FLIGHT: under flight_landing = "skip_forks" the Flight Tester on (1, 1) cannot land its bot on the
    Fork beside it, so the bot reaches (1, 3) or row 1's truck and nothing collides; under "any_cell" it may
    land on the Fork and be routed north onto row 0's taken truck."""
    text = FLIGHT_FORK
    assert smt.collision_query(F(text), V).verdict == "holds"
    f = F(text, ANY_CELL)
    result = smt.collision_query(f, ANY_CELL)
    assert result.verdict == "violated"
    assert result.witness is not None
    assert result.witness.decisions == (Fly(1, 1, 1, 2), Route(1, 2, Dir.N))
    assert play(f, ANY_CELL, list(result.witness.decisions)).collisions > 0
    assert play(F(text), V, [Fly(1, 1, 1, 3)]).collisions == 0


def test_loop_destroys_and_jump_pays() -> None:
    f = F(FLIGHT_LOOP)
    enc = smt.encode_workday(f, V)
    # (0,1) throws onto (1,1), which throws back onto (0,1), which throws onto (1,1) again: MC-MOVE-LOOP
    looped = smt.evaluate(enc, {(0, 1): 0, (0, 3): 0})
    assert looped.finals == (None,)
    assert looped.decisions == (Fly(0, 1, 1, 1), Fly(0, 1, 1, 1))
    # the second throw from (0,1) passes over (1,1) onto (2,1): a jump coin, then the belt to truck 2
    escaped = smt.evaluate(enc, {(0, 1): 0, (0, 3): 1})
    assert escaped.finals == (TRUCK_BIN + 2,)
    assert escaped.wallet == 1
    run = play(f, V, [Fly(0, 1, 1, 1), Fly(0, 1, 1, 1)])
    assert run.destroyed == 1
    run = play(f, V, list(escaped.decisions))
    assert (run.wallet, run.factory.dock[2].load != ()) == (1, True)


def test_stops_in_an_improvement_and_gift_pays() -> None:
    f = F(STOPS)
    ev = smt.evaluate(smt.encode_workday(f, V))
    assert ev.finals == (TRUCK_BIN + 0, 5)  # bin 5: the Upgrader's input hole at (1, 1)
    assert ev.vault == 1


@pytest.mark.parametrize(
    "text", [PRELOADED, TWIN, ROOMY, FORK_SPLIT, FORK_SAFE, FLIGHT_SPLIT, FLIGHT_LOOP, STOPS, FLIGHT_FORK]
)
@pytest.mark.parametrize("variant", VARIANTS, ids=["flat-side", "both-ways", "any-cell"])
def test_hand_made_conform_for_every_choice(text: str, variant: MechanicaVariant) -> None:
    f = F(text, variant)
    enc = smt.encode_workday(f, variant)
    for chooser in all_choices(f, variant):
        assert smt_conformance.conformance_mismatch(f, variant, chooser, enc) is None


def test_compiled_transitions_are_the_rule_function() -> None:
    f = F(FLIGHT_LOOP)
    table = smt.compile_transitions(f, V)
    for node, i in table.ids.items():
        steps = options(f, V, node)
        assert [o.label for o in table.options[i]] == [s.label for s in steps]
        assert [o.rule for o in table.options[i]] == [s.rule for s in steps]


def test_witness_out_of_order_is_refused_by_the_python_run() -> None:
    f = F(FORK_SPLIT)
    with pytest.raises(IllegalAction):
        play(f, V, [Fly(0, 0, 0, 1)])


def test_unknown_is_never_holds() -> None:
    result = smt.collision_query(F(FLIGHT_SPLIT), V, rlimit=1)
    assert result.verdict == "unknown"
    assert result.witness is None


def test_query_is_fast_on_hand_made_factories() -> None:
    for text in (PRELOADED, TWIN, ROOMY, FORK_SPLIT, FORK_SAFE, FLIGHT_SPLIT, FLIGHT_LOOP, STOPS):
        f = F(text)
        smt.collision_query(f, V)  # warm up
        start = time.perf_counter()
        smt.collision_query(f, V)
        assert time.perf_counter() - start < 0.5  # typically a few milliseconds


# --- broken encodings are caught ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fault", "text"),
    [("drop_loop_rule", FLIGHT_LOOP), ("ignore_capacity", FORK_SPLIT), ("ignore_preloaded", PRELOADED)],
)
def test_broken_encoding_is_caught(fault: smt.Fault, text: str) -> None:
    f = F(text)
    broken = smt.encode_workday(f, V, fault=fault)
    found = [smt_conformance.conformance_mismatch(f, V, chooser, broken) for chooser in all_choices(f, V)]
    assert any(m is not None for m in found), fault


@pytest.mark.parametrize("fault", ["ignore_capacity", "ignore_preloaded"])
def test_broken_encoding_is_caught_on_random_factories(fault: smt.Fault) -> None:
    @settings(max_examples=200, database=None, derandomize=True, phases=[Phase.generate], deadline=None)
    @given(factories(V), st.data())
    def prop(factory: Factory, data: st.DataObject) -> None:
        assert (
            smt_conformance.conformance_mismatch(
                factory, V, drawing_chooser(data), smt.encode_workday(factory, V, fault=fault)
            )
            is None
        )

    with pytest.raises(AssertionError):
        prop()


# --- random factories, random choices --------------------------------------------------------------------


def drawing_chooser(data: st.DataObject) -> smt_conformance.Chooser:
    """A chooser drawing each (bot, step) decision once from hypothesis (the same answer when asked again,
    as the per-bot Python runs do)."""
    memo: dict[tuple[int, int], int] = {}

    def choose(b: int, t: int, n: int) -> int:
        if (b, t) not in memo:
            memo[(b, t)] = data.draw(st.integers(0, n - 1), label=f"choice {b},{t}")
        return memo[(b, t)]

    return choose


def check_conformance(variant: MechanicaVariant, factory: Factory, data: st.DataObject) -> None:
    enc = smt.encode_workday(factory, variant)
    chooser = drawing_chooser(data)
    mismatch = smt_conformance.conformance_mismatch(factory, variant, chooser, enc)
    assert mismatch is None, mismatch
    result = smt.query_encoding(enc)
    assert result.verdict in ("holds", "violated")
    if result.verdict == "violated":
        assert result.witness is not None
        assert play(factory, variant, list(result.witness.decisions)).collisions > 0
    else:
        assert smt_conformance.python_movement(factory, variant, chooser).collisions == 0


_variant_and_factory = st.sampled_from(VARIANTS).flatmap(lambda v: st.tuples(st.just(v), factories(v)))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_variant_and_factory, st.data())
def test_z3_and_python_run_agree(vf: tuple[MechanicaVariant, Factory], data: st.DataObject) -> None:
    check_conformance(vf[0], vf[1], data)


_all_variants = st.builds(
    Rulings,
    loop=st.sampled_from(["destroy", "forbid"]),
    jigsaw=st.sampled_from(["published", "strict"]),
    flight=st.sampled_from(["flat_side", "both_ways"]),
    flight_landing=st.sampled_from(["skip_forks", "any_cell"]),
    off_floor=st.sampled_from(["destroy", "forbid"]),
).map(lambda r: MechanicaVariant(rulings=r))


@pytest.mark.heavy
@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_all_variants.flatmap(lambda v: st.tuples(st.just(v), factories(v, full=True))), st.data())
def test_z3_and_python_run_agree_heavy(vf: tuple[MechanicaVariant, Factory], data: st.DataObject) -> None:
    check_conformance(vf[0], vf[1], data)
