"""The holding limits: at most 5 part tiles (BF-LIMIT-PARTS) and 5 Project tiles (BF-LIMIT-PROJECTS),
applied to the acting player after each action step, the owner choosing the discards (ruling 7)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from bgrules.botfactory.reference.common import part_leaves_play, remove_part, replace, set_hand
from bgrules.botfactory.state import BotFactoryState, DiscardPart, DiscardProject, Phase

if TYPE_CHECKING:
    from bgrules.botfactory.reference.game import ReferenceBotFactoryGame


def pending_prompt(s: BotFactoryState) -> tuple[str, ...]:
    """The optional reward still pending in the acting player's turn (none in a window)."""
    return s.turn.prompt if s.turn is not None and not s.window else ()


def over_parts(g: ReferenceBotFactoryGame, s: BotFactoryState, seat: int) -> bool:
    """BF-LIMIT-PARTS: more than ``part_limit`` part tiles (Universal ones included, ruling 8), once the
    step's pending reward choice is resolved."""
    return len(s.hands[seat].parts) > g.c.counts.part_limit and not pending_prompt(s)


def over_projects(g: ReferenceBotFactoryGame, s: BotFactoryState, seat: int) -> bool:
    """BF-LIMIT-PROJECTS: more than ``project_limit`` Project tiles, completed ones included, with an
    unfinished one to discard (completed ones cannot be); applied at once, even before a pending choice of
    the same action."""
    hand = s.hands[seat]
    return len(hand.projects) + len(hand.done) > g.c.counts.project_limit and bool(hand.projects)


def check(g: ReferenceBotFactoryGame, s: BotFactoryState, seat: int, resume: str) -> BotFactoryState:
    """Enter the discard phase for ``seat`` if over a limit; play resumes at ``resume`` afterwards."""
    if over_parts(g, s, seat) or over_projects(g, s, seat):
        return attrs.evolve(s, phase=Phase.DISCARD, discarder=seat, after_discard=resume)
    return s


def options(g: ReferenceBotFactoryGame, s: BotFactoryState) -> tuple[Any, ...]:
    """The discards offered: parts before Project tiles; each distinct part (sorted), or each distinct
    colour of unfinished Project tile (sorted; completed ones cannot be discarded)."""
    seat = s.discarder
    if seat is None:
        return ()
    hand = s.hands[seat]
    if over_parts(g, s, seat):
        return tuple(DiscardPart(p) for p in sorted(set(hand.parts)))
    if over_projects(g, s, seat):
        return tuple(DiscardProject(c) for c in sorted(set(hand.projects)))
    return ()


def discard(g: ReferenceBotFactoryGame, s: BotFactoryState, action: Any) -> BotFactoryState:
    """BF-LIMIT-PARTS: the part leaves play; BF-LIMIT-PROJECTS: the tile goes to the Project discard. Once
    within the limits the discard phase ends (play resumes at ``after_discard``)."""
    seat = s.discarder
    assert seat is not None
    if isinstance(action, DiscardPart):
        s = part_leaves_play(g, remove_part(s, seat, action.part), action.part)
    else:
        hand = s.hands[seat]
        projects = list(hand.projects)
        projects.remove(action.colour)
        s = set_hand(s, seat, attrs.evolve(hand, projects=tuple(projects)))
        c = g.colours.index(action.colour)
        s = attrs.evolve(s, project_discard=replace(s.project_discard, c, s.project_discard[c] + 1))
    if over_parts(g, s, seat) or over_projects(g, s, seat):
        return s
    return attrs.evolve(s, phase=Phase.ACTION, discarder=None)
