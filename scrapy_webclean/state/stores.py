"""The three models' stores over any :class:`~scrapy_webclean.state.backend.StateBackend`.

* :class:`BackendAdStatsStore`: the image-link counters (``AdStatsStore``);
* :class:`BackendTemplateStore`: the per-site line signatures (``TemplateStore``);
* :class:`BackendDedupStore`: the near-duplicate index's documents (``DedupStore``).

Tables (under the backend's own prefix): ``ads:<site>:<family>`` and ``tpl:<site>``
(counters); ``tplurl:<site>`` (counters: the pages of the site learned last, by URL hash,
each counting when it was learned); ``dd:docs`` (records: one per document, in the plain binary layout of
:func:`encode_doc`), ``dd:exact`` (values: exact hash -> key of the first copy),
``dd:post`` and ``dd:band`` (lists: sentence hash or LSH band key -> documents),
``dd:postn`` (counters: documents per sentence hash); the list pages' index has the same
tables under ``ddl:``. A new text costs the dedup store
four round trips: one look (exact hash, postings, bands, count), one fetch of the
candidates, one atomic add, one write of its postings.

Per-site counters stay bounded as in memory: when a table passes its cap, the smallest
half is pruned. The sites themselves are not evicted (on disk and in Redis they are cheap;
give Redis a ``maxmemory`` if they are not).
"""

from __future__ import annotations

import hashlib
import struct
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import replace
from typing import Any

import numpy as np

from scrapy_webclean.dedup.store import (
    POSTING_CAP,
    Lookup,
    NewDoc,
    Query,
    StoredDoc,
    band_keys,
)
from scrapy_webclean.state.backend import StateBackend

#: Check a counter table's size every this many additions to it.
_PRUNE_EVERY = 64
_PAGES_KEY = "#pages"
#: Learned page URLs remembered per site (``tplurl:<site>``, about 60 to 100 bytes each on
#: disk or in Redis); past it the most recently learned half is kept.
MAX_LEARNED_URLS_PER_SITE = 10_000


def signed64(value: int) -> int:
    """A 64-bit unsigned value as the signed integer stores take."""
    return value - (1 << 64) if value >= 1 << 63 else value


class _Pruner:
    """Counts additions per table and says when to check a table's size."""

    def __init__(self) -> None:
        self._adds: Counter[str] = Counter()

    def due(self, table: str) -> bool:
        self._adds[table] += 1
        if self._adds[table] % _PRUNE_EVERY:
            return False
        if len(self._adds) > 10_000:
            self._adds.clear()
        return True


class BackendAdStatsStore:
    """``AdStatsStore`` over a backend, at most ``max_keys`` counters per family and site."""

    def __init__(self, backend: StateBackend, max_keys: int = 50_000) -> None:
        self.backend = backend
        self.max_keys = max_keys
        self._pruner = _Pruner()

    def get(self, site: str, family: str, keys: Sequence[str]) -> list[float]:
        return self.backend.get_counts(f"ads:{site}:{family}", list(keys))

    def add(self, site: str, family: str, deltas: Iterable[tuple[str, float]]) -> None:
        table = f"ads:{site}:{family}"
        deltas = list(deltas)
        if not deltas:
            return
        if self._pruner.due(table):
            _, size = self.backend.run([("add_counts", table, deltas), ("count_keys", table)])
            if size > self.max_keys:
                self.backend.keep_top(table, self.max_keys // 2)
        else:
            self.backend.add_counts(table, deltas)

    def size(self, site: str, family: str) -> int:
        return self.backend.count_keys(f"ads:{site}:{family}")

    def fetch(
        self, site: str, gets: Sequence[tuple[str, Sequence[str]]], sizes: Sequence[str] = ()
    ) -> tuple[list[list[float]], list[int]]:
        ops: list[tuple[object, ...]] = [
            ("get_counts", f"ads:{site}:{family}", list(keys)) for family, keys in gets
        ]
        ops += [("count_keys", f"ads:{site}:{family}") for family in sizes]
        results = self.backend.run(ops)
        return (
            [list(found) for found in results[: len(gets)]],
            [int(size) for size in results[len(gets) :]],
        )

    def add_many(
        self, site: str, updates: Sequence[tuple[str, Iterable[tuple[str, float]]]]
    ) -> None:
        ops: list[tuple[object, ...]] = []
        due: list[str] = []
        for family, deltas in updates:
            listed = list(deltas)
            if not listed:
                continue
            table = f"ads:{site}:{family}"
            ops.append(("add_counts", table, listed))
            if self._pruner.due(table):
                due.append(table)
        if not ops:
            return
        ops += [("count_keys", table) for table in due]
        results = self.backend.run(ops)
        for table, size in zip(due, results[len(results) - len(due) :], strict=True):
            if size is not None and size > self.max_keys:
                self.backend.keep_top(table, self.max_keys // 2)


class BackendTemplateStore:
    """``TemplateStore`` over a backend, at most ``max_keys_per_site`` signatures a site.

    A page cleaned inside :meth:`page` is learned at most once while its URL is among the
    last ``max_urls_per_site // 2`` URLs claimed on its site (often up to
    ``max_urls_per_site``; by the claims' clocks, with several machines), however often
    it is cleaned: its URL is claimed in ``tplurl:<site>`` before its signatures are
    counted, so a crawl killed and resumed with the same JOBDIR or Redis, which fetches
    some pages again, does not count them twice. A claim adds its time in milliseconds
    to a counter by a 64-bit hash of the URL: a first claim reads back its own time; a
    later one finds more and sets the counter to its own time. Past
    ``max_urls_per_site`` counters the table keeps the half claimed last, so a page
    cleaned again after that many other pages of its site were claimed may be learned a
    second time (one page more in its lines' counts). In a JOBDIR the claim and the
    counts are one transaction (``SqliteBackend.atomic``); with Redis, a claim made just
    before a kill, whose counts were not written, leaves that page unlearned, and so do
    two processes claiming one URL at the same moment: never twice. After :meth:`page`,
    :attr:`blind` says whether the page's template was read from a store that did not
    answer (an empty view: the page was cleaned as on a new site), and ``on_blind`` is
    called with its URL.
    """

    def __init__(
        self,
        backend: StateBackend,
        max_keys_per_site: int = 4096,
        on_blind: Callable[[str], None] | None = None,
        max_urls_per_site: int = MAX_LEARNED_URLS_PER_SITE,
    ) -> None:
        self.backend = backend
        self.max_keys_per_site = max_keys_per_site
        self.max_urls_per_site = max_urls_per_site
        self._stamp = 0  # the last claim's time (ms), kept increasing in this process
        self.on_blind = on_blind
        self._pruner = _Pruner()
        self._page: str | None = None
        #: Whether the last page cleaned in :meth:`page` read an unavailable store.
        self.blind = False
        #: Pages cleaned again and not learned again (their URL was learned before).
        self.relearned = 0

    def _empty_answers(self) -> int:
        return int(getattr(self.backend, "empty_answers", 0))

    @contextmanager
    def page(self, url: str | None) -> Iterator[None]:
        """While the page at ``url`` is cleaned (and learned): see the class docstring."""
        before = self._empty_answers()
        self._page, self.blind = url, False
        try:
            yield
        finally:
            self._page = None
            self.blind = self._empty_answers() > before
            if self.blind and url and self.on_blind is not None:
                self.on_blind(url)

    def pages(self, site: str) -> int:
        return int(self.backend.get_counts(f"tpl:{site}", [_PAGES_KEY])[0])

    def counts(self, site: str, keys: Sequence[int]) -> list[int]:
        found = self.backend.get_counts(f"tpl:{site}", [signed64(k) for k in keys])
        return [int(count) for count in found]

    def add_page(self, site: str, keys: Iterable[int]) -> None:
        atomic = getattr(self.backend, "atomic", None)  # (SQLite: claim and counts at once)
        with atomic() if atomic is not None else nullcontext():
            self._add_page(site, keys)

    def _add_page(self, site: str, keys: Iterable[int]) -> None:
        if self._page is not None and self._learned_before(site, url_key(self._page)):
            self.relearned += 1
            return
        table = f"tpl:{site}"
        deltas: list[tuple[str | int, float]] = [(_PAGES_KEY, 1.0)]
        deltas += [(signed64(k), 1.0) for k in set(keys)]
        # (Pruned to the most frequent half: the page counter is the largest of all.)
        self._run_pruned(table, [("add_counts", table, deltas)], self.max_keys_per_site)

    def _run_pruned(self, table: str, ops: list[tuple[object, ...]], cap: int) -> list[Any]:
        """Run ``ops`` in one round trip; when ``table`` is due a size check and holds over
        ``cap`` keys, keep its ``cap // 2`` largest counters. The results of ``ops``."""
        due = self._pruner.due(table)
        if due:
            ops = [*ops, ("count_keys", table)]
        results: list[Any] = self.backend.run(ops)
        if due and results[-1] > cap:
            self.backend.keep_top(table, cap // 2)
        return results

    def _learned_before(self, site: str, key: int) -> bool:
        """Claim a page's URL hash in ``tplurl:<site>``: True when it was claimed before
        (and is still remembered). A store that did not answer (an empty read) has it
        learned, as a claim kept for later did before."""
        table = f"tplurl:{site}"
        self._stamp = stamp = max(self._stamp + 1, int(time.time() * 1000))
        ops: list[tuple[object, ...]] = [
            ("add_counts", table, [(key, float(stamp))]),
            ("get_counts", table, [key]),
        ]
        results = self._run_pruned(table, ops, self.max_urls_per_site)
        value = results[1][0]
        if value in (0.0, stamp):
            return False
        # Claimed before: its counter now holds this time too; make it this time alone
        # (the time of its last claim, which the cap keeps).
        self.backend.add_counts(table, [(key, stamp - value)])
        return True


def url_key(url: str) -> int:
    """A page URL as a signed 64-bit key (BLAKE2b of its UTF-8 bytes)."""
    digest = hashlib.blake2b(url.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return signed64(int.from_bytes(digest, "big"))


# -- the near-duplicate index ------------------------------------------------------------

_HEADER = struct.Struct("<IIiHH")
_COUNT = struct.Struct("<H")
#: The table names' prefix of the article index; list pages have their own index under
#: ``LIST_NAMESPACE`` (``dedup.pageindex``).
DEDUP_NAMESPACE, LIST_NAMESPACE = "dd", "ddl"


def encode_doc(doc: StoredDoc) -> bytes:
    """A stored document as plain bytes: a header, the two keys (UTF-8), the sentence
    hashes (int64), their lengths (uint16), the signature (uint32), then the number of
    figures (uint16) and the figures (int64), then the sentences' sketches (uint32, as
    many as sentences), little-endian."""
    key, first = doc.key.encode("utf-8"), doc.first.encode("utf-8")
    sentences = np.asarray(doc.sentences, dtype="<i8")
    return b"".join(
        (
            _HEADER.pack(len(key), len(first), doc.length, len(sentences), len(doc.signature)),
            key,
            first,
            sentences.tobytes(),
            np.asarray(doc.sentence_chars, dtype="<u2").tobytes(),
            np.asarray(doc.signature, dtype="<u4").tobytes(),
            _COUNT.pack(len(doc.figures)),
            np.asarray(doc.figures, dtype="<i8").tobytes(),
            np.asarray(doc.sketches, dtype="<u4").tobytes(),
        )
    )


def decode_doc(data: bytes) -> StoredDoc:
    """The inverse of :func:`encode_doc`."""
    key_len, first_len, length, n, m = _HEADER.unpack_from(data)
    at = _HEADER.size
    key = data[at : at + key_len].decode("utf-8")
    at += key_len
    first = data[at : at + first_len].decode("utf-8")
    at += first_len
    sentences = np.frombuffer(data, dtype="<i8", count=n, offset=at).astype(np.int64)
    at += 8 * n
    chars = np.frombuffer(data, dtype="<u2", count=n, offset=at).astype(np.uint16)
    at += 2 * n
    signature = np.frombuffer(data, dtype="<u4", count=m, offset=at).astype(np.uint32)
    at += 4 * m
    figures = np.zeros(0, dtype=np.int64)
    sketches = np.zeros(0, dtype=np.int64)
    if at < len(data):  # (records written before figures were kept end here)
        (f,) = _COUNT.unpack_from(data, at)
        at += _COUNT.size
        figures = np.frombuffer(data, dtype="<i8", count=f, offset=at).astype(np.int64)
        at += 8 * f
        if at + 4 * n <= len(data):  # (... and before sketches were, here)
            sketches = np.frombuffer(data, dtype="<u4", count=n, offset=at).astype(np.int64)
    return StoredDoc(key, sentences, signature, length, chars, first, figures, sketches)


class BackendDedupStore:
    """``DedupStore`` over a backend (see the module docstring for the tables)."""

    def __init__(
        self, backend: StateBackend, lsh_bands: int = 16, namespace: str = DEDUP_NAMESPACE
    ) -> None:
        self.backend = backend
        self.lsh_bands = lsh_bands
        self._docs, self._exact, self._post, self._postn, self._band = (
            f"{namespace}:{name}" for name in ("docs", "exact", "post", "postn", "band")
        )

    def count(self) -> int:
        return self.backend.count_records(self._docs)

    def lookup(self, queries: Sequence[Query]) -> list[Lookup]:
        # One read a table for the whole batch (a sharded store sends one command a
        # bucket it touches, whatever the number of queries), split back per query.
        post_keys: list[int] = []
        banded_keys: list[int] = []
        spans = []
        for _, hashes, signature in queries:
            bands = band_keys(signature, self.lsh_bands) if signature is not None else []
            spans.append((len(post_keys), len(hashes), len(banded_keys), len(bands)))
            post_keys += hashes
            banded_keys += bands
        exacts, count, posted, banded_all = self.backend.run(
            [
                ("get_values", self._exact, [exact for exact, _, _ in queries]),
                ("count_records", self._docs),
                ("get_lists", self._post, post_keys),
                ("get_lists", self._band, banded_keys),
            ]
        )
        looks = []
        for n, held in enumerate(exacts):
            post_at, post_n, band_at, band_n = spans[n]
            postings = posted[post_at : post_at + post_n]
            banded = banded_all[band_at : band_at + band_n]
            looks.append(
                Lookup(
                    held.decode("utf-8") if held is not None else None,
                    [p for p in postings if p],
                    sorted({doc_id for docs in banded for doc_id in docs}),
                    count,
                )
            )
        return looks

    def docs(self, doc_ids: Sequence[int]) -> list[StoredDoc | None]:
        if not doc_ids:
            return []
        records = self.backend.get_records(self._docs, list(doc_ids))
        return [decode_doc(r) if r is not None else None for r in records]

    def post_counts(self, hashes: Sequence[int]) -> list[int]:
        if not hashes:
            return []
        return [int(c) for c in self.backend.get_counts(self._postn, list(hashes))]

    def claim_exact(self, claims: Sequence[tuple[int, str]]) -> list[str | None]:
        if not claims:
            return []
        helds = self.backend.run(
            [("claim", self._exact, digest, first.encode("utf-8")) for digest, first in claims]
        )
        return [held.decode("utf-8") if held is not None else None for held in helds]

    def add(self, docs: Sequence[NewDoc]) -> list[int]:
        if not docs:
            return []
        records = []
        for key, fp, _, _, first in docs:
            doc = StoredDoc.of(key, fp, first)
            records.append(("add_record", self._docs, encode_doc(doc)))
        doc_ids: list[int] = self.backend.run(records)
        posts: list[tuple[int, int]] = []
        bands: list[tuple[int, int]] = []
        for doc_id, (_, fp, posted, banded, _) in zip(doc_ids, docs, strict=True):
            posts += [(h, doc_id) for h in posted]
            if banded:
                bands += [(b, doc_id) for b in band_keys(fp.signature, self.lsh_bands)]
        ops: list[tuple[object, ...]] = []
        if posts:
            ops.append(("append", self._post, posts, POSTING_CAP))
            ops.append(("add_counts", self._postn, [(h, 1.0) for h, _ in posts]))
        if bands:
            ops.append(("append", self._band, bands, POSTING_CAP))
        if ops:
            self.backend.run(ops)
        return doc_ids

    def set_first(self, doc_id: int, first: str) -> None:
        record = self.backend.get_records(self._docs, [doc_id])[0]
        if record is None:
            return
        doc = decode_doc(record)
        if first != doc.key:
            doc = replace(doc, first=first)
            self.backend.set_record(self._docs, doc_id, encode_doc(doc))
