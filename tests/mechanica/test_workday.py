"""The workday run (seed section A): movement, collisions, activation, on hand-written factories,
plus properties on random factories with random decisions."""

from __future__ import annotations

import random
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgrules import IllegalAction
from bgrules.mechanica import workday
from bgrules.mechanica.components import Bot, Dir, Effect
from bgrules.mechanica.factory import COLS, DOCK_COL, Factory
from bgrules.mechanica.movement import LAND, find_loop, options
from bgrules.mechanica.notation import format_factory, parse_factory
from bgrules.mechanica.run import Change, ChooseOutput, Discard, Fly, Route, RunPhase
from bgrules.mechanica.strategies import factories
from bgrules.mechanica.variant import MechanicaVariant, Rulings, default_variant
from bgrules.mechanica.workday import decide, decisions, run_workday, start_run

V = default_variant()
B, P, D = Bot.BASIC, Bot.PLUS, Bot.DELUXE
FULL = (24, 24, 24)


def F(text: str, variant: MechanicaVariant = V) -> Factory:
    return parse_factory(text, variant)


def stock_for(factory: Factory, variant: MechanicaVariant = V) -> tuple[int, int, int]:
    n = variant.rulings.bots_per_grade
    c = factory.bot_counts()
    return (n - c[0], n - c[1], n - c[2])


def run_done(factory: Factory, stock=FULL, variant: MechanicaVariant = V):
    run = start_run(factory, stock, variant)
    assert run.phase is RunPhase.DONE, decisions(run, variant)
    return run


def total(factory: Factory, stock) -> tuple[int, ...]:
    c = factory.bot_counts()
    return tuple(c[i] + stock[i] for i in range(3))


def row(r: int, middle: str, *, start: str = "hole", truck: str = "truck") -> str:
    """A factory with ``middle`` (a start | cells | truck line) in row r and bare rows elsewhere."""
    lines = []
    for i in range(3):
        if i == r:
            lines.append(middle)
        else:
            lines.append(f"{'basic' if i == 1 else 'hole'} | . . . . | truck")
    return "\n".join(lines) + "\n"


# --- belts -------------------------------------------------------------------------------------------


def test_belts_carry_bots_east_into_the_truck():
    run = run_done(F(row(1, "basic[B] | . . . . | truck")))
    assert run.factory.dock[1].load == (B,)
    assert run.factory.start[1].holes == (None,)
    assert run.stock == FULL and run.destroyed == 0


def test_floor_output_leaves_by_its_exit_and_rides_the_belt():
    run = run_done(F(row(0, "hole | . UP0[/P] . . | truck")))
    assert run.factory.dock[0].load == (P,)
    assert run.factory.at(0, 1).outputs == (None,)


def test_upgrader_turned_1_sends_its_bot_down_to_the_belt_below():
    run = run_done(F(row(0, "hole | . UP1[/D] . . | truck")))
    assert run.factory.dock[1].load == (D,)


def test_every_source_hole_launches_at_once():
    f = F("hole[P] | . . UP0[/D] . | big\nbasic[B] | . .  . . | truck\nhole[D] | . . . . | truck\n")
    run = run_done(f)
    # the Upgrader's Deluxe leaves as the Plus bot arrives; then the Plus is upgraded
    assert run.factory.dock[0].load == (D,)
    assert run.factory.at(0, 2).outputs == (D,) and run.factory.at(0, 2).inputs == ()
    assert run.stock == (24, 25, 23)
    assert run.factory.dock[1].load == (B,)
    assert run.factory.dock[2].load == (D,)


def test_start_zone_bot_enters_column_0():
    # regression: Start Zone bots were once launched into column 1, skipping column 0
    run = run_done(F(row(1, "basic[B] | UP0 . . . | truck")))
    assert run.factory.at(1, 0).outputs == (P,)


# --- MC-MOVE-EDGE / MC-MOVE-OFF / MC-MOVE-LOOP --------------------------------------------------------


def test_bot_carried_into_an_exit_is_destroyed():
    # Duplicator turned 2: its west side is an exit
    f = F(row(1, "basic[B] | . . DU2 . | truck"))
    assert options(f, V, (1, 2, int(Dir.E)))[0].destroy == "MC-MOVE-EDGE"
    run = run_done(f)
    assert run.destroyed == 1 and run.stock == (25, 24, 24)
    assert run.factory.bot_counts() == (0, 0, 0)


def test_bot_carried_into_a_flat_side_is_destroyed():
    f = F(row(1, "basic[B] | . . FT2 . | truck"))  # flat side west
    assert options(f, V, (1, 2, int(Dir.E)))[0].destroy == "MC-MOVE-EDGE"
    run = run_done(f)
    assert run.destroyed == 1 and run.stock == (25, 24, 24)


def test_bot_carried_off_the_top_is_destroyed():
    # Upgrader turned 3 sends its output north, off the floor
    f = F(row(0, "hole | . UP3[/P] . . | truck"))
    assert options(f, V, (-1, 1, int(Dir.N)))[0].destroy == "MC-MOVE-OFF"
    run = run_done(f)
    assert run.destroyed == 1 and run.stock == (24, 25, 24)
    assert run.factory.bot_counts() == (0, 0, 0)


def test_bot_carried_off_the_bottom_or_west_into_the_start_zone_is_destroyed():
    run = run_done(F(row(2, "hole | . UP1[/P] . . | truck")))
    assert run.destroyed == 1
    run = run_done(F(row(1, "basic | UP2[/D] . . . | truck")))  # west into the Start Zone
    assert run.destroyed == 1 and run.factory.start[1].holes == (None,)
    assert options(F(row(1, "basic | . . . . | truck")), V, (1, -1, int(Dir.W)))[0].destroy == "MC-MOVE-OFF"


def test_off_floor_forbid_refuses_such_factories_and_installs():
    from bgrules import InputError
    from bgrules.mechanica.factory import check_install, empty_factory

    forbid = MechanicaVariant(rulings=Rulings(off_floor="forbid"))
    with pytest.raises(InputError, match="MC-MOVE-OFF"):
        F(row(0, "hole | . UP3 . . | truck"), forbid)
    with pytest.raises(IllegalAction) as info:
        check_install(empty_factory(), forbid, "upgrader", 0, 1, 3)
    assert info.value.rule_id == "MC-MOVE-OFF"


LOOP = "hole[B] | .  GW1  GW2  . | truck\nbasic   | .  .    GW3  . | truck\nhole    | .  .    .    . | truck\n"


def _launched(factory, stock, variant):
    """start_run without advancing: every bot set moving, nothing followed yet."""
    with mock.patch.object(workday, "advance", lambda run, _v: run):
        return start_run(factory, stock, variant)


def test_gift_wrapper_loop_is_destroyed_by_the_loop_rule():
    f = F(LOOP)
    assert find_loop(f, V) is not None
    run = _launched(f, FULL, V)
    rules = []
    for _ in range(100):
        if not run.moving:
            break
        steps = workday.head_options(run, V)
        assert len(steps) == 1
        rules.append(steps[0].rule)
        run = workday._follow(run, steps[0])
    assert not run.moving
    assert rules[-1] == "MC-MOVE-LOOP"
    assert rules.count("MC-GIFT") == 4  # (0,1) east, (1,2), (0,2), (0,1) west; then (1,1) south again
    done = run_done(f)
    assert done.destroyed == 1 and done.vault == 4 and done.stock == (25, 24, 24)


def test_loop_forbid_refuses_the_looping_factory():
    from bgrules import InputError
    from bgrules.mechanica.factory import check_install

    forbid = MechanicaVariant(rulings=Rulings(loop="forbid"))
    with pytest.raises(InputError, match="MC-MOVE-LOOP"):
        F(LOOP, forbid)
    two = F(LOOP.replace("GW3", ". "), forbid)
    with pytest.raises(IllegalAction) as info:
        check_install(two, forbid, "gift_wrapper", 1, 2, 3)
    assert info.value.rule_id == "MC-MOVE-LOOP"


# --- pass-through tiles --------------------------------------------------------------------------------


def test_gift_wrapper_pays_the_vault_once_per_pass():
    run = run_done(F(row(1, "basic[B] | . GW0 GW0 . | truck")))
    assert run.vault == 2 and run.wallet == 0
    assert run.factory.dock[1].load == (B,)
    # two bots through one Gift Wrapper
    run = run_done(F(row(0, "advanced[BP] | . GW0 . . | big")))
    assert run.vault == 2 and run.factory.dock[0].load == (B, P)
    # no pass, no pay
    assert run_done(F(row(1, "basic | . GW0 . . | truck"))).vault == 0


def test_static_charger_makes_a_basic_bot_per_pass():
    run = run_done(F(row(1, "basic[P] | . SC0 . . | truck")))
    assert run.factory.at(1, 1).outputs == (B, None)
    assert run.factory.dock[1].load == (P,)
    assert run.stock == (23, 24, 24)
    run = run_done(F(row(0, "advanced[DP] | . SC0 . . | big")))
    assert run.factory.at(0, 1).outputs == (B, B)
    assert run.stock == (22, 24, 24)
    # the made bots leave on the next run
    nxt = start_run(run.factory, run.stock, V)
    assert nxt.factory.at(0, 1).outputs == (None, None)
    assert nxt.phase is RunPhase.COLLIDE  # two Basic bots join the Plus and Deluxe on the big truck


def test_static_charger_respects_the_stock():
    run = run_done(F(row(1, "basic[P] | . SC0 . . | truck")), stock=(0, 24, 24))
    assert run.factory.at(1, 1).outputs == (None, None)
    assert run.stock == (0, 24, 24)


def test_flight_tester_throws_toward_its_flat_side():
    f = F(row(1, "basic[B] | . FT0 UP0 . | truck"))  # flat side east
    run = start_run(f, FULL, V)
    assert run.phase is RunPhase.MOVE
    assert decisions(run, V) == (Fly(1, 1, 1, 2), Fly(1, 1, 1, 3), Fly(1, 1, 1, DOCK_COL))
    into_upgrader = decide(run, V, Fly(1, 1, 1, 2))
    assert into_upgrader.phase is RunPhase.DONE and into_upgrader.wallet == 0
    assert into_upgrader.factory.at(1, 2).outputs == (P,)
    over = decide(run, V, Fly(1, 1, 1, 3))  # over the Upgrader: +1 wallet coin
    assert over.wallet == 1 and over.factory.dock[1].load == (B,)
    truck = decide(run, V, Fly(1, 1, 1, DOCK_COL))
    assert truck.wallet == 1 and truck.factory.dock[1].load == (B,)
    with pytest.raises(IllegalAction) as info:
        decide(run, V, Fly(1, 1, 1, 0))
    assert info.value.rule_id == "MC-FLIGHT"


def test_flight_tester_throws_along_its_column_when_the_flat_side_is_north():
    f = F(row(2, "hole[B] | . FT3 . . | truck"))  # turned 3: flat side north
    run = start_run(f, FULL, V)
    assert decisions(run, V) == (Fly(2, 1, 0, 1), Fly(2, 1, 1, 1))
    done = decide(run, V, Fly(2, 1, 0, 1))
    assert done.factory.dock[0].load == (B,) and done.wallet == 0


def test_flight_jump_pays_once_however_many_tiles_are_jumped():
    f = F(row(1, "basic[B] | . FT0 FK0 GW0 | truck"))
    run = start_run(f, FULL, V)
    done = decide(run, V, Fly(1, 1, 1, DOCK_COL))
    assert done.wallet == 1 and done.vault == 0


def test_flight_landing_on_a_pass_through_tile_passes_it():
    f = F(row(1, "basic[B] | . FT0 . GW0 | truck"))
    done = decide(start_run(f, FULL, V), V, Fly(1, 1, 1, 3))
    assert done.vault == 1 and done.wallet == 0 and done.factory.dock[1].load == (B,)


def test_flight_both_ways_variant():
    both = MechanicaVariant(rulings=Rulings(flight="both_ways"))
    f = F(row(1, "basic[B] | . FT0 UP0 . | truck"), both)
    run = start_run(f, FULL, both)
    assert decisions(run, both) == (Fly(1, 1, 1, 0), Fly(1, 1, 1, 2), Fly(1, 1, 1, 3), Fly(1, 1, 1, DOCK_COL))
    steps = options(f, both, (1, 1, int(Dir.E)))
    assert {s.rule for s in steps} == {"MC-FLIGHT"}
    assert all(s.then[2] == LAND for s in steps)


ANY_CELL = MechanicaVariant(rulings=Rulings(flight_landing="any_cell"))
"""MC-FLIGHT under the reading of 0.7.3: a thrown bot may land on any cell toward the flat side, a Fork's too."""


def test_a_thrown_bot_does_not_land_on_a_fork_but_flies_over_it():
    """MC-FLIGHT (flight_landing = "skip_forks", the seed: 装置の上かベルトコンベアの上かトラック): the Fork's
    cell is no landing place; the cells beyond it are, and reaching them jumps the Fork (MC-FLIGHT-JUMP)."""
    f = F(row(1, "basic[B] | . FT0 FK0 . | truck"))
    run = start_run(f, FULL, V)
    assert decisions(run, V) == (Fly(1, 1, 1, 3), Fly(1, 1, 1, DOCK_COL))
    with pytest.raises(IllegalAction) as info:
        decide(run, V, Fly(1, 1, 1, 2))
    assert info.value.rule_id == "MC-FLIGHT"
    beyond = decide(run, V, Fly(1, 1, 1, 3))
    assert beyond.phase is RunPhase.DONE and beyond.wallet == 1 and beyond.factory.dock[1].load == (B,)


def test_under_any_cell_a_thrown_bot_lands_on_the_fork_and_is_routed():
    """MC-FLIGHT (flight_landing = "any_cell", 0.7.3): the Fork's cell is a landing place, and the bot then
    leaves by an exit of the owner's choice (MC-FORK)."""
    f = F(row(1, "basic[B] | . FT0 FK0 . | truck"), ANY_CELL)
    run = start_run(f, FULL, ANY_CELL)
    assert decisions(run, ANY_CELL) == (Fly(1, 1, 1, 2), Fly(1, 1, 1, 3), Fly(1, 1, 1, DOCK_COL))
    on_fork = decide(run, ANY_CELL, Fly(1, 1, 1, 2))
    assert decisions(on_fork, ANY_CELL) == (Route(1, 2, Dir.N), Route(1, 2, Dir.E))
    north = decide(on_fork, ANY_CELL, Route(1, 2, Dir.N))
    assert north.wallet == 0 and north.factory.dock[0].load == (B,)


def test_a_throw_whose_only_cell_holds_a_fork_has_nowhere_to_land():
    """MC-FLIGHT-NONE: a Flight Tester on row 1 throwing north sees one cell, row 0's; with a Fork there the
    bot has nowhere to land and is destroyed (under "any_cell" it lands on the Fork)."""
    text = "hole | . FK0 . . | truck\nbasic[B] | . FT3 . . | truck\nhole | . . . . | truck\n"
    steps = options(F(text), V, (1, 1, int(Dir.E)))
    assert [(s.destroy, s.rule) for s in steps] == [("MC-FLIGHT-NONE", "MC-FLIGHT-NONE")]
    run = run_done(F(text))
    assert run.destroyed == 1 and run.stock == (25, 24, 24) and run.wallet == 0
    old = start_run(F(text, ANY_CELL), FULL, ANY_CELL)
    assert decisions(old, ANY_CELL) == (Route(0, 1, Dir.N), Route(0, 1, Dir.E))


def test_a_loop_through_a_throw_onto_a_fork_is_forbidden_only_where_bots_land_on_forks():
    """MC-MOVE-LOOP (loop = "forbid") reads MC-FLIGHT's landing places: the Fork on (2, 1) would close a loop
    (the Flight Tester on (2, 3) throws west onto it, it sends the bot north, row 1's belt and the Gift
    Wrapper bring it back) only if a bot may land on it, so it is refused under "any_cell" alone."""
    from bgrules.core.errors import IllegalAction as Refused
    from bgrules.mechanica.factory import check_install, legal_placements

    text = "hole | . . . . | truck\nbasic | . . . GW1 | truck\nhole | . . . FT2 | truck\n"
    forbid = MechanicaVariant(rulings=Rulings(loop="forbid"))
    forbid_any = MechanicaVariant(rulings=Rulings(loop="forbid", flight_landing="any_cell"))
    check_install(F(text, forbid), forbid, "fork", 2, 1, 3)
    assert (2, 1, 3) in legal_placements(F(text, forbid), forbid, "fork")
    with pytest.raises(Refused) as info:
        check_install(F(text, forbid_any), forbid_any, "fork", 2, 1, 3)
    assert info.value.rule_id == "MC-MOVE-LOOP"
    assert (2, 1, 3) not in legal_placements(F(text, forbid_any), forbid_any, "fork")


def test_a_thrown_bot_still_lands_on_every_improvement_and_bare_belt():
    """MC-FLIGHT: only the Fork is left out; a Gift Wrapper, a bare belt and another Flight Tester are landing
    places under either reading (an Upgrader: test_flight_tester_throws_toward_its_flat_side)."""
    f = F(row(0, "hole[B] | FT0 GW0 . FT0 | truck"))
    for variant in (V, ANY_CELL):
        assert decisions(start_run(f, FULL, variant), variant) == tuple(Fly(0, 0, 0, c) for c in (1, 2, 3, DOCK_COL))


def test_fork_offers_both_exits():
    f = F(row(1, "basic[B] | . FK0 . . | truck"))
    run = start_run(f, FULL, V)
    assert decisions(run, V) == (Route(1, 1, Dir.N), Route(1, 1, Dir.E))
    north = decide(run, V, Route(1, 1, Dir.N))
    assert north.factory.dock[0].load == (B,) and north.factory.dock[1].load == ()
    east = decide(run, V, Route(1, 1, Dir.E))
    assert east.factory.dock[1].load == (B,)
    with pytest.raises(IllegalAction) as info:
        decide(run, V, Route(1, 1, Dir.S))
    assert info.value.rule_id == "MC-FORK"
    with pytest.raises(IllegalAction):
        decide(run, V, Discard(1, 1, B))


# --- MC-COLLIDE --------------------------------------------------------------------------------------


def test_collision_of_different_bots_offers_discards():
    f = F(row(0, "advanced[BP] | . . . . | truck"))
    run = start_run(f, FULL, V)
    assert run.phase is RunPhase.COLLIDE and run.collisions == 1
    assert decisions(run, V) == (Discard(0, DOCK_COL, B), Discard(0, DOCK_COL, P))
    kept_plus = decide(run, V, Discard(0, DOCK_COL, B))
    assert kept_plus.phase is RunPhase.DONE
    assert kept_plus.factory.dock[0].load == (P,)
    assert kept_plus.stock == (25, 24, 24) and kept_plus.destroyed == 1
    with pytest.raises(IllegalAction) as info:
        decide(run, V, Discard(0, DOCK_COL, D))
    assert info.value.rule_id == "MC-COLLIDE"


def test_collision_in_an_input_hole_then_activation():
    f = F(row(0, "advanced[DP] | . UP0 . . | truck"))
    run = start_run(f, FULL, V)
    assert decisions(run, V) == (Discard(0, 1, P), Discard(0, 1, D))
    done = decide(run, V, Discard(0, 1, D))
    assert done.factory.at(0, 1).outputs == (D,)  # the Plus bot was upgraded
    assert done.factory.at(0, 1).inputs == ()


def test_identical_bots_collide_without_a_decision():
    run = run_done(F(row(0, "advanced[BB] | . . . . | truck")))
    assert run.collisions == 1 and run.destroyed == 1
    assert run.factory.dock[0].load == (B,) and run.stock == (25, 24, 24)


def test_advanced_fabricator_launches_both_holes():
    run = run_done(F(row(0, "advanced[BP] | . . . . | big")))
    assert run.factory.dock[0].load == (B, P) and run.collisions == 0
    assert run.factory.start[0].holes == (None, None)


# --- activation ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("bot", "made", "stock"), [(B, P, (25, 23, 24)), (P, D, (24, 25, 23)), (D, D, FULL)])
def test_upgrader(bot, made, stock):
    run = run_done(F(row(1, f"basic | . UP0[{bot.letter}/.] . . | truck")))
    assert run.factory.at(1, 1).inputs == ()
    assert run.factory.at(1, 1).outputs == (made,)
    assert run.stock == stock


def test_upgrader_upgrades_an_arriving_bot():
    run = run_done(F(row(1, "basic[B] | . UP0 . . | truck")))
    assert run.factory.at(1, 1).outputs == (P,) and run.stock == (25, 23, 24)


def test_duplicator():
    run = run_done(F(row(0, "hole | . DU0[P/..] . . | truck")))
    assert run.factory.at(0, 1).outputs == (P, P) and run.stock == (24, 23, 24)
    short = run_done(F(row(0, "hole | . DU0[P/..] . . | truck")), stock=(24, 0, 24))
    assert short.factory.at(0, 1).outputs == (P, None) and short.stock == (24, 0, 24)


@pytest.mark.parametrize(("bot", "lower", "stock"), [(P, B, (21, 25, 24)), (D, P, (24, 21, 25))])
def test_downgrader_makes_three_lower_bots(bot, lower, stock):
    run = run_done(F(row(1, f"basic | . DG0[{bot.letter}/...] . . | truck")))
    assert run.factory.at(1, 1).outputs == (lower, lower, lower)
    assert run.stock == stock


def test_downgrader_with_too_few_lower_bots_in_stock():
    run = run_done(F(row(1, "basic | . DG0[P/...] . . | truck")), stock=(2, 24, 24))
    assert run.factory.at(1, 1).outputs == (B, B, None)
    assert run.stock == (0, 25, 24)


def test_downgrader_keeps_a_basic_bot_as_one_bot_in_a_chosen_hole():
    f = F(row(1, "basic | . DG0[B/...] . . | truck"))
    run = start_run(f, FULL, V)
    assert run.phase is RunPhase.ACTIVATE
    assert decisions(run, V) == (ChooseOutput(1, 1, 0), ChooseOutput(1, 1, 1), ChooseOutput(1, 1, 2))
    for hole in range(3):
        done = decide(run, V, ChooseOutput(1, 1, hole))
        expected = [None, None, None]
        expected[hole] = B
        assert done.factory.at(1, 1).outputs == tuple(expected)
        assert done.stock == FULL and done.phase is RunPhase.DONE
    with pytest.raises(IllegalAction) as info:
        decide(run, V, ChooseOutput(1, 1, 3))
    assert info.value.rule_id == "MC-ACT-DOWNGRADE"


def test_function_changer_waits_for_two_bots():
    run = run_done(F(row(1, "basic | . FC0[P/.] . . | truck")))
    assert run.factory.at(1, 1).inputs == (P,) and run.factory.at(1, 1).outputs == (None,)
    assert run.stock == FULL


def test_function_changer_with_two_bots_asks_for_the_bot_to_make():
    f = F(row(1, "basic[B] | . FC0[P/.] . . | truck"))
    run = start_run(f, FULL, V)
    assert run.phase is RunPhase.ACTIVATE
    assert decisions(run, V) == (Change(1, 1, B), Change(1, 1, P), Change(1, 1, D))
    done = decide(run, V, Change(1, 1, D))
    assert done.factory.at(1, 1).inputs == () and done.factory.at(1, 1).outputs == (D,)
    assert done.stock == (25, 25, 23)
    with pytest.raises(IllegalAction) as info:
        decide(done, V, Change(1, 1, D))
    assert info.value.rule_id == "MC-ACT-CHANGE"


def test_activation_happens_after_all_bots_moved():
    # the Upgrader's output made this run does not leave until the next run
    f = F(row(1, "basic[B] | . UP0 UP0 . | truck"))
    run = run_done(f)
    assert run.factory.at(1, 1).outputs == (P,) and run.factory.at(1, 2).inputs == ()
    nxt = run_done(run.factory, run.stock)
    assert nxt.factory.at(1, 2).outputs == (D,)


# --- MC-STOCK ----------------------------------------------------------------------------------------


def test_stock_shortage_with_a_small_bots_per_grade():
    small = MechanicaVariant(rulings=Rulings(bots_per_grade=1))
    f = F(row(1, "basic[B] | . UP0 . . | truck"), small)
    # the Basic bot is the only one; one Plus in the stock
    run = run_done(f, stock_for(f, small), small)
    assert run.factory.at(1, 1).outputs == (P,) and run.stock == (1, 0, 1)
    # next: the Plus goes to a second Upgrader but no Deluxe is left after a first one
    g = F(row(1, "basic | . UP0[P/.] DU0[D/..] . | truck"), small)
    run = run_done(g, stock_for(g, small), small)
    assert run.factory.at(1, 1).outputs == (None,)  # no Deluxe bot left: MC-STOCK
    assert run.factory.at(1, 2).outputs == (D, None)
    assert total(run.factory, run.stock) == (1, 1, 1)


# --- decisions API -----------------------------------------------------------------------------------


def test_no_decision_when_done():
    run = run_done(F(row(1, "basic[B] | . . . . | truck")))
    assert decisions(run, V) == ()
    with pytest.raises(IllegalAction):
        decide(run, V, Route(1, 1, Dir.N))


def test_run_workday_with_a_policy():
    f = F(row(1, "basic[B] | . FK0 . . | truck"))
    done = run_workday(f, FULL, V, lambda run, legal: legal[-1])
    assert done.factory.dock[1].load == (B,)
    assert format_factory(done.factory).count("truck[B]") == 1


# --- properties on random factories ------------------------------------------------------------------

MAX_MOVES = 5000


def _drive(factory: Factory, variant: MechanicaVariant, rng: random.Random):
    """A run with random decisions, checking MC-MOVE-SRC right after movement."""
    stock = stock_for(factory, variant)
    run = _launched(factory, stock, variant)
    moves = 0
    rules = []
    while run.moving:
        steps = workday.head_options(run, variant)
        step = steps[rng.randrange(len(steps))]
        rules.append(step.rule)
        run = workday._follow(run, step)
        moves += 1
        assert moves < MAX_MOVES, "movement does not terminate"
    run = workday._pour(run)
    for r, slot in enumerate(run.factory.start):
        assert slot.holes == (None,) * len(slot.holes), f"Start Zone row {r} holds a bot after movement"
    for i, p in enumerate(run.factory.floor):
        if p is not None:
            assert all(b is None for b in p.outputs), f"output hole of {i} holds a bot after movement"
    run = workday.advance(run, variant)
    n = 0
    while run.phase is not RunPhase.DONE:
        legal = decisions(run, variant)
        assert legal
        run = decide(run, variant, legal[rng.randrange(len(legal))])
        n += 1
        assert n < MAX_MOVES, "the run does not terminate"
    return stock, run, rules


def _check_done(factory: Factory, stock, run, variant: MechanicaVariant) -> None:
    cat = variant.catalogue
    assert total(factory, stock) == total(run.factory, run.stock) == (variant.rulings.bots_per_grade,) * 3
    assert min(run.stock) >= 0
    for i, p in enumerate(run.factory.floor):
        if p is None:
            continue
        kind = cat.tile(p.kind)
        if kind.effect is Effect.CHANGE:
            assert len(p.inputs) < kind.inputs, f"{i // COLS, i % COLS}: full Function Changer left"
        else:
            assert p.inputs == (), f"{i // COLS, i % COLS}: input hole holds a bot after the run"
        assert len(p.outputs) == len(kind.outputs)
    for t in run.factory.dock:
        assert len(t.load) <= cat.tile(t.kind).capacity
    assert run.moving == () and run.arrived == ()


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(factories(), st.randoms(use_true_random=False))
def test_random_runs_keep_the_invariants(factory, rng):
    stock, run, _rules = _drive(factory, V, rng)
    _check_done(factory, stock, run, V)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(factories(full=True), st.randoms(use_true_random=False))
def test_random_runs_through_the_public_api(factory, rng):
    stock = stock_for(factory)
    done = run_workday(factory, stock, V, lambda run, legal: legal[rng.randrange(len(legal))])
    _check_done(factory, stock, done, V)
    assert done.vault >= 0 and done.wallet >= 0


VARIANTS = [
    MechanicaVariant(rulings=Rulings(flight="both_ways")),
    MechanicaVariant(rulings=Rulings(bots_per_grade=3)),
    MechanicaVariant(rulings=Rulings(jigsaw="strict", loop="forbid", off_floor="forbid")),
]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_runs_under_variants(data):
    variant = data.draw(st.sampled_from(VARIANTS))
    factory = data.draw(factories(variant))
    if min(stock_for(factory, variant)) < 0:
        return
    rng = data.draw(st.randoms(use_true_random=False))
    stock, run, rules = _drive(factory, variant, rng)
    _check_done(factory, stock, run, variant)
    if variant.rulings.loop == "forbid":
        assert "MC-MOVE-LOOP" not in rules
    if variant.rulings.off_floor == "forbid":
        assert "MC-MOVE-OFF" not in rules


@pytest.mark.heavy
@settings(max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck))
@given(factories(full=True), st.randoms(use_true_random=False))
def test_random_runs_keep_the_invariants_heavy(factory, rng):
    stock, run, _rules = _drive(factory, V, rng)
    _check_done(factory, stock, run, V)


def test_one_overfull_bin_counts_as_one_collision():
    """Regression: discarding mixed bots one at a time once counted each discard as a new collision."""
    v = default_variant()
    f = parse_factory("hole | . . . . | truck\nadvanced[BP] | . . . . | truck[D]\nhole | . . . . | truck\n")
    run = start_run(f, (24, 24, 24), v)
    assert run.collisions == 1
    while decisions(run, v):
        run = decide(run, v, decisions(run, v)[0])
    assert run.collisions == 1 and run.destroyed == 2 and len(run.factory.dock[1].load) == 1
