"""``bgrules coverage``: the table of verify's own plan, and the table's rows and summary line (the
sampled games are :func:`bgrules.runners.coverage.run_coverage`'s)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bgrules.core.defaults import DEFAULT_TIMEOUT_MS
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
