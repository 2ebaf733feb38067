"""``DedupPipeline``: near-duplicate pages dropped (or marked) before export.

Runs after ``CleanPipeline`` (order 300 by the add-on), on the cleaned main text, so that
one article under two site templates is still one article. The first copy seen is
exported; a later copy is dropped with ``DropItem`` (a ``WebcleanDrop``) naming the earlier one
(``WEBCLEAN_DEDUP_POLICY = "drop"``, the default) or exported with a ``duplicate_of``
field (``"mark"``). Hub and list pages are compared for exact copies only. Stats: ``webclean/dedup/unique``, ``webclean/dedup/exact``,
``webclean/dedup/near``, and ``webclean/dedup/skipped/<reason>`` for items with no text.

With ``WEBCLEAN_STATE = "memory"`` (the default) each of the two indexes (articles, list
pages) keeps at most ``WEBCLEAN_DEDUP_MAX_DOCS`` documents, forgetting the older half when
full (``MemoryDedupStore``); a copy of a forgotten page is then exported again.

With ``WEBCLEAN_STATE = "redis"`` the index is shared by every process of the crawl: the
checks run in one worker thread, in batches of up to ``WEBCLEAN_DEDUP_BATCH`` items (the
items that arrived while the previous batch was out), so the reactor never waits on Redis.
If Redis stays away longer than ``WEBCLEAN_STATE_RETRY_SECONDS``, the waiting items are
passed on unchecked, counted under ``webclean/dedup/unchecked``: none is lost.

Crawls killed and resumed (the 'jobdir' and 'redis' states): Scrapy keeps no record of
what it fetched when it is killed, so the resumed crawl fetches pages again. Each item's
URL is claimed in the state with its check (``dd:pages``), and with ``jobdir`` the item
waits for the commit of both (a batched write-ahead, see ``CrawlState.committed``) before
it goes on. Once Scrapy reports it scraped (its feeds wrote it; they are flushed first),
its URL is marked exported (``dd:done``, committed at once with ``jobdir``). A page met
again whose URL is marked exported is dropped as ``seen_before``
(``webclean/dedup/seen_before``), whatever the policy: it is in an earlier run's feed. One
whose URL was claimed but never marked (killed between the check and the feed) is checked
again, its own earlier record not counting as an earlier copy: it is exported now. Either
way a page is exported once across the runs, an item without text (nothing to compare)
too; only a kill in the microseconds between a feed's flush and the mark's commit can
export one twice.

Pages cleaned without their site's template (Redis away while they were cleaned:
``CrawlState.cleaned_without_template``) can still hold the site's navigation and
sidebars, so two hub or list pages of a site (compared for exact copies only) can have the
same text while their content differs: such a page is not dropped as an exact duplicate on
that text alone; it is passed on, marked (``duplicate_of``) where the item takes the field,
and counted under ``webclean/dedup/unsure/no_template``. An article's text is its own
however it was cleaned, and is compared as always.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, NoReturn

import lxml.html
from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.defer import Deferred
from twisted.internet.threads import deferToThreadPool

from scrapy_webclean.dedup import DedupOptions
from scrapy_webclean.dedup.fingerprint import Fingerprint
from scrapy_webclean.dedup.index import Match
from scrapy_webclean.dedup.pageindex import PageIndex
from scrapy_webclean.integration.accounting import WebcleanDrop, flush_feeds
from scrapy_webclean.integration.pipelines import output_format
from scrapy_webclean.integration.settings import get_setting
from scrapy_webclean.integration.state import CrawlState
from scrapy_webclean.integration.workers import FingerprintRequest
from scrapy_webclean.markdown import markdown_to_text
from scrapy_webclean.state import StateUnavailable
from scrapy_webclean.state.stores import LIST_NAMESPACE, url_key
from scrapy_webclean.text.tokenize import load_segmenter
from scrapy_webclean.urls import is_site_root

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector
    from twisted.python.failure import Failure
    from twisted.python.threadpool import ThreadPool

logger = logging.getLogger(__name__)

PREFIX = "webclean/dedup"
#: Page types compared for near copies with the articles; the others (hub and list pages)
#: only for exact copies there, and with the list pages before them for near-identical ones
#: (``dedup.pageindex``): two lists sharing teasers are two pages. A site's front page
#: (``urls.is_site_root``) is compared as a list page whatever its type: its teasers may be
#: long enough to read as prose, and a section page quoting the same teasers is another page.
NEAR_PAGE_TYPES = frozenset(("article", "forum"))
#: Page types whose text is not compared at all: "other" is a page without main content
#: (or a few short lines of it: "There are no stories in this section yet." on two
#: sections is not one page twice).
UNCOMPARED_PAGE_TYPES = frozenset(("other",))
#: The state's tables of the URLs of items checked, and of those exported (values, by
#: a hash of the URL: ``state.stores.url_key``).
PAGES_TABLE, DONE_TABLE = "dd:pages", "dd:done"
#: What an earlier item of a URL became: none met, checked (never marked exported), exported.
NEW, CHECKED, EXPORTED = "new", "checked", "exported"
#: Fingerprints handed over by the clean pipeline that wait for their item at most.
HANDED_MAX = 10_000
#: The elements after which the plain text of an HTML text starts a new line.
_HTML_LINE_TAGS = frozenset(
    ("p", "li", "tr", "pre", "blockquote", "br", "h1", "h2", "h3", "h4", "h5", "h6")
)


def plain_text(text: str, output_format: str) -> str:
    """The words of an item's text as the dedup index compares them: a Markdown text
    (``WEBCLEAN_OUTPUT_FORMAT = "markdown"``) without its marks and link targets
    (``markdown.markdown_to_text``), an HTML one without its tags, one line a block;
    plain text as it is."""
    if output_format == "markdown":
        return markdown_to_text(text)
    if output_format != "html" or not text.strip():
        return text
    root = lxml.html.fragment_fromstring(text, create_parent="div")
    parts: list[str] = []
    for element in root.iter():
        if element.tag in _HTML_LINE_TAGS:
            parts.append("\n")  # (a block starts a line; text before it ends one)
        if element.text:
            parts.append(element.text)
        if element.tail and element is not root:
            parts.append(element.tail)
    return "\n".join(line.strip() for line in "".join(parts).splitlines() if line.strip())


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
        self.output_format = output_format(settings)
        keywords = tuple(get_setting(settings, "WEBCLEAN_QUERY_KEYWORDS"))
        options = DedupOptions(keywords=keywords)
        #: Fingerprints made where the pages were cleaned (``CleanPipeline``), by item id:
        #: (item, its text as stored, the fingerprint of that text), oldest first.
        self._handed: dict[int, tuple[Any, str, Fingerprint]] = {}
        self.state = CrawlState.of(crawler)
        #: Most documents each in-memory index keeps (WEBCLEAN_STATE 'memory').
        self.max_docs = int(get_setting(settings, "WEBCLEAN_DEDUP_MAX_DOCS"))
        self.index = PageIndex.of_stores(
            options,
            self.state.dedup_store(options.lsh_bands, max_docs=self.max_docs),
            self.state.dedup_store(options.lsh_bands, LIST_NAMESPACE, self.max_docs),
        )
        self.batcher: _Batcher | None = None
        if self.state.remote:
            batch = int(get_setting(settings, "WEBCLEAN_DEDUP_BATCH"))
            self.batcher = _Batcher(self.check_pages, self.state.worker(), max(batch, 1))
        assert crawler.stats is not None
        self.stats: StatsCollector = crawler.stats
        self._seen = 0
        self.crawler = crawler
        self._marks: list[int] = []  # URL keys scraped, to be marked exported (Redis)
        crawler.signals.connect(self._log_summary, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> DedupPipeline:
        return cls(crawler)

    async def process_item(self, item: Any) -> Any:
        adapter = ItemAdapter(item)
        raw_url = adapter.get(self.url_field)
        url = raw_url if isinstance(raw_url, str) else None
        text = adapter.get(self.text_field)
        page_type = adapter.get(self.page_type_field)
        uncompared = isinstance(page_type, str) and page_type in UNCOMPARED_PAGE_TYPES
        if isinstance(text, str) and text.strip() and not uncompared:
            self._seen += 1
            handed = self._handed_fingerprint(item, text)
            if handed is None:  # compare the words, not links, marks and tags
                text = plain_text(text, self.output_format)
            key = url or f"item-{self._seen}"
            exact_only = (
                isinstance(page_type, str) and page_type not in NEAR_PAGE_TYPES
            ) or is_site_root(url)
            page = _Page(url, key, text, exact_only, handed)
        elif url is not None and self.state.dedup_backend() is not None:
            # No main text (a hub page, a failed clean, a page of a few lines): nothing to
            # compare; its URL is still claimed, so that it is passed on once across a kill
            # and a resume.
            page = _Page(url, url, None, False)
        else:
            self.stats.inc_value(f"{PREFIX}/skipped/no_text")
            return item
        try:
            if self.batcher is None:
                ((before, match),) = self.check_pages([page])
            else:
                before, match = await maybe_deferred_to_future(self.batcher.check(page))
        except StateUnavailable as exc:
            self.stats.inc_value(f"{PREFIX}/unchecked/state_unavailable")
            logger.error("webclean dedup: %s not checked for copies: %s", page.key, exc)
            return item
        if self.state.durable:
            committed = self.state.committed()
            if committed is not None:  # the check's claims are on disk before the item goes
                await maybe_deferred_to_future(committed)
        if before == EXPORTED:
            self._seen_before(page.key)
        if page.text is None:
            self.stats.inc_value(f"{PREFIX}/skipped/no_text")
            return item
        key = page.key
        blind = self.state.cleaned_without_template(key)
        if before == CHECKED and match is not None and key in (match.key, match.nearest):
            # Its own record, from a run killed before the item reached the feed.
            self.stats.inc_value(f"{PREFIX}/checked_again")
            # The first copy then: exported now; else a copy of match.key (its own record
            # names it): still one.
            match = None if match.key == key else replace(match, nearest=match.key)
        if match is None:
            self.stats.inc_value(f"{PREFIX}/unique")
            return item
        if blind and page.exact_only:
            # A hub or list page cleaned without its site's template: its text may be the
            # site's sidebars and menus, which every such page shares.
            self.stats.inc_value(f"{PREFIX}/unsure/no_template")
            logger.warning(
                "webclean dedup: %s has the same text as %s but was cleaned without its "
                "site's template (the state store was away), and its text may be the "
                "site's navigation: passed on, not dropped",
                key,
                match.nearest,
            )
            if self.mark_field in adapter.field_names() or isinstance(item, MutableMapping):
                adapter[self.mark_field] = match.key
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

    def fingerprint_request(self) -> FingerprintRequest:
        """What this pipeline compares, for the pages' fingerprints to be made where they
        are cleaned (``CleanPipeline`` asks, and hands each one over with
        :meth:`hand_fingerprint`)."""
        return FingerprintRequest(self.index.articles.options.keywords, UNCOMPARED_PAGE_TYPES)

    def hand_fingerprint(self, item: Any, text: str, fp: Fingerprint) -> None:
        """Take the fingerprint of ``item``'s text, made where the page was cleaned: the
        check of the item uses it when the item's text field still holds ``text`` (as
        stored: Markdown, with ``WEBCLEAN_OUTPUT_FORMAT = "markdown"``, which ``fp`` was made
        of read as plain text, so that the item's text is not read again here). (At most
        :data:`HANDED_MAX` wait: an item dropped between the pipelines leaves its own
        behind until then.)"""
        handed = self._handed
        handed.pop(id(item), None)
        handed[id(item)] = (item, text, fp)
        if len(handed) > HANDED_MAX:
            del handed[next(iter(handed))]

    def _handed_fingerprint(self, item: Any, text: str) -> Fingerprint | None:
        entry = self._handed.pop(id(item), None)
        if entry is None or entry[0] is not item or entry[1] != text:
            return None
        self.stats.inc_value(f"{PREFIX}/fingerprints_handed")
        return entry[2]

    def check_pages(self, pages: Sequence[_Page]) -> list[_Result]:
        """For each page, in order: what an earlier item of its URL became (``NEW``: none;
        ``CHECKED``: checked, never marked exported; ``EXPORTED``), its URL claimed (in the
        'jobdir' and 'redis' states only); and, unless it was exported, its earlier copy,
        if any (texts are added to the index). With Redis, called in the state's worker
        thread: the claims and marks are one round trip for the batch."""
        before = [NEW] * len(pages)
        backend = self.state.dedup_backend()
        claimed = [i for i, page in enumerate(pages) if page.url is not None]
        if backend is not None and claimed:
            keys = [url_key(pages[i].url or "") for i in claimed]
            *helds, done = backend.run(
                [("claim", PAGES_TABLE, key, b"1") for key in keys]
                + [("get_values", DONE_TABLE, keys)]
            )
            for i, held, mark in zip(claimed, helds, done, strict=True):
                before[i] = EXPORTED if mark is not None else CHECKED if held else NEW
        results: list[_Result] = [(was, None) for was in before]
        todo = [
            i for i, page in enumerate(pages) if before[i] != EXPORTED and page.text is not None
        ]
        if todo:
            checks = [(pages[i].key, pages[i].text or "", pages[i].exact_only) for i in todo]
            handed = [pages[i].fp for i in todo]
            for i, match in zip(todo, self.index.check_many(checks, handed), strict=True):
                results[i] = (before[i], match)
        return results

    def open_spider(self, spider: Any = None) -> None:
        # jieba cuts the Chinese paragraphs whose keywords a page's fingerprint holds: its
        # dictionary is loaded now rather than on the first Chinese page (about a second
        # that would block the event loop).
        load_segmenter()
        # Connected now, after the feeds' own handler: an item is marked exported once
        # they wrote it.
        if self.state.dedup_backend() is not None:
            self.crawler.signals.connect(self._exported, signal=signals.item_scraped)

    def _exported(self, item: Any, **_: Any) -> None:
        """Mark the item's URL exported (see the module docstring): with ``jobdir``
        committed at once, after the feeds' buffers are flushed; with Redis, the marks of
        the items scraped meanwhile are sent in one round trip from the state's thread."""
        try:
            url = ItemAdapter(item).get(self.url_field)
        except TypeError:  # not an item type itemadapter knows
            return
        backend = self.state.dedup_backend()
        if not isinstance(url, str) or backend is None:
            return
        flush_feeds(self.crawler)
        if not self.state.remote:
            backend.claim(DONE_TABLE, url_key(url), b"1")
            backend.flush()
            return
        self._marks.append(url_key(url))
        if len(self._marks) == 1:
            from twisted.internet import reactor

            clock: Any = reactor
            clock.callLater(0.01, self._send_marks)

    def close_spider(self, spider: Any = None) -> None:
        self._send_marks()  # the last marks, before the state's thread stops

    def _send_marks(self) -> None:
        marks, self._marks = self._marks, []
        backend = self.state.dedup_backend()
        if not marks or backend is None:
            return
        from twisted.internet import reactor

        ops = [("claim", DONE_TABLE, key, b"1") for key in marks]
        sent = deferToThreadPool(reactor, self.state.worker(), backend.run, ops)
        sent.addErrback(
            lambda failure: logger.error(
                "webclean dedup: %d pages not marked exported (a resumed crawl may export "
                "them again): %s",
                len(marks),
                failure.getErrorMessage(),
            )
        )

    def _seen_before(self, url: str) -> NoReturn:
        self.stats.inc_value(f"{PREFIX}/seen_before")
        self.stats.inc_value("webclean/items/dropped/seen_before")
        raise WebcleanDrop(
            f"webclean: {url} was exported before (by this crawl or the run it resumes): "
            "not exported twice",
            "seen_before",
            url,
            url,
        )

    def _log_summary(self) -> None:
        get = self.stats.get_value
        again = get(f"{PREFIX}/seen_before", 0)
        logger.info(
            "webclean dedup: %d pages with text, %d unique, %d exact and %d near duplicates "
            "(%s)%s; %s documents indexed",
            self._seen,
            get(f"{PREFIX}/unique", 0),
            get(f"{PREFIX}/exact", 0),
            get(f"{PREFIX}/near", 0),
            "dropped" if self.policy == "drop" else f"marked in {self.mark_field!r}",
            f", {again} passed on before and dropped again" if again else "",
            self._indexed(),
        )

    def _indexed(self) -> str:
        """The documents in the index, counted without waiting on a store that does not
        answer (a Redis that is away is asked once, within its socket timeout)."""
        if self.state.backend is None:
            return str(len(self.index))  # the in-memory index
        count = self.state.count_documents()
        return str(count) if count is not None else "unknown (the state store does not answer)"


@dataclass(frozen=True, slots=True)
class _Page:
    """One item to check: its URL (claimed; None for an item without one), the key it is
    indexed under, its text (None: nothing to compare) and whether only an exact copy
    counts."""

    url: str | None
    key: str
    text: str | None
    exact_only: bool
    #: The text's fingerprint, when made where the page was cleaned (``text`` is then the
    #: item's text as stored, never read again).
    fp: Fingerprint | None = None


_Result = tuple[str, Match | None]


class _Batcher:
    """Runs duplicate checks in the state's worker thread, in arrival order, batching the
    items that arrive while a batch is out (so a slow store means bigger batches, not more
    round trips)."""

    def __init__(
        self,
        check: Callable[[Sequence[_Page]], list[_Result]],
        pool: ThreadPool,
        max_batch: int,
    ) -> None:
        self.check_pages = check
        self.pool = pool
        self.max_batch = max_batch
        self._pending: list[tuple[_Page, Deferred[_Result]]] = []
        self._running = False

    def check(self, page: _Page) -> Deferred[_Result]:
        d: Deferred[_Result] = Deferred()
        self._pending.append((page, d))
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

        work = deferToThreadPool(reactor, self.pool, self.check_pages, [page for page, _ in batch])
        work.addCallbacks(self._deliver, self._fail, callbackArgs=(batch,), errbackArgs=(batch,))

    def _deliver(
        self, results: list[_Result], batch: list[tuple[_Page, Deferred[_Result]]]
    ) -> None:
        for (_, d), result in zip(batch, results, strict=True):
            d.callback(result)
        self._next()

    def _fail(self, failure: Failure, batch: list[tuple[_Page, Deferred[_Result]]]) -> None:
        for _, d in batch:
            d.errback(failure)
        self._next()
