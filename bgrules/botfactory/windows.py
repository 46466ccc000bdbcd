"""Between the turns: the turn's end (BF-ROUND) and the additional-action windows of the ruling
``additional_actions = "any_time"`` (BF-ADDITIONAL): after a turn, after Sandra's action, and before the
first turn (BF-ADDITIONAL-WINDOW); a player who paid Sandra takes theirs on her board (BF-SANDRA-PAID).
Plain functions of the game and a state: who is offered a window, its options, its guard with its effect,
and what follows it (the next turn, Sandra's action, maintenance)."""

from __future__ import annotations

from typing import Any

from bgrules.botfactory import limits, maintenance, rooms, tolls
from bgrules.botfactory.base import _WITH_TURN
from bgrules.botfactory.state import ACTION, END_TURN, BotFactoryState, EndTurn
from bgrules.botfactory.tokens import Tokens
from bgrules.core import coverage
from bgrules.core.errors import IllegalAction
from bgrules.core.fastevolve import copier, evolve

_NEXT_TURN = copier(BotFactoryState, "turn", "index")
_INTO_WINDOW = copier(BotFactoryState, "turn", "index", "window")


def options(game: Tokens, state: BotFactoryState) -> tuple[Any, ...]:
    """BF-ADDITIONAL: in a window, the deciding player's board's additional actions, or ``EndTurn()``."""
    seat = state.window[0]
    return (*rooms.ROOMS[game._board_of(state, seat)].additional_options(game, state, seat), END_TURN)


def act(game: Tokens, state: BotFactoryState, action: Any) -> BotFactoryState:
    """BF-ADDITIONAL: in a window, the deciding player's board's additional actions, or ``EndTurn()``
    to pass; in the window before the first turn (index 0, no turn yet) the refusal of anything else is
    BF-ADDITIONAL-WINDOW's. A player sharing Sandra's board is in a window under ``unpaid_share =
    "nothing"`` only for having paid her (BF-SANDRA-PAID)."""
    seat = state.window[0]
    if isinstance(action, EndTurn):
        return next_in_window(game, state, state.window[1:])
    if not isinstance(action, rooms.ADDITIONAL_TYPES):
        if state.index == 0:
            raise IllegalAction(
                "BF-ADDITIONAL-WINDOW",
                f"{action!r}: before the first turn only additional actions (or EndTurn to pass)",
            )
        raise IllegalAction("BF-ADDITIONAL", f"{action!r}: between turns only additional actions (or EndTurn to pass)")
    room = rooms.ROOMS[game._board_of(state, seat)]
    state = limits.check(game, room.additional(game, state, seat, action), seat)
    if seat in state.paid and game.variant.rulings.unpaid_share == "nothing":
        coverage.effect("BF-SANDRA-PAID")
    if state.phase is ACTION and not state.draws:
        return next_in_window(game, state)
    return state


def seats(game: Tokens, state: BotFactoryState, skip: tuple[int, ...]) -> tuple[int, ...]:
    """BF-ADDITIONAL: the seats offered a window, in action order from the seat after ``skip[0]`` (all
    of them when ``skip`` is empty): those whose worker stands on a board with an additional action,
    but not the seats in ``skip`` (the player whose turn just ended, and the one about to act: a window
    would give them nothing their own turn does not), nor a player on Sandra's board while an unpaid
    toll forbids any action (``unpaid_share = "nothing"``) unless they paid her this round (BF-SANDRA-PAID,
    ``paid_sharer = "any_time"``; under ``"own_turn"`` additional actions on her board are taken in
    one's own turn only, after paying). Whether a seat has an option is asked when its turn in the
    window comes."""
    order = state.order
    if len(order) != game._players:  # not a state of the usual shape: the plain walk says what
        return seats_of(game, state, skip)
    key = order + state.workers + (state.sandra,) + state.paid
    offered = game._window_memo.get(key)
    if offered is None:
        offered = game.memos.put(game._window_memo, key, seats_of(game, state, ()))
    if not skip:
        return offered
    start = order.index(skip[0]) + 1
    return tuple([seat for seat in order[start:] + order[:start] if seat in offered and seat not in skip])


def seats_of(game: Tokens, state: BotFactoryState, skip: tuple[int, ...]) -> tuple[int, ...]:
    """BF-ADDITIONAL, BF-SANDRA-PAID: ``seats`` computed, seat by seat."""
    n = game._players
    start = (state.order.index(skip[0]) + 1) if skip else 0
    rulings = game.variant.rulings
    nothing = rulings.unpaid_share == "nothing"
    paid = state.paid if rulings.paid_sharer == "any_time" else ()  # BF-SANDRA-PAID
    sandra = game.spaces[state.sandra][0]
    out = []
    for k in range(n):
        seat = state.order[(start + k) % n]
        if seat in skip:
            continue
        board = game._board_of(state, seat)
        if rooms.ROOMS[board].ADDITIONAL_RULE is None or (nothing and board == sandra and seat not in paid):
            continue
        out.append(seat)
    return tuple(out)


def left(game: Tokens, state: BotFactoryState, window: tuple[int, ...]) -> tuple[int, ...]:
    """BF-ADDITIONAL: the window from its first seat with an additional action to take (the options read
    the hands and the supplies, never the window, the turn or its index)."""
    table = rooms.ROOMS
    while window and not table[game._board_of(state, window[0])].additional_options(game, state, window[0]):
        window = window[1:]
    return window


def open_window(game: Tokens, state: BotFactoryState, skip: tuple[int, ...], **changes: Any) -> BotFactoryState:
    """BF-ADDITIONAL: open a window (or go on at once when nobody is offered one); ``changes`` (fields the
    window's seats and options do not read) go into its state."""
    if game.variant.rulings.additional_actions != "any_time":
        return close_window(game, state, **changes)
    return next_in_window(game, state, seats(game, state, skip), **changes)


def next_in_window(
    game: Tokens, state: BotFactoryState, window: tuple[int, ...] | None = None, **changes: Any
) -> BotFactoryState:
    """BF-ADDITIONAL: the window ``window`` (default: the state's) opens on its first seat with an
    additional action to take, the others passed over; it closes when none is left. ``changes`` (fields
    the options do not read) go into its state."""
    window = left(game, state, state.window if window is None else window)
    if window:
        return evolve(state, window=window, **changes) if window != state.window or changes else state
    if state.window:
        changes["window"] = ()
    return close_window(game, state, **changes)


def close_window(game: Tokens, state: BotFactoryState, **changes: Any) -> BotFactoryState:
    """BF-ROUND: after a window, the next turn; after the last turn Sandra acts (BF-SANDRA-ACT, not in
    round 1) and a last window opens before maintenance (``index`` one past the players marks it); after
    that window (or the last turn of round 1), maintenance (BF-MAINT). ``changes`` (the turn, the window,
    the index, after_discard: fields that neither the next turn's opening, Sandra's action nor maintenance
    read) are the state's first: the result is ``close_window(game, evolve(state, **changes))``'s."""
    n = game._players
    index = changes.get("index", state.index)
    if index < n:  # the next turn
        changes["turn"] = tolls.opening(game, state, state.order[index])
        return evolve(state, **changes)
    if index == n and state.round > 1:  # Sandra's actions read neither the index nor after_discard
        resume = "window" if game.variant.rulings.additional_actions == "any_time" else "maintenance"
        changes.update(index=n + 1, after_discard=resume)
        return maintenance.sandra_act(game, state, **changes)
    if not state.draws and state.phase is ACTION:  # what the round's settling does next: maintenance
        return maintenance.maintenance(game, state, **changes)
    changes["after_discard"] = "maintenance"
    return evolve(state, **changes)


def after_moves(game: Tokens, state: BotFactoryState) -> BotFactoryState:
    """BF-ADDITIONAL-WINDOW: the move phase is over (the workers and Sandra stand; ``state`` is the action
    phase at index 0 with no turn open yet): a window opens before the first turn, in action order,
    for every seat with an additional action to take but the first player (who acts next: a window
    would give them nothing their turn does not); else the first turn at once."""
    first = state.order[0]
    window = left(game, state, seats(game, state, (first,)))
    if window:
        coverage.effect("BF-ADDITIONAL-WINDOW")
        return _INTO_WINDOW(state, None, 0, window)
    return _WITH_TURN(state, tolls.opening(game, state, first))


def end_turn(game: Tokens, state: BotFactoryState) -> BotFactoryState:
    """BF-ROUND: the turn ends; a window (BF-ADDITIONAL, ``any_time``), the next turn, or Sandra's action
    (BF-SANDRA-ACT) and maintenance (BF-MAINT)."""
    ended = state.order[state.index]
    index = state.index + 1
    nxt = state.order[index] if index < game._players else None
    if game.variant.rulings.additional_actions == "any_time":
        # the window's seats and options read neither the turn nor its index
        window = left(game, state, seats(game, state, (ended,) if nxt is None else (ended, nxt)))
        if window:
            return _INTO_WINDOW(state, None, index, window)
        if nxt is None:
            return close_window(game, state, turn=None, index=index)
    if nxt is not None:  # the next turn
        return _NEXT_TURN(state, tolls.opening(game, state, nxt), index)
    if state.round > 1:  # BF-SANDRA-ACT (not in round 1; it reads neither the turn nor the index)
        return maintenance.sandra_act(game, state, turn=None, index=index, after_discard="maintenance")
    return evolve(state, turn=None, index=index, after_discard="maintenance")
