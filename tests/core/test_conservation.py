"""Conservation systems (bgrules.core.conservation) tied to the Python rules, and their obligations."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgrules.botfactory import smt_conservation as bf
from bgrules.botfactory.game import BotFactoryGame
from bgrules.core import conservation as cons
from bgrules.core.proofs import Budget
from bgrules.mechanica import smt_conservation as mc
from bgrules.mechanica import workday
from bgrules.mechanica.components import Bot
from bgrules.mechanica.fabricate import sell, sell_options
from bgrules.mechanica.game import MechanicaGame
from bgrules.mechanica.strategies import factories
from bgrules.mechanica.variant import default_variant
from bgrules.runners.proofs import _import, load_manifest

VARIANT = default_variant()
BOTS = mc.bots_system(VARIANT)
CHECKER = cons.Checker(BOTS)
PROOFS = Path(__file__).resolve().parents[2] / "proofs"
stocks = st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3))


@given(stocks, st.sampled_from(tuple(Bot)), st.integers(0, 4))
def test_take_is_workday_take(stock: tuple[int, int, int], grade: Bot, n: int) -> None:
    assert mc.take_stock(stock, grade, n) == workday._take(stock, grade, n)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(factories(VARIANT, max_tiles=12, full=True), stocks, st.data())
def test_workday_steps_are_steps_of_the_system(
    factory: object, stock: tuple[int, int, int], data: st.DataObject
) -> None:
    run, _n, problems = mc.start(factory, stock, VARIANT, CHECKER)
    assert not problems
    _checked, more = mc.workday_conformance(
        run, VARIANT, lambda legal: data.draw(st.integers(0, len(legal) - 1)), CHECKER
    )
    assert not more


@settings(max_examples=30, deadline=None)
@given(factories(VARIANT, max_tiles=0), stocks)
def test_sale_is_a_return(factory: object, stock: tuple[int, int, int]) -> None:
    for action in sell_options(factory):  # type: ignore[arg-type]
        after, stock2, _coins = sell(factory, stock, VARIANT, action)  # type: ignore[arg-type]
        before = workday.Run(factory, stock)  # type: ignore[arg-type]
        assert CHECKER.allows(mc.run_counts(before), mc.run_counts(workday.Run(after, stock2)), ("return",))


def test_a_broken_python_upgrader_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mutation: a _give_back that returns nothing makes Upgrader/Downgrader/Changer steps fail conformance."""
    monkeypatch.setattr(workday, "_give_back", lambda stock, bots: stock)
    game = MechanicaGame(4)
    _checked, _sales, problems = mc.game_bots_conformance(game, (20_240_611, 7, 3), 2_500)
    _checked2, _sales2, problems2 = mc.game_bots_conformance(MechanicaGame(2), (1, 2, 5), 2_500)
    assert problems or problems2


def test_whole_game_bots_conform() -> None:
    checked, sales, problems = mc.game_bots_conformance(MechanicaGame(3), (11,), 2_500)
    assert not problems
    assert checked > 0 and sales > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_improvement_moves_conform(players: int) -> None:
    _steps, moved, problems = mc.game_conformance(MechanicaGame(players), (players, 99), 2_000)
    assert not problems
    assert moved > 10


@pytest.mark.parametrize("players", [2, 3])
def test_part_moves_conform(players: int) -> None:
    _steps, moved, problems = bf.conformance(BotFactoryGame(players), (players,), 1_200)
    assert not problems
    assert moved > 50


def test_a_vanishing_discard_is_caught() -> None:
    """The parts system with its broken discard refuses a real discard of the Python game."""
    game = BotFactoryGame(4)
    broken = cons.Checker(bf.parts_system(game, "discard_vanishes"))
    real = cons.Checker(bf.parts_system(game))
    from bgrules.botfactory.state import DiscardPart, Trade
    from bgrules.core.playout import walk

    for before, action, after in walk(game, 20_240_611, 3_000):
        if isinstance(action, DiscardPart | Trade):
            cb, ca = bf.part_counts(game, before), bf.part_counts(game, after)
            if any(k[1].startswith("any") for k in cb if k[0] == bf.HANDS):
                continue
            assert real.allows(cb, ca)
            assert not broken.allows(cb, ca)
            return
    pytest.skip("no discard in this playout")


def test_obligations_give_their_expected_verdicts() -> None:
    manifest = load_manifest(PROOFS)
    module = _import(PROOFS / "conservation.py")
    obs = module.obligations()
    assert {o.id for o in obs} == {i for i, (m, _e) in manifest.items() if m == "conservation"}
    for ob in obs:
        if ob.id.endswith("CONFORMANCE"):
            continue  # the playouts above cover these
        assert "CONS" in ob.id
        outcome = ob.check(Budget(10_000))
        assert outcome.verdict == manifest[ob.id][1], (ob.id, outcome.detail)
        if outcome.verdict == "violated":
            assert outcome.detail.startswith("counterexample:")
            assert outcome.witness["broken"]["failing"]
