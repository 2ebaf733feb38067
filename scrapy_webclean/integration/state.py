"""``CrawlState``: the one place where the crawl's state backend is chosen.

``WEBCLEAN_STATE`` picks it:

* ``memory`` (default): the models' own compact in-memory stores; gone when the process ends;
* ``jobdir``: :class:`~scrapy_webclean.state.SqliteBackend` in ``JOBDIR`` (file
  ``WEBCLEAN_STATE_FILE``), so ``scrapy crawl ... -s JOBDIR=...`` stopped with Ctrl-C and
  started again keeps what was learned, as Scrapy keeps its request queue there;
* ``redis``: :class:`~scrapy_webclean.state.redis.RedisBackend` at ``REDIS_URL`` (else
  ``REDIS_HOST``/``REDIS_PORT``, as scrapy-redis reads them) with ``REDIS_PARAMS``, keys
  under ``WEBCLEAN_REDIS_PREFIX`` (``<spider>:webclean:``): every process that names the
  same server and spider shares the image statistics, the templates and the dedup index.

With Redis, the duplicate check runs in a worker thread (batched, retried with back-off
while the server is away: see :mod:`scrapy_webclean.state.resilience`), and the learning
done on the reactor (image statistics, templates) never waits on a failing server.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.exceptions import NotConfigured

from scrapy_webclean.ads.stats import AdStatsStore, MemoryAdStatsStore
from scrapy_webclean.dedup.store import DedupStore, MemoryDedupStore
from scrapy_webclean.extraction.template import MemoryTemplateStore, TemplateStore
from scrapy_webclean.integration.settings import get_setting
from scrapy_webclean.integration.workers import StateSpec
from scrapy_webclean.state import (
    BackendAdStatsStore,
    BackendDedupStore,
    BackendTemplateStore,
    Lenient,
    Retrying,
    SqliteBackend,
    StateBackend,
    StateUnavailable,
)

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from twisted.python.threadpool import ThreadPool

logger = logging.getLogger(__name__)

KINDS = ("memory", "jobdir", "redis")
LOST_WRITES = "webclean/state/lost_writes"


def redis_url(settings: Any) -> str:
    """``REDIS_URL``, else one built from ``REDIS_HOST``/``REDIS_PORT`` (scrapy-redis)."""
    url = settings.get("REDIS_URL")
    if url:
        return str(url)
    host = settings.get("REDIS_HOST") or "127.0.0.1"
    port = settings.get("REDIS_PORT") or 6379
    return f"redis://{host}:{port}/0"


class CrawlState:
    """The crawler's state backend and the three stores built on it."""

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        self.kind = str(get_setting(settings, "WEBCLEAN_STATE")).lower()
        if self.kind not in KINDS:
            raise NotConfigured(f"WEBCLEAN_STATE must be one of {KINDS}, not {self.kind!r}")
        self.crawler = crawler
        self.retry_seconds = float(get_setting(settings, "WEBCLEAN_STATE_RETRY_SECONDS"))
        self.backend: StateBackend | None = None
        self.description = "memory"
        self._pool: ThreadPool | None = None
        self._reactor_side: Lenient | None = None
        self._worker_side: Retrying | None = None
        self._committer: Any = None
        self._templates: SqliteBackend | None = None
        self._redis: tuple[str, str, dict[str, Any]] | None = None
        if self.kind == "jobdir":
            jobdir = settings.get("JOBDIR")
            if not jobdir:
                raise NotConfigured(
                    "WEBCLEAN_STATE = 'jobdir' needs JOBDIR (scrapy crawl ... -s JOBDIR=dir)"
                )
            path = Path(jobdir) / str(get_setting(settings, "WEBCLEAN_STATE_FILE"))
            self.backend = SqliteBackend(path)
            # The templates in a file of their own: cleaning worker processes write them
            # (one short transaction a page) while this process holds its own file's.
            templates = path.with_name(f"{path.stem}-templates{path.suffix}")
            self._templates = SqliteBackend(templates)
            self.description = f"SQLite files {path} and {templates.name}"
            from twisted.internet import task

            # Commit at least every second, even when the crawl writes nothing more.
            self._committer = task.LoopingCall(self._flush)
            crawler.signals.connect(self._start_committing, signal=signals.engine_started)
        elif self.kind == "redis":
            try:
                import redis  # noqa: F401
            except ImportError as exc:
                raise NotConfigured(
                    "WEBCLEAN_STATE = 'redis' needs the redis package: "
                    "pip install 'scrapy-webclean[redis]'"
                ) from exc
            from scrapy_webclean.state.redis import RedisBackend

            spider = crawler.spider.name if crawler.spider is not None else "spider"
            prefix = str(get_setting(settings, "WEBCLEAN_REDIS_PREFIX")) % {"spider": spider}
            url = redis_url(settings)
            params = dict(settings.getdict("REDIS_PARAMS"))
            self._redis = (url, prefix, params)
            # The reactor side never waits long on a server that stopped answering.
            quick = {"socket_timeout": 1.0, "socket_connect_timeout": 1.0, **params}
            stats = crawler.stats
            assert stats is not None
            stats.set_value(LOST_WRITES, 0)
            self._reactor_side = Lenient(
                RedisBackend(url, prefix, **quick),
                on_lost=lambda n: stats.inc_value(LOST_WRITES, n),
            )
            self._worker_side = Retrying(
                RedisBackend(url, prefix, **params), give_up_after=self.retry_seconds
            )
            self.backend = self._reactor_side
            self.description = f"Redis {url}, keys {prefix}*"
            try:
                self._worker_side.backend.run([("count_records", "dd:docs")])
            except StateUnavailable as exc:
                logger.error("webclean state: %s; the crawl will retry it", exc)
        logger.info("webclean state: %s", self.description)
        crawler.signals.connect(self._spider_closed, signal=signals.spider_closed)
        crawler.signals.connect(self.close, signal=signals.engine_stopped)

    def _flush(self) -> None:
        for backend in (self.backend, self._templates):
            if backend is not None:
                backend.flush()

    def _start_committing(self) -> None:
        if self._committer is not None and not self._committer.running:
            self._committer.start(1.0, now=False)

    def _spider_closed(self) -> None:
        """Flush what was learned and put the state's counts in the crawl's stats."""
        if self.backend is not None:
            try:
                self._flush()
            except Exception as exc:
                logger.warning("webclean state: flushing %s failed: %s", self.kind, exc)

    @classmethod
    def of(cls, crawler: Crawler) -> CrawlState:
        """The crawler's state (created on first use)."""
        state = getattr(crawler, "_webclean_state", None)
        if state is None:
            state = cls(crawler)
            crawler._webclean_state = state  # type: ignore[attr-defined]
        return state

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CrawlState:
        """The extension instance (the add-on lists CrawlState in EXTENSIONS)."""
        return cls.of(crawler)

    @property
    def remote(self) -> bool:
        """True when store calls may wait on the network (Redis)."""
        return self._worker_side is not None

    def worker_spec(self) -> StateSpec:
        """How a cleaning worker process reaches the template state."""
        if self.kind == "jobdir" and self._templates is not None:
            return StateSpec("jobdir", path=str(self._templates.path))
        if self.kind == "redis" and self._redis is not None:
            url, prefix, params = self._redis
            return StateSpec("redis", url=url, prefix=prefix, params=params)
        return StateSpec()

    def ad_stats_store(self) -> AdStatsStore:
        if self.backend is None:
            return MemoryAdStatsStore()
        return BackendAdStatsStore(self.backend)

    def template_store(self) -> TemplateStore:
        if self.backend is None:
            return MemoryTemplateStore()
        return BackendTemplateStore(self._templates or self.backend)

    def dedup_store(self, lsh_bands: int = 16) -> DedupStore:
        """The dedup index's store: with Redis, to be called from :meth:`worker` only."""
        if self.backend is None:
            return MemoryDedupStore(lsh_bands)
        return BackendDedupStore(self._worker_side or self.backend, lsh_bands)

    def worker(self) -> ThreadPool:
        """The one worker thread that runs remote store calls, in order."""
        if self._pool is None:
            from twisted.python.threadpool import ThreadPool

            self._pool = ThreadPool(minthreads=1, maxthreads=1, name="webclean-state")
            self._pool.start()
        return self._pool

    def lost_writes(self) -> int:
        """Learning writes dropped while Redis was away."""
        return self._reactor_side.lost_writes if self._reactor_side is not None else 0

    def close(self) -> None:
        """Flush and close the backend (at engine stop)."""
        if self._committer is not None and self._committer.running:
            self._committer.stop()
        if self._pool is not None:
            self._pool.stop()
            self._pool = None
        for backend in (self._worker_side, self.backend, self._templates):
            if backend is not None:
                try:
                    backend.close()
                except Exception as exc:  # closing must not hide the crawl's own result
                    logger.warning("webclean state: closing %s failed: %s", self.kind, exc)
        lost = self.lost_writes()
        if lost:
            logger.warning("webclean state: %d learning writes lost while Redis was away", lost)
        self.backend = self._worker_side = self._templates = None
