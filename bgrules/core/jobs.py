"""Independent checks side by side: the local runner behind ``--jobs N``.

A :class:`Task` names a module-level function (``"module:function"``) and its picklable arguments.
:func:`run_tasks` runs the tasks in ``jobs`` worker processes (1: in this process, one after another) and
returns their results in the tasks' order, whatever the number of workers and whichever task finished
first, so a command's report does not depend on ``jobs``. Each task's rule coverage
(:mod:`bgrules.core.coverage`) is recorded in its worker and added to the caller's open collectors when its
result arrives, so the coverage table is the one a serial run gives.

A task that raises a deliberate bgrules error (bad input found only when it runs) stops the run: the error
is raised again in the caller, the same class with the same message.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

import attrs

from bgrules.core import coverage, gcpolicy
from bgrules.core.errors import BgrulesError, IllegalAction, InputError


@attrs.frozen
class Task:
    """One check: ``target`` (``"module:function"``) called with ``args``."""

    label: str
    """What progress shows while it runs, e.g. ``MC-INV-MONEY-NONNEGATIVE [sampled]``."""
    target: str
    args: tuple[Any, ...] = ()


@attrs.frozen
class Done:
    """A finished task: its position in the plan, its value and its wall time in seconds."""

    index: int
    task: Task
    value: Any
    seconds: float


def default_jobs() -> int:
    """Every core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def check_jobs(jobs: int | None) -> int:
    """``jobs`` as a count of workers (None: :func:`default_jobs`); a count below 1 is bad input."""
    if jobs is None:
        return default_jobs()
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise InputError("--jobs", f"a whole number of worker processes of at least 1, not {jobs!r}")
    return jobs


def _resolve(target: str) -> Callable[..., Any]:
    module, _, name = target.partition(":")
    fn = getattr(importlib.import_module(module), name)
    assert callable(fn), target
    return fn  # type: ignore[no-any-return]


def _in_worker(task: Task, parent: str | None) -> tuple[str, Any, Any, float]:
    """Run ``task`` in a worker: (status, value or error, its coverage, seconds). The coverage is
    (the counts of a recording named as the caller's open one, or None; the recordings that closed within
    the task): what the task counted outside any recording of its own belongs to the caller's recording,
    as in a serial run."""
    start = time.perf_counter()
    with coverage.collecting() as collected:
        closed: list[coverage.Counts] = []
        top: coverage.Counts | None = None
        try:
            if parent is None:
                value = _resolve(task.target)(*task.args)
            else:
                with coverage.recording(parent) as top:
                    value = _resolve(task.target)(*task.args)
        except IllegalAction as exc:
            return "illegal", (exc.rule_id, exc.why), None, time.perf_counter() - start
        except InputError as exc:
            return "input", (exc.where, exc.why), None, time.perf_counter() - start
        except BgrulesError as exc:
            return "error", str(exc), None, time.perf_counter() - start
        closed = [c for c in collected.closed if c is not top]
    return "ok", value, (top, tuple(closed)), time.perf_counter() - start


def run_isolated(task: Task, parent: str | None = None) -> tuple[str, Any, Any, float]:
    """Run ``task`` as a worker of another engine runs it (a Ray task, :mod:`bgrules.integrations.ray_engine`):
    ``(status, value or error, coverage, seconds)``, the same tuple the process pool's workers send back.
    ``parent`` names the caller's open coverage recording (None: none open). The caller passes the tuple to
    :func:`result_of` and the coverage to :func:`bgrules.core.coverage.absorb`."""
    return _in_worker(task, parent)


def result_of(status: str, value: Any) -> Any:
    """The value of a :func:`run_isolated` tuple, or its bgrules error raised again (same class, message)."""
    return _unwrap(status, value)


def _worker_init() -> None:
    coverage.detach()
    gcpolicy.for_runners()  # a worker process is bgrules' own (docs/speed.md, "The collector")


def _unwrap(status: str, value: Any) -> Any:
    if status == "ok":
        return value
    if status == "illegal":
        raise IllegalAction(*value)
    if status == "input":
        raise InputError(*value)
    raise BgrulesError(value)


def run_tasks(
    tasks: Sequence[Task],
    jobs: int = 1,
    on_start: Callable[[int, Task], None] | None = None,
    on_done: Callable[[Done], None] | None = None,
    *,
    keep: bool = True,
) -> list[Any]:
    """Run every task; their values in the tasks' order. ``on_start(index, task)`` is called when a task
    is handed to a worker, ``on_done(done)`` as each one finishes (in the order they finish). ``keep=False``:
    the values are only handed to ``on_done`` and not kept (the list returned holds None), so a long run
    that streams its results does not hold them all."""
    jobs = check_jobs(jobs)
    values: list[Any] = [None] * len(tasks)
    if jobs == 1 or len(tasks) <= 1:
        for i, task in enumerate(tasks):
            if on_start is not None:
                on_start(i, task)
            start = time.perf_counter()
            value = _resolve(task.target)(*task.args)
            if keep:
                values[i] = value
            if on_done is not None:
                on_done(Done(i, task, value, time.perf_counter() - start))
        return values
    open_recording = coverage.active()
    parent = None if open_recording is None else open_recording.checker
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    with ProcessPoolExecutor(min(jobs, len(tasks)), mp_context=context, initializer=_worker_init) as pool:
        pending: dict[Future[Any], int] = {}
        queue = list(range(len(tasks)))
        queue.reverse()

        def feed() -> None:  # keep each worker busy and one task queued behind it, so on_start is honest
            while queue and len(pending) < 2 * jobs:
                i = queue.pop()
                pending[pool.submit(_in_worker, tasks[i], parent)] = i
                if on_start is not None:
                    on_start(i, tasks[i])

        feed()
        try:
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in sorted(finished, key=lambda f: pending[f]):
                    i = pending.pop(future)
                    status, value, counts, seconds = future.result()
                    if counts is not None:
                        coverage.absorb(*counts)
                    value = _unwrap(status, value)
                    if keep:
                        values[i] = value
                    if on_done is not None:
                        on_done(Done(i, tasks[i], value, seconds))
                feed()
        except BaseException:
            for future in pending:
                future.cancel()
            raise
    return values


__all__ = ["Done", "Task", "check_jobs", "default_jobs", "result_of", "run_isolated", "run_tasks"]
