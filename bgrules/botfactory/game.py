"""Bot Factory for 2-4 players, ``bgrules.load_game("botfactory", players=n)``.

A round has three phases in action order (BF-ROUND): moving workers (then Sandra), actions (then Sandra's),
maintenance. Each board's main action, its additional action and Sandra's action follow the seed; figures
the seed does not give are component data (``data/components.toml``, provenance ``assumed``).

The house has a room per board and a module per phase, each a module of plain functions of the game and a
state holding its rules' options and guards with their effects: the boards' rooms
(:mod:`~bgrules.botfactory.assembly`, :mod:`~bgrules.botfactory.production`,
:mod:`~bgrules.botfactory.projects`, :mod:`~bgrules.botfactory.finance`, in ``rooms.ROOMS``) and the
round's phases (:mod:`~bgrules.botfactory.pick`, :mod:`~bgrules.botfactory.moves`,
:mod:`~bgrules.botfactory.turns` with :mod:`~bgrules.botfactory.tolls`, :mod:`~bgrules.botfactory.windows`,
:mod:`~bgrules.botfactory.limits`, :mod:`~bgrules.botfactory.maintenance`, :mod:`~bgrules.botfactory.draws`),
which :mod:`~bgrules.botfactory.round` dispatches through its table of phases (``round.PHASES``);
:mod:`~bgrules.botfactory.tokens` holds the token gains and payments, :mod:`~bgrules.botfactory.scoring`
the score. This module sets the game up.
"""

from __future__ import annotations

from typing import Any

from bgrules.botfactory.base import ASSEMBLY, FINANCE, GAME_NAME, PRODUCTION, PROJECT
from bgrules.botfactory.round import RoundFlow, settle
from bgrules.botfactory.state import (
    DISCARD,
    OVER,
    PICK,
    SETUP,
    BotFactoryState,
    DiscardPart,
    DiscardProject,
    DrawContract,
    DrawPart,
    DrawProject,
    EndTurn,
    Exchange,
    Hand,
    Job,
    MoveWorker,
    PayShare,
    PlacePart,
    Raise,
    Refill,
    Reserve,
    Rotate,
    Skip,
    Swap,
    TakeOutput,
    TakeProject,
    TakeTop,
    Trade,
)
from bgrules.botfactory.validate import problems
from bgrules.botfactory.variant import RUNNER_ROUNDS, BotFactoryVariant, game_variant, max_length
from bgrules.core import coverage
from bgrules.core.codec import ActionGuard
from bgrules.core.memo import Memos
from bgrules.core.protocol import CHANCE, GameInfo, Mover

_MISS_TABLES = (
    ("offers", 20_000),
    ("move_offers", 20_000),
    ("moves", 10),
    ("move_candidates", 1_000),
    ("chance_sets", 20_000),
    ("draw_actions", 10_000),
    ("outcome_pairs", 10_000),
    ("fractions", 10_000),
)
"""The game's memos reached by name (``memos[name]``), and their bounds."""

__all__ = [
    "ACTION_TYPES",
    "ASSEMBLY",
    "FINANCE",
    "GAME_NAME",
    "PRODUCTION",
    "PROJECT",
    "RUNNER_ROUNDS",
    "BotFactoryGame",
]

ACTION_TYPES: tuple[type, ...] = (
    TakeTop,
    MoveWorker,
    PayShare,
    PlacePart,
    Rotate,
    Refill,
    TakeOutput,
    TakeProject,
    Raise,
    Reserve,
    Swap,
    Trade,
    Exchange,
    Skip,
    EndTurn,
    DiscardPart,
    DiscardProject,
    DrawPart,
    DrawProject,
    DrawContract,
)


class BotFactoryGame(RoundFlow):
    """Bot Factory through the Game protocol."""

    ACTIONS = ACTION_TYPES

    def __init__(
        self, players: int = 4, variant: BotFactoryVariant | str | None = None, max_rounds: int | None = None
    ) -> None:
        self.variant = game_variant(players, variant, max_rounds)
        self._players = players
        self.max_rounds = max_rounds
        """BF-END: None (the default) = the seed's ends only; a number = the game also ends, scored, after
        that round (the reading of 0.3.0, a cap as a rule; clarifications use it for short games)."""
        self.runner_rounds = RUNNER_ROUNDS if max_rounds is None else None
        """The runners' default truncation (``bgrules.core.playout.round_cap``): 40 rounds when the game has
        no cap of its own."""
        c = self.variant.components
        self.c = c
        self.colours = c.colours
        self.slots = c.slots
        self.spaces = c.spaces()
        self.board_spaces = {b: [i for i, sp in enumerate(self.spaces) if sp[0] == b] for b in range(4)}
        self.contracts = {k.id: k for k in c.contracts}
        per = self.variant.rulings.bots_per_colour_to_end
        self.end_count = min(per if per else players, c.counts.bots_per_colour)
        """BF-END: bots of each colour in play, all of which built ends the game (as many as players)."""
        memos = self.memos = Memos()
        """Every memo of the game (``bgrules.core.memo``): bounded, emptied together by ``memos.clear()``."""
        self._chance_memo = memos.memo("chance", 49_999)
        self._move_memo = memos.memo("move", 20_000)
        self._options_memo = memos.memo("options", 50_000)
        self._score_memo = memos.memo("score", 20_000)
        self._limits_memo = memos.memo("limits", 10_000)
        self._window_memo = memos.memo("window", 20_000)
        self._opening_memo = memos.memo("opening", 10_000)
        """The turn each space opens with, by the space and Sandra's space (``tolls.opening_on``)."""
        self._action_memo = memos.memo("action", 1_000)
        """The offered actions' objects, by class, then arguments (``Base._action``)."""
        for name, bound in _MISS_TABLES:
            memos.memo(name, bound)
        self._guard = ActionGuard(ACTION_TYPES, "BF-ROUND")
        self._round_apply = RoundFlow.apply.__get__(self)  # the round's dispatch, behind the guard
        self._info = GameInfo(
            name=GAME_NAME,
            min_players=2,
            max_players=4,
            has_chance=True,
            max_length=self._max_length(),
            parameters=(("players", "4"), ("max_rounds", "none")),
        )

    # --- protocol -----------------------------------------------------------------------------------

    def state_type(self) -> type[BotFactoryState]:
        return BotFactoryState

    def validate(self, state: BotFactoryState) -> list[str]:
        """Every way ``state`` breaks the shape of this game's reachable states ("<field path>: <reason>";
        empty = the engine can play on it): indexes in range, counts conserved, phase fields consistent
        (:mod:`bgrules.botfactory.validate`, docs/validation.md). ``bgrules.loads`` refuses a state with any."""

        return problems(self, state)

    def apply(self, state: BotFactoryState, action: Any) -> BotFactoryState:
        """BF-ROUND: one action or chance outcome (``RoundFlow.apply``); an action whose fields are not of
        their declared kinds (a text or ``true`` for a space index) is refused with IllegalAction naming
        the action's rule, as is one the rules cannot read here; the state never changes."""
        return self._guard.apply(self, state, action, self._round_apply)

    def round_of(self, state: BotFactoryState) -> int:
        """The round being played (1 first): what a runner's round cap reads."""
        return state.round

    def _max_length(self) -> int:
        """BF-END: the bound on the actions of the game (or of the runners' cap): ``variant.max_length``."""
        return max_length(self.variant, self._players, self.max_rounds)

    def initial_state(self) -> BotFactoryState:
        c = self.c
        n = self._players
        hands = tuple(
            Hand(c.counts.start_tokens + (c.counts.last_player_extra_token if seat == n - 1 else 0))
            for seat in range(n)
        )
        coverage.effect("BF-SETUP-TOKENS")
        coverage.effect("BF-SETUP-WHEEL")
        coverage.effect("BF-SETUP-BOARDS")
        per = c.counts.parts_per_colour_slot
        jobs: list[Job] = [("contract", -1, "display", i, 0) for i in range(c.finance.contracts_face_up)]
        jobs += [("part", self.colours.index(col), "wheel", pos, 0) for pos, col in enumerate(c.wheel.setup)]
        rows = c.boards.project_rows
        jobs += [("project", -1, "grid", col, row) for col in range(2) for row in range(rows)]
        state = BotFactoryState(
            hands=hands,
            supply=tuple(c.counts.tokens_per_colour - hand.tokens for hand in hands),
            piles=((per, per, per),) * 4,
            discards=((0, 0, 0),) * 4,
            universal=(c.counts.universal_per_slot,) * 3,
            wheel=(None,) * 8,
            marker=0,
            columns=((None, None, None),) * 4,
            bots_left=(self.end_count,) * 4,
            spares=(None,) * c.boards.spares,
            grid=((None,) * rows, (None,) * rows),
            project_pile=(c.counts.projects_per_colour,) * 4,
            project_discard=(0,) * 4,
            values=(c.finance.start_value,) * 4,
            display=(None,) * c.finance.contracts_face_up,
            contract_pool=tuple(sorted(self.contracts)),
            reserved=((),) * c.finance.contracts_face_up,
            workers=(None,) * n,
            sandra=c.boards.sandra_start,
            round=1,
            phase=SETUP,
            order=tuple(range(n)),
            draws=tuple(jobs),
            after_discard="setup",
        )
        return settle(self, state)

    def to_move(self, state: BotFactoryState) -> Mover:
        if state.phase is OVER:
            return None
        if state.draws:
            return CHANCE
        if state.phase is DISCARD:
            return state.discarder
        if state.phase is PICK:
            return tuple(reversed(state.order))[state.index]
        if state.window:
            return state.window[0]
        return state.order[state.index]

    def is_terminal(self, state: BotFactoryState) -> bool:
        return state.phase is OVER
