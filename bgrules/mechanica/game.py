"""The whole game of Mechanica for 2 to 4 players, ``bgrules.load_game("mechanica", players=n)``.

A day (seed section A then B): every factory runs (seat order, each owner deciding in their own run),
then each player in turn (1) sells bots on trucks, (2) buys improvements from the Shop and installs or
recycles each, (3) fabricates, (4) turns the Shop one slot, recycles what falls into the Recycler and
draws onto price 7 (with 2-3 players, the double rotation and an extra). At any time in their turn a
player may buy a Fork or a truck, complete a Blueprint, or demolish. At the day's end turned
Blueprints go under their piles; the game ends when the deck and the Shop are empty.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

from bgrules.core.errors import IllegalAction, InputError
from bgrules.core.fastevolve import evolve
from bgrules.core.protocol import CHANCE, GameBase, GameInfo, Mover
from bgrules.mechanica.components import Bot, Zone
from bgrules.mechanica.fabricate import (
    Fabricate,
    Sell,
    fabricate,
    fabricate_options,
    put_in_start_hole,
    sell,
    sell_options,
)
from bgrules.mechanica.factory import (
    COLS,
    ROWS,
    Factory,
    Truck,
    check_install,
    check_install_start,
    check_install_truck,
    demolish,
    demolish_start,
    install,
    install_start,
    install_truck,
    installed_value,
    legal_placements,
    restock,
    starting_factory,
)
from bgrules.mechanica.sandbox import Demolish, DemolishFabricator
from bgrules.mechanica.state import (
    Buy,
    BuyFork,
    BuyTruck,
    Complete,
    Decline,
    Draw,
    Gift,
    MechanicaState,
    Next,
    Phase,
    Place,
    PlaceFabricator,
    Recycle,
    Reveal,
    Seat,
)
from bgrules.mechanica.variant import MechanicaVariant, load_variant
from bgrules.mechanica.workday import (
    RUN_DECISION_TYPES,
    Change,
    ChooseOutput,
    Discard,
    Fly,
    Route,
    RunPhase,
    decide,
    decisions,
    start_run,
)

GAME_NAME = "mechanica"
TURN_PHASES = (Phase.SELL, Phase.BUY, Phase.FABRICATE)
CHANCE_PHASES = (Phase.SETUP_EXTRAS, Phase.SETUP_DEAL, Phase.DRAW, Phase.EXTRA, Phase.REVEAL)
ACTION_TYPES: tuple[type, ...] = (
    *RUN_DECISION_TYPES,
    Sell,
    Next,
    Buy,
    Place,
    PlaceFabricator,
    Recycle,
    BuyFork,
    BuyTruck,
    Complete,
    Demolish,
    DemolishFabricator,
    Fabricate,
    Gift,
    Decline,
    Draw,
    Reveal,
)
PILES = 2
_TRUCK_ACTIONS = {(k, r): BuyTruck(k, r) for k in ("big_truck", "huge_truck") for r in range(ROWS)}
_DEMOLISH_ACTIONS = tuple(Demolish(i // COLS, i % COLS) for i in range(ROWS * COLS))
_DEMOLISH_START_ACTIONS = tuple(DemolishFabricator(r) for r in range(ROWS))
_NEXT = Next()
_FORK_ACTIONS = {(r, c, rot): BuyFork(r, c, rot) for r in range(ROWS) for c in range(COLS) for rot in range(4)}


def _set(t: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*t[:i], value, *t[i + 1 :])


def _add(counts: tuple[int, ...], i: int, n: int) -> tuple[int, ...]:
    return (*counts[:i], counts[i] + n, *counts[i + 1 :])


class MechanicaGame(GameBase):
    """Mechanica for 2-4 players through the Game protocol."""

    ACTIONS = ACTION_TYPES

    def __init__(self, players: int = 4, variant: MechanicaVariant | str | None = None) -> None:
        if not isinstance(players, int) or not 2 <= players <= 4:
            raise InputError("players", f"{GAME_NAME} is for 2 to 4 players, not {players!r}")
        self.variant = load_variant(variant)
        self._players = players
        data = self.variant.game
        cat = self.variant.catalogue
        self.kinds: tuple[str, ...] = data.improvements
        self.kind_index = {k: i for i, k in enumerate(self.kinds)}
        self.copies = tuple(cat.tiles[k].copies for k in self.kinds)
        self.total_tiles = sum(self.copies)
        self.prices = data.prices
        self.cards = {b.id: b for b in data.blueprints}
        rulings = self.variant.rulings
        uses_extras = players in (2, 3) or rulings.extras_4p == "unused"
        self.extras_target = min(data.extras, self.total_tiles) if uses_extras else 0
        self.double_rotation = players in (2, 3)
        if min(self.variant.rulings.bots_per_grade - players * n for n in starting_factory().bot_counts()) < 0:
            raise InputError(
                "variant", f"bots_per_grade {self.variant.rulings.bots_per_grade} is too small for {players} players"
            )
        self._board_memo: dict[
            tuple[object, ...],
            tuple[tuple[BuyFork, ...], tuple[tuple[BuyTruck, int], ...], tuple[Demolish | DemolishFabricator, ...]],
        ] = {}
        self._truck_prices = self._price_table()
        self._buys = tuple(Buy(i) for i in range(len(self.prices)))
        self._draw_actions = {k: Draw(k) for k in self.kinds}
        self._complete_memo: dict[tuple[object, ...], tuple[Complete, ...]] = {}
        self._draw_memo: dict[tuple[int, ...], tuple[tuple[Any, Fraction], ...]] = {}
        self._reveal_memo: dict[tuple[int, ...], tuple[tuple[Any, Fraction], ...]] = {}
        fork = self.variant.catalogue.tiles.get("fork")
        self.fork_price = fork.price if fork is not None and fork.price is not None else 1_000_000
        self._info = GameInfo(
            name=GAME_NAME,
            min_players=2,
            max_players=4,
            has_chance=True,
            max_length=self._max_length(),
            parameters=(("players", "4"),),
        )

    # --- protocol -----------------------------------------------------------------------------------

    def state_type(self) -> type[MechanicaState]:
        return MechanicaState

    def _max_length(self) -> int:
        """MC-END-BOUND: every turn with a tile on the Shop turns some tile one slot nearer the Recycler, so
        turns <= tiles x slots + players. Per turn: sales, buys with placements, truck buys, Blueprints,
        demolitions, a Fork per coin the player can ever hold, fabricating, gifts, recycling, 3 Nexts; per
        run: a decision per bot per node, per collision and per activation."""
        n = self._players
        slots = len(self.prices)
        turns = (self.total_tiles + self.variant.game.extras) * slots + n
        bots = 3 * self.variant.rulings.bots_per_grade
        per_run = bots * (ROWS * COLS * 5 + 1) + ROWS * COLS
        money_cap = sum(self.variant.game.money) + turns * (bots * 6 + bots * ROWS * COLS * 5)
        per_turn = 9 + 2 * slots + 6 + 2 * len(self.cards) + 15 + 3 * (n - 1) + 2 + 3
        days = turns // n + 2
        return turns * per_turn + money_cap * 2 + days * n * per_run

    def initial_state(self) -> MechanicaState:
        data = self.variant.game
        factory = starting_factory()
        seats = tuple(Seat(factory, sum(data.money)) for _ in range(self._players))
        per = self.variant.rulings.bots_per_grade
        placed = factory.bot_counts()
        stock = (per - self._players * placed[0], per - self._players * placed[1], per - self._players * placed[2])

        n_cards = len(data.blueprints)
        state = MechanicaState(
            seats=seats,
            stock=stock,
            deck=self.copies,
            extras=(0,) * len(self.kinds),
            wheel=(None,) * len(self.prices),
            recycler=(0,) * len(self.kinds),
            bp_pool=tuple(sorted(self.cards)),
            bp_hidden=((n_cards + 1) // 2, n_cards // 2),
            bp_bottom=((), ()),
            bp_top=(None, None),
            bp_turned=(False, False),
            day=1,
            phase=Phase.SETUP_EXTRAS,
        )
        return self._settle(state)

    def to_move(self, state: MechanicaState) -> Mover:
        phase = state.phase
        if phase is Phase.OVER:
            return None
        if phase in CHANCE_PHASES:
            return CHANCE
        if phase is Phase.GIFT:
            return state.gifts[0][0]
        return state.current

    def is_terminal(self, state: MechanicaState) -> bool:
        return state.phase is Phase.OVER

    def scores(self, state: MechanicaState) -> tuple[int, ...]:
        """MC-SCORE: wallet + vault + the values of installed improvements."""
        cat = self.variant.catalogue
        return tuple(seat.wallet + seat.vault + installed_value(seat.factory, cat) for seat in state.seats)

    def winners(self, state: MechanicaState) -> tuple[int, ...]:
        """MC-END-TIE: the highest score wins; ties shared, or broken by money in hand (variant)."""
        scores = self.scores(state)
        best = max(scores)
        tied = [i for i, s in enumerate(scores) if s == best]
        if self.variant.rulings.tie_break == "wallet" and len(tied) > 1:
            most = max(state.seats[i].wallet for i in tied)
            tied = [i for i in tied if state.seats[i].wallet == most]
        return tuple(tied)

    # --- chance -------------------------------------------------------------------------------------

    def chance_outcomes(self, state: MechanicaState) -> tuple[tuple[Any, Fraction], ...]:
        phase = state.phase
        if phase in (Phase.SETUP_EXTRAS, Phase.SETUP_DEAL, Phase.DRAW):
            return self._draws(state.deck)
        if phase is Phase.EXTRA:
            return self._draws(state.extras)
        if phase is Phase.REVEAL:
            found = self._reveal_memo.get(state.bp_pool)
            if found is None:
                n = len(state.bp_pool)
                found = self._reveal_memo[state.bp_pool] = tuple((Reveal(c), Fraction(1, n)) for c in state.bp_pool)
            return found
        return ()

    def _draws(self, counts: tuple[int, ...]) -> tuple[tuple[Any, Fraction], ...]:
        """Each kind left, with probability (copies left) / (tiles left) (memoised per count vector)."""
        found = self._draw_memo.get(counts)
        if found is None:
            total = sum(counts)
            found = tuple(
                (self._draw_actions[k], Fraction(n, total)) for k, n in zip(self.kinds, counts, strict=True) if n
            )
            self._draw_memo[counts] = found
        return found

    # --- legal actions ------------------------------------------------------------------------------

    def _legal_actions(self, state: MechanicaState) -> tuple[Any, ...]:
        phase = state.phase
        if phase in CHANCE_PHASES:
            return tuple(a for a, _p in self.chance_outcomes(state))
        if phase is Phase.OVER:
            return ()
        if phase is Phase.RUN:
            assert state.run is not None
            return decisions(state.run, self.variant)
        seat = state.seats[state.gifts[0][0] if phase is Phase.GIFT else state.current]
        if phase is Phase.PLACE:
            return tuple(self._place_options(state, seat.factory))
        if phase is Phase.RECYCLE:
            return tuple(self._recycle_options(seat.factory))
        if phase is Phase.GIFT:
            _player, declared = state.gifts[0]
            return (
                *(Gift(b, r, h) for b in Bot if b < declared for r, h in self._holes(seat.factory)),
                Decline(),
            )
        if phase is Phase.SELL:
            first: tuple[Any, ...] = (*sell_options(seat.factory), _NEXT)
        elif phase is Phase.BUY:
            wallet, prices = seat.wallet, self.prices
            buys = (self._buys[i] for i, kind in enumerate(state.wheel) if kind is not None and wallet >= prices[i])
            first = (*buys, _NEXT)
        else:
            first = tuple(fabricate_options(seat.factory, self.variant))
        return first + self._anytime_options(state, seat)

    @staticmethod
    def _holes(factory: Factory) -> list[tuple[int, int]]:
        return [(r, h) for r, slot in enumerate(factory.start) for h in range(len(slot.holes))]

    def _recycle_options(self, factory: Factory) -> list[Recycle]:
        return [Recycle(r, h) for r, h in self._holes(factory)]

    def _place_options(self, state: MechanicaState, factory: Factory) -> list[Any]:
        kind = self.variant.catalogue.tile(state.pending or "")
        out: list[Any] = []
        if kind.zone is Zone.FLOOR:
            out.extend(Place(r, c, rot) for r, c, rot in legal_placements(factory, self.variant, kind.key))
        else:
            out.extend(PlaceFabricator(r) for r in range(ROWS) if self._ok_start(factory, kind.key, r))
        out.extend(self._recycle_options(factory))
        return out

    def _ok_start(self, factory: Factory, key: str, row: int) -> bool:
        try:
            check_install_start(factory, self.variant, key, row)
        except IllegalAction:
            return False
        return True

    def _price_table(self) -> dict[tuple[str, str], int]:
        """(truck on the row, truck bought) -> price, for every allowed purchase (MC-TRUCK-BUY)."""
        cat = self.variant.catalogue
        table: dict[tuple[str, str], int] = {}
        for current in cat.of_zone(Zone.DOCK):
            for bought in cat.of_zone(Zone.DOCK):
                probe = starting_factory().with_truck(0, Truck(current.key))
                price = self._truck_price(probe, bought.key, 0)
                if price is not None:
                    table[(current.key, bought.key)] = price
        return table

    def _truck_price(self, factory: Factory, key: str, row: int) -> int | None:
        """MC-TRUCK-BUY: the price of putting truck ``key`` on ``row``, or None if that is not allowed."""
        try:
            check_install_truck(factory, self.variant, key, row)
        except IllegalAction:
            return None
        kind = self.variant.catalogue.tiles[key]
        if kind.upgrade_from is not None and factory.dock[row].kind == kind.upgrade_from:
            return kind.upgrade_price
        return kind.price

    def _anytime_options(self, state: MechanicaState, seat: Seat) -> tuple[Any, ...]:
        """MC-ANYTIME: Fork and truck buys, Blueprints and demolitions, at any time in one's own turn."""
        forks, trucks, demolitions = self._board_options(seat.factory)
        wallet = seat.wallet
        affordable = tuple(action for action, price in trucks if wallet >= price) if trucks else ()
        return (
            (forks if wallet >= self.fork_price else ())
            + affordable
            + self._complete_options(state, seat)
            + demolitions
        )

    def _board_options(
        self, factory: Factory
    ) -> tuple[tuple[BuyFork, ...], tuple[tuple[BuyTruck, int], ...], tuple[Demolish | DemolishFabricator, ...]]:
        """The anytime actions a board allows before money is considered (memoised per board)."""
        found = self._board_memo.get(factory.layout)
        if found is not None:
            return found
        cat = self.variant.catalogue
        forks: tuple[BuyFork, ...] = ()
        if "fork" in cat.tiles and cat.tiles["fork"].price is not None:
            forks = tuple(map(_FORK_ACTIONS.__getitem__, legal_placements(factory, self.variant, "fork")))
        trucks = []
        for key in ("big_truck", "huge_truck"):
            if key in cat.tiles:
                for r in range(ROWS):
                    price = self._truck_prices.get((factory.dock[r].kind, key))
                    if price is not None:
                        trucks.append((_TRUCK_ACTIONS[(key, r)], price))
        demolitions: list[Demolish | DemolishFabricator] = [
            _DEMOLISH_ACTIONS[i] for i, p in enumerate(factory.floor) if p is not None
        ]
        demolitions.extend(
            _DEMOLISH_START_ACTIONS[r] for r, s in enumerate(factory.start) if not cat.tile(s.kind).printed
        )
        if len(self._board_memo) > 50_000:
            self._board_memo.clear()
        found = self._board_memo[factory.layout] = (forks, tuple(trucks), tuple(demolitions))
        return found

    def _complete_options(self, state: MechanicaState, seat: Seat) -> tuple[Complete, ...]:
        """MC-BP-COMPLETE: every way to complete a face-up Blueprint from the trucks (memoised)."""
        dock = seat.factory.dock
        if not any(t.load for t in dock):
            return ()
        key = (dock, state.bp_top, seat.completed)
        found = self._complete_memo.get(key)
        if found is None:
            if len(self._complete_memo) > 50_000:
                self._complete_memo.clear()
            found = self._complete_memo[key] = tuple(self._complete_uncached(state, seat))
        return found

    def _complete_uncached(self, state: MechanicaState, seat: Seat) -> list[Complete]:
        out: list[Complete] = []
        loads = [t.load for t in seat.factory.dock]
        on_trucks = [sum(load.count(g) for load in loads) for g in Bot]
        for pile in range(PILES):
            card_id = state.bp_top[pile]
            if card_id is None or card_id in seat.completed:
                continue
            if any(have < need for have, need in zip(on_trucks, self.cards[card_id].needs, strict=True)):
                continue
            per_grade: list[list[tuple[tuple[int, Bot], ...]]] = []
            for grade, need in zip(Bot, self.cards[card_id].needs, strict=True):
                have = [load.count(grade) for load in loads]
                ways = [
                    tuple((r, grade) for r in range(ROWS) for _ in range(split[r]))
                    for split in itertools.product(*(range(h + 1) for h in have))
                    if sum(split) == need
                ]
                per_grade.append(ways)
            for combo in itertools.product(*per_grade):
                out.append(Complete(pile, tuple(x for part in combo for x in part)))
        return out

    # --- apply --------------------------------------------------------------------------------------

    def apply(self, state: MechanicaState, action: Any) -> MechanicaState:
        phase = state.phase
        if phase is Phase.OVER:
            raise IllegalAction("MC-END", "the game is over; no action is legal")
        if phase in CHANCE_PHASES:
            return self._settle(self._chance(state, action))
        if phase is Phase.RUN:
            if not isinstance(action, Route | Fly | Discard | Change | ChooseOutput):
                raise IllegalAction("MC-RUN", f"{action!r}: a workday run awaits its owner's decision")
            assert state.run is not None
            return self._settle(evolve(state, run=decide(state.run, self.variant, action)))
        if phase is Phase.PLACE:
            return self._settle(self._place(state, action))
        if phase is Phase.RECYCLE:
            if not isinstance(action, Recycle):
                raise IllegalAction("MC-SHOP-RECYCLE", f"{action!r}: place the fallen tile's bot first (Recycle)")
            assert state.fallen is not None
            return self._settle(evolve(self._recycle(state, state.fallen, action), fallen=None, phase=Phase.DRAW))
        if phase is Phase.GIFT:
            return self._settle(self._gift(state, action))
        if isinstance(action, Next):
            if phase is Phase.FABRICATE:
                raise IllegalAction("MC-FAB", "every fabricator must fabricate before the turn goes on")
            return evolve(state, phase=Phase.BUY if phase is Phase.SELL else Phase.FABRICATE)
        if isinstance(action, Sell):
            if phase is not Phase.SELL:
                raise IllegalAction("MC-TURN-ORDER", "bots are sold in the first step of the turn only")
            seat = state.seats[state.current]
            factory, stock, coins = sell(seat.factory, state.stock, self.variant, action)
            return self._seat(state, evolve(seat, factory=factory, wallet=seat.wallet + coins), stock=stock)
        if isinstance(action, Buy):
            return self._buy(state, action)
        if isinstance(action, Fabricate):
            if phase is not Phase.FABRICATE:
                raise IllegalAction("MC-TURN-ORDER", "fabricating is the third step of the turn (after Next)")
            return self._settle(self._fabricate(state, action))
        if isinstance(action, BuyFork | BuyTruck | Complete | Demolish | DemolishFabricator):
            return self._anytime(state, action)
        raise IllegalAction("MC-TURN-ORDER", f"{action!r} is not an action of this step ({phase.value})")

    def _seat(self, state: MechanicaState, seat: Seat, who: int | None = None, **changes: Any) -> MechanicaState:
        i = state.current if who is None else who
        return evolve(state, seats=_set(state.seats, i, seat), **changes)

    def _chance(self, state: MechanicaState, action: Any) -> MechanicaState:
        if not any(action == a for a, _p in self.chance_outcomes(state)):
            raise IllegalAction("MC-CHANCE", f"{action!r} is not a possible chance outcome here")
        phase = state.phase
        if isinstance(action, Reveal):
            pile = state.reveal
            return evolve(
                state,
                bp_pool=tuple(c for c in state.bp_pool if c != action.card),
                bp_hidden=_set(state.bp_hidden, pile, state.bp_hidden[pile] - 1),
                bp_top=_set(state.bp_top, pile, action.card),
            )
        assert isinstance(action, Draw)
        k = self.kind_index[action.kind]
        if phase is Phase.SETUP_EXTRAS:  # MC-SETUP-EXTRAS
            return evolve(state, deck=_add(state.deck, k, -1), extras=_add(state.extras, k, 1))
        if phase is Phase.EXTRA:  # MC-SHOP-DOUBLE
            return evolve(
                state,
                extras=_add(state.extras, k, -1),
                wheel=_set(state.wheel, 0, action.kind),
                phase=Phase.SELL,
                current=state.current + 1,
            )
        if phase is Phase.SETUP_DEAL:  # MC-SETUP-DEAL
            slot = state.wheel.index(None)
            return evolve(state, deck=_add(state.deck, k, -1), wheel=_set(state.wheel, slot, action.kind))
        # MC-SHOP-DRAW, then the 2-3 player double rotation
        state = evolve(state, deck=_add(state.deck, k, -1), wheel=_set(state.wheel, 0, action.kind))
        return self._after_draw(state)

    def _after_draw(self, state: MechanicaState) -> MechanicaState:
        """MC-SHOP-DOUBLE: with 2-3 players, if only the price-7 tile is left, turn once more and put an
        extra on price 7 (once; not repeated)."""
        wheel = state.wheel
        if self.double_rotation and wheel[0] is not None and all(w is None for w in wheel[1:]) and len(wheel) > 1:
            state = evolve(state, wheel=(None, *wheel[:-1]))
            if sum(state.extras):
                return evolve(state, phase=Phase.EXTRA)
        return evolve(state, phase=Phase.SELL, current=state.current + 1)

    def _buy(self, state: MechanicaState, action: Buy) -> MechanicaState:
        if state.phase is not Phase.BUY:
            raise IllegalAction("MC-TURN-ORDER", "improvements are bought in the second step of the turn (after Next)")
        if action.slot not in range(len(self.prices)) or state.wheel[action.slot] is None:
            raise IllegalAction("MC-SHOP-BUY", f"Shop slot {action.slot} holds no improvement")
        seat = state.seats[state.current]
        price = self.prices[action.slot]
        if seat.wallet < price:
            raise IllegalAction("MC-SHOP-BUY", f"the improvement costs {price}; the wallet holds {seat.wallet}")
        kind = state.wheel[action.slot]
        return self._seat(
            state,
            evolve(seat, wallet=seat.wallet - price),
            wheel=_set(state.wheel, action.slot, None),
            pending=kind,
            phase=Phase.PLACE,
        )

    def _recycle(self, state: MechanicaState, key: str, action: Recycle) -> MechanicaState:
        """MC-RECYCLE: the tile goes into the Recycler and its bot into a Start Zone hole (replacing one)."""
        seat = state.seats[state.current]
        if (action.row, action.hole) not in self._holes(seat.factory):
            raise IllegalAction("MC-RECYCLE", f"Start Zone row {action.row} has no hole {action.hole}")
        bot = self.variant.catalogue.tile(key).recycle_bot
        factory, stock = put_in_start_hole(seat.factory, state.stock, action.row, action.hole, bot)
        return self._seat(
            state,
            evolve(seat, factory=factory),
            stock=stock,
            recycler=_add(state.recycler, self.kind_index[key], 1),
        )

    def _place(self, state: MechanicaState, action: Any) -> MechanicaState:
        key = state.pending
        assert key is not None
        seat = state.seats[state.current]
        if isinstance(action, Recycle):
            return evolve(self._recycle(state, key, action), pending=None, phase=Phase.BUY)
        if isinstance(action, Place):
            factory = install(seat.factory, self.variant, key, action.row, action.col, action.rotation)
            stock = state.stock
        elif isinstance(action, PlaceFabricator):
            covered = seat.factory.start[action.row].kind if action.row in range(ROWS) else None
            factory, spilled = install_start(seat.factory, self.variant, key, action.row)
            if covered in self.kind_index:  # MC-PLACE-START: a covered fabricator tile goes to the Recycler
                state = evolve(state, recycler=_add(state.recycler, self.kind_index[covered], 1))
            stock = restock(state.stock, spilled)
        else:
            raise IllegalAction(
                "MC-PLACE", f"{action!r}: install the bought {key} (Place / PlaceFabricator) or Recycle it"
            )
        return self._seat(state, evolve(seat, factory=factory), stock=stock, pending=None, phase=Phase.BUY)

    def _fabricate(self, state: MechanicaState, action: Fabricate) -> MechanicaState:
        seat = state.seats[state.current]
        factory, stock, made = fabricate(seat.factory, state.stock, self.variant, action)
        n = self._players
        gifts = tuple(
            ((state.current + k) % n, declared) for declared in made if declared > Bot.BASIC for k in range(1, n)
        )
        state = self._seat(state, evolve(seat, factory=factory), stock=stock, gifts=gifts)
        return evolve(state, phase=Phase.GIFT) if gifts else self._rotate(state)

    def _gift(self, state: MechanicaState, action: Any) -> MechanicaState:
        player, declared = state.gifts[0]
        rest = state.gifts[1:]
        if isinstance(action, Gift):
            if action.bot >= declared:
                raise IllegalAction("MC-FAB-OVERACTIVE", f"the gift must be lower than the declared {declared!r}")
            seat = state.seats[player]
            if (action.row, action.hole) not in self._holes(seat.factory):
                raise IllegalAction("MC-FAB-OVERACTIVE", f"Start Zone row {action.row} has no hole {action.hole}")
            factory, stock = put_in_start_hole(seat.factory, state.stock, action.row, action.hole, action.bot)
            state = self._seat(state, evolve(seat, factory=factory), who=player, stock=stock)
        elif not isinstance(action, Decline):
            raise IllegalAction("MC-FAB-OVERACTIVE", f"{action!r}: make a lower bot (Gift) or Decline")
        state = evolve(state, gifts=rest)
        return state if rest else self._rotate(state)

    def _rotate(self, state: MechanicaState) -> MechanicaState:
        """MC-SHOP-ROTATE: the Shop turns one slot; the last slot's tile falls into the Recycler."""
        wheel = state.wheel
        fallen = wheel[-1]
        state = evolve(state, wheel=(None, *wheel[:-1]), gifts=())
        if fallen is None:
            return evolve(state, phase=Phase.DRAW)
        if self.variant.rulings.shop_recycle == "current":
            return evolve(state, phase=Phase.RECYCLE, fallen=fallen)
        return evolve(state, recycler=_add(state.recycler, self.kind_index[fallen], 1), phase=Phase.DRAW)

    def _anytime(self, state: MechanicaState, action: Any) -> MechanicaState:
        seat = state.seats[state.current]
        cat = self.variant.catalogue
        if isinstance(action, BuyFork):
            price = cat.tile("fork").price or 0
            if seat.wallet < price:
                raise IllegalAction("MC-FORK-BUY", f"a Fork costs {price}; the wallet holds {seat.wallet}")
            factory = install(seat.factory, self.variant, "fork", action.row, action.col, action.rotation)
            return self._seat(state, evolve(seat, factory=factory, wallet=seat.wallet - price))
        if isinstance(action, BuyTruck):
            price_or_none = (
                self._truck_price(seat.factory, action.kind, action.row) if action.kind in cat.tiles else None
            )
            if price_or_none is None:
                check_install_truck(seat.factory, self.variant, action.kind, action.row)
                raise IllegalAction("MC-TRUCK-BUY", f"{action.kind!r} cannot go on row {action.row}")
            if seat.wallet < price_or_none:
                raise IllegalAction("MC-TRUCK-BUY", f"it costs {price_or_none}; the wallet holds {seat.wallet}")
            factory = install_truck(seat.factory, self.variant, action.kind, action.row)
            return self._seat(state, evolve(seat, factory=factory, wallet=seat.wallet - price_or_none))
        if isinstance(action, Complete):
            return self._complete(state, seat, action)
        if isinstance(action, Demolish):
            factory, kind, destroyed = demolish(seat.factory, action.row, action.col)
        else:
            factory, kind, destroyed = demolish_start(seat.factory, self.variant, action.row)
        recycler = state.recycler
        if kind in self.kind_index:  # MC-DEMOLISH: improvements to the Recycler; Forks back to the box
            recycler = _add(recycler, self.kind_index[kind], 1)
        return self._seat(
            state, evolve(seat, factory=factory), stock=restock(state.stock, destroyed), recycler=recycler
        )

    def _complete(self, state: MechanicaState, seat: Seat, action: Complete) -> MechanicaState:
        if action.pile not in range(PILES) or state.bp_top[action.pile] is None:
            raise IllegalAction("MC-BP-COMPLETE", f"pile {action.pile} shows no Blueprint")
        card_id = state.bp_top[action.pile]
        assert card_id is not None
        if card_id in seat.completed:
            raise IllegalAction("MC-BP-ONCE", f"Blueprint {card_id} was already completed by this player")
        card = self.cards[card_id]
        given = [0, 0, 0]
        for _row, bot in action.take:
            given[bot] += 1
        if tuple(given) != card.needs:
            raise IllegalAction("MC-BP-COMPLETE", f"Blueprint {card_id} asks for {card.needs} (Basic, Plus, Deluxe)")
        dock = list(seat.factory.dock)
        for row, bot in action.take:
            if row not in range(ROWS) or bot not in dock[row].load:
                raise IllegalAction("MC-BP-COMPLETE", f"the truck in row {row} carries no {bot.name.title()} bot")
            load = list(dock[row].load)
            load.remove(bot)
            dock[row] = evolve(dock[row], load=tuple(load))
        stock = tuple(state.stock[g] + given[g] for g in range(3))
        factory = evolve(seat.factory, dock=tuple(dock))
        if self.variant.rulings.blueprint_turn == "both":
            turned = tuple(t or top is not None for t, top in zip(state.bp_turned, state.bp_top, strict=True))
        else:
            turned = _set(state.bp_turned, action.pile, True)
        seat = evolve(
            seat, factory=factory, vault=seat.vault + card.value, completed=tuple(sorted((*seat.completed, card_id)))
        )
        return self._seat(state, seat, stock=stock, bp_turned=turned)

    # --- automatic steps ----------------------------------------------------------------------------

    def _settle(self, state: MechanicaState) -> MechanicaState:
        """Take every automatic step until a player or chance must act."""
        while True:
            phase = state.phase
            if phase is Phase.SETUP_EXTRAS:
                if sum(state.extras) < self.extras_target and any(state.deck):
                    return state
                state = evolve(state, phase=Phase.SETUP_DEAL)
            elif phase is Phase.SETUP_DEAL:
                dealt = sum(1 for w in state.wheel if w is not None)
                if dealt < self.variant.game.dealt and any(state.deck):
                    return state
                state = evolve(state, phase=Phase.REVEAL, reveal=0)
            elif phase is Phase.REVEAL:
                pile = state.reveal
                if pile >= PILES:
                    state = self._begin_day(state)
                    continue
                if state.bp_top[pile] is None and state.bp_hidden[pile] > 0 and state.bp_pool:
                    return state
                if state.bp_top[pile] is None and state.bp_bottom[pile]:
                    bottom = state.bp_bottom[pile]
                    state = evolve(
                        state,
                        bp_top=_set(state.bp_top, pile, bottom[0]),
                        bp_bottom=_set(state.bp_bottom, pile, bottom[1:]),
                    )
                state = evolve(state, reveal=pile + 1)
            elif phase is Phase.RUN:
                run = state.run
                assert run is not None
                if run.phase is not RunPhase.DONE:
                    return state
                seat = state.seats[state.current]
                seat = evolve(seat, factory=run.factory, wallet=seat.wallet + run.wallet, vault=seat.vault + run.vault)
                state = self._seat(state, seat, stock=run.stock, run=None)
                nxt = state.current + 1
                if nxt < self._players:
                    state = evolve(
                        state, current=nxt, run=start_run(state.seats[nxt].factory, state.stock, self.variant)
                    )
                else:
                    state = evolve(state, current=0, phase=Phase.SELL)
            elif phase is Phase.DRAW:
                if not sum(state.deck):
                    state = self._after_draw(state)
                else:
                    return state
            elif phase is Phase.SELL and state.current >= self._players:
                state = self._end_day(state)
            else:
                return state

    def _begin_day(self, state: MechanicaState) -> MechanicaState:
        """MC-DAY: every factory runs before the first turn, in seat order."""
        return evolve(
            state,
            phase=Phase.RUN,
            current=0,
            reveal=0,
            run=start_run(state.seats[0].factory, state.stock, self.variant),
        )

    def _end_day(self, state: MechanicaState) -> MechanicaState:
        """MC-BP-DAYEND: turned Blueprints go under their piles; MC-END: the game ends when the deck and the
        Shop are empty; otherwise the piles' tops are turned up and a new day begins."""
        tops = list(state.bp_top)
        bottoms = list(state.bp_bottom)
        for pile in range(PILES):
            card = tops[pile]
            if state.bp_turned[pile] and card is not None:
                bottoms[pile] = (*bottoms[pile], card)
                tops[pile] = None
        state = evolve(state, bp_top=tuple(tops), bp_bottom=tuple(bottoms), bp_turned=(False,) * PILES)
        if not sum(state.deck) and all(w is None for w in state.wheel):
            return evolve(state, phase=Phase.OVER, current=0)
        return evolve(state, phase=Phase.REVEAL, reveal=0, day=state.day + 1, current=0)


__all__ = ["ACTION_TYPES", "GAME_NAME", "MechanicaGame", "check_install"]
