"""A campaign's shards as Ray tasks (``--engine ray``, extra ``[ray]``: ``pip install 'bgrules[ray]'``).

:func:`connect` joins the Ray cluster at ``--address`` (``host:port`` of its head, ``ray://host:port`` of a Ray
client server, or ``auto``), or starts a local Ray on this machine without one (no dashboard, only errors
logged). :func:`runner` gives a campaign engine (:data:`bgrules.runners.campaign_run.Runner`): each shard is a Ray
task calling the same function as the local runner's workers (:func:`bgrules.core.jobs.run_isolated` of a
:class:`~bgrules.core.jobs.Task` naming :func:`bgrules.runners.campaign_shards.run_shard`), at most ``in_flight``
tasks at a time, and each result is handed on as it arrives; the campaign merges them in shard order.
:func:`run_tasks` does the same for ``bgrules verify --engine ray``: the plan's checks
(:mod:`bgrules.runners.verify`) as Ray tasks, their values in the plan's order as
:func:`bgrules.core.jobs.run_tasks` gives them.

Every node must have the same bgrules installed (the results file's header names the version, and a
worker of another version refuses its shard); a ``--variant`` or ``--specs`` file is read by the workers at
the path the driver gives, so on a cluster it must be at that path on every node.

Bad input is one line: without Ray, :class:`~bgrules.core.errors.MissingExtra` naming the extra; an address
where no Ray cluster answers, an :class:`~bgrules.core.errors.InputError` naming the address (checked with a
TCP connection first, then by the HTTP/2 greeting every gRPC server, as a Ray head's GCS and a Ray client
server are, answers at once: Ray itself waits minutes before giving up on an address where something else
answers, a web server say). What Ray's own core prints to the standard error while it tries to connect is
held back when the connection fails, so the error stays one line.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from bgrules.core import coverage, gcpolicy
from bgrules.core.errors import BgrulesError, InputError, require_extra
from bgrules.core.jobs import Done, result_of, run_isolated

CONNECT_TIMEOUT = 5.0
"""Seconds to wait for the head's port to answer before saying the address is unreachable."""

_remote: Any = None


def _host_port(address: str) -> tuple[str, int] | None:
    """The host and port a ``--address`` names (None for ``auto``/``local``, which Ray resolves itself)."""
    rest = address.strip()
    if rest in ("auto", "local"):
        return None
    if "://" in rest:
        scheme, _, rest = rest.partition("://")
        if scheme != "ray":
            raise InputError("--address", f"{address!r}: a Ray address is host:port, ray://host:port or auto")
    host, sep, port = rest.rstrip("/").rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise InputError("--address", f"{address!r}: a Ray address is host:port, ray://host:port or auto")
    return host.strip("[]"), int(port)


_HTTP2_GREETING = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes(3) + b"\x04" + bytes(5)
"""The HTTP/2 client preface and an empty SETTINGS frame (RFC 9113, 3.4 and 6.5): a gRPC server answers
with a frame header of its own SETTINGS frame (type 4, the fourth byte)."""


def _reachable(address: str) -> None:
    where = _host_port(address)
    if where is None:
        return
    try:
        with socket.create_connection(where, timeout=CONNECT_TIMEOUT) as conn:
            conn.settimeout(CONNECT_TIMEOUT)
            answer = _greeting(conn)
    except OSError as exc:
        why = exc.strerror or type(exc).__name__.replace("Error", " error").lower()
        if isinstance(exc, TimeoutError) or why == "timed out":
            why = f"no answer within {CONNECT_TIMEOUT:g} s"
        raise InputError("--address", f"no Ray cluster reachable at {address} ({why})") from None
    if answer is not None:
        raise InputError("--address", f"{address} answers, but not as a Ray cluster ({answer})")


def _greeting(conn: socket.socket) -> str | None:
    """None when the server on ``conn`` answers the HTTP/2 greeting as a gRPC server does, otherwise what
    it did instead."""
    try:
        conn.sendall(_HTTP2_GREETING)
        data = b""
        while len(data) < 9:
            chunk = conn.recv(9 - len(data))
            if not chunk:
                break
            data += chunk
    except TimeoutError:
        return f"no gRPC answer within {CONNECT_TIMEOUT:g} s"
    except OSError as exc:
        return f"{exc.strerror or type(exc).__name__} before a gRPC answer"
    if len(data) == 9 and data[3] == 4:
        return None
    if not data:
        return "it closed the connection without a gRPC answer"
    with contextlib.suppress(OSError):  # the rest of its first line, to show (a web server's status line)
        conn.settimeout(min(CONNECT_TIMEOUT, 0.5))
        while len(data) < 80 and b"\n" not in data:
            chunk = conn.recv(80 - len(data))
            if not chunk:
                break
            data += chunk
    shown = data.decode("ascii", "replace").split("\r")[0].split("\n")[0]
    return f"it answered {shown!r}, not gRPC"


@contextlib.contextmanager
def _stderr_held(dropped: tuple[type[BaseException], ...]) -> Iterator[None]:
    """File descriptor 2 (where Ray's C++ core writes its connection retries) goes to a temporary file
    inside the block: what was written there is dropped when the block raises one of ``dropped`` (the
    error that follows says what went wrong, in one line) and passed on to the real standard error
    otherwise (when the block ends normally or raises anything else: nothing of a bug is hidden)."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with tempfile.TemporaryFile() as tmp:
            os.dup2(tmp.fileno(), 2)
            keep = True
            try:
                yield
            except dropped:
                keep = False
                raise
            finally:
                sys.stderr.flush()
                os.dup2(saved, 2)
                if keep:
                    tmp.seek(0)
                    written = tmp.read()
                    if written:
                        os.write(2, written)
    finally:
        os.close(saved)


def connect(address: str | None = None, *, num_cpus: int | None = None) -> Any:
    """The ``ray`` module, initialised: joined to the cluster at ``address``, or (None) a local Ray with
    ``num_cpus`` CPUs (None: every core). A Ray already initialised in this process is used as it is."""
    ray: Any = require_extra("ray", "ray", "--engine ray")
    if address:
        _reachable(address)
    if ray.is_initialized():
        return ray
    quiet = {"logging_level": logging.ERROR, "log_to_driver": False}
    if address:
        try:
            with _stderr_held((ConnectionError, TimeoutError)):
                ray.init(address=address, **quiet)
        except (ConnectionError, TimeoutError) as exc:
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            raise InputError("--address", f"no Ray cluster at {address}: {first}") from None
    else:
        # address="local": a new Ray of this process's own, even when another local Ray runs on the machine
        ray.init(address="local", num_cpus=num_cpus, include_dashboard=False, **quiet)
    return ray


def shutdown() -> None:
    """Stop this process's Ray (the local one it started, or its connection to a cluster)."""
    ray: Any = require_extra("ray", "ray", "--engine ray")
    if ray.is_initialized():
        ray.shutdown()


def _on_worker(task: Any, parent: str | None) -> tuple[str, Any, Any, float]:
    """A shard or check as a Ray task runs it: :func:`bgrules.core.jobs.run_isolated`, in a Ray worker
    of this job's own, under the runners' collector setting (:func:`bgrules.core.gcpolicy.for_runners`;
    a worker's ``BGRULES_GC`` is its node's: a value it does not know leaves Python's default)."""

    with contextlib.suppress(InputError):
        gcpolicy.for_runners()
    return run_isolated(task, parent)


def _task(ray: Any) -> Any:
    global _remote
    if _remote is None:
        _remote = ray.remote(_on_worker)
    return _remote


def _run(
    ray: Any,
    tasks: Sequence[Any],
    on_done: Callable[[int, Any, float], None],
    *,
    on_start: Callable[[int, Any], None] | None = None,
    in_flight: int | None = None,
    lost: str,
) -> None:
    """Run each :class:`~bgrules.core.jobs.Task` as a Ray task of :func:`bgrules.core.jobs.run_isolated`, at
    most ``in_flight`` at once (default: twice the cluster's CPUs); ``on_start(index, task)`` as each is
    handed to Ray, ``on_done(index, value, seconds)`` as each finishes. Each task's rule coverage is added
    here, as the local runner adds its workers'. ``lost``: what to tell the user when a task is lost."""

    remote = _task(ray)
    open_recording = coverage.active()
    parent = None if open_recording is None else open_recording.checker
    window = in_flight or max(2, 2 * int(ray.cluster_resources().get("CPU", 1)))
    queue = list(range(len(tasks)))
    queue.reverse()
    pending: dict[Any, int] = {}

    def feed() -> None:
        while queue and len(pending) < window:
            i = queue.pop()
            pending[remote.remote(tasks[i], parent)] = i
            if on_start is not None:
                on_start(i, tasks[i])

    feed()
    try:
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                i = pending.pop(ref)
                try:
                    status, value, counts, seconds = ray.get(ref)
                except ray.exceptions.RayTaskError as exc:
                    raise exc.as_instanceof_cause() from None  # a bug in a task: its own traceback
                except ray.exceptions.RayError as exc:
                    first = (str(exc).strip().splitlines() or [""])[0]
                    raise BgrulesError(
                        f"--engine ray: task {tasks[i].label} was lost ({type(exc).__name__}: {first}); {lost}"
                    ) from None
                if counts is not None:
                    coverage.absorb(*counts)
                on_done(i, result_of(status, value), seconds)
            feed()
    except BaseException:
        for ref in pending:
            with contextlib.suppress(Exception):  # a task that finished meanwhile cannot be cancelled
                ray.cancel(ref, force=True)
        raise


def runner(
    address: str | None = None, *, num_cpus: int | None = None, in_flight: int | None = None
) -> Callable[[Sequence[Any], Callable[[int, Any, float], None]], None]:
    """A campaign engine on Ray (:func:`connect` first): runs the tasks as Ray tasks, at most ``in_flight``
    at once (default: twice the cluster's CPUs), and calls ``on_done(index, value, seconds)`` as each
    finishes. Each task's rule coverage is added here, as the local runner adds its workers'."""
    ray = connect(address, num_cpus=num_cpus)
    lost = "the shards already finished are in the results file: --resume it to continue"

    def run(tasks: Sequence[Any], on_done: Callable[[int, Any, float], None]) -> None:
        _run(ray, tasks, on_done, in_flight=in_flight, lost=lost)

    return run


def run_tasks(
    tasks: Sequence[Any],
    address: str | None = None,
    on_start: Callable[[int, Any], None] | None = None,
    on_done: Callable[[Any], None] | None = None,
    *,
    num_cpus: int | None = None,
    in_flight: int | None = None,
) -> list[Any]:
    """:func:`bgrules.core.jobs.run_tasks` on Ray (``bgrules verify --engine ray``): every task as a Ray task
    calling the same function as the local workers, their values in the tasks' order, ``on_start(index,
    task)`` as each is handed to Ray and ``on_done(done)`` (a :class:`~bgrules.core.jobs.Done`) as each
    finishes, each task's rule coverage added to the caller's open recording and collectors."""

    ray = connect(address, num_cpus=num_cpus)
    values: list[Any] = [None] * len(tasks)

    def done(i: int, value: Any, seconds: float) -> None:
        values[i] = value
        if on_done is not None:
            on_done(Done(i, tasks[i], value, seconds))

    _run(ray, tasks, done, on_start=on_start, in_flight=in_flight, lost="run the command again")
    return values


def cpus(address: str | None = None) -> int:
    """The CPUs of the Ray cluster (:func:`connect` first)."""
    return int(connect(address).cluster_resources().get("CPU", 0))


__all__ = ["CONNECT_TIMEOUT", "connect", "cpus", "run_tasks", "runner", "shutdown"]
