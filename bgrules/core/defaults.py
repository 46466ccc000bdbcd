"""Where the default specs, proofs, clarifications and rules docs are.

The package ships them (``bgrules/defaults/``: in a checkout, links to the repository's ``specs/``,
``proofs/`` and ``docs/rules/``; in an installed wheel, copies of them), so ``bgrules verify`` works in any
directory. A directory of the same name in the current directory wins: a repository's own ``specs/``
is checked instead of the packaged ones.
"""

from __future__ import annotations

from pathlib import Path

PACKAGED = Path(__file__).resolve().parent.parent / "defaults"
"""The package's copies: ``specs``, ``proofs``, ``rules`` (``specs/clarifications`` inside ``specs``)."""

LOCAL = {"specs": Path("specs"), "proofs": Path("proofs"), "clarifications": Path("specs") / "clarifications"}
PACKAGED_PATHS = {
    "specs": PACKAGED / "specs",
    "proofs": PACKAGED / "proofs",
    "clarifications": PACKAGED / "specs" / "clarifications",
}


DEFAULT_TIMEOUT_MS = 30_000
"""The default wall budget of a proof obligation (``--timeout``, docs/proofs.md): obligations take well under
5 s on a quiet 2-core machine; the headroom keeps a busy one from turning a slow sample into ``unknown``."""


def default_dir(kind: str) -> Path:
    """The ``kind`` directory (``specs``, ``proofs`` or ``clarifications``): the current directory's when it
    has one, else the packaged one."""
    local = LOCAL[kind]
    return local if local.is_dir() else PACKAGED_PATHS[kind]


def describe_dir(kind: str, path: Path, given: bool) -> str:
    """Which ``kind`` directory a command used, in words: the one given on the command line, the current
    directory's (which replaces the shipped one), or the shipped one."""
    if given:
        return f"{kind} {path}"
    if path == LOCAL[kind]:
        return f"{kind} {path} (the current directory's, in place of the shipped {kind})"
    return f"{kind}: the shipped ones ({path})"


def source_label(kind: str, path: Path, given: bool) -> str:
    """How an error names a ``kind`` directory: ``--specs DIR``, or ``DIR (the current directory's ...)``."""
    if given:
        return f"--{kind} {path}"
    if path == LOCAL[kind]:
        return f"{path} (the current directory's {kind}, used in place of the shipped ones)"
    return str(path)


def rules_dir() -> Path:
    """The rules docs (``docs/rules``): the current directory's when it has them, else the packaged ones."""
    local = Path("docs") / "rules"
    return local if local.is_dir() else PACKAGED / "rules"


__all__ = ["DEFAULT_TIMEOUT_MS", "PACKAGED", "default_dir", "describe_dir", "rules_dir", "source_label"]
