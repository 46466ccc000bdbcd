"""The fast paths of Bot Factory's third speed session (issue 12, item 3) give the answers of the plain
computations they replace, along seeded random playouts: the chance outcomes built from shared action
objects and Fractions, fastevolve's builder copies and copiers, the memoised turn openings, the offers
(additional and main actions) from shared action objects."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs

from bgrules.botfactory import assembly
from bgrules.botfactory.game import BotFactoryGame
from bgrules.botfactory.state import BotFactoryState, DrawContract, DrawPart, DrawProject, PlacePart
from bgrules.core.playout import walk


def _plain_outcomes(game: BotFactoryGame, state: BotFactoryState) -> tuple[tuple[Any, Fraction], ...]:
    """The next draw's outcomes computed afresh (0.7.0's ``_outcomes``: new objects every time)."""
    what, source, _dest, _a, _b = state.draws[0]
    if what == "contract":
        pool = state.contract_pool
        return tuple((DrawContract(i), Fraction(1, len(pool))) for i in pool)
    if what == "project":
        counts = state.project_pile
        total = sum(counts)
        return tuple((DrawProject(c), Fraction(k, total)) for c, k in zip(game.colours, counts, strict=True) if k)
    counts = state.piles[state.marker if source < 0 else source]
    total = sum(counts)
    return tuple((DrawPart(s), Fraction(k, total)) for s, k in zip(game.slots, counts, strict=True) if k)


def test_the_chance_outcomes_are_the_plain_ones() -> None:
    """At every chance node of seeded 2- and 4-player games (memo cold and warm): the same outcomes, in
    the same order, with the same probabilities; the memo miss path gives them too."""
    seen = 0
    for players in (2, 4):
        game = BotFactoryGame(players=players)
        for seed in range(4):
            for before, _action, _after in walk(game, seed):
                if not before.draws:
                    continue
                plain = _plain_outcomes(game, before)
                assert game.chance_outcomes(before) == plain
                key = game._chance_key(before)
                fresh = game._outcomes(key[0], key[1])
                assert fresh == plain
                assert [type(p) for _a, p in fresh] == [Fraction] * len(plain)
                seen += 1
    assert seen > 1000


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
            for i, (_before, _action, after) in enumerate(walk(game, seed)):
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
    states = [after for seed in range(2) for i, (_b, _a, after) in enumerate(walk(game, seed)) if i % 15 == 0]
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


def test_the_memoised_openings_are_the_plain_ones() -> None:
    """The turn a space opens with (``_opening_on``, memoised by the space and Sandra's) is the one computed
    from the state's toll (``_sharing``, ``_extra``, ``_toll``) under both ``last_space_toll`` readings,
    for every seat at every action-phase state of seeded games."""
    from bgrules.botfactory.state import Turn
    from bgrules.botfactory.variant import BotFactoryVariant, Rulings

    seen = 0
    for toll in ("separate", "combined"):
        variant = BotFactoryVariant(rulings=Rulings(last_space_toll=toll))
        for players in (2, 4):
            game = BotFactoryGame(players=players, variant=variant)
            for seed in range(3):
                for before, _action, _after in walk(game, seed):
                    if None in before.workers:
                        continue
                    for seat in range(players):
                        where = before.workers[seat]
                        n = game.spaces[where][2]
                        if toll == "combined":
                            plain = Turn(n, "share" if game._toll(before, seat) else "open")
                        else:
                            sharing, extra = game._sharing(before, seat), game._extra(before, seat)
                            plain = Turn(n, "share" if sharing else "extra" if extra else "open")
                        assert game._opening(before, seat) == plain
                        seen += 1
    assert seen > 5000


def _plain_additional(game: BotFactoryGame, state: BotFactoryState, seat: int, board: int) -> tuple[Any, ...]:
    """BF-ASM-SWAP / BF-PROD-TRADE / BF-PROJ-TRADE as 0.7.0 offered them (new objects, no memo)."""
    import itertools

    from bgrules.botfactory.base import ASSEMBLY, PRODUCTION, PROJECT
    from bgrules.botfactory.state import Exchange, Swap, Trade

    hand = state.hands[seat]
    if board == ASSEMBLY:
        if hand.tokens < 1:
            return ()
        return tuple(
            Swap(p, i) for p in sorted(set(hand.parts)) for i, s in enumerate(state.spares) if s is not None and s != p
        )
    out: list[Any] = []
    if board == PRODUCTION and len(hand.parts) >= 3:
        for three in sorted(set(itertools.combinations(hand.parts, 3))):
            out.extend(
                Trade(three, c) for ci, c in enumerate(game.colours) if sum(state.piles[ci]) or sum(state.discards[ci])
            )
    if board == PROJECT and len(hand.projects) >= 2:
        for two in sorted(set(itertools.combinations(hand.projects, 2))):
            out.extend(Exchange(two, slot) for si, slot in enumerate(game.slots) if state.universal[si])
    return tuple(out)


def _plain_main(game: BotFactoryGame, state: BotFactoryState, seat: int, board: int) -> list[Any]:
    """The Production, Project and Finance main actions as 0.7.0 offered them (new objects)."""
    from bgrules.botfactory import arith
    from bgrules.botfactory.base import PRODUCTION, PROJECT
    from bgrules.botfactory.state import ROTATE, Raise, Reserve, TakeOutput, TakeProject

    if board == PRODUCTION:
        return [ROTATE, *(TakeOutput(p) for p in game.c.wheel.output if state.wheel[p] is not None)]
    if board == PROJECT:
        return [TakeProject(c, r) for c in range(2) for r, t in enumerate(state.grid[c]) if t is not None]
    hand, turn = state.hands[seat], state.turn
    assert turn is not None
    out: list[Any] = []
    if hand.tokens >= 1:
        out.extend(Raise(c) for ci, c in enumerate(game.colours) if state.values[ci] < game.c.finance.track_max)
    costs = game.c.finance.reservation_costs
    for slot, seats in enumerate(state.reserved):
        if state.display[slot] is None or seat in seats or len(seats) >= len(costs):
            continue
        cost = costs[len(seats)]
        if (
            arith.can_afford_reservation(hand.tokens, cost, game.variant.rulings.reservation_tokens)
            and turn.left >= cost
        ):
            out.append(Reserve(slot))
    return out


def test_the_offers_are_the_plain_ones() -> None:
    """The additional actions (early answers without a token, part or Project; memo keyed on the drawable
    piles; shared action objects) and the main actions of Production, Project and Finance (shared action
    objects) equal 0.7.0's fresh computation at every seat of every state of seeded games under both
    ``additional_actions`` readings; the drawable piles are ``_drawable``'s."""
    from bgrules.botfactory.base import ASSEMBLY, PRODUCTION, PROJECT
    from bgrules.botfactory.state import Turn
    from bgrules.botfactory.variant import BotFactoryVariant, Rulings

    seen = 0
    for reading in ("any_time", "own_turn"):
        game = BotFactoryGame(players=4, variant=BotFactoryVariant(rulings=Rulings(additional_actions=reading)))
        for seed in range(4):
            for before, _action, _after in walk(game, seed):
                assert game._drawables(before) == tuple(game._drawable(before, ci) for ci in range(4))
                for seat in range(4):
                    if before.workers[seat] is None:
                        continue
                    board = game._board_of(before, seat)
                    assert game._additional_options(before, seat, board) == _plain_additional(game, before, seat, board)
                    if board != ASSEMBLY:
                        turn = before.turn if before.turn is not None else Turn(3, "open")
                        probe = before if before.turn is not None else attrs.evolve(before, turn=turn)
                        assert game._main_options(probe, seat, board, turn) == _plain_main(game, probe, seat, board)
                    seen += board in (PRODUCTION, PROJECT)
    assert seen > 5000


def _plain_placements(game: BotFactoryGame, state: BotFactoryState, seat: int) -> list[PlacePart]:
    """BF-ASM / BF-ASM-PROJECT as the rules read: each part of the hand (once per kind) on each matching
    empty space of a bot, a bot's last part only with an unfinished Project of its colour and a bot left."""
    hand = state.hands[seat]
    out = []
    for part in sorted(set(hand.parts)):
        colour, slot = part.split("-")
        si = game.slots.index(slot)
        for col in game.colours if colour == "any" else (colour,):
            ci = game.colours.index(col)
            column = state.columns[ci]
            if column[si] is not None or all(x is not None for x in column):
                continue
            if sum(x is not None for x in column) == 2 and (col not in hand.projects or not state.bots_left[ci]):
                continue
            out.append(PlacePart(part, col))
    return out


def test_the_moves_and_placements_are_the_plain_ones() -> None:
    """BF-MOVE's targets (the spaces of the other boards per game) and BF-ASM's placements (columns read by
    counts) equal 0.7.0's computation at every seat of every state of seeded 2- and 4-player games."""
    seen = 0
    for players in (2, 4):
        game = BotFactoryGame(players=players)
        for seed in range(4):
            for before, _action, _after in walk(game, seed):
                taken = {w for w in before.workers if w is not None} | {before.sandra}
                for seat in range(players):
                    here = before.workers[seat]
                    plain = [
                        i
                        for i in range(len(game.spaces))
                        if i not in taken and (here is None or game.spaces[i][0] != game.spaces[here][0])
                    ]
                    assert game._move_targets(before, seat) == plain
                    assert assembly.placements_of(game, before, seat) == _plain_placements(game, before, seat)
                    seen += 1
    assert seen > 10000


def test_a_possible_draw_is_a_plain_outcome() -> None:
    """``_possible`` (the offered object at once, else the memoised set or comparisons) answers whether an
    object equals one of the plain outcomes, at every chance node of seeded games: for the objects offered,
    fresh equal ones, every other draw of the kind, and objects of other classes."""
    from bgrules.botfactory.state import Skip

    seen = 0
    game = BotFactoryGame(players=4)
    for seed in range(3):
        for before, _action, _after in walk(game, seed):
            if not before.draws:
                continue
            plain = [a for a, _p in _plain_outcomes(game, before)]
            offered = [a for a, _p in game.chance_outcomes(before)]
            probes: list[Any] = [*offered, Skip(), "red"]
            probes += [DrawPart(s) for s in game.slots] + [DrawProject(c) for c in game.colours]
            probes += [DrawContract(i) for i in range(-1, len(game.contracts) + 1)]
            for probe in probes:
                assert game._possible(before, probe) == (probe in plain)
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
        for before, _action, _after in walk(game, seed):
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
