"""Reference day (MC-DAY): the set-up's automatic steps, the Blueprint reveals (MC-BP-DAYEND), the
factories' runs in seat order (MC-RUN), the end of a turn and of the day (MC-BP-DAYEND, MC-END)."""

from __future__ import annotations

import attrs

from bgrules.mechanica.reference import workday
from bgrules.mechanica.reference.rules import PILES, Rules, with_seat
from bgrules.mechanica.reference.setup import deal_done, extras_done
from bgrules.mechanica.run import Run, RunPhase
from bgrules.mechanica.state import MechanicaState, Phase


def settle(rules: Rules, state: MechanicaState) -> MechanicaState:
    """Take every step no one decides: the set-up's phases once their draws are made, the Blueprint
    reveals without chance, every run that needs no decision (MC-CHANCE, MC-DAY)."""
    while True:
        if state.phase is Phase.SETUP_EXTRAS:
            if not extras_done(rules, state):
                return state
            state = attrs.evolve(state, phase=Phase.SETUP_DEAL)
        elif state.phase is Phase.SETUP_DEAL:
            if not deal_done(rules, state):
                return state
            state = attrs.evolve(state, phase=Phase.REVEAL, reveal=0)
        elif state.phase is Phase.REVEAL:
            pile = next(
                (p for p in range(PILES) if state.bp_top[p] is None and (state.bp_hidden[p] or state.bp_bottom[p])),
                None,
            )
            if pile is None:
                state = attrs.evolve(state, phase=Phase.RUN, reveal=0, current=0, run=None)
                continue
            if state.bp_hidden[pile] > 0:
                return attrs.evolve(state, reveal=pile)  # a chance draw from the pool
            bottom = state.bp_bottom[pile]  # MC-BP-DAYEND: the first card put under comes up
            state = attrs.evolve(
                state,
                bp_top=tuple(bottom[0] if p == pile else t for p, t in enumerate(state.bp_top)),
                bp_bottom=tuple(b[1:] if p == pile else b for p, b in enumerate(state.bp_bottom)),
            )
        elif state.phase is Phase.RUN:
            if state.run is None:
                if state.current >= rules.players:
                    return attrs.evolve(state, phase=Phase.SELL, current=0)
                seat = state.seats[state.current]
                state = attrs.evolve(state, run=workday.start_run(seat.factory, state.stock, rules.variant))
            assert state.run is not None
            if state.run.phase is not RunPhase.DONE:
                return state
            state = finish_run(state, state.run)
        else:
            return state


def reveal(rules: Rules, state: MechanicaState, card: int) -> MechanicaState:
    """MC-BP-DAYEND: the card comes up on pile ``state.reveal``, out of the unseen pool."""
    pile = state.reveal
    state = attrs.evolve(
        state,
        bp_pool=tuple(c for c in state.bp_pool if c != card),
        bp_hidden=tuple(h - 1 if p == pile else h for p, h in enumerate(state.bp_hidden)),
        bp_top=tuple(card if p == pile else t for p, t in enumerate(state.bp_top)),
        reveal=pile + 1,
    )
    return settle(rules, state)


def finish_run(state: MechanicaState, run: Run) -> MechanicaState:
    """MC-RUN: the run's board and stock become the seat's and the game's; its coins are paid; the next
    seat's factory runs."""
    seat = state.seats[state.current]
    seat = attrs.evolve(seat, factory=run.factory, vault=seat.vault + run.vault, wallet=seat.wallet + run.wallet)
    state = with_seat(state, state.current, seat)
    return attrs.evolve(state, stock=run.stock, run=None, current=state.current + 1)


def run_decision(rules: Rules, state: MechanicaState, action: object) -> MechanicaState:
    assert state.run is not None
    return settle(rules, attrs.evolve(state, run=workday.decide(state.run, rules.variant, action)))


def end_turn(rules: Rules, state: MechanicaState) -> MechanicaState:
    """MC-TURN-ORDER: the next seat's turn, or after the last seat the day's end: turned Blueprints go
    under their piles (MC-BP-DAYEND); the game is over if the deck and the Shop are empty (MC-END);
    otherwise a new day: reveals, then the runs."""
    if state.current + 1 < rules.players:
        return attrs.evolve(state, current=state.current + 1, phase=Phase.SELL)
    bottom: list[tuple[int, ...]] = []
    for p, under in enumerate(state.bp_bottom):
        card = state.bp_top[p]
        bottom.append((*under, card) if state.bp_turned[p] and card is not None else under)
    top = tuple(None if state.bp_turned[p] else t for p, t in enumerate(state.bp_top))
    state = attrs.evolve(state, bp_bottom=tuple(bottom), bp_top=top, bp_turned=(False,) * PILES)
    if sum(state.deck) == 0 and all(t is None for t in state.wheel):
        return attrs.evolve(state, phase=Phase.OVER, current=0)
    state = attrs.evolve(state, day=state.day + 1, current=0, phase=Phase.REVEAL, reveal=0)
    return settle(rules, state)
