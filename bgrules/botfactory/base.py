"""What every room of the Bot Factory house shares: the boards' numbers, the game's figures, and the small
state helpers (a player's hand, a part tile back to its discard).

The house has a room per board, a module of plain functions of the game and a state
(:mod:`~bgrules.botfactory.assembly`, :mod:`~bgrules.botfactory.production`,
:mod:`~bgrules.botfactory.projects`, :mod:`~bgrules.botfactory.finance`); the round's
phases are modules of plain functions too (:mod:`~bgrules.botfactory.round` dispatches through its table of
phases, ``round.PHASES``; the phases hand each board's actions to its room through ``rooms.ROOMS``); the
game (:class:`bgrules.botfactory.game.BotFactoryGame`) holds the figures and the token helpers
(:mod:`~bgrules.botfactory.tokens`).
"""

from __future__ import annotations

from collections.abc import Collection
from fractions import Fraction
from operator import is_ as _is
from typing import Any, TypeVar

from bgrules.botfactory.state import BotFactoryState, Exchange, Hand, Swap, Trade, Turn
from bgrules.botfactory.variant import BotFactoryVariant, Components, Contract
from bgrules.core.errors import IllegalAction
from bgrules.core.fastevolve import copier, evolve
from bgrules.core.memo import Memos
from bgrules.core.protocol import GameBase

A = TypeVar("A")

GAME_NAME = "botfactory"
ASSEMBLY, PRODUCTION, PROJECT, FINANCE = range(4)

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


def additional_rule(action: Any) -> str:
    """BF-ADDITIONAL: the rule an additional action is refused under: its own board's (BF-ASM-SWAP,
    BF-PROD-TRADE, BF-PROJ-TRADE)."""
    return {Swap: "BF-ASM-SWAP", Trade: "BF-PROD-TRADE", Exchange: "BF-PROJ-TRADE"}[type(action)]


def _offered(action: Any, options: Collection[Any]) -> bool:
    """``action in options``: ``action`` is one of the options offered."""
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
    memos: Memos
    _chance_memo: dict[tuple[Any, ...], tuple[tuple[Any, Fraction], ...]]
    _move_memo: dict[tuple[Any, ...], Any]
    _options_memo: dict[tuple[Any, ...], tuple[Any, ...]]
    _score_memo: dict[tuple[Any, ...], int]
    _limits_memo: dict[tuple[int, int, int, bool], bool]
    _window_memo: dict[tuple[Any, ...], tuple[int, ...]]
    _opening_memo: dict[tuple[int, int], Any]
    _action_memo: dict[type, dict[tuple[Any, ...], Any]]

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
        """``value``, the options of ``key`` (what they read, tagged by kind), kept for ``key``."""
        return self.memos.put(self._options_memo, key, self._shared(value))

    def _shared(self, offers: tuple[Any, ...]) -> tuple[Any, ...]:
        """``offers`` (action objects of ``_action``), or the tuple of the very same objects given before."""
        table: dict[tuple[int, ...], tuple[Any, ...]] = self.memos["offers"]
        key = tuple(map(id, offers))
        found = table.get(key)
        if found is not None and len(found) == len(offers) and all(map(_is, found, offers)):
            return found
        return self.memos.put(table, key, offers)

    def _drawable(self, state: BotFactoryState, ci: int) -> bool:
        return bool(sum(state.piles[ci]) or sum(state.discards[ci]))

    def _drawables(self, state: BotFactoryState) -> tuple[bool, ...]:
        """``_drawable`` of each colour, in colour order."""
        return tuple([bool(sum(p) or sum(d)) for p, d in zip(state.piles, state.discards, strict=True)])

    def _action(self, cls: type[A], *args: Any) -> A:
        """The action ``cls(*args)``: one object per game for each class and arguments (actions are frozen
        values: an offer made again offers an equal object)."""
        table = self._action_memo.get(cls)
        if table is None:
            memos = self.memos
            table = memos.put(self._action_memo, cls, memos.memo(f"action.{cls.__name__}", 50_000))
        found: A | None = table.get(args)
        if found is None:
            found = self.memos.put(table, args, cls(*args))
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
