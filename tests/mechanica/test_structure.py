"""The shape of bgrules.mechanica (issue 8): no import circle between its modules, and the whole game
as a house of rooms whose public face stays where it was."""

from __future__ import annotations

import ast
from pathlib import Path

import bgrules
from bgrules.mechanica import base, blueprints, dayend, game, shop, turn
from bgrules.mechanica.game import ACTION_TYPES, MechanicaGame

PACKAGE = Path(bgrules.__file__).resolve().parent / "mechanica"


def _imports(path: Path) -> set[str]:
    """Every bgrules.mechanica module a file imports, at module level or inside a function."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module == "bgrules.mechanica":
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("bgrules.mechanica."):
            out.add(node.module.rsplit(".", 1)[1])
        elif isinstance(node, ast.Import):
            out |= {a.name.rsplit(".", 1)[1] for a in node.names if a.name.startswith("bgrules.mechanica.")}
    return out


GRAPH = {p.stem: _imports(p) for p in PACKAGE.glob("*.py")}


def _cycle() -> list[str] | None:
    colour: dict[str, int] = {}
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        colour[m] = 1
        path.append(m)
        for n in sorted(GRAPH.get(m, ())):
            if colour.get(n) == 1:
                return [*path[path.index(n) :], n]
            if n not in colour:
                found = visit(n)
                if found:
                    return found
        colour[m] = 2
        path.pop()
        return None

    for m in sorted(GRAPH):
        if m not in colour:
            found = visit(m)
            if found:
                return found
    return None


def test_the_graph_is_read():
    assert "movement" in GRAPH["factory"] and "board" in GRAPH["movement"]
    assert {"shop", "turn", "blueprints", "dayend"} <= GRAPH["game"] | GRAPH["turn"] | GRAPH["dayend"]


def test_factory_and_movement_form_no_circle():
    assert "factory" not in GRAPH["movement"]
    assert "factory" not in GRAPH["board"] and "movement" not in GRAPH["board"]


def test_no_import_circle_in_mechanica():
    assert _cycle() is None, f"import circle: {' -> '.join(_cycle() or [])}"


def test_the_rooms_hold_the_rules_and_the_game_keeps_its_face():
    assert issubclass(MechanicaGame, base.MechanicaBase)
    # each rule lives in its room, a module of functions (a reader looking for the Shop reads shop.py)
    assert callable(shop.buy) and callable(shop.rotate) and callable(shop.draw)
    assert callable(turn.fabricate_bots) and callable(turn.gift) and callable(turn.sell_bot)
    assert callable(blueprints.complete) and callable(blueprints.anytime)
    assert callable(dayend.end_day) and callable(dayend.settle) and callable(dayend.scores)
    assert not hasattr(MechanicaGame, "_buy") and not hasattr(MechanicaGame, "_settle")
    # the protocol hands each phase to its room through the tables of phases
    assert set(game.LEGAL) == set(game.ACTS) == {p.value for p in game.Phase}
    assert set(game.OUTCOMES) == {p.value for p in base.CHANCE_PHASES}
    assert len(ACTION_TYPES) == 21 and bgrules.load_game("mechanica").__class__ is MechanicaGame


def test_the_rooms_import_no_room_of_the_game():
    for room in ("shop", "turn", "blueprints", "dayend", "base"):
        assert "game" not in GRAPH[room], f"{room} imports the game"


def test_every_room_cites_its_rules():
    helpers = ("__init__", "state_type", "with_seat", "replace_at", "add_at")  # no rule of their own
    for module in (shop, turn, blueprints, dayend, game, base):
        text = Path(module.__file__ or "").read_text(encoding="utf-8")
        tree = ast.parse(text)
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name not in helpers:
                doc = ast.get_docstring(node) or ""
                assert "MC-" in doc, f"{module.__name__}.{node.name} names no rule ID"
