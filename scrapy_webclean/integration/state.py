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
  Each table is split into ``WEBCLEAN_REDIS_BUCKETS`` buckets
  (:mod:`scrapy_webclean.state.redislayout`); ``WEBCLEAN_REDIS_CLUSTER`` (or a
  ``redis+cluster://`` URL) spreads them over a Redis Cluster's nodes. A store of another
  layout stops the crawl at start-up with an error that names the setting.

Nothing lost, nothing silent:

* ``jobdir``: a duplicate check's claims are durable before its item is passed on (a
  batched write-ahead: :meth:`CrawlState.committed` fires after the commit of the SQLite
  transaction that holds them, one commit for the items checked meanwhile), so a crawl
  killed with SIGKILL and resumed with the same JOBDIR exports no article twice.
* ``redis``: the server is checked once at start-up; one that does not answer stops the
  crawl with an error naming ``REDIS_URL`` (``WEBCLEAN_REDIS_REQUIRED = False`` starts
  without it). The duplicate check runs in a worker thread (batched, retried with back-off
  while the server is away: see :mod:`scrapy_webclean.state.resilience`; at most 10 s more
  once the crawl is stopping), and the learning done on the reactor (image statistics,
  templates) never waits on a failing server. What that learning keeps while the server
  is away is written on reconnect (tried every ``FLUSH_SECONDS``) and at close; what is
  lost, in this process and in the cleaning workers, is counted in
  ``webclean/state/lost_writes``. Pages cleaned without their site's template (the server
  away) are counted in ``webclean/state/pages_without_template`` and remembered until the
  dedup pipeline asks (:meth:`CrawlState.cleaned_without_template`); reads of this
  process's learning (the ad filter's image statistics) answered with an empty state in
  ``webclean/state/empty_reads``. Nothing at close waits
  on the server longer than its socket timeouts.

No log line, error or stat shows the password of ``REDIS_URL``: the URL is shown redacted
(:func:`scrapy_webclean.redact.redact_url`: ``redis://***@host:6379/0``).
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.exceptions import NotConfigured

from scrapy_webclean.ads.stats import AdStatsStore, MemoryAdStatsStore
from scrapy_webclean.dedup.store import MAX_MEMORY_DOCS, DedupStore, MemoryDedupStore
from scrapy_webclean.extraction.template import MemoryTemplateStore, TemplateStore
from scrapy_webclean.integration.settings import get_setting
from scrapy_webclean.integration.workers import Cleaned, StateSpec
from scrapy_webclean.redact import redact_url
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
from scrapy_webclean.state.redislayout import LayoutMismatch
from scrapy_webclean.state.stores import DEDUP_NAMESPACE, LIST_NAMESPACE

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from twisted.internet.defer import Deferred
    from twisted.python.threadpool import ThreadPool

logger = logging.getLogger(__name__)

KINDS = ("memory", "jobdir", "redis")
LOST_WRITES = "webclean/state/lost_writes"
WITHOUT_TEMPLATE = "webclean/state/pages_without_template"
EMPTY_READS = "webclean/state/empty_reads"
#: How often kept writes are tried again, and the JOBDIR state committed (seconds).
FLUSH_SECONDS = 1.0
#: How long a check's items wait for more items to share their commit (seconds).
GROUP_COMMIT_SECONDS = 0.01
#: Pages cleaned without their template remembered for the dedup pipeline, at most.
_BLIND_KEPT = 10_000


class RedisUnreachable(RuntimeError):
    """The crawl's Redis does not answer at start-up (stops the crawl)."""


class RedisLayoutMismatch(RuntimeError):
    """The crawl's Redis keys hold another layout than its settings name (stops the crawl)."""


def unreachable(setting: str, url: str, exc: BaseException) -> str:
    """The error that stops a crawl whose Redis does not answer at start-up."""
    fix = setting if setting == "WEBCLEAN_REDIS_URL" else "REDIS_URL (or REDIS_HOST/REDIS_PORT"
    return (
        f"webclean: WEBCLEAN_STATE = 'redis' but Redis at {setting} = {redact_url(url)!r} does "
        f"not answer ({exc}). Start it or fix {fix}, REDIS_PARAMS"
        + (")" if setting != "WEBCLEAN_REDIS_URL" else "")
        + "; WEBCLEAN_REDIS_REQUIRED = False starts the crawl without it (duplicate checks "
        "then wait for it, learning pauses)"
    )


def redis_url(settings: Any) -> str:
    """``WEBCLEAN_REDIS_URL``, else ``REDIS_URL``, else one built from
    ``REDIS_HOST``/``REDIS_PORT`` (scrapy-redis)."""
    own = settings.get("WEBCLEAN_REDIS_URL")
    if own:
        return str(own)
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
        #: True when a dedup claim must be committed before its item is passed on.
        self.durable = False
        self.backend: StateBackend | None = None
        self.description = "memory"
        self._pool: ThreadPool | None = None
        self._reactor_side: Lenient | None = None
        self._worker_side: Retrying | None = None
        self._committer: Any = None
        self._templates: SqliteBackend | None = None
        self._redis: tuple[str, str, dict[str, Any]] | None = None
        self._url_setting = "REDIS_URL"
        #: Items waiting for the commit of their dedup claims (jobdir).
        self._awaiting_commit: list[Deferred[None]] = []
        self._commit_call: Any = None
        #: URLs of pages cleaned without their site's template (the state away).
        self._blind: OrderedDict[str, None] = OrderedDict()
        self._blind_logged = False
        self.stats = crawler.stats
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
            self.durable = True
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
            self._url_setting = (
                "WEBCLEAN_REDIS_URL" if settings.get("WEBCLEAN_REDIS_URL") else "REDIS_URL"
            )
            params = {
                **settings.getdict("REDIS_PARAMS"),
                # (the layout: every process of the crawl, and its workers, the same)
                "buckets": int(get_setting(settings, "WEBCLEAN_REDIS_BUCKETS")),
                "cluster": bool(get_setting(settings, "WEBCLEAN_REDIS_CLUSTER")),
            }
            self._redis = (url, prefix, params)
            # The reactor side never waits long on a server that stopped answering.
            quick = {"socket_timeout": 1.0, "socket_connect_timeout": 1.0, **params}
            stats = crawler.stats
            assert stats is not None
            stats.set_value(LOST_WRITES, 0)
            try:
                reactor_backend = RedisBackend(url, prefix, **quick)
                worker_backend = RedisBackend(url, prefix, **params)
            except StateUnavailable as exc:  # (a cluster is asked for its nodes at once)
                raise RedisUnreachable(unreachable(self._url_setting, url, exc)) from exc
            self._reactor_side = Lenient(
                reactor_backend,
                on_lost=lambda n: stats.inc_value(LOST_WRITES, n),
            )
            self._worker_side = Retrying(
                worker_backend,
                give_up_after=self.retry_seconds,
                stopping=self._stopping,
            )
            self.backend = self._reactor_side
            self.description = f"Redis {redact_url(url)}, keys {prefix}*"
            self._check_redis(url, bool(get_setting(settings, "WEBCLEAN_REDIS_REQUIRED")))
            from twisted.internet import task

            # Write what the learning kept while Redis was away as soon as it is back.
            self._committer = task.LoopingCall(self._flush)
            crawler.signals.connect(self._start_committing, signal=signals.engine_started)
        logger.info("webclean state: %s", self.description)
        crawler.signals.connect(self._spider_closed, signal=signals.spider_closed)
        crawler.signals.connect(self.close, signal=signals.engine_stopped)

    def _check_redis(self, url: str, required: bool) -> None:
        """Ask Redis once (within its connect timeout): a crawl whose Redis does not
        answer stops here, before any request, unless ``WEBCLEAN_REDIS_REQUIRED`` is off."""
        assert self._worker_side is not None
        try:
            self._worker_side.backend.run([("count_records", "dd:docs")])
        except LayoutMismatch as exc:
            raise RedisLayoutMismatch(f"webclean: {exc}") from exc
        except StateUnavailable as exc:
            if required:
                raise RedisUnreachable(unreachable(self._url_setting, url, exc)) from exc
            logger.error(
                "webclean state: %s; starting without it (WEBCLEAN_REDIS_REQUIRED = False): "
                "duplicate checks wait for it, learning pauses until it answers",
                exc,
            )

    def _stopping(self) -> bool:
        """Whether the crawl is stopping (Ctrl-C, CLOSESPIDER ...): read from the state's
        worker thread, so a duplicate check does not hold a stop up for minutes."""
        engine = self.crawler.engine
        return engine is not None and not engine.running

    def _flush(self) -> None:
        for backend in (self.backend, self._templates):
            if backend is not None:
                backend.flush()

    def _start_committing(self) -> None:
        if self._committer is not None and not self._committer.running:
            self._committer.start(FLUSH_SECONDS, now=False)

    def committed(self) -> Deferred[None] | None:
        """With the ``jobdir`` state: a Deferred that fires once everything written so
        far (the caller's dedup claims) is committed to the SQLite file: the items checked
        within ``GROUP_COMMIT_SECONDS`` share one commit. None when there is nothing to
        wait for (other states, or no running reactor: then committed at once)."""
        if not self.durable or self.backend is None:
            return None
        from twisted.internet import reactor
        from twisted.internet.defer import Deferred

        clock: Any = reactor
        if not clock.running:
            self.backend.flush()
            return None
        waiting: Deferred[None] = Deferred()
        self._awaiting_commit.append(waiting)
        if self._commit_call is None:
            self._commit_call = clock.callLater(GROUP_COMMIT_SECONDS, self._group_commit)
        return waiting

    def _group_commit(self) -> None:
        self._commit_call = None
        waiting, self._awaiting_commit = self._awaiting_commit, []
        try:
            if self.backend is not None:
                self.backend.flush()
        except Exception as exc:  # a full disk: the items must not wait for ever
            logger.error("webclean state: committing %s failed: %s", self.description, exc)
            for d in waiting:
                d.errback(exc)
            return
        for d in waiting:
            d.callback(None)

    def note_cleaned(self, url: str | None, cleaned: Cleaned) -> None:
        """What cleaning a page (in a worker) said about the state: writes it lost, and
        whether the page was cleaned without its site's template."""
        if cleaned.lost_writes and self.stats is not None:
            self.stats.inc_value(LOST_WRITES, cleaned.lost_writes)
        if cleaned.template_unavailable and url:
            self._note_blind(url)

    def _note_blind(self, url: str) -> None:
        """A page cleaned without its site's template (the state store away)."""
        if self.stats is not None:
            self.stats.inc_value(WITHOUT_TEMPLATE)
        if not self._blind_logged:
            self._blind_logged = True
            logger.warning(
                "webclean state: %s cleaned without its site's template (%s does not "
                "answer): cleaned as the first page of its site; such pages are counted in "
                "%s and not dropped as exact duplicates on their text alone",
                url,
                self.kind,
                WITHOUT_TEMPLATE,
            )
        self._blind[url] = None
        while len(self._blind) > _BLIND_KEPT:
            self._blind.popitem(last=False)

    def cleaned_without_template(self, url: Any) -> bool:
        """Whether the page at ``url`` was cleaned without its site's template (asked once
        per page, by the dedup pipeline)."""
        if not isinstance(url, str) or url not in self._blind:
            return False
        del self._blind[url]
        return True

    def count_documents(self) -> int | None:
        """Documents in the dedup index, or None when the store does not answer at once
        (a summary line must not wait on Redis)."""
        if self.backend is None:
            return None
        # (Redis: once, with the short timeouts)
        backend = self._reactor_side.backend if self._reactor_side is not None else self.backend
        try:
            return sum(
                BackendDedupStore(backend, namespace=namespace).count()
                for namespace in (DEDUP_NAMESPACE, LIST_NAMESPACE)
            )
        except StateUnavailable:
            return None

    def _spider_closed(self) -> None:
        """Flush what was learned (with Redis: one last try for what was kept while it was
        away, the rest counted as lost) before the stats are dumped."""
        if self.backend is not None:
            try:
                if self._reactor_side is not None:
                    self._reactor_side.finish()
                    if self._reactor_side.empty_answers and self.stats is not None:
                        # Reads of the image statistics (the ad filter's evidence) and of
                        # templates answered empty: decisions made without what was learned.
                        self.stats.set_value(EMPTY_READS, self._reactor_side.empty_answers)
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
            return StateSpec(
                "redis", url=url, prefix=prefix, params=params, reporter=self.note_cleaned
            )
        return StateSpec()

    def ad_stats_store(self) -> AdStatsStore:
        if self.backend is None:
            return MemoryAdStatsStore()
        return BackendAdStatsStore(self.backend)

    def template_store(self) -> TemplateStore:
        if self.backend is None:
            return MemoryTemplateStore()
        return BackendTemplateStore(self._templates or self.backend, on_blind=self._note_blind)

    def dedup_store(
        self,
        lsh_bands: int = 16,
        namespace: str = DEDUP_NAMESPACE,
        max_docs: int | None = MAX_MEMORY_DOCS,
    ) -> DedupStore:
        """A dedup index's store (``namespace``: the article index's tables, or the list
        pages' index's, ``LIST_NAMESPACE``): with Redis, to be called from :meth:`worker`
        only. ``max_docs`` bounds the in-memory store (``WEBCLEAN_DEDUP_MAX_DOCS``; None:
        no bound); the JOBDIR and Redis stores are not bounded."""
        if self.backend is None:
            return MemoryDedupStore(lsh_bands, max_docs)
        return BackendDedupStore(self._worker_side or self.backend, lsh_bands, namespace)

    def dedup_backend(self) -> StateBackend | None:
        """The backend the dedup index writes through (with Redis, to be called from
        :meth:`worker` only); None for the in-memory state."""
        if self.backend is None:
            return None
        return self._worker_side or self.backend

    def worker(self) -> ThreadPool:
        """The one worker thread that runs remote store calls, in order."""
        if self._pool is None:
            from twisted.python.threadpool import ThreadPool

            self._pool = ThreadPool(minthreads=1, maxthreads=1, name="webclean-state")
            self._pool.start()
        return self._pool

    def lost_writes(self) -> int:
        """Learning writes lost while Redis was away (this process and its workers)."""
        if self.stats is not None and self._reactor_side is not None:
            return int(self.stats.get_value(LOST_WRITES, 0))
        return self._reactor_side.lost_writes if self._reactor_side is not None else 0

    def close(self) -> None:
        """Flush and close the backend (at engine stop; each store call bounded by its
        socket timeout, a duplicate check still retrying woken to give up)."""
        if self._committer is not None and self._committer.running:
            self._committer.stop()
        if self._commit_call is not None and self._commit_call.active():
            self._commit_call.cancel()
            self._group_commit()
        if self._worker_side is not None:
            self._worker_side.stop()
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
