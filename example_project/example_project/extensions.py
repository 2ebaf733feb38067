"""Extensions of the example project."""

from __future__ import annotations

import datetime
import json
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.exceptions import DontCloseSpider, NotConfigured

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector


def _jsonable(value: Any) -> Any:
    """JSON fallback: datetimes as ISO strings, anything else as ``str``."""
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, datetime.timedelta):
        return value.total_seconds()
    return str(value)


class StatsDump:
    """Write the final crawl stats to ``DEMO_STATS_FILE`` as JSON.

    ``run_demo.py`` reads this file to print its summary, which is sturdier
    than scraping numbers out of the log.
    """

    def __init__(self, stats: StatsCollector, path: Path) -> None:
        self.stats = stats
        self.path = path

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> StatsDump:
        """Enable only when ``DEMO_STATS_FILE`` is set."""
        path = crawler.settings.get("DEMO_STATS_FILE")
        if not path:
            raise NotConfigured("DEMO_STATS_FILE is not set")
        assert crawler.stats is not None
        extension = cls(crawler.stats, Path(path))
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    def spider_closed(self, reason: str) -> None:
        """Dump the stats; runs after CoreStats stamped finish time and reason."""
        stats = dict(self.stats.get_stats())
        stats.setdefault("finish_reason", reason)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        partial = self.path.with_name(self.path.name + ".part")
        partial.write_text(
            json.dumps(stats, default=_jsonable, indent=2, sort_keys=True, ensure_ascii=False),
            encoding="utf-8",
        )
        os.replace(partial, self.path)


class StayWhileShared:
    """Keep an idle spider open for ``DEMO_IDLE_SECONDS`` after its last activity.

    With a request queue shared through Redis (scrapy-redis), a process that finds the
    queue empty for a moment is not done: another process may be about to add to it. This
    is what scrapy-redis's ``RedisSpider`` does with ``MAX_IDLE_TIME_BEFORE_CLOSE``, for an
    ordinary spider. Scrapy asks again every few seconds (its engine heartbeat).
    """

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.last = time.monotonic()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> StayWhileShared:
        seconds = crawler.settings.getfloat("DEMO_IDLE_SECONDS")
        if seconds <= 0:
            raise NotConfigured("DEMO_IDLE_SECONDS is not set")
        extension = cls(seconds)
        for signal in (signals.request_scheduled, signals.response_received):
            crawler.signals.connect(extension.active, signal=signal)
        crawler.signals.connect(extension.idle, signal=signals.spider_idle)
        return extension

    def active(self) -> None:
        self.last = time.monotonic()

    def idle(self) -> None:
        if time.monotonic() - self.last < self.seconds:
            raise DontCloseSpider(f"idle for less than {self.seconds} s; the queue is shared")


class LoopLag:
    """Measure how long the event loop is blocked: a timer due every ``interval`` seconds
    notes how late it fires. Enabled by ``DEMO_LOOP_LAG = True``; the stats get
    ``demo/loop_lag_max_ms`` (the longest stall) and ``demo/loop_stalls_over_250ms``."""

    interval = 0.01

    def __init__(self, stats: StatsCollector) -> None:
        from twisted.internet import task

        self.stats = stats
        self.max_lag = 0.0
        self.stalls = 0
        self._due = 0.0
        self._timer = task.LoopingCall(self._tick)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> LoopLag:
        if not crawler.settings.getbool("DEMO_LOOP_LAG"):
            raise NotConfigured("DEMO_LOOP_LAG is not set")
        assert crawler.stats is not None
        extension = cls(crawler.stats)
        crawler.signals.connect(extension.engine_started, signal=signals.engine_started)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    def engine_started(self) -> None:
        self._due = time.monotonic() + self.interval
        self._timer.start(self.interval, now=False)

    def _tick(self) -> None:
        now = time.monotonic()
        lag = now - self._due
        self.max_lag = max(self.max_lag, lag)
        if lag > 0.25:
            self.stalls += 1
        self._due = now + self.interval

    def spider_closed(self) -> None:
        if self._timer.running:
            self._timer.stop()
        self.stats.set_value("demo/loop_lag_max_ms", round(self.max_lag * 1000, 1))
        self.stats.set_value("demo/loop_stalls_over_250ms", self.stalls)
