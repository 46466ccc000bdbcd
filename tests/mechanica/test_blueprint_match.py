"""MC-BP-MATCH (issue 8): a Blueprint's bots are a part of the trucks' load (``blueprint_match = "part"``,
default) or the whole load (``"whole"``): 「トラックに積まれているボットの組み合わせが設計図の絵と一致」."""

from __future__ import annotations

import random

import pytest
from support.mechanica_positions import (
    B,
    P,
    assert_illegal,
    blueprint_day,
    blueprint_day_with,
    check_invariants,
    load,
)

import bgrules
from bgrules.mechanica.fabricate import Sell
from bgrules.mechanica.state import Complete, Phase

# card 1: three Basic (10 coins); card 2: two Basic and a Plus (12 coins)
EXACT = "hole | . . . . | big[BB]\nbasic | . . . . | truck[B]\nhole | . . . . | truck\n"


def test_part_takes_the_card_and_leaves_the_rest_on_the_trucks():
    g, s = blueprint_day()  # trucks: BBB, BP, BB
    t = g.apply(s, Complete(0, ((0, B), (0, B), (0, B))))
    assert t.seats[0].vault == 10 and [x.load for x in t.seats[0].factory.dock] == [(), (B, P), (B, B)]
    check_invariants(g, t)


def test_whole_refuses_a_load_with_more_bots_than_the_card_and_changes_nothing():
    g, s = blueprint_day(blueprint_match="whole")
    assert not any(isinstance(a, Complete) for a in g.legal_actions(s))
    for action in (Complete(0, ((0, B), (0, B), (0, B))), Complete(1, ((0, B), (1, B), (1, P)))):
        assert_illegal(g, s, action, "MC-BP-MATCH")
    # a take that is not the card's combination is still MC-BP-COMPLETE, under both readings
    assert_illegal(g, s, Complete(0, ((0, B), (0, B))), "MC-BP-COMPLETE")
    assert_illegal(g, s, Complete(0, ((1, P), (0, B), (0, B))), "MC-BP-COMPLETE")
    assert_illegal(g, s, Complete(0, ((1, B), (1, B), (1, B))), "MC-BP-COMPLETE")


def test_whole_accepts_an_exact_load_from_several_trucks():
    g, s = blueprint_day_with(EXACT, blueprint_match="whole")
    legal = [a for a in g.legal_actions(s) if isinstance(a, Complete)]
    assert legal == [Complete(0, ((0, B), (0, B), (1, B)))]
    t = g.apply(s, legal[0])
    assert t.seats[0].vault == 10 and all(not x.load for x in t.seats[0].factory.dock)
    assert t.stock[B] == s.stock[B] + 3
    check_invariants(g, t)
    # the part reading offers the same single way here: the load is exactly the card
    g2, s2 = blueprint_day_with(EXACT)
    assert [a for a in g2.legal_actions(s2) if isinstance(a, Complete)] == legal


def test_one_load_two_blueprints_only_under_part():
    text = "hole | . . . . | huge[BBB]\nbasic | . . . . | huge[BBP]\nhole | . . . . | truck\n"
    g, s = blueprint_day_with(text)
    s = g.apply(s, Complete(0, ((0, B), (0, B), (0, B))))
    s = g.apply(s, Complete(1, ((1, B), (1, B), (1, P))))
    assert s.seats[0].vault == 22 and s.seats[0].completed == (1, 2)
    check_invariants(g, s)
    g, s = blueprint_day_with(text, blueprint_match="whole")
    assert not any(isinstance(a, Complete) for a in g.legal_actions(s))
    assert_illegal(g, s, Complete(0, ((0, B), (0, B), (0, B))), "MC-BP-MATCH")


def test_whole_after_selling_the_extra_bot():
    """Under "whole" a player can sell what the card does not show and then complete it."""
    g, s = blueprint_day_with(
        "hole | . . . . | huge[BBB]\nbasic | . . . . | truck[P]\nhole | . . . . | truck\n", blueprint_match="whole"
    )
    assert_illegal(g, s, Complete(0, ((0, B), (0, B), (0, B))), "MC-BP-MATCH")
    t = g.apply(s, Sell(1, P))
    assert Complete(0, ((0, B), (0, B), (0, B))) in g.legal_actions(t)
    t = g.apply(t, Complete(0, ((0, B), (0, B), (0, B))))
    assert t.seats[0].vault == 10 and t.seats[0].wallet == s.seats[0].wallet + 4


@pytest.mark.parametrize("reading", ["part", "whole"])
def test_in_random_games_every_offered_completion_obeys_the_reading(reading):
    g = load(2, blueprint_match=reading)
    rng = random.Random(7)
    seen = 0
    for _game in range(8):
        s = g.initial_state()
        while not g.is_terminal(s):
            legal = g.legal_actions(s)
            for a in legal:
                if not isinstance(a, Complete):
                    continue
                seen += 1
                seat = s.seats[s.current]
                on_trucks = sum(len(t.load) for t in seat.factory.dock)
                assert len(a.take) == sum(g.cards[s.bp_top[a.pile]].needs)
                if reading == "whole":
                    assert len(a.take) == on_trucks
                after = g.apply(s, a)
                left = sum(len(t.load) for t in after.seats[s.current].factory.dock)
                assert left == on_trucks - len(a.take) and (reading == "part" or left == 0)
            s = g.apply(s, rng.choice(legal))
        assert s.phase is Phase.OVER
    assert seen > 0


def test_cheap_cards_show_the_difference_in_whole_games():
    """With one-bot cards, some random game offers a completion under "part" that "whole" does not."""
    cards = [{"id": i, "basic": 1, "plus": 0, "deluxe": 0, "value": 10} for i in range(1, 5)]
    part = load_variant_game("part", cards)
    whole = load_variant_game("whole", cards)
    rng = random.Random(3)
    differ = 0
    s = part.initial_state()
    while not part.is_terminal(s) and differ < 3:
        a_part = {a for a in part.legal_actions(s) if isinstance(a, Complete)}
        a_whole = {a for a in whole.legal_actions(s) if isinstance(a, Complete)}
        assert a_whole <= a_part
        differ += bool(a_part - a_whole)
        s = part.apply(s, rng.choice(part.legal_actions(s)))
    assert differ


def load_variant_game(reading: str, cards: list[dict[str, int]]):
    return bgrules.load_game(
        "mechanica", players=2, variant={"rulings": {"blueprint_match": reading}, "blueprints": cards}
    )
