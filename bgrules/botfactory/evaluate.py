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

from collections.abc import Sequence
from typing import Any

from bgrules.botfactory import tolls
from bgrules.botfactory.state import ACTION, MOVE
from bgrules.core.memo import Memos

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


_MEMO_BOUND = 19_999
"""Each memo of the evaluation (the game's own, ``game.memos``: "evaluate.held", "evaluate.contracts",
"evaluate.board", "evaluate.parts") is emptied past this many entries (a 4-player greedy game adds about a
thousand to the largest)."""


def _part(game: Any, part: str) -> tuple[int, int]:
    """A part tile's colour index (-1: any colour) and slot index (memoised: the "evaluate.parts" memo)."""
    memo: dict[str, tuple[int, int]] = game.memos.memo("evaluate.parts", _MEMO_BOUND)
    found: tuple[int, int] | None = memo.get(part)
    if found is not None:
        return found
    colour, slot = part.split("-")
    memos: Memos = game.memos
    return memos.put(memo, part, (-1 if colour == "any" else game.colours.index(colour), game.slots.index(slot)))


def _board(
    game: Any, columns: Any, bots_left: Any
) -> tuple[tuple[tuple[bool, ...], ...], tuple[bool, ...], tuple[int, ...]]:
    """The Assembly board as the evaluation reads it, memoised on the columns and the bots left: per
    colour's column its spaces still to fill (none once the colour has no bot left to build or the column
    is full), per slot whether any column still has it to fill, and per column the parts on it if it has a
    space to fill (else 0)."""
    memo: dict[tuple[Any, Any], tuple[tuple[tuple[bool, ...], ...], tuple[bool, ...], tuple[int, ...]]]
    memo = game.memos.memo("evaluate.board", _MEMO_BOUND)
    key = (columns, bots_left)
    found = memo.get(key)
    if found is not None:
        return found
    empty = []
    for ci, column in enumerate(columns):
        open_ = bots_left[ci] > 0 and not all(x is not None for x in column)
        empty.append(tuple(open_ and x is None for x in column))
    open_at = tuple(any(row[si] for row in empty) for si in range(len(empty[0]) if empty else 0))
    placed = tuple(sum(x is not None for x in columns[ci]) if any(row) else 0 for ci, row in enumerate(empty))
    memos: Memos = game.memos
    return memos.put(memo, key, (tuple(empty), open_at, placed))


def _held(
    game: Any, parts: Any, projects: Any, columns: Any, bots_left: Any, values: Any
) -> tuple[float, tuple[float, ...], tuple[int, ...]]:
    """The terms of :func:`evaluate` that read only the held tiles, the Assembly board and the bot values:
    the PART, PART_FIT and PROJECT terms (multiples of 1/2: their sum is exact in any order), the PROGRESS
    terms in the order they are added, and the fits per colour (the empty spaces the held parts can fill)."""
    colours = game.colours
    empty, open_at, placed = _board(game, columns, bots_left)
    held = [_part(game, p) for p in parts]
    fitting = sum(1 for ci, si in held if (open_at[si] if ci < 0 else empty[ci][si]))
    exact = PART * len(held) + PART_FIT * fitting + PROJECT * len(projects)
    wild = {si for ci, si in held if ci < 0}  # slot indices: ints, no string order involved
    cover = [set(wild) for _ in colours]
    for ci, si in held:
        if ci >= 0:
            cover[ci].add(si)
    fits = tuple(sum(1 for si in cover[ci] if empty[ci][si]) for ci in range(len(colours)))
    progress = []
    for colour in sorted(set(projects)):  # one bot of a colour at a time: one project's progress
        ci = colours.index(colour)
        if bots_left[ci] > 0:
            progress.append(PROGRESS * min(values[ci], VALUE_CAP) * min(3, placed[ci] + fits[ci]) / 3)
    return exact, tuple(progress), fits


def _contract_score(game: Any, state: Any, seat: int, done: Any) -> int:
    """The seat's contract score (BF-SCORE, ``game.contract_score``): 0 without a reserved contract,
    else memoised on what it reads (the reservations, the display and the seat's bots: the
    "evaluate.contracts" memo)."""
    if not any(seat in seats for seats in state.reserved):
        return 0
    memo: dict[tuple[Any, Any, Any, int], int] = game.memos.memo("evaluate.contracts", _MEMO_BOUND)
    key = (state.reserved, state.display, done, seat)
    found = memo.get(key)
    if found is not None:
        return found
    memos: Memos = game.memos
    return memos.put(memo, key, int(game.contract_score(state, seat)))


def evaluate(game: Any, state: Any, seat: int) -> float:
    """The value of ``state`` for ``seat``, in points; see the module doc. The same floats as adding the
    terms one by one in the doc's order: the memoised terms are the exact ones and the PROGRESS terms are
    added one by one, in that order."""
    hand = state.hands[seat]
    parts, projects, done = hand.parts, hand.projects, hand.done
    columns, bots_left, values = state.columns, state.bots_left, state.values
    memo: dict[tuple[Any, ...], tuple[float, tuple[float, ...], tuple[int, ...]]]
    memo = game.memos.memo("evaluate.held", _MEMO_BOUND)
    key = (parts, projects, columns, bots_left, values)
    found = memo.get(key)
    if found is None:
        found = game.memos.put(memo, key, _held(game, parts, projects, columns, bots_left, values))
    exact, progress, fits = found
    colours = game.colours
    score = sum(values[colours.index(c)] for c in done) + hand.tokens // 2 - len(parts) - 2 * len(projects)
    score += _contract_score(game, state, seat, done)
    tokens = hand.tokens
    value = float(score) + 0.5 * (tokens % 2) + TOKEN_NEED * min(tokens, TOKENS_NEEDED) + exact
    for term in progress:
        value += term
    value += BOT * len(done)
    return float(value + turn_potential(game, state, seat, fits))


def turn_potential(game: Any, state: Any, seat: int, fits: Sequence[int]) -> float:
    """What the seat's action turn still to come this round is likely worth, from the board its worker
    stands on (BF-MOVE chooses it): Assembly, a point per placeable part (its two tokens, BF-ASM-REWARD) and
    most of a bot's value if it can complete one; Production, parts up to the limit; Project, tiles while
    it holds fewer than three; Finance, raises of the colours it has built. Zero once the turn has begun or
    passed (the turn's own actions are then valued). A main action the seat cannot pay the toll for
    (BF-SANDRA-SHARE, BF-ASM-LAST) is worth nothing; one it can is worth TOLL less per token."""
    where = state.workers[seat]
    if where is None or state.phase not in (MOVE, ACTION):
        return 0.0
    pos = state.order.index(seat)
    if state.phase is MOVE and pos >= state.index:
        return 0.0  # not moved yet this round: the worker stands where it acted last round
    if state.phase is ACTION and pos <= state.index:
        return 0.0
    board, _space, n = game.spaces[where]
    hand = state.hands[seat]
    toll = tolls.toll(game, state, seat)  # BF-SANDRA-SHARE and BF-ASM-LAST: the main action's price
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
