"""The reference whole game of Mechanica: the Game protocol over the plain rule functions of this
package (docs/rules/mechanica.md; conventions in its section "Engine conventions")."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs

from bgrules.core.errors import IllegalAction
from bgrules.core.protocol import CHANCE, GameBase, GameInfo, Mover
from bgrules.mechanica import state as mc
from bgrules.mechanica.fabricate import Fabricate, Sell
from bgrules.mechanica.reference import blueprints, dayend, ending, setup, shop, turn, workday
from bgrules.mechanica.reference.rules import Rules, seat_of
from bgrules.mechanica.run import Change, ChooseOutput, Discard, Fly, Route
from bgrules.mechanica.sandbox import Demolish, DemolishFabricator
from bgrules.mechanica.state import MechanicaState, Next, Phase, Place, PlaceFabricator, Recycle
from bgrules.mechanica.validate import problems
from bgrules.mechanica.variant import MechanicaVariant, game_variant, max_length

ACTION_TYPES: tuple[type, ...] = (
    Route, Fly, Discard, Change, ChooseOutput, Sell, Next, mc.Buy, Place, PlaceFabricator, Recycle, mc.BuyFork,
    mc.BuyTruck, mc.Complete, Demolish, DemolishFabricator, Fabricate, mc.Gift, mc.Decline, mc.Draw, mc.Reveal,
)  # fmt: skip
"""docs/rules/mechanica.md, Actions: the run's decisions, then the turn's steps, the actions of any time in
the turn, the gifts and the chance outcomes (the codec's order)."""
ANYTIME = (mc.BuyFork, mc.BuyTruck, mc.Complete, Demolish, DemolishFabricator)
"""MC-ANYTIME: the actions allowed at any time in one's own turn."""
CHANCE_PHASES = (Phase.SETUP_EXTRAS, Phase.SETUP_DEAL, Phase.REVEAL, Phase.DRAW, Phase.EXTRA)
"""MC-CHANCE: the phases in which chance moves."""


class ReferenceMechanicaGame(GameBase):
    """Mechanica for 2-4 players, the plain reading (same constructor and protocol as ``MechanicaGame``)."""

    ACTIONS = ACTION_TYPES

    def __init__(self, players: int = 4, variant: MechanicaVariant | str | None = None) -> None:
        self.variant = game_variant(players, variant)  # the options' checks, shared with every engine
        self._players = players
        self.rules = Rules(players, self.variant)
        # the game's figures that runners, pictures and the shared validation read (the same on every engine)
        self.kinds = self.rules.kinds
        """MC-SETUP-DECK: the improvements in the deck, in the order of the state's per-kind counts."""
        self.kind_index = {kind: i for i, kind in enumerate(self.kinds)}
        self.copies = setup.full_deck(self.rules)
        self.total_tiles = sum(self.copies)
        self.prices = self.rules.prices
        """MC-SHOP-BUY: the Shop's price slots, slot 0 first."""
        self.cards = {card.id: card for card in self.variant.game.blueprints}
        self.extras_target = self.rules.extras_target
        self.double_rotation = players < 4  # MC-SHOP-DOUBLE: with 2-3 players
        price = blueprints.fork_price(self.rules)
        self.fork_price = 1_000_000 if price is None else price
        bound = max_length(self.variant, players)  # MC-END-BOUND, one formula for every engine
        self._info = GameInfo("mechanica", 2, 4, True, bound, (("players", "4"),))

    # --- protocol -----------------------------------------------------------------------------------

    def state_type(self) -> type[Any]:
        return MechanicaState

    def initial_state(self) -> MechanicaState:
        return dayend.settle(self.rules, setup.first_state(self.rules))

    def to_move(self, state: MechanicaState) -> Mover:
        if state.phase is Phase.OVER:
            return None
        if state.phase in CHANCE_PHASES:
            return CHANCE
        if state.phase is Phase.GIFT:
            return state.gifts[0][0]
        return state.current

    def is_terminal(self, state: MechanicaState) -> bool:
        return state.phase is Phase.OVER

    def scores(self, state: MechanicaState) -> tuple[int, ...]:
        return ending.scores(self.rules, state)

    def winners(self, state: MechanicaState) -> tuple[int, ...]:
        return ending.winners(self.rules, state)

    def end_trigger(self, state: MechanicaState) -> str | None:
        """MC-END: the rule that ended a terminal state."""
        return "MC-END" if state.phase is Phase.OVER else None

    def validate(self, state: MechanicaState) -> list[str]:
        """The shared shape check of reachable states (:mod:`bgrules.mechanica.validate`)."""

        return problems(self, state)

    def chance_outcomes(self, state: MechanicaState) -> tuple[tuple[Any, Fraction], ...]:
        """MC-CHANCE: the draws (deck or extras) and the Blueprint reveals with exact probabilities."""
        if state.phase in (Phase.SETUP_EXTRAS, Phase.SETUP_DEAL, Phase.DRAW):
            return setup.draws(self.rules, state.deck)
        if state.phase is Phase.EXTRA:
            return setup.draws(self.rules, state.extras)
        if state.phase is Phase.REVEAL:
            return tuple((mc.Reveal(c), Fraction(1, len(state.bp_pool))) for c in state.bp_pool)
        return ()

    def _anytime_here(self, state: MechanicaState) -> bool:
        """MC-ANYTIME: in the steps 1-3, in the two waits (not under ``steps_1_3``) and at the close of
        step 4 (only under ``whole_turn``)."""
        if state.phase in (Phase.SELL, Phase.BUY, Phase.FABRICATE, Phase.TURN_END):
            return True
        return state.phase in (Phase.PLACE, Phase.RECYCLE) and self.variant.rulings.anytime != "steps_1_3"

    def legal_actions(self, state: MechanicaState) -> tuple[Any, ...]:
        """Every legal action: the phase's own first, then the actions of any time in the turn."""
        phase = state.phase
        if phase is Phase.OVER:
            return ()
        if phase in CHANCE_PHASES:
            return tuple(o for o, _p in self.chance_outcomes(state))
        if phase is Phase.RUN:
            assert state.run is not None
            return workday.decisions(state.run, self.variant)
        if phase is Phase.GIFT:
            return tuple(turn.gift_options(state))
        own: list[Any] = []
        factory = seat_of(state).factory
        if phase is Phase.SELL:
            own = [*turn.sells(factory), Next()]
        elif phase is Phase.BUY:
            own = [*shop.buys(self.rules, state), Next()]
        elif phase is Phase.PLACE:
            own = list(shop.placements(self.rules, state))
        elif phase is Phase.FABRICATE:
            own = list(turn.fabrications(self.rules, factory))
        elif phase is Phase.RECYCLE:
            own = list(shop.recycles(factory))
        elif phase is Phase.TURN_END:
            own = [Next()]
        if self._anytime_here(state):
            own += blueprints.anytime_actions(self.rules, state)
        return tuple(own)

    def apply(self, state: MechanicaState, action: Any) -> MechanicaState:
        """The state after ``action``; an illegal one raises IllegalAction naming the rule broken."""
        phase = state.phase
        rules = self.rules
        if phase is Phase.OVER:
            raise IllegalAction("MC-END", "the game is over")
        if phase in CHANCE_PHASES:
            if action not in self.legal_actions(state):
                raise IllegalAction("MC-CHANCE", f"{action!r} is not an outcome of this chance step")
            if phase is Phase.SETUP_EXTRAS:
                return dayend.settle(rules, setup.set_aside(rules, state, action.kind))
            if phase is Phase.SETUP_DEAL:
                return dayend.settle(rules, setup.deal(rules, state, action.kind))
            if phase is Phase.REVEAL:
                return dayend.reveal(rules, state, action.card)
            if phase is Phase.DRAW:
                return shop.drawn(rules, state, action.kind)
            return shop.extra_drawn(rules, state, action.kind)
        if phase is Phase.RUN:
            return dayend.run_decision(rules, state, action)
        if phase is Phase.GIFT:
            return turn.gift(rules, state, action)
        if isinstance(action, ANYTIME):
            if not self._anytime_here(state):
                rule = {Phase.PLACE: "MC-PLACE", Phase.RECYCLE: "MC-SHOP-RECYCLE"}.get(phase, "MC-ANYTIME")
                raise IllegalAction(rule, f"{type(action).__name__} is not allowed now")
            return blueprints.apply_anytime(rules, state, action)
        if phase is Phase.SELL and isinstance(action, Sell):
            return turn.sell(rules, state, action)
        if phase in (Phase.SELL, Phase.BUY) and isinstance(action, Next):
            return _next_step(state)
        if phase is Phase.BUY and isinstance(action, mc.Buy):
            return shop.buy(rules, state, action)
        if phase is Phase.PLACE:
            if isinstance(action, Place | PlaceFabricator | Recycle):
                return shop.place(rules, state, action)
            raise IllegalAction("MC-PLACE", "the bought tile must be installed or recycled first")
        if phase is Phase.FABRICATE:
            if isinstance(action, Fabricate):
                return turn.fabricate(rules, state, action)
            if isinstance(action, Next):
                raise IllegalAction("MC-FAB", "fabricating is compulsory")
        if phase is Phase.RECYCLE:
            if isinstance(action, Recycle):
                return shop.recycle_fallen(rules, state, action)
            raise IllegalAction("MC-SHOP-RECYCLE", "the fallen tile's bot must be placed first")
        if phase is Phase.TURN_END and isinstance(action, Next):
            return dayend.end_turn(rules, state)
        raise IllegalAction("MC-TURN-ORDER", f"{type(action).__name__} is not a step of phase {phase.name}")


def _next_step(state: MechanicaState) -> MechanicaState:
    """MC-TURN-ORDER: ``Next`` closes selling (to buying) or buying (to fabricating)."""
    return attrs.evolve(state, phase=Phase.BUY if state.phase is Phase.SELL else Phase.FABRICATE)
