"""Chance in Bot Factory: the pending draws (parts, Project tiles, contracts), their exact outcomes, and the
piles that take their discards back (BF-PILE)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from bgrules.botfactory.base import _HAND_PARTS, Base, _set
from bgrules.botfactory.state import BotFactoryState, DrawContract, DrawPart, DrawProject
from bgrules.core import coverage
from bgrules.core.errors import IllegalAction
from bgrules.core.fastevolve import copier, evolve

# a draw's copies, by position (``fastevolve.copier``)
_DRAWN_PROJECT = copier(BotFactoryState, "draws", "project_pile", "grid")
_DRAWN_TO_WHEEL = copier(BotFactoryState, "draws", "piles", "marker", "wheel")
_DRAWN_TO_SPARE = copier(BotFactoryState, "draws", "piles", "marker", "spares")
_DRAWN_TO_HAND = copier(BotFactoryState, "draws", "piles", "marker", "hands")


class Draws(Base):
    def _chance_outcomes(self, state: BotFactoryState) -> tuple[tuple[Any, Fraction], ...]:
        """The next draw's outcomes with exact probabilities (memoised per pile contents; ``chance_outcomes``
        memoises the last state)."""
        if not state.draws:
            return ()
        key = self._chance_key(state)
        found = self._chance_memo.get(key)
        if found is None:
            found = self.memos.put(self._chance_memo, key, self._outcomes(key[0], key[1]))
        return found

    def _chance_key(self, state: BotFactoryState) -> tuple[Any, ...]:
        """What the next draw's outcomes depend on: its kind and the contents drawn from."""
        what, source, _dest, _a, _b = state.draws[0]
        if what == "contract":
            return ("contract", state.contract_pool)
        if what == "project":
            return ("project", state.project_pile)
        return ("part", state.piles[self._source(state, source)])

    def _possible(self, state: BotFactoryState, action: Any) -> bool:
        """``action`` is one of the next draw's outcomes: the very object offered (a playout's draw) at once;
        otherwise, for the draw classes, by a set of them memoised beside the outcomes; any other object is
        compared with each outcome."""
        outcomes = self.chance_outcomes(state)
        for a, _p in outcomes:
            if a is action:
                return True
        if type(action) not in (DrawPart, DrawProject, DrawContract):
            return any(action == a for a, _p in outcomes)
        key = self._chance_key(state)
        sets = self.memos["chance_sets"]
        found = sets.get(key)
        if found is None:
            found = self.memos.put(sets, key, frozenset(a for a, _p in self.chance_outcomes(state)))
        return action in found

    def _outcomes(self, what: str, counts: tuple[int, ...]) -> tuple[tuple[Any, Fraction], ...]:
        """The outcomes of a draw from ``counts`` (the contract ids left, or the tiles of each colour or
        slot): each outcome pair, its object and its probability, built once per game and shared by every
        answer (``_outcome``, the ``draw_actions`` memo, ``_fraction``)."""
        acts = self.memos["draw_actions"]
        if not acts:
            acts.update({("contract", i): DrawContract(i) for i in self.contracts})
            acts.update({("project", i): DrawProject(col) for i, col in enumerate(self.colours)})
            acts.update({("part", i): DrawPart(slot) for i, slot in enumerate(self.slots)})
        pair = self._outcome
        if what == "contract":
            n = len(counts)
            return tuple([pair(what, i, 1, n) for i in counts])
        total = sum(counts)
        kinds = self.colours if what == "project" else self.slots
        if len(counts) != len(kinds):  # zip(strict=True)'s refusal of a malformed pile
            raise ValueError(f"{what} counts {counts!r} do not match {kinds!r}")
        return tuple([pair(what, i, k, total) for i, k in enumerate(counts) if k])

    def _outcome(self, what: str, i: int, k: int, n: int) -> tuple[Any, Fraction]:
        """The outcome pair (the ``i``-th draw of kind ``what``, ``Fraction(k, n)``), one shared tuple per game
        for each (the ``outcome_pairs`` memo; docs/speed.md, "Bot Factory's hot path")."""
        memos = self.memos
        table: dict[tuple[str, int, int, int], tuple[Any, Fraction]] = memos["outcome_pairs"]
        key = (what, i, k, n)
        found = table.get(key)
        if found is None:
            action = memos["draw_actions"].get((what, i))
            if action is None:  # a contract id not among the game's: its own object
                action = DrawContract(i)
            found = memos.put(table, key, (action, self._fraction(k, n)))
        return found

    def _fraction(self, k: int, n: int) -> Fraction:
        """``Fraction(k, n)``, one shared object per game for each pair (the ``fractions`` memo)."""
        table: dict[tuple[int, int], Fraction] = self.memos["fractions"]
        found = table.get((k, n))
        if found is None:
            found = self.memos.put(table, (k, n), Fraction(k, n))
        return found

    @staticmethod
    def _source(state: BotFactoryState, source: int) -> int:
        return state.marker if source < 0 else source

    def _normalise_draw(self, state: BotFactoryState) -> tuple[BotFactoryState, bool]:
        """BF-PILE: before a draw, an empty pile takes its discard back (shuffled: later draws are random);
        the Distribution marker passes over piles that stay empty. Returns whether the draw can happen."""
        what, source, _dest, _a, _b = state.draws[0]
        if what == "contract":
            return state, bool(state.contract_pool)
        if what == "project":
            if not any(state.project_pile) and any(state.project_discard):
                state = evolve(state, project_pile=state.project_discard, project_discard=(0,) * 4)
            return state, any(state.project_pile)
        for _ in range(4):
            ci = self._source(state, source)
            if not any(state.piles[ci]) and any(state.discards[ci]):  # BF-PILE: the discard is reshuffled
                coverage.effect("BF-PILE")
                state = evolve(
                    state, piles=_set(state.piles, ci, state.discards[ci]), discards=_set(state.discards, ci, (0, 0, 0))
                )
            if any(state.piles[ci]) or source >= 0:
                return state, any(state.piles[ci])
            state = evolve(state, marker=(state.marker + 1) % 4)
        return state, False

    def _resolve_draw(self, state: BotFactoryState, action: Any) -> BotFactoryState:
        if not self._possible(state, action):
            raise IllegalAction("BF-PILE", f"{action!r} is not a possible chance outcome here")
        _what, source, dest, a, b = state.draws[0]
        draws = state.draws[1:]
        if isinstance(action, DrawContract):
            pool = tuple(i for i in state.contract_pool if i != action.id)
            return evolve(state, draws=draws, contract_pool=pool, display=_set(state.display, a, action.id))
        if isinstance(action, DrawProject):
            ci = self.colour(action.colour)
            column = _set(state.grid[a], b, action.colour)
            project_pile = _set(state.project_pile, ci, state.project_pile[ci] - 1)
            return _DRAWN_PROJECT(state, draws, project_pile, _set(state.grid, a, column))
        assert isinstance(action, DrawPart)
        coverage.effect("BF-PILE")
        ci = self._source(state, source)
        si = self.slots.index(action.slot)
        pile = state.piles[ci]
        piles = _set(state.piles, ci, _set(pile, si, pile[si] - 1))
        # BF-ASM-SANDRA / BF-PROD-SANDRA: the marker moves right after each draw by it, wrapping
        marker = (state.marker + 1) % 4 if source < 0 else state.marker
        part = f"{self.colours[ci]}-{action.slot}"
        if dest == "wheel":
            return _DRAWN_TO_WHEEL(state, draws, piles, marker, _set(state.wheel, a, part))
        if dest == "spare":
            return _DRAWN_TO_SPARE(state, draws, piles, marker, _set(state.spares, a, part))
        hand = state.hands[a]
        hands = _set(state.hands, a, _HAND_PARTS(hand, tuple(sorted((*hand.parts, part)))))
        return _DRAWN_TO_HAND(state, draws, piles, marker, hands)
