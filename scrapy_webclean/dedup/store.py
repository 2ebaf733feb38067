"""Where the near-duplicate index keeps its documents: one small interface.

Plain data only (integers and arrays of integers), so that a disk or Redis store can hold
it without pickling anything. The in-memory store is compact: per document an exact-hash
entry, its sentence hashes and signature in numpy arrays, and postings for its longest
sentences (a posting list stops growing at ``POSTING_CAP``: beyond it the sentence is
boilerplate anyway).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
import numpy.typing as npt
from datasketch import LeanMinHash, MinHashLSH

from scrapy_webclean.dedup.fingerprint import NUM_PERM, Fingerprint

#: Documents kept per posting list (a sentence in more is boilerplate).
POSTING_CAP = 64


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


class MemoryDedupStore:
    """In-process :class:`DedupStore`: numpy arrays per document and datasketch's
    ``MinHashLSH`` (in its in-memory storage, where nothing is pickled) for the bands."""

    def __init__(self, lsh_bands: int = 16) -> None:
        self._keys: list[str] = []
        self._sentences: list[npt.NDArray[np.int64]] = []
        self._signatures: list[npt.NDArray[np.uint32]] = []
        self._lengths: list[int] = []
        self._sentence_chars: list[npt.NDArray[np.uint16]] = []
        # (a document's figures follow its sentence hashes in one array: an array apiece
        # would cost more than the figures)
        self._exact: dict[int, str] = {}
        # A posting of one document is that document's number (most sentences are in one
        # document: a list apiece would cost more than the number); of several, a list.
        self._postings: dict[int, int | list[int]] = {}
        self._counts: dict[int, int] = {}
        self._firsts: dict[int, str] = {}  # copies only: doc -> key of the first copy
        self.lsh = MinHashLSH(num_perm=NUM_PERM, params=(lsh_bands, NUM_PERM // lsh_bands))

    def count(self) -> int:
        return len(self._keys)

    def lookup(self, queries: Sequence[Query]) -> list[Lookup]:
        get, count = self._postings.get, len(self._keys)
        looks = []
        for exact, hashes, signature in queries:
            postings = [
                [p] if isinstance(p, int) else p for p in (get(h) for h in hashes) if p is not None
            ]
            similar: list[int] = []
            if signature is not None:
                lean = LeanMinHash(seed=1, hashvalues=signature, scheme="affine32")
                similar = list(self.lsh.query(lean))
            looks.append(Lookup(self._exact.get(exact), postings, similar, count))
        return looks

    def docs(self, doc_ids: Sequence[int]) -> list[StoredDoc | None]:
        return [self._doc(doc_id) for doc_id in doc_ids]

    def _doc(self, doc_id: int) -> StoredDoc | None:
        if not 0 <= doc_id < len(self._keys):
            return None
        key = self._keys[doc_id]
        # (one uint16 array: the sentences' lengths, then the high and the low halves of
        # their 32-bit sketches)
        packed = self._sentence_chars[doc_id]
        n = len(packed) // 3
        chars = packed[:n]
        sketches = (packed[n : 2 * n].astype(np.int64) << 16) | packed[2 * n :].astype(np.int64)
        hashes = self._sentences[doc_id]
        return StoredDoc(
            key,
            hashes[:n],
            self._signatures[doc_id],
            self._lengths[doc_id],
            chars,
            self._firsts.get(doc_id) or key,
            hashes[n:],
            sketches,
        )

    def post_counts(self, hashes: Sequence[int]) -> list[int]:
        counts, postings = self._counts, self._postings
        return [counts.get(h, 1) if h in postings else 0 for h in hashes]

    def claim_exact(self, claims: Sequence[tuple[int, str]]) -> list[str | None]:
        helds = []
        for digest, first in claims:
            held = self._exact.get(digest)
            if held is None:
                self._exact[digest] = first
            helds.append(held)
        return helds

    def add(self, docs: Sequence[NewDoc]) -> list[int]:
        return [self._add(*doc) for doc in docs]

    def _add(self, key: str, fp: Fingerprint, posted: list[int], banded: bool, first: str) -> int:
        doc_id = len(self._keys)
        self._keys.append(key)
        if first != key:
            self._firsts[doc_id] = first
        self._sentences.append(np.asarray(fp.sentences + fp.figures, dtype=np.int64))
        self._signatures.append(fp.signature)
        self._lengths.append(fp.length)
        sketches = np.asarray(fp.sketches, dtype=np.int64)
        self._sentence_chars.append(
            np.concatenate(
                [
                    np.asarray(fp.sentence_chars, dtype=np.uint16),
                    (sketches >> 16).astype(np.uint16),
                    (sketches & 0xFFFF).astype(np.uint16),
                ]
            )
        )
        for digest in posted:
            posting = self._postings.get(digest)
            if posting is None:
                self._postings[digest] = doc_id
                continue
            if isinstance(posting, int):
                self._postings[digest] = [posting, doc_id]
            elif len(posting) < POSTING_CAP:
                posting.append(doc_id)
            self._counts[digest] = self._counts.get(digest, 1) + 1
        if banded:
            lean = LeanMinHash(seed=1, hashvalues=fp.signature, scheme="affine32")
            self.lsh.insert(doc_id, lean, check_duplication=False)
        return doc_id

    def set_first(self, doc_id: int, first: str) -> None:
        if first != self._keys[doc_id]:
            self._firsts[doc_id] = first
