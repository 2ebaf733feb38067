"""``CleanPipeline``: turns an item's raw page HTML into clean fields.

Works with any item type ``itemadapter`` knows (dict, ``scrapy.Item``, dataclass, attrs,
pydantic). Items without an HTML field (``None`` or absent) pass through untouched
(``webclean/items/no_html``). A page that cannot be cleaned (empty, not HTML by its
``Content-Type`` or its first bytes, over a size limit, a worker crash ...) is counted under
``webclean/items/failed/<reason>`` and either passed on with an error field (default) or
dropped (``WEBCLEAN_ON_ERROR = "drop"``): cleaning never crashes the crawl. A page over
``WEBCLEAN_MAX_HTML_BYTES`` is refused here (``too_large``), never sent to a worker. In a
worker, a page has ``WEBCLEAN_PAGE_TIMEOUT`` seconds (``timeout`` after that); cleaned in
the crawl's process (``WEBCLEAN_WORKERS = 0``), it has no time limit, only the size limits
(a page cannot be stopped half-way safely in the process that runs the crawl). No item
leaves with ``bytes`` in it: the raw HTML is removed, or kept as text with
``WEBCLEAN_KEEP_HTML``, so every feed exporter can write every item.
"""

from __future__ import annotations

import asyncio
import heapq
import logging
import os
from collections import Counter
from collections.abc import MutableMapping
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.exceptions import NotConfigured

from scrapy_webclean.ads.features import is_content_photo
from scrapy_webclean.cleaning import Cleaner, CleanOptions
from scrapy_webclean.errors import OverLimit
from scrapy_webclean.extraction.linemodel import line_model_named
from scrapy_webclean.extraction.template import TemplateModel
from scrapy_webclean.gcpause import freeze_start_up
from scrapy_webclean.html.loader import Limits, decode_html
from scrapy_webclean.integration.accounting import WebcleanDrop
from scrapy_webclean.integration.settings import check_settings, get_setting
from scrapy_webclean.integration.state import CrawlState
from scrapy_webclean.integration.workers import (
    Cleaned,
    FingerprintRequest,
    WorkerPool,
    clean_page,
    warm_up,
)
from scrapy_webclean.segmentation.classify import DEFAULT_NOISE_WORDS, ClassifierOptions
from scrapy_webclean.segmentation.quark import QuarkOptions
from scrapy_webclean.text.tokenize import load_segmenter

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings
    from scrapy.statscollectors import StatsCollector

    from scrapy_webclean.integration.dedup import DedupPipeline

logger = logging.getLogger(__name__)

STATS_PREFIX = "webclean"
#: Slowest pages named in the end-of-crawl summary.
SLOWEST_KEPT = 5


def output_format(settings: BaseSettings) -> str:
    """``WEBCLEAN_OUTPUT_FORMAT``: ``text``, ``markdown`` or ``html``."""
    return str(get_setting(settings, "WEBCLEAN_OUTPUT_FORMAT"))


def worker_count(setting: int) -> int:
    """``WEBCLEAN_WORKERS``: -1 is one less than the machine's cores, at most 4."""
    count = setting
    if count < 0:
        count = min(4, (os.cpu_count() or 1) - 1)
    return max(count, 0)


def clean_options_from_settings(settings: BaseSettings) -> CleanOptions:
    """Build :class:`CleanOptions` from ``WEBCLEAN_*`` settings."""
    extra_noise = tuple(get_setting(settings, "WEBCLEAN_EXTRA_NOISE_WORDS"))
    return CleanOptions(
        custom_tags=tuple(t.lower() for t in get_setting(settings, "WEBCLEAN_CUSTOM_TAGS")),
        custom_patterns=tuple(get_setting(settings, "WEBCLEAN_CUSTOM_PATTERNS")),
        quark=QuarkOptions(min_block_chars=get_setting(settings, "WEBCLEAN_MIN_BLOCK_CHARS")),
        classifier=ClassifierOptions(noise_words=DEFAULT_NOISE_WORDS + extra_noise),
        fallback_encodings=tuple(get_setting(settings, "WEBCLEAN_FALLBACK_ENCODINGS")),
        limits=Limits(
            max_bytes=get_setting(settings, "WEBCLEAN_MAX_HTML_BYTES"),
            max_depth=get_setting(settings, "WEBCLEAN_MAX_DEPTH"),
            max_nodes=get_setting(settings, "WEBCLEAN_MAX_NODES"),
            max_text=get_setting(settings, "WEBCLEAN_MAX_TEXT_CHARS"),
        ),
        line_model=line_model_named(get_setting(settings, "WEBCLEAN_LINE_MODEL")),
        line_model_min_site_pages=get_setting(settings, "WEBCLEAN_LINE_MODEL_MIN_SITE_PAGES"),
        favor=get_setting(settings, "WEBCLEAN_FAVOR"),
        include_comments=get_setting(settings, "WEBCLEAN_INCLUDE_COMMENTS"),
        markdown_links=get_setting(settings, "WEBCLEAN_MARKDOWN_LINKS"),
        markdown_images=get_setting(settings, "WEBCLEAN_MARKDOWN_IMAGES"),
    )


#: Results grouped by block label (``WEBCLEAN_OUTPUT_GROUPS`` chooses the groups written).
_GROUPED_FIELDS = frozenset(("links", "images"))


class CleanPipeline:
    """Cleans the page HTML carried by each item (see the module docstring).

    Fills the fields named by ``WEBCLEAN_OUTPUT_FIELDS`` (``title``, ``text``, ``lang``,
    ``encoding``, ``links`` and ``images`` grouped by block label, and ``blocks`` when
    ``WEBCLEAN_INCLUDE_BLOCKS`` is on), then removes the raw HTML unless
    ``WEBCLEAN_KEEP_HTML``. Items of declared-field types (``scrapy.Item``, dataclasses)
    only get the fields they declare; the missing ones are named once in the log.
    """

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        check_settings(settings)
        if not get_setting(settings, "WEBCLEAN_ENABLED"):
            raise NotConfigured("WEBCLEAN_ENABLED is off")
        self.crawler = crawler
        assert crawler.stats is not None
        self.stats: StatsCollector = crawler.stats
        self.html_field: str = get_setting(settings, "WEBCLEAN_HTML_FIELD")
        self.url_field: str = get_setting(settings, "WEBCLEAN_URL_FIELD")
        self.content_type_field: str = get_setting(settings, "WEBCLEAN_CONTENT_TYPE_FIELD")
        self.keep_html: bool = get_setting(settings, "WEBCLEAN_KEEP_HTML")
        self.include_blocks: bool = get_setting(settings, "WEBCLEAN_INCLUDE_BLOCKS")
        self.output_fields: dict[str, str | None] = get_setting(settings, "WEBCLEAN_OUTPUT_FIELDS")
        self.output_groups: frozenset[str] = frozenset(
            get_setting(settings, "WEBCLEAN_OUTPUT_GROUPS")
        )
        self.on_error: str = get_setting(settings, "WEBCLEAN_ON_ERROR")
        self.error_field: str = get_setting(settings, "WEBCLEAN_ERROR_FIELD")
        self.output_format = output_format(settings)
        self.workers = worker_count(get_setting(settings, "WEBCLEAN_WORKERS"))
        self.queue: int = get_setting(settings, "WEBCLEAN_WORKER_QUEUE")
        self.page_timeout: float = get_setting(settings, "WEBCLEAN_PAGE_TIMEOUT")
        self.fallback_encodings = tuple(get_setting(settings, "WEBCLEAN_FALLBACK_ENCODINGS"))
        self._workers: WorkerPool | None = None
        self._worker_rss = 0
        #: The slowest pages cleaned (a min-heap of (seconds, URL)), for the end summary.
        self.slowest: list[tuple[float, str]] = []
        #: The crawl's ad-image gate (found at open_spider), told which images are content.
        self._ad_gate: Any = None
        #: Items cleaned before their turn (:meth:`clean_ahead`): id -> (item, result).
        self._ahead: dict[int, tuple[Any, Cleaned]] = {}
        #: The crawl's dedup pipeline (found at open_spider), handed each text's
        #: fingerprint, and what it compares (the fingerprints made where pages are cleaned).
        self._dedup: DedupPipeline | None = None
        self._fingerprints: FingerprintRequest | None = None
        state = CrawlState.of(crawler)
        # (With workers, the template state lives in them; this one serves the pages
        # cleaned here when there is no event loop to await a worker.)
        templates = TemplateModel(store=state.template_store())
        self.cleaner = Cleaner(clean_options_from_settings(settings), template_model=templates)
        self._warned_types: set[type] = set()
        self._seconds = 0.0
        self._counts: Counter[str] = Counter()
        crawler.signals.connect(self._log_summary, signal=signals.spider_closed)
        #: ``WEBCLEAN_GC_FREEZE``: what the crawl's process and each worker load at start is
        #: kept out of the collector's full walks.
        self.gc_freeze = bool(get_setting(settings, "WEBCLEAN_GC_FREEZE"))
        if self.gc_freeze:
            crawler.signals.connect(self._freeze_start_up, signal=signals.engine_started)

    def _freeze_start_up(self) -> None:
        """Once every component has opened (the models and dictionaries loaded), keep what
        the crawl loaded out of the collector's full walks (``gcpause.freeze_start_up``)."""
        frozen = freeze_start_up()
        self.stats.set_value(f"{STATS_PREFIX}/gc/frozen_objects", frozen)
        logger.debug("webclean: %d objects of the start-up kept out of the collector", frozen)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CleanPipeline:
        return cls(crawler)

    def _inc(self, key: str, count: int = 1) -> None:
        self._counts[key] += count
        self.stats.inc_value(f"{STATS_PREFIX}/{key}", count)

    async def process_item(self, item: Any) -> Any:
        """Clean one item in place and return it (or raise ``DropItem`` on failure).

        With worker processes (``WEBCLEAN_WORKERS``) the page is cleaned in its site's
        worker while the reactor goes on; without them, or outside an asyncio event loop,
        here.
        """
        adapter = ItemAdapter(item)
        self._inc("items/in")
        html = adapter.get(self.html_field)
        if html is None:
            self._inc("items/no_html")
            return item
        raw_url = adapter.get(self.url_field)
        url = raw_url if isinstance(raw_url, str) else None
        content_type = adapter.get(self.content_type_field)
        if not isinstance(html, (str, bytes)):
            message = f"field {self.html_field!r} holds {type(html).__name__}, not str or bytes"
            return self._failed(item, adapter, raw_url, "bad_html_type", message)
        judged = adapter.get(self.error_field)
        if not html and isinstance(judged, str) and judged:
            # page_item() already found it is no page (a PDF, an image ...): its reason
            return self._failed(item, adapter, raw_url, judged, "refused by page_item")
        ahead = self._ahead.pop(id(item), None)
        if ahead is not None and ahead[0] is item:
            cleaned = ahead[1]  # cleaned before its turn (clean_ahead)
        else:
            cleaned = await self._clean(html, url, content_type)
        self._seconds += cleaned.seconds  # time spent cleaning, wherever it ran
        if cleaned.worker_rss > self._worker_rss:
            self._worker_rss = cleaned.worker_rss
            self.stats.set_value(f"{STATS_PREFIX}/workers/max_rss", cleaned.worker_rss)
        if cleaned.seconds and url:
            entry = (cleaned.seconds, url)
            if len(self.slowest) < SLOWEST_KEPT:
                heapq.heappush(self.slowest, entry)
            elif entry > self.slowest[0]:
                heapq.heapreplace(self.slowest, entry)
        self.stats.set_value(f"{STATS_PREFIX}/time/clean_seconds", round(self._seconds, 3))
        data = cleaned.data
        if data is None:
            return self._failed(item, adapter, raw_url, cleaned.reason, cleaned.message)
        self._tell_ad_filter(raw_url, data)
        if isinstance(html, str) and isinstance(adapter.get(self._encoding_field), str):
            # Text decoded before it came (page_item): the item names the page's encoding.
            cleaned.encoding = data["encoding"] = adapter[self._encoding_field]
        self._set_fields(item, adapter, data)
        self._settle_html(item, adapter, html, content_type)
        if cleaned.fingerprint is not None and self._dedup is not None:
            # (handed with the item's text as stored: the dedup pipeline then reads the
            # Markdown of a handed page as plain text only when it has no fingerprint)
            self._dedup.hand_fingerprint(item, data["text"], cleaned.fingerprint[1])
        self._inc("items/cleaned")
        self._inc(f"pages/lang/{cleaned.lang}")
        self._inc(f"pages/encoding/{cleaned.encoding}")
        self._inc(f"pages/type/{cleaned.page_type}")
        if not data["text"]:
            self._inc("pages/no_main_text")
        for label, count in cleaned.blocks.items():
            self._inc(f"blocks/{label}", count)
        self._inc("chars/text", len(data["text"]))
        return item

    async def _clean(self, html: str | bytes, url: str | None, content_type: Any) -> Cleaned:
        try:
            # (before a worker gets it: a body over the limit is not even sent)
            self.cleaner.options.limits.check_size(html)
        except OverLimit as exc:
            return Cleaned(reason=exc.reason, message=str(exc))
        pool = self._pool()
        if pool is None:
            return clean_page(
                self.cleaner,
                html,
                url,
                content_type,
                self.include_blocks,
                self.output_format,
                self._fingerprints,
            )
        return await pool.clean(
            html, url, content_type, self.include_blocks, self.output_format, self._fingerprints
        )

    async def clean_ahead(self, item: Any) -> bool:
        """Clean ``item`` now, before its turn in the item pipelines, and keep the result
        for :meth:`process_item`: the ad-image filter's pipeline, which runs before the
        media pipelines, asks for it when it needs the page's main-content images before
        they are fetched. Returns whether the page was cleaned (and the ad filter told)."""
        adapter = ItemAdapter(item)
        html = adapter.get(self.html_field)
        raw_url = adapter.get(self.url_field)
        if not isinstance(html, (str, bytes)) or not html or not isinstance(raw_url, str):
            return False
        if id(item) in self._ahead:
            return True
        cleaned = await self._clean(html, raw_url, adapter.get(self.content_type_field))
        self._ahead[id(item)] = (item, cleaned)
        if cleaned.data is not None:
            self._tell_ad_filter(raw_url, cleaned.data)
        return True

    def _pool(self) -> WorkerPool | None:
        """The worker processes (started on first use), or None to clean here."""
        if self.workers <= 0:
            return None
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # not under an asyncio event loop: clean here
            return None
        if self._workers is None:
            spec = CrawlState.of(self.crawler).worker_spec()
            self._workers = WorkerPool(
                self.workers,
                self.cleaner.options,
                spec,
                self.queue,
                self.gc_freeze,
                self.page_timeout,
            )
            logger.info(
                "webclean: cleaning in %d worker process%s (template state: %s)",
                self.workers,
                "" if self.workers == 1 else "es",
                spec.kind,
            )
        return self._workers

    def open_spider(self, spider: Any = None) -> None:
        """Find the crawl's ad-image filter and its dedup pipeline, and start the worker
        processes now (or, when pages are cleaned in this process, load the cleaner's
        dictionaries and models), so the first pages do not wait for them: a load on the
        first page would block the event loop for a second or more."""
        from scrapy_webclean.integration.adfilter import AdImageFilter
        from scrapy_webclean.integration.dedup import DedupPipeline

        ad_filter = self.crawler.get_downloader_middleware(AdImageFilter)
        self._ad_gate = ad_filter.gate if ad_filter is not None else None
        if self._ad_gate is not None:
            # Template verdicts wait for the main content of a page this pipeline cleans.
            self._ad_gate.cleaner = self
        self._dedup = self.crawler.get_item_pipeline(DedupPipeline)
        if self._dedup is not None:
            # Its fingerprints are made where the pages are cleaned: in the workers, off
            # the event loop's thread.
            self._fingerprints = self._dedup.fingerprint_request()
        pool = self._pool()
        if pool is not None:
            pool.warm_up()
        else:
            warm_up(self.cleaner.options)
            load_segmenter()  # (the in-page TF-IDF cuts Chinese blocks with jieba)

    def close_spider(self, spider: Any = None) -> None:
        if self._workers is not None:
            if self._workers.restarts:
                self.stats.set_value(f"{STATS_PREFIX}/workers/restarts", self._workers.restarts)
            if self._workers.resent:
                self.stats.set_value(f"{STATS_PREFIX}/workers/resent", self._workers.resent)
            self._workers.close()
            self._workers = None

    def _tell_ad_filter(self, url: Any, data: dict[str, Any]) -> None:
        """Let the crawl's ad-image filter know which photos sit in the main content (and
        that the page's main content is known, when it has none): those it must never
        drop as template (:func:`~scrapy_webclean.ads.features.is_content_photo`)."""
        if self._ad_gate is None or not isinstance(url, str):
            return
        images = data.get("images", {}).get("content") or []
        photos = [
            image["src"]
            for image in images
            if is_content_photo(image.get("width"), image.get("height"), image.get("link"))
        ]
        self._ad_gate.model.note_main_content(url, photos)

    def _failed(self, item: Any, adapter: ItemAdapter, url: Any, reason: str, message: str) -> Any:
        self._inc(f"items/failed/{reason}")
        if self.on_error == "drop":
            self._inc(f"items/dropped/{reason}")
            raise WebcleanDrop(
                f"webclean: cannot clean {url}: {message} ({reason})",
                reason,
                url if isinstance(url, str) else None,
            )
        logger.warning("webclean: cannot clean %s: %s (%s); passing it on", url, message, reason)
        if self.error_field in adapter.field_names() or isinstance(item, MutableMapping):
            adapter[self.error_field] = reason
        self._settle_html(item, adapter, adapter.get(self.html_field), None, usable=False)
        return item

    @property
    def _encoding_field(self) -> str:
        return self.output_fields.get("encoding") or "encoding"

    def _settle_html(
        self, item: Any, adapter: ItemAdapter, html: Any, content_type: Any, usable: bool = True
    ) -> None:
        """Remove the raw HTML and its content type, or with ``WEBCLEAN_KEEP_HTML`` keep
        the HTML as text: a feed exporter cannot write ``bytes``. The body of a page that
        is no HTML document (``usable`` False) is never kept as text."""
        if not self.keep_html:
            self._remove(item, adapter, self.html_field)
            self._remove(item, adapter, self.content_type_field)
            return
        if isinstance(html, bytes):
            if usable:
                decoded = decode_html(html, content_type, self.fallback_encodings)
                adapter[self.html_field] = decoded.text
            else:
                self._remove(item, adapter, self.html_field)
        content = adapter.get(self.content_type_field)
        if isinstance(content, bytes):
            adapter[self.content_type_field] = content.decode("latin-1")

    def _set_fields(self, item: Any, adapter: ItemAdapter, data: dict[str, Any]) -> None:
        declared = None if isinstance(item, dict) else set(adapter.field_names())
        missing = []
        for key, field_name in self.output_fields.items():
            if not field_name or key not in data:
                continue
            if declared is not None and field_name not in declared:
                missing.append(field_name)
                continue
            value = data[key]
            if key in _GROUPED_FIELDS and isinstance(value, dict):
                value = {group: v for group, v in value.items() if group in self.output_groups}
            adapter[field_name] = value
        if missing and type(item) not in self._warned_types:
            self._warned_types.add(type(item))
            logger.warning(
                "webclean: %s declares no field for %s; those results are not "
                "stored (declare them or rename them with WEBCLEAN_OUTPUT_FIELDS)",
                type(item).__name__,
                ", ".join(missing),
            )

    @staticmethod
    def _remove(item: Any, adapter: ItemAdapter, field_name: str) -> None:
        if field_name not in adapter:
            return
        if isinstance(item, MutableMapping):  # dict and scrapy.Item
            del adapter[field_name]
        else:  # dataclass, attrs, pydantic: the attribute must stay, empty it
            adapter[field_name] = None

    def _log_summary(self) -> None:
        c = self._counts
        cleaned = c["items/cleaned"]
        failed = {k.rsplit("/", 1)[1]: v for k, v in c.items() if k.startswith("items/failed/")}
        langs = {k.rsplit("/", 1)[1]: v for k, v in c.items() if k.startswith("pages/lang/")}
        per_page = 1000 * self._seconds / cleaned if cleaned else 0.0
        logger.info(
            "webclean summary: %d items in, %d cleaned, %d without HTML, %d failed%s; main text "
            "found on %d pages; blocks: %d content, %d related, %d noise; languages: %s; "
            "cleaning took %.1f s (%.1f ms per page)",
            c["items/in"],
            cleaned,
            c["items/no_html"],
            sum(failed.values()),
            f" ({', '.join(f'{k}: {v}' for k, v in sorted(failed.items()))})" if failed else "",
            cleaned - c["pages/no_main_text"],
            c["blocks/content"],
            c["blocks/related"],
            c["blocks/noise"],
            ", ".join(f"{k} {v}" for k, v in sorted(langs.items())) or "none",
            self._seconds,
            per_page,
        )
