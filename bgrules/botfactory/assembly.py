"""The Assembly board (組裝部): placing parts on the four bots (BF-ASM), their rewards (BF-ASM-REWARD,
BF-ASM-PROJECT, BF-ASM-ICON), the last space's extra token (BF-ASM-LAST), the additional action swapping a
part with a spare (BF-ASM-SWAP) and Sandra's action renewing the spares (BF-ASM-SANDRA).

A room of the round (``rooms.ROOMS``): plain functions of the game and a state. ``main_options`` /
``main`` are the main action's options and its guard with its effect (BF-ASM), ``additional_options`` /
``additional`` the additional action's (BF-ASM-SWAP), ``sandra`` Sandra's action (BF-ASM-SANDRA)."""

from __future__ import annotations

from typing import Any

from bgrules.botfactory.base import (
    _HAND_PARTS,
    _TURN_LEFT,
    _TURN_PROMPT,
    _WITH_TURN,
    ASSEMBLY,
    _offered,
    _set,
    additional_rule,
)
from bgrules.botfactory.state import SKIP, BotFactoryState, PlacePart, Swap, TakeTop, Turn
from bgrules.botfactory.tokens import Tokens
from bgrules.core import coverage
from bgrules.core.errors import IllegalAction
from bgrules.core.fastevolve import evolve

RULE = "BF-ASM"
"""The rule of the board's main action (what an action of another board is refused under)."""
ADDITIONAL_RULE: str | None = "BF-ASM-SWAP"
"""The rule of the board's additional action."""
PLACE_RULE: str | None = None
"""The board offers no paid placement (the ``place`` prompt)."""


# --- main action: place parts ---------------------------------------------------------------------


def placements(game: Tokens, state: BotFactoryState, seat: int) -> tuple[PlacePart, ...]:
    """BF-ASM: parts from hand onto matching empty spaces; BF-ASM-PROJECT: a bot's last part only with an
    unfinished Project of its colour (and a bot meeple of that colour left)."""
    hand = state.hands[seat]
    key = ("place", hand.parts, hand.projects, state.bots_left) + state.columns  # noqa: RUF005
    found = game._options_memo.get(key)
    if found is None:
        found = game._remember(key, tuple(placements_of(game, state, seat)))
    return found


def placements_of(game: Tokens, state: BotFactoryState, seat: int) -> list[PlacePart]:
    """BF-ASM / BF-ASM-PROJECT: ``placements`` computed."""
    hand = state.hands[seat]
    out = []
    for part in sorted(set(hand.parts)):
        colour, slot = part.split("-")
        si = game.slots.index(slot)
        targets = game.colours if colour == "any" else (colour,)
        for col in targets:
            ci = game.colours.index(col)
            column = state.columns[ci]
            if column[si] is not None or None not in column:
                continue
            placed = len(column) - column.count(None)
            if placed == 2 and (col not in hand.projects or not state.bots_left[ci]):
                continue
            out.append(game._action(PlacePart, part, col))
    return out


def main_options(game: Tokens, state: BotFactoryState, seat: int, turn: Turn) -> list[Any]:
    """BF-ASM: the main action's options, the placements (``placements``)."""
    return list(placements(game, state, seat))


def main(game: Tokens, state: BotFactoryState, seat: int, turn: Turn, action: Any) -> BotFactoryState:
    """BF-ASM: one action places one part (``place``: its guard, its effect, its rewards); any other main
    action is not this board's."""
    if not isinstance(action, PlacePart):
        raise IllegalAction(RULE, f"{action!r} is not this board's action")
    coverage.effect("BF-ASM")
    state = _WITH_TURN(state, _TURN_LEFT(turn, turn.left - 1))
    return place(game, state, seat, action, "BF-ASM")


def place(game: Tokens, state: BotFactoryState, seat: int, action: PlacePart, rule: str) -> BotFactoryState:
    """BF-ASM-REWARD: after placing, the bot's part count pays: 1 -> two tokens, 2 -> two tokens,
    3 -> the bot onto a matching unfinished Project (BF-ASM-PROJECT). BF-ASM-ICON: an icon space covered
    offers the top part of any pile for a token."""
    if not _offered(action, placements(game, state, seat)):
        raise IllegalAction(
            rule,
            f"{action!r}: no such part in hand, or its space is taken, or the bot's last part "
            "needs an unfinished Project of its colour",
        )
    hand = state.hands[seat]
    parts = list(hand.parts)
    parts.remove(action.part)
    ci = game.colours.index(action.colour)
    slot = action.part.split("-")[1]
    si = game.slots.index(slot)
    column = _set(state.columns[ci], si, action.part)
    columns = _set(state.columns, ci, column)
    count = sum(x is not None for x in column)
    icon = slot in game.c.boards.icon_slots
    turn = state.turn
    assert turn is not None
    coverage.effect("BF-ASM-REWARD")
    if count < 3:
        state = evolve(state, hands=_set(state.hands, seat, _HAND_PARTS(hand, tuple(parts))), columns=columns)
        state = game._gain(state, seat, 2)
        turn = state.turn
        assert turn is not None
        if icon:
            coverage.effect("BF-ASM-ICON")
            return _WITH_TURN(state, _TURN_PROMPT(turn, ("icon",)))
        return state
    coverage.effect("BF-ASM-PROJECT")
    projects = list(hand.projects)
    projects.remove(action.colour)
    done = tuple(sorted((*hand.done, action.colour)))
    built = evolve(hand, parts=tuple(parts), projects=tuple(projects), done=done)
    if icon:
        coverage.effect("BF-ASM-ICON")
        turn = _TURN_PROMPT(turn, ("icon",))
    return evolve(
        state,
        hands=_set(state.hands, seat, built),
        columns=columns,
        bots_left=_set(state.bots_left, ci, state.bots_left[ci] - 1),
        turn=turn,
    )


def icon_options(game: Tokens, state: BotFactoryState, seat: int) -> list[Any]:
    """BF-ASM-ICON: pay a token for the top part of any pile, or decline."""
    if state.hands[seat].tokens < 1:
        return [SKIP]
    piles = state.piles
    key = ("icon", len(piles)) + piles + state.discards  # noqa: RUF005
    found = game._options_memo.get(key)
    if found is None:
        found = game._remember(
            key,
            tuple([game._action(TakeTop, col) for ci, col in enumerate(game.colours) if game._drawable(state, ci)]),
        )
    return [*found, SKIP]


def take_icon_part(game: Tokens, state: BotFactoryState, seat: int, action: TakeTop) -> BotFactoryState:
    """BF-ASM-ICON: a token for the top part of the chosen pile (a draw to the hand)."""
    state = game._pay(state, seat, 1, "BF-ASM-ICON")
    return evolve(state, draws=(("part", game.colour(action.colour), "hand", seat, 0),), after_discard="action")


def extra_cost(game: Tokens, where: int) -> int:
    """BF-ASM-LAST: the extra tokens the main action of space ``where`` costs: the last Assembly space's
    (``last_space_cost``), none elsewhere."""
    board, space, _n = game.spaces[where]
    return last_space_cost(game, space) if board == ASSEMBLY else 0


def last_space_cost(game: Tokens, space: int) -> int:
    """BF-ASM-LAST: the extra tokens the last Assembly space costs before parts may be placed."""
    if space == len(game.c.boards.assembly) - 1:
        return game.c.boards.assembly_last_extra_cost
    return 0


# --- additional action: swap with a spare -----------------------------------------------------------


def additional_options(game: Tokens, state: BotFactoryState, seat: int) -> tuple[Any, ...]:
    """BF-ASM-SWAP: the additional action's options, any number of times: none without a token or a part."""
    hand = state.hands[seat]
    if hand.tokens < 1 or not hand.parts:  # BF-ASM-SWAP: a token and a part are needed
        return ()
    key = (ASSEMBLY, hand.parts, state.spares)
    found = game._options_memo.get(key)
    if found is None:
        found = game._remember(key, tuple(swap_options(game, state, seat)))
    return found


def swap_options(game: Tokens, state: BotFactoryState, seat: int) -> list[Any]:
    """BF-ASM-SWAP: a token swaps a part from hand with any spare part (any number of times)."""
    hand = state.hands[seat]
    if hand.tokens < 1:
        return []
    action = game._action
    return [
        action(Swap, part, i)
        for part in sorted(set(hand.parts))
        for i, spare in enumerate(state.spares)
        if spare is not None and spare != part
    ]


def additional(game: Tokens, state: BotFactoryState, seat: int, action: Any) -> BotFactoryState:
    """BF-ADDITIONAL, BF-ASM-SWAP: an offered swap (``additional_options``), taken (``swap``)."""
    if not _offered(action, additional_options(game, state, seat)):
        raise IllegalAction(additional_rule(action), f"{action!r} is not an additional action of this board now")
    coverage.effect("BF-ADDITIONAL")
    return swap(game, state, seat, action)


def swap(game: Tokens, state: BotFactoryState, seat: int, action: Swap) -> BotFactoryState:
    """BF-ASM-SWAP: pay a token, swap the part from hand with the spare."""
    coverage.effect("BF-ASM-SWAP")
    hand = state.hands[seat]
    state = game._pay(state, seat, 1, "BF-ASM-SWAP")
    spare = state.spares[action.spare]
    assert spare is not None
    parts = list(hand.parts)
    parts.remove(action.part)
    paid = state.hands[seat]
    return evolve(
        state,
        hands=_set(state.hands, seat, _HAND_PARTS(paid, tuple(sorted((*parts, spare))))),
        spares=_set(state.spares, action.spare, action.part),
    )


# --- Sandra ---------------------------------------------------------------------------------------


def sandra(game: Tokens, state: BotFactoryState, **changes: Any) -> BotFactoryState:
    """BF-ASM-SANDRA: clear the spares, draw two by the Distribution marker (``changes``: fields it does not
    read, go into its state)."""
    coverage.effect("BF-ASM-SANDRA")
    for p in state.spares:
        if p is not None:
            state = game._discard_part_tile(state, p)
    jobs = tuple(("part", -1, "spare", i, 0) for i in range(len(state.spares)))
    return evolve(state, spares=(None,) * len(state.spares), draws=jobs, **changes)


__all__ = [
    "ADDITIONAL_RULE",
    "PLACE_RULE",
    "RULE",
    "additional",
    "additional_options",
    "extra_cost",
    "icon_options",
    "last_space_cost",
    "main",
    "main_options",
    "place",
    "placements",
    "sandra",
    "take_icon_part",
]
