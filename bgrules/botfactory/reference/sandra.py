"""BF-SANDRA-ACT: Sandra's action, the one of the board she stands on (BF-ASM-SANDRA, BF-PROD-SANDRA,
BF-PROJ-SANDRA, BF-FIN-SANDRA); from round 2 on, after every player has acted."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bgrules.botfactory.reference import assembly, finance, production, projects
from bgrules.botfactory.reference.common import BOARD_ASSEMBLY, BOARD_PRODUCTION, BOARD_PROJECT, board_of
from bgrules.botfactory.state import BotFactoryState

if TYPE_CHECKING:
    from bgrules.botfactory.reference.game import ReferenceBotFactoryGame


def act(g: ReferenceBotFactoryGame, s: BotFactoryState) -> BotFactoryState:
    """Sandra's action of her board (its draws are left pending)."""
    board = board_of(g, s.sandra)
    if board == BOARD_ASSEMBLY:
        return assembly.sandra(g, s)
    if board == BOARD_PRODUCTION:
        return production.sandra(g, s)
    if board == BOARD_PROJECT:
        return projects.clear_out(g, s)
    return finance.sandra(g, s)
