"""The day and the end (whole game): the automatic steps between decisions (set-up, the runs of every
factory, the turns passing), the day's end with the Blueprints going under their piles, the end of the
game, the score, the winners and the bound on a game's length.

A room of plain functions over the game (:class:`~bgrules.mechanica.base.MechanicaBase`).

Rules: MC-DAY, MC-RUN (its hand-over to the turn), MC-BP-DAYEND, MC-END, MC-SCORE, MC-END-TIE,
MC-END-BOUND; docs/rules/mechanica.md, "The day and the turn" and "End and scoring".
"""

from __future__ import annotations

from bgrules.core import coverage
from bgrules.core.fastevolve import evolve
from bgrules.mechanica import shop
from bgrules.mechanica.base import PILES, MechanicaBase, replace_at
from bgrules.mechanica.factory import installed_value
from bgrules.mechanica.run import RunPhase
from bgrules.mechanica.state import MechanicaState, Phase
from bgrules.mechanica.variant import max_length
from bgrules.mechanica.workday import start_run


def max_length_bound(game: MechanicaBase) -> int:
    """MC-END-BOUND: the bound on a game's actions (``variant.max_length``, shared by every engine)."""
    return max_length(game.variant, game._players)


def scores(game: MechanicaBase, state: MechanicaState) -> tuple[int, ...]:
    """MC-SCORE: wallet + vault + the values of installed improvements."""
    coverage.effect("MC-SCORE")
    cat = game.variant.catalogue
    return tuple(seat.wallet + seat.vault + installed_value(seat.factory, cat) for seat in state.seats)


def winners(game: MechanicaBase, state: MechanicaState) -> tuple[int, ...]:
    """MC-END-TIE: the highest score wins; ties shared, or broken by money in hand (variant)."""
    totals = scores(game, state)
    best = max(totals)
    coverage.effect("MC-END-TIE")
    tied = [i for i, s in enumerate(totals) if s == best]
    if game.variant.rulings.tie_break == "wallet" and len(tied) > 1:
        most = max(state.seats[i].wallet for i in tied)
        tied = [i for i in tied if state.seats[i].wallet == most]
    return tuple(tied)


def end_trigger(game: MechanicaBase, state: MechanicaState) -> str | None:
    """MC-END: the rule that ended a terminal state (the deck and the Shop empty); None while the game
    goes on."""
    return "MC-END" if state.phase._value_ == "over" else None


# --- automatic steps --------------------------------------------------------------------------------


def settle(game: MechanicaBase, state: MechanicaState) -> MechanicaState:
    """Take every automatic step until a player or chance must act: set-up (MC-SETUP-EXTRAS,
    MC-SETUP-DEAL), the piles' tops (MC-BP-DAYEND), the runs in seat order (MC-DAY, MC-RUN), an empty
    deck's draw (MC-SHOP-DRAW), the day's end after the last turn (MC-BP-DAYEND, MC-END)."""
    while True:
        phase = state.phase._value_
        if phase == "setup_extras":
            if sum(state.extras) < game.extras_target and any(state.deck):
                return state
            state = evolve(state, phase=Phase.SETUP_DEAL)
        elif phase == "setup_deal":
            dealt = sum(1 for w in state.wheel if w is not None)
            if dealt < game.variant.game.dealt and any(state.deck):
                return state
            state = evolve(state, phase=Phase.REVEAL, reveal=0)
        elif phase == "reveal":
            pile = state.reveal
            if pile >= PILES:
                state = begin_day(game, state)
                continue
            if state.bp_top[pile] is None and state.bp_hidden[pile] > 0 and state.bp_pool:
                return state
            if state.bp_top[pile] is None and state.bp_bottom[pile]:
                bottom = state.bp_bottom[pile]
                state = evolve(
                    state,
                    bp_top=replace_at(state.bp_top, pile, bottom[0]),
                    bp_bottom=replace_at(state.bp_bottom, pile, bottom[1:]),
                )
            state = evolve(state, reveal=pile + 1)
        elif phase == "run":
            run = state.run
            assert run is not None
            if run.phase is not RunPhase.DONE:
                return state
            seat = state.seats[state.current]
            seat = evolve(seat, factory=run.factory, wallet=seat.wallet + run.wallet, vault=seat.vault + run.vault)
            seats = replace_at(state.seats, state.current, seat)
            nxt = state.current + 1
            if nxt < game._players:  # the next factory runs
                following = start_run(seats[nxt].factory, run.stock, game.variant)
                state = evolve(state, seats=seats, stock=run.stock, run=following, current=nxt)
            else:
                state = evolve(state, seats=seats, stock=run.stock, run=None, current=0, phase=Phase.SELL)
        elif phase == "draw":
            if not sum(state.deck):
                state = shop.after_draw(game, state)
            else:
                return state
        elif phase == "sell" and state.current >= game._players:
            state = end_day(game, state)
        else:
            return state


def begin_day(game: MechanicaBase, state: MechanicaState) -> MechanicaState:
    """MC-DAY: every factory runs before the first turn, in seat order."""
    coverage.effect("MC-DAY")
    return evolve(
        state,
        phase=Phase.RUN,
        current=0,
        reveal=0,
        run=start_run(state.seats[0].factory, state.stock, game.variant),
    )


def end_day(game: MechanicaBase, state: MechanicaState) -> MechanicaState:
    """MC-BP-DAYEND: turned Blueprints go under their piles; MC-END: the game ends when the deck and the
    Shop are empty; otherwise the piles' tops are turned up and a new day begins."""
    tops = list(state.bp_top)
    bottoms = list(state.bp_bottom)
    for pile in range(PILES):
        card = tops[pile]
        if state.bp_turned[pile] and card is not None:
            coverage.effect("MC-BP-DAYEND")
            bottoms[pile] = (*bottoms[pile], card)
            tops[pile] = None
    piles = {"bp_top": tuple(tops), "bp_bottom": tuple(bottoms), "bp_turned": (False,) * PILES}
    if not sum(state.deck) and all(w is None for w in state.wheel):
        coverage.effect("MC-END")
        return evolve(state, **piles, phase=Phase.OVER, current=0)
    return evolve(state, **piles, phase=Phase.REVEAL, reveal=0, day=state.day + 1, current=0)
