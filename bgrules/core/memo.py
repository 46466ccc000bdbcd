"""The memos of a game object: one facility, owned by the game, that holds every table the game fills to
answer faster (its options, moves, chance outcomes, shared action objects, ...).

A game makes each memo through its :class:`Memos` (``memos.memo(name, bound)``; ``memos[name]`` once
made): a plain ``dict`` (a hit is a dict's own ``get``, the fastest there is), registered by name with its
bound. ``memos.put(memo, key, value)`` stores a value, emptying the memo first once it holds more than its
bound (the answers are recomputed, never changed), and ``memos.clear()`` empties every memo together: a
memo lives and dies with its game, and no caller ever has to empty a module's cache. Data shared by many
games (a catalogue) owns its own memos, which each game's memos :meth:`~Memos.join`: ``clear()`` empties
those too.

Game-agnostic: this module imports nothing of bgrules.
"""

from __future__ import annotations

from typing import Any, TypeVar

K = TypeVar("K")
V = TypeVar("V")

__all__ = ["Memos"]


class Memos(dict[str, dict[Any, Any]]):
    """The memos of one game object, by name (``memos[name]`` is a dict's subscript): each a plain dict
    with a bound (:meth:`put`), all emptied by :meth:`clear`, which keeps them (a memo, once made, stays the
    same object for the life of its owner)."""

    __slots__ = ("_bounds", "_joined")

    def __init__(self) -> None:
        super().__init__()
        self._bounds: dict[int, int] = {}
        """Each memo's bound, by the memo's id (the memos are held here: no id is reused)."""
        self._joined: list[Memos] = []
        """Other memos emptied with these (:meth:`join`)."""

    def __reduce__(self) -> tuple[type[Memos], tuple[()]]:
        """A copy or a pickle of memos is empty memos (their answers are recomputed)."""
        return (Memos, ())

    def join(self, other: Memos) -> None:
        """Empty ``other`` whenever these are emptied (:meth:`clear`): the memos of the data a game plays
        with (e.g. its catalogue's), shared by every game of that data."""
        if other is not self and all(m is not other for m in self._joined):
            self._joined.append(other)

    def memo(self, name: str, bound: int) -> dict[Any, Any]:
        """The memo ``name``, made (empty, with ``bound``) on the first call; a later call with another
        bound is refused (one memo, one bound)."""
        found = self.get(name)
        if found is None:
            found = self[name] = {}
            self._bounds[id(found)] = bound
        elif self._bounds[id(found)] != bound:
            raise ValueError(f"memo {name!r} has bound {self._bounds[id(found)]}, not {bound}")
        return found

    def bound(self, name: str) -> int:
        """The bound of memo ``name``: past this many entries, :meth:`put` empties it first."""
        return self._bounds[id(self[name])]

    def put(self, memo: dict[K, V], key: K, value: V) -> V:
        """Store ``value`` under ``key`` in ``memo`` (one of these memos: another dict is refused with
        KeyError), emptied first when over its bound, and return it."""
        if len(memo) > self._bounds[id(memo)]:
            memo.clear()
        memo[key] = value
        return value

    def sizes(self) -> dict[str, int]:
        """The entries of each memo, by name (for a report of what a run keeps)."""
        return {name: len(m) for name, m in self.items()}

    def clear(self) -> None:
        """Empty every memo (each stays, empty: the owner answers as before, computing afresh)."""
        for m in self.values():
            m.clear()
        for other in self._joined:
            other.clear()
