"""Cleaning in worker processes: the same output as cleaning inline, one site to one worker,
a worker that dies replaced with its page passed on, never lost."""

from __future__ import annotations

import asyncio
import os
import signal
from typing import Any

from scrapy.utils.test import get_crawler

from scrapy_webclean.cleaning import Cleaner, CleanOptions
from scrapy_webclean.integration.pipelines import CleanPipeline
from scrapy_webclean.integration.workers import StateSpec, WorkerPool, clean_page
from tests.conftest import drive
from tests.test_dedup import article

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
            (process,) = pool._pools[0]._processes.values()  # type: ignore[union-attr]
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
    crawler.stats.open_spider()  # type: ignore[union-attr,call-arg]
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
