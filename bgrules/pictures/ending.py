"""How a finished game ended, in words: each seat's final score, the winner(s), and the tie-break that decided
when the best score was shared (BF-TIE, MC-END-TIE).

The scores and winners are the game's own (``game.scores``, ``game.winners``); this module only says which of
the game's tie-break steps set the winners apart from the other seats on the best score, so a picture and a
stepping page can show it.
"""

from __future__ import annotations

from typing import Any

import attrs

from bgrules.core.descriptor import find

__all__ = ["Ending", "botfactory_tie", "ending", "mechanica_tie", "seat_list"]


@attrs.frozen
class Ending:
    """A terminal state's result: ``scores`` per seat, ``winners`` (seats), ``tied`` (the seats on the best
    score, before any tie-break), ``tie_break`` (words saying what decided, with the rule's ID; empty when
    one seat had the best score) and ``trigger`` (the rule that ended the game, ``game.end_trigger``)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    tied: tuple[int, ...]
    tie_break: str
    trigger: str | None

    def words(self) -> str:
        """The result in one line: "Final scores: Player 1 12, Player 2 9. Winner: Player 1."."""
        scores = ", ".join(f"Player {i + 1} {s}" for i, s in enumerate(self.scores))
        who = ("Winners: " if len(self.winners) > 1 else "Winner: ") + seat_list(self.winners)
        tie = f" ({self.tie_break})" if self.tie_break else ""
        return f"Final score{'s' if len(self.scores) > 1 else ''}: {scores}. {who}{tie}."


def seat_list(seats: tuple[int, ...] | list[int]) -> str:
    """Seats as players' names: "Player 1", "Players 1 and 3", "Players 1, 2 and 4"."""
    names = [str(i + 1) for i in seats]
    if len(names) == 1:
        return f"Player {names[0]}"
    return "Players " + ", ".join(names[:-1]) + " and " + names[-1]


def ending(game: Any, state: Any) -> Ending | None:
    """The result of ``state`` if it is terminal (None if the game goes on)."""
    if not game.is_terminal(state):
        return None
    scores = tuple(int(s) for s in game.scores(state))
    winners = tuple(int(w) for w in game.winners(state))
    best = max(scores)
    tied = tuple(i for i, s in enumerate(scores) if s == best)
    trigger = game.end_trigger(state) if hasattr(game, "end_trigger") else None
    words = ""
    if len(tied) > 1:
        found = find(getattr(getattr(game, "info", None), "name", ""))
        if found is not None and found.tie_break is not None:  # the game's tie-break, in words
            words = str(found.part("tie_break", "ending")(game, state, tied, winners))
    return Ending(scores, winners, tied, words, trigger)


def _mechanica_tie(game: Any, state: Any, tied: tuple[int, ...], winners: tuple[int, ...]) -> str:
    """MC-END-TIE: the seed gives no tie-break (the win is shared), or money in hand breaks it (variant)."""
    on = f"{seat_list(tied)} tied on score"
    if len(winners) < len(tied):
        most = max(state.seats[i].wallet for i in tied)
        return f"{on}; the most money in hand ({most}) broke the tie, MC-END-TIE"
    if getattr(game.variant.rulings, "tie_break", "shared") == "wallet":
        return f"{on} and on money in hand, and share the win, MC-END-TIE"
    return f"{on} and share the win (the rules give no tie-break), MC-END-TIE"


def _botfactory_tie(state: Any, tied: tuple[int, ...], winners: tuple[int, ...]) -> str:
    """BF-TIE: more completed bots, then an odd number of Speech tokens; else the win is shared."""
    on = f"{seat_list(tied)} tied on score"
    most = max(len(state.hands[i].done) for i in tied)
    by_bots = tuple(i for i in tied if len(state.hands[i].done) == most)
    steps = []
    if len(by_bots) < len(tied):
        steps.append(f"more completed bots ({most})")
    if len(winners) < len(by_bots):
        steps.append("an odd number of Speech tokens")
    if steps:
        return f"{on}; {', then '.join(steps)} broke the tie, BF-TIE"
    return f"{on}, on completed bots and on the oddness of their Speech tokens, and share the win, BF-TIE"


def mechanica_tie(game: Any, state: Any, tied: tuple[int, ...], winners: tuple[int, ...]) -> str:
    """MC-END-TIE in words (the descriptor's ``tie_break`` of Mechanica and its sandbox)."""
    return _mechanica_tie(game, state, tied, winners)


def botfactory_tie(game: Any, state: Any, tied: tuple[int, ...], winners: tuple[int, ...]) -> str:
    """BF-TIE in words (the descriptor's ``tie_break`` of Bot Factory)."""
    return _botfactory_tie(state, tied, winners)
