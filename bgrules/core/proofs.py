"""Proof obligations' vocabulary: :class:`Obligation`, :class:`Outcome`, the :class:`Budget` a check runs
within, the seeded :func:`solver` and :func:`fresh_context`. A proof module in ``proofs/`` defines
``obligations() -> list[Obligation]``; :mod:`bgrules.runners.proofs` reads the manifests and runs them.

Verdicts: ``holds`` (the negation is unsatisfiable, or every sample compared agreed), ``violated`` (a
witness was found; it is reported), ``unknown`` (the solver gave up, timed out or failed: never reported
as holding). Each check gets a :class:`Budget`: ``timeout_ms`` is the solver timeout of every solver check
it makes and the wall budget of a sampled (conformance) obligation; ``thorough`` picks the deeper sample
sizes. A ``holds`` needs evidence (``Outcome.checked``: a solver ``unsat`` or a compared sample); an
exception of the solver or the check is an ``unknown`` with its reason, never an escape (docs/proofs.md).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Literal

import attrs
import z3

from bgrules.core.defaults import DEFAULT_TIMEOUT_MS
from bgrules.core.errors import InputError

Verdict = Literal["holds", "violated", "unknown"]
VERDICTS: tuple[str, ...] = ("holds", "violated", "unknown")
SOLVER_MAX_MS = 2**32 - 1
"""z3's timeout is an unsigned 32-bit number (0 means none): a longer budget is given to the solver as this."""
SEED = 0
"""The random seed of every solver: the same witnesses on every run."""


def check_timeout(timeout_ms: object, where: str = "timeout") -> int:
    """``timeout_ms`` as a whole number of milliseconds of at least 1, else an InputError."""
    if isinstance(timeout_ms, bool) or not isinstance(timeout_ms, int) or timeout_ms < 1:
        raise InputError(where, f"a whole number of milliseconds of at least 1, not {timeout_ms!r}")
    return timeout_ms


@attrs.frozen
class Budget:
    """What one obligation may spend. ``timeout_ms``: its wall budget, from its start: each solver check it
    makes gets what is left as its solver timeout (:attr:`solver_ms`), and a sampled obligation stops
    sampling once it is spent (its guarantee says how many samples it compared). ``thorough``: the deeper
    sample sizes (at least the budgets before issue 10)."""

    timeout_ms: int = DEFAULT_TIMEOUT_MS
    thorough: bool = False
    started: float = attrs.field(factory=time.perf_counter, eq=False)

    def __attrs_post_init__(self) -> None:
        check_timeout(self.timeout_ms)

    @property
    def solver_ms(self) -> int:
        """The timeout to give the next solver check: what is left of the budget (at least 1 ms, at most
        z3's 2**32 - 1)."""
        return max(1, min(int(self.timeout_ms - self.elapsed_ms()), SOLVER_MAX_MS))

    def elapsed_ms(self) -> float:
        return (time.perf_counter() - self.started) * 1000

    def expired(self) -> bool:
        """Is the wall budget spent?"""
        return self.elapsed_ms() >= self.timeout_ms

    def size(self, default: int, thorough: int) -> int:
        """A sample size: ``thorough`` under ``--thorough``, else ``default``."""
        return thorough if self.thorough else default

    def pick(self, default: Any, thorough: Any) -> Any:
        return thorough if self.thorough else default

    def stop(self) -> Stop:
        """A stop signal for a sampled loop (true once the budget is spent)."""
        return Stop(self)

    def stopped(self, planned: str) -> str:
        """The words a sampled guarantee adds when the wall budget ended it early."""
        return f"; stopped by the {self.timeout_ms} ms budget before the planned {planned}"


class Stop:
    """Asked before each sample: true once the budget is spent; :attr:`hit` says whether it ever was, so
    the guarantee can say the sampling stopped short of its plan."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.hit = False

    def __call__(self) -> bool:
        if not self.hit and self.budget.expired():
            self.hit = True
        return self.hit


class Undecided(Exception):
    """The solver could not decide one check of a sampled comparison (a timeout or a give-up): no verdict
    either way; :func:`run_obligation` reports the obligation ``unknown``."""


def solver(timeout_ms: int | Budget | None = None, logic: str | None = None) -> Any:
    """A z3 solver with the fixed random seed and, when given, the timeout (clamped to z3's range)."""
    s = z3.SolverFor(logic) if logic is not None else z3.Solver()
    s.set("random_seed", SEED)
    if timeout_ms is not None:
        ms = timeout_ms.solver_ms if isinstance(timeout_ms, Budget) else min(check_timeout(timeout_ms), SOLVER_MAX_MS)
        s.set("timeout", ms)
    return s


@attrs.frozen
class Outcome:
    verdict: Verdict
    detail: str = ""
    witness: Any = None
    checked: int = 0
    """The evidence behind the verdict: solver ``unsat`` answers (a proof) or samples compared (a sampled
    obligation). A ``holds`` with nothing checked is reported as ``unknown``."""
    guarantee: str | None = None
    """The budget really spent, when it is only known after the run (a sampled obligation: how many
    samples it compared); None: the obligation's own ``guarantee``."""


@attrs.frozen
class Obligation:
    id: str
    statement: str
    rules: tuple[str, ...]
    guarantee: str
    """What a ``holds`` verdict covers: ``inductive``, ``bounded k=...``, ``per factory: ...``, ``sampled:
    ...`` (the planned budget; the report gives the spent one, :attr:`Outcome.guarantee`)."""
    check: Callable[[Budget], Outcome]
    """Run the check within a :class:`Budget` (solver timeout per check, wall budget, thoroughness)."""


def seed_solvers() -> None:
    """Give z3's global random seeds the fixed :data:`SEED`."""
    z3.set_param("smt.random_seed", SEED)
    z3.set_param("sat.random_seed", SEED)


@contextmanager
def fresh_context() -> Iterator[None]:
    """Run in a new z3 main context, the caller's restored after. A solver's answer (which model it finds)
    depends on the terms created before it in its context, so an obligation run after others, in another
    order or in another worker process would find other witnesses; in a context of its own it finds the
    same ones on every run."""
    module: Any = z3.z3
    saved = module._main_ctx
    module._main_ctx = None
    try:
        yield
    finally:
        module._main_ctx = saved
