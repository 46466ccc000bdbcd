"""The agents (bgrules.agents): legal and deterministic on every game and player count, seatable one per
player, refusing bad input with one line; the evaluations follow the seeds' scoring; end triggers."""

from __future__ import annotations

import random

import attrs
import pytest

import bgrules
from bgrules import InputError
from bgrules.agents import AGENT_NAMES, GreedyAgent, MctsAgent, RandomAgent, make_agent, parse_agents
from bgrules.botfactory.state import Hand
from bgrules.core.conformance import check_agents
from bgrules.core.playout import playout, walk
from bgrules.runners.sampled import _mix
from bgrules.runners.specfile import Budget

GAMES = [("botfactory", n) for n in (2, 3, 4)] + [("mechanica", n) for n in (2, 3, 4)] + [("mechanica-factory", 1)]


def agents_for(name: str, players: int) -> tuple[object, ...]:
    if name == "mcts":
        return tuple(MctsAgent(iterations=4) for _ in range(players))
    return parse_agents(name, players)


@pytest.mark.parametrize(("game_name", "players"), GAMES)
@pytest.mark.parametrize("agent", AGENT_NAMES)
def test_agents_are_legal_and_deterministic(game_name: str, players: int, agent: str) -> None:
    game = bgrules.load_game(game_name, players=players)
    steps = {"random": 400, "greedy": 80, "mcts": 25}[agent]
    if game_name == "mechanica-factory" and agent != "random":
        steps //= 3  # the sandbox offers every tile of its supply at every cell: hundreds of actions a step
    decisions = check_agents(game, agents_for(agent, players), range(2), max_steps=steps)
    assert decisions > 0


@pytest.mark.parametrize(("game_name", "players"), [("botfactory", 3), ("mechanica", 2)])
def test_a_mix_of_agents_one_per_seat_is_legal_and_deterministic(game_name: str, players: int) -> None:
    game = bgrules.load_game(game_name, players=players)
    agents = (GreedyAgent(), RandomAgent(), MctsAgent(iterations=3))[:players]
    assert check_agents(game, agents, range(1), max_steps=60) > 0


@pytest.mark.parametrize(("game_name", "players"), GAMES)
def test_random_agents_play_exactly_the_playouts_without_agents(game_name: str, players: int) -> None:
    game = bgrules.load_game(game_name, players=players)
    for seed in range(2):
        plain = playout(game, seed, max_steps=300)
        seated = playout(game, seed, max_steps=300, agents=parse_agents(None, players))
        assert plain.actions == seated.actions and plain.final == seated.final


def test_parse_agents_seats() -> None:
    assert [a.name for a in parse_agents(None, 3)] == ["random"] * 3
    assert [a.name for a in parse_agents("", 2)] == ["random"] * 2
    assert [a.name for a in parse_agents("greedy", 4)] == ["greedy"] * 4
    assert [a.name for a in parse_agents("greedy,random,random,mcts", 4)] == ["greedy", "random", "random", "mcts"]
    assert [a.name for a in parse_agents(["mcts", "greedy"], 2)] == ["mcts", "greedy"]
    mcts = parse_agents("mcts:iterations=7:rollout=greedy:rollout_steps=2", 1)[0]
    assert isinstance(mcts, MctsAgent) and mcts.iterations == 7 and mcts.rollout == "greedy"
    assert mcts.rollout_steps == 2
    timed = make_agent("mcts", seconds=0.5)
    assert isinstance(timed, MctsAgent) and timed.seconds == 0.5 and timed.iterations is None


@pytest.mark.parametrize(
    ("spec", "players", "words"),
    [
        ("foo", 2, ["unknown agent 'foo'", "valid: random, greedy, mcts"]),
        ("greedy,random,random", 4, ["4 seats need 1 or 4 agent names, not 3"]),
        ("greedy,random,random", 2, ["2 seats need 1 or 2 agent names, not 3"]),
        ("mcts:iterations=0", 2, ["iterations", "at least 1", "0"]),
        ("mcts:iterations=-5", 2, ["iterations", "at least 1", "-5"]),
        ("mcts:seconds=0", 2, ["seconds", "above 0"]),
        ("mcts:seconds=-1.5", 2, ["seconds", "above 0"]),
        ("mcts:rollout=smart", 2, ["valid: random, greedy"]),
        ("mcts:order=best", 2, ["valid: legal, greedy"]),
        ("mcts:reward=win", 2, ["valid: lead, own"]),
        ("mcts:prior=-1", 2, ["prior", "at least 0"]),
        ("mcts:top=0", 2, ["top", "at least 1"]),
        ("greedy:depth=3", 2, ["greedy takes no option depth", "valid: pair_limit"]),
        ("greedy:pair_limit=0", 2, ["pair_limit", "at least 1"]),
        ("mcts:iterations", 2, ["name:key=value"]),
    ],
)
def test_bad_agent_specs_are_one_line_input_errors(spec: str, players: int, words: list[str]) -> None:
    with pytest.raises(InputError) as info:
        parse_agents(spec, players)
    text = str(info.value)
    assert "\n" not in text
    for word in words:
        assert word in text


def test_walk_refuses_a_wrong_number_of_agents() -> None:
    game = bgrules.load_game("mechanica", players=3)
    with pytest.raises(InputError):
        list(walk(game, 0, agents=parse_agents("greedy", 2)))


def test_mcts_is_deterministic_for_an_iteration_budget_and_legal_for_a_time_budget() -> None:
    game = bgrules.load_game("botfactory", players=2)
    state = game.initial_state()
    rng = random.Random(3)
    while game.to_move(state) is bgrules.CHANCE or len(game.legal_actions(state)) < 3:
        outcomes = game.chance_outcomes(state)
        state = game.apply(state, outcomes[0][0] if outcomes else game.legal_actions(state)[0])
    agent = MctsAgent(iterations=30)
    first = agent.choose(game, state, random.Random(5))
    assert all(agent.choose(game, state, random.Random(5)) == first for _ in range(2))
    assert first in game.legal_actions(state)
    timed = MctsAgent(seconds=0.05)
    assert timed.choose(game, state, rng) in game.legal_actions(state)
    for options in ({"reward": "own"}, {"reward": "lead"}, {"order": "greedy", "prior": 5, "top": 2}):
        variant = MctsAgent(iterations=20, **options)  # type: ignore[arg-type]
        chosen = variant.choose(game, state, random.Random(2))
        assert chosen in game.legal_actions(state) and variant.choose(game, state, random.Random(2)) == chosen
    rolled = MctsAgent(iterations=10, rollout="greedy", rollout_steps=3)
    assert rolled.choose(game, state, random.Random(4)) == rolled.choose(game, state, random.Random(4))


def test_greedy_breaks_ties_by_its_rng() -> None:
    game = bgrules.load_game("botfactory", players=2)
    state = game.initial_state()
    while game.to_move(state) is bgrules.CHANCE:
        state = game.apply(state, game.chance_outcomes(state)[0][0])
    agent = GreedyAgent()
    scored = agent.scored(game, state)
    best = max(v for v, _a in scored)
    tied = [a for v, a in scored if v >= best - 1e-9]
    assert len(tied) > 1  # picking a pile at set-up: every pile's top part is worth the same
    chosen = {agent.choose(game, state, random.Random(seed)) for seed in range(20)}
    assert chosen <= set(tied) and len(chosen) > 1
    assert agent.choose(game, state, random.Random(1)) == agent.choose(game, state, random.Random(1))


# --- evaluations ----------------------------------------------------------------------------------


def test_botfactory_evaluation_is_the_seed_score_plus_progress() -> None:
    from bgrules.botfactory import evaluate as ev

    game = bgrules.load_game("botfactory", players=2)
    start = game.initial_state()
    hand = Hand(tokens=3, parts=("red-head",), projects=("red",), done=("blue",))
    state = attrs.evolve(start, hands=(hand, start.hands[1]))
    # BF-SCORE: the blue bot at its value 3, 3 tokens -> 1 point, -1 for the part, -2 for the Project
    assert game.scores(state)[0] == 3 + 1 - 1 - 2
    expected = (
        1
        + 0.5  # the odd token the floor of BF-SCORE drops
        + ev.TOKEN_NEED * 3
        + ev.PART
        + ev.PART_FIT  # red-head fits the red bot's empty head
        + ev.PROJECT
        + ev.PROGRESS * 3 * 1 / 3  # red at value 3, one of its three parts in reach
        + ev.BOT * 1
    )
    assert ev.evaluate(game, state, 0) == pytest.approx(expected)
    # a finished hand of bots only: the evaluation is the score plus the bots' and tokens' bonuses
    done = attrs.evolve(start, hands=(Hand(tokens=0, done=("blue", "red")), start.hands[1]))
    assert game.scores(done)[0] == 6
    assert ev.evaluate(game, done, 0) == pytest.approx(6 + 2 * ev.BOT)
    # a reserved contract the player cannot meet costs its reservation value (BF-SCORE)
    slot = next(i for i, c in enumerate(state.display) if c is not None) if any(state.display) else None
    if slot is not None:
        reserved = tuple(((0,) if i == slot else ()) for i in range(len(done.reserved)))
        unmet = attrs.evolve(done, reserved=reserved)
        assert ev.evaluate(game, unmet, 0) == pytest.approx(ev.evaluate(game, done, 0) - 2)


def test_mechanica_evaluation_is_the_score_plus_trucks_and_the_next_workday() -> None:
    from bgrules.mechanica.components import Bot
    from bgrules.mechanica.evaluate import evaluate, truck_value, workday_income
    from bgrules.mechanica.fabricate import Sell
    from bgrules.mechanica.factory import starting_factory

    quiet = "hole | . . . . | truck[B]\nbasic | . . . . | big[PD]\nhole | . . . . | truck\n"
    sandbox = bgrules.load_game("mechanica-factory", players=1, factory=quiet)
    s = sandbox.initial_state()
    assert sandbox.scores(s) == (0,)
    assert truck_value(s.factory, sandbox.variant) == 2 + 4 + 6  # MC-SELL: white 2, orange 4, purple 6
    assert evaluate(sandbox, s, 0) == 12.0  # no bot in the factory: no income
    sold = sandbox.apply(s, Sell(1, Bot.DELUXE))
    assert sandbox.scores(sold) == (6,) and evaluate(sandbox, sold, 0) == 12.0  # selling is neutral
    # the starting factory: its Basic bot rides to its truck in the next workday (2 coins when sold)
    assert workday_income(starting_factory(), (20, 24, 24), sandbox.variant) == 2.0
    game = bgrules.load_game("mechanica", players=2)
    start = game.initial_state()
    assert game.scores(start) == (8, 8)  # MC-SETUP-SEATS: 8 coins
    assert evaluate(game, start, 0) == 8 + 2


# --- end triggers ---------------------------------------------------------------------------------


def test_end_triggers() -> None:
    bf = bgrules.load_game("botfactory", players=2)
    p = playout(bf, 0, agents=parse_agents("greedy", 2), max_rounds=100)
    assert p.ended_by in ("BF-END-COLOUR", "BF-END-FIFTH") and not p.truncated
    assert bf.end_trigger(p.final) == p.ended_by
    assert bf.end_trigger(bf.initial_state()) is None
    capped = bgrules.load_game("botfactory", players=2, max_rounds=2)
    p = playout(capped, 0)
    assert p.ended_by == "max_rounds" and capped.end_trigger(p.final) == "max_rounds"
    p = playout(bf, 0, max_rounds=2)  # random play stopped by the runner: truncated, not ended
    assert p.truncated and p.ended_by is None
    mc = bgrules.load_game("mechanica", players=2)
    p = playout(mc, 1)
    assert p.ended_by == "MC-END" and mc.end_trigger(p.final) == "MC-END"
    assert mc.end_trigger(mc.initial_state()) is None
    sb = bgrules.load_game("mechanica-factory", players=1, days=1)
    p = playout(sb, 0)
    assert p.ended_by == "MC-DAY"


# --- the verify mix -------------------------------------------------------------------------------


def test_the_sampled_mix() -> None:
    plan = _mix(Budget(games=20, seed=3), 4)
    labels = [label for label, _a, _s in plan]
    assert len(plan) == 20 and labels.count("greedy") == 2 and labels.count("greedy-vs-random") == 2
    assert [s for _l, _a, s in plan] == list(range(3, 23))
    vs = [a for label, a, _s in plan if label == "greedy-vs-random"]
    assert vs == ["greedy,random,random,random", "random,greedy,random,random"]
    small = _mix(Budget(games=2), 2)
    assert [label for label, _a, _s in small].count("random") >= 1 and len(small) == 2
    only_random = _mix(Budget(games=5, mix=(("random", 1),)), 2)
    assert all(a is None for _l, a, _s in only_random)
    with pytest.raises(InputError):
        _mix(Budget(games=5, mix=(("clever", 2),)), 2)


def test_sampled_guarantee_names_agents_and_end_triggers() -> None:
    from bgrules.runners.sampled import check_sampled
    from bgrules.runners.specfile import Spec

    spec = Spec(
        id="T",
        game="mechanica-factory",
        statement="",
        rules=(),
        predicate="bgrules.mechanica.invariants:bots_conserved",
        kind="state",
        expected="holds",
        checkers=("sampled",),
        options={"days": 2},
    )
    game = bgrules.load_game("mechanica-factory", players=1, days=2)
    report = check_sampled(spec, game, Budget(games=8, max_steps=400))
    assert report.verdict == "holds"
    assert "8 games: 4 random (seeds 0-3), 2 greedy (seeds 4-5), 2 greedy-vs-random (seeds 6-7)" in report.guarantee
    assert "ended by MC-DAY 8" in report.guarantee
    small = check_sampled(spec, game, Budget(games=4, max_steps=400))
    assert "2 random (seeds 0-1), 1 greedy (seed 2), 1 greedy-vs-random (seed 3)" in small.guarantee
