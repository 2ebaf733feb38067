"""Fault injection: the crawl's Redis unreachable at start-up, or away ~10 s mid-crawl.

Real ``scrapy crawl demo`` subprocesses against the demo site on loopback, with cleaning
workers and ``WEBCLEAN_STATE = "redis"`` (the helpers of ``test_faults_interrupt``), and a
``redis-server`` each test starts on a loopback port of its own (``conftest.RedisServer``).
Times are only asserted as generous hang-guards.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from demo_site.server import DemoServer
from tests.conftest import RedisServer
from tests.test_e2e_crawl import copy_groups
from tests.test_faults_interrupt import (  # noqa: F401 (no_process_left: the clean-up)
    WORKERS,
    Crawl,
    no_process_left,
    pages_served,
    still_running,
)

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc"),
]
pytest.importorskip("redis")

#: Hang-guards (a crawl of the demo site takes 10-30 s).
CRAWL_SECONDS = 180
#: How long Redis is away in the outage test.
OUTAGE_SECONDS = 10
#: Longest wait for a crawl to end after one Ctrl-C while Redis is away (a hang-guard:
#: its duplicate checks give up 10 s after the stop began).
STOP_SECONDS = 60
#: The demo spider's keys of our state in Redis.
PREFIX = "demo:webclean:"


@pytest.fixture(scope="module")
def site() -> Iterator[DemoServer]:
    with DemoServer() as server:
        yield server


def needs_redis_server() -> None:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (make system-deps installs it)")


def test_an_unreachable_redis_stops_the_crawl_at_start_up(site: DemoServer, tmp_path: Path) -> None:
    dead = RedisServer(tmp_path).url  # nothing listens on its port
    crawl = Crawl(site, tmp_path, "dead", WORKERS, "WEBCLEAN_STATE=redis", f"REDIS_URL={dead}")
    try:
        _, stderr = crawl.process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("the crawl did not stop by itself within 60 s")
    log = (tmp_path / "dead.log").read_text("utf-8") + stderr.decode("utf-8", "replace")
    assert crawl.process.returncode != 0
    assert f"Redis at REDIS_URL = '{dead}' does not answer" in log
    assert "WEBCLEAN_REDIS_REQUIRED = False" in log  # what to do about it
    assert pages_served(site) == crawl.served_before  # not one request
    assert not (tmp_path / "dead.jsonl").exists()
    assert not still_running(crawl)


def test_allowed_to_start_without_redis_one_ctrl_c_ends_the_crawl_soon(
    site: DemoServer, tmp_path: Path
) -> None:
    """``WEBCLEAN_REDIS_REQUIRED = False``: the crawl starts and says it runs without
    Redis; its duplicate checks wait for it (``WEBCLEAN_STATE_RETRY_SECONDS``, 300 s by
    default). One Ctrl-C then ends the crawl within seconds, not minutes: the checks give
    up (their items go on unchecked, counted, none lost), and the closing summary does not
    wait on the dead server."""
    dead = RedisServer(tmp_path).url
    crawl = Crawl(
        site, tmp_path, "without", WORKERS, "WEBCLEAN_STATE=redis", f"REDIS_URL={dead}",
        "WEBCLEAN_REDIS_REQUIRED=False",
    )  # fmt: skip
    log_path = tmp_path / "without.log"
    crawl.wait_until(
        lambda: log_path.exists() and "retrying in" in log_path.read_text("utf-8"),
        "a duplicate check waiting for Redis",
    )
    crawl.ctrl_c()
    stopped = time.monotonic()
    part = crawl.finish(STOP_SECONDS)  # a hang-guard: it used to wait 300 s per check
    assert time.monotonic() - stopped < STOP_SECONDS
    stats, log = part["stats"], part["log"]
    assert stats["finish_reason"] == "shutdown"
    assert "starting without it (WEBCLEAN_REDIS_REQUIRED = False)" in log
    assert stats["webclean/dedup/unchecked/state_unavailable"] > 0
    assert "unknown (the state store does not answer) documents indexed" in log
    assert stats["webclean/state/pages_without_template"] == stats["webclean/items/cleaned"]
    dropped = sum(v for k, v in stats.items() if k.startswith("webclean/items/dropped/"))
    assert stats["webclean/items/in"] == stats["webclean/items/exported"] + dropped
    assert len(part["items"]) == stats["webclean/items/exported"] > 0
    assert not still_running(crawl)


def test_redis_away_10_s_mid_crawl_writes_what_was_held_and_drops_no_page_falsely(
    site: DemoServer, tmp_path: Path
) -> None:
    needs_redis_server()
    import redis

    server = RedisServer(tmp_path / "redis", persist=True)
    server.workdir.mkdir()
    server.start()
    try:
        crawl = Crawl(
            site, tmp_path, "outage", WORKERS, "WEBCLEAN_STATE=redis", f"REDIS_URL={server.url}",
            "CONCURRENT_REQUESTS=2",
        )  # fmt: skip
        crawl.wait_for_pages(40)
        server.stop()  # Redis goes away (its append-only file kept) ...
        away = time.monotonic()
        crawl.wait_until(lambda: time.monotonic() - away >= OUTAGE_SECONDS, "the outage")
        server.start()  # ... and comes back on the same port with its data
        part = crawl.finish(CRAWL_SECONDS)
        client = redis.Redis.from_url(server.url)
        learned = {
            key.decode(): int(float(client.hget(key, "#pages") or 0))
            for key in client.scan_iter(match=PREFIX + "tpl:*")
        }
        client.close()
    finally:
        server.stop()
    stats, log, items = part["stats"], part["log"], part["items"]
    assert "is unavailable" in log and "is back" in log
    # The crawl went on: pages were cleaned while Redis was away, without their template,
    # and that is said (once in the log, then counted).
    assert stats["webclean/state/pages_without_template"] > 0
    assert stats["webclean/state/empty_reads"] > 0  # the ad filter's reads, empty meanwhile
    assert "cleaned without its site's template" in log
    # Held-back learning was written when Redis came back; what could not be is counted.
    assert "learning writes kept while redis was away written" in log
    lost = stats["webclean/state/lost_writes"]
    if lost == 0:
        # Every page's template learning reached Redis. A write in flight when Redis went
        # away may have been applied before the connection broke, then kept and written
        # again: at most one page per process (the crawl's and each worker's) counts twice.
        cleaned, processes = stats["webclean/items/cleaned"], int(WORKERS.split("=")[1]) + 1
        assert cleaned <= sum(learned.values()) <= cleaned + processes
    # No page dropped as an exact copy of a page it does not copy (list pages cleaned
    # without the template share their sidebars: passed on, counted).
    groups = copy_groups(site.truth)
    group_of = {url: original for original, urls in groups.items() for url in urls}
    drops = re.findall(r"webclean: (\S+) is an? (exact|near) duplicate of (\S+)", log)
    false = [(url, of) for url, _, of in drops if group_of.get(url, url) != group_of.get(of, of)]
    assert not false
    assert len(drops) == stats["webclean/dedup/dropped"]
    # Nothing lost, nothing exported twice.
    assert not [key for key in stats if key.startswith("webclean/dedup/unchecked")]
    assert stats["webclean/items/in"] == len(items) + len(drops)
    exported = Counter(item["url"] for item in items)
    assert not [url for url, n in exported.items() if n > 1]
    assert all(sum(url in exported for url in urls) == 1 for urls in groups.values())
