"""The seeds' figures pinned (bgrules.core.figures): the tables quote their seed lines, the default variants
depart from none, a variant file's departures are reported, and a changed figure in the default component data
fails the verify specs BF-FIG-SEED and MC-FIG-SEED."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import pytest
from click.testing import CliRunner

import bgrules.botfactory.variant as bf_variant
import bgrules.mechanica.components as mc_components
from bgrules.cli import main
from bgrules.core.figures import departures, seed_figures
from bgrules.core.registry import load_game
from bgrules.runners.specfile import Budget, load_specs
from bgrules.runners.specs import run_spec

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT.parent / "shared" / "seeds"


@pytest.mark.parametrize("game", ["botfactory", "mechanica"])
def test_each_pinned_figure_quotes_its_seed_line(game: str) -> None:
    figures = seed_figures(game)
    assert figures
    for fig in figures:
        path = SEEDS / fig.file
        if not path.exists():
            pytest.skip("the seeds are outside the repository")
        line = path.read_text(encoding="utf-8").splitlines()[fig.line - 1]
        assert fig.quote in line, f"{fig.name}: {fig.quote} is not on line {fig.line} of {fig.file}"
        assert fig.english


@pytest.mark.parametrize("game", ["botfactory", "mechanica"])
def test_the_default_variants_depart_from_no_seed_figure(game: str) -> None:
    for players in (2, 4):
        assert departures(load_game(game, players=players)) == []


def test_the_pinned_figures_are_the_seeds_numbers() -> None:
    by_name = {f.name: f.seed for g in ("botfactory", "mechanica") for f in seed_figures(g)}
    assert by_name == {
        "token_cap": 9,
        "part_limit": 5,
        "project_limit": 5,
        "first_part_reward": 2,
        "second_part_reward": 2,
        "tokens_per_point": 2,
        "part_penalty": -1,
        "project_penalty": -2,
        "start_money": (5, 1, 1, 1),
        "shop_prices": (7, 5, 4, 3, 2),
        "bot_sales": (2, 4, 6),
        "fork_price": 1,
        "big_truck_price": 3,
        "big_truck_capacity": 2,
        "huge_truck_price": 5,
        "huge_truck_capacity": 3,
        "big_to_huge_price": 3,
    }


def test_a_variant_changing_the_token_cap_departs_from_line_6(tmp_path: Path) -> None:
    path = tmp_path / "cap.toml"
    path.write_text("[counts]\ntoken_cap = 8\n", encoding="utf-8")
    found = departures(load_game("botfactory", variant=str(path)))
    assert found == [
        {"figure": "token_cap", "seed": 9, "variant": 8, "line": 6, "quote": "話語指示物的持有上限是 9 個"}
    ]


def test_a_variant_changing_a_shop_price_or_a_truck_departs_from_their_lines(tmp_path: Path) -> None:
    path = tmp_path / "shop.toml"
    path.write_text("[shop]\nprices = [7, 5, 4, 3, 1]\n\n[tiles.huge_truck]\nupgrade_price = 2\n", encoding="utf-8")
    found = departures(load_game("mechanica", variant=str(path)))
    assert [(d["figure"], d["seed"], d["variant"], d["line"]) for d in found] == [
        ("shop_prices", [7, 5, 4, 3, 2], [7, 5, 4, 3, 1], 91),
        ("big_to_huge_price", 3, 2, 113),
    ]


def _spec(spec_id: str) -> object:
    return next(s for s in load_specs(ROOT / "specs") if s.id == spec_id)


def test_verify_holds_on_the_seed_figures() -> None:
    for spec_id in ("BF-FIG-SEED", "MC-FIG-SEED"):
        (report,) = run_spec(_spec(spec_id), Budget())  # type: ignore[arg-type]
        assert report.verdict == "holds", report.detail


MEMOS = (
    ("bgrules.mechanica.evaluate", "_MEMO"),
    ("bgrules.runners.sampled", "_AGENT_GAMES"),
)
"""The module-level memos a patched default component data could leave results in (the games of the
patched data are not a user's: no variant file changes the default in place); the memos a catalogue owns
go with it."""


@pytest.fixture
def patched_defaults(monkeypatch: pytest.MonkeyPatch) -> Any:
    """``monkeypatch``, and the memos emptied after the test, so later tests see the real default data."""
    import importlib

    yield monkeypatch
    monkeypatch.undo()
    for module, name in MEMOS:
        getattr(importlib.import_module(module), name).clear()


def test_a_changed_token_cap_in_the_component_data_fails_verify(patched_defaults: pytest.MonkeyPatch) -> None:
    monkeypatch = patched_defaults
    broken = bf_variant.default_components()
    monkeypatch.setattr(bf_variant, "_DEFAULT", attrs.evolve(broken, counts=attrs.evolve(broken.counts, token_cap=10)))
    (report,) = run_spec(_spec("BF-FIG-SEED"), Budget())  # type: ignore[arg-type]
    assert report.verdict == "violated"
    assert "token_cap is 10, the seed says 9" in report.detail
    assert "000_a7a09e9bc70ab148.txt line 6: 話語指示物的持有上限是 9 個" in report.detail


def test_a_changed_truck_capacity_in_the_component_data_fails_verify(patched_defaults: pytest.MonkeyPatch) -> None:
    monkeypatch = patched_defaults
    cat = mc_components.default_catalogue()
    tiles = dict(cat.tiles)
    tiles["big_truck"] = attrs.evolve(tiles["big_truck"], capacity=3)
    monkeypatch.setattr(mc_components, "_DEFAULT", attrs.evolve(cat, tiles=tiles))
    (report,) = run_spec(_spec("MC-FIG-SEED"), Budget())  # type: ignore[arg-type]
    assert report.verdict == "violated"
    assert "big_truck_capacity is 3, the seed says 2" in report.detail
    assert "line 113: 大型トラックは価格３でボットを２体積めます" in report.detail


def test_simulate_and_balance_report_a_variants_seed_departures(tmp_path: Path) -> None:
    path = tmp_path / "cap.toml"
    path.write_text("[counts]\ntoken_cap = 8\n", encoding="utf-8")
    for command, jobs in (
        ("simulate", ()),
        ("balance", ()),
        ("simulate", ("--jobs", "1")),
        ("balance", ("--jobs", "1")),
    ):
        args = [command, "--game", "botfactory", "--games", "1", "--variant", str(path), *jobs]
        result = CliRunner().invoke(main, [*args, "--json"], catch_exceptions=False)
        found = json.loads(result.stdout)["seed_departures"]
        assert [(d["figure"], d["seed"], d["variant"], d["line"]) for d in found] == [("token_cap", 9, 8, 6)]
        text = CliRunner().invoke(main, args, catch_exceptions=False).stdout
        assert "seed figures departed from: token_cap 8 (seed 9, line 6)" in text


def test_a_changed_penalty_in_the_engines_scoring_fails_verify(monkeypatch: pytest.MonkeyPatch) -> None:
    from bgrules.botfactory.round import RoundFlow

    scores = RoundFlow.scores

    def harsher(self: RoundFlow, state: Any) -> tuple[int, ...]:  # -3 per unfinished Project, not -2
        return tuple(s - len(h.projects) for s, h in zip(scores(self, state), state.hands, strict=True))

    monkeypatch.setattr(RoundFlow, "scores", harsher)
    (report,) = run_spec(_spec("BF-FIG-SEED"), Budget())  # type: ignore[arg-type]
    assert report.verdict == "violated"
    assert "project_penalty is -3, the seed says -2" in report.detail
    assert "line 147: 每一個未完成的專案板塊扣兩分。" in report.detail


def test_docs_verify_lists_each_pinned_figure_with_its_quote_and_line() -> None:
    text = (ROOT / "docs" / "verify.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip(): line for line in text.splitlines() if line.startswith("| `")}
    for game in ("botfactory", "mechanica"):
        for fig in seed_figures(game):
            row = rows[f"`{fig.name}`"]
            cells = [c.strip() for c in row.strip().strip("|").split("|")]
            assert cells[2:] == [fig.quote, fig.english, str(fig.line)], fig.name


def test_diff_reports_each_variants_seed_departures(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text("[rulings]\n", encoding="utf-8")
    (tmp_path / "b.toml").write_text("[counts]\ntoken_cap = 8\n", encoding="utf-8")
    args = ["diff", "--game", "botfactory", "--nodes", "20", "--depth", "2"]
    args += ["--variant", str(tmp_path / "a.toml"), "--variant", str(tmp_path / "b.toml")]
    result = CliRunner().invoke(main, [*args, "--json"], catch_exceptions=False)
    found = json.loads(result.stdout)["seed_departures"]
    assert found["A"] == [] and [d["figure"] for d in found["B"]] == ["token_cap"]
    text = CliRunner().invoke(main, args, catch_exceptions=False).stdout
    assert "A: seed figures: the variant departs from none" in text
    assert "B: seed figures departed from: token_cap 8 (seed 9, line 6)" in text


def test_a_changed_placement_reward_in_the_engine_fails_verify(monkeypatch: pytest.MonkeyPatch) -> None:
    from bgrules.botfactory import assembly
    from bgrules.botfactory.tokens import Tokens

    place = assembly.place

    def generous(game: Tokens, state: Any, seat: int, action: Any, rule: str) -> Any:  # 3 tokens, not 2
        after = place(game, state, seat, action, rule)
        hand = after.hands[seat]
        if hand.done == state.hands[seat].done:
            after = game._gain(after, seat, 1)
        return after

    monkeypatch.setattr(assembly, "place", generous)
    (report,) = run_spec(_spec("BF-FIG-SEED"), Budget())  # type: ignore[arg-type]
    assert report.verdict == "violated"
    assert "first_part_reward is 3, the seed says 2" in report.detail
    assert "second_part_reward is 3, the seed says 2" in report.detail
    assert "line 52: 獲得兩個自己顏色的話語指示物。" in report.detail
