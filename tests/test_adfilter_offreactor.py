"""The ad filter reads pages off the event loop, never reads one over the size limit, and
the add-on keeps Scrapy from downloading what would never be cleaned: a gzip bomb is cut
during decompression, before any parse. Also: the filter's memory of the sites it logged
is bounded."""

from __future__ import annotations

import asyncio
import gzip
import logging
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from scrapy.http import HtmlResponse, Request
from scrapy.utils.test import get_crawler

from scrapy_webclean.ads import Verdict
from scrapy_webclean.integration import adfilter
from scrapy_webclean.integration.addon import DOWNLOAD_MAXSIZE_FACTOR
from scrapy_webclean.integration.adfilter import AdImageFilter
from tests.conftest import drive, serving
from tests.test_faults_items import crawl

SITE = "http://news.example.com"
#: The functions that observe a page (decode it, list its image links, learn from them),
#: watched by name.
READERS = frozenset(("decode_response", "image_links", "observe_links"))
#: A page with many image links: big enough that reading it is real work.
PHOTOS = 2_000
PAGE = (
    "<html><head><title>Photos of the harbour</title></head><body><h1>Photos</h1>"
    + "".join(
        f'<p><a href="/photo/{n}"><img src="/img/{n}.jpg" alt="Harbour, photo {n}"></a> '
        f"The harbour at dawn, photo {n} of the series.</p>"
        for n in range(PHOTOS)
    )
    + "</body></html>"
).encode()


def middleware(**settings: Any) -> tuple[AdImageFilter, Any]:
    crawler = get_crawler(settings_dict=settings)
    assert crawler.stats is not None
    crawler.stats.open_spider()  # type: ignore[call-arg]
    return AdImageFilter.from_crawler(crawler), crawler.stats


def html_response(url: str, body: bytes) -> HtmlResponse:
    return HtmlResponse(url, body=body, headers={"Content-Type": "text/html"})


class ReaderCalls:
    """Records which thread runs each call of :data:`READERS` (a profile function on every
    thread: the real code runs, nothing is replaced)."""

    def __init__(self) -> None:
        self.threads: list[tuple[str, int]] = []

    def _profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if event == "call" and frame.f_code.co_name in READERS:
            self.threads.append((frame.f_code.co_name, threading.get_ident()))

    def __enter__(self) -> ReaderCalls:
        threading.setprofile(self._profile)  # (threads started from now on)
        sys.setprofile(self._profile)
        return self

    def __exit__(self, *_: object) -> None:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]


def test_the_filter_reads_a_page_in_its_own_thread_while_the_event_loop_runs() -> None:
    mw, stats = middleware()
    url = f"{SITE}/photos.html"

    async def run() -> tuple[int, int, HtmlResponse]:
        loop_thread = threading.get_ident()
        task = asyncio.ensure_future(mw.process_response(Request(url), html_response(url, PAGE)))
        await asyncio.sleep(0)  # the middleware takes its first step
        ran_meanwhile = 0
        while not task.done():  # the event loop is free while the page is read
            ran_meanwhile += 1
            await asyncio.sleep(0.005)
        returned = await task
        assert isinstance(returned, HtmlResponse)
        return loop_thread, ran_meanwhile, returned

    try:
        with ReaderCalls() as calls:
            loop_thread, ran_meanwhile, returned = asyncio.run(run())
    finally:
        mw.spider_closed()
    assert ran_meanwhile >= 1
    assert {name for name, _ in calls.threads} == READERS
    assert loop_thread not in {thread for _, thread in calls.threads}
    # Observed, and the response passed on with the cleaner's codec and the parse the
    # spider's response.css() reuses (made in the other thread).
    assert stats.get_value("webclean/images/pages_observed") == 1
    assert mw.gate.model.seen_image(f"{SITE}/img/7.jpg")
    assert returned.encoding == "utf-8"
    assert returned.css("title::text").get() == "Photos of the harbour"


def test_a_body_over_the_limit_is_passed_on_unread() -> None:
    mw, stats = middleware(WEBCLEAN_MAX_HTML_BYTES=len(PAGE) - 1)
    url = f"{SITE}/photos.html"
    response = html_response(url, PAGE)
    with ReaderCalls() as calls:
        returned = drive(mw.process_response(Request(url), response))
    assert returned is response and calls.threads == []
    assert stats.get_value("webclean/images/observe_skipped/too_large") == 1
    assert stats.get_value("webclean/images/pages_observed") is None
    assert not mw.gate.model.seen_image(f"{SITE}/img/7.jpg")
    # At the limit, it is read.
    mw, stats = middleware(WEBCLEAN_MAX_HTML_BYTES=len(PAGE))
    drive(mw.process_response(Request(url), html_response(url, PAGE)))
    assert stats.get_value("webclean/images/pages_observed") == 1


def test_the_sites_whose_first_drop_was_logged_are_bounded(
    caplog: pytest.LogCaptureFixture,
) -> None:
    mw, _ = middleware()
    gate = mw.gate
    verdict = Verdict(True, "ad", 3.0, ("ad_host",))
    caplog.set_level(logging.INFO, logger=adfilter.__name__)
    sites = adfilter._LOGGED_SITES_CAP + 10
    for n in range(sites):
        gate.count_drop(f"http://site{n}.example/ad.png", verdict)
    assert len(gate._logged_sites) == adfilter._LOGGED_SITES_CAP
    logged = [r for r in caplog.records if r.getMessage().startswith("webclean: dropping")]
    assert len(logged) == sites  # one line per site
    gate.count_drop(f"http://site{sites - 1}.example/other-ad.png", verdict)  # remembered
    gate.count_drop("http://site0.example/other-ad.png", verdict)  # forgotten: logged again
    logged = [r for r in caplog.records if r.getMessage().startswith("webclean: dropping")]
    assert len(logged) == sites + 1 and "site0.example" in logged[-1].getMessage()


# -- a real crawl --------------------------------------------------------------------------

#: A gzip bomb: 30 MB of HTML in about 30 KB, over the 20 MB the add-on lets Scrapy download.
BOMB_HTML = b"<html><body>" + b"<p>aaaa</p>" * (30_000_000 // 11) + b"</body></html>"
BOMB = gzip.compress(BOMB_HTML, 9)


class _Site(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        if self.path == "/bomb":
            body, extra = BOMB, {"Content-Encoding": "gzip"}
        else:
            body, extra = PAGE, {}
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        for name, value in extra.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with serving(_Site) as base:
        yield base


@pytest.mark.e2e
def test_a_gzip_bomb_is_cut_while_it_inflates_and_never_parsed(site: str, tmp_path: Path) -> None:
    assert len(BOMB) < 100_000 < 10_000_000 * DOWNLOAD_MAXSIZE_FACTOR < len(BOMB_HTML)
    result = crawl(site, tmp_path, ["/page", "/bomb"])
    assert result.returncode == 0, result.stderr[-2000:]
    # The bomb never reached the middleware, the spider or the pipeline.
    assert [item["url"] for item in result.items] == [f"{site}/page"]
    assert result.items[0]["text"]
    assert "exceeded DOWNLOAD_MAXSIZE (20000000 B) during decompression" in result.log
    assert result.stats["webclean/images/pages_observed"] == 1  # the page, read off the loop
    assert "webclean/images/observe_skipped/too_large" not in result.stats


@pytest.mark.e2e
def test_with_the_projects_own_download_limit_the_bomb_is_still_never_parsed(
    site: str, tmp_path: Path
) -> None:
    """A project that lifts DOWNLOAD_MAXSIZE (0: none) gets the 30 MB body; the ad filter
    passes it on unread and the cleaner refuses it before parsing (too_large)."""
    result = crawl(site, tmp_path, ["/bomb"], "DOWNLOAD_MAXSIZE=0")
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stats["webclean/images/observe_skipped/too_large"] == 1
    assert "webclean/images/pages_observed" not in result.stats
    assert [item["webclean_error"] for item in result.items] == ["too_large"]
    assert result.stats["webclean/items/failed/too_large"] == 1
