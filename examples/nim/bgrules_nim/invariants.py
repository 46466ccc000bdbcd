"""Nim's invariants (specs/nim.toml): named predicates over states, each citing its rule. A predicate
returns None when it holds, else the problem in words."""

from __future__ import annotations

from typing import Any

from bgrules_nim.game import NimGame, NimState


def heaps_never_negative(game: NimGame, state: NimState) -> str | None:
    """NIM-TAKE: no heap ever holds fewer than no stones."""
    low = [i for i, h in enumerate(state.heaps) if h < 0]
    return f"heap(s) {low} below zero: {state.heaps}" if low else None


def a_move_takes_from_one_heap(game: NimGame, before: NimState, action: Any, after: NimState) -> str | None:
    """NIM-TAKE: a move lowers exactly one heap, by 1 to ``max_take`` stones, and passes the move on."""
    lowered = [(i, b - a) for i, (b, a) in enumerate(zip(before.heaps, after.heaps, strict=True)) if a != b]
    if len(lowered) != 1:
        return f"{len(lowered)} heaps changed: {before.heaps} -> {after.heaps}"
    _, taken = lowered[0]
    most = game.max_take if game.max_take is not None else before.heaps[lowered[0][0]]
    if not 1 <= taken <= most:
        return f"{taken} stone(s) taken, not 1 to {most}"
    if after.to_move != (before.to_move + 1) % game.players:
        return f"player {after.to_move} to move after player {before.to_move}"
    return None
