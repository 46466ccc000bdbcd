"""Bot Factory's action contracts of the boards' actions: placements and their rewards, token costs,
Project rewards, values, the Wheel, outputs, the trades, the Spare swap and the reservations (each rule's
effect recomputed from the seed, :mod:`bgrules.botfactory.contracts`)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from bgrules.botfactory.contracts_common import (
    ASSEMBLY,
    EXCHANGE_PROJECTS,
    FINANCE,
    ICON_COST,
    LAST_SPACE_EXTRA,
    MAINT_DROP,
    PAID_PLACEMENT,
    RAISE_COST,
    RAISE_STEP,
    RIGHT_REWARD,
    SANDRA_RAISE,
    SANDRA_TOLL,
    SWAP_COST,
    TRADE_PARTS,
    WHEEL_TURN,
    _actor,
    _chained,
    _figure,
    _gain,
    _maintained,
    _parts,
    _prompt,
    _reads_board,
    _reads_tokens,
    _reads_values,
    _reward,
    _sandra_acted,
    _tokens,
)
from bgrules.botfactory.game import BotFactoryGame
from bgrules.botfactory.state import (
    BotFactoryState,
    Exchange,
    PayShare,
    Phase,
    PlacePart,
    Raise,
    Reserve,
    Rotate,
    Swap,
    TakeOutput,
    TakeProject,
    TakeTop,
    Trade,
)
from bgrules.core.observe import observes

# --- the contracts -----------------------------------------------------------------------------------


def placement_rewards(game: BotFactoryGame, before: BotFactoryState, action: Any, after: BotFactoryState) -> str | None:
    """BF-ASM-REWARD, BF-ASM-PROJECT, BF-LIMIT-TOKENS, BF-PROD-MARK, BF-PROJ-LEFT: a placement pays its placer
    2 tokens when the bot has 1 or 2 parts after it (獲得兩個自己顏色的話語指示物), cut by the token cap and the
    colour's supply; the 3rd part puts a bot of the colour onto one of the placer's unfinished Projects of that
    colour; a paid placement (the marked output space, the left column's bottom tile) first costs a token."""
    if not isinstance(action, PlacePart) or before.phase is not Phase.ACTION:
        return None
    seat = _actor(game, before)
    assert seat is not None
    cost = PAID_PLACEMENT if _prompt(before) == "place" else 0
    held, supply = before.hands[seat].tokens - cost, before.supply[seat] + cost
    ci = game.colours.index(action.colour)
    count = len(before.columns[ci]) - before.columns[ci].count(None) + 1
    if count < len(before.columns[ci]):
        got = _gain(game, held, supply, _reward(count))
        return _tokens(
            game,
            before,
            after,
            seat,
            held + got,
            supply - got,
            f"{action!r} (part {count} of the bot{', paid' if cost else ''})",
        )
    bad = _tokens(game, before, after, seat, held, supply, f"{action!r} (the bot's last part)")
    if bad:
        return bad
    hand, now = before.hands[seat], after.hands[seat]
    want = (_parts(hand.projects, (action.colour,)), _parts(hand.done, (), (action.colour,)))
    if (Counter(now.projects), Counter(now.done)) != want or after.bots_left[ci] != before.bots_left[ci] - 1:
        return (
            f"{action!r} completes the {action.colour} bot: a Project of its colour should become a completed one "
            f"and a bot meeple leave the supply; projects {list(hand.projects)} -> {list(now.projects)}, "
            f"done {list(hand.done)} -> {list(now.done)}, bots left {before.bots_left[ci]} -> {after.bots_left[ci]}"
        )
    return None


def token_costs(game: BotFactoryGame, before: BotFactoryState, action: Any, after: BotFactoryState) -> str | None:
    """BF-ASM-ICON, BF-ASM-SWAP, BF-FIN-RAISE, BF-SANDRA-SHARE, BF-ASM-LAST: the icon space's part, a swap and a
    raise cost one token each, Sandra's toll one token, the last Assembly space's extra one token (both at
    once under ``last_space_toll = "combined"``), each back to the payer's colour supply."""
    if before.phase is not Phase.ACTION or before.draws:
        return None
    seat = _actor(game, before)
    if seat is None:
        return None
    if isinstance(action, TakeTop) and _prompt(before) == "icon":
        cost, what = ICON_COST, "BF-ASM-ICON"
    elif isinstance(action, Swap):
        cost, what = SWAP_COST, "BF-ASM-SWAP"
    elif isinstance(action, Raise):
        cost, what = RAISE_COST, "BF-FIN-RAISE"
    elif isinstance(action, PayShare) and before.turn is not None:
        where = before.workers[seat]
        assert where is not None
        board, space, _n = game.spaces[where]
        last = board == ASSEMBLY and space == len(game.c.boards.assembly) - 1
        extra = _figure(game, LAST_SPACE_EXTRA, game.c.boards.assembly_last_extra_cost) if last else 0
        if before.turn.main == "extra":
            cost, what = extra, "BF-ASM-LAST"
        else:
            combined = game.variant.rulings.last_space_toll == "combined"
            sharing = game.spaces[before.sandra][0] == board
            cost = (SANDRA_TOLL if sharing else 0) + (extra if combined else 0)
            what = "BF-SANDRA-SHARE"
    else:
        return None
    hand = before.hands[seat]
    return _tokens(
        game, before, after, seat, hand.tokens - cost, before.supply[seat] + cost, f"{what}: {action!r} costs {cost}"
    )


def project_rewards(game: BotFactoryGame, before: BotFactoryState, action: Any, after: BotFactoryState) -> str | None:
    """BF-PROJ, BF-PROJ-RIGHT, BF-PROJ-LEFT: a Project tile taken goes to the taker's hand and its space stays
    empty (拿完不會立刻補); the right column's bottom tile pays a token of the taker's colour (cut by the cap),
    the left column's bottom tile offers a paid placement."""
    if not isinstance(action, TakeProject) or before.phase is not Phase.ACTION:
        return None
    seat = _actor(game, before)
    assert seat is not None
    colour = before.grid[action.column][action.row]
    assert colour is not None
    hand, now = before.hands[seat], after.hands[seat]
    if (
        Counter(now.projects) != _parts(hand.projects, (), (colour,))
        or after.grid[action.column][action.row] is not None
    ):
        return (
            f"{action!r}: the {colour} tile should go to seat {seat}'s hand and leave its space empty; projects "
            f"{list(hand.projects)} -> {list(now.projects)}, the space holds {after.grid[action.column][action.row]}"
        )
    right = (action.column, action.row) == (1, 0)
    got = _gain(game, hand.tokens, before.supply[seat], RIGHT_REWARD) if right else 0
    bad = _tokens(
        game,
        before,
        after,
        seat,
        hand.tokens + got,
        before.supply[seat] - got,
        f"{action!r}{' (the right column bottom tile)' if right else ''}",
    )
    if bad:
        return bad
    if (action.column, action.row) == (0, 0) and after.phase is Phase.ACTION:
        prompt = after.turn.prompt if after.turn is not None else ()
        if prompt != ("place",):
            return (
                f"{action!r}: the left column's bottom tile should offer a paid placement; "
                f"the turn's prompt is {prompt}"
            )
    return None


def value_changes(game: BotFactoryGame, before: BotFactoryState, action: Any, after: BotFactoryState) -> str | None:
    """BF-FIN-RAISE, BF-FIN-SANDRA, BF-MAINT: the bot values change only thus: a raise lifts its colour one
    step (to at most ``track_max``); Sandra on the Finance board, after every player has acted from round 2
    on, lifts the lowest colours together one step (平手的一起提升), none when all tie
    (如果全部都平手就都不會提升); then maintenance lowers each completed bot's colour one step (not below 0)."""
    values = list(before.values)
    steps = []
    if isinstance(action, Raise):
        ci = game.colours.index(action.colour)
        values[ci] += RAISE_STEP
        steps.append(f"raise {action.colour}")
        if values[ci] > game.c.finance.track_max:
            return f"{action!r} raised {action.colour} past track_max {game.c.finance.track_max}"
    if _sandra_acted(game, before, after) and game.spaces[before.sandra][0] == FINANCE:
        low = min(values)
        if any(v != low for v in values):
            values = [v + SANDRA_RAISE if v == low else v for v in values]
        steps.append("Sandra raises the lowest")
    if _maintained(game, before, after):
        for ci, column in enumerate(before.columns):
            if None not in column:
                values[ci] = max(0, values[ci] - MAINT_DROP)
        steps.append("maintenance")
    if tuple(values) != after.values:
        how = ", then ".join(steps) or "nothing that changes them"
        return f"{action!r} ({how}): values {list(before.values)} should become {values}, not {list(after.values)}"
    return None


def wheel_rotation(game: BotFactoryGame, before: BotFactoryState, action: Any, after: BotFactoryState) -> str | None:
    """BF-PROD-ROTATE: a rotation turns the Wheel two spaces clockwise: the tile on position p moves to
    p + 2 (mod 8); nothing else enters or leaves it in that step (the refills come after, each its own step)."""
    if not isinstance(action, Rotate):
        return None
    n = len(before.wheel)
    want = tuple(before.wheel[(p - WHEEL_TURN) % n] for p in range(n))
    if after.wheel != want:
        return f"Rotate(): the Wheel {list(before.wheel)} should become {list(want)}, not {list(after.wheel)}"
    return None


def output_take(game: BotFactoryGame, before: BotFactoryState, action: Any, after: BotFactoryState) -> str | None:
    """BF-PROD-TAKE, BF-PROD-MARK: taking an output space's tile moves it to the taker's hand and empties that
    space only; the marked output space (``[wheel] marked``) offers a paid placement."""
    if not isinstance(action, TakeOutput):
        return None
    seat = _actor(game, before)
    assert seat is not None
    part = before.wheel[action.position]
    assert part is not None
    want = tuple(None if p == action.position else t for p, t in enumerate(before.wheel))
    hand, now = before.hands[seat], after.hands[seat]
    if after.wheel != want or Counter(now.parts) != _parts(hand.parts, (), (part,)):
        return (
            f"{action!r}: the {part} tile should move to seat {seat}'s hand; the Wheel "
            f"{list(before.wheel)} -> {list(after.wheel)}, parts {list(hand.parts)} -> {list(now.parts)}"
        )
    if action.position in game.c.wheel.marked and after.phase is Phase.ACTION:
        prompt = after.turn.prompt if after.turn is not None else ()
        if prompt != ("place",):
            return f"{action!r}: the marked output space should offer a paid placement; the turn's prompt is {prompt}"
    return None


def _discarded(
    game: BotFactoryGame, state: BotFactoryState, parts: tuple[str | None, ...]
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The part tiles off the boards (each colour's pile and discard, by slot, summed: a draw from an empty pile
    shuffles the discard into it in the same step) and the Universal supply, once ``parts`` are discarded
    (Universal parts to their supply)."""
    stock = [
        [p + d for p, d in zip(pile, disc, strict=True)] for pile, disc in zip(state.piles, state.discards, strict=True)
    ]
    universal = list(state.universal)
    for part in parts:
        if part is None:
            continue
        colour, slot = part.split("-")
        si = game.slots.index(slot)
        if colour == "any":
            universal[si] += 1
        else:
            stock[game.colours.index(colour)][si] += 1
    return tuple(tuple(d) for d in stock), tuple(universal)


def _stock(state: BotFactoryState) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """``_discarded`` with nothing discarded."""
    piles = tuple(
        tuple(p + d for p, d in zip(pile, disc, strict=True))
        for pile, disc in zip(state.piles, state.discards, strict=True)
    )
    return piles, state.universal


def _projects_off(state: BotFactoryState) -> tuple[int, ...]:
    """The Project tiles in the stack and the discard, by colour (the discard is shuffled into an empty stack)."""
    return tuple(p + d for p, d in zip(state.project_pile, state.project_discard, strict=True))


def production_trade(game: BotFactoryGame, before: BotFactoryState, action: Any, after: BotFactoryState) -> str | None:
    """BF-PROD-TRADE: three part tiles from the hand to the discard (a Universal part to its supply) and a
    draw of the chosen pile's top tile to the hand; the tokens do not change."""
    if not isinstance(action, Trade):
        return None
    seat = _actor(game, before)
    assert seat is not None
    if len(action.parts) != TRADE_PARTS:
        return f"{action!r}: the trade gives {len(action.parts)} parts, the seed three"
    hand, now = before.hands[seat], after.hands[seat]
    discards, universal = _discarded(game, before, action.parts)
    job = ("part", game.colours.index(action.colour), "hand", seat, 0)
    chained = _chained(game, before, after)  # a window's trade that closes it: Sandra, maintenance follow
    if Counter(now.parts) != _parts(hand.parts, action.parts) or (
        not chained and _stock(after) != (discards, universal)
    ):
        return (
            f"{action!r}: parts {list(hand.parts)} -> {list(now.parts)}, piles and discards {_stock(after)[0]} "
            f"(expected {discards}), Universal supply {after.universal} (expected {universal})"
        )
    if (not chained and after.draws[:1] != (job,)) or now.tokens != hand.tokens:
        return f"{action!r}: a draw {job} should be pending and the tokens unchanged; draws {after.draws[:2]}"
    return None


def project_trade(game: BotFactoryGame, before: BotFactoryState, action: Any, after: BotFactoryState) -> str | None:
    """BF-PROJ-TRADE: two unfinished Project tiles to the Project discard, a Universal part of the chosen slot
    from its supply to the hand."""
    if not isinstance(action, Exchange):
        return None
    seat = _actor(game, before)
    assert seat is not None
    if len(action.projects) != EXCHANGE_PROJECTS:
        return f"{action!r}: the exchange gives {len(action.projects)} Project tiles, the seed two"
    hand, now = before.hands[seat], after.hands[seat]
    discard = list(_projects_off(before))
    for colour in action.projects:
        discard[game.colours.index(colour)] += 1
    si = game.slots.index(action.slot)
    universal = tuple(u - 1 if i == si else u for i, u in enumerate(before.universal))
    part = f"any-{action.slot}"
    chained = _chained(game, before, after)  # a window's exchange that closes it: Sandra, maintenance follow
    if (
        Counter(now.projects) != _parts(hand.projects, action.projects)
        or Counter(now.parts) != _parts(hand.parts, (), (part,))
        or (not chained and (_projects_off(after), after.universal) != (tuple(discard), universal))
    ):
        return (
            f"{action!r}: projects {list(hand.projects)} -> {list(now.projects)}, parts {list(hand.parts)} -> "
            f"{list(now.parts)}, Project stack and discard {list(_projects_off(after))} (expected {discard}), "
            f"Universal supply {list(after.universal)} (expected {list(universal)})"
        )
    return None


def spare_swap(game: BotFactoryGame, before: BotFactoryState, action: Any, after: BotFactoryState) -> str | None:
    """BF-ASM-SWAP: the part from the hand and the chosen spare change places (the token: ``token_costs``)."""
    if not isinstance(action, Swap):
        return None
    seat = _actor(game, before)
    assert seat is not None
    spare = before.spares[action.spare]
    assert spare is not None
    want = tuple(action.part if i == action.spare else s for i, s in enumerate(before.spares))
    hand, now = before.hands[seat], after.hands[seat]
    chained = _chained(game, before, after)  # a window's swap that closes it: Sandra may clear the spares
    if (not chained and after.spares != want) or Counter(now.parts) != _parts(hand.parts, (action.part,), (spare,)):
        return (
            f"{action!r}: spares {list(before.spares)} -> {list(after.spares)} (expected {list(want)}), "
            f"parts {list(hand.parts)} -> {list(now.parts)}"
        )
    return None


def reservation(game: BotFactoryGame, before: BotFactoryState, action: Any, after: BotFactoryState) -> str | None:
    """BF-FIN-CONTRACT: a reservation takes the contract's next space (the higher first), costs that space's
    value (``reservation_costs``) within the action's count, and one token lies on the contract (ruling
    ``reservation_tokens``: one of those paid, the rest to the supply; the cost to the supply and one more on
    the contract; or the whole cost on the contract)."""
    if not isinstance(action, Reserve):
        return None
    seat = _actor(game, before)
    assert seat is not None and before.turn is not None
    seats = before.reserved[action.slot]
    cost = game.c.finance.reservation_costs[len(seats)]
    mode = game.variant.rulings.reservation_tokens
    taken, back = {"one_paid": (cost, cost - 1), "one_more": (cost + 1, cost), "whole_cost": (cost, 0)}[mode]
    if after.reserved[action.slot] != (*seats, seat):
        got = list(after.reserved[action.slot])
        return f"{action!r}: the slot's reservations {list(seats)} should become {[*seats, seat]}, not {got}"
    if after.phase is Phase.ACTION and after.turn is not None and after.turn.left != before.turn.left - cost:
        left = before.turn.left
        return f"{action!r}: the turn's actions left {left} should fall by the cost {cost}, not to {after.turn.left}"
    hand = before.hands[seat]
    return _tokens(
        game,
        before,
        after,
        seat,
        hand.tokens - taken,
        before.supply[seat] + back,
        f"{action!r} (cost {cost}, reservation_tokens = {mode!r})",
    )


for _pred, _reader in (
    (placement_rewards, _reads_tokens),
    (token_costs, _reads_tokens),
    (project_rewards, _reads_tokens),
    (reservation, _reads_tokens),
    (value_changes, _reads_values),
    (wheel_rotation, _reads_board),
    (output_take, _reads_board),
    (production_trade, _reads_board),
    (project_trade, _reads_board),
    (spare_swap, _reads_board),
):
    observes(_reader)(_pred)
