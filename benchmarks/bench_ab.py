"""Before/after speed of the engines in one session: alternating runs of bench_cpu.py on an old commit's
``bgrules`` (exported with ``git archive``) and on the working tree, each beside python-chess in the same
run, timed in CPU seconds on the same fixed seeds, so the ratios compare fairly on a shared machine.

    python benchmarks/bench_ab.py --old HEAD [--new REV] [--game mechanica] [--rounds 3] [--games 20]

``--new REV`` takes the other side from a commit too, so uncommitted work in the checkout stays out of the
comparison (``--old X~1 --new X`` measures commit X alone).

Prints one line per run (which side, chess steps per CPU second, unchecked and checked steps/s and their ratios to
chess) and the median ratio of each side.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def export(rev: str, into: Path) -> Path:
    """The ``bgrules`` package of commit ``rev`` unpacked under ``into``."""
    archive = into / "old.tar"
    subprocess.run(["git", "-C", str(ROOT), "archive", "-o", str(archive), rev, "bgrules"], check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return into


def export_as(rev: str, into: Path, name: str) -> None:
    """The ``bgrules`` package of commit ``rev`` unpacked under ``into`` as package ``name`` (every ``bgrules``
    module name in its sources renamed), so that two versions import side by side in one process."""
    archive = into / f"{name}.tar"
    subprocess.run(["git", "-C", str(ROOT), "archive", "-o", str(archive), rev, "bgrules"], check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into / f"{name}.tmp", filter="data")
    (into / f"{name}.tmp" / "bgrules").rename(into / name)
    pattern = re.compile(r"\bbgrules(?=[.\s]|$)", re.M)
    for path in (into / name).rglob("*.py"):
        path.write_text(pattern.sub(name, path.read_text()))


def run(game: str, games: int, pythonpath: str | None) -> dict[str, float]:
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    else:
        env.pop("PYTHONPATH", None)
    out = subprocess.run(
        [sys.executable, str(HERE / "bench_cpu.py"), "--game", game, "--games", str(games)],
        check=True,
        capture_output=True,
        text=True,
        env=env,
        cwd=str(ROOT) if pythonpath is None else pythonpath,
    ).stdout
    data: dict[str, float] = json.loads(out)
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--old", default="HEAD")
    parser.add_argument("--new", default=None, help="a commit instead of the working tree (measures commits alone)")
    parser.add_argument("--game", default="mechanica", choices=["mechanica", "botfactory"])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    ratios: dict[str, dict[str, list[float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "old").mkdir()
        old = str(export(args.old, Path(tmp) / "old"))
        new: str | None = None
        if args.new is not None:  # both sides commits: uncommitted work in the checkout stays out
            (Path(tmp) / "new").mkdir()
            new = str(export(args.new, Path(tmp) / "new"))
        for i in range(args.rounds):
            for side, path in (("old", old), ("new", new)) if i % 2 == 0 else (("new", new), ("old", old)):
                d = run(args.game, args.games, path)
                chess = d["chess_steps_per_cpu_second"]
                u = d["steps_per_cpu_second_unchecked"] / chess
                c = d["steps_per_cpu_second_checked"] / chess
                r = ratios.setdefault(side, {"unchecked": [], "checked": [], "cost": []})
                r["unchecked"].append(u)
                r["checked"].append(c)
                r["cost"].append(u / c)
                print(
                    f"{args.game} {side}: chess {chess:.0f}/s, unchecked {d['steps_per_cpu_second_unchecked']:.0f}/s"
                    f" ({u:.2f}x), checked {d['steps_per_cpu_second_checked']:.0f}/s ({c:.2f}x),"
                    f" check cost {u / c:.2f}x",
                    flush=True,
                )
    for side, r in ratios.items():
        print(
            f"{args.game} {side} median: unchecked {statistics.median(r['unchecked']):.2f}x chess"
            f" (range {min(r['unchecked']):.2f}-{max(r['unchecked']):.2f}), checked"
            f" {statistics.median(r['checked']):.2f}x (range {min(r['checked']):.2f}-{max(r['checked']):.2f}),"
            f" check cost {statistics.median(r['cost']):.2f}x"
        )


if __name__ == "__main__":
    main()
