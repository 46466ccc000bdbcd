"""The games as PettingZoo AEC environments (extra ``[pettingzoo]``; docs/integrations.md).

::

    from bgrules.integrations.pettingzoo import env
    e = env("botfactory", players=3)
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

- agents ``player_0`` .. ``player_{n-1}``, the games' seats;
- the action space of every agent is ``Discrete(size)`` over the game's fixed action space
  (:mod:`bgrules.integrations.actions`); an illegal index raises ``bgrules.IllegalAction``;
- observations are a ``Dict``: ``"observation"``, the observation vector of
  :mod:`bgrules.integrations.observations` (whole numbers, int64, from the agent's point of view), and
  ``"action_mask"``, int8 over the action space: the legal actions of the agent to move, all zeros for the
  others. Two options change that: ``observation="onehot"`` makes the vector the one-hot encoding
  (float32 in [0, 1]: categories one-hot, counts scaled by their bounds,
  :func:`bgrules.integrations.observations.observe_onehot`), and ``action_mask="info"`` makes the
  observation the vector alone (a flat ``Box``) with the mask in ``infos[agent]["action_mask"]``, the shape
  SuperSuit's observation wrappers (flatten, normalize, frame stack) take;
- rewards come at the end only (``rewards="win"`` or ``"score"``, as for OpenSpiel,
  :mod:`bgrules.integrations.rewards`); every agent is then terminated;
- chance is resolved inside the environment, with the exact probabilities of ``game.chance_outcomes``, from
  a ``random.Random`` seeded by ``reset(seed=...)`` (a reset without a seed goes on with the generator it
  has; the first reset without one seeds from the operating system);
- ``render_mode``: ``"ansi"`` returns the canonical JSON, ``"rgb_array"`` the picture
  (:func:`bgrules.pictures.draw`) as a uint8 array of height x width x 3 (through cairosvg: the extra
  ``[png]``), ``"human"`` prints the text picture (Mechanica's factories; Bot Factory, which has none:
  the canonical JSON) to standard output after every reset and step: no window is opened;
- Bot Factory's ``max_rounds`` defaults to the runners' cap of 40 rounds here, as for OpenSpiel (the
  seed's end triggers need not fire: an episode must end).
"""

from __future__ import annotations

import math
import random
from typing import Any

from bgrules.botfactory.variant import RUNNER_ROUNDS as _RUNNER_ROUNDS
from bgrules.core.codec import dumps, show
from bgrules.core.descriptor import descriptor, text_picture
from bgrules.core.errors import InputError, require_extra
from bgrules.core.protocol import CHANCE, Game
from bgrules.core.registry import load_game
from bgrules.integrations.actions import action_space
from bgrules.integrations.observations import check_encoding, feature_names, observe, observe_onehot, onehot_names
from bgrules.integrations.rewards import check_rewards, default_rewards, final_rewards
from bgrules.pictures import draw, to_png

_pz: Any = require_extra("pettingzoo", "pettingzoo", "bgrules.integrations.pettingzoo")
_spaces: Any = require_extra("gymnasium.spaces", "pettingzoo", "bgrules.integrations.pettingzoo")
np: Any = require_extra("numpy", "pettingzoo", "bgrules.integrations.pettingzoo")

RUNNER_ROUNDS = _RUNNER_ROUNDS
"""Bot Factory's default ``max_rounds`` in an environment (the runners' cap; the descriptor's
``adapter_options`` fill it in)."""

OBSERVATION_HIGH = 2**31 - 1
"""The observation vector's declared upper bound (its entries are counts, money, indices: never negative)."""

RENDER_MODES = ("ansi", "human", "rgb_array")
"""The render modes (``metadata["render_modes"]``); ``render_mode=None`` renders nothing."""

ACTION_MASKS = ("observation", "info")
"""``action_mask=``: in a ``Dict`` observation beside the vector, or in ``infos[agent]["action_mask"]`` with
the vector alone as the observation."""


def sample_exact(outcomes: tuple[tuple[Any, Any], ...], rng: random.Random) -> Any:
    """One outcome drawn with its exact probability (fractions): a whole number below the common
    denominator picks the outcome whose share of it covers the number."""
    denominator = math.lcm(*(p.denominator for _, p in outcomes))
    pick = rng.randrange(denominator)
    acc = 0
    for outcome, p in outcomes:
        acc += p.numerator * (denominator // p.denominator)
        if pick < acc:
            return outcome
    raise AssertionError(f"chance outcomes that sum to {sum(p for _, p in outcomes)}, not 1")


class BgrulesEnv(_pz.AECEnv):  # type: ignore[misc]
    """One bgrules game as a PettingZoo AEC environment (see the module's documentation)."""

    def __init__(
        self,
        game: str,
        players: int | None = None,
        render_mode: str | None = None,
        rewards: str | None = None,
        observation: str = "vector",
        action_mask: str = "observation",
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            modes = ", ".join(f'"{m}"' for m in RENDER_MODES)
            raise InputError("render_mode", f"None, {modes}, not {show(render_mode)}")
        check_encoding(observation)
        if action_mask not in ACTION_MASKS:
            raise InputError("action_mask", f'"observation" or "info", not {show(action_mask)}')
        if render_mode == "rgb_array":
            require_extra("cairosvg", "png", 'render_mode="rgb_array"')
            require_extra("PIL", "png", 'render_mode="rgb_array"')
        for key, default in descriptor(game).adapter_options:  # e.g. a round cap, so that every game ends
            options.setdefault(key, default)
        self.game: Game = load_game(game, players=players, **options)
        self.rewards_kind = check_rewards(default_rewards(game) if rewards is None else rewards)
        self.render_mode = render_mode
        self.observation_kind = observation
        self.action_mask_kind = action_mask
        self.space = action_space(self.game)
        n = self.game.players
        self.metadata = {
            "name": f"bgrules_{game.replace('-', '_')}_v0",
            "render_modes": list(RENDER_MODES),
            "is_parallelizable": False,
        }
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        if observation == "onehot":
            vector = _spaces.Box(0.0, 1.0, shape=(len(onehot_names(self.game)),), dtype=np.float32)
        else:
            vector = _spaces.Box(0, OBSERVATION_HIGH, shape=(len(feature_names(self.game)),), dtype=np.int64)
        mask = _spaces.Box(0, 1, shape=(self.space.size,), dtype=np.int8)
        self.observation_spaces = {
            a: vector if action_mask == "info" else _spaces.Dict({"observation": vector, "action_mask": mask})
            for a in self.possible_agents
        }
        self.action_spaces = {a: _spaces.Discrete(self.space.size) for a in self.possible_agents}
        self._rng: random.Random | None = None
        self.state_value: Any = None

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or self._rng is None:
            self._rng = random.Random(seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.state_value = self._settle(self.game.initial_state())
        self._select()
        if self.render_mode == "human":
            self.render()

    def _settle(self, state: Any) -> Any:
        """``state`` after every chance node from it is resolved from the environment's generator."""
        game, rng = self.game, self._rng
        assert rng is not None
        while not game.is_terminal(state) and game.to_move(state) is CHANCE:
            state = game.apply(state, sample_exact(game.chance_outcomes(state), rng))
        return state

    def _select(self) -> None:
        game, state = self.game, self.state_value
        if game.is_terminal(state):
            finals = final_rewards(game, state, self.rewards_kind)
            for a in self.agents:
                self.rewards[a] = finals[self._seat[a]]
                self.terminations[a] = True
            self.agent_selection = self.agents[0]
        else:
            who = game.to_move(state)
            assert isinstance(who, int)
            self.agent_selection = self.possible_agents[who]
        if self.action_mask_kind == "info":
            for a in self.agents:
                self.infos[a] = {"action_mask": self._mask(a)}

    def _mask(self, agent: str) -> Any:
        """int8 over the action space: the legal actions if ``agent`` is to move, else all zeros."""
        seat = self._seat[agent]
        game, state = self.game, self.state_value
        mask = np.zeros(self.space.size, dtype=np.int8)
        if not game.is_terminal(state) and game.to_move(state) == seat:
            encode = self.space.encode
            for action in game.legal_actions(state):
                mask[encode(action)] = 1
        return mask

    def _vector(self, agent: str) -> Any:
        seat = self._seat[agent]
        if self.observation_kind == "onehot":
            return np.asarray(observe_onehot(self.game, self.state_value, seat), dtype=np.float32)
        return np.asarray(observe(self.game, self.state_value, seat), dtype=np.int64)

    def observe(self, agent: str) -> Any:
        if self.action_mask_kind == "info":
            return self._vector(agent)
        return {"observation": self._vector(agent), "action_mask": self._mask(agent)}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        for a in self.rewards:
            self.rewards[a] = 0.0
        move = self.space.decode(int(action))
        self.state_value = self._settle(self.game.apply(self.state_value, move))
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def state_json(self) -> str:
        """The whole state: the codec's canonical JSON (``bgrules.dumps``)."""
        return dumps(self.state_value)

    def render(self) -> Any:
        """By ``render_mode``: ``"ansi"``, the canonical JSON (text); ``"rgb_array"``, the picture of the
        state (:func:`bgrules.pictures.draw`) as a uint8 array of height x width x 3 (RGB, on white);
        ``"human"``, the text picture printed to standard output (None returned); no mode: None."""
        if self.render_mode == "ansi":
            return self.state_json()
        if self.render_mode == "rgb_array":
            return self._picture()
        if self.render_mode == "human":
            print(text_picture(self.game, self.state_value) or self.state_json(), flush=True)
        return None

    def _picture(self) -> Any:
        import io

        image: Any = require_extra("PIL.Image", "png", 'render_mode="rgb_array"')
        with image.open(io.BytesIO(to_png(draw(self.game, self.state_value)))) as png:
            rgba = png.convert("RGBA")
        white = image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return np.asarray(image.alpha_composite(white, rgba).convert("RGB"), dtype=np.uint8)

    def close(self) -> None:
        self.state_value = None


def env(game: str, players: int | None = None, **options: Any) -> BgrulesEnv:
    """An AEC environment of ``game`` (``bgrules games`` lists the names, players and options): ``players``
    seats (the game's default if None), ``rewards="win"`` or ``"score"``, ``render_mode`` None, ``"ansi"``,
    ``"rgb_array"`` or ``"human"``, ``observation="vector"`` or ``"onehot"``, ``action_mask="observation"``
    or ``"info"``, and the game's own options."""
    return BgrulesEnv(game, players=players, **options)
