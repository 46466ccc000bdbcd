"""Balance: who wins how often from which seat, with what scores, how long the games last and what ends them.

``bgrules balance`` plays ``K`` seeded games (game ``i`` from seed ``S + i``) with one agent per seat and reports,
per seat, the win rate with its 95% Wilson interval and the score's mean and spread; over the games, their length
and the end triggers that ended them (docs/balance.md). The statistics are pure functions over
:class:`GameRecord` values (:func:`summarise_games`); :func:`run_balance` is the runner that makes the records
from playouts, and :func:`plot_balance` draws a report with matplotlib (the ``plot`` extra).

Two rules of counting, both stated in the JSON:

- a game shared by several tied seats (the game's ``winners`` after its own tie-breaks) is a win for each of them,
  so the seats' win rates may add up to more than 1 (``shared_wins_count_for_each_tied_seat``, ``shared_games``);
- a game the runner cut short at its round cap or step bound is ``truncated``: it is no one's win, and it is left
  out of the win rates, the scores and the lengths (``win_rate_denominator: "finished"``); the seed has no round
  limit, so a truncated game has no result.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs

from bgrules.agents import parse_agents  # loaded only when asked for: plain random play does not need it
from bgrules.core.errors import InputError, MissingExtra
from bgrules.core.playout import Playout, playout, round_cap
from bgrules.core.playout import end_trigger as game_end_trigger
from bgrules.core.protocol import Game
from bgrules.core.stats import Summary, summarise, wilson_interval

TRUNCATED = "truncated"
"""The ``ended_by`` key of games the runner cut short (a runner's cap, not a rule)."""

CONFIDENCE = 0.95
PLOT_FORMATS = ("png", "svg")


@attrs.frozen
class GameRecord:
    """One played game, as balance counts it.

    ``winners`` is empty for a truncated game (no one's win); ``scores`` are the scores of the last state either
    way, but only a finished game's scores enter the statistics. ``length`` counts every action, chance draws
    included; ``rounds`` is the round the game ended in, for games that count rounds (else None)."""

    seed: int
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    length: int
    rounds: int | None
    ended_by: str | None
    truncated: bool

    def __attrs_post_init__(self) -> None:
        if self.truncated and (self.winners or self.ended_by is not None):
            raise InputError(f"game {self.seed}", "a truncated game has no winners and no end trigger")
        if not self.truncated and self.ended_by is None:
            raise InputError(f"game {self.seed}", "a finished game names the trigger that ended it")
        if any(not 0 <= w < len(self.scores) for w in self.winners) or len(set(self.winners)) != len(self.winners):
            raise InputError(f"game {self.seed}", f"winners {self.winners} are not distinct seats of the game")


def record_of(game: Game, played: Playout) -> GameRecord:
    """The :class:`GameRecord` of one playout of ``game``: a finished game's trigger is the playout's
    ``ended_by`` (for a Playout made without one, :func:`bgrules.core.playout.end_trigger` of its final state);
    a truncated game has no winners and no trigger."""
    final = played.final
    finished = game.is_terminal(final)
    round_of = getattr(game, "round_of", None)
    return GameRecord(
        seed=played.seed,
        scores=tuple(int(s) for s in game.scores(final)),
        winners=tuple(sorted(int(w) for w in game.winners(final))) if finished else (),
        length=len(played.actions),
        rounds=int(round_of(final)) if callable(round_of) else None,
        ended_by=(played.ended_by or game_end_trigger(game, final)) if finished else None,
        truncated=not finished,
    )


@attrs.frozen
class SeatStats:
    """One seat's results over the finished games. ``win_rate`` is None (and the interval [0, 1]) when no game
    finished; ``score`` is None then too."""

    seat: int
    agent: str
    wins: int
    shared_wins: int
    finished: int
    win_rate: float | None
    win_rate_low: float
    win_rate_high: float
    score: Summary | None


@attrs.frozen
class BalanceReport:
    """The records of a balance run and each seat's statistics (:func:`summarise_games`); the counts over the
    games (finished, truncated, shared, ended_by, length, rounds) are derived from the records."""

    game: str
    players: int
    agents: tuple[str, ...]
    records: tuple[GameRecord, ...]
    seats: tuple[SeatStats, ...]
    seed: int | None = None
    round_cap: int | None = None

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def finished(self) -> tuple[GameRecord, ...]:
        return tuple(r for r in self.records if not r.truncated)

    @property
    def truncated(self) -> int:
        return sum(1 for r in self.records if r.truncated)

    @property
    def shared_games(self) -> int:
        """Finished games won by more than one seat (a win for each of them)."""
        return sum(1 for r in self.finished if len(r.winners) > 1)

    @property
    def ended_by(self) -> dict[str, int]:
        """Games per end trigger rule ID, and :data:`TRUNCATED` (always present), in key order."""
        counts: dict[str, int] = {TRUNCATED: 0}
        for r in self.records:
            key = TRUNCATED if r.truncated else str(r.ended_by)
            counts[key] = counts.get(key, 0) + 1
        return dict(sorted(counts.items()))

    @property
    def length(self) -> Summary | None:
        """Actions per finished game (chance draws included)."""
        return summarise(r.length for r in self.finished)

    @property
    def rounds(self) -> Summary | None:
        """Rounds per finished game, for games that count rounds."""
        return summarise(r.rounds for r in self.finished if r.rounds is not None)


def summarise_games(
    game: str,
    players: int,
    agents: Sequence[str],
    records: Sequence[GameRecord],
    seed: int | None = None,
    round_cap: int | None = None,
) -> BalanceReport:
    """The balance report of ``records``, games of ``game`` with ``players`` seats played by ``agents`` (one name
    per seat). Pure: the same records give the same report."""
    if players < 1:
        raise InputError("players", f"at least 1, not {players}")
    if len(agents) != players:
        raise InputError("agents", f"{players} seats need {players} agent names, not {len(agents)}")
    for r in records:
        if len(r.scores) != players:
            raise InputError(f"game {r.seed}", f"{len(r.scores)} scores for {players} seats")
    finished = [r for r in records if not r.truncated]
    seats = []
    for seat in range(players):
        wins = sum(1 for r in finished if seat in r.winners)
        shared = sum(1 for r in finished if seat in r.winners and len(r.winners) > 1)
        low, high = wilson_interval(wins, len(finished))
        seats.append(
            SeatStats(
                seat=seat,
                agent=agents[seat],
                wins=wins,
                shared_wins=shared,
                finished=len(finished),
                win_rate=wins / len(finished) if finished else None,
                win_rate_low=low,
                win_rate_high=high,
                score=summarise(r.scores[seat] for r in finished),
            )
        )
    return BalanceReport(
        game=game,
        players=players,
        agents=tuple(agents),
        records=tuple(records),
        seats=tuple(seats),
        seed=seed,
        round_cap=round_cap,
    )


def _round(x: float | None, digits: int = 4) -> float | None:
    return None if x is None else round(x, digits)


def balance_json(report: BalanceReport) -> dict[str, Any]:
    """The public JSON of a report (docs/balance.md): ``game``, ``players``, ``games``, ``agents``, ``ended_by``
    and ``seats`` (``seat``, ``agent``, ``wins``, ``win_rate``, ``win_rate_low``, ``win_rate_high``,
    ``score_mean``, ...), and the counting rules it used."""
    length, rounds = report.length, report.rounds
    seats = []
    for s in report.seats:
        score = s.score
        seats.append(
            {
                "seat": s.seat,
                "agent": s.agent,
                "wins": s.wins,
                "shared_wins": s.shared_wins,
                "win_rate": _round(s.win_rate),
                "win_rate_low": _round(s.win_rate_low),
                "win_rate_high": _round(s.win_rate_high),
                "score_mean": None if score is None else _round(score.mean),
                "score_sd": None if score is None else _round(score.sd),
                "score_median": None if score is None else score.median,
                "score_min": None if score is None else score.min,
                "score_max": None if score is None else score.max,
            }
        )
    return {
        "game": report.game,
        "players": report.players,
        "games": report.games,
        "seed": report.seed,
        "agents": list(report.agents),
        "finished": len(report.finished),
        "truncated": report.truncated,
        "round_cap": report.round_cap,
        "ended_by": report.ended_by,
        "win_rate_denominator": "finished",
        "truncated_games_count_as": "no one's win; left out of win rates, scores and lengths",
        "shared_wins_count_for_each_tied_seat": True,
        "shared_games": report.shared_games,
        "interval": "wilson",
        "confidence": CONFIDENCE,
        "length": None if length is None else length.as_dict(2),
        "rounds": None if rounds is None else rounds.as_dict(2),
        "seats": seats,
    }


# --- the runner ------------------------------------------------------------------------------------


def resolve_agents(spec: str | None, players: int) -> tuple[tuple[Any, ...] | None, tuple[str, ...]]:
    """The agents of ``--agents SPEC`` for ``players`` seats and their names: no spec (None or "") is today's
    random play without loading bgrules.agents (``(None, ("random",) * players)``); otherwise
    ``bgrules.agents.parse_agents`` parses it (an InputError naming the valid agents on a bad name or count)."""
    if not spec:
        return None, ("random",) * players

    agents = tuple(parse_agents(spec, players))
    return agents, tuple(str(a.name) for a in agents)


def run_balance(
    game: Game,
    game_name: str,
    n_games: int,
    seed: int = 0,
    agents: tuple[Any, ...] | None = None,
    agent_names: Sequence[str] | None = None,
    max_rounds: int | None = None,
    on_game: Callable[[GameRecord], None] | None = None,
) -> BalanceReport:
    """Play ``n_games`` games of ``game`` from seeds ``seed``, ``seed + 1``, ... with ``agents`` (one per seat;
    None: uniformly random, as ``playout`` plays today) under the runner's round cap (:func:`round_cap`), and
    summarise them. Deterministic: the same arguments give the same report in any process."""
    if isinstance(n_games, bool) or not isinstance(n_games, int) or n_games < 1:
        raise InputError("--games", f"a whole number of games, at least 1, not {n_games!r}")
    if agents is not None and len(agents) != game.players:
        raise InputError("agents", f"{game.players} seats need {game.players} agents, not {len(agents)}")
    names = tuple(agent_names) if agent_names is not None else None
    if names is None:
        names = tuple(str(a.name) for a in agents) if agents is not None else ("random",) * game.players
    cap = round_cap(game, max_rounds)
    records = []
    for s in range(seed, seed + n_games):
        played = playout(game, s, max_rounds=cap, agents=agents)
        rec = record_of(game, played)
        records.append(rec)
        if on_game is not None:
            on_game(rec)
    return summarise_games(game_name, game.players, names, records, seed=seed, round_cap=cap)


# --- the plot --------------------------------------------------------------------------------------

_EXTRA = "--plot needs matplotlib, which is not installed: pip install 'bgrules[plot]'"


def check_plot_path(path: Path) -> str:
    """The plot format of ``path`` (``png`` or ``svg``, from its suffix), after checking that matplotlib is
    installed: an InputError for another suffix or a missing directory, :class:`MissingExtra` (naming the
    ``plot`` extra) without matplotlib. Called before any game is played."""
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in PLOT_FORMATS:
        raise InputError("--plot", f"a .png or .svg file, not {str(path)!r}")
    if not path.parent.is_dir():
        raise InputError("--plot", f"no directory {str(path.parent)!r} to write {path.name!r} in")
    try:
        import matplotlib.figure  # noqa: F401
    except ImportError:
        raise MissingExtra(_EXTRA) from None
    return fmt


@contextlib.contextmanager
def _svg_salt() -> Iterator[None]:
    import matplotlib

    # A fixed salt for the SVG's element ids: the same report draws the same file.
    with matplotlib.rc_context({"svg.hashsalt": "bgrules-balance"}):
        yield


def plot_balance(report: BalanceReport, path: Path) -> None:
    """Draw ``report`` to ``path`` (.png or .svg): each seat's win rate with its 95% Wilson interval beside the
    even share 1/N, and each seat's scores over the finished games (box plot)."""
    fmt = check_plot_path(path)
    from matplotlib.figure import Figure

    labels = [f"seat {s.seat}\n{s.agent}" for s in report.seats]
    xs = list(range(report.players))
    fig = Figure(figsize=(4 + 1.6 * report.players, 4.2), layout="constrained")
    win_ax, score_ax = fig.subplots(1, 2)
    rates = [s.win_rate if s.win_rate is not None else 0.0 for s in report.seats]
    below = [max(0.0, r - s.win_rate_low) for r, s in zip(rates, report.seats, strict=True)]
    above = [max(0.0, s.win_rate_high - r) for r, s in zip(rates, report.seats, strict=True)]
    win_ax.bar(xs, rates, color="#4C72B0", yerr=[below, above], capsize=6, ecolor="#222222")
    for x, s in zip(xs, report.seats, strict=True):
        win_ax.text(x, 0.02, f"{s.wins}/{s.finished}", ha="center", va="bottom", color="white", fontsize=9)
    win_ax.axhline(1 / report.players, color="#888888", linestyle="--", linewidth=1, label="even share 1/N")
    win_ax.set_xticks(xs, labels)
    win_ax.set_ylim(0, 1.15)
    win_ax.set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])
    win_ax.set_ylabel("win rate (95% Wilson interval)")
    win_ax.set_title("wins per seat (shared wins count for each)", fontsize=10)
    win_ax.legend(loc="upper right", fontsize=8)
    finished = report.finished
    if finished:
        score_ax.boxplot([[r.scores[s] for r in finished] for s in xs], positions=xs)
        score_ax.set_xticks(xs, labels)
    else:
        score_ax.text(0.5, 0.5, "no finished game", ha="center", va="center", transform=score_ax.transAxes)
        score_ax.set_xticks([])
    score_ax.set_ylabel("final score")
    score_ax.set_title("scores per seat (finished games)", fontsize=10)
    fig.suptitle(
        f"{report.game}, {report.players} players: {len(finished)} of {report.games} games finished, "
        f"{report.truncated} truncated",
        fontsize=11,
    )
    if fmt == "svg":
        with _svg_salt():
            fig.savefig(path, format="svg", metadata={"Date": None})
    else:
        fig.savefig(path, format="png", dpi=100)
