"""The move phase: each player's worker to an empty space on another board (BF-MOVE), then Sandra's move
(BF-SANDRA-MOVE, not in round 1), and the action phase's start (its first turn, or the window before it:
BF-ADDITIONAL-WINDOW). Plain functions of the game and a state: the moves offered, and the guard with
its effect."""

from __future__ import annotations

from typing import Any

from bgrules.botfactory import tolls, windows
from bgrules.botfactory.base import _set
from bgrules.botfactory.state import ACTION, BotFactoryState, MoveWorker
from bgrules.botfactory.tokens import Tokens
from bgrules.core import coverage
from bgrules.core.errors import IllegalAction
from bgrules.core.fastevolve import copier

_MOVED = copier(BotFactoryState, "workers", "index")
_ALL_MOVED = copier(BotFactoryState, "workers", "sandra", "phase", "index", "turn")


def options(game: Tokens, state: BotFactoryState) -> tuple[Any, ...]:
    """BF-MOVE: the moves of the player to move (an open window is the window's: BF-ADDITIONAL)."""
    if state.window:
        return windows.options(game, state)
    return move_options(game, state, state.order[state.index])[0]


def move_options(game: Tokens, state: BotFactoryState, seat: int) -> tuple[tuple[MoveWorker, ...], frozenset[int]]:
    """BF-MOVE: the moves of ``seat`` and their spaces (``targets``)."""
    key = state.workers + (state.sandra, seat)  # noqa: RUF005
    found = game._move_memo.get(key)
    if found is None:
        spaces = tuple(targets(game, state, seat))
        memos = game.memos
        offers: dict[tuple[int, ...], tuple[tuple[MoveWorker, ...], frozenset[int]]]
        offers = memos["move_offers"]
        found = offers.get(spaces)
        if found is None:
            n = len(game.spaces)
            table = memos["moves"]
            moves = table.get(n)
            if moves is None:
                moves = memos.put(table, n, tuple(MoveWorker(i) for i in range(n)))
            found = memos.put(offers, spaces, (tuple([moves[s] for s in spaces]), frozenset(spaces)))
        memos.put(game._move_memo, key, found)
    return found


def targets(game: Tokens, state: BotFactoryState, seat: int) -> list[int]:
    """BF-MOVE: an empty action space on another board (round 1: any empty space)."""
    taken = set(state.workers)  # (None among them is no space)
    taken.add(state.sandra)
    here = state.workers[seat]
    known = game.memos["move_candidates"]
    candidates = known.get(here)
    if candidates is None:  # the spaces not on the board of ``here`` (all of them in round 1)
        candidates = tuple(
            i for i in range(len(game.spaces)) if here is None or game.spaces[i][0] != game.spaces[here][0]
        )
        game.memos.put(known, here, candidates)
    return [i for i in candidates if i not in taken]


def act(game: Tokens, state: BotFactoryState, action: Any) -> BotFactoryState:
    """BF-MOVE: the worker to an empty space on another board; once all have moved, Sandra moves (BF-SANDRA-MOVE,
    not in round 1) and the action phase begins (BF-ADDITIONAL-WINDOW: with the window before the first
    turn under ``opening_window = "after_moves"``)."""
    seat = state.order[state.index]
    if not isinstance(action, MoveWorker):
        raise IllegalAction("BF-MOVE", f"{action!r}: move your worker (MoveWorker)")
    if action.space not in move_options(game, state, seat)[1]:
        raise IllegalAction("BF-MOVE", f"space {action.space} is taken or on the board you stand on")
    coverage.effect("BF-MOVE")
    workers = _set(state.workers, seat, action.space)
    if state.index + 1 < game._players:
        return _MOVED(state, workers, state.index + 1)
    sandra = sandra_target(game, state.sandra, workers) if state.round > 1 else state.sandra
    rulings = game.variant.rulings
    if rulings.additional_actions == "any_time" and rulings.opening_window == "after_moves":
        return windows.after_moves(game, _ALL_MOVED(state, workers, sandra, ACTION, 0, None))
    return _ALL_MOVED(state, workers, sandra, ACTION, 0, tolls.opening_on(game, workers, sandra, state.order[0]))


def sandra_target(game: Tokens, sandra: int, workers: tuple[int | None, ...]) -> int:
    """BF-SANDRA-MOVE: where Sandra moves from ``sandra`` once the workers stand on ``workers``: to the
    first empty space, left to right, of the next board to the right that has one (wrapping; never her
    own board); she stays if none has."""
    coverage.effect("BF-SANDRA-MOVE")
    board = game.spaces[sandra][0]
    taken = {w for w in workers if w is not None}
    for k in range(1, 4):
        target = (board + k) % 4
        for i in game.board_spaces[target]:
            if i not in taken:
                return i
    return sandra
