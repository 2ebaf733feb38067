"""Where every item ends: exported, or dropped for a stated reason. Nothing silently.

* :class:`WebcleanDrop` is the ``DropItem`` our pipelines raise: it carries the item's URL,
  a short ``reason`` (``duplicate``, ``not_html``, ``too_large`` ...) and, for a copy, the
  URL of the earlier copy it duplicates.
* :class:`ItemAccounting` (an extension the add-on installs) logs progress every
  ``LOGSTATS_INTERVAL`` seconds (Scrapy's own setting, 60 by default) next to Scrapy's
  LogStats line, and a summary table with the slowest pages at the end; it counts the drops other
  components make (``webclean/items/dropped/other``) and the items lost to an exception in a
  pipeline (``webclean/items/dropped/error``), writes every dropped item to the rejects feed
  when ``WEBCLEAN_REJECTS_FEED`` names a file (JSON lines: ``url``, ``reason``,
  ``duplicate_of``, ``message``), and logs at the end where the items went, warning when
  ``webclean/items/in`` is not exported plus dropped.
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

from scrapy_webclean.integration.settings import get_setting

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector
    from twisted.python.failure import Failure

logger = logging.getLogger(__name__)

DROPPED = "webclean/items/dropped"


def slowest_pages(crawler: Crawler) -> list[tuple[float, str]]:
    """The slowest pages the crawl's CleanPipeline cleaned (seconds, URL), slowest first."""
    pipeline = getattr(crawler, "_webclean_clean_pipeline", None)
    return sorted(pipeline.slowest, reverse=True) if pipeline is not None else []


class WebcleanDrop(DropItem):
    """An item dropped by a webclean pipeline, with its reason (and earlier copy)."""

    def __init__(
        self, message: str, reason: str, url: str | None = None, duplicate_of: str | None = None
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.url = url
        self.duplicate_of = duplicate_of


class ItemAccounting:
    """Counts foreign drops and errors, writes the rejects feed, checks the sums."""

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
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
        crawler.signals.connect(self.engine_started, signal=signals.engine_started)
        crawler.signals.connect(self.item_dropped, signal=signals.item_dropped)
        crawler.signals.connect(self.item_error, signal=signals.item_error)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ItemAccounting:
        return cls(crawler)

    def engine_started(self) -> None:
        if self.interval > 0:
            from twisted.internet import task

            self._last = (time.monotonic(), 0)
            self._progress = task.LoopingCall(self.log_progress)
            self._progress.start(self.interval, now=False)

    def _numbers(self) -> dict[str, int]:
        get = self.stats.get_value
        return {
            "cleaned": int(get("webclean/items/cleaned", 0)),
            "exported": int(get("item_scraped_count", 0)),
            "duplicates": int(get("webclean/dedup/dropped", 0)),
            "failed": sum(
                int(v)
                for k, v in self.stats.get_stats().items()
                if k.startswith("webclean/items/failed/")
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
        self.stats.inc_value(f"{DROPPED}/error")
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

    def spider_closed(self) -> None:
        if self._progress is not None and self._progress.running:
            self._progress.stop()
        self._log_table()
        if self._file is not None:
            self._file.close()
            self._file = None
        stats = self.stats.get_stats()
        into = int(stats.get("webclean/items/in", 0))
        exported = int(stats.get("item_scraped_count", 0))
        drops = {
            key[len(DROPPED) + 1 :]: int(value)
            for key, value in stats.items()
            if key.startswith(DROPPED + "/")
        }
        dropped = sum(drops.values())
        reasons = ", ".join(f"{k} {v}" for k, v in sorted(drops.items())) or "none"
        rejects = f"; {self.written} written to {self.path}" if self.path is not None else ""
        logger.info(
            "webclean items: %d in, %d exported, %d dropped (%s)%s",
            into,
            exported,
            dropped,
            reasons,
            rejects,
        )
        if into and into != exported + dropped:
            logger.warning(
                "webclean items: %d in but %d exported and %d dropped: %d items went "
                "elsewhere (dropped before CleanPipeline, or still in flight)",
                into,
                exported,
                dropped,
                into - exported - dropped,
            )
