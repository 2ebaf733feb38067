"""The texts of one ``NearDuplicateIndex.check_many`` batch, indexed in memory as the
store will index them (:class:`PendingBatch`), and the sentence hashes a new text looks
up (:func:`looked_up`)."""

from __future__ import annotations

from scrapy_webclean.dedup.fingerprint import Fingerprint
from scrapy_webclean.dedup.options import DedupOptions
from scrapy_webclean.dedup.store import StoredDoc, band_keys


def looked_up(fp: Fingerprint, opts: DedupOptions) -> list[int]:
    """The sentence hashes a new text looks up: ``look_factor`` times as many of its
    longest and of its sample as a text posts (some may be in both)."""
    wide = opts.look_factor
    return (
        fp.longest[: opts.index_sentences * wide]
        + fp.sentences[: opts.sample_sentences * wide]
        + fp.fuzzy[: opts.fuzzy_sentences * wide]
    )


class PendingBatch:
    """The texts of one :meth:`NearDuplicateIndex.check_many` batch that will be stored,
    indexed as the store will index them, so that later texts of the batch find them."""

    def __init__(self, options: DedupOptions) -> None:
        self.options = options
        self.exact: dict[int, str] = {}
        self.claims: list[tuple[int, int, str]] = []  # exact-only: (item, digest, key)
        #: (item, key, first, posted); each as a StoredDoc when a later text looks
        self.docs: list[tuple[int, str, str, list[int]]] = []
        self._stored: dict[int, StoredDoc] = {}
        self._fps: list[Fingerprint] = []
        self.keys: dict[int, str] = {}
        self._postings: dict[int, list[int]] = {}
        self._unposted: list[int] = []  # texts not yet in _postings (posted when one looks)
        self._bands: dict[int, list[int]] = {}
        self._unbanded: list[tuple[int, Fingerprint]] = []
        self._band_count = options.lsh_bands

    def add(self, item: int, key: str, fp: Fingerprint, first: str, counts: dict[int, int]) -> None:
        opts = self.options
        posted = dict.fromkeys(fp.longest[: opts.index_sentences])
        posted.update(dict.fromkeys(fp.sentences[: opts.sample_sentences]))
        posted.update(dict.fromkeys(fp.fuzzy[: opts.fuzzy_sentences]))
        at = len(self.docs)
        self.docs.append((item, key, first, list(posted)))
        self._fps.append(fp)
        self.keys[item] = key
        self.exact[fp.exact] = first
        self._unposted.append(at)
        for digest in posted:
            counts[digest] = counts.get(digest, 0) + 1
        if len(fp.sentences) < opts.lsh_below_sentences:
            self._unbanded.append((at, fp))  # banded when a later text of the batch looks

    def candidates(self, fp: Fingerprint) -> list[StoredDoc]:
        """This batch's texts that share an indexed sentence or an LSH band with ``fp``."""
        if not self.docs:
            return []
        opts = self.options
        for at in self._unposted:
            for digest in self.docs[at][3]:
                self._postings.setdefault(digest, []).append(at)
        self._unposted.clear()
        found: set[int] = set()
        for digest in looked_up(fp, opts):
            found.update(self._postings.get(digest, ()))
        for at, banded in self._unbanded:
            for band in band_keys(banded.signature, self._band_count):
                self._bands.setdefault(band, []).append(at)
        self._unbanded.clear()
        if self._bands:
            for band in band_keys(fp.signature, self._band_count):
                found.update(self._bands.get(band, ()))
        return [self._doc(at) for at in sorted(found)]

    def _doc(self, at: int) -> StoredDoc:
        doc = self._stored.get(at)
        if doc is None:
            _, key, first, _ = self.docs[at]
            doc = self._stored[at] = StoredDoc.of(key, self._fps[at], first)
        return doc
