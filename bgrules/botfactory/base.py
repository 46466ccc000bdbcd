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
    _moves: tuple[Any, ...] = ()
    _options_memo: dict[tuple[Any, ...], tuple[Any, ...]]
    _score_memo: dict[tuple[Any, ...], int]
    _limits_memo: dict[tuple[int, int, int, bool], bool]
    _window_memo: dict[tuple[Any, ...], tuple[int, ...]]
    _chance_sets: dict[tuple[Any, ...], frozenset[Any]]
    _draw_actions: dict[tuple[str, int], Any]
    _opening_memo: dict[tuple[int, int], Any]
    _action_memo: dict[tuple[Any, ...], Any]
    _move_candidates: dict[int | None, tuple[int, ...]]
    _fractions: dict[tuple[int, int], Fraction]

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
        """Store ``value``, the options of ``key`` (what they read, tagged by kind), in the options memo; the
        memo is cleared past 50,000 entries."""
        memo = self._options_memo
        if len(memo) > 50_000:
            memo.clear()
        memo[key] = value
        return value

    def _drawable(self, state: BotFactoryState, ci: int) -> bool:
        return bool(sum(state.piles[ci]) or sum(state.discards[ci]))

    def _drawables(self, state: BotFactoryState) -> tuple[bool, ...]:
        """``_drawable`` of each colour, in colour order."""
        return tuple([bool(sum(p) or sum(d)) for p, d in zip(state.piles, state.discards, strict=True)])

    def _action(self, cls: type[A], *args: Any) -> A:
        """The action ``cls(*args)``, one shared object per game for each class and arguments (actions are
        frozen values: an offer made again offers an equal object; bounded: cleared past 50,000)."""
        key = (cls, *args)
        memo = self._action_memo
        found: A | None = memo.get(key)
        if found is None:
            if len(memo) > 50_000:
                memo.clear()
            found = memo[key] = cls(*args)
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
