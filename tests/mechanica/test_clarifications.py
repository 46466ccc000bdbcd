"""The Mechanica clarifications of issues 8 and 21 depend on what they clarify: switching the ruling (or, for the
two-bot consequence of the assumed data, correcting the data) makes a witness fail."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from bgrules.runners.clarify import check_clarification, clarification_from_data

DIRECTORY = Path(__file__).resolve().parents[2] / "specs" / "clarifications"


def _data(name: str) -> dict[str, Any]:
    data = tomllib.loads((DIRECTORY / name).read_text("utf-8"))
    data["property"] = []
    return data


def _verdicts(data: dict[str, Any], name: str) -> dict[str, str]:
    reports = check_clarification(clarification_from_data(data, name))
    return {r.id.split("/", 1)[1]: r.verdict for r in reports if r.checker == "witness"}


@pytest.mark.parametrize(
    ("name", "other", "both"),
    [
        ("mc-anytime.toml", {"anytime": "steps_1_3"}, set()),
        ("mc-anytime.toml", {"anytime": "every_step"}, {"*"}),  # the waits are open under both readings
        ("mc-anytime-shop-turn.toml", {"anytime": "every_step"}, set()),
        ("mc-anytime-shop-turn.toml", {"anytime": "steps_1_3"}, set()),
        # a throw over the Fork to a cell beyond it is legal under both readings
        ("mc-flight-landing.toml", {"flight_landing": "any_cell"}, {"thrown-over-the-fork-with-a-jump"}),
        ("mc-blueprint-match.toml", {"blueprint_match": "whole"}, set()),
    ],
)
def test_switching_the_ruling_makes_the_files_own_witnesses_fail(
    name: str, other: dict[str, Any], both: set[str]
) -> None:
    data = _data(name)
    assert set(_verdicts(data, name).values()) == {"holds"}
    own = {w["name"] for w in data["witness"] if not set(w.get("ruling", {})) & set(other)}
    both = own if both == {"*"} else both
    data["ruling"] = {**data.get("ruling", {}), **other}
    verdicts = _verdicts(data, name)
    assert own and all(verdicts[w] == "violated" for w in own - both), verdicts
    assert all(verdicts[w] == "holds" for w in both), verdicts


@pytest.mark.parametrize(
    ("name", "key", "both"),
    [
        ("mc-anytime.toml", "anytime", set()),
        ("mc-anytime-shop-turn.toml", "anytime", set()),
        ("mc-flight-landing.toml", "flight_landing", set()),
        # an exact load completes the card under both readings: the witness shows "whole" still allows it
        ("mc-blueprint-match.toml", "blueprint_match", {"whole-an-exact-load-completes"}),
    ],
)
def test_the_other_readings_witnesses_fail_under_the_default(name: str, key: str, both: set[str]) -> None:
    data = _data(name)
    theirs = [w["name"] for w in data["witness"] if key in w.get("ruling", {})]
    assert theirs
    for w in data["witness"]:
        w.pop("ruling", None)
    verdicts = _verdicts(data, name)
    assert {w for w in theirs if verdicts[w] == "violated"} == set(theirs) - both, verdicts
    assert all(verdicts[w] == "holds" for w in both)


def _with_tiles(data: dict[str, Any], tiles: dict[str, Any], name: str = "mc-two-bots.toml") -> dict[str, str]:
    """The witness verdicts on corrected tile data (what a box holder's variant file does)."""
    reports = check_clarification(clarification_from_data(data, name, {"tiles": tiles}))
    return {r.id.split("/", 1)[1]: r.verdict for r in reports if r.checker == "witness"}


def test_two_bots_witnesses_hold_on_the_assumed_data() -> None:
    assert set(_verdicts(_data("mc-two-bots.toml"), "mc-two-bots.toml").values()) == {"holds"}


def test_a_corrected_truck_capacity_shows_which_two_bot_witnesses_change() -> None:
    """The printed truck's capacity 1 is assumed: were it 2, the printed-truck witnesses fail (both bots
    delivered) and the Big Truck, Upgrader and Fork witnesses still hold."""
    verdicts = _with_tiles(_data("mc-two-bots.toml"), {"truck": {"capacity": 2}})
    assert verdicts == {
        "advanced-printed-truck-one-destroyed": "violated",
        "advanced-big-truck-both-delivered": "violated",  # it counts the run's collisions: row 0 has none now
        "static-charger-printed-truck-one-destroyed": "violated",
        "static-charger-big-truck-both-delivered": "holds",
        "advanced-a-one-bot-hole-on-the-way": "holds",
        "advanced-a-fork-parts-them": "holds",
    }


def test_a_second_hole_leaving_north_is_destroyed_by_the_start_zone_geometry() -> None:
    """A corrected Advanced Fabricator whose second hole leaves north: the model launches Start Zone bots
    west of column 0, so that bot leaves the floor (MC-MOVE-OFF) - the Big Truck witness fails with one
    bot destroyed, which is what docs/rules/mechanica.md warns a box holder of."""
    verdicts = _with_tiles(
        _data("mc-two-bots.toml"),
        {"advanced_fabricator": {"edges": ["exit", "exit", "flat", "flat"], "outputs": ["E", "N"]}},
    )
    assert verdicts["advanced-big-truck-both-delivered"] == "violated"
    assert verdicts["static-charger-big-truck-both-delivered"] == "holds"


def test_the_cli_runs_a_games_clarifications_on_a_corrected_data_file(tmp_path: Path) -> None:
    """``bgrules clarify --game G --variant FILE``: the same verdicts as the library call, exit 1 when the
    corrected data changes a witness; a variant without --game is refused."""
    from click.testing import CliRunner

    from bgrules.cli import main

    box = tmp_path / "box.toml"
    box.write_text("[tiles.truck]\ncapacity = 2\n", encoding="utf-8")
    runner = CliRunner()
    path = str(DIRECTORY / "mc-two-bots.toml")
    result = runner.invoke(main, ["clarify", path, "--game", "mechanica-factory", "--variant", str(box), "--json"])
    assert result.exit_code == 1, result.output
    rows = {r["id"].split("/", 1)[1]: r for r in json.loads(result.stdout)}  # stdout: the JSON alone
    assert rows["advanced-printed-truck-one-destroyed"]["verdict"] == "violated"
    assert rows["advanced-printed-truck-one-destroyed"]["detail"].startswith("base variant (tiles)")
    assert rows["advanced-a-fork-parts-them"]["verdict"] == "holds"
    plain = runner.invoke(main, ["clarify", path, "--json"])
    assert plain.exit_code == 0, plain.output
    lone = runner.invoke(main, ["clarify", path, "--variant", str(box)])
    assert lone.exit_code == 2 and "--game" in lone.output
    other = runner.invoke(main, ["clarify", path, "--game", "botfactory", "--variant", str(box)])
    assert other.exit_code == 2 and "no clarification of game 'botfactory'" in other.output
