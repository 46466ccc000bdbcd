"""The hand limits: five part tiles (BF-LIMIT-PARTS) and five Project tiles (BF-LIMIT-PROJECTS); a player
over one discards, choosing what, before play goes on. Plain functions of the game and a state: the
discard phase's options and its guard with its effect, and the check after each action."""

from __future__ import annotations

from typing import Any

from bgrules.botfactory import arith
from bgrules.botfactory.base import Base, _set
from bgrules.botfactory.state import ACTION, DISCARD, BotFactoryState, DiscardPart, DiscardProject
from bgrules.core import coverage
from bgrules.core.errors import IllegalAction
from bgrules.core.fastevolve import evolve


def options(game: Base, state: BotFactoryState) -> tuple[Any, ...]:
    """BF-LIMIT-PARTS / BF-LIMIT-PROJECTS: the discarding player's choices: a part tile while over the part
    limit (and no reward pending), else an unfinished Project tile."""
    seat = state.discarder
    assert seat is not None
    hand = state.hands[seat]
    pending = state.turn is not None and bool(state.turn.prompt)
    if not pending and arith.parts_over(len(hand.parts), game.c.counts.part_limit):
        return tuple(DiscardPart(p) for p in sorted(set(hand.parts)))
    return tuple(DiscardProject(p) for p in sorted(set(hand.projects)))


def check(game: Base, state: BotFactoryState, seat: int) -> BotFactoryState:
    """BF-LIMIT-PARTS / BF-LIMIT-PROJECTS: once an action is resolved, a player over five part tiles or
    five Project tiles (completed ones count and are never discarded) discards, choosing what."""
    turn = state.turn
    hand = state.hands[seat]
    pending = turn is not None and bool(turn.prompt)
    key = (len(hand.parts), len(hand.projects), len(hand.done), pending)
    over = game._limits_memo.get(key)
    if over is None:
        counts = game.c.counts
        if pending:
            # a pending choice may still use a part; a Project taken counts at once (so a bot completed
            # by the pending placement never lands on a sixth Project)
            over = bool(arith.projects_over(len(hand.projects), len(hand.done), counts.project_limit))
        else:
            over = bool(
                arith.over_limits(
                    len(hand.parts), len(hand.projects), len(hand.done), counts.part_limit, counts.project_limit
                )
            )
        game.memos.put(game._limits_memo, key, over)
    if over:
        return evolve(state, phase=DISCARD, discarder=seat, after_discard="action")
    return state


def act(game: Base, state: BotFactoryState, action: Any) -> BotFactoryState:
    """BF-LIMIT-PARTS / BF-LIMIT-PROJECTS: a discard (guarded: one of ``options``) and its effect, the part
    to its discard pile, the Project tile to the Project discard; then the limits are checked again."""
    seat = state.discarder
    assert seat is not None
    if action not in options(game, state):
        rule = "BF-LIMIT-PARTS" if isinstance(options(game, state)[0], DiscardPart) else "BF-LIMIT-PROJECTS"
        raise IllegalAction(rule, f"{action!r}: discard one of {options(game, state)!r}")
    hand = state.hands[seat]
    if isinstance(action, DiscardPart):
        coverage.effect("BF-LIMIT-PARTS")
        parts = list(hand.parts)
        parts.remove(action.part)
        state = game._discard_part_tile(game._hand(state, seat, parts=tuple(parts)), action.part)
    else:
        coverage.effect("BF-LIMIT-PROJECTS")
        projects = list(hand.projects)
        projects.remove(action.colour)
        ci = game.colours.index(action.colour)
        state = game._hand(state, seat, projects=tuple(projects))
        state = evolve(state, project_discard=_set(state.project_discard, ci, state.project_discard[ci] + 1))
    state = evolve(state, phase=ACTION, discarder=None)
    return check(game, state, seat)
