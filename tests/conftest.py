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
#: Why the Redis Cluster tests are skipped where they are.
NO_REDIS_CLUSTER = (
    "no Redis Cluster: redis-server or redis-cli is not installed (make system-deps installs both)"
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
    file, so that a restarted server has the data it had; ``args``: more options, and
    ``port`` a port of the caller's)."""

    def __init__(
        self,
        workdir: Path,
        persist: bool = False,
        args: tuple[str, ...] = (),
        port: int | None = None,
    ) -> None:
        self.persist = persist
        self.args = args
        self.port = port if port is not None else free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.workdir = workdir
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        binary = shutil.which("redis-server")
        assert binary is not None
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "yes" if self.persist else "no", "--appendfsync", "always",
             "--dir", str(self.workdir), *self.args],
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


#: A cluster node's bus listens on its port + 10000.
CLUSTER_BUS_OFFSET = 10000


def free_cluster_port(taken: set[int]) -> int:
    """A free loopback port, not in ``taken``, whose cluster bus port is free too."""
    while True:
        port = free_port()
        if port in taken or port + CLUSTER_BUS_OFFSET > 65535:
            continue
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port + CLUSTER_BUS_OFFSET))
            except OSError:
                continue
        taken.add(port)
        return port


class RedisClusterServers:
    """A private Redis Cluster on loopback: ``masters`` ``redis-server`` processes on free
    ports, joined by ``redis-cli --cluster create`` (no replicas)."""

    def __init__(self, workdir: Path, masters: int = 3) -> None:
        taken: set[int] = set()
        self.nodes = []
        for _ in range(masters):
            port = free_cluster_port(taken)
            args = ("--cluster-enabled", "yes", "--cluster-node-timeout", "2000",
                    "--cluster-config-file", str(workdir / f"nodes-{port}.conf"))  # fmt: skip
            self.nodes.append(RedisServer(workdir, args=args, port=port))
        self.ports = [node.port for node in self.nodes]
        #: The URL of the cluster (one node; the client finds the others).
        self.url = f"redis+cluster://127.0.0.1:{self.ports[0]}"

    def start(self, timeout: float = 20.0) -> None:
        try:
            for node in self.nodes:
                node.start()
            binary = shutil.which("redis-cli")
            assert binary is not None
            create = subprocess.run(
                [binary, "--cluster", "create", *(f"127.0.0.1:{p}" for p in self.ports),
                 "--cluster-replicas", "0", "--cluster-yes"],
                capture_output=True, text=True, timeout=timeout,
            )  # fmt: skip
            if create.returncode != 0:
                raise RuntimeError(
                    f"redis-cli --cluster create failed:\n{create.stdout}{create.stderr}"
                )
            if not self._wait_ok(timeout):
                raise RuntimeError(f"the Redis Cluster on {self.ports} is not ok in {timeout} s")
        except BaseException:
            self.stop()
            raise

    def _wait_ok(self, timeout: float) -> bool:
        """Wait until every node says ``cluster_state:ok`` with all 16384 slots assigned."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(self._node_ok(port) for port in self.ports):
                return True
            time.sleep(0.1)
        return False

    @staticmethod
    def _node_ok(port: int) -> bool:
        import redis

        with redis.Redis(port=port, socket_timeout=1, decode_responses=True) as client:
            info: dict[str, str] = client.execute_command("CLUSTER INFO")  # (parsed: a dict)
        return info.get("cluster_state") == "ok" and info.get("cluster_slots_assigned") == "16384"

    def node_clients(self) -> list[Any]:
        """A plain client of each node (``close`` them)."""
        import redis

        return [redis.Redis(port=port, socket_timeout=5) for port in self.ports]

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisClusterServers]:
    """A 3-master Redis Cluster for the tests, or a skip saying why there is none."""
    if shutil.which("redis-server") is None or shutil.which("redis-cli") is None:
        pytest.skip(NO_REDIS_CLUSTER)
    cluster = RedisClusterServers(tmp_path_factory.mktemp("redis-cluster"))
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture()
def redis_cluster_url(redis_cluster: RedisClusterServers) -> Iterator[str]:
    """The test Redis Cluster's URL, every master emptied before each test."""
    for client in redis_cluster.node_clients():
        with client:
            client.flushall()
    yield redis_cluster.url
