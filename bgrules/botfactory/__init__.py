"""Bot Factory (docs/rules/botfactory.md). The package exports the game's descriptor, :data:`DESCRIPTOR`
(registered in the entry-point group ``bgrules.games``: docs/extending.md); its parts are named by
``"module:attr"`` paths, imported on first use."""

from __future__ import annotations

from typing import Any

from bgrules.botfactory.variant import RUNNER_ROUNDS
from bgrules.core.codec import show
from bgrules.core.descriptor import GameDescriptor
from bgrules.core.errors import InputError


def adapter_options(params: dict[str, Any]) -> dict[str, Any]:
    """The ``load_game`` options of OpenSpiel parameters: ``max_rounds``, a whole number of at least 1."""

    rounds = params["max_rounds"]
    if type(rounds) is not int or rounds < 1:
        raise InputError("max_rounds", f"a whole number of at least 1, not {show(rounds)}")
    return {"max_rounds": rounds}


DESCRIPTOR = GameDescriptor(
    name="botfactory",
    game="bgrules.botfactory.game:BotFactoryGame",
    players=(2, 4),
    default_players=4,
    options={
        "max_rounds": "end the game, scored as finished, after this round (BF-END); none: only the seed's triggers",
    },
    reference="bgrules.botfactory.reference:ReferenceBotFactoryGame",
    variant="bgrules.botfactory.variant",
    rule_prefix="BF",
    rules_doc="botfactory",
    evaluation="bgrules.botfactory.evaluate",
    observation="bgrules.integrations.observations:_botfactory",
    observation_specs="bgrules.integrations.observations:_botfactory_specs",
    action_space="bgrules.integrations.actions:_botfactory",
    adapter_options={"max_rounds": RUNNER_ROUNDS},
    adapter_parser=adapter_options,
    picture="bgrules.pictures.botfactory:draw_botfactory",
    narration="bgrules.pictures.narrate:botfactory_words",
    tie_break="bgrules.pictures.ending:botfactory_tie",
    state_type="bgrules.botfactory.state:BotFactoryState",
    figures="bgrules.botfactory.figures:FIGURES",
)
"""Bot Factory's descriptor (the entry point ``botfactory`` of ``bgrules.games``)."""

__all__ = ["DESCRIPTOR"]
