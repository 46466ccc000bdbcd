"""A room per board (issues 8 and 23): each board's module is a room of plain functions (its main action's
options and guard with its effect, its additional action's, Sandra's action there), the round hands them
on through its table of rooms, and every function of the rooms and method of the round flow names the rule
IDs it enforces."""

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
    """The functions a module defines and the methods of the classes it defines."""
    for name, f in inspect.getmembers(module, inspect.isfunction):
        if f.__module__ == module.__name__:
            yield f"{module.__name__}.{name}", f
    for _name, cls in inspect.getmembers(module, inspect.isclass):
        if cls.__module__ == module.__name__:
            for name, f in vars(cls).items():
                f = getattr(f, "__func__", f)
                if callable(f) and not (name.startswith("__") and name.endswith("__")):
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


ROOM_FUNCTIONS = ("main_options", "main", "additional_options", "additional", "sandra")


@pytest.mark.parametrize(
    ("board", "module", "effects"),
    [
        (0, assembly, ("place", "swap", "placements", "icon_options", "take_icon_part", "extra_cost")),
        (1, production, ("rotate", "take_output", "refill_options", "refill", "trade")),
        (2, projects, ("take_project", "line_reward_options", "exchange", "slide_projects")),
        (3, finance, ("raise_value", "reserve")),
    ],
    ids=lambda x: getattr(x, "__name__", str(x)).rsplit(".", 1)[-1],
)
def test_each_board_has_its_room_of_functions(board, module, effects):
    """The room of the board is the module of its functions, in the round's table at the board's number;
    it defines every function of a room and its board's effects, none of which is a method of the game."""
    assert round_flow.ROOMS[board] is module
    assert not [cls for _n, cls in inspect.getmembers(module, inspect.isclass) if cls.__module__ == module.__name__]
    for name in (*ROOM_FUNCTIONS, *effects):
        f = getattr(module, name)
        assert inspect.isfunction(f) and f.__module__ == module.__name__, name
    for name in effects:
        assert not hasattr(BotFactoryGame, name) and not hasattr(BotFactoryGame, f"_{name}"), name
    assert isinstance(module.RULE, str) and module.RULE.startswith("BF-")


def test_the_round_dispatches_through_its_table_of_rooms():
    """The round flow names no board by its number: it asks the room of the board (``ROOMS``)."""
    source = inspect.getsource(round_flow)
    for board in ("ASSEMBLY", "PRODUCTION", "PROJECT", "FINANCE"):
        assert not re.search(rf"==\s*{board}\b", source), board


def test_the_public_game_class_still_lives_in_game():
    assert BotFactoryGame.__module__ == "bgrules.botfactory.game"
    assert issubclass(BotFactoryGame, round_flow.RoundFlow)
