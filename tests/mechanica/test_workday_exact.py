"""The workday run (bgrules.mechanica.workday), pinned exactly where a mutmut run of the rule modules found
the suite silent (docs/mutation.md): coin and charge counts that add up over several steps, collisions at
and over capacity, every activation with and without the stock's bots, the refusals' rule IDs and texts,
and the run's converters."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from bgrules import IllegalAction
from bgrules.core import coverage
from bgrules.mechanica import movement, workday
from bgrules.mechanica import run as run_values
from bgrules.mechanica.board import empty_factory
from bgrules.mechanica.components import Bot, Dir
from bgrules.mechanica.factory import Factory
from bgrules.mechanica.movement import LAND, TRUCK_BIN, Step, node_code
from bgrules.mechanica.notation import parse_factory
from bgrules.mechanica.run import Change, ChooseOutput, Discard, Fly, Moving, Route, Run, RunPhase
from bgrules.mechanica.variant import MechanicaVariant, default_variant, load_variant
from bgrules.mechanica.workday import cell_of, decide, decisions, first_choice, run_workday, start_run

V = default_variant()
B, P, D = Bot.BASIC, Bot.PLUS, Bot.DELUXE
FULL = (24, 24, 24)
E = int(Dir.E)


def F(text: str, variant: MechanicaVariant = V) -> Factory:
    return parse_factory(text, variant)


def board(r0: str = "hole | . . . . | truck", r1: str = "basic | . . . . | truck", r2: str = "hole | . . . . | truck"):
    return f"{r0}\n{r1}\n{r2}\n"


def done(factory: Factory, stock: tuple[int, int, int] = FULL, variant: MechanicaVariant = V) -> Run:
    run = start_run(factory, stock, variant)
    assert run.phase is RunPhase.DONE, decisions(run, variant)
    return run


# --- coins and charges add up (MC-GIFT, MC-FLIGHT-JUMP, MC-CHARGE) --------------------------------------


def test_two_gift_wrappers_pay_two_coins_into_the_vault() -> None:
    """MC-GIFT: every pass through a Gift Wrapper pays one coin into the vault."""
    run = done(F(board(r1="basic[B] | GW0 GW0 . . | truck")))
    assert run.vault == 2 and run.wallet == 0
    assert run.factory.dock[1].load == (B,)


def test_two_jumping_throws_pay_two_coins_into_the_wallet() -> None:
    """MC-FLIGHT-JUMP: each throw over an improvement pays one wallet coin; two throws, two coins."""
    f = F(board(r1="basic[B] | FT0 GW0 FT0 GW0 | truck"))
    run = start_run(f, FULL, V)
    assert decisions(run, V) == (Fly(1, 0, 1, 1), Fly(1, 0, 1, 2), Fly(1, 0, 1, 3), Fly(1, 0, 1, 4))
    run = decide(run, V, Fly(1, 0, 1, 2))  # over the Gift Wrapper on (1,1) onto the second tester
    assert run.wallet == 1
    assert decisions(run, V) == (Fly(1, 2, 1, 3), Fly(1, 2, 1, 4))
    run = decide(run, V, Fly(1, 2, 1, 4))  # over the Gift Wrapper on (1,3) into the truck
    assert run.phase is RunPhase.DONE
    assert run.wallet == 2 and run.vault == 0
    assert run.factory.dock[1].load == (B,)


def test_two_passes_through_a_static_charger_fill_both_output_holes() -> None:
    """MC-CHARGE: each pass makes one Basic bot into an empty output hole; two bots, two Basic bots."""
    f = F(board(r0="advanced[PD] | SC0 . . . | big"))
    run = done(f, (5, 5, 5))
    assert run.factory.at(0, 0).outputs == (B, B)
    assert run.stock == (3, 5, 5)
    assert run.factory.dock[0].load == (P, D)
    assert run.charges == (0,) * 12


def test_one_pass_through_a_static_charger_fills_one_hole() -> None:
    """MC-CHARGE: one pass, one Basic bot, into the first empty output hole."""
    run = done(F(board(r0="hole[P] | SC0 . . . | truck")), (5, 5, 5))
    assert run.factory.at(0, 0).outputs == (B, None)
    assert run.stock == (4, 5, 5)


def test_a_static_charger_without_basic_bots_in_stock_makes_nothing() -> None:
    """MC-STOCK: a bot the stock lacks is not made; the pass is used up all the same."""
    run = done(F(board(r0="advanced[PD] | SC0 . . . | big")), (0, 5, 5))
    assert run.factory.at(0, 0).outputs == (None, None)
    assert run.stock == (0, 5, 5)
    run = done(F(board(r0="advanced[PD] | SC0 . . . | big")), (1, 5, 5))
    assert run.factory.at(0, 0).outputs == (B, None)
    assert run.stock == (0, 5, 5)


def test_two_bots_destroyed_in_one_movement_count_twice() -> None:
    """MC-MOVE-EDGE: both bots of an Advanced Fabricator run into a Flight Tester's flat west side; both
    are destroyed and go back to the stock."""
    run = done(F(board(r0="advanced[BP] | FT2 . . . | truck")), (3, 3, 3))
    assert run.destroyed == 2 and run.stock == (4, 4, 3)
    assert run.factory.bot_counts() == (0, 0, 0)


# --- MC-MOVE-LOOP only on floor nodes ------------------------------------------------------------------


def test_a_truck_node_is_never_taken_for_a_visited_floor_node() -> None:
    """MC-MOVE-LOOP looks at floor nodes only: the truck of row 0, entered heading east, shares its number
    ``(0*4+4)*5+1`` with the floor node (1,0) east, which this bot passed; it still arrives."""
    f = F(board(r1="basic[B] | . FK0 . . | truck"))
    run = start_run(f, FULL, V)
    assert decisions(run, V) == (Route(1, 1, Dir.N), Route(1, 1, Dir.E))
    run = decide(run, V, Route(1, 1, Dir.N))
    assert run.phase is RunPhase.DONE
    assert run.factory.dock[0].load == (B,) and run.destroyed == 0


def test_a_loop_destroys_the_bot_and_returns_it_to_the_stock() -> None:
    """MC-MOVE-LOOP: a bot entering a node it has left is destroyed (its bot goes back to the stock)."""
    loop = board(r0="hole[B] | . GW1 GW2 . | truck", r1="basic | . . GW3 . | truck")
    run = done(F(loop), (3, 3, 3))
    assert run.destroyed == 1 and run.stock == (4, 3, 3) and run.vault == 4


def test_a_loop_is_caught_where_the_bot_first_reenters_a_node_in_row_0_column_0() -> None:
    """MC-MOVE-LOOP on every floor node, the top row and the west column included: the bot from the printed
    Basic Fabricator enters the ring of Gift Wrappers at (1,0) heading east, goes round (1,0) -> (0,0) ->
    (0,1) -> (1,1) -> (1,0) heading west, and is destroyed as it would enter (0,0) heading north again:
    five gifts, not one more."""
    ring = board(r0="hole | GW0 GW1 . . | truck", r1="basic[B] | GW3 GW2 . . | truck")
    run = done(F(ring), (3, 3, 3))
    assert run.vault == 5 and run.destroyed == 1 and run.stock == (4, 3, 3)


# --- MC-COLLIDE ---------------------------------------------------------------------------------------


def test_bots_up_to_capacity_do_not_collide() -> None:
    """MC-COLLIDE: a Big Truck holds two different bots without any collision."""
    run = done(F(board(r0="advanced[BP] | . . . . | big")))
    assert run.factory.dock[0].load == (B, P)
    assert run.collisions == 0 and run.destroyed == 0


def test_identical_bots_over_capacity_are_destroyed_without_a_choice() -> None:
    """MC-COLLIDE: when the crowding bots are all alike there is nothing to choose: the extras go."""
    run = done(F(board(r0="advanced[PP] | . . . . | truck")), (3, 3, 3))
    assert run.factory.dock[0].load == (P,)
    assert run.destroyed == 1 and run.collisions == 1 and run.stock == (3, 4, 3)


def test_different_bots_over_capacity_let_the_owner_choose() -> None:
    """MC-COLLIDE: the owner chooses which bot is destroyed, one Discard per kind, in grade order; two
    crowded bins count as two collisions."""
    f = F(board(r0="advanced[DB] | . . . . | truck", r2="advanced[PP] | . . . . | truck"))
    run = start_run(f, (3, 3, 3), V)
    assert run.phase is RunPhase.COLLIDE and run.collisions == 2
    assert decisions(run, V) == (Discard(0, 4, B), Discard(0, 4, D))
    run = decide(run, V, Discard(0, 4, B))
    assert run.phase is RunPhase.DONE
    assert [t.load for t in run.factory.dock] == [(D,), (), (P,)]
    assert run.stock == (4, 4, 3) and run.destroyed == 2


def test_two_bots_pour_into_one_input_hole_sorted() -> None:
    """MC-COLLIDE: the bots poured into a hole are held in grade order until the collision is settled."""
    f = F(board(r0="advanced[DB] | UP0 . . . | truck"))
    run = start_run(f, (3, 3, 3), V)
    assert run.phase is RunPhase.COLLIDE
    assert run.factory.at(0, 0).inputs == (B, D)
    assert decisions(run, V) == (Discard(0, 0, B), Discard(0, 0, D))
    run = decide(run, V, Discard(0, 0, D))
    assert run.phase is RunPhase.DONE
    assert run.factory.at(0, 0).outputs == (P,) and run.factory.at(0, 0).inputs == ()
    assert run.stock == (4, 2, 4)


# --- activation (MC-ACT-*) -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bot", "stock", "out", "after"),
    [
        (B, (3, 3, 3), P, (4, 2, 3)),
        (P, (3, 3, 3), D, (3, 4, 2)),
        (D, (3, 3, 3), D, (3, 3, 3)),  # a Deluxe bot stays Deluxe, moved as it is
        (B, (3, 0, 3), None, (4, 0, 3)),  # MC-STOCK: no Plus to make; the Basic went back
    ],
)
def test_upgrader(bot: Bot, stock: tuple[int, int, int], out: Bot | None, after: tuple[int, int, int]) -> None:
    """MC-ACT-UPGRADE: the bot goes back to the stock and one a grade higher comes out."""
    f = F(board(r0=f"hole[{bot.letter}] | UP0 . . . | truck"))
    run = done(f, stock)
    assert run.factory.at(0, 0).outputs == (out,) and run.factory.at(0, 0).inputs == ()
    assert run.stock == after


@pytest.mark.parametrize(
    ("stock", "outs", "after"),
    [((3, 3, 3), (P, P), (3, 2, 3)), ((3, 0, 3), (P, None), (3, 0, 3))],
)
def test_duplicator(stock: tuple[int, int, int], outs: tuple[Bot | None, ...], after: tuple[int, int, int]) -> None:
    """MC-ACT-DUPLICATE: the bot to the first output hole, a copy from the stock to the other one."""
    run = done(F(board(r0="hole[P] | DU0 . . . | truck")), stock)
    assert run.factory.at(0, 0).outputs == outs
    assert run.stock == after


@pytest.mark.parametrize(
    ("bot", "stock", "outs", "after"),
    [
        (D, (3, 3, 3), (P, P, P), (3, 0, 4)),
        (P, (3, 3, 3), (B, B, B), (0, 4, 3)),
        (P, (2, 3, 3), (B, B, None), (0, 4, 3)),  # MC-STOCK: only two Basic bots to make
    ],
)
def test_downgrader(
    bot: Bot, stock: tuple[int, int, int], outs: tuple[Bot | None, ...], after: tuple[int, int, int]
) -> None:
    """MC-ACT-DOWNGRADE: the bot goes back and one a grade lower comes into every output hole."""
    run = done(F(board(r0=f"hole[{bot.letter}] | DG0 . . . | truck")), stock)
    assert run.factory.at(0, 0).outputs == outs
    assert run.stock == after


def test_downgrader_basic_bot_goes_to_the_chosen_hole() -> None:
    """MC-ACT-DOWNGRADE: a Basic bot stays one bot; the owner picks its output hole."""
    f = F(board(r0="hole[B] | DG0 . . . | truck"))
    run = start_run(f, (3, 3, 3), V)
    assert run.phase is RunPhase.ACTIVATE
    assert decisions(run, V) == (ChooseOutput(0, 0, 0), ChooseOutput(0, 0, 1), ChooseOutput(0, 0, 2))
    run = decide(run, V, ChooseOutput(0, 0, 2))
    assert run.factory.at(0, 0).outputs == (None, None, B)
    assert run.stock == (3, 3, 3) and run.phase is RunPhase.DONE


def test_downgrader_with_fewer_output_holes_by_variant() -> None:
    """MC-ACT-DOWNGRADE with a variant Downgrader: two holes still ask where the Basic bot goes; one hole
    takes it without a question."""
    two = load_variant({"tiles": {"downgrader": {"outputs": ["N", "E"]}}})
    run = start_run(F(board(r0="hole[B] | DG0 . . . | truck"), two), (3, 3, 3), two)
    assert decisions(run, two) == (ChooseOutput(0, 0, 0), ChooseOutput(0, 0, 1))
    one = load_variant({"tiles": {"downgrader": {"outputs": ["E"]}}})
    run = done(F(board(r0="hole[B] | DG0 . . . | truck"), one), (3, 3, 3), one)
    assert run.factory.at(0, 0).outputs == (B,)
    assert run.stock == (3, 3, 3)


def test_function_changer_waits_for_two_bots_then_makes_the_chosen_one() -> None:
    """MC-ACT-CHANGE: with one bot it waits; with two, both go back and the chosen bot comes out."""
    run = done(F(board(r0="hole[P] | FC0 . . . | truck")), (3, 3, 3))
    assert run.factory.at(0, 0).inputs == (P,) and run.factory.at(0, 0).outputs == (None,)
    assert run.stock == (3, 3, 3)
    f = F(board(r0="hole[P] | FC0[B/] . . . | truck"))
    run = start_run(f, (3, 3, 3), V)
    assert run.phase is RunPhase.ACTIVATE
    assert decisions(run, V) == (Change(0, 0, B), Change(0, 0, P), Change(0, 0, D))
    after = decide(run, V, Change(0, 0, D))
    assert after.factory.at(0, 0).outputs == (D,) and after.factory.at(0, 0).inputs == ()
    assert after.stock == (4, 4, 2)
    short = decide(start_run(f, (3, 3, 0), V), V, Change(0, 0, D))
    assert short.factory.at(0, 0).outputs == (None,) and short.stock == (4, 4, 0)


def test_activations_in_cursor_order_each_with_its_decision() -> None:
    """Seed section A, activation: improvements activate in floor order; after the owner's choice for the
    Function Changer on (0,0), the Downgrader on (1,0) asks for its Basic bot's hole, and after that the run
    ends."""
    f = F(board(r0="hole[P] | FC0[B/] . . . | truck", r1="basic[B] | DG0 . . . | truck"))
    run = start_run(f, (3, 3, 3), V)
    assert decisions(run, V) == (Change(0, 0, B), Change(0, 0, P), Change(0, 0, D))
    run = decide(run, V, Change(0, 0, P))
    assert run.phase is RunPhase.ACTIVATE and run.cursor == 4
    assert decisions(run, V) == (ChooseOutput(1, 0, 0), ChooseOutput(1, 0, 1), ChooseOutput(1, 0, 2))
    run = decide(run, V, ChooseOutput(1, 0, 1))
    assert run.phase is RunPhase.DONE
    assert run.factory.at(0, 0).outputs == (P,) and run.factory.at(1, 0).outputs == (None, B, None)
    assert run.stock == (4, 3, 3)
    # and the other way round: the Downgrader's choice first, then the Function Changer's
    f = F(board(r0="hole[B] | DG0 . . . | truck", r1="basic[B] | FC0[P/] . . . | truck"))
    run = decide(start_run(f, (3, 3, 3), V), V, ChooseOutput(0, 0, 2))
    assert run.cursor == 4 and decisions(run, V) == (Change(1, 0, B), Change(1, 0, P), Change(1, 0, D))
    run = decide(run, V, Change(1, 0, D))
    assert run.factory.at(0, 0).outputs == (None, None, B) and run.factory.at(1, 0).outputs == (D,)
    assert run.phase is RunPhase.DONE and run.stock == (4, 4, 2)


def test_an_improvement_holding_a_bot_activates_even_when_nothing_moves() -> None:
    """Seed section A: activation follows movement even when no bot moved (an Upgrader set up holding a
    bot in its input hole still upgrades it)."""
    run = done(F(board(r0="hole | UP0[B/] . . . | truck")), (3, 3, 3))
    assert run.factory.at(0, 0).outputs == (P,) and run.stock == (4, 2, 3)
    assert run.cursor == 12


def test_nothing_to_do_is_done_at_once() -> None:
    run = start_run(F(board()), (3, 3, 3), V)
    assert run.phase is RunPhase.DONE and run.cursor == 12 and decisions(run, V) == ()


def test_a_run_with_no_bot_moving_awaits_no_movement_decision() -> None:
    """A Run built with its defaults (movement phase, no bot on its way) offers no decision; advancing it
    ends it."""
    run = Run(F(board()), (3, 3, 3))
    assert run.phase is RunPhase.MOVE and decisions(run, V) == ()
    assert workday.advance(run, V).phase is RunPhase.DONE


# --- refusals name their rule ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "rule"),
    [
        (Route(1, 1, Dir.S), "MC-FORK"),
        (Fly(1, 1, 0, 0), "MC-FLIGHT"),
        (Discard(0, 4, B), "MC-COLLIDE"),
        (Change(0, 0, B), "MC-ACT-CHANGE"),
        (ChooseOutput(0, 0, 0), "MC-ACT-DOWNGRADE"),
        ("skip", "MC-RUN"),
    ],
)
def test_decide_refusals_name_the_rule(action: object, rule: str) -> None:
    """A decision that is not legal now raises IllegalAction naming the rule of its kind and listing the
    legal ones; when the run awaits nothing, it says so."""
    f = F(board(r1="basic[B] | . FK0 . . | truck"))
    run = start_run(f, FULL, V)
    with pytest.raises(IllegalAction) as e:
        decide(run, V, action)  # type: ignore[arg-type]
    legal = "Route(row=1, col=1, exit=Dir.N), Route(row=1, col=1, exit=Dir.E)"
    assert (e.value.rule_id, e.value.why) == (rule, f"{action!r} is not legal now; legal: {legal}")
    finished = decide(run, V, Route(1, 1, Dir.E))
    with pytest.raises(IllegalAction) as e:
        decide(finished, V, action)  # type: ignore[arg-type]
    assert (e.value.rule_id, e.value.why) == (rule, f"{action!r}: the workday run awaits no decision")


def test_a_bot_reaches_its_decision_with_the_nodes_it_left() -> None:
    """The forced steps up to a Fork (one route, workday._route) leave the bot at the Fork with the floor
    nodes it passed in its visited set (what MC-MOVE-LOOP reads after the decision)."""
    run = start_run(F(board(r1="basic[B] | . FK0 . . | truck")), FULL, V)
    assert run.moving == (Moving(B, (1, 1, E), 1 << node_code((1, 0, E))),)
    two = start_run(F(board(r1="basic[B] | . . FK0 . | truck")), FULL, V)
    assert two.moving == (Moving(B, (1, 2, E), 1 << node_code((1, 0, E)) | 1 << node_code((1, 1, E))),)


@pytest.fixture
def fresh_memos() -> Any:
    """The catalogue's memos emptied before the test and after it (the test puts made-up entries there)."""
    V.catalogue.memos.clear()
    yield V.catalogue.memos
    V.catalogue.memos.clear()


@pytest.mark.usefixtures("fresh_memos")
def test_routes_are_memoised_per_floor_layout() -> None:
    """A bot's forced steps are read from the memo of its floor layout (workday._routes): the same memo for
    an equal layout, another for another layout; a route put there is the one the run follows."""
    text = board(r1="basic[B] | . . . . | truck")
    f = F(text)
    routes = workday._routes(f, V)
    assert workday._routes(f, V) is routes and workday._routes(F(text), V) is routes
    assert workday._routes(F(board(r1="basic[B] | GW1 . . . | truck")), V) is not routes
    assert [t.load for t in start_run(f, FULL, V).factory.dock] == [(), (B,), ()]
    passed = sum(1 << node_code((1, c, E)) for c in range(4))
    assert routes[((1, 0, E), 0)] == (("MC-MOVE-BELT",) * 4 + ("MC-MOVE-STOP",), 0, 0, (), TRUCK_BIN + 1, None, passed)
    routes[((1, 0, E), 0)] = ((), 0, 0, (), TRUCK_BIN + 2, None, 0)  # a made-up route: onto the third truck
    assert [t.load for t in start_run(f, FULL, V).factory.dock] == [(), (), (B,)]


@pytest.mark.usefixtures("fresh_memos")
def test_routes_read_the_options_memo() -> None:
    """A route is made of the options memoised for its layout (movement.options_table), and adds up what
    its forced steps pay: here made-up forced throws that jump (none of the real options is one: a throw
    that jumps has two landing places or more, a decision) and a gift."""
    f = F(board(r1="basic[B] | . . . . | truck"))
    table = movement.options_table(f, V)
    table[(1, 0, E)] = (Step(then=(1, 2, LAND), jump=1, gift=1, rule="MC-FLIGHT"),)
    table[(1, 2, LAND)] = (Step(then=(1, 3, LAND), jump=1, rule="MC-FLIGHT"),)
    passed = sum(1 << node_code(n) for n in ((1, 0, E), (1, 2, LAND), (1, 3, LAND)))
    rules = ("MC-FLIGHT", "MC-FLIGHT-JUMP", "MC-FLIGHT", "MC-FLIGHT-JUMP", "MC-MOVE-BELT", "MC-MOVE-STOP")
    assert workday._route(f, V, (1, 0, E), 0) == (rules, 1, 2, (), TRUCK_BIN + 1, None, passed)
    with coverage.recording("tests") as counts:
        run = start_run(f, FULL, V)
    assert (run.wallet, run.vault) == (2, 1) and run.factory.dock[1].load == (B,)
    assert counts.effects["MC-FLIGHT-JUMP"] == 2 and counts.effects["MC-FLIGHT"] == 2


def test_decide_follows_the_chosen_fork_exit() -> None:
    f = F(board(r1="basic[B] | . FK0 . . | truck"))
    run = decide(start_run(f, FULL, V), V, Route(1, 1, Dir.E))
    assert [t.load for t in run.factory.dock] == [(), (B,), ()]


# --- the driver and the converters ---------------------------------------------------------------------


def test_run_workday_takes_the_policy_or_the_first_choice() -> None:
    f = F(board(r1="basic[B] | . FK0 . . | truck"))
    assert [t.load for t in run_workday(f, FULL, V).factory.dock] == [(B,), (), ()]
    last = run_workday(f, FULL, V, lambda run, legal: legal[-1])
    assert [t.load for t in last.factory.dock] == [(), (B,), ()]
    run = start_run(f, FULL, V)
    assert first_choice(run, decisions(run, V)) == Route(1, 1, Dir.N)
    seen: list[Run] = []

    def policy(at: Run, legal: tuple[workday.RunDecision, ...]) -> workday.RunDecision:
        seen.append(at)
        assert legal == decisions(at, V)
        return legal[0]

    run_workday(f, FULL, V, policy)
    assert [(r.phase, r.moving[0].node) for r in seen] == [(RunPhase.MOVE, (1, 1, E))]


def test_cell_of_a_node() -> None:
    assert cell_of((2, 3, E)) == (2, 3)


def test_run_and_moving_converters() -> None:
    """Run and Moving take JSON-ish values: the stock as any three numbers, a node as any three numbers."""
    f = F(board())
    assert Run(f, [1, 2, 3]).stock == (1, 2, 3)
    run = Run(f, ("4", 5.0, 6))  # type: ignore[arg-type]
    assert run.stock == (4, 5, 6) and all(type(x) is int for x in run.stock)
    strs = Run(f, ("1", "2", "3"))  # type: ignore[arg-type]
    assert strs.stock == (1, 2, 3) and all(type(x) is int for x in strs.stock)
    for wrong in ((1, 2), (1, 2, 3, 4), [1, 2, 3, 4]):
        with pytest.raises(ValueError, match=r"^the stock has three counts: Basic, Plus, Deluxe$"):
            Run(f, wrong)
    m = Moving(2, [1, "2", 3.0])  # type: ignore[arg-type]
    assert m.bot is D and m.node == (1, 2, 3) and all(type(x) is int for x in m.node) and m.visited == 0


def test_run_phase_repr() -> None:
    assert [repr(p) for p in RunPhase] == ["RunPhase.MOVE", "RunPhase.COLLIDE", "RunPhase.ACTIVATE", "RunPhase.DONE"]


# --- rule coverage: each effect counted where it is applied (bgrules.core.coverage) -----------------------


def _fly() -> None:
    run = start_run(F(board(r1="basic[B] | FT0 GW0 FT0 GW0 | truck")), (3, 3, 3), V)
    decide(decide(run, V, Fly(1, 0, 1, 2)), V, Fly(1, 2, 1, 4))


def _collide() -> None:
    run = start_run(F(board(r0="advanced[DB] | . . . . | truck")), (3, 3, 3), V)
    decide(run, V, Discard(0, 4, B))


def _change() -> None:
    run = start_run(F(board(r0="hole[P] | FC0[B/] . . . | truck")), (3, 3, 3), V)
    decide(run, V, Change(0, 0, D))


def _run(r0: str = "hole | . . . . | truck", r1: str = "basic | . . . . | truck", stock=(3, 3, 3)):
    return lambda: start_run(F(board(r0=r0, r1=r1)), stock, V)


START = {"MC-RUN": 1, "MC-MOVE-SRC": 1, "MC-MOVE": 1}
START2 = {"MC-RUN": 1, "MC-MOVE-SRC": 2, "MC-MOVE": 2}


@pytest.mark.parametrize(
    ("play", "effects"),
    [
        # one bot: through a Gift Wrapper, three belts, into the truck
        (_run(r1="basic[B] | GW0 . . . | truck"), {**START, "MC-GIFT": 1, "MC-MOVE-BELT": 3, "MC-MOVE-STOP": 1}),
        # two throws, each over an improvement
        (_fly, {**START, "MC-FLIGHT": 2, "MC-FLIGHT-JUMP": 2, "MC-MOVE-STOP": 1}),
        # two bots crowd a truck; the owner discards one (its bot back to the stock: MC-STOCK)
        (_collide, {**START2, "MC-MOVE-BELT": 8, "MC-MOVE-STOP": 2, "MC-HOLE": 1, "MC-COLLIDE": 1, "MC-STOCK": 1}),
        # two passes through a Static Charger (two steps and one placing of charges), two Basic bots taken
        (
            _run(r0="advanced[PD] | SC0 . . . | big", stock=(5, 5, 5)),
            {**START2, "MC-CHARGE": 3, "MC-MOVE-BELT": 6, "MC-MOVE-STOP": 2, "MC-STOCK": 2},
        ),
        # activations: the bot back to the stock and the new ones taken count as MC-STOCK
        (
            _run(r0="hole[B] | UP0 . . . | truck"),
            {**START, "MC-MOVE-STOP": 1, "MC-ACT": 1, "MC-ACT-UPGRADE": 1, "MC-STOCK": 2},
        ),
        (
            _run(r0="hole[P] | DU0 . . . | truck"),
            {**START, "MC-MOVE-STOP": 1, "MC-ACT": 1, "MC-ACT-DUPLICATE": 1, "MC-STOCK": 1},
        ),
        (
            _run(r0="hole[P] | DG0 . . . | truck"),
            {**START, "MC-MOVE-STOP": 1, "MC-ACT": 1, "MC-ACT-DOWNGRADE": 1, "MC-STOCK": 4},
        ),
        (_change, {**START, "MC-MOVE-STOP": 1, "MC-ACT": 1, "MC-ACT-CHANGE": 1, "MC-STOCK": 2}),
        # two bots into a flat side
        (_run(r0="advanced[BP] | FT2 . . . | truck"), {**START2, "MC-MOVE-EDGE": 2}),
    ],
)
def test_rule_coverage_counts_each_effect_where_it_is_applied(play, effects: dict[str, int]) -> None:
    """Rule coverage (docs/coverage.md): every rule's effect is counted once each time it is applied, under
    its own rule ID, so `bgrules coverage` reports what a run really did."""
    with coverage.recording("tests") as counts:
        play()
    assert dict(counts.effects) == effects
    assert dict(counts.refusals) == {}


# --- the run's copies (workday._copy, slot by slot; docs/speed.md) -----------------------------------


def _probe() -> Run:
    return Run(F(board(r0="hole[P] | DU0 . . . | truck")), (1, 2, 3), (Moving(P, (1, 0, 1), 4),), ((3, D),), cursor=5)


def test_runs_are_copied_by_their_slots() -> None:
    """A copy sets the slots (the stock kept as it is, not rebuilt by its converter) and equals, slot for
    slot, the copy ``Run.__init__`` makes."""
    run = _probe()
    for changes in ({"cursor": 7}, {"stock": (4, 5, 6), "phase": RunPhase.COLLIDE}, {"moving": (), "vault": 2}):
        got, reference = workday._copy(run, **changes), attrs.evolve(run, **changes)
        assert all(getattr(got, n) == getattr(reference, n) for n in run_values._RUN_SLOTS)  # hash caches unset
        assert got == reference and hash(got) == hash(reference)
        assert got.stock is changes.get("stock", run.stock)
    assert run_values._RUN_SLOTS[-1] == "_attrs_cached_hash" and len(run_values._RUN_SLOTS) == 12


def test_a_slot_copy_that_differs_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    real = run_values._copier

    def wrong(changed: tuple[str, ...], by_slots: bool) -> Any:
        copy = real(changed, by_slots)
        if not by_slots:
            return copy
        return lambda run, changes: attrs.evolve(copy(run, changes), vault=run.vault + 1)

    monkeypatch.setattr(run_values, "_copier", wrong)
    run = _probe()
    copy = run_values._checked_copier(run, {"cursor": 1})
    assert copy(run, {"cursor": 1}).vault == run.vault
    assert copy(run, {"cursor": 1}).stock is not run.stock  # the __init__ copy: its converter's tuple


def test_the_copies_reject_unknown_fields() -> None:
    run = Run(empty_factory(), (1, 1, 1))
    with pytest.raises(TypeError, match=r"^Run has no field\(s\) nonsense, other$"):
        workday._copy(run, nonsense=1, other=2, cursor=1)
    assert run_values._copier(("cursor",), by_slots=False)(run, {"cursor": 3}) == attrs.evolve(run, cursor=3)


def test_the_copies_are_memoised_per_change_set(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each change set's copy is generated (and checked) once, then read from the memo."""
    monkeypatch.setattr(run_values, "_RUN_COPIES", {})
    run = _probe()
    assert workday._copy(run, cursor=1).cursor == 1
    made = run_values._RUN_COPIES[("cursor",)]
    assert workday._copy(run, cursor=2).cursor == 2 and run_values._RUN_COPIES[("cursor",)] is made
    run_values._RUN_COPIES[("cursor",)] = lambda run, changes: attrs.evolve(run, cursor=-changes["cursor"])
    assert workday._copy(run, cursor=3).cursor == -3
