"""A ruling diff's result as the report ``bgrules diff`` prints (:func:`render`) and as its JSON
(:func:`to_json`); :func:`bgrules.runners.diff.find_difference` finds it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bgrules.core.codec import action_to_data
from bgrules.runners.diff import DiffResult

# --- reports ------------------------------------------------------------------------------------------


def _limited(actions: Sequence[Any], n: int = 6) -> str:
    shown = ", ".join(repr(a) for a in actions[:n])
    return shown + (f", ... ({len(actions)} in all)" if len(actions) > n else "")


def render(result: DiffResult) -> str:
    """A readable report: the rulings compared, the numbered actions, the difference and its citations."""
    lines = [
        f"ruling diff of {result.game} ({result.players} player(s)): A = {result.variant_a}, B = {result.variant_b}"
    ]
    if result.rulings:
        lines.append("rulings that differ:")
        for c in result.rulings:
            ids = f" [{', '.join(c.rule_ids)}]" if c.rule_ids else ""
            lines.append(f"  {c.field}: A {c.a}, B {c.b}{ids}")
    else:
        lines.append("rulings that differ: none")
    if not result.found:
        lines.append(
            f"no difference up to depth {result.depth} ({result.nodes} nodes, {result.seconds:.1f} s; "
            f"stopped: {result.exhausted})"
        )
    else:
        proof = "shortest" if result.minimal else f"not proven shortest: no difference up to depth {result.depth}"
        lines.append(
            f"difference after {len(result.sequence)} action(s) ({result.method}, {proof}; "
            f"{result.nodes} nodes, {result.seconds:.1f} s):"
        )
        width = len(str(len(result.sequence)))
        for i, action in enumerate(result.sequence, 1):
            lines.append(f"  {i:>{width}}. {action!r}")
        if not result.sequence:
            lines.append("  (the initial state)")
        lines.append(f"difference ({result.kind}): {result.detail}")
        if result.only_a:
            lines.append(f"  also legal in A only: {_limited(result.only_a)}")
        if result.only_b:
            lines.append(f"  also legal in B only: {_limited(result.only_b)}")
        lines.append("rules cited:")
        for cite in result.citations:
            lines.append(f"  {cite.rule_id}  ({cite.source})")
        if not result.citations:
            lines.append("  (none)")
    if result.chance_width is not None:
        lines.append(f"chance: the {result.chance_width} most probable outcome(s) per chance node were searched")
    for note in result.notes:
        lines.append(f"note: {note}")
    return "\n".join(lines)


def _action_json(action: Any) -> dict[str, Any]:
    try:
        return action_to_data(action)
    except Exception:  # pragma: no cover - every action of the games is an attrs class
        return {"type": type(action).__name__, "repr": repr(action)}


def to_json(result: DiffResult) -> dict[str, Any]:
    """The result as plain JSON data (actions as ``action_to_data`` gives them)."""
    actions: Callable[[Sequence[Any]], list[dict[str, Any]]] = lambda xs: [_action_json(a) for a in xs]  # noqa: E731
    return {
        "game": result.game,
        "players": result.players,
        "variant_a": result.variant_a,
        "variant_b": result.variant_b,
        "found": result.found,
        "depth": result.depth,
        "nodes": result.nodes,
        "seconds": result.seconds,
        "method": result.method,
        "minimal": result.minimal,
        "chance_width": result.chance_width,
        "sequence": actions(result.sequence),
        "kind": result.kind,
        "detail": result.detail,
        "only_a": actions(result.only_a),
        "only_b": actions(result.only_b),
        "citations": [{"rule_id": c.rule_id, "source": c.source} for c in result.citations],
        "rulings": [{"field": c.field, "a": c.a, "b": c.b, "rule_ids": list(c.rule_ids)} for c in result.rulings],
        "notes": list(result.notes),
        "exhausted": result.exhausted,
    }


__all__ = [
    "render",
    "to_json",
]
