"""Specification adequacy (bgrules.runners.adequacy, bgrules adequacy): the mutants of the rule code, their
order and ids, the equivalent file, the choice of --max-mutants, and the command end to end on one real
rule (a reward constant a clarification catches), in a copy of the package that leaves the installed one
untouched."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import bgrules
from bgrules.cli import main
from bgrules.runners import adequacy, coverage, mutants
from bgrules.runners.mutants import OPERATORS, Mutant, load_equivalent, module_mutants, spread

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = Path(bgrules.__file__).resolve().parent

SMALL = '''
def gain(state, seat, n, bonus=5):
    """BF-ASM-REWARD: a small module with every construct an operator edits."""
    if n < 3 and seat <= 1 or not state.open:
        total = state.tokens[seat] + 2
    elif n > 0 or n >= 1:
        total = state.tokens[seat - 1] - 1
    else:
        total = 0
    if seat == 1 or seat != 2:
        total -= n
    if seat in state.ok and seat not in state.bad and state.x is None and state.y is not None:
        return True
    flag = False
    coverage.effect("BF-ASM-REWARD")  # counting calls are never edited
    assert total >= 0  # nor asserts
    return min(total, n) if flag else _cap(state, total)


def untouched(state):
    return state.tokens[0] + 1 < 2
'''


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_small_module_yields_every_operator_in_a_fixed_order() -> None:
    found = module_mutants("pkg/small.py", SMALL, {"BF-ASM-REWARD"})
    assert found == module_mutants("pkg/small.py", SMALL, {"BF-ASM-REWARD"})  # deterministic
    assert {m.operator for m in found} == set(OPERATORS)
    assert [(m.line, m.column, m.operator) for m in found] == sorted((m.line, m.column, m.operator) for m in found)
    assert len({m.id for m in found}) == len(found)
    for m in found:
        assert m.id == f"pkg/small.py:{m.line}:{m.column}:{m.operator}"
        assert m.rule == "BF-ASM-REWARD" and m.function == "gain"
        assert m.compiles(SMALL), m.id
        diff = m.diff(SMALL)
        assert diff.startswith("--- a/pkg/small.py\n+++ b/pkg/small.py\n") and "\n-" in diff and "\n+" in diff
        assert "untouched" not in m.apply(SMALL)[: m.start]  # the function citing no rule is never edited
        assert m.line < SMALL.splitlines().index("def untouched(state):") + 1
    lines = {m.line for m in found}
    assert (
        SMALL.splitlines().index('    coverage.effect("BF-ASM-REWARD")  # counting calls are never edited') + 1
        not in lines
    )
    assert SMALL.splitlines().index("    assert total >= 0  # nor asserts") + 1 not in lines
    texts = {(m.operator, line) for m in found for line in m.apply(SMALL).splitlines() if line not in SMALL}
    assert ("if-negate", "    if not (n < 3 and seat <= 1 or not state.open):") in texts
    assert ("arith-add-sub", "        total = state.tokens[seat] - 2") in texts
    assert ("args-swap", "    return min(total, n) if flag else _cap(total, state)") in texts
    assert ("index-dec", "        total = state.tokens[seat - 1] + 2") in texts
    assert ("int-1-0", "        total = state.tokens[seat - 0] - 1") in texts
    assert ("not-removed", "    if n < 3 and seat <= 1 or (state.open):") in texts
    assert ("return-none", "    return None") in texts


def test_no_rule_id_no_mutant_and_a_function_takes_its_nearest_rule() -> None:
    assert module_mutants("m.py", SMALL, set()) == []
    text = (
        "def f(a):\n"
        '    """BF-ASM: two rules."""\n'
        "    x = a + 1\n"
        "    y = 0\n"
        "    z = 0\n"
        "    w = 0\n"
        '    coverage.effect("BF-ASM-ICON")\n'
        "    return x < 2\n"
    )
    found = module_mutants("m.py", text, {"BF-ASM", "BF-ASM-ICON"})
    rule = {m.line: m.rule for m in found}
    assert rule[3] == "BF-ASM" and rule[8] == "BF-ASM-ICON"
    assert all(m.rules == ("BF-ASM", "BF-ASM-ICON") for m in found)


def test_rule_modules_are_the_engines_not_the_checks() -> None:
    names = {p.name for p in mutants.rule_modules(PACKAGE, "botfactory")}
    assert {"production.py", "assembly.py", "round.py"} <= names
    assert not names & {"invariants.py", "smt.py", "validate.py", "figures.py", "ending.py", "evaluate.py"}
    mc = {p.name for p in mutants.rule_modules(PACKAGE, "mechanica")}
    assert "workday.py" in mc and not mc & {"notation.py", "smt_days.py", "game_invariants.py", "render.py"}


def _mutants(rules: dict[str, int]) -> list[Mutant]:
    out = []
    for rule, n in rules.items():
        out += [Mutant(f"m.py:{rule}:{i}", "m.py", i, 1, "int-inc", rule, (rule,), "f", 0, 0, "") for i in range(n)]
    return out


def test_max_mutants_spreads_evenly_over_the_rules() -> None:
    pool = _mutants({"A": 10, "B": 1, "C": 6})
    chosen = spread(pool, 7)
    assert chosen == spread(pool, 7)
    counts = {r: sum(1 for m in chosen if m.rule == r) for r in "ABC"}
    assert counts == {"A": 3, "B": 1, "C": 3}
    assert [pool.index(m) for m in chosen] == sorted(pool.index(m) for m in chosen)
    assert spread(pool, 100) == pool
    a = [m for m in chosen if m.rule == "A"]
    assert [m.line for m in a] == [1, 5, 8]  # spread through the rule's mutants, not its first three
    assert len(spread(pool, 2)) == 2


def test_equivalent_file_warnings(tmp_path: Path) -> None:
    path = tmp_path / "eq.toml"
    path.write_text(
        '[[equivalent]]\nid = "a"\nreason = "the loop finds nothing either way"\n'
        '[[equivalent]]\nid = "b"\n'
        '[[equivalent]]\nid = "gone"\nreason = "was equivalent"\n'
        '[[equivalent]]\nid = "c"\nreason = "same"\nnote = "x"\n',
        encoding="utf-8",
    )
    taken, warnings = load_equivalent(path, ["a", "b", "c"], required=True)
    assert taken == {"a": "the loop finds nothing either way", "c": "same"}
    assert len(warnings) == 3
    assert any("b has no reason" in w for w in warnings)
    assert any("gone" in w and "stale" in w for w in warnings)
    assert any("unknown key(s) note" in w for w in warnings)
    assert load_equivalent(tmp_path / "none.toml", ["a"], required=False) == ({}, [])
    other = tmp_path / "other.toml"
    other.write_text('[[equivalent]]\nid = "x.py:1:1:int-inc"\nreason = "the other game\'s"\n', encoding="utf-8")
    assert load_equivalent(other, ["y.py:1:1:int-inc"], required=True, modules=["y.py"]) == ({}, [])
    assert len(load_equivalent(other, ["y.py:1:1:int-inc"], required=True)[1]) == 1


def test_the_shipped_equivalent_file_is_well_formed() -> None:
    """Each entry has its reason and names a mutant by a well-formed id (a stale id is a warning at run
    time, not a failure here: an edit of the engines above a listed line moves its id)."""
    path = ROOT / "specs" / mutants.EQUIVALENT_FILE
    import tomllib

    entries = tomllib.loads(path.read_text(encoding="utf-8"))["equivalent"]
    ids = [e["id"] for e in entries]
    taken, warnings = load_equivalent(path, ids, required=True)
    assert warnings == [] and len(taken) == len(entries) >= 1
    for mutant_id in ids:
        module, line, column, operator = mutant_id.split(":")
        assert (ROOT / module).is_file() and int(line) > 0 and int(column) > 0 and operator in OPERATORS


def test_coverage_map_names_the_checks_and_the_tied_obligations() -> None:
    units = [
        {"checks": ["S [sampled]", "T [sampled]"], "reached": ["BF-A", "BF-B"]},
        {"checks": ["W/x [witness]"], "reached": ["BF-B"]},
        {"checks": ["P-CONF [proved]"], "reached": []},
    ]
    tie = coverage.Tie("enc", ("BF-C",), ("P-CONF",), ())
    assert adequacy.coverage_map(units, [tie]) == {
        "BF-A": ["S [sampled]", "T [sampled]"],
        "BF-B": ["S [sampled]", "T [sampled]", "W/x [witness]"],
        "BF-C": ["P-CONF [proved]"],
    }


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--max-mutants", "0"], "--max-mutants"),
        (["--max-mutants", "-3"], "--max-mutants"),
        (["--max-mutants", "2000000"], "--max-mutants"),
        (["--seconds", "0"], "--seconds"),
        (["--rule", "BF-NO-SUCH-RULE"], "--rule"),
        (["--rule", "MC-FLIGHT"], "not a rule of botfactory"),
        (["--mutant", "bgrules/botfactory/x.py:1:1:int-inc"], "--mutant"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    code, out, err = run("adequacy", "--game", "botfactory", *args)
    assert code == 2 and message in err and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_unknown_game_is_bad_input() -> None:
    code, _, err = run("adequacy", "--game", "chess")
    assert code == 2 and "unknown game 'chess'" in err and len(err.strip().splitlines()) == 1


def test_malformed_equivalent_file_is_bad_input(tmp_path: Path) -> None:
    for text in ("[[equivalent]\nid = 1", 'equivalent = "a"\n', '[other]\nid = "a"\n'):
        path = tmp_path / "eq.toml"
        path.write_text(text, encoding="utf-8")
        code, _, err = run("adequacy", "--game", "botfactory", "--equivalent", str(path))
        assert code == 2 and str(path) in err and len(err.strip().splitlines()) == 1, text
    code, _, err = run("adequacy", "--game", "botfactory", "--equivalent", str(tmp_path / "missing.toml"))
    assert code == 2 and "no such equivalent-mutants file" in err


def test_every_mutant_equivalent_tries_nothing_and_is_no_success(tmp_path: Path) -> None:
    known = {r.id for r in coverage.documented_rules()}
    every, _ = mutants.find_mutants(PACKAGE, "botfactory", known)
    rule = min({m.rule for m in every}, key=lambda r: (sum(1 for m in every if m.rule == r), r))
    path = tmp_path / "eq.toml"
    path.write_text(
        "".join(f'[[equivalent]]\nid = "{m.id}"\nreason = "assumed for the test"\n' for m in every if m.rule == rule),
        encoding="utf-8",
    )
    code, _, err = run("adequacy", "--game", "botfactory", "--rule", rule, "--equivalent", str(path))
    assert code == 2 and "no mutant to try" in err


def _reward_mutants() -> tuple[str, str]:
    """The mutants of the Assembly reward's two tokens (BF-ASM-REWARD: ``game._gain(state, seat, 2)``)."""
    known = {r.id for r in coverage.documented_rules()}
    every, sources = mutants.find_mutants(PACKAGE, "botfactory", known)
    found = {
        m.operator: m.id
        for m in every
        if "BF-ASM-REWARD" in m.rules
        and m.operator in ("int-inc", "int-dec")
        and sources[m.module].splitlines()[m.line - 1].strip() == "state = game._gain(state, seat, 2)"
    }
    return found["int-dec"], found["int-inc"]


def _digest(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def _token_cap(tmp_path: Path) -> Path:
    directory = tmp_path / "clarifications"
    directory.mkdir()
    shutil.copy(ROOT / "specs" / "clarifications" / "bf-token-cap.toml", directory)
    return directory


def test_a_reward_mutant_is_caught_by_its_clarification_and_the_package_is_untouched(tmp_path: Path) -> None:
    fewer, more = _reward_mutants()
    before = _digest(PACKAGE)
    args = ["adequacy", "--game", "botfactory", "--checker", "clarified", "--clarifications", str(_token_cap(tmp_path))]
    code, out, err = run(*args, "--mutant", fewer, "--mutant", more, "--jobs", "1", "--json")
    assert code == 0, err
    assert _digest(PACKAGE) == before
    result: dict[str, Any] = json.loads(out)
    assert {"mutants", "caught", "equivalent", "rules", "game", "checks", "seconds"} <= set(result)
    assert result["game"] == "botfactory" and result["mutants"] == 2 and result["equivalent"] == 0
    assert result["checks"] >= 1 and result["seconds"] > 0
    [row] = result["rules"]
    assert set(row) == {"id", "mutants", "caught", "survivors", "by"}
    assert row["id"] == "BF-ASM-REWARD" and row["mutants"] == 2
    # two tokens for one: the witness holding 7 gets 8, not 9
    caught = {r["id"]: r for r in result["results"]}
    assert caught[fewer]["caught"]
    assert "BF-CL-TOKEN-CAP/below-the-cap-both-tokens-count [witness]" in caught[fewer]["by"]
    assert row["by"]["BF-CL-TOKEN-CAP/below-the-cap-both-tokens-count [witness]"] >= 1
    # three tokens for two: from 7 the cap takes the third, so the clarification alone cannot tell
    assert not caught[more]["caught"]
    assert row["caught"] == 1 and [s["id"] for s in row["survivors"]] == [more]
    assert "-        state = game._gain(state, seat, 2)" in row["survivors"][0]["diff"]
    assert "+        state = game._gain(state, seat, 3)" in row["survivors"][0]["diff"]


def test_the_text_report_lists_the_survivor_diffs(tmp_path: Path) -> None:
    _, more = _reward_mutants()
    args = ["adequacy", "--game", "botfactory", "--checker", "clarified", "--clarifications", str(_token_cap(tmp_path))]
    code, out, _ = run(*args, "--mutant", more, "--jobs", "1")
    assert code == 0
    assert f"survivor {more} (BF-ASM-REWARD):" in out and "+        state = game._gain(state, seat, 3)" in out
    assert "bgrules adequacy: 0 of 1 mutants caught (0.0%)" in out


def test_a_failing_baseline_stops_the_run(tmp_path: Path) -> None:
    directory = _token_cap(tmp_path)
    path = directory / "bf-token-cap.toml"
    text = path.read_text(encoding="utf-8")
    broken = text.replace(
        "expect = { state = { hands = { 0 = { tokens = 9 } } } }",
        "expect = { state = { hands = { 0 = { tokens = 8 } } } }",
    )
    assert broken != text
    path.write_text(broken, encoding="utf-8")
    fewer, _ = _reward_mutants()
    args = ["adequacy", "--game", "botfactory", "--checker", "clarified", "--clarifications", str(directory)]
    code, out, err = run(*args, "--mutant", fewer, "--jobs", "1")
    assert code == 2 and out == ""
    assert "baseline fails on the unmutated code" in err and "below-the-cap-both-tokens-count" in err
    assert len(err.strip().splitlines()) == 1


def test_ray_engine_without_ray_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real = builtins.__import__

    def no_ray(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "ray" or name.startswith("ray."):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    monkeypatch.delitem(__import__("sys").modules, "ray", raising=False)
    code, _, err = run("adequacy", "--game", "botfactory", "--engine", "ray")
    assert code == 2 and "bgrules[ray]" in err and len(err.strip().splitlines()) == 1


@pytest.mark.heavy
def test_a_spread_of_mutants_over_both_games_runs_to_the_end() -> None:
    code, out, err = run("adequacy", "--max-mutants", "6", "--jobs", "2", "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["mutants"] == 6 and 0 <= result["caught"] <= 6
    assert sum(r["mutants"] for r in result["rules"]) == 6


@pytest.mark.heavy
def test_the_ray_engine_gives_the_local_verdicts(tmp_path: Path) -> None:
    fewer, more = _reward_mutants()
    args = ["adequacy", "--game", "botfactory", "--checker", "clarified", "--clarifications", str(_token_cap(tmp_path))]
    mutants = ["--mutant", fewer, "--mutant", more]
    local = json.loads(run(*args, *mutants, "--jobs", "1", "--json")[1])
    ray = json.loads(run(*args, *mutants, "--engine", "ray", "--json")[1])
    assert [(r["id"], r["caught"], r["by"]) for r in ray["results"]] == [
        (r["id"], r["caught"], r["by"]) for r in local["results"]
    ]


def test_the_shipped_equivalent_list_names_only_current_mutants() -> None:
    """Every reviewed equivalent still names a mutant of the code (a refactor that moves a line must bring
    the review along, else the mutant would be counted again unreviewed)."""
    known = {r.id for r in coverage.documented_rules()}
    every, _sources = mutants.find_mutants(Path(bgrules.__file__).resolve().parent, None, known)
    specs = ROOT / "specs"
    taken, warnings = load_equivalent(specs / "adequacy-equivalent.toml", [m.id for m in every], required=True)
    assert warnings == [] and len(taken) >= 8
