"""Reference end of the game: the score (MC-SCORE), the winners (MC-END-TIE) and the bound on a game's
length (MC-END-BOUND)."""

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


def max_length(rules: Rules) -> int:
    """MC-END-BOUND, the formula of docs/rules/mechanica.md."""
    data = rules.variant.game
    s = len(data.prices)
    t = sum(rules.variant.catalogue.tiles[k].copies for k in rules.kinds)
    e = data.extras
    b = len(data.blueprints)
    n = rules.players
    k = 3 * rules.variant.rulings.bots_per_grade
    c = 12
    turns = (t + e) * s + n
    per_turn = 9 + 2 * s + 6 + 2 * b + 15 + 3 * (n - 1) + 2 + 3
    per_run = k * (5 * c + 1) + c
    money = sum(data.money) + turns * (6 * k + 5 * k * c)
    days = turns // n + 2
    return turns * per_turn + 2 * money + days * n * per_run
