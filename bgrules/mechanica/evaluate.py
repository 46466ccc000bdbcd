"""The evaluation the ``greedy`` and ``mcts`` agents use for Mechanica (docs/rules/mechanica.md, "Evaluation
(for agents)").

``evaluate(game, state, seat)`` is, in coins:

    wallet + vault + installed value            (MC-SCORE: the score the seed's rules give now)
    + sale value of the bots on the trucks      (MC-SELL: they can be sold in the next turn's first step)
    + the value of a bought tile still waiting  (MC-SHOP-BUY: it will be installed or recycled at once)
    + the expected income of the next workday   (MC-RUN: an estimate, see below)

The next workday's income is estimated by running the factory once (``run_workday``, the first listed
decision at each of the owner's decisions): the coins and vault money the run pays (Flight Tester jumps,
...) plus the sale value of the bots it loads onto the trucks. A seat whose run is under way is estimated
by finishing that run the same way. The estimate is memoised per (factory, stock) and ignores the other
players (factories do not interact) and anything after the next workday. Cheap and deterministic; a
policy, not a rule: changing it changes no rule of the game.
"""

from __future__ import annotations

from typing import Any

from bgrules.mechanica.board import Factory, installed_value
from bgrules.mechanica.run import Run, RunPhase
from bgrules.mechanica.state import Phase
from bgrules.mechanica.variant import MechanicaVariant
from bgrules.mechanica.workday import decide, decisions, start_run

_MEMO: dict[tuple[int, Factory, tuple[int, int, int]], tuple[MechanicaVariant, float]] = {}
"""(id of the variant, factory, stock) -> (the variant, the income). The variant is kept beside its id and
compared by identity: a variant freed and another made at the same address must not read the first one's
incomes (the estimate depends on the rulings)."""
_MEMO_LIMIT = 200_000
SCALE = 6.0
"""A lead of about this many coins is a clear advantage (mcts turns leads into rewards with it)."""


def truck_value(factory: Factory, variant: MechanicaVariant) -> int:
    """MC-SELL: what the bots on the trucks fetch if sold."""
    cat = variant.catalogue
    return sum(cat.sale(bot) for truck in factory.dock for bot in truck.load)


def finish_run(run: Run, variant: MechanicaVariant) -> Run:
    """The run taken to its end, the first listed decision at each of the owner's decisions."""
    while run.phase is not RunPhase.DONE:
        run = decide(run, variant, decisions(run, variant)[0])
    return run


def run_income(before: Factory, run: Run, variant: MechanicaVariant) -> float:
    """What a finished ``run`` from the board ``before`` earned: its coins and vault money, and the sale
    value of the bots it loaded."""
    done = finish_run(run, variant)
    return float(done.wallet + done.vault + truck_value(done.factory, variant) - truck_value(before, variant))


def workday_income(factory: Factory, stock: tuple[int, int, int], variant: MechanicaVariant) -> float:
    """The estimated income of one workday of ``factory`` (memoised)."""
    key = (id(variant), factory, stock)
    found = _MEMO.get(key)
    if found is not None and found[0] is variant:
        return found[1]
    got = run_income(factory, start_run(factory, stock, variant), variant)
    if len(_MEMO) >= _MEMO_LIMIT:
        _MEMO.clear()
    _MEMO[key] = (variant, got)
    return got


def evaluate(game: Any, state: Any, seat: int) -> float:
    """The value of ``state`` for ``seat`` (whole game or sandbox), in coins; see the module doc."""
    variant: MechanicaVariant = game.variant
    cat = variant.catalogue
    if hasattr(state, "seats"):  # the whole game
        s = state.seats[seat]
        board, wallet, vault = s.factory, s.wallet, s.vault
        stock = state.stock
        value = 0.0
        if state.phase is Phase.RUN and state.current == seat and state.run is not None:
            run = state.run
            value += run_income(run.factory, run, variant)
            board = run.factory
            stock = run.stock
            income = 0.0  # the run under way is this workday's
        else:
            income = workday_income(board, stock, variant)
        if state.pending is not None and state.current == seat and state.phase is Phase.PLACE:
            value += cat.tile(state.pending).value
    else:  # the sandbox
        board, wallet, vault, stock = state.board, state.wallet, state.vault, state.live_stock
        value = 0.0
        if state.run is not None:
            value += run_income(board, state.run, variant)
            income = 0.0
        else:
            income = workday_income(board, stock, variant)
    return float(wallet + vault + installed_value(board, cat) + truck_value(board, variant) + value + income)


__all__ = ["SCALE", "evaluate", "finish_run", "truck_value", "workday_income"]
