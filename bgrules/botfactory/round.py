"""The round of Bot Factory (BF-ROUND): workers move (BF-MOVE, then Sandra: BF-SANDRA-MOVE), each player
takes an action turn on their board (paying Sandra's toll when sharing her board: BF-SANDRA-SHARE), Sandra
acts (BF-SANDRA-ACT), maintenance (BF-MAINT), the end (BF-END) and the next round's order (BF-ORDER);
final scoring (BF-SCORE, BF-TIE). Each board's own actions live in its room
(:mod:`~bgrules.botfactory.assembly`, :mod:`~bgrules.botfactory.production`,
:mod:`~bgrules.botfactory.projects`, :mod:`~bgrules.botfactory.finance`); this module hands each action to
the room of the board through its table of rooms (``ROOMS``)."""

from __future__ import annotations

from typing import Any, Protocol

from bgrules.botfactory import assembly, finance, production, projects, scoring
from bgrules.botfactory.base import (
    _TURN_MAIN,
    _TURN_PROMPT,
    _WITH_TURN,
    _offered,
    _set,
)
from bgrules.botfactory.draws import Draws
from bgrules.botfactory.limits import Limits
from bgrules.botfactory.state import (
    ACTION,
    DISCARD,
    END_TURN,
    MOVE,
    OVER,
    PAY_SHARE,
    PICK,
    SKIP,
    BotFactoryState,
    EndTurn,
    Exchange,
    MoveWorker,
    PayShare,
    PlacePart,
    Skip,
    Swap,
    TakeProject,
    TakeTop,
    Trade,
    Turn,
)
from bgrules.botfactory.tokens import Tokens
from bgrules.core import coverage
from bgrules.core.errors import IllegalAction
from bgrules.core.fastevolve import copier, evolve

# the hottest copies of the round, by position (``fastevolve.copier``: ``evolve`` without its keywords)
_MOVED = copier(BotFactoryState, "workers", "index")
_ALL_MOVED = copier(BotFactoryState, "workers", "sandra", "phase", "index", "turn")
_NEXT_TURN = copier(BotFactoryState, "turn", "index")
_INTO_WINDOW = copier(BotFactoryState, "turn", "index", "window")
_NEXT_ROUND = copier(BotFactoryState, "round", "order", "index", "phase", "after_discard", "paid")
_PAID_TURN = copier(BotFactoryState, "turn", "paid")


_ADDITIONAL_TYPES = (Swap, Trade, Exchange)
"""The additional actions (BF-ADDITIONAL)."""


class Room(Protocol):
    """A board's room (a module of functions: :mod:`~bgrules.botfactory.assembly`,
    :mod:`~bgrules.botfactory.production`, :mod:`~bgrules.botfactory.projects`,
    :mod:`~bgrules.botfactory.finance`): its main action's options and its guard with its effect, its
    additional action's (BF-ADDITIONAL), and Sandra's action there (BF-SANDRA-ACT)."""

    RULE: str
    ADDITIONAL_RULE: str | None
    """The rule of the board's additional action; None: the board has none."""
    PLACE_RULE: str | None
    """The rule of the board's paid placement (a ``place`` prompt); None: the board offers none."""

    def main_options(self, game: Tokens, state: BotFactoryState, seat: int, turn: Turn) -> list[Any]:
        """BF-ROUND: the main action's options of ``seat`` standing on the board, its turn ``turn`` open."""
        ...

    def main(self, game: Tokens, state: BotFactoryState, seat: int, turn: Turn, action: Any) -> BotFactoryState:
        """BF-ROUND: one step of the board's main action, guarded (an action of another board is refused under
        the board's ``RULE``), and its effect."""
        ...

    def additional_options(self, game: Tokens, state: BotFactoryState, seat: int) -> tuple[Any, ...]:
        """BF-ADDITIONAL: the board's additional actions open to ``seat`` (any number of times)."""
        ...

    def additional(self, game: Tokens, state: BotFactoryState, seat: int, action: Any) -> BotFactoryState:
        """BF-ADDITIONAL: an additional action, guarded (one of ``additional_options``), and its effect."""
        ...

    def sandra(self, game: Tokens, state: BotFactoryState, **changes: Any) -> BotFactoryState:
        """BF-SANDRA-ACT: Sandra's action on the board; ``changes`` (fields it does not read) in the same copy."""
        ...


ROOMS: tuple[Room, ...] = (assembly, production, projects, finance)
"""BF-ROUND: the room of each board, by the board's number (ASSEMBLY, PRODUCTION, PROJECT, FINANCE): where
the round hands a main action, an additional action and Sandra's action."""


class RoundFlow(Tokens, Draws, Limits):
    # --- legal actions ------------------------------------------------------------------------------

    def _legal_actions(self, state: BotFactoryState) -> tuple[Any, ...]:
        """BF-ROUND: the decisions of the phase (BF-SETUP-PARTS, BF-MOVE, the action turn, BF-ADDITIONAL windows, BF-
        LIMIT-PARTS / BF-LIMIT-PROJECTS discards) or the chance outcomes (BF-PILE)."""
        if state.phase is OVER:
            return ()
        if state.draws:
            return tuple(a for a, _p in self.chance_outcomes(state))
        if state.phase is DISCARD:
            return self._discard_options(state)
        if state.phase is PICK:
            return tuple(
                TakeTop(col) for ci, col in enumerate(self.colours) if sum(state.piles[ci]) or sum(state.discards[ci])
            )
        if state.window:
            seat = state.window[0]
            return (*ROOMS[self._board_of(state, seat)].additional_options(self, state, seat), END_TURN)
        seat = state.order[state.index]
        if state.phase is MOVE:
            return self._move_options(state, seat)[0]
        return tuple(self._turn_options(state, seat))

    def _move_options(self, state: BotFactoryState, seat: int) -> tuple[tuple[MoveWorker, ...], frozenset[int]]:
        """BF-MOVE: the moves of ``seat`` and their spaces (``_move_targets``), memoised by what they read: the
        seat, Sandra and the workers; every key with the same spaces shares one answer (the ``move_offers``
        memo; docs/speed.md, "Bot Factory's hot path")."""
        key = state.workers + (state.sandra, seat)  # noqa: RUF005
        found = self._move_memo.get(key)
        if found is None:
            targets = tuple(self._move_targets(state, seat))
            memos = self.memos
            offers: dict[tuple[int, ...], tuple[tuple[MoveWorker, ...], frozenset[int]]]
            offers = memos["move_offers"]
            found = offers.get(targets)
            if found is None:
                n = len(self.spaces)
                table = memos["moves"]
                moves = table.get(n)
                if moves is None:  # one MoveWorker per space, shared by every answer
                    moves = memos.put(table, n, tuple(MoveWorker(i) for i in range(n)))
                found = memos.put(offers, targets, (tuple([moves[s] for s in targets]), frozenset(targets)))
            memos.put(self._move_memo, key, found)
        return found

    def _move_targets(self, state: BotFactoryState, seat: int) -> list[int]:
        """BF-MOVE: an empty action space on another board (round 1: any empty space)."""
        taken = set(state.workers)  # (None among them is no space)
        taken.add(state.sandra)
        here = state.workers[seat]
        known = self.memos["move_candidates"]
        candidates = known.get(here)
        if candidates is None:  # the spaces not on the board of ``here`` (all of them in round 1), per game
            candidates = tuple(
                i for i in range(len(self.spaces)) if here is None or self.spaces[i][0] != self.spaces[here][0]
            )
            self.memos.put(known, here, candidates)
        return [i for i in candidates if i not in taken]

    def _turn_options(self, state: BotFactoryState, seat: int) -> list[Any]:
        """BF-ROUND: the action turn: a pending reward, the fees (BF-SANDRA-SHARE, BF-ASM-LAST), the main action while
        open, the additional actions (BF-ADDITIONAL), EndTurn."""
        turn = state.turn
        assert turn is not None
        hand = state.hands[seat]
        if turn.prompt:
            return self._prompt_options(state, seat, turn)
        if turn.main == "share" or turn.main == "extra":
            return [PAY_SHARE, SKIP] if hand.tokens >= self._fee(state, seat, turn) else [SKIP]
        board = self._board_of(state, seat)
        if turn.main == "open" and turn.left > 0:
            return [
                *self._main_options(state, seat, board, turn),
                *ROOMS[board].additional_options(self, state, seat),
                END_TURN,
            ]
        return [*ROOMS[board].additional_options(self, state, seat), END_TURN]

    def _main_options(self, state: BotFactoryState, seat: int, board: int, turn: Turn) -> list[Any]:
        """The main action of the board one stands on (BF-ASM, BF-PROD, BF-PROJ, BF-FIN): its room's."""
        return ROOMS[board].main_options(self, state, seat, turn)

    def _additional_options(self, state: BotFactoryState, seat: int, board: int) -> tuple[Any, ...]:
        """BF-ADDITIONAL: the additional action of the board one stands on, any number of times: its room's
        (BF-ASM-SWAP, BF-PROD-TRADE, BF-PROJ-TRADE; none on Finance)."""
        return ROOMS[board].additional_options(self, state, seat)

    def _prompt_options(self, state: BotFactoryState, seat: int, turn: Turn) -> list[Any]:
        """The answers to a pending reward: BF-ASM-ICON, BF-PROD-MARK / BF-PROJ-LEFT (a token), BF-FIN-LINE (free
        placement or a Project tile), BF-PROD-ROTATE (refill)."""
        kind = turn.prompt[0]
        if kind == "icon":  # BF-ASM-ICON: pay a token for the top part of any pile
            return assembly.icon_options(self, state, seat)
        if kind in ("place", "place_free"):  # BF-PROD-MARK, BF-PROJ-LEFT (a token), BF-FIN-LINE (free)
            if kind == "place" and state.hands[seat].tokens < 1:
                return [SKIP]
            return [*assembly.placements(self, state, seat), SKIP]
        if kind == "refill":  # BF-PROD-ROTATE
            return production.refill_options(self, state, int(turn.prompt[1]))
        # "project": BF-FIN-LINE, take a Project tile
        return projects.line_reward_options(self, state)

    def _sharing(self, state: BotFactoryState, seat: int) -> bool:
        """BF-SANDRA-SHARE: the player's worker stands on the board Sandra stands on."""
        return self.spaces[state.sandra][0] == self._board_of(state, seat)

    def _extra(self, state: BotFactoryState, seat: int) -> int:
        """BF-ASM-LAST: the extra tokens of the space the player stands on (the last Assembly space's)."""
        where = state.workers[seat]
        assert where is not None
        return assembly.extra_cost(self, where)

    def _toll(self, state: BotFactoryState, seat: int) -> int:
        """BF-SANDRA-SHARE and BF-ASM-LAST: what the main action costs before it may be taken."""
        return (1 if self._sharing(state, seat) else 0) + self._extra(state, seat)

    def _fee(self, state: BotFactoryState, seat: int, turn: Turn) -> int:
        """The fee ``PayShare()`` pays now: with ``last_space_toll = "separate"`` Sandra's token first
        ("share", BF-SANDRA-SHARE), then the last space's extra token ("extra", BF-ASM-LAST); with
        ``"combined"`` both at once."""
        if turn.main == "extra":
            return self._extra(state, seat)
        if self.variant.rulings.last_space_toll == "combined":
            return self._toll(state, seat)
        return 1

    # --- apply --------------------------------------------------------------------------------------

    def apply(self, state: BotFactoryState, action: Any) -> BotFactoryState:
        """BF-ROUND: one action or chance outcome, then the automatic steps (``_settle``); an illegal one raises
        IllegalAction naming its rule and changes nothing."""
        if state.phase is OVER:
            raise IllegalAction("BF-END", "the game is over; no action is legal")
        if state.draws:
            return self._settle(self._resolve_draw(state, action))
        if state.phase is DISCARD:
            return self._settle(self._discard(state, action))
        if state.phase is PICK:
            return self._settle(self._pick(state, action))
        if state.phase is MOVE:
            return self._settle(self._move(state, action))
        return self._settle(self._act(state, action))

    def _pick(self, state: BotFactoryState, action: Any) -> BotFactoryState:
        """BF-SETUP-PARTS: in reverse action order each player takes the top part of any pile."""
        if not isinstance(action, TakeTop):
            raise IllegalAction("BF-SETUP-PARTS", f"{action!r}: take the top part of a pile (TakeTop)")
        seat = tuple(reversed(state.order))[state.index]
        ci = self.colour(action.colour)
        if not self._drawable(state, ci):
            raise IllegalAction("BF-SETUP-PARTS", f"the {action.colour} pile is empty")
        coverage.effect("BF-SETUP-PARTS")
        return evolve(state, draws=(("part", ci, "hand", seat, 0),), index=state.index + 1, after_discard="pick")

    def _move(self, state: BotFactoryState, action: Any) -> BotFactoryState:
        """BF-MOVE: the worker to an empty space on another board; once all have moved, Sandra moves (BF-SANDRA-MOVE,
        not in round 1) and the action phase begins."""
        seat = state.order[state.index]
        if not isinstance(action, MoveWorker):
            raise IllegalAction("BF-MOVE", f"{action!r}: move your worker (MoveWorker)")
        if action.space not in self._move_options(state, seat)[1]:
            raise IllegalAction("BF-MOVE", f"space {action.space} is taken or on the board you stand on")
        coverage.effect("BF-MOVE")
        workers = _set(state.workers, seat, action.space)
        if state.index + 1 < self._players:
            return _MOVED(state, workers, state.index + 1)
        sandra = self._sandra_target(state.sandra, workers) if state.round > 1 else state.sandra
        rulings = self.variant.rulings
        if rulings.additional_actions == "any_time" and rulings.opening_window == "after_moves":
            return self._after_moves(_ALL_MOVED(state, workers, sandra, ACTION, 0, None))
        # the action phase and its first turn (``_opening``) in one copy
        return _ALL_MOVED(state, workers, sandra, ACTION, 0, self._opening_on(workers, sandra, state.order[0]))

    def _after_moves(self, state: BotFactoryState) -> BotFactoryState:
        """BF-ADDITIONAL-WINDOW: the move phase is over (the workers and Sandra stand; ``state`` is the action
        phase at index 0 with no turn open yet): a window opens before the first turn, in action order,
        for every seat with an additional action to take but the first player (who acts next: a window
        would give them nothing their turn does not); else the first turn (``_opening``) at once."""
        first = state.order[0]
        window = self._window_left(state, self._window_seats(state, (first,)))
        if window:
            coverage.effect("BF-ADDITIONAL-WINDOW")
            return _INTO_WINDOW(state, None, 0, window)
        return _WITH_TURN(state, self._opening(state, first))

    def _sandra_target(self, sandra: int, workers: tuple[int | None, ...]) -> int:
        """BF-SANDRA-MOVE: where Sandra moves from ``sandra`` once the workers stand on ``workers``: to the
        first empty space, left to right, of the next board to the right that has one (wrapping; never her
        own board); she stays if none has."""
        coverage.effect("BF-SANDRA-MOVE")
        board = self.spaces[sandra][0]
        taken = {w for w in workers if w is not None}
        for k in range(1, 4):
            target = (board + k) % 4
            for i in self.board_spaces[target]:
                if i not in taken:
                    return i
        return sandra

    def _opening(self, state: BotFactoryState, seat: int) -> Turn:
        """BF-ROUND: the turn ``seat`` opens with, with the space's action count and its fees (BF-SANDRA-SHARE,
        BF-ASM-LAST; ruling ``last_space_toll``); it reads the workers and Sandra only."""
        return self._opening_on(state.workers, state.sandra, seat)

    def _opening_on(self, workers: tuple[int | None, ...], sandra: int, seat: int) -> Turn:
        """BF-ROUND: the turn ``seat`` opens with when the workers stand on ``workers`` and Sandra on ``sandra``:
        the space's action count, "share" while Sandra's toll is due (BF-SANDRA-SHARE; ruling
        ``last_space_toll = "combined"``: also for the last Assembly space's extra token), "extra" while
        only that token is (BF-ASM-LAST), else "open". One shared ``Turn`` per space and Sandra's space
        (memoised; bounded: cleared past 10,000)."""
        where = workers[seat]
        assert where is not None
        key = (where, sandra)
        found = self._opening_memo.get(key)
        if found is None:
            board, _space, n = self.spaces[where]
            sharing = self.spaces[sandra][0] == board  # _sharing
            extra = assembly.extra_cost(self, where)  # _extra
            if self.variant.rulings.last_space_toll == "combined":
                found = Turn(n, "share" if (1 if sharing else 0) + extra else "open")  # _toll
            else:
                found = Turn(n, "share" if sharing else "extra" if extra else "open")
            self.memos.put(self._opening_memo, key, found)
        return found

    def _act(self, state: BotFactoryState, action: Any) -> BotFactoryState:
        """BF-ROUND: an action of the turn: a window's (BF-ADDITIONAL), a reward's answer, the fees (BF-SANDRA-SHARE,
        BF-ASM-LAST), EndTurn, an additional or a main action: the last two handed to the room of the board
        (``ROOMS``: its guard, then its effect; an action of another board is refused under the board's rule)."""
        if state.window:
            return self._window_act(state, action)
        seat = state.order[state.index]
        turn = state.turn
        assert turn is not None
        if turn.prompt:
            return self._check_limits(self._answer(state, seat, turn, action), seat)
        if turn.main == "share":
            if isinstance(action, PayShare):
                state = self._pay(state, seat, self._fee(state, seat, turn), "BF-SANDRA-SHARE")
                coverage.effect("BF-SANDRA-SHARE")
                separate = self.variant.rulings.last_space_toll == "separate"
                main = "extra" if separate and self._extra(state, seat) else "open"
                if not self._sharing(state, seat):  # "combined": the last Assembly space's token alone (BF-ASM-LAST)
                    return _WITH_TURN(state, _TURN_MAIN(turn, main))
                # BF-SANDRA-PAID: Sandra's token paid, recorded for the round's later windows
                return _PAID_TURN(state, _TURN_MAIN(turn, main), tuple(sorted({*state.paid, seat})))
            if isinstance(action, Skip):
                if self._sharing(state, seat) and self.variant.rulings.unpaid_share == "nothing":
                    return self._end_turn(state)
                return _WITH_TURN(state, _TURN_MAIN(turn, "closed"))
            raise IllegalAction("BF-SANDRA-SHARE", f"{action!r}: pay the toll first (PayShare) or Skip")
        if turn.main == "extra":  # BF-ASM-LAST: unpaid, no part is placed but the additional action stays
            if isinstance(action, PayShare):
                state = self._pay(state, seat, self._fee(state, seat, turn), "BF-ASM-LAST")
                coverage.effect("BF-ASM-LAST")
                return _WITH_TURN(state, _TURN_MAIN(turn, "open"))
            if isinstance(action, Skip):
                return _WITH_TURN(state, _TURN_MAIN(turn, "closed"))
            raise IllegalAction("BF-ASM-LAST", f"{action!r}: pay the last space's token first (PayShare) or Skip")
        if isinstance(action, EndTurn):
            return self._end_turn(state)
        board = self._board_of(state, seat)
        if isinstance(action, _ADDITIONAL_TYPES):
            return self._check_limits(ROOMS[board].additional(self, state, seat, action), seat)
        if turn.main != "open" or turn.left <= 0:
            raise IllegalAction("BF-ROUND", f"{action!r}: no main action is left this turn (EndTurn)")
        return self._check_limits(ROOMS[board].main(self, state, seat, turn, action), seat)

    def _prompt_rule(self, state: BotFactoryState, seat: int, kind: str) -> str:
        """The rule a pending reward answers to (BF-PROD-MARK, BF-PROJ-LEFT, BF-ASM-ICON, BF-FIN-LINE,
        BF-PROD-ROTATE)."""
        if kind == "place":  # a paid placement: the Production board's marked space or the Project board's left
            return ROOMS[self._board_of(state, seat)].PLACE_RULE or "BF-PROJ-LEFT"
        return {"icon": "BF-ASM-ICON", "place_free": "BF-FIN-LINE", "refill": "BF-PROD-ROTATE"}.get(kind, "BF-FIN-LINE")

    def _answer(self, state: BotFactoryState, seat: int, turn: Turn, action: Any) -> BotFactoryState:
        """BF-ASM-ICON, BF-PROD-MARK, BF-PROJ-LEFT, BF-FIN-LINE, BF-PROD-ROTATE: the answer to a pending optional reward
        (icon part, paid or free placement, refill, Project)."""
        if not _offered(action, self._prompt_options(state, seat, turn)):
            rule = self._prompt_rule(state, seat, turn.prompt[0])
            raise IllegalAction(rule, f"{action!r} does not answer the pending choice {turn.prompt[0]!r}")
        kind = turn.prompt[0]
        if kind == "refill":  # the refill sets the turn's next prompt (or none) itself
            return production.refill(self, state, int(turn.prompt[1]), action)
        if kind == "project" and isinstance(action, TakeProject):  # the tile taken in the same copy
            return projects.take_project(self, state, seat, action, _TURN_PROMPT(turn, ()))
        cleared = _WITH_TURN(state, _TURN_PROMPT(turn, ()))
        if isinstance(action, Skip):
            return cleared
        if kind == "icon":
            assert isinstance(action, TakeTop)
            return assembly.take_icon_part(self, cleared, seat, action)
        if kind in ("place", "place_free"):
            assert isinstance(action, PlacePart)
            rule = self._prompt_rule(state, seat, kind)
            if kind == "place":
                cleared = self._pay(cleared, seat, 1, rule)
            return assembly.place(self, cleared, seat, action, rule)
        assert isinstance(action, TakeProject)
        return projects.take_project(self, cleared, seat, action)

    # --- additional-action windows (ruling additional_actions = "any_time") ---------------------------------

    def _window_seats(self, state: BotFactoryState, skip: tuple[int, ...]) -> tuple[int, ...]:
        """BF-ADDITIONAL: the seats offered a window, in action order from the seat after ``skip[0]`` (all
        of them when ``skip`` is empty): those whose worker stands on a board with an additional action,
        but not the seats in ``skip`` (the player whose turn just ended, and the one about to act: a window
        would give them nothing their own turn does not), nor a player on Sandra's board while an unpaid
        toll forbids any action (``unpaid_share = "nothing"``) unless they paid her this round (BF-SANDRA-PAID,
        ``paid_sharer = "any_time"``; under ``"own_turn"`` additional actions on her board are taken in
        one's own turn only, after paying). Whether a seat has an option is asked when its turn in the
        window comes. The seats offered one with nothing skipped are memoised on what they read (the order,
        the workers, Sandra, who paid Sandra; the order and the workers have one entry per seat, so the paid
        seats that end the key cannot be mistaken for them); those of ``skip`` are those from the seat after
        ``skip[0]`` round the order, less ``skip``."""
        order = state.order
        if len(order) != self._players:  # not a state of the usual shape: the plain walk says what
            return self._window_seats_of(state, skip)
        key = order + state.workers + (state.sandra,) + state.paid
        offered = self._window_memo.get(key)
        if offered is None:
            offered = self.memos.put(self._window_memo, key, self._window_seats_of(state, ()))
        if not skip:
            return offered
        start = order.index(skip[0]) + 1
        return tuple([seat for seat in order[start:] + order[:start] if seat in offered and seat not in skip])

    def _window_seats_of(self, state: BotFactoryState, skip: tuple[int, ...]) -> tuple[int, ...]:
        """BF-ADDITIONAL: ``_window_seats`` computed."""
        n = self._players
        start = (state.order.index(skip[0]) + 1) if skip else 0
        rulings = self.variant.rulings
        nothing = rulings.unpaid_share == "nothing"
        paid = state.paid if rulings.paid_sharer == "any_time" else ()  # BF-SANDRA-PAID
        sandra = self.spaces[state.sandra][0]
        out = []
        for k in range(n):
            seat = state.order[(start + k) % n]
            if seat in skip:
                continue
            board = self._board_of(state, seat)
            if ROOMS[board].ADDITIONAL_RULE is None or (nothing and board == sandra and seat not in paid):
                continue
            out.append(seat)
        return tuple(out)

    def _open_window(self, state: BotFactoryState, skip: tuple[int, ...], **changes: Any) -> BotFactoryState:
        """BF-ADDITIONAL: open a window (or go on at once when nobody is offered one); ``changes`` (fields the
        window's seats and options do not read) go into the copy it makes."""
        if self.variant.rulings.additional_actions != "any_time":
            return self._close_window(state, **changes)
        return self._next_in_window(state, self._window_seats(state, skip), **changes)

    def _window_left(self, state: BotFactoryState, window: tuple[int, ...]) -> tuple[int, ...]:
        """BF-ADDITIONAL: the window from its first seat with an additional action to take (the options read
        the hands and the supplies, never the window, the turn or its index)."""
        while window and not ROOMS[self._board_of(state, window[0])].additional_options(self, state, window[0]):
            window = window[1:]
        return window

    def _next_in_window(
        self, state: BotFactoryState, window: tuple[int, ...] | None = None, **changes: Any
    ) -> BotFactoryState:
        """BF-ADDITIONAL: the window ``window`` (default: the state's) opens on its first seat with an
        additional action to take, the others passed over; it closes when none is left. ``changes`` (fields
        the options do not read) go into the same copy: one copy of the state at most before the next turn."""
        window = self._window_left(state, state.window if window is None else window)
        if window:
            return evolve(state, window=window, **changes) if window != state.window or changes else state
        if state.window:
            changes["window"] = ()
        return self._close_window(state, **changes)

    def _close_window(self, state: BotFactoryState, **changes: Any) -> BotFactoryState:
        """After a window: the next turn; after the last turn Sandra acts (BF-SANDRA-ACT, not in round 1)
        and a last window opens before maintenance (``index`` one past the players marks it); after that
        window (or the last turn of round 1), maintenance (BF-MAINT). ``changes`` (the turn, the window, the
        index, after_discard: fields that neither the next turn's opening, Sandra's action nor maintenance
        read) are the state's first, made in the same copy: the result is ``_close_window(evolve(state,
        **changes))``'s."""
        n = self._players
        index = changes.get("index", state.index)
        if index < n:  # the next turn (``_opening``)
            changes["turn"] = self._opening(state, state.order[index])
            return evolve(state, **changes)
        if index == n and state.round > 1:  # Sandra's actions read neither the index nor after_discard
            resume = "window" if self.variant.rulings.additional_actions == "any_time" else "maintenance"
            changes.update(index=n + 1, after_discard=resume)
            return self._sandra_act(state, **changes)
        if not state.draws and state.phase is ACTION:  # what ``_settle`` does next: maintenance at once
            return self._maintenance(state, **changes)
        changes["after_discard"] = "maintenance"
        return evolve(state, **changes)

    def _window_act(self, state: BotFactoryState, action: Any) -> BotFactoryState:
        """BF-ADDITIONAL: in a window, the deciding player's board's additional actions, or ``EndTurn()``
        to pass; in the window before the first turn (index 0, no turn yet) the refusal of anything else is
        BF-ADDITIONAL-WINDOW's. A player sharing Sandra's board is in a window under ``unpaid_share =
        "nothing"`` only for having paid her (BF-SANDRA-PAID)."""
        seat = state.window[0]
        if isinstance(action, EndTurn):
            return self._next_in_window(state, state.window[1:])
        if not isinstance(action, _ADDITIONAL_TYPES):
            if state.index == 0:
                raise IllegalAction(
                    "BF-ADDITIONAL-WINDOW",
                    f"{action!r}: before the first turn only additional actions (or EndTurn to pass)",
                )
            raise IllegalAction(
                "BF-ADDITIONAL", f"{action!r}: between turns only additional actions (or EndTurn to pass)"
            )
        state = self._check_limits(ROOMS[self._board_of(state, seat)].additional(self, state, seat, action), seat)
        if seat in state.paid and self.variant.rulings.unpaid_share == "nothing":
            coverage.effect("BF-SANDRA-PAID")
        if state.phase is ACTION and not state.draws:
            return self._next_in_window(state)
        return state

    # --- turn end, Sandra, maintenance ----------------------------------------------------------------

    def _end_turn(self, state: BotFactoryState) -> BotFactoryState:
        """BF-ROUND: the turn ends; a window (BF-ADDITIONAL, ``any_time``), the next turn, or Sandra's action (BF-
        SANDRA-ACT) and maintenance (BF-MAINT)."""
        ended = state.order[state.index]
        index = state.index + 1
        nxt = state.order[index] if index < self._players else None
        if self.variant.rulings.additional_actions == "any_time":
            # the window's seats and options read neither the turn nor its index: asked before the one copy
            window = self._window_left(state, self._window_seats(state, (ended,) if nxt is None else (ended, nxt)))
            if window:
                return _INTO_WINDOW(state, None, index, window)
            if nxt is None:
                return self._close_window(state, turn=None, index=index)
        if nxt is not None:  # the next turn (``_opening``) in the same copy
            return _NEXT_TURN(state, self._opening(state, nxt), index)
        if state.round > 1:  # BF-SANDRA-ACT (not in round 1; it reads neither the turn nor the index)
            return self._sandra_act(state, turn=None, index=index, after_discard="maintenance")
        return evolve(state, turn=None, index=index, after_discard="maintenance")

    def _sandra_act(self, state: BotFactoryState, **changes: Any) -> BotFactoryState:
        """BF-SANDRA-ACT: Sandra takes the action of the board she stands on (its room's Sandra action);
        ``changes`` (fields no Sandra action reads: the turn, the index, after_discard) in the same copy."""
        coverage.effect("BF-SANDRA-ACT")
        return ROOMS[self.spaces[state.sandra][0]].sandra(self, state, **changes)

    def _maintenance(self, state: BotFactoryState, **changes: Any) -> BotFactoryState:
        """BF-MAINT: completed bots' parts to the discard and their value down one; the Project board slides
        and refills. ``changes`` (fields maintenance does not read) go into the bots' copy."""
        coverage.effect("BF-MAINT")
        columns = list(state.columns)
        values = list(state.values)
        for ci, column in enumerate(columns):
            if None not in column:
                for p in column:
                    assert p is not None
                    state = self._discard_part_tile(state, p)
                columns[ci] = (None, None, None)
                values[ci] = max(0, values[ci] - 1)
        # the clear-out reads the Project board only: after_discard is set in the same copy as the bots
        changes["after_discard"] = "round_end"
        state = evolve(state, columns=tuple(columns), values=tuple(values), **changes)
        return projects.slide_projects(self, state)

    def _round_end(self, state: BotFactoryState) -> BotFactoryState:
        """BF-END: the game ends after the maintenance of a round in which a colour's bots were all built or
        a player built a fifth; BF-ORDER: otherwise the next round's order follows the spaces left to right.
        Either way the round's payments to Sandra (``paid``, BF-SANDRA-PAID) are forgotten."""
        built = [self.end_count - left for left in state.bots_left]
        if (
            any(b >= self.end_count for b in built)
            or any(len(h.done) >= self.c.counts.bots_to_end for h in state.hands)
            or (self.max_rounds is not None and state.round >= self.max_rounds)
        ):
            over = evolve(state, phase=OVER, after_discard="", paid=())  # the round's payments end with it
            trigger = self.end_trigger(over)
            if trigger == "BF-END-COLOUR":
                coverage.effect("BF-END")
                coverage.effect("BF-END-COLOUR")
            elif trigger == "BF-END-FIFTH":
                coverage.effect("BF-END")
                coverage.effect("BF-END-FIFTH")
            return over
        coverage.effect("BF-ROUND")
        coverage.effect("BF-ORDER")
        order = tuple(sorted(range(self._players), key=lambda s: state.workers[s] or 0))
        return _NEXT_ROUND(state, state.round + 1, order, 0, MOVE, "", ())  # BF-SANDRA-PAID: for one round

    def end_trigger(self, state: BotFactoryState) -> str | None:
        """BF-END: the rule that ended a terminal state (:func:`bgrules.botfactory.scoring.end_trigger`)."""
        return scoring.end_trigger(self, state)

    def _settle(self, state: BotFactoryState) -> BotFactoryState:
        """BF-ROUND: take the automatic steps (draws that find nothing, BF-PILE; limit checks, BF-LIMIT-PARTS; windows,
        BF-ADDITIONAL; BF-MAINT; BF-END) until a player or chance must act."""
        while True:
            if state.draws:
                state, possible = self._normalise_draw(state)
                if possible:
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
                if state.index >= self._players:
                    state = evolve(state, phase=MOVE, index=0, after_discard="")
                else:
                    state = evolve(state, after_discard="")
            elif resume == "action":
                # the limits read the hands and the turn (a discard resumes here again), not after_discard:
                # the clearing of after_discard goes into the copy the window makes
                seat = state.window[0] if state.window else None
                if seat is None and state.turn is not None and not state.turn.prompt:
                    seat = state.order[state.index]
                checked = state if seat is None else self._check_limits(state, seat)
                if checked is not state:
                    state = checked
                elif state.window:
                    state = self._next_in_window(state, state.window, after_discard="")
                else:
                    state = evolve(state, after_discard="")
            elif resume == "window":  # BF-ADDITIONAL: the window after Sandra's action, before maintenance
                state = self._open_window(state, (), after_discard="")
            elif resume == "maintenance":
                state = self._maintenance(state)
            elif resume == "round_end":
                state = self._round_end(state)
            else:
                return state

    # --- scoring (BF-SCORE, BF-TIE: bgrules.botfactory.scoring) -------------------------------------------

    def contract_score(self, state: BotFactoryState, seat: int) -> int:
        """BF-SCORE: ``seat``'s contracts at best (:func:`bgrules.botfactory.scoring.contract_score`)."""
        return scoring.contract_score(self, state, seat)

    def scores(self, state: BotFactoryState) -> tuple[int, ...]:
        """BF-SCORE: every player's score (:func:`bgrules.botfactory.scoring.scores`)."""
        return scoring.scores(self, state)

    def winners(self, state: BotFactoryState) -> tuple[int, ...]:
        """BF-TIE: the winners (:func:`bgrules.botfactory.scoring.winners`)."""
        return scoring.winners(self, state)
