"""The pictures and pages of the command line: render --svg/--png, state files that name their game,
replay --html stepping pages, the verify --html report (structure, links, every row, escaping), and the
counterexample pages of diff and check."""

from __future__ import annotations

import html
import json
import re
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from click.testing import CliRunner

import bgrules
from bgrules.cli import main
from bgrules.runners import html as pages
from bgrules.runners.report_html import report_html, write_report
from bgrules.runners.trace import make_trace

FORK_SPLIT = """\
hole[B]  | .  .    .  . | truck
basic[P] | .  FK0  .  . | truck
hole     | .  .    .  . | truck
"""
"""Two bots, one Fork: north they meet in truck 0 (the z3 collision query's witness is Route north)."""

SVG = "{http://www.w3.org/2000/svg}svg"
ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


class Parsed(HTMLParser):
    """The parts of a page the tests look at: links, elements by tag, ids, script sources, sections."""

    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.srcs: list[str] = []
        self.ids: list[str] = []
        self.tags: dict[str, int] = {}
        self.steps: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags[tag] = self.tags.get(tag, 0) + 1
        if a.get("href") is not None:
            self.hrefs.append(a["href"] or "")
        if a.get("src") is not None:
            self.srcs.append(a["src"] or "")
        if a.get("id"):
            self.ids.append(a["id"] or "")
        if tag == "section" and "step" in (a.get("class") or ""):
            self.steps.append(a.get("id") or "")


def parse(text: str) -> Parsed:
    p = Parsed()
    p.feed(text)
    p.close()
    return p


def self_contained(text: str) -> None:
    """No file or address outside the page is fetched: no script/img/link sources, no stylesheet link, no
    url(...) in the CSS; the only http text is the SVG namespace."""
    p = parse(text)
    assert p.srcs == [] and "link" not in p.tags
    assert "url(" not in text
    addresses = set(re.findall(r"https?://[^\s\"'<>]+", text))
    assert addresses <= {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}, addresses


def templates(text: str) -> list[str]:
    return re.findall(r'<template class="picture">(.*?)</template>', text, flags=re.S)


# --- the changes between steps ----------------------------------------------------------------------------


def test_changes_name_every_changed_field_by_path() -> None:
    before = {"a": 1, "b": {"c": [1, 2, 3], "d": "x"}, "gone": True}
    after = {"a": 1, "b": {"c": [1, 5], "d": "y"}, "new": None}
    assert pages.changes(before, after) == [
        ("b.c[1]", "2", "5"),
        ("b.c[2]", "3", "-"),
        ("b.d", '"x"', '"y"'),
        ("gone", "true", "-"),
        ("new", "-", "null"),
    ]
    assert pages.changes(before, before) == []
    assert pages.changes(1, True) == [("(state)", "1", "true")]  # a bool is not the number 1


# --- render ----------------------------------------------------------------------------------------------


def test_render_draws_a_factory_as_text_and_as_svg(tmp_path: Path) -> None:
    factory = tmp_path / "f.txt"
    factory.write_text(FORK_SPLIT)
    code, out, _ = run("render", str(factory))
    assert code == 0 and "FK0" in out and "row 1 basic[P]" in out and "<svg" not in out  # the text renderer
    svg = tmp_path / "f.svg"
    code, out, _ = run("render", str(factory), "--svg", str(svg))
    assert code == 0 and str(svg) in out
    root = ET.fromstring(svg.read_text(encoding="utf-8"))
    assert root.tag == SVG and "Fork" in svg.read_text(encoding="utf-8")


def test_replay_writes_a_state_file_that_names_its_game_and_render_reads_it(tmp_path: Path) -> None:
    actions = tmp_path / "a.json"
    actions.write_text(json.dumps([{"type": "Fabricate", "declare": [], "replace": []}]))
    state_path = tmp_path / "state.json"
    code, bare, _ = run(
        "replay", str(actions), "--game", "mechanica-factory", "-o", "days=2", "--state-out", str(state_path)
    )
    assert code == 0
    data = json.loads(state_path.read_text(encoding="utf-8"))
    assert data["format"] == "bgrules-state" and data["version"] == 1
    assert (data["game"], data["players"], data["options"], data["variant"]) == (
        "mechanica-factory",
        1,
        {"days": 2},
        None,
    )
    # the bare state printed on stdout (the old output) is the same state
    game = bgrules.load_game("mechanica-factory", days=2)
    assert bgrules.dumps(bgrules.loads(game, bare)) == bgrules.dumps(bgrules.loads(game, json.dumps(data["state"])))
    svg = tmp_path / "s.svg"
    code, _, err = run("render", str(state_path), "--svg", str(svg))
    assert code == 0, err
    assert ET.fromstring(svg.read_text(encoding="utf-8")).tag == SVG
    assert "day 2 of 2" in svg.read_text(encoding="utf-8")  # the file's options (days=2) were used
    # a bare state (0.5.0's output) is read with --game; without it, the error says which game it reads as
    bare_path = tmp_path / "bare.json"
    bare_path.write_text(bare)
    code, _, err = run("render", str(bare_path), "--game", "mechanica-factory", "--svg", str(svg))
    assert code == 0, err
    code, _, err = run("render", str(bare_path), "--svg", str(svg))
    assert code == 2 and "names no game" in err and "mechanica-factory" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("game", ["botfactory", "mechanica"])
def test_a_state_of_another_game_is_one_line(tmp_path: Path, game: str) -> None:
    sandbox = bgrules.load_game("mechanica-factory")
    path = tmp_path / "s.json"
    path.write_text(bgrules.dumps(sandbox.initial_state()))
    code, _, err = run("render", str(path), "--game", game, "--svg", str(tmp_path / "x.svg"))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert f"a state of mechanica-factory, not of {game}" in err
    assert not (tmp_path / "x.svg").exists()


def test_a_bare_state_of_another_player_count_is_read_as_that_count(tmp_path: Path) -> None:
    game = bgrules.load_game("botfactory", players=3)
    path = tmp_path / "s.json"
    path.write_text(bgrules.dumps(game.initial_state()))
    svg = tmp_path / "s.svg"
    code, _, err = run("render", str(path), "--game", "botfactory", "--svg", str(svg))
    assert code == 0, err
    assert "3 players" in svg.read_text(encoding="utf-8")
    code, _, err = run("render", str(path), "--game", "botfactory", "--players", "4", "--svg", str(svg))
    assert code == 2 and "a game of 4 players has 4" in err and len(err.strip().splitlines()) == 1
    # a state that breaks its game's shape under every count: the count it breaks least is named
    data = json.loads(path.read_text())
    path.write_text(json.dumps(dict(data, round=-5)))
    code, _, err = run("render", str(path), "--game", "botfactory", "--svg", str(svg))
    assert code == 2 and "round" in err and "read as a state of 3 player(s)" in err


def test_a_truncated_state_file_is_one_line(tmp_path: Path) -> None:
    game = bgrules.load_game("mechanica-factory")
    path = tmp_path / "s.json"
    path.write_text(bgrules.dumps(game.initial_state())[:150])
    code, _, err = run("render", str(path), "--game", "mechanica-factory", "--svg", str(tmp_path / "x.svg"))
    assert code == 2 and "truncated" in err and len(err.strip().splitlines()) == 1


def test_png_names_its_extra_when_cairosvg_is_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    factory = tmp_path / "f.txt"
    factory.write_text(FORK_SPLIT)
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # import cairosvg now raises ImportError
    code, _, err = run("render", str(factory), "--png", str(tmp_path / "f.png"))
    assert code == 2 and "bgrules[png]" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "f.png").exists()


def test_png_is_written_where_cairosvg_is_installed(tmp_path: Path) -> None:
    pytest.importorskip("cairosvg")
    factory = tmp_path / "f.txt"
    factory.write_text(FORK_SPLIT)
    code, _, err = run("render", str(factory), "--svg", str(tmp_path / "f.svg"), "--png", str(tmp_path / "f.png"))
    assert code == 0, err
    assert (tmp_path / "f.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# --- replay --html ----------------------------------------------------------------------------------------


def _sandbox_trace(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """A trace of two days of the sandbox: the run's decisions, a turn, the next run."""
    game = bgrules.load_game("mechanica-factory", factory=FORK_SPLIT, days=2)
    from bgrules.core.playout import playout

    actions = playout(game, 3).actions
    from bgrules.runners.trace import explain

    data = make_trace(
        "mechanica-factory",
        game,
        actions,
        options={"factory": FORK_SPLIT, "days": 2},
        spec="<b>S&P</b>",
        checker="searched",
        steps=explain(game, actions),
    )
    path = tmp_path / "t.json"
    path.write_text(json.dumps(data))
    return path, data


def test_replay_html_is_one_self_contained_page_with_a_section_per_state(tmp_path: Path) -> None:
    path, data = _sandbox_trace(tmp_path)
    out = tmp_path / "t.html"
    code, stdout, err = run("replay", str(path), "--html", str(out))
    assert code == 0 and stdout == "" and str(out) in err
    text = out.read_text(encoding="utf-8")
    self_contained(text)
    p = parse(text)
    n = len(data["actions"])
    assert n >= 3
    assert p.steps == [f"step-{i}" for i in range(n + 1)]
    pictures = templates(text)
    assert len(pictures) == n + 1 and all(ET.fromstring(svg).tag == SVG for svg in pictures)
    assert len(set(pictures)) > 1  # the pictures follow the states
    for step in data["steps"]:
        assert html.escape(step["action"]) in text
        for rule in step["rules"]:
            assert f"<code>{rule}</code>" in text
    assert "what changed" in text and "<td>phase</td>" in text  # the sandbox's phase changes from run to turn
    # each step in game terms, above its fields: who acted and what changed
    stories = re.findall(r'<p class="story">(.*?)</p>', text)
    assert len(stories) == n and all(s.startswith("P1") for s in stories)
    assert text.index('<p class="story">') < text.index("<details>")
    # the trace's text is escaped: its spec's markup shows as text
    assert "<b>S&P</b>" not in text and "&lt;b&gt;S&amp;P&lt;/b&gt;" in text
    for button in ("first", "prev", "next", "last", "counter"):
        assert button in p.ids
    # the same trace gives the same page
    run("replay", str(path), "--html", str(tmp_path / "u.html"))
    assert (tmp_path / "u.html").read_text(encoding="utf-8") == text


def test_replay_html_shows_a_refused_last_action(tmp_path: Path) -> None:
    actions = tmp_path / "a.json"
    actions.write_text(json.dumps([{"type": "Sell", "row": 1, "bot": "DELUXE"}]))
    out = tmp_path / "a.html"
    code, _, err = run("replay", str(actions), "--game", "mechanica-factory", "--html", str(out))
    assert code == 0 and "refused" in err and "MC-" in err
    text = out.read_text(encoding="utf-8")
    assert 'class="refused"' in text and len(parse(text).steps) == 2


# --- verify --html ---------------------------------------------------------------------------------------


def _links(index: Path) -> list[str]:
    return [h for h in parse(index.read_text(encoding="utf-8")).hrefs if not h.startswith("#")]


def test_verify_html_report_has_every_row_and_links_that_resolve(tmp_path: Path) -> None:
    report = tmp_path / "report"
    code, out, err = run(
        "verify", "--only", "COLLI", "--checker", "searched", "--checker", "proved", "--html", str(report), "--json"
    )
    assert code == 0, err
    rows = json.loads(out)
    assert {r["kind"] for r in rows} == {"spec", "proof"} and len(rows) >= 5
    index = report / "index.html"
    text = index.read_text(encoding="utf-8")
    self_contained(text)
    p = parse(text)
    for row in rows:
        anchor = re.sub(r"[^A-Za-z0-9._-]+", "_", f"{row['id']}-{row['checker']}")
        assert anchor in p.ids
        block = text[text.index(f'id="{anchor}"') :].split("</tr>", 1)[0]
        for key in ("id", "kind", "checker", "verdict", "expected", "guarantee"):
            assert html.escape(str(row[key])) in block, (key, row[key])
    assert "Rule coverage" in text and "<code>MC-COLLIDE</code>" in text
    links = _links(index)
    from bgrules.runners.report_html import witness_track

    traced = [r for r in rows if r.get("trace")]
    stepped = [r for r in rows if r["verdict"] == "violated" and witness_track(r["witness"]) is not None]
    assert traced and len(links) == len(traced) + len(stepped)
    for link in links:
        target = (report / unquote(link)).resolve()
        assert target.is_file() and target.parent == (report / "traces").resolve()
        page = target.read_text(encoding="utf-8")
        self_contained(page)
        back = [h for h in parse(page).hrefs if not h.startswith("#")]
        assert back == ["../index.html"] and (target.parent / back[0]).resolve() == index.resolve()
        assert len(templates(page)) == len(parse(page).steps) >= 2


def test_a_proofs_counterexample_steps_through_its_witness(tmp_path: Path) -> None:
    report = tmp_path / "report"
    code, out, err = run(
        "verify", "--only", "RESHUFFLE-UNGUARDED", "--checker", "proved", "--html", str(report), "--json"
    )  # fmt: skip
    assert code == 0, err
    (row,) = json.loads(out)
    assert row["verdict"] == row["expected"] == "violated" and row["trace"] is None
    witness = row["witness"]
    (link,) = _links(report / "index.html")
    page = (report / unquote(link)).read_text(encoding="utf-8")
    self_contained(page)
    steps = witness["trace"]
    assert len(parse(page).steps) == len(steps) >= 2
    for failing in witness["broken"]["failing"]:
        assert html.escape(failing) in page
    for rule in steps[1]["rules"]:
        assert f"<code>{rule}</code>" in page
    assert page.count('<table class="counts">') == len(steps)
    # a witness that is not a run of steps has no page (it is shown as JSON in its row)
    from bgrules.runners.report_html import witness_track

    assert witness_track({"held": 1, "failing": ["x"]}) is None and witness_track(None) is None
    assert witness_track(witness) is not None


def _header(index: Path) -> dict[str, str]:
    """The index's header lines (``<p class="meta"><b>key:</b> value</p>``) as key -> value."""
    text = index.read_text(encoding="utf-8")
    return {
        html.unescape(k): html.unescape(v) for k, v in re.findall(r'<p class="meta"><b>([^<]*):</b> ([^<]*)</p>', text)
    }


def _figures(index: Path) -> dict[str, str]:
    """The index's summary boxes (``<div><b>value</b>label</div>``) as label -> value."""
    text = index.read_text(encoding="utf-8")
    box = text[text.index('<div class="summary">') :].split("</div></div>", 1)[0] + "</div>"
    return {html.unescape(k): html.unescape(v) for v, k in re.findall(r"<div><b>([^<]*)</b>([^<]*)</div>", box)}


def test_the_index_header_names_the_version_and_selection_after_a_proofs_page(tmp_path: Path) -> None:
    # a proof's witness page is written before the index, with its own statement and guarantee lines: the
    # index keeps the run's own header whatever pages came before it
    report = tmp_path / "report"
    code, out, err = run(
        "verify", "--only", "RESHUFFLE-UNGUARDED", "--checker", "proved", "--html", str(report), "--json"
    )
    assert code == 0, err
    (row,) = json.loads(out)
    assert len(_links(report / "index.html")) == 1  # the witness page was written
    header = _header(report / "index.html")
    assert header == {
        "bgrules": bgrules.__version__,
        "selection": "checkers proved; ids containing 'RESHUFFLE-UNGUARDED'",
    }
    assert row["statement"] not in header.values() and row["guarantee"] not in header.values()
    figures = _figures(report / "index.html")
    assert figures["verdicts"] == "1" and figures["counterexample traces"] == "1"
    assert figures["expected counterexamples (ok*)"] == "1" and figures["unexpected"] == "0"
    assert float(figures["seconds"]) >= 0


def test_the_index_of_a_full_default_run_names_version_selection_and_figures(tmp_path: Path) -> None:
    # the whole default run (every checker, no --only: ~25-50 s on 2 cores), in the default test run: the
    # main job's every verdict as expected, spec traces and proof witness pages, the coverage row held to
    # every rule, and the header of a complete run
    report = tmp_path / "report"
    code, out, err = run("verify", "--html", str(report), "--json", "--quiet")
    assert code == 0, err
    rows = json.loads(out)
    index = report / "index.html"
    assert _header(index) == {
        "bgrules": bgrules.__version__,
        "selection": "checkers sampled, searched, explored, proved, clarified",
    }
    figures = _figures(index)
    assert figures["verdicts"] == str(len(rows)) and figures["unexpected"] == "0"
    assert figures["counterexample traces"] == str(len(_links(index)))
    from bgrules.runners.report_html import status, witness_track

    assert figures["expected counterexamples (ok*)"] == str(sum(1 for r in rows if status(r) == "ok*"))
    assert any(r.get("trace") for r in rows) and any(witness_track(r["witness"]) for r in rows)
    assert rows[-1]["kind"] == "coverage" and "every verdict as expected" in index.read_text(encoding="utf-8")


def test_an_unexpected_verdict_is_in_the_report_with_its_trace(tmp_path: Path) -> None:
    specs = tmp_path / "specs"
    specs.mkdir()
    text = (ROOT / "specs" / "mechanica-factory.toml").read_text(encoding="utf-8")
    block = text[text.index('id = "MC-Q-COLLISIONS-HAPPEN"') :]
    block = block[: block.index("[[spec]]")] if "[[spec]]" in block else block
    block = block.replace('expected = "violated"', 'expected = "holds"').replace("MC-Q-COLLISIONS-HAPPEN", "X-CLAIM")
    (specs / "claim.toml").write_text("[[spec]]\n" + block, encoding="utf-8")
    report = tmp_path / "report"
    code, _, _ = run("verify", "--specs", str(specs), "--checker", "searched", "--examples", "5", "--html", str(report))
    assert code == 1  # the report is written all the same
    index = (report / "index.html").read_text(encoding="utf-8")
    assert "1 unexpected verdict(s)" in index
    block = index[index.index('id="X-CLAIM-searched"') :].split("</tr>", 1)[0]
    assert "FAIL" in block and "<td>violated</td><td>holds</td>" in block
    assert (report / "traces" / "X-CLAIM-searched.html").is_file() and 'href="traces/X-CLAIM-searched.html"' in block


def test_a_truncated_trace_is_one_line(tmp_path: Path) -> None:
    path, _data = _sandbox_trace(tmp_path)
    path.write_text(path.read_text()[:200])
    code, _, err = run("replay", str(path), "--html", str(tmp_path / "t.html"))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "t.html").exists()


def test_report_escapes_every_text(tmp_path: Path) -> None:
    nasty = "<script>alert(\"x\")</script> & 'q'"
    row = {
        "id": nasty,
        "kind": "spec",
        "statement": nasty,
        "rules": [nasty],
        "checker": "sampled",
        "verdict": "violated",
        "expected": "holds",
        "guarantee": nasty,
        "seconds": 0.5,
        "ok": False,
        "detail": nasty,
        "witness": {"w": nasty},
        "trace": None,
    }
    coverage = {
        "total": 1,
        "reached": 0,
        "exempt": 0,
        "rules": [{"id": nasty, "title": nasty, "effects": 0, "refusals": 0, "checkers": [], "exempt": nasty}],
    }
    text = report_html([row], {}, coverage=coverage, meta=[("selection", nasty)])
    assert "<script>" not in text and 'alert("x")' not in text
    assert html.escape(nasty) in text
    assert "FAIL" in text and "1 unexpected verdict(s)" in text
    # a trace page of a spec with markup in its name, linked from a report
    game = bgrules.load_game("mechanica-factory")
    trace = make_trace("mechanica-factory", game, game.legal_actions(game.initial_state())[:1], spec=nasty)
    index = write_report(tmp_path, [dict(row, trace=trace)])
    (link,) = _links(index)
    page = (tmp_path / unquote(link)).read_text(encoding="utf-8")
    assert page.count("<script>") == 1  # the page's own script, and nothing from the trace
    assert html.escape(nasty) in page


# --- diff and check ---------------------------------------------------------------------------------------


def test_diff_writes_a_trace_per_variant_and_a_page_with_both(tmp_path: Path) -> None:
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    a.write_text('[rulings]\noff_floor = "destroy"\n')
    b.write_text('[rulings]\noff_floor = "forbid"\n')
    traces, page = tmp_path / "traces", tmp_path / "diff.html"
    code, out, err = run(
        "diff", "--game", "mechanica-factory", "--variant", str(a), "--variant", str(b),
        "-o", 'supply=["upgrader"]', "--trace-dir", str(traces), "--html", str(page),
    )  # fmt: skip
    assert code == 0, err
    assert "difference after 1 action(s)" in out
    code, _, _ = run("replay", str(traces / "A.json"))
    assert code == 0  # the action is legal under A ...
    code, _, err = run("replay", str(traces / "B.json"))
    assert code == 2 and "MC-MOVE-OFF" in err  # ... and refused under B
    text = page.read_text(encoding="utf-8")
    self_contained(text)
    assert text.count('class="track"') == 4  # A and B, at the initial state and after the action
    assert f"A: {html.escape(str(a))}" in text and f"B: {html.escape(str(b))}" in text
    assert "refused by <code>MC-MOVE-OFF</code>" in text


def test_check_writes_the_collision_witness_as_a_trace_and_a_page(tmp_path: Path) -> None:
    factory = tmp_path / "f.txt"
    factory.write_text(FORK_SPLIT)
    trace, page = tmp_path / "c.json", tmp_path / "c.html"
    code, out, err = run("check", str(factory), "--trace", str(trace), "--html", str(page))
    assert code == 0 and "collide in the next workday? yes" in out, err
    data = json.loads(trace.read_text(encoding="utf-8"))
    assert data["game"] == "mechanica-factory" and data["actions"][0] == {
        "type": "Route",
        "row": 1,
        "col": 1,
        "exit": "N",
    }
    code, final, _ = run("replay", str(trace))
    assert code == 0
    game = bgrules.load_game("mechanica-factory", factory=FORK_SPLIT, days=1)
    assert bgrules.loads(game, final).collisions == 1  # the replayed witness does collide
    text = page.read_text(encoding="utf-8")
    self_contained(text)
    assert "MC-COLLIDE" in text and len(parse(text).steps) == len(data["actions"]) + 1
    # a factory with no collision writes nothing, and says so
    safe = tmp_path / "safe.txt"
    safe.write_text(FORK_SPLIT.replace("hole[B] ", "hole    "))
    code, _, err = run("check", str(safe), "--trace", str(tmp_path / "none.json"))
    assert code == 0 and "no collision" in err and not (tmp_path / "none.json").exists()


FLIGHT = "hole | . . . . | truck\nbasic[B] | FK0 FT0 UP0 . | truck\nhole | . . . . | truck\n"
"""docs/ruling-diff.md's flight example: a Fork sends the bot to a Flight Tester, which may throw it back."""


def test_the_flight_example_is_drawn_by_render_replay_check_and_diff(tmp_path: Path) -> None:
    """docs/ruling-diff.md's flight example makes its pages; a bot landing from a Flight Tester's throw (here on
    a second Flight Tester, where it chooses again) is drawn by render, replay --html and replay --step."""
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    a.write_text('[rulings]\nflight = "flat_side"\n')
    b.write_text('[rulings]\nflight = "both_ways"\n')
    traces, page = tmp_path / "traces", tmp_path / "diff.html"
    code, out, err = run(
        "diff", "--game", "mechanica-factory", "--variant", str(a), "--variant", str(b),
        "-o", "factory=" + json.dumps(FLIGHT), "-o", "supply=[]", "--trace-dir", str(traces), "--html", str(page),
    )  # fmt: skip
    assert code == 0, err
    text = page.read_text(encoding="utf-8")
    assert all(ET.fromstring(svg).tag == SVG for svg in templates(text))
    assert '<p class="story">P1&#x27;s Fork on row 1, column 0 sent the Basic bot' in text
    for label in ("A", "B"):
        code, _, err = run("replay", str(traces / f"{label}.json"), "--html", str(tmp_path / f"{label}.html"))
        assert code == 0, err
    twice = "hole | . . . . | truck\nbasic[B] | FT0 FT0 . . | truck\nhole | . . . . | truck\n"
    actions = tmp_path / "land.json"
    actions.write_text(json.dumps([{"type": "Fly", "row": 1, "col": 0, "to_row": 1, "to_col": 1}]))
    state = tmp_path / "land.state.json"
    options = ("--game", "mechanica-factory", "-o", "factory=" + json.dumps(twice), "-o", "supply=[]")
    code, _, err = run("replay", str(actions), *options, "--html", str(tmp_path / "l.html"), "--state-out", str(state))
    assert code == 0, err
    landing = 'data-place="moving 1 1 L"'
    assert landing in templates((tmp_path / "l.html").read_text(encoding="utf-8"))[-1]
    code, _, err = run("render", str(state), "--svg", str(tmp_path / "l.svg"))
    assert code == 0 and landing in (tmp_path / "l.svg").read_text(encoding="utf-8"), err
    code, stdout, err = run("replay", str(actions), *options, "--step")
    assert code == 0 and "P1's Flight Tester on row 1, column 0 threw the Basic bot onto row 1, column 1" in stdout
    factory = tmp_path / "flight.txt"  # a Fork above sends a second bot down to meet the first
    factory.write_text("hole[P] | . . FK1 . | truck\n" + FLIGHT.split("\n", 1)[1])
    code, out, err = run("check", str(factory), "--html", str(tmp_path / "c.html"))
    assert code == 0 and "collide in the next workday? yes" in out, err
    # which collision the search shows first can depend on the memos earlier work in the process left
    # (the closing note of 0.8.0): the page must narrate one, settled by destroying a crowding bot
    page_text = (tmp_path / "c.html").read_text(encoding="utf-8")
    settled = r"destroyed a \w+ bot of those crowding the (truck|holes) of row \d[^<]* \(a collision\)"
    assert re.search(settled, page_text)
