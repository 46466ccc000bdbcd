"""Bot Factory's Production Trade, pinned where a mutation run found the suite silent (issue 8, item 4): the
state settled after a Production Trade's draw (BF-PROD-TRADE, BF-PILE): back in the trading player's turn with
nothing pending, the part and Project limits checked (BF-LIMIT-PARTS), and no stale resume tag
(``after_discard``) left behind.

Positions are built through the Game protocol with chosen chance outcomes; a hand is replaced by taking its
part tiles from the piles (and giving the old ones back), so the conservation invariants hold throughout.
Action spaces: Assembly 0-2, Production 3-5, Project 6-8, Finance 9-11 (1, 2, 3 actions on each board).
"""

from __future__ import annotations

import attrs
import pytest

import bgrules
from bgrules import CHANCE, IllegalAction
from bgrules.botfactory import invariants
from bgrules.botfactory.state import (
    DiscardPart,
    DiscardProject,
    DrawContract,
    DrawPart,
    DrawProject,
    EndTurn,
    MoveWorker,
    PayShare,
    Phase,
    Rotate,
    TakeOutput,
    TakeTop,
    Trade,
)

NAME = "botfactory"
COLOURS = ("red", "yellow", "blue", "green")
SLOTS = ("head", "torso", "legs")
ASM0, PROD0, PROD1, PROD2 = 0, 3, 4, 5
WHEEL_SLOTS = ("head", "torso", "legs", "head", "torso", "legs", "head", "torso")
GRID = (("red", "yellow", "blue"), ("green", "red", "yellow"))
CONTRACTS = (1, 5, 11, 14)
CHECKS = (
    invariants.limits,
    invariants.tokens_conserved,
    invariants.parts_conserved,
    invariants.projects_conserved,
    invariants.never_stuck,
)


def check(game, s) -> None:
    for f in CHECKS:
        why = f(game, s)
        assert why is None, f"{f.__name__}: {why}"


def deal(game):
    s = game.initial_state()
    for cid in CONTRACTS:
        s = game.apply(s, DrawContract(cid))
    for slot in WHEEL_SLOTS:
        s = game.apply(s, DrawPart(slot))
    for column in GRID:
        for colour in column:
            s = game.apply(s, DrawProject(colour))
    for _ in range(game.players):  # BF-SETUP-PARTS: each takes the top red tile, a pair of legs
        s = game.apply(game.apply(s, TakeTop("red")), DrawPart("legs"))
    return s


def with_parts(s, seat: int, parts):
    """Replace a player's part tiles, taking them from the piles and giving the old ones back."""
    piles = [list(p) for p in s.piles]
    universal = list(s.universal)
    for sign, group in ((+1, s.hands[seat].parts), (-1, parts)):
        for p in group:
            colour, slot = p.split("-")
            si = SLOTS.index(slot)
            if colour == "any":
                universal[si] += sign
            else:
                piles[COLOURS.index(colour)][si] += sign
    assert min(universal) >= 0 and min(min(p) for p in piles) >= 0
    hands = list(s.hands)
    hands[seat] = attrs.evolve(s.hands[seat], parts=tuple(sorted(parts)))
    return attrs.evolve(s, hands=tuple(hands), piles=tuple(tuple(p) for p in piles), universal=tuple(universal))


def at_production(parts, space=PROD0, sandra=None):
    """Round 1, two players: seat 0 acts first on ``space`` (seat 1 on Assembly), holding ``parts``."""
    game = bgrules.load_game(NAME, players=2)
    s = deal(game)
    if sandra is not None:
        s = attrs.evolve(s, sandra=sandra)
    s = game.apply(game.apply(s, MoveWorker(space)), MoveWorker(ASM0))
    assert s.phase is Phase.ACTION and game.to_move(s) == 0
    s = with_parts(s, 0, parts)
    check(game, s)
    return game, s


def assert_settled_in_turn(game, s, seat: int, turn) -> None:
    """Nothing pending: the trading player's own turn goes on exactly where it was."""
    assert s.draws == ()
    assert s.phase is Phase.ACTION
    assert s.discarder is None
    assert s.after_discard == ""  # no stale resume tag
    assert s.turn == turn
    assert game.to_move(s) == seat
    assert EndTurn() in game.legal_actions(s)
    check(game, s)


def test_the_state_after_a_trade_draw_is_settled_back_in_the_turn():
    game, s = at_production(("red-head", "red-head", "blue-torso", "any-legs"))
    turn = s.turn
    assert turn.left == 1 and turn.prompt == ()
    s = game.apply(s, Trade(("any-legs", "blue-torso", "red-head"), "green"))
    assert game.to_move(s) is CHANCE and len(s.draws) == 1  # BF-PROD-TRADE: the top of the green pile
    check(game, s)
    s = game.apply(s, DrawPart("legs"))
    assert s.hands[0].parts == ("green-legs", "red-head")
    assert_settled_in_turn(game, s, 0, turn)
    # the main action is still there to take (the Trade is additional)
    legal = game.legal_actions(s)
    assert Rotate() in legal and any(isinstance(a, TakeOutput) for a in legal)
    # and the turn ends normally: the next player's turn, nothing left over
    s = game.apply(s, EndTurn())
    assert s.after_discard == "" and s.draws == () and s.discarder is None
    assert game.to_move(s) == 1
    check(game, s)


def test_a_trade_draw_that_reshuffles_the_discard_settles_too():
    # the red pile's tiles are put on the red discard, so the pile is empty: the Trade's red parts join the
    # discard, and the draw first turns the whole discard into the pile (BF-PILE)
    game, s = at_production(("red-head", "red-torso", "red-legs", "blue-head"))
    left = s.piles[0]
    s = attrs.evolve(s, piles=((0, 0, 0), *s.piles[1:]), discards=(left, *s.discards[1:]))
    check(game, s)
    turn = s.turn
    assert any(isinstance(a, Trade) and a.colour == "red" for a in game.legal_actions(s))
    s = game.apply(s, Trade(("red-head", "red-legs", "red-torso"), "red"))
    assert game.to_move(s) is CHANCE
    assert s.piles[0] == tuple(n + 1 for n in left) and s.discards[0] == (0, 0, 0)
    s = game.apply(s, DrawPart("torso"))
    assert s.hands[0].parts == ("blue-head", "red-torso")
    assert s.piles[0] == (left[0] + 1, left[1], left[2] + 1)
    assert_settled_in_turn(game, s, 0, turn)


def test_a_trade_after_paying_sandras_toll_settles_with_the_toll_paid():
    game, s = at_production(("red-head", "red-head", "blue-torso"), space=PROD1, sandra=PROD0)
    assert PayShare() in game.legal_actions(s)  # BF-SANDRA-SHARE
    s = game.apply(s, PayShare())
    turn = s.turn
    assert turn.left == 2 and s.hands[0].tokens == 0
    s = game.apply(game.apply(s, Trade(("blue-torso", "red-head", "red-head"), "yellow")), DrawPart("head"))
    assert s.hands[0].parts == ("yellow-head",)
    assert_settled_in_turn(game, s, 0, turn)


def test_the_limits_are_checked_once_the_trade_draw_is_resolved():
    """BF-LIMIT-PARTS after the draw. A Trade is two parts down, so from a legal position it never ends over
    five; the hand here is set over the limit to show that the settled state is checked, not assumed."""
    parts = ("red-head", "red-head", "red-torso", "blue-head", "blue-torso", "blue-legs", "green-head", "any-legs")
    game, s = at_production(("red-head",))
    s = with_parts(s, 0, parts)
    turn = s.turn
    s = game.apply(s, Trade(("blue-head", "blue-legs", "blue-torso"), "yellow"))
    assert game.to_move(s) is CHANCE
    s = game.apply(s, DrawPart("legs"))
    assert len(s.hands[0].parts) == 6
    assert s.phase is Phase.DISCARD and s.discarder == 0 and game.to_move(s) == 0 and s.draws == ()
    assert set(game.legal_actions(s)) == {DiscardPart(p) for p in set(s.hands[0].parts)}
    with pytest.raises(IllegalAction) as info:
        game.apply(s, EndTurn())
    assert info.value.rule_id == "BF-LIMIT-PARTS"
    s = game.apply(s, DiscardPart("any-legs"))
    assert s.hands[0].parts == ("green-head", "red-head", "red-head", "red-torso", "yellow-legs")
    assert_settled_in_turn(game, s, 0, turn)


@pytest.mark.parametrize("space", [PROD0, PROD2])
def test_a_trade_never_leaves_a_legal_hand_over_the_limit(space):
    """From five parts (the limit), a Trade ends at three: no discard follows."""
    parts = ("red-head", "red-head", "red-torso", "blue-head", "green-legs")
    game, s = at_production(parts, space=space)
    turn = s.turn
    s = game.apply(game.apply(s, Trade(("blue-head", "green-legs", "red-head"), "blue")), DrawPart("legs"))
    assert len(s.hands[0].parts) == 3
    assert_settled_in_turn(game, s, 0, turn)


def with_projects(s, seat: int, projects):
    """Replace a player's unfinished Project tiles, taking them from the Project stack."""
    pile = list(s.project_pile)
    for c in s.hands[seat].projects:
        pile[COLOURS.index(c)] += 1
    for c in projects:
        pile[COLOURS.index(c)] -= 1
    assert min(pile) >= 0
    hands = list(s.hands)
    hands[seat] = attrs.evolve(s.hands[seat], projects=tuple(sorted(projects)))
    return attrs.evolve(s, hands=tuple(hands), project_pile=tuple(pile))


def test_the_project_limit_is_checked_once_the_trade_draw_is_resolved():
    """BF-LIMIT-PROJECTS after the draw (a hand set over the limit: a Trade does not change Projects)."""
    game, s = at_production(("red-head", "red-head", "blue-torso"))
    s = with_projects(s, 0, ("red", "red", "yellow", "blue", "green", "green"))
    turn = s.turn
    s = game.apply(game.apply(s, Trade(("blue-torso", "red-head", "red-head"), "blue")), DrawPart("head"))
    assert s.phase is Phase.DISCARD and s.discarder == 0 and s.draws == ()
    assert set(game.legal_actions(s)) == {DiscardProject(c) for c in ("red", "yellow", "blue", "green")}
    s = game.apply(s, DiscardProject("green"))
    assert s.hands[0].projects == ("blue", "green", "red", "red", "yellow")
    assert_settled_in_turn(game, s, 0, turn)
