"""``bgrules adequacy``: the table's rows and the lines of its report (:func:`bgrules.runners.adequacy.run_adequacy`
runs the mutants)."""

from __future__ import annotations

from typing import Any

COLUMNS = ("rule", "mutants", "caught", "survivors", "caught by")


def table_rows(result: dict[str, Any]) -> list[tuple[str, ...]]:
    """The table's row of each rule (rich markup: its id styled by how many mutants survived)."""
    from rich.markup import escape

    rows: list[tuple[str, ...]] = []
    for r in result["rules"]:
        survivors = len(r["survivors"])
        style = "green" if not survivors else ("bold red" if not r["caught"] else "yellow")
        top = ", ".join(f"{check} ({n})" for check, n in list(r["by"].items())[:3])
        more = len(r["by"]) - 3
        by = escape(top + (f" +{more} more" if more > 0 else ""))
        rows.append((f"[{style}]{r['id']}[/]", str(r["mutants"]), str(r["caught"]), str(survivors), by))
    return rows


def survivor_lines(result: dict[str, Any]) -> list[str]:
    return [f"\nsurvivor {s['id']} ({r['id']}):\n{s['diff'].rstrip()}" for r in result["rules"] for s in r["survivors"]]


def summary_line(result: dict[str, Any]) -> str:
    share = 100.0 * result["caught"] / result["mutants"]
    return (
        f"\nbgrules adequacy: {result['caught']} of {result['mutants']} mutants caught ({share:.1f}%), "
        f"{result['equivalent']} equivalent not counted; {result['selection']}; {result['checks']} checks; "
        f"{result['seconds']:.1f} s"
    )
