"""Rule coverage (bgrules.core.coverage, bgrules coverage, verify's coverage row): exact counts on small
hand-made traces, the rule catalogue, the exemptions, the proved ties, and the command's contract."""

from __future__ import annotations

import ast
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import bgrules
from bgrules import IllegalAction
from bgrules.botfactory.state import DrawPart, MoveWorker, TakeTop
from bgrules.cli import main
from bgrules.core import coverage as counting
from bgrules.core.protocol import CHANCE
from bgrules.mechanica.components import Bot
from bgrules.mechanica.sandbox import Install, Sell
from bgrules.mechanica.state import Draw, Phase
from bgrules.runners import coverage

ROOT = Path(__file__).resolve().parents[2]
B, P, D = Bot.BASIC, Bot.PLUS, Bot.DELUXE
QUIET = "hole | . . . . | truck[B]\nbasic | . . . . | big[PD]\nhole | . . . . | truck\n"
RIDE = "hole | . . . . | truck\nbasic[B] | . GW0 . . | truck\nhole | . . . . | truck\n"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def sandbox(factory: str) -> Any:
    return bgrules.load_game("mechanica-factory", players=1, factory=factory)


# --- off, nesting, withdrawal ------------------------------------------------------------------------


def test_off_by_default_and_counts_nothing() -> None:
    assert counting.active() is None or counting.active().checker == "tests"
    outer = counting.active()
    before = Counter(outer.effects) if outer is not None else None
    with counting.collecting() as collector:
        counting.effect("MC-DAY")  # outside a recording of this test: counted only by an outer one
    assert collector.by_checker == {}
    if outer is not None:
        assert outer.effects["MC-DAY"] == before["MC-DAY"] + 1  # type: ignore[index]


def test_nested_recordings_add_up_and_collect_by_checker() -> None:
    with counting.collecting() as collector, counting.recording("sampled") as outer:
        counting.effect("BF-ASM")
        with counting.recording("witness") as inner:
            counting.effect("BF-ASM")
            counting.refusal("BF-MOVE")
        assert inner.effects == Counter({"BF-ASM": 1}) and inner.refusals == Counter({"BF-MOVE": 1})
        assert outer.effects == Counter({"BF-ASM": 2}) and outer.refusals == Counter({"BF-MOVE": 1})
    assert collector.by_checker["witness"].effects == Counter({"BF-ASM": 1})
    # the outer recording's totals include the inner one's
    assert collector.by_checker["sampled"].effects == Counter({"BF-ASM": 2})


def test_an_unknown_checker_is_refused() -> None:
    with pytest.raises(ValueError, match="not a coverage checker"), counting.recording("guessed"):
        pass


def test_probes_of_the_options_are_not_refusals() -> None:
    # building the game probes every truck purchase (MC-PLACE-TRUCK / MC-PLACE-ZONE guards refuse some);
    # listing a bought fabricator tile's rows probes MC-PLACE-START: neither is a refused action
    with counting.recording("tests") as counts:
        game = bgrules.load_game("mechanica", players=2)
        game.initial_state()
    assert counts.refusals == Counter()


# --- exact counts on hand-made traces ---------------------------------------------------------------


def test_sandbox_ride_counts_every_movement_step() -> None:
    game = sandbox(RIDE)
    with counting.recording("tests") as counts:
        state = game.initial_state()
    # the day begins, the run starts, one bot leaves the Basic Fabricator, rides the belts of row 1
    # (cells 0, 2, 3), passes the Gift Wrapper in cell 1, and stops in the row's truck
    assert counts.effects == Counter(
        {
            "MC-DAY": 1,
            "MC-RUN": 1,
            "MC-MOVE-SRC": 1,
            "MC-MOVE": 1,
            "MC-MOVE-BELT": 3,
            "MC-GIFT": 1,
            "MC-MOVE-STOP": 1,
        }
    )
    assert counts.refusals == Counter()
    assert state.vault == 1 and state.factory.dock[1].load == (B,)


def test_sandbox_turn_counts_sales_installs_and_a_refusal() -> None:
    game = sandbox(QUIET)
    state = game.initial_state()
    with counting.recording("tests") as counts:
        state = game.apply(state, Sell(1, D))
        state = game.apply(state, Sell(1, P))
        state = game.apply(state, Install("upgrader", 1, 1, 0))
        with pytest.raises(IllegalAction):
            game.apply(state, Sell(0, B))  # selling is over once an improvement is installed
    assert counts.effects == Counter(
        {
            "MC-SELL": 2,
            "MC-BOTS": 2,
            "MC-SUPPLY": 1,
            "MC-PLACE": 1,
            "MC-PLACE-ZONE": 1,
            "MC-PLACE-FREE": 1,
            "MC-PLACE-ROT": 1,
            "MC-PLACE-FIT": 1,
        }
    )
    assert counts.refusals == Counter({"MC-TURN-ORDER": 1})


def test_mechanica_setup_counts_each_draw() -> None:
    game = bgrules.load_game("mechanica", players=2)
    with counting.recording("tests") as counts:
        state = game.initial_state()
    assert counts.effects == Counter(
        {"MC-SETUP-SEATS": 1, "MC-BOARD": 1, "MC-SETUP-BOT": 1, "MC-STOCK": 1, "MC-SETUP-DECK": 1}
    )
    expected: Counter[str] = Counter()
    with counting.recording("tests") as counts:
        for _ in range(8):  # the six extras (2 players), then the first two Shop tiles
            assert game.to_move(state) is CHANCE
            phase = state.phase
            action = game.chance_outcomes(state)[0][0]
            assert isinstance(action, Draw)
            expected["MC-CHANCE"] += 1
            expected["MC-SETUP-EXTRAS" if phase is Phase.SETUP_EXTRAS else "MC-SETUP-DEAL"] += 1
            state = game.apply(state, action)
        with pytest.raises(IllegalAction):
            game.apply(state, Draw("no-such-tile"))
    assert expected["MC-SETUP-EXTRAS"] == 6 and expected["MC-SETUP-DEAL"] == 2
    assert counts.effects == expected
    assert counts.refusals == Counter({"MC-CHANCE": 1})


def test_botfactory_setup_picks_and_moves() -> None:
    game = bgrules.load_game("botfactory", players=2)
    with counting.recording("tests") as counts:
        state = game.initial_state()
    assert counts.effects == Counter({"BF-SETUP-TOKENS": 1, "BF-SETUP-WHEEL": 1, "BF-SETUP-BOARDS": 1})
    expected: Counter[str] = Counter()
    with counting.recording("tests") as counts:
        moved = 0
        while moved < 1:
            mover = game.to_move(state)
            if mover is CHANCE:
                action = game.chance_outcomes(state)[0][0]
                if isinstance(action, DrawPart):
                    expected["BF-PILE"] += 1  # the piles start full: no discard is reshuffled
            else:
                action = game.legal_actions(state)[0]
                if isinstance(action, TakeTop):
                    expected["BF-SETUP-PARTS"] += 1
                elif isinstance(action, MoveWorker):
                    expected["BF-MOVE"] += 1
                    moved += 1
            state = game.apply(state, action)
        taken = next(w for w in state.workers if w is not None)
        with pytest.raises(IllegalAction):
            game.apply(state, MoveWorker(taken))  # the second player may not take the first one's space
    assert expected["BF-SETUP-PARTS"] == 2 and expected["BF-MOVE"] == 1 and expected["BF-PILE"] >= 2
    assert counts.effects == expected
    assert counts.refusals == Counter({"BF-MOVE": 1})


def test_scoring_and_ties_count_once_per_call() -> None:
    game = bgrules.load_game("mechanica", players=2)
    state = game.initial_state()
    with counting.recording("tests") as counts:
        game.scores(state)
        game.winners(state)  # the winners (MC-END-TIE) from the scores (MC-SCORE)
    assert counts.effects == Counter({"MC-SCORE": 2, "MC-END-TIE": 1})
    game = bgrules.load_game("botfactory", players=3)
    state = game.initial_state()
    with counting.recording("tests") as counts:
        game.winners(state)
        game.winners(state)
    assert counts.effects == Counter({"BF-SCORE": 2, "BF-TIE": 2})


# --- the rule catalogue and the call sites ---------------------------------------------------------


def _doc_ids() -> set[str]:
    ids = set()
    for doc in (ROOT / "docs" / "rules").glob("*.md"):
        ids |= set(re.findall(r"^#{2,4} ((?:BF|MC)-[A-Z]+(?:-[A-Z]+)*)\b", doc.read_text(encoding="utf-8"), re.M))
    return {i for i in ids if "-INV-" not in i}


def test_rules_are_the_documented_headings_with_titles() -> None:
    rules = coverage.documented_rules()
    assert {r.id for r in rules} == _doc_ids()
    assert all(r.title and not r.title.startswith(("—", "-")) for r in rules)
    titles = {r.id: r.title for r in rules}
    assert titles["BF-ASM-LAST"] == "the last space costs a token"
    assert titles["MC-END-TIE"] == "the winner and ties"


def _effect_literals() -> dict[str, list[str]]:
    """rule ID -> the modules calling counting.effect with it as a literal."""
    found: dict[str, list[str]] = {}
    for path in sorted((ROOT / "bgrules").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "effect"
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "coverage"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                found.setdefault(str(node.args[0].value), []).append(path.name)
    return found


def test_every_effect_call_names_a_documented_rule() -> None:
    calls = _effect_literals()
    unknown = sorted(set(calls) - _doc_ids())
    assert not unknown, f"counting.effect calls with undocumented rule IDs: {unknown}"
    # movement steps report their own rule (workday's follow): every Step rule is documented too
    assert _step_rules() and _step_rules() <= _doc_ids()


def _step_rules() -> set[str]:
    """The rule IDs written in bgrules/mechanica/movement.py (the rules of its movement Steps, which
    ``workday._Mover.follow`` reports) and workday's loop step."""
    from bgrules.mechanica import movement, workday

    out: set[str] = set()
    for module in (movement, workday):
        tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Step":
                out |= {k.value.value for k in node.keywords if k.arg == "rule" and isinstance(k.value, ast.Constant)}
            if isinstance(node, ast.Dict) and module is movement:
                out |= {v.value for v in node.values if isinstance(v, ast.Constant) and str(v.value).startswith("MC-")}
    return out


def test_every_rule_has_an_effect_site_or_an_exemption() -> None:
    calls = set(_effect_literals()) | _step_rules()
    exempt = coverage.load_exempt()
    missing = sorted(_doc_ids() - calls - set(exempt))
    assert not missing, f"rules with no effect site and no exemption: {missing}"


def test_effect_calls_stay_in_the_rule_rooms() -> None:
    rooms = {
        *(
            f"{m}.py"
            for m in ("assembly", "production", "projects", "finance", "round", "scoring", "tokens", "draws", "limits")
        ),
        *(f"{m}.py" for m in ("pick", "moves", "turns", "windows", "maintenance")),
        *(f"{m}.py" for m in ("shop", "turn", "blueprints", "dayend", "game", "base", "workday", "movement")),
        *(f"{m}.py" for m in ("fabricate", "factory", "board", "sandbox")),
    }
    outside = {rule: files for rule, files in _effect_literals().items() if set(files) - rooms}
    assert not outside, outside


# --- exemptions and proved ties -----------------------------------------------------------------------


def test_exemptions_are_few_documented_and_reasoned() -> None:
    rules = coverage.documented_rules()
    exempt = coverage.load_exempt(known=[r.id for r in rules])
    assert len(exempt) <= 0.05 * len(rules), f"{len(exempt)} exemptions of {len(rules)} rule IDs (at most 5%)"
    calls = set(_effect_literals())
    for rule_id, reason in exempt.items():
        assert len(reason) >= 40, rule_id
        assert rule_id not in calls, f"{rule_id} is exempt but has an effect site: reach it instead"


def test_exempt_file_errors(tmp_path: Path) -> None:
    bad = tmp_path / "x.toml"
    bad.write_text('[[exempt]]\nid = "MC-DAY"\n')
    with pytest.raises(bgrules.InputError):
        coverage.load_exempt(bad)
    bad.write_text('[[exempt]]\nid = "MC-NOPE"\nreason = "a reason long enough to be read by a reviewer"\n')
    with pytest.raises(bgrules.InputError):
        coverage.load_exempt(bad, known=["MC-DAY"])


def test_proved_ties_name_real_conformance_checks() -> None:
    from bgrules.runners.proofs import collect, load_manifest

    manifest = load_manifest(ROOT / "proofs")
    obligations = {ob.id: (ob, expected) for ob, expected in collect(ROOT / "proofs")}
    held = {r for ob, expected in obligations.values() if expected == "holds" for r in ob.rules}
    ties = coverage.load_ties()
    assert ties
    documented = _doc_ids()
    for tie in ties:
        assert set(tie.rules) <= documented, tie.encoding
        assert (ROOT / tie.encoding.split(" ")[0]).exists(), tie.encoding
        for name in tie.obligations:
            assert manifest[name][1] == "holds", name
            cited = set(obligations[name][0].rules)
            assert set(tie.rules) <= cited, f"{name} does not cite {sorted(set(tie.rules) - cited)}"
        if not tie.obligations:
            assert set(tie.rules) <= held, tie.encoding
        for test in tie.tests:
            file, _, function = test.partition("::")
            assert re.search(rf"^def {function}\(", (ROOT / file).read_text(encoding="utf-8"), re.M), test


# --- the table ------------------------------------------------------------------------------------------


def _fake(effects: dict[str, int], refusals: dict[str, int], checker: str = "sampled") -> counting.Counts:
    return counting.Counts(checker, Counter(effects), Counter(refusals), states=7)


def test_table_keys_counts_checkers_and_exemptions() -> None:
    rules = [coverage.Rule("MC-A", "a", "mechanica"), coverage.Rule("MC-B", "b", "mechanica")]
    rules.append(coverage.Rule("BF-C", "c", "botfactory"))
    by = {"sampled": _fake({"MC-A": 3}, {}), "witness": _fake({}, {"MC-A": 1}, "witness")}
    result = coverage.table(by, proved={"BF-C"}, exempt={"MC-B": "no check can reach it, because ..."}, rules=rules)
    assert set(result) >= {"total", "reached", "exempt", "rules"}
    assert (result["total"], result["reached"], result["exempt"]) == (3, 2, 1)
    rows = {r["id"]: r for r in result["rules"]}
    assert set(rows["MC-A"]) == {"id", "title", "effects", "refusals", "checkers", "exempt"}
    assert rows["MC-A"] == {
        "id": "MC-A",
        "title": "a",
        "effects": 3,
        "refusals": 1,
        "checkers": ["sampled", "witness"],
        "exempt": None,
    }
    assert rows["BF-C"]["checkers"] == ["proved"] and rows["MC-B"]["exempt"].startswith("no check")
    assert coverage.unreached(result) == [] and coverage.percent(result) == 100.0
    only = coverage.table(by, game="botfactory", exempt={}, rules=rules)
    assert only["total"] == 1 and coverage.unreached(only) == ["BF-C"] and coverage.percent(only) == 0.0


def test_verify_row_fails_only_a_complete_run_with_an_unreached_rule(tmp_path: Path) -> None:
    collector = counting.Collector()
    collector.add(_fake({"MC-DAY": 1}, {}))
    row = coverage.verify_row(collector, None, specs_dir=tmp_path, proofs_dir=tmp_path, complete=True)
    assert row["kind"] == "coverage" and row["verdict"] == "violated" and not row["ok"]
    assert "MC-DAY" not in row["rules"] and "BF-END" in row["rules"]
    assert row["coverage"]["reached"] == 1
    partial = coverage.verify_row(collector, None, specs_dir=tmp_path, proofs_dir=tmp_path, complete=False)
    assert partial["ok"] and partial["verdict"] == "unknown"
    # the same keys as every result row, and the table
    assert set(row) == {*json.loads(json.dumps(_a_result_row())), "coverage"}


def _a_result_row() -> dict[str, Any]:
    from bgrules.runners.report import Report

    return Report("X", "spec", "s", (), "sampled", "holds", "holds", "g", 0.0).to_json()


def test_verify_row_counts_proved_only_when_its_obligations_passed() -> None:
    collector = counting.Collector()
    ok_rows = [{"id": o, "ok": True} for t in coverage.load_ties() for o in t.obligations]
    row = coverage.verify_row(collector, ok_rows, specs_dir=ROOT / "specs", proofs_dir=ROOT / "proofs", complete=True)
    proved = {r["id"] for r in row["coverage"]["rules"] if "proved" in r["checkers"]}
    assert proved == coverage.proved_rules()
    failed = [dict(r, ok=r["id"] != "BF-PROOF-SMT-CONFORMANCE") for r in ok_rows]
    row = coverage.verify_row(collector, failed, specs_dir=ROOT / "specs", proofs_dir=ROOT / "proofs", complete=True)
    proved = {r["id"] for r in row["coverage"]["rules"] if "proved" in r["checkers"]}
    assert "BF-LIMIT-TOKENS" not in proved and "MC-COLLIDE" in proved


# --- the command ------------------------------------------------------------------------------------


def test_coverage_json_contract_on_one_game() -> None:
    code, out, _ = run("coverage", "--game", "mechanica", "--games", "1", "--players", "2", "--no-searched", "--json")
    assert code == 0
    data = json.loads(out)
    assert {"total", "reached", "exempt", "rules"} <= set(data)
    assert data["total"] == len([i for i in _doc_ids() if i.startswith("MC-")])
    assert all(set(r) == {"id", "title", "effects", "refusals", "checkers", "exempt"} for r in data["rules"])
    rows = {r["id"]: r for r in data["rules"]}
    assert "sampled" in rows["MC-SETUP-SEATS"]["checkers"] and rows["MC-SETUP-SEATS"]["effects"] >= 1
    assert "witness" in rows["MC-END-TIE"]["checkers"] or rows["MC-END-TIE"]["effects"] >= 1
    assert "proved" in rows["MC-COLLIDE"]["checkers"]


@pytest.mark.parametrize("games", ["0", "-3"])
def test_coverage_refuses_no_games(games: str) -> None:
    code, _, err = run("coverage", "--game", "botfactory", "--games", games)
    assert code == 2 and "--games" in err


def test_coverage_bad_agents_and_games_are_input_errors() -> None:
    code, _, err = run("coverage", "--game", "botfactory", "--games", "1", "--agents", "clever")
    assert code == 2 and "valid" in err
    code, _, err = run("coverage", "--game", "chess", "--games", "1")
    assert code == 2 and "botfactory" in err


def test_fail_under_with_no_state_visited_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    def empty(*_a: Any, **_k: Any) -> dict[str, Any]:
        return coverage.table({}, game="botfactory", exempt={})

    monkeypatch.setattr(coverage, "run_coverage", empty)
    code, _, err = run("coverage", "--game", "botfactory", "--games", "1", "--fail-under", "0")
    assert code == 1 and "no state" in err


def _plans(monkeypatch: pytest.MonkeyPatch, *commands: tuple[str, ...]) -> list[list[tuple[str, str, str]]]:
    """The tasks each command hands to its runner (nothing is run: the runner returns no row)."""
    import bgrules.cli.base as cli

    seen: list[list[tuple[str, str, str]]] = []

    def record(_title: str, tasks: list[Any], *_a: Any, **_k: Any) -> list[dict[str, Any]]:
        seen.append([(t.label, t.target, repr(t.args)) for t in tasks])
        return []

    monkeypatch.setattr(cli, "_run_plan", record)
    for command in commands:
        run(*command)
    assert len(seen) == len(commands)
    return seen


def test_coverage_runs_the_checks_of_verify(monkeypatch: pytest.MonkeyPatch) -> None:
    verify, plain, jobs = _plans(monkeypatch, ("verify",), ("coverage",), ("coverage", "--jobs", "2"))
    assert verify and plain == verify and jobs == verify  # the same tasks, budgets and directories
    labels = " ".join(label for label, _t, _a in verify)
    assert "[sampled]" in labels and "[searched]" in labels and "[proved]" in labels and "[clarified]" in labels
    (unsearched,) = _plans(monkeypatch, ("coverage", "--no-searched"))
    assert unsearched == [t for t in verify if not t[0].endswith("[searched]")]
    # sampling options play sampled games instead: verify's plan is not run
    monkeypatch.setattr(coverage, "run_coverage", lambda *_a, **_k: coverage.table({}, game="botfactory", exempt={}))
    import bgrules.cli.base as cli

    monkeypatch.setattr(cli, "_run_plan", lambda *_a, **_k: pytest.fail("verify's plan ran"))
    assert run("coverage", "--game", "botfactory", "--games", "1", "--json")[0] == 0


def test_coverage_of_one_game_runs_that_games_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    from bgrules.runners.specfile import load_specs, part_label, parts

    # a task is named by its first spec, or that spec's part at one player count (BF-INV-LIMITS-3P)
    games = {part_label(p): s.game for s in load_specs(ROOT / "specs") for p in [s, *parts(s)]}
    (verify,) = _plans(monkeypatch, ("verify",))
    (factory,) = _plans(monkeypatch, ("coverage", "--game", "mechanica-factory"))
    (mechanica,) = _plans(monkeypatch, ("coverage", "--game", "mechanica"))
    assert set(factory) < set(mechanica) < set(verify)
    for label, _t, _a in factory:
        first = label.split(" ", 1)[0]
        if label.endswith(("[sampled]", "[searched]")):
            assert games[first] == "mechanica-factory", label
        else:
            assert first.startswith(("MC-", "mc-")) or label.endswith("[clarified]"), label
    assert {games[lb.split(" ", 1)[0]] for lb, _t, _a in mechanica if lb.endswith("[searched]")} == {
        "mechanica",
        "mechanica-factory",
    }
    assert not [lb for lb, _t, _a in mechanica if lb.startswith("BF-")]


def test_coverage_of_the_factory_sandbox_alone() -> None:
    args = ("coverage", "--game", "mechanica-factory", "--games", "2", "--no-searched", "--json")
    code, out, err = run(*args)
    assert code == 0, err
    data = json.loads(out)
    assert data["total"] == len([i for i in _doc_ids() if i.startswith("MC-")])  # its rules document's table
    rows = {r["id"]: r for r in data["rules"]}
    assert "sampled" in rows["MC-SUPPLY"]["checkers"]  # the sandbox's own rule, which no whole game reaches
    assert rows["MC-SETUP-SEATS"]["effects"] == 0  # the whole game was not played
    code, _, err = run("coverage", "--game", "mechanica-fact", "--games", "1")
    assert code == 2 and "mechanica-factory" in err


@pytest.mark.heavy
def test_coverage_by_default_has_verify_table() -> None:
    # two whole default runs (~1-2 min each): coverage with no option reaches what verify reaches, BF-SCORE
    # and BF-TIE included (random Bot Factory games alone are all truncated and never scored)
    code, out, err = run("coverage", "--json")
    assert code == 0, err
    ours = json.loads(out)
    code, out, err = run("verify", "--json", "--quiet")
    assert code == 0, err
    theirs = json.loads(out)[-1]["coverage"]
    assert ours["unexpected"] == [] and ours["checks"] == len(json.loads(out)) - 1
    for key in ("total", "reached", "exempt"):
        assert ours[key] == theirs[key]
    assert [(r["id"], r["checkers"]) for r in ours["rules"]] == [(r["id"], r["checkers"]) for r in theirs["rules"]]
    reached = {r["id"] for r in ours["rules"] if r["checkers"]}
    assert {"BF-END-FIFTH", "BF-SCORE", "BF-TIE", "MC-FAB-OVERACTIVE"} <= reached


def test_fail_under_compares_the_percentage() -> None:
    args = ("coverage", "--game", "mechanica", "--games", "1", "--players", "2", "--no-searched", "--json")
    data = json.loads(run(*args)[1])
    pct = coverage.percent(data)
    assert 0 < pct < 100  # one 2-player game and the witnesses do not reach every Mechanica rule
    assert run(*args, "--fail-under", f"{pct - 1:.1f}")[0] == 0
    assert run(*args, "--fail-under", f"{min(100.0, pct + 1):.1f}")[0] == 1
    assert run(*args, "--fail-under", "101")[0] == 2


def test_coverage_file_of_a_command(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    out = tmp_path / "cov.json"
    env = dict(os.environ, BGRULES_COVERAGE_FILE=str(out))
    args = ["simulate", "--game", "mechanica-factory", "--games", "2", "--no-check", "--json"]
    done = subprocess.run([sys.executable, "-m", "bgrules.cli", *args], env=env, capture_output=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    rows = {r["id"]: r for r in data["rules"]}
    assert rows["MC-DAY"]["checkers"] == ["simulate"] and rows["MC-DAY"]["effects"] >= 2
    assert rows["BF-MOVE"]["checkers"] == []  # a Mechanica sandbox plays no Bot Factory rule


def _whole_game_spec() -> Any:
    from bgrules.runners.specfile import Spec

    return Spec(
        id="T",
        game="mechanica",
        statement="every game ends within the bound",
        rules=("MC-END",),
        predicate="bgrules.mechanica.game_invariants:ends_within_bound",
        kind="game",
        expected="holds",
        checkers=("sampled",),
        players=2,
    )


def test_sampled_checker_decides_each_finished_games_winners(monkeypatch: pytest.MonkeyPatch) -> None:
    from bgrules.runners.sampled import check_sampled
    from bgrules.runners.specfile import Budget, make_game

    spec = _whole_game_spec()
    game = make_game(spec)
    budget = Budget(games=2, max_steps=game.info.max_length, mix=(("random", 1),))
    with counting.recording("sampled") as counts:
        report = check_sampled(spec, game, budget)
    assert report.verdict == "holds" and "ended by MC-END 2" in report.guarantee
    assert counts.effects["MC-END"] == 2 and counts.effects["MC-END-TIE"] == 2  # one decision a game
    monkeypatch.setattr(type(game), "winners", lambda self, state: ())
    assert check_sampled(spec, game, budget).verdict == "violated"
