"""Running a campaign: its results file (JSON lines, resumed with ``--resume``), the runner that plays its
shards (local jobs or Ray), and the merged outcome (:func:`run_campaign`)."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

from bgrules.core.errors import BgrulesError, InputError
from bgrules.core.jobs import Task, check_jobs, run_tasks
from bgrules.runners.campaign import (
    FORMAT,
    SHARD_TARGET,
    Campaign,
)
from bgrules.runners.campaign_merge import Merger
from bgrules.runners.campaign_shards import shard_count

# --- the results file --------------------------------------------------------------------------------


def header(c: Campaign) -> dict[str, Any]:
    return {"bgrules_campaign": FORMAT, "version": c.version, "campaign": c.identity(), "shards": shard_count(c)}


def _show(v: Any) -> str:
    return json.dumps(v, sort_keys=True)


def _difference(theirs: Any, ours: dict[str, Any]) -> str:
    if not isinstance(theirs, dict):
        return "its header names no campaign"
    for key in ours:
        if theirs.get(key) != ours[key]:
            return f"{key} is {_show(theirs.get(key))} there, {_show(ours[key])} here"
    extra = sorted(set(theirs) - set(ours))
    return f"it names {', '.join(extra)}, which this campaign has not"


@attrs.frozen
class Finished:
    """What a results file holds: each finished shard's result and seconds, by shard; ``keep`` is the
    number of bytes that hold whole lines (a last line cut short is not kept)."""

    results: dict[int, dict[str, Any]]
    seconds: dict[int, float]
    keep: int
    size: int


def read_results(path: Path, c: Campaign) -> Finished:
    """The finished shards of ``path``, after checking its header names ``c`` and this bgrules version (an
    InputError naming the difference otherwise; the file is not touched). A last line without its newline
    (cut short) is left out; any other line that is not a shard line is an InputError."""
    where = str(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"--resume {where}", "no such results file") from None
    except OSError as exc:
        raise InputError(f"--resume {where}", exc.strerror or str(exc)) from None
    lines = data.split(b"\n")
    whole = lines[:-1]  # the piece after the last newline is a line cut short (or empty)
    if not whole:
        raise InputError(where, "not a bgrules campaign results file (no header line)")
    try:
        head = json.loads(whole[0])
    except (ValueError, RecursionError):  # not JSON, a number too long to read, or nested too deeply
        head = None
    if not isinstance(head, dict) or head.get("bgrules_campaign") != FORMAT:
        raise InputError(where, "not a bgrules campaign results file (its first line is not a campaign header)")
    if head.get("version") != c.version:
        raise InputError(
            where,
            f"written by bgrules {head.get('version')}, this is bgrules {c.version}: another version's shards "
            "are not merged; start a new results file",
        )
    theirs = head.get("campaign")
    if not isinstance(theirs, dict) or theirs != c.identity():
        raise InputError(where, f"the results of another campaign: {_difference(theirs, c.identity())}")
    results: dict[int, dict[str, Any]] = {}
    seconds: dict[int, float] = {}
    total = shard_count(c)
    for number, line in enumerate(whole[1:], start=2):
        try:
            row = json.loads(line)
            shard, result = row["shard"], row["result"]
            spent = row.get("seconds", 0.0)
            ok = (
                type(shard) is int
                and 0 <= shard < total
                and isinstance(result, dict)
                and type(spent) in (int, float)
                and 0 <= spent < float("inf")
            )
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
            ok = False
        if not ok:
            raise InputError(f"{where}:{number}", "not a shard line of this campaign; the file was left as it is")
        results.setdefault(shard, result)
        seconds.setdefault(shard, float(spent))
    return Finished(results, seconds, keep=len(data) - len(lines[-1]), size=len(data))


def _fresh(path: Path) -> None:
    if path.exists() and (not path.is_file() or path.stat().st_size > 0):
        raise InputError(
            f"--results {path}",
            "the file exists; continue it with --resume, or name another file (it was left as it is)",
        )


def check_files(c: Campaign, results: Path | None, resume: Path | None) -> Finished | None:
    """The finished shards of ``resume`` (None without one), after checking the files a campaign would
    write: ``resume`` must be this campaign's results file (:func:`read_results`), ``results`` a new file
    (an existing one is never overwritten), and with both, the same file."""
    if resume is not None and results is not None and Path(results) != Path(resume):
        raise InputError("--results", f"--resume {resume} appends to that file; --results {results} names another")
    if resume is not None:
        return read_results(resume, c)
    if results is not None:
        _fresh(results)
    return None


class ResultsFile:
    """Appends each finished shard to a results file, flushed to disk line by line."""

    def __init__(self, path: Path, c: Campaign, finished: Finished | None) -> None:
        self.path = path
        if finished is None:
            _fresh(path)
            self.out = path.open("w", encoding="utf-8")
            self._write(header(c))
        else:
            if finished.keep < finished.size:  # drop the line cut short before appending after it
                with path.open("r+b") as f:
                    f.truncate(finished.keep)
            self.out = path.open("a", encoding="utf-8")

    def _write(self, row: dict[str, Any]) -> None:
        self.out.write(json.dumps(row, separators=(",", ":")) + "\n")
        self.out.flush()
        os.fsync(self.out.fileno())

    def shard(self, shard: int, seeds: range | None, result: dict[str, Any], seconds: float) -> None:
        row: dict[str, Any] = {"shard": shard}
        if seeds is not None:
            row["seeds"] = [seeds.start, seeds.stop - 1]
        self._write({**row, "seconds": round(seconds, 4), "result": result})

    def close(self) -> None:
        self.out.close()


# --- running ----------------------------------------------------------------------------------------


@attrs.frozen
class Outcome:
    """A finished campaign: the merged accumulators, the shards run now and the ones read from the file,
    the wall time of this run and the shards' own seconds (this run's and the file's)."""

    campaign: Campaign
    merged: dict[str, Any]
    ran: tuple[int, ...]
    resumed: tuple[int, ...]
    seconds: float
    shard_seconds: float


Runner = Callable[[Sequence[Any], Callable[[int, Any, float], None]], None]
"""An engine: runs the tasks and calls ``on_done(index, value, seconds)`` as each finishes."""


def local_runner(jobs: int = 1) -> Runner:
    """The local engine: :func:`bgrules.core.jobs.run_tasks` over ``jobs`` worker processes."""

    workers = check_jobs(jobs)

    def run(tasks: Sequence[Any], on_done: Callable[[int, Any, float], None]) -> None:
        run_tasks(list(tasks), workers, on_done=lambda d: on_done(d.index, d.value, d.seconds), keep=False)

    return run


def _check_merge(c: Campaign, finished: Finished, path: Path | None) -> None:
    """The finished shards of a results file merged on trial, in shard order, before anything runs: a shard
    line whose result is not of this campaign's shape (a file edited by hand) is an InputError naming the
    file and the line's shard, never an error half-way through the run."""
    trial = Merger(c)
    for shard in sorted(finished.results):
        try:
            trial._add(finished.results[shard])
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, ZeroDivisionError, RecursionError):
            raise InputError(
                f"--resume {path}",
                f"shard {shard}'s result is not one this campaign writes; the file was left as it is",
            ) from None


def run_campaign(
    c: Campaign,
    runner: Runner | None = None,
    *,
    results: Path | None = None,
    resume: Path | None = None,
    on_shard: Callable[[int, int], None] | None = None,
) -> Outcome:
    """Run every shard of ``c`` not already in ``resume`` with ``runner`` (default: this process), append
    each to the results file (``resume``'s, else ``results`` if given) as it finishes, and merge them in
    shard order. ``on_shard(done, total)`` after each shard (for progress)."""

    finished = check_files(c, results, resume)
    total = shard_count(c)
    merger = Merger(c)
    shard_seconds = 0.0
    if finished is not None:
        _check_merge(c, finished, resume)
        for shard in sorted(finished.results):
            merger.offer(shard, finished.results[shard])
            shard_seconds += finished.seconds[shard]
    todo = [i for i in range(total) if finished is None or i not in finished.results]
    target = resume if resume is not None else results
    out = ResultsFile(target, c, finished) if target is not None else None
    data = c.as_json()
    tasks = [Task(f"{c.command} {c.game} shard {i + 1}/{total}", SHARD_TARGET, (data, i)) for i in todo]
    done = total - len(todo)
    start = time.perf_counter()

    def on_done(index: int, value: Any, seconds: float) -> None:
        nonlocal done, shard_seconds
        shard = todo[index]
        if out is not None:
            out.shard(shard, c.seeds(shard) if c.command != "coverage" else None, value, seconds)
        merger.offer(shard, value)
        shard_seconds += seconds
        done += 1
        if on_shard is not None:
            on_shard(done, total)

    try:
        if tasks:
            (runner or local_runner(1))(tasks, on_done)
    finally:
        if out is not None:
            out.close()
    if merger.done != total:
        raise BgrulesError(f"only {merger.done} of the campaign's {total} shards were merged")
    return Outcome(
        campaign=c,
        merged=merger.merged(),
        ran=tuple(todo),
        resumed=tuple(sorted(finished.results)) if finished is not None else (),
        seconds=time.perf_counter() - start,
        shard_seconds=shard_seconds,
    )


def summary(o: Outcome) -> dict[str, Any]:
    """The campaign's run apart from its result (stderr and the benchmarks): shards run and resumed."""
    return {
        "shards": shard_count(o.campaign),
        "ran": len(o.ran),
        "resumed": len(o.resumed),
        "seconds": round(o.seconds, 3),
        "shard_seconds": round(o.shard_seconds, 3),
    }


__all__ = [
    "Finished",
    "Outcome",
    "ResultsFile",
    "Runner",
    "check_files",
    "header",
    "local_runner",
    "read_results",
    "run_campaign",
    "summary",
]
