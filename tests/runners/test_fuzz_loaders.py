"""Fuzz tests of every loader (issue 10, items 6 and 8): ``bgrules.loads``, variant mappings and files,
clarification files (their ``start`` patches), the factory notation and actions read from JSON.

Valid inputs are mutated (a key deleted, a value swapped for one of another kind, an integer moved out of
range or made huge, a list cut, grown or reordered, a subtree copied over another, deep nesting, random
bytes) and each loader must answer with a clean InputError (no traceback, no cattrs or typing internals, no
class names) or a result that validates and plays: legal actions apply, other actions are refused with
IllegalAction only. A few hundred inputs per loader in the default run; ``-m heavy`` runs 10,000 each.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import random
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.toml_text import toml_value

import bgrules
from bgrules import IllegalAction, InputError
from bgrules.botfactory import variant as bf_variant
from bgrules.core.codec import action_from_data, action_to_data
from bgrules.core.playout import walk
from bgrules.mechanica import variant as mc_variant
from bgrules.mechanica.components import default_component_data
from bgrules.mechanica.factory import factory_problems
from bgrules.mechanica.notation import format_factory, parse_factory
from bgrules.runners.clarify import check_clarification, clarification_from_data

FORBIDDEN = ("Traceback", "cattrs", "ClassValidationError", "<class", "typing.", "NoneType", "IterableValidation")


def clean(exc: InputError) -> None:
    """An InputError's message speaks plainly: no traceback, no cattrs or typing internals, no class names."""
    text = str(exc)
    assert text and all(word not in text for word in FORBIDDEN), text


def _paths(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(data, dict):
        for k, v in data.items():
            out.extend(_paths(v, (*path, k)))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out.extend(_paths(v, (*path, i)))
    return out


def _get(data: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        data = data[k]
    return data


def _leaves(data: Any, kind: type) -> list[Any]:
    return [v for p in _paths(data) if type(v := _get(data, p)) is kind]


def _replacement(rng: random.Random, data: Any, old: Any) -> Any:
    choices: list[Any] = [
        None,
        True,
        False,
        "x",
        "",
        [],
        {},
        -1,
        0,
        1,
        2,
        3,
        4,
        5,
        7,
        8,
        9,
        12,
        13,
        24,
        100,
        102,
        1000,
        10**30,
        -(10**30),
        1.5,
        [[[]]],
        {"a": 1},
    ]
    if isinstance(old, int) and not isinstance(old, bool):
        choices += [old + 1, old - 1, old + rng.randint(2, 10), -old, old * 10 + 7]
    if isinstance(old, list) and old:
        choices += [old[:-1], [*old, old[-1]], old[::-1], [old[0]] * len(old), old + old]
    strings = _leaves(data, str)
    ints = _leaves(data, int)
    if strings:
        choices += [rng.choice(strings) for _ in range(6)]
    if ints:
        choices += [rng.choice(ints) for _ in range(4)]
    paths = _paths(data)
    other = _get(data, rng.choice(paths))
    choices.append(copy.deepcopy(other))
    return copy.deepcopy(rng.choice(choices))


def mutate(rng: random.Random, data: Any, rounds: int | None = None) -> Any:
    """``data`` with one to four random changes (deletes, swaps, out-of-range and huge numbers)."""
    data = copy.deepcopy(data)
    for _ in range(rounds if rounds is not None else rng.choice((1, 1, 1, 2, 2, 3, 4))):
        paths = _paths(data)
        path = rng.choice(paths)
        if not path:
            if rng.random() < 0.1:
                return _replacement(rng, data, data)
            continue
        parent = _get(data, path[:-1])
        key = path[-1]
        roll = rng.random()
        if roll < 0.15 and isinstance(parent, dict):
            del parent[key]
        elif roll < 0.2 and isinstance(parent, dict):
            parent[rng.choice(("extra", "Phase", "turn", "run", "window", "zz"))] = _replacement(rng, data, None)
        elif roll < 0.25 and isinstance(parent, list):
            del parent[key]
        else:
            parent[key] = _replacement(rng, data, parent[key])
    return data


def mutate_text(rng: random.Random, text: str) -> str | bytes:
    """Text-level damage: deep nesting, a huge number, random bytes, a cut, or a structural mutation."""
    roll = rng.random()
    if roll < 0.04:
        depth = rng.choice((1000, 5000, 200_000))
        return "[" * depth + "]" * depth
    if roll < 0.08:
        return text.replace(":1,", ":" + "7" * rng.choice((400, 5000, 20000)) + ",", 1)
    if roll < 0.12:
        raw = text.encode()
        i = rng.randrange(len(raw) + 1)
        return raw[:i] + bytes(rng.randrange(256) for _ in range(rng.randint(1, 4))) + raw[i:]
    if roll < 0.15:
        return text[: rng.randrange(len(text) + 1)]
    if roll < 0.18:
        return '{"a":' * 3000 + "1" + "}" * 3000
    return json.dumps(mutate(rng, json.loads(text)))


def play(game: Any, state: Any, rng: random.Random, steps: int = 6, strangers: tuple[Any, ...] = ()) -> None:
    """A validated state must play: its legal actions apply without error, and any other action (one of
    ``strangers``, legal elsewhere) is refused with IllegalAction only."""
    for _ in range(steps):
        game.to_move(state)
        if game.is_terminal(state):
            game.scores(state)
            game.winners(state)
            return
        game.chance_outcomes(state)
        legal = game.legal_actions(state)
        assert legal, "a validated state that is not over has legal actions"
        if strangers:
            stranger = rng.choice(strangers)
            with contextlib.suppress(IllegalAction):
                game.apply(state, stranger)
        state = game.apply(state, rng.choice(legal))
        assert not game.validate(state), game.validate(state)


def try_load(game: Any, text: str | bytes) -> Any:
    """``bgrules.loads``: a clean InputError (None), or a state that validates."""
    try:
        state = bgrules.loads(game, text)
    except InputError as exc:
        clean(exc)
        return None
    assert game.validate(state) == []
    return state


# --- the fuzz tests -----------------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
SEEDS = st.integers(0, 2**32 - 1)
FEW = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
MANY = settings(max_examples=10_000, deadline=None, suppress_health_check=list(HealthCheck))
CONFIGS = [("botfactory", 2), ("botfactory", 3), ("botfactory", 4), ("mechanica", 2), ("mechanica", 4)]
CONFIGS += [("mechanica", 3), ("mechanica-factory", 1)]


@functools.cache
def _game(name: str, players: int) -> Any:
    return bgrules.load_game(name, players=players)


@functools.cache
def _pool(name: str, players: int) -> tuple[tuple[Any, ...], tuple[str, ...], tuple[Any, ...]]:
    """Reachable states (every 5th of three random playouts), their JSON, and actions legal in some."""
    game = _game(name, players)
    states = tuple(b for seed in range(3) for i, (b, _a, _af) in enumerate(walk(game, seed)) if i % 5 == 0)
    actions = tuple(dict.fromkeys(a for s in states[::4] for a in game.legal_actions(s)))
    return states, tuple(bgrules.dumps(s) for s in states), actions


def _check_loads(name: str, players: int, seed: int) -> None:
    rng = random.Random(seed)
    game = _game(name, players)
    _states, texts, actions = _pool(name, players)
    state = try_load(game, mutate_text(rng, rng.choice(texts)))
    if state is not None:
        play(game, state, rng, strangers=actions)


@pytest.mark.parametrize(("name", "players"), CONFIGS)
@FEW
@given(seed=SEEDS)
def test_mutated_states_load_cleanly_or_play(name: str, players: int, seed: int) -> None:
    """``bgrules.loads`` on a mutated dump: a clean InputError, or a state that validates and plays."""
    _check_loads(name, players, seed)


@pytest.mark.heavy
@pytest.mark.parametrize(("name", "players"), CONFIGS)
@MANY
@given(seed=SEEDS)
def test_mutated_states_heavy(name: str, players: int, seed: int) -> None:
    _check_loads(name, players, seed)


# --- variants -------------------------------------------------------------------------------------------


def _bf_data() -> dict[str, Any]:
    data = bf_variant.default_component_data()
    tables = {k: data[k] for k in ("counts", "wheel", "boards", "finance", "contracts")}
    return {"rulings": {"last_space_toll": "combined", "bots_per_colour_to_end": 0}, **tables}


MC_TILES = ("upgrader", "fork", "big_truck", "duplicator", "advanced_fabricator", "overactive_fabricator", "start_hole")
"""The tiles a mutated Mechanica variant holds: floor tiles, a truck and the Start Zone's (a fabricator without an
output side once loaded and then crashed legal_actions)."""


def _mc_data() -> dict[str, Any]:
    tiles = default_component_data()
    game = mc_variant.default_game_data()
    return {
        "rulings": {"jigsaw": "published", "bots_per_grade": 24},
        "bots": tiles["bots"],
        "tiles": {k: tiles["tiles"][k] for k in MC_TILES},
        **{k: game[k] for k in ("setup", "shop", "blueprints")},
    }


VARIANTS = {
    "botfactory": (_bf_data, bf_variant.variant_from_data),
    "mechanica": (_mc_data, mc_variant.variant_from_data),
}


def _check_variant(name: str, seed: int) -> None:
    rng = random.Random(seed)
    make, load = VARIANTS[name]
    data = mutate(rng, make())
    try:
        variant = load(data, "variant.toml")
    except InputError as exc:
        clean(exc)
        return
    try:
        game = bgrules.load_game(name, players=rng.choice((2, 3, 4)), variant=variant)
    except InputError as exc:  # a variant may not fit a player count (too few bots for four players)
        clean(exc)
        return
    state = game.initial_state()
    assert game.validate(state) == []
    play(game, state, rng, steps=12)


@pytest.mark.parametrize("name", sorted(VARIANTS))
@FEW
@given(seed=SEEDS)
def test_mutated_variants_are_refused_cleanly_or_play(name: str, seed: int) -> None:
    """A mutated variant mapping: a clean InputError, or a game whose start validates and plays."""
    _check_variant(name, seed)


@pytest.mark.heavy
@pytest.mark.parametrize("name", sorted(VARIANTS))
@MANY
@given(seed=SEEDS)
def test_mutated_variants_heavy(name: str, seed: int) -> None:
    _check_variant(name, seed)


VARIANT_TEXT = '[rulings]\njigsaw = "strict"\nbots_per_grade = 20\n\n[tiles.upgrader]\nvalue = 3\ncopies = 2\n'


def _check_variant_file(tmp: Path, seed: int) -> None:
    rng = random.Random(seed)
    text: str | bytes = VARIANT_TEXT
    for _ in range(rng.randint(1, 3)):
        raw = text.encode() if isinstance(text, str) else text
        i = rng.randrange(len(raw) + 1)
        junk = rng.choice((b"\xff", b"\xc3", b"[", b"]", b"=", b"\n", b'"', b"-1", b"9" * 5000, b"[" * 3000, b"x"))
        raw = raw[:i] + junk + raw[i + rng.randint(0, 3) :]
        text = raw
    path = tmp / f"v{seed % 7}.toml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    try:
        mc_variant.load_variant(path)
    except InputError as exc:
        clean(exc)
        assert str(path) in exc.where


@FEW
@given(seed=SEEDS)
def test_damaged_variant_files_are_input_errors(tmp_path_factory: Any, seed: int) -> None:
    """A variant file with damaged bytes (not UTF-8, deep nesting, a number of 5000 digits, broken TOML):
    a clean InputError naming the file, or a variant."""
    _check_variant_file(tmp_path_factory.getbasetemp(), seed)


@pytest.mark.heavy
@MANY
@given(seed=SEEDS)
def test_damaged_variant_files_heavy(tmp_path_factory: Any, seed: int) -> None:
    _check_variant_file(tmp_path_factory.getbasetemp(), seed)


# --- clarification files --------------------------------------------------------------------------------

CLARIFICATIONS = ("bf-end-bots.toml", "bf-unpaid-share.toml", "mc-tie.toml", "mc-loop.toml", "mc-anytime.toml")


@functools.cache
def _clarification(name: str) -> dict[str, Any]:
    data = tomllib.loads((ROOT / "specs" / "clarifications" / name).read_text("utf-8"))
    data["property"] = []  # the witnesses only: properties run sampled games
    for w in data["witness"]:
        if isinstance(w.get("start"), str):
            w["start"] = json.loads(w["start"])
    return data


def _check_clarification(seed: int) -> None:
    rng = random.Random(seed)
    data = mutate(rng, _clarification(rng.choice(CLARIFICATIONS)))
    try:
        c = clarification_from_data(data, "clarification.toml")
    except InputError as exc:
        clean(exc)
        return
    for report in check_clarification(c):
        assert "crashed" not in report.detail, report.detail


@FEW
@given(seed=SEEDS)
def test_mutated_clarifications_are_refused_cleanly_or_run(seed: int) -> None:
    """A mutated clarification (its start patches included): a clean InputError, or witnesses that run to
    a verdict without a crash."""
    _check_clarification(seed)


@pytest.mark.heavy
@MANY
@given(seed=SEEDS)
def test_mutated_clarifications_heavy(seed: int) -> None:
    _check_clarification(seed)


# --- the factory notation ---------------------------------------------------------------------------

NOTATION = (
    "hole      | .      UP0        .   .  | truck\n"
    "basic[B]  | GW0    FK0        .   .  | big[BP]\n"
    "hole      | .      FC0[P/.]   .   .  | truck\n"
)
ALPHABET = "BPD.|[]/ #\n0123456789UPGWFKCDSAhole basic truck big huge advanced overactive_\xe9"


def _check_notation(seed: int) -> None:
    rng = random.Random(seed)
    chars = list(NOTATION)
    for _ in range(rng.randint(1, 6)):
        i = rng.randrange(len(chars) + 1)
        roll = rng.random()
        if roll < 0.4:
            chars.insert(i, rng.choice(ALPHABET))
        elif roll < 0.7 and i < len(chars):
            del chars[i]
        elif i < len(chars):
            chars[i] = rng.choice(ALPHABET)
    text: str | bytes = "".join(chars)
    if rng.random() < 0.05:
        text = text.encode() + b"\xff"
    try:
        factory = parse_factory(text, source="f.txt")  # type: ignore[arg-type]
    except InputError as exc:
        clean(exc)
        assert re.fullmatch(r"f\.txt:\d+:\d+", exc.where), exc.where
        return
    assert factory_problems(factory, mc_variant.default_variant()) == []
    assert parse_factory(format_factory(factory)) == factory


@FEW
@given(seed=SEEDS)
def test_damaged_notation_is_an_input_error_with_line_and_column(seed: int) -> None:
    """Factory notation with random edits: an InputError at ``source:line:column``, or a valid factory that
    round-trips."""
    _check_notation(seed)


@pytest.mark.heavy
@MANY
@given(seed=SEEDS)
def test_damaged_notation_heavy(seed: int) -> None:
    _check_notation(seed)


# --- actions --------------------------------------------------------------------------------------------


def _check_action(name: str, players: int, seed: int) -> None:
    rng = random.Random(seed)
    game = _game(name, players)
    states, _texts, actions = _pool(name, players)
    data = mutate(rng, action_to_data(rng.choice(actions)), rounds=rng.randint(0, 2))
    try:
        action = action_from_data(data, game.action_types())
    except InputError as exc:
        clean(exc)
        return
    except (TypeError, ValueError):  # an attrs converter of the action class (a bot grade) refused it
        return
    state = rng.choice(states)
    try:
        after = game.apply(state, action)
    except IllegalAction:
        return
    assert game.validate(after) == []


@pytest.mark.parametrize(("name", "players"), [("botfactory", 3), ("mechanica", 3), ("mechanica-factory", 1)])
@FEW
@given(seed=SEEDS)
def test_mutated_actions_are_refused_with_a_rule(name: str, players: int, seed: int) -> None:
    """An action read from mutated JSON (a text, ``true`` or ``null`` for an index, out of range) is an
    InputError when read, or IllegalAction (naming a rule) when applied, or a legal move."""
    _check_action(name, players, seed)


@pytest.mark.heavy
@pytest.mark.parametrize(("name", "players"), [("botfactory", 3), ("mechanica", 3), ("mechanica-factory", 1)])
@MANY
@given(seed=SEEDS)
def test_mutated_actions_heavy(name: str, players: int, seed: int) -> None:
    _check_action(name, players, seed)


# --- validate never refuses a reachable state --------------------------------------------------------------


@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_every_state_of_random_playouts_validates(name: str, players: int) -> None:
    """``validate`` accepts every state the game reaches (random playouts, every player count)."""
    game = _game(name, players)
    seen = 0
    for seed in range(4, 6):
        steps = list(walk(game, seed))
        for state in [steps[0][0], *(after for _before, _action, after in steps)]:
            assert game.validate(state) == [], (seed, game.validate(state))
            seen += 1
    assert seen > 50


# --- spec and proof manifests (issue 21, part 4) --------------------------------------------------------------

SPEC_ENTRY = {
    "id": "MC-INV-X",
    "game": "mechanica-factory",
    "statement": "bots are conserved",
    "rules": ["MC-STOCK"],
    "predicate": "bgrules.mechanica.invariants:bots_conserved",
    "kind": "state",
    "expected": "holds",
    "checkers": ["sampled", "searched"],
    "options": {"days": 2},
    "players": 1,
    "budget": {"games": 1, "examples": 1, "max_steps": 4},
}
PREDICATE_PATHS = (":", "..:x", "a:", ":b", "a..b:c", ".a:b", "a:b:c", "a b:c", "os:path.join", "/tmp/x:f", "")


def _manifest(entries: Any, table: str) -> str:
    """TOML text of ``[[table]]`` entries (an entry that is not a table is written as a plain key)."""
    out = []
    for entry in entries if isinstance(entries, list) else [entries]:
        if isinstance(entry, dict):
            out.append(f"[[{table}]]")
            out += [f"{json.dumps(str(k))} = {toml_value(v)}" for k, v in entry.items() if v is not None]
        elif entry is not None:
            out.append(f"{table} = {toml_value(entry)}")
            break
    return "\n".join(out) + "\n"


def _check_spec_manifest(tmp: Path, seed: int) -> None:
    from bgrules.runners.specfile import Budget
    from bgrules.runners.verify import group_rows, spec_tasks

    rng = random.Random(seed)
    entry = copy.deepcopy(SPEC_ENTRY)
    if rng.random() < 0.2:
        entry["predicate"] = rng.choice(PREDICATE_PATHS)
    data = mutate(rng, [entry])
    directory = tmp / f"specs{seed % 5}"
    directory.mkdir(exist_ok=True)
    (directory / "a.toml").write_text(_manifest(data, "spec"), encoding="utf-8")
    try:
        tasks, _specs = spec_tasks(directory, Budget(games=1, examples=1, max_steps=4), ("sampled", "searched"), None)
        for task in tasks:
            for row in group_rows(*task.args):
                assert row["verdict"] in ("holds", "violated", "unknown")
                json.dumps(row)
    except InputError as exc:
        clean(exc)
        assert "a.toml" in str(exc) or "budget" in exc.where, exc


@FEW
@given(seed=SEEDS)
def test_mutated_spec_manifests_are_refused_cleanly_or_run(tmp_path_factory: Any, seed: int) -> None:
    """A mutated spec manifest (fields of the wrong kind, predicate paths that are not module:function,
    huge budgets): a clean InputError naming the file, or rows with a verdict."""
    _check_spec_manifest(tmp_path_factory.getbasetemp(), seed)


@pytest.mark.heavy
@MANY
@given(seed=SEEDS)
def test_mutated_spec_manifests_heavy(tmp_path_factory: Any, seed: int) -> None:
    _check_spec_manifest(tmp_path_factory.getbasetemp(), seed)


PROOF_MODULE = """\
from bgrules.core.proofs import Obligation, Outcome


def obligations():
    return [Obligation("X-PROOF", "s", (), "g", lambda budget: Outcome("holds", checked=1))]
"""


def _check_proof_manifest(tmp: Path, seed: int) -> None:
    from bgrules.runners.proofs import collect

    rng = random.Random(seed)
    entry: dict[str, Any] = {"id": "X-PROOF", "module": "m", "expected": "holds"}
    if rng.random() < 0.2:
        entry["module"] = rng.choice(("../m", "/m", "m.py", "a.b", "", "m/../m", "..", "m\u0000"))
    data = mutate(rng, [entry])
    directory = tmp / f"proofs{seed % 5}" / "proofs"
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "manifest.toml").write_text(_manifest(data, "obligation"), encoding="utf-8")
    (directory / "m.py").write_text(PROOF_MODULE, encoding="utf-8")
    (directory.parent / "m.py").write_text("raise SystemExit('a module outside the proofs directory ran')\n")
    try:
        found = collect(directory)
    except InputError as exc:
        clean(exc)
        return
    assert [ob.id for ob, _expected in found] == ["X-PROOF"]


@FEW
@given(seed=SEEDS)
def test_mutated_proof_manifests_are_refused_cleanly(tmp_path_factory: Any, seed: int) -> None:
    """A mutated proof manifest (a list as id, a module outside the directory, odd verdicts): a clean
    InputError, and no module outside the proofs directory is ever imported."""
    _check_proof_manifest(tmp_path_factory.getbasetemp(), seed)


@pytest.mark.heavy
@MANY
@given(seed=SEEDS)
def test_mutated_proof_manifests_heavy(tmp_path_factory: Any, seed: int) -> None:
    _check_proof_manifest(tmp_path_factory.getbasetemp(), seed)
