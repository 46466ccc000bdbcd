"""The searched checker on hypothesis's public API (docs/verify.md, "The searched checker"): its examples do
not depend on what the process imported before, its targets steer it, and its example database only adds
replays of counterexamples found before.

Hypothesis's integer draws sometimes take a constant of the "local" modules the process has imported, so a
search drawing its actions as integers met other examples in a worker forked from the driver than in a
fresh one; the checker draws them as booleans (``bgrules.runners.searched._choose``), which never take a constant."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import attrs
import pytest

from bgrules.runners.searched import check_searched_together
from bgrules.runners.specfile import Budget, Spec, find_spec, load_specs, make_game

ROOT = Path(__file__).resolve().parents[2]
SPECS = load_specs(ROOT / "specs")


def _spec(label: str) -> Spec:
    found = find_spec(SPECS, label)
    assert found is not None, label
    return found


_SEARCH = textwrap.dedent(
    """
    import importlib, json, sys
    from pathlib import Path
    sys.path.insert(0, sys.argv[1])
    for name in sys.argv[3:]:
        importlib.import_module(name)  # what this process imported before the search
    from bgrules.runners.specfile import Budget, find_spec, load_specs, make_game
    from bgrules.runners.searched import check_searched_together

    class Recording:
        def __init__(self, game):
            self._game, self.applied = game, []
        def __getattr__(self, name):
            return getattr(self._game, name)
        def apply(self, state, action):
            self.applied.append(repr(action))
            return self._game.apply(state, action)

    specs = load_specs(Path(sys.argv[2]))
    group = [find_spec(specs, i) for i in ("MC-INV-BOTS-CONSERVED", "MC-Q-COLLISIONS-HAPPEN")]
    game = Recording(make_game(group[0]))
    reports = check_searched_together(group, game, Budget(examples=12, max_steps=120, forced=True))
    out = [[r.verdict, r.guarantee, r.detail, r.trace] for r in reports]
    print(json.dumps({"reports": out, "applied": game.applied}))
    """
)


def _in_a_fresh_process(tmp_path: Path, *imports: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", _SEARCH, str(tmp_path), str(ROOT / "specs"), *imports],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0"},
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def _constants_module(tmp_path: Path, name: str, first: int) -> str:
    """A 'local' module (not installed) full of integers hypothesis would draw, indices the search's draws
    may take (the sandbox offers up to ~400 actions)."""
    values = ", ".join(str(n) for n in range(first, first + 140))
    (tmp_path / f"{name}.py").write_text(f"VALUES = [{values}]\n")
    return name


def test_searched_verdicts_guarantees_and_traces_do_not_depend_on_the_modules_imported(tmp_path: Path) -> None:
    probe = _constants_module(tmp_path, "bgrules_constants_probe", 101)
    plain = _in_a_fresh_process(tmp_path)
    other = _in_a_fresh_process(tmp_path, probe, "bgrules.botfactory.game", "bgrules.core.figures")
    assert [r[0] for r in plain["reports"]] == ["holds", "violated"]
    assert plain["reports"][1][3]["actions"], "the counterexample's trace"
    assert other == plain  # the same verdicts, guarantees, traces and every action the search applied


def test_integer_draws_would_depend_on_the_modules_imported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Why the checker draws booleans: the same derandomized integer draws change once a local module full of
    integers is imported (so the test above can fail: with ``st.integers`` in ``_choose`` it does)."""
    import importlib

    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import strategies as st

    def draws() -> list[int]:
        seen: list[int] = []

        @settings(
            max_examples=30,
            database=None,
            derandomize=True,
            deadline=None,
            phases=(Phase.generate,),
            suppress_health_check=list(HealthCheck),
        )
        @given(st.data())
        def search(data: Any) -> None:
            seen.extend(data.draw(st.integers(0, 399)) for _ in range(40))

        search()
        return seen

    before = draws()
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.import_module(_constants_module(tmp_path, "bgrules_constants_probe2", 241))
    assert draws() != before


def _highest(spec: Spec, budget: Budget, value: Any) -> float:
    """The highest ``value`` over every state the search reached."""

    class Recording:
        def __init__(self, game: Any) -> None:
            self._game = game
            self.best = float("-inf")

        def __getattr__(self, name: str) -> Any:
            return getattr(self._game, name)

        def apply(self, state: Any, action: Any) -> Any:
            after = self._game.apply(state, action)
            self.best = max(self.best, float(value(self._game, after)))
            return after

    game = Recording(make_game(spec))
    (report,) = check_searched_together([spec], game, budget)
    assert report.verdict == "holds"
    return game.best


def test_a_target_steers_the_search_to_a_higher_maximum_on_the_same_budget() -> None:
    from bgrules.botfactory.targets import fullest_hand

    spec = _spec("BF-INV-LIMITS-2P")
    assert spec.target == "bgrules.botfactory.targets:fullest_hand"
    budget = Budget(examples=50, max_steps=120, forced=True)
    steered = _highest(spec, budget, fullest_hand)
    blind = _highest(attrs.evolve(spec, target=None), budget, fullest_hand)
    assert steered > blind, (steered, blind)
    (report,) = check_searched_together([spec], make_game(spec), budget)
    assert report.guarantee.endswith(f"target fullest_hand: highest {steered:.3g}")


def test_the_example_database_replays_a_counterexample_and_never_changes_a_holding_verdict(tmp_path: Path) -> None:
    group = [_spec("MC-INV-BOTS-CONSERVED"), _spec("MC-Q-COLLISIONS-HAPPEN")]
    game = make_game(group[0])
    plain = check_searched_together(group, game, Budget(examples=12, max_steps=120, forced=True))
    budget = Budget(examples=12, max_steps=120, forced=True, database=str(tmp_path / "db"))
    first = check_searched_together(group, game, budget)
    assert (tmp_path / "db").is_dir(), "the counterexample was saved"
    again = check_searched_together(group, game, budget)
    for rows in (first, again):  # the holding spec: the same guarantee whatever the database holds
        assert (rows[0].verdict, rows[0].guarantee) == (plain[0].verdict, plain[0].guarantee)
    assert first[1].guarantee == plain[1].guarantee == "searched: counterexample found"
    assert again[1].guarantee == "searched: counterexample found (replayed from the example database)"
    assert (again[1].verdict, again[1].witness) == (first[1].verdict, first[1].witness)
    # a saved counterexample that no longer fails (the rules fixed) is dropped: the search decides alone
    holding = [attrs.evolve(group[1], id="MC-Q-COLLISIONS-HAPPEN", predicate=group[0].predicate)]
    after = check_searched_together(holding, game, budget)
    assert after[0].verdict == "holds" and "replayed" not in after[0].guarantee
