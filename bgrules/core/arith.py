"""Arithmetic written once over Python numbers or z3 terms (ARCHITECTURE: "the same function then plays
and proves"). Each helper returns a plain value when every argument is a Python value and a z3 term as
soon as one argument is a z3 term."""

from __future__ import annotations

from typing import Any, TypeAlias

import z3

Num: TypeAlias = Any
"""An ``int`` or a z3 arithmetic term (z3 is untyped, so this is ``Any`` to mypy)."""
Truth: TypeAlias = Any
"""A ``bool`` or a z3 boolean term."""


def symbolic(*xs: object) -> bool:
    return any(isinstance(x, z3.ExprRef) for x in xs)


def ite(cond: Truth, then: Num, other: Num) -> Num:
    """``then if cond else other``; a z3 ``If`` when any argument is a z3 term."""
    if symbolic(cond, then, other):
        return z3.If(cond, then, other)
    return then if cond else other


def minimum(a: Num, b: Num) -> Num:
    return ite(a <= b, a, b) if symbolic(a, b) else min(a, b)


def maximum(a: Num, b: Num) -> Num:
    return ite(a >= b, a, b) if symbolic(a, b) else max(a, b)


def both(*xs: Truth) -> Truth:
    return z3.And(*xs) if symbolic(*xs) else all(bool(x) for x in xs)


def either(*xs: Truth) -> Truth:
    return z3.Or(*xs) if symbolic(*xs) else any(bool(x) for x in xs)


def negate(a: Truth) -> Truth:
    return z3.Not(a) if symbolic(a) else not a
