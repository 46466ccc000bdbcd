"""The Project board (專案部): taking Project tiles (BF-PROJ) with the bottom row's rewards (BF-PROJ-LEFT,
BF-PROJ-RIGHT), the additional action exchanging two Project tiles for a Universal part (BF-PROJ-TRADE),
and the clear-out that Sandra (BF-PROJ-SANDRA) and maintenance (BF-MAINT) perform.

A room of the round (``rooms.ROOMS``): plain functions of the game and a state. ``main_options`` /
``main`` are the main action's options and its guard with its effect (BF-PROJ), ``additional_options`` /
``additional`` the additional action's (BF-PROJ-TRADE), ``sandra`` Sandra's action (BF-PROJ-SANDRA)."""

from __future__ import annotations

import itertools
from typing import Any

from bgrules.botfactory.base import _HAND_PROJECTS, _TURN_LEFT, _TURN_PROMPT, PROJECT, _offered, _set, additional_rule
from bgrules.botfactory.state import SKIP, BotFactoryState, Exchange, Job, TakeProject, Turn
from bgrules.botfactory.tokens import Tokens
from bgrules.core import coverage
from bgrules.core.errors import IllegalAction
from bgrules.core.fastevolve import copier, evolve

_TAKEN = copier(BotFactoryState, "hands", "grid", "turn")
_SLID = copier(BotFactoryState, "grid", "project_discard", "draws")


RULE = "BF-PROJ"
"""The rule of the board's main action (what an action of another board is refused under)."""
ADDITIONAL_RULE: str | None = "BF-PROJ-TRADE"
"""The rule of the board's additional action."""
PLACE_RULE: str | None = "BF-PROJ-LEFT"
"""The rule of the board's paid placement (the ``place`` prompt of the bottom left tile)."""


# --- main action: take Project tiles ----------------------------------------------------------------


def project_options(game: Tokens, state: BotFactoryState) -> list[Any]:
    """BF-PROJ: every Project tile on the board may be taken."""
    grid = state.grid
    key = ("take", grid[0], grid[1])
    found = game._options_memo.get(key)
    if found is None:
        action = game._action
        found = game._remember(
            key,
            tuple(
                [action(TakeProject, col, row) for col in range(2) for row, t in enumerate(grid[col]) if t is not None]
            ),
        )
    return list(found)


def line_reward_options(game: Tokens, state: BotFactoryState) -> list[Any]:
    """BF-FIN-LINE: a value line's reward, a Project tile, or decline."""
    return [*project_options(game, state), SKIP]


def main_options(game: Tokens, state: BotFactoryState, seat: int, turn: Turn) -> list[Any]:
    """BF-PROJ: the main action's options, the Project tiles on the board (``project_options``)."""
    return project_options(game, state)


def main(game: Tokens, state: BotFactoryState, seat: int, turn: Turn, action: Any) -> BotFactoryState:
    """BF-PROJ: one action takes one Project tile (``take_project``: its guard and its effect); any other
    main action is not this board's."""
    if not isinstance(action, TakeProject):
        raise IllegalAction(RULE, f"{action!r} is not this board's action")
    return take_project(game, state, seat, action, _TURN_LEFT(turn, turn.left - 1))


def take_project(
    game: Tokens, state: BotFactoryState, seat: int, action: TakeProject, turn: Turn | None = None
) -> BotFactoryState:
    """BF-PROJ: take a Project tile; BF-PROJ-LEFT / BF-PROJ-RIGHT: the bottom tiles' rewards. ``turn``
    (default: the state's) is the turn the state takes on."""
    col, row = action.column, action.row
    if col not in range(2) or row not in range(len(state.grid[col])) or state.grid[col][row] is None:
        raise IllegalAction("BF-PROJ", f"no Project tile at column {col}, row {row}")
    colour = state.grid[col][row]
    assert colour is not None
    coverage.effect("BF-PROJ")
    hand = state.hands[seat]
    hands = _set(state.hands, seat, _HAND_PROJECTS(hand, tuple(sorted((*hand.projects, colour)))))
    grid = _set(state.grid, col, _set(state.grid[col], row, None))
    turn = state.turn if turn is None else turn
    assert turn is not None
    if row == 0 and col == 0:
        coverage.effect("BF-PROJ-LEFT")
        return _TAKEN(state, hands, grid, _TURN_PROMPT(turn, ("place",)))
    state = _TAKEN(state, hands, grid, turn)
    if row == 0 and col == 1:
        coverage.effect("BF-PROJ-RIGHT")
        return game._gain(state, seat, 1)
    return state


# --- additional action: two Project tiles for a Universal part ---------------------------------------------


def additional_options(game: Tokens, state: BotFactoryState, seat: int) -> tuple[Any, ...]:
    """BF-PROJ-TRADE: the additional action's options, any number of times: none under two unfinished
    Projects."""
    hand = state.hands[seat]
    if len(hand.projects) < 2:  # BF-PROJ-TRADE: two unfinished Projects are needed
        return ()
    key = (PROJECT, hand.projects, state.universal)
    found = game._options_memo.get(key)
    if found is None:
        found = game._remember(key, tuple(exchange_options(game, state, seat)))
    return found


def exchange_options(game: Tokens, state: BotFactoryState, seat: int) -> list[Any]:
    """BF-PROJ-TRADE: discard two unfinished Project tiles for a Universal part left in the supply."""
    hand = state.hands[seat]
    out: list[Any] = []
    if len(hand.projects) >= 2:
        slots = [slot for si, slot in enumerate(game.slots) if state.universal[si]]
        for two in sorted(set(itertools.combinations(hand.projects, 2))):
            out.extend(game._action(Exchange, two, slot) for slot in slots)
    return out


def additional(game: Tokens, state: BotFactoryState, seat: int, action: Any) -> BotFactoryState:
    """BF-ADDITIONAL, BF-PROJ-TRADE: an offered exchange (``additional_options``), taken (``exchange``)."""
    if not _offered(action, additional_options(game, state, seat)):
        raise IllegalAction(additional_rule(action), f"{action!r} is not an additional action of this board now")
    coverage.effect("BF-ADDITIONAL")
    return exchange(game, state, seat, action)


def exchange(game: Tokens, state: BotFactoryState, seat: int, action: Exchange) -> BotFactoryState:
    """BF-PROJ-TRADE: the two Project tiles to the discard, the Universal part to the hand."""
    coverage.effect("BF-PROJ-TRADE")
    hand = state.hands[seat]
    projects = list(hand.projects)
    discard = list(state.project_discard)
    for p in action.projects:
        projects.remove(p)
        discard[game.colours.index(p)] += 1
    si = game.slots.index(action.slot)
    after = evolve(hand, projects=tuple(projects), parts=tuple(sorted((*hand.parts, f"any-{action.slot}"))))
    return evolve(
        state,
        hands=_set(state.hands, seat, after),
        project_discard=tuple(discard),
        universal=_set(state.universal, si, state.universal[si] - 1),
    )


# --- Sandra and maintenance: the clear-out ------------------------------------------------------------


def sandra(game: Tokens, state: BotFactoryState, **changes: Any) -> BotFactoryState:
    """BF-PROJ-SANDRA: the clear-out (``slide_projects``, the one-state form the mutation tests patch);
    ``changes`` (fields it does not read) go into its state."""
    coverage.effect("BF-PROJ-SANDRA")
    state = slide_projects(game, state)
    return evolve(state, **changes) if changes else state


def slide_projects(game: Tokens, state: BotFactoryState) -> BotFactoryState:
    """BF-PROJ-SANDRA / BF-MAINT: remove each column's lowest tile (ruling ``project_clear_out``: the
    lowest tile wherever it stands, or only a tile on the bottom space), slide the others down, refill
    the empty spaces from the pile."""
    lowest = game.variant.rulings.project_clear_out == "lowest_tile"
    discard = list(state.project_discard)
    grid = []
    jobs: list[Job] = []
    for col, column in enumerate(state.grid):
        rest = [t for t in column if t is not None]
        if rest and (lowest or column[0] is not None):
            discard[game.colours.index(rest.pop(0))] += 1
        new = tuple(rest + [None] * (len(column) - len(rest)))
        grid.append(new)
        jobs.extend(("project", -1, "grid", col, row) for row in range(len(rest), len(column)))
    return _SLID(state, tuple(grid), tuple(discard), (*state.draws, *jobs))


__all__ = [
    "ADDITIONAL_RULE",
    "PLACE_RULE",
    "RULE",
    "additional",
    "additional_options",
    "line_reward_options",
    "main",
    "main_options",
    "project_options",
    "sandra",
    "slide_projects",
    "take_project",
]
