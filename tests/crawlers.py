"""Crawlers for component tests: the real components, built the way ``scrapy crawl``
builds them (settings, add-ons, extensions, then the engine with its middlewares and
pipelines), so that they find each other through Scrapy's public API."""

from __future__ import annotations

from typing import Any

from scrapy import Spider
from scrapy.crawler import Crawler
from scrapy.utils.test import get_crawler


class PageSpider(Spider):
    """A spider that requests nothing: the tests feed the components themselves."""

    name = "pages"


def crawler_with_engine(settings: dict[str, Any] | None = None) -> Crawler:
    """A crawler whose spider, extensions and engine exist, with its stats open
    (``Crawler.crawl`` does these steps before the engine starts)."""
    crawler = get_crawler(PageSpider, settings_dict=settings or {})
    crawler.spider = crawler._create_spider()
    crawler._apply_settings()
    crawler.engine = crawler._create_engine()
    assert crawler.stats is not None
    crawler.stats.open_spider()  # type: ignore[call-arg]
    return crawler
