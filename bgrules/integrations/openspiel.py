"""The games as OpenSpiel Python games (extra ``[openspiel]``; docs/integrations.md).

Importing this module registers ``bgrules_mechanica``, ``bgrules_mechanica_factory`` and
``bgrules_botfactory`` with OpenSpiel::

    import pyspiel
    import bgrules.integrations.openspiel  # registers the games
    game = pyspiel.load_game("bgrules_botfactory", {"players": 3})

Parameters: ``players`` and the games' own options (``max_rounds`` of Bot Factory; ``factory``, ``supply``
and ``days`` of the factory sandbox), ``variant`` (a variant TOML file, empty for the seeds' reading),
``rewards`` and ``observation`` (``"vector"``, the default, or ``"onehot"``: the observation tensor one-hot
encoded, every entry in [0, 1]). OpenSpiel's game strings split parameters at commas and take no new lines,
so ``supply`` lists its kinds separated by ``+`` or spaces (``"fork+fork+big_truck"``) and ``factory`` is
the notation of docs/mechanica-notation.md with its rows separated by ``;``; empty text is the default.

The rewards:

- ``"win"`` (the default of the multi-player games): at the end each of the k winners (``game.winners``,
  ties shared) gets ``1/k``, every other player 0: constant-sum, returns in [0, 1];
- ``"score"`` (the default of the one-player factory sandbox): the games' scores (``game.scores``),
  general-sum, declared within +-``SCORE_BOUND``.

Bot Factory has no round cap of its own (the seed's end triggers need not fire), and an OpenSpiel game must
end within ``max_game_length``: here ``max_rounds`` defaults to the runners' cap of 40 rounds (BF-END: the
game ends after that round, scored as finished); a positive number sets another cap.

Actions are numbered by :mod:`bgrules.integrations.actions` (player actions in ``num_distinct_actions``,
chance outcomes apart in ``max_chance_outcomes``), chance outcomes carry the probabilities of
``game.chance_outcomes`` (exact fractions as floats; :meth:`BgrulesState.exact_chance_outcomes` gives the
fractions), observations are :mod:`bgrules.integrations.observations`' vector (the tensor) and the state's
canonical JSON (the string), the information state string is the history of action indices (the games are
of perfect information) and there is no information state tensor (the game type says so), states serialise
to the codec's canonical JSON, and games and states pickle (``pickle``, ``multiprocessing``, Ray).
"""

from __future__ import annotations

import importlib
from fractions import Fraction
from typing import Any

from bgrules.botfactory.variant import RUNNER_ROUNDS as _RUNNER_ROUNDS
from bgrules.core.codec import dumps, loads, loads_as, show
from bgrules.core.descriptor import descriptor, descriptors
from bgrules.core.errors import InputError, require_extra
from bgrules.core.protocol import CHANCE, Game
from bgrules.core.registry import load_game
from bgrules.integrations.actions import ActionSpace, action_space
from bgrules.integrations.observations import check_encoding, feature_names, observe, observe_onehot, onehot_names
from bgrules.integrations.rewards import SCORE_BOUND, check_rewards, default_rewards, final_rewards

pyspiel: Any = require_extra("pyspiel", "openspiel", "bgrules.integrations.openspiel")
np: Any = require_extra("numpy", "openspiel", "bgrules.integrations.openspiel")

GAMES = {f"bgrules_{d.name.replace('-', '_')}": d.name for d in descriptors()}
"""OpenSpiel's name of each game (``bgrules_`` and the name, ``-`` as ``_``), and bgrules' name: every game
of the descriptors (:mod:`bgrules.core.descriptor`) at import."""

RUNNER_ROUNDS = _RUNNER_ROUNDS
"""Bot Factory's default ``max_rounds`` here (the runners' cap, ``bgrules.botfactory.game.RUNNER_ROUNDS``,
filled in by its descriptor's ``adapter_options``)."""

_INT_MAX = 2**31 - 1
"""OpenSpiel's GameInfo holds ``max_game_length`` in a C++ int."""


def _parameters(name: str) -> dict[str, Any]:
    """The OpenSpiel parameter specification of a game (names and defaults): the descriptor's default
    players, ``adapter_options`` and ``adapter_parameters``, and the adapter's own."""
    found = descriptor(name)
    return {
        "players": found.default_players,
        **dict(found.adapter_options),
        **dict(found.adapter_parameters),
        "variant": "",
        "rewards": default_rewards(name),
        "observation": "vector",
    }


def _game_type(short: str, rewards: str = "win") -> Any:
    name = GAMES[short]
    found = descriptor(name)
    lo, hi = found.players
    chance = found.chance
    if rewards == "score":
        utility = pyspiel.GameType.Utility.GENERAL_SUM
    elif lo == hi == 1:
        utility = pyspiel.GameType.Utility.IDENTICAL
    else:
        utility = pyspiel.GameType.Utility.CONSTANT_SUM
    return pyspiel.GameType(
        short_name=short,
        long_name=f"bgrules {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if chance else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=hi,
        min_num_players=lo,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(name),
    )


def _bgrules_game(name: str, params: dict[str, Any]) -> Game:
    """The bgrules game for OpenSpiel parameters (with the defaults filled in)."""
    found = descriptor(name)
    given = {key: params[key] for key, _ in (*found.adapter_options, *found.adapter_parameters)}
    options: dict[str, Any] = given if found.adapter_parser is None else found.part("adapter_parser")(given)
    variant = params["variant"] or None
    return load_game(name, players=params["players"], variant=variant, **options)


class _Shared:
    """What every state of one OpenSpiel game shares: the bgrules game and its action space. A state's copy
    (OpenSpiel's Clone deep-copies a state's attributes) shares it; pickling (OpenSpiel's serialisation)
    names the game by its OpenSpiel name and parameters."""

    def __init__(self, short: str, params: dict[str, Any]) -> None:
        self.short = short
        self.params = dict(sorted(params.items()))
        self.name = GAMES[short]
        self.game = _bgrules_game(self.name, self.params)
        self.space: ActionSpace = action_space(self.game)
        self.rewards = str(self.params["rewards"])
        self.onehot = self.params["observation"] == "onehot"

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_shared_for, (self.short, tuple(self.params.items())))


_SHARED: dict[tuple[str, tuple[tuple[str, Any], ...]], _Shared] = {}


def _shared_for(short: str, params: tuple[tuple[str, Any], ...]) -> _Shared:
    key = (short, tuple(sorted(params)))
    found = _SHARED.get(key)
    if found is None:
        found = _SHARED[key] = _Shared(short, dict(params))
    return found


class _Frozen:
    """A bgrules state (immutable): copied by reference, pickled as the codec's canonical JSON."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> _Frozen:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        cls = type(self.value)
        return (_thaw, (cls.__module__, cls.__qualname__, dumps(self.value)))


def _thaw(module: str, qualname: str, text: str) -> _Frozen:
    cls = getattr(importlib.import_module(module), qualname)
    return _Frozen(loads_as(text, cls, "serialised state "))


class BgrulesGame(pyspiel.Game):  # type: ignore[misc]
    """One bgrules game as an OpenSpiel game (the subclasses below fix which)."""

    SHORT = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        spec = _parameters(GAMES[self.SHORT])
        given = dict(params or {})
        unknown = sorted(k for k in given if k not in spec)
        if unknown:
            raise InputError(
                f"parameters {', '.join(unknown)}", f"{self.SHORT} takes {', '.join(spec)}, not {', '.join(unknown)}"
            )
        merged = {**spec, **given}
        check_rewards(merged["rewards"])
        check_encoding(merged["observation"])
        self.shared = _shared_for(self.SHORT, tuple(merged.items()))
        game = self.shared.game
        n = game.players
        if merged["rewards"] == "score":
            low, high, total = -float(SCORE_BOUND), float(SCORE_BOUND), None
        elif n == 1:
            low, high, total = 0.0, 1.0, None
        else:
            low, high, total = 0.0, 1.0, 1.0
        if game.info.max_length > _INT_MAX:
            raise InputError(
                "max_rounds" if self.SHORT == "bgrules_botfactory" else "days",
                f"too long a game for OpenSpiel: its bound of {game.info.max_length} actions passes {_INT_MAX}",
            )
        info = pyspiel.GameInfo(
            num_distinct_actions=self.shared.space.size,
            max_chance_outcomes=self.shared.space.chance_size,
            num_players=n,
            min_utility=low,
            max_utility=high,
            utility_sum=total,
            max_game_length=game.info.max_length,
        )
        super().__init__(_game_type(self.SHORT, str(merged["rewards"])), info, merged)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its OpenSpiel name and parameters, loaded back through ``pyspiel.load_game`` after this
        module is imported (which registers the games): Ray and ``multiprocessing`` (spawn) send games so."""
        return (_load_game, (self.SHORT, dict(self.shared.params)))

    @property
    def bgrules_game(self) -> Game:
        """The bgrules game behind this OpenSpiel game."""
        return self.shared.game

    def new_initial_state(self, state: Any = None) -> BgrulesState:
        """The game's initial state, or (``state``: a bgrules state's JSON text, ``bgrules.dumps``) a game
        that starts from that state, checked by ``bgrules.loads`` (its history starts empty)."""
        if state is None:
            return BgrulesState(self)
        if not isinstance(state, str):
            raise InputError("state", f"a bgrules state's JSON text (bgrules.dumps), not {show(state)}")
        return BgrulesState(self, loads(self.shared.game, state))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        if params:
            raise InputError("observer parameters", f"none are taken, not {show(params)}")
        recall = iig_obs_type is not None and bool(iig_obs_type.perfect_recall)
        return _Observer(self.shared, recall)


class BgrulesState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state holding a bgrules state (``bgrules_state``)."""

    def __init__(self, game: BgrulesGame, start: Any = None) -> None:
        super().__init__(game)
        self._shared = game.shared
        self._state = _Frozen(game.shared.game.initial_state() if start is None else start)

    @property
    def bgrules_state(self) -> Any:
        """The bgrules state (immutable)."""
        return self._state.value

    def current_player(self) -> int:
        game, state = self._shared.game, self._state.value
        if game.is_terminal(state):
            return int(pyspiel.PlayerId.TERMINAL)
        who = game.to_move(state)
        if who is CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        assert isinstance(who, int)
        return who

    def _legal_actions(self, player: int) -> list[int]:
        encode = self._shared.space.encode
        return sorted(encode(a) for a in self._shared.game.legal_actions(self._state.value))

    def exact_chance_outcomes(self) -> list[tuple[int, Fraction]]:
        """The chance outcomes with their exact probabilities (``game.chance_outcomes``), by index."""
        encode = self._shared.space.encode_chance
        return sorted((encode(a), p) for a, p in self._shared.game.chance_outcomes(self._state.value))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(i, float(p)) for i, p in self.exact_chance_outcomes()]

    def _apply_action(self, action: int) -> None:
        game, state, space = self._shared.game, self._state.value, self._shared.space
        value = space.decode_chance(action) if game.to_move(state) is CHANCE else space.decode(action)
        self._state = _Frozen(game.apply(state, value))

    def _action_to_string(self, player: int, action: int) -> str:
        space = self._shared.space
        if player == int(pyspiel.PlayerId.CHANCE):
            return "chance: " + repr(space.decode_chance(action))
        return repr(space.decode(action))

    def is_terminal(self) -> bool:
        return bool(self._shared.game.is_terminal(self._state.value))

    def returns(self) -> list[float]:
        game, state = self._shared.game, self._state.value
        n = game.players
        if not game.is_terminal(state):
            return [0.0] * n
        return final_rewards(game, state, self._shared.rewards)

    def __str__(self) -> str:
        return dumps(self._state.value)


class _Observer:
    """OpenSpiel's PyObserver. Without perfect recall (the observation): the tensor is the observation vector,
    the string the state's JSON. With perfect recall (the information state): the string is the history of
    action indices and there is no tensor (``tensor`` None: the game type's
    ``provides_information_state_tensor`` is False), so asking for one is an InputError naming the
    observation tensor instead."""

    def __init__(self, shared: _Shared, recall: bool) -> None:
        self.shared = shared
        self.recall = recall
        names = onehot_names(shared.game) if shared.onehot else feature_names(shared.game)
        self.tensor: Any = None if recall else np.zeros(len(names), np.float32)
        self.dict: dict[str, Any] = {} if recall else {"observation": self.tensor}

    def set_from(self, state: BgrulesState, player: int) -> None:
        if self.tensor is None:
            raise InputError(
                "information state tensor",
                f"{self.shared.short} provides none (provides_information_state_tensor is False): "
                "the information state is the history (information_state_string); "
                "the observation tensor is the observation vector",
            )
        seat = max(0, int(player))
        encode = observe_onehot if self.shared.onehot else observe
        self.tensor[:] = encode(self.shared.game, state.bgrules_state, seat)

    def string_from(self, state: BgrulesState, player: int) -> str:
        if self.recall:
            return ",".join(str(a) for a in state.history())
        return str(state)


def _load_game(short: str, params: dict[str, Any]) -> Any:
    """``pyspiel.load_game(short, params)``: how a pickled game loads back (this module registers the games
    on import, so unpickling in a fresh process finds them)."""
    return pyspiel.load_game(short, params)


def _class_name(name: str) -> str:
    """``Bgrules`` and the game's name in camel case (``mechanica-factory``: ``BgrulesMechanicaFactory``)."""
    return "Bgrules" + "".join(word.capitalize() for word in name.split("-"))


def _game_class(short: str) -> type[BgrulesGame]:
    """The OpenSpiel game class of one game: a module attribute named by :func:`_class_name`, so that pickle
    finds it."""
    name = GAMES[short]
    cls = type(
        _class_name(name),
        (BgrulesGame,),
        {"SHORT": short, "__module__": __name__, "__doc__": f"OpenSpiel's {short}: bgrules' {name}."},
    )
    globals()[cls.__name__] = cls
    return cls


CLASSES: dict[str, type[BgrulesGame]] = {short: _game_class(short) for short in GAMES}
"""The game class of each OpenSpiel name (``BgrulesBotfactory``, ``BgrulesMechanica``,
``BgrulesMechanicaFactory``, and one per plug-in game: module attributes, so that pickle finds them)."""


def _register() -> None:
    for short in GAMES:
        pyspiel.register_game(_game_type(short), CLASSES[short])


_register()
