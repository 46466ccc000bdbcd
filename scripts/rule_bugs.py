"""Plausible rule bugs, injected one at a time into a copy of bgrules: how many does `bgrules verify` catch?

    python scripts/rule_bugs.py [--jobs 2] [--only ID ...] [--json OUT.json]

Each bug is a small edit of the rule code or of the component data (a reward of the wrong size, the Wheel
turning the wrong way, Sandra acting in round 1, a tie-break reversed, an end that ignores the Shop, a
figure of the seeds changed), the kind issue 22 measured on 0.7.3 (9 of 24 caught). For each, the package
is copied to a temporary directory, the edit is made there (the installed package is never touched; the
edit must match its text exactly as often as it says, else the bug is reported stale), and the default
`bgrules verify --json` runs in a subprocess on the copy. A bug is **caught** when verify exits 1 (some
verdict is not the expected one); the rows that differ name the checks that caught it. Verify on the
unmutated copy runs first and must pass. ``bgrules adequacy`` (docs/adequacy.md) measures the same thing
over machine-made mutants of every rule; this list is the hand-picked, human-plausible one.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import bgrules

BUGS: tuple[tuple[str, str, str, str, str, int], ...] = (
    # (id, what, file in bgrules/, old text, new text, times the old text occurs)
    (
        "bf-wheel-way",
        "BF-PROD-ROTATE: the Wheel turns the wrong way",
        "botfactory/production.py",
        "state.wheel[(i - 2) % 8]",
        "state.wheel[(i + 2) % 8]",
        1,
    ),
    (
        "bf-part-reward",
        "BF-ASM-REWARD: 3 tokens for a part, not 2",
        "botfactory/assembly.py",
        "state = game._gain(state, seat, 2)",
        "state = game._gain(state, seat, 3)",
        1,
    ),
    (
        "bf-right-bonus",
        "BF-PROJ-RIGHT: 2 tokens, not 1",
        "botfactory/projects.py",
        "return game._gain(state, seat, 1)",
        "return game._gain(state, seat, 2)",
        1,
    ),
    (
        "bf-sandra-round-1",
        "BF-SANDRA-ACT: Sandra acts in round 1",
        "botfactory/windows.py",
        "if state.round > 1:  # BF-SANDRA-ACT",
        "if state.round >= 1:  # BF-SANDRA-ACT",
        1,
    ),
    (
        "bf-tie-even",
        "BF-TIE: an even number of tokens breaks the tie",
        "botfactory/scoring.py",
        "state.hands[i].tokens % 2 == 1]",
        "state.hands[i].tokens % 2 == 0]",
        1,
    ),
    (
        "bf-tie-fewer-bots",
        "BF-TIE: fewer bots break the tie",
        "botfactory/scoring.py",
        "most = max(len(state.hands[i].done) for i in tied)",
        "most = min(len(state.hands[i].done) for i in tied)",
        1,
    ),
    (
        "bf-maint-fall",
        "BF-MAINT: values fall by 2",
        "botfactory/maintenance.py",
        "values[ci] = max(0, values[ci] - 1)",
        "values[ci] = max(0, values[ci] - 2)",
        1,
    ),
    (
        "bf-raise-two",
        "BF-FIN-RAISE: a token raises a value by 2",
        "botfactory/finance.py",
        "values=_set(state.values, ci, old + 1)",
        "values=_set(state.values, ci, old + 2)",
        1,
    ),
    (
        "bf-sandra-raises-others",
        "BF-FIN-SANDRA: Sandra raises all but the lowest",
        "botfactory/finance.py",
        "v + 1 if v == low else v",
        "v + 1 if v != low else v",
        1,
    ),
    (
        "bf-order-reversed",
        "BF-ORDER: the next round's order runs right to left",
        "botfactory/maintenance.py",
        "key=lambda s: state.workers[s] or 0))",
        "key=lambda s: state.workers[s] or 0, reverse=True))",
        1,
    ),
    (
        "bf-token-points",
        "BF-SCORE: 3 tokens to a point, not 2",
        "botfactory/scoring.py",
        "+ hand.tokens // 2",
        "+ hand.tokens // 3",
        1,
    ),
    (
        "bf-line-again",
        "BF-FIN-LINE: a value on the line rewards again",
        "botfactory/finance.py",
        "if old < line <= old + 1:",
        "if old <= line <= old + 1:",
        1,
    ),
    (
        "bf-no-fifth-end",
        "BF-END-FIFTH: a fifth bot does not end the game",
        "botfactory/maintenance.py",
        "        or any(len(h.done) >= game.c.counts.bots_to_end for h in state.hands)\n        or (game",
        "        or False\n        or (game",
        1,
    ),
    (
        "bf-token-cap",
        "figure: the token cap is 10 (seed: 9)",
        "botfactory/data/components.toml",
        "token_cap = 9 ",
        "token_cap = 10 ",
        1,
    ),
    (
        "mc-end-ignores-shop",
        "MC-END: the game ends with the deck empty, the Shop not",
        "mechanica/dayend.py",
        "if not sum(state.deck) and all(w is None for w in state.wheel):",
        "if not sum(state.deck):",
        1,
    ),
    (
        "mc-flight-coin",
        "MC-FLIGHT-JUMP: every throw pays a coin",
        "mechanica/movement.py",
        "jump=1 if jumped else 0,",
        "jump=1,",
        2,
    ),
    (
        "mc-lowest-wins",
        "MC-END-TIE: the lowest score wins",
        "mechanica/dayend.py",
        "best = max(totals)",
        "best = min(totals)",
        1,
    ),
    (
        "mc-gift-one-short",
        "MC-FAB-OVERACTIVE: one player misses each gift",
        "mechanica/turn.py",
        "for k in range(1, n)",
        "for k in range(1, n - 1)",
        1,
    ),
    (
        "mc-price",
        "figure: the Shop's last price is 1 (seed: 2)",
        "mechanica/data/game.toml",
        "prices = [7, 5, 4, 3, 2]",
        "prices = [7, 5, 4, 3, 1]",
        1,
    ),
    (
        "mc-sale",
        "figure: a Plus bot sells for 5 (seed: 4)",
        "mechanica/data/components.toml",
        "sale = 4",
        "sale = 5",
        1,
    ),
    (
        "mc-big-truck",
        "figure: a Big Truck holds 3 bots (seed: 2)",
        "mechanica/data/components.toml",
        'capacity = 2\nvalue = 0\nrecycle = "basic"\ncopies = 8',
        'capacity = 3\nvalue = 0\nrecycle = "basic"\ncopies = 8',
        1,
    ),
    (
        "mc-upgrade-price",
        "figure: Big to Huge costs 2 (seed: 3)",
        "mechanica/data/components.toml",
        "upgrade_price = 3",
        "upgrade_price = 2",
        1,
    ),
    (
        "mc-start-money",
        "figure: the last seat starts with 2 coins (seed: 1)",
        "mechanica/data/game.toml",
        "money = [5, 1, 1, 1]",
        "money = [5, 1, 1, 2]",
        1,
    ),
    (
        "mc-fork-price",
        "figure: a Fork costs 2 (seed: 1)",
        "mechanica/data/components.toml",
        "copies = 10\nprice = 1",
        "copies = 10\nprice = 2",
        1,
    ),
)


def copy_package(into: Path) -> Path:
    """A copy of the imported bgrules package (symlinks followed: the shipped specs and proofs come along)."""
    src = Path(bgrules.__file__).resolve().parent
    dst = into / "bgrules"
    shutil.copytree(src, dst, symlinks=False, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return dst


def verify(root: Path, seconds: float) -> dict[str, Any]:
    """``bgrules verify --json`` on the copy under ``root`` (run from an empty directory there)."""
    work = root / "run"
    work.mkdir(exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(root), "PYTHONHASHSEED": "0"}
    t = time.monotonic()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "bgrules", "verify", "--json", "-j", "1"],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            timeout=seconds,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return {"exit": "timeout", "caught_by": ["timeout"], "seconds": round(time.monotonic() - t, 1)}
    rows: list[dict[str, Any]] = []
    for line in done.stdout.splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if isinstance(row, dict):
            rows.append(row)
    if not rows:
        try:
            parsed = json.loads(done.stdout)
            rows = parsed if isinstance(parsed, list) else parsed.get("results", [])
        except ValueError:
            rows = []
    wrong = sorted({str(r.get("id")) for r in rows if r.get("verdict") != r.get("expected")})
    return {
        "exit": done.returncode,
        "caught_by": wrong,
        "seconds": round(time.monotonic() - t, 1),
        "stderr": done.stderr.strip().splitlines()[-1:] if done.returncode not in (0, 1) else [],
    }


def run_bug(bug: tuple[str, str, str, str, str, int] | None, seconds: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bgrules-bug-") as tmp:
        pkg = copy_package(Path(tmp))
        if bug is not None:
            bug_id, what, rel, old, new, times = bug
            path = pkg / rel
            text = path.read_text(encoding="utf-8")
            if text.count(old) != times:
                return {
                    "id": bug_id,
                    "what": what,
                    "stale": f"{rel}: the text occurs {text.count(old)} time(s), not {times}",
                }
            path.write_text(text.replace(old, new), encoding="utf-8")
        found = verify(Path(tmp), seconds)
        return {"id": bug[0] if bug else "baseline", "what": bug[1] if bug else "", **found}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--seconds", type=float, default=900.0, help="per verify run")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    base = run_bug(None, args.seconds)
    print(f"baseline: exit {base['exit']} in {base['seconds']} s", flush=True)
    if base["exit"] != 0:
        sys.exit(f"the unmutated copy does not verify: {base}")
    bugs = [b for b in BUGS if not args.only or b[0] in args.only]
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(lambda b: run_bug(b, args.seconds), bugs))
    caught = 0
    for r in results:
        if "stale" in r:
            print(f"STALE   {r['id']}: {r['stale']}")
            continue
        hit = r["exit"] != 0
        caught += hit
        said = ", ".join(r["caught_by"][:4]) + (" ..." if len(r["caught_by"]) > 4 else "")
        print(f"{'caught ' if hit else 'MISSED '} {r['id']:<24} {r['what']}" + (f"  [{said}]" if hit else ""))
    tried = sum("stale" not in r for r in results)
    print(f"\n{caught} of {tried} rule bugs caught by the default bgrules verify")
    if args.json:
        args.json.write_text(json.dumps({"caught": caught, "tried": tried, "bugs": results}, indent=1) + "\n")


if __name__ == "__main__":
    main()
