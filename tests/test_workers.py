"""Cleaning in worker processes: the same output as cleaning inline, one site to one worker,
a worker that dies replaced with its page passed on, never lost; workers that ignore Ctrl-C,
end with their parent and log through it."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import pytest
from scrapy.utils.test import get_crawler

from scrapy_webclean.cleaning import Cleaner, CleanOptions
from scrapy_webclean.integration.pipelines import CleanPipeline
from scrapy_webclean.integration.workers import StateSpec, WorkerPool, clean_page
from tests.conftest import drive
from tests.test_dedup import article
from tests.test_faults_interrupt import process_identity, running, sigint_blocked

ROOT = Path(__file__).resolve().parent.parent

PAGES = [
    (
        f"http://site{n % 3}.example/a/{n}",
        (
            f"<html><head><title>Story {n} - Site</title></head><body><nav>Home News Sport"
            f"</nav><article><h1>Story {n}</h1>"
            + "".join(f"<p>{p}</p>" for p in article("en" if n % 2 else "zh", n + 1).split("\n"))
            + "</article><footer>Copyright Site</footer></body></html>"
        ).encode(),
    )
    for n in range(8)
]


def test_workers_clean_as_the_crawl_process_does() -> None:
    inline = Cleaner(CleanOptions())
    expected = [clean_page(inline, html, url, None, False).data for url, html in PAGES]

    async def run() -> list[Any]:
        pool = WorkerPool(2, CleanOptions(), StateSpec(), queue=2)
        try:
            assert pool.worker_for(PAGES[0][0]) == pool.worker_for(PAGES[3][0])  # one site
            jobs = [pool.clean(html, url, None, False) for url, html in PAGES]
            return [cleaned.data for cleaned in await asyncio.gather(*jobs)]
        finally:
            pool.close()

    # Same texts, and the same template learning (each site seen in order by one worker).
    assert asyncio.run(run()) == expected


def test_a_dead_worker_is_replaced_and_its_page_passed_on() -> None:
    async def run() -> list[str]:
        pool = WorkerPool(1, CleanOptions(), StateSpec())
        try:
            url, html = PAGES[0]
            first = await pool.clean(html, url, None, False)
            (process,) = pool._pools[0]._processes.values()
            assert process.pid is not None
            os.kill(process.pid, signal.SIGKILL)
            process.join()
            crashed = await pool.clean(html, url, None, False)
            again = await pool.clean(html, url, None, False)
            assert pool.restarts == 1
            return [
                "ok" if first.data else first.reason,
                crashed.reason,
                "ok" if again.data else again.reason,
            ]
        finally:
            pool.close()

    assert asyncio.run(run()) == ["ok", "worker_crashed", "ok"]


def test_the_pipeline_uses_its_workers_under_an_event_loop() -> None:
    crawler = get_crawler(settings_dict={"WEBCLEAN_WORKERS": 2})
    crawler.stats.open_spider()
    pipeline = CleanPipeline.from_crawler(crawler)
    items = [{"url": url, "html": html} for url, html in PAGES]

    async def run() -> list[Any]:
        try:
            return list(await asyncio.gather(*(pipeline.process_item(i) for i in items)))
        finally:
            pipeline.close_spider()

    out = asyncio.run(run())
    assert all(item["text"] and "html" not in item for item in out)
    # Without an event loop the same pipeline cleans inline.
    inline = CleanPipeline.from_crawler(get_crawler(settings_dict={"WEBCLEAN_WORKERS": 2}))
    item = drive(inline.process_item({"url": PAGES[1][0], "html": PAGES[1][1]}))
    assert item["text"] == out[1]["text"]


def _complain() -> int:
    """Run in a worker: what a library might do there (print to stderr, warn)."""
    print("a library printed this to stderr", file=sys.stderr)
    warnings.warn("a library warned about this", UserWarning, stacklevel=1)
    return os.getpid()


def test_a_dead_worker_is_replaced_once_with_several_pages_waiting() -> None:
    async def run() -> tuple[list[str], int, str]:
        pool = WorkerPool(1, CleanOptions(), StateSpec(), queue=4)
        try:
            url, html = PAGES[0]
            await pool.clean(html, url, None, False)
            (process,) = pool._pools[0]._processes.values()
            assert process.pid is not None
            busy = pool._pools[0].submit(time.sleep, 30)
            jobs = asyncio.gather(*(pool.clean(html, url, None, False) for _ in range(4)))
            await asyncio.sleep(0.5)  # all four sent, waiting behind the busy worker
            os.kill(process.pid, signal.SIGKILL)
            waiting = await jobs
            assert busy.exception() is not None
            after = await pool.clean(html, url, None, False)
            return [c.reason for c in waiting], pool.restarts, "ok" if after.data else after.reason
        finally:
            pool.close()

    assert asyncio.run(run()) == (["worker_crashed"] * 4, 1, "ok")


def test_a_worker_ignores_ctrl_c_while_it_starts_and_after() -> None:
    """SIGINT sent to a worker again and again from its spawn on: blocked (pending) until
    its initializer ignores it, then ignored; the worker lives on and cleans."""

    async def run() -> tuple[bool, int, str, int]:
        pool = WorkerPool(1, CleanOptions(), StateSpec())
        try:
            pool.warm_up()  # spawns the worker
            (process,) = pool._pools[0]._processes.values()
            assert process.pid is not None
            blocked_at_start = sigint_blocked(process.pid)
            sent = 0
            deadline = time.monotonic() + 3  # the worker starts in about 1 s
            while time.monotonic() < deadline:
                os.kill(process.pid, signal.SIGINT)
                sent += 1
                await asyncio.sleep(0.005)
            url, html = PAGES[1]
            cleaned = await pool.clean(html, url, None, False)
            assert process.is_alive()
            return blocked_at_start, sent, "ok" if cleaned.data else cleaned.reason, pool.restarts
        finally:
            pool.close()

    blocked_at_start, sent, outcome, restarts = asyncio.run(run())
    assert blocked_at_start and sent > 100
    assert (outcome, restarts) == ("ok", 0)


def test_worker_log_records_and_stderr_go_to_the_parents_loggers(
    caplog: pytest.LogCaptureFixture, capfd: pytest.CaptureFixture[str]
) -> None:
    caplog.set_level(logging.DEBUG)
    pool = WorkerPool(1, CleanOptions(), StateSpec())
    try:
        worker_pid = pool._pools[0].submit(_complain).result(timeout=60)
    finally:
        pool.close()  # the last records are read before it returns
    assert worker_pid != os.getpid()
    from_worker = {
        (record.name, record.levelname, record.getMessage().split(" (pid")[0])
        for record in caplog.records
        if record.process == worker_pid
    }
    assert (
        "scrapy_webclean.integration.workers",
        "DEBUG",
        "webclean: cleaning worker started",
    ) in from_worker
    stderr_logger = "scrapy_webclean.integration.workers.stderr"
    assert (stderr_logger, "WARNING", "a library printed this to stderr") in from_worker
    warned = [r for r in caplog.records if r.name == "py.warnings" and r.process == worker_pid]
    assert warned and "a library warned about this" in warned[0].getMessage()
    assert capfd.readouterr().err == ""  # the worker wrote nothing to its stderr itself


PARENT = """
import sys, threading, time
from scrapy_webclean.cleaning import CleanOptions
from scrapy_webclean.integration.workers import StateSpec, WorkerPool

pools = []

def start():
    pool = WorkerPool(1, CleanOptions(), StateSpec())
    pools.append(pool)
    pool._pools[0].submit(int).result()  # spawned and through its initializer
    print(*(p.pid for p in pool._pools[0]._processes.values()), flush=True)

if sys.argv[1] == "thread":  # spawned by a thread that then ends
    spawner = threading.Thread(target=start)
    spawner.start()
    spawner.join()
else:
    start()
time.sleep(120)
"""


@pytest.mark.parametrize("spawner", ["main", "thread"])
def test_a_worker_exits_when_its_parent_is_killed(spawner: str) -> None:
    """SIGKILL to the process that owns the pool (nothing to the worker): the worker ends.
    Spawned by the main thread, by PR_SET_PDEATHSIG on Linux; by a thread that has ended
    (the worker must outlive that thread), by its watch on the parent's pipe."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, spawner],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    worker = None
    try:
        assert parent.stdout is not None
        worker = int(parent.stdout.readline())
        identity = process_identity(worker)
        assert identity is not None and "spawn_main" in identity[1]
        time.sleep(0.5)
        assert running(worker, identity[0]), "the worker died with the thread that spawned it"
        parent.kill()
        parent.wait(timeout=10)
        deadline = time.monotonic() + 10
        while running(worker, identity[0]) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert not running(worker, identity[0])
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        if worker is not None:
            identity = process_identity(worker)
            if identity is not None and "spawn_main" in identity[1]:
                os.kill(worker, signal.SIGKILL)


def test_a_worker_reports_pages_cleaned_blind_and_writes_lost_to_the_crawl(
    tmp_path: Path,
) -> None:
    """A worker whose Redis template state does not answer cleans anyway (without the
    template), and says so; the counter updates it kept are lost when it closes with the
    server still away, and counted in the crawl's process, not only in the worker."""
    pytest.importorskip("redis")
    from tests.conftest import RedisServer

    heard: list[tuple[str | None, bool, int]] = []

    def reporter(url: str | None, cleaned: Any) -> None:
        heard.append((url, cleaned.template_unavailable, cleaned.lost_writes))

    dead = RedisServer(tmp_path).url  # nothing listens on its port
    spec = StateSpec("redis", url=dead, prefix="w:", reporter=reporter)

    async def run() -> list[Any]:
        pool = WorkerPool(1, CleanOptions(), spec)
        try:
            return [await pool.clean(html, url, None, False) for url, html in PAGES[:2]]
        finally:
            pool.close()

    cleaned = asyncio.run(run())
    assert all(c.data is not None and c.template_unavailable for c in cleaned)
    assert heard[:2] == [(PAGES[0][0], True, 0), (PAGES[1][0], True, 0)]
    # At close: what the worker kept while the server was away (each page's URL claim, its
    # page counter and its line counters) is lost, and reported once.
    assert len(heard) == 3 and heard[2][:2] == (None, False) and heard[2][2] > 2


def test_a_page_is_fingerprinted_where_it_is_cleaned_as_the_dedup_pipeline_compares_it() -> None:
    from scrapy_webclean.dedup.fingerprint import fingerprint
    from scrapy_webclean.integration.workers import FingerprintRequest
    from scrapy_webclean.markdown import markdown_to_text

    body = "".join(f"<p>{p}</p>" for p in article("en", 8).split("\n") if p.strip())
    html = f"<html><head><title>T</title></head><body><article>{body}</article></body></html>"
    cleaner = Cleaner(CleanOptions())
    ask = FingerprintRequest(("harbour",), frozenset(("other",)))
    cleaned = clean_page(cleaner, html, "http://a/story", None, False, False, ask)
    assert cleaned.data is not None and cleaned.fingerprint is not None
    text, fp = cleaned.fingerprint
    expected = fingerprint(text, ("harbour",))
    assert text == cleaned.data["text"]
    assert (fp.exact, fp.sentences, fp.fuzzy) == (
        expected.exact,
        expected.sentences,
        expected.fuzzy,
    )
    assert (fp.signature == expected.signature).all()
    # Markdown items are compared as plain text.
    cleaned = clean_page(cleaner, html, "http://a/story", None, False, True, ask)
    assert cleaned.data is not None and cleaned.fingerprint is not None
    assert cleaned.fingerprint[0] == markdown_to_text(cleaned.data["text"])
    # Nothing asked, or a page type the dedup pipeline does not compare: none made.
    assert clean_page(cleaner, html, "http://a/story", None, False).fingerprint is None
    skip_all = FingerprintRequest((), frozenset((cleaned.page_type,)))
    assert clean_page(cleaner, html, "http://a/s", None, False, False, skip_all).fingerprint is None


def test_a_worker_keeps_what_it_loaded_out_of_the_collectors_walks_when_asked() -> None:
    import gc

    counts = []
    for freeze in (True, False):
        pool = WorkerPool(1, CleanOptions(), StateSpec(), freeze=freeze)
        try:
            counts.append(pool._pools[0].submit(gc.get_freeze_count).result(timeout=120))
        finally:
            pool.close()
    # Frozen: the models, the dictionaries and the modules (over 10,000 objects); else none.
    assert counts[0] > 10_000 and counts[1] == 0
