"""Mutation score of the rule modules with mutmut 3 on the default test suite (docs/mutation.md).

mutmut 3 writes a mutated copy of ``bgrules/`` to ``./mutants/`` and runs the tests there, so this script
never runs it in the checkout you work in: it measures a separate git worktree of a commit (HEAD by
default), created on first use and reused afterwards (mutmut caches every verdict in ``mutants/``).

    python scripts/mutation.py                      # worktree of HEAD in ../bgrules-mutation, run, report
    python scripts/mutation.py --dir /tmp/wt-mut    # another place for the worktree
    python scripts/mutation.py --report             # only print the figures of the last run
    python scripts/mutation.py --rerun-survivors    # re-check the survivors (after new tests reached the worktree)
    python scripts/mutation.py --markdown           # the report as the table docs/mutation.md shows
    python scripts/mutation.py --fast               # only the fast test files (FAST below) select and kill
    python scripts/mutation.py --rooms              # the games' rooms instead of the four rule modules
    python scripts/mutation.py --update             # move the worktree to --commit first (keeps the cache)
    python scripts/mutation.py --save               # keep the verdicts in scripts/mutation-state/ (go on later)
    python scripts/mutation.py --fresh              # do not start from the kept verdicts
    python scripts/mutation.py --rooms --fast --sample 250   # score a random sample, with its interval
    python scripts/mutation.py --timeout-multiplier 15 NAME...  # decide these mutants again, a longer limit

The run is ``nice -n 19 mutmut run --max-children 1`` (one test process: the machine is shared). The
configuration is ``[tool.mutmut]`` in pyproject.toml. The score of a module is
``(killed + timeout) / (mutants - equivalent)``; the equivalent mutants are the ones listed, each with its
reason, in the table of docs/mutation.md (section "Equivalent mutants"). A listed mutant that the tests
kill is reported, so the list cannot hide a killable mutant.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]

FAST = (
    "tests/botfactory/test_arith.py",
    "tests/mechanica/test_fabricate.py",
    "tests/mechanica/test_movement.py",
    "tests/mechanica/test_workday_exact.py",
    "tests/mechanica/test_workday.py",
    "tests/mechanica/test_sandbox.py",
    "tests/mechanica/test_notation.py",
    "tests/mechanica/test_placement.py",
    "tests/mechanica/test_rule_edge_cases.py",
    "tests/botfactory/test_smt.py",
    "tests/botfactory/test_production_trade.py",
    "tests/core/test_variants.py",
)
"""Test files of the default suite that exercise the rule modules directly and run in seconds. A mutant they
kill is killed by the default suite (they are part of it), so a ``--fast`` score is a lower bound of the
default suite's."""

FAST_ROOMS = (
    "tests/botfactory/test_game.py",
    "tests/botfactory/test_rulings.py",
    "tests/botfactory/test_production_trade.py",
    "tests/mechanica/test_game.py",
    "tests/mechanica/test_anytime.py",
    "tests/mechanica/test_rule_edge_cases.py",
    "tests/mechanica/test_structure.py",
    "tests/core/test_golden_traces.py",
    "tests/core/test_golden_rooms.py",
    "tests/agents/test_agents.py",
    "tests/runners/test_cli.py",
    "tests/runners/test_balance.py",
    "tests/runners/test_coverage.py",
    "tests/runners/test_diff.py",
    "tests/runners/test_clarify.py",
    "tests/mechanica/test_blueprint_match.py",
    "tests/mechanica/test_clarifications.py",
    "tests/botfactory/test_structure.py",
    "tests/runners/test_validate.py",
    "tests/core/test_variants.py",
)
"""The test files of the default suite that play the whole games and run in seconds each (``--fast`` with
``--rooms``); all but the conformance playouts (90 s), the fuzzers and the z3 files."""

ROOMS = (
    "bgrules/botfactory/assembly.py",
    "bgrules/botfactory/production.py",
    "bgrules/botfactory/projects.py",
    "bgrules/botfactory/finance.py",
    "bgrules/botfactory/tokens.py",
    "bgrules/botfactory/limits.py",
    "bgrules/botfactory/draws.py",
    "bgrules/botfactory/pick.py",
    "bgrules/botfactory/moves.py",
    "bgrules/botfactory/tolls.py",
    "bgrules/botfactory/turns.py",
    "bgrules/botfactory/windows.py",
    "bgrules/botfactory/maintenance.py",
    "bgrules/botfactory/rooms.py",
    "bgrules/botfactory/round.py",
    "bgrules/botfactory/game.py",
    "bgrules/mechanica/shop.py",
    "bgrules/mechanica/turn.py",
    "bgrules/mechanica/blueprints.py",
    "bgrules/mechanica/dayend.py",
    "bgrules/mechanica/game.py",
)
"""The games' rooms (issue 8 item 3): each board's or phase's module and the round flow."""
ROOMS_DESELECT = (
    "--deselect",
    "tests/mechanica/test_structure.py::test_every_room_cites_its_rules",
    "--deselect",
    "tests/runners/test_coverage.py::test_every_effect_call_names_a_documented_rule",
)
"""Deselected when the rooms are mutated: the first test reads the rooms' docstrings from their source, and
in ``mutants/`` every function has its mutants beside it (``xǁMechanicaGameǁ__init____mutmut_orig``, no
docstring); the second greps the ``coverage.effect("...")`` literals out of the source, which in
``mutants/`` holds every mutant's literal (``"XXMC-ENDXX"``). Neither calls rule code, so neither can kill a
mutant (as test_docs's rule-ID grep, docs/mutation.md)."""
DOC = REPO / "docs" / "mutation.md"
STATE = REPO / "scripts" / "mutation-state"
"""The verdicts of earlier runs kept in the repository (``--save``), one directory per configuration
(``rules``, ``rooms``): mutmut's ``.meta`` files, which hold each mutant's exit code and each function's
hash. A new worktree starts from them (unless ``--fresh``), and mutmut keeps the verdicts of every
function whose source hash is unchanged, so a measurement can go on over several sessions."""
EQUIVALENT_ROW = re.compile(r"^\|\s*`(bgrules\.[\w.ǁ]+__mutmut_\d+)`\s*\|")

# mutmut 3's exit-code classes (mutmut/stats.py): 1 and 3 killed, 0 survived, 33 and 5 no tests, timeouts.
KILLED = {1, 3}
SURVIVED = {0}
NO_TESTS = {5, 33}
TIMEOUT = {36, 24, -24, 152, 255}


def equivalent_mutants(doc: Path = DOC) -> dict[str, str]:
    """Mutant name -> reason, from the table of docs/mutation.md."""
    out: dict[str, str] = {}
    if not doc.exists():
        return out
    for line in doc.read_text(encoding="utf-8").splitlines():
        m = EQUIVALENT_ROW.match(line)
        if m:
            out[m.group(1)] = line.rsplit("|", 2)[-2].strip()
    return out


def verdicts(workdir: Path) -> dict[str, dict[str, int | None]]:
    """Module path -> mutant name -> mutmut exit code (None: not checked yet)."""
    out: dict[str, dict[str, int | None]] = {}
    for meta in sorted((workdir / "mutants").rglob("*.py.meta")):
        data = json.loads(meta.read_text(encoding="utf-8"))
        module = str(meta.relative_to(workdir / "mutants"))[: -len(".meta")]
        out[module] = dict(data["exit_code_by_key"])
    return out


def classify(code: int | None, name: str, equivalent: dict[str, str]) -> str:
    if code is None:
        return "not checked"
    if code in KILLED:
        return "killed"
    if code in TIMEOUT:
        return "timeout"
    if name in equivalent and (code in SURVIVED or code in NO_TESTS):
        return "equivalent"
    if code in SURVIVED:
        return "survived"
    if code in NO_TESTS:
        return "no tests"
    return "suspicious"


COLUMNS = ("mutants", "killed", "timeout", "survived", "no tests", "equivalent", "not checked", "suspicious")


def report(workdir: Path, *, markdown: bool = False) -> int:
    equivalent = equivalent_mutants()
    by_module = verdicts(workdir)
    if not by_module:
        print(f"no mutmut results in {workdir / 'mutants'}", file=sys.stderr)
        return 1
    rows: list[tuple[str, Counter[str]]] = []
    total: Counter[str] = Counter()
    killed_but_listed: list[str] = []
    for module, codes in by_module.items():
        counts: Counter[str] = Counter()
        for name, code in codes.items():
            cls = classify(code, name, equivalent)
            counts[cls] += 1
            if name in equivalent and cls in ("killed", "timeout"):
                killed_but_listed.append(name)
        counts["mutants"] = len(codes)
        rows.append((module, counts))
        total.update(counts)
    rows.append(("total", total))

    def score(c: Counter[str]) -> str:
        judged = c["mutants"] - c["equivalent"] - c["not checked"]
        if not judged:
            return "-"
        return f"{100 * (c['killed'] + c['timeout']) / judged:.1f}%" + ("*" if c["not checked"] else "")

    if markdown:
        print("| module | " + " | ".join(COLUMNS) + " | score |")
        print("|---" * (len(COLUMNS) + 2) + "|")
        for module, c in rows:
            name = f"`{module}`" if module != "total" else "**total**"
            print(f"| {name} | " + " | ".join(str(c[k]) for k in COLUMNS) + f" | {score(c)} |")
    else:
        width = max(len(m) for m, _ in rows)
        print(f"{'module':<{width}} " + " ".join(f"{k:>11}" for k in COLUMNS) + "       score")
        for module, c in rows:
            print(f"{module:<{width}} " + " ".join(f"{c[k]:>11}" for k in COLUMNS) + f" {score(c):>11}")
    if total["not checked"] and not markdown:
        print("* the run is incomplete: the score is over the mutants checked so far")
    survivors = sorted(
        n for codes in by_module.values() for n, code in codes.items() if classify(code, n, equivalent) == "survived"
    )
    if survivors and not markdown:
        print(f"\nsurvived ({len(survivors)}), not listed as equivalent in docs/mutation.md:")
        for n in survivors:
            print("   ", n)
    # a listed mutant of a module this run did not mutate (the other configuration's) is not stale
    prefixes = tuple(module[: -len(".py")].replace("/", ".") + "." for module in by_module)
    known = {n for codes in by_module.values() for n in codes}
    stale = sorted(n for n in set(equivalent) - known if n.startswith(prefixes))
    for n in stale:
        print(f"warning: {n} is listed as equivalent but is no mutant of this run", file=sys.stderr)
    for n in sorted(killed_but_listed):
        print(f"warning: {n} is listed as equivalent but the tests kill it", file=sys.stderr)
    return 0


def ensure_worktree(workdir: Path, commit: str) -> None:
    if not (workdir / ".git").exists():
        subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", str(workdir), commit], check=True)
    # tests/core/test_docs.py reads the seeds at <checkout>/../shared/seeds; inside mutants/ that is <workdir>/shared.
    seeds = REPO.parent / "shared"
    link = workdir / "shared"
    if seeds.is_dir() and not link.exists():
        link.symlink_to(seeds)


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} as TOML")


def configure(workdir: Path, overrides: dict[str, object]) -> None:
    """Write the repository's [tool.mutmut] with ``overrides`` into the worktree's pyproject.toml (the
    worktree's copy only: the repository's file is not touched)."""
    import tomllib

    path = workdir / "pyproject.toml"
    subprocess.run(["git", "-C", str(workdir), "checkout", "--", "pyproject.toml"], check=True)
    text = path.read_text(encoding="utf-8")
    settings = dict(tomllib.loads(text)["tool"]["mutmut"])
    if not overrides:
        return
    settings.update(overrides)
    lines = text.splitlines()
    start = lines.index("[tool.mutmut]")
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("[")), len(lines))
    body = [f"{k} = {_toml_value(v)}" for k, v in settings.items()]
    path.write_text("\n".join([*lines[:start], "[tool.mutmut]", *body, *lines[end:]]) + "\n", encoding="utf-8")


def _mutmut_settings() -> dict[str, Any]:
    """The repository's ``[tool.mutmut]``."""
    import tomllib

    settings: dict[str, Any] = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mutmut"]
    return settings


def _state_dir(rooms: bool) -> Path:
    return STATE / ("rooms" if rooms else "rules")


def restore_state(workdir: Path, rooms: bool) -> int:
    """Copy the kept ``.meta`` files into ``<workdir>/mutants/`` where it has none yet; how many."""
    source = _state_dir(rooms)
    copied = 0
    for meta in sorted(source.rglob("*.py.meta")) if source.is_dir() else []:
        target = workdir / "mutants" / meta.relative_to(source)
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(meta.read_bytes())
            copied += 1
    return copied


def refresh_stats(workdir: Path) -> bool:
    """Remove mutmut's record of which tests call which function when it was taken at another commit than
    the worktree's: mutmut 3 then records it afresh at the start of the run. It only adds the tests that
    are new to an old record, so a function new since then would be left with no test at all and each of
    its mutants reported "no tests" (seen on the rooms: every "no tests" of the 0.7.2 sample was a
    function added after the record's commit). Returns whether it was removed."""
    stats = workdir / "mutants" / "mutmut-stats.json"
    if not stats.exists():
        return False
    try:
        taken = json.loads(stats.read_text(encoding="utf-8")).get("git_commit")
    except json.JSONDecodeError:
        taken = None
    head = subprocess.run(
        ["git", "-C", str(workdir), "rev-parse", "HEAD"], check=True, capture_output=True, text=True
    ).stdout.strip()
    if taken == head:
        return False
    stats.unlink()
    print(f"mutmut's test record was of {str(taken)[:10]}, the worktree is at {head[:10]}: recorded again")
    return True


def save_state(workdir: Path, rooms: bool) -> int:
    """Keep the worktree's ``.meta`` files (each a complete JSON document) in the repository."""
    target_dir = _state_dir(rooms)
    saved = 0
    for meta in sorted((workdir / "mutants").rglob("*.py.meta")):
        text = meta.read_text(encoding="utf-8")
        try:
            data = json.loads(text)
        except json.JSONDecodeError:  # mutmut is writing it: keep the copy saved before
            print(f"warning: {meta} is being written; not saved", file=sys.stderr)
            continue
        # a timeout depends on the machine's load (a slow honest run on a busy machine is stopped too):
        # kept as not checked, so a later run on a quieter machine decides it again
        codes = data["exit_code_by_key"]
        data["exit_code_by_key"] = {k: (None if v in TIMEOUT else v) for k, v in codes.items()}
        text = json.dumps(data, indent=4)
        target = target_dir / meta.relative_to(workdir / "mutants")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        saved += 1
    commit = subprocess.run(
        ["git", "-C", str(workdir), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    (target_dir / "COMMIT").write_text(commit + "\n", encoding="utf-8")
    return saved


PREPARE = "bgrules.__no_mutant__"
"""A mutant name that matches nothing: ``mutmut run`` with it generates and collects stats, then stops."""


def sample_names(workdir: Path, size: int, seed: int) -> list[str]:
    """``size`` mutants drawn uniformly without replacement from every mutant of the run (sorted names, a
    seeded ``random.Random``: the same sample for the same commit in any process)."""
    import random

    every = sorted(n for codes in verdicts(workdir).values() for n in codes)
    if size >= len(every):
        return every
    return sorted(random.Random(seed).sample(every, size))


def wilson(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval (95%) of a proportion k/n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def sample_report(workdir: Path, names: list[str]) -> int:
    """The score over a sample of mutants, with its 95% interval: an estimate of the whole run's score."""
    equivalent = equivalent_mutants()
    codes = {n: c for by in verdicts(workdir).values() for n, c in by.items()}
    counts: Counter[str] = Counter(classify(codes.get(n), n, equivalent) for n in names)
    judged = len(names) - counts["equivalent"] - counts["not checked"]
    detected = counts["killed"] + counts["timeout"]
    print(f"sample of {len(names)} mutants: " + ", ".join(f"{k} {counts[k]}" for k in COLUMNS[1:] if counts[k]))
    if not judged:
        print("no mutant of the sample was judged: no score", file=sys.stderr)
        return 1
    low, high = wilson(detected, judged)
    print(
        f"score {detected}/{judged} = {100 * detected / judged:.1f}% of the non-equivalent mutants checked; "
        f"95% Wilson interval [{100 * low:.1f}%, {100 * high:.1f}%]"
    )
    for n in names:
        cls = classify(codes.get(n), n, equivalent)
        if cls not in ("killed", "timeout", "equivalent"):
            print(f"    {cls}: {n}")
    return 0


def survivors(workdir: Path) -> list[str]:
    equivalent = equivalent_mutants()
    return sorted(
        n
        for codes in verdicts(workdir).values()
        for n, code in codes.items()
        if classify(code, n, equivalent) in ("survived", "no tests", "equivalent", "suspicious")
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir", type=Path, default=REPO.parent / "bgrules-mutation", help="the worktree to measure")
    parser.add_argument("--commit", default="HEAD", help="the commit the worktree is made of (first use only)")
    parser.add_argument("--report", action="store_true", help="only report the last run's figures")
    parser.add_argument("--markdown", action="store_true", help="report as a markdown table")
    parser.add_argument("--rerun-survivors", action="store_true", help="run only the mutants that survived")
    parser.add_argument("--fast", action="store_true", help="select tests from FAST only (a lower bound)")
    parser.add_argument("--rooms", action="store_true", help="mutate the games' rooms (ROOMS)")
    parser.add_argument("--update", action="store_true", help="check the worktree out at --commit first")
    parser.add_argument("--save", action="store_true", help="keep the verdicts in scripts/mutation-state/")
    parser.add_argument("--fresh", action="store_true", help="do not start from the kept verdicts")
    parser.add_argument(
        "--timeout-multiplier",
        type=float,
        default=None,
        help="mutmut's timeout_multiplier for this run (pyproject's otherwise; higher on a busy machine)",
    )
    parser.add_argument("--max-children", type=int, default=1, help="test processes at once (default 1)")
    parser.add_argument("--sample", type=int, default=None, help="run and score N mutants drawn at random")
    parser.add_argument("--sample-seed", type=int, default=0, help="the seed of --sample's draw")
    parser.add_argument("mutants", nargs="*", help="run only these mutants (mutmut names, * globs allowed)")
    args = parser.parse_args(argv)
    workdir = args.dir.resolve()
    commit = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--verify", args.commit + "^{commit}"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    if args.max_children < 1:
        parser.error("--max-children must be at least 1")
    if args.sample is not None and args.sample <= 0:
        parser.error("--sample must be positive")
    if args.save:
        print(f"saved {save_state(workdir, args.rooms)} verdict file(s) to {_state_dir(args.rooms)}")
        return report(workdir, markdown=args.markdown)
    if not args.report:
        ensure_worktree(workdir, commit)
        if not args.fresh:
            restored = restore_state(workdir, args.rooms)
            if restored:
                print(f"started from {restored} kept verdict file(s) of {_state_dir(args.rooms)}")
        overrides: dict[str, object] = {}
        base_args = list(_mutmut_settings()["pytest_add_cli_args"])
        if args.fast:
            overrides["pytest_add_cli_args_test_selection"] = list(FAST_ROOMS if args.rooms else FAST)
        if args.timeout_multiplier is not None:
            if args.timeout_multiplier <= 0:
                parser.error("--timeout-multiplier must be positive")
            overrides["timeout_multiplier"] = args.timeout_multiplier
        if args.rooms:
            overrides["only_mutate"] = list(ROOMS)
            overrides["pytest_add_cli_args"] = [*base_args, *ROOMS_DESELECT]
        configure(workdir, {})
        if args.update:
            subprocess.run(["git", "-C", str(workdir), "checkout", "-q", "--detach", commit], check=True)
        configure(workdir, overrides)
        refresh_stats(workdir)
        names = list(args.mutants)
        if args.rerun_survivors:
            names += survivors(workdir)
            if not names:
                print("no survivors to re-check")
        mutmut = Path(sys.executable).with_name("mutmut")
        cmd = ["nice", "-n", "19", str(mutmut), "run", "--max-children", str(args.max_children)]
        env = dict(os.environ, PYTHONHASHSEED="0")
        if args.sample is not None:
            # generate the mutants and the stats of this commit: mutmut stops at the filter, which no
            # mutant matches (its assertion), once both are written
            subprocess.run([*cmd, PREPARE], cwd=workdir, env=env, capture_output=True)
            names = sample_names(workdir, args.sample, args.sample_seed)
            if not names:
                print(f"no mutants in {workdir / 'mutants'} to sample", file=sys.stderr)
                return 1
        done = subprocess.run([*cmd, *names], cwd=workdir, env=env)
        if done.returncode != 0:
            return done.returncode
    if args.sample is not None:
        return sample_report(workdir, sample_names(workdir, args.sample, args.sample_seed))
    return report(workdir, markdown=args.markdown)


if __name__ == "__main__":
    sys.exit(main())
