"""``scrapy webclean state migrate``: a store of the layout before buckets (one hash per
table, ``<prefix><table>``, and ``<prefix><table>:n`` counting a table's records) copied
into the sharded layout (:mod:`scrapy_webclean.state.redislayout`), so that a running
project's learning is not lost.

The source is read with ``SCAN`` and ``HSCAN`` (a 90 GB hash is never read whole) and the
target written in pipelines of :data:`BATCH` fields; a record keeps its number (the lists
of the dedup index name records by number), in the bucket that number belongs to, and
each bucket's counter starts past the numbers it holds. The source keys are left as they
were (``--delete-old`` deletes them once the copy is done): the target's layout key
marks the store as migrated, so a crawl started afterwards reads the new keys.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from scrapy_webclean.state.redis import RedisBackend
from scrapy_webclean.state.redislayout import bucket_of

#: Fields written a pipeline.
BATCH = 1000
#: Suffix of an old-layout record counter.
_COUNTER = b":n"


@dataclass
class Migration:
    """What a migration copied: fields per table, and the tables of records."""

    fields: dict[str, int] = field(default_factory=dict)
    records: dict[str, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.fields.values())


def _old_tables(source: Any, prefix: str) -> tuple[list[str], set[str]]:
    """The old layout's tables under ``prefix`` and which of them hold records."""
    tables: set[str] = set()
    counters: set[str] = set()
    start = prefix.encode()
    for raw in source.scan_iter(match=prefix + "*", count=1000):
        key = bytes(raw)
        rest = key[len(start) :]
        if b"{" in rest or rest == b"layout":
            continue  # (a key of the new layout)
        if rest.endswith(_COUNTER) and source.type(key) == b"string":
            counters.add(rest[: -len(_COUNTER)].decode())
        elif source.type(key) == b"hash":
            tables.add(rest.decode())
    return sorted(tables), counters


def migrate(
    source: Any,
    target: RedisBackend,
    prefix: str,
    delete_old: bool = False,
    progress: Callable[[str, int], None] | None = None,
) -> Migration:
    """Copy the old-layout tables under ``prefix`` of ``source`` (a redis-py client of the
    single node) into ``target`` (a :class:`RedisBackend` of the new layout, the same
    server or a cluster); ``progress(table, fields)`` hears of each table copied."""
    target.check_layout(migrating=True)
    layout = target.layout
    done = Migration()
    tables, with_records = _old_tables(source, prefix)
    for table in sorted(set(tables) | with_records):
        name = prefix + table
        copied = 0
        highest: dict[int, int] = {}
        pipe = target.pipeline()
        for raw_field, value in source.hscan_iter(name, count=BATCH):
            key = bytes(raw_field).decode()
            if table in with_records:
                number = int(key)
                bucket = layout.record_bucket(number)
                highest[bucket] = max(highest.get(bucket, -1), number // layout.buckets)
            else:
                bucket = bucket_of(key, layout.buckets)
            pipe.hset(layout.table(table, bucket), key, value)
            copied += 1
            if len(pipe) >= BATCH:
                target.execute(pipe)
                pipe = target.pipeline()
        if table in with_records:
            held = source.get(name + ":n")
            count = int(held) if held is not None else copied
            for bucket, top in highest.items():
                pipe.set(layout.counter(table, bucket), top + 1)
            pipe.set(layout.total(table), count)
            done.records[table] = count
        target.execute(pipe)
        done.fields[table] = copied
        if progress is not None:
            progress(table, copied)
        if delete_old:
            source.unlink(name)
            if table in with_records:
                source.unlink(name + ":n")
    return done
