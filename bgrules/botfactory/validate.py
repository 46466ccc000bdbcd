"""``BotFactoryGame.validate(state)``: every way a state breaks the shape of the states the game can reach.

A state read from a file (``bgrules.loads``, a clarification's ``start`` patch) has the right types but may
still be one the engine cannot play on: a space index out of range, a part counted twice, a turn in a
phase that has none. :func:`problems` lists every such violation as ``"<field path>: <reason>"``; an
empty list means the engine can play on the state (legal actions, apply) without failing. The checks
come in layers: the sizes and ranges of every field first, then (when those hold) the counts the game
conserves (the predicates of :mod:`bgrules.botfactory.invariants`), then the phase's fields, then
whether the state is settled (a player or chance has something to do). See docs/validation.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from bgrules.botfactory import invariants, limits
from bgrules.botfactory.state import BotFactoryState, Phase
from bgrules.core.codec import show

if TYPE_CHECKING:
    from bgrules.botfactory.game import BotFactoryGame

RESUMES = ("", "setup", "pick", "action", "window", "maintenance", "round_end")
"""Where play resumes once pending draws or a discard are settled (``after_discard``)."""
MAINS = ("share", "extra", "open", "closed")
PROMPTS = ("icon", "place", "place_free", "project", "refill")
DESTINATIONS = {"part": ("wheel", "spare", "hand"), "project": ("grid",), "contract": ("display",)}


class _Report:
    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, path: str, reason: str) -> None:
        self.items.append(f"{path}: {reason}")

    def count(self, path: str, value: int, most: int | None = None) -> bool:
        """A non-negative count (at most ``most``); reports and returns False otherwise."""
        if value < 0:
            self.add(path, f"{value} is negative; a count is 0 or more")
            return False
        if most is not None and value > most:
            self.add(path, f"{_num(value)} is more than {most}")
            return False
        return True

    def index(self, path: str, value: int, size: int, what: str) -> bool:
        if not 0 <= value < size:
            self.add(path, f"{_num(value)} is not {what} (0 to {size - 1})")
            return False
        return True

    def size(self, path: str, value: Sequence[Any], n: int, what: str) -> bool:
        if len(value) != n:
            self.add(path, f"has {len(value)} entries; {what} has {n}")
            return False
        return True


def _num(value: int) -> str:
    return show(value)


def problems(game: BotFactoryGame, state: BotFactoryState) -> list[str]:
    """Every violated shape condition of ``state`` for ``game`` (its players, variant and rulings)."""
    r = _Report()
    if not isinstance(state, BotFactoryState):
        r.add("$", "not a Bot Factory state")
        return r.items
    shaped = _shape(game, state, r)
    if shaped:
        _conserved(game, state, r)
        _phase(game, state, r)
        if not r.items:
            _settled(game, state, r)
    return r.items


# --- sizes, ranges, names -------------------------------------------------------------------------


def _part_ok(game: BotFactoryGame, part: str) -> bool:
    colour, dash, slot = part.partition("-")
    return bool(dash) and (colour == "any" or colour in game.colours) and slot in game.slots


def _shape(game: BotFactoryGame, s: BotFactoryState, r: _Report) -> bool:
    """Every field's size, range and names; True when all hold (the later checks index by them)."""
    before = len(r.items)
    c = game.c
    n = game.players
    colours = game.colours
    parts_hint = "a part (<colour>-<slot> or any-<slot>, slots head, torso, legs)"
    if r.size("hands", s.hands, n, f"a game of {n} players"):
        for seat, hand in enumerate(s.hands):
            where = f"hands[{seat}]"
            r.count(f"{where}.tokens", hand.tokens, c.counts.token_cap)
            for i, p in enumerate(hand.parts):
                if not _part_ok(game, p):
                    r.add(f"{where}.parts[{i}]", f"{p!r} is not {parts_hint}")
            for name in ("parts", "projects", "done"):
                items = getattr(hand, name)
                if list(items) != sorted(items):
                    r.add(f"{where}.{name}", "is not in sorted order (the game keeps it sorted)")
            for name in ("projects", "done"):
                for i, t in enumerate(getattr(hand, name)):
                    if t not in colours:
                        r.add(f"{where}.{name}[{i}]", f"{t!r} is not a colour ({', '.join(colours)})")
    r.size("supply", s.supply, n, f"a game of {n} players")
    for seat, k in enumerate(s.supply):
        r.count(f"supply[{seat}]", k, c.counts.tokens_per_colour)
    for name in ("piles", "discards"):
        table = getattr(s, name)
        if r.size(name, table, 4, "the four colours"):
            for ci, triple in enumerate(table):
                for si, k in enumerate(triple):
                    r.count(f"{name}[{ci}][{si}]", k, c.counts.parts_per_colour_slot)
    for si, k in enumerate(s.universal):
        r.count(f"universal[{si}]", k, c.counts.universal_per_slot)
    if r.size("wheel", s.wheel, 8, "the Wheel"):
        for i, w in enumerate(s.wheel):
            if w is not None and not _part_ok(game, w):
                r.add(f"wheel[{i}]", f"{w!r} is not {parts_hint}")
    r.index("marker", s.marker, 4, "a pile of the Distribution marker")
    if r.size("columns", s.columns, 4, "the Assembly board's four bots"):
        for ci, column in enumerate(s.columns):
            if r.size(f"columns[{ci}]", column, 3, "a bot (head, torso, legs)"):
                for si, on in enumerate(column):
                    if on is None:
                        continue
                    if not _part_ok(game, on):
                        r.add(f"columns[{ci}][{si}]", f"{on!r} is not {parts_hint}")
                        continue
                    colour, _dash, slot = on.partition("-")
                    if slot != game.slots[si] or colour not in ("any", colours[ci]):
                        r.add(
                            f"columns[{ci}][{si}]",
                            f"{on} cannot stand in the {colours[ci]} bot's {game.slots[si]} space (BF-ASM)",
                        )
    if r.size("bots_left", s.bots_left, 4, "the four colours"):
        for ci, k in enumerate(s.bots_left):
            r.count(f"bots_left[{ci}]", k, game.end_count)
    if r.size("spares", s.spares, c.boards.spares, "the spare spaces"):
        for i, sp in enumerate(s.spares):
            if sp is not None and not _part_ok(game, sp):
                r.add(f"spares[{i}]", f"{sp!r} is not {parts_hint}")
    rows = c.boards.project_rows
    if r.size("grid", s.grid, 2, "the Project board's columns"):
        for col, column in enumerate(s.grid):
            if r.size(f"grid[{col}]", column, rows, "a column of the Project board"):
                for row, t in enumerate(column):
                    if t is not None and t not in colours:
                        r.add(f"grid[{col}][{row}]", f"{t!r} is not a colour ({', '.join(colours)})")
    for name in ("project_pile", "project_discard"):
        counts = getattr(s, name)
        if r.size(name, counts, 4, "the four colours"):
            for ci, k in enumerate(counts):
                r.count(f"{name}[{ci}]", k, c.counts.projects_per_colour)
    if r.size("values", s.values, 4, "the four colours"):
        for ci, v in enumerate(s.values):
            r.count(f"values[{ci}]", v, c.finance.track_max)
    face_up = c.finance.contracts_face_up
    ids = sorted(game.contracts)
    if r.size("display", s.display, face_up, "the face-up contract slots"):
        for i, shown in enumerate(s.display):
            if shown is not None and shown not in game.contracts:
                r.add(f"display[{i}]", f"{_num(shown)} is not a contract id ({_ids(ids)})")
    for i, k in enumerate(s.contract_pool):
        if k not in game.contracts:
            r.add(f"contract_pool[{i}]", f"{_num(k)} is not a contract id ({_ids(ids)})")
    if list(s.contract_pool) != sorted(s.contract_pool):
        r.add("contract_pool", "is not in sorted order (the game keeps it sorted)")
    most = len(c.finance.reservation_costs)
    if r.size("reserved", s.reserved, face_up, "the face-up contract slots"):
        for i, seats in enumerate(s.reserved):
            for j, seat in enumerate(seats):
                r.index(f"reserved[{i}][{j}]", seat, n, "a seat")
            if len(seats) > most:
                r.add(f"reserved[{i}]", f"{len(seats)} reservations; a contract takes at most {most} (BF-FIN-CONTRACT)")
            if len(set(seats)) != len(seats):
                r.add(f"reserved[{i}]", "a player reserves a contract once only (BF-FIN-CONTRACT)")
    spaces = len(game.spaces)
    if r.size("workers", s.workers, n, f"a game of {n} players"):
        for seat, space in enumerate(s.workers):
            if space is not None:
                r.index(f"workers[{seat}]", space, spaces, "an action space")
    r.index("sandra", s.sandra, spaces, "an action space")
    if s.round < 1:
        r.add("round", f"{s.round}; rounds are numbered from 1")
    if sorted(s.order) != list(range(n)):
        r.add("order", f"{list(s.order)} is not an order of the seats 0 to {n - 1} (BF-ORDER)")
    r.count("index", s.index, n + 1)
    if s.after_discard not in RESUMES:
        r.add("after_discard", f"{s.after_discard!r} is not one of {', '.join(map(repr, RESUMES))}")
    if s.discarder is not None:
        r.index("discarder", s.discarder, n, "a seat")
    for i, seat in enumerate(s.window):
        r.index(f"window[{i}]", seat, n, "a seat")
    if len(set(s.window)) != len(s.window):
        r.add("window", "offers a seat twice")
    for i, seat in enumerate(s.paid):
        r.index(f"paid[{i}]", seat, n, "a seat")
    if list(s.paid) != sorted(set(s.paid)):
        r.add("paid", f"{list(s.paid)}: each seat that paid Sandra once, in seat order (BF-SANDRA-PAID)")
    for i, job in enumerate(s.draws):
        _job(game, s, job, f"draws[{i}]", r)
    if s.turn is not None:
        t = s.turn
        if t.main not in MAINS:
            r.add("turn.main", f"{t.main!r} is not one of {', '.join(map(repr, MAINS))}")
        most_actions = max(sp[2] for sp in game.spaces)
        r.count("turn.left", t.left, most_actions)
        if t.prompt:
            kind = t.prompt[0]
            if kind not in PROMPTS:
                r.add("turn.prompt[0]", f"{kind!r} is not one of {', '.join(map(repr, PROMPTS))}")
            elif kind == "refill":
                top = [str(p) for p in c.wheel.top]
                if len(t.prompt) != 2 or t.prompt[1] not in top:
                    r.add("turn.prompt", f"a refill names one top Wheel space ({', '.join(top)})")
            elif len(t.prompt) != 1:
                r.add("turn.prompt", f"{kind!r} takes no further entries")
    return len(r.items) == before


def _ids(ids: Sequence[int]) -> str:
    return f"{ids[0]} to {ids[-1]}" if ids == list(range(ids[0], ids[-1] + 1)) else ", ".join(map(str, ids))


def _job(game: BotFactoryGame, s: BotFactoryState, job: Any, where: str, r: _Report) -> None:
    what, source, dest, a, b = job
    if what not in DESTINATIONS:
        r.add(f"{where}[0]", f"{what!r} is not one of 'part', 'project', 'contract'")
        return
    if dest not in DESTINATIONS[what]:
        r.add(f"{where}[2]", f"a {what} is drawn to {' or '.join(map(repr, DESTINATIONS[what]))}, not {dest!r}")
        return
    if what == "part":
        if not -1 <= source < 4:
            r.add(f"{where}[1]", f"{_num(source)} is not a pile (0 to 3, or -1 for the Distribution marker)")
    elif source != -1:
        r.add(f"{where}[1]", f"a {what} draw has no source pile (-1), not {_num(source)}")
    sizes = {
        "wheel": (8, 1),
        "spare": (game.c.boards.spares, 1),
        "hand": (game.players, 1),
        "grid": (2, game.c.boards.project_rows),
        "display": (game.c.finance.contracts_face_up, 1),
    }
    na, nb = sizes[dest]
    r.index(f"{where}[3]", a, na, f"a {dest} index")
    r.index(f"{where}[4]", b, nb, f"a {dest} index" if nb > 1 else "0 (unused)")


# --- conserved counts ---------------------------------------------------------------------------


def _conserved(game: BotFactoryGame, s: BotFactoryState, r: _Report) -> None:
    """BF-LIMIT-TOKENS, BF-PILE, BF-PROJ, BF-ASM-PROJECT: the predicates the specs check on reachable states."""

    checks: tuple[tuple[str, Callable[[Any, Any], str | None]], ...] = (
        ("supply", invariants.tokens_conserved),
        ("piles", invariants.parts_conserved),
        ("project_pile", invariants.projects_conserved),
        ("bots_left", invariants.bots_match_projects),
        ("hands", invariants.limits),
    )
    for path, check in checks:
        found = check(game, s)
        if found is not None:
            r.add(path, found)
    shown = [k for k in s.display if k is not None]
    if (
        len(set(shown)) != len(shown)
        or set(shown) & set(s.contract_pool)
        or len(set(s.contract_pool)) != len(s.contract_pool)
    ):
        r.add("display", "a contract is in two places (the display and the pool, or twice)")
    elif sorted((*shown, *s.contract_pool)) != sorted(game.contracts):
        r.add("contract_pool", "the pool and the display do not hold every contract once")
    for i, seats in enumerate(s.reserved):
        if seats and s.display[i] is None:
            r.add(f"reserved[{i}]", "reservations on an empty contract slot")
    placed = [w for w in s.workers if w is not None]
    if len(set(placed)) != len(placed):
        r.add("workers", "two workers on one action space (BF-MOVE)")
    if s.sandra in placed:
        r.add("sandra", "Sandra stands on a player's space (BF-MOVE, BF-SANDRA-MOVE)")


# --- phase fields ---------------------------------------------------------------------------------


def _phase(game: BotFactoryGame, s: BotFactoryState, r: _Report) -> None:
    """Each phase's own fields, present in that phase only."""
    n = game.players
    phase = s.phase
    turning = phase in (Phase.ACTION, Phase.DISCARD)
    if phase is Phase.DISCARD:
        if s.discarder is None:
            r.add("discarder", "a discard phase names the player discarding")
        if s.after_discard != "action":
            r.add("after_discard", "a discard resumes the action phase ('action')")
    elif s.discarder is not None:
        r.add("discarder", f"only the discard phase has a discarding player, not {phase.value}")
    if s.window and not turning:
        r.add("window", f"additional-action windows open in the action phase, not {phase.value}")
    if s.window and s.turn is not None:
        r.add("turn", "no player's turn is open during an additional-action window")
    if s.paid and not turning:
        r.add("paid", f"Sandra's token is paid in the action phase and forgotten at its end, not in {phase.value}")
    elif s.paid and len(s.order) == n and len(s.workers) == n:
        sandra = game.spaces[s.sandra][0] if 0 <= s.sandra < len(game.spaces) else None
        for seat in s.paid:
            if not 0 <= seat < n:
                continue
            where = s.workers[seat]
            if where is None or not 0 <= where < len(game.spaces) or game.spaces[where][0] != sandra:
                r.add("paid", f"player {seat} does not share Sandra's board, and pays her nothing (BF-SANDRA-SHARE)")
            elif seat in s.order and s.order.index(seat) > s.index:
                r.add("paid", f"player {seat} paid Sandra before their turn came (BF-SANDRA-SHARE)")
    if turning:
        if None in s.workers:
            r.add("workers", "every worker stands on a space in the action phase")
        if s.turn is None and not s.window and s.index < n:
            r.add("turn", f"player {s.order[s.index]}'s action turn is missing")
        if s.turn is not None and s.index >= n:
            r.add("turn", "a turn is open after the last player's turn")
        if phase is Phase.ACTION and s.index >= n and not s.window and not s.draws:
            r.add("index", f"{s.index}: after the last turn play goes on to Sandra and maintenance; nobody is to move")
        if s.turn is not None and s.index < n:
            seat = s.order[s.index]
            where = s.workers[seat]
            if where is not None and s.turn.left > game.spaces[where][2]:
                r.add("turn.left", f"{s.turn.left} actions left; the space gives {game.spaces[where][2]}")
    elif s.turn is not None:
        r.add("turn", f"the {phase.value} phase has no action turn")
    if phase in (Phase.SETUP, Phase.PICK):
        if s.round != 1:
            r.add("round", f"the {phase.value} phase is in round 1")
        if any(w is not None for w in s.workers):
            r.add("workers", f"no worker has moved in the {phase.value} phase")
    if phase is Phase.SETUP:
        if not s.draws:
            r.add("draws", "the set-up phase deals its components (pending draws)")
        if s.index:
            r.add("index", "is 0 in the set-up phase")
    if phase is Phase.PICK and s.index >= n and not s.draws:
        r.add("index", f"{s.index}: every player has picked; the pick phase is over")
    if phase is Phase.MOVE:
        if s.index >= n:
            r.add("index", f"{s.index}: every worker has moved; the move phase is over")
        for k, seat in enumerate(s.order):
            moved = s.workers[seat] is not None
            if s.round == 1 and moved != (k < s.index):
                state = "stands on a space" if moved else "has not moved"
                r.add(f"workers[{seat}]", f"{state}, but it is position {k} in order at index {s.index} of round 1")
            if s.round > 1 and not moved:
                r.add(f"workers[{seat}]", "after round 1 every worker stands on a space")
    if phase is Phase.OVER:
        if s.draws:
            r.add("draws", "the game is over; nothing is drawn")
        if s.window:
            r.add("window", "the game is over; no window is open")
    if not s.draws and phase is not Phase.DISCARD and s.after_discard:
        r.add("after_discard", "play resumes only after pending draws or a discard")
    if s.draws:
        if phase is Phase.SETUP or phase is Phase.PICK:
            resumes: tuple[str, ...] = (phase.value,)
        elif turning and (s.window or s.index < n or phase is Phase.DISCARD):
            resumes = ("action",)
        elif turning:
            resumes = ("window", "maintenance", "round_end")
        else:
            resumes = ()
        if s.after_discard not in resumes:
            at = f"the {phase.value} phase" + (f" at index {s.index}" if turning else "")
            allowed = " or ".join(map(repr, resumes)) if resumes else "no pending draws"
            r.add("after_discard", f"{s.after_discard!r}: after draws in {at} play resumes with {allowed}")


# --- settled: someone has something to do -------------------------------------------------------------


def _settled(game: BotFactoryGame, s: BotFactoryState, r: _Report) -> None:
    """A state the game hands a player or chance: draws that can happen, a discard with something to
    discard, a draw's destination empty. Asked only of states whose fields hold."""
    targets = []
    for i, (what, _source, dest, a, b) in enumerate(s.draws):
        if dest == "wheel":
            taken = s.wheel[a] is not None
        elif dest == "spare":
            taken = s.spares[a] is not None
        elif dest == "grid":
            taken = s.grid[a][b] is not None
        elif dest == "display":
            taken = s.display[a] is not None
        else:
            taken = False
        if taken:
            r.add(f"draws[{i}]", f"draws a {what} onto the occupied {dest} space {a}")
        if dest != "hand":
            if (dest, a, b) in targets:
                r.add(f"draws[{i}]", f"a second draw onto {dest} space {a}")
            targets.append((dest, a, b))
    if s.draws and not game.chance_outcomes(s):
        r.add("draws[0]", "nothing is left to draw (a settled state's next draw can happen)")
    if s.phase is Phase.DISCARD and not s.draws and not limits.options(game, s):
        r.add("discarder", f"player {s.discarder} is within the limits and has nothing to discard")


__all__ = ["problems"]
