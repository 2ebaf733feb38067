"""``SqliteBackend``: learned state in one SQLite file (the crawl's ``JOBDIR``).

Durability: SQLite in write-ahead-log mode (``journal_mode=WAL``). Writes are grouped in a
transaction, committed by the first write ``commit_seconds`` (default 1 s) or more after it
began, and by :meth:`flush`/:meth:`close`; the crawl calls :meth:`flush` every second, so a
process killed with ``kill -9`` loses at most about the last second of learning, and never
corrupts the file: an uncommitted transaction is simply not in the WAL, and SQLite replays
or ignores the WAL on the next open. The file is read on demand, so reopening a big state
costs nothing up front.

One connection, used under a lock, so the reactor thread and a worker thread can share it.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from scrapy_webclean.state.backend import Key, Op, run_each

_SCHEMA = """
CREATE TABLE IF NOT EXISTS counters (tab TEXT, key, value REAL, PRIMARY KEY (tab, key))
    WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS kv (tab TEXT, key, value BLOB, PRIMARY KEY (tab, key))
    WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS lists (tab TEXT, key INTEGER, value INTEGER);
CREATE INDEX IF NOT EXISTS lists_key ON lists (tab, key);
CREATE TABLE IF NOT EXISTS records (tab TEXT, num INTEGER, value BLOB, PRIMARY KEY (tab, num))
    WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sequences (tab TEXT PRIMARY KEY, n INTEGER) WITHOUT ROWID;
"""
#: SQLite's limit on ``?`` parameters per statement is 32766; stay well below.
_CHUNK = 500


def _chunks(seq: Sequence[Any]) -> Iterable[Sequence[Any]]:
    for start in range(0, len(seq), _CHUNK):
        yield seq[start : start + _CHUNK]


class SqliteBackend:
    """:class:`~scrapy_webclean.state.backend.StateBackend` in a SQLite file."""

    name = "sqlite"
    remote = False

    def __init__(self, path: str | Path, commit_seconds: float = 1.0) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.commit_seconds = commit_seconds
        self._db = sqlite3.connect(
            str(self.path), isolation_level=None, check_same_thread=False, timeout=30
        )
        self._lock = threading.RLock()
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)
        self._open_since: float | None = None  # time of the open transaction's first write
        self._atomic = 0  # open atomic() blocks

    # -- transactions ----------------------------------------------------------------

    def _write(self) -> sqlite3.Connection:
        """The connection, inside a write transaction (committed by time). The transaction
        takes the write lock as it begins (``BEGIN IMMEDIATE``): one that read first and
        wrote after would fail at once with "database is locked" when another process
        (a cleaning worker) committed meanwhile, instead of waiting its turn."""
        now = time.monotonic()
        if self._open_since is None:
            self._db.execute("BEGIN IMMEDIATE")
            self._open_since = now
        elif now - self._open_since >= self.commit_seconds:
            self._db.execute("COMMIT")
            self._db.execute("BEGIN IMMEDIATE")
            self._open_since = now
        return self._db

    @contextmanager
    def _txn(self) -> Iterator[sqlite3.Connection]:
        """The connection for one write operation; with ``commit_seconds <= 0`` the
        operation is committed at once (for a file several processes write)."""
        db = self._write()
        yield db
        if self.commit_seconds <= 0 and not self._atomic:
            db.execute("COMMIT")
            self._open_since = None

    @contextmanager
    def atomic(self) -> Iterator[None]:
        """The writes made inside are committed together at its end (with
        ``commit_seconds <= 0``; otherwise they share the timed transaction anyway): a
        process killed half-way leaves none of them."""
        self._atomic += 1
        try:
            yield
        finally:
            self._atomic -= 1
            if not self._atomic and self.commit_seconds <= 0:
                self.flush()

    def flush(self) -> None:
        with self._lock:
            if self._open_since is not None:
                self._db.execute("COMMIT")
                self._open_since = None

    def close(self) -> None:
        with self._lock:
            self.flush()
            self._db.close()

    def _select(
        self, sql: str, table: str, keys: Sequence[Any], order: str = ""
    ) -> list[tuple[Any, Any]]:
        """The rows of ``sql`` (``... WHERE tab = ? AND <column>``) whose column is one of
        ``keys``, asked in chunks that stay under SQLite's parameter limit."""
        rows: list[tuple[Any, Any]] = []
        with self._lock:
            for chunk in _chunks(keys):
                marks = ",".join("?" * len(chunk))
                rows += self._db.execute(f"{sql} IN ({marks}) {order}", (table, *chunk))
        return rows

    # -- counters --------------------------------------------------------------------

    def get_counts(self, table: str, keys: Sequence[Key]) -> list[float]:
        found = dict(
            self._select("SELECT key, value FROM counters WHERE tab = ? AND key", table, keys)
        )
        return [found.get(key, 0.0) for key in keys]

    def add_counts(self, table: str, deltas: Iterable[tuple[Key, float]]) -> None:
        rows = [(table, key, delta) for key, delta in deltas]
        if not rows:
            return
        with self._lock, self._txn() as db:
            db.executemany(
                "INSERT INTO counters VALUES (?, ?, ?) "
                "ON CONFLICT (tab, key) DO UPDATE SET value = value + excluded.value",
                rows,
            )

    def count_keys(self, table: str) -> int:
        with self._lock:
            row = self._db.execute("SELECT COUNT(*) FROM counters WHERE tab = ?", (table,))
            return int(row.fetchone()[0])

    def keep_top(self, table: str, keep: int) -> None:
        with self._lock, self._txn() as db:
            db.execute(
                "DELETE FROM counters WHERE tab = ? AND key NOT IN "
                "(SELECT key FROM counters WHERE tab = ? ORDER BY value DESC LIMIT ?)",
                (table, table, keep),
            )

    def get_values(self, table: str, keys: Sequence[Key]) -> list[bytes | None]:
        found = dict(self._select("SELECT key, value FROM kv WHERE tab = ? AND key", table, keys))
        return [found.get(key) for key in keys]

    def claim(self, table: str, key: Key, value: bytes) -> bytes | None:
        with self._lock, self._txn() as db:
            row = db.execute("SELECT value FROM kv WHERE tab = ? AND key = ?", (table, key))
            held = row.fetchone()
            if held is not None:
                return bytes(held[0])
            db.execute("INSERT INTO kv VALUES (?, ?, ?)", (table, key, value))
            return None

    def append(self, table: str, items: Iterable[tuple[int, int]], cap: int) -> None:
        rows = [(table, key, value, table, key, cap) for key, value in items]
        if not rows:
            return
        with self._lock, self._txn() as db:
            db.executemany(
                "INSERT INTO lists SELECT ?, ?, ? WHERE "
                "(SELECT COUNT(*) FROM lists WHERE tab = ? AND key = ?) < ?",
                rows,
            )

    def get_lists(self, table: str, keys: Sequence[int]) -> list[list[int]]:
        found: dict[int, list[int]] = {}
        sql = "SELECT key, value FROM lists WHERE tab = ? AND key"
        for key, value in self._select(sql, table, keys, "ORDER BY rowid"):
            found.setdefault(key, []).append(value)
        return [found.get(key, []) for key in keys]

    def add_record(self, table: str, value: bytes) -> int:
        with self._lock, self._txn() as db:
            row = db.execute(
                "INSERT INTO sequences VALUES (?, 1) "
                "ON CONFLICT (tab) DO UPDATE SET n = n + 1 RETURNING n",
                (table,),
            )
            number = int(row.fetchone()[0]) - 1
            db.execute("INSERT INTO records VALUES (?, ?, ?)", (table, number, value))
            return number

    def get_records(self, table: str, numbers: Sequence[int]) -> list[bytes | None]:
        sql = "SELECT num, value FROM records WHERE tab = ? AND num"
        found = dict(self._select(sql, table, numbers))
        return [found.get(number) for number in numbers]

    def set_record(self, table: str, number: int, value: bytes) -> None:
        with self._lock, self._txn() as db:
            db.execute(
                "UPDATE records SET value = ? WHERE tab = ? AND num = ?", (value, table, number)
            )

    def count_records(self, table: str) -> int:
        with self._lock:
            row = self._db.execute("SELECT n FROM sequences WHERE tab = ?", (table,)).fetchone()
            return int(row[0]) if row else 0

    def run(self, ops: Sequence[Op]) -> list[Any]:
        with self._lock:
            return run_each(self, ops)
