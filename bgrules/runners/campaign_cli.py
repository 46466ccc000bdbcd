"""The command-line side of campaigns (:mod:`bgrules.runners.campaign`) for ``simulate``, ``balance`` and
``coverage`` (their click options: :func:`bgrules.cli.base.engine_options`): one function per command
that runs its games as a campaign and returns the command's JSON, the same as the command's serial run with
the same seeds (timings apart), whatever the engine and the number of workers.

- ``--engine local`` (default) with ``--jobs N``: the shards run in N local worker processes
  (:func:`bgrules.core.jobs.run_tasks`);
- ``--engine ray [--address ADDR]``: the shards run as Ray tasks on the cluster at ADDR, or on a local Ray
  (:mod:`bgrules.integrations.ray_engine`, extra ``[ray]``);
- ``--results FILE``: each finished shard is appended to FILE (JSON lines, a header naming the campaign and
  the bgrules version first); ``--resume FILE`` continues the campaign FILE holds, running only the shards
  it does not hold, and appends to it.

A command runs as a campaign when any of these options is given (:func:`wanted`); without them it plays as
it always has.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bgrules.core.coverage import recording
from bgrules.core.errors import InputError
from bgrules.integrations import ray_engine
from bgrules.runners import campaign as cp
from bgrules.runners import campaign_merge as cp_merge
from bgrules.runners import campaign_run as cp_run
from bgrules.runners import campaign_shards as cp_shards

ENGINES = ("local", "ray")


def wanted(engine: str, jobs: int | None, address: str | None, results: Path | None, resume: Path | None) -> bool:
    """Whether a command runs as a campaign: any engine option given."""
    return engine != "local" or jobs is not None or address is not None or results is not None or resume is not None


def _runner(engine: str, jobs: int | None, address: str | None) -> cp_run.Runner:
    if engine not in ENGINES:
        raise InputError("--engine", f"local or ray, not {engine!r}")
    if engine == "local":
        if address is not None:
            raise InputError("--address", "names a Ray cluster: give it with --engine ray")
        if jobs is not None and (isinstance(jobs, bool) or jobs < 1):
            raise InputError("--jobs", f"a whole number of worker processes of at least 1, not {jobs!r}")
        return cp_run.local_runner(jobs or 1)
    if jobs is not None:
        raise InputError("--jobs", "is for --engine local (Ray places the tasks on its cluster's CPUs)")

    return ray_engine.runner(address)


@contextmanager
def _progress(title: str, total: int, quiet: bool) -> Iterator[Callable[[int, int], None]]:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(stderr=True) if sys.stderr.isatty() else Console(stderr=True, width=240)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True, disable=quiet or not console.is_terminal) as bar:
        task = bar.add_task(f"{title}: shards", total=total)
        yield lambda done, _total: bar.update(task, completed=done)


def _say(outcome: cp_run.Outcome, results: Path | None, resume: Path | None) -> None:
    s = cp_run.summary(outcome)
    where = resume or results
    print(
        f"campaign: {s['shards']} shard(s), {s['ran']} run now, {s['resumed']} read from {resume}"
        if resume is not None
        else f"campaign: {s['shards']} shard(s) run" + (f"; results in {where}" if where is not None else ""),
        file=sys.stderr,
    )


@contextmanager
def _read_back(resume: Path | None) -> Iterator[None]:
    """The merged results of a resumed campaign become its command's JSON: a shard line of the file that
    holds a result of another shape (edited by hand) is an InputError naming the file, not a traceback
    (and the one line on stderr: the campaign's own line is said after the JSON is made)."""
    try:
        yield
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, ZeroDivisionError, RecursionError):
        if resume is None:
            raise
        raise InputError(f"--resume {resume}", "a shard line holds a result this campaign does not write") from None


def _run(
    c: cp.Campaign, engine: str, jobs: int | None, address: str | None, results: Path | None, resume: Path | None
) -> cp_run.Outcome:
    cp_run.check_files(c, results, resume)  # bad files are refused before an engine starts
    runner = _runner(engine, jobs, address)
    with _progress(f"bgrules {c.command}: {c.game}", cp_shards.shard_count(c), quiet=False) as show:
        outcome = cp_run.run_campaign(c, runner, results=results, resume=resume, on_shard=show)
    return outcome


def simulate(
    *,
    game: str,
    players: int | None,
    games: int,
    seed: int,
    variant: Path | None,
    options: dict[str, Any],
    check: bool,
    max_rounds: int | None,
    agents: str | None,
    specs_dir: Path | None,
    engine: str,
    jobs: int | None,
    address: str | None,
    results: Path | None,
    resume: Path | None,
) -> dict[str, Any]:
    """``bgrules simulate``'s JSON, played as a campaign."""

    if games < 1:
        raise InputError("--games", "play at least one game")
    c = cp.make_campaign(
        "simulate",
        game,
        players=players,
        seed=seed,
        games=games,
        variant=variant,
        options=options,
        agents=agents,
        check=check,
        max_rounds=max_rounds,
        specs=str(specs_dir) if specs_dir is not None else None,
    )
    invariants = cp_merge.simulate_invariants(c)
    if check and not invariants:  # no vacuous pass: asked to check, and nothing to check with
        raise InputError(
            "--check",
            f"no invariant of {game} ({c.players} players) in {c.setting('specs')}; pass --no-check to only play",
        )
    with recording("simulate"):
        outcome = _run(c, engine, jobs, address, results, resume)
    with _read_back(resume):
        result = cp_merge.simulate_json(c, outcome.merged, outcome.seconds, invariants)
    _say(outcome, results, resume)
    return result


def balance(
    *,
    game: str,
    players: int | None,
    agents: str | None,
    games: int,
    seed: int,
    variant: Path | None,
    options: dict[str, Any],
    max_rounds: int | None,
    engine: str,
    jobs: int | None,
    address: str | None,
    results: Path | None,
    resume: Path | None,
) -> dict[str, Any]:
    """``bgrules balance``'s JSON (docs/balance.md), played as a campaign."""
    if games < 1:
        raise InputError("--games", f"a whole number of games, at least 1, not {games}")
    c = cp.make_campaign(
        "balance",
        game,
        players=players,
        seed=seed,
        games=games,
        variant=variant,
        options=options,
        agents=agents,
        max_rounds=max_rounds,
    )
    outcome = _run(c, engine, jobs, address, results, resume)
    with _read_back(resume):
        result = cp_merge.balance_json(c, outcome.merged)
    _say(outcome, results, resume)
    return result


def coverage(
    *,
    game: str | None,
    agents: str | None,
    games: int,
    players: int | None,
    seed: int,
    searched: bool,
    specs_dir: Path | None,
    proofs_dir: Path | None,
    engine: str,
    jobs: int | None,
    address: str | None,
    results: Path | None,
    resume: Path | None,
    progress: Callable[[str, int, int], None] | None = None,
) -> dict[str, Any]:
    """``bgrules coverage``'s JSON (docs/coverage.md): its sampled games played as a campaign, the searched
    specs, witnesses and proofs as the serial command runs them."""
    if games < 1:
        raise InputError("--games", f"play at least one game, not {games}")
    c = cp.make_campaign(
        "coverage", game or cp.ALL_GAMES, players=players, seed=seed, games=games, agents=agents, max_rounds=None
    )
    outcome = _run(c, engine, jobs, address, results, resume)
    with _read_back(resume):
        result = cp_merge.coverage_json(
            c, outcome.merged, specs_dir=specs_dir, proofs_dir=proofs_dir, searched=searched, progress=progress
        )
    _say(outcome, results, resume)
    return result


__all__ = ["ENGINES", "balance", "coverage", "simulate", "wanted"]
