"""The ``bgrules`` command: verify, prove, simulate, check, render, replay.

Every command exits 0 on success, 1 when a check's verdict differs from its expected one, and 2 on
bad input (with a one-line message that says where and why, never a traceback). The command line only
parses the options, calls a runner (:mod:`bgrules.runners`, :mod:`bgrules.core`) and prints what it
returns: the group and what the commands share are :mod:`bgrules.cli.base`'s, the commands are in
:mod:`bgrules.cli.checks`, :mod:`bgrules.cli.play` and :mod:`bgrules.cli.files`.
"""

from __future__ import annotations

from bgrules.cli import checks, files, play  # noqa: F401  (each module adds its commands to main)
from bgrules.cli.base import _GAME_HELP, _cwd_on_path, main

__all__ = ["_GAME_HELP", "_cwd_on_path", "main"]
