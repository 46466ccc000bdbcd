"""The evaluation the ``greedy`` and ``mcts`` agents use for Bot Factory (docs/rules/botfactory.md,
"Evaluation (for agents)").

``evaluate(game, state, seat)`` is, in points:

    game.scores(state)[seat]                     (BF-SCORE: what the seed's scoring gives now: bots at their
                                                 value, contracts, a point per two tokens, -1 per part,
                                                 -2 per unfinished Project)
    + 0.5 for an odd held token                  (the half point the floor of BF-SCORE drops: tokens are
                                                 worth 1/2 each as currency)
    + PART for each part tile held, PART_FIT more if it fits an empty space of a column whose colour still
      has a bot to build                         (progress toward bots: BF-ASM)
    + PROJECT for each unfinished Project tile held, plus, for each colour of them (one bot of a colour is
      built at a time) that still has a bot to build,
      PROGRESS x the colour's value (at most VALUE_CAP) x (parts on its column + held parts that fit its
      empty spaces, at most 3) / 3                                       (progress toward a bot: BF-ASM-PROJECT)
    + TOKEN_NEED for each of the first TOKENS_NEEDED held tokens (tokens pay tolls and extras)
    + BOT for each completed bot                 (progress toward the fifth bot, BF-END, and BF-TIE's first
                                                 tie-break)

Contracts enter through the score: a reserved contract the player's bots cannot yet meet costs its
reservation value (BF-SCORE), so reserving one pays off only with the bots to meet it. The weights are a
policy, not a rule.
"""

from __future__ import annotations

from typing import Any

TOKEN_NEED = 0.5
TOKENS_NEEDED = 3
"""The first three held tokens are worth a point each (half through the score, half here): they pay
Sandra's toll, the last Assembly space and the additional actions."""
VALUE_CAP = 6
"""Progress toward a bot counts its colour's value up to this, so raising a value is not progress."""
PART = 1.0
"""Cancels BF-SCORE's -1 for a part tile held: a part is material for a bot, not a loss while play goes on."""
PART_FIT = 0.5
PROJECT = 2.0
"""Cancels BF-SCORE's -2 for an unfinished Project tile held."""
PROGRESS = 0.6
BOT = 2.0
POTENTIAL_PART = 1.0
POTENTIAL_BOT = 0.8
POTENTIAL_TAKE = 0.6
POTENTIAL_RAISE = 0.3
TOLL = 1.0
"""A token paid to open the main action (BF-SANDRA-SHARE, BF-ASM-LAST) costs about a point (TOKEN_NEED)."""
SCALE = 3.0
"""A lead of about this many points is a clear advantage (mcts turns leads into rewards with it)."""


def evaluate(game: Any, state: Any, seat: int) -> float:
    """The value of ``state`` for ``seat``, in points; see the module doc."""
    hand = state.hands[seat]
    value = float(game.scores(state)[seat]) + 0.5 * (hand.tokens % 2) + TOKEN_NEED * min(hand.tokens, TOKENS_NEEDED)
    colours = game.colours
    slots = game.slots
    columns = state.columns
    empty: list[tuple[bool, ...]] = []
    for ci, column in enumerate(columns):
        open_ = state.bots_left[ci] > 0 and not all(x is not None for x in column)
        empty.append(tuple(open_ and x is None for x in column))
    fits = [0] * len(colours)  # per colour, the empty spaces the held parts can fill
    for part in hand.parts:
        colour, slot = part.split("-")
        si = slots.index(slot)
        value += PART
        targets = range(len(colours)) if colour == "any" else (colours.index(colour),)
        if any(empty[ci][si] for ci in targets):
            value += PART_FIT
    for ci in range(len(colours)):
        held = [p.split("-") for p in hand.parts]
        fits[ci] = sum(
            1
            for si in range(len(slots))
            if empty[ci][si] and any(c in ("any", colours[ci]) and s == slots[si] for c, s in held)
        )
    value += PROJECT * len(hand.projects)
    for colour in sorted(set(hand.projects)):  # one bot of a colour at a time: one project's progress
        ci = colours.index(colour)
        if state.bots_left[ci] > 0:
            placed = sum(x is not None for x in columns[ci]) if any(empty[ci]) else 0
            value += PROGRESS * min(state.values[ci], VALUE_CAP) * min(3, placed + fits[ci]) / 3
    value += BOT * len(hand.done)
    return float(value + turn_potential(game, state, seat, fits))


def turn_potential(game: Any, state: Any, seat: int, fits: list[int]) -> float:
    """What the seat's action turn still to come this round is likely worth, from the board its worker
    stands on (BF-MOVE chooses it): Assembly, a point per placeable part (its two tokens, BF-ASM-REWARD) and
    most of a bot's value if it can complete one; Production, parts up to the limit; Project, tiles while
    it holds fewer than three; Finance, raises of the colours it has built. Zero once the turn has begun or
    passed (the turn's own actions are then valued). A main action the seat cannot pay the toll for
    (BF-SANDRA-SHARE, BF-ASM-LAST) is worth nothing; one it can is worth TOLL less per token."""
    from bgrules.botfactory.state import Phase

    where = state.workers[seat]
    if where is None or state.phase not in (Phase.MOVE, Phase.ACTION):
        return 0.0
    pos = state.order.index(seat)
    if state.phase is Phase.MOVE and pos >= state.index:
        return 0.0  # not moved yet this round: the worker stands where it acted last round
    if state.phase is Phase.ACTION and pos <= state.index:
        return 0.0
    board, _space, n = game.spaces[where]
    hand = state.hands[seat]
    toll = game._toll(state, seat)  # BF-SANDRA-SHARE and BF-ASM-LAST: the main action's price
    if toll > hand.tokens:
        return 0.0  # the main action cannot be paid for
    if board == 0:  # Assembly
        placeable = min(n, sum(fits))
        value = POTENTIAL_PART * placeable
        for ci, colour in enumerate(game.colours):  # the game's colour order: never a set's (PYTHONHASHSEED)
            if colour not in hand.projects:
                continue
            column = state.columns[ci]
            if state.bots_left[ci] and fits[ci] and sum(x is not None for x in column) + min(n, fits[ci]) >= 3:
                value += POTENTIAL_BOT * state.values[ci]
                break
    elif board == 1:  # Production
        value = POTENTIAL_TAKE * min(n, max(0, game.c.counts.part_limit - len(hand.parts)))
    elif board == 2:  # Project
        value = POTENTIAL_TAKE * min(n, max(0, 3 - len(hand.projects)))
    else:  # Finance
        value = POTENTIAL_RAISE * min(n, hand.tokens - toll) if hand.done else 0.0
    return float(value) - TOLL * float(toll)


__all__ = ["SCALE", "evaluate"]
