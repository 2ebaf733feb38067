"""Spider ``demo``: crawl the offline demo web and hand raw pages to the cleaner."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any
from urllib.parse import urldefrag, urlsplit

import scrapy
from scrapy.http import Response, TextResponse

from scrapy_webclean import page_item

#: Hosts of the demo content sites (127.0.0.10 and .11 only serve ads).
CONTENT_HOSTS: tuple[str, ...] = (
    "127.0.0.2",
    "127.0.0.3",
    "127.0.0.4",
    "127.0.0.5",
    "127.0.0.6",
    "127.0.0.7",
)


class DemoSpider(scrapy.Spider):
    """Follow every link inside the demo content sites and emit raw HTML items.

    Arguments: ``-a port=8800`` and optionally ``-a start_urls=url1,url2``.
    Offsite filtering is done here rather than with ``allowed_domains``,
    because that would also drop ImagesPipeline downloads from the ad hosts.
    """

    name = "demo"

    def __init__(
        self,
        port: int | str = 8800,
        start_urls: str | list[str] | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.port = int(port)
        if isinstance(start_urls, str):
            urls = [url.strip() for url in start_urls.split(",") if url.strip()]
        else:
            urls = list(start_urls or [])
        self.start_urls = urls or [f"http://{host}:{self.port}/" for host in CONTENT_HOSTS]
        # Links are followed on the content hosts at the crawl's port(s).
        self.follow_ports = {self.port} | {urlsplit(url).port or 80 for url in self.start_urls}

    async def start(self) -> AsyncIterator[scrapy.Request]:
        """Start requests go through the duplicate filter too.

        Scrapy's default marks start requests ``dont_filter=True``, which makes
        each home page be crawled (and emitted) a second time when linked.
        """
        for url in self.start_urls:
            yield scrapy.Request(url, callback=self.parse)

    def should_follow(self, url: str) -> bool:
        """Only http links to a content host on a crawled port."""
        parts = urlsplit(url)
        return (
            parts.scheme == "http"
            and parts.hostname in CONTENT_HOSTS
            and (parts.port or 80) in self.follow_ports
        )

    def parse(self, response: Response) -> Iterator[dict[str, Any] | scrapy.Request]:
        """Yield the page item, then follow in-site links."""
        if not isinstance(response, TextResponse) or b"html" not in (
            response.headers.get("Content-Type") or b""
        ):
            return
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value("demo/html_pages")
        yield page_item(response, image_urls=self.image_urls(response))
        for href in response.css("a::attr(href)").getall():
            url = urldefrag(response.urljoin(href.strip()))[0]
            if self.should_follow(url):
                yield scrapy.Request(url, callback=self.parse)

    @staticmethod
    def image_urls(response: TextResponse) -> list[str]:
        """Absolute URLs of every ``<img>``, preferring lazy-load ``data-src``."""
        urls: list[str] = []
        for img in response.css("img"):
            src = (img.attrib.get("data-src") or img.attrib.get("src") or "").strip()
            if not src or src.startswith("data:"):
                continue
            url = response.urljoin(src)
            if url not in urls:
                urls.append(url)
        return urls
