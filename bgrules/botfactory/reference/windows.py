"""Additional actions (BF-ADDITIONAL) and their windows (BF-ADDITIONAL-WINDOW, BF-SANDRA-PAID): what a player
may take on their board, and who is asked in a window."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bgrules.botfactory.reference import assembly, production, projects
from bgrules.botfactory.reference.common import BOARD_ASSEMBLY, BOARD_FINANCE, BOARD_PRODUCTION, BOARD_PROJECT, board_of
from bgrules.botfactory.state import BotFactoryState

if TYPE_CHECKING:
    from bgrules.botfactory.reference.game import ReferenceBotFactoryGame


def additional_options(g: ReferenceBotFactoryGame, s: BotFactoryState, seat: int) -> tuple[Any, ...]:
    """BF-ADDITIONAL: the additional action of the board the worker stands on: BF-ASM-SWAP, BF-PROD-TRADE,
    BF-PROJ-TRADE (the Finance board has none)."""
    space = s.workers[seat]
    if space is None:
        return ()
    board = board_of(g, space)
    if board == BOARD_ASSEMBLY:
        return assembly.swaps(g, s, seat)
    if board == BOARD_PRODUCTION:
        return production.trades(g, s, seat)
    if board == BOARD_PROJECT:
        return projects.exchanges(g, s, seat)
    return ()


def barred(g: ReferenceBotFactoryGame, s: BotFactoryState, seat: int) -> bool:
    """BF-SANDRA-SHARE / BF-SANDRA-PAID: under ``unpaid_share = "nothing"`` a seat on Sandra's board that has
    not paid her this round (``paid_sharer = "own_turn"``: any seat on her board) is asked in no window."""
    space = s.workers[seat]
    rulings = g.variant.rulings
    if space is not None and board_of(g, space) == board_of(g, s.sandra) and rulings.unpaid_share == "nothing":
        return rulings.paid_sharer == "own_turn" or seat not in s.paid
    return False


def strip(g: ReferenceBotFactoryGame, s: BotFactoryState, seats: tuple[int, ...]) -> tuple[int, ...]:
    """A window asks its first seat only if that seat has an additional action to take; seats without one
    are passed over as they come first (Engine conventions: a later seat is looked at when its turn in the
    window comes)."""
    while seats and not additional_options(g, s, seats[0]):
        seats = seats[1:]
    return seats


def window(g: ReferenceBotFactoryGame, s: BotFactoryState, candidates: tuple[int, ...]) -> tuple[int, ...]:
    """BF-ADDITIONAL (ruling ``additional_actions``): the candidates not barred, in the order given, from the
    first with an additional action to take; none under ``"own_turn"``."""
    if g.variant.rulings.additional_actions != "any_time":
        return ()
    return strip(g, s, tuple(seat for seat in candidates if has_board_action(g, s, seat) and not barred(g, s, seat)))


def has_board_action(g: ReferenceBotFactoryGame, s: BotFactoryState, seat: int) -> bool:
    """The worker stands on a board with an additional action (every board but Finance, BF-ADDITIONAL)."""
    space = s.workers[seat]
    return space is not None and board_of(g, space) != BOARD_FINANCE
