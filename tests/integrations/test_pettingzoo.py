"""The PettingZoo adapter (issue 11 item 5): PettingZoo's own api_test and seed_test on every game and player
count, chance resolved inside the environment from its seed, rewards at the end."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import bgrules
from bgrules.core.errors import IllegalAction, InputError
from bgrules.integrations.actions import action_space
from bgrules.integrations.observations import feature_names
from bgrules.integrations.pettingzoo import BgrulesEnv, env, sample_exact
from bgrules.integrations.rewards import final_rewards

SEATINGS = [("mechanica", 2), ("mechanica", 3), ("mechanica", 4), ("mechanica-factory", 1)] + [
    ("botfactory", n) for n in (2, 3, 4)
]


# PettingZoo's api_test warns that a Dict observation is not one array: with an action mask it is meant to be.
@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize(("name", "players"), SEATINGS)
def test_api_test(name: str, players: int) -> None:
    api_test(env(name, players=players), num_cycles=400)


@pytest.mark.parametrize(("name", "players"), SEATINGS)
def test_seed_test(name: str, players: int) -> None:
    seed_test(lambda: env(name, players=players), num_cycles=200)


def _play(e: BgrulesEnv, seed: int, steps: int = 100_000) -> list[str]:
    """Play from reset(seed) with the first legal action each time; the canonical states seen."""
    e.reset(seed=seed)
    seen = []
    for _agent in e.agent_iter(steps):
        obs, _reward, terminated, truncated, _info = e.last()
        seen.append(e.state_json())
        e.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
    return seen


def test_chance_comes_from_the_seed() -> None:
    a, b = env("mechanica", players=2), env("mechanica", players=2)
    assert _play(a, 3, 200) == _play(b, 3, 200)
    assert _play(a, 3, 200) != _play(b, 4, 200)


def test_the_environment_plays_the_bgrules_game() -> None:
    """Each step is the decoded action applied by bgrules, and the chance outcomes between are drawn, with
    their exact probabilities, from a random.Random seeded by reset(seed)."""
    import random

    e = env("botfactory", players=2, max_rounds=4)
    e.reset(seed=21)
    game, rng = e.game, random.Random(21)

    def settle(state: object) -> object:
        while not game.is_terminal(state) and game.to_move(state) is bgrules.CHANCE:
            state = game.apply(state, sample_exact(game.chance_outcomes(state), rng))
        return state

    mine = settle(game.initial_state())
    picks = np.random.default_rng(0)
    for agent in e.agent_iter():
        obs, _reward, terminated, truncated, _info = e.last()
        assert e.state_value == mine
        if terminated or truncated:
            e.step(None)
            continue
        assert agent == f"player_{game.to_move(mine)}"
        index = int(picks.choice(np.flatnonzero(obs["action_mask"])))
        e.step(index)
        mine = settle(game.apply(mine, action_space(game).decode(index)))
    assert game.is_terminal(mine)


def test_a_whole_game_ends_with_the_rewards() -> None:
    for name, players, options in (
        ("botfactory", 2, {"max_rounds": 3}),
        ("mechanica", 3, {}),
        ("mechanica-factory", 1, {}),
    ):
        e = env(name, players=players, **options)
        e.reset(seed=1)
        finals: dict[str, float] = {}
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, _info = e.last()
            if terminated or truncated:
                finals[agent] = reward
                e.step(None)
                continue
            assert reward == 0
            mask = obs["action_mask"]
            assert mask.dtype == np.int8 and mask.shape == (action_space(e.game).size,) and mask.sum() >= 1
            e.step(int(np.flatnonzero(mask)[-1]))
        assert not e.agents
        assert e.game.is_terminal(e.state_value)
        want = final_rewards(e.game, e.state_value, e.rewards_kind)
        assert finals == {f"player_{i}": want[i] for i in range(players)}


def test_observations() -> None:
    e = env("botfactory", players=3)
    e.reset(seed=2)
    mover = e.agent_selection
    others = [a for a in e.possible_agents if a != mover]
    obs = e.observe(mover)
    assert obs["observation"].shape == (len(feature_names(e.game)),)
    assert obs["observation"].dtype == np.int64
    assert e.observation_space(mover).contains(obs)
    legal = {action_space(e.game).encode(a) for a in e.game.legal_actions(e.state_value)}
    assert set(np.flatnonzero(obs["action_mask"])) == legal
    assert all(e.observe(a)["action_mask"].sum() == 0 for a in others)
    assert not np.array_equal(e.observe(others[0])["observation"], obs["observation"])
    assert bgrules.loads(e.game, e.state_json()) == e.state_value


def test_the_default_round_cap_and_rewards() -> None:
    assert env("botfactory", players=2).game.max_rounds == 40
    assert env("botfactory", players=2, max_rounds=7).game.max_rounds == 7
    assert env("mechanica-factory").rewards_kind == "score"
    assert env("mechanica", players=2).rewards_kind == "win"


def test_sample_exact_follows_the_fractions() -> None:
    import random

    outcomes = (("a", Fraction(1, 6)), ("b", Fraction(1, 2)), ("c", Fraction(1, 3)))
    rng = random.Random(0)
    counts = {"a": 0, "b": 0, "c": 0}
    for _ in range(6000):
        counts[sample_exact(outcomes, rng)] += 1
    assert 850 < counts["a"] < 1150 and 2800 < counts["b"] < 3200 and 1800 < counts["c"] < 2200


def test_bad_input_is_one_line() -> None:
    with pytest.raises(InputError, match="unknown game"):
        env("chess")
    with pytest.raises(InputError, match="players"):
        env("mechanica", players=7)
    with pytest.raises(InputError, match="rewards"):
        env("mechanica", players=2, rewards="money")
    with pytest.raises(InputError, match="takes no option"):
        env("mechanica", players=2, nope=1)
    e = env("mechanica", players=2)
    e.reset(seed=0)
    illegal = next(i for i, m in enumerate(e.observe(e.agent_selection)["action_mask"]) if not m)
    before = e.state_json()
    with pytest.raises(IllegalAction):
        e.step(illegal)
    assert e.state_json() == before


def test_a_missing_extra_is_one_line_naming_it() -> None:
    code = (
        "import sys\n"
        "sys.modules['pettingzoo'] = None\n"
        "from bgrules.core.errors import MissingExtra\n"
        "try:\n"
        "    import bgrules.integrations.pettingzoo\n"
        "except MissingExtra as exc:\n"
        "    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines() == [
        "bgrules.integrations.pettingzoo needs pettingzoo, which is not installed: pip install 'bgrules[pettingzoo]'"
    ]


def test_the_vector_is_seen_from_the_observer() -> None:
    from bgrules.integrations.observations import observe

    for name, field in (("mechanica", "wallet"), ("botfactory", "tokens")):
        e = env(name, players=3)
        e.reset(seed=5)
        for _ in range(60):
            e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
        game, state = e.game, e.state_value
        names = feature_names(game)
        seats = state.seats if name == "mechanica" else state.hands
        mover = game.to_move(state)
        for observer in range(3):
            vector = observe(game, state, observer)
            for k in range(3):
                assert vector[names.index(f"seat[{k}].{field}")] == getattr(seats[(observer + k) % 3], field)
            assert vector[names.index("to_move")] == (mover - observer) % 3


# --- the observation options ---------------------------------------------------------------------------------

OPTIONS = [("vector", "info"), ("onehot", "observation"), ("onehot", "info")]
SOME_SEATINGS = [("mechanica", 2), ("mechanica-factory", 1), ("botfactory", 3)]


@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize(("observation", "action_mask"), OPTIONS)
@pytest.mark.parametrize(("name", "players"), SOME_SEATINGS)
def test_api_test_with_the_observation_options(name: str, players: int, observation: str, action_mask: str) -> None:
    api_test(env(name, players=players, observation=observation, action_mask=action_mask), num_cycles=300)
    seed_test(lambda: env(name, players=players, observation=observation, action_mask=action_mask), num_cycles=100)


def test_the_onehot_observation() -> None:
    from bgrules.integrations.observations import observe_onehot, onehot_names

    e = env("botfactory", players=3, observation="onehot")
    e.reset(seed=2)
    for _ in range(30):
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    for agent in e.agents:
        obs = e.observe(agent)
        vector = obs["observation"]
        assert vector.dtype == np.float32 and vector.shape == (len(onehot_names(e.game)),)
        assert e.observation_space(agent).contains(obs)
        assert np.array_equal(vector, np.float32(observe_onehot(e.game, e.state_value, e._seat[agent])))
    space = e.observation_space("player_0")["observation"]
    assert space.low.min() == 0 and space.high.max() == 1


def test_the_action_mask_in_info() -> None:
    """With action_mask="info" the observation is the vector alone (a Box) and infos[agent]["action_mask"]
    is the mask the Dict observation would hold, kept up to date after every step."""
    flat = env("mechanica", players=3, action_mask="info")
    boxed = env("mechanica", players=3)
    flat.reset(seed=4)
    boxed.reset(seed=4)
    assert type(flat.observation_space("player_0")).__name__ == "Box"
    for agent in flat.agent_iter(150):
        obs, _reward, terminated, truncated, info = flat.last()
        want = boxed.observe(agent)
        assert flat.observation_space(agent).contains(obs)
        assert np.array_equal(obs, want["observation"])
        for other in flat.agents:
            assert np.array_equal(flat.infos[other]["action_mask"], boxed.observe(other)["action_mask"])
        action = None if terminated or truncated else int(np.flatnonzero(info["action_mask"])[-1])
        flat.step(action)
        boxed.step(action)


def test_supersuit_wrappers_take_the_flat_observation() -> None:
    """SuperSuit's flatten, normalize and frame-stack wrappers take the flat one-hot observation (the Dict
    one they refuse: it has no bounds to normalize and no shape to stack); the wrapped environment passes
    PettingZoo's api_test and plays a whole game by the mask in info."""
    import supersuit as ss

    def wrapped() -> object:
        e = env("botfactory", players=2, max_rounds=3, observation="onehot", action_mask="info")
        return ss.frame_stack_v1(ss.normalize_obs_v0(ss.flatten_v0(e)), 3)

    from bgrules.integrations.observations import onehot_names

    w = wrapped()
    width = len(onehot_names(bgrules.load_game("botfactory", players=2, max_rounds=3)))
    assert w.observation_space("player_0").shape == (3 * width,)
    api_test(w, num_cycles=200)
    w = wrapped()
    w.reset(seed=5)
    steps = 0
    for _agent in w.agent_iter():
        obs, _reward, terminated, truncated, info = w.last()
        assert obs.shape == (3 * width,) and obs.min() >= 0 and obs.max() <= 1
        w.step(None if terminated or truncated else int(np.flatnonzero(info["action_mask"])[0]))
        steps += 1
    assert steps > 20 and not w.agents
    with pytest.raises(AssertionError, match="Stacking is currently only allowed for Box"):
        ss.frame_stack_v1(env("botfactory", players=2), 3)


def test_bad_observation_options_are_one_line() -> None:
    with pytest.raises(InputError, match='observation: "vector" or "onehot"'):
        env("mechanica", players=2, observation="pixels")
    with pytest.raises(InputError, match='action_mask: "observation" or "info"'):
        env("mechanica", players=2, action_mask="obs")


# --- rendering -------------------------------------------------------------------------------------------------


def test_the_render_modes() -> None:
    for mode in env("mechanica", players=2).metadata["render_modes"]:
        env("mechanica", players=2, render_mode=mode)
    assert env("mechanica", players=2).metadata["render_modes"] == ["ansi", "human", "rgb_array"]
    with pytest.raises(InputError, match='render_mode: None, "ansi", "human", "rgb_array", not'):
        env("mechanica", players=2, render_mode="window")
    e = env("botfactory", players=2, render_mode="ansi")
    e.reset(seed=0)
    assert e.render() == e.state_json()
    quiet = env("botfactory", players=2)
    quiet.reset(seed=0)
    assert quiet.render() is None


def test_rgb_array_is_the_picture() -> None:
    import io

    from PIL import Image

    from bgrules.pictures import draw, to_png

    # the sandbox: cairosvg takes seconds over a whole table, a fraction over its one factory
    e = env("mechanica-factory", render_mode="rgb_array")
    e.reset(seed=3)
    for _ in range(12):
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    frame = e.render()
    png = Image.open(io.BytesIO(to_png(draw(e.game, e.state_value))))
    assert frame.dtype == np.uint8 and frame.shape == (png.height, png.width, 3)
    white = Image.new("RGBA", png.size, (255, 255, 255, 255))
    assert np.array_equal(frame, np.asarray(Image.alpha_composite(white, png.convert("RGBA")).convert("RGB")))
    assert len(np.unique(frame.reshape(-1, 3), axis=0)) > 3  # a picture, not a blank


def test_rgb_array_without_cairosvg_is_one_line_naming_the_extra() -> None:
    code = (
        "import sys\n"
        "sys.modules['cairosvg'] = None\n"
        "from bgrules.core.errors import MissingExtra\n"
        "from bgrules.integrations.pettingzoo import env\n"
        "env('mechanica', players=2)\n"
        "try:\n"
        "    env('mechanica', players=2, render_mode='rgb_array')\n"
        "except MissingExtra as exc:\n"
        "    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines() == [
        "render_mode=\"rgb_array\" needs cairosvg, which is not installed: pip install 'bgrules[png]'"
    ]


def test_human_prints_the_text_picture(capsys: pytest.CaptureFixture[str]) -> None:
    from bgrules.runners.trace import picture

    e = env("mechanica", players=2, render_mode="human")
    e.reset(seed=1)
    assert capsys.readouterr().out == picture(e.game, e.state_value) + "\n"
    e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    assert capsys.readouterr().out == picture(e.game, e.state_value) + "\n"
    assert e.render() is None and capsys.readouterr().out.startswith("seat 0 (wallet")
    bf = env("botfactory", players=2, render_mode="human")  # no text picture: the canonical JSON
    bf.reset(seed=1)
    assert capsys.readouterr().out == bf.state_json() + "\n"
