"""Named predicates over factory-sandbox states: the executable half of specs/mechanica-factory.toml.

A state predicate takes ``(game, state)``; a transition predicate ``(game, before, action, after)``.
Each returns None when the fact holds, or a sentence saying what is wrong. Each declares what it reads
(:func:`bgrules.core.observe.observes`): the counters a trace shows at every step.
"""

from __future__ import annotations

from typing import Any

from bgrules.core.observe import observes
from bgrules.mechanica.components import Effect
from bgrules.mechanica.fabricate import Fabricate
from bgrules.mechanica.factory import COLS, DOCK_COL
from bgrules.mechanica.run import RunPhase
from bgrules.mechanica.sandbox import FactoryGame, Phase, SandboxState


class _Reads:
    """What each predicate reads (:func:`bgrules.core.observe.observes`). A class, not module functions: the
    module's two-argument functions are its predicates."""

    @staticmethod
    def grades(counts: Any) -> dict[str, int]:
        return dict(zip(("Basic", "Plus", "Deluxe"), (int(x) for x in counts), strict=True))

    @staticmethod
    def bots(game: FactoryGame, state: SandboxState) -> dict[str, Any]:
        board = list(state.board.bot_counts())
        moving = [0, 0, 0]
        if state.run is not None:
            for m in state.run.moving:
                moving[m.bot] += 1
            for _bin, bot in state.run.arrived:
                moving[bot] += 1
        return {
            "stock": _Reads.grades(state.live_stock),
            "board": _Reads.grades(board),
            "on the move": _Reads.grades(moving),
            "supply per grade": game.variant.rulings.bots_per_grade,
        }

    @staticmethod
    def holes(game: FactoryGame, state: SandboxState) -> dict[str, Any]:
        cat = game.variant.catalogue
        fullest = max(
            ((len(p.inputs), cat.tile(p.kind).inputs) for p in state.board.floor if p is not None),
            default=(0, 0),
        )
        return {
            "run phase": None if state.run is None else state.run.phase.name,
            "fullest input holes (bots/holes)": f"{fullest[0]}/{fullest[1]}",
            "trucks (load/capacity)": [f"{len(t.load)}/{cat.tile(t.kind).capacity}" for t in state.board.dock],
        }

    @staticmethod
    def sources(game: FactoryGame, state: SandboxState) -> dict[str, Any]:
        run = state.run
        if run is None:
            return {"run phase": None}
        return {
            "run phase": run.phase.name,
            "Start Zone bots": sum(1 for slot in run.factory.start for b in slot.holes if b is not None),
            "output hole bots": sum(1 for p in run.factory.floor if p is not None for b in p.outputs if b is not None),
        }

    @staticmethod
    def inputs(game: FactoryGame, state: SandboxState) -> dict[str, Any]:
        return {
            "run phase": None if state.run is None else state.run.phase.name,
            "input hole bots": sum(len(p.inputs) for p in state.factory.floor if p is not None),
        }

    @staticmethod
    def vault(game: FactoryGame, before: SandboxState, action: Any, after: SandboxState) -> dict[str, Any]:
        cat = game.variant.catalogue
        return {
            "vault before": before.vault,
            "vault after": after.vault,
            "run open after": after.run is not None,
            "Gift Wrappers": sum(
                1 for p in after.factory.floor if p is not None and cat.tile(p.kind).effect is Effect.GIFT
            ),
        }

    @staticmethod
    def money(game: FactoryGame, state: SandboxState) -> dict[str, Any]:
        return {"wallet": state.wallet, "vault": state.vault}

    @staticmethod
    def collisions(game: FactoryGame, state: SandboxState) -> dict[str, Any]:
        return {
            "collisions (finished runs)": state.collisions,
            "collisions (this run)": state.run.collisions if state.run is not None else 0,
        }

    @staticmethod
    def days(game: FactoryGame, state: SandboxState) -> dict[str, Any]:
        return {"day": state.day, "days": game.days, "phase": state.phase.name}


@observes(_Reads.bots)
def bots_conserved(game: FactoryGame, state: SandboxState) -> str | None:
    """MC-STOCK: for each grade, stock + holes + trucks + bots on the move = the box's supply."""
    counts = list(state.board.bot_counts())
    if state.run is not None:
        for m in state.run.moving:
            counts[m.bot] += 1
        for _bin, bot in state.run.arrived:
            counts[bot] += 1
    stock = state.live_stock
    supply = game.variant.rulings.bots_per_grade
    for grade, name in enumerate(("Basic", "Plus", "Deluxe")):
        if stock[grade] < 0:
            return f"the stock holds {stock[grade]} {name} bots"
        if stock[grade] + counts[grade] != supply:
            return f"{name}: stock {stock[grade]} + board {counts[grade]} != {supply}"
    return None


@observes(_Reads.holes)
def one_bot_per_hole(game: FactoryGame, state: SandboxState) -> str | None:
    """MC-COLLIDE: outside collision resolution no hole holds two bots and no truck is over capacity."""
    if state.run is not None and state.run.phase is RunPhase.COLLIDE:
        return None
    cat = game.variant.catalogue
    for i, p in enumerate(state.board.floor):
        if p is not None and len(p.inputs) > cat.tile(p.kind).inputs:
            return f"({i // COLS}, {i % COLS}) holds {len(p.inputs)} bots in {cat.tile(p.kind).inputs} input hole(s)"
    for r, t in enumerate(state.board.dock):
        if len(t.load) > cat.tile(t.kind).capacity:
            return f"({r}, {DOCK_COL}) truck holds {len(t.load)} bots, capacity {cat.tile(t.kind).capacity}"
    return None


@observes(_Reads.sources)
def sources_empty_after_movement(game: FactoryGame, state: SandboxState) -> str | None:
    """MC-MOVE-SRC: once all bots have moved, no output or fabricator hole holds a bot (until activation
    fills them: cells already activated, and Static Chargers' new Basic bots, MC-CHARGE)."""
    run = state.run
    if run is None or run.phase not in (RunPhase.COLLIDE, RunPhase.ACTIVATE):
        return None
    cat = game.variant.catalogue
    for r, slot in enumerate(run.factory.start):
        if any(b is not None for b in slot.holes):
            return f"Start Zone row {r} still holds a bot after movement"
    start = run.cursor if run.phase is RunPhase.ACTIVATE else 0
    for i in range(start, len(run.factory.floor)):
        p = run.factory.floor[i]
        if p is None or (run.phase is RunPhase.ACTIVATE and cat.tile(p.kind).effect is Effect.CHARGE):
            continue
        if any(b is not None for b in p.outputs):
            return f"({i // COLS}, {i % COLS}) output hole still holds a bot after movement"
    return None


@observes(_Reads.inputs)
def inputs_empty_after_activation(game: FactoryGame, state: SandboxState) -> str | None:
    """MC-ACT: after activation every input hole is empty, except a half-filled Function Changer."""
    if state.run is not None:
        return None
    cat = game.variant.catalogue
    for i, p in enumerate(state.factory.floor):
        if p is None or not p.inputs:
            continue
        kind = cat.tile(p.kind)
        if kind.effect is Effect.CHANGE and len(p.inputs) < kind.inputs:
            continue
        return f"({i // COLS}, {i % COLS}) {kind.name} still holds {len(p.inputs)} bot(s) after activation"
    return None


@observes(_Reads.vault)
def vault_only_by_gift_wrappers(
    game: FactoryGame, before: SandboxState, action: Any, after: SandboxState
) -> str | None:
    """MC-GIFT: the vault never shrinks, and grows only in a step that finishes a workday run on a
    board with a Gift Wrapper."""
    delta = after.vault - before.vault
    if delta < 0:
        return f"the vault shrank by {-delta}"
    if delta == 0:
        return None
    finished_run = after.run is None and (before.run is not None or isinstance(action, Fabricate))
    if not finished_run:
        return f"the vault grew by {delta} outside a workday run ({action!r})"
    cat = game.variant.catalogue
    if not any(p is not None and cat.tile(p.kind).effect is Effect.GIFT for p in after.factory.floor):
        return f"the vault grew by {delta} on a board without a Gift Wrapper"
    return None


@observes(_Reads.money)
def money_never_negative(game: FactoryGame, state: SandboxState) -> str | None:
    """MC-SCORE: wallet and vault are never negative."""
    if state.wallet < 0 or state.vault < 0:
        return f"wallet {state.wallet}, vault {state.vault}"
    return None


@observes(_Reads.collisions)
def no_collision(game: FactoryGame, state: SandboxState) -> str | None:
    """The question "can bots collide in the sandbox?": this fact is expected NOT to hold."""
    total = state.collisions + (state.run.collisions if state.run is not None else 0)
    return f"{total} collision(s) so far" if total else None


@observes(_Reads.days)
def is_over_when_days_done(game: FactoryGame, state: SandboxState) -> str | None:
    """MC-DAY: the sandbox never runs past its last day."""
    if state.day > game.days:
        return f"day {state.day} of {game.days}"
    if state.phase is Phase.OVER and game.legal_actions(state):
        return "a finished sandbox still offers actions"
    return None
