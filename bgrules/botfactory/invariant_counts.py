"""The counting behind Bot Factory's invariants (:mod:`bgrules.botfactory.invariants`): each predicate's
memo of the last state it answered (:class:`_Memo`, emptied by the tests through :data:`MEMOS`), the packed
counts of the Project tiles (:class:`_Pack`), the step-by-step recounts (:class:`_Fast`, :class:`_Count`)
and the plain recount of the whole state each of them must agree with (:class:`_Plain`)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from bgrules.botfactory.state import BotFactoryState, Phase

if TYPE_CHECKING:
    from bgrules.botfactory.game import BotFactoryGame


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
        memos = game.memos
        packs = memos.get(_PACKS)
        if packs is None:
            packs = memos.memo(_PACKS, 16)
        pack: _Pack | None = packs.get(key)
        if pack is None:
            pack = _Pack(*key)
            memos.put(packs, key, pack)
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


_PACKS = "invariants: project packs"
"""The game's memo (``game.memos``) of :meth:`_Pack.of`: (colours, Projects per colour) -> the pack."""


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
            index = _part_index(game)
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
        index = _part_index(game)
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
    return _parts_of(game)[0]


def _part_index(game: BotFactoryGame) -> dict[str, int]:
    """Each part name's place in :func:`_part_names`."""
    return _parts_of(game)[1]


def _parts_of(game: BotFactoryGame) -> tuple[tuple[str, ...], dict[str, int]]:
    """The part names and their places, memoised in the game's memos."""
    key = (game.colours, game.slots)
    memos = game.memos
    memo = memos.get(_NAMES)
    if memo is None:
        memo = memos.memo(_NAMES, 16)
    found: tuple[tuple[str, ...], dict[str, int]] | None = memo.get(key)
    if found is None:
        names = (
            *(f"{colour}-{slot}" for colour in game.colours for slot in game.slots),
            *(f"any-{slot}" for slot in game.slots),
        )
        found = (names, {name: i for i, name in enumerate(names)})
        memos.put(memo, key, found)
    return found


_NAMES = "invariants: part names"
"""The game's memo (``game.memos``) of :func:`_parts_of`: (colours, slots) -> (the part names, each one's
place)."""
