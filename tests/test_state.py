"""State backends: one interface, three stores, memory vs SQLite vs a real Redis server."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scrapy_webclean.ads.stats import MemoryAdStatsStore
from scrapy_webclean.cleaning import Cleaner, CleanOptions
from scrapy_webclean.dedup import DedupOptions, NearDuplicateIndex
from scrapy_webclean.dedup.pageindex import PageIndex
from scrapy_webclean.dedup.store import DedupStore, MemoryDedupStore
from scrapy_webclean.extraction.template import MemoryTemplateStore
from scrapy_webclean.integration.workers import clean_page
from scrapy_webclean.state import (
    BackendAdStatsStore,
    BackendDedupStore,
    BackendTemplateStore,
    Lenient,
    MemoryBackend,
    Retrying,
    SqliteBackend,
    StateBackend,
    StateUnavailable,
)
from scrapy_webclean.state.stores import LIST_NAMESPACE, decode_doc, encode_doc
from tests.conftest import RedisServer
from tests.test_dedup import article, paragraphs

ROOT = Path(__file__).resolve().parent.parent
#: A page of a site with a navigation bar and a footer (``%`` a number, for its story).
PAGE = (
    "<html><head><title>Story %d</title></head><body><nav>Home News Sport</nav><article>"
    "<h1>A story</h1><p>The council voted on Tuesday to turn the old harbour exchange into "
    "an annex of the city library, after two years of consultation with residents.</p>"
    "</article><footer>Copyright Site</footer></body></html>"
)


@pytest.fixture(params=["memory", "sqlite", "redis"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StateBackend]:
    made: StateBackend
    if request.param == "memory":
        made = MemoryBackend()
    elif request.param == "sqlite":
        made = SqliteBackend(tmp_path / "state.sqlite3")
    else:
        from scrapy_webclean.state.redis import RedisBackend

        made = RedisBackend(request.getfixturevalue("redis_url"), prefix="test:")
    yield made
    made.close()


def test_counters(backend: StateBackend) -> None:
    assert backend.get_counts("c", ["a", "b"]) == [0.0, 0.0]
    backend.add_counts("c", [("a", 1.0), ("b", 2.5), ("a", 1.0), (-(2**63), 4.0)])
    assert backend.get_counts("c", ["a", "b", "x", -(2**63)]) == [2.0, 2.5, 0.0, 4.0]
    assert backend.count_keys("c") == 3 and backend.count_keys("other") == 0
    backend.keep_top("c", 2)
    assert backend.get_counts("c", ["a", "b", -(2**63)]) == [0.0, 2.5, 4.0]


def test_values_are_claimed_once(backend: StateBackend) -> None:
    assert backend.claim("v", 7, b"first") is None
    assert backend.claim("v", 7, b"second") == b"first"
    assert backend.get_values("v", [7, 8]) == [b"first", None]


def test_capped_lists_keep_their_order(backend: StateBackend) -> None:
    backend.append("l", [(1, 10), (2, 20), (1, 11), (1, 12), (1, 13)], cap=3)
    assert backend.get_lists("l", [1, 2, 3]) == [[10, 11, 12], [20], []]


def test_records_are_numbered(backend: StateBackend) -> None:
    assert backend.count_records("r") == 0
    assert [backend.add_record("r", bytes([n]) * 3) for n in range(3)] == [0, 1, 2]
    backend.set_record("r", 1, b"new")
    assert backend.get_records("r", [2, 1, 5]) == [b"\x02\x02\x02", b"new", None]
    assert backend.count_records("r") == 3


def test_run_batches_operations_in_order(backend: StateBackend) -> None:
    results = backend.run(
        [
            ("add_counts", "c", [("k", 1.0)]),
            ("get_counts", "c", ["k"]),
            ("add_record", "r", b"x"),
            ("claim", "v", "k", b"1"),
            ("claim", "v", "k", b"2"),
        ]
    )
    assert results == [None, [1.0], 0, None, b"1"]
    with pytest.raises(ValueError, match="unknown state operation"):
        backend.run([("drop_everything", "c")])


def test_documents_survive_the_plain_encoding() -> None:
    index = NearDuplicateIndex()
    index.check_and_add("https://example.com/文章/1", article("zh", 1))
    store = index.store
    assert isinstance(store, MemoryDedupStore)
    (doc,) = store.docs([0])
    assert doc is not None
    again = decode_doc(encode_doc(doc))
    assert again.key == doc.key and again.first == doc.first and again.length == doc.length
    assert again.sentences.tolist() == doc.sentences.tolist()
    assert again.signature.tolist() == doc.signature.tolist()
    assert again.sentence_chars.tolist() == doc.sentence_chars.tolist()


def corpus() -> list[tuple[str, str]]:
    """Demo articles in both languages, each followed by some of its copies."""
    docs = []
    for lang in ("en", "zh"):
        for n in range(1, 10):
            text = article(lang, n)
            parts = paragraphs(text)
            docs.append((f"{lang}{n}", text))
            if n % 3 == 0:
                docs.append((f"{lang}{n}-exact", text))
                docs.append((f"{lang}{n}-cut", "\n".join(parts[: max(2, len(parts) * 2 // 3)])))
                docs.append((f"{lang}{n}-moved", "\n".join(parts[1:] + parts[:1])))
    return docs


def answers(index: NearDuplicateIndex, batch: int) -> list[str | None]:
    items = [(key, text, False) for key, text in corpus()]
    found: list[str | None] = []
    for start in range(0, len(items), batch):
        found += [m.key if m else None for m in index.check_many(items[start : start + batch])]
    return found


def one_at_a_time() -> list[str | None]:
    reference = NearDuplicateIndex()
    return [reference.check_and_add(key, text) for key, text in corpus()]


def test_the_index_answers_the_same_on_every_backend(backend: StateBackend) -> None:
    expected = one_at_a_time()
    assert expected.count(None) == 18 and "en3" in expected and "zh9" in expected
    assert answers(NearDuplicateIndex(store=BackendDedupStore(backend)), batch=1) == expected


def test_batches_answer_as_one_at_a_time(backend: StateBackend) -> None:
    expected = one_at_a_time()
    assert answers(NearDuplicateIndex(store=BackendDedupStore(backend)), batch=7) == expected
    assert answers(NearDuplicateIndex(), batch=64) == expected


class Interleaved(BackendDedupStore):
    """A store that lets another process's check run between a look and an add."""

    def __init__(self, backend: StateBackend, meanwhile: Any) -> None:
        super().__init__(backend)
        self.meanwhile = meanwhile

    def add(self, docs: Any) -> list[int]:
        if self.meanwhile is not None:
            run, self.meanwhile = self.meanwhile, None
            run()
        return super().add(docs)


@pytest.mark.parametrize("copy", ["exact", "near"])
def test_two_processes_checking_copies_at_once_export_one(backend: StateBackend, copy: str) -> None:
    text = article("en", 4)
    other = text if copy == "exact" else text + "\nReprinted with permission."
    second = NearDuplicateIndex(store=BackendDedupStore(backend))
    seen: list[str | None] = []
    first = NearDuplicateIndex(
        store=Interleaved(backend, lambda: seen.append(second.check_and_add("b", other)))
    )
    # "a" looks first and finds nothing; "b" is checked and added meanwhile; then "a" adds.
    assert first.check_and_add("a", text) == "b"
    assert seen == [None]
    # And whoever looks next finds the one that was numbered first.
    assert NearDuplicateIndex(store=BackendDedupStore(backend)).check_and_add("c", text) == "b"


def test_list_pages_have_their_own_tables(backend: StateBackend) -> None:
    def index() -> PageIndex:
        return PageIndex.of_stores(
            DedupOptions(),
            BackendDedupStore(backend),
            BackendDedupStore(backend, namespace=LIST_NAMESPACE),
        )

    text = article("en", 6)
    hub = "\n".join(paragraphs(article("en", n))[0] for n in range(1, 9))
    assert index().check_many([("a/story", text, False), ("a/", hub, True)]) == [None, None]
    # Another process finds the list's copy among the lists, the article's among articles.
    found = index().check_many([("a/?utm=1", hub + "\nUpdated.", True), ("b/story", text, False)])
    assert [m.key if m else None for m in found] == ["a/", "a/story"]
    # An exact copy is not stored again; a near copy is (a copy of it is found too).
    assert backend.count_records("dd:docs") == 1
    assert backend.count_records(f"{LIST_NAMESPACE}:docs") == 2


def replay(store: Any, ops: list[tuple[str, Any]]) -> list[Any]:
    out = []
    for name, args in ops:
        out.append(getattr(store, name)(*args))
    return out


def test_template_and_image_stores_count_as_in_memory(backend: StateBackend) -> None:
    template_ops: list[tuple[str, Any]] = [
        ("add_page", ("a.com", [1, 2, 3, 2**64 - 1])),
        ("add_page", ("a.com", [2, 3, 2**64 - 1])),
        ("add_page", ("b.com", [1])),
        ("pages", ("a.com",)),
        ("counts", ("a.com", [1, 2, 2**64 - 1, 9])),
        ("counts", ("c.com", [1])),
    ]
    assert replay(BackendTemplateStore(backend), template_ops) == replay(
        MemoryTemplateStore(), template_ops
    )
    ad_ops: list[tuple[str, Any]] = [
        ("add", ("a.com", "url", [("x.png", 1.0), ("y.png", 1.0)])),
        ("add", ("a.com", "url", [("x.png", 1.0)])),
        ("add", ("a.com", "word_sum", [("广告", 0.5)])),
        ("get", ("a.com", "url", ["x.png", "y.png", "z.png"])),
        ("get", ("a.com", "word_sum", ["广告"])),
        ("size", ("a.com", "url")),
        ("size", ("b.com", "url")),
        ("add_many", ("a.com", [("url", [("z.png", 2.0)]), ("word_sum", [("广告", 1.0)])])),
        ("fetch", ("a.com", [("url", ["x.png", "z.png"]), ("word_sum", ["广告", "无"])], ["url"])),
        ("fetch", ("b.com", [("url", ["x.png"])], ["url", "word_sum"])),
    ]
    assert replay(BackendAdStatsStore(backend), ad_ops) == replay(MemoryAdStatsStore(), ad_ops)
    fetched = replay(MemoryAdStatsStore(), ad_ops)[-2]
    assert fetched == ([[2.0, 2.0], [1.5, 0.0]], [3])


def test_counters_stay_bounded_per_site(backend: StateBackend) -> None:
    store = BackendTemplateStore(backend, max_keys_per_site=40)
    for page in range(200):
        store.add_page("a.com", [page * 10 + k for k in range(10)] + [1, 2])
    assert backend.count_keys("tpl:a.com") <= 40 + 10 * 64
    assert store.pages("a.com") == 200 and store.counts("a.com", [1, 2]) == [200, 200]


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


def test_the_state_code_never_pickles() -> None:
    for source in (ROOT / "scrapy_webclean").rglob("*.py"):
        text = source.read_text("utf-8")
        assert "import pickle" not in text and "pickle.loads" not in text, source


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
    assert time.monotonic() - started < 2.0
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
        pytest.skip("redis-server is not installed (.ci/run installs it)")
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


def test_memory_store_is_a_dedup_store() -> None:
    store: DedupStore = MemoryDedupStore()
    assert store.count() == 0


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
        pytest.skip("redis-server is not installed (.ci/run installs it)")
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
        assert time.monotonic() - started < 5.0  # (socket timeouts: a hang-guard)
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
    assert time.monotonic() - started < 30  # not 300 s (a hang-guard)
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
    assert time.monotonic() - started < 30  # one connect timeout (a hang-guard)
    # Allowed to start without it: it starts, says so, and its counts do not wait.
    state = CrawlState(get_crawler(settings_dict={**settings, "WEBCLEAN_REDIS_REQUIRED": False}))
    started = time.monotonic()
    assert state.count_documents() is None
    assert time.monotonic() - started < 10
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
