"""Product hygiene (issue 10, item 7): one version number, the licence, ``python -m bgrules``, the games
listed with their options and rulings, docs that point at nothing outside the repository and cite each
seed quote by its line."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

import bgrules
from bgrules.cli import _GAME_HELP, main
from bgrules.core.catalog import OPTION_MEANINGS, describe_games

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
SEEDS = ROOT.parent / "shared" / "seeds"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_one_version_number_everywhere() -> None:
    version = PROJECT["version"]
    assert bgrules.__version__ == version
    code, out, _ = run("--version")
    assert code == 0 and out.strip() == f"bgrules, version {version}"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"Status ({version})" in readme
    statuses = re.findall(r"Status \((\d+\.\d+\.\d+)\)", readme)
    assert statuses == [version]


def test_python_dash_m_bgrules_runs_the_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bgrules", "--version"], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert done.returncode == 0 and PROJECT["version"] in done.stdout


def test_the_licence_file_is_the_declared_licence() -> None:
    assert PROJECT["license"] == {"text": "MIT"}
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "WITHOUT WARRANTY OF ANY KIND" in text


def test_games_lists_every_game_with_players_options_and_rulings() -> None:
    code, out, _ = run("games", "--json")
    assert code == 0
    games = json.loads(out)
    assert [g["name"] for g in games] == list(bgrules.game_names())
    for g in games:
        assert set(g) >= {"name", "min_players", "max_players", "options", "rulings"}
        game = bgrules.load_game(g["name"])
        assert (g["min_players"], g["max_players"]) == (game.info.min_players, game.info.max_players)
        for option in g["options"]:
            assert option["meaning"], f"{g['name']} option {option['name']} has no meaning"
        for ruling in g["rulings"]:
            assert ruling["meaning"], f"{g['name']} ruling {ruling['name']} has no meaning"
            if isinstance(ruling["choices"], list):
                assert ruling["default"] in ruling["choices"]
    bf = next(g for g in games if g["name"] == "botfactory")
    assert {k: v for k, v in bf["options"][0].items() if k != "meaning"} == {"name": "max_rounds", "default": None}
    toll = next(r for r in bf["rulings"] if r["name"] == "last_space_toll")
    assert toll["choices"] == ["separate", "combined"] and toll["default"] == "separate"
    code, text, _ = run("games")
    assert code == 0 and 'ruling last_space_toll = "separate"' in text and "option max_rounds = null" in text


def test_every_option_of_load_game_has_a_documented_meaning() -> None:
    for g in describe_games():
        assert {o["name"] for o in g["options"]} == set(OPTION_MEANINGS[g["name"]])


def test_the_game_option_help_names_every_game() -> None:
    assert all(name in _GAME_HELP for name in bgrules.game_names())
    code, out, _ = run("simulate", "--help")
    assert code == 0 and "mechanica-factory" in out


def _docs() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


@pytest.mark.parametrize("path", _docs(), ids=lambda p: p.name)
def test_docs_point_at_nothing_outside_the_repository(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for bad in ("shared/seeds/", "/work/", "../shared", "/tmp/"):
        assert bad not in text, f"{path.name} points outside the repository: {bad}"


@pytest.mark.parametrize(
    ("doc", "seed"),
    [("botfactory.md", "000_a7a09e9bc70ab148.txt"), ("mechanica.md", "003_56950de1fac7652e.txt")],
)
def test_each_seed_quote_cites_the_line_it_stands_on(doc: str, seed: str) -> None:
    text = (ROOT / "docs" / "rules" / doc).read_text(encoding="utf-8")
    rows = []
    header = False
    for line in text.splitlines():
        if line.startswith("| 原文"):
            header = "seed line" in line
            assert header, f"a quote table without its seed line column: {line}"
            continue
        if header and line.startswith("| ") and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            rows.append((cells[0], cells[-1]))
        elif not line.startswith("|"):
            header = False
    assert len(rows) > 80
    path = SEEDS / seed
    if not path.exists():
        pytest.skip("the seeds are outside the repository")
    lines = [re.sub(r"\s+", "", x) for x in path.read_text(encoding="utf-8").splitlines()]
    for quote, ref in rows:
        assert re.fullmatch(r"\d+(-\d+)?", ref), f"no seed line for {quote}: {ref}"
        first, _, last = ref.partition("-")
        cited = "".join(lines[int(first) - 1 : int(last or first)])
        for part in re.sub(r"\s+", "", quote.replace("…", "")).split("..."):
            assert part in cited, f"{quote} is not on line {ref} of {seed}"


# --- the test suite's own layout (tests by concept) --------------------------------------------------------

TESTS = ROOT / "tests"
CONCEPTS = ("botfactory", "mechanica", "core", "agents", "runners", "refinement", "integrations", "support")
"""The directories of tests/: one per game (the factory sandbox with Mechanica), the core machinery, the
agents, the runners and commands, the refinement of the reference engines, the integrations, and the shared helpers
(``support``, the only place a test imports helpers from). ``data`` holds their golden files."""


def _test_sources() -> list[Path]:
    return sorted(p for p in TESTS.rglob("*.py") if "__pycache__" not in p.parts)


def test_every_test_file_sits_in_a_concept_directory() -> None:
    assert [p.name for p in TESTS.glob("*.py")] == ["conftest.py"], "a file at the root of tests/"
    directories = sorted(p.name for p in TESTS.iterdir() if p.is_dir() and p.name != "__pycache__")
    assert directories == sorted([*CONCEPTS, "data"])
    for name in CONCEPTS:
        assert (TESTS / name / "__init__.py").is_file(), f"tests/{name}/ is not a package"
    for path in _test_sources():
        assert path.parent == TESTS or path.parent.parent == TESTS, f"{path.relative_to(ROOT)}: nested too deep"
    assert not [p for p in (TESTS / "support").glob("test_*.py")], "a test file among the helpers"


_HISTORY = re.compile(r"issue|session|speed|gaps|mutants|\d$")
"""Words of a file's history, not of what it tests: an issue or session, a speed-up, the rule gaps or
mutants a run left, a second file numbered after the first."""


@pytest.mark.parametrize("path", _test_sources(), ids=lambda p: str(p.relative_to(TESTS)))
def test_test_files_are_named_for_what_they_test(path: Path) -> None:
    assert not _HISTORY.search(path.stem), f"{path.relative_to(ROOT)} is named after its history"


def _local_modules() -> set[str]:
    """The top-level names a module of tests/ can be imported by (tests/ is on the path): its packages and
    conftest, and the test modules of any directory (``test_*``)."""
    return {p.name for p in TESTS.iterdir() if p.is_dir()} | {p.stem for p in TESTS.glob("*.py")}


@pytest.mark.parametrize("path", _test_sources(), ids=lambda p: str(p.relative_to(TESTS)))
def test_a_test_module_imports_helpers_only_from_support(path: Path) -> None:
    import ast

    local = _local_modules() - {"support"}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module is not None:
            names = [node.module]
        elif isinstance(node, ast.ImportFrom):  # relative: only among the helpers
            assert path.parent.name == "support", f"{path.relative_to(ROOT)}:{node.lineno}: a relative import"
            continue
        else:
            continue
        for name in names:
            top = name.split(".")[0]
            assert top not in local and not top.startswith("test_"), (
                f"{path.relative_to(ROOT)}:{node.lineno} imports {name}: shared helpers live in tests/support/"
            )
