"""Cleaning off the event loop: worker processes, one site to one worker.

Cleaning is CPU work (parsing, segmentation, jieba); run in ``process_item`` it blocks the
reactor and the whole crawl waits. With ``WEBCLEAN_WORKERS = N`` (N > 0), ``CleanPipeline``
sends each page to one of N worker processes and awaits the result, so the reactor keeps
downloading while pages are cleaned, on as many cores as there are workers.

Consistency: the one stateful part of cleaning, the per-site template model, must see a
site's pages in order. Each site is sent to one worker always (by a stable hash of its
host), and each worker cleans its pages one at a time in arrival order, so each site's
template is learned exactly as in one process. Workers keep the template state where the
crawl keeps it (``WEBCLEAN_STATE``): in their own memory, in the JOBDIR SQLite file, or in
Redis. The other learning parts (image statistics, the dedup index) stay in the crawl's
process.

Back-pressure: at most ``WEBCLEAN_WORKER_QUEUE`` pages wait per worker; a page beyond
that waits in ``process_item`` before it is sent, and Scrapy stops reading new responses
while its item pipeline is full, so the crawl slows down instead of queueing without bound.
A worker that dies is replaced; its page is passed on uncleaned (``worker_crashed``).
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import multiprocessing
import time
import zlib
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from scrapy_webclean.cleaning import Cleaner, CleanOptions
from scrapy_webclean.errors import CleanError
from scrapy_webclean.extraction.template import (
    MemoryTemplateStore,
    TemplateModel,
    TemplateStore,
    site_of,
)

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class StateSpec:
    """How a worker reaches the crawl's template state (plain data, sent to the worker)."""

    kind: str = "memory"
    path: str | None = None
    url: str | None = None
    prefix: str = ""
    params: dict[str, Any] = field(default_factory=dict)

    def template_store(self) -> TemplateStore:
        from scrapy_webclean.state import BackendTemplateStore, Lenient, SqliteBackend

        if self.kind == "jobdir" and self.path:
            # One short transaction a page: other workers write the same file.
            backend = SqliteBackend(self.path, commit_seconds=0.0)
            atexit.register(backend.close)
            return BackendTemplateStore(backend)
        if self.kind == "redis" and self.url:
            from scrapy_webclean.state.redis import RedisBackend

            quick = {"socket_timeout": 1.0, "socket_connect_timeout": 1.0, **self.params}
            return BackendTemplateStore(Lenient(RedisBackend(self.url, self.prefix, **quick)))
        return MemoryTemplateStore()


@dataclass(slots=True)
class Cleaned:
    """What cleaning one page gives the pipeline: the item's fields, or why it failed."""

    data: dict[str, Any] | None = None
    lang: str = ""
    encoding: str = ""
    page_type: str = ""
    blocks: Counter[str] = field(default_factory=Counter)
    reason: str = ""
    message: str = ""
    #: Time the cleaning took where it ran (seconds).
    seconds: float = 0.0
    #: Peak memory of the worker process that cleaned it (bytes; 0 when cleaned inline).
    worker_rss: int = 0


def clean_page(
    cleaner: Cleaner,
    html: bytes | str,
    url: str | None,
    content_type: Any,
    include_blocks: bool,
    markdown: bool = False,
) -> Cleaned:
    """Clean one page with ``cleaner`` (in the crawl's process or in a worker); with
    ``markdown`` the item's text is the Markdown of the main content."""
    started = time.perf_counter()
    try:
        result = cleaner.clean(html, url, content_type=content_type)
        data = result.to_dict(include_blocks=include_blocks)  # builds the blocks
        if markdown:
            data["text"] = result.markdown
    except CleanError as exc:
        return Cleaned(reason=exc.reason, message=str(exc))
    except Exception as exc:  # never let one page stop the crawl
        logger.exception("webclean: unexpected error cleaning %s", url)
        return Cleaned(reason="internal_error", message=repr(exc))
    return Cleaned(
        data,
        result.lang,
        result.encoding,
        result.page_type,
        Counter(block.label.value for block in result.blocks),
        seconds=time.perf_counter() - started,
    )


_CLEANER: Cleaner | None = None


def _start_worker(options: CleanOptions, spec: StateSpec) -> None:
    global _CLEANER
    _CLEANER = Cleaner(options, template_model=TemplateModel(store=spec.template_store()))


def _work(
    html: bytes | str, url: str | None, content_type: Any, include_blocks: bool, markdown: bool
) -> Cleaned:
    assert _CLEANER is not None, "worker not started"
    cleaned = clean_page(_CLEANER, html, url, content_type, include_blocks, markdown)
    cleaned.worker_rss = _peak_rss()
    return cleaned


def _peak_rss() -> int:
    """This process's peak resident memory in bytes: ``VmHWM`` on Linux (getrusage's
    figure survives exec, so a spawned worker would report its parent's); 0 elsewhere."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


_WARM_UP_PAGE = (
    "<html><head><title>t</title></head><body><article><h1>Warm</h1>"
    "<p>Warming up the cleaner with one short English paragraph of plain text.</p>"
    "<p>用一段简短的中文预热清洗器，加载分词词典和各类模型。</p></article></body></html>"
)


def _warm_up() -> None:
    """Clean one small page (English and Chinese) with a throwaway cleaner, so imports and
    dictionaries are loaded before the crawl's first page (the site state stays empty)."""
    Cleaner(CleanOptions()).clean(_WARM_UP_PAGE, None)


class WorkerPool:
    """N single-process pools; a site always goes to the same one."""

    def __init__(
        self, workers: int, options: CleanOptions, spec: StateSpec, queue: int = 8
    ) -> None:
        self.options = options
        self.spec = spec
        self._context = multiprocessing.get_context("spawn")
        self._pools = [self._new_pool() for _ in range(workers)]
        self._slots = [asyncio.Semaphore(queue) for _ in range(workers)]
        #: Workers replaced after dying.
        self.restarts = 0

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=1,
            mp_context=self._context,
            initializer=_start_worker,
            initargs=(self.options, self.spec),
        )

    def __len__(self) -> int:
        return len(self._pools)

    def worker_for(self, url: str | None) -> int:
        site = site_of(url) or ""
        return zlib.crc32(site.encode("utf-8")) % len(self._pools)

    async def clean(
        self,
        html: bytes | str,
        url: str | None,
        content_type: Any,
        include_blocks: bool,
        markdown: bool = False,
    ) -> Cleaned:
        """Clean a page in its site's worker (waiting for a slot when the worker is busy)."""
        index = self.worker_for(url)
        async with self._slots[index]:
            loop = asyncio.get_running_loop()
            try:
                return await loop.run_in_executor(
                    self._pools[index], _work, html, url, content_type, include_blocks, markdown
                )
            except BrokenProcessPool as exc:
                logger.error("webclean: a cleaning worker died on %s (%s); restarting it", url, exc)
                self._pools[index] = self._new_pool()
                self.restarts += 1
                return Cleaned(reason="worker_crashed", message=str(exc))

    def warm_up(self) -> None:
        """Start every worker (imports, dictionaries) before the first page arrives."""
        for pool in self._pools:
            pool.submit(_warm_up)

    def close(self) -> None:
        for pool in self._pools:
            pool.shutdown(wait=True, cancel_futures=False)
