"""The factory text notation: round trip and error positions."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings

from bgrules import InputError
from bgrules.mechanica.components import Bot
from bgrules.mechanica.factory import StartSlot, Truck, empty_factory, new_placed, starting_factory
from bgrules.mechanica.notation import format_factory, parse_factory
from bgrules.mechanica.strategies import factories
from bgrules.mechanica.variant import MechanicaVariant, Rulings, default_variant

V = default_variant()

GOOD = """\
# a comment line
hole      | .      UP1        .   .  | truck
basic[B]  | GW0    FK1        .   .  | big[BP]   # trailing comment

hole      | .      FC0[P/.]   .   .  | truck
"""


def test_parse_the_docstring_example():
    f = parse_factory(GOOD)
    assert f.start[1] == StartSlot("basic_fabricator", (Bot.BASIC,))
    assert f.at(0, 1).kind == "upgrader" and f.at(0, 1).rotation == 1
    assert f.at(1, 0).kind == "gift_wrapper" and f.at(1, 1).kind == "fork" and f.at(1, 1).rotation == 1
    assert f.at(2, 1).inputs == (Bot.PLUS,) and f.at(2, 1).outputs == (None,)
    assert f.dock[1] == Truck("big_truck", (Bot.BASIC, Bot.PLUS))
    assert parse_factory(format_factory(f)) == f


def _docstring_example() -> str:
    from bgrules.mechanica import notation

    doc = notation.__doc__ or ""
    lines = [ln.strip() for ln in doc.splitlines() if "|" in ln and ln.strip().endswith(("truck", "]"))]
    return "\n".join(lines[:3]) + "\n"


def test_the_docstring_example_parses():
    # regression: the docstring's example once misfitted (UP1 exiting into FK3's exit)
    f = parse_factory(_docstring_example())
    assert parse_factory(format_factory(f)) == f


def test_format_of_the_starting_factory():
    text = format_factory(starting_factory())
    assert text.splitlines()[1].startswith("basic[B] |")
    assert parse_factory(text) == starting_factory()
    assert parse_factory(format_factory(empty_factory())) == empty_factory()


def test_holes_in_all_zones():
    f = (
        empty_factory()
        .with_start(0, StartSlot("advanced_fabricator", (None, Bot.DELUXE)))
        .with_cell(1, 2, new_placed(V.catalogue.tiles["downgrader"], 2))
        .with_truck(2, Truck("huge_truck", (Bot.DELUXE, Bot.BASIC, Bot.BASIC)))
    )
    text = format_factory(f)
    assert "advanced[.D]" in text and "DG2" in text and "huge[BBD]" in text
    assert parse_factory(text) == f


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(factories())
def test_round_trip(factory):
    text = format_factory(factory)
    assert parse_factory(text) == factory
    assert format_factory(parse_factory(text)) == text


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(factories(full=True))
def test_round_trip_full_holes(factory):
    assert parse_factory(format_factory(factory)) == factory


STRICT = MechanicaVariant(rulings=Rulings(jigsaw="strict"))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(factories(STRICT))
def test_round_trip_strict(factory):
    assert parse_factory(format_factory(factory, STRICT), STRICT) == factory


# --- malformed input --------------------------------------------------------------------------------

BASE = [
    "hole     | . . . . | truck",
    "basic[B] | . . . . | truck",
    "hole     | . . . . | truck",
]


def _text(line: int, replacement: str) -> str:
    rows = list(BASE)
    rows[line - 1] = replacement
    return "\n".join(rows) + "\n"


def _where(text: str, source: str = "factory") -> tuple[int, int, InputError]:
    with pytest.raises(InputError) as info:
        parse_factory(text, source=source)
    err = info.value
    m = re.fullmatch(rf"{re.escape(source)}:(\d+):(\d+)", err.where)
    assert m, f"where is {err.where!r}, not {source}:LINE:COL"
    assert str(err).startswith(err.where + ": ")
    return int(m.group(1)), int(m.group(2)), err


@pytest.mark.parametrize(
    ("line", "row", "token"),
    [
        (2, "basic[B] | . ZZ0 . . | truck", "ZZ0"),  # bad token
        (1, "hole     | . . . XY | truck", "XY"),  # bad token
        (3, "hole     | . . UP7 . | truck", "UP7"),  # bad rotation
        (3, "hole     | . . UP . | truck", "UP"),  # missing rotation
        (2, "basic[B] | . UP0[X/.] . . | truck", "UP0[X/.]"),  # bad bot letter
        (2, "basic[B] | . DU0[P/.Q] . . | truck", "DU0[P/.Q]"),  # bad bot letter in outputs
        (1, "hole     | . UP0[BB/.] . . | truck", "UP0[BB/.]"),  # too many bots in inputs
        (1, "hole     | . UP0[/..] . . | truck", "UP0[/..]"),  # too many output holes
        (1, "hole     | . UP0[P] . . | truck", "UP0[P]"),  # no '/'
        (1, "hole     | . . . . | truck[BB]", "truck[BB]"),  # too many bots on a truck
        (1, "hole     | . . . . | big[BZ]", "big[BZ]"),  # bad bot letter on a truck
        (1, "hole     | . . . . | UP0", "UP0"),  # not a truck
        (1, "hole[BB] | . . . . | truck", "hole[BB]"),  # too many bots in a start hole
        (2, "basic[X] | . . . . | truck", "basic[X]"),  # bad bot letter in a start hole
        (3, "UP0      | . . . . | truck", "UP0"),  # not a start tile
        (3, "basic2   | . . . . | truck", "basic2"),  # a start tile takes no rotation
        (1, "hole     | . . . . | big2", "big2"),  # a truck takes no rotation
        (2, "basic[B] | . . FC0[BBB/.] . | truck", "FC0[BBB/.]"),
    ],
)
def test_bad_token_names_line_and_column(line, row, token):
    text = _text(line, row)
    got_line, got_col, _err = _where(text)
    assert got_line == line
    assert got_col == row.index(token) + 1


def test_missing_separator():
    text = _text(2, "basic[B]  . . . . | truck")
    got_line, got_col, err = _where(text)
    assert (got_line, got_col) == (2, 1)
    assert "|" in err.why
    got_line, _, _ = _where(_text(3, "hole | . . . . | truck | truck"))
    assert got_line == 3


def test_wrong_number_of_cells():
    line, col, _ = _where(_text(1, "hole | . . . | truck"))
    assert line == 1 and col >= 1
    row = "hole | . . . . . | truck"
    line, col, _ = _where(_text(2, row))
    assert (line, col) == (2, row.index(". | truck") + 1)  # the fifth cell


def test_line_numbers_count_comments_and_blank_lines():
    text = "# header\n\n" + _text(3, "hole | . . ZZ0 . | truck")
    line, col, _ = _where(text, source="my.fac")
    assert line == 5 and col == "hole | . . ZZ0 . | truck".index("ZZ0") + 1


def test_too_many_rows_names_the_extra_line():
    text = "\n".join([*BASE, "hole | . . . . | truck"]) + "\n"
    line, col, err = _where(text)
    assert line == 4 and col == 1
    assert "3 rows" in err.why


def test_too_few_rows_names_a_line_and_column():
    _where("\n".join(BASE[:2]) + "\n")


def test_too_few_rows_is_an_input_error():
    with pytest.raises(InputError, match="3 rows"):
        parse_factory("\n".join(BASE[:2]) + "\n")
    with pytest.raises(InputError):
        parse_factory("")


def test_placement_problems_are_input_errors():
    # exit against exit: Upgrader turned 0 (exit east) next to a Duplicator turned 2 (exit west)
    with pytest.raises(InputError, match="MC-PLACE-FIT"):
        parse_factory(_text(1, "hole | . UP0 DU2 . | truck"))
    # the printed Basic Fabricator belongs to the middle row
    with pytest.raises(InputError, match="MC-BOARD"):
        parse_factory(_text(1, "basic | . . . . | truck"))


def test_board_rule_problems_name_the_line_and_column():
    """Issue 10: a placement problem found after parsing points at the first cell it names."""
    line, col, err = _where(_text(2, "basic[B] | . UP0 DU2 . | truck"))
    assert (line, col) == (2, 14) and "MC-PLACE-FIT" in err.why
    line, col, err = _where(_text(1, "basic | . . . . | truck"))
    assert (line, col) == (1, 1) and "MC-BOARD" in err.why


def test_bytes_that_are_not_utf8_name_the_line_and_column():
    text = ("\n".join(BASE[:2]) + "\n").encode() + b"hole | . \xff . . | truck\n"
    with pytest.raises(InputError) as info:
        parse_factory(text, source="f.txt")  # type: ignore[arg-type]
    assert info.value.where == "f.txt:3:10" and "not UTF-8" in info.value.why


def test_not_text_is_an_input_error():
    with pytest.raises(InputError) as info:
        parse_factory(None, source="f.txt")  # type: ignore[arg-type]
    assert info.value.where == "f.txt:1:1"
