"""A game plugged in through the entry-point group ``bgrules.games`` (docs/extending.md): the example game of
examples/nim, made discoverable without installing it, by a distribution's metadata (a ``.dist-info``
directory with its ``entry_points.txt``) on ``sys.path``, as pip would leave it; and entry points that fail."""

from __future__ import annotations

import importlib.metadata
import json
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

import bgrules
from bgrules.cli import main
from bgrules.core import descriptor as desc
from bgrules.core.errors import InputError

ROOT = Path(__file__).resolve().parents[2]
NIM = ROOT / "examples" / "nim"
SHIPPED = ("botfactory", "mechanica", "mechanica-factory")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def _distribution(where: Path, name: str, entry_points: dict[str, str]) -> None:
    """A distribution's metadata, as an install leaves it: ``<name>-0.1.0.dist-info`` with its entry points."""
    info = where / f"{name.replace('-', '_')}-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1.0\n", encoding="utf-8")
    lines = [f"[{desc.GROUP}]", *(f"{k} = {v}" for k, v in entry_points.items())]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.fixture
def fresh() -> Iterator[None]:
    """Discovery forgotten before and after: the games found depend on this test's sys.path alone."""
    desc.forget()
    yield
    desc.forget()


@pytest.fixture
def nim(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh: None) -> Path:
    """examples/nim installed as far as bgrules can tell: its package on the path, its entry point declared."""
    monkeypatch.syspath_prepend(str(NIM))
    _distribution(tmp_path / "site", "bgrules-nim", {"nim": "bgrules_nim:DESCRIPTOR"})
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    return tmp_path


def test_pyproject_declares_the_builtin_entry_points() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["entry-points"]
    assert declared[desc.GROUP] == dict(desc.BUILTIN)
    example = tomllib.loads((NIM / "pyproject.toml").read_text(encoding="utf-8"))["project"]["entry-points"]
    assert example[desc.GROUP] == {"nim": "bgrules_nim:DESCRIPTOR"}


def test_the_shipped_games_load_when_the_metadata_has_no_entry_points(
    monkeypatch: pytest.MonkeyPatch, fresh: None
) -> None:
    monkeypatch.setattr(desc, "_entry_points", list)
    assert bgrules.game_names() == SHIPPED
    assert desc.discover().problems == ()
    assert bgrules.load_game("mechanica-factory").info.name == "mechanica-factory"


def test_the_shipped_games_declared_again_by_the_metadata_load_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh: None
) -> None:
    _distribution(tmp_path, "bgrules", dict(desc.BUILTIN))  # an install of this checkout: the same entry points
    monkeypatch.syspath_prepend(str(tmp_path))
    assert {ep.name for ep in importlib.metadata.entry_points(group=desc.GROUP)} >= set(SHIPPED)
    assert bgrules.game_names() == SHIPPED
    assert desc.discover().problems == ()


def test_a_plugged_in_game_is_listed_after_the_shipped_ones_and_loads(nim: Path) -> None:
    assert bgrules.game_names() == (*SHIPPED, "nim")
    game = bgrules.load_game("nim", players=3, heaps=[1, 2])
    assert game.players == 3 and game.initial_state().heaps == (1, 2)
    with pytest.raises(InputError, match="nim is for 2 to 4 player"):
        bgrules.load_game("nim", players=5)
    code, out, err = run("games", "--json")
    assert code == 0 and err == ""
    listed = {g["name"]: g for g in json.loads(out)}
    assert tuple(listed) == (*SHIPPED, "nim")
    assert [o["name"] for o in listed["nim"]["options"]] == ["heaps", "max_take"]
    assert listed["nim"]["rulings"] == [] and listed["nim"]["min_players"] == 2


def test_simulate_plays_the_plugged_in_game_and_checks_its_own_specs(nim: Path) -> None:
    code, out, _err = run("simulate", "--game", "nim", "--games", "6", "--json")
    assert code == 0
    result = json.loads(out)
    assert result["finished"] == 6 and result["ended_by"] == {"NIM-END": 6}
    assert result["invariant_violations"] == 0


def test_verify_checks_the_plugged_in_games_specs_alone(nim: Path) -> None:
    code, out, _err = run("verify", "--specs", str(NIM / "specs"), "--json")
    assert code == 0
    rows = json.loads(out)
    ids = {(r["id"], r["checker"]) for r in rows}
    assert ("NIM-MOVE-ONE-HEAP", "explored") in ids and ("NIM-HEAPS-NONNEGATIVE", "sampled") in ids
    assert all(r["ok"] for r in rows)
    assert not any(r["id"].startswith(("BF-", "MC-", "RULE-")) for r in rows)


def test_explore_counts_the_plugged_in_game_up_to_its_descriptors_symmetries(nim: Path) -> None:
    code, out, _err = run("explore", "--game", "nim", "-o", "heaps=[1, 2]", "--symmetry", "--json")
    assert code == 0
    found = json.loads(out)
    assert found["symmetric"] and found["complete"] and found["distinct"] == 7
    code, out, _err = run("explore", "--game", "nim", "-o", "heaps=[1, 2]", "--no-symmetry", "--json")
    assert json.loads(out)["distinct"] == 8


def test_a_tool_needing_a_part_the_game_lacks_says_so_in_one_line(nim: Path) -> None:
    from bgrules.integrations.actions import action_space
    from bgrules.pictures import draw

    game = bgrules.load_game("nim")
    with pytest.raises(InputError) as caught:
        draw(game, game.initial_state())
    assert str(caught.value) == "pictures: game 'nim' provides no picture function"
    known = "known: botfactory, mechanica, mechanica-factory"
    with pytest.raises(InputError, match=f'no action space for the game "nim"; {known}'):
        action_space(game)
    with pytest.raises(InputError, match="nim has no reference engine"):
        bgrules.load_game("nim", reference=True)


def test_a_broken_entry_point_is_one_line_and_the_other_games_still_load(
    nim: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _distribution(
        nim / "broken",
        "bgrules-broken",
        {
            "gone": "no_such_module_of_bgrules:DESCRIPTOR",
            "notone": "bgrules_nim.game:Take",
            "wrong": "bgrules_nim.game:SCALE",
            "ghost": "ghost_game:DESCRIPTOR",
        },
    )
    (nim / "broken" / "ghost_game.py").write_text(
        "from bgrules.core.descriptor import GameDescriptor\n"
        "DESCRIPTOR = GameDescriptor(\n"
        "    name='ghost', game='no_such_module_of_ghost:Game', players=(1, 2), default_players=1\n"
        ")\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(nim / "broken"))
    desc.forget()
    code, out, err = run("games")
    assert code == 0
    lines = err.splitlines()
    assert len(lines) == 4 and all(line.startswith("bgrules games: package bgrules-broken") for line in lines)
    assert "'gone'" in lines[0] and "ModuleNotFoundError" in lines[0]
    assert "'notone'" in lines[1] and "a type, not a bgrules GameDescriptor" in lines[1]
    assert "'wrong'" in lines[2] and "a float, not a bgrules GameDescriptor" in lines[2]
    assert "game 'ghost' cannot be described" in lines[3] and "no_such_module_of_ghost" in lines[3]
    names = [line.split(":")[0] for line in out.splitlines() if not line.startswith(" ")]
    assert names == [*SHIPPED, "nim"]


def test_a_malformed_or_duplicate_descriptor_is_reported_and_skipped() -> None:
    good = desc.GameDescriptor(name="toy", game="x:Y", players=(2, 2), default_players=2)
    bad = desc.GameDescriptor(name="Toy Game", game="x:Y", players=(3, 2), default_players=2, rewards="money")
    twin = desc.GameDescriptor(name="toy", game="other:Z", players=(1, 1), default_players=1)
    odd = desc.GameDescriptor(name="odd", game="x:Y", players=(1, 1), default_players=1, options=["abc"])
    found = desc.collect(
        [
            ("toys", "toy", lambda: good),
            ("broken-toys", "bad", lambda: bad),
            ("twins", "toy", lambda: twin),
            ("odd-toys", "odd", lambda: odd),
        ]
    )
    assert [d.name for d in found.descriptors] == ["toy"]
    assert len(found.problems) == 3
    assert found.problems[2].startswith("package odd-toys (entry point 'odd' of bgrules.games): a malformed")
    assert found.problems[0].startswith("package broken-toys (entry point 'bad' of bgrules.games): a malformed")
    assert "name 'Toy Game'" in found.problems[0] and "players (3, 2)" in found.problems[0]
    assert "rewards 'money'" in found.problems[0]
    assert "'toy' is already provided by package toys" in found.problems[1]
