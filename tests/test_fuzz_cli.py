"""Fuzzing the command line (issue 10, item 8): generated command lines of every command, with odd counts,
junk text, missing and malformed files, end in exit 0, 1 or 2, never in a traceback; exit 2 is one error
line (ours: ``error: ...``; click's own usage errors: its ``Error: ...`` line last)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgrules.cli import main

ROOT = Path(__file__).resolve().parent.parent

INTS = st.one_of(st.integers(-3, 3), st.sampled_from([10**30, -(10**30)])).map(str)
JUNK = st.sampled_from(
    ["", "x", "-1", "0", "NaN", "1e9", "∞", "a=b", "=", "greedy,", ",", "random:x=1", "mcts:iterations=0"]
)
GAMES = st.sampled_from(["botfactory", "mechanica", "mechanica-factory", "chess", "", "Mechanica"])
AGENTS = st.sampled_from(
    ["random", "random,random", "greedy,random,random", "nope", "mcts:seconds=-1", "mcts:iterations=0", "greedy,"]
)

FILE_KINDS = ("missing", "empty", "bytes", "json", "badjson", "toml", "badtoml", "deep", "list", "directory")


def _write(tmp: Path, kind: str, i: int) -> str:
    path = tmp / f"f{i}.{kind}"
    if kind == "missing":
        return str(path)
    if kind == "directory":
        path.mkdir(exist_ok=True)
        return str(path)
    content = {
        "empty": b"",
        "bytes": b"\xff\xfe\x00garbage\x80",
        "json": b'{"type": "Fabricate", "declare": [], "replace": []}',
        "badjson": b'{"actions": [',
        "toml": b'[rulings]\nloop = "forbid"\n',
        "badtoml": b"[rulings\nx = ",
        "deep": b"[" * 5000 + b"]" * 5000,
        "list": b'[{"type": "Nope"}]',
    }[kind]
    path.write_bytes(content)
    return str(path)


@st.composite
def command_lines(draw: st.DrawFn, tmp: Path) -> list[str]:
    files = st.builds(lambda k, i: _write(tmp, k, i), st.sampled_from(FILE_KINDS), st.integers(0, 3))
    cmd = draw(
        st.sampled_from(
            [
                "simulate",
                "balance",
                "coverage",
                "verify",
                "prove",
                "clarify",
                "replay",
                "render",
                "check",
                "games",
                "diff",
            ]
        )
    )
    argv = [cmd]
    if cmd in ("simulate", "balance"):
        argv += ["--game", draw(GAMES)]
        for opt in draw(st.lists(st.sampled_from(["--players", "--games", "--seed"]), max_size=3, unique=True)):
            argv += [opt, draw(INTS)]
        if "--games" not in argv:
            argv += ["--games", "1"]
        if draw(st.booleans()):
            argv += ["--agents", draw(AGENTS)]
        if draw(st.booleans()):
            argv += ["--variant", draw(files)]
        if draw(st.booleans()):
            argv += ["-o", draw(JUNK)]
        if cmd == "simulate" and draw(st.booleans()):
            argv += ["--specs", draw(files)]
        if "botfactory" in argv:
            argv += ["--max-rounds", draw(st.sampled_from(["1", "0", "-2", "x"]))]
    elif cmd == "coverage":
        argv += ["--game", draw(GAMES), "--games", draw(st.sampled_from(["0", "-1", "x"]))]
        if draw(st.booleans()):
            argv += ["--fail-under", draw(st.sampled_from(["-5", "101", "x", "50"]))]
    elif cmd in ("verify", "prove"):
        argv += ["--only", draw(st.sampled_from(["ZZZ-NOTHING", "", "MC-Q-COLLISIONS-HAPPEN"]))]
        if cmd == "verify":
            argv += ["--checker", "searched", "--examples", draw(st.sampled_from(["1", "0", "-1", "x"]))]
            if draw(st.booleans()):
                argv += ["--specs", draw(files)]
        if draw(st.booleans()):
            argv += ["--timeout", draw(st.sampled_from(["0", "-1", "x", "5000"]))]
        if draw(st.booleans()):
            argv += ["--jobs", draw(st.sampled_from(["0", "-1", "x", "1"]))]
        if cmd == "prove" and draw(st.booleans()):
            argv += ["--proofs", draw(files)]
    elif cmd == "clarify":
        argv += [draw(files)]
        if draw(st.booleans()):
            argv += ["--game", draw(GAMES), "--variant", draw(files)]
    elif cmd == "replay":
        argv += [draw(files)]
        if draw(st.booleans()):
            argv += ["--game", draw(GAMES)]
        if draw(st.booleans()):
            argv += ["--players", draw(INTS)]
        if draw(st.booleans()):
            argv += ["--step"]
    elif cmd in ("render", "check"):
        argv += [draw(files)]
        if draw(st.booleans()):
            argv += ["--variant", draw(files)]
    elif cmd == "diff":
        argv += ["--game", draw(GAMES), "--variant", draw(files)]
        argv += ["--depth", draw(st.sampled_from(["0", "-1", "1"])), "--nodes", draw(st.sampled_from(["0", "-1", "5"]))]
    elif cmd == "games" and draw(st.booleans()):
        argv += ["--json"]
    return argv


def _check(argv: list[str]) -> None:
    result = CliRunner().invoke(main, argv)
    text = result.stdout + result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit), (argv, repr(result.exception))
    assert result.exit_code in (0, 1, 2), (argv, result.exit_code, text[-500:])
    assert "Traceback" not in text, (argv, text[-800:])
    if result.exit_code == 2:
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert lines, argv
        ours = len(lines) == 1 and lines[0].startswith("error: ")
        clicks = lines[-1].startswith("Error: ")
        assert ours or clicks, (argv, result.stderr)
        for bad in ("cattrs", "ClassValidationError", "<class", "NoneType"):
            assert bad not in result.stderr, (argv, result.stderr)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz-cli")


def test_generated_command_lines_end_cleanly(workdir: Path) -> None:
    @settings(max_examples=300, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(command_lines(workdir))
    def run(argv: list[str]) -> None:
        _check(argv)

    run()


@pytest.mark.heavy
def test_many_generated_command_lines_end_cleanly(workdir: Path) -> None:
    @settings(max_examples=3000, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(command_lines(workdir))
    def run(argv: list[str]) -> None:
        _check(argv)

    run()


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (["games"], 0),
        (["verify", "--only", "MC-Q-COLLISIONS-HAPPEN", "--checker", "searched"], 0),
        (["verify", "--only", "ZZZ-NOTHING"], 2),
        (["verify", "--only", "MC-Q", "--checker", "searched", "--examples", "0"], 2),
        (["prove", "--timeout", "0"], 2),
        (["simulate", "--game", "mechanica", "--games", "0"], 2),
        (["simulate", "--game", "nope", "--games", "1"], 2),
        (["balance", "--game", "mechanica", "--players", "2", "--games", "1", "--agents", "nope"], 2),
        (["replay", str(ROOT / "README.md")], 2),
        (["render", "BYTES"], 2),
        (["check", "BYTES"], 2),
        (["replay", "BYTES"], 2),
        (["clarify", "BYTES"], 2),
        (["simulate", "--game", "mechanica", "--games", "1", "--variant", "BYTES"], 2),
    ],
)
def test_each_exit_code(argv: list[str], code: int, tmp_path: Path) -> None:
    bad = tmp_path / "bytes.bin"
    bad.write_bytes(b"\xff\xfe\x00garbage\x80")
    argv = [str(bad) if a == "BYTES" else a for a in argv]
    result = CliRunner().invoke(main, argv)
    assert "Traceback" not in result.stdout + result.stderr and not isinstance(result.exception, UnicodeDecodeError)
    assert result.exit_code == code, (argv, result.stdout[-400:], result.stderr[-400:])
