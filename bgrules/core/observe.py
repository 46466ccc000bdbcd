"""What an invariant reads: the named quantities (counters, sizes, sums) a spec's predicate checks, so a
trace shows them at every step and a failure can be seen coming (``bgrules replay --step``, the
``observed`` of each step of :func:`bgrules.runners.trace.explain`).

A predicate declares them with :func:`observes`, next to its definition::

    def _collisions(game, state):
        return {"collisions": state.collisions}

    @observes(_collisions)
    def no_collision(game, state): ...

The reader takes the predicate's own arguments (``(game, state)``, or ``(game, before, action, after)``
for a transition predicate) and returns a mapping of names to JSON values (numbers, strings, lists); it
reads the state only, so the predicate itself (and its speed) is unchanged. A predicate that declares no
reader still shows its value (holds, or its message) at every step.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

Reader = Callable[..., Mapping[str, Any]]
P = TypeVar("P", bound=Callable[..., Any])

_READERS: dict[Callable[..., Any], Reader] = {}


def observes(reader: Reader) -> Callable[[P], P]:
    """Declare ``reader`` as what the decorated predicate reads (module docstring)."""

    def mark(predicate: P) -> P:
        _READERS[predicate] = reader
        return predicate

    return mark


def reader_of(predicate: Callable[..., Any] | None) -> Reader | None:
    """The predicate's declared reader, or None; a wrapper (``functools.wraps``: ``__wrapped__``) reads what
    the predicate it wraps reads."""
    while predicate is not None:
        found = _READERS.get(predicate)
        if found is not None:
            return found
        predicate = getattr(predicate, "__wrapped__", None)
    return None


def observed(predicate: Callable[..., Any] | None, *args: Any) -> dict[str, Any] | None:
    """What ``predicate`` reads of ``args`` (its own arguments), or None when it declares nothing."""
    reader = reader_of(predicate)
    return None if reader is None else dict(reader(*args))


def shown(values: Mapping[str, Any] | None) -> str:
    """``name value, name value`` (a list as ``[a, b]``), for a text line."""
    if not values:
        return ""
    return ", ".join(f"{k} {_value(v)}" for k, v in values.items())


def _value(v: Any) -> str:
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return "null" if v is None else str(v)


__all__ = ["Reader", "observed", "observes", "reader_of", "shown"]
