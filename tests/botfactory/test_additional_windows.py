"""Bot Factory's additional-action windows at the seed's letter (issue 21), each under both values of its
ruling switch: the window after the move phase, before the first turn (BF-ADDITIONAL-WINDOW, ruling
``opening_window``), and a player on Sandra's board who paid her token keeping the board's additional
action in every later window of the round (BF-SANDRA-PAID, ruling ``paid_sharer``; ``state.paid``).

Action spaces: Assembly 0-2, Production 3-5, Project 6-8, Finance 9-11 (1, 2, 3 actions on each board)."""

from __future__ import annotations

import attrs
import pytest
from support.botfactory_positions import (
    ASM0,
    ASM1,
    FIN1,
    PROD0,
    PROD1,
    PROD2,
    PROJ0,
    PROJ1,
    assert_illegal,
    check,
    deal,
    finish_round,
    load,
    move,
    pick,
    resolve,
    start,
    with_hand,
    with_spares,
)

import bgrules
from bgrules import CHANCE
from bgrules.botfactory import windows
from bgrules.botfactory.state import (
    DrawPart,
    EndTurn,
    MoveWorker,
    PayShare,
    Phase,
    PlacePart,
    Rotate,
    Skip,
    Swap,
    Trade,
)
from bgrules.core import coverage

TRADE_PARTS = ("blue-head", "green-legs", "red-torso")
NO_OPENING = {"opening_window": "none"}
OWN_TURN_SHARER = {"paid_sharer": "own_turn"}


def game(players: int = 3, **rulings):
    return load(players, variant={"rulings": rulings} if rulings else None)


def test_the_defaults_are_the_seeds_letter():
    rulings = load(2).variant.rulings
    assert rulings.opening_window == "after_moves" and rulings.paid_sharer == "any_time"


# --- BF-ADDITIONAL-WINDOW: a window after the move phase, before the first turn ---------------------------


def _moving(g, trader: int = 2):
    """Round 1, the move phase: seats 0 and 1 have moved (Assembly, Projects); ``trader`` holds three parts
    to trade. The last move (seat 2) follows."""
    s = move(g, pick(g, deal(g)), ASM0, PROJ0)
    return with_hand(s, trader, tokens=2, parts=TRADE_PARTS)


def test_a_window_opens_after_the_last_move_before_the_first_turn():
    g = game()
    with coverage.probe() as counts:
        s = g.apply(_moving(g), MoveWorker(PROD0))  # seat 2, the last to move, onto the Production board
    assert counts.effects["BF-ADDITIONAL-WINDOW"] == 1
    assert s.phase is Phase.ACTION and s.index == 0 and s.turn is None and s.window == (2,)
    assert g.to_move(s) == 2
    legal = g.legal_actions(s)
    assert legal[-1] == EndTurn() and all(isinstance(a, Trade) for a in legal[:-1]) and len(legal) == 5
    check(g, s)
    s = g.apply(s, Trade(TRADE_PARTS, "red"))
    assert g.to_move(s) is CHANCE and s.window == (2,) and s.index == 0
    s = resolve(g, s, DrawPart("legs"))
    # one part left: the window closes by itself and the first turn (seat 0's) begins
    assert s.window == () and g.to_move(s) == 0 and s.turn is not None and s.turn.main == "open"
    assert s.hands[2].parts == ("red-legs",)
    check(g, s)


def test_passing_the_window_after_the_moves_opens_the_first_turn():
    g = game()
    s = g.apply(g.apply(_moving(g), MoveWorker(PROD0)), EndTurn())
    assert s.window == () and g.to_move(s) == 0 and s.index == 0 and s.turn.left == 1
    assert s.hands[2].parts == TRADE_PARTS


@pytest.mark.parametrize("action", [Rotate(), PlacePart("red-torso", "red")])
def test_only_additional_actions_before_the_first_turn(action):
    g = game()
    s = g.apply(_moving(g), MoveWorker(PROD0))
    exc = assert_illegal(g, s, action, "BF-ADDITIONAL-WINDOW")
    assert "before the first turn only additional actions" in str(exc)


def test_the_first_player_gets_no_window_before_their_own_turn():
    g = game()
    s = move(g, pick(g, deal(g)), PROD0)
    s = with_hand(s, 0, tokens=2, parts=TRADE_PARTS)  # seat 0 could trade, but acts first
    s = move(g, s, ASM0, PROJ0)
    assert s.window == () and g.to_move(s) == 0 and s.turn is not None


def test_the_window_after_the_moves_asks_in_action_order():
    g = game()
    s = move(g, pick(g, deal(g)), ASM0)
    s = with_hand(s, 1, tokens=2, parts=TRADE_PARTS)
    s = with_hand(s, 2, tokens=2, parts=("yellow-head", "blue-legs", "green-torso"))
    s = move(g, s, PROD0, PROD1)
    assert s.window == (1, 2) and g.to_move(s) == 1
    s = g.apply(s, EndTurn())
    assert s.window == (2,) and g.to_move(s) == 2 and s.turn is None
    s = g.apply(s, EndTurn())
    assert s.window == () and g.to_move(s) == 0 and s.turn is not None


@pytest.mark.parametrize("rulings", [NO_OPENING, {"additional_actions": "own_turn"}])
def test_the_old_readings_start_the_first_turn_at_once(rulings):
    g = game(**rulings)
    with coverage.probe() as counts:
        s = g.apply(_moving(g), MoveWorker(PROD0))
    assert "BF-ADDITIONAL-WINDOW" not in counts.effects
    assert s.window == () and g.to_move(s) == 0 and s.turn is not None and s.turn.main == "open"
    assert not any(isinstance(a, Trade) for a in g.legal_actions(s))  # seat 0 stands on Assembly


def _round_two_moving(g):
    """Round 2, the move phase, from Production, Projects and Production: seat 0 goes to Projects, seat 1
    to Production, then seat 2 to Assembly with a token and a part to swap (a spare on the board); Sandra
    then moves from Finance onto the Assembly board's first empty space, seat 2's board."""
    s = attrs.evolve(pick(g, deal(g)), round=2, workers=(PROD0, PROJ0, PROD2), sandra=FIN1)
    s = with_spares(with_hand(s, 2, tokens=2, parts=("red-head",)), ["blue-legs", None])
    return move(g, s, PROJ1, PROD1)


@pytest.mark.parametrize(("unpaid", "window"), [("nothing", ()), ("additional_only", (2,))])
def test_the_window_after_the_moves_and_a_toll_not_yet_paid(unpaid, window):
    """Nobody has paid Sandra before the first turn: a player on her board is left out of the window after
    the moves while an unpaid toll forbids any action (``unpaid_share = "nothing"``)."""
    g = game(unpaid_share=unpaid)
    s = g.apply(_round_two_moving(g), MoveWorker(ASM1))
    assert s.sandra == ASM0 and s.workers == (PROJ1, PROD1, ASM1) and s.paid == ()
    assert s.window == window
    assert g.to_move(s) == (2 if window else 0)
    if window:
        assert Swap("red-head", 0) in g.legal_actions(s)
    check(g, s)


# --- BF-SANDRA-PAID: a paid toll keeps the board's additional action all round ----------------------------


def _sharing(g, round_two: bool = True):
    """Seat 0 on the Production board with Sandra (her token due), holding two tokens and three parts to
    trade; seat 1 on Assembly, seat 2 on Projects (nothing to exchange). Round 2 unless asked (Sandra acts)."""
    s = start(g, (PROD1, ASM0, PROJ0), sandra=PROD0, tokens=2, parts=TRADE_PARTS)
    return attrs.evolve(s, round=2) if round_two else s


def test_paying_sandra_is_recorded_for_the_round():
    g = game()
    s = _sharing(g)
    assert s.turn.main == "share" and s.paid == ()
    with coverage.probe() as counts:
        s = g.apply(s, PayShare())
    assert counts.effects["BF-SANDRA-SHARE"] == 1
    assert s.paid == (0,) and s.hands[0].tokens == 1 and s.turn.main == "open"
    check(g, s)
    s = finish_round(g, s)
    assert s.round == 3 and s.phase is Phase.MOVE and s.paid == ()  # forgotten when the round ends


def test_a_paid_sharer_is_offered_every_later_window():
    g = game()
    s = g.apply(g.apply(_sharing(g), PayShare()), EndTurn())  # seat 0 ends; seat 1 is next: no window
    assert s.window == () and g.to_move(s) == 1
    s = g.apply(s, EndTurn())  # seat 1 ends: before seat 2's turn, the paid sharer's window
    assert s.window == (0,) and s.index == 2 and g.to_move(s) == 0
    assert Trade(TRADE_PARTS, "red") in g.legal_actions(s)
    assert_illegal(g, s, Rotate(), "BF-ADDITIONAL")
    s = g.apply(s, EndTurn())  # passed; seat 2's turn
    assert g.to_move(s) == 2 and s.turn is not None
    s = g.apply(s, EndTurn())  # the last turn: the window before Sandra (seat 1 asked after seat 0, if it can)
    assert s.window[0] == 0 and s.index == 3 and g.to_move(s) == 0
    s = g.apply(s, EndTurn())  # Sandra (Production: the Wheel is full) acts; the window before maintenance
    assert s.window[0] == 0 and s.index == 4 and g.to_move(s) == 0
    with coverage.probe() as counts:
        s = g.apply(s, Trade(TRADE_PARTS, "red"))
    assert counts.effects["BF-SANDRA-PAID"] == 1 and counts.effects["BF-ADDITIONAL"] == 1
    s = resolve(g, s, DrawPart("legs"))
    assert s.hands[0].parts == ("red-legs",) and 0 not in s.window  # nothing more to trade
    check(g, s)


@pytest.mark.parametrize("rulings", [{}, OWN_TURN_SHARER, NO_OPENING])
def test_an_unpaid_sharer_does_nothing_all_round(rulings):
    g = game(**rulings)
    s = g.apply(_sharing(g), Skip())  # the toll declined: the turn ends at once
    assert s.index == 1 and g.to_move(s) == 1 and s.paid == () and s.hands[0].tokens == 2
    s = g.apply(s, EndTurn())
    assert s.window == () and g.to_move(s) == 2
    s = g.apply(s, EndTurn())  # the last turn: no window for seat 0 before Sandra nor before maintenance
    assert s.window == () and (g.to_move(s) is CHANCE or s.phase is Phase.MOVE)


def test_the_own_turn_reading_offers_a_paid_sharer_no_window():
    g = game(**OWN_TURN_SHARER)
    s = g.apply(g.apply(_sharing(g), PayShare()), EndTurn())
    assert s.paid == (0,)  # the payment is recorded under every reading; only the windows read it
    s = g.apply(s, EndTurn())
    assert s.window == () and g.to_move(s) == 2
    with coverage.probe() as counts:
        s = g.apply(s, EndTurn())  # the last turn: no window before Sandra nor before maintenance
    assert s.window == () and "BF-SANDRA-PAID" not in counts.effects
    assert g.to_move(s) is CHANCE or s.phase is Phase.MOVE


def test_under_additional_only_every_sharer_is_offered_windows_paid_or_not():
    g = game(unpaid_share="additional_only")
    s = g.apply(_sharing(g), Skip())  # unpaid: the main action closed, the turn goes on
    assert s.turn.main == "closed" and s.paid == ()
    s = g.apply(g.apply(s, EndTurn()), EndTurn())
    assert s.window == (0,) and g.to_move(s) == 0


def test_a_paid_sharer_on_the_last_assembly_space_keeps_the_swap_in_later_windows():
    """BF-ASM-LAST and BF-SANDRA-PAID: Sandra's token paid and the last space's declined, no part is placed,
    but the additional action stays, in the player's turn and in the round's later windows."""
    g = game(players=2)
    s = start(g, (2, PROD0), sandra=ASM0, tokens=2, parts=("red-head", "blue-head"))
    s = attrs.evolve(with_spares(s, ["yellow-legs", None]), round=2)
    s = g.apply(g.apply(s, PayShare()), Skip())
    assert s.paid == (0,) and s.turn.main == "closed"
    s = g.apply(g.apply(s, EndTurn()), EndTurn())  # seat 0, then seat 1: the window before Sandra
    assert s.window == (0,) and Swap("red-head", 0) in g.legal_actions(s)


# --- the window memo, the JSON form and validation ----------------------------------------------------------


def test_the_window_memo_tells_a_paid_sharer_from_an_unpaid_one():
    """The window seats are memoised per Sandra, order, workers and who paid her: the same position with and
    without seat 0's payment has two answers, each the plain walk's."""
    g = game()
    s = _sharing(g)
    unpaid = windows.seats(g, s, ())
    paid = attrs.evolve(s, paid=(0,))
    assert windows.seats(g, paid, ()) == windows.seats_of(g, paid, ()) == (0, 1, 2)
    assert unpaid == windows.seats_of(g, s, ()) == (1, 2)
    assert windows.seats(g, s, ()) == (1, 2)  # the unpaid answer is still the memo's for the unpaid key
    for key in g._window_memo:
        assert all(isinstance(x, (int, type(None))) for x in key), key


def test_the_paid_seats_write_and_read_back_and_are_left_out_when_empty():
    g = game()
    s = _sharing(g)
    assert '"paid"' not in bgrules.dumps(s)
    p = g.apply(s, PayShare())
    text = bgrules.dumps(p)
    assert '"paid":[0]' in text and bgrules.loads(g, text) == p


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"paid": (1,)}, "player 1 does not share Sandra's board"),
        ({"paid": (0, 0)}, "each seat that paid Sandra once, in seat order"),
        ({"paid": (5,)}, "paid[0]"),
        ({"paid": (0,), "phase": Phase.MOVE, "turn": None}, "forgotten at its end, not in move"),
    ],
)
def test_validation_checks_the_paid_seats(change, why):
    g = game()
    s = attrs.evolve(_sharing(g), **change)
    problems = g.validate(s)
    assert any(why in p for p in problems), problems


def test_paid_before_the_turn_came_is_refused_by_validation():
    g = game()
    s = g.apply(g.apply(_sharing(g), PayShare()), EndTurn())
    assert g.validate(s) == []
    s = attrs.evolve(s, workers=(PROD1, ASM0, PROD2), paid=(0, 2))  # seat 2 shares, its turn not begun
    assert any("player 2 paid Sandra before their turn came" in p for p in g.validate(s)), g.validate(s)


def test_the_last_spaces_token_alone_is_no_payment_to_sandra():
    """Under ``last_space_toll = "combined"`` one PayShare() settles whatever the turn owes: on the last
    Assembly space away from Sandra that is the space's token only (BF-ASM-LAST), and the player is not
    recorded as having paid her; sharing her board, it is both, and they are."""
    g = game(players=2, last_space_toll="combined")
    away = start(g, (2, PROD0), tokens=2, parts=("red-head",))  # Sandra on Finance
    assert away.turn.main == "share"
    paid = g.apply(away, PayShare())
    assert paid.hands[0].tokens == 1 and paid.turn.main == "open" and paid.paid == ()
    assert g.validate(paid) == []
    g = game(players=2, last_space_toll="combined")
    both = g.apply(start(g, (2, PROD0), sandra=ASM0, tokens=2, parts=("red-head",)), PayShare())
    assert both.hands[0].tokens == 0 and both.paid == (0,) and g.validate(both) == []
