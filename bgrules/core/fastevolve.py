"""``evolve`` for frozen attrs classes on hot paths: the same result as ``attrs.evolve`` (the class's
``__init__`` runs, so validators and converters still apply), without re-reading the field list.

For each class and each set of changed fields (in the order given) a small function is generated once:
``cls(inst.a, changes["b"], inst.c, ...)``, every field in order, passed positionally. No per-field
``getattr``, ``pop`` or membership test is left: on Bot Factory's 28-field state those were most of the
cost of an ``apply`` (docs/speed.md).

A class whose ``__init__`` only stores its arguments (an attrs-generated ``__init__`` with no validator,
converter, ``__attrs_pre_init__`` or ``__attrs_post_init__``, and slots) is built without calling it, and
without its frozen ``__setattr__``: the object is born an instance of the class's *builder*, a subclass with
no slots of its own (the same memory layout) whose attribute stores are the plain slot stores, takes every
slot (``o.a = inst.a``, ``o.b = changes["b"]``, ..., and the attrs hash cache of a ``cache_hash=True`` class
None, exactly what the attrs ``__init__`` would store), then becomes an instance of the class itself
(``o.__class__ = cls``, which Python allows between classes of one layout). A slot store is then one
specialised bytecode instead of a call of the slot descriptor's ``__set__`` (a Bot Factory state copy about
2.5x cheaper). Where the builder cannot be made (another interpreter, a class whose field names resolve to
something other than its slots), each slot is set through the slot's own descriptor (``set0(o, inst.a)``,
...). That the copy is the object ``__init__`` builds (its class, every slot, the hash cache included) is
checked on the first copy of each class: any difference and the class keeps the ``__init__`` path."""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any, TypeVar, cast

import attrs

T = TypeVar("T")

_NAMES: dict[type, tuple[str, ...]] = {}
_MAKERS: dict[tuple[type, tuple[str, ...]], Callable[[Any, dict[str, Any]], Any]] = {}
_SLOTS: dict[type, dict[str, Any] | None] = {}
"""Per class: its slot descriptors by name when it can be built without ``__init__``; None when not."""
_BUILDERS: dict[type, type | None] = {}
"""Per class built without ``__init__``: its builder subclass (plain slot stores), or None where there is none."""
_VERIFIED: set[type] = set()
"""The classes whose slot copy has been compared with their ``__init__``'s (on their first copy)."""

_HASH_CACHE = "_attrs_cached_hash"
"""The slot where attrs caches the hash of a ``cache_hash=True`` class (None until the first ``hash``)."""


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


def _slot_setters(cls: type) -> dict[str, Any] | None:
    """The slot descriptors of ``cls`` (every field's, and the hash cache's if it has one) when its
    ``__init__`` is attrs's own and only stores the fields: no validator, converter, pre- or post-init, no
    custom ``__new__``, a slotted class whose slots are exactly its fields (plus ``__weakref__`` and the hash
    cache). None otherwise."""
    if cls in _SLOTS:
        return _SLOTS[cls]
    found: dict[str, Any] | None = None
    fields: tuple[attrs.Attribute[Any], ...] = attrs.fields(cast("type[attrs.AttrsInstance]", cls))
    init = cls.__dict__.get("__init__")
    code = getattr(init, "__code__", None)
    plain = (
        code is not None
        and code.co_filename.startswith("<attrs generated")
        and all("__new__" not in k.__dict__ for k in cls.__mro__[:-1])
        and not hasattr(cls, "__attrs_pre_init__")
        and not hasattr(cls, "__attrs_post_init__")
        and all(a.validator is None and a.converter is None for a in fields)
        and "__dict__" not in cls.__dict__
        and all("__dict__" not in k.__dict__ for k in cls.__mro__[:-1])
    )
    if plain:
        slots: dict[str, Any] = {}
        for k in reversed(cls.__mro__[:-1]):
            declared = k.__dict__.get("__slots__", ())
            for name in (declared,) if isinstance(declared, str) else declared:
                if name != "__weakref__":
                    slots[name] = k.__dict__.get(name)
        names = {a.name for a in fields}
        extra = set(slots) - names
        descriptors = all(isinstance(d, types.MemberDescriptorType) for d in slots.values())
        if names <= set(slots) and extra <= {_HASH_CACHE} and descriptors:
            found = slots
    _SLOTS[cls] = found
    return found


def _same_slots(a: Any, b: Any, slots: dict[str, Any]) -> bool:
    """Every slot of ``a`` holds the very object ``b``'s does (or both are unset)."""
    missing = object()
    return all(getattr(a, n, missing) is getattr(b, n, missing) for n in slots)


def _builder(cls: type, slots: dict[str, Any]) -> type | None:
    """The builder of ``cls``: a subclass without slots of its own whose ``__setattr__`` and ``__delattr__``
    are ``object``'s (so a store into a slot is the plain one, not the frozen refusal), made once per class.
    None unless every slot name resolves on it to the very slot descriptor of ``cls``, its layout is the
    class's, and an object of it can become an instance of ``cls`` (``__class__`` assignment)."""
    if cls in _BUILDERS:
        return _BUILDERS[cls]
    found: type | None = None
    try:
        builder = type(
            f"{cls.__name__}Builder",
            (cls,),
            {
                "__slots__": (),
                "__setattr__": object.__setattr__,
                "__delattr__": object.__delattr__,
                "__module__": cls.__module__,
                "__qualname__": f"{cls.__qualname__}Builder",
            },
        )
        resolved = all(
            next((k.__dict__[n] for k in builder.__mro__ if n in k.__dict__), None) is d for n, d in slots.items()
        )
        if resolved and builder.__basicsize__ == cls.__basicsize__:
            probe: Any = object.__new__(builder)
            probe.__class__ = cls
            found = builder if type(probe) is cls else None
    except (TypeError, AttributeError, ValueError):
        found = None
    _BUILDERS[cls] = found
    return found


def _maker(cls: type, changed: tuple[str, ...], use_builder: bool = True) -> Callable[[Any, dict[str, Any]], Any]:
    """The generated copy of ``cls`` with the fields ``changed`` taken from the changes (``use_builder=False``:
    through the slot descriptors even where a builder exists, the comparison ``bench_evolve.py`` makes)."""
    names = _names(cls)
    unknown = sorted(set(changed).difference(names))
    if unknown:
        raise TypeError(f"{cls.__name__} has no field(s) {', '.join(unknown)}")

    slots = _slot_setters(cls)
    if slots is None:
        return _maker_init(cls, changed)
    namespace: dict[str, Any] = {"cls": cls, "new": object.__new__}
    builder = _builder(cls, slots) if use_builder else None
    if builder is not None:  # plain slot stores into an object of the builder, then the class itself
        namespace["builder"] = builder
        lines = ["def make(inst, changes):", "    o = new(builder)"]
        lines += [f"    o.{n} = changes[{n!r}]" if n in changed else f"    o.{n} = inst.{n}" for n in names]
        if _HASH_CACHE in slots:
            lines.append(f"    o.{_HASH_CACHE} = None")
        lines += ["    o.__class__ = cls", "    return o"]
    else:  # each slot through its descriptor's __set__
        lines = ["def make(inst, changes):", "    o = new(cls)"]
        for i, n in enumerate(names):
            namespace[f"set{i}"] = slots[n].__set__
            lines.append(f"    set{i}(o, changes[{n!r}])" if n in changed else f"    set{i}(o, inst.{n})")
        if _HASH_CACHE in slots:
            namespace["set_hash"] = slots[_HASH_CACHE].__set__
            lines.append("    set_hash(o, None)")
        lines.append("    return o")
    exec(compile("\n".join(lines) + "\n", f"<fastevolve {cls.__qualname__}>", "exec"), namespace)
    return cast("Callable[[Any, dict[str, Any]], Any]", namespace["make"])


def _checked(cls: type, inst: Any, changes: dict[str, Any]) -> Callable[[Any, dict[str, Any]], Any]:
    """The maker for this class and change set; on a class's first fast copy, its result is compared slot by
    slot with the ``__init__``'s (the class falls back to ``__init__`` for good if they differ)."""
    make = _maker(cls, tuple(changes))
    slots = _SLOTS.get(cls)
    if slots is not None and cls not in _VERIFIED:
        reference = _maker_init(cls, tuple(changes))(inst, changes)
        copy = make(inst, changes)
        if type(copy) is not cls or not _same_slots(copy, reference, slots):
            _SLOTS[cls] = None
            _MAKERS.clear()
            make = _maker(cls, tuple(changes))
        _VERIFIED.add(cls)
    return make


def _maker_init(cls: type, changed: tuple[str, ...]) -> Callable[[Any, dict[str, Any]], Any]:
    """The copy through ``cls.__init__``: ``cls(inst.a, changes["b"], inst.c, ...)`` (the path of classes
    whose ``__init__`` does more than store, and the reference of the first check)."""
    args = ", ".join(f"changes[{n!r}]" if n in changed else f"inst.{n}" for n in _names(cls))
    namespace: dict[str, Any] = {"cls": cls}
    source = f"def make(inst, changes):\n    return cls({args})\n"
    exec(compile(source, f"<fastevolve {cls.__qualname__}>", "exec"), namespace)
    return cast("Callable[[Any, dict[str, Any]], Any]", namespace["make"])


def evolve(inst: T, **changes: Any) -> T:
    """Like ``attrs.evolve`` for classes whose fields are all ``__init__`` arguments named as the fields."""
    key = (inst.__class__, tuple(changes))
    make: Callable[[T, dict[str, Any]], T] | None = _MAKERS.get(key)  # typed here: no cast() call on the hot path
    if make is None:
        if len(_MAKERS) > 10_000:  # bounded: the call sites give a few hundred change sets
            _MAKERS.clear()
            _SLOTS.clear()
            _BUILDERS.clear()
            _VERIFIED.clear()
        make = _MAKERS[key] = _checked(key[0], inst, changes)
    return make(inst, changes)
