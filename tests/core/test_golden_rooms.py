"""The golden record of the rooms, and the behaviours its playouts reach too rarely to decide (asked for by the
mutation run of the rooms: docs/mutation.md, "The rooms").

The golden record (tests/support/golden_rooms.py) fixes what a player sees of the rules along seeded playouts under
every reading: the effects and refusals by rule ID, every refusal's message, the scores, winners and end
trigger. The other tests pin behaviours the playouts reach too rarely to decide.
"""

from __future__ import annotations

import json

import attrs
import pytest
from support.golden_rooms import GOLDEN, configs, record

_GOLDEN = json.loads(GOLDEN.read_text(encoding="utf-8"))


def test_the_golden_record_covers_every_config() -> None:
    assert sorted(_GOLDEN) == sorted(key for key, *_ in configs())


@pytest.mark.parametrize("config", configs(), ids=lambda c: c[0])
def test_the_rooms_show_the_same_rules_and_messages(config: tuple) -> None:
    key, name, players, seed, rulings, agents = config
    got = record(name, players, seed, rulings, agents)
    want = _GOLDEN[key]
    for field in ("steps", "refused", "effects", "refusals", "first_message", "end", "messages"):
        assert got[field] == want[field], (
            f"{key}: {field} changed (python tests/support/golden_rooms.py --write after a deliberate change)"
        )


def test_a_workday_estimate_is_never_read_for_another_variant_at_the_same_address() -> None:
    """Found by the golden record: the greedy agent's memo of workday incomes was keyed on ``id(variant)``
    alone, so a variant made where a freed one had lived (another ruling) read the freed one's incomes and
    the same seed played another game after other games had run in the process."""
    import bgrules
    from bgrules.mechanica import evaluate

    game = bgrules.load_game("mechanica", players=2)
    state = game.initial_state()
    while game.to_move(state) is bgrules.CHANCE:
        state = game.apply(state, game.chance_outcomes(state)[0][0])
    factory, stock, variant = state.seats[0].factory, state.stock, game.variant
    honest = evaluate.run_income(factory, evaluate.start_run(factory, stock, variant), variant)
    other = bgrules.load_game("mechanica", players=2, variant={"rulings": {"flight": "both_ways"}}).variant
    assert other is not variant
    evaluate._MEMO[(id(variant), factory, stock)] = (other, honest + 999.0)  # a stale entry at this address
    assert evaluate.workday_income(factory, stock, variant) == honest
    assert evaluate.workday_income(factory, stock, variant) == honest  # and now memoised for this variant


def test_a_fabricator_laid_over_fuller_holes_returns_the_bots_it_cannot_hold_to_the_stock() -> None:
    """MC-PLACE-START: bots in the covered holes move into the new tile's holes in order; those that do not
    fit go back to the stock (an Overactive Fabricator, one hole, over an Advanced one holding two)."""
    from support.mechanica_positions import B, P, check_invariants, load, setup, with_seat

    from bgrules.mechanica.state import Buy, Next, PlaceFabricator

    g = load(2, fabricator_over_fabricator=True)
    s = setup(g, deal=("advanced_fabricator", "overactive_fabricator"))
    s = with_seat(s, 0, wallet=20)
    s = g.apply(s, Next())
    s = g.apply(g.apply(s, Buy(0)), PlaceFabricator(0))
    factory = s.seats[0].factory
    assert factory.start[0].kind == "advanced_fabricator" and len(factory.start[0].holes) == 2
    full = factory.with_start(0, attrs.evolve(factory.start[0], holes=(B, P)))
    s = with_seat(s, 0, factory=full)
    s = attrs.evolve(s, stock=(s.stock[B] - 1, s.stock[P] - 1, s.stock[2]))  # the two bots come from the stock
    check_invariants(g, s)
    before = s.stock
    s = g.apply(g.apply(s, Buy(1)), PlaceFabricator(0))
    assert s.seats[0].factory.start[0].kind == "overactive_fabricator"
    assert s.seats[0].factory.start[0].holes == (B,)  # the first bot moves into the one hole
    assert s.stock == (before[B], before[P] + 1, before[2])  # the Plus bot goes back to the stock
    check_invariants(g, s)


def test_each_game_info_names_its_players_parameter_with_the_default_count() -> None:
    """GameInfo.parameters: the parameter names with their defaults, the player count among them where the
    game takes one (the default of ``load_game(name)``)."""
    import bgrules

    for name in bgrules.game_names():
        game = bgrules.load_game(name)
        params = dict(game.info.parameters)
        if game.info.max_players > 1:
            assert params["players"] == str(game.players), name
        else:
            assert "players" not in params, name


@pytest.mark.parametrize("module", ["bgrules.mechanica.game", "bgrules.botfactory.game"])
def test_a_game_class_made_directly_names_the_players_field(module: str) -> None:
    """The game classes check their player count themselves too (``load_game`` checks it first): made
    directly, a count out of range is an InputError at ``players``."""
    import importlib

    import bgrules

    mod = importlib.import_module(module)
    cls = next(v for k, v in vars(mod).items() if k.endswith("Game") and isinstance(v, type) and v.__module__ == module)
    with pytest.raises(bgrules.InputError) as info:
        cls(players=5)
    assert info.value.where == "players" and str(info.value).startswith("players: ")
    assert "is for 2 to 4 players, not 5" in str(info.value)


def test_the_whole_load_refusal_counts_the_bots_left_over() -> None:
    """MC-BP-MATCH under "whole": the refusal says how many bots the trucks carry beyond the card."""
    from support.mechanica_positions import B, assert_illegal, blueprint_day_with

    from bgrules.mechanica.state import Complete

    g, s = blueprint_day_with(
        "hole | . . . . | huge[BBB]\nbasic | . . . . | truck[P]\nhole | . . . . | truck\n", blueprint_match="whole"
    )
    exc = assert_illegal(g, s, Complete(0, ((0, B), (0, B), (0, B))), "MC-BP-MATCH")
    assert "carry 1 bot(s) more than Blueprint" in str(exc)


def test_raising_a_value_at_the_top_of_the_track_says_so() -> None:
    """BF-FIN-RAISE: the refusal names the colour at the top (not an error met on the way, which the apply
    guard would report under the action's rule too)."""
    from support.botfactory_positions import ASM0, FIN2, PROJ0, assert_illegal, load, start, with_hand

    from bgrules.botfactory.state import Raise

    g = load(2)
    s = with_hand(start(g, (FIN2, ASM0), sandra=PROJ0, tokens=2), 0, tokens=2)
    s = attrs.evolve(s, values=(g.c.finance.track_max, 3, 3, 3))
    exc = assert_illegal(g, s, Raise("red"), "BF-FIN-RAISE")
    assert str(exc) == "BF-FIN-RAISE: the red value is at the top of the track"


def test_the_last_space_extra_cost_of_the_data_is_what_the_second_payment_takes() -> None:
    """BF-ASM-LAST under ``last_space_toll = "separate"``: after Sandra's token, PayShare pays the last
    space's extra cost as the component data gives it (2 in this variant), not one token."""
    from support.botfactory_positions import ASM0, ASM2, PROD0, load, start, with_spares

    from bgrules.botfactory.state import PayShare

    variant = {"rulings": {"last_space_toll": "separate"}, "boards": {"assembly_last_extra_cost": 2}}
    g = load(2, variant=variant)
    assert g.c.boards.assembly_last_extra_cost == 2
    s = start(g, (ASM2, PROD0), sandra=ASM0, tokens=3, parts=("red-head", "blue-head"))
    s = with_spares(s, ["yellow-legs", None])
    s = g.apply(s, PayShare())  # Sandra's token
    assert s.hands[0].tokens == 2 and s.turn.main == "extra"
    s = g.apply(s, PayShare())  # the last space's two
    assert s.hands[0].tokens == 0 and s.turn.main == "open"


def test_an_action_after_the_end_says_the_game_is_over() -> None:
    """BF-END: once the game is over no action is legal, and the refusal says so."""
    import bgrules
    from bgrules.botfactory.state import EndTurn
    from bgrules.core.playout import playout

    game = bgrules.load_game("botfactory", players=2, max_rounds=1)
    final = playout(game, seed=3).final
    assert game.is_terminal(final)
    with pytest.raises(bgrules.IllegalAction) as info:
        game.apply(final, EndTurn())
    assert str(info.value) == "BF-END: the game is over; no action is legal"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_length_bound_counts_the_additional_action_windows(players: int) -> None:
    """BF-ADDITIONAL: under ``additional_actions = "any_time"`` each round has n + 1 windows in which every
    player may act, n + 2 with the window after the moves (BF-ADDITIONAL-WINDOW, ``opening_window =
    "after_moves"``), so the documented maximum length is larger than under ``"own_turn"``, by the
    windows' moves of every round."""
    import bgrules

    def bound(**rulings: str) -> int:
        game = bgrules.load_game("botfactory", players=players, max_rounds=10, variant={"rulings": rulings})
        return game.info.max_length

    game = bgrules.load_game("botfactory", players=players, max_rounds=10)
    c = game.c.counts
    per_player = 2 * (c.token_cap + c.part_limit + c.project_limit)
    old = bound(additional_actions="any_time", opening_window="none") - bound(additional_actions="own_turn")
    assert old == 10 * players * ((players + 1) + per_player)
    assert bound(additional_actions="any_time") - bound(additional_actions="own_turn") == 10 * players * (
        (players + 2) + per_player
    )
    assert bound(additional_actions="own_turn", opening_window="none") == bound(additional_actions="own_turn")


def test_greedy_bot_factory_games_do_not_depend_on_the_hash_seed() -> None:
    """Determinism: the greedy evaluation once walked a set of colours, so the sampled games of
    BF-INV-LIMITS (greedy seats among them) visited 13,635 states under PYTHONHASHSEED 0 and 13,629 under 2
    (found by `verify --engine ray`, whose workers are fresh processes)."""
    import os
    import re
    import subprocess
    import sys

    cmd = [sys.executable, "-m", "bgrules", "verify", "--only", "BF-INV-LIMITS", "--checker", "sampled", "-j", "1"]
    out = set()
    for hash_seed in ("0", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        done = subprocess.run(cmd, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
        lines = [re.sub(r"\(\d+\.\d+ s\)", "", line) for line in done.stdout.splitlines() if " states" in line]
        assert lines, done.stdout
        out.add(tuple(lines))
    assert len(out) == 1, out


def _red_short_setup(players: int = 2):
    """Bot Factory with one part per colour and slot and a Wheel set up with four red parts: the fourth
    red draw of the set-up finds the red pile and its discard empty. Returns the game and the state after
    the set-up's chance draws (first outcome each time)."""
    import bgrules

    wheel = ["red", "red", "red", "red", "yellow", "blue", "green", "yellow"]
    variant = {"counts": {"parts_per_colour_slot": 1}, "wheel": {"setup": wheel}}
    game = bgrules.load_game("botfactory", players=players, variant=variant)
    state = game.initial_state()
    while game.to_move(state) is bgrules.CHANCE:
        state = game.apply(state, game.chance_outcomes(state)[0][0])
    return game, state


def test_a_set_up_draw_from_an_empty_pile_is_skipped_and_the_next_draws_still_happen() -> None:
    """BF-PILE: a draw that finds its pile and discard empty is skipped, and only that one: the draws
    queued after it (the rest of the Wheel, the Project board) are made.
    Mutants: ``RoundFlow._settle__mutmut_7`` (the skip's copy without its state), ``_settle__mutmut_9``
    (the skip drops the next draw too)."""
    from bgrules.botfactory.state import Phase

    game, state = _red_short_setup()
    assert state.phase is Phase.PICK and not state.draws
    assert state.wheel[:3] == ("red-head", "red-torso", "red-legs")
    assert state.wheel[3] is None  # the fourth red draw found nothing
    assert state.wheel[4:] == ("yellow-head", "blue-head", "green-head", "yellow-torso")
    assert all(t is not None for column in state.grid for t in column)
    assert game.validate(state) == []


def test_a_pick_from_an_empty_pile_says_the_pile_is_empty() -> None:
    """BF-SETUP-PARTS: a player may not take the top part of a colour whose pile and discard are empty, and
    the refusal names the colour. Mutant: ``RoundFlow._pick__mutmut_21`` (the message dropped)."""
    from support.botfactory_positions import assert_illegal

    from bgrules.botfactory.state import TakeTop

    game, state = _red_short_setup()
    assert TakeTop("red") not in game.legal_actions(state)
    exc = assert_illegal(game, state, TakeTop("red"), "BF-SETUP-PARTS")
    assert str(exc) == "BF-SETUP-PARTS: the red pile is empty"


@pytest.mark.parametrize(
    ("name", "options", "want", "doc"),
    [
        ("botfactory", {"additional_actions": "own_turn"}, {2: 12_760, 3: 18_240, 4: 23_720}, "botfactory.md"),
        ("botfactory", {"opening_window": "none"}, {2: 16_040, 3: 23_280, 4: 30_600}, "botfactory.md"),
        ("botfactory", {"additional_actions": "any_time"}, {2: 16_120, 3: 23_400, 4: 30_760}, "botfactory.md"),
        ("mechanica", {}, {2: 2_348_890, 3: 2_376_592, 4: 2_395_492}, "mechanica.md"),
    ],
    ids=["botfactory-own_turn", "botfactory-no-opening-window", "botfactory-any_time", "mechanica"],
)
def test_the_length_bound_is_the_documented_one(name: str, options: dict, want: dict, doc: str) -> None:
    """``info.max_length`` is the figure docs/rules/<game>.md gives for each player count with the default
    data (Bot Factory: Termination, 4; Mecha Nica: MC-END-BOUND). Mutants:
    ``BotFactoryGame._max_length__mutmut_19`` (4 x the largest board space for 3 x) and
    ``DayRoom._max_length__mutmut_6`` (turns from the tiles less the extras)."""
    import pathlib

    import bgrules

    text = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "rules" / doc).read_text(encoding="utf-8")
    variant = {"rulings": options} if options else None
    for players, bound in want.items():
        assert f"{bound:,}" in text, (doc, bound)
        assert bgrules.load_game(name, players=players, variant=variant).info.max_length == bound, players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_too_few_bots_per_grade_for_the_players_starting_bots_is_refused(players: int) -> None:
    """MC-SETUP-BOT: every player starts with a Basic bot from the stock, so ``bots_per_grade`` below the
    player count is refused at load (an InputError at ``variant``); the player count itself loads.
    Mutant: ``MechanicaGame.__init____mutmut_51`` (the check's sign flipped: never refused)."""
    import bgrules

    def load(per_grade: int):
        return bgrules.load_game("mechanica", players=players, variant={"rulings": {"bots_per_grade": per_grade}})

    assert load(players).players == players
    with pytest.raises(bgrules.InputError) as info:
        load(players - 1)
    assert info.value.where == "variant"
    assert str(info.value) == f"variant: bots_per_grade {players - 1} is too small for {players} players"


@pytest.mark.parametrize("row", [3, 7])
def test_a_fabricator_placed_below_the_start_zone_names_its_rows(row: int) -> None:
    """MC-PLACE-START: a bought fabricator tile laid on a row the Start Zone does not have is refused with
    the rows it has (not a failure met on the way). Mutant: ``ShopRoom._place__mutmut_29`` (the covered
    tile read at any row)."""
    from support.mechanica_positions import assert_illegal, load, setup, with_seat

    from bgrules.mechanica.state import Buy, Next, PlaceFabricator

    g = load(2)
    s = setup(g, deal=("advanced_fabricator", "overactive_fabricator"))
    s = g.apply(with_seat(s, 0, wallet=20), Next())
    s = g.apply(s, Buy(0))
    assert PlaceFabricator(0) in g.legal_actions(s)
    exc = assert_illegal(g, s, PlaceFabricator(row), "MC-PLACE-START")
    assert str(exc) == f"MC-PLACE-START: the Start Zone has rows 0-2, not {row}"
