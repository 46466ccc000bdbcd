"""The fast Bot Factory engine refines the plain reference (bgrules.botfactory.reference): at every state
reached by seeded playouts both give the same legal actions in the same order, the same chance outcomes with
the same probabilities in the same order, the same successor for each action taken, the same ``to_move`` and
``is_terminal``, and on terminal states the same scores and winners, under every value of every ruling
switch and with ``max_rounds`` set. docs/rules/botfactory.md, "Engine conventions", states the order and
bookkeeping conventions the reference follows."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from typing import Any

import attrs
import pytest

from bgrules.agents.greedy import GreedyAgent
from bgrules.botfactory.game import BotFactoryGame
from bgrules.botfactory.reference import ReferenceBotFactoryGame
from bgrules.botfactory.state import BotFactoryState, MoveWorker, PlacePart, Refill
from bgrules.core.errors import IllegalAction, InputError
from bgrules.core.protocol import CHANCE

Chooser = Callable[[BotFactoryGame, BotFactoryState, random.Random], Any]


def _random_choice(game: BotFactoryGame, state: BotFactoryState, rng: random.Random) -> Any:
    return rng.choice(game.legal_actions(state))


def _diff(a: BotFactoryState, b: BotFactoryState) -> list[str]:
    return [
        f"{f.name}: fast {getattr(a, f.name)!r} / reference {getattr(b, f.name)!r}"
        for f in attrs.fields(BotFactoryState)
        if getattr(a, f.name) != getattr(b, f.name)
    ]


@attrs.frozen
class Walk:
    steps: int
    finished: bool
    rounds: int


def walk(
    players: int,
    seed: int,
    variant: Any = None,
    max_rounds: int | None = None,
    round_cap: int = 40,
    choose: Chooser = _random_choice,
    reference: ReferenceBotFactoryGame | None = None,
) -> Walk:
    """One seeded playout of the fast engine with the reference alongside, checked at every state; chance
    is sampled with a seeded random.Random weighted by the (agreed) probabilities."""
    fast = BotFactoryGame(players, variant, max_rounds)
    ref = reference if reference is not None else ReferenceBotFactoryGame(players, variant, max_rounds)
    rng = random.Random(seed)
    s, t = fast.initial_state(), ref.initial_state()
    steps = 0
    last: Any = None
    while True:
        where = f"{players} players, seed {seed}, step {steps}, after {last!r}"
        assert s == t, f"{where}: states differ: {_diff(s, t)}"
        assert fast.to_move(s) == ref.to_move(t), where
        assert fast.is_terminal(s) == ref.is_terminal(t), where
        if steps % 97 == 0:
            assert ref.validate(t) == [], where  # bgrules.botfactory.validate reads the reference as well
        if fast.is_terminal(s):
            assert fast.scores(s) == ref.scores(t), where
            assert fast.winners(s) == ref.winners(t), where
            return Walk(steps, True, s.round)
        if s.round > round_cap:
            return Walk(steps, False, s.round)
        if fast.to_move(s) is CHANCE:
            outcomes = fast.chance_outcomes(s)
            assert outcomes == ref.chance_outcomes(t), where
            assert ref.legal_actions(t) == (), where
            action = rng.choices([o for o, _ in outcomes], [float(p) for _, p in outcomes])[0]
        else:
            legal = fast.legal_actions(s)
            assert legal == ref.legal_actions(t), where
            assert ref.chance_outcomes(t) == (), where
            action = choose(fast, s, rng)
        s, t = fast.apply(s, action), ref.apply(t, action)
        last = action
        steps += 1


SWITCHES: list[dict[str, Any]] = [
    {"unpaid_share": "additional_only"},
    {"last_space_toll": "combined"},
    {"last_space_toll": "combined", "unpaid_share": "additional_only"},
    {"project_clear_out": "bottom_space"},
    {"reservation_tokens": "one_more"},
    {"reservation_tokens": "whole_cost"},
    {"additional_actions": "own_turn"},
    {"opening_window": "none"},
    {"paid_sharer": "own_turn"},
    {"paid_sharer": "own_turn", "opening_window": "none"},
    {"bots_per_colour_to_end": 1},
    {"bots_per_colour_to_end": 4},
    {  # the readings of 0.3.0 (tests/support/golden_traces.py)
        "last_space_toll": "combined",
        "project_clear_out": "bottom_space",
        "reservation_tokens": "whole_cost",
        "additional_actions": "own_turn",
        "opening_window": "none",
        "paid_sharer": "own_turn",
    },
]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_default_rulings_random_playouts_agree(players: int) -> None:
    for seed in range(2):
        walk(players, seed, round_cap=25)


@pytest.mark.parametrize("rulings", SWITCHES, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()))
def test_each_ruling_switch_agrees(rulings: dict[str, Any]) -> None:
    walk(3, 1, {"rulings": rulings}, round_cap=15)


@pytest.mark.parametrize("players", [2, 4])
def test_max_rounds_ends_and_scores_alike(players: int) -> None:
    result = walk(players, 3, max_rounds=3)
    assert result.finished and result.rounds == 3


def test_component_data_from_a_variant_agrees() -> None:
    variant = {
        "rulings": {"unpaid_share": "additional_only", "bots_per_colour_to_end": 2},
        "boards": {
            "production": [2, 3],
            "finance": [1, 3],
            "project_rows": 4,
            "icon_slots": ["head", "legs"],
            "sandra_start": 8,
        },
        "finance": {"start_value": 2, "lines": [4, 7]},
        "counts": {"part_limit": 4, "token_cap": 7},
    }
    walk(3, 2, variant, round_cap=15)


_GREEDY = GreedyAgent()


def _greedy(game: BotFactoryGame, state: BotFactoryState, rng: random.Random) -> Any:
    return _GREEDY.choose(game, state, rng)


def test_greedy_games_finish_with_the_same_scores_and_winners() -> None:
    finished = 0
    for seed in range(2):
        finished += walk(2, seed, choose=_greedy, round_cap=40).finished
    assert finished >= 1, "greedy play should finish a game (BF-END) so that scores and winners are compared"


@pytest.mark.heavy
@pytest.mark.parametrize("players", [2, 3, 4])
def test_many_random_playouts_agree(players: int) -> None:
    for seed in range(20):
        walk(players, 100 + seed)


@pytest.mark.heavy
@pytest.mark.parametrize("rulings", SWITCHES, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()))
@pytest.mark.parametrize("players", [2, 4])
def test_each_ruling_switch_agrees_at_length(rulings: dict[str, Any], players: int) -> None:
    for seed in range(3):
        walk(players, 200 + seed, {"rulings": rulings})


@pytest.mark.heavy
@pytest.mark.parametrize("players", [3, 4])
def test_greedy_games_agree_heavy(players: int) -> None:
    for seed in range(2):
        walk(players, 300 + seed, choose=_greedy)


def test_the_walker_catches_a_broken_reward(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison can fail: with BF-ASM-REWARD's two tokens turned into three in the reference, the
    walker stops at the first part placed."""
    from bgrules.botfactory.reference import assembly, common

    real = common.gain_tokens

    def broken(g: Any, s: BotFactoryState, seat: int, amount: int) -> BotFactoryState:
        return real(g, s, seat, 3 if amount == 2 else amount)

    monkeypatch.setattr(assembly, "gain_tokens", broken)
    with pytest.raises(AssertionError, match="states differ"):
        for seed in range(4):
            walk(3, seed, round_cap=20)


def test_an_illegal_action_names_its_rule_and_changes_nothing() -> None:
    game = ReferenceBotFactoryGame(3)
    rng = random.Random(0)
    s = game.initial_state()
    while game.to_move(s) is CHANCE or s.phase.value == "pick":
        if game.to_move(s) is CHANCE:
            outcomes = game.chance_outcomes(s)
            s = game.apply(s, rng.choices([o for o, _ in outcomes], [float(p) for _, p in outcomes])[0])
        else:
            s = game.apply(s, game.legal_actions(s)[0])
    before = s
    with pytest.raises(IllegalAction) as caught:
        game.apply(s, MoveWorker(space=99))
    assert caught.value.rule_id == "BF-MOVE"
    with pytest.raises(IllegalAction) as caught:
        game.apply(s, PlacePart("red-head", "red"))
    assert caught.value.rule_id.startswith("BF-")
    assert s == before


def test_the_reference_has_the_fast_games_face() -> None:
    variants: list[Any] = [
        None,
        {"rulings": {"additional_actions": "own_turn"}},
        {"rulings": {"opening_window": "none"}},
    ]
    for players, max_rounds, variant in itertools.product((2, 3, 4), (None, 5), variants):
        fast = BotFactoryGame(players, variant, max_rounds)
        ref = ReferenceBotFactoryGame(players, variant, max_rounds)
        assert ref.info == fast.info
        assert ref.players == fast.players
        assert tuple(ref.action_types()) == tuple(fast.action_types())
        assert ref.runner_rounds == fast.runner_rounds and ref.max_rounds == max_rounds
        assert ref.state_type() is fast.state_type()
        assert ref.validate(ref.initial_state()) == fast.validate(fast.initial_state()) == []
    crowded = {"boards": {"assembly": [1], "production": [1], "project": [1], "finance": [1], "sandra_start": 0}}
    for bad in ({"players": 1}, {"players": 5}, {"max_rounds": 0}, {"max_rounds": True}, {"variant": crowded}):
        with pytest.raises(InputError) as theirs:
            BotFactoryGame(**bad)
        with pytest.raises(InputError) as ours:
            ReferenceBotFactoryGame(**bad)
        assert str(ours.value) == str(theirs.value)


TOP_RIGHT_FIRST = {"wheel": {"top": [1, 0]}}
"""A variant whose Wheel lists its top spaces right first (``[wheel] top``: "the top two spaces, left first",
BF-PROD-ROTATE: each empty top space may be filled, in that order)."""


def test_a_wheel_listing_its_top_spaces_right_first_offers_both_refills() -> None:
    walk(2, 1, TOP_RIGHT_FIRST, round_cap=12)


def test_the_second_refill_is_offered_when_the_top_is_listed_right_first() -> None:
    """The disagreement above, pinned: the first state of that playout (2 players, seed 1) in which both top
    spaces are empty and the refill of position 1 (``top[0]``) is offered."""
    fast, ref = BotFactoryGame(2, TOP_RIGHT_FIRST), ReferenceBotFactoryGame(2, TOP_RIGHT_FIRST)
    rng = random.Random(1)
    s = fast.initial_state()

    def both_empty(s: BotFactoryState) -> bool:
        return s.turn is not None and s.turn.prompt == ("refill", "1") and s.wheel[0] is None and not s.draws

    for _ in range(2000):
        if both_empty(s):
            break
        if fast.to_move(s) is CHANCE:
            outcomes = fast.chance_outcomes(s)
            s = fast.apply(s, rng.choices([o for o, _ in outcomes], [float(p) for _, p in outcomes])[0])
        else:
            s = fast.apply(s, rng.choice(fast.legal_actions(s)))
    assert s.turn is not None and s.turn.prompt == ("refill", "1") and s.wheel[0] is None and s.wheel[1] is None
    action = fast.legal_actions(s)[0]
    assert isinstance(action, Refill) and action.position == 1
    after_fast, after_ref = fast.apply(s, action), ref.apply(s, action)
    assert after_ref.turn is not None and after_ref.turn.prompt == ("refill", "0")  # the reference: BF-PROD-ROTATE
    assert after_fast.turn is not None
    assert after_fast.turn.prompt == after_ref.turn.prompt  # the fast engine's prompt was () in 0.8.0


THREE_SPACES = {"finance": {"reservation_costs": [1, 1, 1]}}
"""A variant printing three reservation costs on a contract (``[finance] reservation_costs``)."""


def test_a_variant_with_three_reservation_costs_is_refused_by_both_engines() -> None:
    """BF-FIN-CONTRACT (seed line 110: 一個合約最多可以被兩個玩家保留, at most two players reserve a contract):
    a third cost could never be paid, so the variant is refused, in one line naming the field (the fast
    engine offered a third reservation in 0.8.0; the reference found it)."""
    for engine in (BotFactoryGame, ReferenceBotFactoryGame):
        with pytest.raises(InputError, match=r"reservation_costs.*at most two reservations"):
            engine(4, THREE_SPACES)
