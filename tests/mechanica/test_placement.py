"""Placement rules (MC-PLACE-*, MC-DEMOLISH): jigsaw fit, free cell, rotation, zones, trucks, fabricators."""

from __future__ import annotations

import copy

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgrules import IllegalAction
from bgrules.mechanica.components import Bot, Dir, Edge, Zone
from bgrules.mechanica.factory import (
    COLS,
    ROWS,
    StartSlot,
    Truck,
    check_install,
    check_install_start,
    check_install_truck,
    demolish,
    demolish_start,
    edges_fit,
    empty_factory,
    install,
    install_start,
    install_truck,
    legal_placements,
    new_placed,
    printed_start,
)
from bgrules.mechanica.notation import parse_factory
from bgrules.mechanica.strategies import factories, layouts
from bgrules.mechanica.variant import MechanicaVariant, Rulings, default_variant

DEFAULT = default_variant()
STRICT = MechanicaVariant(rulings=Rulings(jigsaw="strict"))
FORBID_OFF = MechanicaVariant(rulings=Rulings(off_floor="forbid"))
FORBID_LOOP = MechanicaVariant(rulings=Rulings(loop="forbid"))
FAB_OVER_FAB = MechanicaVariant(rulings=Rulings(fabricator_over_fabricator=True))
FLOOR_KINDS = tuple(sorted(k.key for k in DEFAULT.catalogue.of_zone(Zone.FLOOR)))
ALL_KINDS = tuple(sorted(DEFAULT.catalogue.tiles))


def rule_of(fn, *args) -> str:
    with pytest.raises(IllegalAction) as info:
        fn(*args)
    assert str(info.value).startswith(info.value.rule_id + ":")
    return info.value.rule_id


def with_tile(key: str, row: int, col: int, rotation: int, factory=None):
    factory = factory or empty_factory()
    return factory.with_cell(row, col, new_placed(DEFAULT.catalogue.tiles[key], rotation))


# --- MC-PLACE-FIT -----------------------------------------------------------------------------------

E, X, F = Edge.ENTRANCE, Edge.EXIT, Edge.FLAT


@pytest.mark.parametrize(
    ("a", "b", "published", "strict"),
    [
        (X, E, True, True),
        (E, X, True, True),
        (X, X, False, False),
        (X, F, False, False),
        (F, X, False, False),
        (F, F, True, True),
        (E, E, True, False),
        (E, F, True, False),
        (F, E, True, False),
    ],
)
def test_edges_fit_table(a, b, published, strict):
    assert edges_fit(a, b, strict=False) is published
    assert edges_fit(a, b, strict=True) is strict


def test_exit_must_touch_an_entrance():
    # Gift Wrapper turned 0 has its exit on the east side
    f = with_tile("gift_wrapper", 1, 1, 0)
    # its west side is an entrance: fits
    check_install(f, DEFAULT, "gift_wrapper", 1, 2, 0)
    # Duplicator turned 2 shows an exit on its west side: exit against exit
    assert DEFAULT.catalogue.tiles["duplicator"].edge(Dir.W, 2) is Edge.EXIT
    assert rule_of(check_install, f, DEFAULT, "duplicator", 1, 2, 2) == "MC-PLACE-FIT"
    # Flight Tester turned 2 shows its flat side west: exit against flat
    assert DEFAULT.catalogue.tiles["flight_tester"].edge(Dir.W, 2) is Edge.FLAT
    assert rule_of(check_install, f, DEFAULT, "flight_tester", 1, 2, 2) == "MC-PLACE-FIT"
    # the same from the other side: a new tile whose exit touches the Gift Wrapper's flat-free entrance
    g = with_tile("flight_tester", 1, 2, 0)  # flat side east, entrance west
    check_install(g, DEFAULT, "gift_wrapper", 1, 1, 0)  # exit east into an entrance: fits
    # a new tile whose exit would touch the Flight Tester's flat side (east of (1,2))
    assert rule_of(check_install, g, DEFAULT, "gift_wrapper", 1, 3, 2) == "MC-PLACE-FIT"


def test_published_ruling_allows_non_exit_mismatches_strict_does_not():
    f = with_tile("flight_tester", 1, 1, 0)  # flat east
    # flat against entrance: allowed (no exit involved), refused under strict
    check_install(f, DEFAULT, "gift_wrapper", 1, 2, 0)
    assert rule_of(check_install, f, STRICT, "gift_wrapper", 1, 2, 0) == "MC-PLACE-FIT"
    # flat against flat: fine both ways
    check_install(f, DEFAULT, "flight_tester", 1, 2, 2)
    check_install(f, STRICT, "flight_tester", 1, 2, 2)
    g = with_tile("gift_wrapper", 1, 1, 0)  # entrance west
    # entrance against entrance (Gift Wrapper turned 3 shows an entrance east)
    assert DEFAULT.catalogue.tiles["gift_wrapper"].edge(Dir.E, 3) is Edge.ENTRANCE
    check_install(g, DEFAULT, "gift_wrapper", 1, 0, 3)
    assert rule_of(check_install, g, STRICT, "gift_wrapper", 1, 0, 3) == "MC-PLACE-FIT"


def test_fit_checks_every_neighbour():
    # (1,1) surrounded: a tile fitting west but not north is refused
    f = with_tile("gift_wrapper", 1, 0, 0)  # exit east into (1,1)
    f = with_tile("downgrader", 0, 1, 0, f)  # exits N, E, S: its south exit points into (1,1)
    check_install(f, DEFAULT, "function_changer", 1, 1, 0)  # entrances W and N: fits both
    # Duplicator turned 0: north flat, west entrance: flat against the Downgrader's exit
    assert rule_of(check_install, f, DEFAULT, "duplicator", 1, 1, 0) == "MC-PLACE-FIT"


# --- MC-PLACE-FREE / MC-PLACE-ROT / MC-PLACE-ZONE ----------------------------------------------------


def test_free_cell():
    f = with_tile("upgrader", 1, 1, 0)
    assert rule_of(check_install, f, DEFAULT, "fork", 1, 1, 0) == "MC-PLACE-FREE"
    for r, c in ((-1, 0), (3, 0), (0, -1), (0, 4), (5, 5)):
        assert rule_of(check_install, f, DEFAULT, "fork", r, c, 0) == "MC-PLACE-FREE"


@pytest.mark.parametrize("key", FLOOR_KINDS)
def test_every_rotation_0_to_3_on_an_empty_floor(key):
    for rot in range(4):
        check_install(empty_factory(), DEFAULT, key, 1, 1, rot)
    for rot in (-1, 4, 7):
        assert rule_of(check_install, empty_factory(), DEFAULT, key, 1, 1, rot) == "MC-PLACE-ROT"


def test_rotation_turns_edges_clockwise():
    up = DEFAULT.catalogue.tiles["upgrader"]  # exit east at rotation 0
    assert [up.exits(r) for r in range(4)] == [(Dir.E,), (Dir.S,), (Dir.W,), (Dir.N,)]
    for rot in range(4):
        assert DEFAULT.catalogue.world_edges("upgrader", rot) == tuple(up.edge(d, rot) for d in Dir)
    assert up.output_dirs(1) == (Dir.S,)


@pytest.mark.parametrize(
    "key",
    [
        "advanced_fabricator",
        "overactive_fabricator",
        "big_truck",
        "huge_truck",
        "truck",
        "start_hole",
        "basic_fabricator",
        "no_such_tile",
    ],
)
def test_only_floor_tiles_go_on_the_floor(key):
    assert rule_of(check_install, empty_factory(), DEFAULT, key, 1, 1, 0) == "MC-PLACE-ZONE"
    assert legal_placements(empty_factory(), DEFAULT, key) == ()


@pytest.mark.parametrize("key", [*FLOOR_KINDS, "big_truck", "start_hole", "basic_fabricator", "nope"])
def test_only_fabricator_tiles_go_in_the_start_zone(key):
    assert rule_of(check_install_start, empty_factory(), DEFAULT, key, 0) == "MC-PLACE-ZONE"


@pytest.mark.parametrize("key", [*FLOOR_KINDS, "advanced_fabricator", "truck", "nope"])
def test_only_truck_tiles_go_in_the_dock(key):
    assert rule_of(check_install_truck, empty_factory(), DEFAULT, key, 0) == "MC-PLACE-ZONE"


# --- MC-PLACE-TRUCK ----------------------------------------------------------------------------------


def test_trucks_may_only_be_enlarged_and_keep_their_load():
    f = empty_factory().with_truck(0, Truck("truck", (Bot.DELUXE,)))
    big = install_truck(f, DEFAULT, "big_truck", 0)
    assert big.dock[0] == Truck("big_truck", (Bot.DELUXE,))
    huge = install_truck(big, DEFAULT, "huge_truck", 0)
    assert huge.dock[0] == Truck("huge_truck", (Bot.DELUXE,))
    assert install_truck(f, DEFAULT, "huge_truck", 0).dock[0].kind == "huge_truck"
    assert rule_of(check_install_truck, big, DEFAULT, "big_truck", 0) == "MC-PLACE-TRUCK"
    assert rule_of(check_install_truck, huge, DEFAULT, "big_truck", 0) == "MC-PLACE-TRUCK"
    assert rule_of(check_install_truck, huge, DEFAULT, "huge_truck", 0) == "MC-PLACE-TRUCK"
    for row in (-1, 3):
        assert rule_of(check_install_truck, f, DEFAULT, "big_truck", row) == "MC-PLACE-TRUCK"


# --- MC-PLACE-START ----------------------------------------------------------------------------------


def test_fabricator_over_printed_only():
    f = empty_factory().with_start(1, StartSlot("basic_fabricator", (Bot.PLUS,)))
    for row in range(ROWS):
        check_install_start(f, DEFAULT, "advanced_fabricator", row)
    g, spilled = install_start(f, DEFAULT, "advanced_fabricator", 1)
    assert g.start[1] == StartSlot("advanced_fabricator", (Bot.PLUS, None))  # the held bot moves in
    assert spilled == ()
    assert rule_of(check_install_start, g, DEFAULT, "overactive_fabricator", 1) == "MC-PLACE-START"
    assert rule_of(check_install_start, g, DEFAULT, "advanced_fabricator", 1) == "MC-PLACE-START"
    for row in (-1, 3):
        assert rule_of(check_install_start, f, DEFAULT, "advanced_fabricator", row) == "MC-PLACE-START"


def test_fabricator_over_fabricator_variant_spills_extra_bots():
    f = empty_factory().with_start(0, StartSlot("advanced_fabricator", (Bot.BASIC, Bot.DELUXE)))
    assert rule_of(check_install_start, f, DEFAULT, "overactive_fabricator", 0) == "MC-PLACE-START"
    g, spilled = install_start(f, FAB_OVER_FAB, "overactive_fabricator", 0)
    assert g.start[0] == StartSlot("overactive_fabricator", (Bot.BASIC,))
    assert spilled == (Bot.DELUXE,)


# --- MC-DEMOLISH -------------------------------------------------------------------------------------


def test_demolish():
    f = parse_factory("hole | .  DG0[P/B.D]  . . | truck\nbasic | . .  . . | truck\nhole | . . . . | truck\n")
    g, kind, destroyed = demolish(f, 0, 1)
    assert kind == "downgrader"
    assert sorted(destroyed) == [Bot.BASIC, Bot.PLUS, Bot.DELUXE]
    assert g.at(0, 1) is None
    assert g == empty_factory()
    assert rule_of(demolish, g, 0, 1) == "MC-DEMOLISH"
    assert rule_of(demolish, g, 3, 0) == "MC-DEMOLISH"
    assert rule_of(demolish, g, 0, 4) == "MC-DEMOLISH"


def test_demolish_start():
    f = empty_factory().with_start(1, StartSlot("advanced_fabricator", (Bot.PLUS, Bot.BASIC)))
    g, kind, destroyed = demolish_start(f, DEFAULT, 1)
    assert kind == "advanced_fabricator"
    assert sorted(destroyed) == [Bot.BASIC, Bot.PLUS]
    assert g.start[1] == printed_start(1)
    assert rule_of(demolish_start, g, DEFAULT, 1) == "MC-DEMOLISH"  # printed: nothing to demolish
    assert rule_of(demolish_start, g, DEFAULT, 3) == "MC-DEMOLISH"


# --- MC-MOVE-OFF / MC-MOVE-LOOP refusals --------------------------------------------------------------


def test_off_floor_forbid_refuses_exits_off_the_floor():
    # Upgrader turned 3 exits north; turned 2 exits west
    assert rule_of(check_install, empty_factory(), FORBID_OFF, "upgrader", 0, 1, 3) == "MC-MOVE-OFF"
    assert rule_of(check_install, empty_factory(), FORBID_OFF, "upgrader", 1, 0, 2) == "MC-MOVE-OFF"
    assert rule_of(check_install, empty_factory(), FORBID_OFF, "upgrader", 2, 2, 1) == "MC-MOVE-OFF"
    check_install(empty_factory(), FORBID_OFF, "upgrader", 1, 3, 0)  # east into the truck: fine
    check_install(empty_factory(), FORBID_OFF, "upgrader", 1, 1, 3)  # north onto the floor: fine
    # the default reading installs them (the bots are destroyed later)
    check_install(empty_factory(), DEFAULT, "upgrader", 0, 1, 3)
    assert (0, 1, 3) not in legal_placements(empty_factory(), FORBID_OFF, "upgrader")
    assert (0, 1, 3) in legal_placements(empty_factory(), DEFAULT, "upgrader")


LOOP_TWO = "hole  | .  GW1  GW2  . | truck\nbasic | .  .    .    . | truck\nhole  | .  .    .    . | truck\n"


def test_loop_forbid_refuses_the_closing_tile():
    f = parse_factory(LOOP_TWO, FORBID_LOOP)
    # a third Gift Wrapper at (1,2) exiting north closes (0,1) -> (1,1) -> (1,2) -> (0,2) -> (0,1)
    check_install(f, DEFAULT, "gift_wrapper", 1, 2, 3)
    assert rule_of(check_install, f, FORBID_LOOP, "gift_wrapper", 1, 2, 3) == "MC-MOVE-LOOP"
    assert (1, 2, 3) not in legal_placements(f, FORBID_LOOP, "gift_wrapper")
    assert (1, 2, 3) in legal_placements(f, DEFAULT, "gift_wrapper")


# --- legal_placements agrees with check_install -----------------------------------------------------


def _agree(factory, variant):
    for key in ALL_KINDS:
        listed = set(legal_placements(factory, variant, key))
        for r in range(ROWS):
            for c in range(COLS):
                for rot in range(4):
                    try:
                        check_install(factory, variant, key, r, c, rot)
                        ok = True
                    except IllegalAction:
                        ok = False
                    assert ok == ((r, c, rot) in listed), (key, r, c, rot)
        assert len(listed) == len(legal_placements(factory, variant, key))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(factories())
def test_legal_placements_agree_with_check_install(factory):
    _agree(factory, DEFAULT)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_legal_placements_agree_under_variants(data):
    variant = data.draw(st.sampled_from([STRICT, FORBID_OFF, FORBID_LOOP]))
    factory = data.draw(layouts(variant, max_tiles=8))
    _agree(factory, variant)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(factories(), st.sampled_from(FLOOR_KINDS), st.integers(-1, ROWS), st.integers(-1, COLS), st.integers(-1, 4))
def test_refused_install_leaves_the_factory_unchanged(factory, key, row, col, rot):
    before = copy.deepcopy(factory)
    try:
        after = install(factory, DEFAULT, key, row, col, rot)
    except IllegalAction as exc:
        assert exc.rule_id.startswith("MC-")
        assert factory == before and hash(factory) == hash(before)
    else:
        assert factory == before
        assert after.at(row, col) == new_placed(DEFAULT.catalogue.tiles[key], rot)
        assert attrs.evolve(after, floor=factory.floor) == factory
        # nothing else moved
        for r in range(ROWS):
            for c in range(COLS):
                if (r, c) != (row, col):
                    assert after.at(r, c) == factory.at(r, c)
