"""``bgrules check``: a Mechanica factory file checked (legal, a loop, a collision in the next workday) by
the game's own code (:mod:`bgrules.mechanica.factory_file`), with the collision's witness written as a
trace and a page when asked."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any


def check(
    path: Path,
    variant: Path | None,
    *,
    trace_path: Path | None,
    html_path: Path | None,
    say: Callable[[str], None],
) -> tuple[dict[str, Any], list[str]]:
    """The command's JSON and its lines; ``say`` is told which witness files were written (or that none)."""
    from bgrules.mechanica import factory_file

    result, answer = factory_file.check(path, variant)
    if trace_path is not None or html_path is not None:
        factory_file.witness_files(path, variant, answer, trace_path, html_path, say)
    return result, factory_file.lines(result)
