"""Bounded conservation proofs over counts of pieces by place and kind, for any game.

A :class:`System` names the places (a stock, a board, a pile, a hand ...) and the kinds of piece (grades of
bot, kinds of tile), how many of each kind the box holds, and the moves of the rules. A :class:`Move` is a
function from counts to counts written once over numbers that are Python ints or z3 terms (the helpers
:func:`ite`, :func:`minimum`, :func:`both`, :func:`either` pick the right one), with free whole-number
parameters (how many tiles, which choice) and a guard. The same move therefore

* proves: :func:`prove_conserved` unrolls ``k`` steps, each one of the moves, from every start whose counts
  are non-negative and add up to the box's figures, and refutes "some later count is negative or some
  kind's total has changed" (``holds`` when that is unsatisfiable; a ``violated`` witness is decoded into
  the moves taken and the counts after each);
* checks the Python game: :func:`allows` asks the solver whether one concrete before/after pair of counts,
  read off the game's own states, is a step of the system (the parameters left free).

    system = System("bots", ("stock", "board"), ("B", "P", "D"), totals, moves)
    prove_conserved(system, k=6, timeout_ms=10_000)       # Result(verdict="holds", ...)
    allows(system, before={("stock", "B"): 3, ...}, after={...})
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeAlias

import attrs
import z3

from bgrules.core.arith import Num, Truth, both, symbolic
from bgrules.core.proofs import Undecided
from bgrules.core.proofs import solver as new_solver

Key: TypeAlias = tuple[str, str]
"""(place, kind)."""
_symbolic = symbolic


class Counts:
    """Counts by (place, kind), each an int or a z3 term; immutable (:meth:`add` returns new counts)."""

    __slots__ = ("_c",)

    def __init__(self, counts: Mapping[Key, Num]) -> None:
        self._c: dict[Key, Num] = dict(counts)

    def __getitem__(self, key: Key) -> Num:
        return self._c.get(key, 0)

    def keys(self) -> list[Key]:
        return list(self._c)

    def add(self, key: Key, n: Num) -> Counts:
        out = dict(self._c)
        out[key] = self[key] + n
        return Counts(out)

    def move(self, src: str | None, dst: str | None, kind: str, n: Num) -> Counts:
        """``n`` pieces of ``kind`` from ``src`` to ``dst``; ``None`` is outside the game (a broken rule)."""
        out = self
        if src is not None:
            out = out.add((src, kind), -n)
        if dst is not None:
            out = out.add((dst, kind), n)
        return out


Effect: TypeAlias = Callable[[Counts, Mapping[str, Num]], tuple[Counts, Truth]]


@attrs.frozen
class Move:
    """One move of the rules: ``effect(counts, params) -> (counts after, guard)``. ``params`` maps each name
    to a whole number in ``0..hi`` (``hi`` None: unbounded)."""

    name: str
    rules: tuple[str, ...]
    effect: Effect
    params: tuple[tuple[str, int | None], ...] = ()


def _route(kind: str, src: str | None, dst: str | None) -> str:
    return f"{kind}:{src or 'nowhere'}->{dst or 'nowhere'}"


def flow(
    name: str, rules: tuple[str, ...], routes: Sequence[tuple[str, str | None, str | None]], most: int | None = None
) -> Move:
    """Any number of pieces along each route (kind, from, to), never more than the source holds, and at
    most ``most`` pieces in all (None: no bound)."""
    params = tuple((_route(*r), None) for r in routes)

    def effect(counts: Counts, p: Mapping[str, Num]) -> tuple[Counts, Truth]:
        guards = []
        moved = []
        for kind, src, dst in routes:
            n = p[_route(kind, src, dst)]
            moved.append(n)
            if src is not None:
                guards.append(n <= counts[(src, kind)])
            counts = counts.move(src, dst, kind, n)
        if most is not None:
            guards.append(sum(moved) <= most)
        return counts, both(True, *guards)

    return Move(name, rules, effect, params)


def sequence(name: str, rules: tuple[str, ...], moves: Sequence[Move]) -> Move:
    """The moves one after the other (each may move nothing): one step made of several."""
    params = tuple((f"{m.name}.{p}", hi) for m in moves for p, hi in m.params)

    def effect(counts: Counts, p: Mapping[str, Num]) -> tuple[Counts, Truth]:
        guards = []
        for m in moves:
            counts, g = m.effect(counts, {q: p[f"{m.name}.{q}"] for q, _hi in m.params})
            guards.append(g)
        return counts, both(True, *guards)

    return Move(name, rules, effect, params)


@attrs.frozen
class System:
    name: str
    places: tuple[str, ...]
    kinds: tuple[str, ...]
    totals: Mapping[str, int]
    """How many pieces of each kind the box holds."""
    moves: tuple[Move, ...]
    where: Mapping[str, tuple[str, ...]] | None = None
    """The places each kind may be in (None: any); a piece anywhere else is a failure too."""

    def outside(self, kind: str) -> tuple[str, ...]:
        if self.where is None or kind not in self.where:
            return ()
        return tuple(p for p in self.places if p not in self.where[kind])


@attrs.frozen
class Result:
    verdict: str
    detail: str
    witness: Any
    seconds: float


def _state(system: System, prefix: str) -> Counts:
    return Counts({(p, k): z3.Int(f"{prefix}[{p},{k}]") for p in system.places for k in system.kinds})


def _params(move: Move, prefix: str) -> tuple[dict[str, Num], list[Any]]:
    vals: dict[str, Num] = {}
    bounds: list[Any] = []
    for name, hi in move.params:
        v = z3.Int(f"{prefix}.{move.name}.{name}")
        vals[name] = v
        bounds.append(v >= 0)
        if hi is not None:
            bounds.append(v <= hi)
    return vals, bounds


def step(
    system: System, before: Counts, after: Counts, prefix: str, only: Sequence[str] | None = None
) -> tuple[list[Any], Any, list[tuple[Move, dict[str, Num]]]]:
    """The constraints of one step: ``choice`` names the move taken (its index in ``system.moves``)."""
    choice = z3.Int(f"{prefix}.move")
    cases = []
    used = []
    for i, m in enumerate(system.moves):
        if only is not None and m.name not in only:
            continue
        vals, bounds = _params(m, prefix)
        out, guard = m.effect(before, vals)
        same = [after[(p, k)] == out[(p, k)] for p in system.places for k in system.kinds]
        cases.append(z3.And(choice == i, guard, *bounds, *same))
        used.append((m, vals))
    return [z3.Or(*cases) if cases else z3.BoolVal(False)], choice, used


class Checker:
    """Checks concrete before/after pairs against one system: the step relation is built once per set of
    moves and each check only pins the counts (push / check / pop; each literal ``count == value`` is made
    once and reused). ``timeout_ms`` is each check's solver timeout, or a function giving it at each
    check (what is left of a wall budget). A check the solver cannot decide raises :class:`Undecided`,
    never a False that would read as a disagreement."""

    def __init__(self, system: System, timeout_ms: int | Callable[[], int] = 5_000) -> None:
        self.system = system
        self.timeout_ms = timeout_ms
        self.keys: tuple[Key, ...] = tuple((p, k) for p in system.places for k in system.kinds)
        self._known = frozenset(self.keys)
        self._solvers: dict[tuple[str, ...] | None, tuple[Any, Counts, Counts]] = {}
        self._literals: dict[tuple[str, Key, int], Any] = {}

    def _solver(self, only: Sequence[str] | None) -> tuple[Any, Counts, Counts]:
        key = None if only is None else tuple(sorted(only))
        found = self._solvers.get(key)
        if found is None:
            b, a = _state(self.system, "b"), _state(self.system, "a")
            constraints, _choice, _used = step(self.system, b, a, "c", only)
            s = new_solver()
            s.add(*constraints)
            found = self._solvers[key] = (s, b, a)
        return found

    def _literal(self, side: str, counts: Counts, key: Key, value: int) -> Any:
        lit = self._literals.get((side, key, value))
        if lit is None:
            lit = self._literals[(side, key, value)] = counts[key] == value
        return lit

    def allows(self, before: Mapping[Key, int], after: Mapping[Key, int], only: Sequence[str] | None = None) -> bool:
        """Is the concrete ``before -> after`` one step of the system (of the moves ``only``, if given)?
        Counts not given are 0; a (place, kind) the system does not know makes the answer False."""
        if any(v and key not in self._known for key, v in (*before.items(), *after.items())):
            return False
        s, b, a = self._solver(only)
        ms = self.timeout_ms() if callable(self.timeout_ms) else self.timeout_ms
        s.set("timeout", max(1, min(int(ms), 2**32 - 1)))
        side = "" if only is None else ",".join(sorted(only))
        pins = [self._literal("b" + side, b, key, before.get(key, 0)) for key in self.keys]
        pins += [self._literal("a" + side, a, key, after.get(key, 0)) for key in self.keys]
        s.push()
        try:
            ref = s.ctx.ref()
            for lit in pins:  # the literals are Boolean terms already: skip z3's per-argument coercion
                z3.Z3_solver_assert(ref, s.solver, lit.as_ast())
            answer = s.check()
            if answer == z3.unknown:
                raise Undecided(f"solver: {s.reason_unknown()}")
            return bool(answer == z3.sat)
        finally:
            s.pop()


def allows(
    system: System,
    before: Mapping[Key, int],
    after: Mapping[Key, int],
    only: Sequence[str] | None = None,
    timeout_ms: int = 5_000,
) -> bool:
    """Is the concrete ``before -> after`` one step of the system? (One-off: see :class:`Checker`.)"""
    return Checker(system, timeout_ms).allows(before, after, only)


def _fmt(system: System, model: Any, counts: Counts) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for p in system.places:
        row = {k: model.eval(counts[(p, k)], model_completion=True).as_long() for k in system.kinds}
        nonzero = {k: v for k, v in row.items() if v}
        if nonzero:
            out[p] = nonzero
    return out


def prove_conserved(system: System, k: int, timeout_ms: int, nonneg: Sequence[str] | None = None) -> Result:
    """Refute: from counts >= 0 adding up to ``system.totals`` per kind, some run of at most ``k`` steps
    reaches counts with a kind's total changed or a count of the places ``nonneg`` (default every place)
    negative. ``holds``: no such run; ``violated``: the run, decoded."""
    start = time.perf_counter()
    watched = system.places if nonneg is None else tuple(nonneg)
    states = [_state(system, f"s{i}") for i in range(k + 1)]
    s = new_solver(timeout_ms)
    s0 = states[0]
    for kind in system.kinds:
        s.add(z3.Sum([s0[(p, kind)] for p in system.places]) == system.totals[kind])
        for p in system.places:
            s.add(s0[(p, kind)] >= 0)
        for p in system.outside(kind):
            s.add(s0[(p, kind)] == 0)
    steps = []
    for i in range(k):
        constraints, choice, used = step(system, states[i], states[i + 1], f"t{i}")
        s.add(*constraints)
        steps.append((choice, used))
    bad = []
    for i in range(1, k + 1):
        for kind in system.kinds:
            bad.append(z3.Sum([states[i][(p, kind)] for p in system.places]) != system.totals[kind])
            bad.extend(states[i][(p, kind)] < 0 for p in watched)
            bad.extend(states[i][(p, kind)] != 0 for p in system.outside(kind))
    s.add(z3.Or(*bad))
    verdict = s.check()
    seconds = time.perf_counter() - start
    what = f"{len(system.kinds)} kinds x {len(system.places)} places, {len(system.moves)} moves"
    if verdict == z3.unsat:
        return Result(
            "holds",
            f"no run of at most {k} steps changes a total, drops a count below zero or misplaces a piece ({what})",
            None,
            seconds,
        )
    if verdict != z3.sat:
        return Result("unknown", f"solver: {s.reason_unknown()} ({what})", None, seconds)
    m = s.model()
    trace: list[dict[str, Any]] = [{"counts": _fmt(system, m, s0)}]
    broke = None
    for i, (choice, used) in enumerate(steps):
        idx = m.eval(choice, model_completion=True).as_long()
        move, vals = next((mv, v) for mv, v in used if system.moves.index(mv) == idx)
        params = {n: m.eval(v, model_completion=True).as_long() for n, v in vals.items()}
        after = states[i + 1]
        trace.append(
            {
                "move": move.name,
                "rules": list(move.rules),
                "params": {n: v for n, v in params.items() if v},
                "counts": _fmt(system, m, after),
            }
        )
        failing = [
            f"{kind} total {m.eval(z3.Sum([after[(p, kind)] for p in system.places])).as_long()} "
            f"!= {system.totals[kind]}"
            for kind in system.kinds
            if m.eval(z3.Sum([after[(p, kind)] for p in system.places])).as_long() != system.totals[kind]
        ]
        failing += [
            f"{p}[{kind}] = {m.eval(after[(p, kind)]).as_long()} < 0"
            for p in watched
            for kind in system.kinds
            if m.eval(after[(p, kind)], model_completion=True).as_long() < 0
        ]
        failing += [
            f"{p}[{kind}] = {m.eval(after[(p, kind)]).as_long()}: no {kind} belongs there"
            for kind in system.kinds
            for p in system.outside(kind)
            if m.eval(after[(p, kind)], model_completion=True).as_long() != 0
        ]
        if failing:
            broke = {"step": i + 1, "failing": failing}
            break
    witness = {"trace": trace, "broken": broke}
    return Result("violated", describe(witness), witness, seconds)


def describe(witness: Mapping[str, Any]) -> str:
    """A decoded witness in one line: the start counts, each move with its parameters, what failed."""
    trace = witness["trace"]
    parts = [f"start {trace[0]['counts']}"]
    for i, st in enumerate(trace[1:], 1):
        params = f"({', '.join(f'{k}={v}' for k, v in st['params'].items())})" if st["params"] else ""
        parts.append(f"step {i}: {st['move']}{params} -> {st['counts']}")
    broke = witness.get("broken")
    if broke:
        parts.append(f"after step {broke['step']}: {'; '.join(broke['failing'])}")
    return "counterexample: " + "; ".join(parts)
