"""Tests that the mutation run of the rooms asked for (docs/mutation.md, "The rooms").

The golden record (tests/golden_rooms.py) fixes what a player sees of the rules along seeded playouts under
every reading: the effects and refusals by rule ID, every refusal's message, the scores, winners and end
trigger. The other tests pin behaviours the playouts reach too rarely to decide.
"""

from __future__ import annotations

import json

import attrs
import pytest
from golden_rooms import GOLDEN, configs, record

_GOLDEN = json.loads(GOLDEN.read_text(encoding="utf-8"))


def test_the_golden_record_covers_every_config() -> None:
    assert sorted(_GOLDEN) == sorted(key for key, *_ in configs())


@pytest.mark.parametrize("config", configs(), ids=lambda c: c[0])
def test_the_rooms_show_the_same_rules_and_messages(config: tuple) -> None:
    key, name, players, seed, rulings, agents = config
    got = record(name, players, seed, rulings, agents)
    want = _GOLDEN[key]
    for field in ("steps", "refused", "effects", "refusals", "first_message", "end", "messages"):
        assert got[field] == want[field], (
            f"{key}: {field} changed (python tests/golden_rooms.py --write after a deliberate change)"
        )


def test_a_workday_estimate_is_never_read_for_another_variant_at_the_same_address() -> None:
    """Found by the golden record: the greedy agent's memo of workday incomes was keyed on ``id(variant)``
    alone, so a variant made where a freed one had lived (another ruling) read the freed one's incomes and
    the same seed played another game after other games had run in the process."""
    import bgrules
    from bgrules.mechanica import evaluate

    game = bgrules.load_game("mechanica", players=2)
    state = game.initial_state()
    while game.to_move(state) is bgrules.CHANCE:
        state = game.apply(state, game.chance_outcomes(state)[0][0])
    factory, stock, variant = state.seats[0].factory, state.stock, game.variant
    honest = evaluate.run_income(factory, evaluate.start_run(factory, stock, variant), variant)
    other = bgrules.load_game("mechanica", players=2, variant={"rulings": {"flight": "both_ways"}}).variant
    assert other is not variant
    evaluate._MEMO[(id(variant), factory, stock)] = (other, honest + 999.0)  # a stale entry at this address
    assert evaluate.workday_income(factory, stock, variant) == honest
    assert evaluate.workday_income(factory, stock, variant) == honest  # and now memoised for this variant


def test_a_fabricator_laid_over_fuller_holes_returns_the_bots_it_cannot_hold_to_the_stock() -> None:
    """MC-PLACE-START: bots in the covered holes move into the new tile's holes in order; those that do not
    fit go back to the stock (an Overactive Fabricator, one hole, over an Advanced one holding two)."""
    from test_mechanica_game import B, P, check_invariants, load, setup, with_seat

    from bgrules.mechanica.state import Buy, Next, PlaceFabricator

    g = load(2, fabricator_over_fabricator=True)
    s = setup(g, deal=("advanced_fabricator", "overactive_fabricator"))
    s = with_seat(s, 0, wallet=20)
    s = g.apply(s, Next())
    s = g.apply(g.apply(s, Buy(0)), PlaceFabricator(0))
    factory = s.seats[0].factory
    assert factory.start[0].kind == "advanced_fabricator" and len(factory.start[0].holes) == 2
    full = factory.with_start(0, attrs.evolve(factory.start[0], holes=(B, P)))
    s = with_seat(s, 0, factory=full)
    s = attrs.evolve(s, stock=(s.stock[B] - 1, s.stock[P] - 1, s.stock[2]))  # the two bots come from the stock
    check_invariants(g, s)
    before = s.stock
    s = g.apply(g.apply(s, Buy(1)), PlaceFabricator(0))
    assert s.seats[0].factory.start[0].kind == "overactive_fabricator"
    assert s.seats[0].factory.start[0].holes == (B,)  # the first bot moves into the one hole
    assert s.stock == (before[B], before[P] + 1, before[2])  # the Plus bot goes back to the stock
    check_invariants(g, s)
