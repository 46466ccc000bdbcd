"""Project board (03): taking tiles (BF-PROJ, BF-PROJ-LEFT, BF-PROJ-RIGHT), the exchange (BF-PROJ-TRADE) and
the clear-out shared by Sandra (BF-PROJ-SANDRA) and maintenance (BF-MAINT)."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

import attrs

from bgrules.botfactory.reference.common import add_part, gain_tokens, replace, set_hand
from bgrules.botfactory.state import BotFactoryState, Exchange, Job, TakeProject

if TYPE_CHECKING:
    from bgrules.botfactory.reference.game import ReferenceBotFactoryGame


def project_takes(s: BotFactoryState) -> tuple[TakeProject, ...]:
    """BF-PROJ: any occupied space, left column first, bottom row first."""
    return tuple(
        TakeProject(col, row)
        for col, column in enumerate(s.grid)
        for row, tile in enumerate(column)
        if tile is not None
    )


def take_project(
    g: ReferenceBotFactoryGame, s: BotFactoryState, seat: int, action: TakeProject
) -> tuple[BotFactoryState, bool]:
    """BF-PROJ: the tile goes to the hand; BF-PROJ-RIGHT: from the right column's bottom space, a token;
    BF-PROJ-LEFT: from the left column's bottom space, the offer of a paid placement (returned as True)."""
    tile = s.grid[action.column][action.row]
    assert tile is not None
    s = attrs.evolve(s, grid=replace(s.grid, action.column, replace(s.grid[action.column], action.row, None)))
    hand = s.hands[seat]
    s = set_hand(s, seat, attrs.evolve(hand, projects=tuple(sorted((*hand.projects, tile)))))
    if action.row == 0 and action.column == 1:
        s = gain_tokens(g, s, seat, 1)
    return s, action.row == 0 and action.column == 0


def exchanges(g: ReferenceBotFactoryGame, s: BotFactoryState, seat: int) -> tuple[Exchange, ...]:
    """BF-PROJ-TRADE: each distinct two unfinished Project tiles (sorted), each with each slot (head, torso,
    legs) whose Universal part is left."""
    pairs = list(dict.fromkeys(combinations(s.hands[seat].projects, 2)))
    return tuple(Exchange(pair, slot) for pair in pairs for k, slot in enumerate(g.slots) if s.universal[k] > 0)


def exchange(g: ReferenceBotFactoryGame, s: BotFactoryState, seat: int, action: Exchange) -> BotFactoryState:
    """BF-PROJ-TRADE: the two tiles to the Project discard; a Universal part of the slot to the hand."""
    hand = s.hands[seat]
    projects = list(hand.projects)
    discard = s.project_discard
    for colour in action.projects:
        projects.remove(colour)
        c = g.colours.index(colour)
        discard = replace(discard, c, discard[c] + 1)
    s = set_hand(s, seat, attrs.evolve(hand, projects=tuple(projects)))
    k = g.slots.index(action.slot)
    s = attrs.evolve(s, project_discard=discard, universal=replace(s.universal, k, s.universal[k] - 1))
    return add_part(s, seat, f"any-{action.slot}")


def clear_out(g: ReferenceBotFactoryGame, s: BotFactoryState) -> BotFactoryState:
    """BF-PROJ-SANDRA / BF-MAINT: each column loses its bottom tile (ruling ``project_clear_out``:
    ``"lowest_tile"``, the lowest tile left in it; ``"bottom_space"``, only a tile on the bottom space) to
    the Project discard; the other tiles slide down; each empty space, left column bottom to top then the
    right, gets a draw from the Project stack."""
    grid = []
    discard = s.project_discard
    for column in s.grid:
        tiles = list(column)
        if g.variant.rulings.project_clear_out == "lowest_tile":
            lowest = next((r for r, t in enumerate(tiles) if t is not None), None)
        else:
            lowest = 0 if tiles[0] is not None else None
        if lowest is not None:
            colour = tiles[lowest]
            assert colour is not None
            c = g.colours.index(colour)
            discard = replace(discard, c, discard[c] + 1)
            tiles[lowest] = None
        kept = [t for t in tiles if t is not None]
        grid.append(tuple(kept) + (None,) * (len(tiles) - len(kept)))
    jobs: tuple[Job, ...] = tuple(
        ("project", -1, "grid", col, row)
        for col, column in enumerate(grid)
        for row, t in enumerate(column)
        if t is None
    )
    return attrs.evolve(s, grid=tuple(grid), project_discard=discard, draws=s.draws + jobs)
