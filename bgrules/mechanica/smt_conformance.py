"""Mechanica's workday encoding (:mod:`bgrules.mechanica.smt`) against the Python run: the run driven by
the same choices as a model (:func:`python_movement`, :func:`drive`), their first difference
(:func:`conformance_mismatch`) and a witness's replay (:func:`replay`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from bgrules.mechanica.factory import COLS, Factory, Truck
from bgrules.mechanica.movement import (
    TRUCK_BIN,
    launch_nodes,
)
from bgrules.mechanica.run import Run, RunDecision, RunPhase
from bgrules.mechanica.smt import (
    BIN_BASE,
    DESTROYED,
    UNFINISHED,
    BinInfo,
    CollisionResult,
    CollisionWitness,
    Evaluation,
    Launch,
    MovementEncoding,
    Option,
    Overflow,
    Transitions,
    _launches,
    collision_query,
    compile_transitions,
    decode,
    encode_workday,
    evaluate,
    final_bins,
    query_encoding,
)
from bgrules.mechanica.variant import MechanicaVariant
from bgrules.mechanica.workday import decide, decisions, start_run

# --- the Python run, driven by the same choices (conformance) -----------------------------------------

Chooser = Callable[[int, int, int], int]
"""``chooser(bot, step, n_options)``: the index of the option a bot takes at a decision."""


def index_chooser(choices: Mapping[tuple[int, int], int]) -> Chooser:
    """Take ``choices[(bot, step)]`` (0 where missing)."""
    return lambda b, t, n: choices.get((b, t), 0)


@attrs.frozen
class PythonMovement:
    """What the Python run (:mod:`bgrules.mechanica.workday`) did with the choices."""

    finals: tuple[int | None, ...]
    """Each bot's bin (None: destroyed), from running that bot alone through an emptied factory."""
    decisions: tuple[RunDecision, ...]
    """The Route / Fly decisions of the whole run, in the order it asked them."""
    choice_indices: dict[tuple[int, int], int]
    collisions: int
    destroyed: int
    vault: int
    wallet: int
    run: Run


_STOCK = (99, 99, 99)


def _move_choice(
    run: Run,
    legal: tuple[RunDecision, ...],
    total: int,
    chooser: Chooser,
    taken: dict[tuple[int, int], int],
    offset: int = 0,
) -> RunDecision:
    head = run.moving[0]
    bot = total - len(run.moving) + offset
    step = head.visited.bit_count()
    j = chooser(bot, step, len(legal))
    if not 0 <= j < len(legal):
        raise ValueError(f"choice {j} at bot {bot} step {step}: {len(legal)} options")
    taken[(bot, step)] = j
    return legal[j]


def drive(
    factory: Factory, variant: MechanicaVariant, chooser: Chooser, offset: int = 0
) -> tuple[Run, tuple[RunDecision, ...], dict[tuple[int, int], int]]:
    """A whole workday run through ``start_run`` / ``decide``: movement decisions by ``chooser`` (bots
    numbered from ``offset``), collision and activation decisions the first legal one."""
    total = len(launch_nodes(factory, variant))
    taken: dict[tuple[int, int], int] = {}
    asked: list[RunDecision] = []
    run = start_run(factory, _STOCK, variant)
    while run.phase is not RunPhase.DONE:
        legal = decisions(run, variant)
        if run.phase is RunPhase.MOVE:
            action = _move_choice(run, legal, total, chooser, taken, offset)
            asked.append(action)
        else:
            action = legal[0]
        run = decide(run, variant, action)
    return run, tuple(asked), taken


def _emptied(factory: Factory) -> Factory:
    floor = tuple(
        None if p is None else attrs.evolve(p, inputs=(), outputs=(None,) * len(p.outputs)) for p in factory.floor
    )
    start = tuple(attrs.evolve(s, holes=(None,) * len(s.holes)) for s in factory.start)
    dock = tuple(Truck(t.kind) for t in factory.dock)
    return Factory(floor, start, dock)


def _alone(factory: Factory, launch: Launch) -> Factory:
    """The factory emptied of every bot but ``launch``'s."""
    empty = _emptied(factory)
    if launch.area == "start":
        slot = empty.start[launch.index]
        holes = list(slot.holes)
        holes[launch.hole] = launch.bot
        return empty.with_start(launch.index, attrs.evolve(slot, holes=tuple(holes)))
    r, c = divmod(launch.index, COLS)
    placed = empty.at(r, c)
    assert placed is not None
    outs = list(placed.outputs)
    outs[launch.hole] = launch.bot
    return empty.with_cell(r, c, attrs.evolve(placed, outputs=tuple(outs)))


def _where(run: Run, variant: MechanicaVariant) -> int | None:
    """Where the one bot of a run came to rest (its bin), or None if it was destroyed."""
    if run.destroyed:
        return None
    for r, t in enumerate(run.factory.dock):
        if t.load:
            return TRUCK_BIN + r
    cat = variant.catalogue
    for i, p in enumerate(run.factory.floor):
        if p is not None and cat.tile(p.kind).inputs > 0 and (p.inputs or any(b is not None for b in p.outputs)):
            return i
    raise AssertionError("a bot neither destroyed nor in a bin")


def python_movement(factory: Factory, variant: MechanicaVariant, chooser: Chooser) -> PythonMovement:
    """Run the workday in Python with ``chooser``'s movement decisions; each bot's bin comes from running
    it alone (bots do not meet while moving, and the run pours them into bins only at the end)."""
    run, asked, taken = drive(factory, variant, chooser)
    finals = []
    for b, launch in enumerate(_launches(factory, variant)):
        alone, _asked, _taken = drive(_alone(factory, launch), variant, chooser, offset=b)
        finals.append(_where(alone, variant))
    return PythonMovement(tuple(finals), asked, taken, run.collisions, run.destroyed, run.vault, run.wallet, run)


def conformance_mismatch(
    factory: Factory,
    variant: MechanicaVariant,
    chooser: Chooser,
    enc: MovementEncoding | None = None,
    timeout_ms: int | None = None,
    solver: Any = None,
) -> str | None:
    """Run the Python workday with ``chooser`` and evaluate the encoding on the choices it took; None if
    they agree on every bot's bin, the decisions asked, the coins, and whether a bin overflows.
    ``timeout_ms``: the evaluation's solver timeout (:class:`bgrules.core.proofs.Undecided` when spent);
    ``solver``: an :func:`evaluator` of ``enc`` to reuse."""
    py = python_movement(factory, variant, chooser)
    enc = enc or encode_workday(factory, variant)
    try:
        ev = evaluate(enc, py.choice_indices, timeout_ms, solver)
    except ValueError as exc:
        return f"the encoding rejects the Python run's choices: {exc}"
    if ev.finals != py.finals:
        return f"final bins: z3 {ev.finals}, Python {py.finals} (choices {py.choice_indices})"
    if ev.decisions != py.decisions:
        return f"decisions: z3 {ev.decisions}, Python {py.decisions}"
    if ev.collides != (py.collisions > 0):
        return f"collision: z3 {ev.overflows}, Python {py.collisions} collision(s) (choices {py.choice_indices})"
    if (ev.vault, ev.wallet) != (py.vault, py.wallet):
        return f"coins: z3 vault {ev.vault} wallet {ev.wallet}, Python vault {py.vault} wallet {py.wallet}"
    discards = sum(max(0, n - enc.bins[i].capacity) for i, n in ev.counts.items())
    moved_destroyed = sum(1 for f in ev.finals if f is None)
    if py.destroyed != moved_destroyed + discards:
        return f"destroyed: Python {py.destroyed}, z3 {moved_destroyed} moving + {discards} in collisions"
    return None


def replay(factory: Factory, variant: MechanicaVariant, moves: tuple[RunDecision, ...]) -> Run:
    """Run the workday taking ``moves`` as the movement decisions in order (IllegalAction if one is not
    legal when asked); collision and activation decisions are the first legal one."""
    pending = list(moves)
    run = start_run(factory, _STOCK, variant)
    while run.phase is not RunPhase.DONE:
        legal = decisions(run, variant)
        if run.phase is RunPhase.MOVE:
            if not pending:
                raise ValueError(f"the run asks a decision the witness lacks: {legal}")
            run = decide(run, variant, pending.pop(0))
        else:
            run = decide(run, variant, legal[0])
    if pending:
        raise ValueError(f"the run asked no decision for {pending}")
    return run


__all__ = [
    "BIN_BASE",
    "DESTROYED",
    "UNFINISHED",
    "BinInfo",
    "Chooser",
    "CollisionResult",
    "CollisionWitness",
    "Evaluation",
    "Launch",
    "MovementEncoding",
    "Option",
    "Overflow",
    "PythonMovement",
    "Transitions",
    "collision_query",
    "compile_transitions",
    "conformance_mismatch",
    "decode",
    "drive",
    "encode_workday",
    "evaluate",
    "final_bins",
    "index_chooser",
    "python_movement",
    "query_encoding",
    "replay",
]
