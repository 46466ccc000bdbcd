"""Bot Factory positions for the tests: load the game, check every invariant, build positions by driving the
game with explicit actions (chance outcomes are ordinary actions: ``DrawPart(slot)``, ``DrawProject(colour)``,
``DrawContract(id)``) or by ``attrs.evolve`` on a real state, taking part tiles, Project tiles and bots from
their supplies so that the invariants of ``bgrules.botfactory.invariants`` hold in every scenario too.

Action spaces are numbered left to right across the boards: Assembly 0-2, Production 3-5, Project 6-8,
Finance 9-11, counting 1, 2 and 3 actions on each board (assumed data). Sandra starts on space 9.
"""

from __future__ import annotations

import inspect

import attrs
import pytest

import bgrules
from bgrules import CHANCE, IllegalAction
from bgrules.botfactory import invariants
from bgrules.botfactory.game import BotFactoryGame
from bgrules.botfactory.state import (
    DrawContract,
    DrawPart,
    DrawProject,
    EndTurn,
    MoveWorker,
    Phase,
    Skip,
    TakeTop,
)

NAME = "botfactory"
COLOURS = ("red", "yellow", "blue", "green")
SLOTS = ("head", "torso", "legs")
ASM0, ASM1, ASM2, PROD0, PROD1, PROD2, PROJ0, PROJ1, PROJ2, FIN0, FIN1, FIN2 = range(12)
# Default deal: Wheel positions 0-7 from the yellow, blue, green, red, yellow, blue, green, red piles
WHEEL_SLOTS = ("head", "torso", "legs", "head", "torso", "legs", "head", "torso")
WHEEL = (
    "yellow-head",
    "blue-torso",
    "green-legs",
    "red-head",
    "yellow-torso",
    "blue-legs",
    "green-head",
    "red-torso",
)
GRID = (("red", "yellow", "blue"), ("green", "red", "yellow"))  # left column, right column; bottom first
CONTRACTS = (1, 5, 11, 14)


def load(players: int = 2, variant=None, **options) -> BotFactoryGame:
    game = bgrules.load_game(NAME, players=players, variant=variant, **options)
    assert isinstance(game, BotFactoryGame)
    return game


# --- invariants ----------------------------------------------------------------------------------------


def _predicates(arity: int):
    out = []
    for name, f in inspect.getmembers(invariants, inspect.isfunction):
        if f.__module__ == invariants.__name__ and len(inspect.signature(f).parameters) == arity:
            out.append((name, f))
    return out


STATE_INVARIANTS = _predicates(2)
GAME_INVARIANTS = _predicates(3)


def check(game, s) -> None:
    for name, f in STATE_INVARIANTS:
        why = f(game, s)
        assert why is None, f"{name}: {why}"
    # the Project tiles: stack + discard + board + hands (unfinished and completed) = 24
    total = sum(s.project_pile) + sum(s.project_discard) + sum(t is not None for col in s.grid for t in col)
    total += sum(len(h.projects) + len(h.done) for h in s.hands)
    assert total == 24, total


# --- building positions ----------------------------------------------------------------------------------


def _supply(s, parts, sign: int):
    """Move part tiles between the piles (Universal: their supply) and the table: sign -1 takes them."""
    piles = [list(p) for p in s.piles]
    universal = list(s.universal)
    for p in parts:
        colour, slot = p.split("-")
        si = SLOTS.index(slot)
        if colour == "any":
            universal[si] += sign
            assert universal[si] >= 0, p
        else:
            ci = COLOURS.index(colour)
            piles[ci][si] += sign
            assert piles[ci][si] >= 0, p
    return attrs.evolve(s, piles=tuple(tuple(p) for p in piles), universal=tuple(universal))


def _stack(s, projects, sign: int):
    pile = list(s.project_pile)
    for c in projects:
        pile[COLOURS.index(c)] += sign
        assert pile[COLOURS.index(c)] >= 0
    return attrs.evolve(s, project_pile=tuple(pile))


def with_hand(s, seat: int, *, tokens=None, parts=None, projects=None, done=None):
    """Replace a player's holdings, taking tiles from (and giving them back to) their supplies."""
    hand = s.hands[seat]
    changes = {}
    if tokens is not None:
        changes["tokens"] = tokens
        # the tokens come from (or go back to) the colour's supply, keeping supply + held + on contracts = 9
        s = attrs.evolve(
            s, supply=tuple(n + (hand.tokens - tokens if i == seat else 0) for i, n in enumerate(s.supply))
        )
    if parts is not None:
        s = _supply(_supply(s, hand.parts, +1), parts, -1)
        changes["parts"] = tuple(sorted(parts))
    if projects is not None:
        s = _stack(_stack(s, hand.projects, +1), projects, -1)
        changes["projects"] = tuple(sorted(projects))
    if done is not None:
        s = _stack(_stack(s, hand.done, +1), done, -1)
        left = list(s.bots_left)
        for c in hand.done:
            left[COLOURS.index(c)] += 1
        for c in done:
            left[COLOURS.index(c)] -= 1
        s = attrs.evolve(s, bots_left=tuple(left))
        changes["done"] = tuple(sorted(done))
    hands = list(s.hands)
    hands[seat] = attrs.evolve(hand, **changes)
    return attrs.evolve(s, hands=tuple(hands))


def with_column(s, colour: str, parts):
    """Put parts (from the piles) on a bot's column of the Assembly board, by slot."""
    ci = COLOURS.index(colour)
    old = [p for p in s.columns[ci] if p is not None]
    s = _supply(_supply(s, old, +1), parts, -1)
    column = [None, None, None]
    for p in parts:
        column[SLOTS.index(p.split("-")[1])] = p
    columns = list(s.columns)
    columns[ci] = tuple(column)
    return attrs.evolve(s, columns=tuple(columns))


def with_wheel(s, wheel):
    old = [p for p in s.wheel if p is not None]
    s = _supply(_supply(s, old, +1), [p for p in wheel if p is not None], -1)
    return attrs.evolve(s, wheel=tuple(wheel))


def with_spares(s, spares):
    old = [p for p in s.spares if p is not None]
    s = _supply(_supply(s, old, +1), [p for p in spares if p is not None], -1)
    return attrs.evolve(s, spares=tuple(spares))


def deal(game, contracts=CONTRACTS, wheel=WHEEL_SLOTS, grid=GRID):
    """The set-up chance draws in their order: contracts, the Wheel from position 0, the Project board
    (left column bottom to top, then the right)."""
    s = game.initial_state()
    for cid in contracts:
        s = game.apply(s, DrawContract(cid))
    for slot in wheel:
        s = game.apply(s, DrawPart(slot))
    for column in grid:
        for colour in column:
            s = game.apply(s, DrawProject(colour))
    return s


def pick(game, s, picks=None):
    """BF-SETUP-PARTS: each player (last seat first) takes the top tile of a pile: (colour, slot) pairs."""
    picks = picks or [("red", "legs")] * game.players
    for colour, slot in picks:
        s = game.apply(s, TakeTop(colour))
        s = game.apply(s, DrawPart(slot))
    return s


def move(game, s, *spaces):
    for space in spaces:
        s = game.apply(s, MoveWorker(space))
    return s


def start(game, spaces, sandra=None, **hand):
    """Round 1 from the default deal and picks; workers moved to ``spaces`` in order; Sandra moved first
    if asked; seat 0's holdings replaced by ``hand``. Returns the state at the first player's turn."""
    s = pick(game, deal(game))
    if sandra is not None:
        s = attrs.evolve(s, sandra=sandra)
    s = move(game, s, *spaces)
    assert s.phase is Phase.ACTION
    if hand:
        s = with_hand(s, game.to_move(s), **hand)
    check(game, s)
    return s


def quiet(game, s, chance=None):
    """One step of a quiet round: the first chance outcome (or ``chance(s)``), the first discard, Skip for
    a prompt or a toll, else EndTurn."""
    if game.to_move(s) is CHANCE:
        return game.apply(s, chance(s) if chance else game.chance_outcomes(s)[0][0])
    if s.phase is Phase.DISCARD:
        return game.apply(s, game.legal_actions(s)[0])
    if s.window:  # an additional-action window (additional_actions = "any_time"): pass
        return game.apply(s, EndTurn())
    if s.turn.prompt or s.turn.main in ("share", "extra"):
        return game.apply(s, Skip())
    return game.apply(s, EndTurn())


def finish_round(game, s, chance=None):
    r = s.round
    while not game.is_terminal(s) and not (s.phase is Phase.MOVE and s.round > r):
        s = quiet(game, s, chance)
        check(game, s)
    return s


def assert_illegal(game, s, action, rule: str | None = None) -> IllegalAction:
    before = bgrules.dumps(s)
    with pytest.raises(IllegalAction) as info:
        game.apply(s, action)
    assert info.value.rule_id.startswith("BF-"), info.value
    if rule is not None:
        assert info.value.rule_id == rule, info.value
    assert bgrules.dumps(s) == before
    return info.value


def resolve(game, s, *outcomes):
    for o in outcomes:
        assert game.to_move(s) is CHANCE
        s = game.apply(s, o)
    return s
