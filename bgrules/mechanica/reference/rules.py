"""What every part of the reference whole game reads: the game's figures (players, variant, kinds) and
small tuple helpers. Plain values, no memos."""

from __future__ import annotations

import attrs

from bgrules.mechanica.components import Bot
from bgrules.mechanica.state import MechanicaState, Seat
from bgrules.mechanica.variant import Blueprint, MechanicaVariant

PILES = 2
"""MC-BP-DAYEND: two Blueprint piles."""


@attrs.frozen
class Rules:
    """The figures of one game: player count and variant, and the improvement kinds in the order of the
    state's per-kind counts (``[setup] improvements``)."""

    players: int
    variant: MechanicaVariant

    @property
    def kinds(self) -> tuple[str, ...]:
        return self.variant.game.improvements

    def kind_index(self, kind: str) -> int:
        return self.kinds.index(kind)

    @property
    def prices(self) -> tuple[int, ...]:
        return self.variant.game.prices

    def card(self, card_id: int) -> Blueprint:
        return next(b for b in self.variant.game.blueprints if b.id == card_id)

    @property
    def extras_target(self) -> int:
        """MC-SETUP-EXTRAS: 2-3 players (or ``extras_4p = "unused"``) set aside ``[setup] extras`` tiles."""
        uses = self.players in (2, 3) or self.variant.rulings.extras_4p == "unused"
        total = sum(self.variant.catalogue.tiles[k].copies for k in self.kinds)
        return min(self.variant.game.extras, total) if uses else 0


def put(t: tuple[object, ...], i: int, value: object) -> tuple[object, ...]:
    return (*t[:i], value, *t[i + 1 :])


def add(counts: tuple[int, ...], i: int, n: int) -> tuple[int, ...]:
    return tuple(c + n if j == i else c for j, c in enumerate(counts))


def with_seat(state: MechanicaState, player: int, seat: Seat) -> MechanicaState:
    seats = list(state.seats)
    seats[player] = seat
    return attrs.evolve(state, seats=tuple(seats))


def seat_of(state: MechanicaState) -> Seat:
    return state.seats[state.current]


def give_bots(stock: tuple[int, int, int], bots: tuple[Bot, ...] | list[Bot]) -> tuple[int, int, int]:
    """MC-STOCK: bots back to the stock."""
    s = list(stock)
    for b in bots:
        s[b] += 1
    return (s[0], s[1], s[2])
