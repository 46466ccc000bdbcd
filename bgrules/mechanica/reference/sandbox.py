"""The reference factory sandbox (``mechanica-factory``): from a given factory and supply, one player
runs a workday, then sells (MC-SELL), installs from the supply (MC-SUPPLY) or demolishes (MC-DEMOLISH),
and fabricates (MC-FAB), which ends the day (MC-DAY); the score is MC-SCORE. Written from
docs/rules/mechanica.md; the conventions are its "Engine conventions"."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import attrs

from bgrules.core.errors import IllegalAction, InputError
from bgrules.core.protocol import GameBase, GameInfo, Mover
from bgrules.mechanica.board import Factory
from bgrules.mechanica.components import Bot, Zone
from bgrules.mechanica.fabricate import Fabricate, Sell
from bgrules.mechanica.notation import parse_factory
from bgrules.mechanica.reference import factory as board
from bgrules.mechanica.reference import workday
from bgrules.mechanica.reference.ending import installed_value
from bgrules.mechanica.reference.rules import Rules, give_bots
from bgrules.mechanica.reference.setup import new_board
from bgrules.mechanica.reference.turn import fabrications, make_bots, sells
from bgrules.mechanica.run import Run, RunPhase
from bgrules.mechanica.sandbox import (
    ACTION_TYPES,
    Demolish,
    DemolishFabricator,
    Install,
    InstallFabricator,
    InstallTruck,
    Phase,
    SandboxState,
)
from bgrules.mechanica.validate import sandbox_problems
from bgrules.mechanica.variant import (
    DEFAULT_SUPPLY,
    MechanicaVariant,
    sandbox_max_length,
    sandbox_supply,
    sandbox_variant,
)

VariantSpec = MechanicaVariant | str | None
"""A variant, a variant file's path, or None for the seed's reading."""
BoardSpec = Factory | str | None
"""The sandbox's board: a board, its notation (docs/mechanica-notation.md), or None for a new player's board."""
Turn = Sell | Install | InstallFabricator | InstallTruck | Demolish | DemolishFabricator | Fabricate


class ReferenceFactoryGame(GameBase):
    """The sandbox, the plain reading (same constructor and protocol as ``sandbox.FactoryGame``)."""

    ACTIONS = ACTION_TYPES

    def __init__(
        self,
        players: int = 1,
        variant: VariantSpec = None,
        factory: BoardSpec = None,
        supply: Sequence[str] | None = None,
        days: int = 6,
    ) -> None:
        self.variant = sandbox_variant(players, days, variant)  # the options' checks, shared with every engine
        start = _board(factory, self.variant)
        kinds = sandbox_supply(supply, self.variant)
        self.days = days
        """MC-DAY: the sandbox lasts ``days`` days, a run and a turn each."""
        self._players = 1
        self._rules = Rules(1, self.variant)
        self._start = SandboxState(start, _stock_beside(start, self.variant), kinds, 1, Phase.RUN)
        bound = sandbox_max_length(self.variant, days, len(kinds))  # Termination, one formula for every engine
        defaults = (("days", "6"), ("supply", ",".join(DEFAULT_SUPPLY)), ("factory", "starting_factory"))
        self._info = GameInfo("mechanica-factory", 1, 1, False, bound, defaults)

    @property
    def start_supply(self) -> tuple[str, ...]:
        """MC-SUPPLY: the tiles the sandbox starts with (sorted)."""
        return self._start.supply

    def state_type(self) -> type[Any]:
        return SandboxState

    def validate(self, state: SandboxState) -> list[str]:
        """The shared shape check of reachable sandbox states (:mod:`bgrules.mechanica.validate`)."""

        return sandbox_problems(self, state)

    # --- the day (MC-DAY), the end and the score (MC-SCORE) -----------------------------------------

    def initial_state(self) -> SandboxState:
        """MC-DAY: day 1 begins with the factory's run."""
        return self._begin_day(self._start)

    def _begin_day(self, state: SandboxState) -> SandboxState:
        """MC-RUN: the day's run on the board and stock the day begins with."""
        run = workday.start_run(state.factory, state.stock, self.variant)
        return self._run_on(attrs.evolve(state, phase=Phase.RUN, run=run))

    def _run_on(self, state: SandboxState) -> SandboxState:
        """MC-RUN: a finished run's board, stock, coins and counts become the sandbox's; the turn begins."""
        run = state.run
        assert run is not None
        if run.phase is not RunPhase.DONE:
            return attrs.evolve(state, phase=Phase.RUN)
        return _after(state, run)

    def is_terminal(self, state: SandboxState) -> bool:
        """Termination 1: over after the ``Fabricate`` of day ``days``."""
        return _over(state)

    def end_trigger(self, state: SandboxState) -> str | None:
        """MC-DAY ends the sandbox; None while it goes on."""
        if _over(state):
            return "MC-DAY"
        return None

    def to_move(self, state: SandboxState) -> Mover:
        """The one player (seat 0) takes every decision, the run's included, until the end."""
        if _over(state):
            return None
        return 0

    def chance_outcomes(self, state: SandboxState) -> tuple[tuple[Any, Fraction], ...]:
        """The sandbox has no chance: every run decision is the player's."""
        del state
        return ()

    def scores(self, state: SandboxState) -> tuple[int, ...]:
        """MC-SCORE: the one player's wallet + vault + installed improvements (of the live board)."""
        total = state.wallet + state.vault + installed_value(state.board, self.variant)
        return (total,)

    def winners(self, state: SandboxState) -> tuple[int, ...]:
        """The one player is the winner, whatever the score."""
        del state
        return tuple(range(self._players))

    def legal_actions(self, state: SandboxState) -> tuple[Any, ...]:
        if state.phase is Phase.OVER:
            return ()
        if state.phase is Phase.RUN:
            assert state.run is not None
            return workday.decisions(state.run, self.variant)
        return tuple(self._turn_actions(state))

    def _turn_actions(self, state: SandboxState) -> list[Turn]:
        """MC-TURN-ORDER (sandbox): sales while selling, then per supply kind (in the supply's order) its
        installations, then demolitions, then the fabrications."""
        factory, cat = state.factory, self.variant.catalogue
        out: list[Turn] = list(sells(factory)) if state.selling else []
        for key in sorted(set(state.supply)):
            zone = cat.tile(key).zone
            if zone is Zone.FLOOR:
                out += [Install(key, r, c, rot) for r, c, rot in board.placements(factory, self.variant, key)]
            elif zone is Zone.START:
                out += [
                    InstallFabricator(key, r)
                    for r in range(board.ROWS)
                    if board.start_problem(factory, self.variant, key, r) is None
                ]
            else:
                out += [
                    InstallTruck(key, r)
                    for r in range(board.ROWS)
                    if board.truck_problem(factory, self.variant, key, r) is None
                ]
        out += [Demolish(i // board.COLS, i % board.COLS) for i, p in enumerate(factory.floor) if p is not None]
        out += [DemolishFabricator(r) for r, s in enumerate(factory.start) if not cat.tile(s.kind).printed]
        return out + list(fabrications(self._rules, factory))

    def _problem(self, state: SandboxState, action: Any) -> tuple[str, str] | None:
        """The rule ``action`` breaks in this turn, or None (MC-TURN-ORDER, MC-SELL, MC-SUPPLY, MC-PLACE-*,
        MC-DEMOLISH, MC-FAB)."""
        factory = state.factory
        if isinstance(action, Sell):
            if not state.selling:
                return ("MC-TURN-ORDER", "selling is over for this turn")
            return (
                None if action in sells(factory) else ("MC-SELL", f"no {action.bot!r} on the truck of row {action.row}")
            )
        if isinstance(action, Install | InstallFabricator | InstallTruck):
            if action.kind not in state.supply:
                return ("MC-SUPPLY", f"{action.kind!r} is not in the supply")
            if isinstance(action, Install):
                return board.placement_problem(
                    factory, self.variant, action.kind, action.row, action.col, action.rotation
                )
            if isinstance(action, InstallFabricator):
                return board.start_problem(factory, self.variant, action.kind, action.row)
            return board.truck_problem(factory, self.variant, action.kind, action.row)
        if isinstance(action, Demolish):
            if board.on_floor(action.row, action.col) and factory.floor[board.cell(action.row, action.col)] is not None:
                return None
            return ("MC-DEMOLISH", f"no floor tile on ({action.row}, {action.col})")
        if isinstance(action, DemolishFabricator):
            if (
                action.row in range(board.ROWS)
                and not self.variant.catalogue.tile(factory.start[action.row].kind).printed
            ):
                return None
            return ("MC-DEMOLISH", f"no fabricator tile on Start Zone row {action.row}")
        if isinstance(action, Fabricate):
            return None if action in fabrications(self._rules, factory) else ("MC-FAB", "a malformed Fabricate")
        return ("MC-TURN-ORDER", f"{action!r} is no action of the sandbox's turn")

    def apply(self, state: SandboxState, action: Any) -> SandboxState:
        if state.phase is Phase.OVER:
            raise IllegalAction("MC-DAY", "the sandbox is over")
        if state.phase is Phase.RUN:
            assert state.run is not None
            return self._run_on(attrs.evolve(state, run=workday.decide(state.run, self.variant, action)))
        problem = self._problem(state, action)
        if problem is not None:
            raise IllegalAction(*problem)
        factory, stock, cat = state.factory, state.stock, self.variant.catalogue
        if isinstance(action, Sell):
            truck = factory.dock[action.row]
            load = list(truck.load)
            load.remove(action.bot)
            factory = board.with_truck(factory, action.row, attrs.evolve(truck, load=tuple(load)))
            return attrs.evolve(
                state, factory=factory, stock=give_bots(stock, [action.bot]), wallet=state.wallet + cat.sale(action.bot)
            )
        if isinstance(action, Install | InstallFabricator | InstallTruck):
            supply = list(state.supply)
            supply.remove(action.kind)
            keeps_selling = False
            if isinstance(action, Install):
                factory = board.install(factory, self.variant, action.kind, action.row, action.col, action.rotation)
                keeps_selling = action.kind == "fork"  # MC-TURN-ORDER: Forks and trucks are "any time"
            elif isinstance(action, InstallFabricator):
                factory, spilled = board.install_start(factory, self.variant, action.kind, action.row)
                stock = give_bots(stock, spilled)
            else:
                factory = board.install_truck(factory, self.variant, action.kind, action.row)
                keeps_selling = True
            return attrs.evolve(
                state, factory=factory, stock=stock, supply=tuple(supply), selling=state.selling and keeps_selling
            )
        if isinstance(action, Demolish | DemolishFabricator):
            if isinstance(action, Demolish):
                factory, _kind, bots = board.demolish(factory, action.row, action.col)
            else:
                factory, _kind, bots = board.demolish_start(factory, self.variant, action.row)
            return attrs.evolve(state, factory=factory, stock=give_bots(stock, bots), selling=False)
        assert isinstance(action, Fabricate)
        factory, stock = _fabricate(factory, stock, self.variant, action)
        state = attrs.evolve(state, factory=factory, stock=stock, selling=False)
        if state.day >= self.days:  # MC-DAY: the last day's Fabricate ends the sandbox
            return attrs.evolve(state, phase=Phase.OVER)
        return self._begin_day(attrs.evolve(state, day=state.day + 1))


def _board(factory: BoardSpec, variant: MechanicaVariant) -> Factory:
    """MC-BOARD: the sandbox's board: a new player's board by default (MC-SETUP-BOT), else the one given, in
    its notation or as a board, refused if it breaks MC-BOARD or the placement rules."""
    if factory is None:
        return new_board()
    if isinstance(factory, str):
        return parse_factory(factory, variant)
    if not isinstance(factory, Factory):
        raise InputError("factory", "a factory is its notation (text, docs/mechanica-notation.md) or a factory board")
    problems = board.board_problems(factory, variant)
    if problems:
        raise InputError("factory", problems[0])
    return factory


def _stock_beside(factory: Factory, variant: MechanicaVariant) -> tuple[int, int, int]:
    """MC-STOCK: ``bots_per_grade`` of each grade less the bots on the board; a board holding more is refused."""
    left = [variant.rulings.bots_per_grade] * 3
    for bot in _bots(factory):
        left[bot] -= 1
    if min(left) < 0:
        raise InputError("factory", "the factory holds more bots of a grade than the stock has")
    return (left[0], left[1], left[2])


def _over(state: SandboxState) -> bool:
    """Termination 1: the last day's ``Fabricate`` ends the sandbox (phase ``OVER``)."""
    return state.phase is Phase.OVER


def _bots(factory: Factory) -> list[Bot]:
    out: list[Bot] = []
    for p in factory.floor:
        if p is not None:
            out += [*p.inputs, *(b for b in p.outputs if b is not None)]
    out += [b for s in factory.start for b in s.holes if b is not None]
    return out + [b for t in factory.dock for b in t.load]


def _after(state: SandboxState, run: Run) -> SandboxState:
    """MC-RUN, the sandbox's bookkeeping (Engine conventions): the finished run's board and stock become the
    sandbox's, its coins go into the wallet and the vault, its collisions and destroyed bots are added up;
    the day's turn begins with selling (MC-TURN-ORDER)."""
    coins: dict[str, Any] = {"wallet": state.wallet + run.wallet, "vault": state.vault + run.vault}
    counts: dict[str, Any] = {
        "collisions": state.collisions + run.collisions,
        "destroyed": state.destroyed + run.destroyed,
    }
    turn: dict[str, Any] = {"run": None, "phase": Phase.TURN, "selling": True}
    return attrs.evolve(state, factory=run.factory, stock=run.stock, **coins, **counts, **turn)


def _fabricate(
    factory: Factory, stock: tuple[int, int, int], variant: MechanicaVariant, action: Fabricate
) -> tuple[Factory, tuple[int, int, int]]:
    """MC-FAB, MC-FAB-REPLACE, MC-FAB-OVERACTIVE with no gifts (no other player)."""
    factory, stock, _overactive = make_bots(factory, stock, variant, action)
    return factory, stock
