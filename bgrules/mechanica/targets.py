"""Targets of the searched checker for Mechanica's specs (``target = "module:function"`` in specs/): each
gives a number from a state, and hypothesis steers its examples toward states where it is high
(``hypothesis.target``; docs/verify.md, "The searched checker"). They read the state only."""

from __future__ import annotations

from typing import Any

from bgrules.mechanica.board import Factory
from bgrules.mechanica.game import MechanicaGame
from bgrules.mechanica.state import MechanicaState


def _fullest(factory: Factory) -> int:
    most = max((len(t.load) for t in factory.dock), default=0)
    return max([most, *(len(p.inputs) for p in factory.floor if p is not None)])


def fullest_bin(game: Any, state: Any) -> int:
    """The sandbox (``mechanica-factory``): the most bots in one bin, a truck's load or a tile's input
    holes (MC-COLLIDE: a bin past its room is a collision)."""
    return _fullest(state.board)


def bots_on_boards(game: MechanicaGame, state: MechanicaState) -> int:
    """The whole game: the bots on every board together (MC-STOCK: the stock's bots out on the boards), so
    busy factories, with bots to sell, move, upgrade and collide, are sought."""
    return sum(sum(seat.factory.bot_counts()) for seat in state.seats)
