"""Where each table of the learned state lives in Redis: a layout that shards.

Every table is split into :attr:`RedisLayout.buckets` hashes, ``<prefix><table>:{b}``, a
key going to bucket ``b`` by the CRC-32 of the key as it is stored (most keys are
already hashes: of a sentence, a band, a page's site). The
``{b}`` is a Redis Cluster hash tag: every key of bucket ``b`` (of any table) is in one
slot, so a Lua script over one bucket's keys runs on one node, and the buckets spread
over the cluster's nodes. Records go to the buckets in turn: bucket ``b``'s counter
``<prefix><table>:n:{b}`` numbers them ``n * buckets + b`` (a lone writer numbers them 0,
1, 2 ... as before), and the counter and its records share their slot, so one script
allocates a number and stores its record at once; ``<prefix><table>:count`` counts a
table's records.

The count of buckets is written into the store on first use (``<prefix>layout``) and
checked on start: a crawl that names another count stops with an error naming
``WEBCLEAN_REDIS_BUCKETS``; a store of the layout before buckets (one hash per table)
stops it with the command that moves it over (``scrapy webclean state migrate``). The
prefix may not hold ``{`` or ``}``: a hash tag in it would put every key in one slot.
"""

from __future__ import annotations

import zlib
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

#: Buckets per table unless ``WEBCLEAN_REDIS_BUCKETS`` says otherwise. A batch sends one
#: command a bucket it touches, so Redis's CPU per document grows with the count; the
#: largest key shrinks with it (0.3% of the index at 128), and 128 buckets' hash tags
#: fall within 6% of an even split over three masters (``benchmarks/state_cluster.py``).
DEFAULT_BUCKETS = 128
#: What the layout key holds: the layout's version and the count of buckets.
LAYOUT_VERSION = 2
#: The table whose old-layout counter says a store predates buckets.
OLD_LAYOUT_PROBE = "dd:docs:n"


class LayoutMismatch(ValueError):
    """The store holds another layout than the crawl names."""


def bucket_of(key: Any, buckets: int) -> int:
    """The bucket of a table key: the CRC-32 of the key as Redis stores it (an integer
    key's decimal digits) modulo ``buckets``, so that a field read back from Redis finds
    its bucket again (``scrapy webclean state migrate``)."""
    return zlib.crc32(str(key).encode("utf-8")) % buckets


class RedisLayout:
    """The key names of a store under ``prefix`` with ``buckets`` buckets per table."""

    def __init__(self, prefix: str, buckets: int = DEFAULT_BUCKETS) -> None:
        if "{" in prefix or "}" in prefix:
            raise ValueError(
                f"WEBCLEAN_REDIS_PREFIX may not hold '{{' or '}}' (a Redis Cluster hash tag "
                f"would put every key in one slot): {prefix!r}"
            )
        if not isinstance(buckets, int) or isinstance(buckets, bool) or buckets < 1:
            raise ValueError(f"WEBCLEAN_REDIS_BUCKETS must be a positive integer, not {buckets!r}")
        self.prefix = prefix
        self.buckets = buckets
        self.layout_key = f"{prefix}layout"
        self.stamp = f"version={LAYOUT_VERSION} buckets={buckets}".encode()

    def table(self, table: str, bucket: int) -> str:
        """The hash of a table's bucket."""
        return f"{self.prefix}{table}:{{{bucket}}}"

    def counter(self, table: str, bucket: int) -> str:
        """The record counter of a table's bucket (in the bucket's slot)."""
        return f"{self.prefix}{table}:n:{{{bucket}}}"

    def total(self, table: str) -> str:
        """The count of a table's records."""
        return f"{self.prefix}{table}:count"

    def by_bucket(self, keys: Sequence[Any], records: bool = False) -> dict[int, list[int]]:
        """The positions of ``keys`` (record numbers when ``records``), grouped by bucket
        (in the keys' order within one)."""
        groups: dict[int, list[int]] = defaultdict(list)
        buckets = self.buckets
        for at, key in enumerate(keys):
            groups[key % buckets if records else bucket_of(key, buckets)].append(at)
        return groups

    def items_by_bucket(self, items: Iterable[tuple[Any, Any]]) -> dict[int, list[tuple[Any, Any]]]:
        """``(key, value)`` items grouped by their key's bucket, in order within one."""
        groups: dict[int, list[tuple[Any, Any]]] = defaultdict(list)
        for key, value in items:
            groups[bucket_of(key, self.buckets)].append((key, value))
        return groups

    def record_bucket(self, number: int) -> int:
        """The bucket a record's number is in."""
        return number % self.buckets

    def check(self, client: Any, migrating: bool = False) -> None:
        """Write this layout into an empty store, or check the one it holds: another
        count of buckets, or the layout before buckets (unless ``migrating`` from it),
        raises :class:`LayoutMismatch`."""
        held = client.get(self.layout_key)
        if held is None:
            if not migrating and client.exists(self.prefix + OLD_LAYOUT_PROBE):
                raise LayoutMismatch(
                    f"Redis keys {self.prefix}* hold the learned state of an older "
                    "scrapy-webclean (one hash per table). Move it to the sharded layout "
                    "first: scrapy webclean state migrate"
                )
            client.set(self.layout_key, self.stamp, nx=True)
            held = client.get(self.layout_key)
        if held != self.stamp:
            raise LayoutMismatch(
                f"Redis keys {self.prefix}* were written with another layout "
                f"({held.decode('utf-8', 'replace')}) than WEBCLEAN_REDIS_BUCKETS = "
                f"{self.buckets} names: keep the store's count, or start another prefix "
                "(WEBCLEAN_REDIS_PREFIX)"
            )
