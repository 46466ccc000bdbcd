"""What Bot Factory's action contracts (:mod:`bgrules.botfactory.contracts`) share: the seed's figures
with their seed lines, the recomputations of a step's pieces (the actor, a reward, a token gain under the
cap, the parts moved, the turns ended, Sandra's and the maintenance's passes) and what each contract reads
(:mod:`bgrules.core.observe`)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from bgrules.botfactory.figures import FIGURES
from bgrules.botfactory.game import BotFactoryGame
from bgrules.botfactory.state import (
    BotFactoryState,
    EndTurn,
    Phase,
    Skip,
)

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
