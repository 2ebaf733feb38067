"""The one storage interface behind everything that learns during a crawl.

The three learning parts (image-link statistics, site templates, the near-duplicate
index) keep their state in a :class:`StateBackend`: five kinds of table, each named by a
string, every operation batched over many keys:

* **counters** (``get_counts``/``add_counts``/``count_keys``/``keep_top``): numbers by key;
* **values** (``get_values``/``claim``): bytes by key, written once (``claim`` is the
  atomic put-if-absent that closes the query-then-insert race between processes);
* **lists** (``append``/``get_lists``): short lists of integers by key, capped;
* **records** (``add_record``/``get_records``/``set_record``/``count_records``): bytes
  numbered 0, 1, 2 ... in the order added; ``add_record`` allocates the number and stores
  the bytes atomically, so another process never sees a number without its record;
* and :meth:`StateBackend.run`, which runs several of these as one round trip where the
  backend has round trips (Redis pipelines them).

Values are plain bytes and numbers: nothing is ever pickled. The stores in
:mod:`scrapy_webclean.state.stores` build the models' own store interfaces on top, so a new
backend implements this protocol and nothing else. :class:`MemoryBackend` is the reference
implementation (the tests run every backend against it).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

#: A table key: counters and values take strings or integers, lists integers.
Key = str | int
#: One operation for :meth:`StateBackend.run`: the method's name and its arguments.
Op = tuple[Any, ...]


class StateBackend(Protocol):
    """Where learned state lives (memory, SQLite in the JOBDIR, Redis)."""

    #: ``memory``, ``sqlite``, ``redis``.
    name: str
    #: True when a call can wait on the network: the crawl then calls it off the reactor.
    remote: bool

    def get_counts(self, table: str, keys: Sequence[Key]) -> list[float]:
        """The counters' values (0 for a key never counted)."""
        ...

    def add_counts(self, table: str, deltas: Iterable[tuple[Key, float]]) -> None:
        """Add each delta to its counter."""
        ...

    def count_keys(self, table: str) -> int:
        """How many counters the table holds."""
        ...

    def keep_top(self, table: str, keep: int) -> None:
        """Drop all but the ``keep`` largest counters of the table."""
        ...

    def get_values(self, table: str, keys: Sequence[Key]) -> list[bytes | None]:
        """The values stored under the keys (None where there is none)."""
        ...

    def claim(self, table: str, key: Key, value: bytes) -> bytes | None:
        """Store ``value`` under ``key`` unless the key has one; atomic. Returns the value
        already there, or None when this call stored it."""
        ...

    def append(self, table: str, items: Iterable[tuple[int, int]], cap: int) -> None:
        """Append each ``(key, value)`` to the list under ``key`` unless it holds ``cap``."""
        ...

    def get_lists(self, table: str, keys: Sequence[int]) -> list[list[int]]:
        """The lists under the keys, in the order appended (empty for unknown keys)."""
        ...

    def add_record(self, table: str, value: bytes) -> int:
        """Store a record; returns its number (0, 1, 2 ... per table)."""
        ...

    def get_records(self, table: str, numbers: Sequence[int]) -> list[bytes | None]:
        """The records with these numbers (None for a number not stored)."""
        ...

    def set_record(self, table: str, number: int, value: bytes) -> None:
        """Replace a stored record."""
        ...

    def count_records(self, table: str) -> int:
        """How many records the table has numbered."""
        ...

    def run(self, ops: Sequence[Op]) -> list[Any]:
        """Run ``(method name, *arguments)`` operations in order, as one round trip where
        the backend can; returns their results."""
        ...

    def flush(self) -> None:
        """Make everything written so far durable (a no-op where it already is)."""
        ...

    def close(self) -> None:
        """Flush and release the backend."""
        ...


#: The operations :meth:`StateBackend.run` accepts.
OPERATIONS = frozenset(
    (
        "get_counts",
        "add_counts",
        "count_keys",
        "keep_top",
        "get_values",
        "claim",
        "append",
        "get_lists",
        "add_record",
        "get_records",
        "set_record",
        "count_records",
    )
)


def run_each(backend: StateBackend, ops: Sequence[Op]) -> list[Any]:
    """:meth:`StateBackend.run` for a backend without round trips: one call at a time."""
    results = []
    for name, *args in ops:
        if name not in OPERATIONS:
            raise ValueError(f"unknown state operation {name!r}")
        results.append(getattr(backend, name)(*args))
    return results


class MemoryBackend:
    """:class:`StateBackend` in this process's memory (the reference implementation).

    The crawl's default ``memory`` state uses the models' own compact in-memory stores
    instead; this one exists so that every store over the generic interface can be tested
    without a server, and as the model for a new backend.
    """

    name = "memory"
    remote = False

    def __init__(self) -> None:
        self._counters: defaultdict[str, dict[Key, float]] = defaultdict(dict)
        self._values: defaultdict[str, dict[Key, bytes]] = defaultdict(dict)
        self._lists: defaultdict[str, dict[int, list[int]]] = defaultdict(dict)
        self._records: defaultdict[str, list[bytes]] = defaultdict(list)

    def get_counts(self, table: str, keys: Sequence[Key]) -> list[float]:
        counters = self._counters.get(table, {})
        return [counters.get(key, 0.0) for key in keys]

    def add_counts(self, table: str, deltas: Iterable[tuple[Key, float]]) -> None:
        counters = self._counters[table]
        for key, delta in deltas:
            counters[key] = counters.get(key, 0.0) + delta

    def count_keys(self, table: str) -> int:
        return len(self._counters.get(table, ()))

    def keep_top(self, table: str, keep: int) -> None:
        counters = self._counters.get(table)
        if counters and len(counters) > keep:
            kept = sorted(counters.items(), key=lambda kv: kv[1], reverse=True)[:keep]
            self._counters[table] = dict(kept)

    def get_values(self, table: str, keys: Sequence[Key]) -> list[bytes | None]:
        values = self._values.get(table, {})
        return [values.get(key) for key in keys]

    def claim(self, table: str, key: Key, value: bytes) -> bytes | None:
        values = self._values[table]
        held = values.get(key)
        if held is None:
            values[key] = value
        return held

    def append(self, table: str, items: Iterable[tuple[int, int]], cap: int) -> None:
        lists = self._lists[table]
        for key, value in items:
            entries = lists.setdefault(key, [])
            if len(entries) < cap:
                entries.append(value)

    def get_lists(self, table: str, keys: Sequence[int]) -> list[list[int]]:
        lists = self._lists.get(table, {})
        return [list(lists.get(key, ())) for key in keys]

    def add_record(self, table: str, value: bytes) -> int:
        records = self._records[table]
        records.append(value)
        return len(records) - 1

    def get_records(self, table: str, numbers: Sequence[int]) -> list[bytes | None]:
        records = self._records.get(table, [])
        return [records[n] if 0 <= n < len(records) else None for n in numbers]

    def set_record(self, table: str, number: int, value: bytes) -> None:
        self._records[table][number] = value

    def count_records(self, table: str) -> int:
        return len(self._records.get(table, ()))

    def run(self, ops: Sequence[Op]) -> list[Any]:
        return run_each(self, ops)

    def flush(self) -> None:
        pass

    def close(self) -> None:
        pass
