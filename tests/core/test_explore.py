"""The exhaustive explorer (bgrules.explore), checked on games written without bgrules whose counts are
known: tic-tac-toe (5,478 legal positions, 765 up to the board's 8 symmetries) and a small dice game
with chance nodes."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import attrs
import pytest
from support.explore_counts import CONFIGS, GOLDEN, MIDGAME, STARTS, counts, midgame_counts
from support.tictactoe import PlainTicTacToe, TicTacToe

import bgrules
from bgrules import CHANCE, InputError
from bgrules.core.explore import explore, has_symmetry

# Positions by number of marks (the published breakdown of the 5,478), and up to symmetry (765).
TTT_LEVELS = (1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78)
TTT_SYMMETRIC_LEVELS = (1, 3, 12, 38, 108, 174, 204, 153, 57, 15)


def test_explore_is_exported() -> None:
    assert bgrules.explore is explore


def test_tictactoe_has_the_published_count_of_positions() -> None:
    found = explore(TicTacToe(), symmetry=False)
    assert found.distinct == 5478
    assert found.complete and found.stopped is None and not found.symmetric
    assert [level.depth for level in found.levels] == list(range(10))
    assert tuple(level.distinct for level in found.levels) == TTT_LEVELS


def test_tictactoe_has_765_positions_up_to_symmetry() -> None:
    found = explore(TicTacToe())
    assert found.symmetric
    assert found.distinct == 765
    assert found.complete
    assert tuple(level.distinct for level in found.levels) == TTT_SYMMETRIC_LEVELS


def test_a_game_without_canonical_is_explored_state_by_state() -> None:
    game = PlainTicTacToe()
    assert not has_symmetry(game) and has_symmetry(TicTacToe())
    found = explore(game)  # symmetry=True uses canonical only when the game declares one
    assert not found.symmetric and found.distinct == 5478


def test_exploring_from_a_given_state_counts_what_it_reaches() -> None:
    game = TicTacToe()
    board = ("X", "O", "X", "O", "X", "O", " ", " ", " ")  # X to move; 6 and 8 win at once
    found = explore(game, symmetry=False, start=board)
    # 6 -> X wins; 8 -> X wins; 7 -> O picks 6 (then X takes 8 and wins) or 8 (X takes 6: full, X wins)
    assert tuple(level.distinct for level in found.levels) == (1, 3, 2, 2)
    assert found.complete


def test_shortest_paths_replay_to_the_states_found() -> None:
    game = TicTacToe()
    found = explore(game, symmetry=False)
    board = ("X", "X", "X", "O", "O", " ", " ", " ", " ")
    path = found.path_to(board)
    assert path is not None and len(path) == 5
    state = game.initial_state()
    for cell in path:
        state = game.apply(state, cell)
    assert state == board
    assert found.path_to(game.initial_state()) == ()
    unreachable = ("X",) * 9
    assert unreachable not in found and found.path_to(unreachable) is None


def test_shortest_paths_up_to_symmetry_reach_a_symmetric_state() -> None:
    game = TicTacToe()
    found = explore(game)
    board = (" ", " ", " ", " ", " ", " ", "O", " ", "X")  # first found as its image X top-left
    path = found.path_to(board)
    assert path is not None and len(path) == 2
    state = game.initial_state()
    for cell in path:
        state = game.apply(state, cell)
    assert game.canonical(state) == game.canonical(board) and state != board


def test_a_depth_budget_leaves_the_exploration_incomplete() -> None:
    found = explore(TicTacToe(), depth=3, symmetry=False)
    assert tuple(level.distinct for level in found.levels) == TTT_LEVELS[:4]
    assert not found.complete and found.stopped == "depth"
    assert explore(TicTacToe(), depth=9, symmetry=False).complete  # depth 9: every board is terminal


def test_a_state_budget_bounds_the_states_kept() -> None:
    found = explore(TicTacToe(), max_states=100, symmetry=False)
    assert found.distinct == 100
    assert not found.complete and found.stopped == "max_states"
    exact = explore(TicTacToe(), max_states=765)
    assert exact.distinct == 765 and exact.complete  # a budget the game fits in exactly is no cut


def test_a_time_budget_stops_the_exploration() -> None:
    found = explore(TicTacToe(), seconds=1e-9, symmetry=False)
    assert not found.complete and found.stopped == "seconds"
    assert found.distinct < 5478


@pytest.mark.parametrize(
    ("budget", "value"),
    [
        ("depth", 0),
        ("depth", -1),
        ("max_states", 0),
        ("max_states", -5),
        ("seconds", 0),
        ("seconds", -1.0),
        ("depth", 1.5),
        ("depth", True),
        ("max_states", "10"),
    ],
)
def test_a_budget_of_zero_or_less_is_refused(budget: str, value: Any) -> None:
    with pytest.raises(InputError, match=budget):
        explore(TicTacToe(), **{budget: value})


class DiceGame:
    """Roll a die of two faces (1 or 2) and add it to the total; below 3, stop or roll again. A state is
    a plain tuple (phase, total)."""

    players = 1

    def initial_state(self) -> tuple[str, int]:
        return ("roll", 0)

    def is_terminal(self, state: tuple[str, int]) -> bool:
        return state[0] == "done" or (state[0] == "moved" and state[1] >= 3)

    def to_move(self, state: tuple[str, int]) -> Any:
        if self.is_terminal(state):
            return None
        return CHANCE if state[0] == "roll" else 0

    def chance_outcomes(self, state: tuple[str, int]) -> tuple[tuple[int, Fraction], ...]:
        if state[0] != "roll":
            return ()
        return ((1, Fraction(1, 2)), (2, Fraction(1, 2)))

    def legal_actions(self, state: tuple[str, int]) -> tuple[str, ...]:
        return ("again", "stop") if self.to_move(state) == 0 else ()

    def apply(self, state: tuple[str, int], step: Any) -> tuple[str, int]:
        if state[0] == "roll":
            return ("moved", state[1] + step)
        return ("roll", state[1]) if step == "again" else ("done", state[1])


def test_chance_nodes_are_expanded_with_every_outcome() -> None:
    game = DiceGame()
    found = explore(game)
    # (roll 0); (moved 1), (moved 2); (roll 1), (done 1), (roll 2), (done 2); (moved 3), (moved 4)
    assert tuple(level.distinct for level in found.levels) == (1, 2, 4, 2)
    assert found.distinct == 9 and found.complete
    assert found.path_to(("moved", 4)) == (2, "again", 2)


# --- bgrules explore (the CLI) ---------------------------------------------------------------------------


def _cli(*args: str) -> tuple[int, str, str]:
    from click.testing import CliRunner

    from bgrules.cli import main

    result = CliRunner().invoke(main, ["explore", *args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_cli_explore_prints_the_counts_per_depth_as_the_library_finds_them() -> None:
    code, out, _err = _cli("--game", "botfactory", "--players", "2", "--depth", "2", "--json")
    assert code == 0
    data = json.loads(out)
    found = explore(bgrules.load_game("botfactory", players=2), depth=2)
    assert data["game"] == "botfactory" and data["players"] == 2
    assert data["distinct"] == found.distinct and data["complete"] is False and data["stopped"] == "depth"
    assert data["levels"] == [{"depth": lv.depth, "distinct": lv.distinct} for lv in found.levels]
    assert data["levels"][0] == {"depth": 0, "distinct": 1}
    code, out, _err = _cli("--game", "botfactory", "--players", "2", "--depth", "2")
    assert code == 0 and f"{found.distinct} distinct state(s), incomplete (stopped by --depth)" in out


def test_cli_explore_starts_from_a_state_file(tmp_path: Path) -> None:
    game = bgrules.load_game("botfactory", players=2)
    state = game.apply(game.initial_state(), game.legal_actions(game.initial_state())[0])
    path = tmp_path / "s.json"
    path.write_text(bgrules.dumps(state))
    code, out, _err = _cli("--game", "botfactory", "--players", "2", "--from", str(path), "--depth", "2", "--json")
    assert code == 0, _err
    data = json.loads(out)
    assert data["distinct"] == explore(game, depth=2, start=state).distinct
    assert data["distinct"] != explore(game, depth=2).distinct


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("--game", "mechanica", "--depth", "0"), "--depth"),
        (("--game", "mechanica", "--depth", "-3"), "--depth"),
        (("--game", "mechanica", "--max-states", "0"), "--max-states"),
        (("--game", "mechanica", "--seconds", "-1"), "--seconds"),
        (("--game", "mechanica", "--symmetry", "--depth", "1"), "--symmetry"),
        (("--depth", "1"), "--game"),
    ],
)
def test_cli_explore_refuses_bad_input_in_one_line(args: tuple[str, ...], says: str) -> None:
    code, out, err = _cli(*args)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and says in err, err


def test_cli_explore_refuses_a_start_state_that_fails_validation(tmp_path: Path) -> None:
    game = bgrules.load_game("botfactory", players=2)
    state = game.initial_state()
    bad = attrs.evolve(state, hands=(attrs.evolve(state.hands[0], tokens=-2), *state.hands[1:]))
    assert game.validate(bad)
    path = tmp_path / "bad.json"
    path.write_text(bgrules.dumps(bad))
    code, out, err = _cli("--game", "botfactory", "--players", "2", "--from", str(path), "--depth", "1")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "tokens" in err, err


# --- the golden counts of the games (tests/data/explore_counts.json) ----------------------------------------


def test_the_golden_counts_cover_every_config() -> None:
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert [(c["game"], c["players"], c["depth"]) for c in golden] == list(CONFIGS)
    assert {c["game"] for c in golden} == set(bgrules.game_names())
    assert all(len(c["levels"]) == c["depth"] + 1 and c["levels"][0] == 1 for c in golden)


def _kept_starts() -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = json.loads(STARTS.read_text(encoding="utf-8"))
    return rows


@pytest.mark.parametrize("reference", [False, True], ids=["fast", "reference"])
@pytest.mark.parametrize(("name", "players", "depth"), CONFIGS)
def test_the_initial_counts_are_the_same_on_both_engines(name: str, players: int, depth: int, reference: bool) -> None:
    golden = {(c["game"], c["players"]): c for c in json.loads(GOLDEN.read_text(encoding="utf-8"))}
    assert counts(name, players, depth, reference=reference) == golden[(name, players)]


@pytest.mark.parametrize("reference", [False, True], ids=["fast", "reference"])
@pytest.mark.parametrize("index", range(len(MIDGAME)))
def test_the_midgame_counts_per_depth_are_unchanged_on_both_engines(index: int, reference: bool) -> None:
    row = _kept_starts()[index]
    assert midgame_counts(row, reference=reference) == row


def test_the_midgame_starts_cover_every_config_deeper_than_one_ply() -> None:
    rows = _kept_starts()
    assert [(r["game"], r["players"], r["steps"], r["depth"]) for r in rows] == list(MIDGAME)
    assert {r["game"] for r in rows} == set(bgrules.game_names())
    assert all(len(r["levels"]) == r["depth"] + 1 and r["depth"] >= 2 and r["distinct"] > 500 for r in rows)


def test_cli_explore_is_bounded_by_default_and_says_when_it_stops() -> None:
    """With no --max-states the command keeps at most 500,000 states (a memory bound), and a bound that
    stops the run is reported: incomplete, stopped by max_states."""
    from bgrules.cli.play import EXPLORE_MAX_STATES

    assert EXPLORE_MAX_STATES == 500_000
    code, out, _err = _cli("--game", "botfactory", "--players", "2", "--max-states", "50", "--json")
    data = json.loads(out)
    assert code == 0 and data["distinct"] == 50 and data["complete"] is False
    code, out, _err = _cli("--help")
    assert "500000" in out.replace(",", "").replace("_", "")
