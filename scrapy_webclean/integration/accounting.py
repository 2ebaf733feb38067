"""Where every item ends: exported, dropped for a stated reason, or lost. Nothing silently.

* :class:`WebcleanDrop` is the ``DropItem`` our pipelines raise: it carries the item's URL,
  a short ``reason`` (``duplicate``, ``not_html``, ``too_large`` ...) and, for a copy, the
  URL of the earlier copy it duplicates. It is logged at INFO (``log_level``) in one line.
* :class:`DropLogFormatter` (the add-on's ``LOG_FORMATTER`` unless the project has its own)
  logs a ``WebcleanDrop`` without the item: a duplicate's whole page is never in the log.
* :class:`ItemAccounting` (an extension the add-on installs) keeps the books:
  ``webclean/items/in`` (items that reached ``CleanPipeline``) = ``webclean/items/exported``
  (written by every feed) + ``webclean/items/dropped/<reason>`` (``duplicate``, a cleaning
  failure's reason with ``WEBCLEAN_ON_ERROR = "drop"``, ``other`` for another component's
  ``DropItem``) + ``webclean/items/lost/<reason>`` (``error``: an exception in a pipeline;
  ``feed_error``: a feed exporter could not write the item). Each number is counted from what
  Scrapy reports (the ``item_scraped``, ``item_dropped`` and ``item_error`` signals, and the
  errors Scrapy logs for a feed's ``item_scraped`` handler), never assumed. It logs progress
  every ``LOGSTATS_INTERVAL`` seconds, a summary table with the slowest pages at the end, the
  books in one line (a warning when they do not add up, or when an item was lost), and writes
  every dropped or lost item to the rejects feed when ``WEBCLEAN_REJECTS_FEED`` names a file
  (JSON lines: ``url``, ``reason``, ``duplicate_of``, ``message``).
"""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.exceptions import DropItem, NotConfigured
from scrapy.logformatter import LogFormatter, LogFormatterResult

from scrapy_webclean.integration.settings import check_settings, get_setting

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector
    from twisted.python.failure import Failure

logger = logging.getLogger(__name__)

DROPPED = "webclean/items/dropped"
LOST = "webclean/items/lost"
EXPORTED = "webclean/items/exported"
#: The message Scrapy logs (logger ``scrapy.utils.signal``) when a signal handler raises.
_SIGNAL_ERROR = "Error caught on signal handler"


def slowest_pages(crawler: Crawler) -> list[tuple[float, str]]:
    """The slowest pages the crawl's CleanPipeline cleaned (seconds, URL), slowest first."""
    from scrapy_webclean.integration.pipelines import CleanPipeline

    try:
        pipeline = crawler.get_item_pipeline(CleanPipeline)
    except RuntimeError:  # no engine yet
        return []
    return sorted(pipeline.slowest, reverse=True) if pipeline is not None else []


def flush_feeds(crawler: Crawler) -> None:
    """Hand what Scrapy's feeds wrote so far to the operating system: their files are
    buffered, and a SIGKILL would lose what waits in the buffer."""
    from scrapy.extensions.feedexport import FeedExporter

    try:
        feeds = crawler.get_extension(FeedExporter)
    except RuntimeError:  # no extension manager yet: no feed either
        return
    for slot in getattr(feeds, "slots", ()):
        file = getattr(slot, "file", None)
        if file is not None and not getattr(file, "closed", True):
            try:
                file.flush()
            except (OSError, ValueError) as exc:  # the feed reports its own errors
                logger.debug("webclean: flushing a feed failed: %s", exc)


class WebcleanDrop(DropItem):
    """An item dropped by a webclean pipeline, with its reason (and earlier copy); logged
    at ``log_level`` (INFO by default) in one line, without the item."""

    def __init__(
        self,
        message: str,
        reason: str,
        url: str | None = None,
        duplicate_of: str | None = None,
        log_level: str = "INFO",
    ) -> None:
        super().__init__(message, log_level=log_level)
        self.reason = reason
        self.url = url
        self.duplicate_of = duplicate_of


class DropLogFormatter(LogFormatter):
    """Scrapy's log formatter, except that a :class:`WebcleanDrop` is logged as its message
    alone (which names the page and the reason), never with the item's fields."""

    def dropped(
        self, item: Any, exception: BaseException, response: Any, spider: Any
    ) -> LogFormatterResult:
        if not isinstance(exception, WebcleanDrop):
            return super().dropped(item, exception, response, spider)
        return {
            "level": getattr(logging, str(exception.log_level or "INFO").upper(), logging.INFO),
            "msg": "Dropped: %(exception)s",
            "args": {"exception": exception},
        }


class _FeedErrors(logging.Handler):
    """Counts the errors Scrapy logs for a feed exporter's ``item_scraped`` handler."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.pending: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if not str(record.msg).startswith(_SIGNAL_ERROR):
            return
        receiver = record.args.get("receiver") if isinstance(record.args, dict) else None
        owner = getattr(receiver, "__self__", None)
        if owner is None or getattr(receiver, "__name__", "") != "item_scraped":
            return
        if type(owner).__name__ != "FeedExporter":
            return
        error = record.exc_info[1] if record.exc_info else None
        self.pending.append(f"{type(error).__name__}: {error}" if error else "feed error")


class ItemAccounting:
    """Counts where every item went, writes the rejects feed, checks the sums."""

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        check_settings(settings)
        if not get_setting(settings, "WEBCLEAN_ENABLED"):
            raise NotConfigured("WEBCLEAN_ENABLED is off")
        assert crawler.stats is not None
        self.stats: StatsCollector = crawler.stats
        self.url_field: str = get_setting(settings, "WEBCLEAN_URL_FIELD")
        path = get_setting(settings, "WEBCLEAN_REJECTS_FEED")
        self.path: Path | None = None
        if path:
            spider = crawler.spider.name if crawler.spider is not None else "spider"
            stamp = time.strftime("%Y-%m-%dT%H-%M-%S", time.gmtime())
            self.path = Path(str(path) % {"spider": spider, "time": stamp})
        self._file: IO[str] | None = None
        self.written = 0
        self.crawler = crawler
        self.interval = float(settings.getfloat("LOGSTATS_INTERVAL", 60.0))
        self._progress: Any = None
        self._last: tuple[float, int] = (time.monotonic(), 0)
        self._feed_errors = _FeedErrors()
        self._signal_logger = logging.getLogger("scrapy.utils.signal")
        # With a state that outlives the process, an item passed on is remembered as
        # passed on (a resumed crawl does not export it again): it must not wait in a
        # feed's write buffer, where a kill would lose it.
        self._flush_feeds = get_setting(settings, "WEBCLEAN_STATE") in ("jobdir", "redis")
        crawler.signals.connect(self.engine_started, signal=signals.engine_started)
        crawler.signals.connect(self.item_dropped, signal=signals.item_dropped)
        crawler.signals.connect(self.item_error, signal=signals.item_error)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ItemAccounting:
        return cls(crawler)

    def engine_started(self) -> None:
        # Connected now, after every extension (the FeedExporter among them) connected its
        # own handler at start-up: this one runs after the feeds tried to write the item.
        self.crawler.signals.connect(self.item_scraped, signal=signals.item_scraped)
        self._signal_logger.addHandler(self._feed_errors)
        if self.interval > 0:
            from twisted.internet import task

            self._last = (time.monotonic(), 0)
            self._progress = task.LoopingCall(self.log_progress)
            self._progress.start(self.interval, now=False)

    def _numbers(self) -> dict[str, int]:
        get = self.stats.get_value
        return {
            "cleaned": int(get("webclean/items/cleaned", 0)),
            "exported": int(get(EXPORTED, 0)),
            "duplicates": int(get("webclean/dedup/dropped", 0)),
            "failed": sum(
                int(v)
                for k, v in self.stats.get_stats().items()
                if k.startswith("webclean/items/failed/")
            ),
            "lost": sum(
                int(v) for k, v in self.stats.get_stats().items() if k.startswith(LOST + "/")
            ),
            "images saved": int(get("webclean/images/saved", 0)),
        }

    def log_progress(self) -> None:
        """One line of progress (next to Scrapy's LogStats line)."""
        numbers = self._numbers()
        now = time.monotonic()
        since, before = self._last
        rate = (numbers["cleaned"] - before) * 60.0 / max(now - since, 1e-9)
        self._last = (now, numbers["cleaned"])
        logger.info(
            "webclean: cleaned %d pages (at %.0f pages/min), exported %d items, dropped %d "
            "duplicates, saved %d image downloads",
            numbers["cleaned"],
            rate,
            numbers["exported"],
            numbers["duplicates"],
            numbers["images saved"],
        )

    def _url(self, item: Any) -> str | None:
        try:
            url = ItemAdapter(item).get(self.url_field)
        except TypeError:  # not an item type itemadapter knows
            return None
        return url if isinstance(url, str) else None

    def item_scraped(self, item: Any, **_: Any) -> None:
        """After the feeds: exported, unless a feed exporter failed on this item."""
        errors, self._feed_errors.pending = self._feed_errors.pending, []
        if self._flush_feeds:
            flush_feeds(self.crawler)
        if not errors:
            self.stats.inc_value(EXPORTED)
            return
        self.stats.inc_value(f"{LOST}/feed_error")
        url = self._url(item)
        logger.error(
            "webclean: the feed could not write %s (%s); the item is not in the feed",
            url,
            "; ".join(errors),
        )
        self._write({"url": url, "reason": "feed_error", "duplicate_of": None,
                     "message": "; ".join(errors)})  # fmt: skip

    def item_dropped(self, item: Any, exception: BaseException, **_: Any) -> None:
        if isinstance(exception, WebcleanDrop):
            record = {
                "url": exception.url or self._url(item),
                "reason": exception.reason,
                "duplicate_of": exception.duplicate_of,
                "message": str(exception),
            }
        else:
            self.stats.inc_value(f"{DROPPED}/other")
            record = {
                "url": self._url(item),
                "reason": "other",
                "duplicate_of": None,
                "message": str(exception),
            }
        self._write(record)

    def item_error(self, item: Any, failure: Failure, **_: Any) -> None:
        self.stats.inc_value(f"{LOST}/error")
        name = failure.type.__name__ if failure.type is not None else "error"
        self._write(
            {
                "url": self._url(item),
                "reason": "error",
                "duplicate_of": None,
                "message": f"{name}: {failure.getErrorMessage()}",
            }
        )

    def _log_table(self) -> None:
        numbers = self._numbers()
        width = max(len(k) for k in numbers)
        rows = [f"  {k:<{width}}  {v:>9,}" for k, v in numbers.items()]
        slow = slowest_pages(self.crawler)
        if slow:
            rows.append("  slowest pages:")
            rows += [f"    {seconds * 1000:8.1f} ms  {url}" for seconds, url in slow]
        logger.info("webclean at the end of the crawl:\n%s", "\n".join(rows))

    def _write(self, record: dict[str, Any]) -> None:
        if self.path is None:
            return
        if self._file is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = self.path.open("a", encoding="utf-8")
        self._file.write(json.dumps(record, ensure_ascii=False) + "\n")
        self._file.flush()
        self.written += 1

    def _by_reason(self, prefix: str) -> dict[str, int]:
        return {
            key[len(prefix) + 1 :]: int(value)
            for key, value in self.stats.get_stats().items()
            if key.startswith(prefix + "/")
        }

    def spider_closed(self) -> None:
        if self._progress is not None and self._progress.running:
            self._progress.stop()
        self._signal_logger.removeHandler(self._feed_errors)
        self._log_table()
        if self._file is not None:
            self._file.close()
            self._file = None
        stats = self.stats.get_stats()
        into = int(stats.get("webclean/items/in", 0))
        exported = int(stats.get(EXPORTED, 0))
        uncleaned = self._by_reason("webclean/items/failed")
        drops, losses = self._by_reason(DROPPED), self._by_reason(LOST)
        dropped, lost = sum(drops.values()), sum(losses.values())

        def reasons(counts: dict[str, int]) -> str:
            return ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "none"

        passed_uncleaned = sum(uncleaned.values()) - sum(
            v for k, v in drops.items() if k in uncleaned
        )
        rejects = f"; {self.written} written to {self.path}" if self.path is not None else ""
        logger.info(
            "webclean items: %d in, %d exported (%d of them uncleaned, with the error field), "
            "%d dropped (%s), %d lost (%s)%s",
            into,
            exported,
            max(passed_uncleaned, 0),
            dropped,
            reasons(drops),
            lost,
            reasons(losses),
            rejects,
        )
        if lost:
            logger.warning(
                "webclean items: %d items reached no feed (%s): see the errors logged above",
                lost,
                reasons(losses),
            )
        if into and into != exported + dropped + lost:
            logger.warning(
                "webclean items: %d in but %d exported, %d dropped and %d lost: %d items went "
                "elsewhere (dropped before CleanPipeline, or still in flight)",
                into,
                exported,
                dropped,
                lost,
                into - exported - dropped - lost,
            )
