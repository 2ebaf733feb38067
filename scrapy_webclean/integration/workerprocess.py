"""A cleaning worker's life as a process: how it starts, stops and logs.

A worker is spawned with SIGINT blocked (:class:`WorkerContext`) and, in its initializer,
ignores it (:func:`ignore_interrupts`): a terminal's Ctrl-C is for the crawl, which stops
its workers itself. It ends when the crawl's process ends, even by SIGKILL
(:func:`exit_with_parent`). Its log records go down a pipe of its own to the crawl's
process (:func:`log_to_parent`), where :func:`read_logs` hands them to the crawl's logger of
the same name, so Scrapy's handlers write them; what it writes to ``sys.stderr`` is logged
the same way (logger :data:`STDERR_LOGGER`). ``workers`` uses these for its pools.
"""

from __future__ import annotations

import ctypes
import io
import logging
import multiprocessing
import os
import signal
import sys
import threading
from logging.handlers import QueueHandler
from multiprocessing.connection import Connection, wait
from multiprocessing.context import SpawnContext, SpawnProcess

#: ``prctl`` option: the signal a process gets when the thread that forked it ends.
_PR_SET_PDEATHSIG = 1
#: The logger of what Python code in a worker writes to ``sys.stderr`` (WARNING).
STDERR_LOGGER = "scrapy_webclean.integration.workers.stderr"


class WorkerProcess(SpawnProcess):
    """A spawned worker that cannot be interrupted before its initializer ignores SIGINT.

    ``start`` blocks SIGINT in the spawning thread while the child is created: the child
    inherits the blocked mask through exec, so a Ctrl-C during its start-up (interpreter
    start, imports, unpickling) stays pending instead of raising ``KeyboardInterrupt``, and
    is discarded when the initializer sets SIGINT to be ignored. The crawl's process still
    gets its Ctrl-C: a signal blocked in one thread is delivered to another, or to this one
    when the mask is restored.
    """

    #: Whether the spawning thread is the main thread (which lives as long as its process),
    #: so that ``PR_SET_PDEATHSIG``, which follows the thread, follows the process. Pickled
    #: with the process object into the child.
    spawned_by_main_thread = False

    def start(self) -> None:
        self.spawned_by_main_thread = threading.current_thread() is threading.main_thread()
        if not hasattr(signal, "pthread_sigmask"):  # Windows: no POSIX signal masks
            super().start()
            return
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            super().start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)


class WorkerContext(SpawnContext):
    """The spawn context, with processes that start with SIGINT blocked."""

    Process = WorkerProcess


def ignore_interrupts() -> None:
    """Ignore SIGINT from now on, then unblock it (a pending one is discarded): a terminal's
    Ctrl-C is for the crawl, which stops the workers itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def exit_with_parent() -> None:
    """End this worker when the process that spawned it ends, however it ends.

    On Linux the kernel sends SIGKILL at the parent's death (``PR_SET_PDEATHSIG``, only
    when the spawning thread was the main thread: the setting follows the thread). On
    every system a daemon thread waits for the parent's end of the spawn pipe to close,
    which happens when the parent exits or is killed, and ends the process.
    """
    parent = multiprocessing.parent_process()
    if parent is None:
        return
    spawned_by_main = getattr(multiprocessing.current_process(), "spawned_by_main_thread", False)
    if sys.platform.startswith("linux") and spawned_by_main:
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):  # no prctl: the thread below still watches
            pass
    if parent.pid is not None and os.getppid() != parent.pid:
        os._exit(1)  # the parent died before the watch was set
    sentinel = parent.sentinel
    if sentinel is None:
        return

    def watch() -> None:
        wait([sentinel])
        os._exit(1)  # nothing to finish: the crawl that wanted this work is gone

    threading.Thread(target=watch, name="webclean-parent-watch", daemon=True).start()


class _SendToParent(QueueHandler):
    """Sends each record (prepared as ``QueueHandler`` prepares it: message formatted,
    traceback included, nothing unpicklable left) down this worker's log pipe. No queue and
    no lock shared between processes: a worker killed while sending cannot block another."""

    def __init__(self, connection: Connection) -> None:
        logging.Handler.__init__(self)  # QueueHandler's own __init__ wants a queue
        self.connection = connection

    def enqueue(self, record: logging.LogRecord) -> None:
        # Handler.handle holds this handler's lock: one record on the pipe at a time.
        self.connection.send(record)


class _StderrToLog(io.TextIOBase):
    """The worker's ``sys.stderr``: each line written is logged at WARNING (logger
    ``scrapy_webclean.integration.workers.stderr``), so it goes to the crawl's log."""

    def __init__(self) -> None:
        super().__init__()
        self._partial = ""
        self._busy = False
        self._logger = logging.getLogger(STDERR_LOGGER)

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if self._busy:
            # Logging itself is failing and printing why: the real stderr is left.
            if sys.__stderr__ is not None:
                sys.__stderr__.write(text)
            return len(text)
        self._partial += text
        *lines, self._partial = self._partial.split("\n")
        self._busy = True
        try:
            for line in lines:
                if line.strip():
                    self._logger.warning("%s", line)
        finally:
            self._busy = False
        return len(text)


def log_to_parent(connection: Connection, level: int) -> None:
    """Send this worker's log records of ``level`` and above to the crawl's process, and
    nothing to stderr: the root logger's only handler is the pipe, warnings are logged, and
    ``sys.stderr`` is a logger."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    root.addHandler(_SendToParent(connection))
    root.setLevel(level)
    logging.captureWarnings(True)
    sys.stderr = _StderrToLog()


def read_logs(connection: Connection) -> None:
    """In the crawl's process: hand each record a worker sends to the logger of the same
    name, until the pipe closes (the worker ended and the pool let go of its own end)."""
    with connection:
        while True:
            try:
                record = connection.recv()
            except Exception:  # closed, or torn by a worker killed while it sent
                return
            if isinstance(record, logging.LogRecord):
                target = logging.getLogger(record.name)
                if target.isEnabledFor(record.levelno):
                    target.handle(record)


def forwarded_level() -> int:
    """The lowest level the crawl's root log handlers write (Scrapy's ``LOG_LEVEL``):
    workers do not send records that no handler would write."""
    root = logging.getLogger()
    levels = [handler.level for handler in root.handlers]
    if not levels:
        return logging.WARNING  # only logging's last resort, which writes warnings
    return max(root.getEffectiveLevel(), min(levels))
