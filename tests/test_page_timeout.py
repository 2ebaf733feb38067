"""The per-page time budget of the cleaning workers (``WEBCLEAN_PAGE_TIMEOUT``): a page
over it comes out ``failed/timeout`` and is counted, its worker is killed and replaced, the
pages that waited behind it are cleaned by the new worker, and closing the pool never
waits for a stuck page longer than its budget.

The slow page is a real one: a valid list page just under the default tag limit (480,000
tags, 6 MB), which takes seconds to clean (7.5 s on a loaded 2-core machine); the budget is
1 s, which the other pages (a few milliseconds each) meet with a wide margin. No
assertion is on a duration, except generous hang-guards."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from scrapy_webclean.cleaning import CleanOptions
from scrapy_webclean.integration import workers
from scrapy_webclean.integration.pipelines import CleanPipeline
from scrapy_webclean.integration.workers import Cleaned, StateSpec, WorkerPool
from tests.crawlers import crawler_with_engine
from tests.test_workers import PAGES

#: The budget the tests give a page (seconds).
BUDGET = 1.0
#: Items of the slow list page: 6 tags each, under the 500,000 tags of the default limit.
SLOW_ITEMS = 80_000
SITE = "http://site0.example"
#: Hang-guard: nothing here should come near it.
HANG_GUARD_SECONDS = 60.0


def slow_page() -> bytes:
    """A valid page whose cleaning takes seconds: a long list of linked items."""
    items = "".join(
        f"<li><a href='/p/{n}'>item {n} of the list</a> <span>note {n}</span></li>"
        for n in range(SLOW_ITEMS)
    )
    return (
        f"<html><head><title>All items</title></head><body><ul>{items}</ul></body></html>".encode()
    )


def same_site_pages() -> list[tuple[str, bytes]]:
    """Small pages of the slow page's site (so, of its worker)."""
    return [(url, html) for url, html in PAGES if url.startswith(SITE)]


def outcome(cleaned: Cleaned) -> str:
    return "cleaned" if cleaned.data is not None else cleaned.reason


def test_a_page_over_its_budget_is_stopped_and_the_pages_behind_it_are_cleaned() -> None:
    pages = same_site_pages()
    assert len(pages) >= 2

    async def run() -> tuple[list[str], list[str], int, int, int, bool]:
        pool = WorkerPool(1, CleanOptions(), StateSpec(), queue=4, page_timeout=BUDGET)
        try:
            pool.warm_up()
            (first,) = pool._pools[0]._processes.values()
            # The slow page, then two pages of its site sent while it is cleaned.
            jobs = [pool.clean(slow_page(), f"{SITE}/all", None, False)]
            jobs += [pool.clean(html, url, None, False) for url, html in pages[:2]]
            results = await asyncio.gather(*jobs)
            after = await pool.clean(pages[0][1], pages[0][0], None, False)
            first.join(HANG_GUARD_SECONDS)
            return (
                [outcome(c) for c in results],
                [outcome(after)],
                pool.restarts,
                pool.timeouts,
                pool.resent,
                first.is_alive(),
            )
        finally:
            pool.close()

    results, after, restarts, timeouts, resent, first_alive = asyncio.run(run())
    assert results == ["timeout", "cleaned", "cleaned"]
    assert after == ["cleaned"]
    assert (restarts, timeouts, resent) == (1, 1, 2)
    assert not first_alive  # killed, not left to finish


def test_the_pipeline_passes_a_timed_out_page_on_and_counts_it() -> None:
    crawler = crawler_with_engine(
        {
            "ITEM_PIPELINES": {CleanPipeline: 200},
            "WEBCLEAN_WORKERS": 1,
            "WEBCLEAN_PAGE_TIMEOUT": BUDGET,
        }
    )
    pipeline = crawler.get_item_pipeline(CleanPipeline)
    assert pipeline is not None and crawler.stats is not None
    url, html = same_site_pages()[0]

    async def run() -> tuple[Any, Any, float]:
        pipeline.open_spider()
        try:
            slow = await pipeline.process_item({"url": f"{SITE}/all", "html": slow_page()})
            normal = await pipeline.process_item({"url": url, "html": html})
        finally:
            started = time.monotonic()
            pipeline.close_spider()
        return slow, normal, time.monotonic() - started

    slow, normal, closing = asyncio.run(run())
    assert slow["webclean_error"] == "timeout" and "html" not in slow
    assert normal["text"] and "webclean_error" not in normal
    get = crawler.stats.get_value
    assert get("webclean/items/failed/timeout") == 1
    assert get("webclean/items/cleaned") == 1
    assert get("webclean/workers/restarts") == 1
    assert closing < HANG_GUARD_SECONDS


def test_closing_kills_a_worker_stuck_on_a_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """``close()`` blocks the event loop, so no budget timer runs while it waits: it keeps
    its own bound (the state's hang-guard, here 0 s, plus each waiting page's budget) and
    kills the worker at the bound. The page it was stuck on comes back as a timeout."""
    monkeypatch.setattr(workers, "_FINISH_STATE_SECONDS", 0.0)

    async def run() -> tuple[str, float, bool]:
        pool = WorkerPool(1, CleanOptions(), StateSpec(), page_timeout=BUDGET)
        url, html = same_site_pages()[0]
        assert outcome(await pool.clean(html, url, None, False)) == "cleaned"
        (process,) = pool._pools[0]._processes.values()
        stuck = asyncio.ensure_future(pool.clean(slow_page(), f"{SITE}/all", None, False))
        await asyncio.sleep(0)  # sent to the worker, which takes it at once
        started = time.monotonic()
        pool.close()
        closing = time.monotonic() - started
        cleaned = await asyncio.wait_for(stuck, HANG_GUARD_SECONDS)
        process.join(HANG_GUARD_SECONDS)
        return outcome(cleaned), closing, process.is_alive()

    result, closing, alive = asyncio.run(run())
    assert result == "timeout"
    assert closing < HANG_GUARD_SECONDS and not alive
