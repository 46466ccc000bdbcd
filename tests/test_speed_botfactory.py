"""The fast paths of issue 12 (item 3) give the answers of the slow ones: ``fastevolve``'s slot copy (no
``__init__``) builds the object ``attrs.evolve`` builds, hash cache included, and keeps ``__init__`` for
classes whose ``__init__`` does more than store its arguments."""

from __future__ import annotations

import functools
import random
from typing import Any

import attrs
import pytest

from bgrules.botfactory import assembly, production, projects
from bgrules.botfactory.state import BotFactoryState, Hand, MoveWorker, Turn
from bgrules.core import fastevolve
from bgrules.core.fastevolve import evolve
from bgrules.core.playout import walk
from bgrules.core.registry import load_game


def _states(name: str, seeds: range, every: int) -> list[Any]:
    game = load_game(name, players=4)
    out = []
    for seed in seeds:
        for i, (_before, _action, after) in enumerate(walk(game, seed)):
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


def test_the_memoised_options_are_the_rooms_options() -> None:
    """The memos of Bot Factory's moves, additional actions, placements, icon and refill offers, window seats
    and limit verdicts (keyed on what they read) answer what is computed afresh, at every seat of states of
    seeded random games, and the legal actions with warm memos are those of a game whose memos are empty."""
    from bgrules.botfactory.base import ASSEMBLY, FINANCE, PRODUCTION, PROJECT

    game = load_game("botfactory", players=4)
    fresh = load_game("botfactory", players=4)
    rooms = {
        ASSEMBLY: functools.partial(assembly.swap_options, game),
        PRODUCTION: functools.partial(production.trade_options, game),
        PROJECT: functools.partial(projects.exchange_options, game),
        FINANCE: lambda state, seat: [],
    }
    checked = 0
    for seed in (0, 1, 4):  # seed 4's game goes over a limit (a True verdict to check)
        for _before, _action, state in walk(game, seed):
            for seat in range(4):
                assert game._move_options(state, seat)[0] == tuple(
                    MoveWorker(s) for s in game._move_targets(state, seat)
                )
                assert game._move_options(state, seat)[1] == frozenset(game._move_targets(state, seat))
                if state.workers[seat] is not None:
                    board = game._board_of(state, seat)
                    assert game._additional_options(state, seat, board) == tuple(rooms[board](state, seat))
                    checked += 1
                    if all(w is not None for w in state.workers):
                        for skip in ((), (seat,), (seat, (seat + 1) % 4)):
                            assert game._window_seats(state, skip) == game._window_seats_of(state, skip)
                fresh._limits_memo.clear()
                assert game._check_limits(state, seat) == fresh._check_limits(state, seat)
                assert assembly.placements(game, state, seat) == tuple(assembly.placements_of(game, state, seat))
                fresh._options_memo.clear()
                assert assembly.icon_options(game, state, seat) == assembly.icon_options(fresh, state, seat)
                assert production.refill_options(game, state, seat % 2) == production.refill_options(
                    fresh, state, seat % 2
                )
            fresh._options_memo.clear()
            fresh._move_memo.clear()
            assert game.legal_actions(state) == fresh._legal_actions(state)
    assert checked > 1000 and game._options_memo and game._move_memo and game._window_memo
    assert True in game._limits_memo.values() and False in game._limits_memo.values()


def _contract_score_0_6(game: Any, state: Any, seat: int) -> int:
    """BF-SCORE's contract score as 0.6.0 computed it (Counters over every choice), the reference."""
    from collections import Counter

    costs = game.c.finance.reservation_costs
    mine = []
    for slot, seats in enumerate(state.reserved):
        for i, s in enumerate(seats):
            if s == seat:
                mine.append((game.contracts[state.display[slot]], costs[i]))
    bots = Counter(state.hands[seat].done)
    best = None
    for mask in range(1 << len(mine)):
        need: Counter[str] = Counter()
        total = 0
        for i, (contract, value) in enumerate(mine):
            if mask >> i & 1:
                need.update(contract.needs)
                total += value + contract.points
            else:
                total -= value
        if all(bots[c] >= n for c, n in need.items()) and (best is None or total > best):
            best = total
    return best or 0


@pytest.mark.parametrize("players", [2, 4])
def test_the_contract_score_is_the_reference_one(players: int) -> None:
    """On states of seeded random games, given random reservations (each contract reserved by up to two
    seats) and random completed bots, ``contract_score`` (memoised, asked twice) answers what 0.6.0's
    computation does, for every seat."""
    game = load_game("botfactory", players=players)
    rng = random.Random(players)
    colours = game.colours
    pool = sorted(game.contracts)
    checked = 0
    for seed in range(2):
        for i, (_before, _action, state) in enumerate(walk(game, seed)):
            if i % 10:
                continue
            display = tuple(rng.choice(pool) for _ in state.display)
            reserved = tuple(tuple(rng.sample(range(players), rng.randint(0, 2))) for _ in display)
            hands = tuple(
                attrs.evolve(h, done=tuple(sorted(rng.choice(colours) for _ in range(rng.randint(0, 6)))))
                for h in state.hands
            )
            state = attrs.evolve(state, display=display, reserved=reserved, hands=hands)
            for seat in range(players):
                want = _contract_score_0_6(game, state, seat)
                assert game.contract_score(state, seat) == want
                assert game.contract_score(state, seat) == want
                checked += 1
    assert checked > 100
    assert any(v < 0 for v in game._score_memo.values()) and any(v > 0 for v in game._score_memo.values())
