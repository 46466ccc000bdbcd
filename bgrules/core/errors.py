"""Errors raised by bgrules.

Two kinds: :class:`IllegalAction` for a move the rules forbid (it names the rule), and
:class:`InputError` for malformed input (notation, TOML, JSON, options), which says where and why.
Both derive from :class:`BgrulesError`, so a caller can catch everything bgrules raises on purpose.
"""

from __future__ import annotations

from bgrules.core import coverage


class BgrulesError(Exception):
    """Base class of every error bgrules raises on purpose."""


class IllegalAction(BgrulesError):
    """An action the rules forbid. ``rule_id`` names the rule (``MC-...``, ``BF-...``). Creating one counts
    a refusal of that rule in rule coverage (:func:`bgrules.core.coverage.refusal`; a no-op when off)."""

    def __init__(self, rule_id: str, why: str) -> None:
        coverage.refusal(rule_id)
        super().__init__(f"{rule_id}: {why}")
        self.rule_id = rule_id
        self.why = why


class InputError(BgrulesError):
    """Malformed input. ``where`` locates it (file, line and column, or a field path)."""

    def __init__(self, where: str, why: str) -> None:
        super().__init__(f"{where}: {why}" if where else why)
        self.where = where
        self.why = why


class MissingExtra(BgrulesError):
    """An optional dependency is not installed; the message names the extra that brings it."""


def require_extra(module: str, extra: str, what: str) -> object:
    """Import ``module`` (an optional dependency) and return it, or raise :class:`MissingExtra` with one
    line naming ``what`` needs it and the extra that installs it: ``pip install 'bgrules[<extra>]'``."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtra(
            f"{what} needs {module.split('.')[0]}, which is not installed: pip install 'bgrules[{extra}]'"
        ) from None
