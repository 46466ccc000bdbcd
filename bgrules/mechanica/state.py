"""State and actions of the whole game of Mechanica (``bgrules.load_game("mechanica", players=n)``)."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Any

import attrs

from bgrules.core.codec import lenient
from bgrules.mechanica.components import Bot, bot_field
from bgrules.mechanica.factory import Factory
from bgrules.mechanica.run import Run


class Phase(enum.Enum):
    """Where the game stands. Chance phases: SETUP_EXTRAS, SETUP_DEAL, DRAW, EXTRA, REVEAL. A turn: SELL,
    BUY (with PLACE), FABRICATE (then GIFT), RECYCLE, DRAW, EXTRA and, under ``anytime = "whole_turn"``,
    TURN_END."""

    SETUP_EXTRAS = "setup_extras"
    SETUP_DEAL = "setup_deal"
    REVEAL = "reveal"
    RUN = "run"
    SELL = "sell"
    BUY = "buy"
    PLACE = "place"
    FABRICATE = "fabricate"
    GIFT = "gift"
    RECYCLE = "recycle"
    DRAW = "draw"
    EXTRA = "extra"
    OVER = "over"
    TURN_END = "turn_end"
    """MC-ANYTIME (``anytime = "whole_turn"``): step (4) is done (the Shop turned, the fallen tile recycled,
    the draws made); the player may still take the actions of any time in the turn, and ``Next`` ends it.
    Last in the enum, so that the other phases keep their numbers in observations."""

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


@attrs.frozen(cache_hash=True)
class Seat:
    """One player's board and money, and the Blueprints they have completed (MC-BP-ONCE)."""

    factory: Factory
    wallet: int
    vault: int = 0
    completed: tuple[int, ...] = ()


@attrs.frozen(cache_hash=True)
class MechanicaState:
    seats: tuple[Seat, ...]
    stock: tuple[int, int, int]
    deck: tuple[int, ...]
    """Face-down improvements left, counted per kind in the order of ``GameData.improvements``."""
    extras: tuple[int, ...]
    """The improvements set aside in the box as extras, counted per kind."""
    wheel: tuple[str | None, ...]
    """The Shop's price slots, 7 first (``GameData.prices``)."""
    recycler: tuple[int, ...]
    """Improvements in the Recycler, counted per kind."""
    bp_pool: tuple[int, ...]
    """Blueprint cards never yet seen: each pile's face-down part is drawn from this pool."""
    bp_hidden: tuple[int, ...]
    """How many never-seen cards each pile still holds."""
    bp_bottom: tuple[tuple[int, ...], ...]
    """Cards put back under each pile, in order (they come up after its never-seen cards)."""
    bp_top: tuple[int | None, ...]
    bp_turned: tuple[bool, ...]
    day: int
    phase: Phase
    current: int = 0
    """The player whose turn (or whose factory's run) it is."""
    run: Run | None = None
    pending: str | None = None
    """An improvement bought this turn, to install or recycle (phase PLACE)."""
    fallen: str | None = None
    """The improvement that fell into the Recycler this turn, whose bot is to be placed (phase RECYCLE)."""
    gifts: tuple[tuple[int, Bot], ...] = ()
    """Overactive Fabricator gifts still to offer: (player, the declared bot; theirs must be lower)."""
    reveal: int = 0
    """Phase REVEAL: the pile whose top is being turned up."""


# --- actions ----------------------------------------------------------------------------------------


@attrs.frozen
class Next:
    """End the current step of the turn: selling, buying, then fabricating (MC-TURN-ORDER)."""


@attrs.frozen
class Buy:
    """MC-SHOP-BUY: buy the improvement in Shop slot ``slot`` (0 is the price-7 slot) at its price."""

    slot: int


@attrs.frozen
class Place:
    """MC-PLACE: install the bought floor improvement at (row, col), turned ``rotation``."""

    row: int
    col: int
    rotation: int


@attrs.frozen
class PlaceFabricator:
    """MC-PLACE-START: install the bought fabricator tile on Start Zone row ``row``."""

    row: int


@attrs.frozen
class Recycle:
    """MC-RECYCLE: recycle the bought (or fallen) improvement: its bot into Start Zone hole (row, hole)."""

    row: int
    hole: int


@attrs.frozen
class BuyFork:
    """MC-FORK-BUY: buy a Fork from the box for 1 and install it at (row, col), turned ``rotation``."""

    row: int
    col: int
    rotation: int


@attrs.frozen
class BuyTruck:
    """MC-TRUCK-BUY: buy a Big (3) or Huge (5) Truck for Loading Dock row ``row``, or upgrade Big to Huge (3)."""

    kind: str
    row: int


def _strict_takes(value: Iterable[Any]) -> tuple[tuple[int, Bot], ...]:
    pairs = []
    for pair in value:
        if not isinstance(pair, list | tuple):
            raise TypeError("a (truck row, bot) pair")
        r, b = pair
        if isinstance(r, bool) or not isinstance(r, int):
            raise TypeError("a truck row is a whole number")
        pairs.append((int(r), b if type(b) is Bot else Bot(b)))
    return tuple(sorted(pairs))


_lenient_takes = lenient(_strict_takes, sequence=True)


def _takes(value: Any) -> tuple[tuple[int, Bot], ...]:
    """``take``'s converter: (truck row, bot) pairs, sorted, else the value as given (refused by apply)."""
    converted: tuple[tuple[int, Bot], ...] = _lenient_takes(value)
    return converted


@attrs.frozen
class Complete:
    """MC-BP-COMPLETE: complete the face-up Blueprint of pile ``pile`` with bots taken from trucks:
    ``take`` lists (truck row, bot) pairs."""

    pile: int
    take: tuple[tuple[int, Bot], ...] = attrs.field(converter=_takes)


@attrs.frozen
class Gift:
    """MC-FAB-OVERACTIVE: make ``bot`` (lower than the one declared) into Start Zone hole (row, hole)."""

    bot: Bot = attrs.field(converter=bot_field)
    row: int = 0
    hole: int = 0


@attrs.frozen
class Decline:
    """MC-FAB-OVERACTIVE: make no bot from another player's Overactive Fabricator."""


@attrs.frozen
class Draw:
    """Chance: the improvement drawn (into the extras at set-up, onto a Shop slot otherwise)."""

    kind: str


@attrs.frozen
class Reveal:
    """Chance: the Blueprint card turned up on top of a pile."""

    card: int
