"""Action contracts of Mechanica (the whole game): each rule's effect on the state, recomputed from the seed
(seed 003_56950de1fac7652e.txt) and the variant's component data, step by step (the specs of
specs/mechanica-contracts.toml, bgrules issue 22).

Each predicate is a transition predicate ``(game, before, action, after) -> str | None``: it reads the two
states' fields and the figures, never the engine function it checks, works out what the rule does to
``before`` and compares that with ``after`` (None: as expected; else what was expected and what happened).
A step is one ``apply``: an action with the automatic steps after it (the Shop's turn after the last gift,
the runs of a new day, the day's end), so a contract checks the fields its rule changes.

Figures: a number the seed states (the pinned table :data:`bgrules.mechanica.figures.FIGURES`: the Shop's
prices, the sales, the Fork's and the trucks' prices and capacities, the start money) is checked at the
seed's value when the game runs the default variant (``variant.source == "default"``), at the variant's own
value otherwise (a corrected component file changes the figure, the contract still checks the rule's
shape); a figure that is component data only (a Blueprint's value, a tile's recycle grade) is read from
``game.variant``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from bgrules.core.observe import observes
from bgrules.mechanica.components import Bot
from bgrules.mechanica.fabricate import Fabricate, Sell
from bgrules.mechanica.figures import FIGURES
from bgrules.mechanica.game import MechanicaGame
from bgrules.mechanica.sandbox import Demolish, DemolishFabricator
from bgrules.mechanica.state import (
    Buy,
    BuyFork,
    BuyTruck,
    Complete,
    Decline,
    Draw,
    Gift,
    MechanicaState,
    Next,
    Phase,
    Place,
    PlaceFabricator,
    Recycle,
)

_SEED = {f.name: f.seed for f in FIGURES}
_GRADES = ("basic", "plus", "deluxe")
_STEP_FOUR = (Phase.RECYCLE, Phase.DRAW, Phase.EXTRA, Phase.TURN_END)
"""The phases of the Shop's turn, the turn's step (4), before the next seat's turn."""


def _default(game: MechanicaGame) -> bool:
    return getattr(game.variant, "source", "default") == "default"


def _figure(game: MechanicaGame, name: str, variant: Any) -> Any:
    """The seed's figure ``name`` for the default variant, the variant's for any other (module docstring)."""
    return _SEED[name] if _default(game) else variant


def _tile_figure(game: MechanicaGame, key: str, field: str, name: str) -> int | None:
    tile = game.variant.catalogue.tiles.get(key)
    value: int | None = _figure(game, name, None if tile is None else getattr(tile, field))
    return value


def _prices(game: MechanicaGame) -> tuple[int, ...]:
    """MC-SHOP-BUY: 価格は回転板に書いてある７，５，４，３，２コインです (seed line 91)."""
    prices: tuple[int, ...] = tuple(_figure(game, "shop_prices", tuple(game.variant.game.prices)))
    return prices


def _sale(game: MechanicaGame, bot: Bot) -> int:
    """MC-SELL: 白ボットは２コイン，橙ボットは４コイン，紫ボットは６コイン (seed line 89)."""
    sales = _figure(game, "bot_sales", tuple(game.variant.catalogue.bots[g].sale for g in _GRADES))
    sale: int = sales[int(bot)]
    return sale


def _money(before: MechanicaState, after: MechanicaState, seat: int, wallet: int, vault: int, what: str) -> str | None:
    """The seat's wallet and vault are ``wallet`` and ``vault``; every other seat's money unchanged."""
    got = (after.seats[seat].wallet, after.seats[seat].vault)
    if got != (wallet, vault):
        was = (before.seats[seat].wallet, before.seats[seat].vault)
        return (
            f"{what}: player {seat}'s wallet and vault should be {wallet} and {vault}; they are {got[0]} and "
            f"{got[1]} (before: {was[0]} and {was[1]})"
        )
    for other, (b, a) in enumerate(zip(before.seats, after.seats, strict=True)):
        if other != seat and (a.wallet, a.vault) != (b.wallet, b.vault):
            return f"{what}: player {other}'s money changed ({b.wallet}, {b.vault} -> {a.wallet}, {a.vault})"
    return None


def _in_turn(before: MechanicaState) -> bool:
    """A decision of the current player's turn (not chance, not a run, not another player's gift)."""
    return before.phase in (Phase.SELL, Phase.BUY, Phase.PLACE, Phase.FABRICATE, Phase.RECYCLE, Phase.TURN_END)


# --- the contracts -----------------------------------------------------------------------------------


def start_money(game: MechanicaGame, before: MechanicaState, action: Any, after: MechanicaState) -> str | None:
    """MC-SETUP-SEATS: every player starts with coins of 5, 1, 1 and 1 (５，１，１，１のコインを手元に持ちます) in
    the wallet and an empty vault: checked on every step of the set-up, before the first day's runs."""
    if before.phase not in (Phase.SETUP_EXTRAS, Phase.SETUP_DEAL) or before.day != 1:
        return None
    money = sum(_figure(game, "start_money", tuple(game.variant.game.money)))
    got = [(s.wallet, s.vault) for s in before.seats]
    if any(m != (money, 0) for m in got):
        return f"at set-up every wallet should hold {money} and every vault 0; they hold {got}"
    return None


def shop_price(game: MechanicaGame, before: MechanicaState, action: Any, after: MechanicaState) -> str | None:
    """MC-SHOP-BUY: a purchase pays its slot's price (7, 5, 4, 3, 2 by slot) from the buyer's wallet, takes the
    tile off the wheel and holds it to be installed or recycled at once."""
    if not isinstance(action, Buy):
        return None
    seat = before.current
    price = _prices(game)[action.slot]
    kind = before.wheel[action.slot]
    bad = _money(
        before,
        after,
        seat,
        before.seats[seat].wallet - price,
        before.seats[seat].vault,
        f"{action!r} (slot price {price})",
    )
    if bad:
        return bad
    wheel = tuple(None if i == action.slot else w for i, w in enumerate(before.wheel))
    if (after.wheel, after.pending, after.phase) != (wheel, kind, Phase.PLACE):
        return (
            f"{action!r}: the wheel {list(before.wheel)} should become {list(wheel)} with {kind} waiting to be "
            f"installed or recycled; it is {list(after.wheel)}, pending {after.pending}, phase {after.phase.value}"
        )
    return None


def fork_price(game: MechanicaGame, before: MechanicaState, action: Any, after: MechanicaState) -> str | None:
    """MC-FORK-BUY: a Fork from the box costs 1 (分岐タイルを箱から購入する。価格は１。) and stands where bought."""
    if not isinstance(action, BuyFork):
        return None
    seat = before.current
    price = _tile_figure(game, "fork", "price", "fork_price") or 0
    bad = _money(
        before,
        after,
        seat,
        before.seats[seat].wallet - price,
        before.seats[seat].vault,
        f"{action!r} (a Fork costs {price})",
    )
    if bad:
        return bad
    cell = after.seats[seat].factory.at(action.row, action.col)
    if cell is None or cell.kind != "fork" or cell.rotation != action.rotation:
        return f"{action!r}: a Fork turned {action.rotation} should stand at ({action.row}, {action.col}), not {cell}"
    return None


def truck_price(game: MechanicaGame, before: MechanicaState, action: Any, after: MechanicaState) -> str | None:
    """MC-TRUCK-BUY, MC-PLACE-TRUCK: a Big Truck costs 3 and carries 2 bots, a Huge Truck costs 5 and carries 3,
    a Big Truck replaced by a Huge one costs 3 (大型から巨大への置き換えは価格３です); the truck goes on its row
    with the load kept."""
    if not isinstance(action, BuyTruck):
        return None
    seat = before.current
    old = before.seats[seat].factory.dock[action.row]
    if action.kind == "huge_truck" and old.kind == "big_truck":
        price = _tile_figure(game, "huge_truck", "upgrade_price", "big_to_huge_price")
    else:
        price = _tile_figure(game, action.kind, "price", f"{action.kind}_price")
    assert price is not None
    bad = _money(
        before,
        after,
        seat,
        before.seats[seat].wallet - price,
        before.seats[seat].vault,
        f"{action!r} over a {old.kind} (price {price})",
    )
    if bad:
        return bad
    new = after.seats[seat].factory.dock[action.row]
    if new.kind != action.kind or Counter(new.load) != Counter(old.load):
        return f"{action!r}: row {action.row} should hold a {action.kind} with the load {old.load}, not {new}"
    capacity = game.variant.catalogue.tiles[new.kind].capacity
    want = _tile_figure(game, action.kind, "capacity", f"{action.kind}_capacity")
    if capacity != want:
        return f"{action!r}: the {action.kind} now on row {action.row} carries {capacity} bots, the seed {want}"
    return None


def sale(game: MechanicaGame, before: MechanicaState, action: Any, after: MechanicaState) -> str | None:
    """MC-SELL: a bot sold from a truck goes back to the stock and pays 2 (Basic), 4 (Plus) or 6 (Deluxe) coins
    into the seller's wallet."""
    if not isinstance(action, Sell):
        return None
    seat = before.current
    coins = _sale(game, action.bot)
    bad = _money(
        before,
        after,
        seat,
        before.seats[seat].wallet + coins,
        before.seats[seat].vault,
        f"{action!r} (a {action.bot.name.title()} bot sells for {coins})",
    )
    if bad:
        return bad
    load = Counter(before.seats[seat].factory.dock[action.row].load)
    load[action.bot] -= 1
    stock = tuple(n + (1 if g == action.bot else 0) for g, n in enumerate(before.stock))
    now = after.seats[seat].factory.dock[action.row].load
    if Counter(now) != +load or after.stock != stock:
        return f"{action!r}: the truck's load {list(now)} and the stock {after.stock} (expected {stock})"
    return None


def blueprint_reward(game: MechanicaGame, before: MechanicaState, action: Any, after: MechanicaState) -> str | None:
    """MC-BP-COMPLETE, MC-BP-TURN: completing a Blueprint returns its bots from the trucks to the stock and pays
    its coins into the vault (設計図の右下に示されたコイン...金庫に入れます); the face-up cards turn sideways
    (both, or the completed one: ruling ``blueprint_turn``)."""
    if not isinstance(action, Complete):
        return None
    seat = before.current
    card_id = before.bp_top[action.pile]
    assert card_id is not None
    card = next(b for b in game.variant.game.blueprints if b.id == card_id)
    bad = _money(
        before,
        after,
        seat,
        before.seats[seat].wallet,
        before.seats[seat].vault + card.value,
        f"{action!r} (Blueprint {card_id} pays {card.value})",
    )
    if bad:
        return bad
    taken = Counter(bot for _row, bot in action.take)
    stock = tuple(n + taken[Bot(g)] for g, n in enumerate(before.stock))
    if after.stock != stock or card_id not in after.seats[seat].completed:
        return f"{action!r}: the stock {after.stock} (expected {stock}), completed {after.seats[seat].completed}"
    if game.variant.rulings.blueprint_turn == "both":
        turned = tuple(t or top is not None for t, top in zip(before.bp_turned, before.bp_top, strict=True))
    else:
        turned = tuple(t or i == action.pile for i, t in enumerate(before.bp_turned))
    if after.bp_turned != turned:
        return f"{action!r}: the cards turned {list(after.bp_turned)}, expected {list(turned)}"
    return None


def _made_any(game: MechanicaGame, before: MechanicaState, after: MechanicaState, action: Fabricate) -> list[Bot]:
    """The bots the current player's Overactive Fabricators made, top row first: a making hole empty (or
    emptied by ``replace``) that now holds the declared grade."""
    cat = game.variant.catalogue
    old, new = before.seats[before.current].factory, after.seats[before.current].factory
    declared = iter(action.declare)
    made = []
    for row, slot in enumerate(old.start):
        if cat.tile(slot.kind).makes != "any":
            continue
        bot = next(declared)
        if (slot.holes[0] is None or row in action.replace) and new.start[row].holes[0] == bot:
            made.append(bot)
    return made


def gift_receivers(game: MechanicaGame, before: MechanicaState, action: Any, after: MechanicaState) -> str | None:
    """MC-FAB-OVERACTIVE: each Plus or Deluxe bot an Overactive Fabricator made offers each other player, in seat
    order from the next one, a gift of a lower bot (他のプレイヤーはそれより下位のボット１体を製作でき); a gift
    goes into the receiver's own Start Zone hole, nobody else's board changing."""
    n = game.players
    if isinstance(action, Fabricate) and before.phase is Phase.FABRICATE:
        want = tuple(
            ((before.current + k) % n, bot)
            for bot in _made_any(game, before, after, action)
            if bot > Bot.BASIC
            for k in range(1, n)
        )
        got = after.gifts if after.phase is Phase.GIFT else ()
        if got != want:
            return f"{action!r}: the gifts offered should be {list(want)} (receiver, declared), not {list(got)}"
        return None
    if not isinstance(action, Gift | Decline) or before.phase is not Phase.GIFT:
        return None
    player, declared = before.gifts[0]
    if after.gifts[:1] != before.gifts[1:2] and after.phase is Phase.GIFT:
        return f"{action!r}: the next gift should be {before.gifts[1:2]}, not {after.gifts[:1]}"
    for seat, (b, a) in enumerate(zip(before.seats, after.seats, strict=True)):
        if seat != player and a.factory.start != b.factory.start:
            return f"{action!r}: player {player} receives the gift, yet player {seat}'s Start Zone changed"
    if isinstance(action, Gift):
        if action.bot >= declared:
            return f"{action!r}: a gift lower than the declared {declared.name.title()} bot"
        hole = after.seats[player].factory.start[action.row].holes[action.hole]
        if hole != action.bot and before.stock[action.bot] > 0:
            return f"{action!r}: player {player}'s hole ({action.row}, {action.hole}) should hold it, not {hole}"
    return None


def shop_turn(game: MechanicaGame, before: MechanicaState, action: Any, after: MechanicaState) -> str | None:
    """MC-SHOP-ROTATE, MC-SHOP-RECYCLE, MC-SHOP-DRAW, MC-SHOP-DOUBLE: after fabricating (and the gifts) the Shop
    turns one slot to the cheaper prices, the price-2 tile falling into the Recycler (the current player
    places its bot: ruling ``shop_recycle``); the draw goes onto price 7; with 2-3 players, a wheel holding
    only that tile turns once more (an extra then comes onto price 7)."""
    turned = (isinstance(action, Fabricate) and before.phase is Phase.FABRICATE and after.phase is not Phase.GIFT) or (
        isinstance(action, Gift | Decline) and len(before.gifts) == 1
    )
    if turned:
        wheel = (None, *before.wheel[:-1])
        fallen = before.wheel[-1]
        if fallen is not None and game.variant.rulings.shop_recycle == "current":
            if (after.phase, after.wheel, after.fallen) != (Phase.RECYCLE, wheel, fallen):
                return (
                    f"{action!r}: the Shop {list(before.wheel)} should turn to {list(wheel)}, the {fallen} falling "
                    f"for the player to recycle; it is {list(after.wheel)}, phase {after.phase.value}"
                )
            return None
        recycler = list(before.recycler)
        if fallen is not None:
            recycler[game.kinds.index(fallen)] += 1
        draw = bool(sum(before.deck))  # with an empty deck nothing is drawn and price 7 stays empty
        if after.wheel != wheel or (draw and after.phase is not Phase.DRAW):
            return (
                f"{action!r}: the Shop {list(before.wheel)} should turn to {list(wheel)}"
                f"{', then the draw' if draw else ''}; it is {list(after.wheel)}, phase {after.phase.value}"
            )
        if tuple(recycler) != after.recycler:
            return f"{action!r}: the Recycler {list(after.recycler)} should be {recycler} ({fallen} fell)"
        return None
    if isinstance(action, Draw) and before.phase is Phase.DRAW:
        wheel = (action.kind, *before.wheel[1:])
        deck = list(before.deck)
        deck[game.kinds.index(action.kind)] -= 1
        if tuple(deck) != after.deck:
            return f"{action!r}: the deck {list(after.deck)} should be {deck}"
        doubles = game.players in (2, 3) and all(w is None for w in wheel[1:])
        if doubles:
            wheel = (None, *wheel[:-1])
        if after.wheel != wheel and not (doubles and after.wheel[1:] == wheel[1:]):
            return (
                f"{action!r}: the draw goes onto price 7{' and the Shop turns again' if doubles else ''}: "
                f"{list(wheel)}, not {list(after.wheel)}"
            )
    return None


def turn_steps(game: MechanicaGame, before: MechanicaState, action: Any, after: MechanicaState) -> str | None:
    """MC-TURN-ORDER, MC-DAY: a turn's steps come in the seed's order ((1)～（４）を順に行います): ``Next`` closes
    selling (to buying), then buying (to fabricating); fabricating leads to the gifts or the Shop's turn;
    the turn's last ``Next`` passes to the next seat, and after the last seat a new day (or the end)."""
    if isinstance(action, Next) and _in_turn(before):
        if before.phase is Phase.SELL and after.phase is not Phase.BUY:
            return f"Next() after selling should open buying, not {after.phase.value}"
        if before.phase is Phase.BUY and after.phase is not Phase.FABRICATE:
            return f"Next() after buying should open fabricating, not {after.phase.value}"
        if before.phase is Phase.TURN_END:
            last = before.current == game.players - 1
            if not last and (after.current, after.phase, after.day) != (before.current + 1, Phase.SELL, before.day):
                return (
                    f"Next() ends player {before.current}'s turn: player {before.current + 1} sells next on day "
                    f"{before.day}; it is player {after.current}, {after.phase.value}, day {after.day}"
                )
            if last and not (after.day == before.day + 1 or after.phase is Phase.OVER):
                return f"Next() ends the day's last turn: a new day (or the end) should follow, not day {after.day}"
        return None
    fabricated = isinstance(action, Fabricate) and before.phase is Phase.FABRICATE
    if fabricated and after.phase not in (Phase.GIFT, *_STEP_FOUR) and after.current == before.current:
        return f"{action!r}: the gifts or the Shop's turn should follow fabricating, not {after.phase.value}"
    return None


def _put(stock: tuple[int, ...], old: Bot | None, bot: Bot) -> tuple[tuple[int, ...], Bot | None]:
    """MC-FAB-REPLACE, MC-STOCK: a bot made into a hole holding ``old``: the old bot back to the stock, then
    the new one from it if the stock has one (else the hole stays empty)."""
    s = list(stock)
    if old is not None:
        s[old] += 1
    if s[bot] > 0:
        s[bot] -= 1
        return tuple(s), bot
    return tuple(s), None


def placement(game: MechanicaGame, before: MechanicaState, action: Any, after: MechanicaState) -> str | None:
    """MC-PLACE, MC-PLACE-ROT, MC-PLACE-START, MC-RECYCLE, MC-SHOP-RECYCLE: the bought tile is installed where
    and as turned as chosen (a fabricator tile on its Start Zone row), or recycled: the tile into the
    Recycler and one bot of its recycle grade (``recycle`` in the component data) from the stock into the
    chosen Start Zone hole, a bot already there back to the stock; a tile fallen from the Shop is recycled
    alike by the current player."""
    if before.phase not in (Phase.PLACE, Phase.RECYCLE) or not isinstance(action, Place | PlaceFabricator | Recycle):
        return None
    seat = before.current
    key = before.pending if before.phase is Phase.PLACE else before.fallen
    assert key is not None
    factory = after.seats[seat].factory
    if after.pending is not None or after.fallen is not None:
        return f"{action!r}: the {key} should no longer wait (pending {after.pending}, fallen {after.fallen})"
    if isinstance(action, Place):
        cell = factory.at(action.row, action.col)
        if cell is None or (cell.kind, cell.rotation) != (key, action.rotation):
            where = f"({action.row}, {action.col})"
            return f"{action!r}: the {key} turned {action.rotation} should stand at {where}, not {cell}"
        return None
    if isinstance(action, PlaceFabricator):
        if factory.start[action.row].kind != key:
            there = factory.start[action.row].kind
            return f"{action!r}: the {key} should stand on Start Zone row {action.row}, not {there}"
        return None
    bot = Bot[game.variant.catalogue.tiles[key].recycle.upper()]
    old = before.seats[seat].factory.start[action.row].holes[action.hole]
    stock, hole = _put(before.stock, old, bot)
    recycler = list(before.recycler)
    recycler[game.kinds.index(key)] += 1
    got = factory.start[action.row].holes[action.hole]
    if (after.stock, got, after.recycler) != (stock, hole, tuple(recycler)):
        return (
            f"{action!r}: recycling the {key} makes a {bot.name.title()} bot into hole ({action.row}, {action.hole}) "
            f"(holding {old}): expected the hole {hole}, stock {stock}, Recycler {recycler}; got {got}, "
            f"{after.stock}, {list(after.recycler)}"
        )
    return None


def demolition(game: MechanicaGame, before: MechanicaState, action: Any, after: MechanicaState) -> str | None:
    """MC-DEMOLISH: a demolished tile leaves the board, an improvement into the Recycler (a Fork back to the
    box), its bots destroyed back to the stock."""
    if not isinstance(action, Demolish | DemolishFabricator):
        return None
    seat = before.current
    old, new = before.seats[seat].factory, after.seats[seat].factory
    if isinstance(action, Demolish):
        placed = old.at(action.row, action.col)
        assert placed is not None
        kind, bots = placed.kind, [*placed.inputs, *(b for b in placed.outputs if b is not None)]
        if new.at(action.row, action.col) is not None:
            return f"{action!r}: ({action.row}, {action.col}) should be empty, not {new.at(action.row, action.col)}"
    else:
        slot = old.start[action.row]
        kind, bots = slot.kind, [b for b in slot.holes if b is not None]
        if new.start[action.row].kind == kind:
            return f"{action!r}: the {kind} should leave Start Zone row {action.row}"
    stock = tuple(n + sum(1 for b in bots if b == g) for g, n in enumerate(before.stock))
    recycler = list(before.recycler)
    if kind in game.kinds:
        recycler[game.kinds.index(kind)] += 1
    if (after.stock, after.recycler) != (stock, tuple(recycler)):
        return (
            f"{action!r}: the {kind}'s bots {bots} back to the stock {stock} and the tile to the Recycler "
            f"{recycler}; got {after.stock} and {list(after.recycler)}"
        )
    return None


def fabrication(game: MechanicaGame, before: MechanicaState, action: Any, after: MechanicaState) -> str | None:
    """MC-FAB, MC-FAB-REPLACE: every fabricator, top row first, takes one bot of its grade from the stock into
    its making hole (製作機すべてについて，ストックからボットを１つ取って): Basic for the Basic and Advanced
    Fabricators, the declared grade for an Overactive one; an occupied making hole makes nothing unless
    its row is replaced (its bot back to the stock first); a grade the stock lacks is not made."""
    if not isinstance(action, Fabricate) or before.phase is not Phase.FABRICATE:
        return None
    cat = game.variant.catalogue
    old, new = before.seats[before.current].factory, after.seats[before.current].factory
    stock: tuple[int, ...] = before.stock
    declared = iter(action.declare)
    holes = []
    for row, slot in enumerate(old.start):
        makes = cat.tile(slot.kind).makes
        if not makes:
            holes.append(slot.holes[0] if slot.holes else None)
            continue
        bot = next(declared) if makes == "any" else Bot[makes.upper()]
        hole = slot.holes[0]
        if hole is None or row in action.replace:
            stock, hole = _put(stock, hole, bot)
        holes.append(hole)
    got = [s.holes[0] if s.holes else None for s in new.start]
    if (got, after.stock) != (holes, stock):
        return (
            f"{action!r}: the making holes {[s.holes[:1] for s in old.start]} should hold {holes} with the stock "
            f"{stock}; they hold {got} with {after.stock}"
        )
    return None


def day_end(game: MechanicaGame, before: MechanicaState, action: Any, after: MechanicaState) -> str | None:
    """MC-BP-DAYEND, MC-END, MC-DAY: at the end of a day (after the last turn) every Blueprint turned sideways
    goes under its own pile (横に倒れている設計図カードを設計図の山のボトムに戻し) and none stays turned; the game
    ends then if the deck and the Shop are empty, and only then; otherwise a new day begins."""
    ended = after.phase is Phase.OVER and before.phase is not Phase.OVER
    if not ended and after.day == before.day:
        return None
    empty = not sum(after.deck) and all(w is None for w in after.wheel)  # neither changes at the day's end
    if ended != empty:
        return f"day {before.day} ends with the deck {list(after.deck)} and the Shop {list(after.wheel)}: " + (
            "the game should end" if empty else "the game should go on"
        )
    if any(after.bp_turned):
        return f"after day {before.day} no Blueprint should stay turned: {list(after.bp_turned)}"
    for pile, (top, turned) in enumerate(zip(before.bp_top, before.bp_turned, strict=True)):
        bottom = (*before.bp_bottom[pile], top) if turned and top is not None else before.bp_bottom[pile]
        kept = after.bp_top[pile] if not (turned and top is not None) else None
        came_up = after.bp_top[pile] is not None and bottom[:1] == (after.bp_top[pile],)
        if (turned and top is not None) and not (
            (after.bp_bottom[pile], after.bp_top[pile]) == (bottom, None)
            or (came_up and after.bp_bottom[pile] == bottom[1:])
            or (after.bp_bottom[pile] == bottom and after.bp_top[pile] is not None)
        ):
            return (
                f"after day {before.day} the turned Blueprint {top} should go under pile {pile}: "
                f"{list(bottom)}; the pile shows {after.bp_top[pile]} over {list(after.bp_bottom[pile])}"
            )
        if not (turned and top is not None) and (after.bp_bottom[pile], kept) != (before.bp_bottom[pile], top):
            return f"after day {before.day} pile {pile}'s untouched Blueprint {top} should stay on top"
    return None


# --- what each contract reads (bgrules.core.observe) -------------------------------------------------------


def _reads_money(game: MechanicaGame, before: MechanicaState, action: Any, after: MechanicaState) -> dict[str, Any]:
    return {
        "action": repr(action),
        "player": before.current,
        "phase": before.phase.value,
        "wallets before": [s.wallet for s in before.seats],
        "wallets after": [s.wallet for s in after.seats],
        "vaults before": [s.vault for s in before.seats],
        "vaults after": [s.vault for s in after.seats],
    }


def _reads_shop(game: MechanicaGame, before: MechanicaState, action: Any, after: MechanicaState) -> dict[str, Any]:
    return {
        "action": repr(action),
        "player": before.current,
        "phase before": before.phase.value,
        "phase after": after.phase.value,
        "Shop before": list(before.wheel),
        "Shop after": list(after.wheel),
        "gifts after": [[p, int(b)] for p, b in after.gifts],
        "day": after.day,
    }


for _pred, _reader in (
    (start_money, _reads_money),
    (shop_price, _reads_money),
    (fork_price, _reads_money),
    (truck_price, _reads_money),
    (sale, _reads_money),
    (blueprint_reward, _reads_money),
    (gift_receivers, _reads_shop),
    (shop_turn, _reads_shop),
    (turn_steps, _reads_shop),
    (placement, _reads_shop),
    (demolition, _reads_shop),
    (fabrication, _reads_shop),
    (day_end, _reads_shop),
):
    observes(_reader)(_pred)
