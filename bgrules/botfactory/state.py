"""State and actions of Bot Factory (``bgrules.load_game("botfactory", players=n)``).

Parts are written ``"<colour>-<slot>"`` (``"red-head"``), Universal parts ``"any-<slot>"``. Action spaces
are numbered left to right across the boards Assembly, Part Production, Project, Finance (3 spaces each by
default: 0-2 Assembly, 3-5 Production, 6-8 Project, 9-11 Finance).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Any

import attrs
from cattrs.gen import make_dict_unstructure_fn, override

from bgrules.core.codec import converter, lenient


class Phase(enum.Enum):
    SETUP = "setup"
    """Chance: contracts, the Wheel and the Project board are dealt."""
    PICK = "pick"
    """Set-up: in reverse action order each player takes the top part of a pile of their choice."""
    MOVE = "move"
    ACTION = "action"
    DISCARD = "discard"
    """A player over the part or project limit discards (BF-LIMIT-PARTS, BF-LIMIT-PROJECTS)."""
    OVER = "over"

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


SETUP, PICK, MOVE, ACTION, DISCARD, OVER = Phase.SETUP, Phase.PICK, Phase.MOVE, Phase.ACTION, Phase.DISCARD, Phase.OVER
"""The phases by name, as the engine compares a state's phase with them."""


@attrs.frozen(cache_hash=True)
class Hand:
    """One player's Speech tokens (held), part tiles, unfinished Project tiles (by colour) and completed
    ones (each holding a bot of its colour)."""

    tokens: int
    parts: tuple[str, ...] = ()
    projects: tuple[str, ...] = ()
    done: tuple[str, ...] = ()


@attrs.frozen(cache_hash=True)
class Turn:
    """The acting player's action turn: main actions left, whether the main action may still be taken
    (``main``: "share" = Sandra's toll not yet settled, "extra" = the last Assembly space's extra token not
    yet settled (BF-ASM-LAST, ruling ``last_space_toll = "separate"``), "open", "closed"), and a pending
    optional reward."""

    left: int
    main: str
    prompt: tuple[str, ...] = ()


Job = tuple[str, int, str, int, int]
"""A pending draw: (what: "part" / "project" / "contract", source pile colour index or -1 for the
Distribution marker, destination: "wheel" / "spare" / "hand" / "grid" / "display", index, index)."""


@attrs.frozen(cache_hash=True)
class BotFactoryState:
    hands: tuple[Hand, ...]
    supply: tuple[int, ...]
    """Each player's colour: Speech tokens in the general supply (BF-LIMIT-TOKENS: supply + held + on
    contracts = 9)."""
    piles: tuple[tuple[int, int, int], ...]
    """Part tiles left in each colour's pile, by slot (head, torso, legs)."""
    discards: tuple[tuple[int, int, int], ...]
    universal: tuple[int, int, int]
    wheel: tuple[str | None, ...]
    marker: int
    columns: tuple[tuple[str | None, ...], ...]
    """The Assembly board: for each colour's bot, the part in its head, torso and legs spaces."""
    bots_left: tuple[int, ...]
    spares: tuple[str | None, ...]
    grid: tuple[tuple[str | None, ...], ...]
    """The Project board: two columns of Project tiles (their colours), row 0 at the bottom."""
    project_pile: tuple[int, ...]
    project_discard: tuple[int, ...]
    values: tuple[int, ...]
    display: tuple[int | None, ...]
    contract_pool: tuple[int, ...]
    reserved: tuple[tuple[int, ...], ...]
    """Per face-up contract, the seats that reserved it, in order (the first holds the higher space)."""
    workers: tuple[int | None, ...]
    sandra: int
    round: int
    phase: Phase
    order: tuple[int, ...]
    index: int = 0
    """Position in ``order`` of the player now moving, picking or acting."""
    turn: Turn | None = None
    draws: tuple[Job, ...] = ()
    discarder: int | None = None
    after_discard: str = ""
    """Where play resumes once the discarding player is within the limits."""
    window: tuple[int, ...] = ()
    """BF-ADDITIONAL (ruling ``additional_actions = "any_time"``): an additional-action window after the
    moves (BF-ADDITIONAL-WINDOW: index 0, no turn yet), between turns, before Sandra acts or before
    maintenance: the seats still to be offered it, the first deciding
    (their board's additional actions, any number, then ``EndTurn()``). Empty outside a window, and then
    left out of the JSON form (states of the ``"own_turn"`` reading read and write as in 0.3.0)."""
    paid: tuple[int, ...] = ()
    """BF-SANDRA-SHARE / BF-SANDRA-PAID: the seats that paid Sandra's token this round, in seat order (a paid
    toll keeps the board's additional action in the round's later windows; ruling ``paid_sharer``).
    Emptied when the round ends; empty, it is left out of the JSON form."""


converter.register_unstructure_hook(
    BotFactoryState,
    make_dict_unstructure_fn(
        BotFactoryState, converter, window=override(omit_if_default=True), paid=override(omit_if_default=True)
    ),
)


# --- actions ----------------------------------------------------------------------------------------


@attrs.frozen
class TakeTop:
    """BF-SETUP-PARTS / BF-ASM-ICON / BF-PROD-TRADE: take the top part of ``colour``'s pile."""

    colour: str


@attrs.frozen
class MoveWorker:
    """BF-MOVE: move one's worker to action space ``space``."""

    space: int


@attrs.frozen
class PayShare:
    """BF-SANDRA-SHARE: pay a Speech token to act on the board Sandra stands on."""


PAY_SHARE = PayShare()
"""The one ``PayShare()`` the engine offers."""


@attrs.frozen
class PlacePart:
    """BF-ASM: put part ``part`` from one's hand on the ``colour`` bot of the Assembly board."""

    part: str
    colour: str


@attrs.frozen
class Rotate:
    """BF-PROD-ROTATE: turn the Wheel 90 degrees (two spaces) clockwise."""


ROTATE = Rotate()
"""The one ``Rotate()`` the engine offers."""


@attrs.frozen
class Refill:
    """BF-PROD-ROTATE: fill the empty top Wheel space ``position`` from the top of ``colour``'s pile."""

    position: int
    colour: str


@attrs.frozen
class TakeOutput:
    """BF-PROD-TAKE: take the part on output space ``position`` of the Wheel."""

    position: int


@attrs.frozen
class TakeProject:
    """BF-PROJ: take the Project tile in column ``column`` (0 left, 1 right), row ``row`` (0 bottom)."""

    column: int
    row: int


@attrs.frozen
class Raise:
    """BF-FIN-RAISE: spend a token to raise ``colour``'s bot value by one."""

    colour: str


@attrs.frozen
class Reserve:
    """BF-FIN-CONTRACT: reserve the face-up contract in display slot ``slot`` (cost: the space's value)."""

    slot: int


@attrs.frozen
class Swap:
    """BF-ASM-SWAP (additional): pay a token to swap ``part`` from one's hand with spare space ``spare``."""

    part: str
    spare: int


def _strict_sorted(value: Iterable[str]) -> tuple[str, ...]:
    items = tuple(value)
    if not all(isinstance(v, str) for v in items):
        raise TypeError("a list of names")
    return tuple(sorted(items))


_lenient_sorted = lenient(_strict_sorted, sequence=True)


def _sorted(value: Any) -> tuple[str, ...]:
    """A list of names, sorted (text or anything else is left as it was: ``apply`` refuses it)."""
    converted: tuple[str, ...] = _lenient_sorted(value)
    return converted


@attrs.frozen
class Trade:
    """BF-PROD-TRADE (additional): discard three parts, take the top part of ``colour``'s pile."""

    parts: tuple[str, ...] = attrs.field(converter=_sorted)
    colour: str = "red"


@attrs.frozen
class Exchange:
    """BF-PROJ-TRADE (additional): discard two unfinished Project tiles, take a Universal ``slot`` part."""

    projects: tuple[str, ...] = attrs.field(converter=_sorted)
    slot: str = "head"


@attrs.frozen
class Skip:
    """Decline an optional reward or paid extra (icon part, marked space, line reward, refill, toll)."""


SKIP = Skip()
"""The one ``Skip()`` the engine offers (actions without fields are equal to every other instance)."""


@attrs.frozen
class EndTurn:
    """End one's action turn (the main action's unused actions are lost)."""


END_TURN = EndTurn()
"""The one ``EndTurn()`` the engine offers."""


@attrs.frozen
class DiscardPart:
    """BF-LIMIT-PARTS: discard ``part`` (over the limit of five)."""

    part: str


@attrs.frozen
class DiscardProject:
    """BF-LIMIT-PROJECTS: discard an unfinished Project tile of ``colour`` (over the limit of five)."""

    colour: str


@attrs.frozen
class DrawPart:
    """Chance: the slot of the part tile drawn from the pile being drawn."""

    slot: str


@attrs.frozen
class DrawProject:
    """Chance: the colour of the Project tile drawn."""

    colour: str


@attrs.frozen
class DrawContract:
    """Chance: the contract tile drawn."""

    id: int
