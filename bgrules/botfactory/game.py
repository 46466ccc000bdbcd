"""Bot Factory for 2-4 players, ``bgrules.load_game("botfactory", players=n)``.

A round has three phases in action order (BF-ROUND): moving workers (then Sandra), actions (then Sandra's),
maintenance. Each board's main action, its additional action and Sandra's action follow the seed; figures
the seed does not give are component data (``data/components.toml``, provenance ``assumed``).
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from typing import Any

from bgrules.botfactory import arith
from bgrules.botfactory.state import (
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
    Phase,
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
    Turn,
)
from bgrules.botfactory.variant import BotFactoryVariant, load_variant
from bgrules.core.errors import IllegalAction, InputError
from bgrules.core.fastevolve import evolve
from bgrules.core.protocol import CHANCE, GameBase, GameInfo, Mover

GAME_NAME = "botfactory"
ASSEMBLY, PRODUCTION, PROJECT, FINANCE = range(4)
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


def _set(t: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*t[:i], value, *t[i + 1 :])


class BotFactoryGame(GameBase):
    """Bot Factory through the Game protocol."""

    ACTIONS = ACTION_TYPES

    def __init__(self, players: int = 4, variant: BotFactoryVariant | str | None = None, max_rounds: int = 40) -> None:
        if not isinstance(players, int) or not 2 <= players <= 4:
            raise InputError("players", f"{GAME_NAME} is for 2 to 4 players, not {players!r}")
        if not isinstance(max_rounds, int) or max_rounds < 1:
            raise InputError("max_rounds", f"max_rounds is a whole number of at least 1, not {max_rounds!r}")
        self.variant = load_variant(variant)
        self._players = players
        self.max_rounds = max_rounds
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
        self._chance_memo: dict[tuple[Any, ...], tuple[tuple[Any, Fraction], ...]] = {}
        self._info = GameInfo(
            name=GAME_NAME,
            min_players=2,
            max_players=4,
            has_chance=True,
            max_length=self._max_length(),
            parameters=(("players", "4"), ("max_rounds", "40")),
        )

    # --- protocol -----------------------------------------------------------------------------------

    def state_type(self) -> type[BotFactoryState]:
        return BotFactoryState

    def _max_length(self) -> int:
        """BF-END: at most ``max_rounds`` rounds (a safety cap; see docs). Per round each player moves once
        and takes a turn whose steps are bounded by the tokens and parts they can spend; Sandra and
        maintenance draw at most the Wheel, the spares and the Project board."""
        c = self.c
        most = max(max(c.boards.assembly), max(c.boards.production), max(c.boards.project), max(c.boards.finance))
        per_turn = 3 * most + 4 * c.counts.token_cap + 60
        per_round = self._players * (per_turn + 2 + c.counts.part_limit + c.counts.project_limit + 20) + 40
        return 200 + self.max_rounds * per_round

    def colour(self, name: str) -> int:
        try:
            return self.colours.index(name)
        except ValueError:
            raise IllegalAction("BF-SETUP-BOARDS", f"{name!r} is not a colour ({', '.join(self.colours)})") from None

    def initial_state(self) -> BotFactoryState:
        c = self.c
        n = self._players
        hands = tuple(
            Hand(c.counts.start_tokens + (c.counts.last_player_extra_token if seat == n - 1 else 0))
            for seat in range(n)
        )
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
            phase=Phase.SETUP,
            order=tuple(range(n)),
            draws=tuple(jobs),
            after_discard="setup",
        )
        return self._settle(state)

    def to_move(self, state: BotFactoryState) -> Mover:
        if state.phase is Phase.OVER:
            return None
        if state.draws:
            return CHANCE
        if state.phase is Phase.DISCARD:
            return state.discarder
        if state.phase is Phase.PICK:
            return tuple(reversed(state.order))[state.index]
        return state.order[state.index]

    def is_terminal(self, state: BotFactoryState) -> bool:
        return state.phase is Phase.OVER

    # --- tokens -------------------------------------------------------------------------------------

    def on_contracts(self, state: BotFactoryState, seat: int) -> int:
        costs = self.c.finance.reservation_costs
        return sum(costs[i] for seats in state.reserved for i, s in enumerate(seats) if s == seat)

    def _gain(self, state: BotFactoryState, seat: int, n: int) -> BotFactoryState:
        """BF-LIMIT-TOKENS: a player holds at most 9 tokens (and only the tokens of their colour left in the
        supply); a gain past that is lost."""
        hand = state.hands[seat]
        counts = self.c.counts
        held = arith.gain(hand.tokens, self.on_contracts(state, seat), n, counts.token_cap, counts.tokens_per_colour)
        taken = held - hand.tokens
        return evolve(
            state,
            hands=_set(state.hands, seat, evolve(hand, tokens=held)),
            supply=_set(state.supply, seat, state.supply[seat] - taken),
        )

    def _pay(self, state: BotFactoryState, seat: int, n: int, rule: str, to_supply: bool = True) -> BotFactoryState:
        """Pay ``n`` tokens: back to the supply, or (``to_supply=False``) onto a contract (BF-FIN-CONTRACT)."""
        hand = state.hands[seat]
        if not arith.can_pay(hand.tokens, n):
            raise IllegalAction(rule, f"it costs {n} Speech token(s); the player holds {hand.tokens}")
        state = evolve(state, hands=_set(state.hands, seat, evolve(hand, tokens=arith.pay(hand.tokens, n))))
        if to_supply:
            state = evolve(state, supply=_set(state.supply, seat, state.supply[seat] + n))
        return state

    def _hand(self, state: BotFactoryState, seat: int, **changes: Any) -> BotFactoryState:
        return evolve(state, hands=_set(state.hands, seat, evolve(state.hands[seat], **changes)))

    # --- chance -------------------------------------------------------------------------------------

    def chance_outcomes(self, state: BotFactoryState) -> tuple[tuple[Any, Fraction], ...]:
        """The next draw's outcomes with exact probabilities (memoised per pile contents)."""
        if not state.draws:
            return ()
        what, source, _dest, _a, _b = state.draws[0]
        if what == "contract":
            key: tuple[Any, ...] = ("contract", state.contract_pool)
        elif what == "project":
            key = ("project", state.project_pile)
        else:
            key = ("part", state.piles[self._source(state, source)])
        found = self._chance_memo.get(key)
        if found is None:
            found = self._chance_memo[key] = self._outcomes(what, key[1])
        return found

    def _outcomes(self, what: str, counts: tuple[int, ...]) -> tuple[tuple[Any, Fraction], ...]:
        if what == "contract":
            return tuple((DrawContract(i), Fraction(1, len(counts))) for i in counts)
        total = sum(counts)
        if what == "project":
            return tuple(
                (DrawProject(col), Fraction(k, total)) for col, k in zip(self.colours, counts, strict=True) if k
            )
        return tuple((DrawPart(slot), Fraction(k, total)) for slot, k in zip(self.slots, counts, strict=True) if k)

    @staticmethod
    def _source(state: BotFactoryState, source: int) -> int:
        return state.marker if source < 0 else source

    def _normalise_draw(self, state: BotFactoryState) -> tuple[BotFactoryState, bool]:
        """BF-PILE: before a draw, an empty pile takes its discard back (shuffled: later draws are random);
        the Distribution marker passes over piles that stay empty. Returns whether the draw can happen."""
        what, source, _dest, _a, _b = state.draws[0]
        if what == "contract":
            return state, bool(state.contract_pool)
        if what == "project":
            if not any(state.project_pile) and any(state.project_discard):
                state = evolve(state, project_pile=state.project_discard, project_discard=(0,) * 4)
            return state, any(state.project_pile)
        for _ in range(4):
            ci = self._source(state, source)
            if not any(state.piles[ci]) and any(state.discards[ci]):
                state = evolve(
                    state, piles=_set(state.piles, ci, state.discards[ci]), discards=_set(state.discards, ci, (0, 0, 0))
                )
            if any(state.piles[ci]) or source >= 0:
                return state, any(state.piles[ci])
            state = evolve(state, marker=(state.marker + 1) % 4)
        return state, False

    def _resolve_draw(self, state: BotFactoryState, action: Any) -> BotFactoryState:
        if not any(action == a for a, _p in self.chance_outcomes(state)):
            raise IllegalAction("BF-PILE", f"{action!r} is not a possible chance outcome here")
        _what, source, dest, a, b = state.draws[0]
        state = evolve(state, draws=state.draws[1:])
        if isinstance(action, DrawContract):
            pool = tuple(i for i in state.contract_pool if i != action.id)
            return evolve(state, contract_pool=pool, display=_set(state.display, a, action.id))
        if isinstance(action, DrawProject):
            ci = self.colour(action.colour)
            state = evolve(state, project_pile=_set(state.project_pile, ci, state.project_pile[ci] - 1))
            column = _set(state.grid[a], b, action.colour)
            return evolve(state, grid=_set(state.grid, a, column))
        assert isinstance(action, DrawPart)
        ci = self._source(state, source)
        si = self.slots.index(action.slot)
        pile = state.piles[ci]
        state = evolve(state, piles=_set(state.piles, ci, _set(pile, si, pile[si] - 1)))
        if source < 0:  # BF-ASM-SANDRA / BF-PROD-SANDRA: the marker moves right after each draw, wrapping
            state = evolve(state, marker=(state.marker + 1) % 4)
        part = f"{self.colours[ci]}-{action.slot}"
        if dest == "wheel":
            return evolve(state, wheel=_set(state.wheel, a, part))
        if dest == "spare":
            return evolve(state, spares=_set(state.spares, a, part))
        hand = state.hands[a]
        return self._hand(state, a, parts=tuple(sorted((*hand.parts, part))))

    # --- legal actions ------------------------------------------------------------------------------

    def _legal_actions(self, state: BotFactoryState) -> tuple[Any, ...]:
        if state.phase is Phase.OVER:
            return ()
        if state.draws:
            return tuple(a for a, _p in self.chance_outcomes(state))
        if state.phase is Phase.DISCARD:
            return self._discard_options(state)
        if state.phase is Phase.PICK:
            return tuple(
                TakeTop(col) for ci, col in enumerate(self.colours) if sum(state.piles[ci]) or sum(state.discards[ci])
            )
        seat = state.order[state.index]
        if state.phase is Phase.MOVE:
            return tuple(MoveWorker(s) for s in self._move_targets(state, seat))
        return tuple(self._turn_options(state, seat))

    def _discard_options(self, state: BotFactoryState) -> tuple[Any, ...]:
        seat = state.discarder
        assert seat is not None
        hand = state.hands[seat]
        pending = state.turn is not None and bool(state.turn.prompt)
        if not pending and arith.parts_over(len(hand.parts), self.c.counts.part_limit):
            return tuple(DiscardPart(p) for p in sorted(set(hand.parts)))
        return tuple(DiscardProject(p) for p in sorted(set(hand.projects)))

    def _move_targets(self, state: BotFactoryState, seat: int) -> list[int]:
        """BF-MOVE: an empty action space on another board (round 1: any empty space)."""
        taken = {w for w in state.workers if w is not None} | {state.sandra}
        here = state.workers[seat]
        return [
            i
            for i in range(len(self.spaces))
            if i not in taken and (here is None or self.spaces[i][0] != self.spaces[here][0])
        ]

    def _board_of(self, state: BotFactoryState, seat: int) -> int:
        where = state.workers[seat]
        assert where is not None
        return self.spaces[where][0]

    def _turn_options(self, state: BotFactoryState, seat: int) -> list[Any]:
        turn = state.turn
        assert turn is not None
        hand = state.hands[seat]
        if turn.prompt:
            return self._prompt_options(state, seat, turn)
        if turn.main == "share":
            toll = self._toll(state, seat)
            return ([PayShare()] if hand.tokens >= toll else []) + [Skip()]
        out: list[Any] = []
        board = self._board_of(state, seat)
        if turn.main == "open" and turn.left > 0:
            out.extend(self._main_options(state, seat, board, turn))
        out.extend(self._additional_options(state, seat, board))
        out.append(EndTurn())
        return out

    def _placements(self, state: BotFactoryState, seat: int) -> list[PlacePart]:
        """BF-ASM: parts from hand onto matching empty spaces; BF-ASM-PROJECT: a bot's last part only with an
        unfinished Project of its colour (and a bot meeple of that colour left)."""
        hand = state.hands[seat]
        out = []
        for part in sorted(set(hand.parts)):
            colour, slot = part.split("-")
            si = self.slots.index(slot)
            targets = self.colours if colour == "any" else (colour,)
            for col in targets:
                ci = self.colours.index(col)
                column = state.columns[ci]
                if column[si] is not None or all(x is not None for x in column):
                    continue
                if sum(x is not None for x in column) == 2 and (col not in hand.projects or not state.bots_left[ci]):
                    continue
                out.append(PlacePart(part, col))
        return out

    def _main_options(self, state: BotFactoryState, seat: int, board: int, turn: Turn) -> list[Any]:
        hand = state.hands[seat]
        if board == ASSEMBLY:
            return list(self._placements(state, seat))
        if board == PRODUCTION:
            out: list[Any] = [Rotate()]
            out.extend(TakeOutput(p) for p in self.c.wheel.output if state.wheel[p] is not None)
            return out
        if board == PROJECT:
            return [TakeProject(col, row) for col in range(2) for row, t in enumerate(state.grid[col]) if t is not None]
        out = []
        if hand.tokens >= 1:
            out.extend(Raise(col) for ci, col in enumerate(self.colours) if state.values[ci] < self.c.finance.track_max)
        costs = self.c.finance.reservation_costs
        for slot, seats in enumerate(state.reserved):
            if state.display[slot] is None or seat in seats or len(seats) >= len(costs):
                continue
            cost = costs[len(seats)]
            if hand.tokens >= cost and turn.left >= cost:
                out.append(Reserve(slot))
        return out

    def _additional_options(self, state: BotFactoryState, seat: int, board: int) -> list[Any]:
        """BF-ADDITIONAL: the additional action of the board one stands on, any number of times."""
        hand = state.hands[seat]
        out: list[Any] = []
        if board == ASSEMBLY and hand.tokens >= 1:
            out.extend(
                Swap(part, i)
                for part in sorted(set(hand.parts))
                for i, spare in enumerate(state.spares)
                if spare is not None and spare != part
            )
        elif board == PRODUCTION and len(hand.parts) >= 3:
            for three in sorted(set(itertools.combinations(hand.parts, 3))):
                out.extend(Trade(three, col) for ci, col in enumerate(self.colours) if self._drawable(state, ci))
        elif board == PROJECT and len(hand.projects) >= 2:
            for two in sorted(set(itertools.combinations(hand.projects, 2))):
                out.extend(Exchange(two, slot) for si, slot in enumerate(self.slots) if state.universal[si])
        return out

    def _drawable(self, state: BotFactoryState, ci: int) -> bool:
        return bool(sum(state.piles[ci]) or sum(state.discards[ci]))

    def _prompt_options(self, state: BotFactoryState, seat: int, turn: Turn) -> list[Any]:
        kind = turn.prompt[0]
        hand = state.hands[seat]
        if kind == "icon":  # BF-ASM-ICON: pay a token for the top part of any pile
            if hand.tokens < 1:
                return [Skip()]
            return [TakeTop(col) for ci, col in enumerate(self.colours) if self._drawable(state, ci)] + [Skip()]
        if kind in ("place", "place_free"):  # BF-PROD-MARK, BF-PROJ-LEFT (a token), BF-FIN-LINE (free)
            if kind == "place" and hand.tokens < 1:
                return [Skip()]
            return [*self._placements(state, seat), Skip()]
        if kind == "refill":  # BF-PROD-ROTATE
            pos = int(turn.prompt[1])
            return [Refill(pos, col) for ci, col in enumerate(self.colours) if self._drawable(state, ci)] + [Skip()]
        # "project": BF-FIN-LINE, take a Project tile
        return [TakeProject(col, row) for col in range(2) for row, t in enumerate(state.grid[col]) if t is not None] + [
            Skip()
        ]

    def _toll(self, state: BotFactoryState, seat: int) -> int:
        """BF-SANDRA-SHARE and BF-ASM-LAST: what the main action costs before it may be taken."""
        where = state.workers[seat]
        assert where is not None
        board, space, _n = self.spaces[where]
        toll = 1 if self.spaces[state.sandra][0] == board else 0
        if board == ASSEMBLY and space == len(self.c.boards.assembly) - 1:
            toll += self.c.boards.assembly_last_extra_cost
        return toll

    # --- apply --------------------------------------------------------------------------------------

    def apply(self, state: BotFactoryState, action: Any) -> BotFactoryState:
        if state.phase is Phase.OVER:
            raise IllegalAction("BF-END", "the game is over; no action is legal")
        if state.draws:
            return self._settle(self._resolve_draw(state, action))
        if state.phase is Phase.DISCARD:
            return self._settle(self._discard(state, action))
        if state.phase is Phase.PICK:
            return self._settle(self._pick(state, action))
        if state.phase is Phase.MOVE:
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
        return evolve(state, draws=(("part", ci, "hand", seat, 0),), index=state.index + 1, after_discard="pick")

    def _move(self, state: BotFactoryState, action: Any) -> BotFactoryState:
        seat = state.order[state.index]
        if not isinstance(action, MoveWorker):
            raise IllegalAction("BF-MOVE", f"{action!r}: move your worker (MoveWorker)")
        if action.space not in self._move_targets(state, seat):
            raise IllegalAction("BF-MOVE", f"space {action.space} is taken or on the board you stand on")
        state = evolve(state, workers=_set(state.workers, seat, action.space), index=state.index + 1)
        if state.index < self._players:
            return state
        if state.round > 1:
            state = self._sandra_move(state)
        return self._start_turn(evolve(state, phase=Phase.ACTION, index=0))

    def _sandra_move(self, state: BotFactoryState) -> BotFactoryState:
        """BF-SANDRA-MOVE: to the first empty space, left to right, of the next board to the right that has
        one (wrapping; never her own board); she stays if none has."""
        board = self.spaces[state.sandra][0]
        taken = {w for w in state.workers if w is not None}
        for k in range(1, 4):
            target = (board + k) % 4
            for i in self.board_spaces[target]:
                if i not in taken:
                    return evolve(state, sandra=i)
        return state

    def _start_turn(self, state: BotFactoryState) -> BotFactoryState:
        seat = state.order[state.index]
        where = state.workers[seat]
        assert where is not None
        n = self.spaces[where][2]
        return evolve(state, turn=Turn(n, "share" if self._toll(state, seat) else "open"))

    def _act(self, state: BotFactoryState, action: Any) -> BotFactoryState:
        seat = state.order[state.index]
        turn = state.turn
        assert turn is not None
        if turn.prompt:
            return self._check_limits(self._answer(state, seat, turn, action), seat)
        if turn.main == "share":
            if isinstance(action, PayShare):
                toll = self._toll(state, seat)
                state = self._pay(state, seat, toll, "BF-SANDRA-SHARE")
                return evolve(state, turn=evolve(turn, main="open"))
            if isinstance(action, Skip):
                sharing = self.spaces[state.sandra][0] == self._board_of(state, seat)
                if sharing and self.variant.rulings.unpaid_share == "nothing":
                    return self._end_turn(state)
                return evolve(state, turn=evolve(turn, main="closed"))
            raise IllegalAction("BF-SANDRA-SHARE", f"{action!r}: pay the toll first (PayShare) or Skip")
        if isinstance(action, EndTurn):
            return self._end_turn(state)
        board = self._board_of(state, seat)
        if isinstance(action, Swap | Trade | Exchange):
            return self._check_limits(self._additional(state, seat, board, action), seat)
        if turn.main != "open" or turn.left <= 0:
            raise IllegalAction("BF-ROUND", f"{action!r}: no main action is left this turn (EndTurn)")
        return self._check_limits(self._main(state, seat, board, turn, action), seat)

    def _main(self, state: BotFactoryState, seat: int, board: int, turn: Turn, action: Any) -> BotFactoryState:
        if board == ASSEMBLY and isinstance(action, PlacePart):
            state = evolve(state, turn=evolve(turn, left=turn.left - 1))
            return self._place(state, seat, action, "BF-ASM")
        if board == PRODUCTION and isinstance(action, Rotate):
            wheel = tuple(state.wheel[(i - 2) % 8] for i in range(8))
            state = evolve(state, wheel=wheel, turn=evolve(turn, left=turn.left - 1))
            return self._next_refill(state, -1)
        if board == PRODUCTION and isinstance(action, TakeOutput):
            if action.position not in self.c.wheel.output or state.wheel[action.position] is None:
                raise IllegalAction("BF-PROD-TAKE", f"output space {action.position} holds no part")
            part = state.wheel[action.position]
            assert part is not None
            hand = state.hands[seat]
            state = self._hand(state, seat, parts=tuple(sorted((*hand.parts, part))))
            after = evolve(turn, left=turn.left - 1)
            if action.position in self.c.wheel.marked:
                after = evolve(after, prompt=("place",))
            return evolve(state, wheel=_set(state.wheel, action.position, None), turn=after)
        if board == PROJECT and isinstance(action, TakeProject):
            state = evolve(state, turn=evolve(turn, left=turn.left - 1))
            return self._take_project(state, seat, action)
        if board == FINANCE and isinstance(action, Raise):
            ci = self.colour(action.colour)
            if state.values[ci] >= self.c.finance.track_max:
                raise IllegalAction("BF-FIN-RAISE", f"the {action.colour} value is at the top of the track")
            state = self._pay(state, seat, 1, "BF-FIN-RAISE")
            old = state.values[ci]
            after = evolve(turn, left=turn.left - 1)
            for line, reward in zip(self.c.finance.lines, self.c.finance.line_rewards, strict=True):
                if old < line <= old + 1:  # BF-FIN-LINE
                    after = evolve(after, prompt=("place_free",) if reward == "part" else ("project",))
            return evolve(state, values=_set(state.values, ci, old + 1), turn=after)
        if board == FINANCE and isinstance(action, Reserve):
            return self._reserve(state, seat, turn, action)
        raise IllegalAction(f"BF-{('ASM', 'PROD', 'PROJ', 'FIN')[board]}", f"{action!r} is not this board's action")

    def _place(self, state: BotFactoryState, seat: int, action: PlacePart, rule: str) -> BotFactoryState:
        """BF-ASM-REWARD: after placing, the bot's part count pays: 1 -> two tokens, 2 -> two tokens,
        3 -> the bot onto a matching unfinished Project (BF-ASM-PROJECT). BF-ASM-ICON: an icon space covered
        offers the top part of any pile for a token."""
        if action not in self._placements(state, seat):
            raise IllegalAction(
                rule,
                f"{action!r}: no such part in hand, or its space is taken, or the bot's last part "
                "needs an unfinished Project of its colour",
            )
        hand = state.hands[seat]
        parts = list(hand.parts)
        parts.remove(action.part)
        state = self._hand(state, seat, parts=tuple(parts))
        ci = self.colours.index(action.colour)
        slot = action.part.split("-")[1]
        si = self.slots.index(slot)
        column = _set(state.columns[ci], si, action.part)
        state = evolve(state, columns=_set(state.columns, ci, column))
        count = sum(x is not None for x in column)
        if count < 3:
            state = self._gain(state, seat, 2)
        else:
            hand = state.hands[seat]
            projects = list(hand.projects)
            projects.remove(action.colour)
            state = self._hand(state, seat, projects=tuple(projects), done=tuple(sorted((*hand.done, action.colour))))
            state = evolve(state, bots_left=_set(state.bots_left, ci, state.bots_left[ci] - 1))
        turn = state.turn
        assert turn is not None
        if slot in self.c.boards.icon_slots:
            return evolve(state, turn=evolve(turn, prompt=("icon",)))
        return state

    def _take_project(self, state: BotFactoryState, seat: int, action: TakeProject) -> BotFactoryState:
        """BF-PROJ: take a Project tile; BF-PROJ-LEFT / BF-PROJ-RIGHT: the bottom tiles' rewards."""
        col, row = action.column, action.row
        if col not in range(2) or row not in range(len(state.grid[col])) or state.grid[col][row] is None:
            raise IllegalAction("BF-PROJ", f"no Project tile at column {col}, row {row}")
        colour = state.grid[col][row]
        assert colour is not None
        hand = state.hands[seat]
        state = self._hand(state, seat, projects=tuple(sorted((*hand.projects, colour))))
        state = evolve(state, grid=_set(state.grid, col, _set(state.grid[col], row, None)))
        turn = state.turn
        assert turn is not None
        if row == 0 and col == 0:
            return evolve(state, turn=evolve(turn, prompt=("place",)))
        if row == 0 and col == 1:
            return self._gain(state, seat, 1)
        return state

    def _reserve(self, state: BotFactoryState, seat: int, turn: Turn, action: Reserve) -> BotFactoryState:
        """BF-FIN-CONTRACT: at most two players per contract (the first on the higher space), nobody twice;
        the tokens go onto the contract."""
        costs = self.c.finance.reservation_costs
        if action.slot not in range(len(state.display)) or state.display[action.slot] is None:
            raise IllegalAction("BF-FIN-CONTRACT", f"no contract in display slot {action.slot}")
        seats = state.reserved[action.slot]
        if not arith.can_reserve(len(seats), seat in seats, len(costs)):
            if seat in seats:
                raise IllegalAction("BF-FIN-CONTRACT", "a player reserves a contract once only")
            raise IllegalAction("BF-FIN-CONTRACT", f"the contract already has {len(seats)} reservations")
        cost = arith.reservation_cost(costs, len(seats))
        if turn.left < cost:
            raise IllegalAction("BF-FIN", f"reserving costs {cost} tokens; {turn.left} may still be spent")
        state = self._pay(state, seat, cost, "BF-FIN-CONTRACT", to_supply=False)
        return evolve(
            state, reserved=_set(state.reserved, action.slot, (*seats, seat)), turn=evolve(turn, left=turn.left - cost)
        )

    def _next_refill(self, state: BotFactoryState, after: int) -> BotFactoryState:
        """BF-PROD-ROTATE: each empty top space, left first, may be refilled from the top of any pile."""
        turn = state.turn
        assert turn is not None
        for pos in self.c.wheel.top:
            if pos > after and state.wheel[pos] is None:
                return evolve(state, turn=evolve(turn, prompt=("refill", str(pos))))
        return evolve(state, turn=evolve(turn, prompt=()))

    def _prompt_rule(self, state: BotFactoryState, seat: int, kind: str) -> str:
        if kind == "place":  # a paid placement: the Production board's marked space or the Project board's left
            return "BF-PROD-MARK" if self._board_of(state, seat) == PRODUCTION else "BF-PROJ-LEFT"
        return {"icon": "BF-ASM-ICON", "place_free": "BF-FIN-LINE", "refill": "BF-PROD-ROTATE"}.get(kind, "BF-FIN-LINE")

    def _answer(self, state: BotFactoryState, seat: int, turn: Turn, action: Any) -> BotFactoryState:
        if action not in self._prompt_options(state, seat, turn):
            rule = self._prompt_rule(state, seat, turn.prompt[0])
            raise IllegalAction(rule, f"{action!r} does not answer the pending choice {turn.prompt[0]!r}")
        kind = turn.prompt[0]
        cleared = evolve(state, turn=evolve(turn, prompt=()))
        if kind == "refill":
            pos = int(turn.prompt[1])
            if isinstance(action, Refill):
                ci = self.colour(action.colour)
                cleared = evolve(cleared, draws=(("part", ci, "wheel", pos, 0),), after_discard="action")
            nxt = self._next_refill(cleared, pos)
            return nxt
        if isinstance(action, Skip):
            return cleared
        if kind == "icon":
            assert isinstance(action, TakeTop)
            cleared = self._pay(cleared, seat, 1, "BF-ASM-ICON")
            return evolve(
                cleared, draws=(("part", self.colour(action.colour), "hand", seat, 0),), after_discard="action"
            )
        if kind in ("place", "place_free"):
            assert isinstance(action, PlacePart)
            rule = self._prompt_rule(state, seat, kind)
            if kind == "place":
                cleared = self._pay(cleared, seat, 1, rule)
            return self._place(cleared, seat, action, rule)
        assert isinstance(action, TakeProject)
        return self._take_project(cleared, seat, action)

    def _additional(self, state: BotFactoryState, seat: int, board: int, action: Any) -> BotFactoryState:
        if action not in self._additional_options(state, seat, board):
            rule = {Swap: "BF-ASM-SWAP", Trade: "BF-PROD-TRADE", Exchange: "BF-PROJ-TRADE"}[type(action)]
            raise IllegalAction(rule, f"{action!r} is not an additional action of this board now")
        hand = state.hands[seat]
        if isinstance(action, Swap):
            state = self._pay(state, seat, 1, "BF-ASM-SWAP")
            spare = state.spares[action.spare]
            assert spare is not None
            parts = list(hand.parts)
            parts.remove(action.part)
            state = self._hand(state, seat, parts=tuple(sorted((*parts, spare))))
            return evolve(state, spares=_set(state.spares, action.spare, action.part))
        if isinstance(action, Trade):
            parts = list(hand.parts)
            for p in action.parts:
                parts.remove(p)
            state = self._hand(state, seat, parts=tuple(parts))
            for p in action.parts:
                state = self._discard_part_tile(state, p)
            return evolve(state, draws=(("part", self.colour(action.colour), "hand", seat, 0),), after_discard="action")
        assert isinstance(action, Exchange)
        projects = list(hand.projects)
        discard = list(state.project_discard)
        for p in action.projects:
            projects.remove(p)
            discard[self.colours.index(p)] += 1
        si = self.slots.index(action.slot)
        state = self._hand(
            state, seat, projects=tuple(projects), parts=tuple(sorted((*hand.parts, f"any-{action.slot}")))
        )
        return evolve(
            state, project_discard=tuple(discard), universal=_set(state.universal, si, state.universal[si] - 1)
        )

    def _discard_part_tile(self, state: BotFactoryState, part: str) -> BotFactoryState:
        """A discarded part goes to its colour's discard pile; a Universal part back to its supply."""
        colour, slot = part.split("-")
        si = self.slots.index(slot)
        if colour == "any":
            return evolve(state, universal=_set(state.universal, si, state.universal[si] + 1))
        ci = self.colours.index(colour)
        d = state.discards[ci]
        return evolve(state, discards=_set(state.discards, ci, _set(d, si, d[si] + 1)))

    # --- limits -------------------------------------------------------------------------------------

    def _check_limits(self, state: BotFactoryState, seat: int) -> BotFactoryState:
        """BF-LIMIT-PARTS / BF-LIMIT-PROJECTS: once an action is resolved, a player over five part tiles or
        five Project tiles (completed ones count and are never discarded) discards, choosing what."""
        turn = state.turn
        hand = state.hands[seat]
        counts = self.c.counts
        if turn is not None and turn.prompt:
            # a pending choice may still use a part; a Project taken counts at once (so a bot completed
            # by the pending placement never lands on a sixth Project)
            if arith.projects_over(len(hand.projects), len(hand.done), counts.project_limit):
                return evolve(state, phase=Phase.DISCARD, discarder=seat, after_discard="action")
            return state
        if arith.over_limits(
            len(hand.parts), len(hand.projects), len(hand.done), counts.part_limit, counts.project_limit
        ):
            return evolve(state, phase=Phase.DISCARD, discarder=seat, after_discard="action")
        return state

    def _discard(self, state: BotFactoryState, action: Any) -> BotFactoryState:
        seat = state.discarder
        assert seat is not None
        if action not in self._discard_options(state):
            rule = "BF-LIMIT-PARTS" if isinstance(self._discard_options(state)[0], DiscardPart) else "BF-LIMIT-PROJECTS"
            raise IllegalAction(rule, f"{action!r}: discard one of {self._discard_options(state)!r}")
        hand = state.hands[seat]
        if isinstance(action, DiscardPart):
            parts = list(hand.parts)
            parts.remove(action.part)
            state = self._discard_part_tile(self._hand(state, seat, parts=tuple(parts)), action.part)
        else:
            projects = list(hand.projects)
            projects.remove(action.colour)
            ci = self.colours.index(action.colour)
            state = self._hand(state, seat, projects=tuple(projects))
            state = evolve(state, project_discard=_set(state.project_discard, ci, state.project_discard[ci] + 1))
        state = evolve(state, phase=Phase.ACTION, discarder=None)
        return self._check_limits(state, seat)

    # --- turn end, Sandra, maintenance ----------------------------------------------------------------

    def _end_turn(self, state: BotFactoryState) -> BotFactoryState:
        state = evolve(state, turn=None, index=state.index + 1)
        if state.index < self._players:
            return self._start_turn(state)
        if state.round > 1:  # BF-SANDRA-ACT (not in round 1)
            state = self._sandra_act(state)
        return evolve(state, after_discard="maintenance")

    def _sandra_act(self, state: BotFactoryState) -> BotFactoryState:
        board = self.spaces[state.sandra][0]
        if board == ASSEMBLY:  # BF-ASM-SANDRA: clear the spares, draw two by the Distribution marker
            for p in state.spares:
                if p is not None:
                    state = self._discard_part_tile(state, p)
            jobs = tuple(("part", -1, "spare", i, 0) for i in range(len(state.spares)))
            return evolve(state, spares=(None,) * len(state.spares), draws=jobs)
        if board == PRODUCTION:  # BF-PROD-SANDRA: fill every empty space clockwise from left of the outputs
            start = self.c.wheel.sandra_start
            order = [(start + k) % 8 for k in range(8)]
            jobs = tuple(("part", -1, "wheel", pos, 0) for pos in order if state.wheel[pos] is None)
            return evolve(state, draws=jobs)
        if board == PROJECT:  # BF-PROJ-SANDRA
            return self._slide_projects(state)
        # BF-FIN-SANDRA: the lowest value(s) rise by one; none when all tie
        low = min(state.values)
        if all(v == low for v in state.values):
            return state
        values = tuple(v + 1 if v == low else v for v in state.values)
        return evolve(state, values=values)

    def _slide_projects(self, state: BotFactoryState) -> BotFactoryState:
        """Remove each column's bottom tile, slide the others down, refill the empty spaces from the pile."""
        discard = list(state.project_discard)
        grid = []
        jobs: list[Job] = []
        for col, column in enumerate(state.grid):
            if column[0] is not None:
                discard[self.colours.index(column[0])] += 1
            rest = [t for t in column[1:] if t is not None]
            new = tuple(rest + [None] * (len(column) - len(rest)))
            grid.append(new)
            jobs.extend(("project", -1, "grid", col, row) for row in range(len(rest), len(column)))
        return evolve(state, grid=tuple(grid), project_discard=tuple(discard), draws=(*state.draws, *jobs))

    def _maintenance(self, state: BotFactoryState) -> BotFactoryState:
        """BF-MAINT: completed bots' parts to the discard and their value down one; the Project board slides
        and refills."""
        columns = list(state.columns)
        values = list(state.values)
        for ci, column in enumerate(columns):
            if all(x is not None for x in column):
                for p in column:
                    assert p is not None
                    state = self._discard_part_tile(state, p)
                columns[ci] = (None, None, None)
                values[ci] = max(0, values[ci] - 1)
        state = evolve(state, columns=tuple(columns), values=tuple(values))
        return evolve(self._slide_projects(state), after_discard="round_end")

    def _round_end(self, state: BotFactoryState) -> BotFactoryState:
        """BF-END: the game ends after the maintenance of a round in which a colour's bots were all built or
        a player built a fifth; BF-ORDER: otherwise the next round's order follows the spaces left to right."""
        built = [self.end_count - left for left in state.bots_left]
        if (
            any(b >= self.end_count for b in built)
            or any(len(h.done) >= self.c.counts.bots_to_end for h in state.hands)
            or state.round >= self.max_rounds
        ):
            return evolve(state, phase=Phase.OVER, after_discard="")
        order = tuple(sorted(range(self._players), key=lambda s: state.workers[s] or 0))
        return evolve(state, round=state.round + 1, order=order, index=0, phase=Phase.MOVE, after_discard="")

    def _settle(self, state: BotFactoryState) -> BotFactoryState:
        """Take automatic steps until a player or chance must act."""
        while True:
            if state.draws:
                state, possible = self._normalise_draw(state)
                if possible:
                    return state
                state = evolve(state, draws=state.draws[1:])
                continue
            if state.phase is Phase.DISCARD:
                return state
            resume = state.after_discard
            if resume == "setup":
                state = evolve(state, phase=Phase.PICK, index=0, after_discard="")
            elif resume == "pick":
                if state.index >= self._players:
                    state = evolve(state, phase=Phase.MOVE, index=0, after_discard="")
                else:
                    state = evolve(state, after_discard="")
            elif resume == "action":
                state = evolve(state, after_discard="")
                if state.turn is not None and not state.turn.prompt:
                    state = self._check_limits(state, state.order[state.index])
            elif resume == "maintenance":
                state = self._maintenance(state)
            elif resume == "round_end":
                state = self._round_end(state)
            else:
                return state

    # --- scoring ------------------------------------------------------------------------------------

    def contract_score(self, state: BotFactoryState, seat: int) -> int:
        """BF-SCORE: the player assigns their bots to their reserved contracts at best (a bot to one
        contract; a contract may take two of them): a met contract scores its reservation value plus its
        points, an unmet one loses its reservation value."""
        costs = self.c.finance.reservation_costs
        mine = []
        for slot, seats in enumerate(state.reserved):
            for i, s in enumerate(seats):
                if s == seat:
                    cid = state.display[slot]
                    assert cid is not None
                    mine.append((self.contracts[cid], costs[i]))
        bots = Counter(state.hands[seat].done)
        best = None
        for mask in range(1 << len(mine)):
            need: Counter[str] = Counter()
            total = 0
            for i, (contract, value) in enumerate(mine):
                if mask >> i & 1:
                    need.update(contract.needs)
                    total += value + contract.points
                else:
                    total -= value
            if all(bots[c] >= n for c, n in need.items()) and (best is None or total > best):
                best = total
        return best or 0

    def scores(self, state: BotFactoryState) -> tuple[int, ...]:
        """BF-SCORE: bots at their colour's value, contracts, a point per two tokens, -1 per part tile,
        -2 per unfinished Project."""
        out = []
        for seat, hand in enumerate(state.hands):
            score = sum(state.values[self.colours.index(c)] for c in hand.done)
            score += self.contract_score(state, seat) + hand.tokens // 2
            score -= len(hand.parts) + 2 * len(hand.projects)
            out.append(score)
        return tuple(out)

    def winners(self, state: BotFactoryState) -> tuple[int, ...]:
        """BF-TIE: the highest score; ties to more bots, then to an odd number of tokens; else shared."""
        scores = self.scores(state)
        tied = [i for i, s in enumerate(scores) if s == max(scores)]
        most = max(len(state.hands[i].done) for i in tied)
        tied = [i for i in tied if len(state.hands[i].done) == most]
        odd = [i for i in tied if state.hands[i].tokens % 2 == 1]
        return tuple(odd if odd else tied)
