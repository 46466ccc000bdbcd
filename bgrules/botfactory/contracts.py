"""Action contracts of Bot Factory: each rule's effect on the state, recomputed from the seed (seed
000_a7a09e9bc70ab148.txt) and the variant's component data, step by step (the specs of
specs/botfactory-contracts.toml, bgrules issue 22).

Each predicate is a transition predicate ``(game, before, action, after) -> str | None``: it reads the two
states' fields and the figures, never the engine function it checks, works out what the rule does to
``before`` and compares that with ``after`` (None: as expected; else what was expected and what happened).
A step is one ``apply``: an action with the automatic steps after it (draws left to chance, a limit's
discard, Sandra's action, maintenance, the next round), so a contract checks the fields its rule changes and
leaves the others to the other contracts.

Figures: a number the seed states is checked at the seed's value when the game runs the default variant
(``variant.source == "default"``; the pinned table :data:`bgrules.botfactory.figures.FIGURES`, or the
constants below with their seed lines), at the variant's own value otherwise (a corrected component file
changes the figure, the contract still checks the rule's shape); a figure that is component data only
(assumed: the icon slots, the marked output space, the track's top, the reservation costs) is read from
``game.c``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from bgrules.botfactory.figures import FIGURES
from bgrules.botfactory.game import BotFactoryGame
from bgrules.botfactory.state import (
    BotFactoryState,
    EndTurn,
    Exchange,
    MoveWorker,
    PayShare,
    Phase,
    PlacePart,
    Raise,
    Reserve,
    Rotate,
    Skip,
    Swap,
    TakeOutput,
    TakeProject,
    TakeTop,
    Trade,
)
from bgrules.core.observe import observes

ASSEMBLY, PRODUCTION, PROJECT, FINANCE = 0, 1, 2, 3
"""The boards, left to right (README: 01-04)."""

PAID_PLACEMENT = 1
"""BF-PROD-MARK / BF-PROJ-LEFT: 可以用一個話語指示物來放置一個部件 (one token places a part; seed lines 72, 88)."""
ICON_COST = 1
"""BF-ASM-ICON: 可以立刻花一個話語指示物 (spend one token at once; seed line 57)."""
SWAP_COST = 1
"""BF-ASM-SWAP: 花費一個話語指示物 (spend one token; seed line 59)."""
RAISE_COST = 1
"""BF-FIN-RAISE: 花費一個話語指示物來增加...價值 (one token raises a value; seed line 105)."""
RAISE_STEP = 1
"""BF-FIN-RAISE: one step a token (seed line 105)."""
SANDRA_TOLL = 1
"""BF-SANDRA-SHARE: 就必需支付一個話語指示物 (one must pay one token; seed line 35)."""
RIGHT_REWARD = 1
"""BF-PROJ-RIGHT: 可以獲得一個自己顏色的話語指示物 (gain one token of your colour; seed line 89)."""
WHEEL_TURN = 2
"""BF-PROD-ROTATE: 順時針轉轉盤 90 度`兩個部件格` (90 degrees clockwise, two part spaces; seed line 69)."""
TRADE_PARTS = 3
"""BF-PROD-TRADE: 棄掉自己任意三個部件板塊 (discard any three part tiles; seed line 74)."""
EXCHANGE_PROJECTS = 2
"""BF-PROJ-TRADE: 棄掉自己兩個專案板塊 (discard two Project tiles; seed line 91)."""
SANDRA_RAISE = 1
"""BF-FIN-SANDRA: 將價值最低的機器人提升一格 (the lowest value rises one step; seed line 114)."""
MAINT_DROP = 1
"""BF-MAINT: 降低財務部圖版上對應機器人的價值一格 (the matching bot's value falls one step; seed line 124)."""
LAST_SPACE_EXTRA = 1
"""BF-ASM-LAST: 最後一個行動格需要額外支付一個話語指示物 (one extra token; seed line 50)."""
SANDRA_SPARES = 2
"""BF-ASM-SANDRA: 執行兩次 (two draws refill the spares; seed line 62)."""
START_TOKENS = 1
"""BF-SETUP-TOKENS: 玩家拿取一個話語指示物 (each player takes one token; seed line 6)."""
LAST_PLAYER_EXTRA = 1
"""BF-SETUP-TOKENS: 首回合尾家多拿一個話語指示物 (round 1's last player takes one more; seed line 7)."""

_SEED = {f.name: f.seed for f in FIGURES}


def _default(game: BotFactoryGame) -> bool:
    return getattr(game.variant, "source", "default") == "default"


def _figure(game: BotFactoryGame, seed: Any, variant: Any) -> Any:
    """The seed's figure for the default variant, the variant's for any other (module docstring)."""
    return seed if _default(game) else variant


def _cap(game: BotFactoryGame) -> int:
    """BF-LIMIT-TOKENS: 話語指示物的持有上限是 9 個 (seed line 6)."""
    cap: int = _figure(game, _SEED["token_cap"], game.c.counts.token_cap)
    return cap


def _reward(count: int) -> int:
    """BF-ASM-REWARD: the tokens a placement pays by the bot's part count after it (seed lines 52-53)."""
    reward: int = {1: _SEED["first_part_reward"], 2: _SEED["second_part_reward"]}.get(count, 0)
    return reward


def _gain(game: BotFactoryGame, held: int, supply: int, n: int) -> int:
    """BF-LIMIT-TOKENS: what a gain of ``n`` brings a player holding ``held`` whose colour has ``supply`` left."""
    return max(0, min(n, _cap(game) - held, supply))


def _actor(game: BotFactoryGame, state: BotFactoryState) -> int | None:
    """The seat deciding in ``state`` (None for chance, set-up and the end)."""
    if state.draws or state.phase in (Phase.OVER, Phase.SETUP):
        return None
    if state.phase is Phase.PICK:
        return tuple(reversed(state.order))[state.index] if state.index < len(state.order) else None
    if state.phase is Phase.DISCARD:
        return state.discarder
    if state.window:
        return state.window[0]
    return state.order[state.index] if state.index < len(state.order) else None


def _prompt(state: BotFactoryState) -> str | None:
    turn = state.turn
    return turn.prompt[0] if turn is not None and turn.prompt and not state.window else None


def _tokens(
    game: BotFactoryGame, before: BotFactoryState, after: BotFactoryState, seat: int, held: int, supply: int, what: str
) -> str | None:
    """The seat's held tokens and colour supply are ``held`` and ``supply``; every other seat's unchanged."""
    got = (after.hands[seat].tokens, after.supply[seat])
    if got != (held, supply):
        return (
            f"{what}: seat {seat} should hold {held} token(s) with {supply} in its supply; "
            f"it holds {got[0]} with {got[1]} (before: {before.hands[seat].tokens}, {before.supply[seat]})"
        )
    for other in range(len(before.hands)):
        if other != seat and after.hands[other].tokens != before.hands[other].tokens:
            return (
                f"{what}: seat {other}'s tokens changed ({before.hands[other].tokens} -> {after.hands[other].tokens})"
            )
    return None


def _parts(before: tuple[str, ...], minus: tuple[str, ...] = (), plus: tuple[str, ...] = ()) -> Counter[str]:
    out = Counter(before)
    out.subtract(Counter(minus))
    out.update(Counter(plus))
    return +out


def _turns_ended(game: BotFactoryGame, state: BotFactoryState) -> int:
    """Where ``state`` stands in its round: 0 before the action phase, 1 while turns (and the windows
    between them) remain, 2 after every turn (Sandra's moment passed), 3 after maintenance, 4 over."""
    if state.phase is Phase.OVER:
        return 4
    if state.after_discard == "round_end":
        return 3
    if state.phase in (Phase.SETUP, Phase.PICK, Phase.MOVE):
        return 0
    n = game.players
    if state.index < n or (state.index == n and game.variant.rulings.additional_actions == "any_time"):
        return 1
    return 2


def _crossed(game: BotFactoryGame, before: BotFactoryState, after: BotFactoryState, stage: int) -> bool:
    """The step passed the point of the round after which ``_turns_ended`` is ``stage``."""
    if before.phase is Phase.OVER or _turns_ended(game, before) >= stage:
        return False
    return after.round > before.round or _turns_ended(game, after) >= stage


def _chained(game: BotFactoryGame, before: BotFactoryState, after: BotFactoryState) -> bool:
    """The step went on past the end of the turns (or of a window): Sandra's action, maintenance or a new round
    may have followed the action in the same step."""
    return after.round != before.round or _turns_ended(game, after) != _turns_ended(game, before)


def _passive(before: BotFactoryState, action: Any) -> bool:
    """The step's action itself moves no tile (it passes: EndTurn or Skip, not a chance outcome)."""
    return not before.draws and isinstance(action, EndTurn | Skip)


def _sandra_acted(game: BotFactoryGame, before: BotFactoryState, after: BotFactoryState) -> bool:
    """BF-SANDRA-ACT: Sandra acts once every player has acted, from round 2 on (第一回合不會動)."""
    return before.round > 1 and _crossed(game, before, after, 2)


def _maintained(game: BotFactoryGame, before: BotFactoryState, after: BotFactoryState) -> bool:
    """BF-MAINT: the step carried out the round's maintenance."""
    return _crossed(game, before, after, 3)


def _slid(
    game: BotFactoryGame, grid: tuple[tuple[str | None, ...], ...], discard: list[int]
) -> tuple[tuple[str | None, ...], ...]:
    """BF-PROJ-SANDRA / BF-MAINT: each column's bottom tile out (ruling ``project_clear_out``), the rest down."""
    lowest = game.variant.rulings.project_clear_out == "lowest_tile"
    out = []
    for column in grid:
        rest = [t for t in column if t is not None]
        if rest and (lowest or column[0] is not None):
            discard[game.colours.index(rest.pop(0))] += 1
        out.append(tuple(rest + [None] * (len(column) - len(rest))))
    return tuple(out)


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


def _sandra_target(game: BotFactoryGame, sandra: int, workers: tuple[int | None, ...]) -> int:
    """BF-SANDRA-MOVE: 由左至右，移動到另一個圖版上的第一個空位 (the first empty space of the next board right)."""
    board = game.spaces[sandra][0]
    for k in range(1, 4):
        target = (board + k) % 4
        for i, (b, _s, _n) in enumerate(game.spaces):
            if b == target and i not in workers:
                return i
    return sandra


def moves(game: BotFactoryGame, before: BotFactoryState, action: Any, after: BotFactoryState) -> str | None:
    """BF-MOVE, BF-SANDRA-MOVE: the mover's worker goes to the chosen space, empty (no worker, not Sandra) and on
    another board (round 1: any empty space); once the last has moved, Sandra moves to the first empty space
    of the next board to the right (wrapping), and not in round 1 (第一回合不會動，維持原位)."""
    if not isinstance(action, MoveWorker) or before.phase is not Phase.MOVE:
        return None
    seat = before.order[before.index]
    here = before.workers[seat]
    taken = {w for s, w in enumerate(before.workers) if w is not None and s != seat} | {before.sandra}
    if action.space in taken or (here is not None and game.spaces[action.space][0] == game.spaces[here][0]):
        return f"{action!r}: space {action.space} is taken or on the board seat {seat} stands on (space {here})"
    workers = tuple(action.space if s == seat else w for s, w in enumerate(before.workers))
    if after.workers != workers:
        return f"{action!r}: workers {list(before.workers)} should become {list(workers)}, not {list(after.workers)}"
    last = before.index == len(before.order) - 1
    sandra = _sandra_target(game, before.sandra, workers) if last and before.round > 1 else before.sandra
    if after.sandra != sandra:
        when = "stays in round 1" if before.round == 1 else "moves once all have moved" if last else "waits"
        return f"{action!r}: Sandra {when}: space {sandra}, not {after.sandra} (from {before.sandra})"
    return None


def turn_order(game: BotFactoryGame, before: BotFactoryState, action: Any, after: BotFactoryState) -> str | None:
    """BF-ORDER: round 1 goes clockwise from seat 0 (第一回合行動順序照順時針); each later round follows the
    spaces the workers stood on in the round before, left to right (最左邊的先)."""
    if after.round == 1 and after.order != tuple(range(game.players)):
        return f"round 1's order should be clockwise {list(range(game.players))}, not {list(after.order)}"
    if after.round == before.round + 1:
        want = tuple(sorted(range(game.players), key=lambda s: before.workers[s] or 0))
        if after.order != want:
            return (
                f"round {after.round}'s order should follow the spaces {list(before.workers)} left to right: "
                f"{list(want)}, not {list(after.order)}"
            )
    return None


def sandra_actions(game: BotFactoryGame, before: BotFactoryState, action: Any, after: BotFactoryState) -> str | None:
    """BF-SANDRA-ACT, BF-ASM-SANDRA, BF-PROD-SANDRA, BF-PROJ-SANDRA: once every player has acted, from round 2 on,
    Sandra takes her board's action: on the Assembly board the spares go to the discard and two draws by the
    Distribution marker refill them; on the Production board every empty Wheel space is to be filled by the
    marker, clockwise from ``sandra_start``; on the Project board each column's bottom tile goes out and the
    rest slide down. In round 1 she does none of it (her Finance raise: ``value_changes``)."""
    if not _crossed(game, before, after, 2):
        return None
    board = game.spaces[before.sandra][0]
    if before.round == 1:
        if after.spares != before.spares or any(job[2] == "wheel" for job in after.draws):
            return (
                f"Sandra acted in round 1 (spares {list(before.spares)} -> {list(after.spares)}, draws {after.draws})"
            )
        return None
    if board == ASSEMBLY:
        discards, universal = _discarded(game, before, before.spares)
        jobs = tuple(("part", -1, "spare", i, 0) for i in range(len(before.spares)))
        if len(before.spares) != _figure(game, SANDRA_SPARES, game.c.boards.spares):
            return f"Sandra refills {len(before.spares)} spares, the seed two"
        if after.draws and (after.spares, after.draws[: len(jobs)]) != ((None,) * len(jobs), jobs):
            return (
                f"Sandra on the Assembly board: spares {list(after.spares)}, draws {after.draws}; "
                f"expected the spares out and {jobs}"
            )
        if _passive(before, action) and not _maintained(game, before, after) and _stock(after) != (discards, universal):
            return f"Sandra on the Assembly board: the spares {list(before.spares)} should go to the discard"
    elif board == PRODUCTION:
        start, n = game.c.wheel.sandra_start, len(before.wheel)
        order = [(start + k) % n for k in range(n)]
        jobs = tuple(("part", -1, "wheel", p, 0) for p in order if before.wheel[p] is None)
        if after.draws[: len(jobs)] != jobs and after.draws:
            return f"Sandra on the Production board: draws {after.draws}, expected {jobs} (clockwise from {start})"
    elif board == PROJECT:
        discard = list(_projects_off(before))
        grid = _slid(game, before.grid, discard)
        if (
            _passive(before, action)
            and not _maintained(game, before, after)
            and (after.grid, _projects_off(after)) != (grid, tuple(discard))
        ):
            return (
                f"Sandra on the Project board: grid {before.grid} should become {grid} with stack and discard "
                f"{discard}; it is {after.grid} with {list(_projects_off(after))}"
            )
    return None


def maintenance(game: BotFactoryGame, before: BotFactoryState, action: Any, after: BotFactoryState) -> str | None:
    """BF-MAINT: maintenance clears each completed bot's parts to the discard (Universal parts to their supply),
    leaves the other columns as they are, and clears the Project board's bottom tiles (the values:
    ``value_changes``)."""
    if not _maintained(game, before, after) or _sandra_acted(game, before, after):
        return None
    full = tuple(p for column in before.columns if None not in column for p in column)
    columns = tuple((None,) * len(c) if None not in c else c for c in before.columns)
    discards, universal = _discarded(game, before, full)
    if after.columns != columns:
        return f"maintenance: the columns {before.columns} should become {columns}, not {after.columns}"
    if not _passive(before, action):  # a draw or a window's action came first: the columns alone are checked
        return None
    if _stock(after) != (discards, universal):
        return (
            f"maintenance: the completed bots' parts {list(full)} should go to the discard: piles and discards "
            f"{_stock(after)[0]} (expected {discards}), Universal supply {after.universal} (expected {universal})"
        )
    discard = list(_projects_off(before))
    grid = _slid(game, before.grid, discard)
    if after.round == before.round and (after.grid, _projects_off(after)) != (grid, tuple(discard)):
        return (
            f"maintenance: the Project board {before.grid} should become {grid} with stack and discard {discard}; "
            f"it is {after.grid} with {list(_projects_off(after))}"
        )
    return None


def setup_tokens(game: BotFactoryGame, before: BotFactoryState, action: Any, after: BotFactoryState) -> str | None:
    """BF-SETUP-TOKENS: at set-up every player holds one token of their colour and round 1's last player (the
    last seat clockwise) one more, the rest of each colour in the supply: checked on every step of the set-up
    (the chance draws and the first picks, before any token is gained)."""
    if before.phase not in (Phase.SETUP, Phase.PICK) or before.round != 1:
        return None
    c = game.c.counts
    start = _figure(game, START_TOKENS, c.start_tokens)
    extra = _figure(game, LAST_PLAYER_EXTRA, c.last_player_extra_token)
    n = game.players
    want = [start + (extra if seat == n - 1 else 0) for seat in range(n)]
    held = [h.tokens for h in before.hands]
    supply = [c.tokens_per_colour - (want[i] if i < n else 0) for i in range(len(before.supply))]
    if held != want or list(before.supply) != supply:
        return (
            f"at set-up the players should hold {want} tokens with {supply} in the supply; "
            f"they hold {held} with {list(before.supply)}"
        )
    return None


def raise_lines(game: BotFactoryGame, before: BotFactoryState, action: Any, after: BotFactoryState) -> str | None:
    """BF-FIN-LINE: a raise that crosses a value line (``[finance] lines``) offers that line's reward
    (``line_rewards``: a free placement for "part", a Project tile for "project"); a raise crossing none
    offers nothing (如果價值跨越獎勵線，可以獲得對應獎勵)."""
    if not isinstance(action, Raise) or after.phase is not Phase.ACTION or after.turn is None:
        return None
    old = before.values[game.colours.index(action.colour)]
    f = game.c.finance
    prompt: tuple[str, ...] = ()
    for line, reward in zip(f.lines, f.line_rewards, strict=True):
        if old < line <= old + RAISE_STEP:
            prompt = ("place_free",) if reward == "part" else ("project",)
    if after.turn.prompt != prompt:
        return (
            f"{action!r} from {old}: the lines {list(f.lines)} should offer {prompt or 'nothing'}, "
            f"the turn offers {after.turn.prompt or 'nothing'}"
        )
    return None


# --- what each contract reads (bgrules.core.observe) -------------------------------------------------------


def _seat_of(game: BotFactoryGame, before: BotFactoryState) -> int:
    seat = _actor(game, before)
    return -1 if seat is None else seat


def _reads_tokens(game: BotFactoryGame, before: BotFactoryState, action: Any, after: BotFactoryState) -> dict[str, Any]:
    seat = _seat_of(game, before)
    return {
        "action": repr(action),
        "actor": seat,
        "tokens before": [h.tokens for h in before.hands],
        "tokens after": [h.tokens for h in after.hands],
        "supply before": list(before.supply),
        "supply after": list(after.supply),
    }


def _reads_values(game: BotFactoryGame, before: BotFactoryState, action: Any, after: BotFactoryState) -> dict[str, Any]:
    return {
        "action": repr(action),
        "values before": list(before.values),
        "values after": list(after.values),
        "Sandra's space": before.sandra,
        "Sandra acted": _sandra_acted(game, before, after),
        "maintenance": _maintained(game, before, after),
    }


def _reads_board(game: BotFactoryGame, before: BotFactoryState, action: Any, after: BotFactoryState) -> dict[str, Any]:
    seat = _seat_of(game, before)
    return {
        "action": repr(action),
        "actor": seat,
        "wheel before": list(before.wheel),
        "wheel after": list(after.wheel),
        "spares before": list(before.spares),
        "spares after": list(after.spares),
        "parts held before": [] if seat < 0 else list(before.hands[seat].parts),
        "parts held after": [] if seat < 0 else list(after.hands[seat].parts),
        "Project tiles held after": [] if seat < 0 else list(after.hands[seat].projects),
    }


def _reads_round(game: BotFactoryGame, before: BotFactoryState, action: Any, after: BotFactoryState) -> dict[str, Any]:
    return {
        "action": repr(action),
        "round before": before.round,
        "round after": after.round,
        "order after": list(after.order),
        "workers before": list(before.workers),
        "workers after": list(after.workers),
        "Sandra before": before.sandra,
        "Sandra after": after.sandra,
        "Sandra acted": _sandra_acted(game, before, after),
        "maintenance": _maintained(game, before, after),
    }


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
    (moves, _reads_round),
    (turn_order, _reads_round),
    (sandra_actions, _reads_round),
    (maintenance, _reads_round),
    (setup_tokens, _reads_tokens),
    (raise_lines, _reads_values),
):
    observes(_reader)(_pred)
