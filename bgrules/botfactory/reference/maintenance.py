"""Phase 3 of the round: maintenance (BF-MAINT), then the end (BF-END) or the next round (BF-ORDER)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from bgrules.botfactory.reference import assembly, ending, moves, projects
from bgrules.botfactory.state import BotFactoryState, Phase

if TYPE_CHECKING:
    from bgrules.botfactory.reference.game import ReferenceBotFactoryGame


def maintenance(g: ReferenceBotFactoryGame, s: BotFactoryState) -> BotFactoryState:
    """BF-MAINT: the completed bots leave the Assembly board (their colours' values fall one step), the
    Project board is cleared out, slides down and is refilled (draws pending); the round ends after them."""
    s = assembly.completed_bots_leave(g, s)
    s = projects.clear_out(g, s)
    return attrs.evolve(s, after_discard="round_end")


def round_end(g: ReferenceBotFactoryGame, s: BotFactoryState) -> BotFactoryState:
    """BF-END: once triggered (or the game's ``max_rounds`` reached) the game is over after maintenance;
    else the next round begins with its move phase, in the order of the spaces just used (BF-ORDER). The
    round's tolls (``paid``) are forgotten either way."""
    if ending.end_triggered(g, s):
        return attrs.evolve(s, phase=Phase.OVER, paid=())
    return attrs.evolve(
        s, round=s.round + 1, phase=Phase.MOVE, order=moves.next_order(s), index=0, turn=None, window=(), paid=()
    )
