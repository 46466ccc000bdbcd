"""Campaigns on a local Ray with 2 CPUs (bgrules/integrations/ray_engine.py): the same merged JSON as the
serial run, and --resume across engines. One Ray for the module (starting one takes seconds)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ray")

from bgrules.core import campaign as cp
from bgrules.core import coverage as cov
from bgrules.integrations import ray_engine


@pytest.fixture(scope="module")
def ray() -> Iterator[Any]:
    module = ray_engine.connect(num_cpus=2)
    yield module
    ray_engine.shutdown()


def _simulate(c: cp.Campaign, runner: cp.Runner) -> dict[str, Any]:
    o = cp.run_campaign(c, runner)
    out = cp.simulate_json(c, o.merged, o.seconds, cp.simulate_invariants(c))
    return {k: v for k, v in out.items() if k not in ("seconds", "games_per_second", "steps_per_second")}


def test_ray_gives_the_local_serial_result(ray: Any) -> None:
    assert ray.cluster_resources().get("CPU") == 2
    c = cp.make_campaign("simulate", "botfactory", players=2, seed=4, games=12, shard_size=2, check=True)
    serial = _simulate(c, cp.local_runner(1))
    assert serial["games"] == 12 and serial["invariants_checked"]
    for in_flight in (1, 2, 6):  # one task at a time, one per CPU, every shard at once
        assert _simulate(c, ray_engine.runner(in_flight=in_flight)) == serial
    b = cp.make_campaign("balance", "mechanica", players=3, seed=1, games=6, shard_size=1)
    assert cp.balance_json(b, cp.run_campaign(b, ray_engine.runner()).merged) == cp.balance_json(
        b, cp.run_campaign(b, cp.local_runner(2)).merged
    )


def test_ray_resumes_a_local_campaign(ray: Any, tmp_path: Path) -> None:
    c = cp.make_campaign("balance", "mechanica-factory", seed=3, games=8, shard_size=2)
    path = tmp_path / "r.jsonl"
    whole = cp.run_campaign(c, cp.local_runner(1), results=path)
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(lines[:3]) + "\n", encoding="utf-8")  # the header and two shards
    kept = {json.loads(line)["shard"] for line in lines[1:3]}
    resumed = cp.run_campaign(c, ray_engine.runner(), resume=path)
    assert set(resumed.resumed) == kept and set(resumed.ran) == {0, 1, 2, 3} - kept
    assert cp.balance_json(c, resumed.merged) == cp.balance_json(c, whole.merged)


def test_ray_tasks_bring_their_rule_coverage_back(ray: Any) -> None:
    c = cp.make_campaign("simulate", "mechanica-factory", seed=0, games=4, shard_size=1, check=False)
    counts = []
    for runner in (cp.local_runner(1), ray_engine.runner()):
        with cov.recording("simulate") as rec:
            cp.run_campaign(c, runner)
        counts.append((dict(rec.effects), dict(rec.refusals)))
    assert counts[0][0] and counts[0] == counts[1]
