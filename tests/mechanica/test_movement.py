"""Movement (bgrules.mechanica.movement), pinned exactly where a mutmut run of the rule modules found the
suite silent (docs/mutation.md): the launch nodes, the node codes the z3 encodings rely on, the memo of
movement options, and the Flight Tester's landing places."""

from __future__ import annotations

from bgrules.mechanica.components import Bot, Dir
from bgrules.mechanica.factory import COLS, ROWS, Factory
from bgrules.mechanica.movement import (
    LAND,
    NODE_CODES,
    TRUCK_BIN,
    Step,
    bin_of_truck,
    find_loop,
    flight_targets,
    launch_nodes,
    node_code,
    options,
    options_table,
)
from bgrules.mechanica.notation import parse_factory
from bgrules.mechanica.variant import MechanicaVariant, Rulings, default_variant, load_variant

V = default_variant()
B, P, D = Bot.BASIC, Bot.PLUS, Bot.DELUXE
N, E, S, W = (int(d) for d in (Dir.N, Dir.E, Dir.S, Dir.W))


def F(text: str, variant: MechanicaVariant = V) -> Factory:
    return parse_factory(text, variant)


# --- node codes --------------------------------------------------------------------------------------


def test_node_codes_number_the_floor_nodes_densely() -> None:
    """The z3 encodings (bgrules.mechanica.smt) give off-floor nodes the ids from NODE_CODES on, so the
    on-floor codes must be exactly 0 .. NODE_CODES - 1, each once."""
    codes = [node_code((r, c, h)) for r in range(ROWS) for c in range(COLS) for h in range(5)]
    assert codes == list(range(NODE_CODES))
    assert NODE_CODES == ROWS * COLS * 5 == 60
    assert node_code((2, 3, LAND)) == 59 and node_code((1, 0, N)) == 20


def test_truck_bins() -> None:
    """Bins 0-11 are floor cells' input holes; TRUCK_BIN + row is that row's truck."""
    assert [bin_of_truck(r) for r in range(ROWS)] == [TRUCK_BIN, TRUCK_BIN + 1, TRUCK_BIN + 2] == [100, 101, 102]


# --- MC-MOVE-SRC: launch nodes ------------------------------------------------------------------------


def test_launch_nodes_in_their_fixed_order() -> None:
    """MC-MOVE-SRC: every bot in an output or fabricator hole leaves at once; Start Zone rows first (a Start
    Zone hole sits west of column 0), then the floor cells row by row, each tile's holes in order; a
    floor output hole leaves by its side as the tile is turned."""
    f = F(
        """
        advanced[BP] | . . DU0[/BB] . | truck
        basic[D]     | . . .        . | truck
        hole         | . UP1[/P] .  . | truck
        """
    )
    assert launch_nodes(f, V) == [
        ("start", 0, 0, (0, 0, E)),
        ("start", 0, 1, (0, 0, E)),
        ("start", 1, 0, (1, 0, E)),
        ("floor", 2, 0, (0, 3, E)),  # the Duplicator's first output hole leaves east
        ("floor", 2, 1, (1, 2, S)),  # its second one south
        ("floor", 9, 0, (3, 1, S)),  # the Upgrader turned once leaves south, off the floor
    ]
    assert launch_nodes(F("hole | . . . . | truck\nbasic | . . . . | truck\nhole | . . . . | truck\n"), V) == []


def test_a_start_zone_hole_leaves_by_its_tiles_side() -> None:
    """MC-MOVE-SRC: a Start Zone hole leaves by its tile's exit side; with a variant whose Advanced
    Fabricator's second hole leaves south, that bot starts one row down, west of column 0."""
    v = load_variant({"tiles": {"advanced_fabricator": {"outputs": ["E", "S"]}}})
    f = F("advanced[BP] | . . . . | truck\nbasic | . . . . | truck\nhole | . . . . | truck\n", v)
    assert launch_nodes(f, v) == [("start", 0, 0, (0, 0, E)), ("start", 0, 1, (1, -1, S))]
    assert options(f, v, (1, -1, S)) == (Step(destroy="MC-MOVE-OFF", rule="MC-MOVE-OFF"),)


# --- the memo of movement options -----------------------------------------------------------------------


def test_the_options_memo_is_shared_by_boards_of_one_layout() -> None:
    """options_table: one memo per floor layout, rulings and catalogue; the bots do not matter, so every
    board with the same tiles reads the same memo (the workday runs depend on it for speed)."""
    V.catalogue.memos.clear()  # the memo is emptied when full: start from empty so it is not emptied here
    a = F("hole | . GW0 . . | truck\nbasic[B] | . . . . | truck\nhole | . . . . | truck\n")
    b = F("hole[P] | . GW0 . . | big[BB]\nbasic | . . . . | truck\nhole | . . . . | truck\n")
    table = options_table(a, V)
    assert options_table(a, V) is table
    assert options_table(b, V) is table
    other = F("hole | . GW1 . . | truck\nbasic[B] | . . . . | truck\nhole | . . . . | truck\n")
    assert options_table(other, V) is not table


def test_the_options_memo_is_per_catalogue_and_rulings() -> None:
    """options_table: another catalogue or other rulings get their own memo, and each keeps it when the
    calls interleave."""
    V.catalogue.memos.clear()  # as above
    f = F("hole | . GW0 . . | truck\nbasic[B] | . . . . | truck\nhole | . . . . | truck\n")
    v2 = load_variant({"tiles": {"gift_wrapper": {"value": 9}}})
    v3 = MechanicaVariant(catalogue=V.catalogue, rulings=Rulings(flight="both_ways"))
    t1 = options_table(f, V)
    t2 = options_table(f, v2)
    t3 = options_table(f, v3)
    assert t1 is not t2 and t1 is not t3 and t2 is not t3
    assert options_table(f, V) is t1
    assert options_table(f, v2) is t2
    assert options_table(f, v3) is t3


# --- MC-FLIGHT ----------------------------------------------------------------------------------------


def test_flight_targets_east_with_jumps_and_the_truck() -> None:
    """MC-FLIGHT: a throw east lands on any cell of the row beyond the tester or on the row's truck;
    MC-FLIGHT-JUMP: a coin when the throw passes over an improvement or Fork on the way."""
    # a Flight Tester whose flat side faces east: rotation 0
    f = F("hole | FT0 . GW0 . | truck\nbasic | . . . . | truck\nhole | . . . . | truck\n")
    steps = flight_targets(f, V, 0, 0, Dir.E)
    assert [(s.label, s.then, s.jump, s.rule) for s in steps] == [
        ((0, 1), (0, 1, LAND), 0, "MC-FLIGHT"),
        ((0, 2), (0, 2, LAND), 0, "MC-FLIGHT"),  # landing on the Gift Wrapper is no jump
        ((0, 3), (0, 3, LAND), 1, "MC-FLIGHT"),  # passing over it is
        ((0, 4), (0, 4, LAND), 1, "MC-FLIGHT"),  # the truck
    ]
    assert all(s.arrive is None and s.destroy is None and s.gift == 0 and s.charge is None for s in steps)


def test_flight_targets_north_south_and_west_never_reach_a_truck() -> None:
    """MC-FLIGHT: a throw north, south or west lands on floor cells only, nearest first in the direction
    of the throw; the landing list is sorted by cell."""
    f = F("hole | . . . . | truck\nbasic | . . FT0 . | truck\nhole | . . UP0 . | truck\n")
    assert [s.then for s in flight_targets(f, V, 1, 2, Dir.W)] == [(1, 0, LAND), (1, 1, LAND)]
    assert [s.then for s in flight_targets(f, V, 1, 2, Dir.N)] == [(0, 2, LAND)]
    south = flight_targets(f, V, 1, 2, Dir.S)
    assert [(s.then, s.jump) for s in south] == [((2, 2, LAND), 0)]
    # from the top row, a throw north has nowhere to land
    assert flight_targets(f, V, 0, 2, Dir.N) == []


def test_flight_both_ways_ruling_adds_the_opposite_side() -> None:
    """MC-FLIGHT ruling flight="both_ways": the throw may also go away from the flat side."""
    both = MechanicaVariant(catalogue=V.catalogue, rulings=Rulings(flight="both_ways"))
    f = F("hole | . . . . | truck\nbasic | . FT0 . . | truck\nhole | . . . . | truck\n")
    assert [s.then for s in flight_targets(f, both, 1, 1, Dir.E)] == [
        (1, 0, LAND),
        (1, 2, LAND),
        (1, 3, LAND),
        (1, 4, LAND),
    ]
    assert [s.then for s in flight_targets(f, V, 1, 1, Dir.E)] == [(1, 2, LAND), (1, 3, LAND), (1, 4, LAND)]


def test_find_loop_none_on_a_board_without_cycles() -> None:
    """MC-MOVE-LOOP: belts and a Fork whose exits both lead on east have no cycle."""
    f = F("hole | . . . . | truck\nbasic | . FK0 . . | truck\nhole | . . . . | truck\n")
    assert find_loop(f, V) is None


def test_find_loop_finds_a_cycle_through_its_first_node() -> None:
    """MC-MOVE-LOOP: a ring of four Gift Wrappers whose first node in search order, (0,0) entered heading
    north, is itself on the cycle: the search must recognise its own starting node when the path returns."""
    ring = F("hole | GW0 GW1 . . | truck\nbasic | GW3 GW2 . . | truck\nhole | . . . . | truck\n")
    assert find_loop(ring, V) == "(0,0)N -> (0,1)E -> (1,1)S -> (1,0)W"


def test_find_loop_searches_past_the_nodes_already_explored() -> None:
    """MC-MOVE-LOOP: a ring in rows 1 and 2 that no node of row 0 reaches is still found: the search goes
    on from every node not yet explored."""
    low = F("hole | . . . . | truck\nbasic | GW0 GW1 . . | truck\nhole | GW3 GW2 . . | truck\n")
    assert find_loop(low, V) == "(1,0)N -> (1,1)E -> (2,1)S -> (2,0)W"


def test_find_loop_follows_every_exit_of_a_fork() -> None:
    """MC-MOVE-LOOP "for some choices": the ring closes only through the Fork's second exit (east; its
    first, north, leads to row 0 and the truck), and is found."""
    fork = F("hole | . . . . | truck\nbasic | FK0 GW1 . . | truck\nhole | GW3 GW2 . . | truck\n")
    assert [s.label for s in options(fork, V, (1, 0, N))] == [Dir.N, Dir.E]
    assert find_loop(fork, V) == "(1,0)N -> (1,1)E -> (2,1)S -> (2,0)W"


def test_below_or_above_the_dock_is_off_the_board() -> None:
    """MC-MOVE-OFF / MC-MOVE-STOP: column 4 is a truck only in rows 0-2; below or above the Loading Dock a
    bot is off the board and destroyed."""
    f = F("hole | . . . . | truck\nbasic | . . . . | truck\nhole | . . . . | truck\n")
    off = (Step(destroy="MC-MOVE-OFF", rule="MC-MOVE-OFF"),)
    assert options(f, V, (3, 4, S)) == off
    assert options(f, V, (-1, 4, N)) == off
    assert options(f, V, (2, 4, E)) == (Step(arrive=TRUCK_BIN + 2, rule="MC-MOVE-STOP"),)
    assert options(f, V, (0, 4, E)) == (Step(arrive=TRUCK_BIN, rule="MC-MOVE-STOP"),)
