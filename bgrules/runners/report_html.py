"""The static report of ``bgrules verify --html DIR``, in the manner of a coverage report.

``DIR/index.html``: the summary (verdicts as expected, expected counterexamples, unexpected verdicts,
seconds), a table of every spec, proof and clarification row with its checker, verdict, expected verdict,
guarantee and time (the JSON rows of ``verify --json``; statement, rules, detail and witness folded under
each), and the rule coverage table (:func:`bgrules.runners.coverage.verify_row`'s ``coverage``).
``DIR/traces/<id>-<checker>.html``: each counterexample's stepping page (:mod:`bgrules.runners.html`), linked
from its row, with a link back. Every text is escaped; every link is relative, so the directory can be
moved or served as it is. No script is needed to read the index.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from bgrules.runners.html import Draw, Entry, Track, changes, esc, page, trace_html, tracks_page
from bgrules.runners.report import SPEC_VERDICTS

_SAFE = re.compile(r"[^A-Za-z0-9._-]+")

_EXTRA_CSS = """
.summary { display: flex; gap: 1rem; flex-wrap: wrap; margin: .6rem 0 1rem; }
.summary div { border: 1px solid var(--line); border-radius: 6px; padding: .5rem .9rem; background: var(--panel); }
.summary b { display: block; font-size: 1.3rem; }
tr.bad td { background: #fdecea; } tr.cx td { background: #fff8e1; } tr.unreached td { color: var(--muted); }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.status { font-weight: 700; white-space: nowrap; }
"""


def trace_name(row: Mapping[str, Any], with_players: bool = False) -> str:
    """The file name of a row's trace page: ``<id>-<checker>.html`` (``with_players``: ``<id>-<checker>-<n>p``,
    for a spec with traces at several player counts) with anything but letters, digits, ``.``, ``_`` and
    ``-`` replaced by ``_`` (as ``--trace-dir`` names its JSON files, made safe)."""
    players = f"-{row['players']}p" if with_players and row.get("players") is not None else ""
    return _SAFE.sub("_", f"{row['id']}-{row['checker']}{players}") + ".html"


def status(row: Mapping[str, Any]) -> str:
    """``ok``, ``ok*`` (an expected counterexample) or ``FAIL``, as the text report marks a row."""
    if not row["ok"]:
        return "FAIL"
    if row["verdict"] == "violated" and row["kind"] != "coverage":
        return "ok*"
    return "ok"


def _details(row: Mapping[str, Any]) -> str:
    parts = []
    if row.get("statement"):
        parts.append(f"<p><b>statement:</b> {esc(row['statement'])}</p>")
    if row.get("rules"):
        parts.append("<p><b>rules:</b> " + " ".join(f"<code>{esc(r)}</code>" for r in row["rules"]) + "</p>")
    if row.get("detail"):
        parts.append(f'<p><b>detail:</b> <span class="mono">{esc(row["detail"])}</span></p>')
    if row.get("witness") is not None:
        witness = json.dumps(row["witness"], indent=1, default=str, ensure_ascii=False)
        parts.append(f'<p><b>witness:</b></p><pre class="mono">{esc(witness)}</pre>')
    if not parts:
        return ""
    return f"<details><summary>more</summary>{''.join(parts)}</details>"


def _row_html(row: Mapping[str, Any], link: str | None) -> str:
    mark = status(row)
    cls = "bad" if mark == "FAIL" else ("cx" if mark == "ok*" else "")
    if isinstance(row.get("trace"), Mapping):
        steps = f"{len(row['trace'].get('actions') or [])} action(s)"
    else:
        steps = "the proof's witness"
    trace = f'<a href="{esc(link)}">step through ({esc(steps)})</a>' if link else ""
    players = f"-{row['players']}p" if row.get("players") is not None else ""
    anchor = esc(_SAFE.sub("_", f"{row['id']}-{row['checker']}{players}"))
    who = f" ({row['players']} players)" if row.get("players") is not None else ""
    return (
        f'<tr class="{cls}" id="{anchor}"><td class="status">{esc(mark)}</td><td><code>{esc(row["id"])}</code>'
        f"{_details(row)}</td><td>{esc(row['kind'])}</td><td>{esc(row['checker'] + who)}</td>"
        f"<td>{esc(row['verdict'])}</td>"
        f"<td>{esc(row['expected'])}</td><td>{esc(row['guarantee'])}</td>"
        f'<td class="num">{float(row["seconds"]):.2f}</td><td>{trace}</td></tr>'
    )


def _coverage_html(table: Mapping[str, Any], complete: bool) -> str:
    """The coverage table; a rule neither reached nor exempt is marked as a failure only in a ``complete``
    run (a partial run is not held to reaching every rule)."""
    rows = []
    for r in table.get("rules") or []:
        checkers = ", ".join(r["checkers"]) or "-"
        cls = "" if r["checkers"] else ("cx" if r["exempt"] else ("bad" if complete else "unreached"))
        rows.append(
            f'<tr class="{cls}"><td><code>{esc(r["id"])}</code></td><td>{esc(r["title"])}</td>'
            f'<td class="num">{esc(r["effects"])}</td><td class="num">{esc(r["refusals"])}</td>'
            f"<td>{esc(checkers)}</td><td>{esc(r['exempt'] or '')}</td></tr>"
        )
    head = (
        f"<p>{esc(table.get('reached'))} of {esc(table.get('total'))} rule IDs reached, "
        f"{esc(table.get('exempt'))} exempt"
        + (
            "."
            if complete
            else "; a partial run (an --only or --checker selection) is not held to reaching every rule."
        )
        + "</p>"
    )
    return (
        '<h2 id="coverage">Rule coverage</h2>'
        + head
        + '<table class="coverage"><tr><th>rule</th><th>title</th><th>effects</th><th>refusals</th>'
        "<th>checkers</th><th>exempt</th></tr>" + "".join(rows) + "</table>"
    )


def _grouped_html(grouped: Sequence[Mapping[str, Any]]) -> str:
    """The verdicts under each spec (:func:`bgrules.runners.report.by_spec`): per checker each row's verdict
    (its player count, or the obligation), or why there is none."""

    head = "".join(f"<th>{esc(c)}</th>" for c in SPEC_VERDICTS)
    lines = []
    for entry in grouped:
        cells = []
        bad = False
        for checker in SPEC_VERDICTS:
            got = entry[checker]
            if not got["rows"]:
                cells.append(f'<td class="muted">- ({esc(got["reason"])})</td>')
                continue
            items = []
            for r in got["rows"]:
                who = r["id"] if checker == "proved" else (f"{r['players']}p" if r.get("players") is not None else "")
                mark = status(r)
                bad = bad or mark == "FAIL"
                items.append(f"{esc(mark)} {esc(r['verdict'])}" + (f" <small>{esc(who)}</small>" if who else ""))
            cells.append("<td>" + "<br>".join(items) + "</td>")
        cls = ' class="bad"' if bad else ""
        lines.append(f"<tr{cls}><td><code>{esc(entry['id'])}</code></td>{''.join(cells)}</tr>")
    return (
        '<h2 id="by-spec">By spec</h2><table class="by-spec"><tr><th>spec</th>'
        + head
        + "</tr>"
        + "".join(lines)
        + "</table>"
    )


def report_html(
    rows: Sequence[Mapping[str, Any]],
    links: Mapping[int, str],
    *,
    title: str = "bgrules verify",
    seconds: float | None = None,
    coverage: Mapping[str, Any] | None = None,
    complete: bool = False,
    meta: Sequence[tuple[str, str]] = (),
    grouped: Sequence[Mapping[str, Any]] | None = None,
) -> str:
    """The index page: ``links`` maps a row's index to its trace page's relative address; ``complete``: the
    run checked everything (its coverage table is held to reaching every rule)."""
    bad = sum(1 for r in rows if not r["ok"])
    cx = sum(1 for r in rows if status(r) == "ok*")
    boxes: list[tuple[str, object]] = [
        ("verdicts", len(rows)),
        ("as expected", len(rows) - bad),
        ("expected counterexamples (ok*)", cx),
        ("unexpected", bad),
        ("counterexample traces", len(links)),
    ]
    if seconds is not None:
        boxes.append(("seconds", f"{seconds:.1f}"))
    summary = '<div class="summary">' + "".join(f"<div><b>{esc(v)}</b>{esc(k)}</div>" for k, v in boxes) + "</div>"
    verdict = "every verdict as expected" if not bad else f"{bad} unexpected verdict(s)"
    lines = [f'<p class="meta"><b>{esc(k)}:</b> {esc(v)}</p>' for k, v in meta]
    body = [
        f"<h1>{esc(title)}: {esc(verdict)}</h1>",
        *lines,
        summary,
        '<p><a href="#results">results</a>'
        + (' &middot; <a href="#by-spec">by spec</a>' if grouped else "")
        + (' &middot; <a href="#coverage">rule coverage</a>' if coverage else "")
        + "</p>",
        '<h2 id="results">Specs, proofs and clarifications</h2>',
        '<table class="results"><tr><th>status</th><th>id</th><th>kind</th><th>checker</th><th>verdict</th>'
        "<th>expected</th><th>guarantee</th><th>seconds</th><th>counterexample</th></tr>",
        *(_row_html(r, links.get(i)) for i, r in enumerate(rows)),
        "</table>",
    ]
    if grouped:
        body.append(_grouped_html(grouped))
    if coverage:
        body.append(_coverage_html(coverage, complete))
    return page(f"{title}: {verdict}", "\n".join(body), css=_EXTRA_CSS)


def _counts_table(counts: Mapping[str, Any]) -> str:
    """A proof's abstract state (counts per place, e.g. ``pile``, ``hands``) as a table: the picture of a
    step of a proof's witness."""
    rows = []
    for place in sorted(counts, key=str):
        value = counts[place]
        if isinstance(value, Mapping):
            text = ", ".join(f"{k} {v}" for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))) or "-"
        else:
            text = json.dumps(value, default=str)
        rows.append(f"<tr><td>{esc(place)}</td><td>{esc(text)}</td></tr>")
    return '<table class="counts"><tr><th>place</th><th>counts</th></tr>' + "".join(rows) + "</table>"


def witness_track(witness: Any) -> Track | None:
    """A proof's counterexample as a track when its witness is a run of steps (``{"trace": [{"counts":
    ...}, {"move", "rules", "params", "counts"}, ...], "broken": {"step", "failing"}}``, the conservation
    proofs' form): per step the move with its parameters, the rules it stands for, the counts, what
    changed and, at the broken step, what fails. None for a witness of another form (shown as JSON)."""
    if not isinstance(witness, Mapping):
        return None
    steps = witness.get("trace")
    if not isinstance(steps, list) or not steps or not all(isinstance(x, Mapping) for x in steps):
        return None
    if not all(isinstance(x.get("counts"), Mapping) for x in steps):
        return None
    broken = witness.get("broken") if isinstance(witness.get("broken"), Mapping) else {}
    failing = broken.get("failing") if isinstance(broken, Mapping) else None
    failure = "; ".join(map(str, failing)) if isinstance(failing, list) else None
    at = broken.get("step") if isinstance(broken, Mapping) else None
    entries = [Entry(_counts_table(steps[0]["counts"]), invariant=failure if at == 0 else None)]
    for i, step in enumerate(steps[1:], start=1):
        params = step.get("params") if isinstance(step.get("params"), Mapping) else {}
        shown = ", ".join(f"{k}={v}" for k, v in params.items())
        diff = changes(steps[i - 1]["counts"], step["counts"])
        rules = step.get("rules") if isinstance(step.get("rules"), list) else []
        entries.append(
            Entry(
                _counts_table(step["counts"]),
                f"{step.get('move', 'step')}({shown})",
                tuple(map(str, rules)),
                failure if at == i else None,
                None,
                tuple(diff),
            )
        )
    return Track("proof", tuple(entries))


def write_report(
    directory: Path,
    rows: Sequence[Mapping[str, Any]],
    *,
    seconds: float | None = None,
    coverage: Mapping[str, Any] | None = None,
    complete: bool = False,
    meta: Sequence[tuple[str, str]] = (),
    draw: Draw | None = None,
    grouped: Sequence[Mapping[str, Any]] | None = None,
) -> Path:
    """Write ``directory/index.html`` and a trace page per row with a trace; return the index's path."""
    directory.mkdir(parents=True, exist_ok=True)
    traces = directory / "traces"
    links: dict[int, str] = {}
    used: set[str] = set()
    shared: dict[tuple[Any, Any], int] = {}
    for row in rows:
        shared[(row.get("id"), row.get("checker"))] = shared.get((row.get("id"), row.get("checker")), 0) + 1
    for i, row in enumerate(rows):
        trace = row.get("trace")
        proof = witness_track(row.get("witness")) if row.get("verdict") == "violated" else None
        if isinstance(trace, Mapping) and (trace.get("actions") or trace.get("initial")):
            label = f"{row['id']} [{row['checker']}]" + (f" ({row['players']} players)" if row.get("players") else "")
            text, _track = trace_html(trace, label, back="../index.html", draw=draw)
        elif proof is not None:
            about = [("statement", str(row.get("statement", ""))), ("guarantee", str(row.get("guarantee", "")))]
            about.append(("states", "the proof's abstract state: counts per place, not a game state"))
            text = tracks_page(f"{row['id']} [{row['checker']}]", [proof], about, back="../index.html", checks=True)
        else:
            continue
        name = trace_name(row, with_players=shared[(row.get("id"), row.get("checker"))] > 1)
        while name in used:  # two rows of one id and checker (never in verify's output; kept apart all the same)
            name = name[: -len(".html")] + "_.html"
        used.add(name)
        traces.mkdir(exist_ok=True)
        (traces / name).write_text(text, encoding="utf-8")
        links[i] = "traces/" + quote(name)
    index = directory / "index.html"
    index.write_text(
        report_html(rows, links, seconds=seconds, coverage=coverage, complete=complete, meta=meta, grouped=grouped),
        encoding="utf-8",
    )
    return index


__all__ = ["report_html", "status", "trace_name", "witness_track", "write_report"]
