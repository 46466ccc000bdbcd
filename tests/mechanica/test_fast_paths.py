"""The speed paths of Mechanica beside their answers (issue 12, item 3).

Along seeded random playouts under every value of every ruling: a board built by ``with_cell`` /
``with_start`` / ``with_truck`` (slot by slot, without the validators) equals, and hashes as, the one
``Factory(...)`` builds, and the board layout each carries on equals the layout recomputed from its tiles;
``installed_value``'s memo keys on the catalogue held; the draws' (Draw, probability) pairs are shared; the
converters and the loads key read as the plain reading does.

The answers the game plays by (the per-cell placements, the "any time" board options, the sales and the
ways to fabricate, the Blueprint completions, the draws) are held to the rules by the refinement harness
(tests/refinement/test_engines.py: the fast engine against the reference engine at every state, every
ruling at three and four players), not by plain computations kept here.
"""

from __future__ import annotations

import typing

import attrs
import pytest
from support.mechanica_rulings import RULINGS, ruled_game
from support.walks import states

from bgrules.mechanica.board import _bots, _maybe_bots
from bgrules.mechanica.components import Bot
from bgrules.mechanica.factory import Factory
from bgrules.mechanica.game import MechanicaGame
from bgrules.mechanica.state import MechanicaState, Phase


def _boards(state: MechanicaState) -> list[Factory]:
    boards = [seat.factory for seat in state.seats]
    if state.run is not None:
        boards.append(state.run.factory)
    return boards


@pytest.mark.parametrize(("field", "value"), RULINGS, ids=[f"{f}={v}" for f, v in RULINGS])
def test_boards_built_by_slots_are_the_boards_factory_builds(field: str, value: object) -> None:
    """Every board of seeded playouts (each once), under every ruling's reading: equal to and hashing as the
    board ``Factory(...)`` builds from its parts, with the layout that board works out."""
    players = 4 if field != "default" else 2
    game = ruled_game(field, value, players)
    seen: dict[int, Factory] = {}  # each board once (the dict holds them: no id is reused)
    length = 80 if field == "loop" else 300  # under loop = "forbid" every placement looks for a loop: slow
    for seed in range(2):
        for after in states(game, seed, max_steps=length):
            for board in _boards(after):
                if seen.get(id(board)) is board:
                    continue
                seen[id(board)] = board
                fresh = Factory(board.floor, board.start, board.dock)
                assert board == fresh and hash(board) == hash(fresh)  # with_* build by slots: the same value
                assert board.layout == fresh.layout
    assert len(seen) > 50


def _plain(value: object, maybe: bool) -> object:
    """The converters' plain reading (Bot(v) per item), or the error it raises."""
    try:
        return tuple(None if maybe and v is None else Bot(v) for v in value)  # type: ignore[attr-defined]
    except Exception as exc:
        return (type(exc), str(exc))


def _fast(convert: object, value: object) -> object:
    try:
        return convert(value)  # type: ignore[operator]
    except Exception as exc:
        return (type(exc), str(exc))


@pytest.mark.parametrize(
    "value",
    [(), (0, 1, 2), (Bot.DELUXE, 0), (True, False), (1.0,), (None,), (None, 2), (3,), ("1",), ([1],), [0, 1], (-1,)],
    ids=repr,
)
def test_bot_converters_read_as_bot_does(value: object) -> None:
    """The converters' dict look-up gives what Bot(v) gives, or the same error."""
    assert _fast(_bots, value) == _plain(value, maybe=False)
    assert _fast(_maybe_bots, value) == _plain(value, maybe=True)
    got = _fast(_bots, value)
    if isinstance(got, tuple) and all(isinstance(b, Bot) for b in got):
        assert all(type(b) is Bot for b in got)


def _installed_value_plainly(factory: Factory, cat: typing.Any) -> int:
    value = sum(cat.tile(p.kind).value for p in factory.floor if p is not None)
    return value + sum(cat.tile(s.kind).value for s in factory.start if not cat.tile(s.kind).printed)


def test_installed_value_memo_and_sale_lookup_equal_the_plain_ones() -> None:
    """``installed_value`` (memoised per catalogue and floor and Start Zone tiles) equals the plain sum on
    every board of seeded playouts, also for a catalogue whose tile values differ (the memo keys on the
    catalogue held, not its values); ``Catalogue.sale`` by its grade table equals the name look-up."""
    from bgrules.mechanica.board import installed_value

    game = MechanicaGame(players=4)
    cat = game.variant.catalogue
    other = attrs.evolve(cat, tiles={k: attrs.evolve(t, value=t.value + 1) for k, t in cat.tiles.items()})
    seen = valued = 0
    for seed in range(4):
        for after in states(game, seed, max_steps=400):
            for board in _boards(after):
                assert installed_value(board, cat) == _installed_value_plainly(board, cat)
                plain = _installed_value_plainly(board, other)
                assert installed_value(board, other) == plain
                seen += 1
                valued += plain > 0
    assert seen > 1000 and valued > 100  # boards with valued tiles were met
    for bot in Bot:
        assert cat.sale(bot) == cat.bots[bot.name.lower()].sale


def test_draw_outcomes_share_their_pairs() -> None:
    """MC-CHANCE draws (memoised per count vector): the (Draw, probability) pair of a kind with the same
    copies left of the same tiles left is the very same object in every memoised list (fewer objects for the
    collector), and its probability an exact Fraction. (That they are the rules' draws is the refinement
    harness's, random_play[mechanica-*] in tests/refinement/test_engines.py.)"""
    from fractions import Fraction

    from bgrules.core.protocol import CHANCE

    game = ruled_game("default", None, 3)
    by_key: dict[tuple[str, int, int], object] = {}
    seen = 0
    for seed in range(3):
        for before in states(game, seed):
            if game.to_move(before) is not CHANCE or before.phase is Phase.REVEAL:
                continue
            counts = before.extras if before.phase is Phase.EXTRA else before.deck
            total = sum(counts)
            left = [(k, n) for k, n in zip(game.kinds, counts, strict=True) if n]
            for (k, n), pair in zip(left, game.chance_outcomes(before), strict=True):
                assert pair[0].kind == k and type(pair[1]) is Fraction
                assert by_key.setdefault((k, n, total), pair) is pair  # the same counts: the same pair
                seen += 1
    assert 20 < len(by_key) < seen  # pairs were shared


def test_the_loads_key_tells_every_split_of_bots_over_the_trucks_apart() -> None:
    """Two docks whose trucks carry different loads never share a key, however the bots are split."""
    import itertools

    from bgrules.mechanica.blueprints import loads_key
    from bgrules.mechanica.board import Truck

    loads = [tuple(sorted(c)) for n in range(4) for c in itertools.combinations_with_replacement(Bot, n)]
    keys: dict[bytes, tuple[tuple[Bot, ...], ...]] = {}
    for split in itertools.product(loads, repeat=3):
        dock = tuple(Truck("truck", load) for load in split)
        key = loads_key(dock)
        assert keys.setdefault(key, split) == split
    assert len(keys) == len(loads) ** 3


def test_a_boards_derived_values_are_its_own_in_every_copy() -> None:
    """The layout and bot counts are kept in plain slots outside the board's value: every way of copying a
    board with other parts (fast evolve, attrs.evolve, pickle, copy) works them out from its own tiles and
    bots, never carries the original's; and the class has no ``__getattr__`` (the slow lookup hook)."""
    import copy
    import pickle

    from bgrules.core.fastevolve import evolve
    from bgrules.mechanica.board import Placed, Truck
    from bgrules.mechanica.factory import starting_factory

    def plain_layout(board: Factory) -> object:
        return (
            tuple(None if p is None else (p.kind, p.rotation) for p in board.floor),
            tuple(s.kind for s in board.start),
            tuple(t.kind for t in board.dock),
        )

    def plain_counts(board: Factory) -> tuple[int, ...]:
        found = list(board.bots())
        return tuple(found.count(b) for b in Bot)

    assert "__getattr__" not in Factory.__dict__
    board = starting_factory()
    assert board.layout == plain_layout(board) and board.bot_counts() == plain_counts(board)
    dock = (Truck("big_truck", (Bot.PLUS,)), *board.dock[1:])
    floor = (Placed("fork", 1), *board.floor[1:])
    copies = [
        evolve(board, dock=dock),
        attrs.evolve(board, floor=floor),
        attrs.evolve(board, dock=dock),
        pickle.loads(pickle.dumps(evolve(board, dock=dock))),
        copy.copy(evolve(board, floor=floor)),
        copy.deepcopy(evolve(board, dock=dock)),
    ]
    for other in copies:
        assert other.layout == plain_layout(other)
        assert other.bot_counts() == plain_counts(other)
    assert copies[0].layout != board.layout and copies[1].layout[0][0] == ("fork", 1)
    assert copies[0].bot_counts() != board.bot_counts()  # the Plus bot on the new truck
