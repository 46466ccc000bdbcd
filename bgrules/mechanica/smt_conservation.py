"""Mechanica conservation as z3 systems (:mod:`bgrules.core.conservation`): the bots of each grade between the
stock and the boards (MC-STOCK), and the 27 improvements between the deck, the extras, the Shop, a player's
hand, the boards and the Recycler (MC-SETUP-DECK).

Bots: one step is one call of a workday step function (``workday._activate`` of an Upgrader, Duplicator,
Downgrader or Function Changer; ``_discard``; ``_place_charges``; the movement steps ``_move_forced`` /
``_follow`` that lose bots off the floor) or a sale (``fabricate.sell``). Their effects are written with
:func:`give` and :func:`take`, the encoding's versions of ``workday._give_back`` and ``workday._take``
(MC-STOCK: a bot the stock lacks is not made), which the tests compare on ints.

Improvements: one step is one ``MechanicaGame.apply``: the tile moves of the rules in a fixed order, each
moving any number of tiles (draws to the extras or the Shop, an extra to the Shop, a purchase, an
installation, a covered fabricator or a demolished tile to the Recycler, a recycled tile, the tile that
falls off the Shop).

:func:`workday_conformance` and :func:`game_conformance` run the Python rules and ask the solver whether each
observed before/after pair of counts is a step of the system.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, Literal

from bgrules.core import arith
from bgrules.core import conservation as cons
from bgrules.core.arith import Num, Truth
from bgrules.core.conservation import Counts, Move, System
from bgrules.core.playout import walk
from bgrules.mechanica import workday
from bgrules.mechanica.components import Bot, Effect
from bgrules.mechanica.fabricate import Sell
from bgrules.mechanica.game import MechanicaGame
from bgrules.mechanica.run import Run
from bgrules.mechanica.state import MechanicaState
from bgrules.mechanica.variant import MechanicaVariant

STOCK, BOARD = "stock", "board"
GRADES = ("basic", "plus", "deluxe")
BotFault = Literal["upgrade_keeps_input", "take_unguarded"]
TileFault = Literal["fallen_lost"]


# --- bots: MC-STOCK ---------------------------------------------------------------------------------


def give(counts: Counts, grade: int) -> tuple[Counts, Truth]:
    """``workday._give_back`` of one bot: from the board back to the stock (the bot must be on the board)."""
    g = GRADES[grade]
    return counts.move(BOARD, STOCK, g, 1), counts[(BOARD, g)] >= 1


def take(counts: Counts, grade: int, n: Num, guarded: bool = True) -> tuple[Counts, Num]:
    """``workday._take``: up to ``n`` bots of a grade from the stock onto the board; MC-STOCK: a bot the
    stock lacks is not made. Returns the counts and how many were taken."""
    g = GRADES[grade]
    got = arith.minimum(n, counts[(STOCK, g)]) if guarded else n
    return counts.move(STOCK, BOARD, g, got), got


def take_stock(stock: tuple[int, int, int], grade: int, n: int) -> tuple[tuple[int, int, int], int]:
    """:func:`take` on a concrete stock, shaped like ``workday._take`` (for the tests)."""
    counts = Counts({(STOCK, GRADES[i]): stock[i] for i in range(3)})
    counts, got = take(counts, grade, n)
    s = tuple(int(counts[(STOCK, g)]) for g in GRADES)
    return (s[0], s[1], s[2]), int(got)


def _upgrade(grade: int, fault: BotFault | None) -> Move:
    def effect(c: Counts, _p: Mapping[str, Num]) -> tuple[Counts, Truth]:
        if grade == Bot.DELUXE:  # stays Deluxe, moved as it is
            return c, c[(BOARD, GRADES[grade])] >= 1
        guard = c[(BOARD, GRADES[grade])] >= 1
        if fault == "upgrade_keeps_input":  # broken: the input leaves the board but never reaches the stock
            c = c.move(BOARD, None, GRADES[grade], 1)
        else:
            c, guard = give(c, grade)
        c, _got = take(c, grade + 1, 1, guarded=fault != "take_unguarded")
        return c, guard

    return Move(f"upgrade-{GRADES[grade]}", ("MC-ACT-UPGRADE", "MC-STOCK"), effect)


def _duplicate(grade: int, copies: int) -> Move:
    def effect(c: Counts, _p: Mapping[str, Num]) -> tuple[Counts, Truth]:
        guard = c[(BOARD, GRADES[grade])] >= 1
        for _ in range(copies):
            c, _got = take(c, grade, 1)
        return c, guard

    return Move(f"duplicate-{GRADES[grade]}", ("MC-ACT-DUPLICATE", "MC-STOCK"), effect)


def _downgrade(grade: int, outputs: int) -> Move:
    def effect(c: Counts, _p: Mapping[str, Num]) -> tuple[Counts, Truth]:
        if grade == Bot.BASIC:  # a Basic bot stays one bot
            return c, c[(BOARD, GRADES[grade])] >= 1
        c, guard = give(c, grade)
        for _ in range(outputs):
            c, _got = take(c, grade - 1, 1)
        return c, guard

    return Move(f"downgrade-{GRADES[grade]}", ("MC-ACT-DOWNGRADE", "MC-STOCK"), effect)


def _change(a: int, b: int, made: int) -> Move:
    def effect(c: Counts, _p: Mapping[str, Num]) -> tuple[Counts, Truth]:
        c, g1 = give(c, a)
        c, g2 = give(c, b)
        c, _got = take(c, made, 1)
        return c, arith.both(g1, g2)

    return Move(f"change-{GRADES[a]}+{GRADES[b]}->{GRADES[made]}", ("MC-ACT-CHANGE", "MC-STOCK"), effect)


def _charge() -> Move:
    def effect(c: Counts, p: Mapping[str, Num]) -> tuple[Counts, Truth]:
        c, _got = take(c, Bot.BASIC, p["holes"])
        return c, True

    return Move("charge", ("MC-CHARGE", "MC-STOCK"), effect, (("holes", None),))


RETURN_RULES = ("MC-MOVE-OFF", "MC-MOVE-LOOP", "MC-COLLIDE", "MC-SELL", "MC-STOCK")


def bots_system(variant: MechanicaVariant, fault: BotFault | None = None) -> System:
    """Bots by grade in the stock and on the board (every board, bots on the move included)."""
    cat = variant.catalogue
    dup = len(cat.tile("duplicator").outputs) - 1
    down = len(cat.tile("downgrader").outputs)
    moves: list[Move] = [
        cons.flow("return", RETURN_RULES, [(g, BOARD, STOCK) for g in GRADES]),
        _charge(),
        Move("wait", ("MC-ACT-CHANGE",), lambda c, _p: (c, True)),
    ]
    moves += [_upgrade(g, fault) for g in Bot]
    moves += [_duplicate(g, dup) for g in Bot]
    moves += [_downgrade(g, down) for g in Bot]
    moves += [_change(a, b, m) for a in Bot for b in Bot if a <= b for m in Bot]
    per = variant.rulings.bots_per_grade
    return System("bots", (STOCK, BOARD), GRADES, dict.fromkeys(GRADES, per), tuple(moves))


EFFECT_MOVES: dict[Effect, str] = {
    Effect.UPGRADE: "upgrade-",
    Effect.DUPLICATE: "duplicate-",
    Effect.DOWNGRADE: "downgrade-",
    Effect.CHANGE: "change-",
}


def run_counts(run: Run) -> dict[tuple[str, str], int]:
    """Stock and board counts of a workday run: the board holds the bots in holes, moving and arrived."""
    board = list(run.factory.bot_counts())
    for m in run.moving:
        board[m.bot] += 1
    for _bin, bot in run.arrived:
        board[bot] += 1
    out = {(STOCK, g): run.stock[i] for i, g in enumerate(GRADES)}
    out.update({(BOARD, g): board[i] for i, g in enumerate(GRADES)})
    return out


@contextmanager
def _recording(calls: list[tuple[str, Run, Run, tuple[str, ...]]]) -> Iterator[None]:
    """Wrap the workday's step functions (module globals, restored on exit) to record each call."""
    names = ("_activate", "_discard", "_place_charges", "_move_forced", "_follow")
    real = {n: getattr(workday, n) for n in names}

    def wrap(name: str, fn: Callable[..., Run]) -> Callable[..., Run]:
        def wrapped(run: Run, *args: Any) -> Run:
            after = fn(run, *args)
            if name == "_activate":
                variant = args[0]
                p = run.factory.floor[run.cursor]
                assert p is not None
                effect = variant.catalogue.tile(p.kind).effect
                prefix = EFFECT_MOVES.get(effect, "?")
                only = (prefix, "wait") if effect is Effect.CHANGE else (prefix,)
            elif name == "_place_charges":
                only = ("charge",)
            else:
                only = ("return",)
            calls.append((name, run, after, only))
            return after

        return wrapped

    try:
        for n, fn in real.items():
            setattr(workday, n, wrap(n, fn))
        yield
    finally:
        for n, fn in real.items():
            setattr(workday, n, fn)


def _allowed(
    checker: cons.Checker,
    before: Mapping[tuple[str, str], int],
    after: Mapping[tuple[str, str], int],
    prefixes: Sequence[str],
) -> bool:
    only = [m.name for m in checker.system.moves if any(m.name.startswith(p) for p in prefixes)]
    return checker.allows(before, after, only)


def workday_conformance(
    run: Run,
    variant: MechanicaVariant,
    choose: Callable[[tuple[workday.RunDecision, ...]], int],
    checker: cons.Checker | None = None,
) -> tuple[int, list[str]]:
    """Drive a run from ``run`` (as ``start_run`` returned it; pass ``start_run`` through :func:`start`)
    with ``choose`` picking each decision; every recorded step-function call must be a step of the system
    restricted to that function's moves, and the calls' deltas must add up to each decision's delta.
    Returns (calls checked, problems)."""
    checker = checker or cons.Checker(bots_system(variant))
    calls: list[tuple[str, Run, Run, tuple[str, ...]]] = []
    problems: list[str] = []
    checked = 0
    with _recording(calls):
        while run.phase is not workday.RunPhase.DONE:
            legal = workday.decisions(run, variant)
            action = legal[choose(legal) % len(legal)]
            after = workday.decide(run, variant, action)
            checked += _check_calls(checker, calls, run, after, repr(action), problems)
            run = after
    return checked, problems


def start(
    factory: Any, stock: tuple[int, int, int], variant: MechanicaVariant, checker: cons.Checker | None = None
) -> tuple[Run, int, list[str]]:
    """``workday.start_run`` with its step-function calls checked like :func:`workday_conformance`."""
    checker = checker or cons.Checker(bots_system(variant))
    calls: list[tuple[str, Run, Run, tuple[str, ...]]] = []
    problems: list[str] = []
    with _recording(calls):
        run = workday.start_run(factory, stock, variant)
    before = workday.Run(factory, stock)
    checked = _check_calls(checker, calls, before, run, "start_run", problems)
    return run, checked, problems


def _check_calls(
    checker: cons.Checker,
    calls: list[tuple[str, Run, Run, tuple[str, ...]]],
    before: Run,
    after: Run,
    where: str,
    problems: list[str],
) -> int:
    total = {k: 0 for k in run_counts(before)}
    for name, b, a, only in calls:
        cb, ca = run_counts(b), run_counts(a)
        for k in total:
            total[k] += ca[k] - cb[k]
        if cb != ca and not _allowed(checker, cb, ca, only):
            problems.append(f"{where}: {name} took {cb} to {ca}, not a step of {'/'.join(only)}")
    cb, ca = run_counts(before), run_counts(after)
    if any(ca[k] - cb[k] != total[k] for k in total):
        problems.append(f"{where}: counts changed {cb} -> {ca} outside the recorded step functions")
    n = len(calls)
    calls.clear()
    return n


# --- improvements: MC-SETUP-DECK ---------------------------------------------------------------------

DECK, EXTRAS, SHOP, HAND, INSTALLED, RECYCLER = "deck", "extras", "shop", "hand", "installed", "recycler"
TILE_PLACES = (DECK, EXTRAS, SHOP, HAND, INSTALLED, RECYCLER)


def tiles_system(game: MechanicaGame, fault: TileFault | None = None) -> System:
    """Improvements by kind in the deck, the extras, the Shop, in hand (bought, or fallen and waiting for
    its bot), installed on any board, and in the Recycler; one step is one apply."""
    kinds = game.kinds

    def routes(src: str, dst: str | None) -> list[tuple[str, str | None, str | None]]:
        return [(k, src, dst) for k in kinds]

    fall = routes(SHOP, HAND) + routes(SHOP, None if fault == "fallen_lost" else RECYCLER)
    parts = [
        cons.flow("setup-extras", ("MC-SETUP-EXTRAS",), routes(DECK, EXTRAS), most=1),
        cons.flow("draw", ("MC-SETUP-DEAL", "MC-SHOP-DRAW"), routes(DECK, SHOP), most=1),
        cons.flow("extra", ("MC-SHOP-DOUBLE",), routes(EXTRAS, SHOP), most=1),
        cons.flow("buy", ("MC-SHOP-BUY",), routes(SHOP, HAND), most=1),
        cons.flow("install", ("MC-PLACE", "MC-PLACE-START"), routes(HAND, INSTALLED), most=1),
        cons.flow("to-recycler", ("MC-PLACE-START", "MC-DEMOLISH"), routes(INSTALLED, RECYCLER), most=1),
        cons.flow("recycle", ("MC-RECYCLE",), routes(HAND, RECYCLER), most=1),
        cons.flow("fall", ("MC-SHOP-ROTATE",), fall, most=1),
    ]
    rules = tuple(dict.fromkeys(r for m in parts for r in m.rules))
    apply = cons.sequence("apply", rules, parts)
    totals = dict(zip(kinds, game.copies, strict=True))
    return System("improvements", TILE_PLACES, kinds, totals, (apply,))


def tile_counts(game: MechanicaGame, state: MechanicaState) -> dict[tuple[str, str], int]:
    out: dict[tuple[str, str], int] = {}

    def add(place: str, kind: str, n: int = 1) -> None:
        out[(place, kind)] = out.get((place, kind), 0) + n

    for i, k in enumerate(game.kinds):
        add(DECK, k, state.deck[i])
        add(EXTRAS, k, state.extras[i])
        add(RECYCLER, k, state.recycler[i])
    for w in state.wheel:
        if w is not None:
            add(SHOP, w)
    for h in (state.pending, state.fallen):
        if h is not None:
            add(HAND, h)
    for seat in state.seats:
        floor, start_kinds, _dock = seat.factory.layout
        for kind in [cell[0] for cell in floor if cell is not None] + list(start_kinds):
            if kind in game.kind_index:
                add(INSTALLED, kind)
    return out


def game_conformance(
    game: MechanicaGame,
    seeds: Sequence[int],
    max_steps: int | None = None,
    system: System | None = None,
    stop: Callable[[], bool] | None = None,
    timeout_ms: int | Callable[[], int] = 5_000,
) -> tuple[int, int, list[str]]:
    """Random playouts: every apply's tile counts must be a step of :func:`tiles_system`.
    Returns (applies, applies that moved a tile, problems). ``stop`` (asked before each apply) ends the
    playouts early; ``timeout_ms`` is each solver check's timeout."""
    system = system or tiles_system(game)
    checker = cons.Checker(system, timeout_ms)
    steps = moved = 0
    problems: list[str] = []
    for seed in seeds:
        for before, action, after in walk(game, seed, max_steps):
            if stop is not None and stop():
                return steps, moved, problems
            steps += 1
            cb, ca = tile_counts(game, before), tile_counts(game, after)
            if {k: v for k, v in cb.items() if v} == {k: v for k, v in ca.items() if v}:
                continue
            moved += 1
            if not checker.allows(cb, ca):
                problems.append(f"seed {seed}, step {steps}, {action!r}: {cb} -> {ca} is not a step")
    return steps, moved, problems


def game_bots_conformance(
    game: MechanicaGame,
    seeds: Sequence[int],
    max_steps: int | None = None,
    system: System | None = None,
    stop: Callable[[], bool] | None = None,
    timeout_ms: int | Callable[[], int] = 5_000,
) -> tuple[int, int, list[str]]:
    """Random playouts of the whole game: every workday step-function call made by the game's runs must be a
    step of :func:`bots_system` restricted to that function's moves, and every sale a ``return`` step of
    the stock and board counts. Returns (calls checked, sales checked, problems). ``stop`` (asked before
    each apply) ends the playouts early; ``timeout_ms`` is each solver check's timeout."""
    system = system or bots_system(game.variant)
    checker = cons.Checker(system, timeout_ms)
    calls: list[tuple[str, Run, Run, tuple[str, ...]]] = []
    problems: list[str] = []
    checked = sales = 0
    with _recording(calls):
        for seed in seeds:
            for step_no, (before, action, after) in enumerate(walk(game, seed, max_steps)):
                if stop is not None and stop():
                    calls.clear()
                    return checked, sales, problems
                for name, b, a, only in calls:
                    checked += 1
                    cb, ca = run_counts(b), run_counts(a)
                    if cb != ca and not _allowed(checker, cb, ca, only):
                        problems.append(f"seed {seed}, step {step_no}, {action!r}: {name} {cb} -> {ca}")
                calls.clear()
                if isinstance(action, Sell):
                    sales += 1
                    cb, ca = state_bot_counts(before), state_bot_counts(after)
                    if not checker.allows(cb, ca, ("return",)):
                        problems.append(f"seed {seed}, step {step_no}, {action!r}: {cb} -> {ca} is not a return")
    return checked, sales, problems


def state_bot_counts(state: MechanicaState) -> dict[tuple[str, str], int]:
    """Stock and board counts of a whole-game state outside a run (every seat's board)."""
    board = [0, 0, 0]
    for seat in state.seats:
        for i, n in enumerate(seat.factory.bot_counts()):
            board[i] += n
    out = {(STOCK, g): state.stock[i] for i, g in enumerate(GRADES)}
    out.update({(BOARD, g): board[i] for i, g in enumerate(GRADES)})
    return out
