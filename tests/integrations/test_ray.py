"""Campaigns on a local Ray with 2 CPUs (bgrules/integrations/ray_engine.py): the same merged JSON as the
serial run, and --resume across engines; ``verify --engine ray`` gives the local run's rows and rule coverage. One
Ray for the module (starting one takes seconds)."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ray")

from bgrules.core import coverage as cov
from bgrules.integrations import ray_engine
from bgrules.runners import campaign as cp
from bgrules.runners import campaign_merge as cp_merge
from bgrules.runners import campaign_run as cp_run


@pytest.fixture(scope="module")
def ray() -> Iterator[Any]:
    module = ray_engine.connect(num_cpus=2)
    yield module
    ray_engine.shutdown()


def _simulate(c: cp.Campaign, runner: cp_run.Runner) -> dict[str, Any]:
    o = cp_run.run_campaign(c, runner)
    out = cp_merge.simulate_json(c, o.merged, o.seconds, cp_merge.simulate_invariants(c))
    return {k: v for k, v in out.items() if k not in ("seconds", "games_per_second", "steps_per_second")}


def test_ray_gives_the_local_serial_result(ray: Any) -> None:
    assert ray.cluster_resources().get("CPU") == 2
    c = cp.make_campaign("simulate", "botfactory", players=2, seed=4, games=12, shard_size=2, check=True)
    serial = _simulate(c, cp_run.local_runner(1))
    assert serial["games"] == 12 and serial["invariants_checked"]
    for in_flight in (1, 2, 6):  # one task at a time, one per CPU, every shard at once
        assert _simulate(c, ray_engine.runner(in_flight=in_flight)) == serial
    b = cp.make_campaign("balance", "mechanica", players=3, seed=1, games=6, shard_size=1)
    assert cp_merge.balance_json(b, cp_run.run_campaign(b, ray_engine.runner()).merged) == cp_merge.balance_json(
        b, cp_run.run_campaign(b, cp_run.local_runner(2)).merged
    )


def test_ray_resumes_a_local_campaign(ray: Any, tmp_path: Path) -> None:
    c = cp.make_campaign("balance", "mechanica-factory", seed=3, games=8, shard_size=2)
    path = tmp_path / "r.jsonl"
    whole = cp_run.run_campaign(c, cp_run.local_runner(1), results=path)
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(lines[:3]) + "\n", encoding="utf-8")  # the header and two shards
    kept = {json.loads(line)["shard"] for line in lines[1:3]}
    resumed = cp_run.run_campaign(c, ray_engine.runner(), resume=path)
    assert set(resumed.resumed) == kept and set(resumed.ran) == {0, 1, 2, 3} - kept
    assert cp_merge.balance_json(c, resumed.merged) == cp_merge.balance_json(c, whole.merged)


def test_ray_tasks_bring_their_rule_coverage_back(ray: Any) -> None:
    c = cp.make_campaign("simulate", "mechanica-factory", seed=0, games=4, shard_size=1, check=False)
    counts = []
    for runner in (cp_run.local_runner(1), ray_engine.runner()):
        with cov.recording("simulate") as rec:
            cp_run.run_campaign(c, runner)
        counts.append((dict(rec.effects), dict(rec.refusals)))
    assert counts[0][0] and counts[0] == counts[1]


def _verify(*args: str) -> tuple[int, str, str]:
    from click.testing import CliRunner

    from bgrules.cli import main

    run = CliRunner().invoke(main, ["verify", *args])
    return run.exit_code, run.stdout, run.stderr


def _timeless(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows without their timings: ``seconds``, and a proof's ``[N ms]`` at the end of its detail."""
    out = []
    for row in rows:
        row = {k: v for k, v in row.items() if k != "seconds"}
        if row["kind"] == "proof" and row.get("detail"):
            row["detail"] = re.sub(r" \[[0-9.]+ m?s\]$", "", row["detail"])
        out.append(row)
    return out


SAMPLED = ["--only", "MC-INV-SOURCES-EMPTY", "--checker", "sampled", "--games", "6", "--max-steps", "60"]


@pytest.mark.parametrize(
    ("only", "same_coverage"),
    [
        (SAMPLED, True),
        (["--only", "ROOMY"], True),  # proof obligations
        (["--only", "MC-CL-TWO-BOTS"], True),  # a clarification's witnesses and properties
        # the searched checker's rows and coverage counts: its examples no longer depend on the modules the
        # process has imported (docs/verify.md, tests/runners/test_searched_checker.py)
        (["--only", "MC-INV-SOURCES-EMPTY", "--checker", "searched", "--examples", "3", "--max-steps", "60"], True),
    ],
)
def test_verify_on_ray_gives_the_local_rows_and_coverage(
    ray: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, only: list[str], same_coverage: bool
) -> None:
    from bgrules.core import jobs

    results = []
    for engine in (["--jobs", "1"], ["--engine", "ray"]):
        if engine[0] == "--engine":  # the tasks go to Ray, not to the local runner
            monkeypatch.setattr(jobs, "run_tasks", lambda *a, **k: pytest.fail("ran locally"))
        table = tmp_path / f"coverage-{engine[0]}.json"
        code, out, err = _verify(*only, "--json", "--coverage-json", str(table), *engine)
        assert code == 0, err
        summary = err.strip().splitlines()[-1]
        assert summary.endswith("on Ray (2 CPUs)" if engine[0] == "--engine" else "on 1 job(s)"), summary
        results.append((_timeless(json.loads(out)), json.loads(table.read_text(encoding="utf-8"))))
    (local_rows, local_table), (ray_rows, ray_table) = results
    assert local_rows and ray_rows == local_rows
    assert local_table["reached"] and ray_table["reached"] == local_table["reached"]
    if same_coverage:
        assert ray_table == local_table
    if only is SAMPLED:  # the sampled checker ran, on Ray too
        assert [(r["id"], r["checker"]) for r in ray_rows] == [
            ("MC-INV-SOURCES-EMPTY", "sampled"),
            ("MC-INV-SOURCES-EMPTY-BUSY", "sampled"),
        ]
        assert all(r["guarantee"].startswith("sampled: 6 ") for r in ray_rows)


def test_verify_engine_options_are_checked(ray: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    only = ["--only", "MC-INV-SOURCES-EMPTY"]
    code, out, err = _verify(*only, "--engine", "ray", "--jobs", "2")
    assert (code, out) == (2, "") and "--jobs: is for --engine local" in err and len(err.strip().splitlines()) == 1
    code, out, err = _verify(*only, "--address", "127.0.0.1:1")
    assert (code, out) == (2, "") and "--address: names a Ray cluster: give it with --engine ray" in err
    code, out, err = _verify(*only, "--engine", "ray", "--address", "127.0.0.1:1")
    assert (code, out) == (2, "") and len(err.strip().splitlines()) == 1
    assert "--address: no Ray cluster reachable at 127.0.0.1:1 (" in err
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails as without the extra
    code, out, err = _verify(*only, "--engine", "ray")
    assert (code, out) == (2, "") and len(err.strip().splitlines()) == 1
    assert "--engine ray needs ray, which is not installed: pip install 'bgrules[ray]'" in err


def test_ray_workers_run_with_the_runners_collector_setting(ray: Any) -> None:
    from bgrules.core import gcpolicy
    from bgrules.core.jobs import Task

    tasks = [Task(f"threshold {i}", "gc:get_threshold") for i in range(3)]
    assert ray_engine.run_tasks(tasks) == [gcpolicy.RUNNERS] * 3
