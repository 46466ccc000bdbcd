"""Named predicates over Bot Factory states: the executable half of specs/botfactory.toml.

State predicates take ``(game, state)``, game predicates ``(game, final_state, steps)``; each returns None
when the fact holds, or what is wrong.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from bgrules.botfactory.state import BotFactoryState
from bgrules.core.observe import observes
from bgrules.core.playout import sums_to_one
from bgrules.core.protocol import CHANCE

if TYPE_CHECKING:
    from bgrules.botfactory.game import BotFactoryGame
from bgrules.botfactory.invariant_counts import (
    _BOTS,
    _DISCARD,
    _LIMITS,
    _ORDER,
    _PARTS,
    _PROJECTS,
    _RESERVED,
    _SLOTS,
    _TOKENS,
    _Count,
    _Fast,
    _Pack,
    _part_names,
    _Plain,
)
from bgrules.botfactory.invariant_counts import MEMOS as MEMOS  # what tests/support clears of any game's invariants


def limits(game: BotFactoryGame, state: BotFactoryState) -> str | None:
    """BF-LIMIT-TOKENS, BF-LIMIT-PARTS, BF-LIMIT-PROJECTS: at most 9 tokens held; outside a pending choice
    or discard, at most 5 part tiles and 5 Project tiles (completed ones included)."""
    m = _LIMITS
    old = m.a  # the last hands, every one within the token limit (else None)
    if old is None or game is not m.game:
        return _Fast.limits_afresh(game, state)
    hands = state.hands
    strict = m.extra  # whether the hands of ``old`` keep the part and Project limits too
    if hands is not old:
        if len(hands) != len(old):
            return _Fast.limits_afresh(game, state)
        c = game.c.counts
        try:
            for h, o in zip(hands, old):  # noqa: B905 (as long, checked: strict= would cost a keyword call)
                if h is not o:
                    if not 0 <= h.tokens <= c.token_cap:
                        return _Fast.limits_afresh(game, state)
                    if strict and (len(h.parts) > c.part_limit or len(h.projects) + len(h.done) > c.project_limit):
                        strict = False
        except TypeError:  # not a hand of the usual shape: the plain check says what
            return _Fast.limits_afresh(game, state)
        m.a, m.extra = hands, strict
    if strict:
        return None
    turn = state.turn
    if state.phase is _DISCARD or (turn is not None and bool(turn.prompt)) or bool(state.draws):
        return None  # settling: only the token limit applies
    return _Fast.limits_afresh(game, state)


def tokens_conserved(game: BotFactoryGame, state: BotFactoryState) -> str | None:
    """BF-LIMIT-TOKENS: per colour, supply + held + on contracts = 9, with the supply never negative."""
    m = _TOKENS
    if state.supply is m.a and state.reserved is m.b and game is m.game:
        hands, old = state.hands, m.c
        if hands is old:
            return m.answer
        if len(hands) == len(old):
            for h, o in zip(hands, old):  # noqa: B905 (as long, checked: strict= would cost a keyword call)
                if h is not o and h.tokens is not o.tokens:
                    break
            else:
                m.c = hands
                return m.answer
    answer = _Plain.tokens_conserved(game, state)
    m.game, m.a, m.b, m.c, m.answer = game, state.supply, state.reserved, state.hands, answer
    return answer


def parts_conserved(game: BotFactoryGame, state: BotFactoryState) -> str | None:
    """BF-PILE: every part tile is in a pile, a discard, the Wheel, the spares, a bot or a hand (Universal
    parts: their supply, a bot or a hand)."""
    m = _PARTS
    last = m.state
    if last is None or game is not m.game:
        return _Count.parts_afresh(game, state)
    if (
        state.piles is last.piles
        and state.wheel is last.wheel
        and state.columns is last.columns
        and state.spares is last.spares
        and state.discards is last.discards
        and state.universal is last.universal
    ):
        hands, old = state.hands, last.hands
        if hands is old:
            m.state = state
            return m.answer
        if len(hands) == len(old):
            for h, o in zip(hands, old):  # noqa: B905 (as long, checked: strict= would cost a keyword call)
                if h is not o and h.parts is not o.parts:
                    break
            else:
                m.state = state
                return m.answer
    kept = m.extra
    if kept is None:
        return _Count.parts_afresh(game, state)
    try:
        seen = _Count.parts_step(last, state, kept)
    except (KeyError, IndexError, TypeError, ValueError):  # not a state of the usual shape: recount it
        return _Count.parts_afresh(game, state)
    answer = None if seen == kept[2] else _Count.parts_answer(game, seen)
    m.state, m.answer = state, answer
    m.extra = (seen, kept[1], kept[2])
    return answer


def bot_slots(game: BotFactoryGame, state: BotFactoryState) -> str | None:
    """BF-ASM: each space of a bot holds at most one part, of that space's slot and of the bot's colour
    (or Universal)."""
    m = _SLOTS
    columns = state.columns
    if columns is m.a and game is m.game:
        return m.answer
    old = m.a if game is m.game and m.answer is None else None
    answer = None
    if old is not None and len(columns) == len(old) == len(game.colours):
        # every column of the last state passed: only the changed ones are checked (the plain check says
        # what is wrong with the first that does not pass)
        for ci, column in enumerate(columns):
            if column is not old[ci] and not _Fast.column_fits(game, ci, column):
                answer = _Plain.bot_slots(game, state)
                break
    else:
        answer = _Plain.bot_slots(game, state)
    m.game, m.a, m.answer = game, columns, answer
    return answer


def bots_match_projects(game: BotFactoryGame, state: BotFactoryState) -> str | None:
    """BF-ASM-PROJECT: every built bot sits on a completed Project of its colour: per colour, bots built
    = completed Projects of that colour."""
    m = _BOTS
    if state.bots_left is m.a and game is m.game:
        hands, old = state.hands, m.b
        if hands is old:
            return m.answer
        if len(hands) == len(old):
            for h, o in zip(hands, old):  # noqa: B905 (as long, checked: strict= would cost a keyword call)
                if h is not o and h.done is not o.done:
                    break
            else:
                m.b = hands
                return m.answer
    answer = _Plain.bots_match_projects(game, state)
    m.game, m.a, m.b, m.answer = game, state.bots_left, state.hands, answer
    return answer


def reservations(game: BotFactoryGame, state: BotFactoryState) -> str | None:
    """BF-FIN-CONTRACT: at most two reservations a contract, never two by one player."""
    m = _RESERVED
    reserved = state.reserved
    if reserved is m.a and game is m.game:
        return m.answer
    answer = _Plain.reservations(game, state)
    m.game, m.a, m.answer = game, reserved, answer
    return answer


def order_is_permutation(game: BotFactoryGame, state: BotFactoryState) -> str | None:
    """BF-ORDER: the action order is a permutation of the players."""
    m = _ORDER
    order = state.order
    if order is m.a and game is m.game:
        return m.answer
    answer = _Plain.order_is_permutation(game, state)
    m.game, m.a, m.answer = game, order, answer
    return answer


def projects_conserved(game: BotFactoryGame, state: BotFactoryState) -> str | None:
    """BF-PROJ, BF-MAINT: Project tiles are conserved per colour: pile + discard + board + hands (unfinished
    and completed) = 6."""
    m = _PROJECTS
    last = m.state
    if last is None or game is not m.game:
        return _Pack.projects_afresh(game, state)
    hands, old_hands = state.hands, last.hands
    if (
        state.grid is last.grid
        and state.project_pile is last.project_pile
        and state.project_discard is last.project_discard
    ):
        if hands is old_hands:
            m.state = state
            return m.answer
        if len(hands) == len(old_hands):
            for h, o in zip(hands, old_hands):  # noqa: B905 (as long, checked: strict= would cost a keyword call)
                if h is not o and (h.projects is not o.projects or h.done is not o.done):
                    break
            else:
                m.state = state
                return m.answer
    kept = m.extra
    if kept is None or len(hands) != len(old_hands):
        return _Pack.projects_afresh(game, state)
    grid, pile, discard = state.grid, state.project_pile, state.project_discard
    old_grid, old_pile, old_discard = last.grid, last.project_pile, last.project_discard
    # the packed counts of ``state`` from those of ``last``: only the parts the step changed, each read
    # from the pack's memo of packed counts by value
    on_board, in_hands, wanted, pack = kept
    try:
        if grid is not old_grid:
            on_board = pack.grids.get(grid)
            if on_board is None:
                on_board = pack.grid(grid)
        if hands is not old_hands:
            rows = pack.rows
            for h, o in zip(hands, old_hands):  # noqa: B905 (as long, checked: strict= would cost a keyword call)
                if h is not o:
                    for new, gone in ((h.projects, o.projects), (h.done, o.done)):
                        if new is not gone:
                            n = rows.get(new)
                            in_hands += pack.row(new) if n is None else n
                            n = rows.get(gone)
                            in_hands -= pack.row(gone) if n is None else n
        if pile is not old_pile or discard is not old_discard:
            held = tuple(map(int.__add__, pile, discard))  # as the recount adds them (no float passes)
            wanted = pack.wants.get(held)
            if wanted is None:
                wanted = pack.want(held)
    except (KeyError, TypeError):  # an unknown tile, a part of an unusual type: recount it
        return _Pack.projects_afresh(game, state)
    answer = None if on_board + in_hands == wanted else _Plain.projects_conserved(game, state)
    m.state, m.answer, m.extra = state, answer, (on_board, in_hands, wanted, pack)
    return answer


def never_stuck(game: BotFactoryGame, state: BotFactoryState) -> str | None:
    """BF-END: a state that is not terminal has a legal action (or chance outcomes summing to 1)."""
    if game.is_terminal(state):
        return None
    if game.to_move(state) is CHANCE:
        if not sums_to_one(game.chance_outcomes(state)):
            return "a chance node without outcomes summing to 1"
        return None
    if not game.legal_actions(state):
        return f"no legal action in phase {state.phase.value}"
    return None


def ends_within_bound(game: BotFactoryGame, final: BotFactoryState, steps: int) -> str | None:
    """BF-END: every game ends within the documented maximum length; a game without a cap of its own
    (``max_rounds=None``) may instead be truncated by the runner's round cap (``game.runner_rounds``), but
    only as its next round begins, within that length: never cut short by the step bound."""
    if steps > game.info.max_length:
        return f"{steps} steps, past the bound of {game.info.max_length}"
    if game.is_terminal(final):
        return None
    cap = game.runner_rounds
    if cap is not None and game.round_of(final) > cap:
        return None
    return f"not over after {steps} steps (the bound is {game.info.max_length})"


# --- what each predicate reads (bgrules.core.observe: shown by replay --step at every step) ----------------


class _Reads:
    """What each predicate reads (:func:`bgrules.core.observe.observes`). A class, not module functions: the
    module's two-argument functions are its predicates."""

    @staticmethod
    def limits(game: BotFactoryGame, state: BotFactoryState) -> dict[str, Any]:
        c = game.c.counts
        turn = state.turn
        return {
            "tokens held": [h.tokens for h in state.hands],
            "part tiles held": [len(h.parts) for h in state.hands],
            "Project tiles held": [len(h.projects) + len(h.done) for h in state.hands],
            "limits (tokens, parts, Projects)": [c.token_cap, c.part_limit, c.project_limit],
            "settling": state.phase is _DISCARD or (turn is not None and bool(turn.prompt)) or bool(state.draws),
        }

    @staticmethod
    def tokens(game: BotFactoryGame, state: BotFactoryState) -> dict[str, Any]:
        costs = game.c.finance.reservation_costs
        whole = game.variant.rulings.reservation_tokens == "whole_cost"
        placed = [0] * len(state.hands)
        for seats in state.reserved:
            for i, seat in enumerate(seats):
                placed[seat] += costs[i] if whole else 1
        return {
            "supply": list(state.supply),
            "held": [h.tokens for h in state.hands],
            "on contracts": placed,
            "per colour": game.c.counts.tokens_per_colour,
        }

    @staticmethod
    def parts(game: BotFactoryGame, state: BotFactoryState) -> dict[str, Any]:
        c = game.c.counts
        names = _part_names(game)
        seen = Counter({name: 0 for name in names})
        for ci in range(4):
            for si, n in enumerate(map(int.__add__, state.piles[ci], state.discards[ci])):
                seen[names[ci * len(game.slots) + si]] += n
        for si, n in enumerate(state.universal):
            seen[names[4 * len(game.slots) + si]] += n
        for group in (state.wheel, state.spares, *state.columns, *(h.parts for h in state.hands)):
            for p in group:
                if p is not None:
                    seen[p] += 1
        want = {n: (c.universal_per_slot if n.startswith("any-") else c.parts_per_colour_slot) for n in names}
        return {
            "part tiles": sum(seen.values()),
            "of": sum(want.values()),
            "off (tiles, wanted)": {n: [seen[n], want[n]] for n in names if seen[n] != want[n]},
        }

    @staticmethod
    def slots(game: BotFactoryGame, state: BotFactoryState) -> dict[str, Any]:
        return {
            "parts on each bot": {
                game.colours[ci]: sum(1 for p in column if p is not None) for ci, column in enumerate(state.columns)
            }
        }

    @staticmethod
    def bots(game: BotFactoryGame, state: BotFactoryState) -> dict[str, Any]:
        done = Counter(c for hand in state.hands for c in hand.done)
        return {
            "bots built": {colour: game.end_count - state.bots_left[ci] for ci, colour in enumerate(game.colours)},
            "Projects completed": {colour: done[colour] for colour in game.colours},
        }

    @staticmethod
    def reserved(game: BotFactoryGame, state: BotFactoryState) -> dict[str, Any]:
        return {
            "reservations per contract": [list(seats) for seats in state.reserved],
            "most a contract": len(game.c.finance.reservation_costs),
        }

    @staticmethod
    def order(game: BotFactoryGame, state: BotFactoryState) -> dict[str, Any]:
        return {"order": list(state.order), "players": game.players}

    @staticmethod
    def projects(game: BotFactoryGame, state: BotFactoryState) -> dict[str, Any]:
        counts = dict(zip(game.colours, map(int.__add__, state.project_pile, state.project_discard), strict=True))
        for t in (t for column in state.grid for t in column if t is not None):
            counts[t] += 1
        for hand in state.hands:
            for t in (*hand.projects, *hand.done):
                counts[t] += 1
        return {"Project tiles": counts, "per colour": game.c.counts.projects_per_colour}

    @staticmethod
    def stuck(game: BotFactoryGame, state: BotFactoryState) -> dict[str, Any]:
        if game.is_terminal(state):
            return {"terminal": True}
        if game.to_move(state) is CHANCE:
            return {"terminal": False, "to move": "chance", "outcomes": len(game.chance_outcomes(state))}
        return {"terminal": False, "to move": game.to_move(state), "legal actions": len(game.legal_actions(state))}


for _predicate, _reader in (
    (limits, _Reads.limits),
    (tokens_conserved, _Reads.tokens),
    (parts_conserved, _Reads.parts),
    (bot_slots, _Reads.slots),
    (bots_match_projects, _Reads.bots),
    (reservations, _Reads.reserved),
    (order_is_permutation, _Reads.order),
    (projects_conserved, _Reads.projects),
    (never_stuck, _Reads.stuck),
):
    observes(_reader)(_predicate)
del _predicate, _reader
