"""The end, the score and the tie-break of Mechanica, recomputed from the seed (MC-END, MC-SCORE,
MC-END-TIE): the executable half of the MC-GAME-END-* specs of specs/mechanica.toml.

Each predicate reads the state's fields and the variant's figures (the catalogue's values, the ruling
``tie_break``) only, never the engine's ``scores``, ``winners`` or ``installed_value``, and compares what it
works out with what the game says.
"""

from __future__ import annotations

from typing import Any

from bgrules.core.observe import observes
from bgrules.mechanica.game import MechanicaGame
from bgrules.mechanica.sandbox import FactoryGame, SandboxState
from bgrules.mechanica.state import MechanicaState
from bgrules.mechanica.variant import DEFAULT_SUPPLY


def seed_end_met(state: MechanicaState) -> bool:
    """MC-END: 装置の山が空でショップの回転板にもタイルが残っていない (the improvement pile empty and no
    tile left on the Shop's wheel)."""
    return sum(state.deck) == 0 and all(slot is None for slot in state.wheel)


def seed_scores(game: MechanicaGame, state: MechanicaState) -> tuple[int, ...]:
    """MC-SCORE: 財布のコインと金庫の中のコインと装置の価値 (wallet + vault + the values of the installed
    improvements: the floor's tiles and the Start Zone's bought fabricators; printed ones count nothing)."""
    cat = game.variant.catalogue
    out = []
    for seat in state.seats:
        board = seat.factory
        value = sum(cat.tile(piece.kind).value for piece in board.floor if piece is not None)
        value += sum(cat.tile(slot.kind).value for slot in board.start if not cat.tile(slot.kind).printed)
        out.append(seat.wallet + seat.vault + value)
    return tuple(out)


def seed_winners(game: MechanicaGame, state: MechanicaState, scores: tuple[int, ...]) -> tuple[int, ...]:
    """MC-END-TIE: the highest score wins; tied players share (``tie_break = "shared"``) or the most coins in
    the wallet wins among them (``"wallet"``), still tied ones sharing."""
    tied = [i for i, s in enumerate(scores) if s == max(scores)]
    if game.variant.rulings.tie_break == "wallet":
        wallets = {i: state.seats[i].wallet for i in tied}
        tied = [i for i in tied if wallets[i] == max(wallets.values())]
    return tuple(tied)


def scores_and_winners(game: MechanicaGame, state: MechanicaState) -> str | None:
    """MC-SCORE, MC-END-TIE: on a terminal state, ``scores`` and ``winners`` are the seed's, recomputed."""
    if not game.is_terminal(state):
        return None
    want = seed_scores(game, state)
    got = tuple(game.scores(state))
    if got != want:
        return f"scores {list(got)}, the seed's {list(want)}"
    won, should = tuple(sorted(game.winners(state))), seed_winners(game, state, want)
    if won != should:
        return f"winners {list(won)} with scores {list(want)}, the seed's {list(should)}"
    return None


def ends_when_the_seed_says(
    game: MechanicaGame, before: MechanicaState, action: Any, after: MechanicaState
) -> str | None:
    """MC-END: the game ends at a day's end with the deck and the Shop empty, and only then: a step that
    ends the game leaves the deck and the Shop empty within the day it began in; a step into a new day
    leaves something in the deck or the Shop (the day's end found the game not over)."""
    if game.is_terminal(before):
        return None if game.is_terminal(after) else "a terminal state was left"
    ended = game.is_terminal(after)
    if not ended and after.day == before.day:
        return None  # the common step: within a day, play goes on
    if ended:
        if not seed_end_met(after):
            left = sum(1 for slot in after.wheel if slot is not None)
            return f"the game ended with {sum(after.deck)} tiles in the deck and {left} in the Shop"
        if after.day != before.day:
            return f"the game ended in day {after.day}, not at the end of day {before.day}"
        return None
    if seed_end_met(after):
        return f"day {after.day} began though the deck and the Shop were empty at the end of day {before.day}"
    return None


DOCUMENTED_BOUNDS = {2: 2_348_890, 3: 2_376_592, 4: 2_395_492}
"""MC-END-BOUND's figures for the default data, as docs/rules/mechanica.md states them."""

FLOOR_CELLS = 12
"""C of the MC-END-BOUND formula: the Factory Floor's cells (three rows of four)."""


def documented_bound(game: MechanicaGame) -> int:
    """MC-END-BOUND's formula as docs/rules/mechanica.md writes it, from the variant's figures: S Shop slots,
    T improvements in the box, E extras, B Blueprints, n players, K bots, C floor cells."""
    data, cat = game.variant.game, game.variant.catalogue
    s_slots, extras, blueprints, n = len(data.prices), data.extras, len(data.blueprints), game.players
    box = sum(cat.tile(key).copies for key in data.improvements)
    k_bots, cells = 3 * game.variant.rulings.bots_per_grade, FLOOR_CELLS
    turns = (box + extras) * s_slots + n
    per_turn = 9 + 2 * s_slots + 6 + 2 * blueprints + 15 + 3 * (n - 1) + 2 + 3
    per_run = k_bots * (5 * cells + 1) + cells
    money = sum(data.money) + turns * (6 * k_bots + 5 * k_bots * cells)
    days = turns // n + 2
    return turns * per_turn + 2 * money + days * n * per_run


def bound_as_documented(game: MechanicaGame, state: MechanicaState) -> str | None:
    """MC-END-BOUND: ``info.max_length`` is the documented formula's value for the game's variant and player
    count (recomputed here from docs/rules/mechanica.md), and with the default data the documented figure."""
    got = game.info.max_length
    want = documented_bound(game)
    if got != want:
        return f"info.max_length is {got:,}; the documented formula gives {want:,}"
    if game.variant.source == "default" and got != DOCUMENTED_BOUNDS.get(game.players, got):
        return f"info.max_length is {got:,}; docs/rules/mechanica.md states {DOCUMENTED_BOUNDS[game.players]:,}"
    return None


SANDBOX_BOUNDS = {6: 26_676, 3: 13_338}
"""The sandbox's bound on a game's actions with the default data and supply, by its ``days``, as
docs/rules/mechanica.md (Termination, the sandbox, 4) states it."""

FLOOR_ROWS = 3
"""The Factory Floor's rows (three rows of four cells)."""


def sandbox_documented_bound(game: FactoryGame) -> int:
    """The sandbox's bound as docs/rules/mechanica.md writes it: per run, each of the K bots may face a
    decision at each of the C cells' 5 nodes, plus a collision each and an activation a cell; per turn, 3 x 3
    sales, an install and a demolition per supply tile, 2 per row of trucks, and Fabricate."""
    k_bots, cells = 3 * game.variant.rulings.bots_per_grade, FLOOR_CELLS
    supply = len(game.initial_state().supply)
    per_run = k_bots * (5 * cells) + k_bots + cells
    per_turn = 3 * 3 + 2 * supply + 2 * FLOOR_ROWS + 1
    return game.days * (per_run + per_turn)


def sandbox_bound_as_documented(game: FactoryGame, state: SandboxState) -> str | None:
    """Termination (the sandbox), 4: ``info.max_length`` is the documented formula's value for the
    sandbox's days, supply and stock, and with the default data and supply the documented figure."""
    got, want = game.info.max_length, sandbox_documented_bound(game)
    if got != want:
        return f"info.max_length is {got:,}; the documented formula gives {want:,}"
    default = game.variant.source == "default" and len(game.initial_state().supply) == len(DEFAULT_SUPPLY)
    if default and SANDBOX_BOUNDS.get(game.days, got) != got:
        return f"info.max_length is {got:,}; docs/rules/mechanica.md states {SANDBOX_BOUNDS[game.days]:,}"
    return None


class _Reads:
    """What each predicate reads (:func:`bgrules.core.observe.observes`)."""

    @staticmethod
    def scores(game: MechanicaGame, state: MechanicaState) -> dict[str, Any]:
        return {
            "terminal": game.is_terminal(state),
            "wallets": [s.wallet for s in state.seats],
            "vaults": [s.vault for s in state.seats],
        }

    @staticmethod
    def end(game: MechanicaGame, before: MechanicaState, action: Any, after: MechanicaState) -> dict[str, Any]:
        return {
            "day before": before.day,
            "day after": after.day,
            "terminal after": game.is_terminal(after),
            "deck": sum(after.deck),
            "Shop tiles": sum(1 for slot in after.wheel if slot is not None),
        }

    @staticmethod
    def bound(game: MechanicaGame, state: MechanicaState) -> dict[str, Any]:
        return {"max_length": game.info.max_length, "players": game.players}

    @staticmethod
    def sandbox_bound(game: FactoryGame, state: SandboxState) -> dict[str, Any]:
        return {"max_length": game.info.max_length, "days": game.days, "supply": len(game.initial_state().supply)}


observes(_Reads.bound)(bound_as_documented)
observes(_Reads.sandbox_bound)(sandbox_bound_as_documented)
observes(_Reads.scores)(scores_and_winners)
observes(_Reads.end)(ends_when_the_seed_says)
