"""The fast engines refine the reference engines (bgrules.core.refinement, docs/refinement.md): along
seeded random and greedy playouts of every game, for every player count and under every value of every
ruling switch, the two agree at every state (legal actions in order, each successor, chance outcomes with
their probabilities, the terminal test, scores and winners). One harness for all of them; heavier sweeps
(more games, every ruling at every player count) under ``-m heavy``.

These walks also hold the fast engine's speed paths (its memos, shared objects and generated copiers;
docs/speed.md) to the rules: each memoised answer the fast engine plays by (the options of every room, the
moves, placements, window seats, turn openings, limits, chance outcomes, Blueprint completions, sales and
board options) is checked here through the legal actions and successors it gives, under the rulings and
player counts it reads. What the speed machinery is beside its answers (objects shared, memos bounded,
copies slot for slot) is tested in the fast-path and memo tests of tests/botfactory/, tests/mechanica/ and
tests/core/."""

from __future__ import annotations

import random
import typing
from typing import Any

import attrs
import pytest

from bgrules.agents import make_agent
from bgrules.core.refinement import compare_walks, difference, fields_apart, reference_of, walk_states
from bgrules.core.registry import load_game

GAMES = (("botfactory", (2, 3, 4)), ("mechanica", (2, 3, 4)), ("mechanica-factory", (1,)))
EXTRA_VALUES: dict[str, tuple[object, ...]] = {"bots_per_colour_to_end": (1, 2), "bots_per_grade": (3,)}
"""Values to try of the whole-number rulings (the others: every Literal value and both booleans)."""


def readings(name: str) -> list[tuple[str, object]]:
    """(ruling, value) for every value of every ruling of ``name`` other than its default."""
    rulings_class = type(load_game(name).variant.rulings)  # type: ignore[attr-defined]
    hints = typing.get_type_hints(rulings_class)
    out: list[tuple[str, object]] = []
    for field in attrs.fields(rulings_class):
        hint = hints[field.name]
        if typing.get_origin(hint) is typing.Literal:
            values: tuple[object, ...] = typing.get_args(hint)
        elif hint is bool:
            values = (True, False)
        else:
            values = EXTRA_VALUES.get(field.name, ())
        out.extend((field.name, v) for v in values if v != field.default)
    return out


def _pair(name: str, players: int, ruling: tuple[str, object] | None = None, **options: Any) -> tuple[Any, Any]:
    """The fast engine and its reference, which must start alike: the harness walks from the fast
    engine's initial state only (a set-up read differently, e.g. MC-SETUP-EXTRAS under ``extras_4p``,
    would otherwise go unseen)."""
    variant = None if ruling is None else {"rulings": {ruling[0]: ruling[1]}}
    fast = load_game(name, players=players, variant=variant, **options)
    ref = reference_of(fast)
    start, ref_start = fast.initial_state(), ref.initial_state()
    assert start == ref_start, f"initial states: {fields_apart(start, ref_start)}"
    return fast, ref


def _greedy(players: int) -> Any:
    return lambda seed: tuple(make_agent("greedy") for _ in range(players))


def _checked(report: Any) -> None:
    assert report.states > 0
    assert report, f"seed {report.seed}: {report.difference}\n  after {len(report.trace)} steps: {report.trace[-5:]}"


@pytest.mark.parametrize(("name", "players"), [(n, p) for n, counts in GAMES for p in counts])
def test_the_engines_agree_on_random_play(name: str, players: int) -> None:
    """Four whole seeded games (the runner's round cap ends Bot Factory's): seeds 0-3, the games the speed
    tests walked to hold the memoised options, moves, placements, draws and completions to plain answers."""
    fast, ref = _pair(name, players)
    _checked(compare_walks(fast, ref, seeds=range(4), max_steps=1500))


@pytest.mark.parametrize(("name", "players"), [("botfactory", 2), ("mechanica", 3), ("mechanica", 2)])
def test_the_engines_agree_on_greedy_play_to_the_end(name: str, players: int) -> None:
    fast, ref = _pair(name, players)
    report = compare_walks(fast, ref, seeds=[0], agents=_greedy(players))
    _checked(report)
    assert report.finished == 1, "a greedy game ends by the rules: scores and winners compared"


RULING_PLAYERS = {"botfactory": (2, 3, 4), "mechanica": (3, 4), "mechanica-factory": (1,)}
"""The player counts every ruling is walked at in the default run (every count under ``-m heavy``). The
fast engine's memos key on the seats (Bot Factory's window seats, moves and openings; Mechanica's four-player
extras), so the rulings are walked at more than one count."""

SHORT_WALKS = {("mechanica", 4, ("loop", "forbid")): 80}
"""Walks cut short in the default run: under loop = "forbid" every placement looks for a loop (the whole
game at three players here, at every count under ``-m heavy``)."""


def _playable(name: str, players: int, ruling: tuple[str, object] | None) -> bool:
    """Whether the loader takes the ruling at that player count: three bots of a grade are too few for
    four Mechanica starting factories (``bots_per_grade = 3``)."""
    return not (name == "mechanica" and ruling == ("bots_per_grade", 3) and players > 3)


def _ruling_cases() -> list[Any]:
    cases = []
    for name, counts in RULING_PLAYERS.items():
        for players in counts:
            for ruling in readings(name):
                if not _playable(name, players, ruling):
                    continue
                ident = f"{name}-{players}p-{ruling[0]}={ruling[1]}"
                cases.append(pytest.param(name, players, ruling, id=ident))
    return cases


@pytest.mark.parametrize(("name", "players", "ruling"), _ruling_cases())
def test_the_engines_agree_under_every_ruling(name: str, players: int, ruling: tuple[str, object]) -> None:
    """One seeded random game under each reading of each ruling, at each count of ``RULING_PLAYERS``."""
    fast, ref = _pair(name, players, ruling)
    steps = SHORT_WALKS.get((name, players, ruling), 1200)
    _checked(compare_walks(fast, ref, seeds=[1], max_steps=steps))


def _final_positions(fast: Any, seeds: range, every: int, rng: random.Random) -> list[Any]:
    """Every ``every``-th state of seeded random games, ended where it stands (BF-END's OVER), with random
    contracts on display, each reserved by up to two seats, and random built bots in every hand: the
    contract assignments of BF-SCORE that play seldom reaches (several contracts per seat, met or not)."""
    from bgrules.botfactory.state import Phase

    pool, colours = sorted(fast.contracts), fast.colours
    out = []
    for seed in seeds:
        for i, (state, _trace) in enumerate(walk_states(fast, seed, max_steps=1500)):
            if i % every:
                continue
            display = tuple(rng.choice(pool) for _ in state.display)
            reserved = tuple(tuple(rng.sample(range(fast.players), rng.randint(0, 2))) for _ in display)
            hands = tuple(
                attrs.evolve(h, done=tuple(sorted(rng.choice(colours) for _ in range(rng.randint(0, 6)))))
                for h in state.hands
            )
            ended = dict(phase=Phase.OVER, turn=None, draws=(), window=())
            out.append(attrs.evolve(state, display=display, reserved=reserved, hands=hands, **ended))
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_engines_agree_on_the_scores_of_rich_final_positions(players: int) -> None:
    """BF-SCORE and BF-TIE on final positions with many reservations (``_final_positions``): the same
    scores and winners, asked twice (the second answer the fast engine's contract memo's). No ruling enters
    BF-SCORE or BF-TIE (``reservation_tokens``: the space's value under every reading); the player count
    does (who reserves, whose bots). Random play seldom ends a game before the runner's round cap, so the
    walks above compare few scores."""
    from bgrules.botfactory.reference import ending

    fast, ref = _pair("botfactory", players)
    signs = set()
    for state in _final_positions(fast, range(2), 10, random.Random(players)):
        for _ in range(2):
            found = difference(fast, ref, state)
            assert found is None, found
        signs.update(
            (ending.contract_score(ref, state, seat) > 0) - (ending.contract_score(ref, state, seat) < 0)
            for seat in range(players)
        )
    assert signs == {-1, 0, 1}, "contracts met and contracts missed were scored"


def test_the_engines_agree_on_a_short_capped_bot_factory() -> None:
    fast, ref = _pair("botfactory", 4, max_rounds=2)
    report = compare_walks(fast, ref, seeds=range(3))
    _checked(report)
    assert report.finished == 3


@pytest.mark.heavy
@pytest.mark.parametrize(("name", "players"), [(n, p) for n, counts in GAMES for p in counts])
def test_the_engines_agree_on_many_games_under_every_ruling(name: str, players: int) -> None:
    for ruling in [None, *readings(name)]:
        if not _playable(name, players, ruling):
            continue
        fast, ref = _pair(name, players, ruling)
        _checked(compare_walks(fast, ref, seeds=range(4)))
        _checked(compare_walks(fast, ref, seeds=[7], agents=_greedy(players)))
