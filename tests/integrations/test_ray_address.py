"""``--address`` of ``--engine ray``: an address where something other than a Ray cluster answers is one
line at once (a web server, a silent or closing port), without waiting for Ray's own minutes of retries;
the HTTP/2 greeting check (:func:`bgrules.integrations.ray_engine._greeting`) accepts what a gRPC server
answers; Ray's own retries printed to file descriptor 2 are held back only when the connection fails."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator

import pytest

from bgrules.core.errors import InputError
from bgrules.integrations import ray_engine


@pytest.fixture
def server() -> Iterator[Callable[[Callable[[socket.socket], None]], int]]:
    """A TCP server on a free local port that treats each connection with the given function."""
    threads: list[threading.Thread] = []
    listeners: list[socket.socket] = []

    def start(handle: Callable[[socket.socket], None]) -> int:
        listener = socket.create_server(("127.0.0.1", 0))
        listeners.append(listener)

        def serve() -> None:
            while True:
                try:
                    conn, _ = listener.accept()
                except OSError:
                    return
                with conn:
                    handle(conn)

        thread = threading.Thread(target=serve, daemon=True)
        thread.start()
        threads.append(thread)
        return int(listener.getsockname()[1])

    yield start
    for listener in listeners:
        listener.close()


def _web(conn: socket.socket) -> None:
    conn.recv(1024)
    conn.sendall(b"HTTP/1.0 400 Bad Request\r\nContent-Length: 0\r\n\r\n")


def _grpc(conn: socket.socket) -> None:
    conn.sendall(b"\x00\x00\x18\x04\x00\x00\x00\x00\x00" + bytes(24))  # a SETTINGS frame, as Ray's GCS answers
    conn.recv(1024)


def _silent(conn: socket.socket) -> None:
    time.sleep(1.5)


def _closing(conn: socket.socket) -> None:
    return


def test_a_web_server_is_not_a_ray_cluster(server: Callable[..., int]) -> None:
    port = server(_web)
    with pytest.raises(InputError) as err:
        ray_engine._reachable(f"127.0.0.1:{port}")
    assert str(err.value) == (
        f"--address: 127.0.0.1:{port} answers, but not as a Ray cluster "
        "(it answered 'HTTP/1.0 400 Bad Request', not gRPC)"
    )


def test_a_grpc_server_passes_the_greeting(server: Callable[..., int]) -> None:
    port = server(_grpc)
    assert ray_engine._reachable(f"127.0.0.1:{port}") is None
    assert ray_engine._reachable(f"ray://127.0.0.1:{port}") is None


def test_a_silent_or_closing_port_is_named(server: Callable[..., int], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ray_engine, "CONNECT_TIMEOUT", 0.3)
    port = server(_silent)
    with pytest.raises(InputError, match=r"answers, but not as a Ray cluster \(no gRPC answer within 0.3 s\)"):
        ray_engine._reachable(f"127.0.0.1:{port}")
    port = server(_closing)
    # the server closes without reading: the client sees the end or a reset, as the timing falls
    with pytest.raises(InputError, match=r"(it closed the connection without|reset by peer before) a gRPC answer"):
        ray_engine._reachable(f"127.0.0.1:{port}")


def test_the_cli_says_it_in_one_line_at_once(server: Callable[..., int]) -> None:
    pytest.importorskip("ray")
    port = server(_web)
    start = time.monotonic()
    done = subprocess.run(
        [
            *[sys.executable, "-m", "bgrules", "simulate", "--game", "botfactory", "--games", "2"],
            *["--engine", "ray", "--address", f"127.0.0.1:{port}"],
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert time.monotonic() - start < 60  # Ray alone waits minutes on such an address
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        f"error: --address: 127.0.0.1:{port} answers, but not as a Ray cluster "
        "(it answered 'HTTP/1.0 400 Bad Request', not gRPC)"
    ]


def _write_fd2(text: bytes) -> None:
    os.write(2, text)


def test_fd2_is_held_back_only_when_the_connection_fails(capfd: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ConnectionError), ray_engine._stderr_held((ConnectionError,)):
        _write_fd2(b"retrying 1\nretrying 2\n")
        raise ConnectionError("no cluster")
    assert capfd.readouterr().err == ""
    with ray_engine._stderr_held((ConnectionError,)):
        _write_fd2(b"connected\n")
    assert capfd.readouterr().err == "connected\n"
    # any other error keeps what was written (a bug is never hidden)
    with pytest.raises(KeyError), ray_engine._stderr_held((ConnectionError,)):
        _write_fd2(b"a clue\n")
        raise KeyError("bug")
    assert capfd.readouterr().err == "a clue\n"
    _write_fd2(b"after\n")  # file descriptor 2 is the real one again
    assert capfd.readouterr().err == "after\n"
