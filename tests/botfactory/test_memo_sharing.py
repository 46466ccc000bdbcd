"""Bot Factory's memos made light for the cyclic garbage collector (issue 12, item 3): the options memo's
values are shared tuples of shared action objects, the move memo's answers are shared by the spaces they
offer, the chance memo's (outcome, probability) pairs are shared, the action objects are kept per class by
their arguments, and the tables only memo misses read live in one attribute of the game. What the collector
sees (untracked keys, a few shared values), that the shared objects are whole (class, fields and hash of
an object built afresh) and that play with the memos emptied on the way still refines the reference are
checked here; the answers themselves along games are the refinement harness's (tests/refinement/
test_engines.py: the fast engine against the reference engine at every state, under every ruling)."""

from __future__ import annotations

import gc
from fractions import Fraction
from typing import Any

import attrs
import pytest
from support.walks import steps

from bgrules.botfactory import assembly, draws, moves, production, projects
from bgrules.botfactory.game import BotFactoryGame
from bgrules.botfactory.state import MoveWorker, PlacePart, Refill, TakeProject, TakeTop
from bgrules.botfactory.variant import BotFactoryVariant, Rulings
from bgrules.core.memo import Memos
from bgrules.core.playout import walk
from bgrules.core.refinement import difference, reference_of, walk_states
from bgrules.core.registry import load_game


def _cold(game: BotFactoryGame) -> BotFactoryGame:
    """``game`` with every memo and table emptied: what it answers next is computed afresh."""
    game.memos.clear()
    game._last_legal = None
    game._last_chance = None
    return game


def _same(a: Any, b: Any) -> bool:
    """Equal, of the same class, field by field, with equal hashes (what ``==`` alone might blur)."""
    return (
        type(a) is type(b)
        and a == b
        and hash(a) == hash(b)
        and attrs.astuple(a, recurse=False) == attrs.astuple(b, recurse=False)
    )


def _rebuilt(a: Any) -> Any:
    """An object equal to ``a`` built afresh by its class from its fields (its own hash, no cache shared)."""
    return type(a)(*attrs.astuple(a, recurse=False))


def _whole(offers: Any) -> bool:
    """Each offered object is whole: as one built afresh from its fields (class, fields and hash)."""
    return all(_same(a, _rebuilt(a)) for a in offers)


READINGS = ("any_time", "own_turn")


@pytest.mark.parametrize("reading", READINGS)
def test_the_shared_offers_are_whole_and_one_per_class_and_arguments(reading: str) -> None:
    """At every seat of every state of seeded 2- and 4-player games (memos warm): the placements, Project
    takes, icon and refill offers, moves and legal actions are whole objects (class, fields and hash of one
    built afresh), and an offer is the one object the game keeps for its class and arguments. (That they are
    the rules' offers is the refinement harness's: every_ruling[botfactory-*-additional_actions=own_turn]
    and random_play[botfactory-*] in tests/refinement/test_engines.py.)"""
    seen = 0
    variant = BotFactoryVariant(rulings=Rulings(additional_actions=reading))
    for players in (2, 4):
        game = BotFactoryGame(players=players, variant=variant)
        for seed in range(3):
            for before, _action, _after in steps(game, seed):
                for seat in range(players):
                    placed = assembly.placements(game, before, seat)
                    assert _whole(placed) and all(a is game._action(PlacePart, a.part, a.colour) for a in placed)
                    icon = assembly.icon_options(game, before, seat)
                    assert _whole(icon) and all(a is game._action(TakeTop, a.colour) for a in icon[:-1])
                    refill = production.refill_options(game, before, seat % 2)
                    assert _whole(refill) and all(a is game._action(Refill, a.position, a.colour) for a in refill[:-1])
                    offered, spaces = moves.move_options(game, before, seat)
                    assert _whole(offered) and spaces == frozenset(m.space for m in offered)
                takes = projects.project_options(game, before)
                assert _whole(takes) and all(a is game._action(TakeProject, a.column, a.row) for a in takes)
                if before.phase.value != "over":
                    assert _whole(game.legal_actions(before))
                seen += 1
    assert seen > 3000


def test_the_memos_hold_shared_values_and_untracked_keys() -> None:
    """After seeded play: every options memo value is the one tuple the game keeps for those very objects;
    its TakeProject, PlacePart, TakeTop and Refill objects are one per class and arguments (at most 6, 24,
    4 and 8 of them); the move memo's answers are one per tuple of spaces; the chance memo's pairs are the
    shared ones; and once collected, the collector tracks none of the options, move and chance memos' keys
    nor the action tables' keys (tuples of strings, ints and None)."""
    game = BotFactoryGame(players=4)
    for seed in range(12):
        for _ in steps(game, seed):
            pass
    for _ in range(3):  # a tuple is untracked once those it holds are: one pass per level of nesting
        gc.collect()
    tables = game.memos
    memo = game._options_memo
    assert len(memo) > 500
    distinct: dict[type, set[int]] = {}
    for key, value in memo.items():
        assert tables["offers"][tuple(map(id, value))] is value
        for a in value:
            distinct.setdefault(type(a), set()).add(id(a))
        assert not gc.is_tracked(key), key
    assert len(distinct[TakeProject]) <= 6 and len(distinct[PlacePart]) <= 24
    assert len(distinct.get(TakeTop, ())) <= 4 and len(distinct.get(Refill, ())) <= 8
    answers = {}
    for key, (offered, spaces) in game._move_memo.items():
        assert not gc.is_tracked(key), key
        assert answers.setdefault(tuple(sorted(spaces)), (offered, spaces)) == (offered, spaces)
        assert tables["move_offers"][tuple(m.space for m in offered)] is game._move_memo[key]
    assert len(game._move_memo) > 2 * len(tables["move_offers"])
    pairs = {id(pair) for pair in tables["outcome_pairs"].values()}  # the table holds them: no id reused
    assert len(game._chance_memo) > 100
    for key, outcomes in game._chance_memo.items():
        assert not gc.is_tracked(key), key
        assert all(id(pair) in pairs for pair in outcomes)
    for table in game._action_memo.values():
        for key in table:
            assert not gc.is_tracked(key), key


def test_the_chance_outcomes_share_their_pairs_of_whole_draws_and_fractions() -> None:
    """At every chance node of seeded 2- and 4-player games, warm and cold: whole draw objects with exact
    Fractions (the refinement harness compares probabilities by ``==``, which a float would pass); two
    answers with an equal outcome share the one pair object (the same index drawn with the same count out
    of the same total)."""
    seen = 0
    for players in (2, 4):
        game = BotFactoryGame(players=players)
        cold = BotFactoryGame(players=players)
        pairs: dict[tuple[str, int, int, int], tuple[Any, Fraction]] = {}
        for seed in range(4):
            for before, _action, _after in steps(game, seed):
                if not before.draws:
                    continue
                warm = game.chance_outcomes(before)
                for got in (warm, _cold(cold).chance_outcomes(before)):
                    assert got and _whole(a for a, _p in got)
                    assert all(type(p) is Fraction for _a, p in got)
                what, counts = draws.chance_key(game, before)
                if what == "contract":
                    drawn = [(i, 1, len(counts)) for i in counts]
                else:
                    drawn = [(i, k, sum(counts)) for i, k in enumerate(counts) if k]
                for (i, k, n), pair in zip(drawn, warm, strict=True):
                    assert pairs.setdefault((what, i, k, n), pair) is pair
                seen += 1
    assert seen > 1000


def test_play_with_tables_emptied_on_the_way_refines_the_reference() -> None:
    """A game whose memos and tables are emptied every few steps (as their bounds clear them in a long
    campaign; objects made afresh, older shared tuples dropped) still agrees with the reference engine at
    every state of seeded games (the refinement harness's ``difference``: legal actions, successors, chance
    outcomes; docs/refinement.md)."""
    for players in (2, 4):
        emptied = load_game("botfactory", players=players)
        assert isinstance(emptied, BotFactoryGame)
        ref = reference_of(emptied)
        for seed in range(3):
            states = 0
            for state, _trace in walk_states(emptied, seed, emptied.info.max_length):
                found = difference(emptied, ref, state)
                assert found is None, (seed, states, found)
                states += 1
                if states % 7 == 0:
                    _cold(emptied)
                elif states % 5 == 0:
                    for name, memo in emptied.memos.items():  # the tables only misses read
                        if name in ("offers", "move_offers", "moves", "chance_sets", "outcome_pairs"):
                            memo.clear()
                elif states % 3 == 0:
                    emptied._action_memo.clear()
            assert states > 300


def test_shared_finds_the_very_objects_only() -> None:
    """``_shared``: a tuple of the very objects stored before gives the stored tuple; an equal tuple of other
    (equal) objects is stored as itself, not answered with the first; the stored tuples hold their objects
    (no id of theirs is reused); the table is cleared past 20,000 entries and answers as before."""
    game = BotFactoryGame(players=4)
    a, b = TakeProject(0, 1), TakeProject(1, 2)
    first = game._shared((a, b))
    assert first == (a, b) and game._shared((a, b)) is first
    other = (TakeProject(0, 1), TakeProject(1, 2))
    assert game._shared(other) is other and game._shared((other[0], other[1])) is other
    assert game._shared((b, a)) is not first and game._shared(()) == ()
    ids = (id(first[0]), id(first[1]))
    del a, b
    gc.collect()
    assert game._shared(first) is first and (id(first[0]), id(first[1])) == ids  # held, not reused
    for i in range(20_001):
        game._shared((TakeProject(0, i), TakeProject(1, i)))
    assert len(game.memos["offers"]) <= 20_001
    again = (TakeProject(0, 0), TakeProject(1, 0))
    assert game._shared(again) == again and game._shared(again) is game._shared(again)


def test_the_action_tables_give_one_object_per_class_and_arguments() -> None:
    """``_action``: equal arguments give the very object, other classes with the same arguments their own;
    the table of a class is cleared past 50,000 entries (objects made afresh, equal)."""
    game = BotFactoryGame(players=4)
    x = game._action(TakeProject, 0, 1)
    assert x is game._action(TakeProject, 0, 1) and _same(x, TakeProject(0, 1))
    assert game._action(Refill, 0, "red") is not game._action(TakeTop, "red")
    for i in range(50_002):
        game._action(MoveWorker, i)
    assert len(game._action_memo[MoveWorker]) <= 50_001
    assert _same(game._action(TakeProject, 0, 1), x)


def test_the_game_keeps_few_attributes() -> None:
    """The game object keeps at most 29 attributes after random, greedy and checked play: under CPython 3.11
    an object with more loses its shared-key dictionary, and every ``self.x`` read of Bot Factory's rooms
    gets slower (random play 4-5%, measured); the memos live in ``game.memos``."""
    from bgrules.agents import make_agent
    from bgrules.runners.specfile import default_invariants

    game = BotFactoryGame(players=4)
    for _ in steps(game, 0):
        pass
    for _ in walk(game, 1, agents=[make_agent("greedy") for _ in range(4)], max_rounds=3):
        pass
    from pathlib import Path

    specs = Path(__file__).resolve().parents[2] / "specs"
    preds = [(kind, pred) for _id, kind, pred in default_invariants("botfactory", 4, specs) if kind == "state"]
    for _before, _action, after in walk(game, 2, max_rounds=3):
        for _kind, pred in preds:
            assert pred(game, after) is None
    assert len(vars(game)) <= 29, sorted(vars(game))
    assert isinstance(game.memos, Memos) and not hasattr(game.memos, "__dict__")


def test_the_options_memo_keys_are_one_level_deep() -> None:
    """Every options memo key (placements, Project takes, icon and refill offers, additional actions) is a
    tuple of strings, ints, None and tuples of those only: the collector stops tracking such a key at the
    first collection that sees it, where a key holding a tuple of tuples (the columns, the grid, the piles)
    often stayed tracked into the oldest generation. After seeded play the memo holds every kind."""
    atoms = (str, int, type(None))
    game = BotFactoryGame(players=4)
    for seed in range(6):
        for _ in steps(game, seed):
            pass
    kinds = set()
    for key in game._options_memo:
        kinds.add(key[0])
        for part in key:
            assert isinstance(part, atoms) or (type(part) is tuple and all(isinstance(x, atoms) for x in part)), key
    assert {"place", "take", "icon", "refill", 0, 1, 2} <= kinds


@pytest.mark.parametrize("unpaid", ["nothing", "additional_only"])
def test_the_window_and_move_memo_keys_are_flat(unpaid: str) -> None:
    """BF-ADDITIONAL's window seats (memoised per Sandra, order, workers and who paid her) and BF-MOVE's
    targets are memoised on flat tuples of ints and None (untracked by the collector), under both readings
    of ``unpaid_share``, after seeded 2- and 4-player games. (The seats themselves are the harness's:
    random_play[botfactory-*] and every_ruling[botfactory-*-unpaid_share=additional_only].)"""
    for players in (2, 4):
        game = BotFactoryGame(players=players, variant=BotFactoryVariant(rulings=Rulings(unpaid_share=unpaid)))
        for seed in range(3):
            for _ in steps(game, seed):
                pass
        assert game._window_memo and game._move_memo
        for key in game._window_memo:
            assert all(isinstance(x, (int, type(None))) for x in key), key
        for key in game._move_memo:
            assert all(isinstance(x, (int, type(None))) for x in key), key
