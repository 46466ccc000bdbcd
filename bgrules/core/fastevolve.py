"""``evolve`` for frozen attrs classes on hot paths: the same result as ``attrs.evolve`` (the class's
``__init__`` runs, so validators and converters still apply), without re-reading the field list.

For each class and each set of changed fields (in the order given) a small function is generated once:
``cls(inst.a, changes["b"], inst.c, ...)``, every field in order, passed positionally. No per-field
``getattr``, ``pop`` or membership test is left: on Bot Factory's 28-field state those were most of the
cost of an ``apply`` (docs/speed.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import attrs

T = TypeVar("T")

_NAMES: dict[type, tuple[str, ...]] = {}
_MAKERS: dict[tuple[type, tuple[str, ...]], Callable[[Any, dict[str, Any]], Any]] = {}


def _names(cls: type) -> tuple[str, ...]:
    """The fields of ``cls`` in ``__init__`` order (TypeError for fields it cannot pass by position: not in
    ``__init__``, keyword-only, or renamed by an alias)."""
    names = _NAMES.get(cls)
    if names is None:
        fields: tuple[attrs.Attribute[Any], ...] = attrs.fields(cast("type[attrs.AttrsInstance]", cls))
        if any(not a.init or a.kw_only or (a.alias or a.name) != a.name or not a.name.isidentifier() for a in fields):
            raise TypeError(f"{cls.__name__} has fields that fast evolve does not handle; use attrs.evolve")
        names = _NAMES[cls] = tuple(a.name for a in fields)
    return names


def _maker(cls: type, changed: tuple[str, ...]) -> Callable[[Any, dict[str, Any]], Any]:
    """The generated copy of ``cls`` with the fields ``changed`` taken from the changes."""
    names = _names(cls)
    unknown = sorted(set(changed).difference(names))
    if unknown:
        raise TypeError(f"{cls.__name__} has no field(s) {', '.join(unknown)}")
    args = ", ".join(f"changes[{n!r}]" if n in changed else f"inst.{n}" for n in names)
    source = f"def make(inst, changes):\n    return cls({args})\n"
    namespace: dict[str, Any] = {"cls": cls}
    exec(compile(source, f"<fastevolve {cls.__qualname__}>", "exec"), namespace)
    return cast("Callable[[Any, dict[str, Any]], Any]", namespace["make"])


def evolve(inst: T, **changes: Any) -> T:
    """Like ``attrs.evolve`` for classes whose fields are all ``__init__`` arguments named as the fields."""
    key = (inst.__class__, tuple(changes))
    make = _MAKERS.get(key)
    if make is None:
        if len(_MAKERS) > 10_000:  # bounded: the call sites give a few hundred change sets
            _MAKERS.clear()
        make = _MAKERS[key] = _maker(*key)
    return cast(T, make(inst, changes))
