"""Bot Factory's readings of issue 8, each under both values of its ruling switch: the two payments of
Sandra's toll and the last Assembly space (``last_space_toll``), the clear-out of the Project board
(``project_clear_out``), the token placed on a reserved contract (``reservation_tokens``), the additional
actions outside one's own turn (``additional_actions``) and the round cap as a runner's truncation."""

from __future__ import annotations

import attrs
import pytest
from support.botfactory_positions import (
    ASM0,
    ASM1,
    ASM2,
    FIN1,
    FIN2,
    PROD0,
    PROD1,
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

import bgrules
from bgrules import CHANCE, InputError
from bgrules.botfactory import invariants
from bgrules.botfactory.state import (
    DiscardPart,
    DrawPart,
    DrawProject,
    EndTurn,
    Exchange,
    PayShare,
    Phase,
    PlacePart,
    Reserve,
    Rotate,
    Skip,
    Swap,
    TakeProject,
    Trade,
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


@pytest.mark.parametrize(
    ("colour", "fifth", "trigger"),
    [
        (True, False, "BF-END-COLOUR"),
        (False, True, "BF-END-FIFTH"),
        (True, True, "BF-END-COLOUR"),  # both in one round: the first trigger the seed names
        (False, False, None),
    ],
)
def test_each_end_trigger_names_its_own_rule(colour, fifth, trigger):
    from bgrules.core import coverage

    g = load(2, variant={"rulings": {"bots_per_colour_to_end": 3}})  # five bots need not finish a colour
    s = start(g, (ASM1, PROD0))
    if colour:
        s = with_hand(s, 0, done=("yellow", "yellow", "yellow"))
    if fifth:
        s = with_hand(s, 1, done=("red", "red", "blue", "blue", "green"))
    with coverage.recording("tests") as counts:
        s = finish_round(g, s)
    assert g.end_trigger(s) == trigger and g.is_terminal(s) is (trigger is not None)
    others = {"BF-END-COLOUR", "BF-END-FIFTH"} - {trigger}
    assert all(counts.effects[r] == 0 for r in others)
    if trigger is None:
        assert counts.effects["BF-END"] == 0 and s.round == 2
    else:
        assert counts.effects[trigger] == 1 and counts.effects["BF-END"] == 1


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


# --- BF-ADDITIONAL: additional actions at any time ----------------------------------------------------------

OWN_TURN = {"rulings": {"additional_actions": "own_turn"}}
TRADE_PARTS = ("blue-head", "green-legs", "red-torso")


def test_the_default_offers_additional_actions_between_turns():
    assert load(2).variant.rulings.additional_actions == "any_time"


def _three_players(variant=None):
    """Round 1: seat 0 on Assembly, seat 1 on Projects, seat 2 on Production with three parts to trade."""
    g = load(3, variant=variant)
    s = start(g, (ASM0, PROJ0, PROD0))
    return g, with_hand(s, 2, parts=TRADE_PARTS)


def test_a_window_after_a_turn_for_a_player_still_to_act():
    g, s = _three_players()
    s = g.apply(s, EndTurn())  # seat 0's turn ends; seat 1 acts next, but seat 2 may trade now
    assert s.window == (2,) and s.turn is None and g.to_move(s) == 2 and s.index == 1
    legal = g.legal_actions(s)
    assert legal[-1] == EndTurn() and all(isinstance(a, Trade) for a in legal[:-1]) and len(legal) == 5
    assert_illegal(g, s, Rotate(), "BF-ADDITIONAL")  # no main action in a window
    assert_illegal(g, s, PlacePart("red-torso", "red"), "BF-ADDITIONAL")
    assert_illegal(g, s, Trade(("blue-head", "blue-head", "red-torso"), "red"), "BF-PROD-TRADE")
    s = g.apply(s, Trade(TRADE_PARTS, "red"))
    assert g.to_move(s) is CHANCE
    s = resolve(g, s, DrawPart("legs"))
    # one part left: nothing more to trade, the window closes by itself and seat 1's turn begins
    assert s.window == () and s.turn is not None and g.to_move(s) == 1 and s.hands[2].parts == ("red-legs",)
    check(g, s)


def test_passing_a_window_keeps_the_hand():
    g, s = _three_players()
    s = g.apply(g.apply(s, EndTurn()), EndTurn())  # seat 0 ends, seat 2 passes its window
    assert g.to_move(s) == 1 and s.turn is not None and s.hands[2].parts == TRADE_PARTS


def test_own_turn_offers_no_window():
    g, s = _three_players(OWN_TURN)
    s = g.apply(s, EndTurn())
    assert s.window == () and g.to_move(s) == 1 and s.turn is not None


def test_no_window_for_the_player_who_just_ended_nor_the_next():
    g = load(3)
    s = start(g, (PROD0, PROJ0, ASM0))
    s = with_hand(s, 0, parts=TRADE_PARTS)  # seat 0 could trade, but its turn has just ended
    s = with_hand(s, 1, parts=TRADE_PARTS)  # seat 1 could too, but acts next
    s = g.apply(s, EndTurn())
    assert s.window == () and g.to_move(s) == 1


def _round_two_with_a_spare(variant=None):
    """Round 2, Sandra on Production: seat 0 on Assembly with a token and a part, a spare on the board;
    seat 1 on Finance."""
    g = load(2, variant=variant)
    s = start(g, (ASM1, FIN1), sandra=PROD0, tokens=2, parts=("red-head",))
    s = attrs.evolve(with_spares(s, ["blue-legs", None]), round=2)
    return g, s


def test_windows_before_sandra_and_before_maintenance():
    g, s = _round_two_with_a_spare()
    s = g.apply(s, EndTurn())  # seat 0 ends; seat 1 is next: no window
    assert g.to_move(s) == 1 and s.turn is not None
    s = g.apply(s, EndTurn())  # the last turn: a window before Sandra, for seat 0
    assert s.window == (0,) and s.index == 2 and g.to_move(s) == 0
    assert Swap("red-head", 0) in g.legal_actions(s)
    s = g.apply(s, EndTurn())  # seat 0 passes; Sandra (Production, the Wheel full) acts; a window again
    assert s.window == (0,) and s.index == 3 and g.to_move(s) == 0
    s = g.apply(s, Swap("red-head", 0))
    assert s.hands[0].parts == ("blue-legs",) and s.spares == ("red-head", None) and s.hands[0].tokens == 1
    assert s.window == (0,)  # any number of times: blue-legs may go back for red-head
    s = g.apply(s, EndTurn())
    assert s.window == () and (g.to_move(s) is CHANCE or s.phase is Phase.MOVE)  # maintenance
    check(g, s)


def test_own_turn_goes_from_the_last_turn_to_maintenance():
    g, s = _round_two_with_a_spare(OWN_TURN)
    s = g.apply(g.apply(s, EndTurn()), EndTurn())
    assert s.window == () and (g.to_move(s) is CHANCE or s.phase is Phase.MOVE)


@pytest.mark.parametrize(("ruling", "offered"), [("nothing", False), ("additional_only", True)])
def test_a_player_on_sandras_board_and_the_unpaid_toll(ruling, offered):
    g = load(3, variant={"rulings": {"unpaid_share": ruling}})
    s = start(g, (ASM0, PROJ0, PROD1), sandra=PROD0)
    s = with_hand(s, 2, parts=TRADE_PARTS)
    s = g.apply(s, EndTurn())
    assert (s.window == (2,)) is offered
    assert g.to_move(s) == (2 if offered else 1)


def test_a_discard_in_a_window_is_the_window_players():
    g = load(3)
    s = start(g, (ASM0, PROD0, PROJ0))
    parts = ("blue-head", "green-legs", "red-torso", "yellow-head", "blue-legs")
    s = with_hand(s, 2, parts=parts, projects=("red", "blue"))
    s = g.apply(s, EndTurn())
    assert s.window == (2,)
    s = g.apply(s, Exchange(("blue", "red"), "head"))  # a sixth part: over the limit
    assert s.phase is Phase.DISCARD and g.to_move(s) == 2
    s = g.apply(s, DiscardPart("any-head"))
    assert s.phase is Phase.ACTION and len(s.hands[2].parts) == 5
    assert g.to_move(s) == 1 and s.window == ()  # nothing left to exchange: seat 1's turn
    check(g, s)


def test_window_states_write_and_read_back_and_old_states_do_not_mention_it():
    g, s = _three_players()
    assert "window" not in bgrules.dumps(s)
    w = g.apply(s, EndTurn())
    text = bgrules.dumps(w)
    assert '"window":[2]' in text and bgrules.loads(g, text) == w
