"""The pictures (bgrules.pictures): well-formed SVG that shows what the state holds, for states of seeded
playouts of every game and player count; deterministic; a state of another game refused; PNG through the
``png`` extra; the example pictures of docs/pictures.md up to date."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

import bgrules
from bgrules.botfactory.state import BotFactoryState
from bgrules.botfactory.variant import BOARDS
from bgrules.core.errors import InputError, MissingExtra
from bgrules.core.playout import playout, walk
from bgrules.mechanica.board import COLS, ROWS, Factory
from bgrules.mechanica.components import Bot
from bgrules.mechanica.notation import parse_factory
from bgrules.mechanica.run import Run
from bgrules.mechanica.sandbox import SandboxState
from bgrules.mechanica.state import MechanicaState
from bgrules.mechanica.variant import MechanicaVariant, default_variant
from bgrules.pictures import draw, draw_factory, to_png
from bgrules.pictures import factory as fp
from bgrules.pictures.style import BOT_FILL

ROOT = Path(__file__).resolve().parents[2]
NS = "{http://www.w3.org/2000/svg}"
GRADE = {"basic": Bot.BASIC, "plus": Bot.PLUS, "deluxe": Bot.DELUXE}
CONFIGS = [
    ("mechanica", 2),
    ("mechanica", 3),
    ("mechanica", 4),
    ("botfactory", 2),
    ("botfactory", 3),
    ("botfactory", 4),
    ("mechanica-factory", 1),
]


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == NS + "svg"
    return root


def by_class(node: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in node.iter() if cls in e.get("class", "").split()]


def one(node: ET.Element, cls: str, **attrs: str) -> ET.Element:
    found = [e for e in by_class(node, cls) if all(e.get(k.replace("_", "-")) == v for k, v in attrs.items())]
    assert len(found) == 1, f"{len(found)} elements of class {cls} with {attrs}"
    return found[0]


def texts(node: ET.Element) -> list[str]:
    return [e.text or "" for e in node.iter(NS + "text")]


# --- what a factory picture must show ---------------------------------------------------------------


def expected_holes(factory: Factory, variant: MechanicaVariant, run: Run | None) -> dict[str, Bot | None]:
    """Every hole of the board by its ``data-at`` name, with the bot in it (None: empty)."""
    cat = variant.catalogue
    holes: dict[str, Bot | None] = {}
    for r in range(ROWS):
        for c in range(COLS):
            placed = factory.at(r, c)
            if placed is None:
                continue
            kind = cat.tile(placed.kind)
            for i in range(max(kind.inputs, len(placed.inputs))):  # past the holes: bots crowding them
                holes[f"floor {r} {c} in {i}"] = placed.inputs[i] if i < len(placed.inputs) else None
            for i, bot in enumerate(placed.outputs):
                holes[f"floor {r} {c} out {i}"] = bot
        for i, bot in enumerate(factory.start[r].holes):
            holes[f"start {r} {i}"] = bot
        for i, bot in enumerate(factory.dock[r].load):
            holes[f"truck {r} {i}"] = bot
    if run is not None:
        for i, m in enumerate(run.moving):
            r, c, h = m.node
            holes[f"moving {r} {c} {'NESWL'[h]} {i}"] = m.bot
        seen: dict[str, int] = {}
        for bin_id, bot in run.arrived:
            where = f"truck {bin_id - 100}" if bin_id >= 100 else "floor {} {}".format(*divmod(bin_id, COLS))
            k = seen.get(where, 0)
            seen[where] = k + 1
            holes[f"arrived {where} {k}"] = bot
    return holes


def check_factory(group: ET.Element, factory: Factory, variant: MechanicaVariant, run: Run | None = None) -> None:
    """``group`` (a picture's factory) shows ``factory``: each tile turned as installed with its sides, each
    bot in its hole in its grade's colour and letter, each empty hole, each truck's load, each Start Zone tile."""
    cat = variant.catalogue
    for r in range(ROWS):
        for c in range(COLS):
            placed = factory.at(r, c)
            cell = f"{r},{c}"
            tiles = [t for t in by_class(group, "tile") if t.get("data-cell") == cell]
            belts = [b for b in by_class(group, "belt") if b.get("data-cell") == cell]
            if placed is None:
                assert not tiles and len(belts) == 1, f"cell {cell} is a bare belt"
                continue
            assert len(tiles) == 1 and not belts, f"cell {cell} holds one tile"
            tile = tiles[0]
            kind = cat.tile(placed.kind)
            assert tile.get("data-kind") == placed.kind and tile.get("data-rotation") == str(placed.rotation)
            assert kind.name in " ".join(texts(tile)).replace("\n", " ") or all(
                w in texts(tile) for w in kind.name.split()
            ), f"{kind.name} is written on its tile"
            sides = {e.get("data-side"): e.get("data-edge") for e in by_class(tile, "edge")}
            world = cat.world_edges(placed.kind, placed.rotation)
            assert sides == {d: world[i].value for i, d in enumerate("NESW")}, f"sides of {cell}"
        start = one(group, "start", data_row=str(r))
        assert start.get("data-kind") == factory.start[r].kind
        truck = one(group, "truck", data_row=str(r))
        assert truck.get("data-kind") == factory.dock[r].kind
        assert truck.get("data-load") == "".join(b.letter for b in factory.dock[r].load)
    want = expected_holes(factory, variant, run)
    bots = {e.get("data-at"): e for e in by_class(group, "bot")}
    empties = {e.get("data-at") for e in by_class(group, "hole")}
    assert set(bots) == {k for k, v in want.items() if v is not None}, "the bots and where they are"
    assert empties == {k for k, v in want.items() if v is None}, "the empty holes"
    for at, element in bots.items():
        bot = want[str(at)]
        assert bot is not None
        assert GRADE[element.get("data-grade", "")] is bot
        disc = element.find(NS + "circle")
        assert disc is not None and disc.get("fill") == BOT_FILL[bot], f"{at}: the {bot.name} colour"
        assert bot.letter in texts(element), f"{at}: the letter {bot.letter}"


# --- whole states -----------------------------------------------------------------------------------


def check_mechanica(root: ET.Element, game: Any, state: MechanicaState) -> None:
    variant = game.variant
    heading = one(root, "heading")
    assert heading.get("data-day") == str(state.day) and heading.get("data-phase") == state.phase.value
    seats = by_class(root, "seat")
    assert [s.get("data-seat") for s in seats] == [str(i) for i in range(len(state.seats))]
    for i, (seat, element) in enumerate(zip(state.seats, seats, strict=True)):
        assert element.get("data-wallet") == str(seat.wallet) and element.get("data-vault") == str(seat.vault)
        assert f"money in hand {seat.wallet}   Vault {seat.vault}" in " ".join(texts(element))
        live = state.run is not None and state.current == i
        board = state.run.factory if live and state.run is not None else seat.factory
        (group,) = by_class(element, "factory")
        check_factory(group, board, variant, state.run if live else None)
    prices = variant.game.prices
    slots = by_class(root, "shop-slot")
    assert [s.get("data-price") for s in slots] == [str(p) for p in prices]
    for slot, price, key in zip(slots, prices, state.wheel, strict=True):
        assert slot.get("data-kind") == (key or "")
        assert str(price) in texts(slot), f"the price {price} is on the wheel"
    names = " ".join(texts(one(root, "shop")))
    for key in state.wheel:
        if key is not None:
            assert variant.catalogue.tile(key).name in names
    assert one(root, "recycler").get("data-count") == str(sum(state.recycler))
    cards = {b.id: b for b in variant.game.blueprints}
    for pile, top in enumerate(state.bp_top):
        card = one(root, "blueprint", data_pile=str(pile))
        assert card.get("data-card") == ("" if top is None else str(top))
        assert by_class(card, "bot") == [], "what a Blueprint asks for is no bot the state holds"
        shown = [GRADE[b.get("data-grade", "")] for b in by_class(card, "bot-icon")]
        want = [] if top is None else [bot for bot, n in zip(Bot, cards[top].needs, strict=True) for _ in range(n)]
        assert shown == want, f"pile {pile}'s Blueprint asks for {want}"
    assert one(root, "counts", data_at="stock").get("data-counts") == ",".join(map(str, state.stock))
    assert one(root, "deck").get("data-count") == str(sum(state.deck))


def check_sandbox(root: ET.Element, game: Any, state: SandboxState) -> None:
    heading = one(root, "heading")
    assert heading.get("data-day") == str(state.day) and heading.get("data-phase") == state.phase.value
    money = one(root, "money")
    assert money.get("data-wallet") == str(state.wallet) and money.get("data-vault") == str(state.vault)
    assert one(root, "counts", data_at="stock").get("data-counts") == ",".join(map(str, state.live_stock))
    assert one(root, "supply").get("data-count") == str(len(state.supply))
    (group,) = by_class(root, "factory")
    check_factory(group, state.board, game.variant, state.run)


def _parents(root: ET.Element) -> dict[ET.Element, ET.Element]:
    return {child: parent for parent in root.iter() for child in parent}


def _board_of(element: ET.Element, parents: dict[ET.Element, ET.Element]) -> tuple[str | None, str | None]:
    """(the board, the action space) an element stands in."""
    space = board = None
    node: ET.Element | None = element
    while node is not None:
        classes = node.get("class", "").split()
        if "space" in classes and space is None:
            space = node.get("data-space")
        if "board" in classes:
            board = node.get("data-board")
        node = parents.get(node)
    return board, space


def check_botfactory(root: ET.Element, game: Any, state: BotFactoryState) -> None:
    c = game.variant.components
    spaces = c.spaces()
    parents = _parents(root)
    heading = one(root, "heading")
    assert heading.get("data-round") == str(state.round) and heading.get("data-phase") == state.phase.value
    workers = by_class(root, "worker")
    placed = {(f"P{seat + 1}", at) for seat, at in enumerate(state.workers) if at is not None}
    assert {(w.get("data-label"), int(w.get("data-at", "x").split()[1])) for w in workers} == placed
    assert len(workers) == len(placed)
    for w in workers:
        at = int(w.get("data-at", "").split()[1])
        assert _board_of(w, parents) == (BOARDS[spaces[at][0]], str(at)), "a worker stands on its board's space"
    (sandra,) = by_class(root, "sandra")
    assert _board_of(sandra, parents) == (BOARDS[spaces[state.sandra][0]], str(state.sandra))
    for k, colour in enumerate(c.colours):
        column = one(root, "bot-column", data_colour=colour)
        assert column.get("data-parts") == ",".join(p or "" for p in state.columns[k])
        assert [p.get("data-part") for p in by_class(column, "part")] == [p for p in state.columns[k] if p]
        assert one(root, "bots-left", data_colour=colour).get("data-count") == str(state.bots_left[k])
        pile = one(root, "pile", data_colour=colour)
        assert pile.get("data-counts") == ",".join(map(str, state.piles[k]))
        assert pile.get("data-marked") == str(state.marker == k).lower(), "the Distribution marker's pile"
        assert one(root, "value-marker", data_colour=colour).get("data-value") == str(state.values[k])
    for p, part in enumerate(state.wheel):
        space = one(root, "wheel-space", data_position=str(p))
        assert space.get("data-part") == (part or "")
        assert [e.get("data-part") for e in by_class(space, "part")] == ([part] if part else [])
    for k, column_tiles in enumerate(state.grid):
        for r, tile in enumerate(column_tiles):
            assert one(root, "project-space", data_column=str(k), data_row=str(r)).get("data-tile") == (tile or "")
    for slot, cid in enumerate(state.display):
        card = one(root, "contract", data_slot=str(slot))
        assert card.get("data-contract") == ("" if cid is None else str(cid))
        assert card.get("data-reserved") == ",".join(str(s) for s in state.reserved[slot])
    for seat, hand in enumerate(state.hands):
        area = one(root, "player", data_seat=str(seat))
        assert area.get("data-tokens") == str(hand.tokens) and area.get("data-supply") == str(state.supply[seat])
        assert [p.get("data-part") for p in by_class(area, "part")] == list(hand.parts)
        assert [p.get("data-colour") for p in by_class(area, "project")] == list(hand.projects)
        assert [p.get("data-colour") for p in by_class(area, "done")] == list(hand.done)
        assert f"Speech tokens: {hand.tokens} held, {state.supply[seat]} in the supply" in texts(area)


CHECKS: dict[str, Callable[[ET.Element, Any, Any], None]] = {
    "mechanica": check_mechanica,
    "botfactory": check_botfactory,
    "mechanica-factory": check_sandbox,
}


def sampled_states(game: Any, seed: int, every: int, limit: int = 2000) -> Iterator[Any]:
    """Along a seeded random playout: the first state, the first state of each phase (and of each workday
    step in Mechanica), every ``every``-th state and the last one."""
    state = game.initial_state()
    yield state
    seen = {_stage(state)}
    k = 0
    for k, (_before, _action, after) in enumerate(walk(game, seed, max_steps=limit), start=1):
        state = after
        stage = _stage(state)
        if k % every == 0 or stage not in seen:
            seen.add(stage)
            yield state
    if k % every:
        yield state


def _stage(state: Any) -> tuple[str, str]:
    run = getattr(state, "run", None)
    return state.phase.value, "" if run is None else run.phase.value + ("+moving" if run.moving else "")


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=[f"{n}-{p}p" for n, p in CONFIGS])
def test_pictures_show_the_states_of_a_playout(name: str, players: int) -> None:
    game = bgrules.load_game(name, players=players)
    every = {"mechanica": 60, "botfactory": 70, "mechanica-factory": 6}[name]
    limit = {"mechanica": 500, "botfactory": 600, "mechanica-factory": 200}[name]
    drawn = 0
    for state in sampled_states(game, seed=players, every=every, limit=limit):
        svg = draw(game, state)
        CHECKS[name](parse(svg), game, state)
        drawn += 1
    assert drawn >= 4


def test_pictures_show_finished_games() -> None:
    """The last state of a game played to its end, for every game (Bot Factory with a round cap of 2)."""
    for name, options in (("mechanica", {}), ("botfactory", {"max_rounds": 2}), ("mechanica-factory", {})):
        game = bgrules.load_game(name, players=2 if name != "mechanica-factory" else 1, **options)
        state = playout(game, 3).final
        assert game.is_terminal(state)
        root = parse(draw(game, state))
        CHECKS[name](root, game, state)
        assert "game over" in " ".join(texts(one(root, "heading")))


def test_the_checks_catch_a_picture_of_another_state() -> None:
    """The checks above fail on a picture that does not show the state (they are not vacuous)."""
    for name, players in (("mechanica", 2), ("botfactory", 2), ("mechanica-factory", 1)):
        game = bgrules.load_game(name, players=players)
        states = list(sampled_states(game, seed=5, every=40, limit=160))
        first, last = states[0], states[-1]
        assert first != last
        with pytest.raises(AssertionError):
            CHECKS[name](parse(draw(game, first)), game, last)


def test_a_running_workday_shows_the_bots_on_their_way() -> None:
    game = bgrules.load_game("mechanica", players=2)
    for _before, _action, state in walk(game, 11):
        if state.run is not None and state.run.moving:
            break
    else:
        pytest.fail("no workday with a moving bot in the playout")
    root = parse(draw(game, state))
    moving = by_class(root, "moving")
    assert len(moving) == len(state.run.moving)
    r, c, h = state.run.moving[0].node
    assert moving[0].get("data-node") == f"{r},{c},{'NESW'[h]}"


FACTORY = """
advanced[BB] | DU1[P/..] .         UP0   SC0[/B.] | truck
basic[B]     | GW0       .         DG0[P/...]   . | big[BP]
hole         | .         FC0[D/.]  .     FK0      | huge[BBD]
"""


def test_a_factory_picture_puts_each_bot_in_its_cell_in_its_colour() -> None:
    factory = parse_factory(FACTORY)
    root = parse(draw_factory(factory))
    check_factory(one(root, "factory"), factory, default_variant())
    deluxe = one(root, "bot", data_at="floor 2 1 in 0")
    assert deluxe.get("data-grade") == "deluxe"
    disc = deluxe.find(NS + "circle")
    assert disc is not None and disc.get("fill") == BOT_FILL[Bot.DELUXE]
    x, y = float(disc.get("cx", "nan")), float(disc.get("cy", "nan"))
    assert fp.FLOOR_X + 1 * fp.CELL < x < fp.FLOOR_X + 2 * fp.CELL, "in column 1"
    assert fp.HEAD + 2 * fp.CELL < y < fp.HEAD + 3 * fp.CELL, "in row 2"
    for at in ("truck 2 0", "truck 2 1", "truck 2 2"):
        disc = one(root, "bot", data_at=at).find(NS + "circle")
        assert disc is not None and fp.DOCK_X < float(disc.get("cx", "nan")) < fp.DOCK_X + fp.DOCK_W
    assert one(root, "truck", data_row="2").get("data-load") == "BBD"
    words = " ".join(texts(root))
    for name in (
        "Start Zone",
        "Factory Floor",
        "Loading Dock",
        "Advanced",
        "Fabricator",
        "Duplicator",
        "Huge Truck",
        "Basic (B)",
        "Plus (P)",
        "Deluxe (D)",
        "exit",
        "entrance",
        "flat side",
    ):
        assert name in words, f"{name!r} is written on the picture"


def test_pictures_are_deterministic_in_any_process() -> None:
    """Same state, byte-identical SVG: twice here and in two processes of different hash seeds."""
    script = (
        "import hashlib, bgrules\n"
        "from bgrules.core.playout import playout\n"
        "from bgrules.pictures import draw\n"
        "for name, n in (('mechanica', 3), ('botfactory', 3), ('mechanica-factory', 1)):\n"
        "    g = bgrules.load_game(name, players=n)\n"
        "    print(hashlib.sha256(draw(g, playout(g, 9, max_steps=120).final).encode()).hexdigest())\n"
    )
    here = []
    for name, n in (("mechanica", 3), ("botfactory", 3), ("mechanica-factory", 1)):
        game = bgrules.load_game(name, players=n)
        final = playout(game, 9, max_steps=120).final
        svg = draw(game, final)
        assert svg == draw(game, final)
        here.append(hashlib.sha256(svg.encode()).hexdigest())
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
        assert out.stdout.split() == here


def test_a_state_of_another_game_is_refused_by_name() -> None:
    mechanica = bgrules.load_game("mechanica", players=2)
    botfactory = bgrules.load_game("botfactory", players=2)
    sandbox = bgrules.load_game("mechanica-factory")
    with pytest.raises(InputError, match="MechanicaState is a state of mechanica, not of botfactory"):
        draw(botfactory, mechanica.initial_state())
    with pytest.raises(InputError, match="BotFactoryState is a state of botfactory, not of mechanica-factory"):
        draw(sandbox, botfactory.initial_state())
    with pytest.raises(InputError, match="SandboxState is a state of mechanica-factory, not of mechanica"):
        draw(mechanica, sandbox.initial_state())
    with pytest.raises(InputError, match="seats: has 2 entries; a game of 4 players has 4"):
        draw(bgrules.load_game("mechanica", players=4), mechanica.initial_state())
    with pytest.raises(InputError, match="hands: has 2 entries; a game of 3 players has 3"):
        draw(bgrules.load_game("botfactory", players=3), botfactory.initial_state())
    broken = attrs.evolve(mechanica.initial_state(), wheel=("nonsense", *mechanica.initial_state().wheel[1:]))
    with pytest.raises(InputError, match=r"wheel\[0\]: 'nonsense' is not an improvement"):
        draw(mechanica, broken)
    with pytest.raises(InputError, match="draw_factory"):
        draw(mechanica, parse_factory(FACTORY))
    with pytest.raises(InputError, match="game"):
        draw("mechanica", mechanica.initial_state())  # type: ignore[arg-type]


PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def test_to_png_makes_a_png() -> None:
    pytest.importorskip("cairosvg")
    png = to_png(draw_factory(parse_factory(FACTORY)))
    assert png.startswith(PNG_MAGIC) and len(png) > 1000


def test_to_png_without_cairosvg_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # import cairosvg now raises ImportError
    with pytest.raises(MissingExtra, match=r"pip install 'bgrules\[png\]'") as caught:
        to_png(draw_factory(parse_factory(FACTORY)))
    assert "\n" not in str(caught.value)


def test_the_example_pictures_are_up_to_date() -> None:
    """docs/pictures/*.svg are what scripts/make_pictures.py writes (run it after changing the pictures)."""
    spec = importlib.util.spec_from_file_location("_make_pictures", ROOT / "scripts" / "make_pictures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    made = module.pictures()
    assert set(made) == {p.name for p in (ROOT / "docs" / "pictures").glob("*.svg")}
    for svg in made.values():
        parse(svg)
    assert module.stale() == [], "run: python scripts/make_pictures.py"
    doc = (ROOT / "docs" / "pictures.md").read_text(encoding="utf-8")
    for name in made:
        assert f"pictures/{name}" in doc, f"docs/pictures.md shows {name}"


def _result(root: ET.Element) -> ET.Element:
    return one(root, "result")


def check_ending(game: Any, state: Any) -> ET.Element:
    """A finished game's picture: "game over" once, in the heading; each seat's final score and the winners
    as the game gives them (on the result line and on each seat's panel)."""
    svg = draw(game, state)
    root = parse(svg)
    assert svg.count("game over") == 1 and "game over" in " ".join(texts(one(root, "heading")))
    result = _result(root)
    scores, winners = game.scores(state), game.winners(state)
    assert result.get("data-scores") == ",".join(map(str, scores))
    assert result.get("data-winners") == ",".join(map(str, winners))
    words = result.text or ""
    for i, score in enumerate(scores):
        assert f"Player {i + 1} {score}" in words
        panels = [e for e in by_class(root, "seat") + by_class(root, "player") if e.get("data-seat") == str(i)]
        if game.info.name != "mechanica-factory":  # the sandbox has no seat panels, only its result line
            panel = " ".join(" ".join(texts(e)) for e in panels)
            assert f"final score {score}" in panel and ("winner" in panel) == (i in winners)
    return result


def test_a_finished_game_shows_each_score_and_the_winner_and_says_game_over_once() -> None:
    for name, players, options in (("mechanica", 3, {}), ("botfactory", 2, {"max_rounds": 2}),
                                   ("mechanica-factory", 1, {})):  # fmt: skip
        game = bgrules.load_game(name, players=players, **options)
        final = playout(game, 3).final
        check_ending(game, final)
        assert "game over" not in draw(game, game.initial_state())


def test_a_tie_on_score_shows_the_tie_break_that_decided() -> None:
    """MC-END-TIE: shared by default, money in hand under tie_break = "wallet"; BF-TIE: more completed bots,
    then an odd number of Speech tokens."""
    for tie_break, winners, words in (("shared", "0,1", "share the win"), ("wallet", "0", "most money in hand")):
        game = bgrules.load_game("mechanica", players=2, variant={"rulings": {"tie_break": tie_break}})
        final = playout(game, 3).final
        values = [s - seat.wallet - seat.vault for s, seat in zip(game.scores(final), final.seats, strict=True)]
        top = max(values) + 4
        seats = (
            attrs.evolve(final.seats[0], wallet=3, vault=top - values[0] - 3),
            attrs.evolve(final.seats[1], wallet=1, vault=top - values[1] - 1),
        )
        tied = attrs.evolve(final, seats=seats)
        result = check_ending(game, tied)
        assert result.get("data-winners") == winners and words in result.get("data-tie-break", "")
        assert "MC-END-TIE" in (result.text or "")
    game = bgrules.load_game("botfactory", players=2, max_rounds=2)
    final = playout(game, 3).final
    base = [s - hand.tokens // 2 for s, hand in zip(game.scores(final), final.hands, strict=True)]
    top = max(base) + 1
    tokens = (2 * (top - base[0]) + 1, 2 * (top - base[1]))  # the same score, P1's tokens odd
    assert all(0 <= t <= 9 for t in tokens)
    on_contracts = [sum(seats.count(s) for seats in final.reserved) for s in range(2)]
    tied = attrs.evolve(
        final,
        hands=tuple(attrs.evolve(h, tokens=t) for h, t in zip(final.hands, tokens, strict=True)),
        supply=tuple(9 - t - c for t, c in zip(tokens, on_contracts, strict=True)),
    )
    assert game.validate(tied) == [] and len(set(game.scores(tied))) == 1
    result = check_ending(game, tied)
    assert result.get("data-winners") == "0"
    assert "an odd number of Speech tokens broke the tie, BF-TIE" in result.get("data-tie-break", "")


def test_every_phase_of_each_game_has_words_in_the_heading() -> None:
    from bgrules.botfactory.state import Phase as BotFactoryPhase
    from bgrules.mechanica.state import Phase as MechanicaPhase
    from bgrules.pictures import botfactory as bp
    from bgrules.pictures import mechanica as mp

    for words, phases in ((mp.PHASE_WORDS, MechanicaPhase), (bp.PHASE_WORDS, BotFactoryPhase)):
        missing = [p.value for p in phases if p.value not in words]
        assert not missing, f"phases drawn by their raw value: {missing}"
