"""``DedupPipeline``: near-duplicate pages dropped (or marked) before export.

Runs after ``CleanPipeline`` (order 300 by the add-on), on the cleaned main text, so that
one article under two site templates is still one article. The first copy seen is
exported; a later copy is dropped with ``DropItem`` (a ``WebcleanDrop``) naming the earlier one
(``WEBCLEAN_DEDUP_POLICY = "drop"``, the default) or exported with a ``duplicate_of``
field (``"mark"``). Hub and list pages are compared for exact copies only. Stats: ``webclean/dedup/unique``, ``webclean/dedup/exact``,
``webclean/dedup/near``, and ``webclean/dedup/skipped/<reason>`` for items with no text.

With ``WEBCLEAN_STATE = "redis"`` the index is shared by every process of the crawl: the
checks run in one worker thread, in batches of up to ``WEBCLEAN_DEDUP_BATCH`` items (the
items that arrived while the previous batch was out), so the reactor never waits on Redis.
If Redis stays away longer than ``WEBCLEAN_STATE_RETRY_SECONDS``, the waiting items are
passed on unchecked, counted under ``webclean/dedup/unchecked``: none is lost.
"""

from __future__ import annotations

import logging
from collections.abc import MutableMapping
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.defer import Deferred
from twisted.internet.threads import deferToThreadPool

from scrapy_webclean.dedup import DedupOptions, NearDuplicateIndex
from scrapy_webclean.dedup.index import Match
from scrapy_webclean.integration.accounting import WebcleanDrop
from scrapy_webclean.integration.pipelines import output_format
from scrapy_webclean.integration.settings import get_setting
from scrapy_webclean.integration.state import CrawlState
from scrapy_webclean.markdown import markdown_to_text
from scrapy_webclean.state import StateUnavailable

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector
    from twisted.python.failure import Failure
    from twisted.python.threadpool import ThreadPool

logger = logging.getLogger(__name__)

PREFIX = "webclean/dedup"
#: Page types compared for near copies; the others (hub and list pages, pages without
#: main text) only for exact copies: two lists sharing teasers are two pages.
NEAR_PAGE_TYPES = frozenset(("article", "forum"))


class DedupPipeline:
    """Drops (or marks) items whose main text copies an earlier item's."""

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        if not get_setting(settings, "WEBCLEAN_ENABLED") or not get_setting(
            settings, "WEBCLEAN_DEDUP_ENABLED"
        ):
            raise NotConfigured("webclean dedup disabled")
        self.policy = str(get_setting(settings, "WEBCLEAN_DEDUP_POLICY")).lower()
        if self.policy not in ("drop", "mark"):
            raise NotConfigured(
                f"WEBCLEAN_DEDUP_POLICY must be 'drop' or 'mark', not {self.policy!r}"
            )
        output = get_setting(settings, "WEBCLEAN_OUTPUT_FIELDS")
        self.text_field = output.get("text") or "text"
        self.page_type_field = output.get("page_type") or "page_type"
        self.url_field = get_setting(settings, "WEBCLEAN_URL_FIELD")
        self.mark_field = get_setting(settings, "WEBCLEAN_DEDUP_FIELD")
        self.markdown = output_format(settings) == "markdown"
        keywords = tuple(get_setting(settings, "WEBCLEAN_QUERY_KEYWORDS"))
        options = DedupOptions(keywords=keywords)
        self.state = CrawlState.of(crawler)
        self.index = NearDuplicateIndex(options, self.state.dedup_store(options.lsh_bands))
        self.batcher: _Batcher | None = None
        if self.state.remote:
            batch = int(get_setting(settings, "WEBCLEAN_DEDUP_BATCH"))
            self.batcher = _Batcher(self.index, self.state.worker(), max(batch, 1))
        assert crawler.stats is not None
        self.stats: StatsCollector = crawler.stats
        self._seen = 0
        crawler.signals.connect(self._log_summary, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> DedupPipeline:
        return cls(crawler)

    async def process_item(self, item: Any) -> Any:
        adapter = ItemAdapter(item)
        text = adapter.get(self.text_field)
        if not isinstance(text, str) or not text.strip():
            # No main text (a hub page, a failed clean): nothing to compare, passed on.
            self.stats.inc_value(f"{PREFIX}/skipped/no_text")
            return item
        self._seen += 1
        if self.markdown:  # compare the words, not the link targets and marks
            text = markdown_to_text(text)
        key = adapter.get(self.url_field)
        key = key if isinstance(key, str) else f"item-{self._seen}"
        page_type = adapter.get(self.page_type_field)
        exact_only = isinstance(page_type, str) and page_type not in NEAR_PAGE_TYPES
        if self.batcher is None:
            match = self.index.check(key, text, add=True, exact_only=exact_only)
        else:
            try:
                match = await maybe_deferred_to_future(self.batcher.check(key, text, exact_only))
            except StateUnavailable as exc:
                self.stats.inc_value(f"{PREFIX}/unchecked/state_unavailable")
                logger.error("webclean dedup: %s not checked for copies: %s", key, exc)
                return item
        if match is None:
            self.stats.inc_value(f"{PREFIX}/unique")
            return item
        self.stats.inc_value(f"{PREFIX}/{match.kind}")
        if self.policy == "drop":
            self.stats.inc_value(f"{PREFIX}/dropped")
            self.stats.inc_value("webclean/items/dropped/duplicate")
            first = f" (its group's first page: {match.key})" if match.nearest != match.key else ""
            raise WebcleanDrop(
                f"webclean: {key} is an {match.kind} duplicate of {match.nearest}{first}"
                if match.kind == "exact"
                else f"webclean: {key} is a {match.kind} duplicate of {match.nearest}{first}",
                "duplicate",
                key,
                match.key,
            )
        if self.mark_field in adapter.field_names() or isinstance(item, MutableMapping):
            adapter[self.mark_field] = match.key
        return item

    def _log_summary(self) -> None:
        get = self.stats.get_value
        logger.info(
            "webclean dedup: %d pages with text, %d unique, %d exact and %d near duplicates "
            "(%s); %d documents indexed",
            self._seen,
            get(f"{PREFIX}/unique", 0),
            get(f"{PREFIX}/exact", 0),
            get(f"{PREFIX}/near", 0),
            "dropped" if self.policy == "drop" else f"marked in {self.mark_field!r}",
            len(self.index),
        )


class _Batcher:
    """Runs duplicate checks in the state's worker thread, in arrival order, batching the
    items that arrive while a batch is out (so a slow store means bigger batches, not more
    round trips)."""

    def __init__(self, index: NearDuplicateIndex, pool: ThreadPool, max_batch: int) -> None:
        self.index = index
        self.pool = pool
        self.max_batch = max_batch
        self._pending: list[tuple[str, str, bool, Deferred[Match | None]]] = []
        self._running = False

    def check(self, key: str, text: str, exact_only: bool) -> Deferred[Match | None]:
        d: Deferred[Match | None] = Deferred()
        self._pending.append((key, text, exact_only, d))
        if not self._running:
            self._next()
        return d

    def _next(self) -> None:
        if not self._pending:
            self._running = False
            return
        self._running = True
        batch = self._pending[: self.max_batch]
        del self._pending[: self.max_batch]
        from twisted.internet import reactor

        work = deferToThreadPool(
            reactor,
            self.pool,
            self.index.check_many,
            [(key, text, exact_only) for key, text, exact_only, _ in batch],
        )
        work.addCallbacks(self._deliver, self._fail, callbackArgs=(batch,), errbackArgs=(batch,))

    def _deliver(
        self, results: list[Match | None], batch: list[tuple[str, str, bool, Deferred[Any]]]
    ) -> None:
        for (*_, d), match in zip(batch, results, strict=True):
            d.callback(match)
        self._next()

    def _fail(self, failure: Failure, batch: list[tuple[str, str, bool, Deferred[Any]]]) -> None:
        for *_, d in batch:
            d.errback(failure)
        self._next()
