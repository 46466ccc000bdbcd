"""The conformance suite on every registered game; determinism across processes; the JSON codec."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import bgrules
from bgrules import InputError
from bgrules.core.conformance import check_game, check_state, trace_digest
from bgrules.core.playout import playout, replay, walk

ROOT = Path(__file__).resolve().parents[2]
NAMES = bgrules.game_names()


def test_there_is_a_game():
    assert "mechanica-factory" in NAMES


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("seeds", [range(0, 10), range(10, 20), range(1000, 1005)])
def test_check_game(name, seeds):
    game = bgrules.load_game(name)
    assert check_game(game, seeds) > 0


@pytest.mark.parametrize("name", NAMES)
def test_check_game_with_variants(name, tmp_path):
    if name != "mechanica-factory":
        pytest.skip("variant files below are Mechanica's")
    for rulings in (
        'flight = "both_ways"',
        'loop = "forbid"\noff_floor = "forbid"\njigsaw = "strict"',
        "bots_per_grade = 2",
        "fabricator_over_fabricator = true",
    ):
        path = tmp_path / "v.toml"
        path.write_text(f"[rulings]\n{rulings}\n", encoding="utf-8")
        game = bgrules.load_game(name, variant=str(path), days=4)
        assert check_game(game, range(5)) > 0


@pytest.mark.heavy
@pytest.mark.parametrize("name", NAMES)
def test_check_game_heavy(name):
    game = bgrules.load_game(name, days=20)
    assert check_game(game, range(200)) > 0


_DIGEST = (
    "import bgrules\n"
    "from bgrules.core.conformance import trace_digest\n"
    "g = bgrules.load_game({name!r})\n"
    "print(' '.join(trace_digest(g, s) for s in {seeds!r}))\n"
)


@pytest.mark.parametrize("name", NAMES)
def test_same_seed_same_digest_across_processes(name):
    seeds = [0, 1, 7, 42]
    outs = []
    for hashseed in ("0", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hashseed}
        done = subprocess.run(
            [sys.executable, "-c", _DIGEST.format(name=name, seeds=seeds)],
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
            timeout=120,
            check=True,
        )
        outs.append(done.stdout.split())
    assert outs[0] == outs[1]
    here = [trace_digest(bgrules.load_game(name), s) for s in seeds]
    assert outs[0] == here
    assert len(set(here)) > 1  # different seeds give different games


@pytest.mark.parametrize("name", NAMES)
def test_json_round_trip_of_states(name):
    game = bgrules.load_game(name)
    for seed in range(8):
        for before, _action, after in walk(game, seed):
            for state in (before, after):
                text = bgrules.dumps(state)
                back = bgrules.loads(game, text)
                assert back == state and hash(back) == hash(state)
                assert bgrules.dumps(back) == text


@pytest.mark.parametrize("name", NAMES)
def test_playout_replays(name):
    game = bgrules.load_game(name)
    for seed in range(5):
        p = playout(game, seed)
        # Bot Factory has no round limit of its own (BF-END): random games the runner cuts at its round cap
        # are truncated, never ended; every other game ends within its length bound.
        assert p.truncated is (not game.is_terminal(p.final))
        if name != "botfactory":
            assert not p.truncated
        assert replay(game, p.actions) == p.final
        check_state(game, p.final)


@pytest.mark.parametrize(
    ("text", "line", "col"),
    [
        ('{"factory": ', 1, 13),
        ('{\n  "factory": {}\n  "day": 1\n}', 3, 3),
        ("", 1, 1),
        ("{'a': 1}", 1, 2),
        ("{\n\n\n   ]", 4, 4),
    ],
)
def test_malformed_json_names_line_and_column(text, line, col):
    game = bgrules.load_game("mechanica-factory")
    with pytest.raises(InputError) as info:
        bgrules.loads(game, text)
    assert f"line {line} column {col}" in info.value.where
    assert str(info.value).startswith(info.value.where)


def test_wrong_json_shape_is_an_input_error():
    game = bgrules.load_game("mechanica-factory")
    text = bgrules.dumps(game.initial_state())
    for bad in (
        "[]",
        "1",
        '{"day": 1}',
        text.replace('"day":1', '"day":"x"'),
        text.replace('"phase":"turn"', '"phase":"dance"'),
        text[:-1] + ',"extra":1}',
    ):
        with pytest.raises(InputError):
            bgrules.loads(game, bad)


@pytest.mark.parametrize(("name", "players"), [(g, n) for g in ("mechanica", "botfactory") for n in (2, 3, 4)])
def test_same_seed_same_final_state(name, players):
    def load():
        return bgrules.load_game(name, players=players)

    for seed in (0, 7):
        a = playout(load(), seed)
        b = playout(load(), seed)
        assert a.actions == b.actions and a.truncated == b.truncated
        assert a.truncated is (not load().is_terminal(a.final))
        assert bgrules.dumps(a.final) == bgrules.dumps(b.final)
        assert bgrules.loads(load(), bgrules.dumps(a.final)) == a.final
    assert bgrules.dumps(playout(load(), 0).final) != bgrules.dumps(playout(load(), 1).final)
