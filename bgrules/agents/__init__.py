"""Players: seeded, deterministic policies over the Game protocol (docs/agents.md).

``make_agent("greedy")`` builds one agent; ``parse_agents("greedy,random", players=2)`` one per seat. An
agent's ``choose(game, state, rng)`` returns a legal action of ``game.to_move(state)``; given the same rng
it returns the same action in any process. Agents read only the Game protocol, the documented state
classes and each game's evaluation (``bgrules.<game>.evaluate``).

A seat is written ``name`` or ``name:key=value:key=value`` (e.g. ``mcts:iterations=100:rollout=greedy``);
seats are separated by commas.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bgrules.agents.base import Agent, evaluation_for
from bgrules.agents.greedy import GreedyAgent
from bgrules.agents.mcts import MctsAgent
from bgrules.agents.uniform import RandomAgent
from bgrules.core.errors import InputError

AGENT_NAMES = ("random", "greedy", "mcts")
_CLASSES: dict[str, Any] = {"random": RandomAgent, "greedy": GreedyAgent, "mcts": MctsAgent}
_OPTIONS = {
    "random": (),
    "greedy": ("pair_limit",),
    "mcts": ("iterations", "seconds", "rollout", "rollout_steps", "c", "top", "order", "prior", "reward"),
}


def make_agent(name: str, **options: Any) -> Agent:
    """The agent called ``name`` (one of :data:`AGENT_NAMES`) with its options."""
    if name not in _CLASSES:
        raise InputError("agents", f"unknown agent {name!r}; valid: {', '.join(AGENT_NAMES)}")
    unknown = sorted(set(options) - set(_OPTIONS[name]))
    if unknown:
        valid = ", ".join(_OPTIONS[name]) or "none"
        raise InputError("agents", f"{name} takes no option {', '.join(unknown)}; valid: {valid}")
    agent: Agent = _CLASSES[name](**options)
    return agent


def _value(text: str) -> Any:
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


def _one(text: str) -> Agent:
    name, *pairs = text.strip().split(":")
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise InputError("agents", f"{text!r}: options are written name:key=value")
        options[key.strip()] = _value(value.strip())
    return make_agent(name.strip(), **options)


def parse_agents(spec: str | Sequence[str] | None, players: int) -> tuple[Agent, ...]:
    """One agent per seat. None or "" = all random; one name = every seat; else one name per seat."""
    if spec is None or (isinstance(spec, str) and not spec.strip()):
        return tuple(RandomAgent() for _ in range(players))
    names = [s for s in spec.split(",")] if isinstance(spec, str) else list(spec)
    if len(names) not in (1, players):
        raise InputError(
            "agents",
            f"{players} seat{'s' if players != 1 else ''} need{'s' if players == 1 else ''} 1 or {players} agent "
            f"names, not {len(names)}: {','.join(names)}",
        )
    if len(names) == 1:
        return tuple(_one(names[0]) for _ in range(players))
    return tuple(_one(n) for n in names)


def agent_names(agents: Sequence[Agent]) -> list[str]:
    """The agents' names, seat by seat (for reports)."""
    return [a.name for a in agents]


__all__ = [
    "AGENT_NAMES",
    "Agent",
    "GreedyAgent",
    "MctsAgent",
    "RandomAgent",
    "agent_names",
    "evaluation_for",
    "make_agent",
    "parse_agents",
]
