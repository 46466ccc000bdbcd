"""Variant files: rulings and component data from TOML, and their errors."""

from __future__ import annotations

import pytest

import bgrules
from bgrules import InputError
from bgrules.mechanica.sandbox import Install
from bgrules.mechanica.variant import MechanicaVariant, Rulings, default_variant, load_variant


def write(tmp_path, text: str, name: str = "variant.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_default_variant():
    v = load_variant(None)
    assert v == default_variant() and v.rulings == Rulings()
    assert load_variant(v) is v


def test_variant_changes_a_ruling_and_a_tile_value(tmp_path):
    path = write(
        tmp_path,
        """
[rulings]
jigsaw = "strict"
bots_per_grade = 5

[tiles.upgrader]
value = 9
provenance = { value = "official" }
""",
    )
    v = load_variant(path)
    assert v.rulings.jigsaw == "strict" and v.rulings.bots_per_grade == 5
    up = v.catalogue.tiles["upgrader"]
    assert up.value == 9 and up.provenance["value"] == "official" and up.provenance["edges"] == "assumed"
    assert v.catalogue.tiles["gift_wrapper"] == default_variant().catalogue.tiles["gift_wrapper"]
    assert v.source == str(path)
    # the default is untouched
    assert load_variant(None).catalogue.tiles["upgrader"].value == 2

    game = bgrules.load_game("mechanica-factory", variant=str(path))
    s = game.initial_state()
    assert s.stock == (4, 5, 5)
    before = game.scores(s)[0]
    s = game.apply(s, Install("upgrader", 0, 1, 0))
    assert game.scores(s)[0] == before + 9
    # strict jigsaw: flat against entrance is refused in this game
    s = game.apply(s, Install("flight_tester", 2, 1, 0))  # flat east
    assert not any(
        isinstance(a, Install) and (a.row, a.col) == (2, 2) and a.kind == "gift_wrapper" and a.rotation == 0
        for a in game.legal_actions(s)
    )


def test_variant_from_a_mapping_and_a_changed_edge_layout():
    v = load_variant({"tiles": {"gift_wrapper": {"edges": ["exit", "entrance", "entrance", "entrance"]}}})
    from bgrules.mechanica.components import Dir

    assert v.catalogue.tiles["gift_wrapper"].exits(0) == (Dir.N,)
    assert isinstance(v, MechanicaVariant)


def test_variant_may_change_a_bot_sale(tmp_path):
    path = write(tmp_path, "[bots.deluxe]\nsale = 10\n")
    game = bgrules.load_game(
        "mechanica-factory",
        variant=str(path),
        factory="hole | . . . . | truck[D]\nbasic | . . . . | truck\nhole | . . . . | truck\n",
    )
    from bgrules.mechanica.components import Bot
    from bgrules.mechanica.sandbox import Sell

    s = game.apply(game.initial_state(), Sell(0, Bot.DELUXE))
    assert s.wallet == 10


def _error(tmp_path, text: str) -> InputError:
    path = write(tmp_path, text)
    with pytest.raises(InputError) as info:
        load_variant(path)
    with pytest.raises(InputError):
        bgrules.load_game("mechanica-factory", variant=str(path))
    return info.value


def test_malformed_toml_names_the_file(tmp_path):
    err = _error(tmp_path, "[rulings\njigsaw = 'strict'\n")
    assert "variant.toml" in err.where and "TOML" in err.why
    err = _error(tmp_path, "[rulings]\njigsaw = \n")
    assert "variant.toml" in err.where and "line 2" in err.why


def test_missing_file(tmp_path):
    with pytest.raises(InputError) as info:
        load_variant(tmp_path / "absent.toml")
    assert "absent.toml" in info.value.where


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ('jigsaw = "loose"', "jigsaw"),
        ('off_floor = "bounce"', "off_floor"),
        ("loop = 3", "loop"),
        ('flight = "anywhere"', "flight"),
        ("bots_per_grade = 0", "bots_per_grade"),
        ('bots_per_grade = "many"', "bots_per_grade"),
        ("no_such_ruling = true", "no_such_ruling"),
    ],
)
def test_unknown_ruling_values(tmp_path, body, field):
    err = _error(tmp_path, f"[rulings]\n{body}\n")
    assert "variant.toml" in err.where and "[rulings]" in err.where
    assert field in str(err) or field == "bots_per_grade"


def test_unknown_tables(tmp_path):
    err = _error(tmp_path, "[rules]\njigsaw = 'strict'\n")
    assert "variant.toml" in err.where and "rules" in err.why
    err = _error(tmp_path, "rulings = 3\n")
    assert "variant.toml" in str(err)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ("[tiles.upgrader]\nvalue = 'high'\n", "value"),
        ("[tiles.upgrader]\ninputs = 5\n", "inputs"),
        ("[tiles.upgrader]\nedges = ['entrance', 'exit', 'wobbly', 'entrance']\n", "edges"),
        ("[tiles.upgrader]\nedges = ['entrance', 'exit']\n", "edges"),
        ("[tiles.upgrader]\noutputs = ['W']\n", "upgrader"),  # an output hole must leave by an exit
        ("[tiles.upgrader]\nrecycle = 'gold'\n", "recycle"),
        ("[tiles.upgrader]\nprovenance = { value = 'rumour' }\n", "provenance"),
        ("[tiles.upgrader]\ncolour = 'red'\n", "colour"),
        ("[tiles.upgrader]\ncode = 'GW'\n", "codes"),
        ("[tiles.flight_tester]\nedges = ['entrance', 'entrance', 'entrance', 'entrance']\n", "flight_tester"),
        ("[tiles.big_truck]\ncapacity = 0\n", "big_truck"),
        ("[tiles.teleporter]\ncode = 'TP'\n", "teleporter"),
        ("[tiles]\nupgrader = 3\n", "upgrader"),
        ("[bots.deluxe]\nsale = 'six'\n", "deluxe"),
        ("[bots.golden]\ngrade = 3\nsale = 9\nprovenance = 'assumed'\n", "bots"),
    ],
)
def test_bad_tile_data_names_the_field(tmp_path, body, field):
    err = _error(tmp_path, body)
    assert field in str(err), str(err)


def test_bad_tile_semantics_name_the_file(tmp_path):
    err = _error(tmp_path, "[tiles.upgrader]\ninputs = 5\n")
    assert "variant.toml" in str(err)


# --- issue 10: variants checked for meaning; the other game's rulings named ---------------------------------


@pytest.mark.parametrize(
    ("data", "where", "why"),
    [
        ({"bots": {"plus": {"sale": -4}}}, "bots.plus.sale", "a sale price is not negative"),
        ({"tiles": {"upgrader": {"copies": -1}}}, "tiles.upgrader.copies", "not negative"),
        ({"tiles": {"upgrader": {"value": -2}}}, "tiles.upgrader.value", "not negative"),
        ({"tiles": {"fork": {"price": 0}}}, "tiles.fork", "a bought tile's price is at least 1"),
        ({"tiles": {"huge_truck": {"upgrade_price": -3}}}, "tiles.huge_truck.upgrade_price", "at least 1"),
        ({"tiles": {"huge_truck": {"upgrade_from": "upgrader"}}}, "tiles.huge_truck.upgrade_from", "a truck upgrades"),
        ({"bots": {"plus": {"grade": 2}}}, "bots.plus.grade", "the plus bot is grade 1"),
        ({"setup": {"money": [5, -1, 1, 1]}}, "setup", "not negative"),
        ({"shop": {"prices": [7, -5]}}, "shop.prices", "none negative"),
        ({"rulings": {"last_space_toll": "combined"}}, "[rulings] last_space_toll", "a Bot Factory ruling"),
        ({"counts": {"bots_per_colour": 4}}, "[counts]", "is a Bot Factory table, not a Mechanica one"),
        ({"tiles": "upgrader"}, "[tiles]", "expected a table"),
    ],
)
def test_mechanica_variants_are_checked_for_meaning(data, where, why):
    with pytest.raises(InputError) as info:
        load_variant(data)
    assert where in info.value.where and why in info.value.why, str(info.value)


@pytest.mark.parametrize(
    ("data", "where", "why"),
    [
        ({"counts": {"parts_per_colour_slot": -1}}, "counts.parts_per_colour_slot", "not negative"),
        ({"boards": {"sandra_start": 12}}, "boards.sandra_start", "an action space 0 to 11"),
        ({"wheel": {"sandra_start": 8}}, "wheel.sandra_start", "0-7"),
        ({"finance": {"lines": [5, 11]}}, "finance.lines", "on the track, 1 to 10"),
        ({"contracts": [{"id": 1, "needs": {"red": 1}, "points": -3}] * 1}, "contracts", "distinct contract ids"),
        ({"rulings": {"bots_per_colour_to_end": 9}}, "bots_per_colour_to_end", "at most the 4 bots"),
        ({"rulings": {"jigsaw": "strict"}}, "[rulings] jigsaw", "jigsaw is a Mechanica ruling, not a Bot Factory one"),
        ({"tiles": {}}, "[tiles]", "[tiles] is a Mechanica table, not a Bot Factory one"),
        ({"rulings": {"unpaid": "x"}}, "[rulings]", "unknown key(s) unpaid; valid keys: additional_actions"),
    ],
)
def test_botfactory_variants_are_checked_for_meaning(data, where, why):
    from bgrules.botfactory.variant import load_variant as bf_load

    with pytest.raises(InputError) as info:
        bf_load(data)
    assert where in info.value.where and why in info.value.why, str(info.value)


def test_contract_points_are_not_negative():
    from bgrules.botfactory.variant import default_component_data
    from bgrules.botfactory.variant import load_variant as bf_load

    contracts = [dict(k) for k in default_component_data()["contracts"]]
    contracts[0]["points"] = -1
    with pytest.raises(InputError, match="points are not negative"):
        bf_load({"contracts": contracts})


def test_a_variant_that_is_not_a_path_or_table():
    with pytest.raises(InputError, match="a variant is a TOML file's path or a table of tables"):
        load_variant(5)


def test_variant_file_that_is_not_utf8_names_the_file(tmp_path):
    path = tmp_path / "box.toml"
    path.write_bytes(b'[rulings]\njigsaw = "\xe9"\n')
    with pytest.raises(InputError) as info:
        load_variant(path)
    assert str(path) in info.value.where and "not UTF-8" in info.value.why
