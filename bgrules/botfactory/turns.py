"""The action turn (BF-ROUND): the fees before the main action (BF-SANDRA-SHARE, BF-ASM-LAST), the main
action and the additional actions of the board one stands on (handed to its room), the pending rewards
and their answers (BF-ASM-ICON, BF-PROD-MARK, BF-PROJ-LEFT, BF-FIN-LINE, BF-PROD-ROTATE), and EndTurn.
Plain functions of the game and a state: the turn's options, and its guards with their effects."""

from __future__ import annotations

from typing import Any

from bgrules.botfactory import assembly, limits, production, projects, rooms, tolls, windows
from bgrules.botfactory.base import _TURN_MAIN, _TURN_PROMPT, _WITH_TURN, _offered
from bgrules.botfactory.state import (
    END_TURN,
    PAY_SHARE,
    SKIP,
    BotFactoryState,
    EndTurn,
    PayShare,
    PlacePart,
    Skip,
    TakeProject,
    TakeTop,
    Turn,
)
from bgrules.botfactory.tokens import Tokens
from bgrules.core import coverage
from bgrules.core.errors import IllegalAction
from bgrules.core.fastevolve import copier

_PAID_TURN = copier(BotFactoryState, "turn", "paid")


def options(game: Tokens, state: BotFactoryState) -> tuple[Any, ...]:
    """BF-ROUND: the decisions of the action phase: a window's (BF-ADDITIONAL), else the turn's
    (``turn_options``)."""
    if state.window:
        return windows.options(game, state)
    return tuple(turn_options(game, state, state.order[state.index]))


def turn_options(game: Tokens, state: BotFactoryState, seat: int) -> list[Any]:
    """BF-ROUND: the action turn: a pending reward, the fees (BF-SANDRA-SHARE, BF-ASM-LAST), the main action while
    open, the additional actions (BF-ADDITIONAL), EndTurn."""
    turn = state.turn
    assert turn is not None
    hand = state.hands[seat]
    if turn.prompt:
        return prompt_options(game, state, seat, turn)
    if turn.main == "share" or turn.main == "extra":
        return [PAY_SHARE, SKIP] if hand.tokens >= tolls.fee(game, state, seat, turn) else [SKIP]
    board = game._board_of(state, seat)
    if turn.main == "open" and turn.left > 0:
        return [
            *main_options(game, state, seat, board, turn),
            *rooms.ROOMS[board].additional_options(game, state, seat),
            END_TURN,
        ]
    return [*rooms.ROOMS[board].additional_options(game, state, seat), END_TURN]


def main_options(game: Tokens, state: BotFactoryState, seat: int, board: int, turn: Turn) -> list[Any]:
    """The main action of the board one stands on (BF-ASM, BF-PROD, BF-PROJ, BF-FIN): its room's."""
    return rooms.ROOMS[board].main_options(game, state, seat, turn)


def prompt_options(game: Tokens, state: BotFactoryState, seat: int, turn: Turn) -> list[Any]:
    """The answers to a pending reward: BF-ASM-ICON, BF-PROD-MARK / BF-PROJ-LEFT (a token), BF-FIN-LINE (free
    placement or a Project tile), BF-PROD-ROTATE (refill)."""
    kind = turn.prompt[0]
    if kind == "icon":  # BF-ASM-ICON: pay a token for the top part of any pile
        return assembly.icon_options(game, state, seat)
    if kind in ("place", "place_free"):  # BF-PROD-MARK, BF-PROJ-LEFT (a token), BF-FIN-LINE (free)
        if kind == "place" and state.hands[seat].tokens < 1:
            return [SKIP]
        return [*assembly.placements(game, state, seat), SKIP]
    if kind == "refill":  # BF-PROD-ROTATE
        return production.refill_options(game, state, int(turn.prompt[1]))
    # "project": BF-FIN-LINE, take a Project tile
    return projects.line_reward_options(game, state)


def act(game: Tokens, state: BotFactoryState, action: Any) -> BotFactoryState:
    """BF-ROUND: an action of the turn: a window's (BF-ADDITIONAL), a reward's answer, the fees (BF-SANDRA-SHARE,
    BF-ASM-LAST), EndTurn, an additional or a main action: the last two handed to the room of the board
    (``rooms.ROOMS``: its guard, then its effect; an action of another board is refused under the board's
    rule)."""
    if state.window:
        return windows.act(game, state, action)
    seat = state.order[state.index]
    turn = state.turn
    assert turn is not None
    if turn.prompt:
        return limits.check(game, answer(game, state, seat, turn, action), seat)
    if turn.main == "share":
        return share(game, state, seat, turn, action)
    if turn.main == "extra":
        return last_space(game, state, seat, turn, action)
    if isinstance(action, EndTurn):
        return windows.end_turn(game, state)
    board = game._board_of(state, seat)
    if isinstance(action, rooms.ADDITIONAL_TYPES):
        return limits.check(game, rooms.ROOMS[board].additional(game, state, seat, action), seat)
    if turn.main != "open" or turn.left <= 0:
        raise IllegalAction("BF-ROUND", f"{action!r}: no main action is left this turn (EndTurn)")
    return limits.check(game, rooms.ROOMS[board].main(game, state, seat, turn, action), seat)


def share(game: Tokens, state: BotFactoryState, seat: int, turn: Turn, action: Any) -> BotFactoryState:
    """BF-SANDRA-SHARE: Sandra's token (with ``last_space_toll = "combined"`` the last Assembly space's too,
    BF-ASM-LAST) paid before the main action, or declined (``Skip``: the main action is lost; under
    ``unpaid_share = "nothing"`` the turn ends); a payment to Sandra is recorded for the round's later
    windows (BF-SANDRA-PAID)."""
    if isinstance(action, PayShare):
        state = game._pay(state, seat, tolls.fee(game, state, seat, turn), "BF-SANDRA-SHARE")
        coverage.effect("BF-SANDRA-SHARE")
        separate = game.variant.rulings.last_space_toll == "separate"
        main = "extra" if separate and tolls.extra(game, state, seat) else "open"
        if not tolls.sharing(game, state, seat):  # "combined": the last Assembly space's token alone (BF-ASM-LAST)
            return _WITH_TURN(state, _TURN_MAIN(turn, main))
        return _PAID_TURN(state, _TURN_MAIN(turn, main), tuple(sorted({*state.paid, seat})))
    if isinstance(action, Skip):
        if tolls.sharing(game, state, seat) and game.variant.rulings.unpaid_share == "nothing":
            return windows.end_turn(game, state)
        return _WITH_TURN(state, _TURN_MAIN(turn, "closed"))
    raise IllegalAction("BF-SANDRA-SHARE", f"{action!r}: pay the toll first (PayShare) or Skip")


def last_space(game: Tokens, state: BotFactoryState, seat: int, turn: Turn, action: Any) -> BotFactoryState:
    """BF-ASM-LAST: the last Assembly space's extra token paid before parts are placed, or declined
    (``Skip``: no part is placed, the additional action stays)."""
    if isinstance(action, PayShare):
        state = game._pay(state, seat, tolls.fee(game, state, seat, turn), "BF-ASM-LAST")
        coverage.effect("BF-ASM-LAST")
        return _WITH_TURN(state, _TURN_MAIN(turn, "open"))
    if isinstance(action, Skip):
        return _WITH_TURN(state, _TURN_MAIN(turn, "closed"))
    raise IllegalAction("BF-ASM-LAST", f"{action!r}: pay the last space's token first (PayShare) or Skip")


def prompt_rule(game: Tokens, state: BotFactoryState, seat: int, kind: str) -> str:
    """The rule a pending reward answers to (BF-PROD-MARK, BF-PROJ-LEFT, BF-ASM-ICON, BF-FIN-LINE,
    BF-PROD-ROTATE)."""
    if kind == "place":  # a paid placement: the Production board's marked space or the Project board's left
        return rooms.ROOMS[game._board_of(state, seat)].PLACE_RULE or "BF-PROJ-LEFT"
    return {"icon": "BF-ASM-ICON", "place_free": "BF-FIN-LINE", "refill": "BF-PROD-ROTATE"}.get(kind, "BF-FIN-LINE")


def answer(game: Tokens, state: BotFactoryState, seat: int, turn: Turn, action: Any) -> BotFactoryState:
    """BF-ASM-ICON, BF-PROD-MARK, BF-PROJ-LEFT, BF-FIN-LINE, BF-PROD-ROTATE: the answer to a pending optional
    reward (icon part, paid or free placement, refill, Project), guarded (one of ``prompt_options``)."""
    if not _offered(action, prompt_options(game, state, seat, turn)):
        rule = prompt_rule(game, state, seat, turn.prompt[0])
        raise IllegalAction(rule, f"{action!r} does not answer the pending choice {turn.prompt[0]!r}")
    kind = turn.prompt[0]
    if kind == "refill":  # the refill sets the turn's next prompt (or none) itself
        return production.refill(game, state, int(turn.prompt[1]), action)
    if kind == "project" and isinstance(action, TakeProject):  # the tile taken with the prompt cleared
        return projects.take_project(game, state, seat, action, _TURN_PROMPT(turn, ()))
    cleared = _WITH_TURN(state, _TURN_PROMPT(turn, ()))
    if isinstance(action, Skip):
        return cleared
    if kind == "icon":
        assert isinstance(action, TakeTop)
        return assembly.take_icon_part(game, cleared, seat, action)
    if kind in ("place", "place_free"):
        assert isinstance(action, PlacePart)
        rule = prompt_rule(game, state, seat, kind)
        if kind == "place":
            cleared = game._pay(cleared, seat, 1, rule)
        return assembly.place(game, cleared, seat, action, rule)
    assert isinstance(action, TakeProject)
    return projects.take_project(game, cleared, seat, action)
