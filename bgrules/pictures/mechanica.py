"""Pictures of Mechanica states: the whole game (:class:`MechanicaState`) and the factory sandbox
(:class:`SandboxState`).

A whole-game picture: a heading (day, phase, whose turn), the Shop wheel with its price slots and the
improvements on them, the Recycler, the two Blueprint piles with their face-up cards, the bot stock, the
deck and the extras; then each seat's panel (money in hand, Vault, completed Blueprints) over that
seat's factory board (:mod:`bgrules.pictures.factory`). A sandbox picture: its day, phase, money, stock,
the supply of tiles left, and the factory (the live board while a workday runs).
"""

from __future__ import annotations

import math
from typing import Any

from bgrules.core.protocol import CHANCE
from bgrules.mechanica.components import Bot
from bgrules.mechanica.run import Run
from bgrules.mechanica.sandbox import SandboxState
from bgrules.mechanica.state import MechanicaState, Phase
from bgrules.mechanica.variant import MechanicaVariant
from bgrules.pictures import factory as fp
from bgrules.pictures.ending import Ending, ending
from bgrules.pictures.style import BOT_NAME, INK, MUTED, PANEL, RULE, bot_icon, box, document, dw, finish, text

PHASE_WORDS: dict[str, str] = {
    "setup_extras": "set-up: drawing the extras",
    "setup_deal": "set-up: dealing the Shop",
    "reveal": "turning up a Blueprint",
    "run": "workday: a factory runs",
    "sell": "turn step 1: sell",
    "buy": "turn step 2: buy",
    "place": "turn step 2: install or recycle the bought improvement",
    "fabricate": "turn step 3: fabricate",
    "gift": "Overactive Fabricator gifts",
    "recycle": "recycling a fallen improvement",
    "draw": "refilling the Shop",
    "extra": "drawing an extra (double rotation)",
    "over": "game over",
    "turn": "the player's turn",
    "turn_end": "turn step 4 done: Forks, trucks, Blueprints, or end the turn",
}

SLOT_FILL = "#f3e6c8"
RUN_WORDS = {
    "move": "bots moving",
    "collide": "collisions to settle",
    "activate": "improvements activating",
    "done": "run over",
}


def run_words(run: Run) -> str:
    """A workday under way in words: its step, bots on their way and bots arrived."""
    words = f"workday: {RUN_WORDS.get(run.phase.value, run.phase.value)}"
    if run.moving:
        words += f", {len(run.moving)} on the move"
    if run.arrived:
        words += f", {len(run.arrived)} arrived"
    return words


EMPTY_SLOT = "#eeeeee"


def run_coins(run: Run) -> str:
    """The coins a workday under way has paid so far (MC-GIFT into the Vault, MC-FLIGHT-JUMP into the
    wallet), or "" when none."""
    parts = []
    if run.vault:
        parts.append(f"+{run.vault} Vault")
    if run.wallet:
        parts.append(f"+{run.wallet} money in hand")
    return ("this workday so far: " + ", ".join(parts)) if parts else ""


def heading_words(phase: str, game: Any, state: Any) -> str:
    """The phase in words and who is to move; a finished game says "game over" once."""
    if game.is_terminal(state):
        return "game over"
    return f"{phase}; {_mover_words(game, state)}"


def result_text(x: float, y: float, end: Ending, size: float = 12) -> dw.Text:
    """The line of a finished game's result: scores, winner(s), the tie-break that decided."""
    return text(
        x,
        y,
        end.words(),
        size=size,
        weight="bold",
        fill="#7b241c",
        class_="result",
        data_scores=",".join(map(str, end.scores)),
        data_winners=",".join(map(str, end.winners)),
        data_tie_break=end.tie_break,
    )


def _wrapped(words: str, width: int) -> list[str]:
    """``words`` on lines of at most ``width`` characters, broken after commas."""
    lines: list[str] = []
    for part in words.split(", "):
        if lines and len(lines[-1]) + 2 + len(part) <= width:
            lines[-1] += ", " + part
        else:
            if lines:
                lines[-1] += ","
            lines.append(part)
    return lines


def _mover_words(game: Any, state: Any) -> str:
    if game.is_terminal(state):
        return "game over"
    mover = game.to_move(state)
    if mover is CHANCE:
        return "chance to move"
    return f"Player {int(mover) + 1} to move"


def _bots_row(x: float, y: float, counts: tuple[int, ...], label: str, at: str) -> dw.Group:
    """``label`` then one disc per grade with its count beside it."""
    g = dw.Group(class_="counts", data_at=at, data_counts=",".join(str(n) for n in counts))
    g.append(text(x, y + 4, label, size=11))
    cx = x + 12 + 6.5 * len(label)
    for bot, n in zip(Bot, counts, strict=True):
        g.append(bot_icon(cx, y, bot, r=7, at=f"{at} {bot.name.lower()}"))
        g.append(text(cx + 10, y + 4, f"\u00d7{n}", size=11))
        cx += 44
    return g


def _shop(x: float, y: float, state: MechanicaState, variant: MechanicaVariant) -> dw.Group:
    """The Shop wheel: one sector per price slot (7 first, clockwise from the top), the improvement on it,
    and the list of the slots in words beside it."""
    cat = variant.catalogue
    prices = variant.game.prices
    g = dw.Group(class_="shop")
    g.append(text(x, y + 14, "Shop", size=13, weight="bold"))
    cx, cy, radius = x + 80, y + 100, 70
    n = len(prices)
    for i, (price, key) in enumerate(zip(prices, state.wheel, strict=True)):
        a0 = -math.pi / 2 + 2 * math.pi * i / n
        a1 = -math.pi / 2 + 2 * math.pi * (i + 1) / n
        name = cat.tile(key).name if key is not None else "empty"
        sector = dw.Group(class_="shop-slot", data_slot=str(i), data_price=str(price), data_kind=key or "")
        sector.append(dw.Title(f"Shop slot {i}: price {price}, {name}"))
        p = dw.Path(fill=SLOT_FILL if key else EMPTY_SLOT, stroke=INK, stroke_width=1)
        p.M(cx, cy).L(cx + radius * math.cos(a0), cy + radius * math.sin(a0))
        p.A(radius, radius, 0, 0, 1, cx + radius * math.cos(a1), cy + radius * math.sin(a1)).Z()
        sector.append(p)
        am = (a0 + a1) / 2
        sector.append(
            text(
                cx + 0.62 * radius * math.cos(am),
                cy + 0.62 * radius * math.sin(am) + 5,
                str(price),
                size=15,
                anchor="middle",
                weight="bold",
            )
        )
        if key is not None:
            code = cat.tile(key).code
            sector.append(
                text(
                    cx + 0.62 * radius * math.cos(am),
                    cy + 0.62 * radius * math.sin(am) + 17,
                    code if len(code) <= 3 else code[:3],
                    size=8,
                    anchor="middle",
                    fill=MUTED,
                )
            )
        g.append(sector)
    g.append(dw.Circle(cx, cy, 16, fill="#ffffff", stroke=INK))
    g.append(text(cx, cy + 3, "Shop", size=8, anchor="middle", fill=MUTED))
    lx = x + 165
    for i, (price, key) in enumerate(zip(prices, state.wheel, strict=True)):
        name = cat.tile(key).name if key is not None else "(empty)"
        g.append(text(lx, y + 40 + 16 * i, f"{price}: {name}", size=10.5, data_slot=str(i)))
    recycled = [(cat.tile(k).name, c) for k, c in zip(variant.game.improvements, state.recycler, strict=True) if c]
    ry = y + 40 + 16 * n + 8
    g.append(
        text(
            lx,
            ry,
            f"Recycler: {sum(state.recycler)} improvement(s)",
            size=10.5,
            weight="bold",
            class_="recycler",
            data_count=str(sum(state.recycler)),
        )
    )
    for j, (name, c) in enumerate(recycled):
        g.append(text(lx + 8 + (j % 2) * 125, ry + 14 * (j // 2 + 1), f"{c} \u00d7 {name}", size=9.5))
    return g


def _blueprints(x: float, y: float, state: MechanicaState, variant: MechanicaVariant) -> dw.Group:
    cards = {b.id: b for b in variant.game.blueprints}
    g = dw.Group(class_="blueprints")
    g.append(text(x, y + 14, "Blueprints", size=13, weight="bold"))
    for pile, top in enumerate(state.bp_top):
        px = x + pile * 130
        left = state.bp_hidden[pile] + len(state.bp_bottom[pile])
        card = dw.Group(
            class_="blueprint",
            data_pile=str(pile),
            data_card="" if top is None else str(top),
            data_turned=str(state.bp_turned[pile]).lower(),
        )
        card.append(box(px, y + 24, 118, 112, fill="#dfeaf7" if top is not None else "#eeeeee", stroke=INK, rx=5))
        card.append(text(px + 6, y + 40, f"pile {pile + 1}: {left} below", size=9.5, fill=MUTED))
        if top is None:
            card.append(text(px + 59, y + 86, "no card up", size=10, anchor="middle", fill=MUTED))
        else:
            bp = cards[top]
            card.append(text(px + 6, y + 58, f"Blueprint {bp.id}", size=11, weight="bold"))
            bx = px + 14
            by = y + 78
            k = 0
            for bot, n in zip(Bot, bp.needs, strict=True):
                for _ in range(n):
                    card.append(bot_icon(bx + (k % 5) * 20, by + (k // 5) * 20, bot, r=7.5, at=f"blueprint {pile}"))
                    k += 1
            card.append(text(px + 6, y + 126, f"pays {bp.value} into the Vault", size=9.5))
            if state.bp_turned[pile]:
                card.append(text(px + 112, y + 58, "turned", size=8.5, anchor="end", fill="#a04000"))
                card.append(text(px, y + 150, "goes under its pile", size=8.5, fill="#a04000"))
                card.append(text(px, y + 161, "at the day's end", size=8.5, fill="#a04000"))
        g.append(card)
    return g


def _supplies(x: float, y: float, state: MechanicaState) -> dw.Group:
    """The bot stock (during a workday, the run's stock: bots a run destroys or makes pass through it), the
    deck and the extras."""
    g = dw.Group(class_="supplies")
    g.append(text(x, y + 14, "Supplies", size=13, weight="bold"))
    stock = state.run.stock if state.run is not None else state.stock
    g.append(_bots_row(x, y + 36, stock, "Stock", "stock"))
    if state.run is not None:
        g.append(text(x, y + 94, "(the stock as the workday leaves it so far)", size=9, fill=MUTED))
    g.append(
        text(
            x,
            y + 62,
            f"Deck: {sum(state.deck)} improvement(s) face down",
            size=10.5,
            class_="deck",
            data_count=str(sum(state.deck)),
        )
    )
    g.append(
        text(
            x,
            y + 78,
            f"Extras set aside: {sum(state.extras)}",
            size=10.5,
            class_="extras",
            data_count=str(sum(state.extras)),
        )
    )
    return g


SEAT_HEAD = 44


def _seat(
    x: float, y: float, i: int, state: MechanicaState, variant: MechanicaVariant, to_move: bool, end: Ending | None
) -> dw.Group:
    seat = state.seats[i]
    live = state.run is not None and state.current == i
    board = state.run.factory if live and state.run is not None else seat.factory
    g = dw.Group(class_="seat", data_seat=str(i), data_wallet=str(seat.wallet), data_vault=str(seat.vault))
    g.append(
        box(
            x,
            y,
            fp.WIDTH + 16,
            SEAT_HEAD + fp.HEAD + 3 * fp.CELL + 14,
            fill="#fffbe6" if to_move else PANEL,
            stroke=INK if to_move else RULE,
            stroke_width=2 if to_move else 1,
        )
    )
    title = f"Player {i + 1}" + (" (ARMAND-0, first player)" if i == 0 else "")
    if to_move:
        title += " \u2014 to move"
    if end is not None:
        title += f" \u2014 final score {end.scores[i]}" + (" \u2014 winner" if i in end.winners else "")
    g.append(text(x + 10, y + 18, title, size=13, weight="bold"))
    words = f"money in hand {seat.wallet}   Vault {seat.vault}"
    if seat.completed:
        words += "   Blueprints done: " + ", ".join(str(b) for b in seat.completed)
    g.append(text(x + 10, y + 36, words, size=11, class_="money"))
    cat = variant.catalogue
    notes = []
    if state.current == i and state.pending is not None:
        notes.append(f"bought: {cat.tile(state.pending).name}")
    if state.current == i and state.fallen is not None:
        notes.append(f"fallen into the Recycler: {cat.tile(state.fallen).name}")
    if live and state.run is not None:
        notes.append(run_words(state.run))
        coins = run_coins(state.run)
        if coins:
            notes.append(coins)
    offers = [bot for seat_i, bot in state.gifts if seat_i == i]
    if offers and state.phase is Phase.GIFT:
        notes.append("gift offered below " + ", ".join(BOT_NAME[b] for b in offers))
    if notes:
        g.append(text(x + fp.WIDTH + 6, y + 36, "; ".join(notes), size=10.5, anchor="end", fill="#a04000"))
    inner = dw.Group(transform=f"translate({x + 8},{y + SEAT_HEAD})")
    inner.append(fp.factory_group(board, variant, state.run if live else None))
    g.append(inner)
    return g


def draw_mechanica(game: Any, state: MechanicaState) -> str:
    """The picture of a whole Mechanica state (``game``: its :class:`bgrules.mechanica.game.MechanicaGame`)."""
    variant: MechanicaVariant = game.variant
    n = len(state.seats)
    cols = 2 if n > 1 else 1
    seat_w = fp.WIDTH + 16
    seat_h = SEAT_HEAD + fp.HEAD + 3 * fp.CELL + 14
    end = ending(game, state)
    shift = 22 if end is not None else 0
    top = 250 + shift
    width = max(cols * seat_w + (cols - 1) * 16 + 24, 1000)
    rows = (n + cols - 1) // cols
    height = top + rows * (seat_h + 16) + 92
    d = document(width, height, "Mechanica")
    phase = PHASE_WORDS.get(state.phase.value, state.phase.value)
    d.append(
        text(
            12,
            26,
            f"Mechanica \u2014 {n} players, day {state.day}: {heading_words(phase, game, state)}",
            size=16,
            weight="bold",
            class_="heading",
            data_day=str(state.day),
            data_phase=state.phase.value,
        )
    )
    if end is not None:
        d.append(result_text(12, 48, end))
    d.append(_shop(12, 36 + shift, state, variant))
    d.append(_blueprints(470, 36 + shift, state, variant))
    d.append(_supplies(760, 36 + shift, state))
    mover = None if game.is_terminal(state) else game.to_move(state)
    for i in range(n):
        sx = 12 + (i % cols) * (seat_w + 16)
        sy = top + (i // cols) * (seat_h + 16)
        d.append(_seat(sx, sy, i, state, variant, mover == i and state.phase is not Phase.OVER, end))
    legend_y = top + rows * (seat_h + 16) + 20
    d.append(fp.legends(12, legend_y))
    return finish(d)


def draw_sandbox(game: Any, state: SandboxState) -> str:
    """The picture of a ``mechanica-factory`` sandbox state."""
    variant: MechanicaVariant = game.variant
    cat = variant.catalogue
    width = max(fp.WIDTH + 24, 900)
    supply: dict[str, int] = {}
    for key in state.supply:
        supply[key] = supply.get(key, 0) + 1
    words = ", ".join(f"{n} \u00d7 {cat.tile(k).name}" for k, n in supply.items()) or "none"
    supply_lines = _wrapped(f"Supply: {words}", int((width - 24) / 5.6))
    end = ending(game, state)
    head = 92 + 14 * (len(supply_lines) - 1) + (20 if end is not None else 0)
    d = document(width, head + fp.HEIGHT + 16, "Mechanica factory sandbox")
    days = getattr(game, "days", None)
    day = f"day {state.day}" + (f" of {days}" if isinstance(days, int) else "")
    phase = PHASE_WORDS.get(state.phase.value, state.phase.value)
    d.append(
        text(
            12,
            24,
            f"Mechanica factory sandbox \u2014 {day}: {heading_words(phase, game, state)}",
            size=16,
            weight="bold",
            class_="heading",
            data_day=str(state.day),
            data_phase=state.phase.value,
        )
    )
    y = 46
    if end is not None:
        d.append(result_text(12, y, end))
        y += 20
    d.append(
        text(
            12,
            y,
            f"money in hand {state.wallet}   Vault {state.vault}   collisions {state.collisions}"
            f"   bots destroyed {state.destroyed}",
            size=11,
            class_="money",
            data_wallet=str(state.wallet),
            data_vault=str(state.vault),
        )
    )
    d.append(_bots_row(12, y + 20, state.live_stock, "Stock", "stock"))
    if state.run is not None:
        notes = [run_words(state.run)]
        coins = run_coins(state.run)
        if coins:
            notes.append(coins)
        d.append(
            text(
                width - 12,
                y,
                "; ".join(notes),
                size=10.5,
                anchor="end",
                fill="#a04000",
                class_="run",
                data_vault=str(state.run.vault),
                data_wallet=str(state.run.wallet),
            )
        )
    supply_group = dw.Group(class_="supply", data_count=str(len(state.supply)))
    for k, line in enumerate(supply_lines):
        supply_group.append(text(12, y + 40 + 14 * k, line, size=10.5))
    d.append(supply_group)
    inner = dw.Group(transform=f"translate(6,{head})")
    inner.append(fp.factory_group(state.board, variant, state.run))
    d.append(inner)
    d.append(fp.legends(12, head + fp.HEAD + 3 * fp.CELL + 28))
    return finish(d)
