"""Every bot a state holds is drawn, place by place: the bots in each hole (also a hole crowded before a
collision is settled), on each truck, on their way or landing from a Flight Tester's throw, arrived during
the run and not yet poured in; the stock beside them. The test counts the bots from the state's own fields
and compares the count with the ``<g class="bot" data-place=...>`` elements of the picture, for every state
of seeded random and greedy playouts of each game and of sandbox games on generated factories (Forks,
Flight Testers in every rotation, Static Chargers, Duplicators, collisions) written in the factory notation.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bgrules
from bgrules.agents import make_agent
from bgrules.botfactory.state import BotFactoryState
from bgrules.core.playout import walk
from bgrules.mechanica.board import COLS, ROWS, Factory
from bgrules.mechanica.notation import format_factory
from bgrules.mechanica.run import Run
from bgrules.mechanica.sandbox import SandboxState
from bgrules.mechanica.state import MechanicaState
from bgrules.mechanica.strategies import layouts, with_bots
from bgrules.mechanica.variant import default_variant
from bgrules.pictures import draw
from bgrules.pictures.narrate import describe

NS = "{http://www.w3.org/2000/svg}"
GRADES = ("basic", "plus", "deluxe")
HEADING = "NESWL"

Places = Counter[tuple[str, str]]
"""(place, grade or colour) -> bots."""


# --- the bots a state holds, counted from its fields ---------------------------------------------------------


def board_bots(factory: Factory, run: Run | None) -> Places:
    """Every bot of a Mechanica board (and of the workday run under way on it) by place and grade."""
    held: Places = Counter()
    for i, placed in enumerate(factory.floor):
        if placed is None:
            continue
        r, c = divmod(i, COLS)
        for bot in placed.inputs:
            held[(f"cell {r} {c} in", GRADES[bot])] += 1
        for maybe in placed.outputs:
            if maybe is not None:
                held[(f"cell {r} {c} out", GRADES[maybe])] += 1
    for r in range(ROWS):
        for maybe in factory.start[r].holes:
            if maybe is not None:
                held[(f"start {r}", GRADES[maybe])] += 1
        for bot in factory.dock[r].load:
            held[(f"truck {r}", GRADES[bot])] += 1
    if run is not None:
        for m in run.moving:
            r, c, h = m.node
            held[(f"moving {r} {c} {HEADING[h]}", GRADES[m.bot])] += 1
        for bin_id, bot in run.arrived:
            where = f"truck {bin_id - 100}" if bin_id >= 100 else "cell {} {}".format(*divmod(bin_id, COLS))
            held[(f"arrived {where}", GRADES[bot])] += 1
    return held


def held_by_scope(state: Any) -> tuple[dict[str, Places], tuple[int, int, int] | None]:
    """The bots a state holds per board ("seat N", "board", "player N") and the stock shown beside them."""
    if isinstance(state, MechanicaState):
        scopes = {}
        for i, seat in enumerate(state.seats):
            live = state.run is not None and state.current == i
            scopes[f"seat {i}"] = board_bots(state.run.factory if live and state.run else seat.factory,
                                             state.run if live else None)  # fmt: skip
        return scopes, state.run.stock if state.run is not None else state.stock
    if isinstance(state, SandboxState):
        return {"board": board_bots(state.board, state.run)}, state.live_stock
    assert isinstance(state, BotFactoryState)
    return {
        f"player {s}": Counter((f"player {s} done", colour) for colour in hand.done)
        for s, hand in enumerate(state.hands)
    }, None


# --- the bots a picture draws --------------------------------------------------------------------------------


def drawn_by_scope(root: ET.Element) -> dict[str, Places]:
    """The ``class="bot"`` elements of a picture per board, by their ``data-place`` and grade (colour)."""
    parents = {child: parent for parent in root.iter() for child in parent}
    scopes: dict[str, Places] = {}
    for element in root.iter():
        if "bot" not in element.get("class", "").split():
            continue
        place = element.get("data-place", "")
        assert place, f"a drawn bot names its place: {element.attrib}"
        node: ET.Element | None = element
        scope = "board"
        while node is not None:
            classes = node.get("class", "").split()
            if "seat" in classes:
                scope = f"seat {node.get('data-seat')}"
                break
            if "player" in classes:
                scope = f"player {node.get('data-seat')}"
                break
            node = parents.get(node)
        grade = element.get("data-grade") or element.get("data-colour") or ""
        scopes.setdefault(scope, Counter())[(place, grade)] += 1
    return scopes


def stock_shown(root: ET.Element) -> tuple[int, ...]:
    (counts,) = [e for e in root.iter() if e.get("class") == "counts" and e.get("data-at") == "stock"]
    return tuple(int(n) for n in counts.get("data-counts", "").split(","))


def check_every_bot(game: Any, state: Any, svg: str | None = None) -> None:
    """The picture of ``state`` draws the bots it holds, place by place, and its stock; a Mechanica game's
    bots drawn and in the stock add up to the box's bots of each grade (MC-STOCK)."""
    root = ET.fromstring(svg if svg is not None else draw(game, state))
    held, stock = held_by_scope(state)
    drawn = drawn_by_scope(root)
    for scope in sorted(set(held) | set(drawn)):
        want, got = held.get(scope, Counter()), drawn.get(scope, Counter())
        assert +want == +got, f"{scope}: held {sorted((+want).items())}, drawn {sorted((+got).items())}"
    if stock is not None:
        assert stock_shown(root) == tuple(stock)
        per = game.variant.rulings.bots_per_grade
        for g, grade in enumerate(GRADES):
            on_boards = sum(n for places in drawn.values() for (_p, k), n in places.items() if k == grade)
            assert on_boards + stock[g] == per, f"{grade}: {on_boards} drawn + {stock[g]} in the stock != {per}"


def states(game: Any, seed: int, agent: str, max_steps: int | None = None) -> Iterator[Any]:
    yield game.initial_state()
    agents = [make_agent(agent) for _ in range(game.players)]
    for _before, _action, after in walk(game, seed, max_steps=max_steps, agents=agents):
        yield after


# --- playouts ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("agent", ["random", "greedy"])
@pytest.mark.parametrize("seed", [0, 1])
def test_every_state_of_a_sandbox_playout_draws_every_bot(seed: int, agent: str) -> None:
    game = bgrules.load_game("mechanica-factory", days=3)
    n = 0
    for state in states(game, seed, agent):
        check_every_bot(game, state)
        n += 1
    assert n > 5 and game.is_terminal(state)


@pytest.mark.parametrize(
    ("name", "players", "agent", "seed"),
    [("mechanica", 2, "random", 1), ("mechanica", 3, "greedy", 2), ("botfactory", 2, "random", 3),
     ("botfactory", 4, "greedy", 4)],
)  # fmt: skip
def test_whole_game_playouts_draw_every_bot(name: str, players: int, agent: str, seed: int) -> None:
    """Every workday state (the bots move then) and every 25th other state of a playout's first 150 actions."""
    game = bgrules.load_game(name, players=players)
    for k, state in enumerate(states(game, seed, agent, max_steps=150)):
        if getattr(state, "run", None) is not None or k % 25 == 0:
            check_every_bot(game, state)


@pytest.mark.heavy
@pytest.mark.parametrize("agent", ["random", "greedy"])
@pytest.mark.parametrize(
    ("name", "players"),
    [("mechanica", 2), ("mechanica", 3), ("mechanica", 4), ("botfactory", 2), ("botfactory", 3), ("botfactory", 4),
     ("mechanica-factory", 1)],
)  # fmt: skip
def test_every_state_of_whole_playouts_draws_every_bot(name: str, players: int, agent: str) -> None:
    game = bgrules.load_game(name, players=players)
    for seed in range(3):
        check_every_bot(game, game.initial_state())
        for before, action, after in walk(game, seed, agents=[make_agent(agent) for _ in range(players)]):
            check_every_bot(game, after)
            assert describe(game, before, action, after)


# --- generated factories -------------------------------------------------------------------------------------

KINDS = ("fork", "flight_tester", "static_charger", "duplicator", "upgrader", "gift_wrapper")
"""The floor tiles of the generated factories: Forks and Flight Testers give the run's decisions (a bot stops
at each, and one landing on a Fork stops there again), Static Chargers and Duplicators make bots during the
run, Upgraders take bots into their input holes, where bots arriving together collide."""


@st.composite
def factory_notation(draw_from: st.DrawFn) -> str:
    """A legal factory in the notation (docs/mechanica-notation.md): tiles of :data:`KINDS` laid where the
    placement rules allow, turned every way they fit, with bots in its holes (every making hole full, so
    many bots move and meet)."""
    layout = draw_from(layouts(default_variant(), kinds=KINDS))
    return format_factory(draw_from(with_bots(layout, default_variant(), full=draw_from(st.booleans()))))


def play_and_check(
    notation: str, choose: Any, variant: dict[str, Any] | None = None, days: int = 2, steps: int = 60
) -> list[Any]:
    """Play the sandbox on ``notation`` for ``days`` days, ``choose`` picking each action's index among the
    legal ones, drawing and checking every state; returns the states."""
    game = bgrules.load_game("mechanica-factory", factory=notation, supply=[], days=days, variant=variant)
    state = game.initial_state()
    seen = [state]
    check_every_bot(game, state)
    for _ in range(steps):
        if game.is_terminal(state):
            break
        legal = game.legal_actions(state)
        action = legal[choose(len(legal))]
        before, state = state, game.apply(state, action)
        check_every_bot(game, state)
        assert describe(game, before, action, state).startswith("P1")  # the step in game terms, too
        seen.append(state)
    return seen


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(notation=factory_notation(), data=st.data())
def test_generated_factories_draw_every_bot_in_every_state(notation: str, data: st.DataObject) -> None:
    play_and_check(notation, lambda n: data.draw(st.integers(0, n - 1), label="action"))


@pytest.mark.heavy
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(notation=factory_notation(), data=st.data(), both=st.booleans())
def test_many_generated_factories_draw_every_bot(notation: str, data: st.DataObject, both: bool) -> None:
    variant = {"rulings": {"flight": "both_ways"}} if both else None
    play_and_check(notation, lambda n: data.draw(st.integers(0, n - 1), label="action"), variant)


FLIGHTS = {
    0: "hole | . . . . | truck\nbasic[B] | . FT0 FK0 . | truck\nhole | . . . . | truck\n",
    1: "hole[B] | . FT1 . . | truck\nbasic | . . . . | truck\nhole | . FT0 . . | truck\n",
    2: "hole[B] | . . . FK1 | truck\nbasic | FK0 . . FT2 | truck\nhole | . . . . | truck\n",
    3: "hole | . FT0 . . | truck\nbasic | . . . . | truck\nhole[P] | . FT3 . . | truck\n",
}
"""A bot thrown by a Flight Tester in each rotation (its flat side east, south, west, north) with at least two
places to land, one of them a Fork or another Flight Tester (where a landing bot may face a decision)."""


@pytest.mark.parametrize("rotation", sorted(FLIGHTS))
@pytest.mark.parametrize("flight", ["flat_side", "both_ways"])
@pytest.mark.parametrize("landing", ["skip_forks", "any_cell"])
def test_a_flight_tester_in_every_rotation_draws_the_bot_in_flight(rotation: int, flight: str, landing: str) -> None:
    """Every decision of the first workday, every way (a small tree): each state is drawn with its bots,
    and among them the bot choosing where the Flight Tester throws it (a state where a Fly is legal); under
    ``flight_landing = "any_cell"`` a bot may also land on the Fork and face its decision there."""
    game = bgrules.load_game("mechanica-factory", factory=FLIGHTS[rotation], supply=[], days=1,
                             variant={"rulings": {"flight": flight, "flight_landing": landing}})  # fmt: skip
    todo, seen, throws = [game.initial_state()], set(), 0
    while todo:
        state = todo.pop()
        if state in seen:
            continue
        seen.add(state)
        check_every_bot(game, state)
        if state.run is None:
            continue
        legal = game.legal_actions(state)
        throws += any(type(a).__name__ == "Fly" for a in legal)
        todo.extend(game.apply(state, a) for a in legal)
    assert throws, "the bot reaches the Flight Tester and chooses where it lands"
    assert len(seen) > (3 if landing == "any_cell" else 1)


FORK_SPLIT = "hole[B]  | .  .    .  . | truck\nbasic[P] | .  FK0  .  . | truck\nhole     | .  .    .  . | truck\n"
"""The B from the top row reaches truck 0 while the P waits at the Fork; sent north, the P crowds truck 0."""


def test_a_collision_and_an_arrival_are_drawn_with_every_bot() -> None:
    game = bgrules.load_game("mechanica-factory", factory=FORK_SPLIT, supply=[], days=1)
    waiting = game.initial_state()
    assert waiting.run is not None and waiting.run.arrived and waiting.run.moving
    root = ET.fromstring(draw(game, waiting))
    assert drawn_by_scope(root)["board"][("arrived truck 0", "basic")] == 1
    (north,) = [a for a in game.legal_actions(waiting) if getattr(a, "exit", None) is not None and a.exit.name == "N"]
    crowded = game.apply(waiting, north)
    assert crowded.run is not None and len(crowded.run.factory.dock[0].load) == 2  # one truck place, two bots
    root = ET.fromstring(draw(game, crowded))
    assert drawn_by_scope(root)["board"] == Counter({("truck 0", "basic"): 1, ("truck 0", "plus"): 1})
    check_every_bot(game, crowded)


def test_the_check_catches_a_bot_left_out_or_misplaced() -> None:
    """check_every_bot is not vacuous: it fails on a picture with one bot fewer, or of another state."""
    game = bgrules.load_game("mechanica-factory", factory=FORK_SPLIT, supply=[], days=1)
    waiting = game.initial_state()
    svg = draw(game, waiting)
    check_every_bot(game, waiting, svg)
    fewer = svg.replace('data-place="arrived truck 0"', 'data-place="truck 0"', 1)
    with pytest.raises(AssertionError, match="board: held"):
        check_every_bot(game, waiting, fewer)
    later = game.apply(waiting, game.legal_actions(waiting)[0])
    with pytest.raises(AssertionError):
        check_every_bot(game, later, svg)
