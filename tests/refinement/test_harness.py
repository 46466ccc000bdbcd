"""The refinement harness (bgrules.core.refinement) tells two engines apart wherever they differ: the
mover, the terminal test, the legal actions and their order, chance outcomes and their probabilities, a
successor, the scores and winners, an exception. Checked on tic-tac-toe (tests/support/tictactoe.py, every one of
its 5,478 positions) and a coin game with chance, against engines broken one way each."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs
import pytest
from support.tictactoe import Board, TicTacToe

from bgrules import explore
from bgrules.core.errors import IllegalAction, InputError
from bgrules.core.protocol import CHANCE
from bgrules.core.refinement import compare_walks, difference, initial_difference, near_misses, reference_of
from bgrules.core.registry import load_game


class ScoredTicTacToe(TicTacToe):
    """Tic-tac-toe with the protocol's scores and winners."""

    def scores(self, board: Board) -> tuple[int, int]:
        w = self.winner(board)
        return (int(w == "X"), int(w == "O"))

    def winners(self, board: Board) -> tuple[int, ...]:
        w = self.winner(board)
        return () if w is None else ("XO".index(w),)


class Reversed(ScoredTicTacToe):
    def legal_actions(self, board: Board) -> tuple[int, ...]:
        return tuple(reversed(super().legal_actions(board)))


class NoCorner(ScoredTicTacToe):
    def legal_actions(self, board: Board) -> tuple[int, ...]:
        return tuple(c for c in super().legal_actions(board) if c != 8)

    def apply(self, board: Board, cell: int) -> Board:
        return (*board[:cell], "XO"[self.to_move(board) or 0], *board[cell + 1 :])


class WrongMark(ScoredTicTacToe):
    def apply(self, board: Board, cell: int) -> Board:
        after = super().apply(board, cell)
        return after if cell != 4 else (*after[:4], "X", *after[5:])


class DrawsWin(ScoredTicTacToe):
    def winners(self, board: Board) -> tuple[int, ...]:
        return super().winners(board) or (0, 1)


class Raising(ScoredTicTacToe):
    def apply(self, board: Board, cell: int) -> Board:
        if board.count(" ") == 3:
            raise RuntimeError("no")
        return super().apply(board, cell)


def _every_state(game: Any) -> list[Any]:
    """Every position, breadth-first (as many as the explorer counts)."""
    seen = [game.initial_state()]
    known = set(seen)
    for state in seen:  # grows as it goes
        for a in game.legal_actions(state):
            t = game.apply(state, a)
            if t not in known:
                known.add(t)
                seen.append(t)
    assert len(seen) == explore(game, symmetry=False).distinct == 5478
    return seen


def test_an_engine_refines_itself_at_every_position() -> None:
    states = _every_state(ScoredTicTacToe())
    assert len(states) == 5478
    assert all(difference(ScoredTicTacToe(), ScoredTicTacToe(), s) is None for s in states)


@pytest.mark.parametrize(
    ("broken", "said"),
    [
        (Reversed, "legal actions in another order"),
        (NoCorner, "only the fast engine has [8]"),
        (WrongMark, "successor of 4"),
        (DrawsWin, "winners"),
        (Raising, "raises RuntimeError: no"),
    ],
)
def test_each_kind_of_difference_is_found_and_said(broken: type, said: str) -> None:
    fast, ref = ScoredTicTacToe(), broken()
    found = [d for d in (difference(fast, ref, s) for s in _every_state(fast)) if d]
    assert found, f"{broken.__name__} was not told apart"
    assert any(said in d for d in found), found[:3]


class Coin:
    """Flip a coin (heads 1/3), then the player says stop: terminal, scored by the face."""

    players = 1
    odds = Fraction(1, 3)

    def initial_state(self) -> tuple[str, ...]:
        return ()

    def to_move(self, s: tuple[str, ...]) -> Any:
        return CHANCE if not s else (0 if len(s) == 1 else None)

    def chance_outcomes(self, s: tuple[str, ...]) -> tuple[tuple[str, Fraction], ...]:
        return (("H", self.odds), ("T", 1 - self.odds)) if not s else ()

    def legal_actions(self, s: tuple[str, ...]) -> tuple[str, ...]:
        return ("stop",) if len(s) == 1 else ()

    def apply(self, s: tuple[str, ...], a: str) -> tuple[str, ...]:
        return (*s, a)

    def is_terminal(self, s: tuple[str, ...]) -> bool:
        return len(s) == 2

    def scores(self, s: tuple[str, ...]) -> tuple[int]:
        return (int(s[0] == "H"),)

    def winners(self, s: tuple[str, ...]) -> tuple[int, ...]:
        return (0,) if s[0] == "H" else ()


class FairCoin(Coin):
    odds = Fraction(1, 2)


def test_chance_probabilities_must_be_the_same() -> None:
    assert difference(Coin(), Coin(), ()) is None
    said = difference(Coin(), FairCoin(), ())
    assert said is not None and "chance outcomes" in said and "1/3" in said.replace("Fraction(1, 3)", "1/3")


class FloatCoin(FairCoin):
    """The same odds as floats: equal to the Fractions under ``==``, not exact."""

    def chance_outcomes(self, s: tuple[str, ...]) -> tuple[tuple[str, Any], ...]:
        return tuple((o, float(p)) for o, p in super().chance_outcomes(s))


def test_a_float_probability_is_not_the_exact_one() -> None:
    assert FloatCoin().chance_outcomes(()) == FairCoin().chance_outcomes(())  # == alone cannot tell them apart
    said = difference(FloatCoin(), FairCoin(), ())
    assert said is not None and "is a float in the fast engine, a Fraction in the reference" in said


class OtherStart(ScoredTicTacToe):
    def initial_state(self) -> Board:
        return ("X", *super().initial_state()[1:])


def test_the_initial_states_are_compared_first() -> None:
    assert initial_difference(ScoredTicTacToe(), ScoredTicTacToe()) is None
    said = initial_difference(ScoredTicTacToe(), OtherStart())
    assert said is not None and said.startswith("initial state")
    report = compare_walks(ScoredTicTacToe(), OtherStart(), seeds=range(3))
    assert not report and report.difference == said and report.games == 0 and report.seed is None


def test_the_walk_harness_reports_the_seed_and_trace_of_a_difference() -> None:
    report = compare_walks(ScoredTicTacToe(), ScoredTicTacToe(), seeds=range(5))
    assert report and report.games == 5 and report.states > 5 and report.finished == 5
    bad = compare_walks(ScoredTicTacToe(), WrongMark(), seeds=range(20))
    assert not bad and bad.difference is not None and "successor of 4" in bad.difference
    assert bad.seed is not None
    # the trace replays to the state where they differ
    game = ScoredTicTacToe()
    state = game.initial_state()
    for a in bad.trace:
        state = game.apply(state, a)
    assert difference(game, WrongMark(), state) is not None


def test_refinement_needs_a_game_loaded_by_name() -> None:
    with pytest.raises(InputError, match=r"not loaded with bgrules\.load_game"):
        reference_of(ScoredTicTacToe())  # type: ignore[arg-type]


def test_load_game_refuses_a_reference_flag_that_is_not_a_boolean() -> None:
    with pytest.raises(InputError, match="True or False"):
        load_game("botfactory", players=2, reference="yes")  # type: ignore[arg-type]


def test_a_loaded_game_records_how_it_was_loaded() -> None:
    game = load_game("botfactory", players=3, max_rounds=2)
    assert game.loaded_as == ("botfactory", 3, None, {"max_rounds": 2})  # type: ignore[attr-defined]


# --- refusals: an action no engine lists must be refused alike ---------------------------------------------


class Lenient(ScoredTicTacToe):
    """Marks a cell whether or not it is free: a guard dropped."""

    def apply(self, board: Board, cell: int) -> Board:
        if not 0 <= cell < 9:
            raise ValueError(f"no cell {cell}")
        return (*board[:cell], "XO"[self.to_move(board) or 0], *board[cell + 1 :])


class OtherError(ScoredTicTacToe):
    def apply(self, board: Board, cell: int) -> Board:
        if cell not in self.legal_actions(board):
            raise KeyError(cell)
        return super().apply(board, cell)


@pytest.mark.parametrize(
    ("broken", "said"), [(Lenient, "reference accepts it"), (OtherError, "reference raises KeyError")]
)
def test_an_unlisted_action_must_be_refused_alike(broken: type, said: str) -> None:
    fast, ref = ScoredTicTacToe(), broken()
    found = [d for d in (difference(fast, ref, s, successors=False) for s in _every_state(fast)) if d]
    assert found and all(d.startswith("the unlisted action ") for d in found), found[:3]
    assert any(said in d for d in found), found[:3]


@attrs.frozen
class Add:
    n: int
    colour: str = "red"


class Counter:
    """Count to 5 adding 1 or 2 in red or blue; other additions are refused, naming rule COUNT-ADD."""

    players = 1
    rule = "COUNT-ADD"

    def initial_state(self) -> int:
        return 0

    def to_move(self, s: int) -> int | None:
        return None if s >= 5 else 0

    def is_terminal(self, s: int) -> bool:
        return s >= 5

    def legal_actions(self, s: int) -> tuple[Add, ...]:
        return () if s >= 5 else tuple(Add(n, c) for n in (1, 2) for c in ("red", "blue"))

    def chance_outcomes(self, s: int) -> tuple[()]:
        return ()

    def apply(self, s: int, a: Add) -> int:
        if a not in self.legal_actions(s):
            raise IllegalAction(self.rule, f"{a!r} is not an addition")
        return s + a.n

    def scores(self, s: int) -> tuple[int]:
        return (s,)

    def winners(self, s: int) -> tuple[int]:
        return (0,)


class OtherRule(Counter):
    rule = "COUNT-OTHER"


class OtherRuleDeclared(OtherRule):
    REFUSAL_RULES_DIFFER = "names another rule on purpose (a test)"


def test_a_refusal_must_name_the_same_rule() -> None:
    found = difference(Counter(), OtherRule(), 0)
    assert found is not None and "refuses it by COUNT-ADD" in found and "refuses it by COUNT-OTHER" in found
    # a reference that says why its refusals name rules in another order: both must refuse, that is all
    assert difference(Counter(), OtherRuleDeclared(), 0) is None
    assert difference(Counter(), Counter(), 0) is None


def test_near_misses_are_one_field_away_unlisted_and_the_same_every_time() -> None:
    listed = Counter().legal_actions(0)
    misses = near_misses(listed)
    assert misses == near_misses(listed)  # a function of the listing alone
    assert not set(misses) & set(listed)
    assert {Add(0), Add(3), Add(1, "?"), Add(2, "blue")} - set(listed) <= set(misses)
    assert Add(2, "red") not in misses  # legal
    assert len(near_misses(listed, limit=3)) == 3
    assert near_misses([3]) == [4, 2]


def test_the_fast_engines_refuse_as_the_references_do() -> None:
    """Bot Factory and Mechanica: near misses of every listed action along a seeded game, refused alike."""
    for name in ("botfactory", "mechanica", "mechanica-factory"):
        fast = load_game(name, players=1 if name == "mechanica-factory" else 2)
        report = compare_walks(fast, reference_of(fast), seeds=[0], max_steps=150, successors=False)
        assert report, report.difference


def test_a_guard_dropped_from_the_fast_engine_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Loading Dock's guard (MC-PLACE-ZONE) skipped in the fast engine: a truck bought with a tile that is
    no truck is then refused by another rule (or not at all), and the walk says so."""
    from bgrules.mechanica import blueprints

    monkeypatch.setattr(blueprints, "check_install_truck", lambda *args: None)
    fast = load_game("mechanica", players=2)
    report = compare_walks(fast, reference_of(fast), seeds=range(3), max_steps=300, successors=False)
    assert not report and "the unlisted action BuyTruck(" in str(report.difference), report.difference
