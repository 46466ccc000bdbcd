"""A room per board and a module per phase: each board's module is a room of plain functions (its main
action's options and guard with its effect, its additional action's, Sandra's action there), each phase of
the round a module of plain functions (its options, its guard with its effect); the round hands a decision
to its phase through its table of phases, the phases hand a board's actions to its room through the table
of rooms, and every function of the rooms and the phases and method of the round flow names the rule IDs
it enforces."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from bgrules.botfactory import (
    assembly,
    draws,
    finance,
    limits,
    maintenance,
    moves,
    pick,
    production,
    projects,
    rooms,
    tolls,
    turns,
    windows,
)
from bgrules.botfactory import round as round_flow
from bgrules.botfactory.game import BotFactoryGame
from bgrules.botfactory.state import Phase

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules" / "botfactory.md"
PHASE_MODULES = (pick, moves, turns, tolls, windows, limits, maintenance, draws)
MODULES = (assembly, production, projects, finance, rooms, *PHASE_MODULES, round_flow)


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
    assert rooms.ROOMS[board] is module
    assert not [cls for _n, cls in inspect.getmembers(module, inspect.isclass) if cls.__module__ == module.__name__]
    for name in (*ROOM_FUNCTIONS, *effects):
        f = getattr(module, name)
        assert inspect.isfunction(f) and f.__module__ == module.__name__, name
    for name in effects:
        assert not hasattr(BotFactoryGame, name) and not hasattr(BotFactoryGame, f"_{name}"), name
    assert isinstance(module.RULE, str) and module.RULE.startswith("BF-")


@pytest.mark.parametrize("module", (*PHASE_MODULES, round_flow), ids=lambda m: m.__name__.rsplit(".", 1)[1])
def test_the_round_dispatches_through_its_table_of_rooms(module):
    """The round's phases name no board by its number: they ask the room of the board (``rooms.ROOMS``)."""
    source = inspect.getsource(module)
    for board in ("ASSEMBLY", "PRODUCTION", "PROJECT", "FINANCE"):
        assert not re.search(rf"==\s*{board}\b", source), board


@pytest.mark.parametrize(
    ("phase", "module"),
    [(Phase.PICK, pick), (Phase.MOVE, moves), (Phase.ACTION, turns), (Phase.DISCARD, limits)],
    ids=lambda x: getattr(x, "__name__", str(x)).rsplit(".", 1)[-1],
)
def test_each_phase_has_its_module_of_functions(phase, module):
    """The module of each phase that waits on a decision is in the round's table of phases, and holds its
    options and its guard with its effect as plain functions (no class, no method of the game)."""
    assert round_flow.PHASES[phase] is module
    for name in ("options", "act"):
        f = getattr(module, name)
        assert inspect.isfunction(f) and f.__module__ == module.__name__, name
    for m in PHASE_MODULES:
        assert not [cls for _n, cls in inspect.getmembers(m, inspect.isclass) if cls.__module__ == m.__name__]


def test_the_round_flow_keeps_no_phase_as_a_method():
    """The game's methods are the protocol's and scoring's; the phases' rules are not methods of it."""
    for module in PHASE_MODULES:
        for name, f in inspect.getmembers(module, inspect.isfunction):
            if f.__module__ == module.__name__:
                assert not hasattr(BotFactoryGame, f"_{name}") or name in ("chance_outcomes",), (module, name)


def test_the_public_game_class_still_lives_in_game():
    assert BotFactoryGame.__module__ == "bgrules.botfactory.game"
    assert issubclass(BotFactoryGame, round_flow.RoundFlow)
