"""BF-PILE and the chance nodes: the pending draw jobs (``state.draws``), their outcomes and their effects.

A job is ``(what, source, destination, a, b)`` (bgrules.botfactory.state.Job): ``what`` is "part",
"project" or "contract"; ``source`` a pile's colour index, or -1 for the pile the Distribution marker points
at; ``destination`` "wheel" (position a), "spare" (space a), "hand" (seat a), "grid" (column a, row b) or
"display" (slot a). Jobs are drawn first to last.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

import attrs

from bgrules.botfactory.reference.common import add_part, replace
from bgrules.botfactory.state import BotFactoryState, DrawContract, DrawPart, DrawProject

if TYPE_CHECKING:
    from bgrules.botfactory.reference.game import ReferenceBotFactoryGame


def ready_head(s: BotFactoryState) -> BotFactoryState:
    """BF-PILE / BF-MAINT, before the first pending job is drawn: an empty part pile takes its colour's
    discard (shuffled); a marker draw whose pile and discard are both empty moves the marker on to the next
    pile, and is dropped if all four are empty; an empty Project stack takes the Project discard, and a
    Project draw with both empty is dropped. Repeats until the first job can be drawn or none is left."""
    while s.draws:
        what, source, _dest, _a, _b = s.draws[0]
        if what == "part":
            tries = 1 if source >= 0 else 4
            found = False
            for _ in range(tries):
                c = source if source >= 0 else s.marker
                if sum(s.piles[c]) > 0:
                    found = True
                    break
                if sum(s.discards[c]) > 0:
                    s = attrs.evolve(
                        s, piles=replace(s.piles, c, s.discards[c]), discards=replace(s.discards, c, (0, 0, 0))
                    )
                    found = True
                    break
                if source < 0:
                    s = attrs.evolve(s, marker=(s.marker + 1) % 4)
            if found:
                return s
            s = attrs.evolve(s, draws=s.draws[1:])
        elif what == "project":
            if sum(s.project_pile) > 0:
                return s
            if sum(s.project_discard) > 0:
                return attrs.evolve(s, project_pile=s.project_discard, project_discard=(0,) * len(s.project_discard))
            s = attrs.evolve(s, draws=s.draws[1:])
        else:
            if s.contract_pool:
                return s
            s = attrs.evolve(s, draws=s.draws[1:])
    return s


def outcomes(g: ReferenceBotFactoryGame, s: BotFactoryState) -> tuple[tuple[Any, Fraction], ...]:
    """The first job's outcomes, each with (tiles of that kind left) / (tiles left): a part pile by slot
    (head, torso, legs), the Project stack by colour (in colour order), the contracts by id (pool order)."""
    if not s.draws:
        return ()
    what, source, _dest, _a, _b = s.draws[0]
    if what == "part":
        pile = s.piles[source if source >= 0 else s.marker]
        total = sum(pile)
        return tuple((DrawPart(slot), Fraction(k, total)) for slot, k in zip(g.slots, pile, strict=True) if k)
    if what == "project":
        total = sum(s.project_pile)
        return tuple(
            (DrawProject(colour), Fraction(k, total)) for colour, k in zip(g.colours, s.project_pile, strict=True) if k
        )
    pool = s.contract_pool
    return tuple((DrawContract(i), Fraction(1, len(pool))) for i in pool)


def draw(g: ReferenceBotFactoryGame, s: BotFactoryState, outcome: Any) -> BotFactoryState:
    """The first job drawn with ``outcome``: the tile leaves its pile (a marker draw then moves the marker one
    pile right, green back to red) and goes to the job's destination."""
    what, source, dest, a, b = s.draws[0]
    s = attrs.evolve(s, draws=s.draws[1:])
    if what == "part":
        c = source if source >= 0 else s.marker
        k = g.slots.index(outcome.slot)
        s = attrs.evolve(s, piles=replace(s.piles, c, replace(s.piles[c], k, s.piles[c][k] - 1)))
        if source < 0:
            s = attrs.evolve(s, marker=(s.marker + 1) % 4)
        part = f"{g.colours[c]}-{outcome.slot}"
        if dest == "wheel":
            return attrs.evolve(s, wheel=replace(s.wheel, a, part))
        if dest == "spare":
            return attrs.evolve(s, spares=replace(s.spares, a, part))
        return add_part(s, a, part)
    if what == "project":
        c = g.colours.index(outcome.colour)
        s = attrs.evolve(s, project_pile=replace(s.project_pile, c, s.project_pile[c] - 1))
        return attrs.evolve(s, grid=replace(s.grid, a, replace(s.grid[a], b, outcome.colour)))
    pool = tuple(i for i in s.contract_pool if i != outcome.id)
    return attrs.evolve(s, contract_pool=pool, display=replace(s.display, a, outcome.id))


def legal_outcome(g: ReferenceBotFactoryGame, s: BotFactoryState, outcome: Any) -> bool:
    return any(o == outcome for o, _p in outcomes(g, s))
