"""The round's close: Sandra's action after the last turn (BF-SANDRA-ACT), maintenance (BF-MAINT), and the
round's end (BF-END, BF-END-COLOUR, BF-END-FIFTH) or the next round's order (BF-ORDER). Plain functions of
the game and a state."""

from __future__ import annotations

from typing import Any

from bgrules.botfactory import projects, rooms, scoring
from bgrules.botfactory.state import MOVE, OVER, BotFactoryState
from bgrules.botfactory.tokens import Tokens
from bgrules.core import coverage
from bgrules.core.fastevolve import copier, evolve

_NEXT_ROUND = copier(BotFactoryState, "round", "order", "index", "phase", "after_discard", "paid")


def sandra_act(game: Tokens, state: BotFactoryState, **changes: Any) -> BotFactoryState:
    """BF-SANDRA-ACT: Sandra takes the action of the board she stands on (its room's Sandra action);
    ``changes`` (fields no Sandra action reads: the turn, the index, after_discard) go into its state."""
    coverage.effect("BF-SANDRA-ACT")
    return rooms.ROOMS[game.spaces[state.sandra][0]].sandra(game, state, **changes)


def maintenance(game: Tokens, state: BotFactoryState, **changes: Any) -> BotFactoryState:
    """BF-MAINT: completed bots' parts to the discard and their value down one; the Project board slides
    and refills. ``changes`` (fields maintenance does not read) go into its state."""
    coverage.effect("BF-MAINT")
    columns = list(state.columns)
    values = list(state.values)
    for ci, column in enumerate(columns):
        if None not in column:
            for p in column:
                assert p is not None
                state = game._discard_part_tile(state, p)
            columns[ci] = (None, None, None)
            values[ci] = max(0, values[ci] - 1)
    changes["after_discard"] = "round_end"
    state = evolve(state, columns=tuple(columns), values=tuple(values), **changes)
    return projects.slide_projects(game, state)


def round_end(game: Tokens, state: BotFactoryState) -> BotFactoryState:
    """BF-END: the game ends after the maintenance of a round in which a colour's bots were all built
    (BF-END-COLOUR) or a player built a fifth (BF-END-FIFTH), or after the game's own round cap; BF-ORDER:
    otherwise the next round's order follows the spaces left to right. Either way the round's payments to
    Sandra (``paid``, BF-SANDRA-PAID) are forgotten."""
    built = [game.end_count - left for left in state.bots_left]
    if (
        any(b >= game.end_count for b in built)
        or any(len(h.done) >= game.c.counts.bots_to_end for h in state.hands)
        or (game.max_rounds is not None and state.round >= game.max_rounds)
    ):
        over = evolve(state, phase=OVER, after_discard="", paid=())
        trigger = scoring.end_trigger(game, over)
        if trigger == "BF-END-COLOUR":
            coverage.effect("BF-END")
            coverage.effect("BF-END-COLOUR")
        elif trigger == "BF-END-FIFTH":
            coverage.effect("BF-END")
            coverage.effect("BF-END-FIFTH")
        return over
    coverage.effect("BF-ROUND")
    coverage.effect("BF-ORDER")
    order = tuple(sorted(range(game._players), key=lambda s: state.workers[s] or 0))
    return _NEXT_ROUND(state, state.round + 1, order, 0, MOVE, "", ())
