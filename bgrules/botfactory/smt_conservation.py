"""Bot Factory part conservation as a z3 system (:mod:`bgrules.core.conservation`), BF-PILE: every part tile
of each kind is in its pile, its discard, on the Wheel, on a spare space, on a bot or in a hand (Universal
parts: their supply, a spare space, a bot or a hand), four of each colour part and two of each Universal.

One step is one ``BotFactoryGame.apply``: the part moves of the rules in a fixed order, each moving any
number of tiles: placing (``assembly.place``), discarding (``limits.act``, the Trade; ``_discard_part_tile``
sends a Universal part back to its supply), swapping with a spare (Swap), taking a Wheel output, taking a
Universal part (Exchange), drawing from a pile (``draws.resolve``: onto the Wheel, a spare or a hand),
Sandra clearing the spares (``maintenance.sandra_act``), maintenance clearing completed bots
(``maintenance.maintenance``) and a pile taking its whole discard back when it is empty (``draws.normalise``).
The Speech tokens are proved separately, inductively (``proofs/botfactory.py``, ``BF-PROOF-TOKENS-*``).

:func:`conformance` plays seeded random games and asks the solver whether each apply's counts are a step.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Literal

from bgrules.botfactory.game import BotFactoryGame
from bgrules.botfactory.state import BotFactoryState
from bgrules.core import arith
from bgrules.core import conservation as cons
from bgrules.core.arith import Num, Truth
from bgrules.core.conservation import Counts, Move, System
from bgrules.core.playout import walk

PILE, DISCARD, SUPPLY, WHEEL, SPARES, BOTS, HANDS = "pile", "discard", "supply", "wheel", "spares", "bots", "hands"
PLACES = (PILE, DISCARD, SUPPLY, WHEEL, SPARES, BOTS, HANDS)
PartFault = Literal["discard_vanishes", "reshuffle_unguarded"]
Route = tuple[str, str | None, str | None]


def part_kinds(game: BotFactoryGame) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(colour parts colour-major, Universal parts)."""
    colour = tuple(f"{c}-{s}" for c in game.colours for s in game.slots)
    return colour, tuple(f"any-{s}" for s in game.slots)


def _reshuffle(game: BotFactoryGame, fault: PartFault | None) -> Move:
    """BF-PILE: before a draw, an empty pile takes its whole discard back."""
    params = tuple((c, 1) for c in game.colours)

    def effect(counts: Counts, p: Mapping[str, Num]) -> tuple[Counts, Truth]:
        guards = []
        for c in game.colours:
            kinds = [f"{c}-{s}" for s in game.slots]
            on = p[c] == 1
            if fault == "reshuffle_unguarded":  # broken: the pile is replaced by its discard, not empty or not
                for k in kinds:
                    counts = counts.move(PILE, None, k, arith.ite(on, counts[(PILE, k)], 0))
            else:
                guards.append(arith.either(p[c] == 0, sum(counts[(PILE, k)] for k in kinds) == 0))
            moved = [arith.ite(on, counts[(DISCARD, k)], 0) for k in kinds]
            for k, n in zip(kinds, moved, strict=True):
                counts = counts.move(DISCARD, PILE, k, n)
        return counts, arith.both(True, *guards)

    return Move("reshuffle", ("BF-PILE",), effect, params)


def parts_system(game: BotFactoryGame, fault: PartFault | None = None) -> System:
    colour, universal = part_kinds(game)
    every = colour + universal
    lost = fault == "discard_vanishes"

    def discarded(src: str) -> list[Route]:
        out: list[Route] = [(k, src, None if lost and src == HANDS else DISCARD) for k in colour]
        return out + [(k, src, SUPPLY) for k in universal]

    moves = [
        cons.flow("place", ("BF-ASM",), [(k, HANDS, BOTS) for k in every], most=1),
        cons.flow("discard", ("BF-LIMIT-PARTS", "BF-PROD-TRADE"), discarded(HANDS)),
        cons.flow("swap-out", ("BF-ASM-SWAP",), [(k, HANDS, SPARES) for k in every], most=1),
        cons.flow("swap-in", ("BF-ASM-SWAP",), [(k, SPARES, HANDS) for k in every], most=1),
        cons.flow("take-output", ("BF-PROD-TAKE",), [(k, WHEEL, HANDS) for k in colour], most=1),
        cons.flow("exchange", ("BF-PROJ-TRADE",), [(k, SUPPLY, HANDS) for k in universal], most=1),
        cons.flow("draw", ("BF-PILE",), [(k, PILE, d) for d in (WHEEL, SPARES, HANDS) for k in colour], most=1),
        cons.flow("sandra-clears", ("BF-ASM-SANDRA",), discarded(SPARES)),
        cons.flow("maintenance", ("BF-MAINT",), discarded(BOTS)),
        _reshuffle(game, fault),
    ]
    rules = tuple(dict.fromkeys(r for m in moves for r in m.rules))
    c = game.c.counts
    totals = {**dict.fromkeys(colour, c.parts_per_colour_slot), **dict.fromkeys(universal, c.universal_per_slot)}
    where = {
        **dict.fromkeys(colour, (PILE, DISCARD, WHEEL, SPARES, BOTS, HANDS)),
        **dict.fromkeys(universal, (SUPPLY, SPARES, BOTS, HANDS)),
    }
    return System("parts", PLACES, every, totals, (cons.sequence("apply", rules, moves),), where)


def part_counts(game: BotFactoryGame, state: BotFactoryState) -> dict[tuple[str, str], int]:
    out: dict[tuple[str, str], int] = {}

    def add(place: str, part: str | None, n: int = 1) -> None:
        if part is not None and n:
            out[(place, part)] = out.get((place, part), 0) + n

    for ci, col in enumerate(game.colours):
        for si, slot in enumerate(game.slots):
            add(PILE, f"{col}-{slot}", state.piles[ci][si])
            add(DISCARD, f"{col}-{slot}", state.discards[ci][si])
    for si, slot in enumerate(game.slots):
        add(SUPPLY, f"any-{slot}", state.universal[si])
    for p in state.wheel:
        add(WHEEL, p)
    for p in state.spares:
        add(SPARES, p)
    for column in state.columns:
        for p in column:
            add(BOTS, p)
    for hand in state.hands:
        for p in hand.parts:
            add(HANDS, p)
    return out


def conformance(
    game: BotFactoryGame,
    seeds: Sequence[int],
    max_steps: int | None = None,
    system: System | None = None,
    stop: Callable[[], bool] | None = None,
    timeout_ms: int | Callable[[], int] = 5_000,
) -> tuple[int, int, list[str]]:
    """Random playouts: every apply's part counts must be a step of :func:`parts_system`, and the set-up
    counts must add up to the box's. Returns (applies, applies that moved a part, problems). ``stop``
    (asked before each apply) ends the playouts early; ``timeout_ms`` is each solver check's timeout."""
    system = system or parts_system(game)
    checker = cons.Checker(system, timeout_ms)
    steps = moved = 0
    problems: list[str] = []
    start = part_counts(game, game.initial_state())
    for kind, total in system.totals.items():
        have = sum(start.get((p, kind), 0) for p in system.places)
        if have != total:
            problems.append(f"set-up: {have} {kind} part tiles, not {total}")
    for seed in seeds:
        for before, action, after in walk(game, seed, max_steps):
            if stop is not None and stop():
                return steps, moved, problems
            steps += 1
            cb, ca = part_counts(game, before), part_counts(game, after)
            if cb == ca:
                continue
            moved += 1
            if not checker.allows(cb, ca):
                problems.append(f"seed {seed}, step {steps}, {action!r}: {cb} -> {ca} is not a step")
    return steps, moved, problems
