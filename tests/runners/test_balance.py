"""bgrules balance: the counting rules on hand-made records, the runner on real playouts, the public JSON, the plot
(a real PNG and SVG) and bad input (one line, exit 2)."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import attrs
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from bgrules.cli import main
from bgrules.core.errors import InputError
from bgrules.core.playout import Playout, playout
from bgrules.core.registry import load_game
from bgrules.core.stats import wilson_interval
from bgrules.runners.balance import (
    TRUNCATED,
    GameRecord,
    MissingExtra,
    balance_json,
    check_plot_path,
    plot_balance,
    record_of,
    run_balance,
    summarise_games,
)

CONTRACT_TOP = ("game", "players", "games", "agents", "ended_by", "seats")
CONTRACT_SEAT = ("seat", "agent", "wins", "win_rate", "win_rate_low", "win_rate_high", "score_mean")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["balance", *args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def rec(
    seed: int,
    scores: tuple[int, ...],
    winners: tuple[int, ...] = (),
    ended_by: str | None = "END",
    length: int = 10,
    rounds: int | None = None,
) -> GameRecord:
    truncated = ended_by is None
    return GameRecord(seed, scores, winners, length, rounds, ended_by, truncated)


# --- counting, on hand-made records -----------------------------------------------------------------

# Five games of a 3-seat game: a solo win, a win shared by seats 0 and 1, a three-way tie, and two truncated games
# whose last-state scores (huge) and would-be winners must count for nothing.
RECORDS = (
    rec(0, (5, 3, 1), (0,), "A", length=100, rounds=4),
    rec(1, (4, 4, 2), (0, 1), "B", length=80, rounds=3),
    rec(2, (2, 2, 2), (0, 1, 2), "A", length=120, rounds=5),
    rec(3, (900, 0, 0), (), None, length=999, rounds=41),
    rec(4, (0, 900, 0), (), None, length=999, rounds=41),
)


def test_shared_wins_count_for_each_tied_seat_and_truncated_games_for_no_one() -> None:
    report = summarise_games("g", 3, ("greedy", "random", "mcts"), RECORDS, seed=0, round_cap=40)
    assert report.games == 5 and len(report.finished) == 3 and report.truncated == 2
    assert report.shared_games == 2
    assert [s.wins for s in report.seats] == [3, 2, 1]
    assert [s.shared_wins for s in report.seats] == [2, 2, 1]
    assert [s.win_rate for s in report.seats] == [1.0, 2 / 3, 1 / 3]
    for s in report.seats:
        assert (s.win_rate_low, s.win_rate_high) == wilson_interval(s.wins, 3)
    scores = [s.score for s in report.seats]
    assert all(x is not None for x in scores)
    assert [x.mean for x in scores if x is not None] == [11 / 3, 3.0, 5 / 3]
    assert [(x.min, x.max) for x in scores if x is not None] == [(2, 5), (2, 4), (1, 2)]
    assert report.ended_by == {"A": 2, "B": 1, TRUNCATED: 2}
    length, rounds = report.length, report.rounds
    assert length is not None and (length.n, length.mean, length.min, length.max) == (3, 100.0, 80, 120)
    assert rounds is not None and (rounds.n, rounds.median) == (3, 4.0)


def test_json_contract_and_its_counting_rules() -> None:
    data = balance_json(summarise_games("g", 3, ("greedy", "random", "mcts"), RECORDS, seed=7, round_cap=40))
    json.dumps(data)  # plain JSON values only
    for key in CONTRACT_TOP:
        assert key in data
    assert (data["game"], data["players"], data["games"], data["agents"]) == ("g", 3, 5, ["greedy", "random", "mcts"])
    assert data["shared_wins_count_for_each_tied_seat"] is True and data["shared_games"] == 2
    assert data["win_rate_denominator"] == "finished" and data["finished"] == 3 and data["truncated"] == 2
    assert data["ended_by"] == {"A": 2, "B": 1, "truncated": 2}
    assert [s["seat"] for s in data["seats"]] == [0, 1, 2]
    for s in data["seats"]:
        for key in CONTRACT_SEAT:
            assert key in s
    s0, s1, s2 = data["seats"]
    assert (s0["agent"], s0["wins"], s0["win_rate"], s0["score_mean"]) == ("greedy", 3, 1.0, 3.6667)
    assert (s1["wins"], s1["win_rate"], s1["win_rate_low"], s1["win_rate_high"]) == (2, 0.6667, 0.2077, 0.9385)
    assert s2["score_sd"] == 0.5774 and (s2["score_min"], s2["score_max"]) == (1, 2)
    # Shared wins push the sum of the win rates past 1, as the JSON says they may.
    assert sum(s["win_rate"] for s in data["seats"]) > 1


def test_no_finished_game_has_no_rate_and_the_whole_interval() -> None:
    data = balance_json(summarise_games("g", 2, ("random", "random"), (rec(0, (1, 2)), rec(1, (3, 0)))))
    assert data["ended_by"] == {"END": 2, "truncated": 0}
    only_truncated = (rec(0, (1, 2), ended_by=None), rec(1, (3, 0), ended_by=None))
    data = balance_json(summarise_games("g", 2, ("random", "random"), only_truncated))
    assert data["finished"] == 0 and data["ended_by"] == {"truncated": 2} and data["length"] is None
    for s in data["seats"]:
        assert (s["wins"], s["win_rate"], s["win_rate_low"], s["win_rate_high"]) == (0, None, 0.0, 1.0)
        assert s["score_mean"] is None


def test_records_are_checked() -> None:
    with pytest.raises(InputError):
        GameRecord(0, (1, 2), (0,), 5, None, None, True)  # a truncated game's winner
    with pytest.raises(InputError):
        GameRecord(0, (1, 2), (0,), 5, None, None, False)  # a finished game without its trigger
    with pytest.raises(InputError):
        GameRecord(0, (1, 2), (2,), 5, None, "END", False)  # no seat 2
    with pytest.raises(InputError):
        GameRecord(0, (1, 2), (1, 1), 5, None, "END", False)
    with pytest.raises(InputError, match="2 seats need 2 agent names"):
        summarise_games("g", 2, ("random",), ())
    with pytest.raises(InputError, match="3 scores for 2 seats"):
        summarise_games("g", 2, ("random", "random"), (rec(0, (1, 2, 3), (0,)),))


# --- record_of, on a stand-in game -----------------------------------------------------------------


@attrs.frozen
class _Stub:
    """A game reduced to what record_of reads; ``over`` says whether the final state is terminal."""

    over: bool
    trigger: str | None = "STUB-END"

    def is_terminal(self, state: Any) -> bool:
        return self.over

    def scores(self, state: Any) -> tuple[int, ...]:
        return (3, 3, 1)

    def winners(self, state: Any) -> tuple[int, ...]:
        return (1, 0)

    def end_trigger(self, state: Any) -> str | None:
        return self.trigger if self.over else None


def test_record_of_a_finished_and_a_truncated_game() -> None:
    named = record_of(_Stub(True), Playout(9, ("a", "b"), "final", False, "PLAYOUT-END"))  # type: ignore[arg-type]
    assert named == GameRecord(9, (3, 3, 1), (0, 1), 2, None, "PLAYOUT-END", False)
    # A Playout made without its trigger: the game's end_trigger names it, "terminal" when the game names none.
    done = record_of(_Stub(True), Playout(9, ("a", "b"), "final", False))  # type: ignore[arg-type]
    assert done == GameRecord(9, (3, 3, 1), (0, 1), 2, None, "STUB-END", False)
    unnamed = record_of(_Stub(True, trigger=None), Playout(9, (), "final", False))  # type: ignore[arg-type]
    assert unnamed.ended_by == "terminal"
    # Truncated: the would-be winners (1, 0) of the last state win nothing.
    cut = record_of(_Stub(False), Playout(9, ("a",), "final", True))  # type: ignore[arg-type]
    assert cut == GameRecord(9, (3, 3, 1), (), 1, None, None, True)


# --- the runner on real games ----------------------------------------------------------------------


def test_runner_counts_what_the_playouts_did() -> None:
    game = load_game("mechanica", players=2)
    report = run_balance(game, "mechanica", 6, seed=3)
    assert [r.seed for r in report.records] == list(range(3, 9)) and report.agents == ("random", "random")
    wins = [0, 0]
    for s in range(3, 9):
        p = playout(game, s)
        assert game.is_terminal(p.final)
        for w in game.winners(p.final):
            wins[w] += 1
    assert [s.wins for s in report.seats] == wins
    assert report.truncated == 0 and sum(report.ended_by.values()) == 6
    assert balance_json(report) == balance_json(run_balance(game, "mechanica", 6, seed=3))


def test_runner_truncates_at_the_round_cap_and_counts_no_win() -> None:
    game = load_game("botfactory", players=2)
    report = run_balance(game, "botfactory", 3, seed=0, max_rounds=1)
    assert report.round_cap == 1 and report.truncated == 3 and report.ended_by == {TRUNCATED: 3}
    assert all(r.winners == () and r.rounds == 2 for r in report.records)
    assert [s.wins for s in report.seats] == [0, 0] and all(s.win_rate is None for s in report.seats)


def test_runner_refuses_bad_counts() -> None:
    game = load_game("mechanica", players=2)
    for bad in (0, -1):
        with pytest.raises(InputError, match="at least 1"):
            run_balance(game, "mechanica", bad)
    with pytest.raises(InputError, match="2 seats need 2 agents"):
        run_balance(game, "mechanica", 1, agents=(object(),))


# --- the command -----------------------------------------------------------------------------------


def test_cli_json_contract() -> None:
    code, out, _ = run("--game", "mechanica", "--players", "3", "--games", "4", "--seed", "2", "--json")
    assert code == 0
    data = json.loads(out)
    for key in CONTRACT_TOP:
        assert key in data
    assert (data["game"], data["players"], data["games"], data["seed"]) == ("mechanica", 3, 4, 2)
    assert data["agents"] == ["random"] * 3 and len(data["seats"]) == 3
    for s in data["seats"]:
        for key in CONTRACT_SEAT:
            assert key in s
        assert 0.0 <= s["win_rate_low"] <= s["win_rate"] <= s["win_rate_high"] <= 1.0
    assert sum(data["ended_by"].values()) == 4
    again = json.loads(run("--game", "mechanica", "--players", "3", "--games", "4", "--seed", "2", "--json")[1])
    assert again == data


def test_cli_table() -> None:
    code, out, _ = run("--game", "mechanica", "--players", "2", "--games", "2")
    text = " ".join(out.split())
    assert code == 0 and "Wilson" in text and "truncated 0" in text and "a win for each tied seat" in text
    assert "finished 2 of 2" in text and "ended by: " in text


@pytest.mark.parametrize(
    ("args", "where"),
    [
        (("--game", "mechanica", "--games", "0"), "--games"),
        (("--game", "mechanica", "--games", "-5"), "--games"),
        (("--game", "chess", "--games", "1"), "known: botfactory, mechanica"),
        (("--game", "mechanica", "--players", "7", "--games", "1"), "2 to 4"),
        (("--game", "mechanica", "--games", "1", "--plot", "out.pdf"), ".png or .svg"),
        (("--game", "mechanica", "--games", "1", "--plot", "/no/such/dir/out.png"), "no directory"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(args: tuple[str, ...], where: str) -> None:
    code, out, err = run(*args)
    assert code == 2
    assert where in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err + out


# --- the plot --------------------------------------------------------------------------------------


def test_plot_writes_a_real_png(tmp_path: Path) -> None:
    path = tmp_path / "balance.png"
    code, _, err = run("--game", "mechanica", "--players", "4", "--games", "3", "--plot", str(path))
    assert code == 0, err
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert width > height > 100


def test_plot_writes_a_real_svg_the_same_each_time(tmp_path: Path) -> None:
    report = summarise_games("g", 3, ("greedy", "random", "mcts"), RECORDS)
    a, b = tmp_path / "a.svg", tmp_path / "b.SVG"
    plot_balance(report, a)
    plot_balance(report, b)
    root = ET.parse(a).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg" and root.get("viewBox")
    assert len(list(root.iter())) > 50  # drawn, not an empty page
    assert a.read_bytes() == b.read_bytes()


def test_plot_of_no_finished_game(tmp_path: Path) -> None:
    report = summarise_games("g", 2, ("random", "random"), (rec(0, (1, 2), ended_by=None),))
    plot_balance(report, tmp_path / "x.png")
    assert (tmp_path / "x.png").read_bytes()[:4] == b"\x89PNG"


def test_plot_without_matplotlib_names_the_extra(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    with pytest.raises(MissingExtra, match=r"pip install 'bgrules\[plot\]'"):
        check_plot_path(tmp_path / "x.png")
    path = tmp_path / "x.svg"
    code, out, err = run("--game", "mechanica", "--games", "1", "--plot", str(path))
    assert code == 2 and "bgrules[plot]" in err and "matplotlib" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err + out
    assert not path.exists()


# --- with agents -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "where"),
    [
        ("chess", "valid: random, greedy, mcts"),
        ("greedy,random,random", "4 seats need 1 or 4 agent names, not 3"),
        ("greedy,random,random,random,random", "4 seats need 1 or 4 agent names, not 5"),
        ("mcts:iterations=0", "at least 1"),
        ("mcts:iterations=-2", "at least 1"),
    ],
)
def test_cli_bad_agents_are_one_line_and_exit_2(spec: str, where: str) -> None:
    code, out, err = run("--game", "mechanica", "--players", "4", "--agents", spec, "--games", "1", "--json")
    assert code == 2
    assert where in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err + out


def test_cli_seats_carry_their_agents() -> None:
    args = ("--game", "botfactory", "--players", "3", "--agents", "greedy,random,greedy", "--games", "2")
    args += ("--max-rounds", "2", "--json")
    code, out, err = run(*args)
    assert code == 0, err
    data = json.loads(out)
    assert data["agents"] == ["greedy", "random", "greedy"]
    assert [s["agent"] for s in data["seats"]] == ["greedy", "random", "greedy"]
    assert json.loads(run(*args)[1]) == data


def test_runner_with_agents_records_each_playouts_end() -> None:
    from bgrules.agents import parse_agents

    game = load_game("botfactory", players=2)
    agents = parse_agents("greedy", 2)
    report = run_balance(game, "botfactory", 1, seed=5, agents=agents)
    assert report.agents == ("greedy", "greedy") and report.truncated == 0
    for r in report.records:
        p = playout(game, r.seed, agents=agents)
        assert r.truncated == p.truncated and r.ended_by == p.ended_by and r.length == len(p.actions)
        assert r.winners == (() if p.truncated else tuple(sorted(game.winners(p.final))))


@st.composite
def _records(draw: st.DrawFn, players: int) -> list[GameRecord]:
    out = []
    for seed in range(draw(st.integers(min_value=0, max_value=12))):
        scores = tuple(draw(st.lists(st.integers(-5, 40), min_size=players, max_size=players)))
        if draw(st.booleans()):
            out.append(rec(seed, scores, ended_by=None))
        else:
            winners = tuple(sorted(draw(st.sets(st.integers(0, players - 1), min_size=1))))
            out.append(rec(seed, scores, winners, draw(st.sampled_from(["A", "B"]))))
    return out


@given(data=st.data(), players=st.integers(min_value=1, max_value=4))
def test_counting_rules_on_any_records(data: st.DataObject, players: int) -> None:
    records = data.draw(_records(players))
    report = summarise_games("g", players, ("random",) * players, records)
    finished = [r for r in records if not r.truncated]
    # Each tied seat gets the win: the seats' wins add up to the winners listed, not to the games.
    assert sum(s.wins for s in report.seats) == sum(len(r.winners) for r in finished)
    assert sum(report.ended_by.values()) == len(records) and report.ended_by[TRUNCATED] == report.truncated
    for s in report.seats:
        assert s.finished == len(finished) and s.shared_wins <= s.wins <= len(finished)
        if s.win_rate is not None:
            assert s.win_rate_low <= s.win_rate <= s.win_rate_high
    # Truncated games change nothing but the truncated count.
    only_finished = summarise_games("g", players, ("random",) * players, finished)
    assert only_finished.seats == report.seats and only_finished.length == report.length
