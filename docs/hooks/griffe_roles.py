"""A griffe extension for the API reference: the docstrings' reST roles and literal blocks as Markdown.

The docstrings write ``:class:`IllegalAction``` and ``:func:`bgrules.core.coverage.refusal``` (read by people in
the source and by ``help()``); Markdown has no roles, so mkdocstrings would print them as they are. Each role
becomes its target in code, linked to the target's entry when the reference shows it: the name is resolved in
the docstring's own scope (its module's imports included), and the link is an optional cross-reference, so a
target the reference does not show (a private or undocumented one, or outside bgrules) stays plain code and
never fails the strict build. ``~a.b.C`` shows ``C``, as Sphinx does. The docstrings themselves stay as written.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:class|func|meth|mod|data|attr|obj|exc|const):`(~?)([^`]+)`")
LITERAL = re.compile(r"(?m)(\S)::$")
"""reST's ``text::`` before an indented literal block: Markdown shows the block as code already, so ``:``."""
ALONE = re.compile(r"(?m)^[ \t]*::[ \t]*\n")


def plain(text: str, resolve: Callable[[str], str | None] = lambda _name: None) -> str:
    """``text`` with every reST role replaced by its target in code (linked when ``resolve`` gives the
    target's full path), and reST's literal-block markers (``::``) dropped (the indented block after a
    blank line is a code block in Markdown too)."""

    def role(match: re.Match[str]) -> str:
        target = match.group(2).strip().rstrip("()")
        shown = target.rsplit(".", 1)[-1] if match.group(1) else target
        path = resolve(target)
        if path is None:
            return f"`{shown}`"
        return f'<autoref identifier="{path}" optional><code>{shown}</code></autoref>'

    return ALONE.sub("", LITERAL.sub(r"\1:", ROLE.sub(role, text)))


def _objects(obj: griffe.Object) -> Iterator[griffe.Object]:
    """``obj`` and every object defined in it (not the names it imports)."""
    yield obj
    for member in obj.members.values():
        if not member.is_alias and isinstance(member, griffe.Object):
            yield from _objects(member)


def _resolver(scope: griffe.Object) -> Callable[[str], str | None]:
    def resolve(name: str) -> str | None:
        if name.startswith("bgrules."):
            return name
        head, _, rest = name.partition(".")
        try:
            base = scope.resolve(head)
        except griffe.NameResolutionError:
            return None
        return f"{base}.{rest}" if rest else base

    return resolve


class SphinxRoles(griffe.Extension):
    """Rewrites the docstring of every object of a package once the package is loaded (so that names
    resolve across its modules)."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        for obj in _objects(pkg):
            if obj.docstring is not None:
                obj.docstring.value = plain(obj.docstring.value, _resolver(obj))
