"""The package's layers: every import of a bgrules module points down, and none hides inside a function.

From the ground up (docs/extending.md, "Layers"): ``bgrules.core`` (protocol, errors, codec, arithmetic,
playout, explorer, descriptors, coverage counting, proof vocabulary), then the games (each on core alone,
none importing another), then the agents and the pictures, the integrations (adapters, Ray), the runners
(specs, verify, proofs' runner, campaigns, coverage tables, diff, adequacy, traces, pages) with a module per command,
and the command line on top. Optional extras are imported through ``bgrules.core.errors.require_extra``,
never by importing a bgrules module late."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import bgrules

PACKAGE = Path(bgrules.__file__).resolve().parent

GAMES = ("botfactory", "mechanica")
RANK = {
    "core": 0,
    "botfactory": 1,
    "mechanica": 1,
    "agents": 2,
    "pictures": 2,
    "integrations": 3,
    "runners": 4,
    "cli": 5,
}
"""Each subpackage's layer: a module may import its own layer's and lower layers' modules only."""

TOP = {"bgrules": 0, "bgrules.__main__": 5}
"""The package itself exports the protocol (core's); ``python -m bgrules`` is the command line."""


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of(module: str) -> tuple[str, int] | None:
    """The layer name and rank of a bgrules module (None: not a module of a known layer)."""
    if module in TOP:
        return module, TOP[module]
    parts = module.split(".")
    if len(parts) < 2 or parts[0] != "bgrules" or parts[1] not in RANK:
        return None
    return parts[1], RANK[parts[1]]


def imports(tree: ast.Module) -> Iterator[tuple[int, str, bool]]:
    """Every import of a bgrules module: (line, module, inside a function)."""
    inner = {
        id(n) for f in ast.walk(tree) if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef) for n in ast.walk(f)
    }
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [f"{node.module}.{a.name}" if node.module == "bgrules" else node.module for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        for name in names:
            if name == "bgrules" or name.startswith("bgrules."):
                yield node.lineno, name, id(node) in inner


def problems(module: str, source: str) -> list[str]:
    """What breaks the layering in one module's source."""
    here = layer_of(module)
    out: list[str] = []
    for line, target, lazy in imports(ast.parse(source)):
        if lazy:
            out.append(f"{module}:{line} imports {target} inside a function")
        there = layer_of(target) or (("bgrules", 0) if target.count(".") == 1 else None)  # bgrules' own exports
        if here is None or there is None:
            continue
        if there[1] > here[1]:
            out.append(f"{module}:{line} ({here[0]}) imports {target} ({there[0]}, a layer above)")
        elif here[0] in GAMES and there[0] in GAMES and here[0] != there[0]:
            out.append(f"{module}:{line} ({here[0]}) imports {target}: a game imports no other game")
    return out


def modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "defaults" not in p.relative_to(PACKAGE).parts)


def test_every_module_is_in_a_layer() -> None:
    missing = [module_name(p) for p in modules() if layer_of(module_name(p)) is None]
    assert missing == []


def test_imports_point_down_and_none_hides_in_a_function() -> None:
    found = [line for p in modules() for line in problems(module_name(p), p.read_text(encoding="utf-8"))]
    assert found == []


def test_the_check_sees_each_kind_of_break() -> None:
    upward = "from bgrules.runners.specs import load_specs\n"
    assert problems("bgrules.core.fake", upward) == [
        "bgrules.core.fake:1 (core) imports bgrules.runners.specs (runners, a layer above)"
    ]
    lazy = "def f():\n    from bgrules.core import codec\n"
    assert problems("bgrules.runners.fake", lazy) == ["bgrules.runners.fake:2 imports bgrules.core inside a function"]
    other_game = "from bgrules.mechanica.variant import TABLES\n"
    assert problems("bgrules.botfactory.fake", other_game) == [
        "bgrules.botfactory.fake:1 (botfactory) imports bgrules.mechanica.variant: a game imports no other game"
    ]
    assert problems("bgrules.cli.fake", upward + "from bgrules.core.errors import InputError\n") == []


LONGEST = 700
"""No module is longer than this (docs/extending.md, "Layers")."""


def test_no_module_is_over_the_limit() -> None:
    long = {module_name(p): n for p in modules() if (n := len(p.read_text(encoding="utf-8").splitlines())) > LONGEST}
    assert long == {}


def test_the_command_line_knows_no_game() -> None:
    """The CLI (and its commands' modules) names no game's package: it reaches the games through their
    descriptors and the runners."""
    cli = [p for p in modules() if module_name(p).startswith(("bgrules.cli", "bgrules.runners.commands"))]
    found = [
        f"{module_name(p)}:{line} imports {target}"
        for p in cli
        for line, target, _lazy in imports(ast.parse(p.read_text(encoding="utf-8")))
        if (layer_of(target) or ("", -1))[0] in GAMES
    ]
    assert cli and found == []
