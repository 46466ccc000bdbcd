"""The round of Bot Factory (BF-ROUND): the set-up pick (BF-SETUP-PARTS, :mod:`~bgrules.botfactory.pick`),
the workers' and Sandra's moves (BF-MOVE, BF-SANDRA-MOVE, :mod:`~bgrules.botfactory.moves`), each player's
action turn on their board (:mod:`~bgrules.botfactory.turns`, its fees in :mod:`~bgrules.botfactory.tolls`),
the additional-action windows between turns (BF-ADDITIONAL, :mod:`~bgrules.botfactory.windows`), the hand
limits' discards (BF-LIMIT-PARTS, BF-LIMIT-PROJECTS, :mod:`~bgrules.botfactory.limits`), Sandra's action,
maintenance and the round's end (BF-SANDRA-ACT, BF-MAINT, BF-END, BF-ORDER,
:mod:`~bgrules.botfactory.maintenance`), the draws (BF-PILE, :mod:`~bgrules.botfactory.draws`) and final
scoring (BF-SCORE, BF-TIE, :mod:`~bgrules.botfactory.scoring`). Each phase is a module of plain functions;
this module hands a decision to the phase's module through its table of phases (``PHASES``), as the
phases hand a board's actions to its room (``rooms.ROOMS``), and takes the automatic steps between
decisions (``settle``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Protocol

from bgrules.botfactory import draws, limits, maintenance, moves, pick, scoring, turns, windows
from bgrules.botfactory.rooms import ROOMS, Room
from bgrules.botfactory.state import ACTION, DISCARD, MOVE, OVER, PICK, SETUP, BotFactoryState, Phase
from bgrules.botfactory.tokens import Tokens
from bgrules.core.errors import IllegalAction
from bgrules.core.fastevolve import evolve

__all__ = ["PHASES", "ROOMS", "PhaseRoom", "Room", "RoundFlow", "settle"]


class PhaseRoom(Protocol):
    """A phase's module (:mod:`~bgrules.botfactory.pick`, :mod:`~bgrules.botfactory.moves`,
    :mod:`~bgrules.botfactory.turns`, :mod:`~bgrules.botfactory.limits`): the decisions it offers and
    the guard with the effect of one of them."""

    def options(self, game: Tokens, state: BotFactoryState) -> tuple[Any, ...]:
        """BF-ROUND: the legal decisions of the phase in ``state``."""
        ...

    def act(self, game: Tokens, state: BotFactoryState, action: Any) -> BotFactoryState:
        """BF-ROUND: one decision of the phase, guarded (an illegal one raises IllegalAction naming its
        rule), and its effect."""
        ...


PHASES: dict[Phase, PhaseRoom] = {SETUP: turns, PICK: pick, MOVE: moves, ACTION: turns, DISCARD: limits}
"""BF-ROUND: the module of each phase that waits on a player's decision (a state of the set-up phase past
its draws is the action turn's); the draws (BF-PILE) and the end (BF-END) come before any phase."""

_BY_VALUE: dict[str, PhaseRoom] = {phase._value_: room for phase, room in PHASES.items()}
"""``PHASES`` by the phase's value."""


class RoundFlow(Tokens):
    """BF-ROUND: the game's decisions and steps through the table of phases, and its final scoring."""

    def _legal_actions(self, state: BotFactoryState) -> tuple[Any, ...]:
        """BF-ROUND: the decisions of the phase (BF-SETUP-PARTS, BF-MOVE, the action turn, BF-ADDITIONAL windows,
        BF-LIMIT-PARTS / BF-LIMIT-PROJECTS discards) or the chance outcomes (BF-PILE)."""
        phase = state.phase
        if phase is OVER:
            return ()
        if state.draws:
            return tuple(a for a, _p in self.chance_outcomes(state))
        return _BY_VALUE[phase._value_].options(self, state)

    def _chance_outcomes(self, state: BotFactoryState) -> tuple[tuple[Any, Fraction], ...]:
        """BF-PILE: the next draw's outcomes with exact probabilities (``draws.chance_outcomes``)."""
        return draws.chance_outcomes(self, state)

    def apply(self, state: BotFactoryState, action: Any) -> BotFactoryState:
        """BF-ROUND: one action or chance outcome (BF-PILE), then the automatic steps (``settle``); an illegal
        one raises IllegalAction naming its rule and changes nothing (BF-END: none once the game is over)."""
        phase = state.phase
        if phase is OVER:
            raise IllegalAction("BF-END", "the game is over; no action is legal")
        if state.draws:
            return settle(self, draws.resolve(self, state, action))
        return settle(self, _BY_VALUE[phase._value_].act(self, state, action))

    def end_trigger(self, state: BotFactoryState) -> str | None:
        """BF-END: the rule that ended a terminal state (:func:`bgrules.botfactory.scoring.end_trigger`)."""
        return scoring.end_trigger(self, state)

    def contract_score(self, state: BotFactoryState, seat: int) -> int:
        """BF-SCORE: ``seat``'s contracts at best (:func:`bgrules.botfactory.scoring.contract_score`)."""
        return scoring.contract_score(self, state, seat)

    def scores(self, state: BotFactoryState) -> tuple[int, ...]:
        """BF-SCORE: every player's score (:func:`bgrules.botfactory.scoring.scores`)."""
        return scoring.scores(self, state)

    def winners(self, state: BotFactoryState) -> tuple[int, ...]:
        """BF-TIE: the winners (:func:`bgrules.botfactory.scoring.winners`)."""
        return scoring.winners(self, state)


def settle(game: Tokens, state: BotFactoryState) -> BotFactoryState:
    """BF-ROUND: take the automatic steps (draws that find nothing, BF-PILE; limit checks, BF-LIMIT-PARTS; windows,
    BF-ADDITIONAL; BF-MAINT; BF-END) until a player or chance must act."""
    while True:
        if state.draws:
            state, drawable = draws.normalise(game, state)
            if drawable:
                return state
            state = evolve(state, draws=state.draws[1:])
            continue
        if state.phase is DISCARD:
            return state
        resume = state.after_discard
        if not resume:  # nothing to resume: a player or chance acts (the common case)
            return state
        if resume == "setup":
            state = evolve(state, phase=PICK, index=0, after_discard="")
        elif resume == "pick":
            if state.index >= game._players:
                state = evolve(state, phase=MOVE, index=0, after_discard="")
            else:
                state = evolve(state, after_discard="")
        elif resume == "action":
            # the limits read the hands and the turn (a discard resumes here again), not after_discard
            seat = state.window[0] if state.window else None
            if seat is None and state.turn is not None and not state.turn.prompt:
                seat = state.order[state.index]
            checked = state if seat is None else limits.check(game, state, seat)
            if checked is not state:
                state = checked
            elif state.window:
                state = windows.next_in_window(game, state, state.window, after_discard="")
            else:
                state = evolve(state, after_discard="")
        elif resume == "window":  # BF-ADDITIONAL: the window after Sandra's action, before maintenance
            state = windows.open_window(game, state, (), after_discard="")
        elif resume == "maintenance":
            state = maintenance.maintenance(game, state)
        elif resume == "round_end":
            state = maintenance.round_end(game, state)
        else:
            return state
