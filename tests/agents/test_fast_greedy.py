"""The fast greedy agent (issue 12, item 3) makes the choices of the plain one: a reference implementation kept
here (the agent and both games' evaluations as they were before the speed work: every action applied and every
state evaluated afresh, no memo) plays the same seeded games, action for action, and the evaluations give the
same floats on every state greedy play values."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from support import walks

import bgrules
from bgrules.agents import GreedyAgent
from bgrules.botfactory import evaluate as bf_evaluate
from bgrules.core.protocol import CHANCE
from bgrules.mechanica import evaluate as mc_evaluate

# --- the reference: the plain agent and evaluations --------------------------------------------------------


def _reference_bf(game: Any, state: Any, seat: int) -> float:
    """Bot Factory's evaluation term by term, every seat scored by ``game.scores`` (as before the memo)."""
    ev = bf_evaluate
    hand = state.hands[seat]
    value = float(game.scores(state)[seat]) + 0.5 * (hand.tokens % 2) + ev.TOKEN_NEED * min(hand.tokens, 3)
    colours, slots, columns = game.colours, game.slots, state.columns
    empty = []
    for ci, column in enumerate(columns):
        open_ = state.bots_left[ci] > 0 and not all(x is not None for x in column)
        empty.append(tuple(open_ and x is None for x in column))
    fits = [0] * len(colours)
    for part in hand.parts:
        colour, slot = part.split("-")
        si = slots.index(slot)
        value += ev.PART
        targets = range(len(colours)) if colour == "any" else (colours.index(colour),)
        if any(empty[ci][si] for ci in targets):
            value += ev.PART_FIT
    held = [p.split("-") for p in hand.parts]
    for ci in range(len(colours)):
        fits[ci] = sum(
            1
            for si in range(len(slots))
            if empty[ci][si] and any(c in ("any", colours[ci]) and s == slots[si] for c, s in held)
        )
    value += ev.PROJECT * len(hand.projects)
    for colour in sorted(set(hand.projects)):
        ci = colours.index(colour)
        if state.bots_left[ci] > 0:
            placed = sum(x is not None for x in columns[ci]) if any(empty[ci]) else 0
            value += ev.PROGRESS * min(state.values[ci], ev.VALUE_CAP) * min(3, placed + fits[ci]) / 3
    value += ev.BOT * len(hand.done)
    return float(value + ev.turn_potential(game, state, seat, fits))


def _reference_mc(game: Any, state: Any, seat: int) -> float:
    """Mechanica's evaluation with the workday run afresh for every state (no memo)."""
    from bgrules.mechanica.board import installed_value
    from bgrules.mechanica.state import Phase
    from bgrules.mechanica.workday import start_run

    variant = game.variant
    cat = variant.catalogue
    if hasattr(state, "seats"):
        s = state.seats[seat]
        board, wallet, vault, stock = s.factory, s.wallet, s.vault, state.stock
        value = 0.0
        if state.phase is Phase.RUN and state.current == seat and state.run is not None:
            value += mc_evaluate.run_income(state.run.factory, state.run, variant)
            board = state.run.factory
            income = 0.0
        else:
            income = mc_evaluate.run_income(board, start_run(board, stock, variant), variant)
        if state.pending is not None and state.current == seat and state.phase is Phase.PLACE:
            value += cat.tile(state.pending).value
    else:
        board, wallet, vault, stock = state.board, state.wallet, state.vault, state.live_stock
        value = 0.0
        if state.run is not None:
            value += mc_evaluate.run_income(board, state.run, variant)
            income = 0.0
        else:
            income = mc_evaluate.run_income(board, start_run(board, stock, variant), variant)
    truck = mc_evaluate.truck_value(board, variant)
    return float(wallet + vault + installed_value(board, cat) + truck + value + income)


REFERENCE = {"botfactory": _reference_bf, "mechanica": _reference_mc, "mechanica-factory": _reference_mc}


class PlainGreedy:
    """The greedy agent as written before the speed work (bgrules/agents/greedy.py's doc): every legal action
    applied and its state valued afresh at every decision."""

    name = "plain-greedy"

    def __init__(self, evaluation: Any, pair_limit: int = 64) -> None:
        self.evaluation = evaluation
        self.pair_limit = pair_limit
        self.width = 1

    def value(self, game: Any, state: Any, seat: int, depth: int) -> float:
        from bgrules.agents.greedy import FEW, WIN_BONUS

        if game.is_terminal(state):
            return float(self.evaluation(game, state, seat)) + (WIN_BONUS if seat in game.winners(state) else 0.0)
        mover = game.to_move(state)
        if depth >= 1 and mover is CHANCE:
            total = 0.0
            for outcome, p in game.chance_outcomes(state):
                total += float(p) * self.value(game, game.apply(state, outcome), seat, 0)
            return total
        if depth >= 2 and mover == seat and (self.width <= FEW or 2 * self.width <= self.pair_limit):
            legal = tuple(game.legal_actions(state))
            if len(legal) > 1 and (self.width <= FEW or len(legal) * self.width <= self.pair_limit):
                return max(self.value(game, game.apply(state, a), seat, 1) for a in legal)
        return float(self.evaluation(game, state, seat))

    def choose(self, game: Any, state: Any, rng: random.Random) -> Any:
        from bgrules.agents.greedy import EPSILON

        legal = game.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        seat = game.to_move(state)
        self.width = len(legal)
        scored = [(self.value(game, game.apply(state, a), seat, 2), a) for a in legal]
        best = max(v for v, _a in scored)
        tied = [a for v, a in scored if v >= best - EPSILON]
        return tied[rng.randrange(len(tied))] if len(tied) > 1 else tied[0]


# --- the tests ---------------------------------------------------------------------------------------------

CASES = [("botfactory", 2, 0), ("botfactory", 4, 1), ("mechanica", 2, 0), ("mechanica", 4, 1)]


def _play(game: Any, seed: int, agents: Any, max_steps: int) -> list[Any]:
    """The actions of the seeded game the agents play (the runner's round cap: Bot Factory's 40)."""
    return walks.actions(game, seed, max_steps=max_steps, agents=agents)


@pytest.mark.parametrize(("name", "players", "seed"), CASES)
def test_the_fast_greedy_makes_the_plain_greedys_choices(name: str, players: int, seed: int) -> None:
    game = bgrules.load_game(name, players=players)
    steps = 400 if name == "botfactory" else 150
    plain = _play(game, seed, [PlainGreedy(REFERENCE[name]) for _ in range(players)], steps)
    fast = _play(game, seed, [GreedyAgent() for _ in range(players)], steps)
    assert len(plain) > 100
    assert fast == plain


@pytest.mark.parametrize(("name", "players", "seed"), CASES)
def test_the_evaluations_give_the_plain_floats(name: str, players: int, seed: int) -> None:
    """On every state the greedy players value (and for every seat), the memoised evaluation equals the
    reference exactly: ties among actions are decided to within 1e-9, so the floats must be the same."""
    game = bgrules.load_game(name, players=players)
    fast = bf_evaluate.evaluate if name == "botfactory" else mc_evaluate.evaluate
    seen: list[Any] = []

    def watching(g: Any, state: Any, seat: int) -> float:
        seen.append(state)
        return fast(g, state, seat)

    _play(game, seed, [GreedyAgent(evaluation=watching) for _ in range(players)], 120)
    assert len(seen) > 300
    kinds: Counter[str] = Counter()
    for state in seen[::3]:
        for seat in range(players):
            want = REFERENCE[name](game, state, seat)
            assert fast(game, state, seat) == want
            kinds["positive" if want > 0 else "other"] += 1
    assert kinds["positive"] > 0


def test_the_mechanica_sandbox_greedy_makes_the_plain_choices() -> None:
    game = bgrules.load_game("mechanica-factory", players=1)
    plain = _play(game, 0, [PlainGreedy(_reference_mc)], 12)
    assert _play(game, 0, [GreedyAgent()], 12) == plain


def test_one_agent_in_two_games_reads_nothing_of_the_first() -> None:
    """The carried look-ahead is for the game and state it was made in: the same agent seated in another
    game (another ruling: other values) and the same agent again from the start play as fresh agents do."""
    a = bgrules.load_game("botfactory", players=2)
    b = bgrules.load_game("botfactory", players=2, variant={"rulings": {"last_space_toll": "combined"}})
    shared = [GreedyAgent(), GreedyAgent()]
    first = _play(a, 3, shared, 200)
    other = _play(b, 3, shared, 200)
    again = _play(a, 3, shared, 200)
    assert first == again == _play(a, 3, [GreedyAgent(), GreedyAgent()], 200)
    assert other == _play(b, 3, [PlainGreedy(_reference_bf), PlainGreedy(_reference_bf)], 200)


def test_the_bot_factory_memos_are_never_read_for_another_game_at_the_same_address() -> None:
    """The evaluation's memos are the game's own (``game.memos``): wrong entries planted in another game's
    memos (as a freed game's would be) are not read for this one, and this game's evaluation fills its own."""
    game = bgrules.load_game("botfactory", players=2)
    other = bgrules.load_game("botfactory", players=2)
    state = None
    for _b, _a, after in walks.steps(game, 0):  # random play: seat 1 reserves a contract, holds parts and a bot
        if any(1 in seats for seats in after.reserved) and after.hands[1].parts and after.hands[1].done:
            state = after
            break
    assert state is not None, "no state with a reserved contract, held parts and a bot"
    want = _reference_bf(game, state, 1)
    hand = state.hands[1]
    game.memos.clear()
    held = (hand.parts, hand.projects, state.columns, state.bots_left, state.values)
    other.memos.memo("evaluate.held", bf_evaluate._MEMO_BOUND)[held] = (9.0, (9.0,), (3,) * len(game.colours))
    other.memos.memo("evaluate.contracts", bf_evaluate._MEMO_BOUND)[(state.reserved, state.display, hand.done, 1)] = 99
    for part in hand.parts:
        other.memos.memo("evaluate.parts", bf_evaluate._MEMO_BOUND)[part] = (-1, 0)
    assert bf_evaluate.evaluate(game, state, 1) == want
    assert held in game.memos["evaluate.held"] and game.memos["evaluate.parts"]


def test_a_carried_look_ahead_is_used_only_at_an_equal_state() -> None:
    """The look-ahead a choice carries to the next decision is read only when that decision comes at a state
    equal to the one the chosen action led to: here each decision of another game follows a choice that
    carried one, and the agent chooses there as a fresh agent does."""
    game = bgrules.load_game("botfactory", players=2)
    carried = []  # decision states whose choice carries a look-ahead
    others = []  # decision states of another seed
    probe = GreedyAgent()
    for _b, _a, after in walks.steps(game, 2, max_steps=150, agents=[GreedyAgent(), GreedyAgent()]):
        if game.is_terminal(after) or game.to_move(after) is CHANCE:
            continue
        probe.choose(game, after, random.Random(0))
        if probe._carry is not None:
            carried.append(after)
    for _b, _a, after in walks.steps(game, 7, max_steps=150, agents=[GreedyAgent(), GreedyAgent()]):
        if not game.is_terminal(after) and game.to_move(after) is not CHANCE and len(game.legal_actions(after)) > 1:
            others.append(after)
    assert len(carried) >= 10 and len(others) >= 10
    for before, state in zip(carried, others, strict=False):
        agent = GreedyAgent()
        agent.choose(game, before, random.Random(0))
        assert agent._carry is not None
        assert agent.choose(game, state, random.Random(1)) == GreedyAgent().choose(game, state, random.Random(1))


@pytest.mark.parametrize(
    ("name", "players"), [("botfactory", 2), ("botfactory", 3), ("botfactory", 4), ("mechanica", 3)]
)
def test_the_evaluations_give_the_plain_floats_on_random_play(name: str, players: int) -> None:
    """Random play reaches hands greedy seldom holds (reserved contracts, many parts, bots of several
    colours): every seat of every fifth state of two seeded games is valued exactly as the reference does."""
    game = bgrules.load_game(name, players=players)
    fast = bf_evaluate.evaluate if name == "botfactory" else mc_evaluate.evaluate
    checked = 0
    reserved = 0
    for seed in range(2):
        for i, (_b, _a, state) in enumerate(walks.steps(game, seed)):
            if i % 5:
                continue
            for seat in range(players):
                assert fast(game, state, seat) == REFERENCE[name](game, state, seat), (seed, i, seat)
                checked += 1
                reserved += name == "botfactory" and any(seat in seats for seats in state.reserved)
    assert checked > 200
    assert name != "botfactory" or reserved > 0
