"""``CleanPipeline``: turns an item's raw page HTML into clean fields.

Works with any item type ``itemadapter`` knows (dict, ``scrapy.Item``, dataclass, attrs,
pydantic). Items without HTML pass through untouched (counted). A page that cannot be
cleaned is counted under ``webclean/items/failed/<reason>`` and either passed on with an
error field (default) or dropped (``WEBCLEAN_ON_ERROR = "drop"``): cleaning never crashes
the crawl.
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

from scrapy_webclean.cleaning import Cleaner, CleanOptions
from scrapy_webclean.extraction.template import TemplateModel
from scrapy_webclean.html.loader import Limits
from scrapy_webclean.integration.accounting import WebcleanDrop
from scrapy_webclean.integration.settings import get_setting
from scrapy_webclean.integration.state import CrawlState
from scrapy_webclean.integration.workers import WorkerPool, clean_page
from scrapy_webclean.segmentation.classify import DEFAULT_NOISE_WORDS, ClassifierOptions
from scrapy_webclean.segmentation.quark import QuarkOptions

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings
    from scrapy.statscollectors import StatsCollector

logger = logging.getLogger(__name__)

STATS_PREFIX = "webclean"
#: Slowest pages named in the end-of-crawl summary.
SLOWEST_KEPT = 5


def output_format(settings: BaseSettings) -> str:
    """``WEBCLEAN_OUTPUT_FORMAT``: ``text`` or ``markdown``."""
    value = str(get_setting(settings, "WEBCLEAN_OUTPUT_FORMAT")).lower()
    if value not in ("text", "markdown"):
        raise NotConfigured(f"WEBCLEAN_OUTPUT_FORMAT must be 'text' or 'markdown', not {value!r}")
    return value


def worker_count(setting: Any) -> int:
    """``WEBCLEAN_WORKERS``: -1 is one less than the machine's cores, at most 4."""
    count = int(setting)
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
        classifier=ClassifierOptions(
            similarity_threshold=get_setting(settings, "WEBCLEAN_SIMILARITY_THRESHOLD"),
            noise_words=DEFAULT_NOISE_WORDS + extra_noise,
        ),
        fallback_encodings=tuple(get_setting(settings, "WEBCLEAN_FALLBACK_ENCODINGS")),
        limits=Limits(
            max_bytes=get_setting(settings, "WEBCLEAN_MAX_HTML_BYTES"),
            max_depth=get_setting(settings, "WEBCLEAN_MAX_DEPTH"),
            max_nodes=get_setting(settings, "WEBCLEAN_MAX_NODES"),
            max_text=get_setting(settings, "WEBCLEAN_MAX_TEXT_CHARS"),
        ),
    )


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
        self.on_error: str = str(get_setting(settings, "WEBCLEAN_ON_ERROR")).lower()
        if self.on_error not in ("pass", "drop"):
            raise ValueError(f"WEBCLEAN_ON_ERROR must be 'pass' or 'drop', not {self.on_error!r}")
        self.error_field: str = get_setting(settings, "WEBCLEAN_ERROR_FIELD")
        self.markdown = output_format(settings) == "markdown"
        self.workers = worker_count(get_setting(settings, "WEBCLEAN_WORKERS"))
        self.queue = max(1, int(get_setting(settings, "WEBCLEAN_WORKER_QUEUE")))
        self._workers: WorkerPool | None = None
        self._worker_rss = 0
        #: The slowest pages cleaned (a min-heap of (seconds, URL)), for the end summary.
        self.slowest: list[tuple[float, str]] = []
        crawler._webclean_clean_pipeline = self  # type: ignore[attr-defined]
        state = CrawlState.of(crawler)
        # (With workers, the template state lives in them; this one serves the pages
        # cleaned here when there is no event loop to await a worker.)
        templates = TemplateModel(store=state.template_store())
        self.cleaner = Cleaner(clean_options_from_settings(settings), template_model=templates)
        self._warned_types: set[type] = set()
        self._seconds = 0.0
        self._counts: Counter[str] = Counter()
        crawler.signals.connect(self._log_summary, signal=signals.spider_closed)

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
        if html is None or (isinstance(html, (str, bytes)) and not html):
            self._inc("items/no_html")
            return item
        raw_url = adapter.get(self.url_field)
        url = raw_url if isinstance(raw_url, str) else None
        content_type = adapter.get(self.content_type_field)
        if not isinstance(html, (str, bytes)):
            message = f"field {self.html_field!r} holds {type(html).__name__}, not str or bytes"
            return self._failed(item, adapter, raw_url, "bad_html_type", message)
        pool = self._pool()
        if pool is None:
            cleaned = clean_page(
                self.cleaner, html, url, content_type, self.include_blocks, self.markdown
            )
        else:
            cleaned = await pool.clean(html, url, content_type, self.include_blocks, self.markdown)
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
        self._set_fields(item, adapter, data)
        if not self.keep_html:
            self._remove(item, adapter, self.html_field)
            self._remove(item, adapter, self.content_type_field)
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
            self._workers = WorkerPool(self.workers, self.cleaner.options, spec, self.queue)
            logger.info(
                "webclean: cleaning in %d worker process%s (template state: %s)",
                self.workers,
                "" if self.workers == 1 else "es",
                spec.kind,
            )
        return self._workers

    def open_spider(self, spider: Any = None) -> None:
        """Start the worker processes now, so the first pages do not wait for them."""
        pool = self._pool()
        if pool is not None:
            pool.warm_up()

    def close_spider(self, spider: Any = None) -> None:
        if self._workers is not None:
            if self._workers.restarts:
                self.stats.set_value(f"{STATS_PREFIX}/workers/restarts", self._workers.restarts)
            self._workers.close()
            self._workers = None

    def _tell_ad_filter(self, url: Any, data: dict[str, Any]) -> None:
        """Let the crawl's ad-image filter know which images sit in the main content."""
        gate = getattr(self.crawler, "_webclean_ad_gate", None)
        images = data.get("images", {}).get("content")
        if gate is not None and isinstance(url, str) and images:
            gate.model.note_main_content(url, [image["src"] for image in images])

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
        return item

    def _set_fields(self, item: Any, adapter: ItemAdapter, data: dict[str, Any]) -> None:
        declared = None if isinstance(item, dict) else set(adapter.field_names())
        missing = []
        for key, field_name in self.output_fields.items():
            if not field_name or key not in data:
                continue
            if declared is not None and field_name not in declared:
                missing.append(field_name)
                continue
            adapter[field_name] = data[key]
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
