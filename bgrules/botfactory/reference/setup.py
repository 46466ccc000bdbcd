"""Set-up (BF-SETUP-TOKENS, BF-SETUP-WHEEL, BF-SETUP-BOARDS) and the first part tiles (BF-SETUP-PARTS), read
from docs/rules/botfactory.md, "Set-up", and the seed's lines 6-8. Where each field of the state stands at
set-up is the page's "Engine conventions", Set-up: each rule below gives the fields it lays out, and
``initial_state`` puts them together."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from bgrules.botfactory.state import BotFactoryState, Hand, Job, Phase, TakeTop

if TYPE_CHECKING:
    from bgrules.botfactory.reference.game import ReferenceBotFactoryGame


def round_one_order(players: int) -> tuple[int, ...]:
    """BF-ORDER: 第一回合行動順序照順時針 (seed line 22): round 1 goes clockwise from seat 0."""
    return tuple(range(players))


def starting_tokens(g: ReferenceBotFactoryGame) -> tuple[int, ...]:
    """BF-SETUP-TOKENS, by seat: 玩家拿取一個話語指示物 (seed line 6), each player takes ``start_tokens``;
    首回合尾家多拿一個話語指示物 (line 7), the last player of round 1's order takes
    ``last_player_extra_token`` more."""
    counts = g.c.counts
    last = round_one_order(g.players)[-1]
    return tuple(
        counts.start_tokens + (counts.last_player_extra_token if seat == last else 0) for seat in range(g.players)
    )


def tokens(g: ReferenceBotFactoryGame) -> dict[str, Any]:
    """BF-SETUP-TOKENS: each player's hand holds their starting tokens and nothing else; the rest of their
    colour's ``tokens_per_colour`` stays in the supply (Pieces: held + on contracts + supply = 9)."""
    held = starting_tokens(g)
    return {
        "hands": tuple(Hand(tokens=n) for n in held),
        "supply": tuple(g.c.counts.tokens_per_colour - n for n in held),
    }


def part_piles(g: ReferenceBotFactoryGame) -> dict[str, Any]:
    """BF-SETUP-WHEEL: each colour's part tiles (``parts_per_colour_slot`` of each slot) in a face-down pile,
    kept as counts by slot (BF-SETUP-BOARDS, last paragraph), nothing discarded yet; the Wheel's spaces
    empty until the set-up draws fill them; the Distribution marker at the red pile (the first colour)."""
    per_slot = g.c.counts.parts_per_colour_slot
    return {
        "piles": tuple(tuple(per_slot for _slot in g.slots) for _colour in g.colours),
        "discards": tuple(tuple(0 for _slot in g.slots) for _colour in g.colours),
        "wheel": tuple(None for _position in g.c.wheel.setup),
        "marker": 0,  # the first pile in colour order: red
    }


def boards(g: ReferenceBotFactoryGame) -> dict[str, Any]:
    """BF-SETUP-BOARDS: the Assembly board's bot columns and spare-part spaces empty (ruling); the Project
    tiles in their stack (counts by colour), the Project board's columns empty until the set-up draws,
    none discarded; the Universal parts beside it; every colour's value at ``start_value``; every contract
    in the pool, the face-up display empty until drawn and nobody's reservation on it; Sandra on
    ``[boards] sandra_start``. BF-END: each colour's bots in play (``end_count``), none built."""
    c = g.c
    return {
        "columns": tuple(tuple(None for _slot in g.slots) for _colour in g.colours),
        "spares": tuple(None for _space in range(c.boards.spares)),
        "project_pile": tuple(c.counts.projects_per_colour for _colour in g.colours),
        "project_discard": tuple(0 for _colour in g.colours),
        "grid": tuple(tuple(None for _row in range(c.boards.project_rows)) for _col in range(c.boards.project_columns)),
        "universal": tuple(c.counts.universal_per_slot for _slot in g.slots),
        "values": tuple(c.finance.start_value for _colour in g.colours),
        "contract_pool": tuple(sorted(g.contracts)),
        "display": tuple(None for _slot in range(c.finance.contracts_face_up)),
        "reserved": tuple(() for _slot in range(c.finance.contracts_face_up)),
        "sandra": c.boards.sandra_start,
        "bots_left": tuple(g.end_count for _colour in g.colours),
    }


def setup_draws(g: ReferenceBotFactoryGame) -> tuple[Job, ...]:
    """BF-SETUP-BOARDS, the set-up draws in order (Engine conventions, Draw jobs): the face-up contracts by
    display slot; the Wheel from position 0, each space from the pile of its set-up colour
    (BF-SETUP-WHEEL, ``[wheel] setup``); the Project board's left column bottom to top, then the right."""
    c = g.c
    jobs: list[Job] = []
    for slot in range(c.finance.contracts_face_up):
        jobs.append(("contract", -1, "display", slot, 0))
    for position, colour in enumerate(c.wheel.setup):
        jobs.append(("part", g.colours.index(colour), "wheel", position, 0))
    for column in range(c.boards.project_columns):
        jobs.extend(("project", -1, "grid", column, row) for row in range(c.boards.project_rows))
    return tuple(jobs)


def first_round(g: ReferenceBotFactoryGame) -> dict[str, Any]:
    """BF-MOVE: the workers start off the boards; BF-ORDER: round 1 in clockwise order; the set-up draws
    pending (a chance node), play resuming with BF-SETUP-PARTS once they are drawn (``after_discard``
    ``"setup"``, Engine conventions)."""
    return {
        "workers": tuple(None for _seat in range(g.players)),
        "round": 1,
        "order": round_one_order(g.players),
        "phase": Phase.SETUP,
        "index": 0,
        "draws": setup_draws(g),
        "after_discard": "setup",
    }


def initial_state(g: ReferenceBotFactoryGame) -> BotFactoryState:
    """The state before the set-up draws (unsettled: the caller settles it): the fields of BF-SETUP-TOKENS,
    BF-SETUP-WHEEL, BF-SETUP-BOARDS and of round 1's start."""
    return BotFactoryState(**tokens(g), **part_piles(g), **boards(g), **first_round(g))


def picker(s: BotFactoryState) -> int:
    """BF-SETUP-PARTS: the players pick in the reverse of round 1's order."""
    return tuple(reversed(s.order))[s.index]


def pick(g: ReferenceBotFactoryGame, s: BotFactoryState, action: TakeTop) -> BotFactoryState:
    """BF-SETUP-PARTS: the top part of the chosen pile to the picker's hand (a draw); the next picker."""
    job: Job = ("part", g.colours.index(action.colour), "hand", picker(s), 0)
    return attrs.evolve(s, index=s.index + 1, draws=(job,), after_discard="pick")


def after_setup_draws(s: BotFactoryState) -> BotFactoryState:
    """BF-SETUP-PARTS follows the set-up draws."""
    return attrs.evolve(s, phase=Phase.PICK, index=0)


def after_pick_draw(g: ReferenceBotFactoryGame, s: BotFactoryState) -> BotFactoryState:
    """After the last pick, round 1's move phase (BF-MOVE)."""
    if s.index >= g.players:
        return attrs.evolve(s, phase=Phase.MOVE, index=0)
    return s
