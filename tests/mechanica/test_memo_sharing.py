"""Mechanica's memos hold few objects for the cyclic collector (issue 12, item 3; docs/speed.md, the
collector in long runs).

The collector's full passes visit every tracked object the memos keep alive, so the memos now keep shared
instances where many entries had fresh equal ones: the sales per the trucks' loads (a bytes key, the
option lists shared), the board options (per layout three numbers, the places of its Fork, truck and
demolition tuples, the trucks shared, the Forks and demolitions kept from a layout's second time on), the
Blueprint completions (each ``Complete`` and each list), the Blueprint reveals' (Reveal, probability) pairs, the
movement tables' Steps and tuples of Steps, and the (kind, rotation) entries of the board layouts the memos
are keyed on (so the keys are untracked). Along seeded random playouts equal values are the very same
object in the memos, and the memos, emptied at their bounds, answer as before.

That the memoised answers are the rules' (the sales, the placements and recycling of a waiting tile, the
reveals, the board options, the completions, the movement options of a run) is the refinement harness's:
tests/refinement/test_engines.py compares the fast engine with the reference engine at every state.
"""

from __future__ import annotations

import gc
import itertools

import pytest
from support.mechanica_rulings import ruled_game
from support.walks import states

from bgrules.core.protocol import CHANCE
from bgrules.mechanica import blueprints
from bgrules.mechanica.blueprints import loads_key
from bgrules.mechanica.board import _ENTRIES, Truck
from bgrules.mechanica.components import Bot
from bgrules.mechanica.fabricate import sell_options
from bgrules.mechanica.factory import Factory, starting_factory
from bgrules.mechanica.game import MechanicaGame
from bgrules.mechanica.movement import _SHARED_STEPS, TABLES, options_table
from bgrules.mechanica.state import MechanicaState, Phase


def _check_state(game: MechanicaGame, state: MechanicaState, counts: dict[str, int]) -> None:
    """The sharing of every memoised answer about ``state``."""
    phase = state.phase
    if phase is Phase.SELL:
        seat = state.seats[state.current]
        legal = game.legal_actions(state)
        memo = game._sell_memo[loads_key(seat.factory.dock)]
        assert game._sell_shared[memo] is memo
        assert all(a is b for a, b in zip(legal, memo, strict=False))  # the legal actions are the shared ones
        counts["sell"] += 1
    if phase is Phase.REVEAL:
        n = len(state.bp_pool)
        for c, pair in zip(state.bp_pool, game.chance_outcomes(state), strict=True):
            assert game._reveal_pairs[(c, n)] is pair  # the same card of a pool of the same size: one pair
        counts["reveal"] += 1
    if game.to_move(state) is not CHANCE and phase is not Phase.OVER and phase is not Phase.RUN:
        for seat in state.seats:
            forks, trucks, demolitions = blueprints.board_options(game, seat.factory)
            layout, parts = seat.factory.layout, game._board_parts
            known = game._board_memo[layout]
            assert parts[known[1]] is trucks and known[1] == game._dock_memo[layout[2]]  # trucks shared
            assert (known[0] < 0) == (known[2] < 0)  # Forks and demolitions kept from the second time on
            if known[0] >= 0:
                assert parts[known[0]] is forks and parts[known[2]] is demolitions
                counts["kept"] += 1
            game._last_board = None
            again = blueprints.board_options(game, seat.factory)  # asked again: kept, the same answer
            known = game._board_memo[layout]
            assert again == (forks, trucks, demolitions) and known[0] >= 0 and known[2] >= 0
            assert parts[known[0]] is again[0] and parts[known[2]] is again[2]
            if any(t.load for t in seat.factory.dock):
                found = blueprints.complete_options(game, state, seat)
                assert game._complete_shared[found] is found
                assert all(game._complete_shared[action] is action for action in found)
                counts["complete"] += len(found)
        counts["boards"] += 1
    for seat in state.seats:  # each layout's floor entries: the shared tuple of each (kind, rotation)
        cells = seat.factory.layout[0]
        assert all(entry is None or _ENTRIES[entry] is entry for entry in cells)
        assert cells == tuple(None if p is None else (p.kind, p.rotation) for p in seat.factory.floor)
    if state.run is not None:
        for steps in options_table(state.run.factory, game.variant).values():
            assert _SHARED_STEPS[steps] is steps
            assert all(_SHARED_STEPS[step] is step for step in steps)
            counts["nodes"] += 1


@pytest.mark.parametrize("players", [4, 2])
def test_the_memos_hold_shared_answers_along_playouts(players: int) -> None:
    game = ruled_game("default", None, players)
    counts = dict.fromkeys(("sell", "reveal", "boards", "complete", "nodes", "kept"), 0)
    for seed in range(3):
        for state in states(game, 7_000 + seed):
            _check_state(game, state, counts)
    assert counts["sell"] > 20 and counts["reveal"] > 3 and counts["boards"] > 200
    assert counts["complete"] > 0 and counts["nodes"] > 100 and counts["kept"] > 100


def test_the_sales_read_only_the_loads() -> None:
    """MC-SELL: the sales a dock allows depend on its loads alone (what the bytes key keeps), whatever the
    trucks' kinds; two docks with different loads never share a key (tested in tests/mechanica/test_fast_paths.py)."""
    kinds = ("truck", "big_truck", "huge_truck")
    loads = [tuple(sorted(c)) for n in range(3) for c in itertools.combinations_with_replacement(Bot, n)]
    board = starting_factory()
    for split in itertools.product(loads, repeat=3):
        expected = None
        for dock_kinds in itertools.product(kinds, repeat=3):
            factory = board
            for r in range(3):
                factory = factory.with_truck(r, Truck(dock_kinds[r], split[r]))
            found = sell_options(factory)
            expected = found if expected is None else expected
            assert found == expected


def test_the_memos_hold_shared_objects_after_long_play() -> None:
    """After a run of games the memos hold one instance per distinct value: the sales' keys are bytes, the
    options tables' Steps and the completions' actions are each one object per value, the reveals' pairs one
    per (card, pool size)."""
    game = ruled_game("default", None, 4)
    for seed in range(6):
        for _ in states(game, 8_000 + seed):
            pass
    assert game._sell_memo and all(type(key) is bytes for key in game._sell_memo)
    assert len({id(v) for v in game._sell_memo.values()}) == len(set(game._sell_memo.values()))
    steps = [
        step for table in game.variant.catalogue.memos[TABLES].values() for value in table.values() for step in value
    ]
    assert len(steps) > 100 and len({id(s) for s in steps}) == len(set(steps))
    completions = [c for found in game._complete_memo.values() for c in found]
    assert completions and len({id(c) for c in completions}) == len(set(completions))
    pairs = [pair for found in game._reveal_memo.values() for pair in found]
    assert pairs and len({id(p) for p in pairs}) == len({(p[0].card, p[1]) for p in pairs})
    parts = game._board_parts  # each kept tuple once, the memo's values numbers only
    kept = [p for p in parts if p]  # (the empty tuple is one object everywhere)
    assert len({id(p) for p in kept}) == len(kept)
    assert all(type(i) is int for known in game._board_memo.values() for i in known)
    trucks = [known[1] for known in game._board_memo.values()]
    assert len(set(trucks)) < len(trucks)  # layouts shared their trucks
    gc.collect()
    gc.collect()  # a tuple is untracked once its items are: one pass may meet a layout before its parts
    assert not any(gc.is_tracked(known) for known in game._board_memo.values())
    assert not any(gc.is_tracked(layout) for layout in game._board_memo)  # layouts of shared entries


def test_the_shared_pools_empty_with_their_memos() -> None:
    """The pools of shared instances are bounded as their memos are: emptied when the memo is."""
    game = ruled_game("default", None, 4)
    for _state in states(game, 9_000, max_steps=200):
        pass
    assert game._board_parts
    board = starting_factory()
    fresh = Factory(board.floor, board.start, board.dock)
    want = blueprints.board_options(game, fresh)  # the answer before the memo is filled to its bound
    for i in range(50_001):
        game._board_memo[("filler", i)] = game._board_memo[next(iter(game._board_memo))]
    game._last_board = None
    game._board_memo.pop(fresh.layout, None)  # a layout to work out afresh
    found = blueprints.board_options(game, fresh)
    assert len(game._board_memo) == 1 and len(game._board_parts) == 1  # the trucks; the rest not kept yet
    assert game._board_memo[fresh.layout][0] == game._board_memo[fresh.layout][2] == -1
    assert found == want
    game._last_board = None
    assert blueprints.board_options(game, fresh) == found and len(game._board_parts) == 3  # both kept: twice seen


def test_shared_memo_values_are_not_tracked_keys() -> None:
    """The sales' keys (bytes) and the table Steps' pool hold nothing the collector must visit per entry."""
    game = ruled_game("default", None, 4)
    for _ in states(game, 9_100):
        pass
    gc.collect()
    assert not any(gc.is_tracked(key) for key in game._sell_memo)


def test_the_games_memos_are_one_facility_emptied_together() -> None:
    """Every memo of a Mechanica game is made through its ``memos`` (bgrules.core.memo): after a few seeded
    games they hold answers, ``memos.clear()`` empties them all, and the game answers as before."""
    game = MechanicaGame(players=3)
    seen = list(states(game, 0, max_steps=400))
    assert sum(game.memos.sizes().values()) > 0

    def answers() -> list[object]:
        return [
            game.chance_outcomes(s) if game.to_move(s) is CHANCE else game.legal_actions(s)
            for s in seen
            if not game.is_terminal(s)
        ]

    before = answers()
    game.memos.clear()
    assert set(game.memos.sizes().values()) == {0} and {"board", "sell", "complete", "draw"} <= set(game.memos)
    assert answers() == before
