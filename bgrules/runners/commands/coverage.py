"""``bgrules coverage``: the table of verify's own plan, and the table's rows and summary line (the
sampled games are :func:`bgrules.runners.coverage.run_coverage`'s)."""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from bgrules.core.defaults import DEFAULT_TIMEOUT_MS, default_dir
from bgrules.core.errors import InputError
from bgrules.runners import campaign_cli
from bgrules.runners import coverage as cov
from bgrules.runners.commands.verify import budget
from bgrules.runners.verify import CHECKERS, plan


def of_verify(
    game_name: str | None,
    searched: bool,
    specs_dir: Path,
    proofs_dir: Path,
    engine: str,
    run_plan: Callable[[list[Any]], list[dict[str, Any]]],
) -> dict[str, Any]:
    """``bgrules coverage``'s default: the table of ``bgrules verify``'s own plan (its default budget,
    every checker; --game: that game's specs, clarifications and obligations), as verify's coverage row
    has it, with ``checks`` (the result rows) and ``unexpected`` (the ids whose verdict was not the
    expected one: verify would fail on them) beside the table's keys. ``run_plan(tasks)`` runs the plan."""

    document, played = cov.choice(game_name)
    if engine == "ray":  # the workers read the files at the paths the driver gives, on any node
        specs_dir, proofs_dir = specs_dir.resolve(), proofs_dir.resolve()
    checkers = tuple(c for c in CHECKERS if searched or c != "searched")
    tasks, _specs = plan(
        specs_dir,
        proofs_dir,
        specs_dir / "clarifications",
        budget(None, None, None, False),
        checkers,
        None,
        DEFAULT_TIMEOUT_MS,
        games=None if game_name is None else played,
    )
    started = time.perf_counter()
    with cov.collecting() as collected:
        rows = run_plan(tasks)
    row = cov.verify_row(
        collected,
        [r for r in rows if r["kind"] == "proof"],
        specs_dir=specs_dir,
        proofs_dir=proofs_dir,
        complete=False,
        seconds=time.perf_counter() - started,
        game=document,
    )
    result: dict[str, Any] = row["coverage"]
    result["checks"] = len(rows)
    result["unexpected"] = [f"{r['id']} [{r['checker']}]" for r in rows if not r["ok"]]
    return result


def unexpected_note(result: dict[str, Any]) -> str | None:
    """The note (rich markup) on the checks whose verdict was not the expected one, if any."""
    if not result.get("unexpected"):
        return None
    return (
        f"[yellow]note:[/] {len(result['unexpected'])} check(s) gave an unexpected verdict "
        f"(bgrules verify fails on them): {', '.join(result['unexpected'])}"
    )


COLUMNS = ("rule", "title", "effects", "refusals", "checkers", "exempt")


def table_rows(result: dict[str, Any]) -> list[tuple[str, ...]]:
    """The table's row of each rule (its id styled: reached green, exempt yellow, neither red)."""
    rows: list[tuple[str, ...]] = []
    for r in result["rules"]:
        style = "green" if r["checkers"] else ("yellow" if r["exempt"] else "bold red")
        rows.append(
            (
                f"[{style}]{r['id']}[/]",
                r["title"],
                str(r["effects"]),
                str(r["refusals"]),
                ", ".join(r["checkers"]) or "-",
                r["exempt"] or "",
            )
        )
    return rows


def summary_line(result: dict[str, Any]) -> str:
    missing = cov.unreached(result)
    evidence = (
        f"{result['states']} states visited"
        if result["states"] is not None
        else f"{result['checks']} of verify's checks run"
    )
    return (
        f"{result['reached']} of {result['total']} rule IDs reached ({cov.percent(result):.1f}% of those not exempt), "
        f"{result['exempt']} exempt, {evidence}"
        + (f"; neither reached nor exempt: {', '.join(missing)}" if missing else "")
    )


def fail_under(result: dict[str, Any], threshold: float) -> str | None:
    """Why ``--fail-under`` fails the run (exit 1), or None."""

    if result["states"] == 0:
        return "--fail-under: no state was visited, so no rule was checked"
    pct = cov.percent(result)
    if pct < threshold:
        return f"rule coverage {pct:.1f}% is under --fail-under {threshold:g}%"
    return None


Show = Callable[[str, int, int], None]


def run(
    run_plan: Callable[[list[Any]], list[dict[str, Any]]],
    progress: Callable[[], AbstractContextManager[Show]],
    *,
    game_name: str | None,
    agents_spec: str | None,
    n_games: int | None,
    players: int | None,
    seed: int | None,
    searched: bool,
    specs_dir: Path | None,
    proofs_dir: Path | None,
    fail_under: float | None,
    engine: str,
    jobs: int | None,
    address: str | None,
    results: Path | None,
    resume: Path | None,
    **_printing: Any,
) -> dict[str, Any]:
    """``bgrules coverage``: the options checked, then the table of verify's own plan (run by
    ``run_plan(tasks)``: :func:`of_verify`), or, with a sampling option, of sampled games (as a campaign
    when an engine option asks for one; else serially, reporting to the ``progress()`` it enters)."""

    sampling = any(x is not None for x in (n_games, agents_spec, players, seed, results, resume))
    if n_games is not None and n_games < 1:
        raise InputError("--games", f"play at least one game, not {n_games}")
    cov.choice(game_name)  # an unknown game: one line, before anything runs
    specs_dir = specs_dir or default_dir("specs")
    proofs_dir = proofs_dir or default_dir("proofs")
    if fail_under is not None and not 0 <= fail_under <= 100:
        raise InputError("--fail-under", f"a percentage from 0 to 100, not {fail_under}")
    n_games = 20 if n_games is None else n_games
    seed = 0 if seed is None else seed
    if not sampling:  # verify's checks
        return of_verify(game_name, searched, specs_dir, proofs_dir, engine, run_plan)
    if campaign_cli.wanted(engine, jobs, address, results, resume):  # the sampled games as a campaign
        return campaign_cli.coverage(
            game=game_name, agents=agents_spec, games=n_games, players=players, seed=seed, searched=searched,
            specs_dir=specs_dir, proofs_dir=proofs_dir, engine=engine, jobs=jobs, address=address,
            results=results, resume=resume,
        )  # fmt: skip
    with progress() as show:
        return cov.run_coverage(
            game_name, n_games=n_games, seed=seed, agents=agents_spec, players=players, specs_dir=specs_dir,
            clarifications_dir=specs_dir / "clarifications", proofs_dir=proofs_dir, searched=searched,
            progress=show,
        )  # fmt: skip
