"""Bot Factory's readings of issue 8, each under both values of its ruling switch: the two payments of
Sandra's toll and the last Assembly space (``last_space_toll``), the clear-out of the Project board
(``project_clear_out``), the token placed on a reserved contract (``reservation_tokens``), the additional
actions outside one's own turn (``additional_actions``) and the round cap as a runner's truncation."""

from __future__ import annotations

import attrs
import pytest
from test_botfactory import (
    ASM0,
    ASM1,
    ASM2,
    FIN1,
    FIN2,
    PROD0,
    PROJ0,
    assert_illegal,
    check,
    finish_round,
    load,
    resolve,
    start,
    with_hand,
    with_spares,
)

from bgrules import InputError
from bgrules.botfactory import invariants
from bgrules.botfactory.state import (
    DrawProject,
    EndTurn,
    PayShare,
    Phase,
    PlacePart,
    Reserve,
    Skip,
    Swap,
    TakeProject,
)
from bgrules.core.playout import playout

SEPARATE = {"rulings": {"last_space_toll": "separate"}}
COMBINED = {"rulings": {"last_space_toll": "combined"}}


# --- BF-SANDRA-SHARE / BF-ASM-LAST: two payments ----------------------------------------------------------


def _last_space_with_sandra(variant, tokens):
    g = load(2, variant=variant)
    s = start(g, (ASM2, PROD0), sandra=ASM0, tokens=tokens, parts=("red-head", "blue-head"))
    return g, with_spares(s, ["yellow-legs", None])


def test_the_default_pays_sandra_and_the_last_space_apart():
    assert load(2).variant.rulings.last_space_toll == "separate"


def test_separate_pay_sandra_place_nothing_and_swap_with_the_other_token():
    g, s = _last_space_with_sandra(SEPARATE, 2)
    assert s.turn.main == "share" and g.legal_actions(s) == (PayShare(), Skip())
    s = g.apply(s, PayShare())  # Sandra's token
    assert s.hands[0].tokens == 1 and s.turn.main == "extra" and s.supply[0] == 8
    assert g.legal_actions(s) == (PayShare(), Skip())
    assert_illegal(g, s, Swap("red-head", 0), "BF-ASM-LAST")
    assert_illegal(g, s, EndTurn(), "BF-ASM-LAST")
    s = g.apply(s, Skip())  # the last space's token unpaid: no parts, the additional action stays
    assert s.turn.main == "closed" and s.hands[0].tokens == 1
    legal = g.legal_actions(s)
    assert not any(isinstance(a, PlacePart) for a in legal) and Swap("red-head", 0) in legal
    assert_illegal(g, s, PlacePart("red-head", "red"), "BF-ROUND")
    s = g.apply(s, Swap("red-head", 0))
    assert s.hands[0].tokens == 0 and s.hands[0].parts == ("blue-head", "yellow-legs")
    assert s.spares == ("red-head", None)
    check(g, s)


def test_separate_both_paid_places_parts():
    g, s = _last_space_with_sandra(SEPARATE, 2)
    s = g.apply(g.apply(s, PayShare()), PayShare())
    assert s.hands[0].tokens == 0 and s.turn.main == "open" and s.supply[0] == 9
    s = g.apply(s, PlacePart("red-head", "red"))
    assert s.hands[0].tokens == 2
    check(g, s)


def test_separate_one_token_pays_sandra_only():
    g, s = _last_space_with_sandra(SEPARATE, 1)
    assert PayShare() in g.legal_actions(s)
    s = g.apply(s, PayShare())
    assert s.turn.main == "extra" and g.legal_actions(s) == (Skip(),)
    assert_illegal(g, s, PayShare(), "BF-ASM-LAST")
    s = g.apply(s, Skip())
    assert s.turn.main == "closed" and g.legal_actions(s) == (EndTurn(),)  # no token left for a swap


def test_separate_unpaid_sandra_still_ends_the_turn():
    g, s = _last_space_with_sandra(SEPARATE, 2)
    s = g.apply(s, Skip())  # unpaid_share = "nothing": no action at all
    assert s.index == 1 and g.to_move(s) == 1 and s.hands[0].tokens == 2


def test_combined_two_tokens_pay_both_or_nothing():
    g, s = _last_space_with_sandra(COMBINED, 2)
    assert s.turn.main == "share" and g.legal_actions(s) == (PayShare(), Skip())
    paid = g.apply(s, PayShare())
    assert paid.hands[0].tokens == 0 and paid.turn.main == "open"
    skipped = g.apply(s, Skip())
    assert skipped.index == 1 and skipped.hands[0].tokens == 2  # no swap: the whole turn is lost
    g, s = _last_space_with_sandra(COMBINED, 1)
    assert g.legal_actions(s) == (Skip(),)
    assert_illegal(g, s, PayShare(), "BF-SANDRA-SHARE")


def test_the_last_space_alone_under_either_reading():
    for variant, main in ((SEPARATE, "extra"), (COMBINED, "share")):
        g = load(2, variant=variant)
        s = start(g, (ASM2, PROD0), tokens=1, parts=("red-head",))
        assert s.turn.main == main
        s = g.apply(s, PayShare())
        assert s.turn.main == "open" and s.hands[0].tokens == 0


# --- BF-PROJ-SANDRA / BF-MAINT: the clear-out -------------------------------------------------------------


def _bottom_taken(variant):
    """Round 1: seat 0 takes the left column's bottom tile (red; the left column: red, yellow, blue from the
    bottom), then the round ends and maintenance clears the Project board."""
    g = load(2, variant=variant)
    s = start(g, (PROJ0, ASM0))
    s = g.apply(s, TakeProject(0, 0))
    s = g.apply(s, Skip())  # BF-PROJ-LEFT's paid placement declined
    s = g.apply(s, EndTurn())
    s = g.apply(s, EndTurn())
    return g, s


def test_the_default_clear_out_removes_the_lowest_tile():
    assert load(2).variant.rulings.project_clear_out == "lowest_tile"


def test_lowest_tile_removes_the_lowest_remaining_tile_of_a_column_with_an_empty_bottom():
    g, s = _bottom_taken({"rulings": {"project_clear_out": "lowest_tile"}})
    # left column (empty, yellow, blue): yellow goes; right column (green, red, yellow): green goes
    assert s.grid == (("blue", None, None), ("red", "yellow", None))
    assert s.project_discard == (0, 1, 0, 1)
    s = resolve(g, s, DrawProject("red"), DrawProject("green"), DrawProject("blue"))
    assert s.grid == (("blue", "red", "green"), ("red", "yellow", "blue"))
    check(g, s)


def test_bottom_space_removes_nothing_from_a_column_with_an_empty_bottom():
    g, s = _bottom_taken({"rulings": {"project_clear_out": "bottom_space"}})
    assert s.grid == (("yellow", "blue", None), ("red", "yellow", None))
    assert s.project_discard == (0, 0, 0, 1)
    s = finish_round(g, s)
    check(g, s)


@pytest.mark.parametrize("ruling", ["lowest_tile", "bottom_space"])
def test_a_full_column_loses_its_bottom_tile_under_either_reading(ruling):
    _g, s = _bottom_taken({"rulings": {"project_clear_out": ruling}})
    assert s.grid[1] == ("red", "yellow", None)  # the right column was full: its green bottom tile went


# --- BF-FIN-CONTRACT: one token on the contract -----------------------------------------------------------


def _reserving(mode, tokens=5):
    g = load(3, variant={"rulings": {"reservation_tokens": mode}})
    return g, start(g, (FIN2, FIN1, ASM0), sandra=PROJ0, tokens=tokens)


def test_the_default_places_one_of_the_tokens_paid():
    assert load(2).variant.rulings.reservation_tokens == "one_paid"


@pytest.mark.parametrize(
    ("mode", "held", "supply", "placed"),
    [("one_paid", 3, 5, 1), ("one_more", 2, 6, 1), ("whole_cost", 3, 4, 2)],
)
def test_a_first_reservation_pays_two_and_places(mode, held, supply, placed):
    g, s = _reserving(mode)
    assert s.supply[0] == 4
    s = g.apply(s, Reserve(1))  # the higher space: cost 2
    assert s.reserved[1] == (0,) and s.turn.left == 1  # the cost is what the Finance action spends
    assert s.hands[0].tokens == held and s.supply[0] == supply and g.on_contracts(s, 0) == placed
    check(g, s)


@pytest.mark.parametrize(("mode", "held", "supply"), [("one_paid", 2, 6), ("one_more", 1, 7), ("whole_cost", 2, 6)])
def test_a_second_reservation_on_the_lower_space(mode, held, supply):
    g, s = _reserving(mode)
    s = g.apply(g.apply(s, Reserve(1)), EndTurn())
    s = with_hand(s, 1, tokens=3)
    s = g.apply(s, Reserve(1))  # the lower space: cost 1
    assert s.reserved[1] == (0, 1) and g.on_contracts(s, 1) == 1
    assert s.hands[1].tokens == held and s.supply[1] == supply
    check(g, s)


def test_one_more_needs_a_token_beyond_the_cost():
    g, s = _reserving("one_more", tokens=2)
    assert Reserve(1) not in g.legal_actions(s)
    assert_illegal(g, s, Reserve(1), "BF-FIN-CONTRACT")  # the state is unchanged (assert_illegal checks)
    g, s = _reserving("one_paid", tokens=2)
    assert Reserve(1) in g.legal_actions(s)
    assert g.apply(s, Reserve(1)).hands[0].tokens == 0


@pytest.mark.parametrize("mode", ["one_paid", "one_more"])
def test_one_token_on_a_contract_scores_its_space(mode):
    g, s = _reserving(mode)
    s = g.apply(s, Reserve(1))
    contract = g.contracts[s.display[1]]
    bots = tuple(sorted(c for c, n in contract.needs.items() for _ in range(n)))
    met = with_hand(s, 0, done=bots)
    assert g.contract_score(met, 0) == 2 + contract.points  # the higher space's value, not the one token
    assert g.contract_score(s, 0) == -2
    late = attrs.evolve(s, reserved=tuple(() if i != 1 else (2, 0) for i in range(4)))
    assert g.contract_score(with_hand(late, 0, done=bots), 0) == 1 + contract.points  # the lower space


# --- BF-END: the round cap is a runner's truncation ---------------------------------------------------------


def test_the_default_game_has_no_round_cap():
    g = load(2)
    assert g.max_rounds is None and g.runner_rounds == 40
    assert g.info.max_length == load(2, max_rounds=40).info.max_length  # the bound of the runners' 40 rounds
    assert dict(g.info.parameters)["max_rounds"] == "none"


@pytest.mark.parametrize("options", [{}, {"max_rounds": 40}])
def test_round_forty_ends_only_under_the_games_own_cap(options):
    g = load(2, **options)
    s = attrs.evolve(start(g, (ASM1, PROD0)), round=40)
    s = finish_round(g, s)
    if options:
        assert g.is_terminal(s) and s.round == 40
    else:
        assert not g.is_terminal(s) and s.round == 41 and s.phase is Phase.MOVE


def test_playouts_truncate_at_the_runners_round_cap():
    g = load(2)
    p = playout(g, seed=0)
    assert p.truncated and p.final.round == 41 and p.final.phase is Phase.MOVE
    short = playout(g, seed=0, max_rounds=2)
    assert short.truncated and short.final.round == 3 and short.actions == p.actions[: len(short.actions)]
    capped = playout(load(2, max_rounds=2), seed=0)  # the game's own cap (0.3.0): over and scored
    assert not capped.truncated and capped.final.round == 2 and capped.final.phase is Phase.OVER
    with pytest.raises(InputError):
        playout(g, seed=0, max_rounds=0)


@pytest.mark.parametrize("rounds", [0, -1, 2.5, True, "40"])
def test_bad_round_caps(rounds):
    with pytest.raises(InputError) as info:
        load(2, max_rounds=rounds)
    assert info.value.where == "max_rounds"


def test_ends_within_bound_accepts_only_a_truncation_at_the_round_cap():
    g = load(2)
    s = attrs.evolve(start(g, (ASM1, PROD0)), round=41, phase=Phase.MOVE)
    assert invariants.ends_within_bound(g, s, 100) is None
    assert invariants.ends_within_bound(g, attrs.evolve(s, round=12), 100) is not None  # cut short by steps
    assert invariants.ends_within_bound(load(2, max_rounds=40), s, 100) is not None  # its own cap must end it
    assert invariants.ends_within_bound(g, s, g.info.max_length + 1) is not None
