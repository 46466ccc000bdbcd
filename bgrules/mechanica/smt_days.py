"""Bounded model checking of collisions over k workdays of the factory sandbox (MC-COLLIDE).

Question: from a given factory and its bots, can a collision happen within ``k`` workdays, for some choice
of the run's decisions (Fork exits, Flight landings, Function Changer outputs, a Downgrader's output hole
for a Basic bot) and of the player's decisions between runs?

Scope (what a ``holds`` covers):

* the factory layout is fixed: no installs or demolitions between runs;
* between runs the player may sell bots from trucks (``sell=True``) and then fabricates
  (:class:`~bgrules.mechanica.fabricate.Fabricate`; an Overactive Fabricator's declared bot is free;
  ``replace`` never applies because a run always empties the Start Zone);
* the stock never runs short: checked, not assumed -- if the board's holes and trucks could hold more bots
  than the stock has of one grade (``bots_per_grade < holes``), the answer is ``unknown``.

Each bot's movement is compiled from :func:`bgrules.mechanica.movement.options` (the Python run's rule
function) into the list of its possible paths from its launch node (with MC-MOVE-LOOP), each path a final
bin (or destroyed), the Route / Fly decisions asked along it and the Static Charger passes. Per day, a free
z3 integer per launch hole picks the path. Bots do not meet while moving, so the day's bins are sums
over launch holes. A day with no collision is then followed exactly: charges, activation in cell order
(MC-ACT-*), sales, fabrication. The first colliding day is searched day by day (1, 2, ..., k).

A ``violated`` answer's witness is decoded into the sandbox's action list and is only reported after a
replay through ``bgrules.load_game("mechanica-factory", ...)`` reaches ``state.collisions > 0``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any, Literal

import attrs
import z3

import bgrules
from bgrules.core.errors import IllegalAction
from bgrules.core.proofs import Undecided
from bgrules.core.proofs import solver as new_solver
from bgrules.mechanica.components import Bot, Dir, Effect
from bgrules.mechanica.fabricate import Fabricate, Sell
from bgrules.mechanica.factory import COLS, ROWS, Factory, on_floor
from bgrules.mechanica.movement import TRUCK_BIN, Node, launch_nodes, options
from bgrules.mechanica.run import Change, ChooseOutput, Fly, Route, RunDecision
from bgrules.mechanica.sandbox import Phase
from bgrules.mechanica.variant import MechanicaVariant

Verdict = Literal["holds", "violated", "unknown"]
Fault = Literal["upgrade_keeps_grade", "drop_loop_rule"]
"""Deliberate encoding bugs, for tests showing that the conformance check catches a broken encoding."""

PATH_LIMIT = 512
"""More paths than this from one launch hole: the factory is out of scope (``unknown``)."""

EMPTY = -1


@attrs.frozen
class Path:
    """One way a bot launched from a hole may go: the decisions asked, where it ends, the charges it makes."""

    decisions: tuple[RunDecision, ...]
    final: int | None
    """Its bin (0-11 a cell's input holes, TRUCK_BIN + row a truck), or None when destroyed."""
    charges: tuple[tuple[int, int], ...] = ()
    """(cell, passes) through Static Chargers."""


@attrs.frozen
class Source:
    """A launch hole: a Start Zone hole (``area`` "start", index = row) or a floor output hole (index = cell)."""

    area: str
    index: int
    hole: int
    node: Node


class OutOfScope(Exception):
    pass


def paths_from(factory: Factory, variant: MechanicaVariant, node: Node, *, fault: Fault | None = None) -> list[Path]:
    """Every path of a bot about to enter ``node``, read from :func:`movement.options` (MC-MOVE-LOOP: entering
    a floor node it has left destroys it), in the order of the options."""
    out: list[Path] = []

    def rec(n: Node, visited: frozenset[Node], asked: tuple[RunDecision, ...], charges: dict[int, int]) -> None:
        if len(out) > PATH_LIMIT:
            raise OutOfScope(f"more than {PATH_LIMIT} paths from one launch hole")
        r, c, _h = n
        floor = on_floor(r, c)
        if floor and n in visited and fault != "drop_loop_rule":
            out.append(Path(asked, None, tuple(sorted(charges.items()))))
            return
        if floor and n in visited and len(visited) > 60:
            out.append(Path(asked, None, tuple(sorted(charges.items()))))
            return
        steps = options(factory, variant, n)
        for s in steps:
            more = asked
            if len(steps) > 1:
                if isinstance(s.label, Dir):
                    more = (*asked, Route(r, c, s.label))
                elif isinstance(s.label, tuple):
                    more = (*asked, Fly(r, c, s.label[0], s.label[1]))
            ch = dict(charges)
            if s.charge is not None:
                ch[s.charge] = ch.get(s.charge, 0) + 1
            if s.then is not None:
                rec(s.then, visited | {n} if floor else visited, more, ch)
            else:
                out.append(Path(more, s.arrive, tuple(sorted(ch.items()))))

    rec(node, frozenset(), (), {})
    return out


def sources(factory: Factory, variant: MechanicaVariant) -> list[Source]:
    """Every hole a bot may launch from, in the run's launch order (all holes filled)."""
    full = attrs.evolve(
        factory,
        start=tuple(attrs.evolve(s, holes=(Bot.BASIC,) * len(s.holes)) for s in factory.start),
        floor=tuple(
            None if p is None else attrs.evolve(p, outputs=(Bot.BASIC,) * len(p.outputs)) for p in factory.floor
        ),
    )
    return [Source(a, i, h, n) for a, i, h, n in launch_nodes(full, variant)]


def capacity_of_board(factory: Factory, variant: MechanicaVariant) -> int:
    cat = variant.catalogue
    n = sum(len(s.holes) for s in factory.start) + sum(cat.tile(t.kind).capacity for t in factory.dock)
    n += sum(cat.tile(p.kind).inputs + len(p.outputs) for p in factory.floor if p is not None)
    return n


# --- the encoding -------------------------------------------------------------------------------------


def _iv(v: int) -> Any:
    return z3.IntVal(v)


@attrs.define
class DayVars:
    """The free variables of one day."""

    path: list[Any]
    """Per source: the index of its path."""
    change: dict[int, Any]
    """Per Function Changer cell: the bot it makes."""
    hole: dict[int, Any]
    """Per Downgrader cell: the output hole of a Basic bot."""
    sold: dict[tuple[int, int], Any]
    """(truck row, grade): bots sold after the run."""
    declare: dict[int, Any]
    """Overactive Fabricator row: the bot it makes."""
    loads: list[list[Any]] = attrs.field(factory=list)
    """Trucks' loads by grade after the run, before sales."""


@attrs.define
class DayState:
    """The board at a day's start (z3 integer terms): launch holes' bots (EMPTY or a grade), the input holes'
    bots, trucks' loads by grade."""

    src: list[Any]
    inputs: dict[int, list[Any]]
    """Per floor cell with input holes: its bots (EMPTY or grade) in input slots."""
    trucks: list[list[Any]]


@attrs.define
class DaysEncoding:
    factory: Factory
    variant: MechanicaVariant
    k: int
    sell: bool
    sources: list[Source]
    paths: list[list[Path]]
    states: list[DayState]
    """``states[d]``: the board at the start of day d+1 (``states[k]`` after the last day's turn)."""
    vars: list[DayVars]
    constraints: list[Any]
    collide: list[Any]
    """Per day: some bin overflows after that day's movement."""
    after_turn: list[DayState] = attrs.field(factory=list)
    """Per day: the board after the run and the sales, before fabricating."""


def _grade_expr(bins: list[tuple[Any, Any]]) -> Any:
    """Sum of the grades of the present bots (each (present, grade))."""
    return z3.Sum([z3.If(p, g, _iv(0)) for p, g in bins]) if bins else _iv(0)


def encode_days(
    factory: Factory, variant: MechanicaVariant, k: int, *, sell: bool = True, fault: Fault | None = None
) -> DaysEncoding:
    cat = variant.catalogue
    srcs = sources(factory, variant)
    paths = [paths_from(factory, variant, s.node, fault=fault) for s in srcs]
    cells = [(i, p) for i, p in enumerate(factory.floor) if p is not None]
    bins = {i: cat.tile(p.kind).inputs for i, p in cells if cat.tile(p.kind).inputs > 0}
    caps = [cat.tile(t.kind).capacity for t in factory.dock]
    # day 1 from the concrete factory
    src0: list[Any] = []
    for s in srcs:
        if s.area == "start":
            b = factory.start[s.index].holes[s.hole]
        else:
            placed = factory.floor[s.index]
            assert placed is not None
            b = placed.outputs[s.hole]
        src0.append(_iv(EMPTY if b is None else int(b)))
    inputs0: dict[int, list[Any]] = {}
    for i, cap in bins.items():
        placed = factory.floor[i]
        assert placed is not None
        held = [int(b) for b in placed.inputs] + [EMPTY] * (cap - len(placed.inputs))
        inputs0[i] = [_iv(v) for v in held]
    trucks0 = [[_iv(sum(1 for b in t.load if b == g)) for g in range(3)] for t in factory.dock]
    state = DayState(src0, inputs0, trucks0)
    states = [state]
    after: list[DayState] = []
    dvars: list[DayVars] = []
    constraints: list[Any] = []
    collide: list[Any] = []
    src_index = {(s.area, s.index, s.hole): j for j, s in enumerate(srcs)}
    for d in range(1, k + 1):
        pv = [z3.Int(f"path_{d}_{j}") for j in range(len(srcs))]
        for j, v in enumerate(pv):
            constraints += [v >= 0, v < len(paths[j])]
        occ = [state.src[j] >= 0 for j in range(len(srcs))]

        def takes(j: int, pred: Any, _pv: list[Any] = pv) -> Any:
            idx = [i for i, p in enumerate(paths[j]) if pred(p)]
            if not idx:
                return z3.BoolVal(False)
            if len(idx) == len(paths[j]):
                return z3.BoolVal(True)
            return z3.Or([_pv[j] == i for i in idx])

        over: list[Any] = []
        # floor bins
        arrivals: dict[int, list[tuple[Any, Any]]] = {}
        for i in bins:
            arrivals[i] = [
                (z3.And(occ[j], takes(j, lambda p, i=i: p.final == i)), state.src[j]) for j in range(len(srcs))
            ]
            held = state.inputs[i]
            count = z3.Sum(
                [z3.If(x >= 0, _iv(1), _iv(0)) for x in held] + [z3.If(a, _iv(1), _iv(0)) for a, _ in arrivals[i]]
            )
            arrivals[i].append((count, held))  # stash count (used below)
            over.append(count > bins[i])
        # trucks
        new_trucks: list[list[Any]] = []
        for r in range(ROWS):
            arr = [
                (z3.And(occ[j], takes(j, lambda p, r=r: p.final == TRUCK_BIN + r)), state.src[j])
                for j in range(len(srcs))
            ]
            loads = [
                state.trucks[r][g] + z3.Sum([z3.If(z3.And(a, v == g), _iv(1), _iv(0)) for a, v in arr] + [_iv(0)])
                for g in range(3)
            ]
            new_trucks.append(loads)
            over.append(z3.Sum(loads) > caps[r])
        collide.append(z3.Or(over) if over else z3.BoolVal(False))
        # charges
        charge_n: dict[int, Any] = {}
        for i, p in cells:
            if cat.tile(p.kind).effect is Effect.CHARGE:
                terms = []
                for j in range(len(srcs)):
                    for pi, path in enumerate(paths[j]):
                        n = dict(path.charges).get(i, 0)
                        if n:
                            terms.append(z3.If(z3.And(occ[j], pv[j] == pi), _iv(n), _iv(0)))
                charge_n[i] = z3.Sum(terms) if terms else _iv(0)
        # activation (a collision-free day: at most ``capacity`` bots per bin)
        change: dict[int, Any] = {}
        holev: dict[int, Any] = {}
        new_src: list[Any] = [_iv(EMPTY)] * len(srcs)
        new_inputs: dict[int, list[Any]] = {}
        for i, p in cells:
            kind = cat.tile(p.kind)
            n_out = len(p.outputs)
            outs: list[Any] = [_iv(EMPTY)] * n_out
            if kind.effect is Effect.CHARGE:
                outs = [z3.If(charge_n[i] > h, _iv(int(Bot.BASIC)), _iv(EMPTY)) for h in range(n_out)]
            elif i in bins:
                *arr, (count, held) = arrivals[i]
                if kind.effect is Effect.CHANGE:
                    x = z3.Int(f"change_{d}_{i}")
                    change[i] = x
                    constraints += [x >= 0, x <= 2]
                    full = count >= bins[i]
                    outs[0] = z3.If(full, x, _iv(EMPTY))
                    # the waiting bots' grades do not matter (both go back to the stock): keep a count
                    new_inputs[i] = [z3.If(z3.And(z3.Not(full), count > s), _iv(0), _iv(EMPTY)) for s in range(bins[i])]
                else:
                    present = count >= 1
                    g = z3.Sum([z3.If(x >= 0, x, _iv(0)) for x in held] + [_grade_expr(arr)])
                    new_inputs[i] = [_iv(EMPTY)] * bins[i]
                    if kind.effect is Effect.UPGRADE:
                        up = g if fault == "upgrade_keeps_grade" else z3.If(g >= 2, _iv(2), g + 1)
                        outs = [z3.If(present, up, _iv(EMPTY)) if h == 0 else _iv(EMPTY) for h in range(n_out)]
                    elif kind.effect is Effect.DUPLICATE:
                        outs = [z3.If(present, g, _iv(EMPTY)) for _ in range(n_out)]
                    elif kind.effect is Effect.DOWNGRADE:
                        if n_out > 1:
                            hv = z3.Int(f"hole_{d}_{i}")
                            holev[i] = hv
                            constraints += [hv >= 0, hv < n_out]
                        else:
                            hv = _iv(0)
                        outs = [
                            z3.If(present, z3.If(g == 0, z3.If(hv == h, _iv(0), _iv(EMPTY)), g - 1), _iv(EMPTY))
                            for h in range(n_out)
                        ]
            for h in range(n_out):
                jf = src_index.get(("floor", i, h))
                if jf is not None:
                    new_src[jf] = outs[h]
        # sales
        sold: dict[tuple[int, int], Any] = {}
        trucks_after: list[list[Any]] = []
        for r in range(ROWS):
            row = []
            for g in range(3):
                if sell and d < k:
                    s = z3.Int(f"sold_{d}_{r}_{g}")
                    sold[(r, g)] = s
                    constraints += [s >= 0, s <= new_trucks[r][g]]
                    row.append(new_trucks[r][g] - s)
                else:
                    row.append(new_trucks[r][g])
            trucks_after.append(row)
        after.append(DayState(list(new_src), dict(new_inputs), trucks_after))
        # fabricate
        declare: dict[int, Any] = {}
        for r, slot in enumerate(factory.start):
            makes = cat.tile(slot.kind).makes
            js = src_index.get(("start", r, 0))
            if not makes or js is None:
                continue
            if makes == "any":
                x = z3.Int(f"declare_{d}_{r}")
                declare[r] = x
                constraints += [x >= 0, x <= 2]
                new_src[js] = x
            else:
                new_src[js] = _iv(int(Bot[makes.upper()]))
        dvars.append(DayVars(pv, change, holev, sold, declare, new_trucks))
        state = DayState(new_src, new_inputs, trucks_after)
        states.append(state)
    return DaysEncoding(factory, variant, k, sell, srcs, paths, states, dvars, constraints, collide, after)


# --- decoding -----------------------------------------------------------------------------------------


def _int(model: Any, e: Any) -> int:
    return int(model.eval(e, model_completion=True).as_long())


def decode_actions(enc: DaysEncoding, model: Any, days: int, last_run_only: bool = True) -> list[Any]:
    """The sandbox actions of days 1..``days`` under the model: each day's Route / Fly decisions (launch
    order), its Change / ChooseOutput decisions (cell order), then sales and Fabricate; the last day only
    its movement decisions when ``last_run_only``."""
    cat = enc.variant.catalogue
    out: list[Any] = []
    for d in range(days):
        st, dv = enc.states[d], enc.vars[d]
        for j in range(len(enc.sources)):
            if _int(model, st.src[j]) >= 0:
                out.extend(enc.paths[j][_int(model, dv.path[j])].decisions)
        if last_run_only and d == days - 1:
            break
        for i, p in enumerate(enc.factory.floor):
            if p is None:
                continue
            r, c = divmod(i, COLS)
            first_out = _first_output(enc, i)
            if i in dv.change and first_out is not None and _int(model, enc.after_turn[d].src[first_out]) >= 0:
                # a full Function Changer: its output hole is set
                out.append(Change(r, c, Bot(_int(model, dv.change[i]))))
            if i in dv.hole:
                holes = [j for j, s in enumerate(enc.sources) if s.area == "floor" and s.index == i]
                got = [_int(model, enc.after_turn[d].src[j]) for j in holes]
                basic_only = got.count(int(Bot.BASIC)) == 1 and got.count(EMPTY) == len(got) - 1
                if len(got) > 1 and basic_only and cat.tile(p.kind).effect is Effect.DOWNGRADE:
                    out.append(ChooseOutput(r, c, _int(model, dv.hole[i])))
        for (r, g), s in sorted(dv.sold.items()):
            out.extend([Sell(r, Bot(g))] * _int(model, s))
        declare = tuple(Bot(_int(model, dv.declare[r])) for r in sorted(dv.declare))
        out.append(Fabricate(declare, ()))
    return out


def _first_output(enc: DaysEncoding, cell: int) -> int | None:
    for j, s in enumerate(enc.sources):
        if s.area == "floor" and s.index == cell and s.hole == 0:
            return j
    return None


def board_snapshot(enc: DaysEncoding, model: Any, d: int) -> dict[str, Any]:
    """The encoding's board after day ``d``'s run and sales (0-based), in :func:`python_snapshot`'s shape."""
    st = enc.after_turn[d]
    return {
        "outputs": tuple(_int(model, e) for e in st.src),
        "inputs": {i: sum(1 for e in v if _int(model, e) >= 0) for i, v in st.inputs.items()},
        "trucks": tuple(tuple(_int(model, e) for e in row) for row in st.trucks),
    }


def python_snapshot(enc: DaysEncoding, factory: Factory) -> dict[str, Any]:
    out = []
    for s in enc.sources:
        if s.area == "start":
            b = factory.start[s.index].holes[s.hole]
        else:
            p = factory.floor[s.index]
            assert p is not None
            b = p.outputs[s.hole]
        out.append(EMPTY if b is None else int(b))
    inputs = {}
    for i in enc.states[0].inputs:
        p = factory.floor[i]
        assert p is not None
        inputs[i] = len(p.inputs)
    trucks = tuple(tuple(sum(1 for b in t.load if b == g) for g in range(3)) for t in factory.dock)
    return {"outputs": tuple(out), "inputs": inputs, "trucks": trucks}


# --- replay in the sandbox ------------------------------------------------------------------------------


@attrs.frozen
class Replay:
    collisions: int
    """``state.collisions`` after the actions (the last run finished with first legal decisions)."""
    error: str | None
    snapshots: tuple[dict[str, Any], ...]
    """The board before each Fabricate (after the run and the sales), for conformance."""
    day_collisions: tuple[int, ...]


def replay(enc: DaysEncoding, actions: Sequence[Any]) -> Replay:
    """Play ``actions`` in ``bgrules.load_game("mechanica-factory", players=1, factory=..., supply=[],
    days=k)``; then finish a run under way with the first legal decision each time."""

    game: Any = bgrules.load_game(
        "mechanica-factory", players=1, variant=enc.variant, factory=enc.factory, supply=[], days=enc.k
    )
    state = game.initial_state()
    snaps: list[dict[str, Any]] = []
    per_day: list[int] = []
    seen = 0
    try:
        for a in actions:
            if isinstance(a, Fabricate):
                snaps.append(python_snapshot(enc, state.factory))
                per_day.append(state.collisions - seen)
                seen = state.collisions
            state = game.apply(state, a)
        while state.phase is Phase.RUN:
            state = game.apply(state, game.legal_actions(state)[0])
    except IllegalAction as exc:
        return Replay(state.collisions, f"{exc}", tuple(snaps), tuple(per_day))
    per_day.append(state.collisions - seen)
    return Replay(state.collisions, None, tuple(snaps), tuple(per_day))


# --- the query ----------------------------------------------------------------------------------------


@attrs.frozen
class DaysResult:
    verdict: Verdict
    detail: str
    actions: tuple[Any, ...] = ()
    day: int = 0
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "detail": self.detail,
            "day": self.day,
            "actions": [repr(a) for a in self.actions],
        }


def collision_within(
    factory: Factory,
    variant: MechanicaVariant,
    k: int,
    timeout_ms: int = 10_000,
    *,
    sell: bool = True,
    fault: Fault | None = None,
    verify: bool = True,
) -> DaysResult:
    """Can a collision happen within ``k`` workdays (fixed layout, sales and fabrication between runs)?
    ``holds``: no; ``violated``: yes, with the actions, replayed in the sandbox; ``unknown`` otherwise."""
    start = time.perf_counter()
    holes = capacity_of_board(factory, variant)
    if variant.rulings.bots_per_grade < holes:
        return DaysResult("unknown", f"out of scope: {holes} holes but {variant.rulings.bots_per_grade} bots per grade")
    try:
        enc = encode_days(factory, variant, k, sell=sell, fault=fault)
    except OutOfScope as exc:
        return DaysResult("unknown", f"out of scope: {exc}")
    solver = new_solver(max(1, int(timeout_ms)))
    solver.add(*enc.constraints)
    for d in range(k):
        left = timeout_ms - (time.perf_counter() - start) * 1000
        if left <= 0:
            return DaysResult("unknown", "timeout", seconds=time.perf_counter() - start)
        solver.set("timeout", int(left))
        answer = solver.check(enc.collide[d])
        if answer == z3.sat:
            actions = decode_actions(enc, solver.model(), d + 1)
            seconds = time.perf_counter() - start
            if not verify:
                return DaysResult("violated", f"z3: a collision on day {d + 1}", tuple(actions), d + 1, seconds)
            rep = replay(enc, actions)
            if rep.error is not None or rep.collisions == 0:
                why = rep.error or "no collision"
                return DaysResult(
                    "unknown",
                    f"z3 found a collision on day {d + 1}, but its replay: {why}",
                    tuple(actions),
                    d + 1,
                    seconds,
                )
            return DaysResult(
                "violated",
                f"a collision on day {d + 1}; replayed in the sandbox: {rep.collisions} collision(s) "
                f"[{seconds * 1000:.0f} ms]",
                tuple(actions),
                d + 1,
                seconds,
            )
        if answer != z3.unsat:
            return DaysResult("unknown", f"z3: {solver.reason_unknown()}", seconds=time.perf_counter() - start)
        solver.add(z3.Not(enc.collide[d]))
    seconds = time.perf_counter() - start
    return DaysResult("holds", f"no collision within {k} workday(s) [{seconds * 1000:.0f} ms]", seconds=seconds)


def sampled_assignment(enc: DaysEncoding, rng: random.Random) -> list[Any]:
    """Constraints fixing every free variable to a random legal value (sales: none or all of a grade)."""
    fix: list[Any] = []
    for dv in enc.vars:
        for j, v in enumerate(dv.path):
            fix.append(v == rng.randrange(len(enc.paths[j])))
        for v in dv.change.values():
            fix.append(v == rng.randrange(3))
        for i, v in dv.hole.items():
            p = enc.factory.floor[i]
            assert p is not None
            fix.append(v == rng.randrange(len(p.outputs)))
        for (r, g), v in dv.sold.items():
            fix.append(v == (0 if rng.random() < 0.5 else dv.loads[r][g]))
        for v in dv.declare.values():
            fix.append(v == rng.randrange(3))
    return fix


def conformance_mismatch(enc: DaysEncoding, rng: random.Random, timeout_ms: int | None = None) -> str | None:
    """Fix the encoding's free variables at random, decode the actions of every day up to the first
    collision, replay them in the sandbox, and compare each day's collision and the board after each
    collision-free day's run and sales. None when they agree. A solver that cannot decide (``timeout_ms``
    spent) raises :class:`bgrules.core.proofs.Undecided`."""
    solver = new_solver(timeout_ms)
    solver.add(*enc.constraints)
    solver.add(*sampled_assignment(enc, rng))
    answer = solver.check()
    if answer == z3.unknown:
        raise Undecided(f"a sampled assignment: {solver.reason_unknown()}")
    if answer != z3.sat:
        return "the sampled assignment is not satisfiable"
    model = solver.model()
    collide = [z3.is_true(model.eval(c, model_completion=True)) for c in enc.collide]
    last = next((d + 1 for d, c in enumerate(collide) if c), enc.k)
    actions = decode_actions(enc, model, last, last_run_only=collide[last - 1])
    rep = replay(enc, actions)
    if rep.error is not None:
        return f"replay rejects the decoded actions: {rep.error} ({actions})"
    for d in range(len(rep.snapshots)):
        want = board_snapshot(enc, model, d)
        if rep.snapshots[d] != want:
            return f"day {d + 1} board: z3 {want}, Python {rep.snapshots[d]} ({actions})"
    py = [n > 0 for n in rep.day_collisions]
    if py[:last] != collide[:last]:
        return f"collisions by day: z3 {collide[:last]}, Python {py[:last]} ({actions})"
    return None


__all__ = [
    "DaysEncoding",
    "DaysResult",
    "Path",
    "Replay",
    "Source",
    "board_snapshot",
    "collision_within",
    "conformance_mismatch",
    "decode_actions",
    "encode_days",
    "paths_from",
    "replay",
    "sampled_assignment",
    "sources",
]
