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
    body = _body(cls, {n: f"changes[{n!r}]" for n in changed}, slots, builder, namespace)
    source = "def make(inst, changes):\n" + "".join(f"    {line}\n" for line in body)
    exec(compile(source, f"<fastevolve {cls.__qualname__}>", "exec"), namespace)
    return cast("Callable[[Any, dict[str, Any]], Any]", namespace["make"])


def _body(
    cls: type, values: dict[str, str], slots: dict[str, Any], builder: type | None, namespace: dict[str, Any]
) -> list[str]:
    """The statements of a slot copy of ``cls`` whose changed fields take the expressions ``values`` (the
    others ``inst.<name>``): plain stores into a ``builder`` object, then its class set to ``cls``; or,
    without a builder, each slot through its descriptor's ``__set__`` (put into ``namespace``)."""
    names = _names(cls)
    if builder is not None:
        namespace["builder"] = builder
        lines = ["o = new(builder)"]
        lines += [f"o.{n} = {values[n]}" if n in values else f"o.{n} = inst.{n}" for n in names]
        if _HASH_CACHE in slots:
            lines.append(f"o.{_HASH_CACHE} = None")
        return [*lines, "o.__class__ = cls", "return o"]
    lines = ["o = new(cls)"]
    for i, n in enumerate(names):
        namespace[f"set{i}"] = slots[n].__set__
        lines.append(f"set{i}(o, {values[n]})" if n in values else f"set{i}(o, inst.{n})")
    if _HASH_CACHE in slots:
        namespace["set_hash"] = slots[_HASH_CACHE].__set__
        lines.append("set_hash(o, None)")
    return [*lines, "return o"]


def copier(cls: type[T], *changed: str) -> Callable[..., T]:
    """``copier(cls, "a", "b")`` is a function ``copy(inst, x, y)`` that returns ``evolve(inst, a=x, b=y)``
    without the keyword arguments, the dict and the look-up of the generated function: for the hottest call
    sites, made once (at import). It takes the path ``evolve`` takes for ``cls`` (the builder's plain stores,
    the slot descriptors or ``__init__``), and calls ``evolve`` itself for an instance of another class (a
    subclass) and until the first copy of ``cls`` has been checked against its ``__init__`` (``evolve``'s
    first copy of each class) - for good if the check sent the class to its ``__init__``."""
    names = _names(cls)
    unknown = sorted(set(changed).difference(names))
    if unknown:
        raise TypeError(f"{cls.__name__} has no field(s) {', '.join(unknown)}")
    if len(set(changed)) != len(changed):
        raise TypeError(f"{cls.__name__}: a field changed twice in {changed!r}")
    params = [f"v{i}" for i in range(len(changed))]
    values = dict(zip(changed, params, strict=True))
    slots = _slot_setters(cls)
    builder = None if slots is None else _builder(cls, slots)
    namespace: dict[str, Any] = {"cls": cls, "new": object.__new__, "slow": slots is not None}

    def slow_copy(inst: T, *args: Any) -> T:
        out = evolve(inst, **dict(zip(changed, args, strict=True)))
        checked = cls in _VERIFIED and _SLOTS.get(cls) is not None and _BUILDERS.get(cls) is builder
        namespace["slow"] = not checked
        return out

    namespace["slow_copy"] = slow_copy
    if slots is None:
        body = [f"return cls({', '.join(values.get(n, f'inst.{n}') for n in names)})"]
    else:
        body = _body(cls, values, slots, builder, namespace)
    args = "".join(f", {p}" for p in params)
    lines = [
        f"def copy(inst{args}):",
        "    if slow or inst.__class__ is not cls:",
        f"        return slow_copy(inst{args})",
    ]
    source = "\n".join(lines) + "\n" + "".join(f"    {line}\n" for line in body)
    exec(compile(source, f"<fastevolve copier {cls.__qualname__}>", "exec"), namespace)
    return cast("Callable[..., T]", namespace["copy"])


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
            _SLOTS.clear()  # (the builders stay: one per class, and the copiers hold theirs)
            _VERIFIED.clear()
        make = _MAKERS[key] = _checked(key[0], inst, changes)
    return make(inst, changes)
