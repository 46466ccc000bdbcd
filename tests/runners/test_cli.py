"""The command line: its JSON keys are a public contract, and bad input gives one line and exit 2."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bgrules.cli import main

ROOT = Path(__file__).resolve().parents[2]

GOOD = """\
hole      | .    UP0   .   .  | truck
basic[B]  | GW0  FK0   .   .  | big
hole      | .    .     .   .  | truck
"""


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def factory_file(tmp_path: Path) -> Path:
    path = tmp_path / "f.txt"
    path.write_text(GOOD)
    return path


def test_simulate_json_keys() -> None:
    code, out, _ = run(
        "simulate",
        "--game",
        "mechanica-factory",
        "--games",
        "5",
        "--seed",
        "1",
        "--json",
        "--specs",
        str(ROOT / "specs"),
    )
    assert code == 0
    data = json.loads(out)
    for key in ("games", "steps", "invariant_violations", "games_per_second", "steps_per_second"):
        assert key in data
    assert data["games"] == 5 and data["invariant_violations"] == 0 and data["steps"] > 0
    assert data["invariants_checked"], "simulate must check the game's invariants"


def test_simulate_is_deterministic() -> None:
    a = json.loads(run("simulate", "--game", "mechanica-factory", "--games", "3", "--json", "--no-check")[1])
    b = json.loads(run("simulate", "--game", "mechanica-factory", "--games", "3", "--json", "--no-check")[1])
    assert a["steps"] == b["steps"] and a["scores"] == b["scores"] and a["length"] == b["length"]


def test_verify_json_reports_each_spec_with_checker_and_guarantee() -> None:
    code, out, _ = run(
        "verify",
        "--specs",
        str(ROOT / "specs"),
        "--checker",
        "sampled",
        "--games",
        "3",
        "--only",
        "BOTS-CONSERVED",
        "--json",
    )
    assert code == 0
    rows = json.loads(out)
    assert rows and all(r["checker"] == "sampled" and r["guarantee"].startswith("sampled") for r in rows)
    assert all(r["verdict"] == r["expected"] for r in rows)


def test_verify_fails_on_an_unexpected_verdict(tmp_path: Path) -> None:
    (tmp_path / "s.toml").write_text(
        '[[spec]]\nid = "X"\ngame = "mechanica-factory"\nstatement = "wrongly expects no collision"\n'
        'rules = ["MC-COLLIDE"]\npredicate = "bgrules.mechanica.invariants:no_collision"\nkind = "state"\n'
        'expected = "holds"\ncheckers = ["sampled"]\n'
    )
    code, out, _ = run("verify", "--specs", str(tmp_path), "--checker", "sampled", "--games", "20", "--json")
    assert code == 1
    assert json.loads(out)[0]["verdict"] == "violated"


def test_verify_junit(tmp_path: Path) -> None:
    junit = tmp_path / "r.xml"
    code, _, _ = run(
        "verify",
        "--specs",
        str(ROOT / "specs"),
        "--checker",
        "sampled",
        "--games",
        "2",
        "--only",
        "MONEY",
        "--junit-xml",
        str(junit),
    )
    assert code == 0
    assert "<testcase" in junit.read_text()


def test_render_and_check(factory_file: Path) -> None:
    code, out, _ = run("render", str(factory_file))
    assert code == 0 and "GW0" in out and "FK0" in out
    code, out, _ = run("check", str(factory_file), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["legal"] is True and data["loop"] is None


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("hole | . . . . | truck\n", "f.txt"),  # two rows missing
        (GOOD.replace("UP0", "UP7"), "f.txt:1:"),  # bad rotation
        (GOOD.replace("GW0", "XX0"), "f.txt:2:"),  # unknown tile
        (GOOD.replace("big", "big[BBBB]"), "f.txt:2:"),  # too many bots
    ],
)
def test_malformed_factory_is_one_line_exit_2(tmp_path: Path, text: str, where: str) -> None:
    path = tmp_path / "f.txt"
    path.write_text(text)
    code, out, err = run("render", str(path))
    assert code == 2
    assert where in err and "Traceback" not in err + out
    assert len(err.strip().splitlines()) == 1


def test_missing_file_and_bad_variant(tmp_path: Path, factory_file: Path) -> None:
    code, _, err = run("render", str(tmp_path / "nope.txt"))
    assert code == 2 and "nope.txt" in err
    bad = tmp_path / "v.toml"
    bad.write_text("[rulings]\nloop = 'sometimes'\n")
    code, _, err = run("render", str(factory_file), "--variant", str(bad))
    assert code == 2 and "v.toml" in err and "loop" in err
    broken = tmp_path / "w.toml"
    broken.write_text("[rulings\n")
    code, _, err = run("render", str(factory_file), "--variant", str(broken))
    assert code == 2 and "w.toml" in err and "malformed TOML" in err


def test_wrong_player_count_names_the_range() -> None:
    code, _, err = run("simulate", "--game", "mechanica-factory", "--players", "3")
    assert code == 2 and "1 player" in err and "3" in err


def test_replay(tmp_path: Path) -> None:
    actions = tmp_path / "a.json"
    actions.write_text(json.dumps([{"type": "Fabricate", "declare": [], "replace": []}]))
    code, out, _ = run("replay", str(actions), "--game", "mechanica-factory", "-o", "days=1")
    assert code == 0 and json.loads(out)["phase"] == "over"
    actions.write_text('[{"type": ')
    code, _, err = run("replay", str(actions), "--game", "mechanica-factory")
    assert code == 2 and "a.json:1:" in err
    actions.write_text(json.dumps([{"type": "Sell", "row": 1, "bot": "DELUXE"}]))
    code, _, err = run("replay", str(actions), "--game", "mechanica-factory")
    assert code == 2 and "MC-SELL" in err
    actions.write_text(json.dumps([{"type": "Teleport"}]))
    code, _, err = run("replay", str(actions), "--game", "mechanica-factory")
    assert code == 2 and "unknown action type" in err


def test_replay_step_shows_what_the_invariant_read(tmp_path: Path) -> None:
    code, _, err = run(
        "verify", "--only", "MC-Q-COLLISIONS-HAPPEN", "--checker", "searched", "--trace-dir", str(tmp_path), "-q"
    )
    assert code == 0, err
    path = tmp_path / "MC-Q-COLLISIONS-HAPPEN-searched.json"
    trace = json.loads(path.read_text(encoding="utf-8"))
    last = trace["steps"][-1]
    assert last["invariant"] and sum(last["observed"].values()) >= 1  # the file carries the counters too
    code, out, err = run("replay", str(path), "--step")
    assert code == 0, err
    blocks = out.split("\n\n")
    lines = [ln.strip() for ln in out.splitlines() if ln.strip().startswith(("invariant ", "it reads: "))]
    assert lines[:2] == [
        "invariant MC-Q-COLLISIONS-HAPPEN: holds",
        "it reads: collisions (finished runs) 0, collisions (this run) 0",
    ]
    assert lines[-2] == f"invariant MC-Q-COLLISIONS-HAPPEN: fails: {last['invariant']}"
    counters = dict(part.rsplit(" ", 1) for part in lines[-1].removeprefix("it reads: ").split(", "))
    assert sum(map(int, counters.values())) >= 1  # the collision is visible in what the invariant read
    assert len(lines) == 2 * (len(trace["steps"]) + 1) and len(blocks) >= len(trace["steps"])
    # a trace whose spec is not among the specs: the steps all the same, with a note
    trace["spec"] = "NO-SUCH-SPEC"
    other = tmp_path / "other.json"
    other.write_text(json.dumps(trace), encoding="utf-8")
    code, out, err = run("replay", str(other), "--step")
    assert code == 0 and "NO-SUCH-SPEC is not in" in err and "invariant " not in out


def test_every_spec_predicate_declares_what_it_reads() -> None:
    # every state and transition invariant of specs/ names what it reads, and the readers run on the states
    # of a short playout of its game, each value JSON (as a trace file carries it)
    import bgrules
    from bgrules.core.observe import observed, reader_of
    from bgrules.core.playout import walk
    from bgrules.runners.specfile import load_specs, resolve_predicate

    specs = [s for s in load_specs(ROOT / "specs") if s.kind != "game"]
    assert {s.game for s in specs} == {"botfactory", "mechanica", "mechanica-factory"}
    assert [s.id for s in specs if reader_of(resolve_predicate(s.predicate)) is None] == []
    for name in sorted({s.game for s in specs}):
        game = bgrules.load_game(name)
        steps = list(itertools.islice(walk(game, 3), 60))
        assert steps
        for spec in (s for s in specs if s.game == name and not s.options and s.variant is None):
            predicate = resolve_predicate(spec.predicate)
            for before, action, after in steps:
                args = (game, after) if spec.kind == "state" else (game, before, action, after)
                reads = observed(predicate, *args)
                assert reads and json.loads(json.dumps(reads)) == reads, (spec.id, reads)


def test_clarify_files_and_errors(tmp_path: Path) -> None:
    code, out, _ = run("clarify", str(ROOT / "specs" / "clarifications"), "--json")
    assert code == 0
    rows = json.loads(out)
    assert len({r["id"] for r in rows}) >= 12 and all(r["ok"] for r in rows)
    assert {"witness"} <= {r["checker"] for r in rows}
    bad = tmp_path / "bad.toml"
    bad.write_text("id = [\n")
    code, _, err = run("clarify", str(bad))
    assert code == 2 and "bad.toml" in err


def test_diff_finds_a_difference_and_refuses_one_variant(tmp_path: Path) -> None:
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    a.write_text('[rulings]\noff_floor = "destroy"\n')
    b.write_text('[rulings]\noff_floor = "forbid"\n')
    code, out, _ = run(
        "diff",
        "--game",
        "mechanica-factory",
        "--variant",
        str(a),
        "--variant",
        str(b),
        "-o",
        'supply=["upgrader"]',
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert data["found"] is True and "MC-MOVE-OFF" in json.dumps(data)
    code, _, err = run("diff", "--game", "mechanica-factory", "--variant", str(a))
    assert code == 2 and "two variant files" in err


def test_simulate_counts_games_truncated_by_its_round_cap() -> None:
    args = ("simulate", "--game", "botfactory", "--players", "2", "--games", "2", "--json", "--no-check")
    code, out, _ = run(*args, "--max-rounds", "3")
    assert code == 0
    data = json.loads(out)
    assert data["round_cap"] == 3 and data["truncated"] == 2  # random play builds no bots in 3 rounds
    assert data["length"]["max"] < 200
    _, out, _ = run(*args)
    data = json.loads(out)
    assert data["round_cap"] == 40 and data["truncated"] == 2  # the default cap for botfactory: 40 rounds
    _, out, _ = run(*args, "-o", "max_rounds=3")  # the game's own cap (0.3.0): games end, none truncated
    data = json.loads(out)
    assert data["round_cap"] is None and data["truncated"] == 0
    code, _, err = run(*args, "--max-rounds", "0")
    assert code == 2 and "max_rounds" in err


def test_simulate_counts_truncated_games_for_no_one_as_balance_does() -> None:
    args = ("--game", "botfactory", "--players", "2", "--games", "6", "--agents", "greedy", "--json")
    _, out, _ = run("simulate", *args, "--no-check", "--max-rounds", "12")
    simulated = json.loads(out)
    _, out, _ = run("balance", *args, "--max-rounds", "12")
    balanced = json.loads(out)
    assert simulated["truncated"] == balanced["truncated"] == 2  # some games cut short, some finished
    assert simulated["finished"] == balanced["finished"] == 4 and simulated["win_rate_denominator"] == "finished"
    assert simulated["win_rate_by_seat"] == [s["win_rate"] for s in balanced["seats"]]
    # every game cut short: no one won any, and there is no rate to give
    _, out, _ = run("simulate", *args[:6], "--no-check", "--json", "--max-rounds", "3")
    data = json.loads(out)
    assert data["truncated"] == 6 and data["finished"] == 0 and data["win_rate_by_seat"] == [None, None]


def test_simulate_with_agents_reports_agents_end_triggers_and_scores_per_seat() -> None:
    args = ("simulate", "--game", "botfactory", "--players", "2", "--games", "2", "--json", "--no-check")
    code, out, _ = run(*args, "--agents", "greedy", "--max-rounds", "100")
    assert code == 0
    data = json.loads(out)
    assert data["agents"] == ["greedy", "greedy"]
    ended = data["ended_by"]  # greedy builds bots: the seed's end, by either trigger
    assert set(ended) <= {"BF-END-COLOUR", "BF-END-FIFTH"} and sum(ended.values()) == 2 and data["truncated"] == 0
    assert set(data["scores"]) == {"mean", "min", "max"} and all(len(v) == 2 for v in data["scores"].values())
    for key in ("games", "steps", "length", "win_rate_by_seat", "round_cap", "invariant_violations"):
        assert key in data
    _, out, _ = run(*args, "--max-rounds", "3")  # random play stopped by the runner's cap: truncated
    data = json.loads(out)
    assert data["agents"] == ["random", "random"] and data["ended_by"] == {"truncated": 2}
    code, out, _ = run(
        "simulate",
        "--game",
        "mechanica",
        "--players",
        "2",
        "--games",
        "1",
        "--json",
        "--no-check",
        "--agents",
        "greedy,random",
    )
    data = json.loads(out)
    assert code == 0 and data["agents"] == ["greedy", "random"] and data["ended_by"] == {"MC-END": 1}


@pytest.mark.parametrize(
    ("agents", "words"),
    [
        ("clever", "unknown agent 'clever'; valid: random, greedy, mcts"),
        ("greedy,random,random", "2 seats need 1 or 2 agent names, not 3"),
        ("mcts:iterations=0", "at least 1"),
        ("mcts:seconds=-1", "above 0"),
    ],
)
def test_simulate_bad_agents_is_one_line_and_exit_2(agents: str, words: str) -> None:
    code, _out, err = run("simulate", "--game", "botfactory", "--players", "2", "--games", "1", "--agents", agents)
    assert code == 2 and words in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("command", ["verify", "prove"])
def test_only_matching_nothing_is_not_a_pass(command: str) -> None:
    """No vacuous pass: an --only that matches no id exits 2 with one line, never 'holds'."""
    code, out, err = run(command, "--only", "NO-SUCH-ID", "--json")
    assert code == 2 and "nothing was checked" in err and len(err.strip().splitlines()) == 1
    assert "holds" not in out


def test_clarify_of_an_empty_directory_is_not_a_pass(tmp_path: Path) -> None:
    code, _out, err = run("clarify", str(tmp_path))
    assert code == 2 and "nothing was checked" in err


# --- code that runs: a user's predicate modules (docs/verify.md) ------------------------------------------

USER_CHECKS = """\
def raises(game, state):
    raise ZeroDivisionError("a bug in the user's\\npredicate")


def holds(game, state):
    return None
"""

USER_SPECS = """\
[[spec]]
id = "X-RAISES"
game = "mechanica-factory"
statement = "a predicate with a bug"
rules = ["MC-STOCK"]
predicate = "user_checks:raises"
kind = "state"
expected = "holds"
checkers = ["sampled", "searched"]

[[spec]]
id = "X-HOLDS"
game = "mechanica-factory"
statement = "a predicate that holds"
rules = ["MC-STOCK"]
predicate = "user_checks:holds"
kind = "state"
expected = "holds"
checkers = ["sampled", "searched"]
"""

USER_CLARIFICATION = """\
id = "X-CL-RAISES"
question = "a question"
answer = "an answer"
game = "mechanica-factory"
rules = ["MC-STOCK"]

[[witness]]
name = "raises-at-the-end"
actions = []
expect = { predicate = "user_checks:raises" }

[[witness]]
name = "plain"
actions = []
expect = { terminal = false }

[[property]]
predicate = "user_checks:raises"
checkers = ["sampled", "searched"]
budget = { games = 2, examples = 2, max_steps = 5 }

[[property]]
predicate = "user_checks:holds"
budget = { games = 2, max_steps = 5 }
"""


@pytest.fixture
def user_project(tmp_path: Path) -> Path:
    """A project directory of its own: a predicate module beside its specs/ and a clarification."""
    (tmp_path / "user_checks.py").write_text(USER_CHECKS)
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "user.toml").write_text(USER_SPECS)
    (tmp_path / "cl.toml").write_text(USER_CLARIFICATION)
    return tmp_path


def _in(directory: Path, *args: str) -> tuple[int, str, str]:
    import os

    here = os.getcwd()
    os.chdir(directory)
    try:
        return run(*args)
    finally:
        os.chdir(here)


def test_a_predicate_that_raises_is_its_specs_fail_row(user_project: Path) -> None:
    """verify: the spec whose predicate raises is a FAIL row (verdict unknown) with the exception in one
    line, for each checker; the other spec still runs and holds; exit 1, never a traceback."""
    code, out, err = _in(
        user_project, "verify", "--checker", "sampled", "--checker", "searched", "--games", "2", "--examples", "2",
        "--max-steps", "5", "--json", "--jobs", "1",
    )  # fmt: skip
    assert code == 1, err
    rows = {(r["id"], r["checker"]): r for r in json.loads(out)}
    for checker in ("sampled", "searched"):
        bad = rows[("X-RAISES", checker)]
        assert not bad["ok"] and bad["verdict"] == "unknown"
        assert "ZeroDivisionError: a bug in the user's predicate" in bad["detail"] and "\n" not in bad["detail"]
        assert rows[("X-HOLDS", checker)]["ok"] and rows[("X-HOLDS", checker)]["verdict"] == "holds"
    assert "Traceback" not in out + err
    assert "specs specs (the current directory's" in err  # which specs the run used


def test_a_predicate_that_raises_is_its_clarifications_fail_row(user_project: Path) -> None:
    """clarify: a witness or property whose predicate raises is that check's FAIL row; the others run."""
    code, out, err = _in(user_project, "clarify", "cl.toml", "--json", "--jobs", "1")
    assert code == 1, err
    rows = {(r["id"], r["checker"]): r for r in json.loads(out)}
    assert rows[("X-CL-RAISES/raises-at-the-end", "witness")]["verdict"] == "unknown"
    assert "ZeroDivisionError" in rows[("X-CL-RAISES/raises-at-the-end", "witness")]["detail"]
    assert rows[("X-CL-RAISES/plain", "witness")]["ok"]
    for checker in ("sampled", "searched"):
        row = rows[("X-CL-RAISES/raises", checker)]
        assert row["verdict"] == "unknown" and "ZeroDivisionError" in row["detail"], row
    assert rows[("X-CL-RAISES/holds", "sampled")]["ok"]


@pytest.mark.parametrize("entry", ["module", "script"])
def test_both_entry_points_find_a_users_predicate_module(user_project: Path, entry: str) -> None:
    """``python -m bgrules`` and the ``bgrules`` console script both find ``user_checks`` in the current
    directory (docs/verify.md, "Code that runs")."""
    import os
    import subprocess
    import sys

    script = Path(sys.executable).parent / "bgrules"
    if entry == "script" and not script.exists():
        pytest.skip("no bgrules console script beside this Python")
    command = [sys.executable, "-m", "bgrules"] if entry == "module" else [str(script)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [*command, "verify", "--only", "X-HOLDS", "--checker", "sampled", "--games", "1", "--max-steps", "3"],
        cwd=user_project, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "ok   X-HOLDS [sampled] holds" in done.stdout


def test_trace_files_of_two_ids_never_share_a_name() -> None:
    """``--trace-dir`` gives every row with a trace its own file, whatever the ids (``A_B/c`` and ``A/B_c``
    once wrote one file; a name too long, or holding what a file name cannot, gets a digest)."""
    from bgrules.runners.trace import file_names

    rows = [
        {"id": "A_B/c", "checker": "sampled", "kind": "clarification", "trace": {"actions": []}},
        {"id": "A/B_c", "checker": "sampled", "kind": "clarification", "trace": {"actions": []}},
        {"id": "A_B_c", "checker": "sampled", "kind": "spec", "trace": {"actions": []}},
        {"id": "Z" * 300, "checker": "searched", "kind": "spec", "trace": {"actions": []}},
        {"id": "Q\\R:*", "checker": "searched", "kind": "spec", "trace": {"actions": []}},
        {"id": "NONE", "checker": "sampled", "kind": "spec", "trace": None},
    ]
    names = file_names(rows)
    assert names[0] == "A_B_c-sampled.json" and names[-1] is None
    given = [n for n in names if n is not None]
    assert len(set(given)) == len(given) == 5
    assert all(len(n.encode()) <= 200 and "/" not in n and "\\" not in n for n in given)
    assert file_names(rows) == names  # the same names on every run
