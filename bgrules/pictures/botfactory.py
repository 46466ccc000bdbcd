"""Pictures of Bot Factory states.

Four boards left to right as on the table (Assembly, Part Production, Project, Finance), each with its
action spaces (the action count printed on each) and the workers and Sandra standing on them; the
Assembly board shows the bots under assembly (head, torso and legs spaces of each colour's bot), the
bots left and the spare parts; the Part Production board the Wheel's eight spaces (top spaces, output
spaces, the marked space), the Distribution marker and the part piles; the Project board its two
columns of Project tiles and the tile pile; the Finance board the value track with each colour's Bot
Value marker and the value lines, and the face-up contracts with the players' reservations. Under the
boards, each player's area: Speech tokens held and in the supply, part tiles, unfinished and completed
projects. Elements carry ``data-*`` attributes naming what they show.
"""

from __future__ import annotations

import math
from typing import Any

from bgrules.botfactory.state import BotFactoryState, Hand
from bgrules.botfactory.variant import BOARDS, Components
from bgrules.core.protocol import CHANCE
from bgrules.pictures.ending import Ending, ending
from bgrules.pictures.mechanica import result_text
from bgrules.pictures.style import INK, MUTED, PANEL, RULE, box, document, dw, finish, text

COLOUR_FILL: dict[str, str] = {
    "red": "#d64541",
    "yellow": "#f4d03f",
    "blue": "#3b78c2",
    "green": "#3fa55b",
    "any": "#ffffff",
}
"""Part, bot and Project tile colours; ``any``: the Universal parts."""
COLOUR_INK: dict[str, str] = {"red": "#ffffff", "yellow": INK, "blue": "#ffffff", "green": "#ffffff", "any": INK}
SEAT_FILL = ("#222222", "#8e5a2b", "#7d3c98", "#117a65")
"""Workers and players' markers, one shade per seat (labelled P1-P4)."""
SANDRA = "#c0392b"
BOARD_TITLES = {
    "assembly": "01 Assembly",
    "production": "02 Part Production",
    "project": "03 Project",
    "finance": "04 Finance",
}
PHASE_WORDS = {
    "setup": "set-up: dealing",
    "pick": "set-up: players take a part",
    "move": "moving workers",
    "action": "actions",
    "discard": "discarding over the limit",
    "over": "game over",
}
SLOT_LETTER = {"head": "H", "torso": "T", "legs": "L"}
BOARD_W = 345
BOARDS_Y = 64


def _fill(colour: str) -> str:
    return COLOUR_FILL.get(colour, "#cccccc")


def _part(x: float, y: float, part: str, at: str, size: float = 22) -> dw.Group:
    """A part tile ``"<colour>-<slot>"``: a square of its colour with its slot's letter."""
    colour, _, slot = part.partition("-")
    g = dw.Group(class_="part", data_part=part, data_at=at)
    g.append(dw.Title(("Universal " if colour == "any" else f"{colour} ") + slot + f" ({at})"))
    g.append(dw.Rectangle(x, y, size, size, rx=3, fill=_fill(colour), stroke=INK, stroke_width=1))
    g.append(
        text(
            x + size / 2,
            y + size * 0.68,
            SLOT_LETTER.get(slot, slot[:1].upper()),
            size=size * 0.5,
            anchor="middle",
            weight="bold",
            fill=COLOUR_INK.get(colour, INK),
        )
    )
    if colour == "any":
        g.append(
            dw.Rectangle(x + 2, y + 2, size - 4, size - 4, rx=2, fill="none", stroke="#999999", stroke_dasharray="2,2")
        )
    return g


def _empty_space(x: float, y: float, label: str, size: float = 22) -> dw.Group:
    g = dw.Group(class_="empty-space")
    g.append(dw.Rectangle(x, y, size, size, rx=3, fill="#ffffff", stroke=MUTED, stroke_dasharray="3,2"))
    g.append(text(x + size / 2, y + size * 0.66, label, size=size * 0.42, anchor="middle", fill=MUTED))
    return g


def _meeple(x: float, y: float, fill: str, label: str, at: str, kind: str) -> dw.Group:
    """A worker (``kind`` "worker") or Sandra: a meeple with its label."""
    g = dw.Group(class_=kind, data_at=at, data_label=label)
    g.append(dw.Title(f"{label} on {at}"))
    g.append(dw.Circle(x, y - 9, 5, fill=fill, stroke=INK, stroke_width=0.8))
    p = dw.Path(fill=fill, stroke=INK, stroke_width=0.8)
    p.M(x - 9, y + 9).L(x - 7, y - 2).L(x + 7, y - 2).L(x + 9, y + 9).Z()
    g.append(p)
    g.append(text(x, y + 21, label, size=8.5, anchor="middle", weight="bold", fill=fill))
    return g


def _spaces(x: float, y: float, board: int, state: BotFactoryState, c: Components, game: Any) -> tuple[dw.Group, float]:
    """A board's row of action spaces with the workers and Sandra on them; returns it and its height."""
    spaces = [(i, sp) for i, sp in enumerate(c.spaces()) if sp[0] == board]
    g = dw.Group(class_="spaces", data_board=BOARDS[board])
    w = (BOARD_W - 20) / max(len(spaces), 1)
    for k, (i, (_b, _s, n)) in enumerate(spaces):
        sx = x + 10 + k * w
        sp = dw.Group(class_="space", data_space=str(i), data_actions=str(n))
        sp.append(box(sx + 2, y, w - 4, 62, fill="#ffffff", stroke=INK, rx=4))
        sp.append(text(sx + 7, y + 12, f"space {i}", size=8.5, fill=MUTED))
        sp.append(
            text(sx + w - 7, y + 12, f"{n} action" + ("s" if n != 1 else ""), size=8.5, anchor="end", weight="bold")
        )
        here = [seat for seat, at in enumerate(state.workers) if at == i]
        mx = sx + 16
        for seat in here:
            sp.append(_meeple(mx, y + 34, SEAT_FILL[seat % len(SEAT_FILL)], f"P{seat + 1}", f"space {i}", "worker"))
            mx += 22
        if state.sandra == i:
            sp.append(_meeple(mx + 4, y + 34, SANDRA, "Sandra", f"space {i}", "sandra"))
        g.append(sp)
    return g, 70


def _assembly(x: float, y: float, state: BotFactoryState, c: Components) -> dw.Group:
    g = dw.Group(class_="assembly")
    g.append(text(x + 10, y + 14, "Bots under assembly", size=10.5, weight="bold"))
    icons = set(c.boards.icon_slots)
    for k, colour in enumerate(c.colours):
        cx = x + 14 + k * 80
        col = dw.Group(class_="bot-column", data_colour=colour, data_parts=",".join(p or "" for p in state.columns[k]))
        col.append(dw.Rectangle(cx, y + 22, 70, 118, rx=5, fill=_fill(colour), fill_opacity=0.25, stroke=INK))
        col.append(text(cx + 35, y + 36, f"{colour} bot", size=9.5, anchor="middle", weight="bold"))
        for j, slot in enumerate(c.slots):
            sy = y + 44 + j * 30
            part = state.columns[k][j]
            if part is None:
                col.append(_empty_space(cx + 24, sy, SLOT_LETTER[slot]))
            else:
                col.append(_part(cx + 24, sy, part, f"assembly {colour} {slot}"))
            if slot in icons:
                col.append(text(cx + 52, sy + 15, "\u2605", size=11, fill="#a04000"))
        col.append(
            text(
                cx + 35,
                y + 156,
                f"{state.bots_left[k]} bot(s) left",
                size=9,
                anchor="middle",
                class_="bots-left",
                data_colour=colour,
                data_count=str(state.bots_left[k]),
            )
        )
        g.append(col)
    g.append(text(x + 10, y + 182, "Spare parts", size=10.5, weight="bold"))
    for k, part in enumerate(state.spares):
        sx = x + 100 + k * 28
        if part is None:
            g.append(_empty_space(sx, y + 168, "\u00b7"))
        else:
            g.append(_part(sx, y + 168, part, f"spare {k}"))
    g.append(text(x + 10, y + 210, "\u2605 a space bearing the icon", size=8.5, fill=MUTED))
    return g


def _wheel(x: float, y: float, state: BotFactoryState, c: Components) -> dw.Group:
    """The Wheel: eight spaces clockwise from 11 o'clock, the top and output spaces and the marked one."""
    g = dw.Group(class_="wheel")
    cx, cy, radius = x + 95, y + 105, 72
    g.append(text(x + 10, y + 14, "Wheel", size=10.5, weight="bold"))
    g.append(dw.Circle(cx, cy, radius + 18, fill="#eef1f4", stroke=INK))
    for p, part in enumerate(state.wheel):
        a = math.radians(-112.5 + 45 * p)
        px, py = cx + radius * math.cos(a), cy + radius * math.sin(a)
        roles = []
        if p in c.wheel.top:
            roles.append("top")
        if p in c.wheel.output:
            roles.append("output")
        if p in c.wheel.marked:
            roles.append("marked")
        sg = dw.Group(class_="wheel-space", data_position=str(p), data_part=part or "", data_roles=" ".join(roles))
        if part is None:
            sg.append(_empty_space(px - 11, py - 11, str(p)))
        else:
            sg.append(_part(px - 11, py - 11, part, f"wheel {p}"))
        label = " ".join(r for r in roles if r != "marked")
        if label:
            lx = cx + (radius - 30) * math.cos(a)
            ly = cy + (radius - 30) * math.sin(a) + 3
            sg.append(text(lx, ly, label, size=7.5, anchor="middle", fill=MUTED))
        if "marked" in roles:
            sx = cx + (radius + 24) * math.cos(a)
            sy = cy + (radius + 24) * math.sin(a) + 4
            sg.append(text(sx, sy, "\u2605", size=11, anchor="middle", fill="#a04000"))
        g.append(sg)
    # the Distribution marker: an arrow from the centre toward the pile it points at
    g.append(dw.Circle(cx, cy, 12, fill="#ffffff", stroke=INK))
    piles_x = x + 205
    mark_y = y + 44 + state.marker * 40 + 11
    g.append(dw.Line(cx + 12, cy, piles_x - 8, mark_y, stroke="#a04000", stroke_width=2.5))
    g.append(
        dw.Lines(piles_x - 4, mark_y, piles_x - 14, mark_y - 5, piles_x - 14, mark_y + 5, close=True, fill="#a04000")
    )
    g.append(text(cx, cy + 30, "Distribution", size=7.5, anchor="middle", fill="#a04000"))
    g.append(text(piles_x, y + 30, "Part piles (H T L)", size=9.5, weight="bold"))
    for k, colour in enumerate(c.colours):
        py = y + 44 + k * 40
        pile = dw.Group(
            class_="pile",
            data_colour=colour,
            data_counts=",".join(map(str, state.piles[k])),
            data_marked=str(state.marker == k).lower(),
        )
        pile.append(dw.Rectangle(piles_x, py, 24, 22, rx=3, fill=_fill(colour), stroke=INK))
        pile.append(text(piles_x + 30, py + 15, " ".join(str(n) for n in state.piles[k]), size=10))
        disc = sum(state.discards[k])
        pile.append(text(piles_x + 30, py + 30, f"discards {disc}", size=8, fill=MUTED))
        g.append(pile)
    g.append(
        text(
            x + 10,
            y + 222,
            "Universal parts left (H T L): " + " ".join(map(str, state.universal)),
            size=9.5,
            class_="universal",
            data_counts=",".join(map(str, state.universal)),
        )
    )
    return g


def _projects(x: float, y: float, state: BotFactoryState, c: Components) -> dw.Group:
    g = dw.Group(class_="projects")
    g.append(text(x + 10, y + 14, "Project columns (row 0 at the bottom)", size=10.5, weight="bold"))
    rows = max((len(col) for col in state.grid), default=0)
    for k, column in enumerate(state.grid):
        cx = x + 60 + k * 110
        g.append(
            text(cx + 40, y + 34, "left column" if k == 0 else "right column", size=9, anchor="middle", fill=MUTED)
        )
        for r, tile in enumerate(column):
            ty = y + 44 + (rows - 1 - r) * 48
            cell = dw.Group(class_="project-space", data_column=str(k), data_row=str(r), data_tile=tile or "")
            if tile is None:
                cell.append(dw.Rectangle(cx, ty, 80, 40, rx=4, fill="#ffffff", stroke=MUTED, stroke_dasharray="3,2"))
            else:
                cell.append(dw.Rectangle(cx, ty, 80, 40, rx=4, fill=_fill(tile), stroke=INK))
                cell.append(
                    text(cx + 40, ty + 24, f"{tile} project", size=9.5, anchor="middle", fill=COLOUR_INK.get(tile, INK))
                )
            cell.append(text(cx - 6, ty + 24, f"row {r}", size=8, anchor="end", fill=MUTED))
            g.append(cell)
    py = y + 56 + rows * 48
    left = ", ".join(f"{n} {colour}" for colour, n in zip(c.colours, state.project_pile, strict=True))
    g.append(
        text(
            x + 10,
            py,
            f"Project pile: {left}",
            size=9.5,
            class_="project-pile",
            data_counts=",".join(map(str, state.project_pile)),
        )
    )
    gone = sum(state.project_discard)
    g.append(text(x + 10, py + 14, f"Project discards: {gone}", size=9.5, fill=MUTED))
    return g


def _finance(x: float, y: float, state: BotFactoryState, c: Components) -> dw.Group:
    g = dw.Group(class_="finance")
    f = c.finance
    g.append(text(x + 10, y + 14, "Bot values", size=10.5, weight="bold"))
    steps = f.track_max + 1
    step_w = (BOARD_W - 40) / steps
    ty = y + 24
    for v in range(steps):
        vx = x + 20 + v * step_w
        line = v in f.lines
        g.append(dw.Rectangle(vx, ty, step_w - 2, 60, fill="#fff3d6" if line else "#ffffff", stroke=RULE))
        g.append(text(vx + step_w / 2 - 1, ty + 72, str(v), size=8.5, anchor="middle", fill=MUTED))
        if line:
            reward = f.line_rewards[f.lines.index(v)]
            g.append(text(vx + step_w / 2 - 1, ty + 82, reward, size=7, anchor="middle", fill="#a04000"))
    for k, colour in enumerate(c.colours):
        value = state.values[k]
        vx = x + 20 + min(max(value, 0), f.track_max) * step_w + step_w / 2 - 1
        marker = dw.Group(class_="value-marker", data_colour=colour, data_value=str(value))
        marker.append(dw.Title(f"{colour} bot value {value}"))
        marker.append(dw.Circle(vx, ty + 9 + k * 14, 6, fill=_fill(colour), stroke=INK))
        g.append(marker)
    g.append(text(x + 10, y + 124, "Contracts (face up)", size=10.5, weight="bold"))
    contracts = {k.id: k for k in c.contracts}
    for slot, cid in enumerate(state.display):
        cx = x + 10 + (slot % 4) * 82
        cy = y + 132 + (slot // 4) * 96
        card = dw.Group(
            class_="contract",
            data_slot=str(slot),
            data_contract="" if cid is None else str(cid),
            data_reserved=",".join(str(s) for s in state.reserved[slot]) if slot < len(state.reserved) else "",
        )
        card.append(box(cx, cy, 76, 88, fill="#ffffff" if cid is not None else "#eeeeee", stroke=INK, rx=4))
        if cid is None:
            card.append(text(cx + 38, cy + 46, "empty", size=9, anchor="middle", fill=MUTED))
        else:
            contract = contracts[cid]
            card.append(text(cx + 5, cy + 13, f"contract {cid}", size=8.5, weight="bold"))
            dx = cx + 10
            for colour in c.colours:
                for _ in range(contract.needs.get(colour, 0)):
                    card.append(dw.Circle(dx, cy + 26, 6, fill=_fill(colour), stroke=INK))
                    dx += 15
            card.append(text(cx + 5, cy + 46, f"{contract.points} points", size=9))
            seats = state.reserved[slot] if slot < len(state.reserved) else ()
            for j, cost in enumerate(f.reservation_costs):
                sx = cx + 5 + j * 36
                card.append(dw.Rectangle(sx, cy + 54, 32, 28, rx=3, fill="#f4f4f4", stroke=MUTED))
                card.append(text(sx + 3, cy + 63, f"cost {cost}", size=6.5, fill=MUTED))
                if j < len(seats):
                    seat = seats[j]
                    card.append(dw.Circle(sx + 16, cy + 73, 6, fill=SEAT_FILL[seat % len(SEAT_FILL)]))
                    card.append(text(sx + 16, cy + 76, f"{seat + 1}", size=7, anchor="middle", fill="#ffffff"))
        g.append(card)
    g.append(
        text(
            x + 10,
            y + 132 + ((len(state.display) + 3) // 4) * 96 + 10,
            f"Contracts face down: {len(state.contract_pool)}",
            size=9.5,
            fill=MUTED,
        )
    )
    return g


def _hand(
    x: float, y: float, w: float, seat: int, hand: Hand, state: BotFactoryState, acting: bool, end: Ending | None
) -> dw.Group:
    g = dw.Group(
        class_="player",
        data_seat=str(seat),
        data_tokens=str(hand.tokens),
        data_supply=str(state.supply[seat]),
        data_parts=",".join(hand.parts),
        data_projects=",".join(hand.projects),
        data_done=",".join(hand.done),
    )
    g.append(
        box(
            x,
            y,
            w,
            150,
            fill="#fffbe6" if acting else PANEL,
            stroke=INK if acting else RULE,
            stroke_width=2 if acting else 1,
        )
    )
    fill = SEAT_FILL[seat % len(SEAT_FILL)]
    g.append(dw.Circle(x + 16, y + 16, 7, fill=fill))
    title = f"Player {seat + 1}" + (" \u2014 to move" if acting else "")
    if end is not None:
        title += f" \u2014 final score {end.scores[seat]}" + (" \u2014 winner" if seat in end.winners else "")
    g.append(text(x + 28, y + 20, title, size=12, weight="bold"))
    g.append(
        text(
            x + 10,
            y + 40,
            f"Speech tokens: {hand.tokens} held, {state.supply[seat]} in the supply",
            size=10,
            class_="tokens",
        )
    )
    g.append(text(x + 10, y + 60, "Parts:", size=10))
    for k, part in enumerate(hand.parts):
        g.append(_part(x + 50 + k * 26, y + 47, part, f"player {seat} part {k}", size=20))
    g.append(text(x + 10, y + 88, "Projects:", size=10))
    for k, colour in enumerate(hand.projects):
        px = x + 66 + k * 30
        g.append(
            dw.Rectangle(
                px,
                y + 76,
                26,
                18,
                rx=3,
                fill=_fill(colour),
                stroke=INK,
                class_="project",
                data_colour=colour,
                data_at=f"player {seat} project {k}",
            )
        )
    g.append(text(x + 10, y + 116, "Completed:", size=10))
    for k, colour in enumerate(hand.done):
        px = x + 76 + k * 30
        g.append(
            dw.Rectangle(
                px,
                y + 104,
                26,
                18,
                rx=3,
                fill=_fill(colour),
                stroke=INK,
                class_="done",
                data_colour=colour,
                data_at=f"player {seat} done {k}",
            )
        )
        g.append(_bot(px + 13, y + 113, colour, f"player {seat} done"))
    g.append(text(x + 10, y + 140, "(each completed Project holds a bot of its colour)", size=8, fill=MUTED))
    return g


def _bot(x: float, y: float, colour: str, place: str) -> dw.Group:
    """A bot meeple of ``colour`` (a head over a body) on a completed Project; ``place``: whose."""
    g = dw.Group(class_="bot", data_colour=colour, data_place=place)
    g.append(dw.Rectangle(x - 3, y - 7, 6, 5, rx=1, fill=_fill(colour), stroke="#ffffff", stroke_width=0.8))
    g.append(dw.Rectangle(x - 5, y - 2, 10, 8, rx=1.5, fill=_fill(colour), stroke="#ffffff", stroke_width=0.8))
    return g


MAIN_WORDS = {
    "share": "Sandra's toll not yet settled",
    "extra": "the last space's extra token not yet settled",
    "open": "main action open",
    "closed": "main action taken",
}


def _mover(game: Any, state: BotFactoryState) -> Any:
    return None if game.is_terminal(state) else game.to_move(state)


def _board_height(c: Components) -> int:
    """The boards' height: room for the tallest board's contents under its action spaces."""
    contract_rows = (c.finance.contracts_face_up + 3) // 4
    finance = 132 + contract_rows * 96 + 30
    projects = 80 + c.boards.project_rows * 48
    return 98 + max(finance, projects, 240)


def draw_botfactory(game: Any, state: BotFactoryState) -> str:
    """The picture of a Bot Factory state (``game``: its :class:`bgrules.botfactory.game.BotFactoryGame`)."""
    c: Components = game.variant.components
    n = len(state.hands)
    width = 4 * BOARD_W + 5 * 10
    hand_w = (width - 10 * (n + 1)) / n
    board_h = _board_height(c)
    height = BOARDS_Y + board_h + 20 + 150 + 50
    d = document(width, height, "Bot Factory")
    mover = _mover(game, state)
    end = ending(game, state)
    who = "chance to move" if mover is CHANCE else f"Player {int(mover) + 1} to move" if mover is not None else ""
    phase = PHASE_WORDS.get(state.phase.value, state.phase.value)
    words = "game over" if end is not None else f"{phase}; {who}"
    d.append(
        text(
            10,
            26,
            f"Bot Factory \u2014 {n} players, round {state.round}: {words}",
            size=16,
            weight="bold",
            class_="heading",
            data_round=str(state.round),
            data_phase=state.phase.value,
        )
    )
    order = " \u2192 ".join(f"P{s + 1}" for s in state.order)
    extra = f"action order {order}"
    if state.turn is not None:
        extra += f"; actions left {state.turn.left}, {MAIN_WORDS.get(state.turn.main, state.turn.main)}"
        if state.turn.prompt:
            extra += f"; offered: {' '.join(state.turn.prompt)}"
    if state.discarder is not None:
        extra += f"; Player {state.discarder + 1} discards"
    if state.window:
        extra += "; additional actions window: " + ", ".join(f"P{s + 1}" for s in state.window)
    if state.draws:
        extra += f"; {len(state.draws)} draw(s) pending"
    if end is not None:
        trigger = {"BF-END-COLOUR": "a colour's bots all built", "BF-END-FIFTH": "a player's fifth bot"}.get(
            end.trigger or "", "the round cap (max_rounds)"
        )
        d.append(result_text(10, 46, end, size=11.5))
        extra = f"the game ended on {trigger} ({end.trigger})"
        d.append(text(width - 10, 26, extra, size=10.5, anchor="end", fill=MUTED, class_="trigger"))
    else:
        d.append(text(10, 46, extra, size=11, fill=MUTED))
    drawers = (_assembly, _wheel, _projects, _finance)
    for b, name in enumerate(BOARDS):
        bx = 10 + b * (BOARD_W + 10)
        board = dw.Group(class_="board", data_board=name)
        board.append(box(bx, BOARDS_Y, BOARD_W, board_h, fill=PANEL, stroke=INK, rx=6))
        board.append(text(bx + 10, BOARDS_Y + 20, BOARD_TITLES[name] + " board", size=13, weight="bold"))
        spaces, h = _spaces(bx, BOARDS_Y + 28, b, state, c, game)
        board.append(spaces)
        board.append(drawers[b](bx, BOARDS_Y + 28 + h, state, c))
        d.append(board)
    hy = BOARDS_Y + board_h + 20
    for seat, hand in enumerate(state.hands):
        d.append(_hand(10 + seat * (hand_w + 10), hy, hand_w, seat, hand, state, mover == seat, end))
    ly = hy + 150 + 30
    d.append(
        text(
            10,
            ly,
            "Colours: red, yellow, blue, green bots, parts and Project tiles; white: Universal parts; "
            "H/T/L: Head/Torso/Legs; \u2605 a marked or icon space; P1-P4 workers, Sandra in red.",
            size=10,
            fill=MUTED,
        )
    )
    return finish(d)
