"""Fuzzing the command line (issue 10, item 8): generated command lines of every command, with odd counts,
junk text, missing and malformed files, end in exit 0, 1 or 2, never in a traceback; exit 2 is one error
line (ours: ``error: ...``; click's own usage errors: its ``Error: ...`` line last)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.toml_text import toml_value

from bgrules.cli import main

ROOT = Path(__file__).resolve().parents[2]

INTS = st.one_of(st.integers(-3, 3), st.sampled_from([10**30, -(10**30)])).map(str)
JUNK = st.sampled_from(
    ["", "x", "-1", "0", "NaN", "1e9", "∞", "a=b", "=", "greedy,", ",", "random:x=1", "mcts:iterations=0"]
)
GAMES = st.sampled_from(["botfactory", "mechanica", "mechanica-factory", "chess", "", "Mechanica"])
AGENTS = st.sampled_from(
    ["random", "random,random", "greedy,random,random", "nope", "mcts:seconds=-1", "mcts:iterations=0", "greedy,"]
)

FILE_KINDS = ("missing", "empty", "bytes", "json", "badjson", "toml", "badtoml", "deep", "list", "directory")
FILE_KINDS += ("hugeint", "trace", "specs", "proofs", "results", "fabricator")


def _write(tmp: Path, kind: str, i: int) -> str:
    path = tmp / f"f{i}.{kind}"
    if kind == "missing":
        return str(path)
    if kind == "directory":
        path.mkdir(exist_ok=True)
        return str(path)
    if kind in ("specs", "proofs"):  # a directory of manifests with fields of the wrong kind
        path.mkdir(exist_ok=True)
        name, text = (
            ("x.toml", '[[spec]]\nid = ["X"]\ncheckers = 5\npredicate = ":"\n')
            if kind == "specs"
            else ("manifest.toml", '[[obligation]]\nid = "X\\u0000"\nmodule = "../x"\nexpected = "holds"\n')
        )
        (path / name).write_text(text)
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
        "hugeint": b"[" + b"9" * 5000 + b"]",
        "trace": b'{"format": "bgrules-trace", "version": 1, "game": "mechanica", "players": ' + b"9" * 5000 + b"}",
        "results": b'{"bgrules_campaign": 1, "campaign": 5}\n' + b"[" * 5000 + b"]" * 5000 + b"\n",
        "fabricator": b"[tiles.overactive_fabricator]\noutputs = []\n",
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
        if draw(st.integers(0, 4)) == 0:
            argv += ["--resume", draw(files)]
        if "botfactory" in argv:
            argv += ["--max-rounds", draw(st.sampled_from(["1", "0", "-2", "x"]))]
    elif cmd == "coverage":
        argv += ["--game", draw(GAMES), "--games", draw(st.sampled_from(["0", "-1", "x"]))]
        if draw(st.booleans()):
            argv += ["--fail-under", draw(st.sampled_from(["-5", "101", "x", "50"]))]
    elif cmd in ("verify", "prove"):
        argv += ["--only", draw(st.sampled_from(["ZZZ-NOTHING", "", "MC-Q-COLLISIONS-HAPPEN"]))]
        if cmd == "verify":
            argv += ["--checker", "searched", "--examples", draw(st.sampled_from(["1", "0", "-1", "x", "10000000"]))]
            if draw(st.booleans()):
                argv += ["--specs", draw(files)]
            if draw(st.integers(0, 4)) == 0:
                argv += [draw(st.sampled_from(["--html", "--trace-dir", "--junit-xml"])), ""]
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


# --- bad input of every loader and command (issue 21, part 4): one line, exit 2, never a traceback ---------


def _one_line(argv: list[str], *needles: str, cwd: Path | None = None) -> str:
    """Run ``argv``: exit 2 with our one ``error:`` line on stderr, holding each of ``needles``."""
    import os

    here = os.getcwd()
    try:
        if cwd is not None:
            os.chdir(cwd)
        result = CliRunner().invoke(main, argv)
    finally:
        os.chdir(here)
    assert result.exception is None or isinstance(result.exception, SystemExit), (argv, repr(result.exception))
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.exit_code == 2 and len(lines) == 1 and lines[0].startswith("error: "), (argv, result.stderr)
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    assert "Traceback" not in result.stdout + result.stderr
    return lines[0]


def _commands() -> list[tuple[str, Any]]:
    return sorted(main.commands.items())


def _filler(command: Any, but: Any) -> list[str]:
    """The command's required parameters other than ``but``, each given a junk value (``botfactory``)."""
    import click

    argv: list[str] = []
    for other in command.params:
        if other.required and other is not but:
            argv += ([other.opts[0]] if isinstance(other, click.Option) else []) + ["botfactory"]
    return argv


def test_every_path_option_refuses_an_empty_path(tmp_path: Path) -> None:
    """Every path option and argument of every command (read from the commands themselves, so a new one is
    covered): ``''`` (an empty CI variable) is one line naming the option, never the current directory."""
    import click

    seen = 0
    for name, command in _commands():
        for param in command.params:
            if not isinstance(param.type, click.Path):
                continue
            argv = [name, *_filler(command, param)]
            if isinstance(param, click.Option):
                argv += [param.opts[0], ""]
                label = param.opts[0]
            else:
                argv.insert(1, "")
                label = (param.name or "").upper()
            _one_line(argv, label, "empty path")
            seen += 1
    assert seen >= 25, seen
    assert not any(tmp_path.iterdir())


def test_every_whole_number_option_is_bounded() -> None:
    """Every whole-number option of every command refuses a figure past its maximum at once, with the
    maximum in the message (simulate --games 10**12 never starts playing)."""
    import click

    from bgrules.core.limits import MAXIMA, WHOLE_MAX

    seen = 0
    for name, command in _commands():
        for param in command.params:
            if not isinstance(param, click.Option) or not isinstance(param.type, click.types.IntParamType):
                continue
            option = param.opts[0]
            maximum = MAXIMA.get(option, (WHOLE_MAX, ""))[0]
            _one_line([name, *_filler(command, param), option, str(maximum + 1)], option, f"{maximum:,}")
            seen += 1
    assert seen >= 20, seen
    _one_line(["simulate", "--game", "mechanica", "--games", str(10**12)], "--games", "at most 10,000,000")


def _trace_text(players: str) -> str:
    return '{"format": "bgrules-trace", "version": 1, "game": "mechanica", "players": ' + players + ', "actions": []}'


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        (_trace_text("9" * 5000), "more than"),
        (_trace_text("9" * 4000), "players"),
        (_trace_text("[" * 50_000 + "]" * 50_000), "nested too deeply"),
        ("[" + "1" * 5000 + "]", "more than"),
        (_trace_text('"2"'), "players"),
    ],
)
def test_trace_files_with_huge_numbers_or_deep_nesting(tmp_path: Path, content: str, needle: str) -> None:
    path = tmp_path / "t.json"
    path.write_text(content)
    _one_line(["replay", str(path), "--game", "mechanica"], str(path) if needle != "players" else "players", needle)


def _results_file(tmp_path: Path) -> Path:
    path = tmp_path / "r.jsonl"
    result = CliRunner().invoke(main, ["simulate", "--game", "mechanica", "--games", "2", "--results", str(path)])
    assert result.exit_code == 0, result.output
    return path


@pytest.mark.parametrize(
    "damage",
    [
        "deep-header",
        "deep-shard",
        "huge-shard",
        "shard-not-a-table",
        "result-of-another-shape",
        "seconds-text",
        "header-campaign-a-number",
    ],
)
def test_resume_of_a_damaged_results_file(tmp_path: Path, damage: str) -> None:
    """``--resume`` of a results file that is nested too deeply, holds a number too long to read, or holds a
    shard line of another shape: one line naming the file, the file left as it was."""
    path = _results_file(tmp_path)
    head, shard = path.read_text().splitlines()
    row = json.loads(shard)
    if damage == "deep-header":
        head = "[" * 100_000 + "]" * 100_000
    elif damage == "deep-shard":
        shard = '{"shard": 0, "result": ' + "[" * 100_000 + "]" * 100_000 + "}"
    elif damage == "huge-shard":
        shard = '{"shard": ' + "1" * 5000 + ', "result": {}}'
    elif damage == "shard-not-a-table":
        shard = "[1, 2]"
    elif damage == "result-of-another-shape":
        shard = json.dumps({**row, "result": {**row["result"], "games": [1], "wins": 3}})
    elif damage == "seconds-text":
        shard = json.dumps({**row, "seconds": "soon"})
    else:
        header = json.loads(head)
        head = json.dumps({**header, "campaign": 5})
    text = f"{head}\n{shard}\n"
    path.write_text(text)
    _one_line(["simulate", "--game", "mechanica", "--games", "2", "--resume", str(path)], str(path))
    assert path.read_text() == text


SPEC = {
    "id": "X-INV-STOCK",
    "game": "mechanica-factory",
    "statement": "the stock is conserved",
    "rules": ["MC-STOCK"],
    "predicate": "bgrules.mechanica.invariants:bots_conserved",
    "kind": "state",
    "expected": "holds",
    "checkers": ["sampled"],
}


def _spec_dir(tmp_path: Path, **changes: Any) -> Path:
    specs = tmp_path / "specs"
    specs.mkdir(exist_ok=True)
    entry = {**SPEC, **changes}
    body = "".join(f"{json.dumps(k)} = {toml_value(v)}\n" for k, v in entry.items() if v is not None)
    (specs / "x.toml").write_text("[[spec]]\n" + body)
    return specs


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"checkers": 5}, "checkers"),
        ({"rules": 5}, "rules"),
        ({"options": "x"}, "options"),
        ({"variant": 5}, "variant"),
        ({"players": "2"}, "players"),
        ({"players": 10**18}, "players"),
        ({"id": ["X"]}, "id"),
        ({"id": "X/../Y"}, "id"),
        ({"id": "X\u0000Y"}, "id"),
        ({"id": "X" * 500}, "id"),
        ({"statement": 3}, "statement"),
        ({"game": {"a": 1}}, "game"),
        ({"kind": ["state"]}, "kind"),
        ({"expected": 1}, "expected"),
        ({"predicate": ":"}, "predicate"),
        ({"predicate": "..:x"}, "predicate"),
        ({"predicate": "os.path"}, "predicate"),
        ({"predicate": "no_such_module_xyz:f"}, "predicate"),
        ({"predicate": "bgrules.mechanica.invariants:no_such_function"}, "predicate"),
        ({"predicate": 5}, "predicate"),
        ({"budget": {"games": 10**12}}, "budget.games"),
        ({"budget": {"games": "many"}}, "budget.games"),
    ],
)
def test_spec_fields_of_the_wrong_kind(tmp_path: Path, changes: dict[str, Any], field: str) -> None:
    """Each field of a spec of the wrong kind: one line naming the file, the spec and the field."""
    specs = _spec_dir(tmp_path, **changes)
    _one_line(["verify", "--specs", str(specs), "--checker", "sampled"], "x.toml", field)


def test_a_spec_table_that_is_not_a_list(tmp_path: Path) -> None:
    specs = tmp_path / "specs"
    specs.mkdir()
    (specs / "x.toml").write_text("spec = 5\n")
    _one_line(["verify", "--specs", str(specs), "--checker", "sampled"], "x.toml", "spec")


def _proofs_dir(tmp_path: Path, entry: str, module: str = "m") -> Path:
    proofs = tmp_path / "proofs"
    proofs.mkdir(exist_ok=True)
    (proofs / "manifest.toml").write_text("[[obligation]]\n" + entry)
    (proofs / f"{module}.py").write_text(
        "from bgrules.core.proofs import Obligation, Outcome\n"
        "def obligations():\n"
        "    return [Obligation('X-PROOF', 's', (), 'g', lambda b: Outcome('holds', checked=1))]\n"
    )
    return proofs


@pytest.mark.parametrize(
    ("entry", "needle"),
    [
        ('id = ["X-PROOF"]\nmodule = "m"\nexpected = "holds"\n', "id"),
        ('id = "X/PROOF"\nmodule = "m"\nexpected = "holds"\n', "path separator"),
        ('id = "X\\u0000"\nmodule = "m"\nexpected = "holds"\n', "control character"),
        ('id = "X-PROOF"\nmodule = "../m"\nexpected = "holds"\n', "module"),
        ('id = "X-PROOF"\nmodule = "/etc/passwd"\nexpected = "holds"\n', "module"),
        ('id = "X-PROOF"\nmodule = 5\nexpected = "holds"\n', "module"),
        ('id = "X-PROOF"\nmodule = "m"\nexpected = ["holds"]\n', "expected"),
        ('id = "X-PROOF"\nmodule = "m"\nexpected = "holds"\nextra = 1\n', "extra"),
    ],
)
def test_proof_manifests_of_the_wrong_kind(tmp_path: Path, entry: str, needle: str) -> None:
    """A proof manifest's fields of the wrong kind, an id holding a path separator or NUL, and a module
    outside the proofs directory: one line naming the manifest, before anything is imported."""
    proofs = _proofs_dir(tmp_path, entry)
    outside = tmp_path / "m.py"
    outside.write_text("raise SystemExit('imported')\n")  # ../m: it must never be imported
    _one_line(["prove", "--proofs", str(proofs)], "manifest.toml", needle)


def test_a_proof_module_that_fails_to_import_is_one_line(tmp_path: Path) -> None:
    proofs = _proofs_dir(tmp_path, 'id = "X-PROOF"\nmodule = "m"\nexpected = "holds"\n')
    (proofs / "m.py").write_text("1 / 0\n")
    _one_line(["prove", "--proofs", str(proofs)], "m.py", "ZeroDivisionError")
    (proofs / "m.py").write_text("def obligations():\n    return 5\n")
    _one_line(["prove", "--proofs", str(proofs)], "m.py", "obligations()")


def test_a_linked_proof_module_outside_the_directory_is_refused(tmp_path: Path) -> None:
    proofs = _proofs_dir(tmp_path, 'id = "X-PROOF"\nmodule = "m"\nexpected = "holds"\n', module="inside")
    (tmp_path / "elsewhere.py").write_text("raise SystemExit('imported')\n")
    (proofs / "m.py").symlink_to(tmp_path / "elsewhere.py")
    _one_line(["prove", "--proofs", str(proofs)], "module", "not inside the proofs directory")


def test_a_variant_whose_fabricator_has_no_output_side(tmp_path: Path) -> None:
    """A Start Zone tile with no output side loaded once and then crashed legal_actions: it is refused
    when the variant loads, naming the file and the field."""
    for tile in ("advanced_fabricator", "overactive_fabricator", "start_hole"):
        variant = tmp_path / f"{tile}.toml"
        variant.write_text(f"[tiles.{tile}]\noutputs = []\n")
        _one_line(
            ["simulate", "--game", "mechanica", "--games", "1", "--variant", str(variant)],
            str(variant),
            f"tiles.{tile}.outputs",
        )


def test_a_current_directory_specs_without_a_known_game_is_refused(tmp_path: Path) -> None:
    """A ``specs/`` (or ``proofs/``) of the current directory with no usable spec never stands in for the
    shipped ones unnoticed: verify and simulate refuse it in one line saying it is the current directory's."""
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "other.toml").write_text('title = "another project"\n')
    _one_line(["verify", "--checker", "sampled"], "current directory", "no spec of a known game", cwd=tmp_path)
    _one_line(["simulate", "--game", "mechanica", "--games", "1"], "current directory", cwd=tmp_path)
    (tmp_path / "proofs").mkdir()
    _one_line(["verify", "--checker", "proved"], "current directory's proofs", cwd=tmp_path)
