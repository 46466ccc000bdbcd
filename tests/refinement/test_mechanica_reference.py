"""The fast Mechanica engine refines the plain reference (bgrules.mechanica.reference): at every state of
seeded random playouts both give the same legal actions in the same order, the same successors, the same
chance outcomes with the same probabilities, the same mover, terminality, scores and winners; an action
neither lists is refused by both with IllegalAction. For 2, 3 and 4 players, every ruling switch, and the
factory sandbox; plus the tables the z3 encodings read (output sides, movement options) held against the
reference's own, for every tile kind and rotation."""

from __future__ import annotations

import random
import time
import typing
from typing import Any

import attrs
import pytest

from bgrules.core.errors import IllegalAction
from bgrules.core.protocol import CHANCE
from bgrules.core.registry import load_game
from bgrules.mechanica import factory as fast_factory
from bgrules.mechanica import movement
from bgrules.mechanica import workday as fast_workday
from bgrules.mechanica.board import Factory, Placed, StartSlot, Truck
from bgrules.mechanica.components import Bot, Dir, Edge, Zone
from bgrules.mechanica.fabricate import Fabricate, Sell
from bgrules.mechanica.notation import parse_factory
from bgrules.mechanica.reference import ReferenceFactoryGame, ReferenceMechanicaGame
from bgrules.mechanica.reference import factory as ref_factory
from bgrules.mechanica.reference import workday as ref_workday
from bgrules.mechanica.run import Discard, Route
from bgrules.mechanica.sandbox import Demolish, Install, InstallTruck
from bgrules.mechanica.state import Buy, BuyFork, Decline, Draw, MechanicaState, Next, Place, Recycle, Reveal
from bgrules.mechanica.variant import MechanicaVariant, Rulings, default_variant


def _switches() -> list[tuple[str, object]]:
    """(field, value) for every value of every ruling switch other than its default (and a small stock)."""
    hints = typing.get_type_hints(Rulings)
    out: list[tuple[str, object]] = []
    for field in attrs.fields(Rulings):
        hint = hints[field.name]
        if typing.get_origin(hint) is typing.Literal:
            out += [(field.name, v) for v in typing.get_args(hint) if v != field.default]
        elif hint is bool:
            out.append((field.name, not field.default))
        elif field.name == "bots_per_grade":
            out.append((field.name, 6))
    return out


SWITCHES = _switches()
PROBES: tuple[Any, ...] = (
    Next(),
    Install("fork", 0, 0, 0),
    Install("upgrader", 9, 0, 0),
    InstallTruck("truck", 0),
    Demolish(2, 3),
    Route(1, 1, Dir.E),
    Buy(0),
    Buy(4),
    Sell(0, Bot.DELUXE),
    Fabricate(),
    Recycle(0, 0),
    Recycle(2, 1),
    Place(0, 0, 0),
    BuyFork(0, 0, 0),
    Decline(),
    Discard(0, 4, Bot.BASIC),
    Draw("upgrader"),
    Reveal(1),
)
"""Actions tried at every state: where neither engine lists one, both must refuse it."""

WEIGHTS = {"BuyFork": 0.15, "Demolish": 0.1, "DemolishFabricator": 0.1, "Next": 0.5, "BuyTruck": 0.3, "Recycle": 0.3}


def _pick(rng: random.Random, legal: tuple[Any, ...]) -> Any:
    """A playout policy that reaches the rarer rules: mostly an action type at random (weighted away from
    Forks and demolitions, which random play otherwise buys with every coin), then an action of it."""
    if rng.random() < 0.3:
        return rng.choice(legal)
    types = sorted({type(a).__name__ for a in legal})
    chosen = rng.choices(types, [WEIGHTS.get(t, 1.0) for t in types])[0]
    return rng.choice([a for a in legal if type(a).__name__ == chosen])


def _refusal(game: Any, state: Any, action: Any) -> str | None:
    try:
        game.apply(state, action)
    except IllegalAction as e:
        return e.rule_id
    return None


def compare(
    fast: Any,
    ref: Any,
    seed: int,
    probe: bool = True,
    max_steps: int = 100_000,
    start: Any = None,
    stop_after: int | None = None,
) -> tuple[Any, int]:
    """Play one seeded game on both engines side by side (from ``start``, else the initial state),
    checking everything at every state, to its end (or for ``stop_after`` actions); returns the last state
    and the number of actions."""
    assert fast.info == ref.info
    assert tuple(fast.action_types()) == tuple(ref.action_types())
    assert fast.state_type() is ref.state_type()
    rng = random.Random(seed)
    s, t = (fast.initial_state(), ref.initial_state()) if start is None else (start, start)
    steps = 0
    last: Any = None
    while True:
        where = f"seed {seed}, step {steps}, after {last!r}"
        assert s == t, where
        assert fast.to_move(s) == ref.to_move(t), where
        assert fast.is_terminal(s) == ref.is_terminal(t), where
        assert fast.scores(s) == ref.scores(t), where
        if fast.is_terminal(s):
            assert fast.winners(s) == ref.winners(t), where
            assert ref.legal_actions(t) == ()
            return t, steps
        legal = fast.legal_actions(s)
        assert legal == ref.legal_actions(t), where
        outcomes = fast.chance_outcomes(s)
        assert outcomes == ref.chance_outcomes(t), where
        assert ref.validate(t) == [], where
        if probe:
            for action in PROBES:
                if action not in legal:
                    rule = _refusal(ref, t, action)
                    assert rule is not None, f"{where}: the reference accepts {action!r}"
                    assert rule == _refusal(fast, s, action), f"{where}: {action!r} refused for another rule"
        if fast.to_move(s) is CHANCE:
            assert sum(p for _o, p in outcomes) == 1
            action = rng.choices([o for o, _p in outcomes], [p for _o, p in outcomes])[0]
        else:
            action = _pick(rng, legal)
        s, t = fast.apply(s, action), ref.apply(t, action)
        last = action
        steps += 1
        assert steps < max_steps, where
        if stop_after is not None and steps >= stop_after:
            assert s == t
            return t, steps


def _variant(field: str, value: object) -> MechanicaVariant:
    return MechanicaVariant(rulings=Rulings(**{field: value}))  # type: ignore[arg-type]


# --- the whole game ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_whole_game_refines_the_reference_under_the_default_rulings(players: int) -> None:
    for seed in range(2):
        final, steps = compare(load_game("mechanica", players=players), ReferenceMechanicaGame(players), seed)
        assert final.phase.name == "OVER" and steps > 100


@pytest.mark.parametrize(("field", "value"), SWITCHES, ids=[f"{f}={v}" for f, v in SWITCHES])
def test_the_whole_game_refines_the_reference_under_each_switch(field: str, value: object) -> None:
    variant = _variant(field, value)
    players = 4 if field == "extras_4p" else 2 + SWITCHES.index((field, value)) % 3
    fast = load_game("mechanica", players=players, variant=variant)
    slow = field == "loop"  # the loop check of every placement: the first days are enough here (all: heavy)
    compare(fast, ReferenceMechanicaGame(players, variant), seed=100 + players, stop_after=150 if slow else None)


@pytest.mark.heavy
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize(("field", "value"), [("default", None), *SWITCHES])
def test_many_games_refine_the_reference(players: int, field: str, value: object) -> None:
    variant = MechanicaVariant() if field == "default" else _variant(field, value)
    for seed in range(10):
        compare(
            load_game("mechanica", players=players, variant=variant), ReferenceMechanicaGame(players, variant), seed
        )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_reference_offers_what_callers_read_on_the_fast_game(players: int) -> None:
    """Every public attribute of the fast game (the figures runners and pictures read) is on the reference,
    with the same value; the methods answer alike on the initial state."""
    fast: Any = load_game("mechanica", players=players)
    ref = load_game("mechanica", players=players, reference=True)
    for name in dir(fast):
        if name.startswith("_") or name in ("ACTIONS", "memos"):  # memos: the fast engine's speed machinery
            continue
        theirs = getattr(fast, name)
        assert hasattr(ref, name), name
        if not callable(theirs):
            assert getattr(ref, name) == theirs, name
    start = fast.initial_state()
    assert ref.end_trigger(start) == fast.end_trigger(start) is None
    sandbox = load_game("mechanica-factory", players=1)
    ref_sandbox = load_game("mechanica-factory", players=1, reference=True)
    for name in dir(sandbox):
        if not name.startswith("_") and name not in ("ACTIONS", "memos"):
            assert hasattr(ref_sandbox, name), name
            if not callable(getattr(sandbox, name)):
                assert getattr(ref_sandbox, name) == getattr(sandbox, name), name


def test_the_reference_game_is_as_fast_as_a_test_needs() -> None:
    """A 4-player random game to its end takes well under seconds on the reference."""
    ref = ReferenceMechanicaGame(4)
    rng = random.Random(0)
    start = time.perf_counter()
    s = ref.initial_state()
    while not ref.is_terminal(s):
        outcomes = ref.chance_outcomes(s)
        if outcomes:
            s = ref.apply(s, rng.choices([o for o, _p in outcomes], [p for _o, p in outcomes])[0])
        else:
            s = ref.apply(s, rng.choice(ref.legal_actions(s)))
    assert time.perf_counter() - start < 10


def test_an_illegal_action_names_its_rule_and_changes_nothing() -> None:
    ref = ReferenceMechanicaGame(2)
    s = ref.initial_state()
    with pytest.raises(IllegalAction) as caught:
        ref.apply(s, Next())
    assert caught.value.rule_id == "MC-CHANCE"
    while ref.to_move(s) is CHANCE:
        s = ref.apply(s, ref.chance_outcomes(s)[0][0])
    before = s
    for action, rule in ((Buy(0), "MC-TURN-ORDER"), (Fabricate(), "MC-TURN-ORDER"), (Sell(0, Bot.DELUXE), "MC-SELL")):
        with pytest.raises(IllegalAction) as caught:
            ref.apply(s, action)
        assert caught.value.rule_id == rule
    assert s == before


def rich_state(game: Any) -> MechanicaState:
    """The first state (before the set-up draws) with seat 0 given two Overactive Fabricators and an
    Advanced one with bots in them, floor tiles, three loaded trucks of every size and a full wallet, the
    tiles taken from the deck and the bots from the stock (the shape of a reachable state: the fast engine's
    validator accepts it). Gifts, replacements, fabricators over fabricators, Blueprints from several trucks
    and stock shortages follow from it."""
    s = game.initial_state()
    text = (
        "overactive[P] | .       UP0 . DU0 | huge[BBP]\n"
        "advanced[B.]  | FC0[D/] .   . .   | big[PD]\n"
        "overactive[D] | .       .   . .   | truck[D]\n"
    )
    board = parse_factory(text, game.variant)
    kinds = list(game.kinds)
    deck = list(s.deck)
    for key in ("overactive_fabricator", "overactive_fabricator", "advanced_fabricator", "upgrader", "duplicator"):
        deck[kinds.index(key)] -= 1
    deck[kinds.index("function_changer")] -= 1
    old = s.seats[0].factory.bot_counts()
    new = board.bot_counts()
    stock = tuple(s.stock[g] + old[g] - new[g] for g in range(3))
    seat = attrs.evolve(s.seats[0], factory=board, wallet=40)
    state: MechanicaState = attrs.evolve(s, seats=(seat, *s.seats[1:]), deck=tuple(deck), stock=stock)
    assert game.validate(state) == []
    return state


RICH_DEFAULT_RUN = {"default", "fabricator_over_fabricator", "bots_per_grade"}
"""The switches a rich position is played under in the default run (every one under ``-m heavy``)."""


@pytest.mark.parametrize(
    ("field", "value"),
    [
        pytest.param(
            f, v, id="default" if v is None else f"{f}={v}", marks=() if f in RICH_DEFAULT_RUN else pytest.mark.heavy
        )
        for f, v in [("default", None), *SWITCHES]
    ],
)
def test_a_rich_position_refines_the_reference(field: str, value: object) -> None:
    """From a crafted position full of fabricators, loaded trucks and money, under every switch."""
    variant = MechanicaVariant() if field == "default" else _variant(field, value)
    for players in (2, 3, 4):
        fast = load_game("mechanica", players=players, variant=variant)
        ref = ReferenceMechanicaGame(players, variant)
        compare(fast, ref, seed=players, start=rich_state(fast), max_steps=20_000)


# --- the sandbox ------------------------------------------------------------------------------------

FLIGHT_FACTORY = "hole | . . . . | truck\nbasic[B] | . FK0 FT0 UP0 | truck\nhole | . . . . | truck\n"
"""The flight example of docs/ruling-diff.md: a Fork sends the bot to a Flight Tester."""


def test_the_sandbox_refines_the_reference() -> None:
    for seed in range(10):
        compare(load_game("mechanica-factory", players=1), ReferenceFactoryGame(), seed)


@pytest.mark.parametrize(
    "rulings",
    [
        {},
        {"flight": "both_ways"},
        {"flight_landing": "any_cell"},
        {"flight": "both_ways", "flight_landing": "any_cell"},
    ],
    ids=["default", "both_ways", "any_cell", "both_ways+any_cell"],
)
def test_the_sandbox_on_the_flight_example_refines_the_reference(rulings: dict[str, str]) -> None:
    variant = MechanicaVariant(rulings=Rulings(**rulings))  # type: ignore[arg-type]
    supplies: tuple[list[str] | None, ...] = ([], None)
    for supply in supplies:
        options: dict[str, Any] = {"variant": variant, "factory": FLIGHT_FACTORY, "supply": supply, "days": 4}
        for seed in range(5):
            compare(load_game("mechanica-factory", players=1, **options), ReferenceFactoryGame(**options), seed)


@pytest.mark.parametrize(("field", "value"), SWITCHES, ids=[f"{f}={v}" for f, v in SWITCHES])
def test_the_sandbox_refines_the_reference_under_each_switch(field: str, value: object) -> None:
    options: dict[str, Any] = {"variant": _variant(field, value), "days": 3}
    compare(load_game("mechanica-factory", players=1, **options), ReferenceFactoryGame(**options), 7)


# --- the run on any board ---------------------------------------------------------------------------


def _random_factory(rng: random.Random, variant: MechanicaVariant) -> Factory:
    """Any board at all, tiles and bots at random (no placement rule): the run must agree on it too."""
    cat = variant.catalogue
    floor_kinds = sorted(k for k, t in cat.tiles.items() if t.zone is Zone.FLOOR)
    start_kinds = sorted(k for k, t in cat.tiles.items() if t.zone is Zone.START and not t.printed)
    trucks = sorted(k for k, t in cat.tiles.items() if t.zone is Zone.DOCK)

    def bot() -> Bot:
        return rng.choice(tuple(Bot))

    floor: list[Placed | None] = []
    for _ in range(12):
        if rng.random() < 0.5:
            floor.append(None)
            continue
        kind = cat.tiles[rng.choice(floor_kinds)]
        held = tuple(bot() for _ in range(rng.randint(0, kind.inputs)))
        outs = tuple(bot() if rng.random() < 0.5 else None for _ in kind.outputs)
        floor.append(Placed(kind.key, rng.randrange(4), held, outs))
    start = []
    for r in range(3):
        key = rng.choice(start_kinds) if rng.random() < 0.5 else ("basic_fabricator" if r == 1 else "start_hole")
        start.append(StartSlot(key, tuple(bot() if rng.random() < 0.6 else None for _ in cat.tiles[key].outputs)))
    dock = [Truck(rng.choice(trucks), tuple(bot() for _ in range(rng.randint(0, 1)))) for _ in range(3)]
    return Factory(tuple(floor), tuple(start), tuple(dock))


@pytest.mark.parametrize(
    "rulings",
    [
        {},
        {"flight": "both_ways"},
        {"flight_landing": "any_cell"},
        {"flight": "both_ways", "flight_landing": "any_cell"},
    ],
    ids=["default", "both_ways", "any_cell", "both_ways+any_cell"],
)
def test_a_run_on_any_board_refines_the_reference(rulings: dict[str, str]) -> None:
    """start_run / decisions / decide of the fast run against the reference's, on random boards with random
    bots and stocks, every decision taken at random: the same Run record after every step."""
    variant = MechanicaVariant(rulings=Rulings(**rulings))  # type: ignore[arg-type]
    rng = random.Random(22)
    for trial in range(200):
        factory = _random_factory(rng, variant)
        stock = (rng.randint(0, 3), rng.randint(0, 3), rng.randint(0, 3))
        a = fast_workday.start_run(factory, stock, variant)
        b = ref_workday.start_run(factory, stock, variant)
        for step in range(10_000):
            assert a == b, (trial, step, factory)
            choices = fast_workday.decisions(a, variant)
            assert choices == ref_workday.decisions(b, variant), (trial, step, factory)
            if not choices:
                break
            choice = rng.choice(choices)
            a, b = fast_workday.decide(a, variant, choice), ref_workday.decide(b, variant, choice)


# --- the tables the z3 encodings read ----------------------------------------------------------------


def test_output_sides_and_edges_the_encodings_read_match_the_reference() -> None:
    """components.TileKind.output_dirs / exits / flats / edge and Catalogue.world_edges (read by the z3
    encodings and the movement table) against the reference's own side arithmetic, for every tile kind and
    rotation."""
    cat = default_variant().catalogue
    for key, kind in cat.tiles.items():
        for rot in range(4):
            assert kind.output_dirs(rot) == ref_factory.output_sides(kind, rot), (key, rot)
            assert kind.exits(rot) == ref_factory.sides_of(kind, rot, Edge.EXIT), (key, rot)
            assert kind.flats(rot) == ref_factory.sides_of(kind, rot, Edge.FLAT), (key, rot)
            assert cat.world_edges(key, rot) == tuple(ref_factory.side_edge(kind, rot, d) for d in Dir), (key, rot)
            for d in Dir:
                assert kind.edge(d, rot) is ref_factory.side_edge(kind, rot, d), (key, rot, d)


def _as_way(step: movement.Step, many: bool) -> ref_factory.Way:
    return ref_factory.Way(
        label=step.label if many else None,
        then=step.then,
        arrive=step.arrive,
        destroy=step.destroy,
        gift=step.gift,
        jump=step.jump,
        charge=step.charge,
    )


def _strip(ways: tuple[ref_factory.Way, ...]) -> tuple[ref_factory.Way, ...]:
    return ways if len(ways) > 1 else tuple(attrs.evolve(w, label=None) for w in ways)


@pytest.mark.parametrize(
    "rulings",
    [
        {},
        pytest.param({"flight": "both_ways"}, marks=pytest.mark.heavy),
        pytest.param({"flight_landing": "any_cell"}, marks=pytest.mark.heavy),
        {"flight": "both_ways", "flight_landing": "any_cell"},
    ],
    ids=["default", "both_ways", "any_cell", "both_ways+any_cell"],
)
def test_movement_options_the_encodings_read_match_the_reference(rulings: dict[str, str]) -> None:
    """movement.options (the one movement function the run, the loop check and the z3 encodings read) and
    movement.lands_on against the reference's ways, at every node of every cell and heading: for each floor
    tile kind and rotation alone on each cell, and on random floors (Forks and tiles on the throws' way)."""
    variant = MechanicaVariant(rulings=Rulings(**rulings))  # type: ignore[arg-type]
    cat = variant.catalogue
    empty = Factory((None,) * 12, tuple(ref_factory.printed_slot(r) for r in range(3)), (Truck("truck"),) * 3)
    boards = []
    for key, kind in sorted(cat.tiles.items()):
        if kind.zone is Zone.FLOOR:
            for rot in range(4):
                for i in (0, 3, 5, 6, 8, 11):
                    boards.append(
                        ref_factory.with_cell(empty, i // 4, i % 4, Placed(key, rot, (), (None,) * len(kind.outputs)))
                    )
    rng = random.Random(5)
    boards += [_random_factory(rng, variant) for _ in range(100)]
    nodes = [(r, c, h) for r in range(-1, 4) for c in range(-1, 5) for h in range(5)]
    for factory in boards:
        for node in nodes:
            steps = movement.options(factory, variant, node)
            mine = _strip(ref_factory.ways(factory, variant, node))
            assert tuple(_as_way(s, len(steps) > 1) for s in steps) == mine, (factory, node)
        for placed in (None, *factory.floor):
            assert movement.lands_on(variant, None if placed is None else placed.kind) == ref_factory.lands_on(
                variant, placed
            )


def test_jigsaw_fit_the_loop_search_reads_matches_the_reference() -> None:
    """factory.edges_fit (read by the loop search's placements, smt_loops) against the reference's
    sides_fit, for every pair of sides under both jigsaw readings."""
    for strict in (False, True):
        for a in Edge:
            for b in Edge:
                assert fast_factory.edges_fit(a, b, strict) == ref_factory.sides_fit(a, b, strict), (a, b, strict)


@pytest.mark.parametrize(
    "rulings",
    [
        {},
        {"jigsaw": "strict"},
        {"off_floor": "forbid"},
        {"loop": "forbid"},
        {"flight": "both_ways", "flight_landing": "any_cell"},
    ],
    ids=["default", "strict", "off_floor_forbid", "loop_forbid", "both_ways+any_cell"],
)
def test_launches_loops_and_board_checks_the_encodings_read_match_the_reference(rulings: dict[str, str]) -> None:
    """movement.launch_nodes and node_code (the z3 encodings' sources and node numbers), movement.find_loop
    (the loop search's oracle) and factory.factory_problems (the boards the encodings accept) against the
    reference's launches, node bits, has_loop and board_problems, on random boards."""
    variant = MechanicaVariant(rulings=Rulings(**rulings))  # type: ignore[arg-type]
    rng = random.Random(9)
    for _ in range(400):
        factory = _random_factory(rng, variant)
        factory = attrs.evolve(factory, floor=tuple(p if rng.random() < 0.5 else None for p in factory.floor))
        fast_launch = movement.launch_nodes(factory, variant)
        mine = ref_factory.launches(factory, variant)
        assert [node for _area, _i, _h, node in fast_launch] == [node for _bot, node in mine], factory
        for _area, _i, _h, (r, c, h) in fast_launch:
            if ref_factory.on_floor(r, c):
                assert 1 << movement.node_code((r, c, h)) == ref_workday.node_bit((r, c, h))
        assert (movement.find_loop(factory, variant) is not None) == ref_factory.has_loop(factory, variant), factory
        assert bool(fast_factory.factory_problems(factory, variant)) == bool(
            ref_factory.board_problems(factory, variant)
        )
