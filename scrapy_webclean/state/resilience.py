"""What the crawl does when a remote store goes away.

Two wrappers around a remote :class:`~scrapy_webclean.state.backend.StateBackend`:

* :class:`Retrying` is for work that must not go on without the store (the near-duplicate
  check: skipping it could export a page twice). It runs in a worker thread, never on the
  reactor, and retries with exponential back-off (0.5 s, 1 s, 2 s ... at most
  ``max_backoff``), logging each failure, for up to ``give_up_after`` seconds (and no
  longer than ``stopping_give_up_after`` after ``stopping()`` first says the crawl is
  stopping, for all calls together, so a Ctrl-C is not held up for minutes); then it raises :class:`StateUnavailable` and the caller
  decides (the dedup pipeline passes the item on, marked unchecked and counted).
* :class:`Lenient` is for learning that can pause (image-link statistics, site templates,
  called on the reactor): it never waits. While the store is down, reads see an empty
  state (counted in ``empty_answers``, so a caller can tell a decision made on an empty
  view); counter increments and put-if-absent claims are kept (merged, up to
  ``max_pending`` entries) and written when the store is back: on the next call after the
  back-off, on :meth:`Lenient.flush` (the crawl calls it every few seconds) and at
  :meth:`Lenient.close`. Other writes, the kept ones beyond ``max_pending``, and what is
  still kept when the store does not answer at close are lost, and counted in
  ``lost_writes`` (and reported to ``on_lost``). It logs when the store is back.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from scrapy_webclean.state.backend import Key, Op, StateBackend

logger = logging.getLogger(__name__)


class StateUnavailable(Exception):
    """The state store cannot be reached."""


class ViaRun:
    """The :class:`StateBackend` methods, each as a one-operation :meth:`run`."""

    def run(self, ops: Sequence[Op]) -> list[Any]:
        raise NotImplementedError

    def get_counts(self, table: str, keys: Sequence[Key]) -> list[float]:
        result: list[float] = self.run([("get_counts", table, keys)])[0]
        return result

    def add_counts(self, table: str, deltas: Iterable[tuple[Key, float]]) -> None:
        self.run([("add_counts", table, list(deltas))])

    def count_keys(self, table: str) -> int:
        return int(self.run([("count_keys", table)])[0])

    def keep_top(self, table: str, keep: int) -> None:
        self.run([("keep_top", table, keep)])

    def get_values(self, table: str, keys: Sequence[Key]) -> list[bytes | None]:
        result: list[bytes | None] = self.run([("get_values", table, keys)])[0]
        return result

    def claim(self, table: str, key: Key, value: bytes) -> bytes | None:
        result: bytes | None = self.run([("claim", table, key, value)])[0]
        return result

    def append(self, table: str, items: Iterable[tuple[int, int]], cap: int) -> None:
        self.run([("append", table, list(items), cap)])

    def get_lists(self, table: str, keys: Sequence[int]) -> list[list[int]]:
        result: list[list[int]] = self.run([("get_lists", table, keys)])[0]
        return result

    def add_record(self, table: str, value: bytes) -> int:
        return int(self.run([("add_record", table, value)])[0])

    def get_records(self, table: str, numbers: Sequence[int]) -> list[bytes | None]:
        result: list[bytes | None] = self.run([("get_records", table, numbers)])[0]
        return result

    def set_record(self, table: str, number: int, value: bytes) -> None:
        self.run([("set_record", table, number, value)])

    def count_records(self, table: str) -> int:
        return int(self.run([("count_records", table)])[0])


class _Wrapper(ViaRun):
    def __init__(self, backend: StateBackend) -> None:
        self.backend = backend
        self.name = backend.name
        self.remote = backend.remote

    def flush(self) -> None:
        self.backend.flush()

    def close(self) -> None:
        self.backend.close()


class Retrying(_Wrapper):
    """Retries a failing remote store with back-off (call it off the reactor)."""

    def __init__(
        self,
        backend: StateBackend,
        give_up_after: float = 300.0,
        max_backoff: float = 30.0,
        sleep: Callable[[float], None] | None = None,
        stopping: Callable[[], bool] | None = None,
        stopping_give_up_after: float = 10.0,
    ) -> None:
        super().__init__(backend)
        self.give_up_after = give_up_after
        self.max_backoff = max_backoff
        self.stopping_give_up_after = stopping_give_up_after
        self._stopping = stopping
        #: Set by :meth:`stop`: a back-off in progress ends at once.
        self._stop = threading.Event()
        self._sleep = sleep if sleep is not None else self._stop.wait
        self._stopping_since: float | None = None
        #: Failed attempts so far (all calls).
        self.failures = 0

    def stop(self) -> None:
        """Wake a call waiting in its back-off: it gives up."""
        self._stop.set()

    def _given_up(self, started: float) -> bool:
        """Whether a call that started at ``started`` waited long enough: past
        ``give_up_after``, or ``stopping_give_up_after`` past the moment the crawl was
        first seen stopping (for every call from then on, not each anew), or stopped."""
        now = time.monotonic()
        if self._stop.is_set() or now - started >= self.give_up_after:
            return True
        if self._stopping is None or not self._stopping():
            return False
        if self._stopping_since is None:
            self._stopping_since = now
        return now - self._stopping_since >= self.stopping_give_up_after

    def _back_off(self, started: float, delay: float) -> None:
        """Wait ``delay`` seconds, in slices of at most a second, so that a crawl that
        starts stopping meanwhile is not kept waiting for a long back-off."""
        slept = 0.0
        while slept < delay and not self._given_up(started):
            step = min(delay - slept, 1.0)
            self._sleep(step)
            slept += step

    def run(self, ops: Sequence[Op]) -> list[Any]:
        started = time.monotonic()
        delay = 0.5
        failed = False
        while True:
            try:
                results = self.backend.run(ops)
            except StateUnavailable as exc:
                self.failures += 1
                failed = True
                if self._given_up(started):
                    waited = time.monotonic() - started
                    raise StateUnavailable(f"{exc} (gave up after {waited:.0f} s)") from exc
                logger.error("webclean state: %s; retrying in %.1f s", exc, delay)
                self._back_off(started, delay)
                delay = min(delay * 2, self.max_backoff)
                continue
            if failed:
                logger.warning("webclean state: %s is back", self.name)
            return results


#: What each operation returns while the store is down (see :class:`Lenient`).
_EMPTY: dict[str, Callable[[tuple[Any, ...]], Any]] = {
    "get_counts": lambda op: [0.0] * len(op[2]),
    "count_keys": lambda op: 0,
    "get_values": lambda op: [None] * len(op[2]),
    "get_lists": lambda op: [[] for _ in op[2]],
    "get_records": lambda op: [None] * len(op[2]),
    "count_records": lambda op: 0,
}


class Lenient(_Wrapper):
    """Never waits on a failing remote store: empty reads, kept or dropped writes, retried
    later (see the module docstring)."""

    def __init__(
        self,
        backend: StateBackend,
        max_backoff: float = 30.0,
        max_pending: int = 200_000,
        on_lost: Callable[[int], None] | None = None,
    ) -> None:
        super().__init__(backend)
        #: Called with the number of writes just lost (the crawl counts them in stats).
        self.on_lost = on_lost
        self.max_backoff = max_backoff
        self.max_pending = max_pending
        self._pending: dict[str, dict[Any, float]] = {}  # table -> key -> delta, while down
        self._claims: dict[tuple[str, Any], bytes] = {}  # (table, key) -> value, while down
        self._pending_size = 0
        self._down_until = 0.0
        self._delay = 0.5
        self._lock = threading.RLock()
        #: Writes lost (dropped while the store was down, or kept and never written).
        self.lost_writes = 0
        #: Times the store was found down.
        self.failures = 0
        #: Reads answered with an empty state because the store was down.
        self.empty_answers = 0

    @property
    def down(self) -> bool:
        return self._down_until > 0.0

    @property
    def pending(self) -> int:
        """Writes kept while the store is away, not yet written."""
        return self._pending_size

    def _waiting(self) -> bool:
        return bool(self._down_until) and time.monotonic() < self._down_until

    def run(self, ops: Sequence[Op]) -> list[Any]:
        with self._lock:
            if self._waiting():
                return self._empty(ops)
            try:
                if self._pending_size:
                    self._replay()
                results = self.backend.run(ops)
            except StateUnavailable as exc:
                self._went_down(exc)
                return self._empty(ops)
            self._came_back()
            return results

    def flush(self) -> None:
        """Write the writes kept while the store was away, if it answers again (not before
        the back-off ends); never raises for an unavailable store."""
        with self._lock:
            if self._pending_size and not self._waiting():
                try:
                    self._replay()
                except StateUnavailable as exc:
                    self._went_down(exc)
                    return
                self._came_back()
        self.backend.flush()

    def finish(self) -> None:
        """One last try to write what was kept (the back-off ignored); what the store does
        not take then is lost and counted."""
        with self._lock:
            if not self._pending_size:
                return
            try:
                self._replay()
            except StateUnavailable as exc:
                lost = self._pending_size
                self._pending, self._claims, self._pending_size = {}, {}, 0
                logger.error(
                    "webclean state: %s at close; %d learning writes kept while it was "
                    "away are lost",
                    exc,
                    lost,
                )
                self._lose(lost)
                return
            self._came_back()

    def close(self) -> None:
        """:meth:`finish`, then close the backend."""
        self.finish()
        self.backend.close()

    def _went_down(self, exc: StateUnavailable) -> None:
        self.failures += 1
        logger.error(
            "webclean state: %s; learning paused, trying again in %.1f s", exc, self._delay
        )
        self._down_until = time.monotonic() + self._delay
        self._delay = min(self._delay * 2, self.max_backoff)

    def _came_back(self) -> None:
        if self._down_until:
            logger.warning("webclean state: %s is back; learning again", self.name)
            self._down_until, self._delay = 0.0, 0.5

    def _lose(self, count: int) -> None:
        self.lost_writes += count
        if self.on_lost is not None:
            self.on_lost(count)

    def _replay(self) -> None:
        """Write the counter increments and claims kept while the store was down (one
        round trip; kept until it succeeds)."""
        ops: list[Op] = [
            ("add_counts", table, list(deltas.items())) for table, deltas in self._pending.items()
        ]
        ops += [("claim", table, key, value) for (table, key), value in self._claims.items()]
        self.backend.run(ops)
        logger.warning(
            "webclean state: %d learning writes kept while %s was away written",
            self._pending_size,
            self.name,
        )
        self._pending, self._claims, self._pending_size = {}, {}, 0

    def _empty(self, ops: Sequence[Op]) -> list[Any]:
        results: list[Any] = []
        for op in ops:
            empty = _EMPTY.get(op[0])
            if empty is not None:
                self.empty_answers += 1
                results.append(empty(op))
                continue
            results.append(None)
            if op[0] == "add_counts" and self._keep(op[1], op[2]):
                continue
            if op[0] == "claim" and self._keep_claim(op[1], op[2], op[3]):
                continue
            self._lose(1)
        return results

    def _keep_claim(self, table: str, key: Key, value: bytes) -> bool:
        """Keep a claim for later (the store decides then whether it was the first);
        False when there is no room left."""
        if (table, key) in self._claims:
            return True
        if self._pending_size >= self.max_pending:
            return False
        self._claims[(table, key)] = value
        self._pending_size += 1
        return True

    def _keep(self, table: str, deltas: Iterable[tuple[Key, float]]) -> bool:
        """Keep counter increments for later; False when there is no room left."""
        deltas = list(deltas)
        kept = self._pending.get(table)
        if kept is None:
            if self._pending_size + len(deltas) > self.max_pending:
                return False
            kept = self._pending[table] = {}
        for key, delta in deltas:
            if key not in kept:
                if self._pending_size >= self.max_pending:
                    return False
                self._pending_size += 1
                kept[key] = 0.0
            kept[key] += delta
        return True
