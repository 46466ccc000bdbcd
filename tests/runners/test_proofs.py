"""The proof runner (bgrules.core.proofs): budgets, the timeout, solver failures, evidence, fixed witnesses.

Every obligation of proofs/ is run here with an injected solver failure (it must be ``unknown`` with the
reason, never an escaped exception), with a solver that gives up (never ``holds`` or ``violated`` once it
was asked), and with a spent budget (a sampled obligation that compared nothing is not ``holds``).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import z3

import bgrules
from bgrules.core import proofs as core_proofs
from bgrules.core.proofs import Budget, Obligation, Outcome
from bgrules.runners import proofs
from bgrules.runners.proofs import collect, run_all, run_obligation

ROOT = Path(__file__).resolve().parents[2]
PROOFS = ROOT / "proofs"
OBLIGATIONS = collect(PROOFS)
CONFORMANCE = [(ob, e) for ob, e in OBLIGATIONS if ob.id.endswith("CONFORMANCE")]
VIOLATED = [(ob, e) for ob, e in OBLIGATIONS if e == "violated"]
MS = re.compile(r"\[[0-9.]+ ms\]")


def _fake(check: Any, guarantee: str = "planned") -> Obligation:
    return Obligation("XX-PROOF-FAKE", "a fake obligation", ("XX-RULE",), guarantee, check)


# --- the timeout -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [0, -1, -10_000])
def test_a_timeout_below_one_millisecond_is_an_input_error(bad: int) -> None:
    message = f"timeout: a whole number of milliseconds of at least 1, not {bad}"
    with pytest.raises(bgrules.InputError) as run:
        run_all(PROOFS, bad)
    assert str(run.value) == message
    ob, expected = OBLIGATIONS[0]
    with pytest.raises(bgrules.InputError) as one:
        run_obligation(ob, expected, bad)
    assert str(one.value) == message
    with pytest.raises(bgrules.InputError):
        Budget(bad)


@pytest.mark.parametrize("bad", [True, 1.5, "100", None])
def test_a_timeout_that_is_no_whole_number_is_an_input_error(bad: Any) -> None:
    with pytest.raises(bgrules.InputError, match=r"^timeout: a whole number of milliseconds of at least 1"):
        run_all(PROOFS, bad)


def test_the_timeout_is_each_solver_check_and_the_wall_budget() -> None:
    budget = Budget(1_000)
    assert 900 <= budget.solver_ms <= 1_000  # what is left of the budget
    assert not budget.expired()
    spent = Budget(1, started=0.0)
    assert spent.expired() and spent.solver_ms == 1
    huge = Budget(2**40)
    assert huge.solver_ms == core_proofs.SOLVER_MAX_MS  # z3 takes 32 bits: 2**32 would read as "no timeout"
    s = core_proofs.solver(huge)
    assert s.check() == z3.sat


def test_a_solver_timeout_is_unknown_never_holds() -> None:
    """A bounded proof whose solver needs far more than the 1 ms budget: unknown, not holds."""
    ob, expected = next((o, e) for o, e in OBLIGATIONS if o.id == "MC-PROOF-CONS-BOTS")
    report = run_obligation(ob, expected, 1)
    assert report.verdict == "unknown", report.detail


# --- solver failures ---------------------------------------------------------------------------------------


@pytest.fixture
def failing_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*_args: Any, **_kwargs: Any) -> Any:
        raise z3.Z3Exception(b"injected solver failure")

    monkeypatch.setattr(z3.Solver, "check", fail)
    monkeypatch.setattr(z3, "simplify", fail)  # the Bot Factory conformance evaluates terms with simplify


@pytest.mark.usefixtures("failing_solver")
@pytest.mark.parametrize(("ob", "expected"), OBLIGATIONS, ids=[ob.id for ob, _ in OBLIGATIONS])
def test_a_solver_failure_is_unknown_with_its_reason(ob: Obligation, expected: str) -> None:
    report = run_obligation(ob, expected, 10_000)
    assert report.verdict == "unknown", (report.verdict, report.detail)
    assert "injected solver failure" in report.detail
    assert not report.ok


def test_every_obligation_is_run_by_the_failure_test() -> None:
    assert len(OBLIGATIONS) >= 49
    assert {ob.id for ob, _ in OBLIGATIONS} == set(proofs.load_manifest(PROOFS))


@pytest.mark.parametrize(("ob", "expected"), OBLIGATIONS, ids=[ob.id for ob, _ in OBLIGATIONS])
def test_a_solver_that_gives_up_gives_no_verdict(
    ob: Obligation, expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked = []

    def give_up(self: Any, *_args: Any) -> Any:
        asked.append(1)
        return z3.unknown

    monkeypatch.setattr(z3.Solver, "check", give_up)
    report = run_obligation(ob, expected, 10_000)
    if ob.id == "BF-PROOF-SMT-CONFORMANCE":  # evaluates its encodings with simplify, no solver
        assert not asked
        return
    assert asked, "the obligation never asked the solver"
    assert report.verdict == "unknown", (report.verdict, report.detail)


def test_an_exception_of_a_check_is_unknown_with_its_reason() -> None:
    def boom(_budget: Budget) -> Outcome:
        raise ZeroDivisionError("division by zero in the check")

    report = run_obligation(_fake(boom), "holds")
    assert (report.verdict, report.ok) == ("unknown", False)
    assert "ZeroDivisionError: division by zero in the check" in report.detail


def test_a_z3_exception_of_a_check_is_unknown_with_its_reason() -> None:
    def odd(budget: Budget) -> Outcome:
        s = z3.Solver()
        s.set("timeout", 1.5)  # z3 refuses a fractional timeout (when the solver is used)
        s.add(z3.Int("x") > 1)
        s.check()
        return Outcome("holds", "never reached", checked=1)

    report = run_obligation(_fake(odd), "holds")
    assert report.verdict == "unknown"
    assert report.detail.startswith("solver failure: ") and "timeout" in report.detail


# --- evidence --------------------------------------------------------------------------------------------


def test_holds_needs_a_solver_unsat_or_a_compared_sample() -> None:
    report = run_obligation(_fake(lambda _b: Outcome("holds", "looked at nothing")), "holds")
    assert report.verdict == "unknown" and "nothing was checked" in report.detail
    report = run_obligation(_fake(lambda _b: Outcome("holds", "one sample", checked=1, guarantee="spent")), "holds")
    assert (report.verdict, report.guarantee) == ("holds", "spent")
    report = run_obligation(_fake(lambda _b: Outcome("violated", "a witness", witness={"x": 1})), "violated")
    assert report.verdict == "violated"


@pytest.mark.parametrize(("ob", "expected"), CONFORMANCE, ids=[ob.id for ob, _ in CONFORMANCE])
def test_a_sampled_obligation_that_compared_nothing_is_not_holds(
    ob: Obligation, expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Budget, "expired", lambda self: True)
    report = run_obligation(ob, expected, 10_000)
    assert report.verdict == "unknown", (report.detail, report.guarantee)
    assert "nothing was checked" in report.detail
    assert "stopped by the 10000 ms budget" in report.guarantee


def test_a_spent_budget_stops_a_sampled_obligation_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    ob, expected = next((o, e) for o, e in CONFORMANCE if o.id == "MC-PROOF-SMT-CONFORMANCE")
    # the budget runs out after a few samples, whatever the machine's load (a 300 ms wall budget was flaky
    # on a busy CI machine: a solver check itself could be cut short and turn the verdict into unknown)
    calls = {"n": 0}

    def expired(self: Budget) -> bool:
        calls["n"] += 1
        return calls["n"] > 3

    monkeypatch.setattr(Budget, "expired", expired)
    report = run_obligation(ob, expected, 300)
    assert report.verdict == "holds", report.detail
    assert "stopped by the 300 ms budget before the planned 30 seeded random factories" in report.guarantee
    compared = int(re.search(r"(\d+) choice assignments compared", report.guarantee).group(1))  # type: ignore[union-attr]
    assert compared >= 1


# --- budgets -----------------------------------------------------------------------------------------------


def test_every_sampled_guarantee_states_its_planned_and_thorough_budget() -> None:
    for ob, expected in CONFORMANCE:
        assert expected == "holds"
        assert ob.guarantee.startswith("sampled: "), ob.id
        assert "--thorough" in ob.guarantee, ob.id


def test_budget_picks_the_thorough_sizes() -> None:
    assert Budget().size(3, 10) == 3 and Budget(thorough=True).size(3, 10) == 10
    assert Budget(thorough=True).pick("a", "b") == "b"


def _count(text: str, what: str) -> int:
    """How many ``what`` a sampled guarantee says were compared (after its planned budget)."""
    found = re.search(rf"(\d+) {what}", text.split("; stopped")[0].rsplit(": ", 1)[-1])
    assert found is not None, (what, text)
    return int(found.group(1))


COUNTED = {
    "MC-PROOF-SMT-CONFORMANCE": "choice assignments",
    "MC-PROOF-DAYS-CONFORMANCE": "sampled 3-day assignments",
    "MC-PROOF-CONS-BOTS-CONFORMANCE": "workday step-function calls",
    "MC-PROOF-CONS-IMPROVEMENTS-CONFORMANCE": "applies",
    "BF-PROOF-CONS-PARTS-CONFORMANCE": "applies",
    "BF-PROOF-SMT-CONFORMANCE": "steps",
}
BEFORE = {  # the samples the obligations compared before budgets (issue 10): --thorough keeps at least these
    "MC-PROOF-SMT-CONFORMANCE": 577,
    "MC-PROOF-DAYS-CONFORMANCE": 90,
    "MC-PROOF-CONS-BOTS-CONFORMANCE": 282,
    "MC-PROOF-CONS-IMPROVEMENTS-CONFORMANCE": 1956,
    "BF-PROOF-CONS-PARTS-CONFORMANCE": 2468,
    "BF-PROOF-SMT-CONFORMANCE": 4103,
}


@pytest.mark.parametrize(("ob", "expected"), CONFORMANCE, ids=[ob.id for ob, _ in CONFORMANCE])
def test_the_default_budget_compares_real_samples(ob: Obligation, expected: str) -> None:
    report = run_obligation(ob, expected)
    assert report.verdict == "holds", report.detail
    assert "stopped" not in report.guarantee
    assert report.guarantee.startswith("sampled: ") and report.guarantee.endswith(" compared")
    assert 1 <= _count(report.guarantee, COUNTED[ob.id]) <= BEFORE[ob.id]


@pytest.mark.heavy
@pytest.mark.parametrize(("ob", "expected"), CONFORMANCE, ids=[ob.id for ob, _ in CONFORMANCE])
def test_thorough_keeps_the_budgets_before_issue_10(ob: Obligation, expected: str) -> None:
    report = run_obligation(ob, expected, 600_000, thorough=True)
    assert report.verdict == "holds", report.detail
    assert "stopped" not in report.guarantee
    assert _count(report.guarantee, COUNTED[ob.id]) >= BEFORE[ob.id], report.guarantee


# --- fixed witnesses ---------------------------------------------------------------------------------------


def _witnesses(pairs: list[tuple[Obligation, str]]) -> dict[str, Any]:
    out = {}
    for ob, expected in pairs:
        r = run_obligation(ob, expected).to_json()
        out[ob.id] = (MS.sub("", r["detail"]), r["witness"])
    return out


FAST_VIOLATED = [(ob, e) for ob, e in VIOLATED if not ob.id.startswith("MC-PROOF-LOOP-")]


def test_witnesses_are_the_same_on_every_run_and_in_any_order() -> None:
    first = _witnesses(FAST_VIOLATED)
    again = _witnesses(FAST_VIOLATED[::-1])
    assert all(w is not None for _d, w in first.values())
    assert first == again


@pytest.mark.heavy
def test_witnesses_are_the_same_in_other_processes_and_hash_seeds() -> None:
    script = (
        "import json, re, sys; from pathlib import Path; from bgrules.core.proofs import collect, run_obligation\n"
        "obs = [(o, e) for o, e in collect(Path(sys.argv[1])) if e == 'violated']\n"
        "obs = obs[::-1] if sys.argv[2] == 'reversed' else obs\n"
        "rows = [run_obligation(o, e).to_json() for o, e in obs]\n"
        "print(json.dumps({r['id']: [re.sub(r'\\[[0-9.]+ ms\\]', '', r['detail']), r['witness']] for r in rows}))\n"
    )
    outs = []
    for seed, order in (("1", "forward"), ("2", "reversed")):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(
            [sys.executable, "-c", script, str(PROOFS), order], capture_output=True, text=True, env=env, check=True
        )
        outs.append(json.loads(done.stdout))
    assert outs[0] == outs[1]
    assert set(outs[0]) == {ob.id for ob, _ in VIOLATED}
