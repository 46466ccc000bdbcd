"""The ruling diff: shortest sequences on which two variants part ways, their reports and bounds."""

from __future__ import annotations

import json
from typing import Any

import pytest

import bgrules
from bgrules import CHANCE, IllegalAction, InputError, dumps
from bgrules.runners.diff import DiffResult, find_difference
from bgrules.runners.diff_report import render, to_json

FLIGHT = "hole | . . . . | truck\nbasic[B] | . FT0 UP0 . | truck\nhole | . . . . | truck"
# the Fork at (1, 0) sends the bot north (to the truck) or east into the Flight Tester: the rulings part
# ways only after the Route decision, at the Flight Tester's Fly options
FORK_FLIGHT = "hole | . . . . | truck\nbasic[B] | . FK0 FT0 UP0 | truck\nhole | . . . . | truck"
BOTH_WAYS = {"rulings": {"flight": "both_ways"}}


def replay(name: str, variant: Any, sequence: tuple[Any, ...], players: int | None = None, **options: Any) -> None:
    """Every action of ``sequence`` is legal (listed and applied) in the game of ``variant``."""
    game = bgrules.load_game(name, players=players, variant=variant, **options)
    state = game.initial_state()
    for action in sequence:
        if game.to_move(state) is CHANCE:
            assert action in dict(game.chance_outcomes(state))
        else:
            assert action in game.legal_actions(state)
        state = game.apply(state, action)


def check_found(result: DiffResult, name: str, a: Any, b: Any, players: int | None = None, **options: Any) -> None:
    assert result.found and result.sequence and result.kind is not None
    replay(name, a, result.sequence, players, **options)
    replay(name, b, result.sequence[:-1], players, **options)
    assert result.citations and all(c.rule_id.startswith(("MC-", "BF-")) for c in result.citations)
    text = render(result)
    assert f"{len(result.sequence)}. {result.sequence[-1]!r}" in text
    assert result.citations[0].rule_id in text
    data = to_json(result)
    assert json.loads(json.dumps(data)) == data and len(data["sequence"]) == len(result.sequence)


def state_differs(ga: Any, gb: Any, sa: Any, sb: Any) -> bool:
    """A brute-force, independent reading of "the two states differ" (for the minimality check)."""
    if dumps(sa) != dumps(sb) or ga.to_move(sa) != gb.to_move(sb) or ga.is_terminal(sa) != gb.is_terminal(sb):
        return True
    return ga.scores(sa) != gb.scores(sb)


def options_differ(ga: Any, gb: Any, s: Any) -> bool:
    if ga.to_move(s) is CHANCE:
        return dict(ga.chance_outcomes(s)) != dict(gb.chance_outcomes(s))
    return set(ga.legal_actions(s)) != set(gb.legal_actions(s))


def no_difference_shorter_than(name: str, a: Any, b: Any, length: int, **options: Any) -> None:
    """No sequence of fewer than ``length`` actions (all actions, all chance outcomes) differs: the states
    after at most ``length - 1`` actions are equal, and after at most ``length - 2`` actions both games
    offer the same actions, which apply alike."""
    ga = bgrules.load_game(name, variant=a, **options)
    gb = bgrules.load_game(name, variant=b, **options)
    frontier = [(ga.initial_state(), gb.initial_state())]
    for depth in range(length):
        nxt = []
        for sa, sb in frontier:
            assert not state_differs(ga, gb, sa, sb)
            if ga.is_terminal(sa) or depth == length - 1:
                continue
            assert not options_differ(ga, gb, sa)
            actions = [o for o, _p in ga.chance_outcomes(sa)] if ga.to_move(sa) is CHANCE else ga.legal_actions(sa)
            for action in actions:
                try:
                    na = ga.apply(sa, action)
                except IllegalAction:
                    na = None
                try:
                    nb = gb.apply(sb, action)
                except IllegalAction:
                    nb = None
                assert (na is None) == (nb is None)
                if na is not None:
                    nxt.append((na, nb))
        frontier = nxt


def test_identical_variants_show_no_difference_up_to_the_bound():
    result = find_difference("mechanica-factory", None, {"rulings": {}}, max_nodes=400, playouts=3)
    assert not result.found and result.sequence == () and result.nodes >= 400 and result.exhausted == "nodes"
    text = render(result)
    assert f"no difference up to depth {result.depth} ({result.nodes} nodes" in text
    assert to_json(result)["found"] is False


def test_identical_variants_on_a_small_tree_are_searched_to_the_end():
    result = find_difference("mechanica-factory", None, None, options={"factory": FLIGHT, "supply": [], "days": 1})
    assert not result.found and result.exhausted == "tree" and result.nodes < 100


def test_off_floor_destroy_or_forbid_differs_at_the_first_install():
    b = {"rulings": {"off_floor": "forbid"}}
    opts = {"supply": ["upgrader"]}
    result = find_difference("mechanica-factory", None, b, options=opts)
    check_found(result, "mechanica-factory", None, b, **opts)
    assert result.kind == "legal_actions" and len(result.sequence) == 1 and result.minimal
    assert result.only_a and not result.only_b  # forbid only takes placements away
    ids = [c.rule_id for c in result.citations]
    assert ids[0] == "MC-MOVE-OFF" and "MC-PLACE" in ids
    assert [(c.field, c.rule_ids) for c in result.rulings] == [("rulings.off_floor", ("MC-MOVE-OFF",))]
    with pytest.raises(IllegalAction) as info:
        bgrules.load_game("mechanica-factory", variant=b, **opts).apply(
            bgrules.load_game("mechanica-factory", variant=b, **opts).initial_state(), result.sequence[-1]
        )
    assert info.value.rule_id == "MC-MOVE-OFF"


def test_flight_flat_side_or_both_ways_differs_at_the_flight_tester():
    opts = {"factory": FLIGHT, "supply": []}
    result = find_difference("mechanica-factory", None, BOTH_WAYS, options=opts)
    check_found(result, "mechanica-factory", BOTH_WAYS, None, **opts)  # the witness is legal in B only
    assert result.kind == "legal_actions" and result.minimal and len(result.sequence) == 1
    assert type(result.sequence[-1]).__name__ == "Fly" and not result.only_a
    assert "MC-FLIGHT" in {c.rule_id for c in result.citations}


def test_a_difference_behind_a_decision_is_shortest_by_brute_force():
    opts = {"factory": FORK_FLIGHT, "supply": [], "days": 1}
    result = find_difference("mechanica-factory", None, BOTH_WAYS, options=opts, chance_width=None)
    assert result.found and result.minimal and len(result.sequence) == 2
    assert type(result.sequence[0]).__name__ == "Route" and type(result.sequence[1]).__name__ == "Fly"
    replay("mechanica-factory", BOTH_WAYS, result.sequence, **opts)
    replay("mechanica-factory", None, result.sequence[:-1], **opts)
    no_difference_shorter_than("mechanica-factory", None, BOTH_WAYS, len(result.sequence), **opts)
    # and the last step does differ
    ga = bgrules.load_game("mechanica-factory", variant=None, **opts)
    gb = bgrules.load_game("mechanica-factory", variant=BOTH_WAYS, **opts)
    state = ga.apply(ga.initial_state(), result.sequence[0])
    assert options_differ(ga, gb, state) and result.sequence[1] not in ga.legal_actions(state)


def test_shop_recycle_differs_at_the_first_tile_that_falls():
    b = {"rulings": {"shop_recycle": "none"}}
    result = find_difference("mechanica", None, b, players=4, max_nodes=1500)
    check_found(result, "mechanica", None, b, players=4)
    # 2 Shop draws and 2 Blueprints, then four turns of Next, Next, Fabricate with a draw and the turn's
    # closing Next (MC-ANYTIME) after each: the tile dealt to price 5 falls into the Recycler at the fourth
    # turn's rotation
    assert len(result.sequence) == 22 and result.kind == "state" and result.method == "playout"
    assert "phase" in result.detail and "recycle" in result.detail
    assert result.citations[0].rule_id == "MC-SHOP-RECYCLE"
    assert not result.minimal and result.depth < len(result.sequence)


def test_unpaid_share_differs_when_a_player_skips_on_sandras_board():
    b = {"rulings": {"unpaid_share": "additional_only"}}
    result = find_difference("botfactory", None, b, players=2)
    check_found(result, "botfactory", None, b, players=2)
    assert result.method == "bfs" and result.minimal and result.kind == "state"
    assert type(result.sequence[-1]).__name__ == "Skip" and len(result.sequence) == 25
    assert [c.rule_id for c in result.citations] == ["BF-SANDRA-SHARE"]


def test_variant_files(tmp_path):
    a = tmp_path / "a.toml"
    b = tmp_path / "b.toml"
    a.write_text('[rulings]\nflight = "flat_side"\n', encoding="utf-8")
    b.write_text('[rulings]\nflight = "both_ways"\n', encoding="utf-8")
    result = find_difference("mechanica-factory", str(a), str(b), options={"factory": FLIGHT, "supply": []})
    assert result.found and result.variant_a == str(a) and result.variant_b == str(b)
    assert render(result).startswith(f"ruling diff of mechanica-factory (1 player(s)): A = {a}, B = {b}")


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('[rulings]\nflight = "sideways"\n', "rulings"),
        ("[rulings\nflight = 1\n", "malformed TOML"),
        ('[rules]\nflight = "both_ways"\n', "unknown table"),
    ],
)
def test_a_malformed_variant_is_an_input_error(tmp_path, text, where):
    bad = tmp_path / "bad.toml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as info:
        find_difference("mechanica-factory", None, str(bad))
    assert where in str(info.value)


def test_other_malformed_input_is_an_input_error(tmp_path):
    with pytest.raises(InputError):
        find_difference("mechanica-factory", None, str(tmp_path / "missing.toml"))
    with pytest.raises(InputError):
        find_difference("no-such-game", None, None)
    with pytest.raises(InputError):
        find_difference("mechanica-factory", None, None, options={"colour": "red"})
    with pytest.raises(InputError):
        find_difference("mechanica-factory", None, None, max_depth=-1)
    with pytest.raises(InputError):
        find_difference("botfactory", None, {"rulings": {"unpaid_share": 3}}, players=2)


def test_the_round_cap_truncates_the_search():
    # the same readings: no difference; a playout past the cap of 1 round stops and is noted as truncated
    result = find_difference(
        "botfactory", None, {"rulings": {}}, players=2, max_depth=200, max_nodes=50, playouts=2, max_rounds=1
    )
    assert not result.found
    assert any("truncated" in note and "round 2" in note for note in result.notes), result.notes
    with pytest.raises(InputError):
        find_difference("botfactory", None, None, players=2, max_rounds=0)
