"""What every room of the Bot Factory house shares: the boards' numbers, the game's figures, and the small
state helpers (a player's hand, a part tile back to its discard).

The game (:class:`bgrules.botfactory.game.BotFactoryGame`) is built from one mixin per board
(:mod:`~bgrules.botfactory.assembly`, :mod:`~bgrules.botfactory.production`,
:mod:`~bgrules.botfactory.projects`, :mod:`~bgrules.botfactory.finance`), the shared helpers
(:mod:`~bgrules.botfactory.tokens`, :mod:`~bgrules.botfactory.draws`, :mod:`~bgrules.botfactory.limits`) and
the round flow (:mod:`~bgrules.botfactory.round`).
"""

from __future__ import annotations

from collections.abc import Collection
from fractions import Fraction
from operator import is_ as _is
from typing import Any, TypeVar

from bgrules.botfactory.state import BotFactoryState, Hand, Turn
from bgrules.botfactory.variant import BotFactoryVariant, Components, Contract
from bgrules.core.errors import IllegalAction
from bgrules.core.fastevolve import copier, evolve
from bgrules.core.protocol import GameBase

A = TypeVar("A")

GAME_NAME = "botfactory"
ASSEMBLY, PRODUCTION, PROJECT, FINANCE = range(4)

# the rooms' most frequent copies, by position (``fastevolve.copier``: ``evolve`` without its keywords)
_HAND_PARTS = copier(Hand, "parts")
_HAND_TOKENS = copier(Hand, "tokens")
_HAND_PROJECTS = copier(Hand, "projects")
_TURN_LEFT = copier(Turn, "left")
_TURN_PROMPT = copier(Turn, "prompt")
_TURN_MAIN = copier(Turn, "main")
_WITH_TURN = copier(BotFactoryState, "turn")
_WITH_DISCARDS = copier(BotFactoryState, "discards")
_WITH_UNIVERSAL = copier(BotFactoryState, "universal")
_WITH_HANDS_SUPPLY = copier(BotFactoryState, "hands", "supply")


def _set(t: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*t[:i], value, *t[i + 1 :])


def _offered(action: Any, options: Collection[Any]) -> bool:
    """``action in options``, the very object offered (a playout's choice) found without comparing it with
    the options before it (an attrs ``__eq__`` call each)."""
    for option in options:
        if option is action:
            return True
    return action in options


class Tables:
    """The tables of a game that only its memos' misses read (one attribute of the game, not one each: under
    CPython 3.11 an object of more than 29 attributes loses its shared-key dictionary and every ``self.x``
    read of the game gets slower, which made all of Bot Factory's random play 4-5% slower, docs/speed.md).
    Each is bounded where it is filled and never changes an answer."""

    __slots__ = (
        "chance_sets",
        "draw_actions",
        "fractions",
        "move_candidates",
        "move_offers",
        "moves",
        "offers",
        "outcome_pairs",
    )

    def __init__(self) -> None:
        self.chance_sets: dict[tuple[Any, ...], frozenset[Any]] = {}
        """The next draw's outcomes as a set, by what they depend on (``Draws._possible``)."""
        self.draw_actions: dict[tuple[str, int], Any] = {}
        """The chance outcomes' action objects, by kind and index (built on the first draw, shared)."""
        self.fractions: dict[tuple[int, int], Fraction] = {}
        """``Fraction(k, n)`` by ``(k, n)`` (``Draws._fraction``)."""
        self.outcome_pairs: dict[tuple[str, int, int, int], tuple[Any, Fraction]] = {}
        """The chance outcomes' (action, probability) pairs, by kind, index and fraction (``Draws._outcome``)."""
        self.move_candidates: dict[int | None, tuple[int, ...]] = {}
        """BF-MOVE: per space a worker stands on (None: not yet placed), the spaces of the other boards."""
        self.moves: tuple[Any, ...] = ()
        """BF-MOVE: one ``MoveWorker`` per space, shared by every answer."""
        self.move_offers: dict[tuple[int, ...], Any] = {}
        """BF-MOVE: the move memo's answers, one per tuple of spaces (``RoundFlow._move_options``)."""
        self.offers: dict[tuple[int, ...], tuple[Any, ...]] = {}
        """The options memo's values, one tuple per sequence of offered objects (``Base._shared``)."""


class Base(GameBase):
    """The figures every room reads (set by ``BotFactoryGame.__init__``) and helpers they share."""

    variant: BotFactoryVariant
    c: Components
    colours: tuple[str, ...]
    slots: tuple[str, ...]
    spaces: tuple[tuple[int, int, int], ...]
    board_spaces: dict[int, list[int]]
    contracts: dict[int, Contract]
    end_count: int
    max_rounds: int | None
    runner_rounds: int | None
    _chance_memo: dict[tuple[Any, ...], tuple[tuple[Any, Fraction], ...]]
    _move_memo: dict[tuple[Any, ...], Any]
    _options_memo: dict[tuple[Any, ...], tuple[Any, ...]]
    _score_memo: dict[tuple[Any, ...], int]
    _limits_memo: dict[tuple[int, int, int, bool], bool]
    _window_memo: dict[tuple[Any, ...], tuple[int, ...]]
    _opening_memo: dict[tuple[int, int], Any]
    _action_memo: dict[type, dict[tuple[Any, ...], Any]]
    _tables: Tables

    def colour(self, name: str) -> int:
        try:
            return self.colours.index(name)
        except ValueError:
            raise IllegalAction("BF-SETUP-BOARDS", f"{name!r} is not a colour ({', '.join(self.colours)})") from None

    def _board_of(self, state: BotFactoryState, seat: int) -> int:
        where = state.workers[seat]
        assert where is not None
        return self.spaces[where][0]

    def _hand(self, state: BotFactoryState, seat: int, **changes: Any) -> BotFactoryState:
        return evolve(state, hands=_set(state.hands, seat, evolve(state.hands[seat], **changes)))

    def _remember(self, key: tuple[Any, ...], value: tuple[Any, ...]) -> tuple[Any, ...]:
        """Store ``value``, the options of ``key`` (what they read, tagged by kind), in the options memo, as
        the shared tuple of those very objects (``_shared``); the memo is cleared past 50,000 entries."""
        memo = self._options_memo
        if len(memo) > 50_000:
            memo.clear()
        value = memo[key] = self._shared(value)
        return value

    def _shared(self, offers: tuple[Any, ...]) -> tuple[Any, ...]:
        """``offers`` (shared action objects, ``_action``), or the equal tuple of the very same objects met
        before: one tuple per game for each sequence of offers, so that the options memo's many keys (whose
        tuples of strings and ints the cyclic collector stops tracking) share a few tracked values instead
        of each holding a tuple of its own (docs/speed.md). Found by the objects' ids, each compared with
        ``is`` (the stored tuple holds them: no id of theirs is reused while it is stored); bounded: cleared
        past 20,000."""
        table = self._tables.offers
        key = tuple(map(id, offers))
        found = table.get(key)
        if found is not None and len(found) == len(offers) and all(map(_is, found, offers)):
            return found
        if len(table) > 20_000:
            table.clear()
        table[key] = offers
        return offers

    def _drawable(self, state: BotFactoryState, ci: int) -> bool:
        return bool(sum(state.piles[ci]) or sum(state.discards[ci]))

    def _drawables(self, state: BotFactoryState) -> tuple[bool, ...]:
        """``_drawable`` of each colour, in colour order."""
        return tuple([bool(sum(p) or sum(d)) for p, d in zip(state.piles, state.discards, strict=True)])

    def _action(self, cls: type[A], *args: Any) -> A:
        """The action ``cls(*args)``, one shared object per game for each class and arguments (actions are
        frozen values: an offer made again offers an equal object; bounded: a class's table is cleared past
        50,000). A table per class, keyed by the arguments alone: a tuple of strings and ints, which the
        cyclic collector stops tracking (a key holding the class would stay tracked)."""
        table = self._action_memo.get(cls)
        if table is None:
            table = self._action_memo[cls] = {}
        found: A | None = table.get(args)
        if found is None:
            if len(table) > 50_000:
                table.clear()
            found = table[args] = cls(*args)
        return found

    def _discard_part_tile(self, state: BotFactoryState, part: str) -> BotFactoryState:
        """A discarded part goes to its colour's discard pile; a Universal part back to its supply."""
        colour, slot = part.split("-")
        si = self.slots.index(slot)
        if colour == "any":
            return _WITH_UNIVERSAL(state, _set(state.universal, si, state.universal[si] + 1))
        ci = self.colours.index(colour)
        d = state.discards[ci]
        return _WITH_DISCARDS(state, _set(state.discards, ci, _set(d, si, d[si] + 1)))
