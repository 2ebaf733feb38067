"""Where the near-duplicate index keeps its documents: one small interface.

Plain data only (integers and arrays of integers), so that a disk or Redis store can hold
it without pickling anything. The in-memory store keeps per document one record of bytes
(its sentence hashes, figures, signature and sketches), its key, an exact-hash entry,
postings for its longest sentences (a posting list stops growing at ``POSTING_CAP``:
beyond it the sentence is boilerplate anyway) and, for texts with few long sentences, its
LSH bands in datasketch's ``MinHashLSH``. On real texts (``benchmarks/memory.py``) that is
about 2.1 KB a document without LSH bands and 5.9 KB with (``MinHashLSH`` keeps 4.9 KB of
it), 2.5 KB on average. It holds at most ``max_docs`` documents (:data:`MAX_MEMORY_DOCS`
by default), forgetting the oldest half at a time.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
import numpy.typing as npt
from datasketch import LeanMinHash, MinHashLSH

from scrapy_webclean.dedup.fingerprint import NUM_PERM, Fingerprint

#: Documents kept per posting list (a sentence in more is boilerplate).
POSTING_CAP = 64
#: Documents :class:`MemoryDedupStore` holds by default, at most (about 2.5 KB each on
#: real texts: 2.5 GB; up to 6 GB of short texts only); it forgets the older half when full.
MAX_MEMORY_DOCS = 1_000_000
#: The smallest bound :class:`MemoryDedupStore` takes: two generations of one document.
MIN_MEMORY_DOCS = 2


@dataclass(slots=True, frozen=True)
class StoredDoc:
    """What the index keeps of a document."""

    key: str
    sentences: npt.NDArray[np.int64]
    signature: npt.NDArray[np.uint32]
    length: int
    sentence_chars: npt.NDArray[np.uint16]
    #: The key of the first copy of this text (its own key when it is the first).
    first: str
    #: The figures the text states (``fingerprint.figures``).
    figures: npt.NDArray[np.int64]
    #: Each sentence's sketch for the two-level similarity (``fingerprint.sentence_sketches``,
    #: same order as ``sentences``; empty for a record written before they were kept).
    sketches: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))

    @classmethod
    def of(cls, key: str, fp: Fingerprint, first: str) -> StoredDoc:
        """What the index keeps of a fingerprinted text."""
        return cls(
            key,
            np.asarray(fp.sentences, dtype=np.int64),
            fp.signature,
            fp.length,
            np.asarray(fp.sentence_chars, dtype=np.uint16),
            first,
            np.asarray(fp.figures, dtype=np.int64),
            np.asarray(fp.sketches, dtype=np.int64),
        )


@dataclass(slots=True, frozen=True)
class Lookup:
    """What one look into the store found for a new text."""

    #: The key of the first copy of exactly this text, if any.
    exact: str | None
    #: The documents that posted each of the hashes looked up (unknown hashes left out).
    postings: list[list[int]]
    #: Documents whose signature shares an LSH band with the text's.
    similar: list[int]
    #: Documents stored when the look was taken (see ``NearDuplicateIndex``: a document
    #: numbered from here on was added meanwhile, by this process or another).
    count: int


#: What a new text looks up: its exact hash, its indexed sentence hashes, its signature
#: (None: exact copies only).
Query = tuple[int, list[int], "npt.NDArray[np.uint32] | None"]
#: A document to add: key, fingerprint, the sentence hashes it posts, whether its LSH bands
#: are stored, and the key of the first copy of its text (its own when it is the first).
NewDoc = tuple[str, Fingerprint, list[int], bool, str]


class DedupStore(Protocol):
    """Documents by insertion number, exact hashes, sentence postings and LSH bands.

    Every method takes a batch: each call is one round trip to a remote store.
    """

    def count(self) -> int:
        """Documents stored."""
        ...

    def lookup(self, queries: Sequence[Query]) -> list[Lookup]:
        """For each query: the exact copy, the postings of its hashes and the LSH
        candidates of its signature."""
        ...

    def docs(self, doc_ids: Sequence[int]) -> list[StoredDoc | None]:
        """Stored documents by number (None for a number not stored)."""
        ...

    def post_counts(self, hashes: Sequence[int]) -> list[int]:
        """In how many documents each hash was posted (past the posting cap too)."""
        ...

    def claim_exact(self, claims: Sequence[tuple[int, str]]) -> list[str | None]:
        """For each ``(exact hash, key)``, atomically: record the key as the first copy
        of that text unless one is recorded; the one recorded before, or None."""
        ...

    def add(self, docs: Sequence[NewDoc]) -> list[int]:
        """Store documents, posting their sentence hashes (and LSH bands where asked);
        returns their numbers (0, 1, 2 ... in the order added)."""
        ...

    def set_first(self, doc_id: int, first: str) -> None:
        """Record a stored document as a copy of ``first``."""
        ...


_BAND_MIX = np.array(
    [0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0xD6E8FEB86659FD93],
    dtype=np.uint64,
)


def band_keys(signature: npt.NDArray[np.uint32], bands: int) -> list[int]:
    """One 64-bit key per LSH band of ``signature`` (``bands`` x ``NUM_PERM // bands`` rows):
    two signatures share a key when they agree on every value of that band, the banding of
    datasketch's ``MinHashLSH``, keyed by a hash of our own (no pickles)."""
    rows = NUM_PERM // bands
    table = signature.reshape(bands, rows).astype(np.uint64)
    mix = np.resize(_BAND_MIX, rows) + np.arange(rows, dtype=np.uint64)
    with np.errstate(over="ignore"):
        keys = (table * mix).sum(axis=1, dtype=np.uint64)
        keys ^= np.arange(bands, dtype=np.uint64) * np.uint64(0xFF51AFD7ED558CCD)
    return [int(k) for k in keys.view(np.int64)]


#: A record's header: the text's length, then how many sentence hashes, figures,
#: signature values, sentence lengths and sketches follow (in that order).
_RECORD = struct.Struct("<q5I")


def _record(fp: Fingerprint) -> bytes:
    """What :class:`MemoryDedupStore` keeps of a fingerprint, in one bytes object (one
    object a document instead of five arrays: a numpy array costs 112 bytes before its
    data)."""
    sentences = np.asarray(fp.sentences, dtype="<i8")
    figures = np.asarray(fp.figures, dtype="<i8")
    signature = np.asarray(fp.signature, dtype="<u4")
    chars = np.asarray(fp.sentence_chars, dtype="<u2")
    # (a sketch is 32 bits: the value mod 2**32, as before it was kept in two halves)
    sketches = np.asarray(fp.sketches, dtype=np.int64).astype("<u4")
    counts = (len(sentences), len(figures), len(signature), len(chars), len(sketches))
    return b"".join(
        (
            _RECORD.pack(fp.length, *counts),
            sentences.tobytes(),
            figures.tobytes(),
            signature.tobytes(),
            chars.tobytes(),
            sketches.tobytes(),
        )
    )


def _stored(key: str, first: str, record: bytes) -> StoredDoc:
    """The document :func:`_record` keeps, read back (read-only views of the record)."""
    length, n, f, m, c, k = _RECORD.unpack_from(record)
    at = _RECORD.size
    sentences = np.frombuffer(record, dtype="<i8", count=n, offset=at)
    at += 8 * n
    figures = np.frombuffer(record, dtype="<i8", count=f, offset=at)
    at += 8 * f
    signature = np.frombuffer(record, dtype="<u4", count=m, offset=at)
    at += 4 * m
    chars = np.frombuffer(record, dtype="<u2", count=c, offset=at)
    at += 2 * c
    sketches = np.frombuffer(record, dtype="<u4", count=k, offset=at).astype(np.int64)
    return StoredDoc(key, sentences, signature, length, chars, first, figures, sketches)


def _band_index(bands: int) -> MinHashLSH:
    """datasketch's ``MinHashLSH`` of ``bands`` bands of ``NUM_PERM // bands`` rows, in its
    in-memory storage (where nothing is pickled)."""
    return MinHashLSH(num_perm=NUM_PERM, params=(bands, NUM_PERM // bands))


def _lean(signature: npt.NDArray[np.uint32]) -> LeanMinHash:
    """A signature as datasketch's ``MinHashLSH`` takes it (``fingerprint``'s one-permutation
    MinHash is ``affine32``-hashed, seed 1)."""
    return LeanMinHash(seed=1, hashvalues=signature, scheme="affine32")


@dataclass(slots=True)
class _Generation:
    """The tables of the documents numbered from ``first_id`` on, until the next
    generation starts: exact hashes, sentence postings, and the LSH bands in a
    ``MinHashLSH`` of its own (forgotten with the generation)."""

    first_id: int
    lsh: MinHashLSH
    docs: int = 0
    exact: dict[int, str] = field(default_factory=dict)
    # A posting of one document is that document's number (most sentences are in one
    # document: a list apiece would cost more than the number); of several, a list.
    postings: dict[int, int | list[int]] = field(default_factory=dict)
    counts: dict[int, int] = field(default_factory=dict)  # (hashes posted twice or more)


def _listed(entry: int | list[int]) -> list[int]:
    return [entry] if isinstance(entry, int) else entry


class MemoryDedupStore:
    """In-process :class:`DedupStore`, bounded: at most ``max_docs`` documents (None:
    no bound). A document is one bytes record and its key; its LSH bands are in
    datasketch's ``MinHashLSH``.

    Documents live in two generations of ``max_docs // 2`` each (the same for exact
    hashes, including those of texts stored by hash only), each with its own tables and
    its own ``MinHashLSH``: when the newer one is full, the older one is forgotten whole,
    documents, exact hashes, postings and its ``MinHashLSH``, and a new one starts. A text
    is so compared with the last ``max_docs // 2`` to ``max_docs`` documents; a copy of
    an older one is unique again (and is stored). Until the first ``max_docs`` are stored
    nothing is forgotten, and the answers are those of an unbounded store.
    """

    def __init__(self, lsh_bands: int = 16, max_docs: int | None = MAX_MEMORY_DOCS) -> None:
        if max_docs is not None and max_docs < MIN_MEMORY_DOCS:
            raise ValueError(
                f"max_docs must be {MIN_MEMORY_DOCS} or more (or None), not {max_docs}"
            )
        self.lsh_bands = lsh_bands
        self.max_docs = max_docs
        self._first_id = 0  # the number of the oldest document held
        self._keys: list[str] = []
        self._records: list[bytes] = []
        self._firsts: dict[int, str] = {}  # copies only: doc -> key of the first copy
        self._generations = [self._generation(0)]  # the older first

    def _generation(self, first_id: int) -> _Generation:
        """A new, empty generation of the documents numbered from ``first_id`` on."""
        return _Generation(first_id, _band_index(self.lsh_bands))

    def count(self) -> int:
        return self._first_id + len(self._keys)

    def held(self) -> int:
        """Documents held (:meth:`count` less those forgotten)."""
        return len(self._keys)

    def _current(self) -> _Generation:
        """The generation new entries go to (a new one when it is full)."""
        current = self._generations[-1]
        size = self.max_docs // 2 if self.max_docs is not None else None
        if size is not None and (current.docs >= size or len(current.exact) >= size):
            if len(self._generations) > 1:
                older = self._generations.pop(0)
                forget = self._generations[0].first_id - older.first_id
                del self._keys[:forget], self._records[:forget]
                self._first_id += forget
                self._firsts = {d: k for d, k in self._firsts.items() if d >= self._first_id}
            current = self._generation(self.count())
            self._generations.append(current)
        return current

    def lookup(self, queries: Sequence[Query]) -> list[Lookup]:
        generations, count = self._generations, self.count()
        looks = []
        for exact, hashes, signature in queries:
            postings = []
            for digest in hashes:
                found: list[int] = []
                for generation in generations:
                    entry = generation.postings.get(digest)
                    if entry is not None:
                        found += _listed(entry)
                if found:
                    postings.append(found[:POSTING_CAP])
            similar: list[int] = []
            if signature is not None:
                lean = _lean(signature)
                for generation in generations:
                    similar += generation.lsh.query(lean)
            held = None
            for generation in reversed(generations):
                held = generation.exact.get(exact)
                if held is not None:
                    break
            looks.append(Lookup(held, postings, similar, count))
        return looks

    def docs(self, doc_ids: Sequence[int]) -> list[StoredDoc | None]:
        return [self._doc(doc_id) for doc_id in doc_ids]

    def _doc(self, doc_id: int) -> StoredDoc | None:
        at = doc_id - self._first_id
        if not 0 <= at < len(self._keys):
            return None
        key = self._keys[at]
        return _stored(key, self._firsts.get(doc_id) or key, self._records[at])

    def post_counts(self, hashes: Sequence[int]) -> list[int]:
        return [
            sum(g.counts.get(h, 1) for g in self._generations if h in g.postings) for h in hashes
        ]

    def claim_exact(self, claims: Sequence[tuple[int, str]]) -> list[str | None]:
        helds: list[str | None] = []
        for digest, first in claims:
            held = None
            for generation in reversed(self._generations):
                held = generation.exact.get(digest)
                if held is not None:
                    break
            if held is None:
                self._current().exact[digest] = first
            helds.append(held)
        return helds

    def add(self, docs: Sequence[NewDoc]) -> list[int]:
        return [self._add(*doc) for doc in docs]

    def _add(self, key: str, fp: Fingerprint, posted: list[int], banded: bool, first: str) -> int:
        generation = self._current()
        doc_id = self.count()
        self._keys.append(key)
        self._records.append(_record(fp))
        generation.docs += 1
        if first != key:
            self._firsts[doc_id] = first
        postings, counts = generation.postings, generation.counts
        for digest in posted:
            posting = postings.get(digest)
            if posting is None:
                postings[digest] = doc_id
                continue
            if isinstance(posting, int):
                postings[digest] = [posting, doc_id]
            elif len(posting) < POSTING_CAP:
                posting.append(doc_id)
            counts[digest] = counts.get(digest, 1) + 1
        if banded:
            generation.lsh.insert(doc_id, _lean(fp.signature), check_duplication=False)
        return doc_id

    def set_first(self, doc_id: int, first: str) -> None:
        at = doc_id - self._first_id
        if 0 <= at < len(self._keys) and first != self._keys[at]:
            self._firsts[doc_id] = first
