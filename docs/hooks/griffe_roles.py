"""A griffe extension for the API reference: the docstrings' reST roles and literal blocks as Markdown.

The docstrings write ``:class:`IllegalAction``` and ``:func:`bgrules.core.coverage.refusal``` (read by people in
the source and by ``help()``); Markdown has no roles, so mkdocstrings would print them as they are. Each role
becomes a code span of its target (``~a.b.C`` shows ``C``, as Sphinx does); the docstrings themselves stay.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:class|func|meth|mod|data|attr|obj|exc|const):`(~?)([^`]+)`")
LITERAL = re.compile(r"(?m)(\S)::$")
"""reST's ``text::`` before an indented literal block: Markdown shows the block as code already, so ``:``."""
ALONE = re.compile(r"(?m)^[ \t]*::[ \t]*\n")


def plain(text: str) -> str:
    """``text`` with every Sphinx role replaced by a code span of its target, and reST's literal-block
    markers (``::``) dropped (the indented block after a blank line is a code block in Markdown too)."""

    def span(match: re.Match[str]) -> str:
        target = match.group(2).strip()
        if match.group(1):
            target = target.rsplit(".", 1)[-1]
        return f"`{target}`"

    return ALONE.sub("", LITERAL.sub(r"\1:", ROLE.sub(span, text)))


class SphinxRoles(griffe.Extension):
    """Rewrites the docstring of every object griffe loads."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = plain(obj.docstring.value)
