"""The memos of a game object: one facility, owned by the game, that holds every table the game fills to
answer faster (its options, moves, chance outcomes, shared action objects, ...).

Each memo is a :class:`Memo`, a ``dict`` with a bound: ``get`` and ``in`` are a dict's own, and
``put(key, value)`` stores a value, emptying the memo first once it holds more than its bound (the answers
are recomputed, never changed). A game makes its memos through its :class:`Memos` (``memos.memo(name,
bound)``), so that they are all found in one place, by name, and ``memos.clear()`` empties them together:
a memo lives and dies with its game, and no caller ever has to empty a module's cache.

Game-agnostic: this module imports nothing of bgrules.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, TypeVar

K = TypeVar("K")
V = TypeVar("V")

__all__ = ["Memo", "Memos"]


class Memo(dict[K, V]):
    """A bounded memo: a dict emptied by ``put`` once it holds more than ``bound`` entries."""

    __slots__ = ("bound", "name")

    def __init__(self, name: str, bound: int) -> None:
        super().__init__()
        self.name = name
        self.bound = bound

    def put(self, key: K, value: V) -> V:
        """Store ``value`` under ``key`` (the memo emptied first when over its bound) and return it."""
        if len(self) > self.bound:
            self.clear()
        self[key] = value
        return value

    def __repr__(self) -> str:
        return f"Memo({self.name!r}, bound={self.bound}, entries={len(self)})"


class Memos:
    """The memos of one game object, by name: each bounded (:class:`Memo`), all emptied by :meth:`clear`."""

    __slots__ = ("_memos",)

    def __init__(self) -> None:
        self._memos: dict[str, Memo[Any, Any]] = {}

    def memo(self, name: str, bound: int) -> Memo[Any, Any]:
        """The memo ``name``, made (empty, with ``bound``) on the first call; a later call with another
        bound is refused (one memo, one bound)."""
        found = self._memos.get(name)
        if found is None:
            found = self._memos[name] = Memo(name, bound)
        elif found.bound != bound:
            raise ValueError(f"memo {name!r} has bound {found.bound}, not {bound}")
        return found

    def __getitem__(self, name: str) -> Memo[Any, Any]:
        return self._memos[name]

    def __contains__(self, name: object) -> bool:
        return name in self._memos

    def __iter__(self) -> Iterator[Memo[Any, Any]]:
        return iter(list(self._memos.values()))

    def sizes(self) -> dict[str, int]:
        """The entries of each memo, by name (for a report of what a run keeps)."""
        return {name: len(m) for name, m in self._memos.items()}

    def clear(self) -> None:
        """Empty every memo (the game answers as before, computing afresh)."""
        for m in self._memos.values():
            m.clear()
