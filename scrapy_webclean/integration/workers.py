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
process. A page is learned once however often it is cleaned (a crawl resumed after a kill
fetches some pages again: see ``BackendTemplateStore``). With Redis, a page cleaned while
the server does not answer is cleaned without its site's template, and each write the
worker could not keep is lost: both come back with the page's result
(``Cleaned.template_unavailable``, ``Cleaned.lost_writes``) and go to the crawl's
``StateSpec.reporter`` (the crawl's stats), as do the writes a worker still held when it
was shut down and the server did not take them.

Back-pressure: at most ``WEBCLEAN_WORKER_QUEUE`` pages wait per worker; a page beyond
that waits in ``process_item`` before it is sent, and Scrapy stops reading new responses
while its item pipeline is full, so the crawl slows down instead of queueing without bound.
A worker that dies is replaced; its page is passed on uncleaned (``worker_crashed``).

Time budget: a worker may spend ``page_timeout`` seconds (``WEBCLEAN_PAGE_TIMEOUT``) of
wall-clock time on one page, counted from when it takes the page (when the page before it
is done; a worker's own start is not counted). A page over its budget is not waited for:
the worker is killed and replaced, the page comes back as ``timeout``, and the pages that
waited behind it on that worker are sent again, in their order, to the new worker (they did
nothing wrong; ``WorkerPool.resent`` counts them). The new worker starts with its site
templates as the crawl keeps them: empty with the in-memory state, the last pages'
learning lost. :meth:`WorkerPool.close` is bounded too: a worker that has not finished
within its budgets and ``_FINISH_STATE_SECONDS`` is killed.

Interruptions: workers ignore SIGINT, so a Ctrl-C from the terminal (sent to the whole
process group) reaches only the crawl, which stops gracefully: the pages being cleaned are
finished and exported, and ``CleanPipeline.close_spider`` then shuts the workers down. A
worker exits when the crawl's process dies, even by SIGKILL; with the workers gone the
multiprocessing resource tracker (which lives while any process holds its pipe) exits too.

Logging: a worker's log records, and what Python code in it writes to ``sys.stderr``, are
written by the crawl's log handlers (``LOG_FILE``, ``LOG_LEVEL``, its format, the
``log_count`` stats). How a worker process starts, ends and logs is ``workerprocess``'s.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import gc
import logging
import math
import os
import threading
import time
import zlib
from collections import Counter, deque
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import AbstractContextManager, nullcontext, suppress
from dataclasses import dataclass, field, replace
from multiprocessing.connection import Connection
from typing import Any

from scrapy_webclean.cleaning import Cleaner, CleanOptions
from scrapy_webclean.dedup.fingerprint import Fingerprint, fingerprint
from scrapy_webclean.errors import CleanError
from scrapy_webclean.extraction.template import (
    MemoryTemplateStore,
    TemplateModel,
    TemplateStore,
    site_of,
)
from scrapy_webclean.gcpause import freeze_start_up, gc_paused
from scrapy_webclean.integration.workerprocess import (
    WorkerContext,
    exit_with_parent,
    forwarded_level,
    ignore_interrupts,
    log_to_parent,
    read_logs,
)
from scrapy_webclean.markdown import markdown_to_text
from scrapy_webclean.state.stores import BackendTemplateStore

logger = logging.getLogger(__name__)


#: Writes this worker process lost (its Redis template state was away), not yet reported.
_LOST_WRITES = [0]


def _lost(count: int) -> None:
    _LOST_WRITES[0] += count


def _take_lost() -> int:
    lost, _LOST_WRITES[0] = _LOST_WRITES[0], 0
    return lost


@dataclass(frozen=True, slots=True)
class StateSpec:
    """How a worker reaches the crawl's template state (plain data, sent to the worker),
    and, in the crawl's process only, who hears what cleaning in a worker says about the
    state (``reporter``: called with the page's URL and its result; never sent)."""

    kind: str = "memory"
    path: str | None = None
    url: str | None = field(default=None, repr=False)  # (it may hold a password)
    prefix: str = ""
    params: dict[str, Any] = field(default_factory=dict, repr=False)
    reporter: Callable[[str | None, Cleaned], None] | None = field(
        default=None, compare=False, repr=False
    )

    def template_store(self) -> TemplateStore:
        from scrapy_webclean.state import Lenient, SqliteBackend

        if self.kind == "jobdir" and self.path:
            # One short transaction a page: other workers write the same file.
            backend = SqliteBackend(self.path, commit_seconds=0.0)
            atexit.register(backend.close)
            return BackendTemplateStore(backend)
        if self.kind == "redis" and self.url:
            from scrapy_webclean.state.redis import RedisBackend

            quick = {"socket_timeout": 1.0, "socket_connect_timeout": 1.0, **self.params}
            lenient = Lenient(RedisBackend(self.url, self.prefix, **quick), on_lost=_lost)
            return BackendTemplateStore(lenient)
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
    #: The site's template was read from a state store that did not answer (an empty
    #: view): the page was cleaned as the first of its site.
    template_unavailable: bool = False
    #: Learning writes the worker lost since its last page (Redis away; 0 when inline,
    #: where the crawl's own state counts them).
    lost_writes: int = 0
    #: The text the dedup pipeline will compare and its fingerprint, computed where the
    #: page was cleaned (with a :class:`FingerprintRequest`; None otherwise, or for a page
    #: the dedup pipeline does not compare).
    fingerprint: tuple[str, Fingerprint] | None = None


@dataclass(frozen=True, slots=True)
class FingerprintRequest:
    """What the crawl's dedup pipeline compares, so that a page's text is fingerprinted
    where the page is cleaned (in its worker: not in the crawl's process, whose event loop
    the crawl waits on): the query ``keywords`` its fingerprints use, and the page types it
    does not compare. (A Markdown text is compared as plain text, as the dedup pipeline
    reads it: ``markdown.markdown_to_text``; an HTML text as the page's plain text.)"""

    keywords: tuple[str, ...] = ()
    skipped_types: frozenset[str] = frozenset()


@gc_paused()
def clean_page(
    cleaner: Cleaner,
    html: bytes | str,
    url: str | None,
    content_type: Any,
    include_blocks: bool,
    output_format: str = "text",
    fingerprints: FingerprintRequest | None = None,
) -> Cleaned:
    """Clean one page with ``cleaner`` (in the crawl's process or in a worker); the item's
    text is the main content in ``output_format``: ``"text"``, ``"markdown"`` or
    ``"html"`` (``WEBCLEAN_OUTPUT_FORMAT``). A page is learned by
    a state-backed template store once per URL (see ``BackendTemplateStore.page``). With
    ``fingerprints``, the text is fingerprinted for the dedup pipeline too
    (:attr:`Cleaned.fingerprint`).

    The cyclic garbage collector is paused for the whole page, its item built too
    (``gcpause.gc_paused`` as the decorator: the pause ends once the call has returned and
    its locals, the page model among them, are freed). The item's fields come from the
    page's blocks, which read the page model: a pause that ended with the cleaning would
    leave the collector to walk the whole page model (and promote it to an older
    generation, walked again later) while the blocks are built. Paused until the item is
    made, it finds only the item left."""
    started = time.perf_counter()
    store = cleaner.template_model.store
    learning: AbstractContextManager[None] = (
        store.page(url) if isinstance(store, BackendTemplateStore) else nullcontext()
    )
    try:
        with learning:
            result = cleaner.clean(html, url, content_type=content_type)
        data = result.to_dict(include_blocks=include_blocks)  # builds the blocks
        if output_format == "markdown":
            data["text"] = result.markdown
        elif output_format == "html":
            data["text"] = result.html
    except CleanError as exc:
        return Cleaned(reason=exc.reason, message=str(exc))
    except Exception as exc:  # never let one page stop the crawl
        logger.exception("webclean: unexpected error cleaning %s", url)
        return Cleaned(reason="internal_error", message=repr(exc))
    cleaned = Cleaned(
        data,
        result.lang,
        result.encoding,
        result.page_type,
        Counter(block.label.value for block in result.blocks),
        seconds=time.perf_counter() - started,
        template_unavailable=isinstance(store, BackendTemplateStore) and store.blind,
    )
    text = data["text"]
    if (
        fingerprints is not None
        and result.page_type not in fingerprints.skipped_types
        and text.strip()  # (the dedup pipeline compares no blank text)
    ):
        compared = markdown_to_text(text) if output_format == "markdown" else result.text
        cleaned.fingerprint = (compared, fingerprint(compared, fingerprints.keywords))
    return cleaned


_CLEANER: Cleaner | None = None

#: How long closing the pool waits for the last log records of its workers (seconds).
_LOG_DRAIN_SECONDS = 5.0
#: How long closing the pool waits for a worker to write its state's last writes (its
#: Redis client gives up after 1 s; this is a hang-guard).
_FINISH_STATE_SECONDS = 15.0
#: Wall-clock seconds a worker may spend on one page (``WEBCLEAN_PAGE_TIMEOUT``'s default).
#: Pages of the benchmark sets take tens of milliseconds; the slowest shape tried within
#: the default size limits, a list page of 480,000 tags (6 MB), took 7.5 to 11 s on a
#: loaded 2-core machine: such a page may come out ``timeout``.
DEFAULT_PAGE_TIMEOUT = 10.0


def _start_worker(
    options: CleanOptions, spec: StateSpec, logs: Connection, level: int, freeze: bool = False
) -> None:
    """A worker's initializer: ignore Ctrl-C, end with the parent, log to the parent, then
    build the cleaner with the crawl's template state. With ``freeze``, it also cleans a
    warm-up page (models and dictionaries loaded) and keeps what it loaded out of the
    cyclic collector's full walks (``gcpause.freeze_start_up``), as the crawl's process
    does once its engine has started."""
    global _CLEANER
    ignore_interrupts()
    exit_with_parent()
    log_to_parent(logs, level)
    logger.debug(
        "webclean: cleaning worker started (pid %d, template state: %s)", os.getpid(), spec.kind
    )
    _CLEANER = Cleaner(options, template_model=TemplateModel(store=spec.template_store()))
    if freeze:
        try:
            warm_up(options)
        except Exception:  # (the worker still cleans: each page then says what fails)
            logger.exception("webclean: a cleaning worker could not clean its warm-up page")
        gc.collect()  # (what the warm-up left in cycles is freed, not kept for good)
        freeze_start_up()


def _work(
    html: bytes | str,
    url: str | None,
    content_type: Any,
    include_blocks: bool,
    output_format: str,
    fingerprints: FingerprintRequest | None,
) -> Cleaned:
    assert _CLEANER is not None, "worker not started"
    cleaned = clean_page(
        _CLEANER, html, url, content_type, include_blocks, output_format, fingerprints
    )
    cleaned.worker_rss = _peak_rss()
    cleaned.lost_writes = _take_lost()
    return cleaned


def _finish_state() -> int:
    """At shut-down, in a worker: write what its template state still holds (a Redis state
    that was away), then close it; returns the writes lost (reported to the crawl)."""
    if _CLEANER is not None:
        store = _CLEANER.template_model.store
        if isinstance(store, BackendTemplateStore):
            store.backend.close()
    return _take_lost()


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


def _started() -> None:
    """A worker's first job when its initializer did the warm-up: nothing more to do."""


def warm_up(options: CleanOptions | None = None) -> None:
    """Clean one small page (English and Chinese) with a throwaway cleaner of ``options``
    (the defaults when None), so imports, dictionaries and models are loaded before the
    crawl's first page (the site state stays empty)."""
    Cleaner(options or CleanOptions()).clean(_WARM_UP_PAGE, None)


@dataclass(eq=False, slots=True)
class _Job:
    """One call sent to a worker. A worker takes its calls one at a time in the order they
    were sent, so the first of its calls not done is the one it runs."""

    future: Future[Any]
    executor: ProcessPoolExecutor
    #: Wall-clock seconds the call may run once the worker takes it (0: no limit).
    budget: float = 0.0
    #: The page's URL (for the log).
    url: str | None = field(default=None, repr=False)  # (it may hold a password)
    #: Event-loop time at which the worker took the call (None: not yet, or not known
    #: outside an event loop).
    started: float | None = None
    timer: asyncio.TimerHandle | None = None
    #: The worker was killed because this call ran over its budget ...
    timed_out: bool = False
    #: ... or because a call before this one did: this one is sent again.
    resend: bool = False


class WorkerPool:
    """N single-process pools; a site always goes to the same one."""

    def __init__(
        self,
        workers: int,
        options: CleanOptions,
        spec: StateSpec,
        queue: int = 8,
        freeze: bool = False,
        page_timeout: float = DEFAULT_PAGE_TIMEOUT,
    ) -> None:
        """``freeze``: each worker keeps what it loads at start out of the cyclic
        collector's full walks (``WEBCLEAN_GC_FREEZE``, see :func:`_start_worker`).
        ``page_timeout``: wall-clock seconds a worker may spend on one page before it is
        killed and replaced (0 or infinity: no limit; see the module docstring)."""
        self.options = options
        self.freeze = freeze
        self.page_timeout = page_timeout if math.isfinite(page_timeout) else 0.0
        #: Hears each page's state report in this process (never sent to a worker).
        self.reporter = spec.reporter
        self.spec = replace(spec, reporter=None)
        self._context = WorkerContext()
        self._level = forwarded_level()
        #: Per worker: the pool's end of the log pipe, and the thread reading the other end.
        self._log_pipes: list[Connection] = []
        self._log_readers: list[threading.Thread] = []
        self._pools = [self._new_pool() for _ in range(workers)]
        #: Per worker, the calls sent to it and not yet seen done, in its order.
        self._jobs: list[deque[_Job]] = [deque() for _ in range(workers)]
        #: Per worker, whether its start-up call was sent (it goes before any page).
        self._starting = [False] * workers
        self._slots = [asyncio.Semaphore(queue) for _ in range(workers)]
        self._closed = False
        #: Workers replaced after dying or after running over a page's budget.
        self.restarts = 0
        #: Pages that ran over their budget (their worker was killed).
        self.timeouts = 0
        #: Pages sent again to a new worker: they waited behind a page over its budget.
        self.resent = 0

    def _new_pool(self, index: int | None = None) -> ProcessPoolExecutor:
        """A one-worker pool with its own log pipe (at ``index``, replacing the one there)."""
        reader, writer = self._context.Pipe(duplex=False)
        thread = threading.Thread(
            target=read_logs, args=(reader,), name="webclean-worker-log", daemon=True
        )
        thread.start()
        pool = ProcessPoolExecutor(
            max_workers=1,
            mp_context=self._context,
            initializer=_start_worker,
            initargs=(self.options, self.spec, writer, self._level, self.freeze),
        )
        if index is None:
            self._log_pipes.append(writer)
            self._log_readers.append(thread)
        else:
            # The dead worker's records are all in its pipe: closing this end lets the
            # reader take them and stop at the end.
            self._log_pipes[index].close()
            self._log_pipes[index] = writer
            self._log_readers[index] = thread
        return pool

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
        output_format: str = "text",
        fingerprints: FingerprintRequest | None = None,
    ) -> Cleaned:
        """Clean a page in its site's worker (waiting for a slot when the worker is busy);
        see :func:`clean_page`. A page over the pool's ``page_timeout`` comes back with
        the reason ``timeout``; one whose worker died, ``worker_crashed``."""
        index = self.worker_for(url)
        args = (html, url, content_type, include_blocks, output_format, fingerprints)
        async with self._slots[index]:
            while True:
                executor = self._pools[index]
                job: _Job | None = None
                try:
                    job = self._submit(index, _work, *args, budget=self.page_timeout, url=url)
                    cleaned: Cleaned = await asyncio.wrap_future(job.future)
                except BrokenProcessPool as exc:
                    if job is not None and job.resend and not self._closed:
                        self.resent += 1
                        continue  # its worker was killed for the page before it
                    if job is not None and job.timed_out:
                        return self._timed_out(job)
                    # Every page the worker held fails here; the first to come replaces
                    # the worker (the pipeline reports each page).
                    if self._pools[index] is executor and not self._closed:
                        logger.error(
                            "webclean: a cleaning worker died on %s (%s); restarting it",
                            url,
                            exc,
                        )
                        self._replace(index)
                    return Cleaned(reason="worker_crashed", message=str(exc))
                if self.reporter is not None and (
                    cleaned.template_unavailable or cleaned.lost_writes
                ):
                    self.reporter(url, cleaned)
                return cleaned

    def _submit(
        self,
        index: int,
        fn: Callable[..., Any],
        *args: Any,
        budget: float = 0.0,
        url: str | None = None,
    ) -> _Job:
        """Send a call to worker ``index`` and keep it in that worker's order; under an
        event loop, its budget's clock starts when the worker takes it. A page is never a
        worker's first call: its start-up (:meth:`_start`) goes first, so that no page's
        budget pays for it."""
        if budget > 0 and not self._starting[index]:
            self._start(index)
        executor = self._pools[index]
        job = _Job(executor.submit(fn, *args), executor, budget, url)
        jobs = self._jobs[index]
        jobs.append(job)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a pool used by hand): no budget kept
            while jobs and jobs[0].future.done():
                jobs.popleft()
            return job

        def done(_: Future[Any]) -> None:  # (in the pool's thread)
            with suppress(RuntimeError):  # (the event loop is closed: nobody waits)
                loop.call_soon_threadsafe(self._advance, index, loop)

        job.future.add_done_callback(done)
        self._advance(index, loop)
        return job

    def _advance(self, index: int, loop: asyncio.AbstractEventLoop) -> None:
        """Forget worker ``index``'s calls that are done; start the clock of the one it
        runs now."""
        jobs = self._jobs[index]
        while jobs and jobs[0].future.done():
            finished = jobs.popleft()
            if finished.timer is not None:
                finished.timer.cancel()
        if jobs and jobs[0].started is None:
            head = jobs[0]
            head.started = loop.time()
            if head.budget > 0 and not self._closed:  # (closing keeps its own bound)
                head.timer = loop.call_later(head.budget, self._overdue, index, head)

    def _overdue(self, index: int, job: _Job) -> None:
        """``job`` ran over its budget: kill its worker, start a new one, and mark the
        calls that waited behind it to be sent again."""
        if job.future.done() or self._pools[index] is not job.executor or self._closed:
            return  # (done meanwhile: its result is on its way)
        job.timed_out = True
        for other in self._jobs[index]:
            other.resend = other is not job
        waiting = [other for other in self._jobs[index] if other.resend and other.budget > 0]
        self.timeouts += 1
        logger.info(
            "webclean: cleaning %s took over %g s (WEBCLEAN_PAGE_TIMEOUT); its worker is "
            "stopped and replaced, and the %d page%s waiting behind it sent to the new one",
            job.url,
            job.budget,
            len(waiting),
            "" if len(waiting) == 1 else "s",
        )
        self._replace(index)

    def _timed_out(self, job: _Job) -> Cleaned:
        seconds = job.budget
        if job.started is not None:
            seconds = asyncio.get_running_loop().time() - job.started
        return Cleaned(
            reason="timeout",
            message=(
                f"cleaning took over {job.budget:g} s (WEBCLEAN_PAGE_TIMEOUT); its worker "
                "was stopped"
            ),
            seconds=seconds,
        )

    def _replace(self, index: int) -> None:
        """Kill worker ``index`` (if it still runs) and start a new one in its place (it
        loads its models before it takes a page, so no page's budget pays for that)."""
        _kill(self._pools[index])
        self._pools[index] = self._new_pool(index)
        for job in self._jobs[index]:
            if job.timer is not None:
                job.timer.cancel()
        self._jobs[index] = deque()
        self._starting[index] = False
        self.restarts += 1
        self._start(index)

    def _start(self, index: int) -> None:
        """Send worker ``index`` its start-up call: the process starts (imports, models)
        and cleans a warm-up page. (A worker that freezes has cleaned its warm-up page in
        its initializer already: it is only started.)"""
        self._starting[index] = True
        self._submit(index, _started if self.freeze else warm_up)

    def warm_up(self) -> None:
        """Start every worker (imports, dictionaries) before the first page arrives."""
        for index in range(len(self._pools)):
            if not self._starting[index]:
                self._start(index)

    def close(self) -> None:
        """Let the workers finish their pages, write what their state still holds and
        exit, then read their last log records (waiting at most a few seconds for a worker
        that does not end). Bounded: a worker that has not finished within
        ``_FINISH_STATE_SECONDS`` plus the budget of each page it still holds is killed
        (with no budget, within ``_FINISH_STATE_SECONDS``)."""
        self._closed = True
        finishing: list[tuple[int, _Job, float]] = []
        for index in range(len(self._pools)):
            jobs = self._jobs[index]
            for job in jobs:
                if job.timer is not None:
                    job.timer.cancel()  # (the event loop waits for this call: no timer runs)
            pages = sum(1 for job in jobs if job.budget > 0 and not job.future.done())
            try:
                job = self._submit(index, _finish_state)
            except (BrokenProcessPool, RuntimeError):  # a dead worker: nothing to write
                continue
            finishing.append((index, job, _FINISH_STATE_SECONDS + pages * self.page_timeout))
        started = time.monotonic()
        lost = 0
        for index, job, wait in finishing:
            try:
                lost += job.future.result(timeout=max(0.0, started + wait - time.monotonic()))
            except concurrent.futures.TimeoutError:
                logger.warning(
                    "webclean: a cleaning worker did not finish within %.0f s; stopping it",
                    wait,
                )
                running = next((j for j in self._jobs[index] if not j.future.done()), None)
                if running is not None and running.budget > 0:
                    running.timed_out = True  # (the page it was stuck on)
                _kill(job.executor)
            except Exception as exc:  # a worker dying at its end
                logger.warning("webclean: a cleaning worker did not close its state: %r", exc)
        if lost and self.reporter is not None:
            self.reporter(None, Cleaned(reason="closing", lost_writes=lost))
        for pool in self._pools:
            pool.shutdown(wait=True, cancel_futures=False)
        for pipe in self._log_pipes:
            pipe.close()
        deadline = time.monotonic() + _LOG_DRAIN_SECONDS
        for thread in self._log_readers:
            thread.join(max(0.0, deadline - time.monotonic()))
        self._log_pipes.clear()
        self._log_readers.clear()


def _kill(pool: ProcessPoolExecutor) -> None:
    """Kill the worker process of ``pool`` (SIGKILL: a page stuck in a C loop ignores
    anything gentler); the pool then fails every call it holds with ``BrokenProcessPool``."""
    processes = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        if process.is_alive():
            process.kill()
