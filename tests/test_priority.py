"""ContentFirstPriority (issue 24): links in content blocks are requested before links in
the navigation, off by default; a budgeted crawl of a generated site fetches at least 1.5x
the share of articles that Scrapy's default order fetches."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse, Request, TextResponse
from scrapy.utils.test import get_crawler

from benchmarks.priority import Site, article_share, crawl, serve
from scrapy_webclean.integration.priority import PRIORITY_SCALE, ContentFirstPriority
from scrapy_webclean.integration.settings import SettingError

PAGE = """<html><head><title>Harbour works go on</title></head><body>
<nav class="menu"><ul><li><a href="/n1">Sport</a></li><li><a href="/n2">Weather</a></li>
<li><a href="/n3">Archive</a></li><li><a href="/n4">Topics</a></li></ul></nav>
<article><h1>Harbour works go on</h1>
<p>The harbour works went on through the winter months, the council reported on Monday,
and the north pier is now finished. Builders worked in two shifts while the ferry kept its
timetable, and the mayor visited the site twice. Read the first part in
<a href="/a1#start">the harbour story</a>, which our reporters followed all season.</p>
<p>The old quay will be repaired next spring, when the weather allows the divers to work
under the water again. The budget of the works was raised once, in the autumn, after the
engineers found the foundations of the old warehouse under the quay.</p></article>
<footer><p>Copyright Harbour News. <a href="/privacy">Privacy</a></p></footer>
</body></html>"""


def middleware(**settings: Any) -> ContentFirstPriority:
    crawler = get_crawler(settings_dict={"WEBCLEAN_PRIORITY_ENABLED": True, **settings})
    crawler.stats.open_spider()  # type: ignore[union-attr, call-arg]
    return ContentFirstPriority.from_crawler(crawler)


def response(body: str = PAGE) -> HtmlResponse:
    return HtmlResponse(
        "http://news.example.com/story",
        body=body.encode("utf-8"),
        headers={"Content-Type": "text/html; charset=utf-8"},
    )


def requests(page: HtmlResponse) -> list[Any]:
    return [
        {"title": "not a request"},
        page.follow("/n1"),
        page.follow("/a1"),
        page.follow("/elsewhere"),
    ]


def test_a_content_link_comes_before_a_navigation_link() -> None:
    mw = middleware()
    page = response()
    item, nav, article, other = list(mw.process_spider_output(page, requests(page)))
    assert item == {"title": "not a request"}
    assert article.priority == round(PRIORITY_SCALE * 1.5) == 15
    assert nav.priority == round(PRIORITY_SCALE * 0.5) == 5
    assert article.priority > nav.priority
    assert other.priority == 0  # not a link of the page: left as it was
    stats = mw.stats.get_stats()
    assert stats["webclean/priority/requests_raised"] == 2
    assert stats["webclean/priority/by_label/content"] == 1
    assert stats["webclean/priority/by_label/noise"] == 1
    assert stats["webclean/priority/pages_labelled"] == 1


def test_async_spider_output_and_weights_from_settings() -> None:
    mw = middleware(WEBCLEAN_PRIORITY_WEIGHTS={"noise": -1, "content": 3})
    page = response()

    async def output() -> AsyncIterator[Any]:
        for request in requests(page):
            yield request

    async def collect() -> list[Any]:
        return [r async for r in mw.process_spider_output_async(page, output())]

    _, nav, article, other = asyncio.run(collect())
    assert (nav.priority, article.priority, other.priority) == (-10, 30, 0)


def test_the_page_is_cleaned_only_when_the_spider_requests_something() -> None:
    mw = middleware()
    page = response()
    assert list(mw.process_spider_output(page, [{"a": 1}])) == [{"a": 1}]
    assert "webclean/priority/pages_labelled" not in mw.stats.get_stats()


def test_a_response_that_is_no_html_page_passes_through() -> None:
    mw = middleware()
    pdf = TextResponse(
        "http://news.example.com/a.pdf",
        body=b"%PDF-1.4 <a href='/a1'>x</a>",
        headers={"Content-Type": "application/pdf"},
    )
    (request,) = mw.process_spider_output(pdf, [Request("http://news.example.com/a1")])
    assert request.priority == 0


def test_off_by_default() -> None:
    crawler = get_crawler(settings_dict={})
    with pytest.raises(NotConfigured):
        ContentFirstPriority.from_crawler(crawler)
    crawler = get_crawler(
        settings_dict={"WEBCLEAN_PRIORITY_ENABLED": True, "WEBCLEAN_ENABLED": False}
    )
    with pytest.raises(NotConfigured):
        ContentFirstPriority.from_crawler(crawler)


def test_the_addon_installs_it_switched_off() -> None:
    crawler = get_crawler(settings_dict={"ADDONS": {"scrapy_webclean.Addon": 100}})
    assert crawler.settings.getdict("SPIDER_MIDDLEWARES") == {ContentFirstPriority: 700}
    assert crawler.settings.getbool("WEBCLEAN_PRIORITY_ENABLED") is False


def test_a_weight_for_an_unknown_label_is_refused() -> None:
    with pytest.raises(SettingError, match="block labels"):
        middleware(WEBCLEAN_PRIORITY_WEIGHTS={"menu": 1})


@pytest.mark.e2e
def test_a_budgeted_crawl_fetches_more_articles_first() -> None:
    site = Site(300)
    budget = round(site.total * 0.2)
    with serve(site) as root:
        off = crawl(root, budget, enabled=False)
        on = crawl(root, budget, enabled=True)
    assert len(off["fetched"]) == len(on["fetched"]) == budget
    share_off, share_on = article_share(off["fetched"]), article_share(on["fetched"])
    assert share_on >= 1.5 * share_off, (share_off, share_on)
    assert on["stats"]["webclean/priority/by_label/content"] > 0
    assert not off["stats"]
