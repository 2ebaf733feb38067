"""Where the near-duplicate index keeps its documents: one small interface.

Plain data only (integers and arrays of integers), so that a disk or Redis store can hold
it without pickling anything. The in-memory store is compact: per document an exact-hash
entry, its sentence hashes and signature in numpy arrays, and postings for its longest
sentences (a posting list stops growing at ``POSTING_CAP``: beyond it the sentence is
boilerplate anyway).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from scrapy_webclean.dedup.fingerprint import Fingerprint

#: Documents kept per posting list (a sentence in more is boilerplate).
POSTING_CAP = 64

_NO_SENTENCES: npt.NDArray[np.int64] = np.zeros(0, dtype=np.int64)
_NO_SIGNATURE: npt.NDArray[np.uint32] = np.zeros(0, dtype=np.uint32)
_NO_CHARS: npt.NDArray[np.uint16] = np.zeros(0, dtype=np.uint16)


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


class DedupStore(Protocol):
    """Documents by insertion number, exact hashes and sentence postings."""

    def count(self) -> int:
        """Documents stored."""
        ...

    def add(self, key: str, fp: Fingerprint, posted: Sequence[int], first: str | None) -> int:
        """Store a document, posting the sentence hashes ``posted`` (``first``: the key of
        the earlier copy it copies, if any); returns its number (0, 1, 2 ...)."""
        ...

    def add_exact(self, key: str, digest: int) -> int:
        """Store only a document's exact hash; returns its number."""
        ...

    def doc(self, doc_id: int) -> StoredDoc | None:
        """A stored document (None for an exact-only entry)."""
        ...

    def first(self, doc_id: int) -> str:
        """The key of the first copy of a stored document's text."""
        ...

    def exact(self, digest: int) -> int | None:
        """The first document with this exact hash."""
        ...

    def postings(self, hashes: Sequence[int]) -> list[list[int]]:
        """For each sentence hash, the documents that posted it (insertion order)."""
        ...

    def boilerplate(self, hashes: Iterable[int], limit: int) -> set[int]:
        """The hashes posted by more than ``limit`` documents."""
        ...


class MemoryDedupStore:
    """In-process :class:`DedupStore`."""

    def __init__(self) -> None:
        self._keys: list[str] = []
        self._sentences: list[npt.NDArray[np.int64]] = []
        self._signatures: list[npt.NDArray[np.uint32]] = []
        self._lengths: list[int] = []
        self._sentence_chars: list[npt.NDArray[np.uint16]] = []
        self._exact: dict[int, int] = {}
        self._postings: dict[int, list[int]] = {}
        self._counts: dict[int, int] = {}
        self._firsts: dict[int, str] = {}  # copies only: doc -> key of the first copy

    def count(self) -> int:
        return len(self._keys)

    def add(self, key: str, fp: Fingerprint, posted: Sequence[int], first: str | None) -> int:
        doc_id = len(self._keys)
        self._keys.append(key)
        if first is not None and first != key:
            self._firsts[doc_id] = first
        self._sentences.append(np.asarray(fp.sentences, dtype=np.int64))
        self._signatures.append(fp.signature)
        self._lengths.append(fp.length)
        self._sentence_chars.append(np.asarray(fp.sentence_chars, dtype=np.uint16))
        self._exact.setdefault(fp.exact, doc_id)
        for digest in posted:
            posting = self._postings.get(digest)
            if posting is None:
                self._postings[digest] = [doc_id]
            else:
                if len(posting) < POSTING_CAP:
                    posting.append(doc_id)
                self._counts[digest] = self._counts.get(digest, 1) + 1
        return doc_id

    def add_exact(self, key: str, digest: int) -> int:
        doc_id = len(self._keys)
        self._keys.append(key)
        self._sentences.append(_NO_SENTENCES)
        self._signatures.append(_NO_SIGNATURE)
        self._lengths.append(-1)
        self._sentence_chars.append(_NO_CHARS)
        self._exact.setdefault(digest, doc_id)
        return doc_id

    def first(self, doc_id: int) -> str:
        return self._firsts.get(doc_id) or self._keys[doc_id]

    def doc(self, doc_id: int) -> StoredDoc | None:
        if self._lengths[doc_id] < 0:
            return None
        return StoredDoc(
            self._keys[doc_id],
            self._sentences[doc_id],
            self._signatures[doc_id],
            self._lengths[doc_id],
            self._sentence_chars[doc_id],
            self.first(doc_id),
        )

    def exact(self, digest: int) -> int | None:
        return self._exact.get(digest)

    def postings(self, hashes: Sequence[int]) -> list[list[int]]:
        get = self._postings.get
        return [p for p in (get(h) for h in hashes) if p]

    def boilerplate(self, hashes: Iterable[int], limit: int) -> set[int]:
        counts = self._counts
        return {h for h in hashes if counts.get(h, 1) > limit}
