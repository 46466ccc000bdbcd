"""``bgrules balance``: the serial run's report (docs/balance.md) and its table's rows and lines."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from bgrules.core.errors import InputError
from bgrules.core.figures import departures
from bgrules.core.registry import load_game
from bgrules.runners import campaign_cli
from bgrules.runners.balance import balance_json, check_plot_path, plot_balance, resolve_agents, run_balance


def balance(
    *,
    game_name: str,
    players: int | None,
    agents_spec: str | None,
    n_games: int,
    seed: int,
    variant: Path | None,
    options: dict[str, Any],
    max_rounds: int | None,
    plot_path: Path | None,
    on_game: Callable[[Any], None] | None = None,
) -> dict[str, Any]:
    """The serial run's JSON (drawn to ``plot_path`` too when given)."""

    game = load_game(game_name, players=players, variant=str(variant) if variant else None, **options)
    agents, names = resolve_agents(agents_spec, game.players)
    report = run_balance(game, game_name, n_games, seed, agents, names, max_rounds, on_game=on_game)
    if plot_path is not None:
        plot_balance(report, plot_path)
    result = balance_json(report)
    result["seed_departures"] = departures(game)
    return result


COLUMNS = ("seat", "agent", "wins", "win rate [95% Wilson]", "score mean ± sd", "score min..max")


def seat_rows(result: dict[str, Any]) -> list[tuple[str, ...]]:
    """The table's row of each seat, as the COLUMNS."""
    rows: list[tuple[str, ...]] = []
    for s in result["seats"]:
        rate = "-" if s["win_rate"] is None else f"{s['win_rate']:.3f}"
        interval = f"{rate} [{s['win_rate_low']:.3f}, {s['win_rate_high']:.3f}]"
        mean = "-" if s["score_mean"] is None else f"{s['score_mean']:.2f} ± {s['score_sd']:.2f}"
        span = "-" if s["score_min"] is None else f"{s['score_min']}..{s['score_max']}"
        rows.append((str(s["seat"]), s["agent"], str(s["wins"]), interval, mean, span))
    return rows


def lines(result: dict[str, Any], n_games: int) -> list[str]:
    """The lines under the table: finished and truncated games, shared games, end triggers, length."""
    length = result["length"]
    out = [
        f"finished {result['finished']} of {n_games}; truncated {result['truncated']} "
        f"(the runner's round cap {result['round_cap']}: no one's win, left out)",
        f"shared games {result['shared_games']} (a win for each tied seat)",
        "ended by: " + ", ".join(f"{k} {v}" for k, v in result["ended_by"].items()),
    ]
    if length is not None:
        out.append(f"length (actions): {length['mean']} ± {length['sd']}, {length['min']}..{length['max']}")
    return out


def run(
    on_game: Callable[[Any], None],
    *,
    n_games: int,
    plot_path: Path | None,
    engine: str,
    jobs: int | None,
    address: str | None,
    results: Path | None,
    resume: Path | None,
    **run: Any,
) -> dict[str, Any]:
    """``bgrules balance``: the options checked, then the games as a campaign when an engine option asks for
    one (docs/campaigns.md), else serially (:func:`balance`, ``on_game`` told of each game); ``run``:
    game_name, players, agents_spec, seed, variant, options, max_rounds."""

    if n_games < 1:
        raise InputError("--games", f"a whole number of games, at least 1, not {n_games}")
    if plot_path is not None:
        check_plot_path(plot_path)
    if campaign_cli.wanted(engine, jobs, address, results, resume):
        if plot_path is not None:
            raise InputError("--plot", "draws each game's scores: run it without --engine/--jobs/--results/--resume")
        return campaign_cli.balance(
            game=run["game_name"], players=run["players"], agents=run["agents_spec"], games=n_games,
            seed=run["seed"], variant=run["variant"], options=run["options"], max_rounds=run["max_rounds"],
            engine=engine, jobs=jobs, address=address, results=results, resume=resume,
        )  # fmt: skip
    return balance(n_games=n_games, plot_path=plot_path, on_game=on_game, **run)
