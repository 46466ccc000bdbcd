"""Reference end of the game: the score (MC-SCORE) and the winners (MC-END-TIE). The bound on a game's length
(MC-END-BOUND) is one formula for every engine, ``bgrules.mechanica.variant.max_length``."""

from __future__ import annotations

from bgrules.mechanica.board import Factory
from bgrules.mechanica.reference.rules import Rules
from bgrules.mechanica.state import MechanicaState
from bgrules.mechanica.variant import MechanicaVariant


def installed_value(factory: Factory, variant: MechanicaVariant) -> int:
    """MC-SCORE: the values of the floor tiles and the fabricator tiles (printed parts and trucks: 0)."""
    cat = variant.catalogue
    floor = sum(cat.tile(p.kind).value for p in factory.floor if p is not None)
    return floor + sum(cat.tile(s.kind).value for s in factory.start if not cat.tile(s.kind).printed)


def scores(rules: Rules, state: MechanicaState) -> tuple[int, ...]:
    """MC-SCORE: wallet + vault + installed improvements."""
    return tuple(s.wallet + s.vault + installed_value(s.factory, rules.variant) for s in state.seats)


def winners(rules: Rules, state: MechanicaState) -> tuple[int, ...]:
    """MC-END-TIE: the highest score; tied players share (``tie_break = "wallet"``: the most money in hand
    among them wins, further ties shared)."""
    sc = scores(rules, state)
    best = [p for p, s in enumerate(sc) if s == max(sc)]
    if rules.variant.rulings.tie_break == "wallet":
        most = max(state.seats[p].wallet for p in best)
        best = [p for p in best if state.seats[p].wallet == most]
    return tuple(best)
