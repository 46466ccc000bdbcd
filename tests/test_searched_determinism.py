"""The searched checker's examples do not depend on what the process imported before (docs/verify.md):
hypothesis draws some values from the constants of the "local" modules loaded, so without
``specs._without_local_constants`` a worker forked from the driver and a fresh one met different examples."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest

from bgrules.core import specs as specs_mod
from bgrules.core.registry import load_game
from bgrules.core.specs import Budget, Spec, check_searched_together


class _Recording:
    """A game that records every action applied (the examples the search met)."""

    def __init__(self, game: Any) -> None:
        self._game = game
        self.applied: list[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def apply(self, state: Any, action: Any) -> Any:
        self.applied.append(repr(action))
        return self._game.apply(state, action)


def _spec() -> Spec:
    (spec,) = [s for s in specs_mod.load_specs(Path(__file__).parents[1] / "specs") if s.id == "MC-INV-BOTS-CONSERVED"]
    return spec


def _search(spec: Spec) -> list[str]:
    game = _Recording(load_game(spec.game, players=spec.players, **spec.options))
    (report,) = check_searched_together([spec], game, Budget(examples=12, max_steps=120, forced=True))
    assert report.verdict == "holds" and game.applied
    return game.applied


def _import_constants_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, first: int) -> None:
    """A 'local' module (not installed, not a test file) full of integers hypothesis would draw, none
    of them in a module loaded before (``first`` differs per test; the sandbox offers up to ~400 actions,
    so these are indices the search's draws may take)."""
    values = ", ".join(str(n) for n in range(first, first + 140))
    (tmp_path / f"{name}.py").write_text(f"VALUES = [{values}]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.import_module(name)  # left in sys.modules: hypothesis notices new modules by its length


def test_searched_examples_do_not_depend_on_the_modules_loaded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = _spec()
    before = _search(spec)
    _import_constants_module(tmp_path, monkeypatch, "bgrules_constants_probe", 101)
    assert _search(spec) == before


def test_without_the_guard_the_examples_would_differ(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The guard is what makes the test above pass: with it disabled, the same import changes the examples
    (so the test above can fail)."""
    from contextlib import nullcontext

    spec = _spec()
    monkeypatch.setattr(specs_mod, "_without_local_constants", nullcontext)
    before = _search(spec)
    _import_constants_module(tmp_path, monkeypatch, "bgrules_constants_probe2", 241)
    assert _search(spec) != before
