"""Phase 1 of the round: the workers' moves (BF-MOVE), Sandra's move (BF-SANDRA-MOVE) and the action order
(BF-ORDER)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bgrules.botfactory.reference.common import board_of
from bgrules.botfactory.state import BotFactoryState, MoveWorker

if TYPE_CHECKING:
    from bgrules.botfactory.reference.game import ReferenceBotFactoryGame


def worker_moves(g: ReferenceBotFactoryGame, s: BotFactoryState, seat: int) -> tuple[MoveWorker, ...]:
    """BF-MOVE: an empty space (no worker, not Sandra's), lowest first; from round 2 on a board other than
    the one the worker stands on (round 1: any, ruling 2)."""
    here = s.workers[seat]
    out = []
    for space in range(len(g.spaces)):
        if space in s.workers or space == s.sandra:
            continue
        if here is not None and board_of(g, space) == board_of(g, here):
            continue
        out.append(MoveWorker(space))
    return tuple(out)


def sandra_target(g: ReferenceBotFactoryGame, s: BotFactoryState) -> int:
    """BF-SANDRA-MOVE (ruling 3): the leftmost empty space of the first board to the right of hers (wrapping
    from 04 to 01, never her own) that has one; she stays if none has."""
    mine = board_of(g, s.sandra)
    for step in (1, 2, 3):
        board = (mine + step) % 4
        for space in range(len(g.spaces)):
            if board_of(g, space) == board and space not in s.workers:
                return space
    return s.sandra


def next_order(s: BotFactoryState) -> tuple[int, ...]:
    """BF-ORDER: the seats by the spaces their workers stood on this round, leftmost first."""
    return tuple(sorted(range(len(s.workers)), key=lambda seat: s.workers[seat] or 0))
