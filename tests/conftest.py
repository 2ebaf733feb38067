"""Shared fixtures: a real Redis server on loopback, started by the tests themselves."""

from __future__ import annotations

import contextlib
import inspect
import os
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

#: Why the Redis tests are skipped where they are.
NO_REDIS = (
    "no Redis: redis-server is not installed (make system-deps installs it) and "
    "WEBCLEAN_TEST_REDIS_URL is not set"
)


#: Words in a skip reason that name a missing system package, and what brings them all in.
SYSTEM_PACKAGE_WORDS = ("redis-server", "chromium", "java", "no redis")
SYSTEM_PACKAGE_COMMAND = "sudo make system-deps  (then make test again)"


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Close the run with what was skipped, by reason, and the one command that brings the
    skipped tests in: a skip is never silent."""
    skipped = terminalreporter.stats.get("skipped", [])
    if not skipped:
        return
    reasons: dict[str, int] = {}
    for report in skipped:
        longrepr = report.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        reason = reason.removeprefix("Skipped: ")
        reasons[reason] = reasons.get(reason, 0) + 1
    write = terminalreporter.write_line
    terminalreporter.section("what was skipped", sep="-")
    for reason, count in sorted(reasons.items(), key=lambda item: -item[1]):
        write(f"{count:4d} skipped: {reason}")
    if any(word in reason.lower() for reason in reasons for word in SYSTEM_PACKAGE_WORDS):
        write(f"To run them: {SYSTEM_PACKAGE_COMMAND}")


def drive(result: Any) -> Any:
    """The value of a ``process_item`` that may be a coroutine: with the in-memory state
    and no event loop, it never waits, so it is driven by hand."""
    if not inspect.iscoroutine(result):
        return result
    try:
        result.send(None)
    except StopIteration as stop:
        return stop.value
    raise AssertionError("process_item waited without an event loop")


@contextlib.contextmanager
def serving(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """A threaded HTTP server of ``handler`` on a free loopback port: its base URL (no
    trailing slash), shut down on leaving."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _ping(url: str, timeout: float) -> bool:
    import redis

    client = redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)
    deadline = time.monotonic() + timeout
    try:
        while True:
            try:
                return bool(client.ping())
            except redis.exceptions.ConnectionError:
                if time.monotonic() > deadline:
                    return False
                time.sleep(0.05)
    finally:
        client.close()


class RedisServer:
    """A private ``redis-server`` on a free loopback port (``persist``: an append-only
    file, so that a restarted server has the data it had)."""

    def __init__(self, workdir: Path, persist: bool = False) -> None:
        self.persist = persist
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.workdir = workdir
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        binary = shutil.which("redis-server")
        assert binary is not None
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "yes" if self.persist else "no", "--appendfsync", "always",
             "--dir", str(self.workdir)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        if not _ping(self.url, timeout=10):
            self.stop()
            raise RuntimeError(f"redis-server did not answer on port {self.port}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """A Redis server for the tests, or a skip saying why there is none."""
    if shutil.which("redis-server") is None:
        url = os.environ.get("WEBCLEAN_TEST_REDIS_URL")
        if not url or not _ping(url, timeout=2):
            pytest.skip(NO_REDIS)
        server = RedisServer(tmp_path_factory.mktemp("redis"))
        server.url = url
        yield server
        return
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture()
def redis_url(redis_server: RedisServer) -> Iterator[str]:
    """The test Redis server's URL, emptied before each test."""
    import redis

    client = redis.Redis.from_url(redis_server.url)
    client.flushdb()
    client.close()
    yield redis_server.url
