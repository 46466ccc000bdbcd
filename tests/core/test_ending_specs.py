"""The end, scoring and tie-break specs (bgrules.botfactory.ending, bgrules.mechanica.ending): they hold
along seeded playouts, and each fails on a wrong game (scores, winners) or a wrong step (the end)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import attrs
import pytest

import bgrules
from bgrules.botfactory import ending as bf
from bgrules.core.playout import walk
from bgrules.mechanica import ending as mc
from bgrules.runners.clarify import start_state

ROOT = Path(__file__).resolve().parents[2]


def _witness_start(game: Any, file: str, name: str) -> Any:
    data = tomllib.loads((ROOT / "specs" / "clarifications" / file).read_text(encoding="utf-8"))
    (w,) = [w for w in data["witness"] if w["name"] == name]
    return _start(game, w["start"])


def _start(game: Any, patch: Any) -> Any:
    return start_state(game, json.loads(patch) if isinstance(patch, str) else patch)


def _steps(game: Any, seed: int) -> list[tuple[Any, Any, Any]]:
    return list(walk(game, seed))


@pytest.mark.parametrize("players", [2, 4])
def test_botfactory_end_specs_hold_along_playouts(players: int) -> None:
    game = bgrules.load_game("botfactory", players=players, max_rounds=4)  # every game ends, scored
    for seed in range(3):
        steps = _steps(game, seed)
        assert game.is_terminal(steps[-1][2])
        for before, action, after in steps:
            assert bf.ends_when_the_seed_says(game, before, action, after) is None
            assert bf.scores_and_winners(game, after) is None


def test_botfactory_end_by_a_colour_holds_and_each_wrong_step_fails() -> None:
    # the BF-CL-END-BOTS scenario: the second red bot (2 players) ends the game after maintenance
    game = bgrules.load_game("botfactory", players=2)
    data = tomllib.loads((ROOT / "specs" / "clarifications" / "bf-end-bots.toml").read_text(encoding="utf-8"))
    (w,) = [w for w in data["witness"] if w["name"] == "second-red-bot-ends-the-game"]
    from bgrules.core.codec import action_from_data

    state = _start(game, w["start"])
    pairs = []
    for a in w["actions"]:
        action = action_from_data(a, game.ACTIONS)
        after = game.apply(state, action)
        assert bf.ends_when_the_seed_says(game, state, action, after) is None
        pairs.append((state, action, after))
        state = after
    before, action, final = pairs[-1]
    assert game.is_terminal(final) and bf.seed_end_triggered(game, final) == "BF-END-COLOUR"
    assert bf.scores_and_winners(game, final) is None
    # ended before maintenance: the completed red bot still stands
    standing = attrs.evolve(final, columns=(("red-head", "red-torso", "red-legs"), *final.columns[1:]))
    assert "before maintenance" in str(bf.ends_when_the_seed_says(game, before, action, standing))
    # ended with no trigger met (the second red bot not built)
    hands = (attrs.evolve(final.hands[0], done=("red",)), *final.hands[1:])
    assert "no end trigger" in str(bf.ends_when_the_seed_says(game, before, action, attrs.evolve(final, hands=hands)))
    # play went on into a new round though the trigger was met
    going = attrs.evolve(final, phase=before.phase, round=final.round + 1)
    assert "began though BF-END-COLOUR" in str(bf.ends_when_the_seed_says(game, before, action, going))


def test_botfactory_scores_spec_fails_on_wrong_scores_and_ties(monkeypatch: pytest.MonkeyPatch) -> None:
    game = bgrules.load_game("botfactory", players=2)
    tied = _witness_start(game, "bf-tie.toml", "more-bots-wins")
    assert bf.seed_scores(game, tied) == (4, 4) and bf.scores_and_winners(game, tied) is None
    odd = _witness_start(game, "bf-tie.toml", "odd-tokens-win")
    assert bf.seed_winners(game, odd, bf.seed_scores(game, odd)) == (0,) and bf.scores_and_winners(game, odd) is None
    # a point per three tokens (not two): the odd-tokens position holds 3 and 2 tokens
    real_scores = game.scores

    def thirds(s: Any) -> tuple[int, ...]:
        return tuple(x - h.tokens // 2 + h.tokens // 3 for x, h in zip(real_scores(s), s.hands, strict=True))

    monkeypatch.setattr(game, "scores", thirds)
    assert "scores" in str(bf.scores_and_winners(game, odd))
    monkeypatch.undo()
    # the tie-break reversed: fewer bots wins
    monkeypatch.setattr(game, "winners", lambda s: (1,))
    assert "winners [1]" in str(bf.scores_and_winners(game, tied))
    # not terminal: nothing to score
    assert bf.scores_and_winners(game, attrs.evolve(tied, phase=game.initial_state().phase)) is None


def test_mechanica_end_specs_hold_along_playouts_and_wrong_ends_fail() -> None:
    game = bgrules.load_game("mechanica", players=2)
    steps = _steps(game, 0)
    for before, action, after in steps:
        assert mc.ends_when_the_seed_says(game, before, action, after) is None
        assert mc.scores_and_winners(game, after) is None
    before, action, final = steps[-1]
    assert game.is_terminal(final) and mc.seed_end_met(final)
    # the game ended with a tile left on the Shop
    key = next(k for k in game.variant.catalogue.tiles)
    shop = attrs.evolve(final, wheel=(key, *final.wheel[1:]))
    assert "1 in the Shop" in str(mc.ends_when_the_seed_says(game, before, action, shop))
    # a new day began though the deck and the Shop were empty at the day's end
    day = next((b, a, x) for b, a, x in steps if x.day != b.day)
    emptied = attrs.evolve(day[2], deck=(0,) * len(day[2].deck), wheel=(None,) * len(day[2].wheel))
    assert "began though" in str(mc.ends_when_the_seed_says(game, day[0], day[1], emptied))


def test_mechanica_scores_spec_fails_on_wrong_scores_and_ties(monkeypatch: pytest.MonkeyPatch) -> None:
    game = bgrules.load_game("mechanica", players=2)
    data = tomllib.loads((ROOT / "specs" / "clarifications" / "mc-tie.toml").read_text(encoding="utf-8"))
    tied = _start(game, data["witness"][0]["start"])
    assert mc.seed_scores(game, tied) == (10, 10) and mc.scores_and_winners(game, tied) is None
    monkeypatch.setattr(game, "winners", lambda s: (0,))  # a tie broken though the ruling shares it
    assert "winners [0]" in str(mc.scores_and_winners(game, tied))
    monkeypatch.undo()
    seats = (attrs.evolve(tied.seats[0], vault=1), *tied.seats[1:])  # the recomputation reads the vault
    assert mc.seed_scores(game, attrs.evolve(tied, seats=seats)) == (11, 10)
    monkeypatch.setattr(game, "scores", lambda s: (10, 10))  # an engine that forgets the vault
    assert "scores [10, 10]" in str(mc.scores_and_winners(game, attrs.evolve(tied, seats=seats)))
