"""Campaigns (bgrules/runners/campaign.py, docs/campaigns.md): shards, the deterministic merge, the results
file and --resume, on the local engine. The same campaigns on a local Ray: tests/integrations/test_ray.py."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from bgrules.cli import main
from bgrules.cli.base import engine_options
from bgrules.core.errors import InputError, MissingExtra
from bgrules.runners import campaign as cp
from bgrules.runners import campaign_cli
from bgrules.runners import campaign_merge as cp_merge
from bgrules.runners import campaign_run as cp_run
from bgrules.runners import campaign_shards as cp_shards
from bgrules.runners import coverage as cov

TIMINGS = ("seconds", "games_per_second", "steps_per_second")


def untimed(result: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in result.items() if k not in TIMINGS}


def serial(*args: str) -> dict[str, Any]:
    """Today's serial command's JSON (the CLI without any engine option)."""
    run = CliRunner().invoke(main, [*args, "--json"])
    assert run.exit_code == 0, run.output
    out: dict[str, Any] = json.loads(run.output)
    return out


def simulate_campaign(game: str, jobs: int, **kw: Any) -> dict[str, Any]:
    c = cp.make_campaign("simulate", game, check=True, max_rounds=None, specs=None, **kw)
    o = cp_run.run_campaign(c, cp_run.local_runner(jobs))
    return cp_merge.simulate_json(c, o.merged, o.seconds, cp_merge.simulate_invariants(c))


def test_shards_are_fixed_seed_ranges() -> None:
    c = cp.make_campaign("balance", "mechanica-factory", seed=5, games=23, shard_size=4)
    assert c.shards == 6 and cp_shards.shard_count(c) == 6
    assert [list(c.seeds(i)) for i in range(6)] == [
        [5, 6, 7, 8],
        [9, 10, 11, 12],
        [13, 14, 15, 16],
        [17, 18, 19, 20],
        [21, 22, 23, 24],
        [25, 26, 27],
    ]
    with pytest.raises(InputError, match="not a shard"):
        c.seeds(6)
    # the player count is resolved: --players omitted and --players 4 are the same campaign
    assert cp.make_campaign("simulate", "mechanica", games=3).identity() == (
        cp.make_campaign("simulate", "mechanica", players=4, games=3).identity()
    )


@pytest.mark.parametrize("jobs", [1, 2])
def test_simulate_campaign_is_the_serial_run(jobs: int) -> None:
    for game, players in (("mechanica-factory", None), ("botfactory", 2)):
        args = ["simulate", "--game", game, "--games", "11", "--seed", "3"]
        want = serial(*args, *(["--players", str(players)] if players else []))
        got = simulate_campaign(game, jobs, players=players, seed=3, games=11, shard_size=3)
        assert untimed(got) == untimed(want)
        assert list(got) == list(want)  # the same keys in the same order: the same JSON


def test_simulate_campaign_with_agents_is_the_serial_run() -> None:
    want = serial("simulate", "--game", "botfactory", "--players", "2", "--games", "3", "--agents", "greedy,random")
    got = simulate_campaign("botfactory", 2, players=2, seed=0, games=3, shard_size=1, agents="greedy,random")
    assert untimed(got) == untimed(want)


@pytest.mark.parametrize("jobs", [1, 2])
def test_balance_campaign_is_the_serial_run(jobs: int) -> None:
    want = serial("balance", "--game", "botfactory", "--players", "3", "--games", "9", "--seed", "2")
    c = cp.make_campaign("balance", "botfactory", players=3, seed=2, games=9, shard_size=2, max_rounds=None)
    got = cp_merge.balance_json(c, cp_run.run_campaign(c, cp_run.local_runner(jobs)).merged)
    assert got == want
    assert json.dumps(got) == json.dumps(want)


def test_coverage_campaign_is_the_serial_run() -> None:
    want = cov.run_coverage("mechanica", n_games=2, seed=1, players=2, searched=False)
    c = cp.make_campaign("coverage", "mechanica", players=2, seed=1, games=2, shard_size=1, max_rounds=None)
    assert cp_shards.coverage_samples(c) == [("mechanica", 2), ("mechanica-factory", 1)]
    got = cp_merge.coverage_json(c, cp_run.run_campaign(c, cp_run.local_runner(2)).merged, searched=False)
    assert got == want
    assert got["states"] > 0


def _shard_result(violations: list[str], games: int = 1) -> dict[str, Any]:
    return {
        "games": games,
        "steps": 10 * games,
        "length_min": 10,
        "length_max": 10,
        "score_sum": [1, 2],
        "score_min": [1, 2],
        "score_max": [1, 2],
        "wins": [1, 0],
        "ended_by": {"X": games},
        "truncated": 0,
        "violations": len(violations),
        "first_violations": [{"id": v} for v in violations],
    }


def test_merge_is_in_shard_order_whatever_order_shards_finish() -> None:
    c = cp.make_campaign("simulate", "mechanica-factory", games=8, shard_size=1)
    shards = [_shard_result([f"s{i}v{j}" for j in range(i + 3)]) for i in range(8)]  # 3..10 violations each
    merged = []
    for order in (list(range(8)), list(range(7, -1, -1)), random.Random(4).sample(range(8), 8)):
        m = cp_merge.Merger(c)
        for i in order:
            m.offer(i, shards[i])
        assert m.done == 8
        merged.append(m.merged())
    assert merged[0] == merged[1] == merged[2]
    # the first 20 violations are the first shards' ones, in shard order; all of them are counted
    first = [v["id"] for v in merged[0]["first_violations"]]
    assert first == [f"s0v{j}" for j in range(3)] + [f"s1v{j}" for j in range(4)] + [f"s2v{j}" for j in range(5)] + [
        f"s3v{j}" for j in range(6)
    ] + ["s4v0", "s4v1"]
    assert merged[0]["violations"] == sum(range(3, 11))
    m = cp_merge.Merger(c)
    m.offer(1, shards[1])
    assert m.done == 0  # shard 1 waits for shard 0


# --- the results file and --resume -------------------------------------------------------------------


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The shards played in this process (the local runner with one job resolves run_shard by name)."""
    calls: list[int] = []
    real = cp_shards.run_shard

    def counting(campaign: dict[str, Any], shard: int) -> dict[str, Any]:
        calls.append(shard)
        return real(campaign, shard)

    monkeypatch.setattr(cp_shards, "run_shard", counting)
    return calls


def _campaign(games: int = 10) -> cp.Campaign:
    return cp.make_campaign("balance", "mechanica-factory", seed=7, games=games, shard_size=2, max_rounds=None)


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_results_file_header_and_one_line_per_shard(tmp_path: Path) -> None:
    c, path = _campaign(), tmp_path / "r.jsonl"
    whole = cp_run.run_campaign(c, results=path)
    rows = _lines(path)
    assert rows[0] == {"bgrules_campaign": 1, "version": c.version, "campaign": c.identity(), "shards": 5}
    assert sorted(r["shard"] for r in rows[1:]) == [0, 1, 2, 3, 4]
    assert [r["seeds"] for r in sorted(rows[1:], key=lambda r: r["shard"])] == [
        [7, 8],
        [9, 10],
        [11, 12],
        [13, 14],
        [15, 16],
    ]
    assert whole.ran == (0, 1, 2, 3, 4) and whole.resumed == ()
    # an existing file is never overwritten
    before = path.read_bytes()
    with pytest.raises(InputError, match="exists; continue it with --resume"):
        cp_run.run_campaign(c, results=path)
    assert path.read_bytes() == before


def test_resume_redoes_nothing_finished(tmp_path: Path, counted: list[int]) -> None:
    c, full = _campaign(), tmp_path / "full.jsonl"
    whole = cp_run.run_campaign(c, results=full)
    assert sorted(counted) == [0, 1, 2, 3, 4]
    # a run interrupted after three shards finished (in the order 3, 0, 4): header and their lines
    rows = {r["shard"]: r for r in _lines(full)[1:]}
    part = tmp_path / "part.jsonl"
    part.write_text(
        "\n".join(json.dumps(r) for r in [cp_run.header(c), rows[3], rows[0], rows[4]]) + "\n", encoding="utf-8"
    )
    counted.clear()
    resumed = cp_run.run_campaign(c, resume=part)
    assert sorted(counted) == [1, 2]  # only the missing shards
    assert resumed.resumed == (0, 3, 4) and resumed.ran == (1, 2)
    assert cp_merge.balance_json(c, resumed.merged) == cp_merge.balance_json(c, whole.merged)
    assert sorted(r["shard"] for r in _lines(part)[1:]) == [0, 1, 2, 3, 4]
    counted.clear()
    again = cp_run.run_campaign(c, resume=part)  # a finished campaign: nothing to play
    assert counted == [] and again.ran == ()
    assert cp_merge.balance_json(c, again.merged) == cp_merge.balance_json(c, whole.merged)


def test_truncated_last_line_is_redone(tmp_path: Path, counted: list[int]) -> None:
    c, path = _campaign(), tmp_path / "r.jsonl"
    whole = cp_run.run_campaign(c, results=path)
    text = path.read_bytes()
    last = json.loads(text.splitlines()[-1])["shard"]
    cut = text[: text.rstrip(b"\n").rfind(b"\n") + 1 + 25]  # the last line cut after 25 bytes
    path.write_bytes(cut)
    counted.clear()
    resumed = cp_run.run_campaign(c, resume=path)
    assert counted == [last]
    assert cp_merge.balance_json(c, resumed.merged) == cp_merge.balance_json(c, whole.merged)
    rows = _lines(path)  # every line whole again: the cut piece was dropped before appending
    assert sorted(r["shard"] for r in rows[1:]) == [0, 1, 2, 3, 4]


def test_file_of_another_campaign_or_version_is_refused_and_kept(tmp_path: Path, counted: list[int]) -> None:
    c, path = _campaign(), tmp_path / "r.jsonl"
    cp_run.run_campaign(c, results=path)
    before = path.read_bytes()
    counted.clear()
    with pytest.raises(InputError) as info:
        cp_run.run_campaign(_campaign(games=12), resume=path)
    assert "another campaign: games is 10 there, 12 here" in str(info.value)
    assert "\n" not in str(info.value)
    other = cp.make_campaign("balance", "mechanica-factory", seed=7, games=10, shard_size=2, agents="greedy")
    with pytest.raises(InputError, match='agents is null there, "greedy" here'):
        cp_run.run_campaign(other, resume=path)
    assert path.read_bytes() == before
    # another bgrules version
    rows = path.read_text(encoding="utf-8").splitlines()
    head = json.loads(rows[0])
    head["version"] = "0.0.1"
    old = tmp_path / "old.jsonl"
    old.write_text("\n".join([json.dumps(head), *rows[1:]]) + "\n", encoding="utf-8")
    old_bytes = old.read_bytes()
    with pytest.raises(InputError, match=f"written by bgrules 0.0.1, this is bgrules {c.version}"):
        cp_run.run_campaign(c, resume=old)
    assert old.read_bytes() == old_bytes
    # not a results file at all, a broken middle line, a missing file
    junk = tmp_path / "junk.jsonl"
    junk.write_text('{"a": 1}\n', encoding="utf-8")
    with pytest.raises(InputError, match="not a bgrules campaign results file"):
        cp_run.run_campaign(c, resume=junk)
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join([rows[0], "{oops", *rows[1:]]) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"broken.jsonl:2: not a shard line"):
        cp_run.run_campaign(c, resume=broken)
    with pytest.raises(InputError, match="no such results file"):
        cp_run.run_campaign(c, resume=tmp_path / "none.jsonl")
    assert counted == []  # nothing was played for any refused file


def test_resume_and_results_must_name_one_file(tmp_path: Path) -> None:
    c = _campaign()
    with pytest.raises(InputError, match="names another"):
        cp_run.run_campaign(c, results=tmp_path / "a", resume=tmp_path / "b")


def test_variant_file_content_is_part_of_the_campaign(tmp_path: Path) -> None:
    one = tmp_path / "v.toml"
    one.write_text("", encoding="utf-8")
    a = cp.make_campaign("simulate", "mechanica", games=2, variant=one)
    one.write_text("\n", encoding="utf-8")
    b = cp.make_campaign("simulate", "mechanica", games=2, variant=one)
    assert a.variant == b.variant and a.variant_sha256 != b.variant_sha256


# --- the command-line side -------------------------------------------------------------------------


def _simulate(**kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "game": "mechanica-factory",
        "players": None,
        "games": 4,
        "seed": 0,
        "variant": None,
        "options": {},
        "check": True,
        "max_rounds": None,
        "agents": None,
        "specs_dir": None,
        "engine": "local",
        "jobs": None,
        "address": None,
        "results": None,
        "resume": None,
    }
    return campaign_cli.simulate(**{**base, **kw})


def test_cli_functions_give_the_serial_json(tmp_path: Path) -> None:
    want = serial("simulate", "--game", "mechanica-factory", "--games", "4")
    assert untimed(_simulate(jobs=2, results=tmp_path / "s.jsonl")) == untimed(want)
    assert untimed(_simulate(resume=tmp_path / "s.jsonl")) == untimed(want)
    b = campaign_cli.balance(
        game="mechanica-factory", players=None, agents=None, games=3, seed=1, variant=None, options={},
        max_rounds=None, engine="local", jobs=2, address=None, results=None, resume=None,
    )  # fmt: skip
    assert b == serial("balance", "--game", "mechanica-factory", "--games", "3", "--seed", "1")


def test_engine_options_refuse_what_does_not_fit() -> None:
    with pytest.raises(InputError, match="--address: names a Ray cluster"):
        _simulate(address="127.0.0.1:1")
    with pytest.raises(InputError, match="--jobs: is for --engine local"):
        _simulate(engine="ray", jobs=2)
    with pytest.raises(InputError, match="--jobs: a whole number"):
        _simulate(jobs=0)
    assert not campaign_cli.wanted("local", None, None, None, None)
    assert campaign_cli.wanted("ray", None, None, None, None) and campaign_cli.wanted("local", 2, None, None, None)

    import click

    @click.command()
    @engine_options
    def probe(**kw: Any) -> None:
        click.echo(json.dumps({k: str(v) for k, v in sorted(kw.items())}))

    run = CliRunner().invoke(probe, ["--engine", "ray", "--address", "h:1", "--resume", "f", "--results", "f"])
    assert run.exit_code == 0, run.output
    assert json.loads(run.output) == {"address": "h:1", "engine": "ray", "jobs": "None", "results": "f", "resume": "f"}
    assert CliRunner().invoke(probe, ["--engine", "spark"]).exit_code == 2


def test_missing_ray_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails as without the extra
    from bgrules.integrations import ray_engine

    with pytest.raises(MissingExtra) as info:
        ray_engine.connect()
    assert str(info.value) == "--engine ray needs ray, which is not installed: pip install 'bgrules[ray]'"


def test_unreachable_address_is_one_line() -> None:
    pytest.importorskip("ray")
    from bgrules.integrations import ray_engine

    with pytest.raises(InputError) as info:
        ray_engine.connect("127.0.0.1:1")  # a port nothing listens on: refused at once
    assert str(info.value).startswith("--address: no Ray cluster reachable at 127.0.0.1:1 (")
    assert "\n" not in str(info.value)
    with pytest.raises(InputError, match="a Ray address is host:port"):
        ray_engine.connect("http://example.org")


@pytest.mark.parametrize("jobs", [1, 2])
def test_run_tasks_can_stream_without_keeping_values(jobs: int) -> None:
    from bgrules.core.jobs import Task, run_tasks

    tasks = [Task(f"t{i}", "math:factorial", (i,)) for i in range(5)]
    seen: dict[int, Any] = {}
    assert run_tasks(tasks, jobs, on_done=lambda d: seen.__setitem__(d.index, d.value), keep=False) == [None] * 5
    assert seen == {0: 1, 1: 1, 2: 2, 3: 6, 4: 24}
    assert run_tasks(tasks, jobs) == [1, 1, 2, 6, 24]  # the default keeps them, as before
