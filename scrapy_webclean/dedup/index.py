"""``NearDuplicateIndex``: is this text a copy of one seen before? (docs/algorithms.md section 3)

Three ways to find the earlier copy, cheapest first:

1. **exact**: the hash of the normalised text (reprints that change nothing but spacing);
2. **long-sentence fingerprints**: the documents that share a long sentence with this one
   (an inverted index over the hashes of each document's longest sentences and of a
   sample of them), or a long sentence *like* one of this one's: the edit-tolerant keys
   of the sentences (the smallest hash of each one's character 4-grams,
   ``fingerprint.fuzzy_keys``), which a word changed in every sentence mostly keeps, the
   first level of section 3's two-level similarity put to finding candidates. A sentence
   or key found in more than ``boilerplate_docs`` documents is boilerplate (a shared
   navigation line, a widely quoted sentence) and no longer counts, the method's known
   weak spot;
3. **MinHash LSH** on character shingles (datasketch's ``MinHashLSH`` in memory; its
   banding, keyed by ``store.band_keys``, in the persistent stores): partial copies whose
   sentences were all touched (edits inside every sentence, new punctuation).

Texts are compared without their editorial furniture (source and editor lines, reprint
notices, disclaimers: :mod:`~scrapy_webclean.dedup.furniture`), which a reprint adds and
thousands of unrelated pages share.

Every candidate is then checked: by the share of its long sentences the two documents
have in common (of the shorter one's, and of the longer one's, so that a truncated copy
matches and a page quoting one paragraph of another does not), and by the Jaccard
similarity estimated from the two MinHash signatures. When too few sentences are shared
exactly, section 3's two-level similarity counts them again: each long sentence by its
best sentence similarity with one of the other text's (``l1 * WordSim + l2 * OrdSim``,
estimated from three gram minima a sentence keeps in 32 bits, two of which must agree:
``fingerprint.sentence_similarity``), so that a copy edited in many sentences, and
truncated, still shares "its" sentences. A new text whose long sentences are
all in an earlier one, at least a quarter of it, is an excerpt of it: a copy however short.
Two texts that each state a figure the other does not (a price, a score, a date) in
sentences of their own are two reports from one template, not copies, however much text
they share; a copy whose figure was corrected in place changes no sentence (sentences are
compared by their words). The first document seen wins: a later copy names it.

Memory per document: an exact-hash entry, up to ``index_sentences + sample_sentences +
fuzzy_sentences`` postings, up to ``MAX_SENTENCES`` 8-byte sentence hashes and as many
4-byte sentence sketches, up to ``MAX_FIGURES`` 8-byte
figures, a ``NUM_PERM`` x 4-byte signature, and LSH band keys for texts with few long
sentences; see ``DedupStore`` for where they live. In memory that is about 2.1 KB a real
text, 5.9 KB one whose LSH bands are kept (datasketch's ``MinHashLSH`` keeps 4.9 KB of
it), 2.5 KB on average (``benchmarks/memory.py``), for at most
``MemoryDedupStore.max_docs`` documents (the older half forgotten when it is full).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import chain

from scrapy_webclean.dedup.batch import PendingBatch, looked_up
from scrapy_webclean.dedup.compare import CopyJudge, Match
from scrapy_webclean.dedup.fingerprint import Fingerprint, fingerprint
from scrapy_webclean.dedup.options import DedupOptions
from scrapy_webclean.dedup.store import (
    DedupStore,
    Lookup,
    MemoryDedupStore,
    Query,
)

__all__ = ["DedupOptions", "Match", "NearDuplicateIndex"]


class NearDuplicateIndex:
    """Finds the earlier copy of a text among the texts added so far."""

    def __init__(
        self, options: DedupOptions | None = None, store: DedupStore | None = None
    ) -> None:
        self.options = options or DedupOptions()
        self.store: DedupStore = (
            store if store is not None else MemoryDedupStore(self.options.lsh_bands)
        )
        #: Decides which stored document is a copy of a text (``dedup.compare``).
        self.judge = CopyJudge(self.options)

    def __len__(self) -> int:
        return self.store.count()

    def check_and_add(self, key: str, text: str) -> str | None:
        """The key of the earlier copy of ``text``, or None; then ``text`` is added (a copy
        too, so that a copy of the copy is found)."""
        match = self.check(key, text, add=True)
        return match.key if match is not None else None

    def check(
        self, key: str, text: str, add: bool = False, exact_only: bool = False
    ) -> Match | None:
        """The earlier copy of ``text`` (with the evidence), or None; ``add`` adds it.

        ``exact_only`` is for pages that are not one text (hub and list pages): only an
        exact copy counts, and only the exact hash is added, so that an article is never
        taken for a copy of a list that quotes its first lines.
        """
        if add:
            return self.check_many([(key, text, exact_only)])[0]
        fp = fingerprint(text, self.options.keywords)
        (look,) = self.store.lookup([self._query(fp, exact_only)])
        if look.exact is not None:
            return Match(look.exact, "exact")
        if exact_only:
            return None
        candidates = sorted(self._candidates(look))
        docs = self.store.docs(candidates)
        counts = self._counts([fp])
        return self.judge.best(fp, docs, counts)

    def fingerprint(self, text: str) -> Fingerprint:
        """The fingerprint this index compares ``text`` by (with its query keywords)."""
        return fingerprint(text, self.options.keywords)

    def fingerprints(
        self, texts: Sequence[str], given: Sequence[Fingerprint | None] = ()
    ) -> list[Fingerprint]:
        """Each text's fingerprint: ``given[i]`` when there and not None (made where the
        page was cleaned), else :meth:`fingerprint`."""
        made = list(given) or [None] * len(texts)
        return [
            fp if fp is not None else self.fingerprint(text)
            for text, fp in zip(texts, made, strict=True)
        ]

    def check_many(
        self,
        items: Sequence[tuple[str, str, bool]],
        fingerprints: Sequence[Fingerprint | None] = (),
    ) -> list[Match | None]:
        """:meth:`check` with ``add`` for a batch of ``(key, text, exact_only)``, in order:
        each text is compared with the texts before it in the batch too. A batch costs a
        remote store about as many round trips as one text. ``fingerprints[i]``, when given
        and not None, is :meth:`fingerprint` of item ``i``'s text, computed already (where
        the page was cleaned).

        Several processes may share one store: the exact hash is claimed atomically, and a
        text added while documents were being added by others is compared with those too,
        so of two copies checked at the same moment exactly one is reported unique (the
        one the store numbered first).
        """
        store, opts = self.store, self.options
        fps = self.fingerprints([text for _, text, _ in items], fingerprints)
        looks = store.lookup(
            [self._query(fp, only) for fp, (_, _, only) in zip(fps, items, strict=True)]
        )
        candidates = [
            sorted(self._candidates(look)) if look.exact is None else [] for look in looks
        ]
        wanted = sorted({d for found in candidates for d in found})
        stored = dict(zip(wanted, store.docs(wanted), strict=True))
        news = [fp for fp, look in zip(fps, looks, strict=True) if look.exact is None]
        counts = self._counts(news)
        results: list[Match | None] = [None] * len(items)
        batch = PendingBatch(opts)  # this batch's texts so far, as they will be stored
        for i, ((key, _, only), fp, look) in enumerate(zip(items, fps, looks, strict=True)):
            earlier = look.exact or batch.exact.get(fp.exact)
            if earlier is not None:
                results[i] = Match(earlier, "exact")
                continue
            if only:
                batch.exact[fp.exact] = key
                batch.claims.append((i, fp.exact, key))
                continue
            docs = [stored.get(d) for d in candidates[i]]
            docs += batch.candidates(fp)
            match = self.judge.best(fp, docs, counts)
            results[i] = match
            first = match.key if match is not None else key
            batch.add(i, key, fp, first, counts)
        self._store_batch(batch, fps, looks, results, counts)
        return results

    # -- internals ---------------------------------------------------------------------

    def _store_batch(
        self,
        batch: PendingBatch,
        fps: list[Fingerprint],
        looks: list[Lookup],
        results: list[Match | None],
        counts: dict[int, int],
    ) -> None:
        """Add the batch's new texts, compare them with the documents others added
        meanwhile, then claim their exact hashes (see :meth:`check_many`)."""
        store = self.store
        firsts = {i: _key_of(results[i], key) for i, key, _, _ in batch.docs}
        doc_ids = store.add(
            [
                (key, fps[i], posted, self._banded(fps[i]), firsts[i])
                for i, key, _, posted in batch.docs
            ]
        )
        added = dict(zip((i for i, _, _, _ in batch.docs), doc_ids, strict=True))
        # Documents added between a look and this add were added by another process: the
        # one numbered first is the original.
        late = [(i, d) for i, d in added.items() if results[i] is None and d > looks[i].count]
        changed: dict[str, str] = {}  # key of a text of this batch -> the copy it copies
        if late:
            mine = set(doc_ids)
            wanted = sorted({e for i, d in late for e in range(looks[i].count, d) if e not in mine})
            stored = dict(zip(wanted, store.docs(wanted), strict=True))
            for i, doc_id in late:
                # (a record of this very text, stored twice by a retried write, is no original)
                window = [
                    doc
                    for doc in (stored.get(e) for e in range(looks[i].count, doc_id))
                    if doc is not None and doc.key != batch.keys[i]
                ]
                match = self.judge.best(fps[i], window, counts)
                if match is not None:
                    results[i] = match
                    changed[batch.keys[i]] = match.key
        # The exact hashes, claimed last, so each names the text's first copy; a claim
        # held by another already is an exact copy added meanwhile.
        claims = batch.claims + [
            (i, fps[i].exact, _key_of(results[i], batch.keys[i])) for i in added
        ]
        helds = store.claim_exact([(digest, first) for _, digest, first in claims])
        for (i, _, first), held in zip(claims, helds, strict=True):
            if held is not None and held != first:
                results[i] = Match(held, "exact")
                if i in batch.keys:
                    changed[batch.keys[i]] = held
        if not changed:
            return
        for i, result in enumerate(results):
            if result is not None and result.key in changed:  # it copied a copy
                results[i] = replace(result, key=changed[result.key])
        for i, doc_id in added.items():
            first = _key_of(results[i], batch.keys[i])
            if first != firsts[i]:
                store.set_first(doc_id, first)

    def _query(self, fp: Fingerprint, exact_only: bool) -> Query:
        if exact_only:
            return (fp.exact, [], None)
        return (fp.exact, list(dict.fromkeys(looked_up(fp, self.options))), fp.signature)

    def _candidates(self, look: Lookup) -> set[int]:
        limit = self.options.boilerplate_docs
        candidates = set(look.similar)
        for posting in look.postings:
            if len(posting) <= limit:
                candidates.update(posting)
        return candidates

    def _counts(self, fps: Sequence[Fingerprint]) -> dict[int, int]:
        """Documents per sentence hash, for the boilerplate rule (one round trip)."""
        hashes = list(dict.fromkeys(chain.from_iterable(fp.sentences for fp in fps)))
        return dict(zip(hashes, self.store.post_counts(hashes), strict=True))

    def _banded(self, fp: Fingerprint) -> bool:
        # Enough long sentences for the fingerprints to find any copy of a text: the LSH
        # bands (the heaviest part of the index) are kept for texts with few.
        return len(fp.sentences) < self.options.lsh_below_sentences


def _key_of(match: Match | None, own: str) -> str:
    return match.key if match is not None else own
