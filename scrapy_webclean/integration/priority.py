"""``ContentFirstPriority``: a spider middleware that makes a crawl reach content first.

Each request the spider yields from an HTML page is looked up among the links of that page,
grouped by the label of the block they sit in (``clean_html(...).links_by_label()``), and
its priority is raised by ``round(PRIORITY_SCALE * weight)``, the weight of that label in
``WEBCLEAN_PRIORITY_WEIGHTS`` (by default content 1.5, related and noise 0.5, the weights of
QuarkRank: +15 for a link in the article text, +5 for one in the menu or the footer). A link
found in several blocks of the page counts with its highest weight; a request whose URL is
not a link of the page (a form, a sitemap, a URL the spider made up) keeps its priority, and
so does every request of a response that is not an HTML page. The page is cleaned once, and
only when the spider yields a request from it.

Scrapy's scheduler takes the highest priority first, so with a budget
(``CLOSESPIDER_PAGECOUNT``) the crawl fetches the pages that articles link to before the
pages the navigation links to. Off by default: ``WEBCLEAN_PRIORITY_ENABLED = True`` turns it
on (the add-on installs it in ``SPIDER_MIDDLEWARES``). Stats:
``webclean/priority/requests_raised`` and ``webclean/priority/by_label/<label>``.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterable, Iterator
from typing import TYPE_CHECKING, Any
from urllib.parse import urldefrag

from scrapy.exceptions import NotConfigured
from scrapy.http import Request, Response, TextResponse
from w3lib.url import safe_url_string

from scrapy_webclean.cleaning import clean_html
from scrapy_webclean.errors import CleanError
from scrapy_webclean.integration.page import content_type_of, decode_response
from scrapy_webclean.integration.pipelines import clean_options_from_settings
from scrapy_webclean.integration.settings import check_settings, get_setting

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector

    from scrapy_webclean.cleaning import CleanOptions

logger = logging.getLogger(__name__)

PREFIX = "webclean/priority"
#: A link's priority rises by ``round(PRIORITY_SCALE * weight)`` of its block's label.
PRIORITY_SCALE = 10


def _key(url: str) -> str:
    """A URL as requests and links are compared: escaped as Scrapy escapes a request's
    URL, without its ``#fragment``."""
    return urldefrag(safe_url_string(url))[0]


class ContentFirstPriority:
    """Spider middleware: raises the priority of each request by the weight of the block
    label its link sits in on the page it was found on (see the module docstring)."""

    def __init__(self, crawler: Crawler) -> None:
        check_settings(crawler.settings)
        if not get_setting(crawler.settings, "WEBCLEAN_ENABLED") or not get_setting(
            crawler.settings, "WEBCLEAN_PRIORITY_ENABLED"
        ):
            # No message: Scrapy would log every crawl's default (off) as a warning.
            raise NotConfigured
        weights = get_setting(crawler.settings, "WEBCLEAN_PRIORITY_WEIGHTS")
        self.raise_by: dict[str, int] = {
            label: round(PRIORITY_SCALE * weight) for label, weight in weights.items()
        }
        self.options: CleanOptions = clean_options_from_settings(crawler.settings)
        assert crawler.stats is not None
        self.stats: StatsCollector = crawler.stats

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ContentFirstPriority:
        return cls(crawler)

    def process_spider_output(self, response: Response, result: Iterable[Any]) -> Iterator[Any]:
        labels = _PageLabels(self, response)
        for item in result:
            yield labels.adjust(item)

    async def process_spider_output_async(
        self, response: Response, result: AsyncIterator[Any]
    ) -> AsyncIterator[Any]:
        labels = _PageLabels(self, response)
        async for item in result:
            yield labels.adjust(item)

    def link_labels(self, response: Response) -> dict[str, str]:
        """The page's links (URL keys) to the label whose weight they get: the label of
        highest weight among the blocks they sit in. Empty when the response is not an
        HTML page or cannot be cleaned."""
        if not isinstance(response, TextResponse):
            return {}
        try:
            decoded = decode_response(response, self.options.fallback_encodings)
            result = clean_html(
                decoded.text,
                response.url,
                content_type=content_type_of(response),
                options=self.options,
            )
            groups = result.links_by_label()
        except CleanError as exc:
            self.stats.inc_value(f"{PREFIX}/pages_failed/{exc.reason}")
            return {}
        except Exception as exc:  # a page the cleaner chokes on keeps the crawl's order
            self.stats.inc_value(f"{PREFIX}/pages_failed/{type(exc).__name__}")
            logger.debug("webclean: no link labels for %s: %r", response.url, exc)
            return {}
        self.stats.inc_value(f"{PREFIX}/pages_labelled")
        labels: dict[str, str] = {}
        for label, links in groups.items():
            if label not in self.raise_by:
                continue
            for link in links:
                key = _key(link.url)
                held = labels.get(key)
                if held is None or self.raise_by[label] > self.raise_by[held]:
                    labels[key] = label
        return labels


class _PageLabels:
    """One response's link labels, computed on the first request the spider yields."""

    def __init__(self, middleware: ContentFirstPriority, response: Response) -> None:
        self.middleware = middleware
        self.response = response
        self.labels: dict[str, str] | None = None

    def adjust(self, item: Any) -> Any:
        if not isinstance(item, Request):
            return item
        if self.labels is None:
            self.labels = self.middleware.link_labels(self.response)
        label = self.labels.get(_key(item.url))
        if label is None:
            return item
        step = self.middleware.raise_by[label]
        stats = self.middleware.stats
        stats.inc_value(f"{PREFIX}/by_label/{label}")
        if step:
            stats.inc_value(f"{PREFIX}/requests_raised")
            item.priority += step
        return item
