"""``bgrules simulate``: play legal games checking the game's invariants, and return the report (one
report, :func:`bgrules.runners.campaign_merge.simulate_report`, whether the games run serially or as a campaign)."""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

from bgrules.agents import parse_agents
from bgrules.core.coverage import recording
from bgrules.core.defaults import default_dir, describe_dir, source_label
from bgrules.core.descriptor import find
from bgrules.core.errors import InputError
from bgrules.core.playout import round_cap
from bgrules.core.registry import load_game
from bgrules.runners import campaign_cli
from bgrules.runners.campaign_merge import simulate_report
from bgrules.runners.campaign_shards import simulate_games
from bgrules.runners.specfile import default_invariants, load_specs


def own_specs(game_name: str) -> Path | None:
    """The game's own specs directory (its descriptor's ``specs``: a plug-in game's) when the default specs
    directory holds none of its specs, else None (the default)."""

    found = find(game_name)
    if found is None or found.specs is None or not Path(found.specs).is_dir():
        return None
    where = default_dir("specs")
    if where.is_dir() and any(s.game == game_name for s in load_specs(where)):
        return None
    return Path(found.specs)


def simulate(
    *,
    game_name: str,
    players: int | None,
    n_games: int,
    seed: int,
    variant: Path | None,
    options: dict[str, Any],
    check: bool,
    max_rounds: int | None,
    agents_spec: str | None,
    specs_dir: Path | None,
    used: Callable[[str], None] | None = None,
    progress: Callable[[], AbstractContextManager[Callable[[], None]]] | None = None,
) -> dict[str, Any]:
    """The serial run's report. ``used(line)`` is told which specs directory the invariants came from
    (before any game is played); ``progress()`` is entered around the games and gives the function called
    after each game."""

    game = load_game(game_name, players=players, variant=str(variant) if variant else None, **options)
    cap = round_cap(game, max_rounds)
    agents = parse_agents(agents_spec, game.players)
    where = specs_dir or default_dir("specs")
    preds = default_invariants(game_name, game.players, where) if check else []
    if check and not preds:  # no vacuous pass: asked to check, and nothing to check with
        label = source_label("specs", where, specs_dir is not None)
        raise InputError(
            "--check", f"no invariant of {game_name} ({game.players} players) in {label}; pass --no-check to only play"
        )
    if check and used is not None:
        used(f"bgrules simulate used {describe_dir('specs', where, specs_dir is not None)}")
    start = time.perf_counter()
    shown: AbstractContextManager[Callable[[], None] | None] = progress() if progress is not None else nullcontext()
    with recording("simulate"), shown as on_game:
        acc = simulate_games(game, agents, cap, preds, range(seed, seed + n_games), on_game)
    seconds = time.perf_counter() - start
    return simulate_report(game_name, game, seed, agents, acc, seconds, [p[0] for p in preds], cap)


SHOWN = (
    "agents",
    "games",
    "steps",
    "seconds",
    "games_per_second",
    "steps_per_second",
    "length",
    "scores",
    "win_rate_by_seat",
    "ended_by",
    "truncated",
    "finished",
    "invariant_violations",
)
"""The report's keys the table shows, in order."""


def checked_line(result: dict[str, Any]) -> str:
    """Which invariants were checked, in one line."""
    ids = result["invariants_checked"]
    checked = f"{len(ids)} invariant(s) checked at every step" if ids else "no invariant checked (--no-check)"
    return f"{checked}: {', '.join(ids)}" if ids else checked


def run(
    progress: Callable[[], AbstractContextManager[Callable[[], None]]],
    used: Callable[[str], None] | None,
    *,
    game_name: str,
    n_games: int,
    check: bool,
    specs_dir: Path | None,
    options: dict[str, Any],
    engine: str,
    jobs: int | None,
    address: str | None,
    results: Path | None,
    resume: Path | None,
    **run: Any,
) -> dict[str, Any]:
    """``bgrules simulate``: the options checked, then the games as a campaign when an engine option asks for
    one (docs/campaigns.md), else serially (:func:`simulate`, reporting to ``progress`` and ``used``); ``run``:
    players, seed, variant, max_rounds, agents_spec."""

    if n_games < 1:
        raise InputError("--games", "play at least one game")
    if check and specs_dir is None:
        specs_dir = own_specs(game_name)
    if campaign_cli.wanted(engine, jobs, address, results, resume):
        return campaign_cli.simulate(
            game=game_name, players=run["players"], games=n_games, seed=run["seed"], variant=run["variant"],
            options=options, check=check, max_rounds=run["max_rounds"], agents=run["agents_spec"],
            specs_dir=specs_dir, engine=engine, jobs=jobs, address=address, results=results, resume=resume,
        )  # fmt: skip
    return simulate(game_name=game_name, n_games=n_games, check=check, specs_dir=specs_dir, options=options,
                    used=used, progress=progress, **run)  # fmt: skip
