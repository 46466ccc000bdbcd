"""Named predicates over Bot Factory states: the executable half of specs/botfactory.toml.

State predicates take ``(game, state)``, game predicates ``(game, final_state, steps)``; each returns None
when the fact holds, or what is wrong.
"""

from __future__ import annotations

from collections import Counter

from bgrules.botfactory.game import BotFactoryGame
from bgrules.botfactory.state import BotFactoryState
from bgrules.core.protocol import CHANCE


class _Last:
    """A predicate's last inputs (the game and parts of a state) and its answer: states are immutable and a
    step shares every part it does not change, so while the inputs are the very same objects (``is``) the
    answer is the same (docs/speed.md). It holds the objects, so no identity is reused. (A class, not
    module functions: the module's functions are its predicates.)"""

    __slots__ = ("answer", "key")

    def __init__(self) -> None:
        self.key: tuple[object, ...] = ()
        self.answer: str | None = None

    def same(self, key: tuple[object, ...]) -> bool:
        old = self.key
        if len(old) != len(key):
            return False
        return all(a is b for a, b in zip(old, key, strict=True))

    def keep(self, key: tuple[object, ...], answer: str | None) -> str | None:
        self.key, self.answer = key, answer
        return answer


_LAST_PARTS = _Last()
_LAST_SLOTS = _Last()
_LAST_BOTS = _Last()
_LAST_PROJECTS = _Last()


def limits(game: BotFactoryGame, state: BotFactoryState) -> str | None:
    """BF-LIMIT-TOKENS, BF-LIMIT-PARTS, BF-LIMIT-PROJECTS: at most 9 tokens held; outside a pending choice
    or discard, at most 5 part tiles and 5 Project tiles (completed ones included)."""
    c = game.c.counts
    settling = state.phase.value == "discard" or (state.turn is not None and bool(state.turn.prompt)) or state.draws
    for seat, hand in enumerate(state.hands):
        if not 0 <= hand.tokens <= c.token_cap:
            return f"player {seat} holds {hand.tokens} tokens"
        if settling:
            continue
        if len(hand.parts) > c.part_limit:
            return f"player {seat} holds {len(hand.parts)} part tiles"
        if len(hand.projects) + len(hand.done) > c.project_limit:
            return f"player {seat} holds {len(hand.projects) + len(hand.done)} Project tiles"
    return None


def tokens_conserved(game: BotFactoryGame, state: BotFactoryState) -> str | None:
    """BF-LIMIT-TOKENS: per colour, supply + held + on contracts = 9, with the supply never negative."""
    per = game.c.counts.tokens_per_colour
    costs = game.c.finance.reservation_costs
    whole = game.variant.rulings.reservation_tokens == "whole_cost"  # else one token a reservation
    placed = [0] * len(state.hands)
    for seats in state.reserved:
        for i, seat in enumerate(seats):
            placed[seat] += costs[i] if whole else 1
    for seat, hand in enumerate(state.hands):
        supply = state.supply[seat]
        if supply < 0 or supply + hand.tokens + placed[seat] != per:
            return (
                f"player {seat}'s colour: supply {supply} + held {hand.tokens} + on contracts {placed[seat]} != {per}"
            )
    return None


def parts_conserved(game: BotFactoryGame, state: BotFactoryState) -> str | None:
    """BF-PILE: every part tile is in a pile, a discard, the Wheel, the spares, a bot or a hand (Universal
    parts: their supply, a bot or a hand)."""
    key: tuple[object, ...] = (
        game,
        state.piles,
        state.discards,
        state.universal,
        state.wheel,
        state.spares,
        state.columns,
    )
    key += tuple(hand.parts for hand in state.hands)
    if _LAST_PARTS.same(key):
        return _LAST_PARTS.answer
    return _LAST_PARTS.keep(key, _PartsConserved.parts_conserved(game, state))


class _PartsConserved:
    @staticmethod
    def parts_conserved(game: BotFactoryGame, state: BotFactoryState) -> str | None:
        c = game.c.counts
        names = _part_names(game)
        index = _INDEX.get(names)
        if index is None:
            index = _INDEX[names] = {name: i for i, name in enumerate(names)}
        seen = [n for ci in range(4) for n in map(int.__add__, state.piles[ci], state.discards[ci])]
        seen.extend(state.universal)
        for group in (state.wheel, state.spares, *state.columns):
            for p in group:
                if p is not None:
                    seen[index[p]] += 1
        for hand in state.hands:
            for p in hand.parts:
                seen[index[p]] += 1
        for i, n in enumerate(seen):
            want = c.universal_per_slot if i >= 12 else c.parts_per_colour_slot
            if n != want:
                return f"{n} {names[i]} part tiles, not {want}"
        return None


def _part_names(game: BotFactoryGame) -> tuple[str, ...]:
    """Every part name: the 12 colour parts (colour-major), then the 3 Universal parts."""
    key = (game.colours, game.slots)
    names = _NAMES.get(key)
    if names is None:
        names = _NAMES[key] = (
            *(f"{colour}-{slot}" for colour in game.colours for slot in game.slots),
            *(f"any-{slot}" for slot in game.slots),
        )
    return names


_NAMES: dict[tuple[tuple[str, ...], tuple[str, ...]], tuple[str, ...]] = {}
_SUMS_TO_ONE: dict[int, tuple[object, bool]] = {}
"""Chance outcome tuples already summed (by identity: the game memoises them)."""
_INDEX: dict[tuple[str, ...], dict[str, int]] = {}


def bot_slots(game: BotFactoryGame, state: BotFactoryState) -> str | None:
    """BF-ASM: each space of a bot holds at most one part, of that space's slot and of the bot's colour
    (or Universal)."""
    key: tuple[object, ...] = (game, state.columns)
    if _LAST_SLOTS.same(key):
        return _LAST_SLOTS.answer
    return _LAST_SLOTS.keep(key, _BotSlots.bot_slots(game, state))


class _BotSlots:
    @staticmethod
    def bot_slots(game: BotFactoryGame, state: BotFactoryState) -> str | None:
        for ci, column in enumerate(state.columns):
            if len(column) != len(game.slots):
                return f"the {game.colours[ci]} bot has {len(column)} spaces"
            for si, part in enumerate(column):
                if part is None:
                    continue
                colour, slot = part.split("-")
                if slot != game.slots[si] or colour not in ("any", game.colours[ci]):
                    return f"{part} stands in the {game.colours[ci]} bot's {game.slots[si]} space"
        return None


def bots_match_projects(game: BotFactoryGame, state: BotFactoryState) -> str | None:
    """BF-ASM-PROJECT: every built bot sits on a completed Project of its colour: per colour, bots built
    = completed Projects of that colour."""
    key: tuple[object, ...] = (game, state.bots_left, *(hand.done for hand in state.hands))
    if _LAST_BOTS.same(key):
        return _LAST_BOTS.answer
    return _LAST_BOTS.keep(key, _BotsMatchProjects.bots_match_projects(game, state))


class _BotsMatchProjects:
    @staticmethod
    def bots_match_projects(game: BotFactoryGame, state: BotFactoryState) -> str | None:
        done = Counter(c for hand in state.hands for c in hand.done)
        for ci, colour in enumerate(game.colours):
            built = game.end_count - state.bots_left[ci]
            if built != done[colour] or built < 0:
                return f"{built} {colour} bots built, {done[colour]} {colour} Projects completed"
        return None


def reservations(game: BotFactoryGame, state: BotFactoryState) -> str | None:
    """BF-FIN-CONTRACT: at most two reservations a contract, never two by one player."""
    most = len(game.c.finance.reservation_costs)
    for slot, seats in enumerate(state.reserved):
        if len(seats) > most or len(set(seats)) != len(seats):
            return f"contract slot {slot} reserved by {seats}"
    return None


def order_is_permutation(game: BotFactoryGame, state: BotFactoryState) -> str | None:
    """BF-ORDER: the action order is a permutation of the players."""
    if sorted(state.order) != list(range(game.players)):
        return f"action order {state.order}"
    return None


def never_stuck(game: BotFactoryGame, state: BotFactoryState) -> str | None:
    """BF-END: a state that is not terminal has a legal action (or chance outcomes summing to 1)."""
    if game.is_terminal(state):
        return None
    if game.to_move(state) is CHANCE:
        outcomes = game.chance_outcomes(state)
        ok = _SUMS_TO_ONE.get(id(outcomes))
        if ok is None or ok[0] is not outcomes:
            ok = _SUMS_TO_ONE[id(outcomes)] = (outcomes, bool(outcomes) and sum(p for _a, p in outcomes) == 1)
        if not ok[1]:
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


def projects_conserved(game: BotFactoryGame, state: BotFactoryState) -> str | None:
    """BF-PROJ, BF-MAINT: Project tiles are conserved per colour: pile + discard + board + hands (unfinished
    and completed) = 6."""
    key: tuple[object, ...] = (game, state.project_pile, state.project_discard, state.grid)
    key += tuple(hand.projects for hand in state.hands) + tuple(hand.done for hand in state.hands)
    if _LAST_PROJECTS.same(key):
        return _LAST_PROJECTS.answer
    return _LAST_PROJECTS.keep(key, _ProjectsConserved.projects_conserved(game, state))


class _ProjectsConserved:
    @staticmethod
    def projects_conserved(game: BotFactoryGame, state: BotFactoryState) -> str | None:
        per = game.c.counts.projects_per_colour
        counts = dict(zip(game.colours, map(int.__add__, state.project_pile, state.project_discard), strict=True))
        for column in state.grid:
            for t in column:
                if t is not None:
                    counts[t] += 1
        for hand in state.hands:
            for t in hand.projects:
                counts[t] += 1
            for t in hand.done:
                counts[t] += 1
        for colour, n in counts.items():
            if n != per:
                return f"{n} {colour} Project tiles, not {per}"
        return None
