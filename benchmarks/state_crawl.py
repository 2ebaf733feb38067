"""The demo crawl of ``state.py`` with memory and with Redis state, and the Redis server
it uses: a private ``redis-server`` on a free loopback port (no persistence), or the one
``--redis-url`` names, of which only this benchmark's keys are touched.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # scrapy_webclean, demo_site
sys.path.insert(0, str(Path(__file__).resolve().parent))  # dedup.py's helpers


from scrapy_webclean.state import StateUnavailable
from scrapy_webclean.state.redis import RedisBackend

ROOT = Path(__file__).resolve().parents[1]
#: The demo crawl's keys (``WEBCLEAN_REDIS_PREFIX`` with the spider ``demo``).
CRAWL_PREFIX = "demo:webclean:"


# -- Redis server ----------------------------------------------------------------------


@contextmanager
def private_redis(folder: Path) -> Iterator[str]:
    """A ``redis-server`` of our own on a free loopback port, without persistence; yields
    its URL and stops it on exit."""
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [
        binary, "--port", str(port), "--bind", "127.0.0.1",
        "--save", "", "--appendonly", "no", "--dir", str(folder),
    ]  # fmt: skip
    url = f"redis://127.0.0.1:{port}/0"
    with (folder / "redis.log").open("wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        try:
            _wait_for(url, process)
            yield url
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _wait_for(url: str, process: subprocess.Popen[bytes], timeout: float = 10.0) -> None:
    backend = RedisBackend(url)
    deadline = time.monotonic() + timeout
    try:
        while True:
            try:
                backend.ping()
                return
            except StateUnavailable:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"redis-server at {url} did not start") from None
                time.sleep(0.05)
    finally:
        backend.close()


def _keys_under(url: str, prefix: str) -> int:
    backend = RedisBackend(url, prefix)
    try:
        return sum(1 for _ in backend.client.scan_iter(match=prefix + "*", count=1000))
    finally:
        backend.close()


def _delete_under(url: str, prefix: str) -> None:
    backend = RedisBackend(url, prefix)
    try:
        backend.delete_all()
    finally:
        backend.close()


# -- the demo crawl --------------------------------------------------------------------


def crawl(state: str, redis_url: str, folder: Path) -> dict[str, Any]:
    """One ``scrapy crawl demo`` with ``WEBCLEAN_STATE=state``; never raises: a failed
    crawl is a result with an ``error``."""
    folder.mkdir(parents=True, exist_ok=True)
    out, stats_file, log_file = folder / "out.jsonl", folder / "stats.json", folder / "crawl.log"
    settings = [
        f"WEBCLEAN_STATE={state}",
        f"DEMO_STATS_FILE={stats_file}",
        f"LOG_FILE={log_file}",
        f"IMAGES_STORE={folder / 'images'}",
    ]
    if state == "redis":
        settings.append(f"REDIS_URL={redis_url}")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    result: dict[str, Any] = {"state": state}
    try:
        from demo_site.server import DemoServer

        with DemoServer() as server:
            command = [sys.executable, "-m", "scrapy", "crawl", "demo"]
            command += ["-a", f"port={server.port}", "-O", str(out)]
            for setting in settings:
                command += ["-s", setting]
            started = time.perf_counter()
            completed = subprocess.run(
                command,
                cwd=ROOT / "example_project",
                env=env,
                capture_output=True,
                text=True,
                timeout=1800,
            )
            wall = time.perf_counter() - started
    except Exception as exc:  # the demo site or the crawl itself: report, go on
        result["error"] = f"{type(exc).__name__}: {exc}"
        return result
    stats: dict[str, Any] = {}
    if stats_file.exists():
        stats = json.loads(stats_file.read_text("utf-8"))
    log = log_file.read_text("utf-8", errors="replace") if log_file.exists() else ""
    state_lines = [
        line.split("webclean state: ", 1)[1]
        for line in log.splitlines()
        if "webclean state: " in line
    ]
    problems = []
    if completed.returncode:
        problems.append(f"exit code {completed.returncode}")
    if not stats:
        problems.append("no stats written")
    elif stats.get("finish_reason") != "finished":
        problems.append(f"finish reason {stats.get('finish_reason')!r}")
    if state == "redis" and not any(line.startswith("Redis") for line in state_lines):
        problems.append("the log does not say that the Redis state was used")
    errors = [line for line in log.splitlines() if "] ERROR: " in line or " CRITICAL: " in line]
    if problems:
        tail = (errors or completed.stderr.strip().splitlines() or ["(no log)"])[-5:]
        result["error"] = "; ".join(problems) + " | " + " / ".join(tail)
    responses = int(stats.get("response_received_count", 0))
    elapsed = float(stats.get("elapsed_time_seconds", 0.0))
    result.update(
        {
            "exit_code": completed.returncode,
            "state_in_log": state_lines,
            "wall_seconds": wall,
            "elapsed_seconds": elapsed,
            "responses": responses,
            "pages_per_second": responses / elapsed if elapsed else 0.0,
            "pages_per_wall_second": responses / wall if wall else 0.0,
            "items": _count_lines(out),
            "dropped": int(stats.get("item_dropped_count", 0)),
            "log_errors": len(errors),
            "webclean_stats": {
                k: v
                for k, v in sorted(stats.items())
                if k.startswith(("webclean/dedup", "webclean/state"))
            },
        }
    )
    return result


def _count_lines(path: Path) -> int | None:
    if not path.exists():
        return None
    with path.open("rb") as handle:
        return sum(1 for line in handle if line.strip())


def crawl_both(url: str, runs: int, private: bool, folder: Path) -> list[dict[str, Any]]:
    """``runs`` demo crawls with each state, alternating, the crawl's keys deleted first."""
    crawls = []
    for number in range(runs):
        for state in ("memory", "redis"):
            print(f"crawl {number + 1}: {state} state", file=sys.stderr, flush=True)
            _clear_crawl_keys(url, private)
            run = crawl(state, url, folder / f"crawl-{number}-{state}")
            if state == "redis":
                run["redis_keys_after"] = _keys_under(url, CRAWL_PREFIX)
            crawls.append(run)
    _clear_crawl_keys(url, private)
    return crawls


@contextmanager
def redis_server(url: str | None, folder: Path) -> Iterator[str]:
    if url is not None:
        yield url
        return
    with private_redis(folder) as own:
        yield own


def _clear_crawl_keys(url: str, private: bool) -> None:
    if private:
        backend = RedisBackend(url)
        try:
            backend.client.flushall()
        finally:
            backend.close()
    else:
        _delete_under(url, CRAWL_PREFIX)
