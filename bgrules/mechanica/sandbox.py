"""The factory sandbox, ``bgrules.load_game("mechanica-factory", players=1)``.

From a given factory, one player runs a workday, then takes a turn in the seed's order: (1) sell bots
on trucks, (2) install improvements from a given supply (or demolish), (3) fabricate with every
fabricator, which ends the day. After ``days`` days the game is over; the score is wallet + vault +
the values of the installed improvements. There is no chance: every run decision is the player's.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import attrs

from bgrules.core import coverage
from bgrules.core.codec import ActionGuard
from bgrules.core.errors import IllegalAction, InputError
from bgrules.core.memo import Memos
from bgrules.core.protocol import GameBase, GameInfo, Mover
from bgrules.mechanica.components import Zone
from bgrules.mechanica.fabricate import Fabricate as Fabricate
from bgrules.mechanica.fabricate import Sell as Sell
from bgrules.mechanica.fabricate import fabricate, fabricate_options, sell, sell_options
from bgrules.mechanica.factory import (
    COLS,
    ROWS,
    Factory,
    check_install_start,
    check_install_truck,
    demolish,
    demolish_start,
    factory_problems,
    install,
    install_start,
    install_truck,
    installed_value,
    legal_placements,
    restock,
    starting_factory,
)
from bgrules.mechanica.notation import parse_factory
from bgrules.mechanica.run import (
    RUN_DECISION_TYPES,
    Change,
    ChooseOutput,
    Discard,
    Fly,
    Route,
    Run,
    RunDecision,
    RunPhase,
    _stock,
)
from bgrules.mechanica.validate import sandbox_problems
from bgrules.mechanica.variant import (
    DEFAULT_SUPPLY,
    MechanicaVariant,
    sandbox_max_length,
    sandbox_supply,
    sandbox_variant,
)
from bgrules.mechanica.workday import decide, decisions, start_run

GAME_NAME = "mechanica-factory"


class Phase(enum.Enum):
    RUN = "run"
    TURN = "turn"
    OVER = "over"

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


@attrs.frozen
class Install:
    """MC-PLACE: install an improvement or Fork ``kind`` from the supply at (row, col), turned ``rotation``."""

    kind: str
    row: int
    col: int
    rotation: int


@attrs.frozen
class InstallFabricator:
    """MC-PLACE-START: lay a fabricator tile ``kind`` from the supply on Start Zone row ``row``."""

    kind: str
    row: int


@attrs.frozen
class InstallTruck:
    """MC-PLACE-TRUCK: put a larger truck ``kind`` from the supply on Loading Dock row ``row``."""

    kind: str
    row: int


@attrs.frozen
class Demolish:
    """MC-DEMOLISH: remove the improvement at (row, col); its bots are destroyed."""

    row: int
    col: int


@attrs.frozen
class DemolishFabricator:
    """MC-DEMOLISH: remove the fabricator tile on Start Zone row ``row``; its bots are destroyed."""

    row: int


TurnAction = Sell | Install | InstallFabricator | InstallTruck | Demolish | DemolishFabricator | Fabricate
ACTION_TYPES: tuple[type, ...] = (
    *RUN_DECISION_TYPES,
    Sell,
    Install,
    InstallFabricator,
    InstallTruck,
    Demolish,
    DemolishFabricator,
    Fabricate,
)


def _sorted_strs(value: Any) -> tuple[str, ...]:
    return tuple(sorted(str(v) for v in value))


@attrs.frozen(cache_hash=True)
class SandboxState:
    """A sandbox position. While a run is under way (``phase`` RUN) the live board is ``run.factory``."""

    factory: Factory
    stock: tuple[int, int, int] = attrs.field(converter=_stock)
    supply: tuple[str, ...] = attrs.field(converter=_sorted_strs)
    day: int
    phase: Phase
    wallet: int = 0
    vault: int = 0
    selling: bool = True
    """True until the player does anything but sell this turn (MC-TURN-ORDER)."""
    run: Run | None = None
    collisions: int = 0
    """Collisions met in all finished runs (MC-COLLIDE), for questions such as "can bots collide?"."""
    destroyed: int = 0
    """Bots destroyed in all finished runs."""

    @property
    def board(self) -> Factory:
        return self.run.factory if self.run is not None else self.factory

    @property
    def live_stock(self) -> tuple[int, int, int]:
        return self.run.stock if self.run is not None else self.stock


class FactoryGame(GameBase):
    """The factory sandbox through the Game protocol (one player, no chance)."""

    ACTIONS = ACTION_TYPES

    def __init__(
        self,
        players: int = 1,
        variant: MechanicaVariant | str | None = None,
        factory: Factory | str | None = None,
        supply: Sequence[str] | None = None,
        days: int = 6,
    ) -> None:
        self.variant = sandbox_variant(players, days, variant)
        self.memos = Memos()
        """The game's memos (``bgrules.core.memo``): the catalogue's, emptied by ``memos.clear()``."""
        self.memos.join(self.variant.catalogue.memos)
        if factory is None:
            board = starting_factory()
        elif isinstance(factory, str):
            board = parse_factory(factory, self.variant)
        elif not isinstance(factory, Factory):
            raise InputError(
                "factory", "a factory is its notation (text, docs/mechanica-notation.md) or a factory board"
            )
        else:
            problems = factory_problems(factory, self.variant)
            if problems:
                raise InputError("factory", problems[0])
            board = factory
        supply_t = sandbox_supply(supply, self.variant)
        counts = board.bot_counts()
        stock = tuple(self.variant.rulings.bots_per_grade - n for n in counts)
        if min(stock) < 0:
            raise InputError("factory", "the factory holds more bots of a grade than the stock has")
        self._start = SandboxState(board, stock, supply_t, 1, Phase.RUN)
        self.days = days
        self._players = players
        self._guard = ActionGuard(ACTION_TYPES, "MC-TURN-ORDER")
        bound = self._max_length(len(supply_t))
        self._info = GameInfo(
            name=GAME_NAME,
            min_players=1,
            max_players=1,
            has_chance=False,
            max_length=bound,
            parameters=(("days", "6"), ("supply", ",".join(DEFAULT_SUPPLY)), ("factory", "starting_factory")),
        )

    def _max_length(self, supply: int) -> int:
        """The bound on a sandbox's actions (``variant.sandbox_max_length``, shared by every engine)."""
        return sandbox_max_length(self.variant, self.days, supply)

    def state_type(self) -> type[SandboxState]:
        return SandboxState

    @property
    def start_supply(self) -> tuple[str, ...]:
        """The supply the sandbox starts with (sorted); a state's supply is never more than it."""
        return self._start.supply

    def validate(self, state: SandboxState) -> list[str]:
        """Every way ``state`` breaks the shape of this sandbox's reachable states ("<field path>: <reason>";
        empty = the engine can play on it): MC-BOARD, MC-STOCK, MC-SUPPLY, MC-DAY (:mod:`bgrules.mechanica.validate`,
        docs/validation.md)."""

        return sandbox_problems(self, state)

    def initial_state(self) -> SandboxState:
        return self._begin_day(self._start)

    def _begin_day(self, state: SandboxState) -> SandboxState:
        coverage.effect("MC-DAY")
        run = start_run(state.factory, state.stock, self.variant)
        return self._after_run_step(attrs.evolve(state, phase=Phase.RUN, run=run))

    def _after_run_step(self, state: SandboxState) -> SandboxState:
        run = state.run
        assert run is not None
        if run.phase is not RunPhase.DONE:
            return state
        return attrs.evolve(
            state,
            factory=run.factory,
            stock=run.stock,
            wallet=state.wallet + run.wallet,
            vault=state.vault + run.vault,
            phase=Phase.TURN,
            selling=True,
            run=None,
            collisions=state.collisions + run.collisions,
            destroyed=state.destroyed + run.destroyed,
        )

    def to_move(self, state: SandboxState) -> Mover:
        return None if state.phase is Phase.OVER else 0

    def chance_outcomes(self, state: SandboxState) -> tuple[tuple[Any, Fraction], ...]:
        return ()

    def is_terminal(self, state: SandboxState) -> bool:
        return state.phase is Phase.OVER

    def end_trigger(self, state: SandboxState) -> str | None:
        """MC-DAY: the sandbox ends after its ``days`` days; None while it goes on."""
        return "MC-DAY" if state.phase is Phase.OVER else None

    def scores(self, state: SandboxState) -> tuple[int, ...]:
        """MC-SCORE: wallet + vault + the values of the installed improvements."""
        coverage.effect("MC-SCORE")
        return (state.wallet + state.vault + installed_value(state.board, self.variant.catalogue),)

    def winners(self, state: SandboxState) -> tuple[int, ...]:
        return (0,)

    # --- legal actions ------------------------------------------------------------------------------

    def _legal_actions(self, state: SandboxState) -> tuple[Any, ...]:
        if state.phase is Phase.RUN:
            assert state.run is not None
            return decisions(state.run, self.variant)
        if state.phase is Phase.OVER:
            return ()
        return tuple(self._turn_actions(state))

    def _turn_actions(self, state: SandboxState) -> list[TurnAction]:
        cat = self.variant.catalogue
        board = state.factory
        out: list[TurnAction] = []
        if state.selling:
            out.extend(sell_options(board))
        for key in sorted(set(state.supply)):
            kind = cat.tiles[key]
            if kind.zone is Zone.FLOOR:
                out.extend(Install(key, r, c, rot) for r, c, rot in legal_placements(board, self.variant, key))
            elif kind.zone is Zone.START:
                out.extend(
                    InstallFabricator(key, r) for r in range(ROWS) if self._ok(check_install_start, board, key, r)
                )
            else:
                out.extend(InstallTruck(key, r) for r in range(ROWS) if self._ok(check_install_truck, board, key, r))
        out.extend(Demolish(i // COLS, i % COLS) for i, p in enumerate(board.floor) if p is not None)
        out.extend(DemolishFabricator(r) for r, s in enumerate(board.start) if not cat.tile(s.kind).printed)
        out.extend(fabricate_options(board, self.variant))
        return out

    def _ok(
        self, check: Callable[[Factory, MechanicaVariant, str, int], None], board: Factory, key: str, row: int
    ) -> bool:
        try:
            check(board, self.variant, key, row)
        except IllegalAction as exc:
            coverage.withdraw(exc)  # a probe of the options, not a refused action
            return False
        return True

    # --- apply --------------------------------------------------------------------------------------

    def apply(self, state: SandboxState, action: Any) -> SandboxState:
        """One run decision or turn action; an action whose fields are not of their declared kinds (a text
        or ``true`` for a row) is refused with IllegalAction naming the action's rule, as is one the rules
        cannot read here; the state never changes."""
        return self._guard.apply(self, state, action, self._apply)

    def _apply(self, state: SandboxState, action: Any) -> SandboxState:
        if state.phase is Phase.OVER:
            raise IllegalAction("MC-DAY", "the sandbox is over; no action is legal")
        if state.phase is Phase.RUN:
            if not isinstance(action, Route | Fly | Discard | Change | ChooseOutput):
                raise IllegalAction(
                    "MC-RUN", f"{action!r}: the workday run is under way; decide {self.legal_actions(state)[:3]!r}..."
                )
            assert state.run is not None
            run_action: RunDecision = action
            return self._after_run_step(attrs.evolve(state, run=decide(state.run, self.variant, run_action)))
        if isinstance(action, Sell):
            return self._sell(state, action)
        if isinstance(action, Install | InstallFabricator | InstallTruck):
            return self._install(state, action)
        if isinstance(action, Demolish | DemolishFabricator):
            return self._demolish(state, action)
        if isinstance(action, Fabricate):
            return self._fabricate(state, action)
        raise IllegalAction("MC-TURN-ORDER", f"{action!r} is not a turn action")

    def _sell(self, state: SandboxState, action: Sell) -> SandboxState:
        if not state.selling:
            raise IllegalAction("MC-TURN-ORDER", "bots are sold first in a turn, before installing or fabricating")
        factory, stock, coins = sell(state.factory, state.stock, self.variant, action)
        return attrs.evolve(state, factory=factory, stock=stock, wallet=state.wallet + coins)

    def _take_supply(self, state: SandboxState, key: str) -> tuple[str, ...]:
        if key not in state.supply:
            raise IllegalAction("MC-SUPPLY", f"{key!r} is not in the supply ({', '.join(state.supply) or 'empty'})")
        coverage.effect("MC-SUPPLY")
        supply = list(state.supply)
        supply.remove(key)
        return tuple(supply)

    def _install(self, state: SandboxState, action: Install | InstallFabricator | InstallTruck) -> SandboxState:
        supply = self._take_supply(state, action.kind)
        stock = state.stock
        if isinstance(action, Install):
            factory = install(state.factory, self.variant, action.kind, action.row, action.col, action.rotation)
        elif isinstance(action, InstallFabricator):
            factory, spilled = install_start(state.factory, self.variant, action.kind, action.row)
            stock = restock(stock, spilled)
        else:
            factory = install_truck(state.factory, self.variant, action.kind, action.row)
        # MC-TURN-ORDER: Forks and trucks may be bought at any time in the turn, so they leave selling open
        anytime = isinstance(action, InstallTruck) or self.variant.catalogue.tiles[action.kind].price is not None
        selling = state.selling and anytime
        return attrs.evolve(state, factory=factory, supply=supply, stock=stock, selling=selling)

    def _demolish(self, state: SandboxState, action: Demolish | DemolishFabricator) -> SandboxState:
        if isinstance(action, Demolish):
            factory, _kind, destroyed = demolish(state.factory, action.row, action.col)
        else:
            factory, _kind, destroyed = demolish_start(state.factory, self.variant, action.row)
        return attrs.evolve(state, factory=factory, stock=restock(state.stock, destroyed), selling=False)

    def _fabricate(self, state: SandboxState, action: Fabricate) -> SandboxState:
        factory, stock, _made = fabricate(state.factory, state.stock, self.variant, action)
        state = attrs.evolve(state, factory=factory, stock=stock, selling=False)
        if state.day >= self.days:
            return attrs.evolve(state, phase=Phase.OVER)
        return self._begin_day(attrs.evolve(state, day=state.day + 1))
