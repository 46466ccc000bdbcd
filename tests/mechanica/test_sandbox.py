"""The factory sandbox through the Game protocol: load_game("mechanica-factory", players=1)."""

from __future__ import annotations

import copy
import random

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bgrules
from bgrules import IllegalAction, InputError
from bgrules.mechanica.components import Bot, Dir
from bgrules.mechanica.factory import StartSlot
from bgrules.mechanica.run import Change, ChooseOutput, Discard, Fly, Route
from bgrules.mechanica.sandbox import (
    Demolish,
    DemolishFabricator,
    Fabricate,
    Install,
    InstallFabricator,
    InstallTruck,
    Phase,
    Sell,
)

B, P, D = Bot.BASIC, Bot.PLUS, Bot.DELUXE
GAME = "mechanica-factory"

QUIET = (  # no bot moves in the first run: the game opens in the turn
    "hole | . . . . | truck[B]\nbasic | . . . . | big[PD]\nhole | . . . . | truck\n"
)


def game(**options):
    return bgrules.load_game(GAME, players=1, **options)


@pytest.mark.parametrize("players", [0, 2, 3, 4, -1, True])
def test_wrong_player_count(players):
    with pytest.raises(InputError) as info:
        bgrules.load_game(GAME, players=players)
    assert info.value.where == "players"


def test_bad_options_are_input_errors():
    with pytest.raises(InputError):
        game(days=0)
    with pytest.raises(InputError):
        game(supply=["truck"])
    with pytest.raises(InputError):
        game(no_such_option=1)
    with pytest.raises(InputError):
        game(factory="nonsense")
    with pytest.raises(InputError):
        bgrules.load_game("no-such-game")


def test_info_and_initial_state():
    g = game()
    assert g.info.name == GAME and g.info.min_players == g.info.max_players == 1
    assert not g.info.has_chance
    s = g.initial_state()
    assert g.to_move(s) == 0 and not g.is_terminal(s)
    # the starting factory's Basic bot rode to the middle truck
    assert s.phase is Phase.TURN and s.factory.dock[1].load == (B,)
    assert s.stock == (23, 24, 24)


def test_sell_pays_the_wallet_and_returns_the_bot():
    g = game(factory=QUIET)
    s = g.initial_state()
    assert s.phase is Phase.TURN
    assert Sell(0, B) in g.legal_actions(s) and Sell(1, D) in g.legal_actions(s)
    s = g.apply(s, Sell(1, D))
    s = g.apply(s, Sell(1, P))
    s = g.apply(s, Sell(0, B))
    assert s.wallet == 12 and s.stock == (24, 24, 24)
    assert s.factory.dock[1].load == () and s.factory.dock[1].kind == "big_truck"
    with pytest.raises(IllegalAction) as info:
        g.apply(s, Sell(0, B))
    assert info.value.rule_id == "MC-SELL"


def test_selling_only_before_installing():
    g = game(factory=QUIET)
    s = g.apply(g.initial_state(), Install("upgrader", 1, 1, 0))
    assert not s.selling
    assert not any(isinstance(a, Sell) for a in g.legal_actions(s))
    with pytest.raises(IllegalAction) as info:
        g.apply(s, Sell(0, B))
    assert info.value.rule_id == "MC-TURN-ORDER"
    t = g.apply(g.initial_state(), InstallFabricator("advanced_fabricator", 0))
    with pytest.raises(IllegalAction) as info:
        g.apply(t, Sell(1, P))
    assert info.value.rule_id == "MC-TURN-ORDER"


def test_demolish_closes_selling():
    g = game(factory="hole | . . . . | truck[B]\nbasic | . GW0 . . | truck\nhole | . . . . | truck\n")
    s = g.apply(g.initial_state(), Demolish(1, 1))
    with pytest.raises(IllegalAction) as info:
        g.apply(s, Sell(0, B))
    assert info.value.rule_id == "MC-TURN-ORDER"


def test_forks_and_trucks_may_be_bought_any_time_in_the_turn():
    # seed: buying a Fork or a truck is something done at any time during the turn
    g = game(factory=QUIET)
    s = g.apply(g.initial_state(), Install("fork", 1, 1, 0))
    s = g.apply(s, InstallTruck("huge_truck", 2))
    assert s.selling
    s = g.apply(s, Sell(1, P))
    assert s.wallet == 4


def test_supply_consumed_by_installs():
    g = game(factory=QUIET)
    s = g.initial_state()
    assert s.supply.count("fork") == 2
    s = g.apply(s, Install("upgrader", 1, 1, 0))
    assert "upgrader" not in s.supply and s.factory.at(1, 1).kind == "upgrader"
    with pytest.raises(IllegalAction) as info:
        g.apply(s, Install("upgrader", 0, 1, 0))
    assert info.value.rule_id == "MC-SUPPLY"
    assert not any(isinstance(a, Install) and a.kind == "upgrader" for a in g.legal_actions(s))
    s = g.apply(s, Install("fork", 0, 0, 0))
    s = g.apply(s, Install("fork", 2, 0, 0))
    assert "fork" not in s.supply
    s = g.apply(s, InstallFabricator("advanced_fabricator", 0))
    s = g.apply(s, InstallTruck("big_truck", 2))
    assert "advanced_fabricator" not in s.supply and "big_truck" not in s.supply
    assert s.factory.start[0].kind == "advanced_fabricator" and s.factory.dock[2].kind == "big_truck"
    with pytest.raises(IllegalAction) as info:
        g.apply(s, InstallTruck("big_truck", 0))
    assert info.value.rule_id == "MC-SUPPLY"


def test_demolish_returns_bots_to_stock_and_not_the_tile_to_supply():
    g = game(factory="hole | . FC0[P/.] . . | truck\nbasic | . . . . | truck\nhole | . . . . | truck\n")
    s = g.initial_state()  # the half-filled Function Changer keeps its Plus bot
    assert s.factory.at(0, 1).inputs == (P,) and s.stock == (24, 23, 24)
    supply = s.supply
    s = g.apply(s, Demolish(0, 1))
    assert s.factory.at(0, 1) is None and s.supply == supply
    assert s.stock == (24, 24, 24) and not s.selling
    with pytest.raises(IllegalAction) as info:
        g.apply(s, Demolish(0, 1))
    assert info.value.rule_id == "MC-DEMOLISH"
    with pytest.raises(IllegalAction) as info:
        g.apply(s, DemolishFabricator(0))
    assert info.value.rule_id == "MC-DEMOLISH"
    s = g.apply(s, InstallFabricator("advanced_fabricator", 0))
    s = g.apply(s, DemolishFabricator(0))
    assert s.factory.start[0].kind == "start_hole" and "advanced_fabricator" not in s.supply


def test_fabricate_declare_and_replace():
    g = game(factory=QUIET, days=1)
    s = g.initial_state()
    s = g.apply(s, InstallFabricator("overactive_fabricator", 0))
    legal = [a for a in g.legal_actions(s) if isinstance(a, Fabricate)]
    assert legal == [Fabricate((b,), ()) for b in Bot]
    with pytest.raises(IllegalAction) as info:
        g.apply(s, Fabricate())  # the Overactive Fabricator needs a declaration
    assert info.value.rule_id == "MC-FAB"
    with pytest.raises(IllegalAction) as info:
        g.apply(s, Fabricate((D, D)))
    assert info.value.rule_id == "MC-FAB"
    with pytest.raises(IllegalAction) as info:
        g.apply(s, Fabricate((D,), (1,)))  # row 1's making hole is empty
    assert info.value.rule_id == "MC-FAB"
    end = g.apply(s, Fabricate((D,)))
    assert end.phase is Phase.OVER
    assert end.factory.start[0].holes == (D,) and end.factory.start[1].holes == (B,)
    # an occupied making hole: kept unless replaced
    busy = attrs.evolve(
        s,
        factory=s.factory.with_start(1, StartSlot("basic_fabricator", (P,))),
        stock=(s.stock[0], s.stock[1] - 1, s.stock[2]),
    )
    assert Fabricate((B,), (1,)) in g.legal_actions(busy)
    kept = g.apply(busy, Fabricate((B,)))
    assert kept.factory.start[1].holes == (P,)
    replaced = g.apply(busy, Fabricate((B,), (1,)))
    assert replaced.factory.start[1].holes == (B,)
    assert replaced.stock[1] == busy.stock[1] + 1


def test_fabricate_respects_the_stock():
    g = game(variant={"rulings": {"bots_per_grade": 1}}, days=1)
    s = g.initial_state()
    assert s.stock == (0, 1, 1)
    end = g.apply(s, Fabricate())
    assert end.factory.start[1].holes == (None,)  # MC-STOCK: no Basic bot left


def test_game_ends_after_days():
    for days in (1, 2, 5):
        g = game(days=days)
        s = g.initial_state()
        fabricates = 0
        while not g.is_terminal(s):
            action = (
                next(a for a in g.legal_actions(s) if isinstance(a, Fabricate))
                if s.phase is Phase.TURN
                else g.legal_actions(s)[0]
            )
            fabricates += isinstance(action, Fabricate)
            s = g.apply(s, action)
        assert fabricates == days and s.day == days
        assert g.legal_actions(s) == () and g.to_move(s) is None
        with pytest.raises(IllegalAction) as info:
            g.apply(s, Fabricate())
        assert info.value.rule_id == "MC-DAY"


def test_scores_are_wallet_vault_and_installed_values():
    g = game(factory=QUIET)
    cat = g.variant.catalogue
    s = g.apply(g.initial_state(), Sell(1, D))
    assert g.scores(s) == (6,)
    s = g.apply(s, Install("upgrader", 1, 1, 0))
    s = g.apply(s, Install("gift_wrapper", 1, 2, 0))
    s = g.apply(s, InstallFabricator("advanced_fabricator", 2))
    s = g.apply(s, InstallTruck("huge_truck", 0))
    expected = (
        6
        + cat.tiles["upgrader"].value
        + cat.tiles["gift_wrapper"].value
        + cat.tiles["advanced_fabricator"].value
        + cat.tiles["huge_truck"].value
    )
    assert g.scores(s) == (expected,)
    s = attrs.evolve(s, vault=7)
    assert g.scores(s) == (expected + 7,)
    assert g.winners(s) == (0,)


def test_gift_wrapper_vault_flows_into_the_state():
    g = game(factory="hole | . . . . | truck\nbasic[B] | . GW0 . . | truck\nhole | . . . . | truck\n")
    s = g.initial_state()
    assert s.vault == 1 and g.scores(s) == (1 + g.variant.catalogue.tiles["gift_wrapper"].value,)


def test_run_decisions_are_taken_in_the_run_phase():
    g = game(factory="hole | . . . . | truck\nbasic[B] | . FK0 . . | truck\nhole | . . . . | truck\n")
    s = g.initial_state()
    assert s.phase is Phase.RUN
    assert g.legal_actions(s) == (Route(1, 1, Dir.N), Route(1, 1, Dir.E))
    with pytest.raises(IllegalAction) as info:
        g.apply(s, Sell(1, B))
    assert info.value.rule_id == "MC-RUN"
    t = g.apply(s, Route(1, 1, Dir.N))
    assert t.phase is Phase.TURN and t.factory.dock[0].load == (B,)


# --- every illegal action is refused and leaves the state unchanged ---------------------------------

KINDS = (
    "upgrader",
    "gift_wrapper",
    "fork",
    "function_changer",
    "advanced_fabricator",
    "overactive_fabricator",
    "big_truck",
    "huge_truck",
    "truck",
    "nope",
)
ints = st.integers(-1, 4)
bots = st.sampled_from(tuple(Bot))
any_action = st.one_of(
    st.builds(Sell, ints, bots),
    st.builds(Install, st.sampled_from(KINDS), ints, ints, ints),
    st.builds(InstallFabricator, st.sampled_from(KINDS), ints),
    st.builds(InstallTruck, st.sampled_from(KINDS), ints),
    st.builds(Demolish, ints, ints),
    st.builds(DemolishFabricator, ints),
    st.builds(Fabricate, st.lists(bots, max_size=2).map(tuple), st.lists(st.integers(0, 2), max_size=2).map(tuple)),
    st.builds(Route, ints, ints, st.sampled_from(tuple(Dir))),
    st.builds(Fly, ints, ints, ints, ints),
    st.builds(Discard, ints, ints, bots),
    st.builds(Change, ints, ints, bots),
    st.builds(ChooseOutput, ints, ints, ints),
)

FACTORIES = [
    None,
    QUIET,
    "advanced[BP] | . FK0 . . | truck\nbasic[B] | . FT0 . GW0 | truck\nhole[D] | . DG0[P/...] . . | truck\n",
    "hole | . . . . | truck\nbasic[B] | . FC0[P/.] . . | truck\nhole | . UP0 SC0 . | truck\n",
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(FACTORIES), st.integers(0, 10_000), st.integers(0, 40), st.lists(any_action, max_size=12))
def test_illegal_actions_raise_and_leave_the_state_unchanged(factory, seed, steps, candidates):
    g = game(factory=factory, days=3)
    rng = random.Random(seed)
    s = g.initial_state()
    for _ in range(steps):
        if g.is_terminal(s):
            break
        legal = g.legal_actions(s)
        s = g.apply(s, legal[rng.randrange(len(legal))])
    legal = g.legal_actions(s)
    for action in [*candidates, *legal[:3]]:
        before = copy.deepcopy(s)
        text = bgrules.dumps(s)
        if action in legal:
            g.apply(s, action)
            assert s == before
            continue
        with pytest.raises(IllegalAction) as info:
            g.apply(s, action)
        assert info.value.rule_id.startswith("MC-"), info.value
        assert s == before and bgrules.dumps(s) == text


def test_legal_actions_are_all_accepted_on_random_playouts():
    g = game()
    for seed in range(10):
        rng = random.Random(seed)
        s = g.initial_state()
        while not g.is_terminal(s):
            legal = g.legal_actions(s)
            assert legal and len(set(legal)) == len(legal)
            for a in legal:
                g.apply(s, a)
            s = g.apply(s, legal[rng.randrange(len(legal))])
