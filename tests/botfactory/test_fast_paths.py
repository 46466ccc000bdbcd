"""The fast paths of Bot Factory's third speed session (issue 12, item 3), beside their answers: fastevolve's
builder copies and copiers give the objects ``attrs.evolve`` gives, on states of seeded playouts; the memo
of possible draws (``_possible``) and the search of offered actions (``_offered``) answer as the plain
membership tests do.

Their answers along games (the chance outcomes built from shared action objects and Fractions, the
memoised turn openings under both ``last_space_toll`` readings, the additional and main actions under both
``additional_actions`` readings, the moves and placements) are held to the rules by the refinement harness
(tests/refinement/test_engines.py, the fast engine against the reference engine at every state), not by
plain computations kept here."""

from __future__ import annotations

from typing import Any

from support.walks import steps

from bgrules.botfactory import draws
from bgrules.botfactory.game import BotFactoryGame
from bgrules.botfactory.state import BotFactoryState, DrawContract, DrawPart, DrawProject
from bgrules.core.refinement import reference_of
from bgrules.core.registry import load_game


def test_the_builder_copy_is_the_descriptor_copy_and_the_attrs_copy() -> None:
    """fastevolve's plain stores into a builder give, on states of seeded 4-player games (Bot Factory's
    three hot classes and Mechanica's states), the object the slot descriptors and ``attrs.evolve`` give:
    the class itself (never the builder), the very same objects in every slot, an unset hash cache, equal
    and frozen."""
    import random

    import attrs
    import pytest

    from bgrules.core import fastevolve
    from bgrules.core.registry import load_game

    rng = random.Random(17)
    for name in ("botfactory", "mechanica"):
        game = load_game(name, players=4)
        objs: list[Any] = []
        for seed in range(2):
            for i, (_before, _action, after) in enumerate(steps(game, seed)):
                if i % 20 == 0:
                    objs.append(after)
                    objs.extend(getattr(after, "hands", ())[:1])
                    if getattr(after, "turn", None) is not None:
                        objs.append(after.turn)
        for obj in objs:
            cls = type(obj)
            names = [a.name for a in attrs.fields(cls)]
            changed = tuple(rng.sample(names, rng.randint(0, min(4, len(names)))))
            other = rng.choice([o for o in objs if type(o) is cls])
            changes = {n: getattr(other, n) for n in changed}
            built = fastevolve._maker(cls, changed)(obj, changes)
            by_descriptor = fastevolve._maker(cls, changed, use_builder=False)(obj, changes)
            expected = attrs.evolve(obj, **changes)
            assert fastevolve._BUILDERS[cls] is not None
            assert type(built) is cls and type(by_descriptor) is cls
            for n in (*names, "_attrs_cached_hash"):
                assert getattr(built, n, None) is getattr(expected, n, None) is getattr(by_descriptor, n, None)
            assert built == expected and hash(built) == hash(expected)
            with pytest.raises(attrs.exceptions.FrozenInstanceError):
                setattr(built, names[0], None)


def test_a_field_name_not_resolving_to_its_slot_keeps_the_descriptors() -> None:
    """A class whose field name resolves (on its builder) to something other than its slot descriptor, here
    a property of a subclass: no builder (its stores would not fill the slot), so such a class would be
    copied through the slot descriptors; a plain attrs class has one and its copy equals the class's own."""
    import attrs

    from bgrules.core import fastevolve
    from bgrules.core.fastevolve import evolve

    @attrs.frozen
    class Base:
        x: int
        y: int = 0

    class Shadowing(Base):
        __slots__ = ()

        @property
        def y(self) -> int:  # type: ignore[override]
            return 42

    obj = Base(1, 2)
    assert evolve(obj, x=3) == Base(3, 2)
    assert fastevolve._BUILDERS[Base] is not None
    slots = fastevolve._slot_setters(Base)
    assert slots is not None and set(slots) == {"x", "y"}
    assert fastevolve._builder(Shadowing, slots) is None
    assert fastevolve._BUILDERS[Shadowing] is None


def test_a_copier_gives_evolves_copy() -> None:
    """``fastevolve.copier(cls, *fields)(inst, *values)`` is ``evolve(inst, **dict(zip(fields, values)))`` on
    states of seeded games (random field sets, values from other states): the class itself, the very same
    objects in every slot, an unset hash cache; a subclass's instance goes through ``evolve`` (its own
    class kept); a class checked onto its ``__init__`` keeps the copier on ``evolve``; an unknown or
    repeated field is refused."""
    import random

    import attrs
    import pytest

    from bgrules.core import fastevolve
    from bgrules.core.fastevolve import copier, evolve
    from bgrules.core.registry import load_game

    game = load_game("botfactory", players=4)
    states = [after for seed in range(2) for i, (_b, _a, after) in enumerate(steps(game, seed)) if i % 15 == 0]
    names = [a.name for a in attrs.fields(BotFactoryState)]
    rng = random.Random(5)
    for state in states:
        fields = tuple(rng.sample(names, rng.randint(0, 5)))
        other = rng.choice(states)
        values = [getattr(other, n) for n in fields]
        copy = copier(BotFactoryState, *fields)
        for _ in range(2):  # the first call may take evolve's path (the class's check), the next the copier's
            fast = copy(state, *values)
            slow = evolve(state, **dict(zip(fields, values, strict=True)))
            assert type(fast) is BotFactoryState
            for n in (*names, "_attrs_cached_hash"):
                assert getattr(fast, n, None) is getattr(slow, n, None)
            assert fast == slow and hash(fast) == hash(slow)

    @attrs.frozen(cache_hash=True)
    class Point:
        x: int
        y: int = 0

    class Sub(Point):
        __slots__ = ()

    move = copier(Point, "y")
    assert move(Point(1, 2), 5) == Point(1, 5) and type(move(Point(1, 2), 5)) is Point
    sub = move(Sub(1, 2), 7)
    assert type(sub) is Sub and (sub.x, sub.y) == (1, 7)

    @attrs.frozen
    class Odd:
        x: int
        y: int = 0

    odd = copier(Odd, "x")
    real_same = fastevolve._same_slots
    try:
        fastevolve._same_slots = lambda a, b, slots: False  # the check finds a difference: __init__ for good
        assert odd(Odd(1, 2), 3) == Odd(3, 2)
    finally:
        fastevolve._same_slots = real_same
    assert fastevolve._SLOTS[Odd] is None
    assert odd(Odd(1, 2), 4) == Odd(4, 2)
    assert odd.__globals__["slow"] is True
    with pytest.raises(TypeError, match="no field"):
        copier(Point, "z")
    with pytest.raises(TypeError, match="twice"):
        copier(Point, "x", "x")


def test_a_possible_draw_is_a_reference_outcome() -> None:
    """``_possible`` (the offered object at once, else the memoised set or comparisons) answers whether an
    object equals one of the reference engine's outcomes, at every chance node of seeded games: for the
    objects offered, fresh equal ones, every other draw of the kind, and objects of other classes."""
    from bgrules.botfactory.state import Skip

    seen = 0
    game = load_game("botfactory", players=4)
    assert isinstance(game, BotFactoryGame)
    ref = reference_of(game)
    for seed in range(3):
        for before, _action, _after in steps(game, seed):
            if not before.draws:
                continue
            plain = [a for a, _p in ref.chance_outcomes(before)]
            offered = [a for a, _p in game.chance_outcomes(before)]
            probes: list[Any] = [*offered, Skip(), "red"]
            probes += [DrawPart(s) for s in game.slots] + [DrawProject(c) for c in game.colours]
            probes += [DrawContract(i) for i in range(-1, len(game.contracts) + 1)]
            for probe in probes:
                assert draws.possible(game, before, probe) == (probe in plain)
                seen += 1
    assert seen > 10000


def test_an_offered_action_is_found_as_in_finds_it() -> None:
    """``_offered(action, options)`` is ``action in options`` for every legal action of seeded games' states
    (the objects offered and fresh equal copies) and for actions not offered."""
    import attrs

    from bgrules.botfactory.base import _offered
    from bgrules.botfactory.state import Skip, Swap

    game = BotFactoryGame(players=4)
    seen = 0
    for seed in range(2):
        for before, _action, _after in steps(game, seed):
            if before.draws:
                continue
            legal = game.legal_actions(before)
            for action in (*legal, Swap("red-head", 0), Skip(), None):
                assert _offered(action, legal) == (action in legal)
                if attrs.has(type(action)):
                    copy = attrs.evolve(action)
                    assert _offered(copy, legal) == (copy in legal)
                seen += 1
    assert seen > 5000
