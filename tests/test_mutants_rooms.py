"""Tests that the mutation run of the rooms asked for (docs/mutation.md, "The rooms").

The golden record (tests/golden_rooms.py) fixes what a player sees of the rules along seeded playouts under
every reading: the effects and refusals by rule ID, every refusal's message, the scores, winners and end
trigger. The other tests pin behaviours the playouts reach too rarely to decide.
"""

from __future__ import annotations

import json

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
