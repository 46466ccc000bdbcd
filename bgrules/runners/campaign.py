"""Campaigns: many seeded games split into shards, run anywhere, merged to the serial run's answer.

A :class:`Campaign` is what a ``simulate``, ``balance`` or ``coverage`` run plays: the command, the game,
its players, variant and options, the seeds (``games`` games from ``seed``), the agents and the command's
own settings, with the bgrules version that plays them. Its seeds are split into shards of a fixed size
(``shard_size``): shard ``i`` plays seeds ``seed + i*k`` to ``seed + (i+1)*k - 1`` (the last one fewer), so
the shards do not depend on how many workers run them.

Each shard is one task (:func:`bgrules.runners.campaign_shards.run_shard`, the same function for the local runner,
:func:`bgrules.core.jobs.run_tasks`, and for Ray tasks, :mod:`bgrules.integrations.ray_engine`). A shard
returns accumulators, not game records: counts, sums, minima and maxima, and histograms of the values whose
median and spread a report shows, so the driver holds per shard a few hundred numbers whatever the number
of games. The driver merges the shards IN SHARD ORDER whichever finishes first (a finished shard waits until
the ones before it are merged), and the merged accumulators give the same JSON as the serial command with
the same seeds, apart from timings: every statistic a report shows is exact over integers (sums, counts,
``statistics.fmean``/``stdev``/``median`` of integer samples do not depend on the order of the values).

A campaign can write its results to a file as it goes (JSON lines): a header naming the campaign and the
bgrules version, then one line per finished shard, in the order they finish.
:func:`bgrules.runners.campaign_run.run_campaign` with ``resume=FILE`` reads such a file, refuses one of
another campaign or another version (one line naming the
difference; the file is left as it is), and runs only the shards it does not hold; a last line cut short
(the run was killed while writing it) is dropped and its shard played again.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import attrs

from bgrules import __version__
from bgrules.core.defaults import default_dir
from bgrules.core.errors import InputError
from bgrules.core.registry import load_game
from bgrules.runners.coverage import choice

COMMANDS = ("simulate", "balance", "coverage")
DEFAULT_SHARD_SIZE = 100
"""Games per shard: small enough that a shard's overhead (a task, a results line) is spread over a few
seconds of play, large enough that a million-game campaign is ten thousand tasks, not a million."""
ALL_GAMES = "all"
"""The game of a coverage campaign over both games (``bgrules coverage`` without ``--game``)."""
FORMAT = 1
"""The results file's format (the header's ``bgrules_campaign``)."""
FIRST_VIOLATIONS = 20
"""simulate reports the first 20 invariant violations (in seed order) and counts all of them."""
SHARD_TARGET = "bgrules.runners.campaign_shards:run_shard"


def _version() -> str:
    return str(__version__)


@attrs.frozen
class Campaign:
    """One campaign. ``options`` is the game options as given (key=value parsed); ``settings`` the command's
    own: simulate ``check``, ``max_rounds``, ``specs``; balance ``max_rounds``; coverage ``max_rounds`` and
    the game list it samples (``samples``: pairs of the game name and its player count)."""

    command: str
    game: str
    players: int
    seed: int
    games: int
    variant: str | None = None
    options: tuple[tuple[str, Any], ...] = ()
    agents: str | None = None
    settings: tuple[tuple[str, Any], ...] = ()
    shard_size: int = DEFAULT_SHARD_SIZE
    version: str = attrs.field(factory=_version)
    variant_sha256: str | None = attrs.field(default=None)

    def __attrs_post_init__(self) -> None:
        if self.command not in COMMANDS:
            raise InputError("campaign", f"command {self.command!r} is not one of {', '.join(COMMANDS)}")
        for name, value in (("--games", self.games), ("shard size", self.shard_size)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InputError(name, f"a whole number of at least 1, not {value!r}")
        if self.variant is not None and self.variant_sha256 is None:
            path = Path(self.variant)
            try:
                digest = hashlib.sha256(path.read_bytes()).hexdigest()
            except OSError as exc:
                raise InputError(f"--variant {self.variant}", exc.strerror or str(exc)) from None
            object.__setattr__(self, "variant_sha256", digest)

    @property
    def shards(self) -> int:
        return -(-self.games // self.shard_size)

    def seeds(self, shard: int) -> range:
        """The seeds of shard ``shard``."""
        if not 0 <= shard < self.shards:
            raise InputError("shard", f"{shard} is not a shard of this campaign (0 to {self.shards - 1})")
        first = self.seed + shard * self.shard_size
        return range(first, min(first + self.shard_size, self.seed + self.games))

    def setting(self, key: str, default: Any = None) -> Any:
        return dict(self.settings).get(key, default)

    def identity(self) -> dict[str, Any]:
        """What the results file's header names (the version apart): every field that changes the games."""
        return {
            "command": self.command,
            "game": self.game,
            "players": self.players,
            "variant": self.variant,
            "variant_sha256": self.variant_sha256,
            "options": {k: v for k, v in self.options},
            "seed": self.seed,
            "games": self.games,
            "agents": self.agents,
            "settings": {k: v for k, v in self.settings},
            "shard_size": self.shard_size,
        }

    def as_json(self) -> dict[str, Any]:
        return {**self.identity(), "version": self.version}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Campaign:
        return cls(
            command=data["command"],
            game=data["game"],
            players=data["players"],
            seed=data["seed"],
            games=data["games"],
            variant=data["variant"],
            options=tuple(sorted(data["options"].items())),
            agents=data["agents"],
            settings=tuple(sorted(data["settings"].items())),
            shard_size=data["shard_size"],
            version=data["version"],
            variant_sha256=data["variant_sha256"],
        )


def make_campaign(
    command: str,
    game: str,
    *,
    players: int | None = None,
    seed: int = 0,
    games: int = 100,
    variant: str | Path | None = None,
    options: dict[str, Any] | None = None,
    agents: str | None = None,
    shard_size: int = DEFAULT_SHARD_SIZE,
    **settings: Any,
) -> Campaign:
    """A campaign with its player count resolved (the game's default when None: ``--players`` omitted and
    ``--players 4`` name the same campaign) and its settings in key order. Bad input (an unknown game, a
    player count or option the game does not have) is refused here, before anything runs."""

    opts = dict(options or {})
    if command == "coverage":
        if game != ALL_GAMES:
            choice(game)  # an unknown game is refused here
        n = players if players is not None else 0  # 0: every player count of each game
    else:
        n = load_game(game, players=players, variant=str(variant) if variant else None, **opts).players
    if agents is not None and not agents.strip():
        agents = None
    if command == "simulate":  # the workers (Ray's run elsewhere) read the driver's specs, at an absolute path
        specs = settings.get("specs")
        settings["specs"] = str((Path(specs) if specs else default_dir("specs")).resolve())
    return Campaign(
        command=command,
        game=game,
        players=n,
        seed=seed,
        games=games,
        variant=None if variant is None else str(Path(variant).resolve()),
        options=tuple(sorted(opts.items())),
        agents=agents,
        settings=tuple(sorted(settings.items())),
        shard_size=shard_size,
    )


__all__ = [
    "ALL_GAMES",
    "COMMANDS",
    "DEFAULT_SHARD_SIZE",
    "Campaign",
    "make_campaign",
]
