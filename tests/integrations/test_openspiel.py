"""The fixed action space (bgrules.integrations.actions) and the OpenSpiel adapter (issue 11 item 4):
OpenSpiel's own random_sim_test on every game and player count, a whole game played by OpenSpiel's MCTSBot."""

from __future__ import annotations

import base64
import hashlib
import os
import random
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts

import bgrules
import bgrules.integrations.openspiel as adapter
from bgrules.core.errors import InputError, MissingExtra
from bgrules.core.protocol import CHANCE
from bgrules.integrations.actions import action_space, decode, encode, size
from bgrules.integrations.observations import feature_names, onehot_names
from bgrules.integrations.rewards import final_rewards

SEATINGS = [("mechanica", 2), ("mechanica", 3), ("mechanica", 4), ("mechanica-factory", 1)] + [
    ("botfactory", n) for n in (2, 3, 4)
]
SHORT = {v: k for k, v in adapter.GAMES.items()}


# --- the fixed action space ------------------------------------------------------------------------------


def _playout_nodes(game: bgrules.Game, seed: int, max_steps: int):
    """Each (state, legal actions or chance outcomes, is chance) along a seeded random playout."""
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(max_steps):
        if game.is_terminal(state):
            return
        if game.to_move(state) is CHANCE:
            outcomes = game.chance_outcomes(state)
            yield state, tuple(a for a, _ in outcomes), True
            action = rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
        else:
            legal = game.legal_actions(state)
            yield state, legal, False
            action = rng.choice(legal)
        state = game.apply(state, action)


@pytest.mark.parametrize(("name", "players"), SEATINGS)
def test_every_action_met_encodes_and_decodes_to_itself(name: str, players: int) -> None:
    game = bgrules.load_game(name, players=players, **({"max_rounds": 12} if name == "botfactory" else {}))
    space = action_space(game)
    assert len(set(space.actions)) == space.size and len(set(space.chance)) == space.chance_size
    met = 0
    for seed in range(4):
        for _state, actions, chance in _playout_nodes(game, seed, 1500):
            indices = [encode(game, a) for a in actions]
            assert len(set(indices)) == len(indices), "two legal actions share an index"
            for a, i in zip(actions, indices, strict=True):
                assert 0 <= i < (space.chance_size if chance else space.size)
                assert decode(game, i, chance=chance) == a
            met += len(actions)
    assert met > 1000
    assert size(game) == space.size


def test_the_space_is_built_from_the_data_not_from_set_order() -> None:
    code = (
        "import hashlib, bgrules\n"
        "from bgrules.integrations.actions import action_space\n"
        "h = hashlib.sha256()\n"
        "for name, n in (('mechanica', 3), ('mechanica-factory', 1), ('botfactory', 2)):\n"
        "    s = action_space(bgrules.load_game(name, players=n))\n"
        "    for a in s.actions + s.chance: h.update(bgrules.dumps(a).encode() + type(a).__name__.encode())\n"
        "print(h.hexdigest())\n"
    )
    digests = set()
    for hash_seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        digests.add(out.stdout.strip())
    assert len(digests) == 1


def test_known_indices() -> None:
    from bgrules.botfactory.state import MoveWorker, TakeTop
    from bgrules.mechanica.state import Next

    bf = bgrules.load_game("botfactory", players=2)
    assert encode(bf, TakeTop("red")) == 0 and encode(bf, TakeTop("green")) == 3
    assert encode(bf, MoveWorker(0)) == 4
    mc = bgrules.load_game("mechanica", players=2)
    space = action_space(mc)
    assert space.decode(encode(mc, Next())) == Next()
    assert (
        hashlib.sha256(repr(space.actions).encode()).hexdigest()
        == hashlib.sha256(repr(action_space(bgrules.load_game("mechanica", players=4)).actions).encode()).hexdigest()
    )


def test_a_foreign_action_or_index_is_one_line() -> None:
    from bgrules.mechanica.state import Next

    bf = bgrules.load_game("botfactory", players=2)
    with pytest.raises(InputError, match="no action of botfactory's action space"):
        encode(bf, Next())
    with pytest.raises(InputError, match="outside 0 to"):
        decode(bf, size(bf))
    with pytest.raises(InputError, match="expected a whole number"):
        decode(bf, "3")  # type: ignore[arg-type]


# --- OpenSpiel ---------------------------------------------------------------------------------------------


def _load(name: str, players: int, **params: object) -> pyspiel.Game:
    return pyspiel.load_game(SHORT[name], {"players": players, **params})


@pytest.mark.parametrize(("name", "players"), SEATINGS)
def test_random_sim_test(name: str, players: int) -> None:
    game = _load(name, players)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.heavy
@pytest.mark.parametrize(("name", "players"), SEATINGS)
def test_random_sim_test_more_games(name: str, players: int) -> None:
    pyspiel.random_sim_test(_load(name, players), num_sims=8, serialize=True, verbose=False)


def test_the_game_info_is_the_games() -> None:
    game = pyspiel.load_game("bgrules_botfactory", {"players": 3})
    inner = game.bgrules_game
    assert game.num_players() == 3 == inner.players
    assert game.num_distinct_actions() == action_space(inner).size
    assert game.max_chance_outcomes() == action_space(inner).chance_size
    assert game.max_game_length() == inner.info.max_length
    assert game.observation_tensor_size() == len(feature_names(inner))
    assert inner.max_rounds == adapter.RUNNER_ROUNDS
    assert game.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert pyspiel.load_game("bgrules_mechanica_factory").get_type().chance_mode == (
        pyspiel.GameType.ChanceMode.DETERMINISTIC
    )


def _walk(game: pyspiel.Game, seed: int, steps: int) -> pyspiel.State:
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(("name", "players"), [("botfactory", 3), ("mechanica", 2), ("mechanica-factory", 1)])
def test_the_adapter_plays_the_bgrules_game(name: str, players: int) -> None:
    """Each index applied through OpenSpiel is the decoded action applied by bgrules, and the legal indices
    are the encoded legal actions."""
    game = _load(name, players)
    inner = game.bgrules_game
    rng = random.Random(9)
    state, mine = game.new_initial_state(), inner.initial_state()
    for _ in range(400):
        if state.is_terminal():
            break
        chance = state.is_chance_node()
        if chance:
            legal = sorted(encode(inner, a) for a, _ in inner.chance_outcomes(mine))
        else:
            legal = sorted(encode(inner, a) for a in inner.legal_actions(mine))
            assert state.current_player() == inner.to_move(mine)
        assert state.legal_actions() == legal
        index = rng.choice(legal)
        state.apply_action(index)
        mine = inner.apply(mine, decode(inner, index, chance=chance))
        assert state.bgrules_state == mine
    assert state.is_terminal() == inner.is_terminal(mine)


def test_chance_nodes_carry_the_exact_probabilities() -> None:
    game = _load("mechanica", 3)
    inner = game.bgrules_game
    state = game.new_initial_state()
    seen = 0
    rng = random.Random(3)
    while not state.is_terminal() and seen < 30:
        if state.is_chance_node():
            exact = dict(inner.chance_outcomes(state.bgrules_state))
            mine = state.exact_chance_outcomes()
            assert {decode(inner, i, chance=True): p for i, p in mine} == exact
            assert sum((p for _, p in mine), Fraction(0)) == 1
            assert [(i, float(p)) for i, p in mine] == state.chance_outcomes()
            assert state.legal_actions() == [i for i, _ in mine]
            seen += 1
            state.apply_action(rng.choice([i for i, _ in mine]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert seen >= 20


def test_returns_are_the_documented_win_share() -> None:
    for name, players in (("botfactory", 2), ("mechanica", 4)):
        game = _load(name, players, **({"max_rounds": 3} if name == "botfactory" else {}))
        state = _walk(game, 5, 100_000)
        assert state.is_terminal()
        inner = game.bgrules_game
        winners = inner.winners(state.bgrules_state)
        assert state.returns() == [1 / len(winners) if p in winners else 0.0 for p in range(players)]
        assert sum(state.returns()) == pytest.approx(1.0)
    scored = _load("mechanica", 2, rewards="score")
    state = _walk(scored, 1, 100_000)
    assert state.returns() == [float(s) for s in scored.bgrules_game.scores(state.bgrules_state)]
    assert state.returns() == final_rewards(scored.bgrules_game, state.bgrules_state, "score")


def test_serialisation_round_trips_mid_game() -> None:
    for name, players in (("botfactory", 4), ("mechanica", 2), ("mechanica-factory", 1)):
        game = _load(name, players)
        state = _walk(game, 11, 150)
        text = pyspiel.serialize_game_and_state(game, state)
        game2, state2 = pyspiel.deserialize_game_and_state(text)
        assert str(game2) == str(game)
        assert state2.bgrules_state == state.bgrules_state
        assert state2.history() == state.history()
        # the bgrules state is serialised as the codec's canonical JSON (inside OpenSpiel's pickled attributes)
        pickled = base64.b64decode(text.split("__dict__=", 1)[1].strip())
        assert bgrules.dumps(state.bgrules_state).encode() in pickled


PICKLED = [
    ("botfactory", {"players": 3, "max_rounds": 5}),
    ("mechanica", {"players": 2, "observation": "onehot"}),
    (
        "mechanica-factory",
        {
            "days": 2,
            "supply": "fork+big_truck",
            "factory": "hole | FK1 . . . | truck; basic[B] | . . . . | big; hole | . . . . | truck",
        },
    ),
]


def _same_state(a: pyspiel.State, b: pyspiel.State) -> None:
    assert type(b) is type(a) and b.bgrules_state == a.bgrules_state and b.history() == a.history()
    assert b.legal_actions() == a.legal_actions() and b.current_player() == a.current_player()
    assert b.observation_string(0) == a.observation_string(0)
    assert b.observation_tensor(0) == a.observation_tensor(0)
    assert b.information_state_string(0) == a.information_state_string(0)


@pytest.mark.parametrize(("name", "params"), PICKLED)
def test_games_and_states_pickle(name: str, params: dict[str, object]) -> None:
    import pickle

    game = pyspiel.load_game(SHORT[name], params)
    again = pickle.loads(pickle.dumps(game))
    assert type(again) is type(game) and str(again) == str(game) and again == game
    assert again.bgrules_game is game.bgrules_game  # the same parameters share one bgrules game
    state = _walk(game, 4, 40)
    assert state.history()
    copy = pickle.loads(pickle.dumps(state))
    _same_state(state, copy)
    for _ in range(20):  # and both play on alike
        if state.is_terminal():
            break
        legal = state.chance_outcomes() if state.is_chance_node() else [(a, 1.0) for a in state.legal_actions()]
        action = legal[len(legal) // 2][0]
        state.apply_action(action)
        copy.apply_action(action)
        _same_state(state, copy)


def test_games_and_states_cross_spawned_processes() -> None:
    """A process started by multiprocessing's spawn (Ray's way too) imports nothing of bgrules before it
    unpickles: the pickles name the module that registers the games."""
    import multiprocessing
    from operator import methodcaller

    game = pyspiel.load_game("bgrules_botfactory", {"players": 2, "max_rounds": 3})
    state = _walk(game, 7, 30)
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        (first,) = pool.map(methodcaller("new_initial_state"), [game])
        (legal,), (tensor,) = (
            pool.map(methodcaller("legal_actions"), [state]),
            pool.map(methodcaller("observation_tensor", 1), [state]),
        )
        (moved,) = pool.map(methodcaller("child", state.legal_actions()[0]), [state])
    assert first.bgrules_state == game.new_initial_state().bgrules_state
    assert legal == state.legal_actions() and tensor == state.observation_tensor(1)
    _same_state(state.child(state.legal_actions()[0]), moved)


@pytest.mark.parametrize("name", ["mechanica", "mechanica-factory", "botfactory"])
def test_the_game_type_says_what_the_state_provides(name: str) -> None:
    """Each kind of observation the game type claims is given (the right size); the one it does not claim
    (an information state tensor: the information state is the history) is a one-line InputError."""
    game = _load(name, 1 if name == "mechanica-factory" else 2)
    kind = game.get_type()
    state = _walk(game, 2, 30)
    provided = {
        "provides_observation_string": lambda: state.observation_string(0),
        "provides_observation_tensor": lambda: state.observation_tensor(0),
        "provides_information_state_string": lambda: state.information_state_string(0),
        "provides_information_state_tensor": lambda: state.information_state_tensor(0),
    }
    claimed = {flag for flag in provided if getattr(kind, flag)}
    assert claimed == set(provided) - {"provides_information_state_tensor"}
    for flag, ask in provided.items():
        if flag in claimed:
            assert ask()
        else:
            with pytest.raises(InputError, match=r"information state tensor: .* provides none"):
                ask()
    assert len(state.observation_tensor(0)) == game.observation_tensor_size() == len(feature_names(game.bgrules_game))
    assert state.information_state_string(0) == ",".join(map(str, state.history()))
    with pytest.raises(InputError, match="provides none"):
        game.information_state_tensor_size()


@pytest.mark.parametrize(("name", "players"), [("mechanica", 3), ("mechanica-factory", 1), ("botfactory", 2)])
def test_the_onehot_observation_tensor(name: str, players: int) -> None:
    from bgrules.integrations.observations import observe_onehot, onehot_names

    game = _load(name, players, observation="onehot", **({"max_rounds": 3} if name == "botfactory" else {}))
    inner = game.bgrules_game
    assert game.observation_tensor_size() == len(onehot_names(inner))
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    state = _walk(game, 3, 60)
    for seat in range(players):
        tensor = np.array(state.observation_tensor(seat))
        assert tensor.min() >= 0 and tensor.max() <= 1
        assert np.allclose(tensor, np.float32(observe_onehot(inner, state.bgrules_state, seat)))
    with pytest.raises(InputError, match='observation: "vector" or "onehot"'):
        _load(name, players, observation="png")


def test_a_game_can_start_from_a_bgrules_state() -> None:
    game = _load("mechanica", 2)
    mid = _walk(game, 4, 80)
    again = game.new_initial_state(bgrules.dumps(mid.bgrules_state))
    assert again.bgrules_state == mid.bgrules_state and again.history() == []
    assert again.legal_actions() == mid.legal_actions() and str(again) == str(mid)
    with pytest.raises(InputError, match="mechanica state"):
        game.new_initial_state('{"seats": []}')


def test_the_factory_options_are_parameters() -> None:
    board = "hole | FK1 . . . | truck; basic[B] | . . . . | big; hole | . . . . | truck"
    game = pyspiel.load_game("bgrules_mechanica_factory", {"days": 2, "supply": "fork+big_truck", "factory": board})
    inner = game.bgrules_game
    first = inner.initial_state()
    assert sorted(first.supply) == ["big_truck", "fork"]
    assert first.factory.at(0, 0).kind == "fork" and first.factory.dock[1].kind == "big_truck"
    state = _walk(game, 0, 10_000)
    assert state.is_terminal() and state.bgrules_state.day == 2  # days=2: over after the second day
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    with pytest.raises(InputError, match="days"):
        pyspiel.load_game("bgrules_mechanica_factory", {"days": 0})


def test_observations_and_information_states() -> None:
    game = _load("botfactory", 3)
    a, b = _walk(game, 1, 60), _walk(game, 2, 60)
    assert a.observation_string(0) == bgrules.dumps(a.bgrules_state)
    assert a.information_state_string(1) == ",".join(map(str, a.history()))
    assert a.information_state_string(0) != b.information_state_string(0)
    tensor = np.array(a.observation_tensor(0))
    assert tensor.shape == (len(feature_names(game.bgrules_game)),) and tensor.min() >= 0
    assert a.observation_tensor(0) != a.observation_tensor(1)  # each seat sees itself first


def test_a_whole_game_played_by_mcts() -> None:
    game = pyspiel.load_game("bgrules_botfactory", {"players": 2, "max_rounds": 2})
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(
        game, uct_c=2.0, max_simulations=10, evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng
    )
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
    inner = game.bgrules_game
    assert decisions > 5 and inner.is_terminal(state.bgrules_state)
    assert state.returns() == final_rewards(inner, state.bgrules_state, "win")


@pytest.mark.heavy
def test_mcts_beats_the_random_median_on_the_factory() -> None:
    game = pyspiel.load_game("bgrules_mechanica_factory", {"days": 3})
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(
        game, uct_c=2.0, max_simulations=30, evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng
    )
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    randoms = sorted(_walk(game, seed, 10_000).returns()[0] for seed in range(30))
    assert state.returns()[0] > randoms[len(randoms) // 2]


def test_bad_input_is_one_line() -> None:
    with pytest.raises(InputError, match="players: botfactory is for 2 to 4 player"):
        pyspiel.load_game("bgrules_botfactory", {"players": 5})
    with pytest.raises(InputError, match="rewards"):
        pyspiel.load_game("bgrules_mechanica", {"rewards": "money"})
    with pytest.raises(InputError, match="max_rounds"):
        pyspiel.load_game("bgrules_botfactory", {"max_rounds": 0})
    with pytest.raises(InputError, match="max_rounds: too long a game for OpenSpiel"):
        pyspiel.load_game("bgrules_botfactory", {"max_rounds": 2_000_000_000})
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'nope'"):
        pyspiel.load_game("bgrules_botfactory", {"nope": 1})


def test_a_missing_extra_is_one_line_naming_it() -> None:
    code = (
        "import sys\n"
        "sys.modules['pyspiel'] = None\n"
        "from bgrules.core.errors import MissingExtra\n"
        "try:\n"
        "    import bgrules.integrations.openspiel\n"
        "except MissingExtra as exc:\n"
        "    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines() == [
        "bgrules.integrations.openspiel needs pyspiel, which is not installed: pip install 'bgrules[openspiel]'"
    ]
    assert issubclass(MissingExtra, bgrules.BgrulesError)


# --- docs/integrations.md ------------------------------------------------------------------------------------

DOC = Path(__file__).resolve().parents[2] / "docs" / "integrations.md"


def _section(text: str, heading: str) -> str:
    return text.split(f"\n### {heading}\n", 1)[1].split("\n#", 1)[0]


@pytest.mark.parametrize("name", ["mechanica", "mechanica-factory", "botfactory"])
def test_the_documented_ranges_are_the_code(name: str) -> None:
    from bgrules.integrations.actions import ranges

    game = bgrules.load_game(name)
    rows = re.findall(
        r"^\| `(\w+)`(?: \(chance\))? \|[^|]*\| (\d+)-(\d+) \|$", _section(DOC.read_text("utf-8"), name), re.M
    )
    assert [(c, int(a), int(b)) for c, a, b in rows] == ranges(game)
    space = action_space(game)
    chance = f"{space.chance_size} chance outcomes" if space.chance_size else "no chance"
    assert f"{space.size} player actions, {chance}." in _section(DOC.read_text("utf-8"), name)


def test_the_documented_observation_lengths_are_the_code() -> None:
    text = DOC.read_text("utf-8").split("\n## Observations\n", 1)[1]
    for name, counts in (("mechanica", (2, 3, 4)), ("mechanica-factory", (1,)), ("botfactory", (2, 3, 4))):
        row = next(line for line in text.splitlines() if line.startswith(f"| `{name}` | "))
        lengths = [len(feature_names(bgrules.load_game(name, players=n))) for n in counts]
        cell = row.rsplit("|", 2)[1].strip()
        want = (
            ", ".join(f"{k} ({n})" for k, n in zip(lengths, counts, strict=True))
            if len(counts) > 1
            else f"{lengths[0]}"
        )
        assert cell == want


def test_the_documented_examples_run(capsys: pytest.CaptureFixture[str]) -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text("utf-8"), re.S)
    assert len(blocks) == 4
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == 3
    assert printed[2] == f"({3 * len(onehot_names(bgrules.load_game('botfactory', players=2)))},)"


def test_the_documented_onehot_lengths_are_the_code() -> None:
    table = DOC.read_text("utf-8").split("\n| game | one-hot length (players) |\n", 1)[1].split("\n\n", 1)[0]
    rows = dict(line.strip("| ").split(" | ", 1) for line in table.splitlines()[1:])
    for name, counts in (("mechanica", (2, 3, 4)), ("mechanica-factory", (1,)), ("botfactory", (2, 3, 4))):
        lengths = [len(onehot_names(bgrules.load_game(name, players=n))) for n in counts]
        want = ", ".join(f"{k} ({n})" for k, n in zip(lengths, counts, strict=True)) if len(counts) > 1 else ""
        assert rows[f"`{name}`"] == (want or str(lengths[0]))
