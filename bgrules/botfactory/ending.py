"""The end, the final score and the tie-break of Bot Factory, recomputed from the seed (BF-END, BF-END-COLOUR,
BF-END-FIFTH, BF-SCORE, BF-TIE): the executable half of the BF-END-* specs of specs/botfactory.toml.

Each predicate reads the state's fields and the variant's figures only, never the engine's ``scores``,
``winners``, ``contract_score`` or ``end_count``, and compares what it works out with what the game says.
"""

from __future__ import annotations

from collections import Counter
from itertools import product
from typing import Any

from bgrules.botfactory.game import BotFactoryGame
from bgrules.botfactory.state import BotFactoryState
from bgrules.core.observe import observes

TOKENS_PER_POINT = 2
"""BF-SCORE: 未使用的話語指示物，兩個一分 (unused Speech tokens: one point per two; seed line 143)."""


def _bots_in_play(game: BotFactoryGame) -> int:
    """BF-END: a colour's bots in play: as many as players (四人局每一種顏色有四隻), or the ruling
    ``bots_per_colour_to_end``; at most the box's."""
    per = game.variant.rulings.bots_per_colour_to_end or game.players
    return min(per, game.c.counts.bots_per_colour)


def seed_end_triggered(game: BotFactoryGame, state: BotFactoryState) -> str | None:
    """BF-END-COLOUR / BF-END-FIFTH: which of the seed's end triggers hold in ``state`` (counted from the
    completed Projects in the hands), or None."""
    built = Counter(colour for hand in state.hands for colour in hand.done)
    if any(built[colour] >= _bots_in_play(game) for colour in game.colours):
        return "BF-END-COLOUR"
    if any(len(hand.done) >= game.c.counts.bots_to_end for hand in state.hands):
        return "BF-END-FIFTH"
    return None


def _contract_score(game: BotFactoryGame, state: BotFactoryState, seat: int) -> int:
    """BF-SCORE: over every choice of the seat's reserved contracts to meet, the best whose bots suffice (a
    bot to one contract): a met contract gives its reservation value plus its points, an unmet one costs
    its reservation value."""
    values = game.c.finance.reservation_costs
    mine: list[tuple[dict[str, int], int, int]] = []
    for slot, seats in enumerate(state.reserved):
        for place, s in enumerate(seats):
            if s == seat:
                cid = state.display[slot]
                if cid is None:  # a reservation on an empty slot scores nothing: the plain check says so
                    continue
                contract = game.contracts[cid]
                mine.append((dict(contract.needs), contract.points, values[place]))
    if not mine:
        return 0
    bots = Counter(state.hands[seat].done)
    best: int | None = None
    for met in product((False, True), repeat=len(mine)):
        need: Counter[str] = Counter()
        total = 0
        for (needs, points, value), ok in zip(mine, met, strict=True):
            if ok:
                need.update(needs)
                total += value + points
            else:
                total -= value
        if all(bots[c] >= n for c, n in need.items()):
            best = total if best is None else max(best, total)
    return 0 if best is None else best


def seed_scores(game: BotFactoryGame, state: BotFactoryState) -> tuple[int, ...]:
    """BF-SCORE: each bot at its colour's Finance value, the contracts, a point per two held tokens, -1 per
    part tile held, -2 per unfinished Project tile."""
    value = dict(zip(game.colours, state.values, strict=True))
    out = []
    for seat, hand in enumerate(state.hands):
        score = sum(value[colour] for colour in hand.done) + _contract_score(game, state, seat)
        score += hand.tokens // TOKENS_PER_POINT - len(hand.parts) - 2 * len(hand.projects)
        out.append(score)
    return tuple(out)


def seed_winners(game: BotFactoryGame, state: BotFactoryState, scores: tuple[int, ...]) -> tuple[int, ...]:
    """BF-TIE: the highest score (最高分的獲勝); tied, more bots (機器人多的獲勝); still tied, an odd number of
    held tokens (有奇數話語指示物的玩家獲勝); still tied, shared (ruling)."""
    tied = [seat for seat, s in enumerate(scores) if s == max(scores)]
    bots = {seat: len(state.hands[seat].done) for seat in tied}
    tied = [seat for seat in tied if bots[seat] == max(bots.values())]
    odd = [seat for seat in tied if state.hands[seat].tokens % 2 == 1]
    return tuple(odd or tied)


def scores_and_winners(game: BotFactoryGame, state: BotFactoryState) -> str | None:
    """BF-SCORE, BF-TIE: on a terminal state, ``scores`` and ``winners`` are the seed's, recomputed."""
    if not game.is_terminal(state):
        return None
    want = seed_scores(game, state)
    got = tuple(game.scores(state))
    if got != want:
        return f"scores {list(got)}, the seed's {list(want)}"
    won, should = tuple(game.winners(state)), seed_winners(game, state, want)
    if tuple(sorted(won)) != should:
        return f"winners {list(won)} with scores {list(want)}, the seed's {list(should)}"
    return None


def ends_when_the_seed_says(
    game: BotFactoryGame, before: BotFactoryState, action: Any, after: BotFactoryState
) -> str | None:
    """BF-END: the game ends after the maintenance of the round in which a colour's bots were all built or
    a player built a fifth (or after round ``max_rounds``, the game's own cap), and only then: a step that
    ends the game ends the round it began in with its maintenance done (no completed bot left standing)
    and a trigger (or the cap) met; a step into a new round comes with no trigger met and the cap not
    reached. (The runners' truncation is no end: it stops play, the state stays not terminal.)"""
    if game.is_terminal(before):
        return None if game.is_terminal(after) else "a terminal state was left"
    ended = game.is_terminal(after)
    if not ended and after.round == before.round:
        return None  # the common step: within a round, play goes on
    capped = game.max_rounds is not None and before.round >= game.max_rounds
    trigger = seed_end_triggered(game, after)
    if ended:
        if trigger is None and not capped:
            return f"the game ended in round {after.round} with no end trigger met"
        if after.round != before.round:
            return f"the game ended in round {after.round}, not at the end of round {before.round}"
        standing = [game.colours[ci] for ci, column in enumerate(after.columns) if None not in column]
        if standing:
            return f"the game ended before maintenance: the completed {standing} bot(s) still stand"
        return None
    if trigger is not None:
        return f"round {after.round} began though {trigger} was met in round {before.round}"
    if capped:
        return f"round {after.round} began past max_rounds = {game.max_rounds}"
    return None


DOCUMENTED_BOUNDS = {
    ("own_turn", "after_moves"): {2: 12_760, 3: 18_240, 4: 23_720},
    ("any_time", "after_moves"): {2: 16_120, 3: 23_400, 4: 30_760},
    ("any_time", "none"): {2: 16_040, 3: 23_280, 4: 30_600},
}
"""docs/rules/botfactory.md, Termination 4: ``info.max_length`` of an uncapped game (the runners' 40 rounds)
with the default data, per (additional_actions, opening_window) and player count."""

DEFAULT_ROUNDS = 40
"""Termination 4: the rounds of the bound when the game has no cap of its own (the runners' default cap)."""


def documented_bound(game: BotFactoryGame) -> int:
    """Termination 4's formula as docs/rules/botfactory.md writes it, from the variant's figures."""
    c, rulings, n = game.c, game.variant.rulings, game.players
    rounds = game.max_rounds if game.max_rounds is not None else DEFAULT_ROUNDS
    most = max(max(b) for b in (c.boards.assembly, c.boards.production, c.boards.project, c.boards.finance))
    k_cap, p_limit, j_limit = c.counts.token_cap, c.counts.part_limit, c.counts.project_limit
    per_turn = 3 * most + 4 * k_cap + 60
    per_round = n * (per_turn + 2 + p_limit + j_limit + 20) + 40
    if rulings.additional_actions == "any_time":
        windows = n + 2 if rulings.opening_window == "after_moves" else n + 1
        per_round += n * (windows + 2 * (k_cap + p_limit + j_limit))
    return 200 + rounds * per_round


def bound_as_documented(game: BotFactoryGame, state: BotFactoryState) -> str | None:
    """Termination 4: ``info.max_length`` is the documented formula's value for the game's variant, rounds and
    player count, and with the default data and no cap of the game's own the documented figure."""
    got, want = game.info.max_length, documented_bound(game)
    if got != want:
        return f"info.max_length is {got:,}; the documented formula gives {want:,}"
    rulings = game.variant.rulings
    table = DOCUMENTED_BOUNDS.get((rulings.additional_actions, rulings.opening_window), {})
    if game.max_rounds is None and game.variant.source == "default" and table.get(game.players, got) != got:
        return f"info.max_length is {got:,}; docs/rules/botfactory.md states {table[game.players]:,}"
    return None


class _Reads:
    """What each predicate reads (:func:`bgrules.core.observe.observes`)."""

    @staticmethod
    def scores(game: BotFactoryGame, state: BotFactoryState) -> dict[str, Any]:
        return {
            "terminal": game.is_terminal(state),
            "bots": [len(h.done) for h in state.hands],
            "tokens held": [h.tokens for h in state.hands],
            "part tiles held": [len(h.parts) for h in state.hands],
            "unfinished Projects": [len(h.projects) for h in state.hands],
            "bot values": list(state.values),
        }

    @staticmethod
    def end(game: BotFactoryGame, before: BotFactoryState, action: Any, after: BotFactoryState) -> dict[str, Any]:
        return {
            "round before": before.round,
            "round after": after.round,
            "terminal after": game.is_terminal(after),
            "end trigger met": seed_end_triggered(game, after) or "",
            "completed bots standing": sum(1 for column in after.columns if None not in column),
        }

    @staticmethod
    def bound(game: BotFactoryGame, state: BotFactoryState) -> dict[str, Any]:
        return {"max_length": game.info.max_length, "players": game.players, "max_rounds": game.max_rounds}


observes(_Reads.bound)(bound_as_documented)
observes(_Reads.scores)(scores_and_winners)
observes(_Reads.end)(ends_when_the_seed_says)
