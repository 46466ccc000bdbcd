"""Rule clarifications (bgrules.runners.clarify, specs/clarifications/*.toml)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from bgrules import InputError
from bgrules.runners.clarify import (
    check_clarification,
    check_files,
    clarification_from_data,
    load_clarification,
)

ROOT = Path(__file__).resolve().parents[2]
DIRECTORY = ROOT / "specs" / "clarifications"
FILES = sorted(DIRECTORY.glob("*.toml"))


def _data(name: str) -> dict[str, Any]:
    return tomllib.loads((DIRECTORY / name).read_text("utf-8"))


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "c.toml"
    path.write_text(text, encoding="utf-8")
    return path


MINIMAL = """
id = "T-CL"
question = "Q?"
answer = "A."
game = "mechanica-factory"
rules = ["MC-MOVE-OFF"]
[options]
days = 1
[[witness]]
name = "w"
actions = [{ type = "Fabricate" }]
expect = { terminal = true }
"""


def test_at_least_twelve_files() -> None:
    assert len(FILES) >= 12


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_file_checks_out(path: Path) -> None:
    c = load_clarification(path)
    assert c.witnesses, "a clarification has a witness"
    assert c.properties, "a clarification has a property"
    reports = check_clarification(c)
    bad = [f"{r.id} {r.checker}: {r.verdict} (expected {r.expected}) {r.detail}" for r in reports if not r.ok]
    assert not bad, bad
    witnesses = [r for r in reports if r.checker == "witness"]
    assert len(witnesses) == len(c.witnesses)
    assert all(r.guarantee.startswith("scenario: ") and "replayed" in r.guarantee for r in witnesses)
    assert all(r.kind == "clarification" for r in reports)


def test_check_files_takes_a_directory_and_ids_are_unique() -> None:
    reports = check_files([DIRECTORY])
    assert reports and all(r.ok for r in reports)
    assert len({r.id + r.checker for r in reports}) == len(reports)


def test_minimal_file_holds(tmp_path: Path) -> None:
    (report,) = check_files([_write(tmp_path, MINIMAL)])
    assert (report.verdict, report.expected, report.checker) == ("holds", "holds", "witness")
    assert report.guarantee == "scenario: 1 action replayed"


def test_bad_toml_is_input_error(tmp_path: Path) -> None:
    path = _write(tmp_path, MINIMAL + "\nthis is = = not toml\n")
    with pytest.raises(InputError) as info:
        load_clarification(path)
    assert str(path) in str(info.value)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (MINIMAL + 'colour = "red"\n', "unknown key(s) colour"),
        (MINIMAL.replace("expect = {", "expected_outcome = 1\nexpect = {"), "witness[0]"),
        (MINIMAL.replace("terminal = true", "terminal = true, colour = 1"), "witness[0]"),
        (MINIMAL.replace('type = "Fabricate"', 'type = "Teleport"'), "witness[0].actions[0]"),
        (MINIMAL.replace('type = "Fabricate"', 'type = "Install", kind = "fork"'), "witness[0].actions[0]"),
        (MINIMAL + "[ruling]\noff_floor = 'sometimes'\n", "[rulings]"),
        (MINIMAL + "[ruling]\nno_such_ruling = 1\n", "[rulings]"),
        (MINIMAL.replace('rules = ["MC-MOVE-OFF"]', ""), "missing rules"),
        (MINIMAL.replace("days = 1", "days = 0"), "days"),
        (MINIMAL + "[[property]]\npredicate = 'bgrules.mechanica.invariants:no_such'\n", "property[0]"),
        (MINIMAL + "[[property]]\npredicate = 'bgrules.mechanica.invariants:bots_conserved'\nkind = 'x'\n", "kind"),
        (MINIMAL.replace("expect = { terminal = true }", "expect = { expected = 'holds' }"), "expect"),
        (MINIMAL.replace("expect = { terminal = true }", "expect = {}"), "at least one check"),
        (MINIMAL.replace('name = "w"', 'name = "w"\nexpected = "maybe"'), "expected is"),
        (MINIMAL.replace('name = "w"', 'name = "w"\nstart = { no_field = 1 }'), "start.no_field"),
        (MINIMAL.replace('name = "w"', "name = \"w\"\nstart = '{not json'"), "malformed JSON"),
    ],
)
def test_malformed_file_is_input_error_naming_file_and_field(tmp_path: Path, change: str, field: str) -> None:
    path = _write(tmp_path, change)
    with pytest.raises(InputError) as info:
        load_clarification(path)
    assert str(path) in str(info.value)
    assert field in str(info.value)


def test_wrong_expected_outcome_is_violated(tmp_path: Path) -> None:
    text = MINIMAL.replace("expect = { terminal = true }", "expect = { terminal = false, state = { wallet = 99 } }")
    (report,) = check_files([_write(tmp_path, text)])
    assert report.verdict == "violated" and not report.ok
    assert "terminal" in report.detail and "wallet: expected 99, found 0" in report.detail


def test_expected_violation_is_ok(tmp_path: Path) -> None:
    text = MINIMAL.replace('name = "w"', 'name = "w"\nexpected = "violated"').replace(
        "terminal = true", "terminal = false"
    )
    (report,) = check_files([_write(tmp_path, text)])
    assert (report.verdict, report.expected, report.ok) == ("violated", "violated", True)


def test_wrong_illegal_rule_is_violated(tmp_path: Path) -> None:
    text = MINIMAL.replace('type = "Fabricate"', 'type = "Install", kind = "fork", row = 5, col = 0, rotation = 0')
    text = text.replace("expect = { terminal = true }", 'expect = { illegal = "MC-MOVE-OFF" }')
    (report,) = check_files([_write(tmp_path, text)])
    assert report.verdict == "violated"
    assert "refused by MC-PLACE-FREE, expected MC-MOVE-OFF" in report.detail


def test_expected_refusal_that_is_accepted_is_violated(tmp_path: Path) -> None:
    text = MINIMAL.replace("expect = { terminal = true }", 'expect = { illegal = "MC-FAB" }')
    (report,) = check_files([_write(tmp_path, text)])
    assert report.verdict == "violated" and "was accepted" in report.detail


def test_unexpected_refusal_midway_is_violated(tmp_path: Path) -> None:
    text = MINIMAL.replace(
        'actions = [{ type = "Fabricate" }]', 'actions = [{ type = "Fabricate" }, { type = "Fabricate" }]'
    )
    (report,) = check_files([_write(tmp_path, text)])
    assert report.verdict == "violated" and "action 2" in report.detail and "MC-DAY" in report.detail


def test_property_expected_violated(tmp_path: Path) -> None:
    text = MINIMAL.replace("days = 1", "days = 2") + (
        "[[property]]\npredicate = 'bgrules.mechanica.invariants:is_over_when_days_done'\n"
        "checkers = ['sampled', 'searched']\nbudget = { games = 2, examples = 2 }\n"
    )
    reports = check_files([_write(tmp_path, text)])
    assert [r.checker for r in reports] == ["witness", "sampled", "searched"]
    assert all(r.ok for r in reports[1:])
    assert reports[1].guarantee.startswith("sampled: 2 random games")


def test_duplicate_ids_across_files(tmp_path: Path) -> None:
    a = tmp_path / "a.toml"
    b = tmp_path / "b.toml"
    a.write_text(MINIMAL, encoding="utf-8")
    b.write_text(MINIMAL, encoding="utf-8")
    with pytest.raises(InputError, match="duplicate clarification id"):
        check_files([tmp_path])


@pytest.mark.parametrize(
    ("name", "other"),
    [
        ("mc-loop.toml", {"loop": "destroy"}),
        ("mc-off-floor.toml", {"off_floor": "forbid"}),
        ("mc-blueprint-turn.toml", {"blueprint_turn": "completed"}),
        ("mc-shop-recycle.toml", {"shop_recycle": "none"}),
        ("mc-tie.toml", {"tie_break": "wallet"}),
        ("bf-unpaid-share.toml", {"unpaid_share": "additional_only"}),
        ("bf-end-bots.toml", {"bots_per_colour_to_end": 4}),
        ("bf-additional-window.toml", {"opening_window": "none"}),
        ("bf-additional-window.toml", {"paid_sharer": "own_turn"}),
    ],
)
def test_switching_the_ruling_makes_a_witness_fail(name: str, other: dict[str, Any]) -> None:
    """The witnesses depend on the ruling: under the other reading some witness of the file's own ruling
    fails (witnesses that name their own ruling keep it, so only the file's ruling is switched)."""
    data = _data(name)
    data["property"] = []
    assert all(r.ok for r in check_clarification(clarification_from_data(data, name)))
    data["ruling"] = {**data.get("ruling", {}), **other}
    under_file_ruling = {w["name"] for w in data["witness"] if not set(w.get("ruling", {})) & set(other)}
    reports = check_clarification(clarification_from_data(data, name))
    failed = [r for r in reports if r.id.split("/", 1)[1] in under_file_ruling and r.verdict == "violated"]
    assert failed, f"{name}: no witness depends on the ruling"


def test_loop_forbid_flipped_accepts_the_install() -> None:
    data = _data("mc-loop.toml")
    data["ruling"] = {"loop": "destroy"}
    data["property"] = []
    reports = {r.id: r for r in check_clarification(clarification_from_data(data, "mc-loop.toml"))}
    report = reports["MC-CL-LOOP/closing-the-ring-is-illegal"]
    assert report.verdict == "violated" and "was accepted" in report.detail


def test_clarifications_cite_documented_rules() -> None:
    import re

    documented: set[str] = set()
    for doc in ("mechanica.md", "botfactory.md"):
        text = (ROOT / "docs" / "rules" / doc).read_text(encoding="utf-8")
        documented |= set(re.findall(r"^#{2,4} ((?:MC|BF)-[A-Z]+(?:-[A-Z]+)*)\b", text, flags=re.M))
    for path in FILES:
        c = load_clarification(path)
        unknown = [r for r in c.rules if r not in documented]
        assert not unknown, f"{c.id} cites undocumented rules {unknown}"


def _clarify(*args: str) -> tuple[int, str, str]:
    from click.testing import CliRunner

    from bgrules.cli import main

    result = CliRunner().invoke(main, ["clarify", *args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_clarify_without_files_checks_the_defaults_verify_finds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bgrules.core.defaults import PACKAGED_PATHS

    monkeypatch.chdir(tmp_path)  # no specs/ here: the shipped clarifications
    code, out, err = _clarify("--json", "--game", "mechanica-factory")
    assert code == 0, err
    shipped = sorted(p for p in PACKAGED_PATHS["clarifications"].glob("*.toml") if _game(p) == "mechanica-factory")
    want = {load_clarification(p).id for p in shipped}
    assert want and {r["id"].split("/")[0] for r in json.loads(out)} == want
    local = tmp_path / "specs" / "clarifications"
    local.mkdir(parents=True)
    code, _out, err = _clarify()  # an empty local directory wins, and checks nothing: not a pass
    assert code == 2 and "nothing was checked" in err
    _write(local, MINIMAL)
    code, out, err = _clarify("--json")
    assert code == 0, err
    assert [r["id"] for r in json.loads(out)] == ["T-CL/w"]


def _game(path: Path) -> str:
    return str(tomllib.loads(path.read_text("utf-8")).get("game"))
