"""Named predicates over Bot Factory states: the executable half of specs/botfactory.toml.

State predicates take ``(game, state)``, game predicates ``(game, final_state, steps)``; each returns None
when the fact holds, or what is wrong.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from bgrules.botfactory.game import BotFactoryGame
from bgrules.botfactory.state import BotFactoryState, Phase
from bgrules.core.observe import observes
from bgrules.core.playout import sums_to_one
from bgrules.core.protocol import CHANCE


class _Memo:
    """A predicate's last game, the last state it answered for and its answer. States are immutable and a
    step shares every part it does not change, so while the parts a predicate reads are the very same
    objects (``is``) as the last state's, the answer is the same (docs/speed.md); each predicate compares
    the few fields it reads directly, with the parts it read kept in ``a``, ``b``, ``c`` (or the whole
    state in ``state``, for the counts updated by the parts that changed). It holds what it compares, so
    no identity is reused. (A class, not module functions: the module's two-argument functions are its
    predicates.)"""

    __slots__ = ("a", "answer", "b", "c", "extra", "game", "state")

    def __init__(self) -> None:
        self.game: object = None
        self.state: BotFactoryState | None = None
        self.answer: str | None = None
        self.a: Any = None
        self.b: Any = None
        self.c: Any = None
        """The parts of the last state the predicate read (the very objects), or None."""
        self.extra: Any = None
        """What else the predicate keeps: whether the last hands keep the part and Project limits; the
        part counts (see ``_Count``); the packed Project counts (see ``_Pack``)."""

    def keep(self, game: BotFactoryGame, state: BotFactoryState, answer: str | None) -> str | None:
        self.game, self.state, self.answer = game, state, answer
        return answer

    def clear(self) -> None:
        self.game, self.state, self.answer, self.extra = None, None, None, None
        self.a, self.b, self.c = None, None, None


_DISCARD = Phase.DISCARD
_LIMITS = _Memo()
_TOKENS = _Memo()
_PARTS = _Memo()
_SLOTS = _Memo()
_BOTS = _Memo()
_RESERVED = _Memo()
_ORDER = _Memo()
_PROJECTS = _Memo()
MEMOS = (_LIMITS, _TOKENS, _PARTS, _SLOTS, _BOTS, _RESERVED, _ORDER, _PROJECTS)
"""Every predicate's memo (tests clear them to check the plain recount)."""


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


_FIELD = 1 << 32
"""Packed counts: the count of the ``i``-th kind of tile is the ``i``-th base-2**32 digit of one int."""


class _Pack:
    """Project tiles counted as one int (the ``i``-th colour's count in the ``i``-th base-2**32 digit): a
    tuple of tiles counts as the sum of its tiles' weights (``2**(32 i)``), memoised by value; the pile and
    discard as what the tuples must then hold, ``sum((6 - pile[i] - discard[i]) * 2**(32 i))``, or -1 when
    a digit is not a whole number from 0 to 2**32 - 1 (no tuple count can match it: the recount says what
    is wrong). A tuple's count of a colour is below 2**32, so two packed counts are equal exactly when
    every colour's counts are: the tiles match the piles exactly when the Projects are conserved. One pack
    per colours and count (memos bounded)."""

    __slots__ = ("grids", "on_board", "per", "rows", "tile", "wants")

    def __init__(self, colours: tuple[str, ...], per: int) -> None:
        self.tile: dict[str, int] = {colour: _FIELD**i for i, colour in enumerate(colours)}
        self.on_board: dict[str | None, int] = {None: 0}
        self.on_board.update(self.tile)
        """A grid space's weight (an empty space: None, nothing)."""
        self.per = per
        self.grids: dict[tuple[tuple[str | None, ...], ...], int] = {}
        self.rows: dict[tuple[str, ...], int] = {}
        self.wants: dict[tuple[int, ...], int] = {}

    @staticmethod
    def of(game: BotFactoryGame) -> _Pack:
        key = (game.colours, game.c.counts.projects_per_colour)
        pack = _PACKS.get(key)
        if pack is None:
            pack = _PACKS[key] = _Pack(*key)
        return pack

    def grid(self, grid: tuple[tuple[str | None, ...], ...]) -> int:
        weight = self.on_board
        n = 0
        for column in grid:
            for t in column:
                n += weight[t]
        if len(self.grids) >= 10_000:
            self.grids.clear()
        self.grids[grid] = n
        return n

    def row(self, row: tuple[str, ...]) -> int:
        weight = self.tile
        n = 0
        for t in row:
            n += weight[t]
        if len(self.rows) >= 10_000:
            self.rows.clear()
        self.rows[row] = n
        return n

    def want(self, held: tuple[int, ...]) -> int:
        """What the tuples must hold, packed, given the pile and discard tiles of each colour (``held``,
        as ``int.__add__`` adds them: anything but ints makes it raise or give NotImplemented)."""
        n = 0
        if len(held) == len(self.tile):
            for i, k in enumerate(held):
                d = self.per - k  # NotImplemented (a float added by int.__add__) raises TypeError
                if not 0 <= d < _FIELD:
                    n = -1
                    break
                n += d * _FIELD**i
        else:
            n = -1
        if len(self.wants) >= 10_000:
            self.wants.clear()
        self.wants[held] = n
        return n

    @staticmethod
    def projects_afresh(game: BotFactoryGame, state: BotFactoryState) -> str | None:
        """The plain recount's answer; the packed counts kept when the state is of the usual shape."""
        answer = _Plain.projects_conserved(game, state)  # raises on a state of the wrong shape
        m = _PROJECTS
        m.game, m.state, m.answer, m.extra = game, state, answer, None
        pack = _Pack.of(game)
        try:
            in_hands = 0
            for hand in state.hands:
                in_hands += pack.row(hand.projects) + pack.row(hand.done)
            held = tuple(map(int.__add__, state.project_pile, state.project_discard))
            m.extra = (pack.grid(state.grid), in_hands, pack.want(held), pack)
        except (KeyError, TypeError):
            pass
        return answer


_PACKS: dict[tuple[tuple[str, ...], int], _Pack] = {}


class _Fast:
    """The pieces of the fast paths above that are not counts."""

    @staticmethod
    def limits_afresh(game: BotFactoryGame, state: BotFactoryState) -> str | None:
        """The plain check's answer; the hands kept (when every one keeps the token limit) with whether
        they keep the part and Project limits too."""
        answer = _Plain.limits(game, state)
        m = _LIMITS
        m.game, m.a, m.extra = game, None, None
        c = game.c.counts
        strict = True
        try:
            for hand in state.hands:
                if not 0 <= hand.tokens <= c.token_cap:
                    return answer
                if len(hand.parts) > c.part_limit or len(hand.projects) + len(hand.done) > c.project_limit:
                    strict = False
        except TypeError:
            return answer
        m.a, m.extra = state.hands, strict
        return answer

    @staticmethod
    def column_fits(game: BotFactoryGame, ci: int, column: tuple[str | None, ...]) -> bool:
        """Whether the plain check passes the ``ci``-th bot's ``column``."""
        slots = game.slots
        if len(column) != len(slots):
            return False
        colour = game.colours[ci]
        for si, part in enumerate(column):
            if part is not None:
                c, slot = part.split("-")
                if slot != slots[si] or c not in ("any", colour):
                    return False
        return True


_Tiles = tuple[str | None, ...]


class _Count:
    """The part counts kept from step to step: the count of each part in the last state, updated by
    only the parts of the state that changed (the old part's tiles taken off, the new part's added), then
    compared with the box as the plain recount does. A state of an unusual shape (or any state met
    without its predecessor) is counted afresh. The memo's ``extra`` holds (the counts, the index of each
    part, the counts the box holds), or None after a state of an unusual shape. (Project tiles: ``_Pack``.)"""

    @staticmethod
    def parts_afresh(game: BotFactoryGame, state: BotFactoryState) -> str | None:
        answer = _Plain.parts_conserved(game, state)
        _PARTS.keep(game, state, answer)
        _PARTS.extra = None
        names = _part_names(game)
        usual = (
            len(state.piles) == 4
            and len(state.discards) == 4
            and all(len(p) == 3 for p in state.piles)
            and all(len(p) == 3 for p in state.discards)
            and len(state.universal) == 3
            and len(names) == 15
        )
        if usual:
            index = _INDEX[names]
            seen = [n for ci in range(4) for n in map(int.__add__, state.piles[ci], state.discards[ci])]
            seen.extend(state.universal)
            for group in (state.wheel, state.spares, *state.columns):
                for p in group:
                    if p is not None:
                        seen[index[p]] += 1
            for hand in state.hands:
                for p in hand.parts:
                    seen[index[p]] += 1
            c = game.c.counts
            _PARTS.extra = (seen, index, [c.parts_per_colour_slot] * 12 + [c.universal_per_slot] * 3)
        return answer

    @staticmethod
    def parts_step(last: BotFactoryState, state: BotFactoryState, kept: tuple[Any, ...]) -> list[int]:
        """The counts of ``state`` from those of ``last`` (kept, left unchanged)."""
        seen: list[int] = kept[0].copy()
        index: dict[str, int] = kept[1]
        for area, before in ((state.piles, last.piles), (state.discards, last.discards)):  # both count per index
            if area is before:
                continue
            if len(area) != 4:
                raise ValueError(area)
            for ci in range(4):
                a, b = area[ci], before[ci]
                if a is not b:
                    if len(a) != 3:
                        raise ValueError(a)
                    i = 3 * ci
                    seen[i] += a[0] - b[0]
                    seen[i + 1] += a[1] - b[1]
                    seen[i + 2] += a[2] - b[2]
        if state.universal is not last.universal:
            u, v = state.universal, last.universal
            if len(u) != 3:
                raise ValueError(u)
            seen[12] += u[0] - v[0]
            seen[13] += u[1] - v[1]
            seen[14] += u[2] - v[2]
        if state.wheel is not last.wheel:
            _Count.move(seen, index, state.wheel, last.wheel)
        if state.spares is not last.spares:
            _Count.move(seen, index, state.spares, last.spares)
        if state.columns is not last.columns:
            _Count.move_each(seen, index, state.columns, last.columns)
        hands, before_hands = state.hands, last.hands
        if hands is not before_hands:
            if len(hands) == len(before_hands):
                for hand, was in zip(hands, before_hands):  # noqa: B905 (as long, checked: strict= would cost a keyword call)
                    if hand is not was and hand.parts is not was.parts:
                        _Count.move(seen, index, hand.parts, was.parts)
            else:
                for hand in hands:
                    _Count.move(seen, index, hand.parts, ())
                for hand in before_hands:
                    _Count.move(seen, index, (), hand.parts)
        return seen

    @staticmethod
    def move(
        counts: list[int], index: dict[str, int], new: tuple[str | None, ...], gone: tuple[str | None, ...]
    ) -> None:
        """``counts`` with the tiles of ``gone`` taken off and those of ``new`` added: where the two are
        as long, only the places whose tile is not the very same object (a step changes one or two)."""
        if len(new) == len(gone):
            for p, q in zip(new, gone):  # noqa: B905 (as long, checked: strict= would cost a keyword call)
                if p is not q:
                    if p is not None:
                        counts[index[p]] += 1
                    if q is not None:
                        counts[index[q]] -= 1
            return
        for p in gone:
            if p is not None:
                counts[index[p]] -= 1
        for p in new:
            if p is not None:
                counts[index[p]] += 1

    @staticmethod
    def move_each(
        counts: list[int],
        index: dict[str, int],
        new: tuple[tuple[str | None, ...], ...],
        gone: tuple[tuple[str | None, ...], ...],
    ) -> None:
        """:meth:`move` for rows of tiles (the columns of the board, of the Project grid): row by row where
        the two have as many rows, each row that is not the very same object; else every row of ``gone``
        off and every row of ``new`` on."""
        if len(new) == len(gone):
            for i, row in enumerate(new):
                if row is not gone[i]:
                    _Count.move(counts, index, row, gone[i])
        else:
            for row in new:
                _Count.move(counts, index, row, ())
            for row in gone:
                _Count.move(counts, index, (), row)

    @staticmethod
    def parts_answer(game: BotFactoryGame, seen: list[int]) -> str | None:
        c = game.c.counts
        for i, n in enumerate(seen):
            want = c.universal_per_slot if i >= 12 else c.parts_per_colour_slot
            if n != want:
                return f"{n} {_part_names(game)[i]} part tiles, not {want}"
        return None


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


class _Plain:
    """Each predicate as a plain recount of the whole state (what the fast paths above reuse)."""

    @staticmethod
    def limits(game: BotFactoryGame, state: BotFactoryState) -> str | None:
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

    @staticmethod
    def tokens_conserved(game: BotFactoryGame, state: BotFactoryState) -> str | None:
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
                    f"player {seat}'s colour: supply {supply} + held {hand.tokens}"
                    f" + on contracts {placed[seat]} != {per}"
                )
        return None

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

    @staticmethod
    def bots_match_projects(game: BotFactoryGame, state: BotFactoryState) -> str | None:
        done = Counter(c for hand in state.hands for c in hand.done)
        for ci, colour in enumerate(game.colours):
            built = game.end_count - state.bots_left[ci]
            if built != done[colour] or built < 0:
                return f"{built} {colour} bots built, {done[colour]} {colour} Projects completed"
        return None

    @staticmethod
    def reservations(game: BotFactoryGame, state: BotFactoryState) -> str | None:
        most = len(game.c.finance.reservation_costs)
        for slot, seats in enumerate(state.reserved):
            if len(seats) > most or len(set(seats)) != len(seats):
                return f"contract slot {slot} reserved by {seats}"
        return None

    @staticmethod
    def order_is_permutation(game: BotFactoryGame, state: BotFactoryState) -> str | None:
        if sorted(state.order) != list(range(game.players)):
            return f"action order {state.order}"
        return None

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
_INDEX: dict[tuple[str, ...], dict[str, int]] = {}


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
