"""Mechanica (docs/rules/mechanica.md) and its one-player factory sandbox. The package exports the two games'
descriptors, :data:`MECHANICA` and :data:`FACTORY` (registered in the entry-point group ``bgrules.games``:
docs/extending.md); their parts are named by ``"module:attr"`` paths, imported on first use."""

from __future__ import annotations

from typing import Any

from bgrules.core.descriptor import GameDescriptor


def factory_options(params: dict[str, Any]) -> dict[str, Any]:
    """The sandbox's ``load_game`` options of OpenSpiel parameters (whose game strings split at commas and
    take no new lines): ``factory`` with its rows separated by ``;``, ``supply`` by ``+`` or spaces; empty
    text is the default."""
    options: dict[str, Any] = {"days": params["days"]}
    if params["factory"]:
        options["factory"] = str(params["factory"]).replace(";", "\n")
    if params["supply"]:
        options["supply"] = str(params["supply"]).replace("+", " ").split()
    return options


MECHANICA = GameDescriptor(
    name="mechanica",
    game="bgrules.mechanica.game:MechanicaGame",
    players=(2, 4),
    default_players=4,
    reference="bgrules.mechanica.reference:ReferenceMechanicaGame",
    variant="bgrules.mechanica.variant",
    rule_prefix="MC",
    rules_doc="mechanica",
    evaluation="bgrules.mechanica.evaluate",
    observation="bgrules.integrations.observations:_mechanica",
    observation_specs="bgrules.integrations.observations:_mechanica_specs",
    action_space="bgrules.integrations.actions:_mechanica",
    picture="bgrules.pictures.mechanica:draw_mechanica",
    text_picture="bgrules.mechanica.render:text_picture",
    narration="bgrules.pictures.narrate:mechanica_words",
    tie_break="bgrules.pictures.ending:mechanica_tie",
    state_type="bgrules.mechanica.state:MechanicaState",
    figures="bgrules.mechanica.figures:FIGURES",
)
"""Mechanica's descriptor (the entry point ``mechanica`` of ``bgrules.games``)."""

FACTORY = GameDescriptor(
    name="mechanica-factory",
    game="bgrules.mechanica.sandbox:FactoryGame",
    players=(1, 1),
    default_players=1,
    options={
        "factory": "the factory to start from, in the notation of docs/mechanica-notation.md (default: the start)",
        "supply": "the improvements a player may install, by kind, comma-separated (Forks may repeat)",
        "days": "workdays to play (MC-DAY)",
    },
    reference="bgrules.mechanica.reference:ReferenceFactoryGame",
    variant="bgrules.mechanica.variant",
    rule_prefix="MC",
    rules_doc="mechanica",
    evaluation="bgrules.mechanica.evaluate",
    observation="bgrules.integrations.observations:_mechanica_factory",
    observation_specs="bgrules.integrations.observations:_mechanica_factory_specs",
    action_space="bgrules.integrations.actions:_mechanica_factory",
    adapter_parameters={"factory": "", "supply": "", "days": 6},
    adapter_parser=factory_options,
    rewards="score",
    chance=False,
    picture="bgrules.pictures.mechanica:draw_sandbox",
    text_picture="bgrules.mechanica.render:text_picture",
    narration="bgrules.pictures.narrate:factory_words",
    tie_break="bgrules.pictures.ending:mechanica_tie",
    state_type="bgrules.mechanica.sandbox:SandboxState",
)
"""The factory sandbox's descriptor (the entry point ``mechanica-factory`` of ``bgrules.games``): one player,
Mechanica's rules (MC), a win certain, so the adapters reward its score."""

__all__ = ["FACTORY", "MECHANICA"]
