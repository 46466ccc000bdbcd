"""validate(state) of each game, and the loaders' errors (issue 10, item 6): every violation listed with its
field path, plain messages, refused bytes and shapes, actions with fields of the wrong type."""

from __future__ import annotations

import json
from typing import Any

import attrs
import pytest

import bgrules
from bgrules import IllegalAction, InputError
from bgrules.botfactory.state import MoveWorker, Phase, Reserve, TakeProject, Turn
from bgrules.core.codec import read_text, read_toml
from bgrules.core.playout import walk
from bgrules.mechanica.sandbox import Demolish, Install
from bgrules.mechanica.state import Buy, Place
from bgrules.mechanica.state import Phase as MPhase

INTERNALS = ("cattrs", "ClassValidationError", "<class", "typing.", "NoneType", "Traceback", "int()", "str")


def _states(name: str, players: int, seed: int = 1) -> list[Any]:
    game = bgrules.load_game(name, players=players)
    return [before for before, _a, _after in walk(game, seed)]


def _refused(game: Any, data: Any) -> InputError:
    with pytest.raises(InputError) as info:
        bgrules.loads(game, data if isinstance(data, str | bytes) else json.dumps(data))
    return info.value


# --- Bot Factory -----------------------------------------------------------------------------------------


def test_botfactory_validate_lists_every_violation_with_its_path() -> None:
    game = bgrules.load_game("botfactory", players=3)
    state = next(s for s in _states("botfactory", 3) if s.phase is Phase.ACTION and s.turn is not None)
    assert game.validate(state) == []
    hands = (attrs.evolve(state.hands[0], tokens=-2), *state.hands[1:])
    bad = attrs.evolve(state, hands=hands, marker=9, sandra=40, order=(0, 0, 1))
    found = game.validate(bad)
    paths = [p.split(":")[0] for p in found]
    assert {"hands[0].tokens", "marker", "sandra", "order"} <= set(paths), found


def test_botfactory_counts_must_be_conserved() -> None:
    game = bgrules.load_game("botfactory", players=2)
    state = _states("botfactory", 2)[120]
    piles = ((0, 0, 0), *state.piles[1:])
    found = game.validate(attrs.evolve(state, piles=piles))
    assert any(p.startswith("piles:") and "part tiles" in p for p in found), found
    supply = (state.supply[0] + 1, *state.supply[1:])
    assert any(p.startswith("supply:") for p in game.validate(attrs.evolve(state, supply=supply)))


def test_botfactory_phase_fields_are_consistent() -> None:
    game = bgrules.load_game("botfactory", players=2)
    state = next(s for s in _states("botfactory", 2) if s.phase is Phase.MOVE)
    found = game.validate(attrs.evolve(state, turn=Turn(1, "open")))
    assert any(p.startswith("turn:") and "move phase" in p for p in found), found
    found = game.validate(attrs.evolve(state, discarder=0))
    assert any(p.startswith("discarder:") for p in found), found
    found = game.validate(attrs.evolve(state, turn=Turn(1, "wide open", ("dance",))))
    assert any("'wide open'" in p for p in found) and any("'dance'" in p for p in found), found


def test_botfactory_loads_refuses_with_the_paths_in_where() -> None:
    game = bgrules.load_game("botfactory", players=2)
    data = json.loads(bgrules.dumps(_states("botfactory", 2)[50]))
    data["workers"] = [99, None]
    data["values"] = [3, 3, 3, -1]
    err = _refused(game, data)
    assert err.where.startswith("botfactory state") and "workers[0]" in err.where and "values[3]" in err.where
    assert "99 is not an action space (0 to 11)" in err.why and "negative" in err.why


def test_a_state_of_another_player_count_is_refused() -> None:
    four = bgrules.dumps(_states("botfactory", 4)[40])
    err = _refused(bgrules.load_game("botfactory", players=2), four)
    assert "hands" in err.where and "2 players" in err.why


# --- Mechanica and the sandbox -----------------------------------------------------------------------------


def test_mechanica_validate_names_fields_and_phases() -> None:
    game = bgrules.load_game("mechanica", players=3)
    states = _states("mechanica", 3)
    state = next(s for s in states if s.phase is MPhase.BUY)
    assert game.validate(state) == []
    found = game.validate(attrs.evolve(state, current=5, wheel=("teleporter", *state.wheel[1:])))
    text = "\n".join(found)
    assert "current: 5 is not a seat (0 to 2)" in text
    assert "wheel[0]: 'teleporter' is not an improvement" in text
    found = game.validate(attrs.evolve(state, pending="upgrader"))
    assert any(p.startswith("pending: only the place phase") for p in found), found
    running = next(s for s in states if s.run is not None)
    found = game.validate(attrs.evolve(running, phase=MPhase.SELL))
    assert any(p.startswith("run: only the run phase") for p in found), found


def test_mechanica_improvements_and_bots_conserved() -> None:
    game = bgrules.load_game("mechanica", players=2)
    state = next(s for s in _states("mechanica", 2) if s.phase is MPhase.SELL)
    deck = (state.deck[0] - 1, *state.deck[1:])
    assert any(p.startswith("deck:") for p in game.validate(attrs.evolve(state, deck=deck)))
    stock = (state.stock[0] - 1, *state.stock[1:])
    assert any(p.startswith("stock:") for p in game.validate(attrs.evolve(state, stock=stock)))


def test_sandbox_supply_and_days() -> None:
    game = bgrules.load_game("mechanica-factory")
    state = game.initial_state()
    assert game.validate(state) == []
    found = game.validate(attrs.evolve(state, supply=(*state.supply, "upgrader", "truck"), day=99))
    text = "\n".join(found)
    assert "'truck' is not an installable tile kind" in text and "day: 99 is not a day" in text


def test_sandbox_floor_cells_and_holes() -> None:
    game = bgrules.load_game("mechanica-factory")
    data = json.loads(bgrules.dumps(game.initial_state()))
    data["factory"]["floor"][0] = {"kind": "upgrader", "rotation": 7, "inputs": [], "outputs": [None]}
    err = _refused(game, data)
    assert "factory.floor[0].rotation" in err.where and "rotation" in err.why
    data["factory"]["floor"][0] = {"kind": "rocket", "rotation": 0, "inputs": [], "outputs": []}
    err = _refused(game, data)
    assert "MC-PLACE-ZONE" in err.why and "'rocket'" in err.why


# --- the codec's plain words -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "where", "why"),
    [
        (lambda d: d.update(day="1"), "day", 'expected a whole number, not "1"'),
        (lambda d: d.update(day=True), "day", "expected a whole number, not true"),
        (lambda d: d.update(day=1.0), "day", "expected a whole number, not 1.0"),
        (lambda d: d.update(supply="fork"), "supply", 'expected a list of texts, not "fork"'),
        (lambda d: d.update(selling="false"), "selling", 'expected true or false, not "false"'),
        (lambda d: d.update(phase="dance"), "phase", '"dance" is not one of "run", "turn", "over"'),
        (lambda d: d.update(stock=[1, 2]), "stock", "expected a list of 3 items, not 2"),
        (lambda d: d.pop("day"), "day", "required, but missing"),
        (lambda d: d.update(extra=1), "mechanica-factory state", "unknown key(s) extra; valid keys: collisions"),
    ],
)
def test_messages_speak_plainly(change: Any, where: str, why: str) -> None:
    game = bgrules.load_game("mechanica-factory")
    data = json.loads(bgrules.dumps(game.initial_state()))
    change(data)
    err = _refused(game, data)
    assert where in err.where and why in err.why, str(err)
    assert all(word not in str(err) for word in INTERNALS if word != "str"), str(err)


def test_deep_nesting_huge_numbers_and_bytes() -> None:
    game = bgrules.load_game("botfactory", players=2)
    text = bgrules.dumps(game.initial_state())
    assert "nested too deeply" in str(_refused(game, "[" * 100_000 + "]" * 100_000))
    assert "more than 4300 digits" in str(_refused(game, text.replace('"round":1', '"round":' + "9" * 5000)))
    four_thousand = text.replace('"sandra":9', '"sandra":' + "9" * 4000)
    err = _refused(game, four_thousand)
    assert "sandra" in err.where and "a number of 4000 digits is not an action space (0 to 11)" in err.why
    assert "not UTF-8 text (byte 1 is 0xff)" in str(_refused(game, b"{\xff}"))
    assert bgrules.loads(game, text.encode()) == game.initial_state()


def test_files_that_are_not_utf8_name_the_file(tmp_path: Any) -> None:
    path = tmp_path / "state.json"
    path.write_bytes(b'{"day": "\xe9"}')
    with pytest.raises(InputError) as info:
        read_text(path, "state file")
    assert info.value.where == f"state file {path}" and "not UTF-8" in info.value.why
    toml = tmp_path / "variant.toml"
    toml.write_bytes(b"[rulings]\njigsaw = '\xff'\n")
    with pytest.raises(InputError) as info:
        read_toml(toml)
    assert str(toml) in info.value.where
    toml.write_bytes(b"x = " + b"[" * 5000 + b"]" * 5000)
    with pytest.raises(InputError, match="nested too deeply"):
        read_toml(toml)
    toml.write_bytes(b"x = " + b"9" * 5000)
    with pytest.raises(InputError, match="digits"):
        read_toml(toml)


# --- actions with fields of the wrong type --------------------------------------------------------------------


@pytest.mark.parametrize("space", ["3", True, None, 3.0, (3,)])
def test_botfactory_action_of_the_wrong_type_is_illegal(space: Any) -> None:
    game = bgrules.load_game("botfactory", players=2)
    state = next(s for s in _states("botfactory", 2) if s.phase is Phase.MOVE)
    with pytest.raises(IllegalAction) as info:
        game.apply(state, MoveWorker(space))
    assert info.value.rule_id == "BF-MOVE" and "space: expected a whole number" in info.value.why


def test_wrong_types_anywhere_are_illegal_actions() -> None:
    bf = bgrules.load_game("botfactory", players=2)
    state = _states("botfactory", 2)[30]
    for action in (TakeProject("0", 0), Reserve(None), TakeProject(0, False)):
        with pytest.raises(IllegalAction) as info:
            bf.apply(state, action)
        assert info.value.rule_id.startswith("BF-")
    mc = bgrules.load_game("mechanica", players=2)
    mstate = next(s for s in _states("mechanica", 2) if s.phase is MPhase.BUY)
    for maction in (Buy("0"), Buy(True), Place(0, None, 1)):
        with pytest.raises(IllegalAction) as info:
            mc.apply(mstate, maction)
        assert info.value.rule_id.startswith("MC-")
    sandbox = bgrules.load_game("mechanica-factory")
    sstate = next(s for s in _states("mechanica-factory", 1) if s.run is None)
    for saction in (Demolish("0", 0), Install(3, 0, 0, 0), Install("upgrader", 0, 0, "0")):
        with pytest.raises(IllegalAction) as info:
            sandbox.apply(sstate, saction)
        assert info.value.rule_id.startswith("MC-")


def _converter_actions() -> list[tuple[str, Any, str]]:
    """Actions whose fields have converters (bot grades, sides, sorted lists), each with a value of the
    wrong kind: (game, action, the field named)."""
    from bgrules.botfactory.state import Exchange, Trade
    from bgrules.mechanica.fabricate import Fabricate, Sell
    from bgrules.mechanica.run import Change, Discard, Route
    from bgrules.mechanica.state import Complete, Gift

    return [
        ("mechanica", Fabricate(declare=""), "declare"),  # once silently an empty declaration
        ("mechanica", Fabricate(declare="x"), "declare"),
        ("mechanica", Fabricate(declare=5), "declare"),  # type: ignore[arg-type]
        ("mechanica", Fabricate(declare=[None]), "declare"),  # type: ignore[list-item]
        ("mechanica", Fabricate(replace="01"), "replace"),  # type: ignore[arg-type]
        ("mechanica", Fabricate(replace=[1.5, "x"]), "replace"),  # type: ignore[list-item]
        ("mechanica", Sell(0, "x"), "bot"),  # type: ignore[arg-type]
        ("mechanica", Sell(0, 9), "bot"),  # type: ignore[arg-type]
        ("mechanica", Complete(0, "x"), "take"),  # type: ignore[arg-type]
        ("mechanica", Complete(0, [(0, "x")]), "take"),  # type: ignore[list-item]
        ("mechanica", Gift(None), "bot"),  # type: ignore[arg-type]
        ("mechanica-factory", Route(0, 0, "north"), "exit"),  # type: ignore[arg-type]
        ("mechanica-factory", Route(0, 0, 7), "exit"),  # type: ignore[arg-type]
        ("mechanica-factory", Discard(0, 0, 1.5), "bot"),  # type: ignore[arg-type]
        ("mechanica-factory", Change(0, 0, [1]), "bot"),  # type: ignore[arg-type]
        ("botfactory", Trade("abc"), "parts"),  # type: ignore[arg-type]
        ("botfactory", Trade([1, 2, 3]), "parts"),  # type: ignore[list-item]
        ("botfactory", Exchange(5), "projects"),  # type: ignore[arg-type]
    ]


@pytest.mark.parametrize(("name", "action", "field"), _converter_actions())
def test_wrong_types_in_converted_fields_are_illegal_actions(name: str, action: Any, field: str) -> None:
    """A field with a converter takes a value it cannot convert as given (making the action never raises,
    and text is never read as a list of its letters), and ``apply`` refuses it with IllegalAction naming
    the rule and the field, in every state, changing nothing."""
    game = bgrules.load_game(name, players=2 if name != "mechanica-factory" else 1)
    hash(action)  # an action made of odd values can still be looked up among the legal ones
    for state in _states(name, game.players)[::15]:
        before = bgrules.dumps(state)
        with pytest.raises(IllegalAction) as info:
            game.apply(state, action)
        assert f"{field}: expected" in info.value.why, info.value.why
        assert info.value.rule_id.startswith(("MC-", "BF-"))
        assert bgrules.dumps(state) == before


def test_a_foreign_object_is_an_illegal_action() -> None:
    game = bgrules.load_game("mechanica-factory")
    state = next(s for s in _states("mechanica-factory", 1) if s.run is None)
    for junk in (None, 3, "Fabricate", object()):
        with pytest.raises(IllegalAction):
            game.apply(state, junk)


# --- options and clarification starts ------------------------------------------------------------------------------


def test_options_a_game_does_not_take_are_listed() -> None:
    with pytest.raises(InputError) as info:
        bgrules.load_game("botfactory", days=3)
    assert "botfactory takes no option 'days'; it takes max_rounds" in str(info.value)
    with pytest.raises(InputError, match="it takes none"):
        bgrules.load_game("mechanica", max_rounds=3)
    with pytest.raises(InputError, match="unknown game"):
        bgrules.load_game({"a": 1})  # type: ignore[arg-type]
    with pytest.raises(InputError, match="a factory is its notation"):
        bgrules.load_game("mechanica-factory", factory=5)


def test_a_clarification_start_the_game_cannot_reach_is_refused() -> None:
    from bgrules.runners.clarify import clarification_from_data

    data = {
        "id": "T",
        "question": "q",
        "answer": "a",
        "game": "mechanica",
        "players": 2,
        "rules": ["MC-END"],
        "witness": [
            {
                "name": "w",
                "statement": "s",
                "start": {"phase": "over", "deck": [0] * 9},
                "actions": [],
                "expect": {"terminal": True},
            }
        ],
    }
    with pytest.raises(InputError) as info:
        clarification_from_data(data, "t.toml")
    assert info.value.where.startswith("t.toml witness[0].start") and "improvements accounted for" in info.value.why
    data["witness"][0]["start"] = {"phase": "over", "deck": [0] * 9, "recycler": [3] * 9}
    clarification_from_data(data, "t.toml")
    data["witness"][0]["start"] = {"seats": {"-1": {"wallet": 3}}}
    with pytest.raises(InputError, match="not an index of a list of 2"):
        clarification_from_data(data, "t.toml")


@pytest.mark.parametrize("value", [["run"], {"run": 1}, [[1]], None])
def test_unhashable_and_odd_values_are_input_errors(value: Any) -> None:
    game = bgrules.load_game("mechanica-factory")
    data = json.loads(bgrules.dumps(game.initial_state()))
    data["phase"] = value
    err = _refused(game, data)
    assert "phase" in err.where and 'one of "run", "turn", "over"' in err.why
    from bgrules.mechanica.variant import load_variant

    with pytest.raises(InputError, match='one of "published", "strict"'):
        load_variant({"rulings": {"jigsaw": value}})


def test_mechanica_counts_agree_with_the_spec_predicates() -> None:
    """validate counts bots and improvements itself (the package allows no import circle); its verdicts
    agree with game_invariants' and invariants' predicates on reachable and on miscounted states."""
    from bgrules.mechanica import game_invariants, invariants

    game = bgrules.load_game("mechanica", players=3)
    for state in _states("mechanica", 3)[::9]:
        for changed in (state, attrs.evolve(state, stock=(state.stock[0] + 1, *state.stock[1:]))):
            mine = any(p.startswith("stock:") for p in game.validate(changed))
            assert mine == (game_invariants.bots_conserved(game, changed) is not None)
        recycler = (state.recycler[0] + 1, *state.recycler[1:])
        if state.recycler[0] < game.copies[0]:
            changed = attrs.evolve(state, recycler=recycler)
            mine = any(p.startswith("deck:") for p in game.validate(changed))
            assert mine == (game_invariants.improvements_conserved(game, changed) is not None)
    sandbox = bgrules.load_game("mechanica-factory")
    for state in _states("mechanica-factory", 1)[::5]:
        changed = attrs.evolve(state, stock=(state.stock[0] - 1, state.stock[1], state.stock[2]))
        if state.run is None and state.stock[0] > 0:
            assert any(p.startswith("stock:") for p in sandbox.validate(changed))
            assert invariants.bots_conserved(sandbox, changed) is not None
