"""Shared look of the pictures: colours, sizes, fonts and the small drawing helpers every picture uses.

Everything here is plain data or a pure function returning drawsvg elements; nothing keeps state, so the
same input always gives the same SVG text (no ids are generated: the pictures use no defs or markers).
"""

from __future__ import annotations

from typing import Any

import drawsvg as dw  # type: ignore[import-untyped]  # drawsvg ships no type information

from bgrules.mechanica.components import Bot

__all__ = [
    "BOT_FILL",
    "BOT_INK",
    "BOT_NAME",
    "FONT",
    "INK",
    "MUTED",
    "PANEL",
    "PAPER",
    "RULE",
    "bot_icon",
    "bot_legend",
    "bot_mark",
    "box",
    "document",
    "dw",
    "empty_hole",
    "finish",
    "hole",
    "text",
]

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
INK = "#222222"
MUTED = "#666666"
PAPER = "#ffffff"
PANEL = "#f7f7f4"
RULE = "#bbbbbb"

BOT_FILL: dict[Bot, str] = {Bot.BASIC: "#ffffff", Bot.PLUS: "#f28c28", Bot.DELUXE: "#8e44ad"}
"""Mechanica bot colours as in the box: Basic white, Plus orange, Deluxe purple."""
BOT_NAME: dict[Bot, str] = {Bot.BASIC: "Basic", Bot.PLUS: "Plus", Bot.DELUXE: "Deluxe"}
BOT_INK: dict[Bot, str] = {Bot.BASIC: INK, Bot.PLUS: INK, Bot.DELUXE: "#ffffff"}


def text(
    x: float, y: float, s: str, size: float = 11, anchor: str = "start", weight: str = "normal", **attrs: Any
) -> dw.Text:
    """One line of text, ``y`` its baseline."""
    fill = attrs.pop("fill", INK)
    return dw.Text(s, size, x, y, text_anchor=anchor, font_family=FONT, font_weight=weight, fill=fill, **attrs)


def box(x: float, y: float, w: float, h: float, fill: str = PANEL, stroke: str = RULE, **attrs: Any) -> dw.Rectangle:
    return dw.Rectangle(x, y, w, h, fill=fill, stroke=stroke, stroke_width=attrs.pop("stroke_width", 1), **attrs)


def bot_mark(x: float, y: float, bot: Bot, r: float = 8, at: str = "", place: str = "", **attrs: Any) -> dw.Group:
    """A Mechanica bot the state holds: a disc in its grade's colour with the grade's letter (B, P, D),
    ``<g class="bot" data-grade=... data-at=... data-place=...>``. ``at``: the hole (or spot) it is in;
    ``place``: the place of the state that holds it, without the hole's index ("cell 1 2 in", "truck 0",
    "moving 1 1 L", ...), so that the bots of a place can be counted (docs/pictures.md)."""
    g = dw.Group(class_="bot", data_grade=BOT_NAME[bot].lower(), data_at=at, data_place=place, **attrs)
    _disc(g, x, y, bot, r)
    g.append(dw.Title(f"{BOT_NAME[bot]} bot" + (f" ({at})" if at else "")))
    return g


def bot_icon(x: float, y: float, bot: Bot, r: float = 8, at: str = "", **attrs: Any) -> dw.Group:
    """A bot's grade drawn as a sign, not a bot the state holds (a legend, what a Blueprint asks for, the
    grade of a stock count): the same disc, ``<g class="bot-icon" data-grade=...>``."""
    g = dw.Group(class_="bot-icon", data_grade=BOT_NAME[bot].lower(), data_at=at, **attrs)
    _disc(g, x, y, bot, r)
    g.append(dw.Title(f"{BOT_NAME[bot]} bot" + (f" ({at})" if at else "")))
    return g


def _disc(g: dw.Group, x: float, y: float, bot: Bot, r: float) -> None:
    g.append(dw.Circle(x, y, r, fill=BOT_FILL[bot], stroke=INK, stroke_width=1.2))
    g.append(text(x, y + r * 0.42, bot.letter, size=r * 1.15, anchor="middle", weight="bold", fill=BOT_INK[bot]))


def empty_hole(x: float, y: float, r: float = 8, at: str = "") -> dw.Circle:
    return dw.Circle(
        x, y, r, fill="#e9e9e9", stroke=MUTED, stroke_width=1, stroke_dasharray="2,2", class_="hole", data_at=at
    )


def hole(x: float, y: float, bot: Bot | None, r: float = 8, at: str = "", place: str = "") -> dw.DrawingElement:
    """A hole, empty or holding ``bot`` (``place``: as for :func:`bot_mark`)."""
    return empty_hole(x, y, r, at) if bot is None else bot_mark(x, y, bot, r, at, place)


def bot_legend(x: float, y: float) -> dw.Group:
    """The legend of the bot grades (their colours, letters and English names)."""
    g = dw.Group(class_="legend", data_legend="bots")
    g.append(text(x, y, "Bots:", size=11, weight="bold"))
    cx = x + 42
    for bot in Bot:
        g.append(bot_icon(cx, y - 4, bot, r=7, at="legend"))
        g.append(text(cx + 11, y, f"{BOT_NAME[bot]} ({bot.letter})", size=11))
        cx += 84
    return g


def document(width: float, height: float, title: str) -> dw.Drawing:
    d = dw.Drawing(width, height, origin=(0, 0), font_family=FONT)
    d.append(dw.Title(title))
    d.append(dw.Rectangle(0, 0, width, height, fill=PAPER))
    return d


def finish(d: dw.Drawing) -> str:
    """The SVG document text (deterministic: drawsvg numbers ids only if elements ask for them)."""
    return str(d.as_svg())
