"""The largest figures the command line takes, so that a budget too large is refused at once (exit 2, one
line saying the maximum) instead of running for ever or failing half-way.

Each counted option has its own maximum (:data:`MAXIMA`); any other whole-number option (a seed, a player
count) is a 64-bit number (:data:`WHOLE_MAX`). The figures are far above any run the project makes: a
run that needs more is split (``--results`` / ``--resume``, docs/campaigns.md).
"""

from __future__ import annotations

from bgrules.core.codec import show

WHOLE_MAX = 2**63 - 1
"""The largest magnitude of any whole-number option without a maximum of its own (seeds, player counts)."""

MAXIMA: dict[str, tuple[int, str]] = {
    "--games": (10_000_000, "games in one run"),
    "--examples": (1_000_000, "searched examples per spec"),
    "--max-steps": (1_000_000, "steps per game"),
    "--max-rounds": (100_000, "rounds per game"),
    "--timeout": (86_400_000, "milliseconds (a day) per proof obligation"),
    "--depth": (10_000, "actions in the searched sequence"),
    "--nodes": (100_000_000, "positions searched"),
    "--jobs": (4096, "worker processes"),
    "--max-mutants": (1_000_000, "mutants in one run"),
}
"""Option -> (its maximum, what it counts)."""


def too_large(option: str, value: int) -> str | None:
    """The message refusing ``value`` for ``option`` (its maximum, or :data:`WHOLE_MAX`), or None if it fits."""

    maximum, what = MAXIMA.get(option, (WHOLE_MAX, ""))
    if option in MAXIMA:
        if value > maximum:
            hint = "; split a larger campaign into runs (--results, --resume)" if option == "--games" else ""
            return f"at most {maximum:,} {what}, not {show(value)}{hint}"
        return None
    if abs(value) > WHOLE_MAX:
        return f"a whole number from {-WHOLE_MAX:,} to {WHOLE_MAX:,}, not {show(value)}"
    return None


__all__ = ["MAXIMA", "WHOLE_MAX", "too_large"]
