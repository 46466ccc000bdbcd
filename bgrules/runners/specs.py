"""The spec runner: invariant specs kept as data in ``specs/*.toml``, checked by named checkers.

A spec::

    [[spec]]
    id = "MC-INV-BOTS-CONSERVED"
    game = "mechanica-factory"
    statement = "..."
    rules = ["MC-STOCK"]
    predicate = "bgrules.mechanica.invariants:bots_conserved"
    kind = "state"            # or "transition"
    expected = "holds"        # or "violated" (a counterexample is expected)
    checkers = ["sampled", "searched", "explored"]
    options = { days = 6 }    # game options, optional
    variant = "path.toml"     # optional, relative to the spec file
    players = [2, 3, 4]       # optional: a player count, or a list of them (one verdict per count)
    target = "module:function" # optional: a number from a state the searched checker steers toward

Checkers: ``sampled`` plays random legal games from seeds 0..N-1 and checks every state (or
transition); ``searched`` lets hypothesis choose the actions (steered by the spec's ``target``) and
shrinks a failure to a short trace; ``explored`` visits every state reachable within ``depth`` plies
(:func:`bgrules.core.explore.explore`) and checks each one (a transition spec: each edge). A spec with a
list of player counts is one spec with a verdict per checker and count: its parts are
:func:`parts` (``ID-3P`` selects the 3-player part, :func:`select`).
A verdict is ``holds`` only for what was checked; the report says how much (its guarantee), and how many
sampled games the runner truncated (its step bound, or its round cap for games that count rounds: budget
``max_rounds``, default the game's ``runner_rounds``; see ``bgrules.core.playout.round_cap``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from bgrules.core import coverage
from bgrules.core.errors import BgrulesError, InputError
from bgrules.core.protocol import Game
from bgrules.runners.explored import check_explored_together
from bgrules.runners.report import Report
from bgrules.runners.sampled import check_sampled_together
from bgrules.runners.searched import check_searched_together
from bgrules.runners.specfile import Budget, Spec, make_game, parts


def _game_of(spec: Spec) -> Game:
    try:
        return make_game(spec)
    except BgrulesError as exc:
        raise InputError(spec.source, f"cannot load the game: {exc}") from None


def spec_budget(spec: Spec, game: Game, budget: Budget) -> Budget:
    """The budget ``spec`` runs with: ``budget``, unless forced, with the spec's own figures over it (and
    its ``thorough`` figures over those in a thorough run); ``max_steps = "game"`` is the game's bound."""
    if budget.forced:
        return budget
    changes = dict(spec.budget)
    if budget.thorough:
        changes.update(spec.thorough)
    if changes.get("max_steps") == "game":
        changes["max_steps"] = game.info.max_length
    return attrs.evolve(budget, **changes) if changes else budget


def _checker(checker: str) -> Callable[[list[Spec], Game, Budget], list[Report]]:
    """The function that checks a group of specs with ``checker``."""
    if checker == "sampled":
        return check_sampled_together
    if checker == "searched":
        return check_searched_together
    return check_explored_together


def _with_players(reports: list[Report], spec: Spec, game: Game) -> list[Report]:
    """The reports of a spec that names its player counts carry the count they were checked at."""
    if spec.players is None:
        return reports
    return [attrs.evolve(r, players=game.players) for r in reports]


def run_spec(spec: Spec, budget: Budget, checkers: tuple[str, ...] | None = None) -> list[Report]:
    """Every checker of ``spec`` (of ``checkers``, when given) at each of its player counts: per checker,
    its reports in the order of the spec's counts."""
    out = []
    games = [(part, _game_of(part)) for part in parts(spec)]
    for checker in spec.checkers:
        if checkers is not None and checker not in checkers:
            continue
        for part, game in games:
            b = spec_budget(part, game, budget)
            with coverage.recording(checker):  # rule coverage of this checker (bgrules.core.coverage)
                out += _with_players(_checker(checker)([part], game, b), spec, game)
    return out


def _key_budget(b: Budget, checker: str) -> Budget:
    """The figures of ``b`` the checker reads (the others zeroed: they differ harmlessly)."""
    if checker == "sampled":
        return attrs.evolve(b, examples=0, search_steps=None, depth=0, max_states=0, database=None)
    if checker == "searched":
        return attrs.evolve(
            b, games=0, mix=(), max_steps=0, search_steps=b.search_steps or b.max_steps, depth=0, max_states=0
        )
    return attrs.evolve(
        b, games=0, mix=(), examples=0, max_steps=0, search_steps=None, max_rounds=None, database=None, seed=0
    )


def sampled_groups(specs: list[Spec], budget: Budget, checker: str = "sampled") -> list[list[Spec]]:
    """The specs of ``checker`` that play the same games (same game, player count, variant, options and
    budget; for the searched checker the same target too), in the order of their first member, one part
    per player count (:func:`parts`): each group is checked by one :func:`run_group`."""
    groups: dict[tuple[Any, ...], list[Spec]] = {}
    for whole_spec in specs:
        if checker not in whole_spec.checkers:
            continue
        for spec in parts(whole_spec):
            game = _game_of(spec)
            b = _key_budget(spec_budget(spec, game, budget), checker)
            aim = spec.target if checker == "searched" else None
            key = (spec.game, game.players, spec.variant, repr(sorted(spec.options.items())), b, aim)
            groups.setdefault(key, []).append(spec)
    return list(groups.values())


def run_group(specs: list[Spec], budget: Budget, checker: str = "sampled") -> list[Report]:
    """``checker`` on a group of :func:`sampled_groups`, one report per spec, in order."""
    game = _game_of(specs[0])
    check = _checker(checker)
    with coverage.recording(checker):
        reports = check(specs, game, spec_budget(specs[0], game, budget))
    return [r for spec, report in zip(specs, reports, strict=True) for r in _with_players([report], spec, game)]


__all__ = [
    "run_group",
    "run_spec",
    "sampled_groups",
    "spec_budget",
]
