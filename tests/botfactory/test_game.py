"""Bot Factory for 2-4 players: load_game("botfactory", players=n).

Positions are built by driving the game with explicit actions (chance outcomes are ordinary actions:
``DrawPart(slot)``, ``DrawProject(colour)``, ``DrawContract(id)``) or by ``attrs.evolve`` on a real state,
taking part tiles, Project tiles and bots from their supplies so that the invariants of
``bgrules.botfactory.invariants`` hold in every scenario too.

Action spaces are numbered left to right across the boards: Assembly 0-2, Production 3-5, Project 6-8,
Finance 9-11, counting 1, 2 and 3 actions on each board (assumed data). Sandra starts on space 9.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import attrs
import pytest
from support.botfactory_positions import (
    ASM0,
    ASM1,
    ASM2,
    COLOURS,
    CONTRACTS,
    FIN0,
    FIN1,
    FIN2,
    GAME_INVARIANTS,
    GRID,
    NAME,
    PROD0,
    PROD1,
    PROD2,
    PROJ0,
    PROJ1,
    PROJ2,
    SLOTS,
    STATE_INVARIANTS,
    WHEEL,
    WHEEL_SLOTS,
    assert_illegal,
    check,
    deal,
    finish_round,
    load,
    move,
    pick,
    quiet,
    resolve,
    start,
    with_column,
    with_hand,
    with_spares,
    with_wheel,
)

import bgrules
from bgrules import CHANCE, IllegalAction, InputError
from bgrules.botfactory.game import BotFactoryGame
from bgrules.botfactory.state import (
    DiscardPart,
    DiscardProject,
    DrawContract,
    DrawPart,
    DrawProject,
    EndTurn,
    Exchange,
    MoveWorker,
    PayShare,
    Phase,
    PlacePart,
    Raise,
    Refill,
    Reserve,
    Rotate,
    Skip,
    Swap,
    TakeOutput,
    TakeProject,
    TakeTop,
    Trade,
)
from bgrules.core.conformance import check_game
from bgrules.core.playout import walk


def test_the_invariant_module_is_found():
    names = {n for n, _f in STATE_INVARIANTS}
    assert {"limits", "tokens_conserved", "parts_conserved", "bots_match_projects", "never_stuck"} <= names
    assert [n for n, _f in GAME_INVARIANTS] == ["ends_within_bound"]


# --- player counts and variants ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_player_counts_load(players):
    g = bgrules.load_game(NAME, players=players)
    assert g.players == players
    assert (g.info.min_players, g.info.max_players, g.info.has_chance) == (2, 4, True)
    s = g.initial_state()
    assert g.to_move(s) is CHANCE and s.phase is Phase.SETUP
    assert len(s.hands) == players


def test_default_player_count_is_four():
    assert bgrules.load_game(NAME).players == 4


@pytest.mark.parametrize("players", [1, 5, 0, True, "3"])
def test_wrong_player_counts_are_input_errors(players):
    with pytest.raises(InputError) as info:
        bgrules.load_game(NAME, players=players)
    assert "2 to 4" in str(info.value)
    assert info.value.where == "players"


@pytest.mark.parametrize("players", [1, 5])
def test_wrong_player_count_on_the_class_too(players):
    with pytest.raises(InputError, match="2 to 4"):
        BotFactoryGame(players=players)


@pytest.mark.parametrize("rounds", [0, -1, 2.5])
def test_bad_max_rounds(rounds):
    with pytest.raises(InputError) as info:
        load(2, max_rounds=rounds)
    assert info.value.where == "max_rounds"


def test_unknown_option_is_an_input_error():
    with pytest.raises(InputError):
        load(2, rounds=3)


FOUR = [{"id": i, "needs": {"red": 1}, "points": 3} for i in range(1, 4)]


@pytest.mark.parametrize(
    ("variant", "field"),
    [
        ({"wheel": {"setup": ["red"] * 7}}, "wheel.setup"),
        ({"wheel": {"setup": ["red"] * 7 + ["pink"]}}, "wheel.setup"),
        ({"wheel": {"marked": [8]}}, "wheel.marked"),
        ({"wheel": {"top": [-1, 1]}}, "wheel.top"),
        ({"boards": {"assembly": [0]}}, "boards.assembly"),
        ({"boards": {"finance": []}}, "boards.finance"),
        ({"boards": {"icon_slots": ["arm"]}}, "boards.icon_slots"),
        ({"boards": {"project_columns": 3}}, "boards"),
        ({"finance": {"lines": [5], "line_rewards": ["part", "project"]}}, "finance"),
        ({"finance": {"line_rewards": ["part", "gold"]}}, "finance"),
        ({"finance": {"start_value": 11}}, "finance"),
        ({"counts": {"token_cap": "nine"}}, "token_cap"),
        ({"counts": {"provenance": {"token_cap": "rumour"}}}, "provenance of token_cap"),
        ({"rulings": {"unpaid_share": "sometimes"}}, "unpaid_share"),
        ({"rulings": {"bots_per_colour_to_end": -1}}, "bots_per_colour_to_end"),
        ({"contracts": FOUR[:3]}, "contracts"),
        ({"contracts": [*FOUR, {"id": 3, "needs": {"red": 1}, "points": 3}]}, "contracts"),
        ({"contracts": [*FOUR, {"id": 9, "needs": {"pink": 1}, "points": 3}]}, "contract 9"),
        ({"contracts": [*FOUR, {"id": 9, "needs": {"red": 0}, "points": 3}]}, "contract 9"),
        ({"bogus": {}}, "bogus"),
        ({"counts": 3}, "[counts]"),
    ],
)
def test_bad_variant_data_is_an_input_error_naming_the_field(variant, field):
    with pytest.raises(InputError) as info:
        load(2, variant=variant)
    assert field in str(info.value), info.value


def test_variant_file_is_read(tmp_path):
    path = tmp_path / "my.toml"
    path.write_text('[rulings]\nunpaid_share = "nothing"\n[finance]\nstart_value = 2\n', "utf-8")
    g = load(3, variant=str(path))
    assert g.variant.rulings.unpaid_share == "nothing"
    s = deal(g)
    assert s.values == (2, 2, 2, 2)
    bad = tmp_path / "bad.toml"
    bad.write_text("[boards]\nassembly = [0]\n", "utf-8")
    with pytest.raises(InputError, match=r"boards\.assembly"):
        load(3, variant=str(bad))


# --- set-up ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_one_token_each_and_one_more_for_the_last_player(players):
    s = load(players).initial_state()
    assert [h.tokens for h in s.hands] == [1] * (players - 1) + [2]
    assert all(h.parts == () and h.projects == () and h.done == () for h in s.hands)


def _assert_exact(outcomes):
    assert outcomes
    assert all(isinstance(p, Fraction) for _a, p in outcomes)
    assert sum(p for _a, p in outcomes) == 1


def test_setup_chance_nodes_have_exact_probabilities():
    g = load(4)
    s = g.initial_state()
    # contracts: 4 drawn from 14
    for k, cid in enumerate(CONTRACTS):
        out = g.chance_outcomes(s)
        _assert_exact(out)
        assert dict(out) == {DrawContract(i): Fraction(1, 14 - k) for i in range(1, 15) if i not in CONTRACTS[:k]}
        assert g.legal_actions(s) == tuple(a for a, _p in out)
        s = g.apply(s, DrawContract(cid))
    assert s.display == CONTRACTS
    # the Wheel, from the 11 o'clock space: the first part from the yellow pile, 4/12 each slot
    assert dict(g.chance_outcomes(s)) == {DrawPart(x): Fraction(4, 12) for x in SLOTS}
    for pos, slot in enumerate(WHEEL_SLOTS):
        out = g.chance_outcomes(s)
        _assert_exact(out)
        if pos == 4:  # yellow again, after a yellow head: 3/11 heads
            assert dict(out) == {
                DrawPart("head"): Fraction(3, 11),
                DrawPart("torso"): Fraction(4, 11),
                DrawPart("legs"): Fraction(4, 11),
            }
        s = g.apply(s, DrawPart(slot))
    assert s.wheel == WHEEL
    assert [w.split("-")[0] for w in s.wheel] == ["yellow", "blue", "green", "red"] * 2
    # the Project board: 24 tiles, 6 a colour
    assert dict(g.chance_outcomes(s)) == {DrawProject(c): Fraction(1, 4) for c in COLOURS}
    s = g.apply(s, DrawProject("red"))
    out = dict(g.chance_outcomes(s))
    assert out[DrawProject("red")] == Fraction(5, 23) and out[DrawProject("blue")] == Fraction(6, 23)
    _assert_exact(g.chance_outcomes(s))
    for colour in [*GRID[0][1:], *GRID[1]]:
        s = g.apply(s, DrawProject(colour))
    assert s.grid == GRID
    assert s.phase is Phase.PICK and g.to_move(s) == 3
    assert s.values == (3, 3, 3, 3) and s.sandra == FIN0 and s.marker == 0
    assert s.spares == (None, None) and s.columns == ((None,) * 3,) * 4
    assert s.project_pile == (4, 4, 5, 5) and s.contract_pool == tuple(i for i in range(1, 15) if i not in CONTRACTS)
    check(g, s)


def test_impossible_chance_outcomes_are_refused():
    g = load(2)
    s = g.initial_state()
    assert_illegal(g, s, DrawContract(99), "BF-PILE")
    assert_illegal(g, s, DrawPart("head"), "BF-PILE")
    assert_illegal(g, s, EndTurn(), "BF-PILE")
    s = deal(g, grid=((), ()))  # stop before the Project draws
    assert_illegal(g, s, DrawPart("head"), "BF-PILE")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_parts_taken_in_reverse_action_order(players):
    g = load(players)
    s = deal(g)
    seen = []
    for k in range(players):
        assert s.phase is Phase.PICK
        seat = g.to_move(s)
        seen.append(seat)
        assert g.legal_actions(s) == tuple(TakeTop(c) for c in COLOURS)
        s = g.apply(s, TakeTop("blue"))
        assert g.to_move(s) is CHANCE
        # the blue pile lost a torso and legs to the Wheel, and k heads to earlier picks
        assert dict(g.chance_outcomes(s)) == {
            DrawPart("head"): Fraction(4 - k, 10 - k),
            DrawPart("torso"): Fraction(3, 10 - k),
            DrawPart("legs"): Fraction(3, 10 - k),
        }
        s = g.apply(s, DrawPart("head"))
        assert s.hands[seat].parts == ("blue-head",)
    assert seen == list(reversed(range(players)))
    assert s.phase is Phase.MOVE and g.to_move(s) == 0
    check(g, s)


def test_pick_refuses_other_actions_and_empty_piles():
    g = load(2)
    s = deal(g)
    assert_illegal(g, s, MoveWorker(0), "BF-SETUP-PARTS")
    assert_illegal(g, s, TakeTop("pink"))
    # the red pile and its discard empty: no red pick
    s = attrs.evolve(s, piles=((0, 0, 0), *s.piles[1:]), discards=((0, 0, 0),) * 4)
    assert TakeTop("red") not in g.legal_actions(s)
    assert_illegal(g, s, TakeTop("red"), "BF-SETUP-PARTS")


def test_pick_from_an_empty_pile_reshuffles_its_discard():
    g = load(2)
    s = deal(g)
    red = s.piles[0]  # (3, 3, 4): a head and a torso on the Wheel
    s = attrs.evolve(s, piles=((0, 0, 0), *s.piles[1:]), discards=(red, *s.discards[1:]))
    check(g, s)
    s = g.apply(s, TakeTop("red"))
    assert s.piles[0] == red and s.discards[0] == (0, 0, 0)
    assert dict(g.chance_outcomes(s)) == {
        DrawPart("head"): Fraction(3, 10),
        DrawPart("torso"): Fraction(3, 10),
        DrawPart("legs"): Fraction(4, 10),
    }


# --- moving -----------------------------------------------------------------------------------------------


def test_round_one_workers_go_to_any_empty_space_but_sandras():
    g = load(4)
    s = pick(g, deal(g))
    assert g.legal_actions(s) == tuple(MoveWorker(i) for i in range(12) if i != FIN0)
    assert_illegal(g, s, MoveWorker(FIN0), "BF-MOVE")
    assert_illegal(g, s, MoveWorker(12), "BF-MOVE")
    assert_illegal(g, s, EndTurn(), "BF-MOVE")
    s = g.apply(s, MoveWorker(ASM0))
    assert g.to_move(s) == 1
    # same board is fine in round 1; the taken space is not
    assert MoveWorker(ASM1) in g.legal_actions(s)
    assert_illegal(g, s, MoveWorker(ASM0), "BF-MOVE")
    s = move(g, s, ASM1, FIN1, FIN2)
    assert s.phase is Phase.ACTION and s.sandra == FIN0  # Sandra does not move in round 1
    assert s.workers == (ASM0, ASM1, FIN1, FIN2)
    assert g.to_move(s) == 0
    check(g, s)


def _round_two(players=3, spaces=(PROJ2, ASM1, PROD2), sandra=None, **rulings):
    g = load(players, variant={"rulings": rulings} if rulings else None)
    s = start(g, spaces, sandra=sandra)
    s = finish_round(g, s)
    assert s.round == 2 and s.phase is Phase.MOVE
    return g, s


def test_action_order_follows_the_spaces_left_to_right():
    g, s = _round_two(3, (PROJ2, ASM1, PROD2))
    assert s.order == (1, 2, 0)
    assert g.to_move(s) == 1


def test_later_rounds_move_to_an_empty_space_of_another_board():
    g, s = _round_two(3, (PROJ2, ASM1, PROD2))
    # seat 1 stands on Assembly: not Assembly, not the workers' spaces, not Sandra's
    assert g.legal_actions(s) == tuple(MoveWorker(i) for i in (PROD0, PROD1, PROJ0, PROJ1, FIN1, FIN2))
    assert_illegal(g, s, MoveWorker(ASM0), "BF-MOVE")
    assert_illegal(g, s, MoveWorker(PROJ2), "BF-MOVE")
    assert_illegal(g, s, MoveWorker(FIN0), "BF-MOVE")
    s = g.apply(s, MoveWorker(PROD1))
    assert g.to_move(s) == 2
    assert MoveWorker(PROD1) not in g.legal_actions(s)
    # seat 2 leaves the Production board; the space seat 1 left is free again
    assert MoveWorker(ASM1) in g.legal_actions(s)
    s = move(g, s, ASM1, FIN2)
    # Sandra, after the players: from Finance to the next board right (wrapping), its first empty space
    assert s.workers == (FIN2, PROD1, ASM1)
    assert s.sandra == ASM0
    assert s.phase is Phase.ACTION and g.to_move(s) == 1
    check(g, s)


def test_sandra_skips_a_full_board():
    g, s = _round_two(4, (PROJ2, ASM1, PROD2, PROJ0))
    assert s.order == (1, 2, 3, 0)
    s = move(g, s, PROD1, ASM0, ASM2, ASM1)  # the Assembly board full
    assert s.sandra == PROD0


def test_sandra_moves_to_the_first_empty_space_of_the_next_board():
    g, s = _round_two(3, (PROJ2, ASM1, PROD2))
    s = move(g, s, PROD1, ASM0, FIN1)
    assert s.sandra == ASM1
    g, s = _round_two(3, (PROJ2, ASM1, PROD2), sandra=PROD0)
    s = move(g, s, PROJ0, ASM0, FIN1)
    assert s.sandra == PROJ1  # from Production to the Project board's first empty space


# --- Assembly --------------------------------------------------------------------------------------------


def test_assembly_places_up_to_the_space_count_with_two_tokens_per_part():
    g = load(2)
    s = start(g, (ASM1, PROD0), tokens=1, parts=("red-head", "red-legs", "blue-legs"))
    assert s.turn.left == 2 and s.turn.main == "open"
    legal = g.legal_actions(s)
    assert set(a for a in legal if isinstance(a, PlacePart)) == {
        PlacePart("red-head", "red"),
        PlacePart("red-legs", "red"),
        PlacePart("blue-legs", "blue"),
    }
    s = g.apply(s, PlacePart("red-head", "red"))
    assert s.hands[0].tokens == 3 and s.columns[0] == ("red-head", None, None)
    s = g.apply(s, PlacePart("red-legs", "red"))  # the bot's second part: two tokens again
    assert s.hands[0].tokens == 5 and s.columns[0] == ("red-head", None, "red-legs")
    assert s.turn.left == 0
    assert not any(isinstance(a, PlacePart) for a in g.legal_actions(s))
    assert_illegal(g, s, PlacePart("blue-legs", "blue"), "BF-ROUND")
    check(g, s)


def test_wrong_placements_are_refused():
    g = load(2)
    s = start(g, (ASM1, PROD0), parts=("red-head", "any-torso"))
    s = with_column(s, "yellow", ["yellow-head"])
    assert_illegal(g, s, PlacePart("blue-head", "blue"), "BF-ASM")  # not held
    assert_illegal(g, s, PlacePart("red-head", "yellow"), "BF-ASM")  # wrong colour
    assert_illegal(g, s, PlacePart("red-arm", "red"))
    assert_illegal(g, s, Rotate(), "BF-ASM")
    assert_illegal(g, s, TakeProject(0, 0), "BF-ASM")
    assert_illegal(g, s, Skip(), "BF-ASM")
    assert_illegal(g, s, PayShare(), "BF-ASM")
    # a Universal part goes on any colour
    legal = g.legal_actions(s)
    assert {PlacePart("any-torso", c) for c in COLOURS} <= set(legal)
    s = with_hand(s, 0, parts=("yellow-head",))
    assert_illegal(g, s, PlacePart("yellow-head", "yellow"), "BF-ASM")  # the space is taken


def test_the_third_part_needs_an_unfinished_project_and_completes_it():
    g = load(2)
    s = start(g, (ASM1, PROD0), tokens=4, parts=("red-legs", "blue-legs"), projects=("blue",))
    s = with_column(s, "red", ["red-head", "red-torso"])
    s = with_column(s, "blue", ["blue-head", "blue-torso"])
    assert PlacePart("red-legs", "red") not in g.legal_actions(s)
    assert_illegal(g, s, PlacePart("red-legs", "red"), "BF-ASM")
    s = g.apply(s, PlacePart("blue-legs", "blue"))
    hand = s.hands[0]
    assert hand.done == ("blue",) and hand.projects == () and hand.tokens == 4  # the bot, no tokens
    assert s.bots_left == (g.end_count, g.end_count, g.end_count - 1, g.end_count)
    assert s.columns[2] == ("blue-head", "blue-torso", "blue-legs")
    check(g, s)
    # the column is full until maintenance
    s = with_hand(s, 0, parts=("any-head",), projects=("blue",))
    assert PlacePart("any-head", "blue") not in g.legal_actions(s)


def test_no_third_part_when_the_colours_bots_are_gone():
    g = load(2)
    s = start(g, (ASM1, PROD0), parts=("red-legs",), projects=("red",))
    s = with_hand(s, 1, done=("red",) * g.end_count)
    s = with_column(s, "red", ["red-head", "red-torso"])
    check(g, s)
    assert_illegal(g, s, PlacePart("red-legs", "red"), "BF-ASM")


def test_the_icon_space_offers_the_top_of_a_pile_for_a_token():
    g = load(2)
    s = start(g, (ASM1, PROD0), tokens=0, parts=("green-torso", "red-torso"))
    s = g.apply(s, PlacePart("green-torso", "green"))
    assert s.turn.prompt == ("icon",) and s.hands[0].tokens == 2
    assert g.legal_actions(s) == (*(TakeTop(c) for c in COLOURS), Skip())
    assert_illegal(g, s, EndTurn(), "BF-ASM-ICON")
    assert_illegal(g, s, PlacePart("red-torso", "red"), "BF-ASM-ICON")
    s = g.apply(s, TakeTop("yellow"))
    assert s.hands[0].tokens == 1 and g.to_move(s) is CHANCE
    assert dict(g.chance_outcomes(s))[DrawPart("head")] == Fraction(3, 10)
    s = g.apply(s, DrawPart("legs"))
    assert s.hands[0].parts == ("red-torso", "yellow-legs") and s.turn.prompt == ()
    check(g, s)
    # without a token only Skip
    s = g.apply(s, PlacePart("red-torso", "red"))
    s = with_hand(s, 0, tokens=0)
    assert g.legal_actions(s) == (Skip(),)
    assert_illegal(g, s, TakeTop("red"), "BF-ASM-ICON")


@pytest.mark.parametrize(
    ("toll", "main", "rule"), [("separate", "extra", "BF-ASM-LAST"), ("combined", "share", "BF-SANDRA-SHARE")]
)
def test_the_last_assembly_space_costs_a_token(toll, main, rule):
    g = load(2, variant={"rulings": {"last_space_toll": toll}})
    s = start(g, (ASM2, PROD0), tokens=1, parts=("red-head", "blue-head", "green-head"))
    assert s.turn.main == main and s.turn.left == 3
    assert g.legal_actions(s) == (PayShare(), Skip())
    assert_illegal(g, s, PlacePart("red-head", "red"), rule)
    paid = g.apply(s, PayShare())
    assert paid.hands[0].tokens == 0 and paid.turn.main == "open"
    for part in ("red-head", "blue-head", "green-head"):
        paid = g.apply(paid, PlacePart(part, part.split("-")[0]))
    assert paid.hands[0].tokens == 6
    # not paying: no parts, but the additional action stays
    s = with_spares(s, ["yellow-legs", None])
    skipped = g.apply(s, Skip())
    assert skipped.turn.main == "closed"
    legal = g.legal_actions(skipped)
    assert not any(isinstance(a, PlacePart) for a in legal)
    assert Swap("red-head", 0) in legal and EndTurn() in legal
    assert_illegal(g, skipped, PlacePart("red-head", "red"), "BF-ROUND")
    # without the token only Skip
    poor = with_hand(s, 0, tokens=0)
    assert g.legal_actions(poor) == (Skip(),)
    assert_illegal(g, poor, PayShare(), rule)


def test_swap_with_a_spare_for_a_token():
    g = load(2)
    s = start(g, (ASM0, PROD0), tokens=2, parts=("red-head", "blue-legs"))
    assert not any(isinstance(a, Swap) for a in g.legal_actions(s))  # empty spares
    s = with_spares(s, ["yellow-legs", None])
    check(g, s)
    assert {a for a in g.legal_actions(s) if isinstance(a, Swap)} == {Swap("red-head", 0), Swap("blue-legs", 0)}
    assert_illegal(g, s, Swap("red-head", 1), "BF-ASM-SWAP")
    assert_illegal(g, s, Swap("green-head", 0), "BF-ASM-SWAP")
    s = g.apply(s, Swap("red-head", 0))
    assert s.hands[0].tokens == 1 and s.hands[0].parts == ("blue-legs", "yellow-legs")
    assert s.spares == ("red-head", None) and s.turn.left == 1  # the main action is untouched
    s = g.apply(s, Swap("blue-legs", 0))
    assert s.hands[0].tokens == 0
    assert not any(isinstance(a, Swap) for a in g.legal_actions(s))
    assert_illegal(g, s, Swap("yellow-legs", 0), "BF-ASM-SWAP")
    check(g, s)


# --- Production -------------------------------------------------------------------------------------------


def test_rotate_turns_the_wheel_two_spaces_clockwise():
    g = load(2)
    s = start(g, (PROD1, ASM0))
    assert set(g.legal_actions(s)) == {Rotate(), TakeOutput(5), TakeOutput(4), EndTurn()}
    s = g.apply(s, Rotate())
    assert s.wheel == tuple(WHEEL[(i - 2) % 8] for i in range(8))
    assert s.turn.prompt == () and s.turn.left == 1  # the top spaces are full: no refill
    check(g, s)


def test_refill_offers_for_the_empty_top_spaces_left_first():
    g = load(2)
    s = start(g, (PROD1, ASM0))
    s = with_wheel(s, [*WHEEL[:6], None, None])
    s = g.apply(s, Rotate())
    assert s.wheel[0] is None and s.wheel[1] is None
    assert s.turn.prompt[0] == "refill"
    assert g.legal_actions(s) == (*(Refill(0, c) for c in COLOURS), Skip())
    assert_illegal(g, s, Refill(1, "red"), "BF-PROD-ROTATE")
    assert_illegal(g, s, Rotate(), "BF-PROD-ROTATE")
    s = g.apply(s, Refill(0, "green"))
    assert g.to_move(s) is CHANCE
    # the green pile: a legs on the Wheel (the head from position 6 went back with with_wheel)
    assert dict(g.chance_outcomes(s)) == {
        DrawPart("head"): Fraction(4, 11),
        DrawPart("torso"): Fraction(4, 11),
        DrawPart("legs"): Fraction(3, 11),
    }
    s = g.apply(s, DrawPart("torso"))
    assert s.wheel[0] == "green-torso"
    assert g.legal_actions(s) == (*(Refill(1, c) for c in COLOURS), Skip())
    s = g.apply(s, Skip())
    assert s.wheel[1] is None and s.turn.prompt == () and s.turn.left == 1
    check(g, s)


def test_take_output_and_the_marked_space():
    g = load(2)
    s = start(g, (PROD2, ASM0), tokens=1, parts=())
    s = g.apply(s, TakeOutput(4))
    assert s.hands[0].parts == ("yellow-torso",) and s.wheel[4] is None and s.turn.prompt == ()
    assert TakeOutput(4) not in g.legal_actions(s)
    assert_illegal(g, s, TakeOutput(4), "BF-PROD-TAKE")
    assert_illegal(g, s, TakeOutput(0), "BF-PROD-TAKE")
    s = g.apply(s, TakeOutput(5))  # the marked space: a placement for a token
    assert s.hands[0].parts == ("blue-legs", "yellow-torso") and s.turn.prompt == ("place",)
    assert set(g.legal_actions(s)) == {PlacePart("blue-legs", "blue"), PlacePart("yellow-torso", "yellow"), Skip()}
    assert_illegal(g, s, Rotate(), "BF-PROD-MARK")
    s = g.apply(s, PlacePart("blue-legs", "blue"))
    assert s.hands[0].tokens == 2  # paid 1, rewarded 2
    assert s.columns[2] == (None, None, "blue-legs") and s.turn.left == 1
    check(g, s)
    # without a token: only Skip
    s2 = start(g, (PROD2, ASM0), tokens=0, parts=())
    s2 = g.apply(s2, TakeOutput(5))
    assert g.legal_actions(s2) == (Skip(),)
    s2 = g.apply(s2, Skip())
    assert s2.hands[0].parts == ("blue-legs",) and s2.turn.prompt == ()


def test_trade_three_parts_for_the_top_of_a_pile():
    g = load(2)
    s = start(g, (PROD0, ASM0), parts=("red-head", "red-head", "any-legs", "blue-torso"))
    trades = [a for a in g.legal_actions(s) if isinstance(a, Trade)]
    assert Trade(("red-head", "red-head", "any-legs"), "green") in trades
    assert_illegal(g, s, Trade(("red-head", "red-head", "red-head"), "green"), "BF-PROD-TRADE")
    s = g.apply(s, Trade(("any-legs", "red-head", "blue-torso"), "green"))
    assert s.hands[0].parts == ("red-head",)
    assert s.discards[0] == (1, 0, 0) and s.discards[2] == (0, 1, 0) and s.universal == (2, 2, 2)
    s = g.apply(s, DrawPart("head"))
    assert s.hands[0].parts == ("green-head", "red-head") and s.turn.left == 1
    check(g, s)
    assert not any(isinstance(a, Trade) for a in g.legal_actions(s))


def test_production_refuses_other_boards_actions():
    g = load(2)
    s = start(g, (PROD0, ASM0), parts=("red-head",))
    assert_illegal(g, s, PlacePart("red-head", "red"), "BF-PROD")
    assert_illegal(g, s, Raise("red"), "BF-PROD")
    assert_illegal(g, s, Swap("red-head", 0), "BF-ASM-SWAP")
    s = g.apply(s, Rotate())
    assert_illegal(g, s, Rotate(), "BF-ROUND")  # one action on the first space


# --- Project board ----------------------------------------------------------------------------------------


def test_take_projects_up_to_the_space_count():
    g = load(2)
    s = start(g, (PROJ2, ASM0), tokens=1)
    assert {a for a in g.legal_actions(s) if isinstance(a, TakeProject)} == {
        TakeProject(c, r) for c in range(2) for r in range(3)
    }
    s = g.apply(s, TakeProject(0, 2))
    assert s.hands[0].projects == ("blue",) and s.grid[0] == ("red", "yellow", None)
    assert_illegal(g, s, TakeProject(0, 2), "BF-PROJ")
    assert_illegal(g, s, TakeProject(2, 0), "BF-PROJ")
    s = g.apply(s, TakeProject(1, 0))  # right column bottom: one token
    assert s.hands[0].tokens == 2 and s.hands[0].projects == ("blue", "green")
    s = g.apply(s, TakeProject(1, 2))
    assert s.turn.left == 0 and not any(isinstance(a, TakeProject) for a in g.legal_actions(s))
    assert_illegal(g, s, TakeProject(0, 0), "BF-ROUND")
    assert s.grid == (("red", "yellow", None), (None, "red", None))  # no refill until Sandra or maintenance
    check(g, s)


def test_left_column_bottom_places_a_part_for_a_token():
    g = load(2)
    s = start(g, (PROJ1, ASM0), tokens=1, parts=("green-legs",))
    s = g.apply(s, TakeProject(0, 0))
    assert s.turn.prompt == ("place",)
    assert g.legal_actions(s) == (PlacePart("green-legs", "green"), Skip())
    s = g.apply(s, PlacePart("green-legs", "green"))
    assert s.hands[0].tokens == 2 and s.hands[0].parts == () and s.hands[0].projects == ("red",)
    check(g, s)
    s2 = start(g, (PROJ1, ASM0), tokens=1, parts=("green-legs",))
    s2 = g.apply(g.apply(s2, TakeProject(0, 0)), Skip())
    assert s2.hands[0].tokens == 1 and s2.hands[0].parts == ("green-legs",) and s2.turn.left == 1


def test_exchange_two_projects_for_a_universal_part():
    g = load(2)
    s = start(g, (PROJ0, ASM0), projects=("red", "blue", "blue"))
    ex = {a for a in g.legal_actions(s) if isinstance(a, Exchange)}
    assert Exchange(("blue", "red"), "legs") in ex and Exchange(("blue", "blue"), "head") in ex
    assert_illegal(g, s, Exchange(("red", "red"), "legs"), "BF-PROJ-TRADE")
    s = g.apply(s, Exchange(("red", "blue"), "legs"))
    assert s.hands[0].projects == ("blue",) and s.hands[0].parts == ("any-legs", "red-legs")
    assert s.universal == (2, 2, 1) and s.project_discard == (1, 0, 1, 0)
    assert s.turn.left == 1  # free: the main action is untouched
    check(g, s)
    # no Universal part of a slot left: not offered
    s = with_hand(s, 0, projects=("red", "red"), parts=("any-legs", "any-legs"))
    assert not any(isinstance(a, Exchange) and a.slot == "legs" for a in g.legal_actions(s))


# --- Finance ----------------------------------------------------------------------------------------------


def test_raise_costs_a_token_each():
    g = load(2)
    s = start(g, (FIN2, ASM0), sandra=PROJ0, tokens=5)
    assert s.turn.main == "open" and s.turn.left == 3
    s = g.apply(s, Raise("red"))
    s = g.apply(s, Raise("red"))
    assert s.turn.prompt == ("place_free",)  # red reached 5
    assert_illegal(g, s, Raise("blue"), "BF-FIN-LINE")
    s = g.apply(s, Skip())
    s = g.apply(s, Raise("blue"))
    assert s.values == (5, 3, 4, 3) and s.hands[0].tokens == 2 and s.turn.left == 0
    assert not any(isinstance(a, Raise) for a in g.legal_actions(s))
    assert_illegal(g, s, Raise("red"), "BF-ROUND")
    check(g, s)


def test_raise_needs_a_token_and_stops_at_the_top():
    g = load(2)
    s = start(g, (FIN2, ASM0), sandra=PROJ0, tokens=0)
    assert not any(isinstance(a, Raise) for a in g.legal_actions(s))
    assert_illegal(g, s, Raise("red"), "BF-FIN-RAISE")
    s = with_hand(s, 0, tokens=2)
    s = attrs.evolve(s, values=(10, 3, 3, 3))
    assert Raise("red") not in g.legal_actions(s)
    assert_illegal(g, s, Raise("red"), "BF-FIN-RAISE")
    assert_illegal(g, s, Raise("pink"))


def test_line_five_gives_a_free_placement():
    g = load(2)
    s = start(g, (FIN1, ASM0), sandra=PROJ0, tokens=3, parts=("yellow-torso",))
    s = attrs.evolve(s, values=(4, 3, 3, 3))
    s = g.apply(s, Raise("red"))
    assert s.turn.prompt == ("place_free",)
    assert g.legal_actions(s) == (PlacePart("yellow-torso", "yellow"), Skip())
    assert_illegal(g, s, Raise("red"), "BF-FIN-LINE")
    s = g.apply(s, PlacePart("yellow-torso", "yellow"))
    assert s.hands[0].tokens == 4  # 3 - 1 for the raise + 2, nothing for the placement
    assert s.turn.prompt == ("icon",)  # the torso space's icon
    s = g.apply(s, Skip())
    s = g.apply(s, Raise("red"))  # 5 -> 6: no line
    assert s.turn.prompt == () and s.values[0] == 6
    check(g, s)


def test_line_eight_gives_a_project():
    g = load(2)
    s = start(g, (FIN1, ASM0), sandra=PROJ0, tokens=3)
    s = attrs.evolve(s, values=(3, 7, 3, 3))
    s = g.apply(s, Raise("yellow"))
    assert s.turn.prompt == ("project",)
    assert set(g.legal_actions(s)) == {*(TakeProject(c, r) for c in range(2) for r in range(3)), Skip()}
    s = g.apply(s, TakeProject(1, 0))  # the right column's bottom bonus too
    assert s.hands[0].projects == ("green",) and s.hands[0].tokens == 3
    assert s.turn.left == 1
    check(g, s)


WHOLE_COST = {"rulings": {"reservation_tokens": "whole_cost"}}


def test_reserve_contracts():
    g = load(3, variant=WHOLE_COST)  # the reading of 0.3.0 (tests/botfactory/test_rulings.py: the others)
    s = start(g, (FIN2, FIN1, ASM0), sandra=PROJ0, tokens=5)
    assert {a for a in g.legal_actions(s) if isinstance(a, Reserve)} == {Reserve(i) for i in range(4)}
    s = g.apply(s, Reserve(1))
    assert s.reserved[1] == (0,) and s.hands[0].tokens == 3 and s.turn.left == 1
    assert g.on_contracts(s, 0) == 2
    assert Reserve(1) not in g.legal_actions(s)
    assert_illegal(g, s, Reserve(1), "BF-FIN-CONTRACT")  # nobody twice
    assert_illegal(g, s, Reserve(2), "BF-FIN")  # 2 tokens, 1 left to spend
    assert_illegal(g, s, Reserve(7), "BF-FIN-CONTRACT")
    s = g.apply(s, EndTurn())
    assert g.to_move(s) == 1
    s = with_hand(s, 1, tokens=3)
    s = g.apply(s, Reserve(1))  # the second, on the lower space: 1 token
    assert s.reserved[1] == (0, 1) and s.hands[1].tokens == 2 and s.turn.left == 1
    check(g, s)
    s = g.apply(s, EndTurn())
    s = with_hand(s, 2, tokens=3)
    s = attrs.evolve(s, workers=(FIN2, FIN1, FIN0), turn=attrs.evolve(s.turn, left=3))
    assert Reserve(1) not in g.legal_actions(s)
    assert_illegal(g, s, Reserve(1), "BF-FIN-CONTRACT")  # at most two


def test_reserve_needs_enough_actions_and_tokens():
    g = load(2)
    s = start(g, (FIN0, ASM0), sandra=PROJ0, tokens=5)
    s = attrs.evolve(s, turn=attrs.evolve(s.turn, left=1))
    assert not any(isinstance(a, Reserve) for a in g.legal_actions(s))
    assert_illegal(g, s, Reserve(0), "BF-FIN")
    s = start(g, (FIN2, ASM0), sandra=PROJ0, tokens=1)
    assert not any(isinstance(a, Reserve) for a in g.legal_actions(s))
    assert_illegal(g, s, Reserve(0), "BF-FIN-CONTRACT")


# --- sharing Sandra's board ---------------------------------------------------------------------------


def test_sharing_sandras_board_costs_a_token():
    g = load(2)
    s = start(g, (FIN2, ASM0), tokens=3)  # Sandra on the Finance board's first space
    assert s.turn.main == "share"
    assert g.legal_actions(s) == (PayShare(), Skip())
    assert_illegal(g, s, Raise("red"), "BF-SANDRA-SHARE")
    assert_illegal(g, s, EndTurn(), "BF-SANDRA-SHARE")
    paid = g.apply(s, PayShare())
    assert paid.hands[0].tokens == 2 and paid.turn.main == "open"
    assert Raise("red") in g.legal_actions(paid)
    skipped = g.apply(s, Skip())  # by default (unpaid_share = "nothing"): the turn ends
    assert skipped.hands[0].tokens == 3 and g.to_move(skipped) == 1 and skipped.index == 1
    check(g, skipped)


@pytest.mark.parametrize("variant", [None, {"rulings": {"unpaid_share": "nothing"}}])
def test_unpaid_share_nothing_ends_the_turn(variant):
    g = load(2, variant=variant)
    assert g.variant.rulings.unpaid_share == "nothing"
    s = start(g, (PROD1, ASM0), sandra=PROD0, tokens=0, parts=("red-head", "red-legs", "blue-head"))
    assert g.legal_actions(s) == (Skip(),)
    s = g.apply(s, Skip())
    assert g.to_move(s) == 1 and s.index == 1
    assert s.hands[0].parts == ("blue-head", "red-head", "red-legs")


def test_unpaid_share_additional_only_keeps_the_additional_action():
    g = load(2, variant={"rulings": {"unpaid_share": "additional_only"}})
    s = start(g, (PROD1, ASM0), sandra=PROD0, tokens=0, parts=("red-head", "red-legs", "blue-head"))
    assert g.legal_actions(s) == (Skip(),)
    s = g.apply(s, Skip())
    legal = g.legal_actions(s)
    assert Rotate() not in legal and any(isinstance(a, Trade) for a in legal)
    assert_illegal(g, s, Rotate(), "BF-ROUND")
    assert g.to_move(s) == 0
    s = g.apply(s, Trade(("blue-head", "red-head", "red-legs"), "blue"))
    assert g.to_move(s) is CHANCE


@pytest.mark.parametrize("ruling", ["nothing", "additional_only"])
def test_the_last_assembly_space_alone_is_no_share(ruling):
    # without Sandra, not paying the last space's token leaves the additional action under either ruling
    g = load(2, variant={"rulings": {"unpaid_share": ruling}})
    s = start(g, (ASM2, PROD0), tokens=0, parts=("red-head",))
    s = with_spares(s, ["blue-legs", None])
    s = with_hand(s, 0, tokens=1)
    s = g.apply(s, Skip())
    assert g.to_move(s) == 0 and Swap("red-head", 0) in g.legal_actions(s)


def test_sandra_and_the_last_assembly_space_cost_two_in_one_payment_when_combined():
    g = load(2, variant={"rulings": {"last_space_toll": "combined"}})
    s = start(g, (ASM2, PROD0), sandra=ASM0, tokens=1, parts=("red-head",))
    assert g.legal_actions(s) == (Skip(),)
    assert_illegal(g, s, PayShare(), "BF-SANDRA-SHARE")
    s = with_hand(s, 0, tokens=2)
    s = g.apply(s, PayShare())
    assert s.hands[0].tokens == 0 and s.turn.main == "open"


# --- limits ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("held", "after"), [(6, 8), (7, 9), (8, 9), (9, 9)])
def test_tokens_never_above_nine(held, after):
    g = load(2)
    s = start(g, (ASM0, PROD0), tokens=held, parts=("red-head",))
    s = g.apply(s, PlacePart("red-head", "red"))
    assert s.hands[0].tokens == after
    check(g, s)


def test_right_column_bonus_lost_at_nine():
    g = load(2)
    s = start(g, (PROJ0, ASM0), tokens=9)
    s = g.apply(s, TakeProject(1, 0))
    assert s.hands[0].tokens == 9


def test_tokens_on_contracts_leave_less_in_the_supply():
    g = load(2, variant=WHOLE_COST)
    s = start(g, (ASM0, PROD0), tokens=6, parts=("red-head",))
    # 2 of seat 0's tokens on a contract, taken from the supply
    s = attrs.evolve(s, reserved=((0,), (), (), ()), supply=(s.supply[0] - 2, *s.supply[1:]))
    check(g, s)
    s = g.apply(s, PlacePart("red-head", "red"))
    assert s.hands[0].tokens == 7  # 6 held + 2 on the contract + 1 in the supply
    check(g, s)


def test_over_five_parts_the_owner_discards():
    g = load(2)
    parts = ("red-head", "red-head", "blue-legs", "green-torso", "any-head")
    s = start(g, (PROD2, ASM0), tokens=1, parts=parts)
    s = g.apply(s, TakeOutput(4))
    assert s.phase is Phase.DISCARD and g.to_move(s) == 0
    assert g.legal_actions(s) == tuple(DiscardPart(p) for p in sorted(set((*parts, "yellow-torso"))))
    assert_illegal(g, s, DiscardPart("red-legs"), "BF-LIMIT-PARTS")
    assert_illegal(g, s, EndTurn())
    assert_illegal(g, s, DiscardProject("red"))
    s = g.apply(s, DiscardPart("any-head"))
    assert s.phase is Phase.ACTION and s.universal == (2, 2, 2) and len(s.hands[0].parts) == 5
    s2 = g.apply(g.apply(s, TakeOutput(5)), Skip())  # the marked space's offer first, then the limit
    assert s2.phase is Phase.DISCARD
    s2 = g.apply(s2, DiscardPart("red-head"))
    assert s2.discards[0] == (1, 0, 0) and s2.phase is Phase.ACTION
    check(g, s2)


def test_limit_waits_for_a_pending_choice():
    g = load(2)
    parts = ("red-head", "red-head", "blue-legs", "green-torso", "any-head")
    s = start(g, (PROD2, ASM0), tokens=1, parts=parts)
    s = g.apply(s, TakeOutput(5))
    assert s.phase is Phase.ACTION and s.turn.prompt == ("place",) and len(s.hands[0].parts) == 6
    check(g, s)
    s = g.apply(s, PlacePart("green-torso", "green"))  # back to five: no discard
    assert s.turn.prompt == ("icon",)
    s = g.apply(s, TakeTop("red"))
    s = g.apply(s, DrawPart("legs"))
    assert s.phase is Phase.DISCARD  # the icon's part made six


def test_over_five_projects_completed_ones_are_never_discarded():
    g = load(2)
    s = start(g, (PROJ2, ASM0), projects=("blue",), done=("red", "red", "yellow", "green"))
    check(g, s)
    s = g.apply(s, TakeProject(0, 1))  # a yellow: six tiles
    assert s.phase is Phase.DISCARD and g.to_move(s) == 0
    assert g.legal_actions(s) == (DiscardProject("blue"), DiscardProject("yellow"))
    assert_illegal(g, s, DiscardProject("red"), "BF-LIMIT-PROJECTS")
    s = g.apply(s, DiscardProject("blue"))
    assert s.hands[0].projects == ("yellow",) and s.hands[0].done == ("green", "red", "red", "yellow")
    assert s.project_discard == (0, 0, 1, 0) and s.phase is Phase.ACTION
    check(g, s)


def test_parts_are_discarded_before_projects():
    g = load(2)
    parts = ("red-head", "red-head", "blue-legs", "green-torso", "any-head")
    s = start(g, (PROJ2, ASM0), parts=parts, projects=("blue", "blue", "red", "green", "green"))
    s = g.apply(s, Exchange(("blue", "blue"), "legs"))
    # 6 parts, 3 projects: only parts
    assert s.phase is Phase.DISCARD and all(isinstance(a, DiscardPart) for a in g.legal_actions(s))
    s = g.apply(s, DiscardPart("any-legs"))
    assert s.phase is Phase.ACTION
    check(g, s)


# --- Sandra's actions and maintenance ------------------------------------------------------------------


def _last_turn_round_two(sandra, players=2, spaces=(PROJ2, ASM0), **changes):
    """Seat 0's first turn of a round-1 state relabelled round 2, Sandra on ``sandra``."""
    g = load(players)
    s = start(g, spaces, sandra=sandra)
    s = attrs.evolve(s, round=2, **changes)
    check(g, s)
    return g, s


def _end_turns(g, s):
    while s.phase is Phase.ACTION and s.turn is not None:
        s = quiet(g, s)
    return s


def test_sandra_does_nothing_in_round_one():
    g = load(2)
    s = start(g, (PROJ2, ASM0), sandra=ASM1)
    s = finish_round(g, s)
    assert s.spares == (None, None) and s.values == (3, 3, 3, 3) and s.marker == 0


def test_sandra_on_assembly_clears_the_spares_and_draws_two():
    g, s = _last_turn_round_two(PROD0, spaces=(PROJ2, FIN1))
    s = attrs.evolve(s, sandra=ASM0)
    s = with_spares(s, ["blue-head", "any-torso"])
    s = _end_turns(g, s)
    assert s.spares == (None, None) and s.discards[2] == (1, 0, 0) and s.universal == (2, 2, 2)
    assert g.to_move(s) is CHANCE
    assert dict(g.chance_outcomes(s)) == {  # the red pile (the marker): a head and a torso on the Wheel,
        DrawPart("head"): Fraction(3, 8),  # two legs picked
        DrawPart("torso"): Fraction(3, 8),
        DrawPart("legs"): Fraction(2, 8),
    }
    s = g.apply(s, DrawPart("torso"))
    assert s.marker == 1
    assert dict(g.chance_outcomes(s))[DrawPart("head")] == Fraction(3, 10)  # yellow
    s = g.apply(s, DrawPart("head"))
    assert s.spares == ("red-torso", "yellow-head") and s.marker == 2
    check(g, s)


def test_sandra_on_production_fills_the_wheel_from_left_of_the_outputs():
    g, s = _last_turn_round_two(PROD0, spaces=(PROJ2, FIN1))
    s = with_wheel(s, [None, "blue-torso", None, "red-head", None, None, None, "red-torso"])
    s = attrs.evolve(s, marker=3)
    s = _end_turns(g, s)
    filled = []
    while g.to_move(s) is CHANCE and s.phase is Phase.ACTION and any(w is None for w in s.wheel):
        marker = s.marker
        before = s.wheel
        s = g.apply(s, DrawPart("legs"))
        (pos,) = [i for i in range(8) if before[i] != s.wheel[i]]
        assert s.wheel[pos] == f"{COLOURS[marker]}-legs"
        filled.append(pos)
    assert filled == [6, 0, 2, 4, 5]
    assert s.marker == (3 + 5) % 4
    check(g, s)


def test_sandra_on_project_slides_and_refills():
    g, s = _last_turn_round_two(PROJ0, spaces=(ASM0, FIN1))
    s = _end_turns(g, s)
    # Sandra: each bottom tile to the discard, the others down, the tops refilled
    assert s.grid == (("yellow", "blue", None), ("red", "yellow", None))
    assert s.project_discard == (1, 0, 0, 1)
    s = resolve(g, s, DrawProject("green"), DrawProject("blue"))
    # then maintenance does it again
    assert s.grid == (("blue", "green", None), ("yellow", "blue", None))
    assert s.project_discard == (2, 1, 0, 1)
    s = resolve(g, s, DrawProject("red"), DrawProject("red"))
    assert s.phase is Phase.MOVE and s.round == 3
    check(g, s)


@pytest.mark.parametrize(
    ("values", "after"),
    [((3, 3, 3, 3), (3, 3, 3, 3)), ((2, 5, 2, 4), (3, 5, 3, 4)), ((6, 5, 7, 8), (6, 6, 7, 8))],
)
def test_sandra_on_finance_raises_the_lowest(values, after):
    g, s = _last_turn_round_two(FIN0, spaces=(ASM0, PROD0), values=values)
    s = _end_turns(g, s)
    assert s.values == after


def test_maintenance_clears_completed_bots_and_lowers_their_value():
    g = load(2)
    s = start(g, (ASM1, PROD0), parts=("any-legs",), projects=("green",))
    s = with_column(s, "green", ["green-head", "green-torso"])
    s = with_column(s, "red", ["red-head"])
    s = g.apply(s, PlacePart("any-legs", "green"))
    assert s.hands[0].done == ("green",)
    s = finish_round(g, s)
    assert s.columns == ((("red-head", None, None)), (None,) * 3, (None,) * 3, (None,) * 3)
    assert s.values == (3, 3, 3, 2)
    assert s.discards[3] == (1, 1, 0) and s.universal == (2, 2, 2)
    assert s.phase is Phase.MOVE and s.round == 2
    check(g, s)


def test_value_never_below_zero():
    g = load(2)
    s = start(g, (ASM1, PROD0), parts=("red-legs",), projects=("red",))
    s = with_column(s, "red", ["red-head", "red-torso"])
    s = attrs.evolve(s, values=(0, 3, 3, 3))
    s = finish_round(g, g.apply(s, PlacePart("red-legs", "red")))
    assert s.values == (0, 3, 3, 3)


def test_maintenance_project_refill_with_probabilities():
    g = load(2)
    s = start(g, (ASM0, PROD0))
    s = _end_turns(g, s)
    assert s.grid == (("yellow", "blue", None), ("red", "yellow", None))
    assert dict(g.chance_outcomes(s)) == {
        DrawProject("red"): Fraction(4, 18),
        DrawProject("yellow"): Fraction(4, 18),
        DrawProject("blue"): Fraction(5, 18),
        DrawProject("green"): Fraction(5, 18),
    }


def test_an_empty_project_stack_reshuffles_its_discard():
    g = load(2)
    s = start(g, (ASM0, PROD0))
    # all 18 tiles of the stack in seat 1's hand (as if), the discard empty
    s = with_hand(s, 1, projects=())
    s = attrs.evolve(s, project_pile=(0, 0, 0, 0), project_discard=(4, 4, 5, 5))
    check(g, s)
    s = _end_turns(g, s)
    # the two bottom tiles went to the discard, which became the stack
    assert s.project_discard == (0, 0, 0, 0) and s.project_pile == (5, 4, 5, 6)
    assert dict(g.chance_outcomes(s))[DrawProject("green")] == Fraction(6, 20)


def test_an_empty_pile_reshuffles_its_discard_for_the_marker():
    g, s = _last_turn_round_two(PROD0, spaces=(PROJ2, FIN1))
    s = attrs.evolve(s, sandra=ASM0)
    red = s.piles[0]
    s = attrs.evolve(s, piles=((0, 0, 0), *s.piles[1:]), discards=(red, *s.discards[1:]))
    s = _end_turns(g, s)
    assert s.marker == 0 and s.piles[0] == red and s.discards[0] == (0, 0, 0)


def test_the_marker_passes_over_exhausted_piles():
    g, s = _last_turn_round_two(PROD0, spaces=(PROJ2, FIN1))
    s = attrs.evolve(s, sandra=ASM0)
    # red and yellow: nothing in the piles nor the discards (the tiles on the Wheel, as if)
    s = attrs.evolve(s, piles=((0, 0, 0), (0, 0, 0), *s.piles[2:]))
    s = _end_turns(g, s)
    assert s.marker == 2
    s = g.apply(s, DrawPart("head"))
    assert s.spares[0] == "blue-head" and s.marker == 3


# --- the end and scoring ------------------------------------------------------------------------------


def _complete(g, s, colour="red"):
    s = with_hand(s, 0, parts=(f"{colour}-legs",), projects=(colour,))
    s = with_column(s, colour, [f"{colour}-head", f"{colour}-torso"])
    return g.apply(s, PlacePart(f"{colour}-legs", colour))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_colours_last_bot_ends_the_game_after_maintenance(players):
    g = load(players)
    assert g.end_count == players  # as many bots of a colour as players (seed: four with four players)
    s = start(g, (ASM1, PROD0, PROJ0, FIN1)[:players])
    s = with_hand(s, 1, done=("red",) * (players - 1))
    s = _complete(g, s)
    assert s.bots_left[0] == 0 and s.phase is Phase.ACTION  # not yet
    s = _end_turns(g, s)
    assert not g.is_terminal(s) and g.to_move(s) is CHANCE  # maintenance's Project draws
    s = finish_round(g, s)
    assert g.is_terminal(s) and s.phase is Phase.OVER and s.round == 1
    assert s.values[0] == 2  # maintenance happened
    assert g.to_move(s) is None and g.legal_actions(s) == ()
    assert_illegal(g, s, EndTurn(), "BF-END")
    check(g, s)


def test_three_of_four_bots_of_a_colour_do_not_end_the_game():
    g = load(4)
    s = start(g, (ASM1, PROD0, PROJ0, FIN1))
    s = with_hand(s, 1, done=("red", "red"))
    s = finish_round(g, _complete(g, s))
    assert s.phase is Phase.MOVE and s.round == 2


def test_a_fifth_bot_ends_the_game():
    g = load(2)
    s = start(g, (ASM1, PROD0))
    s = with_hand(s, 0, done=("red", "yellow", "blue", "green"))
    s = finish_round(g, _complete(g, s, "blue"))
    assert g.is_terminal(s) and s.hands[0].done == ("blue", "blue", "green", "red", "yellow")


def test_bots_per_colour_to_end_ruling():
    g = load(2, variant={"rulings": {"bots_per_colour_to_end": 1}})
    s = start(g, (ASM1, PROD0))
    s = finish_round(g, _complete(g, s, "yellow"))
    assert g.is_terminal(s)


@pytest.mark.parametrize("rounds", [1, 2, 3])
def test_max_rounds_caps_the_game(rounds):
    g = load(2, max_rounds=rounds)
    s = start(g, (ASM1, PROD0))
    for r in range(1, rounds + 1):
        assert s.round == r and not g.is_terminal(s)
        s = finish_round(g, s)
        while s.phase is Phase.MOVE:
            s = g.apply(s, g.legal_actions(s)[0])
    assert g.is_terminal(s) and s.round == rounds


def _scored(g, s, hands, reserved=((), (), (), ()), values=(6, 4, 3, 3)):
    for seat, (tokens, parts, projects, done) in enumerate(hands):
        s = with_hand(s, seat, tokens=tokens, parts=parts, projects=projects, done=done)
    return attrs.evolve(s, reserved=reserved, values=values, phase=Phase.OVER, turn=None)


def test_scores():
    g = load(2)
    s = start(g, (ASM0, PROD0))
    # contracts 1 (2 red, 6), 5 (red + yellow, 5), 11 (red, 3), 14 (green, 3)
    s = _scored(
        g,
        s,
        [(5, ("red-head",), ("blue",), ("red", "red", "yellow")), (4, (), ("red", "red"), ("green",))],
        reserved=((0,), (1, 0), (1,), (0, 1)),
    )
    # seat 0: bots 6 + 6 + 4; contract 1 (higher space, 2) and 5 (lower, 1) cannot both be met for lack of
    # a third red: best is 1 met + 5 unmet (8 - 1) = 7 against 5 met + 1 unmet (6 - 2) = 4; contract 14
    # (higher, 2) unmet: -2 -> 5; tokens 5 // 2 = 2; a part -1; a Project -2
    assert g.contract_score(s, 0) == 5
    # seat 1: green 3; contract 5 (higher) unmet -2, 11 (higher) unmet -2, 14 (lower) met 1 + 3 -> 0;
    # tokens 2; two Projects -4
    assert g.contract_score(s, 1) == 0
    assert g.scores(s) == (16 + 5 + 2 - 1 - 2, 3 + 0 + 2 - 4)
    assert g.winners(s) == (0,)


def test_a_bot_serves_one_contract_and_a_contract_may_take_two():
    g = load(2)
    s = start(g, (ASM0, PROD0))
    s = _scored(g, s, [(0, (), (), ("red", "red")), (0, (), (), ())], reserved=((0,), (), (0,), ()))
    # contract 1 (2 red) + contract 11 (1 red): three reds needed; best: 1 met (8) and 11 unmet (-2)
    assert g.contract_score(s, 0) == 6
    s = with_hand(s, 0, done=("red", "red", "red"))
    assert g.contract_score(s, 0) == 8 + 5
    assert g.scores(s)[0] == 18 + 13


def test_no_contracts_score_nothing():
    g = load(2)
    s = start(g, (ASM0, PROD0))
    s = _scored(g, s, [(3, (), (), ()), (0, ("red-head",), (), ())])
    assert g.scores(s) == (1, -1)


def test_tie_goes_to_more_bots():
    g = load(2)
    s = start(g, (ASM0, PROD0))
    s = _scored(g, s, [(6, (), (), ("blue",)), (0, (), (), ("red",))], values=(6, 3, 6, 3))
    # 6 + 3 = 9 against 6 + 0
    assert g.scores(s) == (9, 6)
    s = _scored(g, s, [(0, (), (), ("blue",)), (0, (), (), ("green", "yellow"))], values=(3, 3, 6, 3))
    assert g.scores(s) == (6, 6) and g.winners(s) == (1,)


def test_tie_then_odd_tokens_else_shared():
    g = load(3)
    s = start(g, (ASM0, PROD0, PROJ0))
    s = _scored(g, s, [(4, (), (), ()), (5, (), (), ()), (4, (), (), ())])
    assert g.scores(s) == (2, 2, 2) and g.winners(s) == (1,)
    s = _scored(g, s, [(4, (), (), ()), (4, (), (), ()), (1, (), (), ())])
    assert g.scores(s) == (2, 2, 0) and g.winners(s) == (0, 1)
    s = _scored(g, s, [(5, (), (), ()), (5, (), (), ()), (1, (), (), ())])
    assert g.winners(s) == (0, 1)


# --- random playouts ------------------------------------------------------------------------------------


def _check_walk(game, seed: int, max_steps=None) -> tuple[int, object]:
    steps = 0
    last = game.initial_state()
    check(game, last)
    for before, action, after in walk(game, seed, max_steps):
        assert action in game.legal_actions(before)
        check(game, after)
        last = after
        steps += 1
    for name, f in GAME_INVARIANTS:
        assert f(game, last, steps) is None, name
    assert steps <= game.info.max_length
    if game.max_rounds is None:  # the seed's ends only: over, or truncated by the runner as round 41 begins
        assert game.is_terminal(last) or (last.round == game.runner_rounds + 1 and last.phase is Phase.MOVE)
    else:
        assert game.is_terminal(last) and last.phase is Phase.OVER
    scores = game.scores(last)
    assert game.winners(last) and all(scores[w] == max(scores) for w in game.winners(last))
    return steps, last


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(3))
def test_invariants_over_random_playouts(players, seed):
    steps, _final = _check_walk(load(players), seed)
    assert steps > 0


@pytest.mark.parametrize(
    ("players", "variant", "options"),
    [
        (2, {"rulings": {"unpaid_share": "nothing"}}, {}),
        (3, {"rulings": {"bots_per_colour_to_end": 1}}, {}),
        (4, None, {"max_rounds": 3}),
        (3, {"boards": {"production": [2, 3], "finance": [1, 3], "sandra_start": 8}}, {}),
    ],
)
def test_invariants_over_random_playouts_with_variants(players, variant, options):
    g = load(players, variant=variant, **options)
    for seed in range(2):
        _check_walk(g, seed)


class _Eager:
    """Random legal play that leans towards building (placing parts, taking Projects and outputs, paying
    tolls; moving to Assembly with parts and Projects in hand), so that games reach the bot triggers of
    BF-END and not only the round cap."""

    PREFER = (PlacePart, TakeProject, PayShare, TakeOutput, Exchange, Rotate)

    def __init__(self, game, seed):
        self.game = game
        self.rng = random.Random(seed)
        self.seen: Counter[str] = Counter()

    def choose(self, s):
        g, rng = self.game, self.rng
        legal = g.legal_actions(s)
        keen = [a for a in legal if isinstance(a, self.PREFER)]
        if s.phase is Phase.MOVE:
            hand = s.hands[g.to_move(s)]
            board = 0 if hand.parts and hand.projects else (1 if len(hand.parts) < 3 else 2)
            keen = [a for a in legal if g.spaces[a.space][0] == board]
        if any(isinstance(a, PlacePart) for a in keen):
            keen = [a for a in keen if isinstance(a, PlacePart)]
        return rng.choice(keen if keen and rng.random() < 0.9 else legal)

    def run(self):
        g, rng = self.game, self.rng
        s = g.initial_state()
        for step in range(g.info.max_length):
            if g.is_terminal(s):
                return s, step
            if g.to_move(s) is CHANCE:
                outcomes = g.chance_outcomes(s)
                action = rng.choices([a for a, _p in outcomes], weights=[float(p) for _a, p in outcomes])[0]
            else:
                action = self.choose(s)
            self.seen[type(action).__name__] += 1
            s = g.apply(s, action)
            check(g, s)
        raise AssertionError("the game did not end within info.max_length")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_eager_playouts(players):
    g = load(players, max_rounds=40)  # the game's own cap: every game ends, by the bots or at round 40
    built = early = 0
    seen: Counter[str] = Counter()
    for seed in range(4):
        player = _Eager(g, seed)
        final, steps = player.run()
        seen.update(player.seen)
        assert g.is_terminal(final) and steps <= g.info.max_length
        done = sum(len(h.done) for h in final.hands)
        assert done == 4 * g.end_count - sum(final.bots_left)
        built += done
        if final.round < g.max_rounds:  # ended by the bots
            early += 1
            assert any(left == 0 for left in final.bots_left) or any(len(h.done) >= 5 for h in final.hands)
    assert built > 0
    if players == 2:
        assert early > 0
    for name in ("TakeTop", "MoveWorker", "PlacePart", "Rotate", "TakeOutput", "TakeProject", "EndTurn", "Skip"):
        assert seen[name] > 0, name


@pytest.mark.heavy
@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_over_many_playouts(players):
    g = load(players)
    for seed in range(3, 60):
        _check_walk(g, seed)
        _Eager(g, 1000 + seed).run()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance_suite(players):
    assert check_game(load(players), range(2)) > 0


@pytest.mark.parametrize(
    "variant",
    [
        {"rulings": {"unpaid_share": "additional_only", "bots_per_colour_to_end": 1}},
        {"boards": {"project_rows": 2, "icon_slots": ["head", "legs"]}, "finance": {"lines": [4, 6]}},
    ],
)
def test_conformance_suite_with_variants(variant):
    assert check_game(load(3, variant=variant), range(1)) > 0


@pytest.mark.heavy
@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance_suite_heavy(players):
    assert check_game(load(players), range(2, 20)) > 0


# --- every phase: legal actions apply, everything else is refused -----------------------------------------

PARTS = tuple(f"{c}-{s}" for c in (*COLOURS, "any") for s in SLOTS)


def _candidates(s):
    """A broad net of actions, legal and not, for the state ``s``."""
    hand_parts = sorted({p for h in s.hands for p in h.parts}) or ["red-head"]
    out = [TakeTop(c) for c in (*COLOURS, "pink")]
    out += [MoveWorker(i) for i in range(-1, 13)]
    out += [PayShare(), Rotate(), Skip(), EndTurn()]
    out += [PlacePart(p, c) for p in PARTS for c in COLOURS]
    out += [Refill(pos, c) for pos in range(8) for c in COLOURS]
    out += [TakeOutput(p) for p in range(8)]
    out += [TakeProject(c, r) for c in range(3) for r in range(4)]
    out += [Raise(c) for c in COLOURS] + [Reserve(i) for i in range(-1, 5)]
    out += [Swap(p, i) for p in hand_parts for i in range(3)]
    out += [Trade(tuple(hand_parts[:3] * 3)[:3], c) for c in COLOURS]
    out += [Exchange(("red", "blue"), sl) for sl in SLOTS] + [Exchange(("red", "red"), "head")]
    out += [DiscardPart(p) for p in PARTS] + [DiscardProject(c) for c in COLOURS]
    out += [DrawPart(sl) for sl in SLOTS] + [DrawProject(c) for c in COLOURS]
    out += [DrawContract(i) for i in range(0, 16)]
    return out


def _signature(g, s):
    mover = g.to_move(s)
    if mover is None or mover is CHANCE or s.phase is not Phase.ACTION:
        return (s.phase, mover is CHANCE, s.draws[0][0] if s.draws else None)
    turn = s.turn
    if s.window:  # an additional-action window between turns
        return (s.phase, g.spaces[s.workers[mover]][0], "window", (), s.index >= g.players)
    return (s.phase, g.spaces[s.workers[mover]][0], turn.main, turn.prompt[:1], turn.left > 0)


def _sample_states(players, seeds):
    g = load(players, max_rounds=40)  # whole games: the game's own cap ends those the bots do not
    samples = {}
    for seed in seeds:
        player = _Eager(g, seed)
        s = g.initial_state()
        while not g.is_terminal(s):
            samples.setdefault(_signature(g, s), s)
            if g.to_move(s) is CHANCE:
                s = g.apply(s, player.rng.choice(g.chance_outcomes(s))[0])
            else:
                s = g.apply(s, player.choose(s))
        samples.setdefault(_signature(g, s), s)
    return g, samples


@pytest.mark.parametrize("players", [2, 4])
def test_every_phase_applies_its_legal_actions_and_refuses_the_rest(players):
    g, samples = _sample_states(players, range(2))
    kinds = {sig[0] for sig in samples}
    assert {Phase.SETUP, Phase.PICK, Phase.MOVE, Phase.ACTION, Phase.DISCARD, Phase.OVER} <= kinds
    prompts = {sig[3] for sig in samples if sig[0] is Phase.ACTION and len(sig) > 3}
    assert {(), ("icon",), ("place",), ("refill",)} <= prompts
    for s in samples.values():
        before = bgrules.dumps(s)
        legal = set(g.legal_actions(s))
        for action in legal:
            check(g, g.apply(s, action))
        for action in _candidates(s):
            if action in legal:
                continue
            with pytest.raises(IllegalAction) as info:
                g.apply(s, action)
            assert info.value.rule_id.startswith("BF-"), (action, info.value)
        assert bgrules.dumps(s) == before


def test_a_project_left_placement_is_refused_under_its_own_rule():
    g = load(2)
    s = start(g, (PROJ1, ASM0), tokens=1, parts=("green-legs",))
    s = g.apply(s, TakeProject(0, 0))
    assert_illegal(g, s, PlacePart("green-legs", "red"), "BF-PROJ-LEFT")
    assert_illegal(g, s, EndTurn(), "BF-PROJ-LEFT")


def test_a_part_discard_refuses_other_actions_under_the_parts_rule():
    g = load(2)
    parts = ("red-head", "red-head", "blue-legs", "green-torso", "any-head")
    s = start(g, (PROD2, ASM0), tokens=1, parts=parts)
    s = g.apply(s, TakeOutput(4))
    assert s.phase is Phase.DISCARD
    assert_illegal(g, s, EndTurn(), "BF-LIMIT-PARTS")
    assert_illegal(g, s, DiscardProject("red"), "BF-LIMIT-PARTS")
