"""``bgrules check``: a Mechanica factory file checked (legal, a loop, a collision in the next workday) by
the game's own code (:mod:`bgrules.runners.factory`), with the collision's witness written as a
trace and a page when asked."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from bgrules.runners import factory as factory_file


def check(
    path: Path,
    variant: Path | None,
    *,
    trace_path: Path | None,
    html_path: Path | None,
    say: Callable[[str], None],
) -> tuple[dict[str, Any], list[str]]:
    """The command's JSON and its lines; ``say`` is told which witness files were written (or that none)."""

    result, answer = factory_file.check(path, variant)
    if trace_path is not None or html_path is not None:
        factory_file.witness_files(path, variant, answer, trace_path, html_path, say)
    return result, factory_file.lines(result)
