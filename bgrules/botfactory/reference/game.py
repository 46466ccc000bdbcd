"""``ReferenceBotFactoryGame``: a plain second reading of docs/rules/botfactory.md, the seed and the state's
documented fields, against which the fast engine (``bgrules.botfactory.game.BotFactoryGame``) is checked
(tests/refinement). The representation conventions it follows are written down in docs/rules/botfactory.md,
"Engine conventions".

The flow of a round (BF-ROUND) is a handful of plain functions below: ``settle`` runs the automatic steps
(pending draws first, then the resume point ``after_discard``) until a player or chance decides.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs

from bgrules.botfactory import state as bf
from bgrules.botfactory.reference import (
    assembly,
    draws,
    ending,
    finance,
    limits,
    maintenance,
    moves,
    production,
    projects,
    sandra,
    setup,
)
from bgrules.botfactory.reference.common import (
    BOARD_ASSEMBLY,
    BOARD_PRODUCTION,
    BOARD_PROJECT,
    actions_of,
    board_of,
    pay_tokens,
    replace,
)
from bgrules.botfactory.reference.windows import additional_options, strip, window
from bgrules.botfactory.state import BotFactoryState, Job, Phase, Turn
from bgrules.botfactory.validate import problems
from bgrules.botfactory.variant import RUNNER_ROUNDS, BotFactoryVariant, game_variant, max_length
from bgrules.core.errors import IllegalAction
from bgrules.core.memo import Memos
from bgrules.core.protocol import CHANCE, GameBase, GameInfo, Mover

RULE_OF: dict[type, str] = {
    bf.TakeTop: "BF-SETUP-PARTS",
    bf.MoveWorker: "BF-MOVE",
    bf.PayShare: "BF-SANDRA-SHARE",
    bf.PlacePart: "BF-ASM",
    bf.Rotate: "BF-PROD-ROTATE",
    bf.Refill: "BF-PROD-ROTATE",
    bf.TakeOutput: "BF-PROD-TAKE",
    bf.TakeProject: "BF-PROJ",
    bf.Raise: "BF-FIN-RAISE",
    bf.Reserve: "BF-FIN-CONTRACT",
    bf.Swap: "BF-ASM-SWAP",
    bf.Trade: "BF-PROD-TRADE",
    bf.Exchange: "BF-PROJ-TRADE",
    bf.Skip: "BF-ROUND",
    bf.EndTurn: "BF-ADDITIONAL",
    bf.DiscardPart: "BF-LIMIT-PARTS",
    bf.DiscardProject: "BF-LIMIT-PROJECTS",
    bf.DrawPart: "BF-PILE",
    bf.DrawProject: "BF-MAINT",
    bf.DrawContract: "BF-SETUP-BOARDS",
}
"""docs/rules/botfactory.md, Actions: every action class, in the table's order, with the rule an illegal
action of that kind breaks (refined by the moment in ``_rule_for``)."""

ACTION_TYPES: tuple[type, ...] = tuple(RULE_OF)
"""The actions in the order of docs/rules/botfactory.md, Actions (the codec's order)."""


class ReferenceBotFactoryGame(GameBase):
    """Bot Factory through the Game protocol, written plainly from the rules (no memo in its rules, no interning)."""

    ACTIONS = ACTION_TYPES
    REFUSAL_RULES_DIFFER = (
        "an action that breaks several rules: the reference names the additional-action window (BF-ADDITIONAL, "
        "BF-ADDITIONAL-WINDOW) and a part's place in hand (BF-ASM, BF-SETUP-PARTS) first, the fast engine the "
        "board's own guard; both must refuse (docs/refinement.md, Refusals)"
    )

    def __init__(
        self, players: int = 4, variant: BotFactoryVariant | str | None = None, max_rounds: int | None = None
    ) -> None:
        self.variant = game_variant(players, variant, max_rounds)  # the options' checks, shared with every engine
        self._players = players
        self.max_rounds = max_rounds
        """BF-END: the game's own round cap (None: the seed's ends only)."""
        self.runner_rounds = None if max_rounds is not None else RUNNER_ROUNDS
        """Termination 5: the runners' default cap, for a game without a cap of its own."""
        self.c = self.variant.components
        self.colours = self.c.colours
        """Components, Pieces: the piles', the bots' and the seats' colours, in this order."""
        self.slots = self.c.slots
        self.spaces = self.c.spaces()
        """The action spaces numbered left to right across the boards 01-04: (board, space, action count)."""
        self.contracts = {contract.id: contract for contract in self.c.contracts}
        self.end_count = ending.bots_in_play(self.variant, players)
        self.last_assembly_space = max(i for i, sp in enumerate(self.spaces) if sp[0] == BOARD_ASSEMBLY)
        """BF-ASM-LAST: the Assembly board's last space."""
        self.memos = Memos()
        """The memos the checks keep on this game (the invariants' tables, bgrules.botfactory.invariant_counts);
        the rules here keep none."""
        bound = max_length(self.variant, players, max_rounds)  # Termination 4, one formula for every engine
        self._info = GameInfo("botfactory", 2, 4, True, bound, (("players", "4"), ("max_rounds", "none")))

    # --- protocol -----------------------------------------------------------------------------------

    def state_type(self) -> type[BotFactoryState]:
        return BotFactoryState

    def round_of(self, state: BotFactoryState) -> int:
        return state.round

    def validate(self, state: BotFactoryState) -> list[str]:
        """bgrules.botfactory.validate.problems, which reads only this object's data attributes, its
        ``chance_outcomes`` and ``_discard_options``."""

        return problems(self, state)  # type: ignore[arg-type]

    def _discard_options(self, state: BotFactoryState) -> tuple[Any, ...]:
        return limits.options(self, state)

    def initial_state(self) -> BotFactoryState:
        """BF-SETUP-TOKENS, BF-SETUP-WHEEL, BF-SETUP-BOARDS (``setup.initial_state``), settled: a chance node."""
        return self._settle(setup.initial_state(self))

    def to_move(self, state: BotFactoryState) -> Mover:
        if state.phase is Phase.OVER:
            return None
        if state.draws:
            return CHANCE
        if state.phase is Phase.DISCARD:
            return state.discarder
        if state.phase is Phase.PICK:
            return setup.picker(state)
        if state.window:
            return state.window[0]
        return state.order[state.index]

    def is_terminal(self, state: BotFactoryState) -> bool:
        return state.phase is Phase.OVER

    def scores(self, state: BotFactoryState) -> tuple[int, ...]:
        return ending.scores(self, state)

    def winners(self, state: BotFactoryState) -> tuple[int, ...]:
        return ending.winners(self, state)

    def end_trigger(self, state: BotFactoryState) -> str | None:
        return ending.trigger(self, state)

    def chance_outcomes(self, state: BotFactoryState) -> tuple[tuple[Any, Fraction], ...]:
        if state.phase is Phase.OVER:
            return ()
        return draws.outcomes(self, state)

    def legal_actions(self, state: BotFactoryState) -> tuple[Any, ...]:
        """Every legal player action, in the order of docs/rules/botfactory.md, Engine conventions."""
        s = state
        if s.phase is Phase.OVER or s.draws:
            return ()
        if s.phase is Phase.DISCARD:
            return limits.options(self, s)
        if s.phase is Phase.PICK:
            return production.top_takes(self, s)
        seat = self.to_move(s)
        assert isinstance(seat, int)
        if s.phase is Phase.MOVE:
            return moves.worker_moves(self, s, seat)
        if s.window:
            return (*additional_options(self, s, seat), bf.EndTurn())
        turn = s.turn
        assert turn is not None
        if turn.prompt:
            return (*self._prompt_options(s, seat, turn.prompt), bf.Skip())
        if turn.main in ("share", "extra"):
            return ((bf.PayShare(),) if s.hands[seat].tokens >= self._fee(s, seat, turn.main) else ()) + (bf.Skip(),)
        main = self._main_options(s, seat, turn.left) if turn.main == "open" and turn.left > 0 else ()
        return (*main, *additional_options(self, s, seat), bf.EndTurn())

    def apply(self, state: BotFactoryState, action: Any) -> BotFactoryState:
        """One action or chance outcome; an action not legal here raises IllegalAction naming its rule and
        leaves the state as it was."""
        s = state
        if s.phase is Phase.OVER:
            raise IllegalAction("BF-END", "the game is over")
        if s.draws:
            if not isinstance(action, bf.DrawPart | bf.DrawProject | bf.DrawContract) or not draws.legal_outcome(
                self, s, action
            ):
                raise IllegalAction("BF-PILE", f"{action!r} is not an outcome of the pending draw {s.draws[0]}")
            return self._settle(draws.draw(self, s, action))
        try:
            legal = action in self.legal_actions(s)
        except TypeError:
            legal = False
        if not legal:
            rule = self._rule_for(s, action)
            raise IllegalAction(rule, f"{action!r} is not legal here ({s.phase.value}, round {s.round})")
        if s.phase is Phase.DISCARD:
            return self._settle(limits.discard(self, s, action))
        if s.phase is Phase.PICK:
            return self._settle(setup.pick(self, s, action))
        if s.phase is Phase.MOVE:
            return self._settle(self._move(s, action))
        if s.window:
            return self._settle(self._window_action(s, action))
        return self._settle(self._turn_action(s, action))

    def _rule_for(self, s: BotFactoryState, action: Any) -> str:
        if s.phase is Phase.DISCARD:
            return "BF-LIMIT-PARTS" if isinstance(action, bf.DiscardPart) else "BF-LIMIT-PROJECTS"
        if s.phase is Phase.MOVE:
            return "BF-MOVE"
        if s.phase is Phase.PICK:
            return "BF-SETUP-PARTS"
        if s.window:
            return "BF-ADDITIONAL-WINDOW" if s.turn is None and s.index == 0 else "BF-ADDITIONAL"
        return RULE_OF.get(type(action), "BF-ROUND")

    # --- options ------------------------------------------------------------------------------------

    def _fee(self, s: BotFactoryState, seat: int, main: str) -> int:
        """BF-SANDRA-SHARE: Sandra's token; BF-ASM-LAST: the last Assembly space's extra token (both at once
        on her board under ``last_space_toll = "combined"``)."""
        extra = self.c.boards.assembly_last_extra_cost
        if main == "extra":
            return extra
        on_last = s.workers[seat] == self.last_assembly_space
        if on_last and self.variant.rulings.last_space_toll == "combined":
            return (1 if self._sharing(s, seat) else 0) + extra
        return 1

    def _sharing(self, s: BotFactoryState, seat: int) -> bool:
        """BF-SANDRA-SHARE: the worker stands on Sandra's board."""
        space = s.workers[seat]
        return space is not None and board_of(self, space) == board_of(self, s.sandra)

    def _main_options(self, s: BotFactoryState, seat: int, left: int) -> tuple[Any, ...]:
        """The main action's steps of the worker's board: BF-ASM, BF-PROD, BF-PROJ, BF-FIN."""
        space = s.workers[seat]
        assert space is not None
        board = board_of(self, space)
        if board == BOARD_ASSEMBLY:
            return assembly.placements(self, s, seat)
        if board == BOARD_PRODUCTION:
            return (bf.Rotate(), *production.takes(self, s))
        if board == BOARD_PROJECT:
            return projects.project_takes(s)
        return (*finance.raises(self, s, seat, left), *finance.reserves(self, s, seat, left))

    def _prompt_options(self, s: BotFactoryState, seat: int, prompt: tuple[str, ...]) -> tuple[Any, ...]:
        """The pending optional reward: BF-PROD-MARK / BF-PROJ-LEFT ("place", for a token), BF-FIN-LINE
        ("place_free", "project"), BF-ASM-ICON ("icon", for a token), BF-PROD-ROTATE ("refill", position)."""
        kind = prompt[0]
        tokens = s.hands[seat].tokens
        if kind == "place":
            return assembly.placements(self, s, seat) if tokens >= 1 else ()
        if kind == "place_free":
            return assembly.placements(self, s, seat)
        if kind == "icon":
            return production.top_takes(self, s) if tokens >= 1 else ()
        if kind == "project":
            return projects.project_takes(s)
        return production.refills(self, s, int(prompt[1]))

    # --- set-up and moves ---------------------------------------------------------------------------

    def _move(self, s: BotFactoryState, action: bf.MoveWorker) -> BotFactoryState:
        """BF-MOVE: the worker to its space; after the last move, BF-SANDRA-MOVE (from round 2) and the action
        phase (BF-ROUND), opening with the window after the moves (BF-ADDITIONAL-WINDOW)."""
        seat = s.order[s.index]
        s = attrs.evolve(s, workers=replace(s.workers, seat, action.space), index=s.index + 1)
        if s.index < self._players:
            return s
        if s.round > 1:
            s = attrs.evolve(s, sandra=moves.sandra_target(self, s))
        s = attrs.evolve(s, phase=Phase.ACTION, index=0)
        if self.variant.rulings.opening_window == "after_moves":
            w = window(self, s, s.order[1:])
            if w:
                return attrs.evolve(s, turn=None, window=w)
        return self._open_turn(s, 0)

    # --- turns and windows --------------------------------------------------------------------------

    def _open_turn(self, s: BotFactoryState, i: int) -> BotFactoryState:
        """BF-ORDER: the turn of the i-th player: N actions (the space's count); it opens with Sandra's toll on
        her board (BF-SANDRA-SHARE), else with the last Assembly space's token (BF-ASM-LAST)."""
        seat = s.order[i]
        space = s.workers[seat]
        assert space is not None
        combined = self.variant.rulings.last_space_toll == "combined"
        on_last = space == self.last_assembly_space and self.c.boards.assembly_last_extra_cost > 0
        if board_of(self, space) == board_of(self, s.sandra) or (combined and on_last):
            main = "share"  # under "combined" the last space's token is the same one payment
        elif on_last:
            main = "extra"
        else:
            main = "open"
        return attrs.evolve(s, index=i, turn=Turn(actions_of(self, space), main), window=())

    def _end_turn(self, s: BotFactoryState) -> BotFactoryState:
        """BF-ADDITIONAL: the turn ends; a window opens for the players after the next one and before this
        one (in action order), or, after the last turn, for all but the last player."""
        n = self._players
        j = s.index + 1
        s = attrs.evolve(s, turn=None)
        if j < n:
            w = window(self, s, s.order[j + 1 :] + s.order[: j - 1])
            if w:
                return attrs.evolve(s, index=j, window=w)
            return self._open_turn(s, j)
        w = window(self, s, s.order[: n - 1])
        if w:
            return attrs.evolve(s, index=n, window=w)
        return self._sandra(attrs.evolve(s, index=n))

    def _window_closed(self, s: BotFactoryState) -> BotFactoryState:
        n = self._players
        if s.index < n:
            return self._open_turn(s, s.index)
        if s.index == n:
            return self._sandra(s)
        return self._maintenance(s)

    def _refilter(self, s: BotFactoryState, w: tuple[int, ...]) -> BotFactoryState:
        """A window goes on from the first seat that has an additional action to take."""
        w = strip(self, s, w)
        if w:
            return attrs.evolve(s, window=w)
        return self._window_closed(attrs.evolve(s, window=()))

    def _window_action(self, s: BotFactoryState, action: Any) -> BotFactoryState:
        """BF-ADDITIONAL: in a window, an additional action (then the limits) or EndTurn to pass."""
        seat = s.window[0]
        if isinstance(action, bf.EndTurn):
            return self._refilter(s, s.window[1:])
        return attrs.evolve(self._additional(s, seat, action), after_discard="action")

    def _additional(self, s: BotFactoryState, seat: int, action: Any) -> BotFactoryState:
        if isinstance(action, bf.Swap):
            return assembly.swap(self, s, seat, action)
        if isinstance(action, bf.Trade):
            return production.trade(self, s, seat, action)
        return projects.exchange(self, s, seat, action)

    def _turn_action(self, s: BotFactoryState, action: Any) -> BotFactoryState:
        """One step of the acting player's turn; the limits are applied once it is resolved."""
        seat = s.order[s.index]
        turn = s.turn
        assert turn is not None
        if isinstance(action, bf.EndTurn):
            return self._end_turn(s)
        if isinstance(action, bf.PayShare):
            s = pay_tokens(s, seat, self._fee(s, seat, turn.main))
            if turn.main == "share" and self._sharing(s, seat):
                s = attrs.evolve(s, paid=tuple(sorted((*s.paid, seat))))
                separate = self.variant.rulings.last_space_toll == "separate"
                if (
                    s.workers[seat] == self.last_assembly_space
                    and separate
                    and self.c.boards.assembly_last_extra_cost > 0
                ):
                    return attrs.evolve(s, turn=attrs.evolve(turn, main="extra"))
            return attrs.evolve(s, turn=attrs.evolve(turn, main="open"))
        if isinstance(action, bf.Skip):
            if turn.prompt:
                return self._set_prompt(s, self._after_prompt(s, turn.prompt), "action")
            if turn.main == "share" and self._sharing(s, seat) and self.variant.rulings.unpaid_share == "nothing":
                return self._end_turn(s)
            return attrs.evolve(s, turn=attrs.evolve(turn, main="closed"))
        if turn.prompt:
            return self._resolve_prompt(s, seat, turn, action)
        if isinstance(action, bf.Swap | bf.Trade | bf.Exchange):
            return attrs.evolve(self._additional(s, seat, action), after_discard="action")
        s = attrs.evolve(s, turn=attrs.evolve(turn, left=turn.left - 1))
        if isinstance(action, bf.PlacePart):
            s, icon = assembly.place(self, s, seat, action)
            return self._set_prompt(s, ("icon",) if icon else (), "action")
        if isinstance(action, bf.Rotate):
            s = production.rotate(s)
            top = production.first_empty_top(self, s)
            return self._set_prompt(s, () if top is None else ("refill", str(top)), "action")
        if isinstance(action, bf.TakeOutput):
            s, marked = production.take(self, s, seat, action.position)
            return self._set_prompt(s, ("place",) if marked else (), "action")
        if isinstance(action, bf.TakeProject):
            s, left_bottom = projects.take_project(self, s, seat, action)
            return self._set_prompt(s, ("place",) if left_bottom else (), "action")
        if isinstance(action, bf.Raise):
            s, reward = finance.raise_value(self, s, seat, action)
            prompt = {"part": ("place_free",), "project": ("project",)}.get(reward, ())
            return self._set_prompt(s, prompt, "action")
        assert isinstance(action, bf.Reserve)
        s, cost = finance.reserve(self, s, seat, action.slot)
        assert s.turn is not None
        s = attrs.evolve(s, turn=attrs.evolve(s.turn, left=turn.left - cost))
        return attrs.evolve(s, after_discard="action")

    def _after_prompt(self, s: BotFactoryState, prompt: tuple[str, ...]) -> tuple[str, ...]:
        """After a refill offer (taken or skipped), the next empty top space's offer (BF-PROD-ROTATE)."""
        if prompt[0] == "refill":
            top = production.first_empty_top(self, s, after=int(prompt[1]))
            return () if top is None else ("refill", str(top))
        return ()

    def _set_prompt(self, s: BotFactoryState, prompt: tuple[str, ...], resume: str) -> BotFactoryState:
        assert s.turn is not None
        return attrs.evolve(s, turn=attrs.evolve(s.turn, prompt=prompt), after_discard=resume)

    def _resolve_prompt(self, s: BotFactoryState, seat: int, turn: Turn, action: Any) -> BotFactoryState:
        kind = turn.prompt[0]
        if isinstance(action, bf.PlacePart):
            if kind == "place":
                s = pay_tokens(s, seat, 1)  # BF-PROD-MARK / BF-PROJ-LEFT: the placement costs a token
            s, icon = assembly.place(self, s, seat, action)
            return self._set_prompt(s, ("icon",) if icon else (), "action")
        if isinstance(action, bf.TakeTop):  # BF-ASM-ICON
            s = pay_tokens(s, seat, 1)
            job: Job = ("part", self.colours.index(action.colour), "hand", seat, 0)
            s = attrs.evolve(s, draws=(*s.draws, job))
            return self._set_prompt(s, (), "action")
        if isinstance(action, bf.TakeProject):  # BF-FIN-LINE: the line-8 reward
            s, left_bottom = projects.take_project(self, s, seat, action)
            return self._set_prompt(s, ("place",) if left_bottom else (), "action")
        assert isinstance(action, bf.Refill)  # BF-PROD-ROTATE
        job = ("part", self.colours.index(action.colour), "wheel", action.position, 0)
        s = attrs.evolve(s, draws=(*s.draws, job))
        return self._set_prompt(s, self._after_prompt(s, turn.prompt), "action")

    # --- Sandra, maintenance, the round's end -------------------------------------------------------

    def _sandra(self, s: BotFactoryState) -> BotFactoryState:
        """BF-SANDRA-ACT: after every player (round 1: nothing), Sandra's action of her board; then the window
        before maintenance."""
        if s.round == 1:
            return self._maintenance(s)
        windows = self.variant.rulings.additional_actions == "any_time"
        if windows:  # the window before maintenance is the one after index n (Engine conventions)
            s = attrs.evolve(s, index=self._players + 1)
        s = sandra.act(self, s)
        if s.draws:
            return attrs.evolve(s, after_discard="window" if windows else "maintenance")
        return self._before_maintenance(s)

    def _before_maintenance(self, s: BotFactoryState) -> BotFactoryState:
        w = window(self, s, s.order)
        if w:
            return attrs.evolve(s, window=w)
        return self._maintenance(s)

    def _maintenance(self, s: BotFactoryState) -> BotFactoryState:
        return maintenance.maintenance(self, s)

    # --- settling -----------------------------------------------------------------------------------

    def _settle(self, s: BotFactoryState) -> BotFactoryState:
        """Run the automatic steps: ready the next draw (BF-PILE); with no draw pending, resume where
        ``after_discard`` says, unless a player is discarding."""
        while True:
            if s.draws:
                s = draws.ready_head(s)
                if s.draws:
                    return s
                continue
            if s.phase is Phase.DISCARD or not s.after_discard:
                return s
            where = s.after_discard
            s = self._resume(attrs.evolve(s, after_discard=""), where)

    def _resume(self, s: BotFactoryState, where: str) -> BotFactoryState:
        if where == "setup":
            return setup.after_setup_draws(s)
        if where == "pick":
            return setup.after_pick_draw(self, s)
        if where == "action" and s.window:  # a window's additional action is resolved
            s = limits.check(self, s, s.window[0], "action")
            if s.phase is Phase.DISCARD:
                return s
            return self._refilter(s, s.window)
        if where == "action":
            return limits.check(self, s, s.order[s.index], "action")
        if where == "window":  # Sandra's draws are done: the window before maintenance
            return self._before_maintenance(s)
        if where == "maintenance":  # Sandra's draws are done (no windows): maintenance
            return self._maintenance(s)
        return maintenance.round_end(self, s)


__all__ = ["ACTION_TYPES", "RUNNER_ROUNDS", "ReferenceBotFactoryGame"]
