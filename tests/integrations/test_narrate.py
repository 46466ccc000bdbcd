"""Each step in game terms (bgrules.pictures.narrate.describe): who acted and what changed, as a player reads
the board, for every step of seeded playouts of each game; the words name the parts the state shows (the part
taken from the Wheel, the Fork's bot and its way out, the landing place of a throw); the step that ends a game
gives the result; never a field path."""

from __future__ import annotations

import re
from typing import Any

import pytest

import bgrules
from bgrules.agents import make_agent
from bgrules.core.playout import walk
from bgrules.pictures.narrate import describe

CONFIGS = [("mechanica", 2, {}), ("mechanica", 4, {}), ("botfactory", 3, {}), ("botfactory", 2, {"max_rounds": 2}),
           ("mechanica-factory", 1, {})]  # fmt: skip
FIELD_PATH = re.compile(r"\w\[\d+\]|\b(?:run|seats|hands|state)\.\w")
"""What a field path looks like (``seats[0].wallet``, ``run.factory``): never in the words."""


def steps(game: Any, seed: int, agent: str) -> list[tuple[Any, Any, Any]]:
    return list(walk(game, seed, agents=[make_agent(agent) for _ in range(game.players)]))


@pytest.mark.parametrize(("name", "players", "options"), CONFIGS, ids=[f"{n}-{p}p" for n, p, _ in CONFIGS])
def test_every_step_of_a_playout_says_who_acted_in_game_terms(name: str, players: int, options: Any) -> None:
    game = bgrules.load_game(name, players=players, **options)
    for agent, seed in (("random", 1), ("greedy", 2)):
        walked = steps(game, seed, agent)
        for before, action, after in walked:
            words = describe(game, before, action, after)
            mover = game.to_move(before)
            who = "Chance" if mover is bgrules.CHANCE else f"P{int(mover) + 1}"
            assert words.startswith(who), f"{words!r} names the one who acted ({who})"
            assert repr(action) not in words and not FIELD_PATH.search(words), words
        final = walked[-1][2]
        if game.is_terminal(final):
            words = describe(game, *walked[-1])
            assert "Game over." in words and "Winner" in words
            for i, score in enumerate(game.scores(final)):
                assert f"Player {i + 1} {score}" in words


def test_a_part_taken_from_the_wheel_is_named() -> None:
    game = bgrules.load_game("botfactory", players=3)
    found = 0
    for seed in range(4):
        for before, action, after in steps(game, seed, "random"):
            if type(action).__name__ == "TakeOutput":
                colour, _, slot = before.wheel[action.position].partition("-")
                part = f"Universal {slot}" if colour == "any" else f"{colour} {slot}"
                seat = game.to_move(before)
                assert describe(game, before, action, after).startswith(f"P{seat + 1} took the {part} from the Wheel")
                found += 1
    assert found


FORK_SPLIT = "hole[B]  | .  .    .  . | truck\nbasic[P] | .  FK0  .  . | truck\nhole     | .  .    .  . | truck\n"
FLIGHT = "hole | . . . . | truck\nbasic[B] | FK0 FT0 UP0 . | truck\nhole | . . . . | truck\n"
"""docs/ruling-diff.md's flight example."""


def test_a_workday_step_names_the_tile_the_bot_and_where_it_goes() -> None:
    game = bgrules.load_game("mechanica-factory", factory=FORK_SPLIT, supply=[], days=1)
    state = game.initial_state()
    north = next(a for a in game.legal_actions(state) if a.exit.name == "N")
    after = game.apply(state, north)
    assert describe(game, state, north, after) == "P1's Fork on row 1, column 1 sent the Plus bot north"
    keep = game.legal_actions(after)[0]
    words = describe(game, after, keep, game.apply(after, keep))
    assert words.startswith(f"P1 destroyed a {keep.bot.name.title()} bot of those crowding the truck of row 0")
    game = bgrules.load_game("mechanica-factory", factory=FLIGHT, supply=[], days=1,
                             variant={"rulings": {"flight": "both_ways", "flight_landing": "any_cell"}})  # fmt: skip
    state = game.initial_state()
    east = next(a for a in game.legal_actions(state) if a.exit.name == "E")
    state = game.apply(state, east)
    fly = next(a for a in game.legal_actions(state) if (a.to_row, a.to_col) == (1, 0))
    words = describe(game, state, fly, game.apply(state, fly))
    assert words.startswith("P1's Flight Tester on row 1, column 1 threw the Basic bot onto row 1, column 0 (Fork)")
