"""Chance in Bot Factory: the pending draws (parts, Project tiles, contracts), their exact outcomes, and the
piles that take their discards back (BF-PILE). Plain functions of the game and a state."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from bgrules.botfactory.base import _HAND_PARTS, Base, _set
from bgrules.botfactory.state import BotFactoryState, DrawContract, DrawPart, DrawProject
from bgrules.core import coverage
from bgrules.core.errors import IllegalAction
from bgrules.core.fastevolve import copier, evolve

_DRAWN_PROJECT = copier(BotFactoryState, "draws", "project_pile", "grid")
_DRAWN_TO_WHEEL = copier(BotFactoryState, "draws", "piles", "marker", "wheel")
_DRAWN_TO_SPARE = copier(BotFactoryState, "draws", "piles", "marker", "spares")
_DRAWN_TO_HAND = copier(BotFactoryState, "draws", "piles", "marker", "hands")


def chance_outcomes(game: Base, state: BotFactoryState) -> tuple[tuple[Any, Fraction], ...]:
    """BF-PILE: the next draw's outcomes with exact probabilities (by ``chance_key``: what they depend on)."""
    if not state.draws:
        return ()
    key = chance_key(game, state)
    found = game._chance_memo.get(key)
    if found is None:
        found = game.memos.put(game._chance_memo, key, outcomes(game, key[0], key[1]))
    return found


def chance_key(game: Base, state: BotFactoryState) -> tuple[Any, ...]:
    """BF-PILE: what the next draw's outcomes depend on: its kind and the contents drawn from."""
    what, src, _dest, _a, _b = state.draws[0]
    if what == "contract":
        return ("contract", state.contract_pool)
    if what == "project":
        return ("project", state.project_pile)
    return ("part", state.piles[source(state, src)])


def possible(game: Base, state: BotFactoryState, action: Any) -> bool:
    """BF-PILE: ``action`` is one of the next draw's outcomes (the very object offered, or an equal one)."""
    found_outcomes = game.chance_outcomes(state)
    for a, _p in found_outcomes:
        if a is action:
            return True
    if type(action) not in (DrawPart, DrawProject, DrawContract):
        return any(action == a for a, _p in found_outcomes)
    key = chance_key(game, state)
    sets = game.memos["chance_sets"]
    found = sets.get(key)
    if found is None:
        found = game.memos.put(sets, key, frozenset(a for a, _p in game.chance_outcomes(state)))
    return action in found


def outcomes(game: Base, what: str, counts: tuple[int, ...]) -> tuple[tuple[Any, Fraction], ...]:
    """BF-PILE: the outcomes of a draw from ``counts`` (the contract ids left, or the tiles of each colour or
    slot): each outcome's object and its probability (``outcome``)."""
    acts = game.memos["draw_actions"]
    if not acts:
        acts.update({("contract", i): DrawContract(i) for i in game.contracts})
        acts.update({("project", i): DrawProject(col) for i, col in enumerate(game.colours)})
        acts.update({("part", i): DrawPart(slot) for i, slot in enumerate(game.slots)})
    if what == "contract":
        n = len(counts)
        return tuple([outcome(game, what, i, 1, n) for i in counts])
    total = sum(counts)
    kinds = game.colours if what == "project" else game.slots
    if len(counts) != len(kinds):  # zip(strict=True)'s refusal of a malformed pile
        raise ValueError(f"{what} counts {counts!r} do not match {kinds!r}")
    return tuple([outcome(game, what, i, k, total) for i, k in enumerate(counts) if k])


def outcome(game: Base, what: str, i: int, k: int, n: int) -> tuple[Any, Fraction]:
    """BF-PILE: the outcome pair of the ``i``-th draw of kind ``what``, drawn with probability ``k / n``."""
    memos = game.memos
    table: dict[tuple[str, int, int, int], tuple[Any, Fraction]] = memos["outcome_pairs"]
    key = (what, i, k, n)
    found = table.get(key)
    if found is None:
        action = memos["draw_actions"].get((what, i))
        if action is None:  # a contract id not among the game's: its own object
            action = DrawContract(i)
        found = memos.put(table, key, (action, fraction(game, k, n)))
    return found


def fraction(game: Base, k: int, n: int) -> Fraction:
    """BF-PILE: the probability ``Fraction(k, n)`` of a draw."""
    table: dict[tuple[int, int], Fraction] = game.memos["fractions"]
    found = table.get((k, n))
    if found is None:
        found = game.memos.put(table, (k, n), Fraction(k, n))
    return found


def source(state: BotFactoryState, src: int) -> int:
    """BF-ASM-SANDRA / BF-PROD-SANDRA: the pile a draw takes from: its own, or (``src < 0``) the
    Distribution marker's."""
    return state.marker if src < 0 else src


def normalise(game: Base, state: BotFactoryState) -> tuple[BotFactoryState, bool]:
    """BF-PILE: before a draw, an empty pile takes its discard back (shuffled: later draws are random);
    the Distribution marker passes over piles that stay empty. Returns whether the draw can happen."""
    what, src, _dest, _a, _b = state.draws[0]
    if what == "contract":
        return state, bool(state.contract_pool)
    if what == "project":
        if not any(state.project_pile) and any(state.project_discard):
            state = evolve(state, project_pile=state.project_discard, project_discard=(0,) * 4)
        return state, any(state.project_pile)
    for _ in range(4):
        ci = source(state, src)
        if not any(state.piles[ci]) and any(state.discards[ci]):  # BF-PILE: the discard is reshuffled
            coverage.effect("BF-PILE")
            state = evolve(
                state, piles=_set(state.piles, ci, state.discards[ci]), discards=_set(state.discards, ci, (0, 0, 0))
            )
        if any(state.piles[ci]) or src >= 0:
            return state, any(state.piles[ci])
        state = evolve(state, marker=(state.marker + 1) % 4)
    return state, False


def resolve(game: Base, state: BotFactoryState, action: Any) -> BotFactoryState:
    """BF-PILE: the draw's outcome ``action`` (guarded: one of the next draw's outcomes) and its effect: a
    contract to the display, a Project tile to the grid, a part to the Wheel, a spare space or a hand
    (BF-ASM-SANDRA / BF-PROD-SANDRA: the marker moves right after each draw by it, wrapping)."""
    if not possible(game, state, action):
        raise IllegalAction("BF-PILE", f"{action!r} is not a possible chance outcome here")
    _what, src, dest, a, b = state.draws[0]
    draws = state.draws[1:]
    if isinstance(action, DrawContract):
        pool = tuple(i for i in state.contract_pool if i != action.id)
        return evolve(state, draws=draws, contract_pool=pool, display=_set(state.display, a, action.id))
    if isinstance(action, DrawProject):
        ci = game.colour(action.colour)
        column = _set(state.grid[a], b, action.colour)
        project_pile = _set(state.project_pile, ci, state.project_pile[ci] - 1)
        return _DRAWN_PROJECT(state, draws, project_pile, _set(state.grid, a, column))
    assert isinstance(action, DrawPart)
    coverage.effect("BF-PILE")
    ci = source(state, src)
    si = game.slots.index(action.slot)
    pile = state.piles[ci]
    piles = _set(state.piles, ci, _set(pile, si, pile[si] - 1))
    marker = (state.marker + 1) % 4 if src < 0 else state.marker
    part = f"{game.colours[ci]}-{action.slot}"
    if dest == "wheel":
        return _DRAWN_TO_WHEEL(state, draws, piles, marker, _set(state.wheel, a, part))
    if dest == "spare":
        return _DRAWN_TO_SPARE(state, draws, piles, marker, _set(state.spares, a, part))
    hand = state.hands[a]
    hands = _set(state.hands, a, _HAND_PARTS(hand, tuple(sorted((*hand.parts, part)))))
    return _DRAWN_TO_HAND(state, draws, piles, marker, hands)
