"""``evolve`` for frozen attrs classes on hot paths: the same result as ``attrs.evolve`` (the class's
``__init__`` runs, so validators and converters still apply), without re-reading the field list."""

from __future__ import annotations

from typing import Any, TypeVar, cast

import attrs

T = TypeVar("T")

_NAMES: dict[type, tuple[str, ...]] = {}


def evolve(inst: T, **changes: Any) -> T:
    """Like ``attrs.evolve`` for classes whose fields are all ``__init__`` arguments named as the fields."""
    cls = inst.__class__
    names = _NAMES.get(cls)
    if names is None:
        fields: tuple[attrs.Attribute[Any], ...] = attrs.fields(cast("type[attrs.AttrsInstance]", cls))
        if any(not a.init or (a.alias or a.name) != a.name for a in fields):
            raise TypeError(f"{cls.__name__} has fields that fast evolve does not handle; use attrs.evolve")
        names = _NAMES[cls] = tuple(a.name for a in fields)
    args = [changes.pop(n) if n in changes else getattr(inst, n) for n in names]
    if changes:
        raise TypeError(f"{cls.__name__} has no field(s) {', '.join(sorted(changes))}")
    return cls(*args)
