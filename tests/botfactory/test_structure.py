"""A room per board (issue 8): each board's module holds its main action, its additional action and
Sandra's action, and every method of the rooms and of the round flow names the rule IDs it enforces."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from bgrules.botfactory import assembly, finance, production, projects
from bgrules.botfactory import round as round_flow
from bgrules.botfactory.game import BotFactoryGame

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules" / "botfactory.md"
MODULES = (assembly, production, projects, finance, round_flow)


def _methods(module):
    for _name, cls in inspect.getmembers(module, inspect.isclass):
        if cls.__module__ == module.__name__:
            for name, f in vars(cls).items():
                f = getattr(f, "__func__", f)
                if callable(f):
                    yield f"{module.__name__}.{cls.__name__}.{name}", f


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__.rsplit(".", 1)[1])
def test_every_method_names_its_rule_ids(module):
    documented = set(re.findall(r"^#{2,4} (BF-[A-Z]+(?:-[A-Z]+)*)\b", DOC.read_text(encoding="utf-8"), re.M))
    methods = list(_methods(module))
    assert methods
    for where, f in methods:
        cited = set(re.findall(r"BF-[A-Z]+(?:-[A-Z]+)*", inspect.getdoc(f) or ""))
        assert cited, f"{where} names no rule ID"
        assert cited <= documented, f"{where} cites undocumented {sorted(cited - documented)}"


@pytest.mark.parametrize(
    ("module", "main", "additional", "sandra"),
    [
        (assembly, "_assembly_main", "_swap", "_sandra_assembly"),
        (production, "_take_output", "_trade", "_sandra_production"),
        (projects, "_project_main", "_exchange", "_slide_projects"),
        (finance, "_reserve", None, "_sandra_finance"),
    ],
)
def test_each_board_has_its_room(module, main, additional, sandra):
    names = {where.rsplit(".", 1)[1] for where, _f in _methods(module)}
    for name in (main, additional, sandra):
        if name is not None:
            assert name in names, f"{name} is not in {module.__name__}"
            assert getattr(BotFactoryGame, name).__module__ == module.__name__


def test_the_public_game_class_still_lives_in_game():
    assert BotFactoryGame.__module__ == "bgrules.botfactory.game"
    assert issubclass(BotFactoryGame, round_flow.RoundFlow)
