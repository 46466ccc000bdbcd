"""The reference factory sandbox (``mechanica-factory``): from a given factory and supply, one player
runs a workday, then sells (MC-SELL), installs from the supply (MC-SUPPLY) or demolishes (MC-DEMOLISH),
and fabricates (MC-FAB), which ends the day (MC-DAY); the score is MC-SCORE. Written from
docs/rules/mechanica.md; the conventions are its "Engine conventions"."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import attrs

from bgrules.core.codec import show
from bgrules.core.errors import IllegalAction, InputError
from bgrules.core.protocol import GameInfo, Mover
from bgrules.mechanica.board import Factory
from bgrules.mechanica.components import Bot, Zone
from bgrules.mechanica.fabricate import Fabricate, Sell
from bgrules.mechanica.notation import parse_factory
from bgrules.mechanica.reference import factory as board
from bgrules.mechanica.reference import workday
from bgrules.mechanica.reference.ending import installed_value
from bgrules.mechanica.reference.rules import Rules, give_bots
from bgrules.mechanica.reference.setup import new_board
from bgrules.mechanica.reference.turn import fabrications, fabricator_rows, sells
from bgrules.mechanica.sandbox import (
    ACTION_TYPES,
    DEFAULT_SUPPLY,
    Demolish,
    DemolishFabricator,
    Install,
    InstallFabricator,
    InstallTruck,
    Phase,
    SandboxState,
)
from bgrules.mechanica.variant import MechanicaVariant, load_variant
from bgrules.mechanica.workday import Run, RunPhase

Turn = Sell | Install | InstallFabricator | InstallTruck | Demolish | DemolishFabricator | Fabricate


class ReferenceFactoryGame:
    """The sandbox, the plain reading (same constructor and protocol as ``sandbox.FactoryGame``)."""

    def __init__(
        self,
        players: int = 1,
        variant: MechanicaVariant | str | None = None,
        factory: Factory | str | None = None,
        supply: Sequence[str] | None = None,
        days: int = 6,
    ) -> None:
        if type(players) is not int or players != 1:
            raise InputError("players", f"mechanica-factory is played by exactly 1 player, not {show(players)}")
        if type(days) is not int or not 1 <= days <= 1000:
            raise InputError("days", f"days must be a whole number from 1 to 1000, not {show(days)}")
        self.variant = load_variant(variant)
        if factory is None:
            start = new_board()
        elif isinstance(factory, str):
            start = parse_factory(factory, self.variant)
        elif isinstance(factory, Factory):
            problems = board.board_problems(factory, self.variant)
            if problems:
                raise InputError("factory", problems[0])
            start = factory
        else:
            raise InputError("factory", "a factory is its notation (text) or a factory board")
        if supply is not None and (isinstance(supply, str | bytes) or not isinstance(supply, Sequence)):
            raise InputError("supply", "the supply is a list of tile kinds, e.g. ['upgrader', 'fork']")
        kinds = tuple(DEFAULT_SUPPLY if supply is None else supply)
        for key in kinds:
            tile = self.variant.catalogue.tiles.get(key) if isinstance(key, str) else None
            if tile is None or tile.printed:
                raise InputError("supply", f"{show(key)} is not an installable tile kind")
        on_board = [0, 0, 0]
        for b in _bots(start):
            on_board[b] += 1
        per = self.variant.rulings.bots_per_grade
        stock = (per - on_board[0], per - on_board[1], per - on_board[2])
        if min(stock) < 0:
            raise InputError("factory", "the factory holds more bots of a grade than the stock has")
        self.days = days
        self._players = 1
        self._rules = Rules(1, self.variant)
        self._start = SandboxState(start, stock, kinds, 1, Phase.RUN)
        bots = 3 * per
        per_run = bots * 60 + bots + 12
        per_turn = 9 + 2 * len(kinds) + 6 + 1
        self._info = GameInfo(
            name="mechanica-factory",
            min_players=1,
            max_players=1,
            has_chance=False,
            max_length=days * (per_run + per_turn),
            parameters=(("days", "6"), ("supply", ",".join(DEFAULT_SUPPLY)), ("factory", "starting_factory")),
        )

    @property
    def info(self) -> GameInfo:
        return self._info

    @property
    def players(self) -> int:
        return self._players

    @property
    def start_supply(self) -> tuple[str, ...]:
        return self._start.supply

    def state_type(self) -> type[Any]:
        return SandboxState

    def action_types(self) -> Sequence[type[Any]]:
        return ACTION_TYPES

    def validate(self, state: SandboxState) -> list[str]:
        from bgrules.mechanica.validate import sandbox_problems

        return sandbox_problems(self, state)

    def initial_state(self) -> SandboxState:
        return self._run_on(
            attrs.evolve(self._start, run=workday.start_run(self._start.factory, self._start.stock, self.variant))
        )

    def _run_on(self, state: SandboxState) -> SandboxState:
        """MC-RUN: a finished run's board, stock, coins and counts become the sandbox's; the turn begins."""
        run = state.run
        assert run is not None
        if run.phase is not RunPhase.DONE:
            return attrs.evolve(state, phase=Phase.RUN)
        return _after(state, run)

    def to_move(self, state: SandboxState) -> Mover:
        return None if state.phase is Phase.OVER else 0

    def chance_outcomes(self, state: SandboxState) -> tuple[tuple[Any, Fraction], ...]:
        return ()

    def is_terminal(self, state: SandboxState) -> bool:
        return state.phase is Phase.OVER

    def end_trigger(self, state: SandboxState) -> str | None:
        return "MC-DAY" if state.phase is Phase.OVER else None

    def scores(self, state: SandboxState) -> tuple[int, ...]:
        """MC-SCORE: wallet + vault + installed improvements."""
        return (state.wallet + state.vault + installed_value(state.board, self.variant),)

    def winners(self, state: SandboxState) -> tuple[int, ...]:
        return (0,)

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
        state = attrs.evolve(state, day=state.day + 1, phase=Phase.RUN)
        return self._run_on(attrs.evolve(state, run=workday.start_run(factory, stock, self.variant)))


def _bots(factory: Factory) -> list[Bot]:
    out: list[Bot] = []
    for p in factory.floor:
        if p is not None:
            out += [*p.inputs, *(b for b in p.outputs if b is not None)]
    out += [b for s in factory.start for b in s.holes if b is not None]
    return out + [b for t in factory.dock for b in t.load]


def _after(state: SandboxState, run: Run) -> SandboxState:
    return attrs.evolve(
        state,
        factory=run.factory,
        stock=run.stock,
        wallet=state.wallet + run.wallet,
        vault=state.vault + run.vault,
        collisions=state.collisions + run.collisions,
        destroyed=state.destroyed + run.destroyed,
        run=None,
        phase=Phase.TURN,
        selling=True,
    )


def _fabricate(
    factory: Factory, stock: tuple[int, int, int], variant: MechanicaVariant, action: Fabricate
) -> tuple[Factory, tuple[int, int, int]]:
    """MC-FAB, MC-FAB-REPLACE, MC-FAB-OVERACTIVE (no gifts: no other player)."""
    declared = list(action.declare)
    for r, makes in fabricator_rows(factory, variant):
        bot = declared.pop(0) if makes == "any" else Bot[makes.upper()]
        holes = list(factory.start[r].holes)
        if holes[0] is not None:
            if r not in action.replace:
                continue
            stock = give_bots(stock, [holes[0]])
            holes[0] = None
        stock, made = workday.take(stock, bot)
        if made:
            holes[0] = bot
        factory = board.with_start(factory, r, attrs.evolve(factory.start[r], holes=tuple(holes)))
    return factory, stock
