"""Conservation obligations: bots per grade in Mechanica (MC-STOCK), the 27 Mechanica improvements
(MC-SETUP-DECK) and Bot Factory's part tiles per kind (BF-PILE), proved bounded by z3 over the systems of
bgrules.mechanica.smt_conservation and bgrules.botfactory.smt_conservation (engine: bgrules.core.conservation).

Each ``holds`` refutes its negation: from every start whose counts are non-negative and add up to the box's
figures, no run of at most k steps changes a kind's total, drops a count below zero or (parts) puts a piece
where its kind never goes. ``*-BROKEN-*`` obligations run the same proof with one deliberately broken move
and must be ``violated``, with the run decoded. ``*-CONFORMANCE`` obligations tie the systems to the Python
rules on seeded playouts (the hypothesis tests in tests/core/test_conservation.py drive random factories too).
Bot Factory's Speech tokens are proved inductively in proofs/botfactory.py (BF-PROOF-TOKENS-*), not here.
"""

from __future__ import annotations

from collections.abc import Callable

from bgrules.botfactory import smt_conservation as bf
from bgrules.botfactory.game import BotFactoryGame
from bgrules.core import conservation as cons
from bgrules.core.proofs import Budget, Obligation, Outcome
from bgrules.mechanica import smt_conservation as mc
from bgrules.mechanica.game import MechanicaGame
from bgrules.mechanica.variant import default_variant

BOTS_K = 8
TILES_K = 4
PARTS_K = 4
SEEDS = (20_240_611, 7)
BOT_RULES = ("MC-STOCK", "MC-ACT-UPGRADE", "MC-ACT-DUPLICATE", "MC-ACT-DOWNGRADE", "MC-ACT-CHANGE", "MC-CHARGE")
BOT_RULES = (*BOT_RULES, "MC-COLLIDE", "MC-MOVE-OFF", "MC-MOVE-LOOP", "MC-SELL")
TILE_RULES = ("MC-SETUP-DECK", "MC-SETUP-EXTRAS", "MC-SETUP-DEAL", "MC-SHOP-DRAW", "MC-SHOP-DOUBLE", "MC-SHOP-BUY")
TILE_RULES = (*TILE_RULES, "MC-PLACE", "MC-PLACE-START", "MC-RECYCLE", "MC-SHOP-ROTATE", "MC-DEMOLISH")
PART_RULES = ("BF-PILE", "BF-ASM", "BF-ASM-SWAP", "BF-ASM-SANDRA", "BF-PROD-TAKE", "BF-PROD-TRADE", "BF-PROJ-TRADE")
PART_RULES = (*PART_RULES, "BF-LIMIT-PARTS", "BF-MAINT")


def _ms(seconds: float) -> str:
    return f"[{seconds * 1000:.1f} ms]"


def _prove(
    make: Callable[[], cons.System], k: int, nonneg: tuple[str, ...] | None = None
) -> Callable[[Budget], Outcome]:
    def check(budget: Budget) -> Outcome:
        system = make()
        result = cons.prove_conserved(system, k, budget.solver_ms, nonneg)
        proved = 1 if result.verdict == "holds" else 0
        return Outcome(result.verdict, f"{result.detail} {_ms(result.seconds)}", result.witness, proved)  # type: ignore[arg-type]

    return check


BOTS_SEEDS = (SEEDS, SEEDS)
"""(default, thorough) seeds of the bots conformance: cheap, the same both ways."""
TILES_SEEDS = ((SEEDS[0],), SEEDS)
PARTS_SEEDS = ((SEEDS[0],), SEEDS)
PARTS_PLAYERS = ((4,), (2, 4))
"""(default, thorough) player counts whose games are played; the set-up is checked at 2 and 4 players always."""
BOTS_STEPS, TILES_STEPS, PARTS_STEPS = 2_500, 2_500, 1_500
"""Applies per playout at most (the games end sooner)."""


def _planned(seeds: tuple[int, ...], players: str, steps: int) -> str:
    return f"seeds {list(seeds)} at {players} players, at most {steps} applies a game"


def _sampled(budget: Budget, planned: str, done: str, stopped: bool) -> str:
    return f"sampled: {planned}: {done}" + (budget.stopped(planned) if stopped else "")


def _bots_conformance(budget: Budget) -> Outcome:
    seeds, stop = budget.pick(*BOTS_SEEDS), budget.stop()
    checked = sales = 0
    problems: list[str] = []
    for players in (2, 4):
        c, s, p = mc.game_bots_conformance(
            MechanicaGame(players), seeds, BOTS_STEPS, stop=stop, timeout_ms=lambda: budget.solver_ms
        )
        checked, sales = checked + c, sales + s
        problems += p
    summary = f"{checked} workday step-function calls, {sales} sales"
    guarantee = _sampled(budget, _planned(seeds, "2 and 4", BOTS_STEPS), f"{summary} compared", stop.hit)
    if problems:
        return Outcome("violated", f"the Python runs and the bots system disagree ({summary})", problems[:10])
    return Outcome("holds", f"every call is a step of its moves: {summary}", None, checked + sales, guarantee)


def _tiles_conformance(budget: Budget) -> Outcome:
    seeds, stop = budget.pick(*TILES_SEEDS), budget.stop()
    steps = moved = 0
    problems: list[str] = []
    for players in (2, 3, 4):
        a, m, p = mc.game_conformance(
            MechanicaGame(players), seeds, TILES_STEPS, stop=stop, timeout_ms=lambda: budget.solver_ms
        )
        steps, moved = steps + a, moved + m
        problems += p
    summary = f"{steps} applies, {moved} moving a tile"
    guarantee = _sampled(budget, _planned(seeds, "2, 3 and 4", TILES_STEPS), f"{summary} compared", stop.hit)
    if problems:
        return Outcome("violated", f"the Python game and the improvements system disagree ({summary})", problems[:10])
    return Outcome("holds", f"every apply is a step: {summary}", None, steps, guarantee)


def _parts_planned(seeds: tuple[int, ...], players: tuple[int, ...]) -> str:
    played = " and ".join(str(n) for n in players)
    return f"{_planned(seeds, played, PARTS_STEPS)}, and the set-up at 2 and 4 players"


def _parts_conformance(budget: Budget) -> Outcome:
    seeds, players_played, stop = budget.pick(*PARTS_SEEDS), budget.pick(*PARTS_PLAYERS), budget.stop()
    steps = moved = 0
    problems: list[str] = []
    for players in (2, 4):
        played = seeds if players in players_played else ()  # no seed: the set-up only
        a, m, p = bf.conformance(
            BotFactoryGame(players), played, PARTS_STEPS, stop=stop, timeout_ms=lambda: budget.solver_ms
        )
        steps, moved = steps + a, moved + m
        problems += p
    summary = f"{steps} applies, {moved} moving a part"
    guarantee = _sampled(budget, _parts_planned(seeds, players_played), f"{summary} compared", stop.hit)
    if problems:
        return Outcome("violated", f"the Python game and the parts system disagree ({summary})", problems[:10])
    return Outcome("holds", f"every apply is a step: {summary}", None, steps, guarantee)


def obligations() -> list[Obligation]:
    variant = default_variant()
    bots = "stock + boards = 24 per grade and the stock never below zero"
    tiles = "deck + extras + Shop + in hand + installed + Recycler = the copies of each improvement kind (27 in all)"
    parts = (
        "pile + discard + Wheel + spares + bots + hands = 4 per colour part, "
        "supply + spares + bots + hands = 2 per Universal part"
    )
    per_call = "one workday step-function call or sale"
    return [
        Obligation(
            "MC-PROOF-CONS-BOTS",
            f"{bots}, over any run of activations (Upgrader, Duplicator, Downgrader, Function Changer), "
            "collision discards, bots lost in movement, Static Charger bots and sales",
            BOT_RULES,
            f"bounded k={BOTS_K} steps, each {per_call}",
            _prove(lambda: mc.bots_system(variant), BOTS_K),
        ),
        Obligation(
            "MC-PROOF-CONS-BOTS-BROKEN-UPGRADE-KEEPS-INPUT",
            f"broken rule: an Upgrader that does not return its input bot to the stock must break {bots}",
            BOT_RULES,
            f"bounded k={BOTS_K} steps, each {per_call}",
            _prove(lambda: mc.bots_system(variant, "upgrade_keeps_input"), BOTS_K),
        ),
        Obligation(
            "MC-PROOF-CONS-BOTS-BROKEN-UNGUARDED-TAKE",
            "broken rule: without MC-STOCK (a bot the stock lacks is still made) the stock goes below zero",
            BOT_RULES,
            f"bounded k={BOTS_K} steps, each {per_call}",
            _prove(lambda: mc.bots_system(variant, "take_unguarded"), BOTS_K, (mc.STOCK,)),
        ),
        Obligation(
            "MC-PROOF-CONS-BOTS-CONFORMANCE",
            "every _activate, _discard, _place_charges, _move_forced and _follow call of the games' workday runs "
            "is a step of the bots system's moves for that function (an activation: its tile's effect), and "
            "every sale is a return of one bot",
            BOT_RULES,
            f"sampled: {_planned(BOTS_SEEDS[0], '2 and 4', BOTS_STEPS)} (--thorough: "
            f"{_planned(BOTS_SEEDS[1], '2 and 4', BOTS_STEPS)}); the report gives the calls compared",
            _bots_conformance,
        ),
        Obligation(
            "MC-PROOF-CONS-IMPROVEMENTS",
            f"{tiles}, over any run of draws, extras, purchases, installations, recycling, Shop rotations "
            "(the fallen tile) and demolitions",
            TILE_RULES,
            f"bounded k={TILES_K} steps, each one apply (every tile move of the rules, at most one tile each)",
            _prove(lambda: mc.tiles_system(MechanicaGame(4)), TILES_K),
        ),
        Obligation(
            "MC-PROOF-CONS-IMPROVEMENTS-BROKEN-FALLEN-LOST",
            f"broken rule: a tile falling off the Shop that never reaches the Recycler must break {tiles}",
            TILE_RULES,
            f"bounded k={TILES_K} steps, each one apply",
            _prove(lambda: mc.tiles_system(MechanicaGame(4), "fallen_lost"), TILES_K),
        ),
        Obligation(
            "MC-PROOF-CONS-IMPROVEMENTS-CONFORMANCE",
            "every MechanicaGame.apply moves improvements by a step of the improvements system",
            TILE_RULES,
            f"sampled: {_planned(TILES_SEEDS[0], '2, 3 and 4', TILES_STEPS)} (--thorough: "
            f"{_planned(TILES_SEEDS[1], '2, 3 and 4', TILES_STEPS)}); the report gives the applies compared",
            _tiles_conformance,
        ),
        Obligation(
            "BF-PROOF-CONS-PARTS",
            f"{parts}, and no part where its kind never goes, over any run of placements, discards, trades, "
            "swaps, Wheel outputs, exchanges, draws, Sandra's clearing, maintenance and reshuffles",
            PART_RULES,
            f"bounded k={PARTS_K} steps, each one apply (every part move of the rules, any number of parts)",
            _prove(lambda: bf.parts_system(BotFactoryGame(4)), PARTS_K),
        ),
        Obligation(
            "BF-PROOF-CONS-PARTS-BROKEN-DISCARD-VANISHES",
            f"broken rule: a colour part discarded from a hand that never reaches its discard must break {parts}",
            PART_RULES,
            f"bounded k={PARTS_K} steps, each one apply",
            _prove(lambda: bf.parts_system(BotFactoryGame(4), "discard_vanishes"), PARTS_K),
        ),
        Obligation(
            "BF-PROOF-CONS-PARTS-BROKEN-RESHUFFLE-UNGUARDED",
            "broken rule: a pile replaced by its discard without the empty-pile guard of _normalise_draw loses "
            f"the parts left in it, breaking {parts}",
            PART_RULES,
            f"bounded k={PARTS_K} steps, each one apply",
            _prove(lambda: bf.parts_system(BotFactoryGame(4), "reshuffle_unguarded"), PARTS_K),
        ),
        Obligation(
            "BF-PROOF-CONS-PARTS-CONFORMANCE",
            "every BotFactoryGame.apply moves part tiles by a step of the parts system, and the set-up holds "
            "the box's parts",
            PART_RULES,
            f"sampled: {_parts_planned(PARTS_SEEDS[0], PARTS_PLAYERS[0])} (--thorough: "
            f"{_parts_planned(PARTS_SEEDS[1], PARTS_PLAYERS[1])}); the report gives the applies compared",
            _parts_conformance,
        ),
    ]
