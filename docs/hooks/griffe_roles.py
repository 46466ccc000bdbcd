"""A griffe extension for the API reference: the docstrings' Sphinx roles as Markdown code.

The docstrings write ``:class:`IllegalAction``` and ``:func:`bgrules.core.coverage.refusal``` (read by people in
the source and by ``help()``); Markdown has no roles, so mkdocstrings would print them as they are. Each role
becomes a code span of its target (``~a.b.C`` shows ``C``, as Sphinx does); the docstrings themselves stay.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:class|func|meth|mod|data|attr|obj|exc|const):`(~?)([^`]+)`")


def plain(text: str) -> str:
    """``text`` with every Sphinx role replaced by a code span of its target."""

    def span(match: re.Match[str]) -> str:
        target = match.group(2).strip()
        if match.group(1):
            target = target.rsplit(".", 1)[-1]
        return f"`{target}`"

    return ROLE.sub(span, text)


class SphinxRoles(griffe.Extension):
    """Rewrites the docstring of every object griffe loads."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = plain(obj.docstring.value)
