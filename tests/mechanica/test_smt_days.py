"""Conformance of the k-workday collision encoding (bgrules.mechanica.smt_days) with the factory sandbox,
and of the loop search's encoding (bgrules.mechanica.smt_loops) with movement.options / find_loop /
factory_problems; deliberately broken encodings must be caught by the same checks."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from typing import Any

import pytest

import bgrules
from bgrules.mechanica import smt_days, smt_loops
from bgrules.mechanica.fabricate import Fabricate, Sell
from bgrules.mechanica.factory import (
    CELLS,
    COLS,
    ROWS,
    Factory,
    empty_factory,
    factory_problems,
    legal_placements,
    new_placed,
)
from bgrules.mechanica.movement import find_loop, options
from bgrules.mechanica.notation import parse_factory
from bgrules.mechanica.sandbox import Phase
from bgrules.mechanica.variant import default_variant

V = default_variant()
KINDS = smt_loops.floor_kinds(V)
TABLE = smt_loops.derive_table(V)
ENC = smt_loops.encode_loops(V, CELLS, copies=False, table=TABLE)


def _collision_module() -> Any:
    path = Path(__file__).parents[2] / "proofs" / "mechanica_collision.py"
    spec = importlib.util.spec_from_file_location("_mc_collision_test", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MC = _collision_module()


# --- loops: the derived table against movement.options ---------------------------------------------------


def _random_layout(rng: random.Random, n: int, legal: bool = True) -> Factory:
    factory = empty_factory()
    for _ in range(n):
        key = rng.choice(KINDS)
        if legal:
            spots = legal_placements(factory, V, key)
            if spots:
                r, c, rot = rng.choice(spots)
                factory = factory.with_cell(r, c, new_placed(V.catalogue.tiles[key], rot))
        else:
            i = rng.randrange(CELLS)
            factory = factory.with_cell(*divmod(i, COLS), new_placed(V.catalogue.tiles[key], rng.randrange(4)))
    return factory


def _table_mismatch(table: smt_loops.Table, factory: Factory) -> str | None:
    for r in range(ROWS):
        for c in range(COLS):
            p = factory.at(r, c)
            tile = None if p is None else (p.kind, p.rotation)
            for h in range(5):
                want = tuple(
                    sorted(
                        {
                            s.then
                            for s in options(factory, V, (r, c, h))
                            if s.then is not None and 0 <= s.then[0] < ROWS and 0 <= s.then[1] < COLS
                        }
                    )
                )
                got = smt_loops.successors_in(table, V, factory, r, c, h)
                if got != want:
                    return f"({r},{c},{h}) {tile}: table {got}, options {want}"
    return None


@pytest.mark.parametrize("seed", range(40))
def test_loop_table_equals_options_on_single_and_paired_tiles(seed: int) -> None:
    rng = random.Random(seed)
    factory = _random_layout(rng, 1 + seed % 2, legal=seed % 4 != 3)
    assert _table_mismatch(TABLE, factory) is None


@pytest.mark.parametrize("seed", range(60))
def test_fixed_layout_cycle_equals_find_loop(seed: int) -> None:
    rng = random.Random(1000 + seed)
    factory = _random_layout(rng, rng.randint(2, 12))
    assert smt_loops.layout_has_cycle(ENC, factory) == (find_loop(factory, V) is not None)


def _encoding_legal(enc: smt_loops.LoopEncoding, factory: Factory) -> bool:
    import z3

    solver = z3.Solver()
    solver.add(*enc.constraints, *smt_loops.fix_layout(enc, factory))
    return solver.check() == z3.sat


@pytest.mark.parametrize("seed", range(30))
def test_encoding_legality_equals_factory_problems(seed: int) -> None:
    rng = random.Random(2000 + seed)
    factory = _random_layout(rng, rng.randint(2, 8), legal=False)
    assert _encoding_legal(ENC, factory) == (not factory_problems(factory, V))


def test_broken_loop_encodings_are_caught() -> None:
    # dropping the edge rule: the derived table no longer matches options, and cycles appear that find_loop denies
    broken = smt_loops.derive_table(V, fault="drop_edge_rule")
    rng = random.Random(7)
    layouts = [_random_layout(rng, rng.randint(1, 10)) for _ in range(40)]
    assert any(_table_mismatch(broken, f) is not None for f in layouts)
    enc = smt_loops.encode_loops(V, CELLS, copies=False, table=broken)
    assert any(smt_loops.layout_has_cycle(enc, f) != (find_loop(f, V) is not None) for f in layouts)
    # ignoring the jigsaw rule: the encoding accepts floors factory_problems rejects
    loose = smt_loops.encode_loops(V, CELLS, copies=False, fault="ignore_jigsaw", table=TABLE)
    rng = random.Random(8)
    illegal = [f for f in (_random_layout(rng, 6, legal=False) for _ in range(40)) if factory_problems(f, V)]
    assert illegal and any(_encoding_legal(loose, f) for f in illegal)


FORK_LANDING_LOOP = """
hole  | .  .    .  .   | truck
basic | .  .    .  GW1 | truck
hole  | .  FK3  .  FT2 | truck
"""
"""A loop only through a throw onto a Fork: the Flight Tester on (2, 3) throws west onto the Fork on (2, 1),
which sends the bot north; the belt of row 1 and the Gift Wrapper bring it back into the tester."""


def test_a_throw_onto_a_fork_loops_only_where_bots_land_on_forks() -> None:
    """MC-FLIGHT with MC-MOVE-LOOP: under flight_landing = "skip_forks" no bot lands on the Fork, so the floor
    has no loop; under "any_cell" it has one. z3's closure agrees with find_loop under each reading, and its
    table with movement.options; the encoding that lets a throw land anywhere is caught."""
    from bgrules.mechanica.variant import MechanicaVariant, Rulings

    any_cell = MechanicaVariant(rulings=Rulings(flight_landing="any_cell"))
    factory = parse_factory(FORK_LANDING_LOOP, V)
    assert find_loop(factory, V) is None
    assert find_loop(factory, any_cell) is not None
    assert smt_loops.layout_has_cycle(ENC, factory) is False
    old = smt_loops.derive_table(any_cell)
    assert _table_mismatch(TABLE, factory) is None
    assert smt_loops.layout_has_cycle(smt_loops.encode_loops(any_cell, CELLS, copies=False, table=old), factory)
    broken = smt_loops.encode_loops(V, CELLS, copies=False, fault="land_anywhere", table=TABLE)
    assert smt_loops.layout_has_cycle(broken, factory) != (find_loop(factory, V) is not None)


def test_loop_search_verdicts() -> None:
    assert smt_loops.loop_search(V, 1).verdict == "holds"
    assert smt_loops.loop_search(V, 2, ("gift_wrapper",)).verdict == "holds"
    found = smt_loops.loop_search(V, 3, ("gift_wrapper",))
    assert found.verdict == "violated" and found.factory is not None
    again = parse_factory(found.notation, V)
    assert find_loop(again, V) is not None and not factory_problems(again, V)


# --- k workdays ---------------------------------------------------------------------------------------


def _playout_collides(factory: Factory, k: int, rng: random.Random) -> bool:
    """A random playout of the sandbox restricted to the run's decisions, sales and Fabricate."""
    game: Any = bgrules.load_game("mechanica-factory", players=1, factory=factory, supply=[], days=k)
    state = game.initial_state()
    while state.phase is not Phase.OVER:
        legal = game.legal_actions(state)
        if state.phase is Phase.TURN:
            legal = tuple(a for a in legal if isinstance(a, Sell | Fabricate))
            if rng.random() < 0.7:
                legal = tuple(a for a in legal if isinstance(a, Fabricate))
        state = game.apply(state, rng.choice(legal))
        if state.collisions:
            return True
    return False


@pytest.mark.parametrize("seed", range(24))
def test_days_verdict_agrees_with_python(seed: int) -> None:
    rng = random.Random(3000 + seed)
    factory = MC.seeded_factory(rng, V)
    k = 1 + seed % 3
    result = smt_days.collision_within(factory, V, k, 10_000)
    if result.detail.startswith("out of scope"):
        pytest.skip(result.detail)
    assert result.verdict in ("holds", "violated"), result.detail
    if result.verdict == "holds":
        assert not any(_playout_collides(factory, k, rng) for _ in range(15))
    else:
        enc = smt_days.encode_days(factory, V, k)
        assert smt_days.replay(enc, result.actions).collisions > 0


@pytest.mark.parametrize("seed", range(20))
def test_days_encoding_matches_sandbox_on_sampled_choices(seed: int) -> None:
    rng = random.Random(4000 + seed)
    factory = MC.seeded_factory(rng, V)
    try:
        enc = smt_days.encode_days(factory, V, 3)
    except smt_days.OutOfScope:
        pytest.skip("out of scope")
    for _ in range(3):
        assert smt_days.conformance_mismatch(enc, rng) is None


UPGRADERS = """
hole      | .    .    .  . | huge
basic[B]  | UP0  UP0  .  . | huge
hole[P]   | UP0  .    .  . | huge
"""


def test_broken_days_encoding_is_caught() -> None:
    factory = parse_factory(UPGRADERS, V)
    enc = smt_days.encode_days(factory, V, 3, fault="upgrade_keeps_grade")
    rng = random.Random(5)
    assert any(smt_days.conformance_mismatch(enc, rng) is not None for _ in range(5))
    good = smt_days.encode_days(factory, V, 3)
    assert all(smt_days.conformance_mismatch(good, rng) is None for _ in range(5))


def test_collision_witness_is_a_replayed_action_list() -> None:
    factory = parse_factory(
        """
        hole      | .    .    .  . | truck
        basic[P]  | DG0  .    .  . | truck
        hole      | .    .    .  . | truck
        """,
        V,
    )
    assert smt_days.collision_within(factory, V, 2).verdict == "holds"
    found = smt_days.collision_within(factory, V, 3)
    assert found.verdict == "violated" and found.day == 3
    assert any(isinstance(a, Fabricate) for a in found.actions)
