"""What the crawl state keeps through trouble: a JOBDIR store reopened or killed mid-crawl, a Redis
server away or never there, and the claims a resumed crawl reads (issue 18: nothing lost,
nothing silent)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from scrapy_webclean.cleaning import Cleaner, CleanOptions
from scrapy_webclean.dedup import NearDuplicateIndex
from scrapy_webclean.integration.workers import clean_page
from scrapy_webclean.state import (
    BackendDedupStore,
    BackendTemplateStore,
    Lenient,
    MemoryBackend,
    Retrying,
    SqliteBackend,
    StateUnavailable,
)
from tests.conftest import RedisServer
from tests.test_dedup import article
from tests.test_state import corpus

ROOT = Path(__file__).resolve().parent.parent
#: A bound that only catches a hang (the tests count tries; they assert no timing).
HANG_GUARD_SECONDS = 60.0
#: A page of a site with a navigation bar and a footer (``%`` a number, for its story).
PAGE = (
    "<html><head><title>Story %d</title></head><body><nav>Home News Sport</nav><article>"
    "<h1>A story</h1><p>The council voted on Tuesday to turn the old harbour exchange into "
    "an annex of the city library, after two years of consultation with residents.</p>"
    "</article><footer>Copyright Site</footer></body></html>"
)


def test_the_jobdir_store_is_there_after_reopening(tmp_path: Path) -> None:
    path = tmp_path / "state.sqlite3"
    first = SqliteBackend(path)
    index = NearDuplicateIndex(store=BackendDedupStore(first))
    for key, text in corpus():
        index.check_and_add(key, text)
    stored = len(index)
    first.close()
    again = NearDuplicateIndex(store=BackendDedupStore(SqliteBackend(path)))
    assert len(again) == stored
    assert again.check_and_add("later", article("zh", 2)) == "zh2"


_WRITER = """
import os, signal, sys
from scrapy_webclean.state import SqliteBackend
backend = SqliteBackend(sys.argv[1], commit_seconds=0.0)
for n in range(200):
    backend.add_counts("c", [(n, 1.0)])
    backend.add_record("r", b"x" * n)
backend.flush()
print("committed", flush=True)
backend.commit_seconds = 3600.0
for n in range(200, 400):  # never committed: the process dies first
    backend.add_counts("c", [(n, 1.0)])
    backend.add_record("r", b"y" * n)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_killed_crawl_loses_only_uncommitted_learning(tmp_path: Path) -> None:
    path = tmp_path / "state.sqlite3"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", _WRITER, str(path)], env=env, capture_output=True, timeout=60
    )
    assert done.returncode == -signal.SIGKILL and b"committed" in done.stdout
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    backend = SqliteBackend(path)
    assert backend.count_keys("c") == 200 and backend.count_records("r") == 200
    assert backend.get_records("r", [199, 200]) == [b"x" * 199, None]
    backend.close()


def test_lenient_learning_never_waits_on_a_dead_server(tmp_path: Path) -> None:
    import shutil

    from scrapy_webclean.state.redis import RedisBackend

    server = RedisServer(tmp_path)  # not started yet: nothing listens on its port
    lenient = Lenient(RedisBackend(server.url))
    started = time.monotonic()
    assert lenient.get_counts("c", ["a", "b"]) == [0.0, 0.0]
    lenient.add_counts("c", [("a", 1.0), ("b", 2.0)])
    lenient.add_counts("c", [("a", 1.0)])
    lenient.append("l", [(1, 1)], cap=4)
    assert lenient.count_keys("c") == 0 and lenient.get_lists("l", [1]) == [[]]
    # One failed try in all (the count is the check, not the time); the bound only
    # guards against a hang.
    assert time.monotonic() - started < HANG_GUARD_SECONDS
    assert lenient.down and lenient.failures == 1 and lenient.lost_writes == 1
    if shutil.which("redis-server") is None:
        return
    server.start()
    try:
        time.sleep(0.6)  # past the first back-off: the next call tries the server again
        # The counts kept while it was away are written when it is back.
        assert lenient.get_counts("c", ["a", "b"]) == [2.0, 2.0]
        assert not lenient.down
    finally:
        server.stop()


def test_dedup_waits_for_redis_to_come_back(tmp_path: Path) -> None:
    pytest.importorskip("redis")
    import shutil

    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (make system-deps installs it)")
    from scrapy_webclean.state.redis import RedisBackend

    server = RedisServer(tmp_path)
    waits: list[float] = []

    def sleep(seconds: float) -> None:  # the back-off: the server comes back meanwhile
        waits.append(seconds)
        if len(waits) == 2:
            server.start()

    backend = Retrying(RedisBackend(server.url, prefix="t:"), give_up_after=60, sleep=sleep)
    try:
        index = NearDuplicateIndex(store=BackendDedupStore(backend))
        assert index.check_and_add("a", article("en", 2)) is None
        assert index.check_and_add("b", article("en", 2)) == "a"
        assert waits == [0.5, 1.0]
    finally:
        server.stop()
    gone = Retrying(RedisBackend(server.url), give_up_after=0.0, sleep=lambda s: None)
    with pytest.raises(StateUnavailable, match="gave up"):
        NearDuplicateIndex(store=BackendDedupStore(gone)).check_and_add("c", "text")


# -- issue 18: nothing lost, nothing silent ------------------------------------------------


def dead_redis(tmp_path: Path) -> str:
    """The URL of a Redis that does not answer: nothing listens on its port."""
    return RedisServer(tmp_path).url


def test_lenient_writes_what_it_kept_on_reconnect_and_counts_the_rest_at_close(
    tmp_path: Path,
) -> None:
    import shutil

    from scrapy_webclean.state.redis import RedisBackend

    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (make system-deps installs it)")
    server = RedisServer(tmp_path)
    lost: list[int] = []
    lenient = Lenient(RedisBackend(server.url, prefix="k:"), on_lost=lost.append)
    assert lenient.get_counts("c", ["a"]) == [0.0] and lenient.empty_answers == 1
    lenient.add_counts("c", [("a", 1.0)])
    assert lenient.claim("v", "page", b"1") is None  # kept: the store decides later
    lenient.keep_top("c", 10)  # not kept: lost, and said so at once
    assert lenient.pending == 2 and lenient.lost_writes == 1 and lost == [1]
    server.start()
    try:
        time.sleep(0.6)  # past the first back-off
        lenient.flush()  # no other call needed: the crawl calls flush every second
        assert lenient.pending == 0 and not lenient.down
        direct = RedisBackend(server.url, prefix="k:")
        assert direct.get_counts("c", ["a"]) == [1.0]
        assert direct.get_values("v", ["page"]) == [b"1"]
        direct.close()
        server.stop()
        lenient.add_counts("c", [("a", 1.0), ("b", 1.0)])  # kept again (the server is gone)
        lenient.flush()  # within the back-off: not even tried
        started = time.monotonic()
        lenient.finish()  # at close: one last try, the rest lost and counted
        assert time.monotonic() - started < HANG_GUARD_SECONDS  # (socket timeouts)
        assert lenient.pending == 0 and lenient.lost_writes == 3 and lost == [1, 2]
    finally:
        server.stop()


def test_a_retrying_check_gives_up_soon_once_the_crawl_stops(tmp_path: Path) -> None:
    import threading

    from scrapy_webclean.state.redis import RedisBackend

    url = dead_redis(tmp_path)
    stopping = Retrying(RedisBackend(url), give_up_after=300, stopping=lambda: True,
                        stopping_give_up_after=1.0)  # fmt: skip
    started = time.monotonic()
    with pytest.raises(StateUnavailable, match="gave up"):
        stopping.count_records("dd:docs")
    assert time.monotonic() - started < HANG_GUARD_SECONDS  # not 300 s
    # stop() ends a back-off in progress at once (the crawl's close, from another thread).
    waiting = Retrying(RedisBackend(url), give_up_after=300)
    failed: list[BaseException] = []

    def check() -> None:
        try:
            waiting.count_records("dd:docs")
        except StateUnavailable as exc:
            failed.append(exc)

    thread = threading.Thread(target=check)
    thread.start()
    time.sleep(1.0)
    waiting.stop()
    thread.join(30)
    assert not thread.is_alive() and failed


def test_a_page_is_learned_once_by_url_even_after_reopening(tmp_path: Path) -> None:
    from scrapy_webclean.extraction.template import TemplateModel

    path = tmp_path / "templates.sqlite3"
    url = "http://site.example/a/1"
    for _ in range(2):  # the crawl, then the same JOBDIR resumed: the page fetched again
        backend = SqliteBackend(path, commit_seconds=0.0)
        store = BackendTemplateStore(backend)
        cleaner = Cleaner(CleanOptions(), template_model=TemplateModel(store=store))
        for n, other in enumerate((url, url, "http://site.example/a/2")):
            clean_page(cleaner, PAGE % n, other, None, False)
        backend.close()
    store = BackendTemplateStore(SqliteBackend(path))
    assert store.pages("site.example") == 2
    assert store.relearned == 0
    # Without a URL (the core's own Cleaner outside a crawl) every clean is learned.
    store.add_page("site.example", [1, 2])
    assert store.pages("site.example") == 3


def test_a_page_cleaned_while_redis_is_away_is_known_as_cleaned_blind(tmp_path: Path) -> None:
    from scrapy_webclean.extraction.template import TemplateModel
    from scrapy_webclean.state.redis import RedisBackend

    blind: list[str] = []
    lenient = Lenient(RedisBackend(dead_redis(tmp_path), socket_timeout=1.0))
    store = BackendTemplateStore(lenient, on_blind=blind.append)
    cleaned = clean_page(
        Cleaner(CleanOptions(), template_model=TemplateModel(store=store)),
        PAGE % 1,
        "http://site.example/a/1",
        None,
        False,
    )
    assert cleaned.data is not None and cleaned.template_unavailable
    assert blind == ["http://site.example/a/1"]
    healthy = BackendTemplateStore(MemoryBackend())
    cleaned = clean_page(
        Cleaner(CleanOptions(), template_model=TemplateModel(store=healthy)),
        PAGE % 1,
        "http://site.example/a/1",
        None,
        False,
    )
    assert not cleaned.template_unavailable and not healthy.blind


def test_an_unreachable_redis_stops_the_crawl_at_start_up(tmp_path: Path) -> None:
    from scrapy.utils.test import get_crawler

    from scrapy_webclean.integration.state import CrawlState, RedisUnreachable

    url = dead_redis(tmp_path)
    settings = {"WEBCLEAN_STATE": "redis", "REDIS_URL": url}
    started = time.monotonic()
    with pytest.raises(RedisUnreachable, match=r"REDIS_URL = 'redis://127\.0\.0\.1:\d+/0'"):
        CrawlState(get_crawler(settings_dict=settings))
    assert time.monotonic() - started < HANG_GUARD_SECONDS  # one connect timeout
    # Allowed to start without it: it starts, says so, and its counts do not wait.
    state = CrawlState(get_crawler(settings_dict={**settings, "WEBCLEAN_REDIS_REQUIRED": False}))
    started = time.monotonic()
    assert state.count_documents() is None
    assert time.monotonic() - started < HANG_GUARD_SECONDS
    state.close()


def test_jobdir_claims_are_committed_before_the_item_goes_on(tmp_path: Path) -> None:
    from scrapy.utils.test import get_crawler

    from scrapy_webclean.integration.state import CrawlState

    crawler = get_crawler(
        settings_dict={"WEBCLEAN_STATE": "jobdir", "JOBDIR": str(tmp_path / "job")}
    )
    state = CrawlState(crawler)
    assert state.durable and state.backend is not None
    state.backend.claim("dd:pages", 1, b"1")
    # Without a running reactor there is nothing to wait for: committed at once.
    assert state.committed() is None
    other = sqlite3.connect(str(tmp_path / "job" / "webclean-state.sqlite3"))
    assert other.execute("SELECT COUNT(*) FROM kv WHERE tab = 'dd:pages'").fetchone() == (1,)
    other.close()
    state.close()


def test_a_resumed_jobdir_crawl_drops_what_was_exported_and_exports_what_was_not(
    tmp_path: Path,
) -> None:
    """The dedup pipeline over the same JOBDIR twice, as a crawl killed and resumed: a page
    exported by the first run is dropped (``seen_before``); one checked but killed on its
    way to the feed is exported now (its own record is no copy); a copy of an exported
    page is still a copy; a page without text is exported once."""
    from scrapy.utils.test import get_crawler

    from scrapy_webclean.integration.accounting import WebcleanDrop
    from scrapy_webclean.integration.dedup import DedupPipeline
    from tests.conftest import drive

    settings = {"WEBCLEAN_STATE": "jobdir", "JOBDIR": str(tmp_path / "job")}
    a = {"url": "http://a.example/1", "text": article("en", 1), "page_type": "article"}
    b = {"url": "http://b.example/2", "text": article("en", 2), "page_type": "article"}
    hub = {"url": "http://a.example/", "text": "", "page_type": "hub"}
    copy = {**a, "url": "http://c.example/copy-of-1"}

    def run() -> tuple[DedupPipeline, Any]:
        crawler = get_crawler(settings_dict=settings)
        assert crawler.stats is not None
        crawler.stats.open_spider()
        return DedupPipeline.from_crawler(crawler), crawler

    first, crawler = run()
    for item in (a, b, hub):
        assert drive(first.process_item(dict(item))) == item
    first._exported(dict(a))  # Scrapy scraped a and the hub; b was on its way: the kill
    first._exported(dict(hub))
    crawler._webclean_state.close()  # (the file as a SIGKILL leaves it: all committed)
    second, crawler = run()
    for item in (a, hub):
        with pytest.raises(WebcleanDrop, match="exported before") as dropped:
            drive(second.process_item(dict(item)))
        assert dropped.value.reason == "seen_before"
    assert drive(second.process_item(dict(b))) == b
    with pytest.raises(WebcleanDrop, match=f"duplicate of {a['url']}"):
        drive(second.process_item(dict(copy)))
    stats = crawler.stats.get_stats()
    assert stats["webclean/dedup/seen_before"] == 2
    assert stats["webclean/dedup/checked_again"] == 1
    assert stats["webclean/dedup/unique"] == 1
    crawler._webclean_state.close()


def test_a_page_claim_and_its_counts_are_one_jobdir_transaction(tmp_path: Path) -> None:
    """A worker's file commits each write at once, except inside ``atomic``: a process
    killed between a page's URL claim and its counts would leave it claimed, unlearned."""
    from scrapy_webclean.state import SqliteBackend

    path = tmp_path / "templates.sqlite3"
    backend = SqliteBackend(path, commit_seconds=0.0)
    other = sqlite3.connect(str(path))
    with backend.atomic():
        backend.claim("tplurl:a", 1, b"1")
        backend.add_counts("tpl:a", [("#pages", 1.0)])
        assert other.execute("SELECT COUNT(*) FROM counters").fetchone() == (0,)
    assert other.execute("SELECT COUNT(*) FROM counters").fetchone() == (1,)
    backend.add_counts("tpl:a", [("#pages", 1.0)])  # outside: committed at once
    assert other.execute("SELECT SUM(value) FROM counters").fetchone() == (2.0,)
    other.close()
    backend.close()
