"""A z3 encoding of one workday's movement (MC-MOVE-*, MC-FORK, MC-FLIGHT, MC-MOVE-LOOP) and the
collision question (MC-COLLIDE): can some hole or truck end the movement holding more bots than it has
room for, for some choice of Fork exits and Flight Tester landings?

The transitions are compiled from :func:`bgrules.mechanica.movement.options` over every floor node (and
every off-floor node a step can lead to), so the encoding reads the same rule function as the Python
run in :mod:`bgrules.mechanica.workday`. Each launched bot's path is a sequence of z3 bit-vector
states (11 bits), one per step; a state is a node id (:func:`~bgrules.mechanica.movement.node_code` for
floor nodes), or a final outcome (:data:`DESTROYED`, or ``BIN_BASE + bin``). Every step at which a bot
may stand on a Fork or a Flight Tester has a free choice variable ``choice_<bot>_<step>``: the index of
the option taken, in the order :func:`~bgrules.mechanica.workday.decisions` lists them. MC-MOVE-LOOP: a
bot entering a floor node it has already left is destroyed.

Step numbering matches the Python run: step ``t`` of a bot is the node it is about to enter after
leaving ``t`` floor nodes, i.e. ``popcount(Moving.visited)`` when that bot is at the head of the queue.
Queries go to z3's finite-domain (QF_FD) solver; a timeout or resource limit gives ``unknown``, never
``holds``.

    result = collision_query(factory, variant)        # verdict "holds" / "violated" / "unknown"
    enc = encode_workday(factory, variant)
    evaluate(enc, {(0, 2): 1})                         # concrete choices -> each bot's final bin
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, Literal

import attrs
import z3

from bgrules.core.proofs import Undecided
from bgrules.core.proofs import solver as new_solver
from bgrules.mechanica.components import Bot, Dir
from bgrules.mechanica.factory import COLS, DOCK_COL, Factory, on_floor
from bgrules.mechanica.movement import (
    NODE_CODES,
    TRUCK_BIN,
    Node,
    launch_nodes,
    node_code,
    options,
)
from bgrules.mechanica.run import Fly, Route, RunDecision
from bgrules.mechanica.variant import MechanicaVariant

Verdict = Literal["holds", "violated", "unknown"]
Fault = Literal["drop_loop_rule", "ignore_capacity", "ignore_preloaded"]
"""Deliberate encoding bugs, for tests that show the conformance check catches a broken encoding."""

DESTROYED = 1000
"""Final state of a destroyed bot (off the floor, against an edge, a loop, a throw with no target)."""
BIN_BASE = 1001
"""Final state ``BIN_BASE + bin`` of a bot that came to rest in ``bin`` (0-11 a cell, TRUCK_BIN+row)."""


UNFINISHED = -1
"""A final "bin" that only a broken encoding produces: the path did not end within its horizon."""


def bin_state(bin_id: int) -> int:
    return BIN_BASE + bin_id


def is_final(state: int) -> bool:
    return state >= DESTROYED


def describe_bin(bin_id: int | None) -> str:
    if bin_id is None:
        return "destroyed"
    if bin_id >= TRUCK_BIN:
        return f"truck {bin_id - TRUCK_BIN}"
    return f"cell {divmod(bin_id, COLS)}"


def bin_cell(bin_id: int) -> tuple[int, int]:
    """(row, col) of a bin; column 4 is the row's truck."""
    if bin_id >= TRUCK_BIN:
        return bin_id - TRUCK_BIN, DOCK_COL
    return divmod(bin_id, COLS)


# --- compiled transitions ---------------------------------------------------------------------------


@attrs.frozen
class Option:
    """One compiled :class:`~bgrules.mechanica.movement.Step`: its label and the state it leads to."""

    label: Dir | tuple[int, int] | None
    target: int
    gift: int
    jump: int
    rule: str


@attrs.frozen
class Transitions:
    """Every node a bot can stand on, by id, with its options (the rule function, tabulated)."""

    ids: dict[Node, int]
    options: dict[int, tuple[Option, ...]]
    nodes: dict[int, Node] = attrs.field(init=False)

    @nodes.default
    def _nodes(self) -> dict[int, Node]:
        return {i: n for n, i in self.ids.items()}


def compile_transitions(factory: Factory, variant: MechanicaVariant, extra: tuple[Node, ...] = ()) -> Transitions:
    """Tabulate :func:`movement.options` over all floor nodes, ``extra`` nodes (launch nodes) and every
    off-floor node a step leads to (a truck, or off the board). Floor nodes keep their ``node_code``."""
    ids: dict[Node, int] = {}
    queue: list[Node] = []

    def register(node: Node) -> int:
        if node not in ids:
            r, c, _h = node
            ids[node] = (
                node_code(node) if on_floor(r, c) else NODE_CODES + sum(1 for n in ids if not on_floor(n[0], n[1]))
            )
            queue.append(node)
        return ids[node]

    for code in range(NODE_CODES):
        rc, h = divmod(code, 5)
        register((rc // COLS, rc % COLS, h))
    for node in extra:
        register(node)
    table: dict[int, tuple[Option, ...]] = {}
    while queue:
        node = queue.pop()
        compiled = []
        for s in options(factory, variant, node):
            if s.then is not None:
                target = register(s.then)
            elif s.arrive is not None:
                target = bin_state(s.arrive)
            else:
                target = DESTROYED
            compiled.append(Option(s.label, target, s.gift, s.jump, s.rule))
        table[ids[node]] = tuple(compiled)
    return Transitions(ids, table)


# --- the encoding -----------------------------------------------------------------------------------


@attrs.frozen
class Launch:
    """A bot leaving an output or fabricator hole (MC-MOVE-SRC), in the run's launch order."""

    area: str
    index: int
    hole: int
    bot: Bot
    node: Node

    def describe(self) -> str:
        if self.area == "start":
            return f"Start Zone row {self.index} hole {self.hole} ({self.bot.letter})"
        r, c = divmod(self.index, COLS)
        return f"({r}, {c}) output hole {self.hole} ({self.bot.letter})"


@attrs.frozen
class BinInfo:
    bin: int
    capacity: int
    preloaded: int

    @property
    def cell(self) -> tuple[int, int]:
        return bin_cell(self.bin)


@attrs.frozen
class Overflow:
    """A bin holding more bots than its capacity after the movement (MC-COLLIDE)."""

    bin: int
    row: int
    col: int
    capacity: int
    preloaded: int
    count: int

    def describe(self) -> str:
        where = f"truck {self.row}" if self.col == DOCK_COL else f"({self.row}, {self.col})"
        return f"{where} holds {self.count} bot(s) ({self.preloaded} already there), capacity {self.capacity}"


@attrs.define
class MovementEncoding:
    """The z3 encoding of one factory's workday movement."""

    factory: Factory
    variant: MechanicaVariant
    transitions: Transitions
    launches: tuple[Launch, ...]
    bins: dict[int, BinInfo]
    states: list[list[Any]]
    """z3 bit-vector terms: ``states[bot][t]`` the state at step t (the last one is the final state)."""
    choices: dict[tuple[int, int], Any]
    """The free z3 bit-vector per (bot, step) at which the bot may face a decision."""
    domains: dict[tuple[int, int], int]
    """How many options the choice variable of (bot, step) ranges over at most (0 .. n-1)."""
    constraints: list[Any]
    """Definitions of the state variables and the choice variables' domains."""
    counts: dict[int, Any]
    """Bots in each bin after the movement, counting those already there (z3 bit-vector)."""
    overflow: Any
    """z3 Bool: some bin holds more bots than its capacity."""
    vault: Any
    """z3 bit-vector (16 bits): MC-GIFT coins paid during the movement."""
    wallet: Any
    """z3 bit-vector (16 bits): MC-FLIGHT-JUMP coins paid during the movement."""

    @property
    def finals(self) -> list[Any]:
        return [path[-1] for path in self.states]

    def size(self) -> dict[str, int]:
        return {
            "bots": len(self.launches),
            "steps": sum(len(p) - 1 for p in self.states),
            "choices": len(self.choices),
            "constraints": len(self.constraints),
        }


STATE_BITS = 11
"""Width of the state bit-vectors: node ids below NODE_CODES + a few off-floor nodes, finals up to
BIN_BASE + TRUCK_BIN + 2 < 2**11."""
COIN_BITS = 16


_CONSTS: dict[tuple[int, int], Any] = {}
_CONSTS_CONTEXT: list[Any] = [None]
"""The z3 context the cached numerals belong to (a proof obligation runs in a context of its own)."""


def _const(value: int, bits: int) -> Any:
    """A bit-vector numeral (cached: building z3 terms from Python dominates the encoding's cost; the
    cache is emptied when the main z3 context changes, so terms of two contexts never mix)."""
    ctx = z3.main_ctx()
    if _CONSTS_CONTEXT[0] is not ctx:
        _CONSTS.clear()
        _CONSTS_CONTEXT[0] = ctx
    found = _CONSTS.get((value, bits))
    if found is None:
        found = _CONSTS[(value, bits)] = z3.BitVecVal(value, bits)
    return found


def _state(value: int) -> Any:
    return _const(value, STATE_BITS)


class _Step:
    """The terms of one step of one bot: its state, its choice variable, and cached comparisons."""

    def __init__(self, cur: Any, choice: Any, single: bool) -> None:
        self.cur = cur
        self.choice = choice
        self.single = single
        self._at: dict[int, Any] = {}
        self._picks: dict[int, Any] = {}

    def at(self, state: int) -> Any:
        found = self._at.get(state)
        if found is None:
            found = self._at[state] = self.cur == _state(state)
        return found

    def picks(self, j: int) -> Any:
        found = self._picks.get(j)
        if found is None:
            found = self._picks[j] = self.choice == _const(j, self.choice.size())
        return found

    def select(self, opts: tuple[Option, ...], attr: str, bits: int) -> Any:
        """The ``attr`` of the option the choice picks (the last option for any larger value)."""
        values = [int(getattr(o, attr)) for o in opts]
        expr: Any = _const(values[-1], bits)
        if len(set(values)) == 1:
            return expr
        for j in range(len(values) - 2, -1, -1):
            expr = z3.If(self.picks(j), _const(values[j], bits), expr)
        return expr

    def case(self, table: dict[int, tuple[Option, ...]], live: list[int], attr: str, default: Any, bits: int) -> Any:
        """The ``attr`` of the option taken, whichever live state the bot is in (``default`` in others)."""
        expr = default
        for s in live:
            val = self.select(table[s], attr, bits)
            expr = val if self.single else z3.If(self.at(s), val, expr)
        return expr


def _bins(factory: Factory, variant: MechanicaVariant) -> dict[int, BinInfo]:
    cat = variant.catalogue
    out: dict[int, BinInfo] = {}
    for i, p in enumerate(factory.floor):
        if p is not None and cat.tile(p.kind).inputs > 0:
            out[i] = BinInfo(i, cat.tile(p.kind).inputs, len(p.inputs))
    for r, t in enumerate(factory.dock):
        out[TRUCK_BIN + r] = BinInfo(TRUCK_BIN + r, cat.tile(t.kind).capacity, len(t.load))
    return out


def _launches(factory: Factory, variant: MechanicaVariant) -> tuple[Launch, ...]:
    out = []
    for area, index, hole, node in launch_nodes(factory, variant):
        if area == "start":
            bot = factory.start[index].holes[hole]
        else:
            placed = factory.floor[index]
            assert placed is not None
            bot = placed.outputs[hole]
        assert bot is not None
        out.append(Launch(area, index, hole, bot, node))
    return tuple(out)


def encode_workday(factory: Factory, variant: MechanicaVariant, *, fault: Fault | None = None) -> MovementEncoding:
    """Build the encoding of one workday's movement of ``factory`` (bots in its output / fabricator holes).

    ``fault`` deliberately breaks the encoding (for tests only)."""
    launches = _launches(factory, variant)
    table = compile_transitions(factory, variant, tuple(launch.node for launch in launches))
    opts = table.options
    bins = _bins(factory, variant)
    constraints: list[Any] = []
    choices: dict[tuple[int, int], Any] = {}
    domains: dict[tuple[int, int], int] = {}
    states: list[list[Any]] = []
    gifts: list[Any] = []
    jumps: list[Any] = []
    finals_possible: list[set[int]] = []
    choice_bits = max(len(o) for o in opts.values()).bit_length()
    for b, launch in enumerate(launches):
        start = table.ids[launch.node]
        # the floor nodes this bot can reach bound its path: after that many, a node repeats
        seen = {start}
        todo = [start]
        while todo:
            s = todo.pop()
            for o in opts[s]:
                if not is_final(o.target) and o.target not in seen:
                    seen.add(o.target)
                    todo.append(o.target)
        horizon = len([s for s in seen if s < NODE_CODES]) + 2
        layer = {start}
        earlier: list[tuple[Any, set[int]]] = []  # (state expr, possible values) of steps so far
        path: list[Any] = [_state(start)]
        for t in range(horizon):
            live = sorted(s for s in layer if not is_final(s))
            if not live:
                break
            cur = path[-1]
            deciding = [s for s in live if len(opts[s]) > 1]
            choice: Any = None
            if deciding:
                choice = z3.BitVec(f"choice_{b}_{t}", choice_bits)
                choices[(b, t)] = choice
                kmax = max(len(opts[s]) for s in deciding)
                domains[(b, t)] = kmax
                constraints.append(z3.ULT(choice, kmax))
                for s in deciding:
                    if len(opts[s]) < kmax:
                        constraints.append(z3.Implies(cur == _state(s), z3.ULT(choice, len(opts[s]))))
            step = _Step(cur, choice, len(layer) == 1)
            raw = step.case(opts, live, "target", cur, STATE_BITS)
            raw_values = {o.target for s in live for o in opts[s]} | (layer - set(live))
            paying = [s for s in live if any(o.gift for o in opts[s])]
            if paying:
                gifts.append(step.case(opts, paying, "gift", _const(0, COIN_BITS), COIN_BITS))
            paying = [s for s in live if any(o.jump for o in opts[s])]
            if paying:
                jumps.append(step.case(opts, paying, "jump", _const(0, COIN_BITS), COIN_BITS))
            # MC-MOVE-LOOP: entering a floor node the bot has already left destroys it
            repeats = [
                expr for expr, vals in ((path[-1], layer), *earlier) if any(v < NODE_CODES for v in vals & raw_values)
            ]
            earlier.append((path[-1], layer))
            nxt = z3.BitVec(f"state_{b}_{t + 1}", STATE_BITS)
            if repeats and fault != "drop_loop_rule":
                looped = z3.And(z3.ULT(raw, NODE_CODES), z3.Or([raw == e for e in repeats]))
                constraints.append(nxt == z3.If(looped, _state(DESTROYED), raw))
                layer = raw_values | {DESTROYED}
            else:
                constraints.append(nxt == raw)
                layer = raw_values
            path.append(nxt)
        states.append(path)
        finals_possible.append(layer)
    counts: dict[int, Any] = {}
    over: list[Any] = []
    count_bits = (len(launches) + max((i.preloaded for i in bins.values()), default=0) + 1).bit_length() + 1
    one, zero = z3.BitVecVal(1, count_bits), z3.BitVecVal(0, count_bits)
    for bin_id, info in bins.items():
        arrivals = [
            z3.If(states[b][-1] == bin_state(bin_id), one, zero)
            for b in range(len(launches))
            if bin_state(bin_id) in finals_possible[b]
        ]
        pre = z3.BitVecVal(0 if fault == "ignore_preloaded" else info.preloaded, count_bits)
        counts[bin_id] = z3.Sum([pre, *arrivals]) if arrivals else pre
        if arrivals or info.preloaded > info.capacity:
            over.append(z3.UGT(counts[bin_id], info.capacity))
    overflow = z3.BoolVal(False) if fault == "ignore_capacity" or not over else z3.Or(over)
    return MovementEncoding(
        factory=factory,
        variant=variant,
        transitions=table,
        launches=launches,
        bins=bins,
        states=states,
        choices=choices,
        domains=domains,
        constraints=constraints,
        counts=counts,
        overflow=overflow,
        vault=z3.Sum([z3.BitVecVal(0, COIN_BITS), *gifts]),
        wallet=z3.Sum([z3.BitVecVal(0, COIN_BITS), *jumps]),
    )


# --- reading a model --------------------------------------------------------------------------------


@attrs.frozen
class Evaluation:
    """The movement the encoding gives for one assignment of the choice variables."""

    finals: tuple[int | None, ...]
    """Each bot's bin (0-11 a cell, TRUCK_BIN+row a truck), or None if destroyed (UNFINISHED: the path
    did not end, which only a deliberately broken encoding does)."""
    paths: tuple[tuple[int, ...], ...]
    decisions: tuple[RunDecision, ...]
    """The Route / Fly decisions taken, in the order the Python run asks them."""
    choice_indices: dict[tuple[int, int], int]
    """(bot, step) -> index of the option taken, at every step that was a real decision."""
    counts: dict[int, int]
    overflows: tuple[Overflow, ...]
    """The bins whose count exceeds their capacity."""
    collides: bool
    """The value of the encoding's collision formula (the one :func:`collision_query` asks about)."""
    vault: int
    wallet: int


def _int(model: Any, expr: Any) -> int:
    return int(model.eval(expr, model_completion=True).as_long())


def decode(enc: MovementEncoding, model: Any) -> Evaluation:
    opts = enc.transitions.options
    nodes = enc.transitions.nodes
    finals: list[int | None] = []
    paths: list[tuple[int, ...]] = []
    decisions: list[RunDecision] = []
    taken: dict[tuple[int, int], int] = {}
    for b, path in enumerate(enc.states):
        values = tuple(_int(model, e) for e in path)
        paths.append(values)
        for t, s in enumerate(values):
            if is_final(s) or len(opts[s]) < 2 or (b, t) not in enc.choices:
                continue
            j = _int(model, enc.choices[(b, t)])
            taken[(b, t)] = j
            label = opts[s][j].label
            r, c, _h = nodes[s]
            if isinstance(label, Dir):
                decisions.append(Route(r, c, label))
            elif isinstance(label, tuple):
                decisions.append(Fly(r, c, label[0], label[1]))
        last = values[-1]
        finals.append(None if last == DESTROYED else last - BIN_BASE if is_final(last) else UNFINISHED)
    counts = {i: _int(model, e) for i, e in enc.counts.items()}
    overflows = tuple(
        Overflow(i, *enc.bins[i].cell, enc.bins[i].capacity, enc.bins[i].preloaded, n)
        for i, n in counts.items()
        if n > enc.bins[i].capacity
    )
    return Evaluation(
        tuple(finals),
        tuple(paths),
        tuple(decisions),
        taken,
        counts,
        overflows,
        bool(z3.is_true(model.eval(enc.overflow, model_completion=True))),
        _int(model, enc.vault),
        _int(model, enc.wallet),
    )


def evaluate(
    enc: MovementEncoding,
    choices: Mapping[tuple[int, int], int] | None = None,
    timeout_ms: int | None = None,
    solver: Any = None,
) -> Evaluation:
    """Evaluate the encoding for concrete choices: ``choices[(bot, step)]`` is the index of the option
    taken (0 where missing; ignored at steps with no choice variable). Raises ValueError when a choice is
    out of range for the node the bot is on, :class:`bgrules.core.proofs.Undecided` when the solver cannot
    decide within ``timeout_ms``. ``solver``: one holding ``enc.constraints`` already (see
    :func:`evaluator`), reused with push / pop, so many evaluations of one encoding share it."""
    choices = choices or {}
    pins = []
    for key, var in enc.choices.items():
        value = choices.get(key, 0)
        if not 0 <= value < enc.domains[key]:
            raise ValueError(f"choice {value} for bot {key[0]} step {key[1]}: at most {enc.domains[key]} options")
        pins.append(var == value)
    if solver is None:
        solver = evaluator(enc)
    if timeout_ms is not None:
        solver.set("timeout", max(1, min(int(timeout_ms), 2**32 - 1)))
    solver.push()
    try:
        solver.add(*pins)
        answer = solver.check()
        if answer == z3.unknown:
            raise Undecided(f"evaluating choices {dict(choices)}: {solver.reason_unknown()}")
        if answer != z3.sat:
            raise ValueError(f"choices {dict(choices)} are not a legal assignment for this factory")
        return decode(enc, solver.model())
    finally:
        solver.pop()


def evaluator(enc: MovementEncoding) -> Any:
    """A solver holding the encoding's constraints, for :func:`evaluate`."""
    solver = new_solver(logic="QF_FD")
    solver.add(*enc.constraints)
    return solver


def final_bins(
    factory: Factory, variant: MechanicaVariant, choices: Mapping[tuple[int, int], int] | None = None
) -> tuple[int | None, ...]:
    """Each launched bot's bin after the movement (None: destroyed), by the z3 encoding."""
    return evaluate(encode_workday(factory, variant), choices).finals


# --- the collision query ----------------------------------------------------------------------------


@attrs.frozen
class CollisionWitness:
    """Choices under which some bin overflows."""

    sources: tuple[Launch, ...]
    decisions: tuple[RunDecision, ...]
    overflows: tuple[Overflow, ...]
    finals: tuple[int | None, ...]
    choice_indices: dict[tuple[int, int], int]

    def to_json(self) -> dict[str, Any]:
        return {
            "sources": [s.describe() for s in self.sources],
            "decisions": [repr(d) for d in self.decisions],
            "overflows": [o.describe() for o in self.overflows],
            "finals": [describe_bin(f) for f in self.finals],
        }


@attrs.frozen
class CollisionResult:
    verdict: Verdict
    detail: str
    witness: CollisionWitness | None = None
    seconds: float = 0.0
    size: dict[str, int] = attrs.field(factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "detail": self.detail,
            "witness": None if self.witness is None else self.witness.to_json(),
            "size": dict(self.size),
        }


def query_encoding(enc: MovementEncoding, timeout_ms: int = 10_000, rlimit: int | None = None) -> CollisionResult:
    """Ask z3 whether some bin can overflow. ``holds`` only on unsat; a timeout, a spent resource limit
    (``rlimit``) or a give-up is ``unknown``."""
    start = time.perf_counter()
    solver = new_solver(max(1, int(timeout_ms)), "QF_FD")
    if rlimit is not None:
        solver.set("rlimit", int(rlimit))
    solver.add(*enc.constraints)
    solver.add(enc.overflow)
    answer = solver.check()
    seconds = time.perf_counter() - start
    if answer == z3.unsat:
        return CollisionResult(
            "holds",
            f"no bin overflows for any of the choices ({len(enc.choices)} choice variables)",
            None,
            seconds,
            enc.size(),
        )
    if answer == z3.sat:
        ev = decode(enc, solver.model())
        witness = CollisionWitness(enc.launches, ev.decisions, ev.overflows, ev.finals, ev.choice_indices)
        detail = "; ".join(o.describe() for o in ev.overflows)
        return CollisionResult("violated", detail, witness, seconds, enc.size())
    return CollisionResult("unknown", f"z3: {solver.reason_unknown()}", None, seconds, enc.size())


def collision_query(
    factory: Factory, variant: MechanicaVariant, timeout_ms: int = 10_000, rlimit: int | None = None
) -> CollisionResult:
    """Can two bots reach the same hole? Precisely: for some Fork exits and Flight landings, does some bin
    end the workday's movement holding more bots than its capacity (counting bots already in it)?"""
    start = time.perf_counter()
    try:
        result = query_encoding(encode_workday(factory, variant), timeout_ms, rlimit)
    except z3.Z3Exception as exc:  # a resource limit hit while building: never "holds"
        return CollisionResult("unknown", f"z3: {exc}", None, time.perf_counter() - start)
    return attrs.evolve(result, seconds=time.perf_counter() - start)
