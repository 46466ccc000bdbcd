"""The main job (issue 10): parallel checks with the same answer, grouped specs that report as alone,
counterexample traces people can replay, packaged defaults, and no vacuous pass."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from bgrules.cli import main
from bgrules.core import coverage
from bgrules.core.defaults import PACKAGED, default_dir
from bgrules.core.jobs import Task, check_jobs, run_tasks
from bgrules.core.registry import load_game
from bgrules.runners.sampled import check_sampled, check_sampled_together
from bgrules.runners.searched import check_searched, check_searched_together
from bgrules.runners.specfile import Budget, load_specs, make_game, resolve_predicate
from bgrules.runners.trace import read_trace

ROOT = Path(__file__).resolve().parents[2]
SPECS = ROOT / "specs"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def _without_seconds(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in row.items() if k != "seconds"} for row in rows]


# --- the runner -----------------------------------------------------------------------------------


def square(x: int) -> int:
    coverage.effect("MC-DAY")
    return x * x


def test_run_tasks_returns_values_in_task_order_and_merges_coverage_whatever_the_jobs() -> None:
    tasks = [Task(f"t{i}", "runners.test_verify:square", (i,)) for i in range(7)]
    for jobs in (1, 2, 3):
        seen: list[int] = []
        with coverage.collecting() as collected, coverage.recording("tests"):
            values = run_tasks(tasks, jobs, on_done=lambda d, seen=seen: seen.append(d.index))
        assert values == [i * i for i in range(7)]
        assert sorted(seen) == list(range(7))
        assert collected.by_checker["tests"].effects["MC-DAY"] == 7, jobs


@pytest.mark.parametrize("bad", [0, -1, True])
def test_jobs_below_one_are_bad_input(bad: int) -> None:
    from bgrules import InputError

    with pytest.raises(InputError, match="--jobs"):
        check_jobs(bad)


# --- specs checked together report what each reports alone ----------------------------------------


def _specs(*ids: str) -> list:
    by_id = {s.id: s for s in load_specs(SPECS)}
    return [by_id[i] for i in ids]


def test_sampled_specs_checked_together_report_as_alone() -> None:
    group = _specs("MC-INV-BOTS-CONSERVED", "MC-Q-COLLISIONS-HAPPEN", "MC-INV-MONEY-NONNEGATIVE")
    game = make_game(group[0])
    budget = Budget(games=6, max_steps=80, forced=True)
    together = check_sampled_together(group, game, budget)
    alone = [check_sampled(s, game, budget) for s in group]
    assert [r.verdict for r in together] == ["holds", "violated", "holds"]
    for t, a in zip(together, alone, strict=True):
        assert (t.id, t.verdict, t.guarantee, t.detail, t.witness, t.trace) == (
            a.id,
            a.verdict,
            a.guarantee,
            a.detail,
            a.witness,
            a.trace,
        )


def test_searched_specs_checked_together_report_as_alone() -> None:
    group = _specs("MC-INV-BOTS-CONSERVED", "MC-Q-COLLISIONS-HAPPEN")
    game = make_game(group[0])
    budget = Budget(examples=6, max_steps=40, forced=True)
    together = check_searched_together(group, game, budget)
    alone = [check_searched(s, game, budget) for s in group]
    assert [r.verdict for r in together] == ["holds", "violated"]
    for t, a in zip(together, alone, strict=True):
        assert (t.verdict, t.guarantee, t.detail, t.witness) == (a.verdict, a.guarantee, a.detail, a.witness)


def test_a_sampled_check_that_visits_no_state_is_no_pass() -> None:
    from bgrules import InputError

    (spec,) = _specs("MC-INV-BOTS-CONSERVED")
    with pytest.raises(InputError, match="visited no state"):
        check_sampled(spec, make_game(spec), Budget(games=0, forced=True))


# --- verify: the same answer whatever --jobs; traces ------------------------------------------------


def test_verify_gives_the_same_rows_with_one_and_two_jobs(tmp_path: Path) -> None:
    args = ("verify", "--only", "MC-INV-BOTS", "--games", "4", "--examples", "3", "--max-steps", "60", "--json")
    rows = {}
    tables = {}
    for jobs in ("1", "2"):
        cov = tmp_path / f"cov{jobs}.json"
        code, out, _ = run(*args, "--jobs", jobs, "--coverage-json", str(cov))
        assert code == 0
        rows[jobs] = _without_seconds(json.loads(out))
        tables[jobs] = json.loads(cov.read_text())
    assert rows["1"] == rows["2"] and len(rows["1"]) >= 4
    assert tables["1"] == tables["2"] and tables["1"]["reached"] > 10


def test_a_counterexample_prints_its_numbered_steps_and_writes_a_replayable_trace(tmp_path: Path) -> None:
    traces = tmp_path / "traces"
    junit = tmp_path / "r.xml"
    code, out, _ = run(
        "verify",
        "--only",
        "MC-Q-COLLISIONS-HAPPEN",
        "--checker",
        "searched",
        "--trace-dir",
        str(traces),
        "--junit-xml",
        str(junit),
    )
    assert code == 0  # the counterexample is expected
    lines = out.splitlines()
    head = next(line for line in lines if "MC-Q-COLLISIONS-HAPPEN" in line)
    assert head.startswith("ok* ") and "the expected counterexample" in head
    assert any(line.strip().startswith("1. ") and "[MC-" in line for line in lines)
    assert any("invariant before: holds; after:" in line for line in lines)
    (path,) = traces.glob("*.json")
    game_name, trace = read_trace(path)
    assert game_name == "mechanica-factory" and trace["spec"] == "MC-Q-COLLISIONS-HAPPEN"
    # bgrules replay reads it and reaches the state the invariant fails on
    code, final, _ = run("replay", str(path))
    assert code == 0
    game = load_game("mechanica-factory")
    import bgrules

    state = bgrules.loads(game, final)
    pred = resolve_predicate("bgrules.mechanica.invariants:no_collision")
    assert pred(game, state) == trace["steps"][-1]["invariant"] is not None
    code, stepped, _ = run("replay", str(path), "--step")
    assert code == 0 and "0. initial state" in stepped and "\n1. " in stepped and "row 0" in stepped
    assert "1. " in junit.read_text()


def test_a_failing_spec_is_a_failure_with_its_trace_in_the_output_and_the_junit_body(tmp_path: Path) -> None:
    specs = tmp_path / "specs"
    specs.mkdir()
    text = (SPECS / "mechanica-factory.toml").read_text(encoding="utf-8")
    block = text[text.index('id = "MC-Q-COLLISIONS-HAPPEN"') :]
    block = block[: block.index("[[spec]]")] if "[[spec]]" in block else block
    block = block.replace('expected = "violated"', 'expected = "holds"').replace(
        "MC-Q-COLLISIONS-HAPPEN", "MC-Q-NO-COLLISION-CLAIMED"
    )
    (specs / "claim.toml").write_text("[[spec]]\n" + block, encoding="utf-8")
    junit = tmp_path / "r.xml"
    code, out, _ = run(
        "verify", "--specs", str(specs), "--checker", "searched", "--junit-xml", str(junit), "--examples", "5"
    )
    assert code == 1
    assert any(
        line.startswith("FAIL MC-Q-NO-COLLISION-CLAIMED [searched] violated, expected holds")
        for line in out.splitlines()
    )
    assert "unexpected verdicts:" in out
    body = junit.read_text()
    assert "<failure" in body and "     1. " in body and "Fabricate(" in body and "invariant before: holds" in body


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--games", "0"),
        ("--games", "-1"),
        ("--examples", "0"),
        ("--max-steps", "0"),
        ("--timeout", "0"),
        ("--jobs", "0"),
    ],
)
def test_zero_or_negative_budgets_are_bad_input(option: str, value: str) -> None:
    code, out, err = run("verify", "--only", "MC-INV-MONEY-NONNEGATIVE", "--checker", "sampled", option, value)
    assert code == 2 and option in err and "Traceback" not in err + out
    assert len(err.strip().splitlines()) == 1


def test_verify_only_matching_nothing_is_no_pass() -> None:
    code, _, err = run("verify", "--only", "NOPE-NOTHING")
    assert code == 2 and "nothing was checked" in err


def test_prove_zero_timeout_is_bad_input() -> None:
    code, _, err = run("prove", "--timeout", "0")
    assert code == 2 and "--timeout" in err


# --- the packaged defaults ------------------------------------------------------------------------


def _files(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


@pytest.mark.parametrize(("packaged", "repo"), [("specs", "specs"), ("proofs", "proofs"), ("rules", "docs/rules")])
def test_the_packaged_defaults_match_the_repository(packaged: str, repo: str) -> None:
    shipped = _files(PACKAGED / packaged)
    assert shipped and shipped == _files(ROOT / repo)


def test_the_package_data_patterns_ship_every_default_file() -> None:
    import fnmatch
    import tomllib

    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["bgrules"]
    for rel in _files(PACKAGED):
        path = f"defaults/{rel}"
        assert any(fnmatch.fnmatch(path, p) for p in patterns), f"{path} would not be in the wheel"


def test_outside_a_checkout_the_packaged_defaults_are_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert default_dir("specs") == PACKAGED / "specs" and default_dir("proofs") == PACKAGED / "proofs"
    code, out, _ = run("verify", "--only", "MC-Q-COLLISIONS-HAPPEN", "--checker", "searched")
    assert code == 0 and "MC-Q-COLLISIONS-HAPPEN" in out
    code, out, _ = run("simulate", "--game", "mechanica", "--players", "2", "--games", "1")
    assert code == 0 and "invariant(s) checked at every step" in out
    (tmp_path / "specs").mkdir()  # a directory of one's own wins, even an empty one
    assert default_dir("specs") == Path("specs")
    code, _, err = run("simulate", "--game", "mechanica", "--players", "2", "--games", "1")
    assert code == 2 and "no invariant" in err
    assert os.getcwd() == str(tmp_path)
