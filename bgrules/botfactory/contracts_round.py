"""Bot Factory's action contracts of the round: moves, the turn order, Sandra's actions, the maintenance,
the set-up's tokens and the raised lines (each rule's effect recomputed from the seed,
:mod:`bgrules.botfactory.contracts`)."""

from __future__ import annotations

from typing import Any

from bgrules.botfactory.contracts_actions import _discarded, _projects_off, _stock
from bgrules.botfactory.contracts_common import (
    ASSEMBLY,
    LAST_PLAYER_EXTRA,
    PRODUCTION,
    PROJECT,
    RAISE_STEP,
    SANDRA_SPARES,
    START_TOKENS,
    _crossed,
    _figure,
    _maintained,
    _passive,
    _reads_round,
    _reads_tokens,
    _reads_values,
    _sandra_acted,
    _slid,
)
from bgrules.botfactory.game import BotFactoryGame
from bgrules.botfactory.state import (
    BotFactoryState,
    MoveWorker,
    Phase,
    Raise,
)
from bgrules.core.observe import observes


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


for _pred, _reader in (
    (moves, _reads_round),
    (turn_order, _reads_round),
    (sandra_actions, _reads_round),
    (maintenance, _reads_round),
    (setup_tokens, _reads_tokens),
    (raise_lines, _reads_values),
):
    observes(_reader)(_pred)
