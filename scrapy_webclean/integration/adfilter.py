"""The Scrapy shell around :class:`~scrapy_webclean.ads.AdImageModel`.

* :class:`AdImageFilter` (downloader middleware) observes every HTML response and judges
  every image request before it is fetched: image requests the spider makes, and those of
  Scrapy's ``ImagesPipeline``/``FilesPipeline`` (which carry no callback and no page).
* :class:`ImageUrlsFilterPipeline` (item pipeline, before the media pipeline) prunes an
  item's ``image_urls`` with the same model and the item's page URL, so the media pipeline
  never even asks for an ad, and logs no download failure for it.

Both share one model per crawler, and each image URL is decided once per crawl.

Off the reactor: observing a page, all of which grows with its size (decoding it, parsing
it, reading its image links, learning from each), runs in one thread of the middleware's
own, under Scrapy's asyncio reactor (on another reactor, or with no event loop, in place
as before). One thread: pages are learned one at a time, in the order they arrive, while
the reactor judges image requests with the same model (its stores lock, its per-page
memories are replaced whole, never changed under a reader). A body over
``WEBCLEAN_MAX_HTML_BYTES`` is never decoded or parsed
(``webclean/images/observe_skipped/too_large``).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import Request, Response, TextResponse
from scrapy.http.request import NO_CALLBACK

from scrapy_webclean.ads import AdImageModel, AdModelOptions, FilterList, Verdict
from scrapy_webclean.ads.keywords import DEFAULT_AD_WORDS
from scrapy_webclean.errors import NotHtml
from scrapy_webclean.integration.page import decode_response, remember_decoding
from scrapy_webclean.integration.settings import check_settings, get_setting
from scrapy_webclean.integration.state import CrawlState
from scrapy_webclean.redact import redact_url
from scrapy_webclean.text.tokenize import load_segmenter
from scrapy_webclean.urls import site_key

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector

logger = logging.getLogger(__name__)

PREFIX = "webclean/images"
#: Request meta keys.
META_KEEP = "webclean_keep_image"
META_PAGE = "webclean_page"
META_DEFERS = "webclean_defers"
#: The reason of a template verdict held back until its page is cleaned.
AWAITING_MAIN_CONTENT = "awaiting_main_content"

_IMAGE_EXTENSIONS = (".jpg", ".jpeg", ".png", ".gif", ".webp", ".svg", ".bmp", ".ico", ".avif")
_DECIDED_CAP = 100_000
#: Sites whose first image drop was logged, remembered (least recently logged forgotten
#: first, then logged once more): about 100 bytes a site, 1 MB in all.
_LOGGED_SITES_CAP = 10_000
#: Threads that observe pages for the middleware: one, so pages are learned in the order
#: they arrive, one at a time, and one page's parse tree at a time is built beside the
#: crawl.
_READER_THREADS = 1


class AdImageGate:
    """The crawler-wide state both components use: the model, the allow-list, the
    decisions already taken, and the stats and log rules."""

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        options = AdModelOptions(
            min_pages=get_setting(settings, "WEBCLEAN_ADS_MIN_PAGES"),
            drop_template=get_setting(settings, "WEBCLEAN_DROP_TEMPLATE_IMAGES"),
            words={
                **DEFAULT_AD_WORDS,
                **{
                    str(k).lower(): float(v)
                    for k, v in _words(get_setting(settings, "WEBCLEAN_ADS_NOISE_WORDS")).items()
                },
            },
        )
        self.model = AdImageModel(
            options,
            filter_list=_filter_list(settings),
            store=CrawlState.of(crawler).ad_stats_store(),
        )
        self.max_defers = int(get_setting(settings, "WEBCLEAN_ADS_MAX_DEFERS"))
        hosts, patterns = [], []
        for entry in get_setting(settings, "WEBCLEAN_ADS_ALLOW"):
            if re.fullmatch(r"[A-Za-z0-9.-]+", entry):
                hosts.append(entry.lower())
            else:
                patterns.append(re.compile(entry))
        self.allow_hosts = tuple(hosts)
        self.allow_patterns = tuple(patterns)
        assert crawler.stats is not None
        self.stats: StatsCollector = crawler.stats
        self.decided: OrderedDict[str, Verdict] = OrderedDict()
        self._passed: OrderedDict[str, None] = OrderedDict()
        self._saved: OrderedDict[str, None] = OrderedDict()
        self._logged_sites: OrderedDict[str, None] = OrderedDict()
        #: The crawl's CleanPipeline, when it has one (it sets itself here at open): a
        #: template verdict waits for the main content of the image's page.
        self.cleaner: Any = None
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    def allowed(self, url: str) -> bool:
        """True for an image URL on the allow-list."""
        host = (urlsplit(url).hostname or "").lower()
        if any(host == h or host.endswith("." + h) for h in self.allow_hosts):
            return True
        return any(p.search(url) for p in self.allow_patterns)

    def decide(self, url: str, page_url: str | None, final: bool = True) -> Verdict:
        """The verdict on an image URL (remembered: an image is decided once).

        An image that would be dropped as template while the crawl's cleaner has yet to
        report its page's main content (:meth:`awaits_main_content`) is not dropped yet:
        unless ``final``, the verdict is uncertain, with the reason
        ``awaiting_main_content``, so that the caller waits (the cleaner may find the image
        inside the main content, where it is never template)."""
        verdict = self.decided.get(url)
        if verdict is not None:
            return verdict
        verdict = self.model.judge(url, page_url)
        if not final and verdict.kind == "template" and self.awaits_main_content(page_url):
            return Verdict(
                False,
                "template",
                verdict.score,
                (*verdict.reasons, AWAITING_MAIN_CONTENT),
                certain=False,
            )
        if verdict.certain or verdict.drop:
            _bounded_put(self.decided, url, verdict)
        return verdict

    def awaits_main_content(self, page_url: str | None) -> bool:
        """True when the crawl cleans pages and has not yet cleaned ``page_url``."""
        return (
            self.cleaner is not None
            and page_url is not None
            and not self.model.main_content_known(page_url)
        )

    def passed(self, url: str) -> None:
        """Note an image URL let through (it will be, or was, downloaded)."""
        _bounded_put(self._passed, url, None)

    def count_drop(self, url: str, verdict: Verdict) -> str:
        """Count a dropped image, log the first one per site; returns the reason."""
        reason = verdict.reason
        self.stats.inc_value(f"{PREFIX}/dropped")
        self.stats.inc_value(f"{PREFIX}/dropped/{reason}")
        self.stats.inc_value(f"{PREFIX}/dropped_kind/{verdict.kind}")
        if url not in self._passed and url not in self._saved:
            # A distinct image never downloaded at all: a download saved.
            _bounded_put(self._saved, url, None)
            self.stats.inc_value(f"{PREFIX}/saved")
            self.stats.inc_value(f"{PREFIX}/saved/{verdict.kind}")
        site = site_key(url)
        if site not in self._logged_sites:
            _bounded_put(self._logged_sites, site, None, _LOGGED_SITES_CAP)
            logger.info(
                "webclean: dropping %s image %s (%s); further image drops of %s are only "
                "counted (webclean/images/dropped)",
                verdict.kind,
                url,
                ", ".join(verdict.reasons),
                site,
            )
        return reason

    def spider_closed(self) -> None:
        get = self.stats.get_value
        logger.info(
            "webclean: %d image downloads saved (%d ads, %d pixels, %d template images; %d "
            "image links dropped in all), %d image requests kept, %d deferrals, %d pages observed",
            get(f"{PREFIX}/saved", 0),
            get(f"{PREFIX}/saved/ad", 0),
            get(f"{PREFIX}/saved/pixel", 0),
            get(f"{PREFIX}/saved/template", 0),
            get(f"{PREFIX}/dropped", 0),
            get(f"{PREFIX}/kept", 0),
            get(f"{PREFIX}/deferred", 0),
            get(f"{PREFIX}/pages_observed", 0),
        )


class AdImageFilter:
    """Downloader middleware: drops ad and template image requests before they are fetched.

    It observes every HTML response (its ``<img>`` links, through the model) and judges
    every image request: an ad or template image raises ``IgnoreRequest`` naming the
    reason, counted under ``webclean/images/dropped/...``; the first drop per site is
    logged. A request of a site with too few pages seen yet goes back to the scheduler at a
    lower priority, at most ``WEBCLEAN_ADS_MAX_DEFERS`` times (media-pipeline requests, which
    do not pass through the scheduler, are decided at once).

    Request meta: ``webclean_keep_image`` (True: never dropped), ``webclean_page`` (the
    page the image was found on; otherwise the ``Referer`` or the last page showing it).

    An HTML response is observed in the middleware's thread (see the module docstring);
    one over ``WEBCLEAN_MAX_HTML_BYTES`` is passed on unread.
    """

    def __init__(self, crawler: Crawler) -> None:
        check_settings(crawler.settings)
        if not get_setting(crawler.settings, "WEBCLEAN_ENABLED") or not get_setting(
            crawler.settings, "WEBCLEAN_ADS_ENABLED"
        ):
            raise NotConfigured("webclean ad filter disabled")
        self.gate = AdImageGate(crawler)
        self.stats = self.gate.stats
        self.fallback_encodings = tuple(
            get_setting(crawler.settings, "WEBCLEAN_FALLBACK_ENCODINGS")
        )
        self.max_bytes: int = get_setting(crawler.settings, "WEBCLEAN_MAX_HTML_BYTES")
        self._reader: ThreadPoolExecutor | None = None
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> AdImageFilter:
        return cls(crawler)

    def spider_opened(self) -> None:
        """Load the Chinese word segmenter before the first request: the model cuts the
        Chinese text of image links with it (jieba's dictionary load, about a second,
        would otherwise block the event loop on the first Chinese page)."""
        load_segmenter()

    def spider_closed(self) -> None:
        """Let the reading thread go (no response is in flight once the spider closed)."""
        if self._reader is not None:
            self._reader.shutdown(wait=False, cancel_futures=True)
            self._reader = None

    def process_request(self, request: Request) -> Request | None:
        if not self._is_image_request(request):
            return None
        url = request.url
        if request.meta.get(META_KEEP) or self.gate.allowed(url):
            self.stats.inc_value(f"{PREFIX}/kept")
            self.stats.inc_value(f"{PREFIX}/allowed")
            self.gate.passed(url)
            return None
        page = request.meta.get(META_PAGE) or _referer(request)
        defers = int(request.meta.get(META_DEFERS, 0))
        can_defer = request.callback is not NO_CALLBACK and defers < self.gate.max_defers
        verdict = self.gate.decide(url, page, final=not can_defer)
        if verdict.drop:
            reason = self.gate.count_drop(url, verdict)
            raise IgnoreRequest(
                f"webclean: {verdict.kind} image not fetched: {url} ({reason}; score "
                f"{verdict.score:.1f})"
            )
        if not verdict.certain and can_defer:
            self.stats.inc_value(f"{PREFIX}/deferred")
            return request.replace(
                priority=request.priority - 10,
                dont_filter=True,
                meta={**request.meta, META_DEFERS: defers + 1},
            )
        self.stats.inc_value(f"{PREFIX}/kept")
        self.gate.passed(url)
        return None

    async def process_response(self, request: Request, response: Response) -> Response:
        """Observe an HTML response's image links (off the reactor) and return it with the
        encoding the cleaner decodes it with."""
        if not isinstance(response, TextResponse) or b"html" not in (
            response.headers.get(b"Content-Type") or b""
        ):
            return response
        if len(response.body) > self.max_bytes:
            # Never cleaned either (items/failed/too_large): not read at all.
            self.stats.inc_value(f"{PREFIX}/observe_skipped/too_large")
            return response
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no asyncio event loop (another reactor, a test): here
            read = self._observe(response)
        else:
            read = await loop.run_in_executor(self._reader_thread(), self._observe, response)
        if read.error is not None:
            self.stats.inc_value(f"{PREFIX}/observe_failed/{type(read.error).__name__}")
            logger.debug("webclean: cannot observe images of %s: %r", response.url, read.error)
        elif read.observed:
            self.stats.inc_value(f"{PREFIX}/pages_observed")
        return read.response

    def _reader_thread(self) -> ThreadPoolExecutor:
        if self._reader is None:
            self._reader = ThreadPoolExecutor(_READER_THREADS, "webclean-page-reader")
        return self._reader

    def _observe(self, response: TextResponse) -> _Observation:
        """Decode and parse ``response``, and teach the model its image links (in the
        reading thread; see the module docstring)."""
        try:
            decoded = decode_response(response, self.fallback_encodings)
        except NotHtml:
            return _Observation(response)
        # One decoding for the page: Scrapy's response.text (and the spider's
        # response.css()) read it with the codec the cleaner uses, and Scrapy does not
        # infer one of its own (which reads the whole body).
        page = response.replace(encoding=decoded.encoding)
        remember_decoding(page, decoded)
        try:
            # The spider's own response.css() reuses this parse (parsel caches it).
            root = page.selector.root
            if root is None:
                return _Observation(page)
            self.gate.model.observe_page(page.url, root)
        except Exception as exc:
            return _Observation(page, error=exc)
        return _Observation(page, observed=True)

    def _is_image_request(self, request: Request) -> bool:
        if META_PAGE in request.meta or META_KEEP in request.meta:
            return True
        path = urlsplit(request.url).path.lower()
        return path.endswith(_IMAGE_EXTENSIONS) or self.gate.model.seen_image(request.url)


@dataclass(slots=True)
class _Observation:
    """What observing a response gave: the response to pass on (with its encoding),
    whether its images were learned, or why they could not be."""

    response: Response
    observed: bool = False
    error: Exception | None = None


class ImageUrlsFilterPipeline:
    """Item pipeline: removes ad and template images from an item's ``image_urls`` before
    the media pipeline downloads them (judged with the item's page URL, counted like the
    middleware's drops). Dropped URLs are listed in the item's ``webclean_dropped_images``
    when the item has (or, for dicts, can take) such a field."""

    def __init__(self, crawler: Crawler) -> None:
        check_settings(crawler.settings)
        if not get_setting(crawler.settings, "WEBCLEAN_ENABLED") or not get_setting(
            crawler.settings, "WEBCLEAN_ADS_ENABLED"
        ):
            raise NotConfigured("webclean ad filter disabled")
        self.crawler = crawler
        self._gate: AdImageGate | None = None
        #: Whether the middleware judges the image requests too (then it, not this
        #: pipeline, notes what is let through: an image kept here while uncertain may
        #: still be dropped there, and is then a download saved).
        self._downloads_judged = False
        self.field = get_setting(crawler.settings, "WEBCLEAN_IMAGE_URLS_FIELD")
        self.url_field = get_setting(crawler.settings, "WEBCLEAN_URL_FIELD")

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ImageUrlsFilterPipeline:
        return cls(crawler)

    @property
    def gate(self) -> AdImageGate:
        """The ``AdImageFilter`` middleware's gate (one model and one set of decisions for
        both), or a gate of its own when the middleware is not installed."""
        if self._gate is None:
            middleware = self.crawler.get_downloader_middleware(AdImageFilter)
            self._gate = middleware.gate if middleware is not None else AdImageGate(self.crawler)
            self._downloads_judged = middleware is not None
        return self._gate

    def open_spider(self, spider: Any = None) -> None:
        _ = self.gate  # resolved before the first item

    async def process_item(self, item: Any) -> Any:
        adapter = ItemAdapter(item)
        urls = adapter.get(self.field)
        if not urls:
            return item
        page = adapter.get(self.url_field)
        page = page if isinstance(page, str) else None
        gate = self.gate
        if gate.cleaner is not None and gate.awaits_main_content(page):
            waiting = [
                url
                for url in urls
                if isinstance(url, str)
                and not gate.allowed(url)
                and AWAITING_MAIN_CONTENT in gate.decide(url, page, final=False).reasons
            ]
            if waiting:
                # Images about to be dropped as template: the page is cleaned now, before
                # its turn (CleanPipeline keeps the result), so that none of its main
                # content's images is dropped, whatever the order of the pipelines.
                await gate.cleaner.clean_ahead(item)
        kept, dropped = [], []
        for url in urls:
            if not isinstance(url, str) or self.gate.allowed(url):
                kept.append(url)
                continue
            verdict = self.gate.decide(url, page)
            if verdict.drop:
                self.gate.count_drop(url, verdict)
                dropped.append(url)
            else:
                kept.append(url)
                if not self._downloads_judged:
                    self.gate.passed(url)
        if dropped:
            adapter[self.field] = kept
            if "webclean_dropped_images" in adapter.field_names() or isinstance(item, dict):
                adapter["webclean_dropped_images"] = dropped
        return item


def _bounded_put(
    table: OrderedDict[str, Any], key: str, value: Any, cap: int = _DECIDED_CAP
) -> None:
    """Remember ``key``, forgetting the oldest entries beyond ``cap``."""
    table[key] = value
    while len(table) > cap:
        table.popitem(last=False)


def _referer(request: Request) -> str | None:
    value = request.headers.get(b"Referer")
    return value.decode("latin-1") if value else None


def _words(value: Any) -> dict[str, float]:
    if isinstance(value, dict):
        return {str(k): float(v) for k, v in value.items()}
    return {str(word): 1.0 for word in value or ()}


def _filter_list(settings: Any) -> FilterList | None:
    source = get_setting(settings, "WEBCLEAN_ADS_FILTER_LIST")
    if not source:
        return None
    cache = get_setting(settings, "WEBCLEAN_ADS_FILTER_LIST_CACHE") or settings.get("JOBDIR")
    filter_list = FilterList.load(str(source), Path(cache) if cache else None)
    logger.info(
        "webclean: filter list %s loaded (%d lines)", redact_url(str(source)), filter_list.rules
    )
    return filter_list
