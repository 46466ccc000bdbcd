"""Bot Factory's z3 encodings (:mod:`bgrules.botfactory.smt`) against the Python game: the same steps
observed in the engine and evaluated in the encodings (:func:`conformance`), and a replay of the Project
overflow in the Python game (:func:`projects_overflow_scenario`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs
import z3

from bgrules.botfactory import finance
from bgrules.botfactory.game import PROJECT, BotFactoryGame
from bgrules.botfactory.smt import (
    ContractState,
    Figures,
    HandState,
    TokenState,
    contract_invariant,
    contract_reserve_step,
    discard_step,
    gain_step,
    over,
    pay_step,
    reserve_step,
    resolved_limits,
    token_invariant,
)
from bgrules.botfactory.state import (
    BotFactoryState,
    DiscardPart,
    DiscardProject,
    Hand,
    Phase,
    PlacePart,
    Reserve,
    TakeProject,
    Turn,
)
from bgrules.botfactory.tokens import Tokens
from bgrules.core.fastevolve import evolve
from bgrules.core.playout import walk

# --- the encodings against the Python game ------------------------------------------------------------


def true_at(constraints: Sequence[Any]) -> bool:
    """Evaluate z3 constraints over concrete values (``z3.IntVal`` / ``z3.BoolVal`` leaves)."""
    return bool(z3.is_true(z3.simplify(z3.And(*constraints))))


def _iv(x: int) -> Any:
    return z3.IntVal(x)


@attrs.frozen
class Observed:
    """What :func:`conformance` saw: calls checked, and each disagreement between game and encoding."""

    steps: int
    gains: int
    pays: int
    reserves: int
    discards: int
    problems: tuple[str, ...]
    stopped: bool = False
    """True when ``stop`` ended the playouts early (a spent wall budget)."""


def conformance(
    game: BotFactoryGame,
    seeds: Sequence[int],
    max_steps: int | None = None,
    stop: Callable[[], bool] | None = None,
) -> Observed:
    """Play ``seeds`` (``bgrules.core.playout.walk``) and check every token change of the game against the z3 step
    encodings evaluated on the same concrete values, and the hand limits against the limit encodings: each
    ``_gain``, ``_pay`` call (recorded through instance attributes, so the class is untouched) and each
    ``finance.reserve`` call (the room's function, swapped for the run) must satisfy its step relation and keep the
    token invariant; per apply, the tokens must change only through those calls; each discard must be a step of
    :func:`discard_step`; the discard phase must start exactly when :func:`over` holds; completed Projects never
    decrease; at rest, the limits of :func:`resolved_limits` hold. ``stop`` (asked before each apply) ends the
    playouts early. The hand encodings are evaluated once per distinct concrete hand (memoised on its counts)."""
    fig = Figures.of(game.variant)
    memo: dict[tuple[Any, ...], bool] = {}

    def holds_at(key: tuple[Any, ...], make: Callable[[], Sequence[Any]]) -> bool:
        found = memo.get(key)
        if found is None:
            found = memo[key] = true_at(make())
        return found

    counts = {"steps": 0, "gain": 0, "pay": 0, "reserve": 0, "discard": 0}
    problems: list[str] = []
    calls: list[tuple[str, BotFactoryState, int, Any, BotFactoryState, int]] = []
    depth = [0]
    real = {name: getattr(game, name) for name in ("_gain", "_pay")}
    real_reserve = finance.reserve

    def gain(state: BotFactoryState, seat: int, n: int) -> BotFactoryState:
        after: BotFactoryState = real["_gain"](state, seat, n)
        calls.append(("gain", state, seat, n, after, depth[0]))
        return after

    def pay(state: BotFactoryState, seat: int, n: int, rule: str, to_supply: bool = True) -> BotFactoryState:
        after: BotFactoryState = real["_pay"](state, seat, n, rule, to_supply)
        calls.append(("pay", state, seat, n, after, depth[0]))
        return after

    watched = game

    def reserve(game: Tokens, state: BotFactoryState, seat: int, turn: Turn, action: Reserve) -> BotFactoryState:
        if game is not watched:  # another game's reservation, while the room is watched
            return real_reserve(game, state, seat, turn, action)
        depth[0] += 1
        try:
            after: BotFactoryState = real_reserve(game, state, seat, turn, action)
        finally:
            depth[0] -= 1
        calls.append(("reserve", state, seat, action.slot, after, depth[0]))
        return after

    def tokens(state: BotFactoryState, seat: int) -> TokenState:
        return TokenState(_iv(state.hands[seat].tokens), _iv(game.on_contracts(state, seat)))

    def check_call(kind: str, state: BotFactoryState, seat: int, arg: Any, after: BotFactoryState) -> str | None:
        t, t2 = tokens(state, seat), tokens(after, seat)
        if kind == "gain":
            step = gain_step(t, t2, _iv(arg), fig)
        elif kind == "pay":
            step = pay_step(t, t2, _iv(arg))
        else:
            seats = state.reserved[arg]
            step = reserve_step(t, t2, _iv(len(seats)), z3.BoolVal(seat in seats), fig)
            c = _contract(seats, len(fig.costs))
            c2 = _contract(after.reserved[arg], len(fig.costs))
            step += contract_reserve_step(c, c2, _iv(seat), fig, _iv(game.players))
            step += [cl for _n, cl in contract_invariant(c2, len(fig.costs), _iv(game.players))]
        if not true_at(step):
            return f"{kind}({arg}) by seat {seat}: {t} -> {t2} is not a step of the encoding"
        if not true_at([cl for _n, cl in token_invariant(t2, fig)]):
            return f"{kind}({arg}) by seat {seat}: {t2} breaks the token invariant"
        return None

    def counts_of(state: BotFactoryState, seat: int) -> tuple[int, int, int]:
        h = state.hands[seat]
        return len(h.parts), len(h.projects), len(h.done)

    def hand_of(c: tuple[int, int, int]) -> HandState:
        return HandState(_iv(c[0]), _iv(c[1]), _iv(c[2]))

    def is_over(c: tuple[int, int, int]) -> bool:
        return holds_at(("over", *c), lambda: [over(hand_of(c), fig)])

    def kept(c: tuple[int, int, int], c2: tuple[int, int, int]) -> bool:
        return holds_at(("kept", c[2], c2[2]), lambda: [hand_of(c2).completed >= hand_of(c).completed])

    def discarded(c: tuple[int, int, int], c2: tuple[int, int, int], w: int) -> bool:
        return holds_at(("discard", *c, *c2, w), lambda: discard_step(hand_of(c), hand_of(c2), _iv(w), fig))

    def at_rest(c: tuple[int, int, int]) -> bool:
        return holds_at(("rest", *c), lambda: [cl for _n, cl in resolved_limits(hand_of(c), fig)])

    try:
        for name in real:
            setattr(game, name, {"_gain": gain, "_pay": pay}[name])
        finance.reserve = reserve  # the Finance room's function, its round's one way in (restored below)
        stopped = False
        for seed in seeds:
            for before, action, after in walk(game, seed, max_steps):
                if stop is not None and stop():
                    stopped = True
                    break
                counts["steps"] += 1
                where = f"seed {seed}, step {counts['steps']}, {action!r}"
                for kind, state, seat, arg, out, _depth in calls:
                    counts[kind] += 1
                    bad = check_call(kind, state, seat, arg, out)
                    if bad is not None:
                        problems.append(f"{where}: {bad}")
                for seat in range(game.players):
                    delta = sum(
                        out.hands[s].tokens - state.hands[s].tokens
                        for _k, state, s, _a, out, d in calls
                        if s == seat and d == 0
                    )
                    if after.hands[seat].tokens - before.hands[seat].tokens != delta:
                        problems.append(f"{where}: seat {seat}'s tokens changed outside _gain/_pay/_reserve")
                calls.clear()
                for seat in range(game.players):
                    c, c2 = counts_of(before, seat), counts_of(after, seat)
                    if not kept(c, c2):
                        problems.append(f"{where}: seat {seat}'s completed Projects decreased")
                    if isinstance(action, DiscardPart | DiscardProject) and seat == before.discarder:
                        counts["discard"] += 1
                        if not discarded(c, c2, 0 if isinstance(action, DiscardPart) else 1):
                            problems.append(f"{where}: not a discard step of the encoding")
                settled = not after.draws and (after.turn is None or not after.turn.prompt)
                if after.phase is Phase.ACTION and settled and after.turn is not None:
                    seat = after.order[after.index]
                    if is_over(counts_of(after, seat)):
                        problems.append(f"{where}: seat {seat} is over the limits but does not discard")
                asked = after.discarder
                if after.phase is Phase.DISCARD and asked is not None and not is_over(counts_of(after, asked)):
                    problems.append(f"{where}: a discard asked of a hand within the limits")
                if after.phase is not Phase.DISCARD and settled:
                    for seat in range(game.players):
                        if not at_rest(counts_of(after, seat)):
                            problems.append(f"{where}: seat {seat} at rest beyond the limits")
            if stopped:
                break
    finally:
        for name in real:
            delattr(game, name)
        finance.reserve = real_reserve
    return Observed(
        counts["steps"],
        counts["gain"],
        counts["pay"],
        counts["reserve"],
        counts["discard"],
        tuple(problems[:20]),
        stopped,
    )


def _contract(seats: Sequence[int], spaces: int) -> ContractState:
    padded = [*seats, *([-1] * (spaces + 1 - len(seats)))]
    return ContractState(_iv(len(seats)), tuple(_iv(s) for s in padded))


# --- a replay of the Project overflow in the Python game ----------------------------------------------


def projects_overflow_scenario(game: BotFactoryGame, completed: int) -> tuple[BotFactoryState, tuple[Any, ...]]:
    """A hand at rest with ``completed`` completed Projects and none unfinished, on the Project board's first
    space with the red Project tile on the left column's bottom space, the red bot's head and torso placed
    and its legs in hand: the actions TakeProject(0, 0) (BF-PROJ-LEFT: pay a token to place a part, the limit
    check waiting for that choice) then PlacePart("red-legs", "red") completing the bot (BF-ASM-PROJECT)."""
    state = game.initial_state()
    colours = game.colours
    done = tuple(sorted(colours[1 + i % 3] for i in range(completed)))
    space = game.board_spaces[PROJECT][0]
    n = game.spaces[space][2]
    hands = tuple(Hand(2, parts=("red-legs",), done=done) if seat == 0 else Hand(1) for seat in range(game.players))
    red = colours.index("red")
    columns = tuple(("red-head", "red-torso", None) if ci == red else (None, None, None) for ci in range(4))
    grid = (("red", None, None)[: len(state.grid[0])], state.grid[1])
    sandra = game.board_spaces[(PROJECT + 1) % 4][0]
    state = evolve(
        state,
        hands=hands,
        columns=columns,
        grid=grid,
        workers=(space, *([None] * (game.players - 1))),
        sandra=sandra,
        phase=Phase.ACTION,
        order=tuple(range(game.players)),
        index=0,
        turn=Turn(n, "open"),
        draws=(),
        after_discard="",
    )
    return state, (TakeProject(0, 0), PlacePart("red-legs", "red"))
