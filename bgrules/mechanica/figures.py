"""The Mechanica seed's figures (seed 003_56950de1fac7652e.txt, Japanese), pinned: see bgrules.core.figures."""

from __future__ import annotations

from typing import Any

from bgrules.core.figures import Figure

SEED = "003_56950de1fac7652e.txt"


def _tile(key: str, field: str) -> Any:
    def read(game: Any) -> Any:
        tile = game.variant.catalogue.tiles.get(key)
        return None if tile is None else getattr(tile, field)

    return read


def _sales(game: Any) -> tuple[int | None, ...]:
    bots = game.variant.catalogue.bots
    return tuple(bots[k].sale if k in bots else None for k in ("basic", "plus", "deluxe"))


# fmt: off
FIGURES = (
    Figure(
        "mechanica", "start_money", (5, 1, 1, 1), SEED, 11, "５，１，１，１のコインを手元に持ちます",
        "each player takes coins of 5, 1, 1 and 1", lambda game: tuple(game.variant.game.money),
    ),
    Figure(
        "mechanica", "shop_prices", (7, 5, 4, 3, 2), SEED, 91, "価格は回転板に書いてある７，５，４，３，２コインです",
        "the prices are the 7, 5, 4, 3, 2 coins written on the wheel", lambda game: tuple(game.variant.game.prices),
    ),
    Figure(
        "mechanica", "bot_sales", (2, 4, 6), SEED, 89, "白ボットは２コイン，橙ボットは４コイン，紫ボットは６コイン",
        "a white bot 2 coins, an orange bot 4 coins, a purple bot 6 coins", _sales,
    ),
    Figure(
        "mechanica", "fork_price", 1, SEED, 111, "分岐タイルを箱から購入する。価格は１。",
        "buy a Fork tile from the box; the price is 1", _tile("fork", "price"),
    ),
    Figure(
        "mechanica", "big_truck_price", 3, SEED, 113, "大型トラックは価格３でボットを２体積めます",
        "a Big Truck costs 3 and carries 2 bots", _tile("big_truck", "price"),
    ),
    Figure(
        "mechanica", "big_truck_capacity", 2, SEED, 113, "大型トラックは価格３でボットを２体積めます",
        "a Big Truck costs 3 and carries 2 bots", _tile("big_truck", "capacity"),
    ),
    Figure(
        "mechanica", "huge_truck_price", 5, SEED, 113, "巨大トラックは価格５でボットを３体積めます",
        "a Huge Truck costs 5 and carries 3 bots", _tile("huge_truck", "price"),
    ),
    Figure(
        "mechanica", "huge_truck_capacity", 3, SEED, 113, "巨大トラックは価格５でボットを３体積めます",
        "a Huge Truck costs 5 and carries 3 bots", _tile("huge_truck", "capacity"),
    ),
    Figure(
        "mechanica", "big_to_huge_price", 3, SEED, 113, "大型から巨大への置き換えは価格３です",
        "replacing a Big Truck by a Huge one costs 3", _tile("huge_truck", "upgrade_price"),
    ),
)
# fmt: on
