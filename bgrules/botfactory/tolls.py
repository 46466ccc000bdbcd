"""The turn a player opens with and the fees due before its main action: Sandra's token for sharing her
board (BF-SANDRA-SHARE) and the last Assembly space's extra token (BF-ASM-LAST), paid apart or together
(ruling ``last_space_toll``). Plain functions of the game and a state."""

from __future__ import annotations

from bgrules.botfactory import assembly
from bgrules.botfactory.state import BotFactoryState, Turn
from bgrules.botfactory.tokens import Tokens


def sharing(game: Tokens, state: BotFactoryState, seat: int) -> bool:
    """BF-SANDRA-SHARE: the player's worker stands on the board Sandra stands on."""
    return game.spaces[state.sandra][0] == game._board_of(state, seat)


def extra(game: Tokens, state: BotFactoryState, seat: int) -> int:
    """BF-ASM-LAST: the extra tokens of the space the player stands on (the last Assembly space's)."""
    where = state.workers[seat]
    assert where is not None
    return assembly.extra_cost(game, where)


def toll(game: Tokens, state: BotFactoryState, seat: int) -> int:
    """BF-SANDRA-SHARE and BF-ASM-LAST: what the main action costs before it may be taken."""
    return (1 if sharing(game, state, seat) else 0) + extra(game, state, seat)


def fee(game: Tokens, state: BotFactoryState, seat: int, turn: Turn) -> int:
    """BF-SANDRA-SHARE, BF-ASM-LAST: the fee ``PayShare()`` pays now: with ``last_space_toll = "separate"``
    Sandra's token first ("share"), then the last space's extra token ("extra"); with ``"combined"`` both at
    once."""
    if turn.main == "extra":
        return extra(game, state, seat)
    if game.variant.rulings.last_space_toll == "combined":
        return toll(game, state, seat)
    return 1


def opening(game: Tokens, state: BotFactoryState, seat: int) -> Turn:
    """BF-ROUND: the turn ``seat`` opens with, with the space's action count and its fees (BF-SANDRA-SHARE,
    BF-ASM-LAST; ruling ``last_space_toll``); it reads the workers and Sandra only."""
    return opening_on(game, state.workers, state.sandra, seat)


def opening_on(game: Tokens, workers: tuple[int | None, ...], sandra: int, seat: int) -> Turn:
    """BF-ROUND: the turn ``seat`` opens with when the workers stand on ``workers`` and Sandra on ``sandra``:
    the space's action count, "share" while Sandra's toll is due (BF-SANDRA-SHARE; ruling
    ``last_space_toll = "combined"``: also for the last Assembly space's extra token), "extra" while
    only that token is (BF-ASM-LAST), else "open"."""
    where = workers[seat]
    assert where is not None
    key = (where, sandra)
    found = game._opening_memo.get(key)
    if found is None:
        board, _space, n = game.spaces[where]
        shares = game.spaces[sandra][0] == board  # sharing
        cost = assembly.extra_cost(game, where)  # extra
        if game.variant.rulings.last_space_toll == "combined":
            found = Turn(n, "share" if (1 if shares else 0) + cost else "open")  # toll
        else:
            found = Turn(n, "share" if shares else "extra" if cost else "open")
        game.memos.put(game._opening_memo, key, found)
    return found
