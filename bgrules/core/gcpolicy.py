"""The cyclic garbage collector's setting in bgrules' own processes (the CLI, a campaign's or verify's
workers): full collections ten times rarer than Python's default.

Playing a game makes many objects that live long (the engines' memos of legal options, chance outcomes
and boards, bounded) and almost no reference cycles (states, actions and memos are acyclic; the garbage
is freed by reference counting). Under Python's default thresholds, ``(700, 10, 10)``, the collector
nevertheless walks every tracked object of the process about every 10 collections of the middle
generation, whenever the long-lived objects have grown by a quarter: in a long run of random play that
is 8-12% of Mechanica's time and 10-17% of Bot Factory's (docs/speed.md, "The collector"). The runners'
setting, :data:`RUNNERS` = ``(700, 10, 100)``, keeps the young generations as they are (cycles among new
objects are found as soon as before) and makes the full walk wait for 100 middle collections instead of
10, which removes most of that time; a cycle that reached the oldest generation waits longer to be freed.

Only bgrules' own processes take it, and only where the process still has Python's default thresholds
(a setting of the caller's is never overridden): ``bgrules`` commands (:func:`bgrules.cli.main`), the
local runner's worker processes and the Ray tasks' workers. A program that imports bgrules and calls it
keeps its own setting: nothing here runs on import. ``BGRULES_GC=python`` keeps Python's default in
bgrules' processes too.
"""

from __future__ import annotations

import gc
import os

from bgrules.core.errors import InputError

PYTHON_DEFAULT = (700, 10, 10)
"""CPython's default thresholds (``gc.get_threshold()`` of a new 3.11 or 3.12 interpreter; where another
version has other defaults, they are left as they are)."""
RUNNERS = (700, 10, 100)
"""The thresholds bgrules' own processes run with: see the module doc."""
ENV = "BGRULES_GC"
"""``runners`` (the default) or ``python`` (keep Python's thresholds)."""
CHOICES = ("runners", "python")


def choice() -> str:
    """The value of ``BGRULES_GC`` (``runners`` when unset or empty); InputError naming it when it is
    neither choice."""
    value = os.environ.get(ENV, "").strip().lower() or "runners"
    if value not in CHOICES:
        raise InputError(ENV, f"{os.environ.get(ENV)!r} is not one of {', '.join(CHOICES)}")
    return value


def for_runners() -> bool:
    """Set the collector's thresholds to :data:`RUNNERS` in one of bgrules' own processes, unless
    ``BGRULES_GC=python`` or the thresholds are no longer Python's default. Returns whether they were
    set. Called by the CLI and by workers, never on import."""
    if choice() == "python" or gc.get_threshold() != PYTHON_DEFAULT:
        return False
    gc.set_threshold(*RUNNERS)
    return True
