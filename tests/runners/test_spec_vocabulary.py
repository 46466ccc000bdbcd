"""One vocabulary for specs and proofs (docs/verify.md, docs/proofs.md): a spec carries its verdicts for
every player count it lists, a proof obligation names the spec it proves, the report groups under each
spec its sampled, searched, explored and proved verdicts, and the explored checker checks every state
within its depth."""

from __future__ import annotations

import json
import re
import shutil
from collections import deque
from pathlib import Path
from typing import Any

import attrs
import pytest
from click.testing import CliRunner

from bgrules.cli import main
from bgrules.core.errors import InputError
from bgrules.core.playout import replay, walk
from bgrules.core.protocol import CHANCE
from bgrules.runners.explored import check_explored_together, midgame_starts
from bgrules.runners.specfile import (
    COMPARISONS,
    Budget,
    Spec,
    _spec_from,
    default_invariants,
    find_spec,
    load_specs,
    make_game,
    parts,
    select,
)

ROOT = Path(__file__).resolve().parents[2]
SPECS = load_specs(ROOT / "specs")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def _entry(**changes: Any) -> dict[str, Any]:
    entry = {
        "id": "X-SPEC",
        "game": "botfactory",
        "statement": "s",
        "rules": ["BF-ORDER"],
        "predicate": "bgrules.botfactory.invariants:order_is_permutation",
        "kind": "state",
        "expected": "holds",
        "checkers": ["sampled", "searched", "explored"],
    }
    entry.update(changes)
    return entry


# --- player counts ------------------------------------------------------------------------------


def test_a_spec_lists_its_player_counts_and_an_int_stays_one_count() -> None:
    many = _spec_from(_entry(players=[2, 3, 4]), "f spec[0]")
    one = _spec_from(_entry(players=3), "f spec[0]")
    default = _spec_from(_entry(), "f spec[0]")
    assert (many.players, one.players, default.players) == ((2, 3, 4), (3,), None)
    assert [p.players for p in parts(many)] == [(2,), (3,), (4,)]
    assert parts(one) == [one] and parts(default) == [default]
    assert make_game(parts(many)[1]).players == 3 and make_game(one).players == 3


@pytest.mark.parametrize(
    ("players", "says"),
    [([], "not an empty list"), ([2, 2], "each count once"), ([2, 0], "players[1]"), ("4", "players"), (0, "players")],
)
def test_bad_player_counts_are_refused_with_where_and_why(players: Any, says: str) -> None:
    with pytest.raises(InputError, match="f spec\\[0\\] players") as caught:
        _spec_from(_entry(players=players), "f spec[0]")
    assert says in str(caught.value)


@pytest.mark.parametrize("key", ["depth", "max_states", "starts", "examples", "search_steps"])
@pytest.mark.parametrize("value", [0, -1])
def test_a_zero_or_negative_budget_is_refused_with_where_and_why(key: str, value: int) -> None:
    for table in ("budget", "thorough"):
        with pytest.raises(InputError, match=f"f spec\\[0\\] {table}.{key}: a whole number from 1"):
            _spec_from(_entry(**{table: {key: value}}), "f spec[0]")


def test_a_spec_file_with_a_bad_depth_is_one_line_and_exit_2(tmp_path: Path) -> None:
    specs = tmp_path / "specs"
    specs.mkdir()
    shutil.copy(ROOT / "specs" / "botfactory.toml", specs / "botfactory.toml")
    text = (specs / "botfactory.toml").read_text()
    (specs / "botfactory.toml").write_text(text.replace("depth = 4,", "depth = 0,", 1))
    code, _out, err = run("verify", "--specs", str(specs), "--checker", "explored", "--only", "BF-INV-LIMITS")
    assert code == 2
    assert "botfactory.toml spec[0] budget.depth: a whole number from 1" in err and len(err.strip().splitlines()) == 1


def test_a_target_is_a_function_name_and_game_specs_take_no_explored() -> None:
    assert _spec_from(_entry(target="a.b:c"), "w").target == "a.b:c"
    with pytest.raises(InputError, match="w target"):
        _spec_from(_entry(target="not a function"), "w")
    with pytest.raises(InputError, match="sampled checker only"):
        _spec_from(_entry(kind="game", checkers=["sampled", "explored"]), "w")


def test_the_per_count_copies_are_merged_into_one_spec_each() -> None:
    ids = [s.id for s in SPECS]
    assert not [i for i in ids if i.endswith(("-2P", "-3P", "-4P"))]
    for spec_id in ("BF-INV-LIMITS", "BF-END-WHEN", "BF-INV-ENDS", "MC-GAME-BOTS-CONSERVED", "MC-GAME-ENDS"):
        (spec,) = [s for s in SPECS if s.id == spec_id]
        assert spec.players == (2, 3, 4)


def test_an_old_per_count_id_selects_that_part() -> None:
    (three,) = select(SPECS, "BF-INV-LIMITS-3P")
    assert (three.id, three.players) == ("BF-INV-LIMITS", (3,))
    assert find_spec(SPECS, "MC-GAME-ENDS-4P") == parts(find_spec(SPECS, "MC-GAME-ENDS"))[2]  # type: ignore[arg-type]
    whole = select(SPECS, "BF-INV-LIMITS")
    assert [s.players for s in whole] == [(2, 3, 4)]
    assert {s.players for s in select(SPECS, "-2P")} == {(2,)}


# --- the report ------------------------------------------------------------------------------------


def test_the_rows_carry_each_player_count_and_the_report_groups_them_under_the_spec() -> None:
    args = ("verify", "--only", "BF-INV-ORDER", "--checker", "sampled", "--checker", "explored", "--checker", "proved")
    code, out, err = run(*args, "--games", "2", "--json")
    assert code == 0, err
    rows = json.loads(out)
    got = [(r["id"], r["checker"], r["players"]) for r in rows]
    assert got == [("BF-INV-ORDER", c, n) for c in ("sampled", "explored") for n in (2, 3, 4)]
    assert {"id", "kind", "checker", "verdict", "expected", "guarantee", "ok", "trace"} <= set(rows[0])
    line = "  BF-INV-ORDER: sampled holds (2, 3, 4 players); searched - (not run); explored holds (2, 3, 4 players); "
    assert line + "proved - (no proof obligation names it)" in err
    code, out, _err = run(*args[:-6], "--checker", "sampled", "--games", "2")
    assert "ok   BF-INV-ORDER [sampled] (3 players) holds" in out


def test_the_old_id_of_a_count_runs_that_count_alone() -> None:
    code, out, err = run("verify", "--only", "BF-INV-ORDER-3P", "--checker", "sampled", "--games", "2", "--json")
    assert code == 0, err
    assert [(r["id"], r["players"]) for r in json.loads(out)] == [("BF-INV-ORDER", 3)]


def test_a_proof_row_names_the_spec_it_proves_and_the_spec_gathers_it(tmp_path: Path) -> None:
    code, out, err = run("verify", "--only", "BF-PROOF-CONTRACTS-RESERVE", "--checker", "proved", "--json")
    assert code == 0, err
    (row,) = json.loads(out)
    assert row["proves"] == "BF-INV-RESERVATIONS"
    from bgrules.runners.report import by_spec
    from bgrules.runners.report_html import write_report

    (spec,) = [s for s in SPECS if s.id == "BF-INV-RESERVATIONS"]
    (entry,) = by_spec([row], [spec], ("proved",))
    assert entry["proved"]["rows"] == [row] and entry["sampled"]["reason"] == "not run"
    index = write_report(tmp_path, [row], grouped=[entry])
    page = index.read_text()
    assert 'id="by-spec"' in page and "BF-PROOF-CONTRACTS-RESERVE" in page and "not run" in page


def test_a_proves_naming_no_spec_is_one_line_naming_the_file_and_the_obligation(tmp_path: Path) -> None:
    proofs = tmp_path / "proofs"
    shutil.copytree(ROOT / "proofs", proofs, ignore=shutil.ignore_patterns("__pycache__"))
    manifest = proofs / "botfactory.manifest.toml"
    manifest.write_text(manifest.read_text().replace('proves = "BF-INV-RESERVATIONS"', 'proves = "BF-INV-NO-SUCH"'))
    code, _out, err = run("verify", "--proofs", str(proofs), "--checker", "proved", "--only", "BF-PROOF-CONTRACTS")
    assert code == 2
    assert "botfactory.manifest.toml obligation[" in err and "proves" in err and "'BF-INV-NO-SUCH'" in err
    assert "BF-PROOF-CONTRACTS-RESERVE" in err and len(err.strip().splitlines()) == 1


def test_every_proves_of_the_shipped_manifests_names_a_spec() -> None:
    from bgrules.runners.proofs import load_proves

    found = load_proves(ROOT / "proofs")
    assert found and {spec for spec, _where in found.values()} <= {s.id for s in SPECS}
    assert found["MC-PROOF-CONS-BOTS"][0] == "MC-GAME-BOTS-CONSERVED"


# --- the explored checker --------------------------------------------------------------------------


def deck_keeps_25(game: Any, state: Any) -> str | None:
    """A planted violation: Mechanica's deck of 27 loses a tile at each draw, so the third draw breaks it."""
    return None if sum(state.deck) >= 25 else f"the deck holds {sum(state.deck)} tiles"


def no_flight_tester_drawn(game: Any, before: Any, action: Any, after: Any) -> str | None:
    return "a Flight Tester was drawn" if "flight_tester" in repr(action) else None


def _least_depth(game: Any, bad: Any) -> int:
    """The least number of plies to a state ``bad`` holds of, by a plain breadth-first walk."""
    frontier = deque([(game.initial_state(), 0)])
    seen = {game.initial_state()}
    while frontier:
        state, depth = frontier.popleft()
        if bad(state):
            return depth
        if game.is_terminal(state):
            continue
        chance = game.to_move(state) is CHANCE
        steps = [o for o, _p in game.chance_outcomes(state)] if chance else list(game.legal_actions(state))
        for step in steps:
            child = game.apply(state, step)
            if child not in seen:
                seen.add(child)
                frontier.append((child, depth + 1))
    raise AssertionError("no such state")


def _planted(predicate: str, kind: str) -> Spec:
    return Spec(
        id="X-PLANTED",
        game="mechanica",
        statement="planted",
        rules=("MC-SHOP-DRAW",),
        predicate=f"runners.test_spec_vocabulary:{predicate}",
        kind=kind,
        expected="holds",
        checkers=("explored",),
        players=2,
    )


def test_the_explored_checker_finds_a_planted_violation_with_a_shortest_trace() -> None:
    spec = _planted("deck_keeps_25", "state")
    game = make_game(spec)
    (report,) = check_explored_together([spec], game, Budget(depth=4, max_states=5000))
    assert report.verdict == "violated" and report.checker == "explored"
    assert len(report.witness) == _least_depth(game, lambda s: deck_keeps_25(game, s) is not None) == 3
    assert report.detail.startswith("depth 3 (a shortest trace): the deck holds 24 tiles")
    assert report.trace["actions"] and report.trace["steps"][-1]["invariant"] == "the deck holds 24 tiles"
    (edge,) = check_explored_together([_planted("no_flight_tester_drawn", "transition")], game, Budget(depth=3))
    assert edge.verdict == "violated" and edge.witness == ("Draw(kind='flight_tester')",)


def test_the_explored_guarantee_names_the_depth_the_states_and_completeness() -> None:
    spec = find_spec(SPECS, "MC-GAME-BOTS-CONSERVED-2P")
    assert spec is not None and "explored" in spec.checkers
    (report,) = check_explored_together([spec], make_game(spec), Budget(depth=2, max_states=100))
    assert report.verdict == "holds"
    assert report.guarantee == (
        "explored: every state within 2 plies of the initial state (55 distinct states; max_states 100), "
        "incomplete (stopped by depth)"
    )


def deck_keeps_20(game: Any, state: Any) -> str | None:
    """A planted violation out of the initial state's reach at a shallow depth: the deck falls below 20."""
    return None if sum(state.deck) >= 20 else f"the deck holds {sum(state.deck)} tiles"


def test_mid_game_starts_come_from_the_seeded_random_games_and_spread_to_the_end() -> None:
    game = make_game(_planted("deck_keeps_20", "state"))
    starts = midgame_starts(game, 4, seed=0)
    assert starts == midgame_starts(game, 4, seed=0)
    assert len(starts) == 4
    for i, (actions, state) in enumerate(starts):
        assert replay(game, actions) == state and not game.is_terminal(state)
        whole = len(list(walk(game, i)))
        assert len(actions) == whole * (i + 1) // 4 - 1  # a quarter, a half, three quarters, the last state
    assert [len(a) for a, _s in starts] != [len(a) for a, _s in midgame_starts(game, 4, seed=10)]


def test_the_explored_checker_explores_from_mid_game_starts_and_traces_from_the_initial_state() -> None:
    spec = _planted("deck_keeps_20", "state")
    game = make_game(spec)
    (shallow,) = check_explored_together([spec], game, Budget(depth=2, max_states=200))
    assert shallow.verdict == "holds", "two plies from the initial state never draw 8 tiles"
    (report,) = check_explored_together([spec], game, Budget(depth=2, max_states=200, starts=3))
    assert report.verdict == "violated"
    found = re.fullmatch(
        r"(?:depth (\d+) from the )?mid-game start after (\d+) actions: the deck holds \d+ tiles", report.detail
    )
    assert found, report.detail
    depth, before = int(found.group(1) or 0), int(found.group(2))
    assert before in [len(a) for a, _s in midgame_starts(game, 3)]
    assert len(report.witness) == before + depth, "the trace runs from the initial state through the start"
    assert report.trace["steps"][-1]["invariant"] == report.detail.rsplit(": ", 1)[1]
    holds = attrs.evolve(spec, predicate="runners.test_spec_vocabulary:deck_keeps_0")
    (many,) = check_explored_together([holds], game, Budget(depth=1, max_states=50, starts=2))
    assert many.verdict == "holds"
    assert many.guarantee.startswith(
        "explored: every state within 1 plies of the initial state and of 2 mid-game state(s) (random games, seeds 0-1)"
    )


def deck_keeps_0(game: Any, state: Any) -> str | None:
    return None if sum(state.deck) >= 0 else "a negative deck"


@pytest.mark.parametrize("game_name", ["botfactory", "mechanica"])
def test_the_invariants_simulate_checks_leave_the_engine_comparison_to_verify(game_name: str) -> None:
    specs = [s for s in load_specs(ROOT / "specs") if s.game == game_name and s.expected == "holds" and not s.options]
    compared = {s.id for s in specs if s.predicate in COMPARISONS and s.variant is None}
    assert compared  # the refinement specs of the default rules exist ...
    ids = {spec_id for spec_id, _kind, _pred in default_invariants(game_name, 4, ROOT / "specs")}
    assert not ids & compared  # ... and are not invariants simulate checks at every step
    assert {s.id for s in specs if s.predicate.endswith(":never_stuck") and s.variant is None} & ids
