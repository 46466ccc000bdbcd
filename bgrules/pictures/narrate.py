"""Each step of a game in game terms, as a player reads the board: who acted and what changed ("P2 took the
red head from the Wheel", "P1's Fork on row 1, column 0 sent the Basic bot north").

:func:`describe` ``(game, before, action, after)`` dispatches on the game's name the way :func:`bgrules.pictures.draw`
does; the stepping pages (:mod:`bgrules.runners.html`) show its line above each step's picture and
``bgrules replay --step`` prints it. It reads the states only (never raises on a state the engine made; an
action it has no words for is named as it is), and ends with the result when the step ends the game.
"""

from __future__ import annotations

from typing import Any

from bgrules.core.descriptor import find
from bgrules.core.protocol import CHANCE
from bgrules.pictures.ending import ending

__all__ = ["botfactory_words", "describe", "factory_words", "mechanica_words"]

SIDES = {"N": "north", "E": "east", "S": "south", "W": "west"}
TURNED = ("not turned", "turned 90\u00b0", "turned 180\u00b0", "turned 270\u00b0")
GRADE = ("Basic", "Plus", "Deluxe")


def describe(game: Any, before: Any, action: Any, after: Any) -> str:
    """The step from ``before`` by ``action`` to ``after`` in game terms, one line."""

    found = find(getattr(getattr(game, "info", None), "name", ""))
    if found is not None and found.narration is not None:  # the game's own words (its descriptor's narration)
        words = str(found.part("narration", "narrate")(game, before, action, after))
    else:
        words = f"{_actor(game, before)}: {action!r}"
    end = ending(game, after) if not game.is_terminal(before) else None
    if end is not None:
        words += f". Game over. {end.words()}"
    return words


def _actor(game: Any, state: Any) -> str:
    mover = None if game.is_terminal(state) else game.to_move(state)
    if mover is CHANCE:
        return "Chance"
    if mover is None:
        return "Nobody"
    return f"P{int(mover) + 1}"


def _cell(r: int, c: int) -> str:
    return f"row {r}, column {c}"


# --- Mechanica ---------------------------------------------------------------------------------------------


def _grade(bot: Any) -> str:
    return GRADE[int(bot)] if 0 <= int(bot) < len(GRADE) else str(bot)


def _tile_name(game: Any, key: str | None) -> str:
    if key is None:
        return "nothing"
    try:
        return str(game.variant.catalogue.tile(key).name)
    except (KeyError, AttributeError):
        return str(key)


def _board(state: Any, seat: int, sandbox: bool) -> Any:
    """The board of ``seat`` (the live board while its workday runs)."""
    if sandbox:
        return state.board
    run = state.run
    if run is not None and state.current == seat:
        return run.factory
    return state.seats[seat].factory


def _floor_name(game: Any, board: Any, r: int, c: int) -> str:
    placed = board.at(r, c) if 0 <= r < 3 and 0 <= c < 4 else None
    return _tile_name(game, placed.kind) if placed is not None else "belt"


def _money(state: Any, seat: int, sandbox: bool) -> tuple[int, int]:
    if sandbox:
        return int(state.wallet), int(state.vault)
    s = state.seats[seat]
    return int(s.wallet), int(s.vault)


def _mechanica(game: Any, before: Any, action: Any, after: Any, sandbox: bool) -> str:
    kind = type(action).__name__
    who = _actor(game, before)
    seat = 0 if sandbox else int(getattr(before, "current", 0))
    if who.startswith("P"):
        seat = int(who[1:]) - 1
    owner = "P1" if sandbox else f"P{int(before.current) + 1}"
    board = _board(before, seat, sandbox)
    words: str
    if kind == "Route":
        head = before.run.moving[0].bot if before.run is not None and before.run.moving else None
        bot = f"the {_grade(head)} bot" if head is not None else "the bot"
        way = SIDES.get(action.exit.name, action.exit.name)
        words = f"{owner}'s Fork on {_cell(action.row, action.col)} sent {bot} {way}"
    elif kind == "Fly":
        head = before.run.moving[0].bot if before.run is not None and before.run.moving else None
        bot = f"the {_grade(head)} bot" if head is not None else "the bot"
        if action.to_col == 4:
            onto = f"the truck of row {action.to_row}"
        else:
            there = _floor_name(game, _board(before, seat, sandbox), action.to_row, action.to_col)
            onto = f"{_cell(action.to_row, action.to_col)} ({there})"
        words = f"{owner}'s Flight Tester on {_cell(action.row, action.col)} threw {bot} onto {onto}"
    elif kind == "Discard":
        where = f"the truck of row {action.row}" if action.col == 4 else f"the holes of {_cell(action.row, action.col)}"
        words = f"{owner} destroyed a {_grade(action.bot)} bot of those crowding {where} (a collision)"
    elif kind == "Change":
        words = f"{owner}'s Function Changer on {_cell(action.row, action.col)} made a {_grade(action.bot)} bot"
    elif kind == "ChooseOutput":
        words = (
            f"{owner}'s Downgrader on {_cell(action.row, action.col)} put its Basic bot into output hole {action.hole}"
        )
    elif kind == "Sell":
        gained = _money(after, seat, sandbox)[0] - _money(before, seat, sandbox)[0]
        words = f"{who} sold a {_grade(action.bot)} bot from the truck of row {action.row} for {gained}"
    elif kind == "Next":
        step = {"sell": "selling", "buy": "buying", "fabricate": "fabricating"}.get(
            before.phase.value, before.phase.value
        )
        words = f"{who} finished {step}"
    elif kind == "Buy":
        price = game.variant.game.prices[action.slot]
        words = f"{who} bought the {_tile_name(game, before.wheel[action.slot])} from the Shop for {price}"
    elif kind == "Place":
        words = (
            f"{who} installed the {_tile_name(game, before.pending)} on {_cell(action.row, action.col)}, "
            f"{TURNED[action.rotation % 4]}"
        )
    elif kind == "PlaceFabricator":
        words = f"{who} laid the {_tile_name(game, before.pending)} on Start Zone row {action.row}"
    elif kind == "Recycle":
        what = before.pending if before.pending is not None else before.fallen
        got = _board(after, seat, sandbox).start[action.row].holes
        held = got[action.hole] if action.hole < len(got) else None
        made = f": a {_grade(held)} bot into Start Zone row {action.row}" if held is not None else ""
        words = f"{who} recycled the {_tile_name(game, what)}{made}"
    elif kind == "BuyFork":
        turned = TURNED[action.rotation % 4]
        words = f"{who} bought a Fork for 1 and installed it on {_cell(action.row, action.col)}, {turned}"
    elif kind == "BuyTruck":
        words = f"{who} bought a {_tile_name(game, action.kind)} for Loading Dock row {action.row}"
    elif kind == "Complete":
        vault = _money(after, seat, sandbox)[1] - _money(before, seat, sandbox)[1]
        card = before.bp_top[action.pile] if action.pile < len(before.bp_top) else None
        bots = ", ".join(f"a {_grade(b)} bot from the truck of row {r}" for r, b in action.take)
        words = f"{who} completed Blueprint {card} (pile {action.pile + 1}) with {bots}: {vault} into the Vault"
    elif kind == "Demolish":
        gone = _floor_name(game, board, action.row, action.col)
        words = f"{who} demolished the {gone} on {_cell(action.row, action.col)}"
    elif kind == "DemolishFabricator":
        words = f"{who} demolished the {_tile_name(game, board.start[action.row].kind)} on Start Zone row {action.row}"
    elif kind == "Fabricate":
        declared = ", ".join(_grade(b) for b in action.declare)
        words = f"{who} fabricated" + (f" (the Overactive Fabricator declaring {declared})" if declared else "")
    elif kind == "Gift":
        words = f"{who} took a {_grade(action.bot)} bot, an Overactive Fabricator's gift (Start Zone row {action.row})"
    elif kind == "Decline":
        words = f"{who} declined the Overactive Fabricator's gift"
    elif kind == "Draw":
        into = "set aside as an extra" if before.phase.value == "setup_extras" else "dealt onto the Shop"
        words = f"Chance: the {_tile_name(game, action.kind)} was drawn and {into}"
    elif kind == "Reveal":
        words = f"Chance: Blueprint {action.card} turned up on pile {int(before.reveal) + 1}"
    elif kind == "Install":
        words = (
            f"{who} installed the {_tile_name(game, action.kind)} on {_cell(action.row, action.col)}, "
            f"{TURNED[action.rotation % 4]}"
        )
    elif kind == "InstallFabricator":
        words = f"{who} laid the {_tile_name(game, action.kind)} on Start Zone row {action.row}"
    elif kind == "InstallTruck":
        words = f"{who} put a {_tile_name(game, action.kind)} on Loading Dock row {action.row}"
    else:
        words = f"{who}: {action!r}"
    return words + _mechanica_after(game, before, after, sandbox)


def _mechanica_after(game: Any, before: Any, after: Any, sandbox: bool) -> str:
    """What the step set going: a workday's start or end, money paid by it, a new day."""
    out = []
    if before.run is not None and after.run is None:
        out.append("the workday ended")
    if after.run is not None and (before.run is None or (not sandbox and after.current != before.current)):
        if before.run is not None:
            out.append(f"P{int(before.current) + 1}'s workday ended")
        owner = "P1" if sandbox else f"P{int(after.current) + 1}"
        out.append(f"{owner}'s workday began")
    if int(after.day) > int(before.day):
        out.append(f"day {after.day} began")
    seats = 1 if sandbox else len(before.seats)
    for seat in range(seats):
        (w0, v0), (w1, v1) = _money(before, seat, sandbox), _money(after, seat, sandbox)
        changes = []
        if w1 != w0:
            changes.append(f"money in hand {w0} \u2192 {w1}")
        if v1 != v0:
            changes.append(f"Vault {v0} \u2192 {v1}")
        if changes:
            out.append(f"P{seat + 1}: " + ", ".join(changes))
    if after.run is not None:
        coins = []
        r1 = after.run
        r0 = before.run if sandbox or (before.run is not None and before.current == after.current) else None
        if r1.vault != (r0.vault if r0 is not None else 0):
            coins.append(f"{r1.vault} into the Vault")
        if r1.wallet != (r0.wallet if r0 is not None else 0):
            coins.append(f"{r1.wallet} into the hand")
        if coins:
            out.append("this workday so far: " + ", ".join(coins))
        destroyed = int(r1.destroyed) - (int(r0.destroyed) if r0 is not None else 0)
        if destroyed > 0:
            out.append(f"{destroyed} bot(s) destroyed")
    return ("; " + "; ".join(out)) if out else ""


# --- Bot Factory -------------------------------------------------------------------------------------------


def _part(part: str | None) -> str:
    if part is None:
        return "nothing"
    colour, _, slot = part.partition("-")
    return f"Universal {slot}" if colour == "any" else f"{colour} {slot}"


def _gained(before: tuple[str, ...], after: tuple[str, ...]) -> list[str]:
    """What ``after`` holds more of than ``before`` (as multisets)."""
    rest = list(before)
    out = []
    for x in after:
        if x in rest:
            rest.remove(x)
        else:
            out.append(x)
    return out


def _botfactory(game: Any, before: Any, action: Any, after: Any) -> str:
    kind = type(action).__name__
    who = _actor(game, before)
    c = game.variant.components
    seat = int(who[1:]) - 1 if who.startswith("P") else None
    if kind == "TakeTop":
        got = _gained(before.hands[seat].parts, after.hands[seat].parts) if seat is not None else []
        words = f"{who} took the top part of the {action.colour} pile" + (f": a {_part(got[0])}" if got else "")
    elif kind == "MoveWorker":
        board = c.spaces()[action.space][0] if 0 <= action.space < len(c.spaces()) else None
        title = (
            ("the " + ("Assembly", "Part Production", "Project", "Finance")[board] + " board")
            if board is not None
            else "the board"
        )
        words = f"{who} moved their worker to space {action.space} ({title})"
    elif kind == "PayShare":
        words = f"{who} paid Sandra a Speech token to act on her board"
    elif kind == "PlacePart":
        words = f"{who} put the {_part(action.part)} on the {action.colour} bot"
    elif kind == "Rotate":
        words = f"{who} turned the Wheel"
    elif kind == "Refill":
        words = f"{who} refilled Wheel space {action.position} from the {action.colour} pile"
    elif kind == "TakeOutput":
        words = f"{who} took the {_part(before.wheel[action.position])} from the Wheel"
    elif kind == "TakeProject":
        column = before.grid[action.column] if action.column < len(before.grid) else ()
        tile = column[action.row] if action.row < len(column) else None
        side = "left" if action.column == 0 else "right"
        words = f"{who} took the {tile} Project tile from the {side} column, row {action.row}"
    elif kind == "Raise":
        words = f"{who} raised the {action.colour} bot's value"
    elif kind == "Reserve":
        words = f"{who} reserved contract {before.display[action.slot]}"
    elif kind == "Swap":
        words = f"{who} swapped their {_part(action.part)} for the spare {_part(before.spares[action.spare])}"
    elif kind == "Trade":
        words = f"{who} traded {', '.join(_part(p) for p in action.parts)} for the top part of the {action.colour} pile"
    elif kind == "Exchange":
        words = f"{who} exchanged {' and '.join(action.projects)} Project tiles for a Universal {action.slot}"
    elif kind == "Skip":
        offered = " ".join(before.turn.prompt) if before.turn is not None and before.turn.prompt else ""
        words = f"{who} declined" + (f" the offer ({offered})" if offered else "")
    elif kind == "EndTurn":
        words = f"{who} ended their turn"
    elif kind == "DiscardPart":
        words = f"{who} discarded a {_part(action.part)} (over the limit)"
    elif kind == "DiscardProject":
        words = f"{who} discarded a {action.colour} Project tile (over the limit)"
    elif kind == "DrawPart":
        words = f"Chance: a {action.slot} part was drawn" + _part_drawn_to(before, after)
    elif kind == "DrawProject":
        words = f"Chance: a {action.colour} Project tile was drawn"
    elif kind == "DrawContract":
        words = f"Chance: contract {action.id} was drawn"
    else:
        words = f"{who}: {action!r}"
    return words + _botfactory_after(game, before, after)


def _part_drawn_to(before: Any, after: Any) -> str:
    """Where the part of the pending draw went, read from the state after it: the Wheel, a spare space, a hand."""
    if not before.draws:
        return ""
    _what, _source, dest, i, _j = before.draws[0]
    if dest == "wheel" and 0 <= i < len(after.wheel) and after.wheel[i] is not None:
        return f": a {_part(after.wheel[i])} onto Wheel space {i}"
    if dest == "spare" and 0 <= i < len(after.spares) and after.spares[i] is not None:
        return f": a {_part(after.spares[i])} onto spare space {i}"
    if dest == "hand" and 0 <= i < len(after.hands):
        got = _gained(before.hands[i].parts, after.hands[i].parts)
        if got:
            return f": a {_part(got[0])} into P{i + 1}'s hand"
    return ""


def _botfactory_after(game: Any, before: Any, after: Any) -> str:
    out = []
    colours = game.variant.components.colours
    for seat, (h0, h1) in enumerate(zip(before.hands, after.hands, strict=True)):
        built = _gained(h0.done, h1.done)
        if built:
            out.append(f"P{seat + 1} completed a {', '.join(built)} bot")
        if h1.tokens != h0.tokens:
            out.append(f"P{seat + 1}: Speech tokens {h0.tokens} \u2192 {h1.tokens}")
    for i, (v0, v1) in enumerate(zip(before.values, after.values, strict=True)):
        if v1 != v0:
            out.append(f"{colours[i]} bot value {v0} \u2192 {v1}")
    if after.round != before.round:
        out.append(f"round {after.round} began")
    return ("; " + "; ".join(out)) if out else ""


def mechanica_words(game: Any, before: Any, action: Any, after: Any) -> str:
    """A step of Mechanica in words (the descriptor's ``narration``)."""
    return _mechanica(game, before, action, after, sandbox=False)


def factory_words(game: Any, before: Any, action: Any, after: Any) -> str:
    """A step of the factory sandbox in words (the descriptor's ``narration``)."""
    return _mechanica(game, before, action, after, sandbox=True)


def botfactory_words(game: Any, before: Any, action: Any, after: Any) -> str:
    """A step of Bot Factory in words (the descriptor's ``narration``)."""
    return _botfactory(game, before, action, after)
