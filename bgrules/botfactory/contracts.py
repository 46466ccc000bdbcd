"""Action contracts of Bot Factory: each rule's effect on the state, recomputed from the seed (seed
000_a7a09e9bc70ab148.txt) and the variant's component data, step by step (the specs of
specs/botfactory-contracts.toml, bgrules issue 22).

Each predicate is a transition predicate ``(game, before, action, after) -> str | None``: it reads the two
states' fields and the figures, never the engine function it checks, works out what the rule does to
``before`` and compares that with ``after`` (None: as expected; else what was expected and what happened).
A step is one ``apply``: an action with the automatic steps after it (draws left to chance, a limit's
discard, Sandra's action, maintenance, the next round), so a contract checks the fields its rule changes and
leaves the others to the other contracts.

Figures: a number the seed states is checked at the seed's value when the game runs the default variant
(``variant.source == "default"``; the pinned table :data:`bgrules.botfactory.figures.FIGURES`, or the
constants below with their seed lines), at the variant's own value otherwise (a corrected component file
changes the figure, the contract still checks the rule's shape); a figure that is component data only
(assumed: the icon slots, the marked output space, the track's top, the reservation costs) is read from
``game.c``.


The contracts live in :mod:`bgrules.botfactory.contracts_actions` (the boards' actions) and
:mod:`bgrules.botfactory.contracts_round` (the round's flow), on what :mod:`bgrules.botfactory.contracts_common`
recomputes; this module names them all (the specs' ``predicate = "bgrules.botfactory.contracts:..."``).
"""

from bgrules.botfactory.contracts_actions import (
    output_take,
    placement_rewards,
    production_trade,
    project_rewards,
    project_trade,
    reservation,
    spare_swap,
    token_costs,
    value_changes,
    wheel_rotation,
)
from bgrules.botfactory.contracts_round import (
    maintenance,
    moves,
    raise_lines,
    sandra_actions,
    setup_tokens,
    turn_order,
)

__all__ = [
    "maintenance",
    "moves",
    "output_take",
    "placement_rewards",
    "production_trade",
    "project_rewards",
    "project_trade",
    "raise_lines",
    "reservation",
    "sandra_actions",
    "setup_tokens",
    "spare_swap",
    "token_costs",
    "turn_order",
    "value_changes",
    "wheel_rotation",
]
