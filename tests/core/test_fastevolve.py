"""The fast paths of issue 12 (item 3) give the answers of the slow ones: ``fastevolve``'s slot copy (no
``__init__``) builds the object ``attrs.evolve`` builds, hash cache included, and keeps ``__init__`` for
classes whose ``__init__`` does more than store its arguments.

Bot Factory's memoised options, limit verdicts, window seats and contract scores are held to the rules by
the refinement harness (tests/refinement/test_engines.py: every state of seeded games compared with the
reference engine), not here."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest
from support.walks import steps

from bgrules.botfactory.state import BotFactoryState, Hand, Turn
from bgrules.core import fastevolve
from bgrules.core.fastevolve import evolve
from bgrules.core.registry import load_game


def _states(name: str, seeds: range, every: int) -> list[Any]:
    game = load_game(name, players=4)
    out = []
    for seed in seeds:
        for i, (_before, _action, after) in enumerate(steps(game, seed)):
            if i % every == 0:
                out.append(after)
    return out


def _slots(obj: Any) -> dict[str, Any]:
    missing = object()
    names = [n for k in type(obj).__mro__[:-1] for n in k.__dict__.get("__slots__", ()) if n != "__weakref__"]
    return {n: getattr(obj, n, missing) for n in names}


@pytest.mark.parametrize("name", ["botfactory", "mechanica"])
def test_the_fast_copy_is_the_attrs_copy_on_states_of_real_games(name: str) -> None:
    """On states of seeded random games, each changing a random set of fields (in random order, to
    values taken from another state): the copy equals ``attrs.evolve``'s, holds the very same objects in
    every slot, an unset hash cache, the same hash and the same class; the original is untouched."""
    states = _states(name, range(2), 25)
    rng = random.Random(12)
    names = [a.name for a in attrs.fields(type(states[0]))]
    for state in states:
        other = rng.choice(states)
        before = _slots(state)
        changed = rng.sample(names, rng.randint(0, 5))
        changes = {n: getattr(other, n) for n in changed}
        fast = evolve(state, **changes)
        slow = attrs.evolve(state, **changes)
        assert type(fast) is type(slow)
        assert fast == slow
        fast_slots, slow_slots = _slots(fast), _slots(slow)
        assert fast_slots.keys() == slow_slots.keys()
        assert all(fast_slots[n] is slow_slots[n] for n in fast_slots)
        assert fast_slots.get("_attrs_cached_hash", None) is None
        assert hash(fast) == hash(slow)
        assert _slots(state) == before


def test_the_bot_factory_classes_take_the_slot_copy() -> None:
    """The three state classes of Bot Factory's hot path are built without ``__init__`` (the point of the
    fast path); their copies keep equality, hashing and frozenness."""
    state = _states("botfactory", range(1), 50)[3]
    for obj in (state, Hand(3, ("red-head",)), Turn(2, "open")):
        field = attrs.fields(type(obj))[0].name
        copy = evolve(obj, **{field: getattr(obj, field)})
        assert fastevolve._SLOTS[type(obj)] is not None
        assert copy == obj and hash(copy) == hash(obj) and copy is not obj
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            setattr(copy, field, None)
    assert isinstance(state, BotFactoryState)


def test_classes_whose_init_does_more_keep_the_init() -> None:
    """A validator, a converter or a post-init must run: such classes are copied through ``__init__``."""

    @attrs.frozen
    class Validated:
        x: int = attrs.field(validator=attrs.validators.instance_of(int))

    @attrs.frozen
    class Converted:
        x: tuple[int, ...] = attrs.field(converter=tuple)

    @attrs.frozen
    class Posted:
        x: int
        seen: list[int] = attrs.field(factory=list)

        def __attrs_post_init__(self) -> None:
            self.seen.append(self.x)

    with pytest.raises(TypeError):
        evolve(Validated(1), x="one")
    assert evolve(Converted((1,)), x=[2, 3]).x == (2, 3)
    posted = evolve(Posted(1), x=2)
    assert posted.seen == [1, 2]
    for cls in (Validated, Converted, Posted):
        assert fastevolve._SLOTS[cls] is None


def test_a_dict_class_keeps_the_init() -> None:
    @attrs.define(frozen=True, slots=False)
    class Plain:
        x: int
        y: int = 0

    copy = evolve(Plain(1, 2), y=3)
    assert copy == Plain(1, 3)
    assert fastevolve._SLOTS[Plain] is None


def test_a_subclass_takes_its_own_and_its_bases_slots() -> None:
    @attrs.frozen(cache_hash=True)
    class Base:
        a: int

    @attrs.frozen(cache_hash=True)
    class Sub(Base):
        b: int = 0

    obj = Sub(1, 2)
    hash(obj)
    copy = evolve(obj, b=5)
    assert type(copy) is Sub and copy == Sub(1, 5) and hash(copy) == hash(Sub(1, 5))
    assert evolve(obj, a=7) == attrs.evolve(obj, a=7)


def test_unknown_fields_are_refused_by_name() -> None:
    with pytest.raises(TypeError, match="no field"):
        evolve(Turn(1, "open"), lefts=2)


def test_a_slot_copy_that_differed_from_init_would_fall_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first copy of a class is compared slot by slot with its ``__init__``'s; had they differed, the
    class would keep the ``__init__`` path from then on."""

    @attrs.frozen(cache_hash=True)
    class Fresh:
        x: int
        y: int = 0

    monkeypatch.setattr(fastevolve, "_same_slots", lambda a, b, slots: False)
    assert evolve(Fresh(1, 2), y=3) == Fresh(1, 3)
    assert fastevolve._SLOTS[Fresh] is None
    assert evolve(Fresh(1, 2), x=4) == Fresh(4, 2)
