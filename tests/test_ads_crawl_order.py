"""Main-content images are never dropped, whatever the order of a crawl's steps (issue 21).

An image the site repeats on every page (here a series map inside every article) is
template by its statistics; the cleaner finds it inside each page's main content, and
then it must be kept. The image requests come *before* the item reaches ``CleanPipeline``:
a request the spider yields goes back to the scheduler until the page is cleaned, and the
media pipeline's ``image_urls`` are judged after ``ImageUrlsFilterPipeline`` has the page
cleaned ahead of its turn (``CleanPipeline`` then uses that result: one cleaning a page).
The real components, built the way ``scrapy crawl`` builds them.
"""

from __future__ import annotations

from typing import Any

import pytest
from scrapy.exceptions import IgnoreRequest
from scrapy.http import HtmlResponse, Request

from scrapy_webclean.integration.adfilter import (
    AWAITING_MAIN_CONTENT,
    AdImageFilter,
    ImageUrlsFilterPipeline,
)
from scrapy_webclean.integration.pipelines import CleanPipeline
from tests.conftest import drive
from tests.crawlers import crawler_with_engine

SITE = "http://news.example.com"
MAP = f"{SITE}/photos/series-map.jpg"
LOGO = f"{SITE}/static/logo.png"


def page(number: int) -> str:
    body = " ".join(
        f"Sentence {i} of story {number} tells how the harbour works went on through the "
        "winter months."
        for i in range(8)
    )
    return f"""<html><head><title>Story {number} - Harbour News</title></head><body>
    <div id="header"><a href="/"><img src="/static/logo.png" alt="Harbour News"></a></div>
    <div class="article"><h1>Story {number}: the harbour works</h1>
      <p><img src="/photos/series-map.jpg" alt="Map of the harbour works" width="640"
      height="420"> The map shows where the harbour works of this series stand in week
      {number}, from the north pier to the old quay.</p>
      <p>{body}</p></div>
    <div id="footer"><p>Harbour News, all rights reserved.</p></div></body></html>"""


def url(number: int) -> str:
    return f"{SITE}/story-{number}.html"


def item(number: int) -> dict[str, Any]:
    return {"url": url(number), "html": page(number), "image_urls": [MAP, LOGO]}


@pytest.fixture
def crawl() -> tuple[AdImageFilter, CleanPipeline, ImageUrlsFilterPipeline, Any]:
    crawler = crawler_with_engine(
        {
            "DOWNLOADER_MIDDLEWARES": {AdImageFilter: 560},
            "ITEM_PIPELINES": {ImageUrlsFilterPipeline: 0, CleanPipeline: 200},
            "WEBCLEAN_WORKERS": 0,
            "WEBCLEAN_ADS_MAX_DEFERS": 3,
        }
    )
    mw = crawler.get_downloader_middleware(AdImageFilter)
    cleaner = crawler.get_item_pipeline(CleanPipeline)
    pruner = crawler.get_item_pipeline(ImageUrlsFilterPipeline)
    assert mw is not None and cleaner is not None and pruner is not None
    cleaner.open_spider()
    pruner.open_spider()
    # Four pages of the site seen, none cleaned yet (the spider's image requests, and the
    # media pipeline, come first): the map and the logo are on all of them.
    for number in range(1, 5):
        observe(mw, number)
    return mw, cleaner, pruner, crawler.stats


def observe(mw: AdImageFilter, number: int) -> None:
    response = HtmlResponse(
        url(number), body=page(number).encode(), headers={"Content-Type": "text/html"}
    )
    drive(mw.process_response(Request(url(number)), response))


def test_a_spiders_image_request_waits_for_its_page_to_be_cleaned(crawl: Any) -> None:
    mw, cleaner, _, stats = crawl
    observe(mw, 5)
    request = Request(MAP, headers={"Referer": url(5)}, priority=3)
    waiting = mw.process_request(request)  # page 5 is not cleaned yet: wait
    assert isinstance(waiting, Request) and waiting.priority < 3
    verdict = mw.gate.decide(MAP, url(5), final=False)
    assert AWAITING_MAIN_CONTENT in verdict.reasons and not verdict.drop
    drive(cleaner.process_item(item(5)))
    assert mw.process_request(waiting) is None  # in the main content: fetched
    assert "in_main_content" in mw.gate.decided[MAP].reasons
    # The logo is template whatever the cleaner says.
    with pytest.raises(IgnoreRequest, match="template image not fetched"):
        mw.process_request(Request(LOGO, headers={"Referer": url(5)}))
    assert stats.get_value("webclean/images/deferred") == 1


def test_the_media_pipelines_images_are_judged_on_the_cleaned_page(
    crawl: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    mw, cleaner, pruner, stats = crawl
    observe(mw, 6)
    cleanings = []
    clean = cleaner._clean

    async def counted(*args: Any) -> Any:
        cleanings.append(args[1])
        return await clean(*args)

    monkeypatch.setattr(cleaner, "_clean", counted)
    page_item = item(6)
    # ImageUrlsFilterPipeline comes first (before the media pipeline and the cleaner).
    drive(pruner.process_item(page_item))
    assert page_item["image_urls"] == [MAP]
    assert page_item["webclean_dropped_images"] == [LOGO]
    drive(cleaner.process_item(page_item))
    assert stats.get_value("webclean/items/cleaned") == 1
    assert cleanings == [url(6)]  # cleaned once, ahead of its turn
    assert page_item["text"].startswith("The map shows where the harbour works")
    assert not cleaner._ahead  # the result cleaned ahead was used, and let go


def test_without_a_cleaner_an_uncleaned_page_is_judged_at_once() -> None:
    crawler = crawler_with_engine({"DOWNLOADER_MIDDLEWARES": {AdImageFilter: 560}})
    mw = crawler.get_downloader_middleware(AdImageFilter)
    assert mw is not None
    for number in range(1, 6):
        observe(mw, number)
    with pytest.raises(IgnoreRequest, match="template image not fetched"):
        mw.process_request(Request(MAP, headers={"Referer": url(5)}))


def test_the_last_deferral_decides_on_the_statistics() -> None:
    # A page the spider never hands to the cleaner (no item): after the deferrals, the
    # image is judged without its main content.
    crawler = crawler_with_engine(
        {
            "DOWNLOADER_MIDDLEWARES": {AdImageFilter: 560},
            "ITEM_PIPELINES": {CleanPipeline: 200},
            "WEBCLEAN_WORKERS": 0,
            "WEBCLEAN_ADS_MAX_DEFERS": 1,
        }
    )
    mw = crawler.get_downloader_middleware(AdImageFilter)
    cleaner = crawler.get_item_pipeline(CleanPipeline)
    assert mw is not None and cleaner is not None
    cleaner.open_spider()
    for number in range(1, 6):
        observe(mw, number)
    again = mw.process_request(Request(LOGO, headers={"Referer": url(5)}))
    assert isinstance(again, Request)
    with pytest.raises(IgnoreRequest, match="template image not fetched"):
        mw.process_request(again)


def test_an_image_the_item_filter_let_through_uncertain_and_the_middleware_drops_is_saved() -> None:
    """ImageUrlsFilterPipeline keeps an image while its site has too few pages to tell;
    the media pipeline's request for it comes when the site has more, and the middleware
    drops it: never downloaded, so a download saved (counted once)."""
    from scrapy.http.request import NO_CALLBACK

    crawler = crawler_with_engine(
        {
            "DOWNLOADER_MIDDLEWARES": {AdImageFilter: 560},
            "ITEM_PIPELINES": {ImageUrlsFilterPipeline: 0},
        }
    )
    mw = crawler.get_downloader_middleware(AdImageFilter)
    pruner = crawler.get_item_pipeline(ImageUrlsFilterPipeline)
    assert mw is not None and pruner is not None and crawler.stats is not None
    pruner.open_spider()
    observe(mw, 1)
    first = item(1)
    drive(pruner.process_item(first))
    assert LOGO in first["image_urls"]  # one page of the site: not known to be template
    for number in range(2, 7):
        observe(mw, number)
    with pytest.raises(IgnoreRequest, match="template image not fetched"):
        mw.process_request(Request(LOGO, callback=NO_CALLBACK, headers={"Referer": url(6)}))
    assert crawler.stats.get_value("webclean/images/saved") == 1
    assert crawler.stats.get_value("webclean/images/saved/template") == 1
