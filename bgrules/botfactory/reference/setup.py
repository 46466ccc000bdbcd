"""Set-up (BF-SETUP-TOKENS, BF-SETUP-WHEEL, BF-SETUP-BOARDS) and the first part tiles (BF-SETUP-PARTS)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from bgrules.botfactory.state import BotFactoryState, Hand, Job, Phase, TakeTop

if TYPE_CHECKING:
    from bgrules.botfactory.reference.game import ReferenceBotFactoryGame


def initial_state(g: ReferenceBotFactoryGame) -> BotFactoryState:
    """BF-SETUP-TOKENS: each player takes ``start_tokens``, the last seat of round 1's order one more;
    BF-SETUP-WHEEL / BF-SETUP-BOARDS: full piles, empty boards, every value at ``start_value``, Sandra on
    ``[boards] sandra_start``, the workers off the boards; the set-up draws pending: the face-up contracts,
    the Wheel from position 0 (each from its set-up colour's pile), the Project board left column bottom to
    top, then the right (Engine conventions). Unsettled: the caller settles it."""
    c = g.c
    n = g.players
    hands = tuple(
        Hand(c.counts.start_tokens + (c.counts.last_player_extra_token if seat == n - 1 else 0)) for seat in range(n)
    )
    per = c.counts.parts_per_colour_slot
    rows = c.boards.project_rows
    jobs: list[Job] = [("contract", -1, "display", i, 0) for i in range(c.finance.contracts_face_up)]
    jobs += [("part", g.colours.index(colour), "wheel", pos, 0) for pos, colour in enumerate(c.wheel.setup)]
    jobs += [("project", -1, "grid", col, row) for col in range(2) for row in range(rows)]
    return BotFactoryState(
        hands=hands,
        supply=tuple(c.counts.tokens_per_colour - hand.tokens for hand in hands),
        piles=((per, per, per),) * 4,
        discards=((0, 0, 0),) * 4,
        universal=(c.counts.universal_per_slot,) * 3,
        wheel=(None,) * 8,
        marker=0,
        columns=((None, None, None),) * 4,
        bots_left=(g.end_count,) * 4,
        spares=(None,) * c.boards.spares,
        grid=((None,) * rows, (None,) * rows),
        project_pile=(c.counts.projects_per_colour,) * 4,
        project_discard=(0,) * 4,
        values=(c.finance.start_value,) * 4,
        display=(None,) * c.finance.contracts_face_up,
        contract_pool=tuple(sorted(g.contracts)),
        reserved=((),) * c.finance.contracts_face_up,
        workers=(None,) * n,
        sandra=c.boards.sandra_start,
        round=1,
        phase=Phase.SETUP,
        order=tuple(range(n)),
        draws=tuple(jobs),
        after_discard="setup",
    )


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
