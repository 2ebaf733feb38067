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
3. **MinHash LSH** (datasketch) on character shingles: partial copies whose sentences were
   all touched (edits inside every sentence, new punctuation).

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
sentences; see ``DedupStore`` for where they live.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import chain

import numpy as np

from scrapy_webclean.dedup.fingerprint import (
    Fingerprint,
    figures_disagree,
    fingerprint,
    jaccards,
    sentence_similarity,
)
from scrapy_webclean.dedup.store import (
    DedupStore,
    Lookup,
    MemoryDedupStore,
    Query,
    StoredDoc,
    band_keys,
)


@dataclass(slots=True, frozen=True)
class DedupOptions:
    """Thresholds of :class:`NearDuplicateIndex` (all shares 0-1)."""

    #: Sentences a document posts in the inverted index: its longest (the paper's m) ...
    index_sentences: int = 4
    #: ... and a sample that edits cannot bias: those with the smallest hashes (a bottom-k
    #: sketch of its sentences; near copies share most of it).
    sample_sentences: int = 8
    #: ... and the smallest edit-tolerant keys of its sentences (``fingerprint.fuzzy_keys``:
    #: a copy edited in every sentence keeps most of them, and no sentence hash).
    fuzzy_sentences: int = 4
    #: A new text looks up this many times as many of its sentences as a text posts
    #: (looking costs no memory, and a copy edited in many sentences keeps few of the
    #: sentences its original posted).
    look_factor: int = 4
    #: A sentence in more documents than this is boilerplate.
    boilerplate_docs: int = 5
    #: Long sentences shared, as a share of the document with fewer of them ...
    min_containment: float = 0.6
    #: ... and of the one with more (a 60% truncation shares 60% of the original's).
    min_coverage: float = 0.3
    #: ... with at least this estimated Jaccard of the shingle sets (sentences shared by
    #: two short texts can be a shared footer).
    min_sentence_jaccard: float = 0.2
    #: ... and, when sentences are counted by their similarity (edited sentences: the
    #: two-level similarity), at least this Jaccard.
    min_similar_jaccard: float = 0.2
    #: ... between texts of this many long sentences at least (after boilerplate): with
    #: fewer, one sentence alike by chance, or a shared frame, is most of the text.
    min_similar_sentences: int = 4
    #: ... sharing at least this share of the text's long sentences word for word (two
    #: list pages showing one story's teaser, cut at other lengths, share similar
    #: sentences and none exactly).
    min_similar_anchor: float = 0.1
    #: A text whose long sentences are all in an earlier text and make up at least this
    #: share of it is an excerpt of that text, a copy whatever its length.
    min_excerpt_share: float = 0.8
    #: ... and that is at least this share of the earlier text (less is a teaser of it on a
    #: list page, or a quote).
    min_excerpt_coverage: float = 0.25
    #: Estimated Jaccard of the shingle sets that alone makes a copy (above the 0.5 of an
    #: exact check, as the estimate errs by about 0.04 either way with 128 permutations;
    #: 0.6 missed a short page whose ad line was changed, and no value down to 0.5 adds
    #: a false positive on either dev set).
    min_jaccard: float = 0.55
    #: Estimated share of the shorter text's shingles found in the longer one (a
    #: truncated or edited copy), with the shorter at least ``min_coverage`` of the longer.
    min_shingle_containment: float = 0.9
    #: LSH bands x rows over the signature (b * r = NUM_PERM); 16 x 4 finds pairs from a
    #: Jaccard of about 0.5 up.
    lsh_bands: int = 16
    #: Texts with fewer long sentences than this go into the LSH (all are looked up in it).
    lsh_below_sentences: int = 6
    #: Two texts whose figures disagree are two reports only under this estimated Jaccard
    #: (above it, a copy whose date or a figure was changed).
    figures_below_jaccard: float = 0.8
    #: Query keywords: long sentences from the logical paragraphs around them.
    keywords: tuple[str, ...] = ()
    #: False: a text is a copy only by ``min_jaccard`` (no sentence, excerpt or
    #: containment rule): the list pages' index (``dedup.pageindex``).
    near_rules: bool = True


@dataclass(slots=True, frozen=True)
class Match:
    """An earlier copy: ``key``, the first seen copy of the text (the one a pipeline keeps),
    how it was found (``exact``/``near``), the evidence, and ``nearest``, the earlier
    document this text is most like (which may itself be a copy of ``key``; for an exact
    copy, ``key`` itself)."""

    key: str
    kind: str
    containment: float = 1.0
    jaccard: float = 1.0
    nearest: str = ""

    def __post_init__(self) -> None:
        if not self.nearest:
            object.__setattr__(self, "nearest", self.key)


class NearDuplicateIndex:
    """Finds the earlier copy of a text among the texts added so far."""

    def __init__(
        self, options: DedupOptions | None = None, store: DedupStore | None = None
    ) -> None:
        self.options = options or DedupOptions()
        self.store: DedupStore = (
            store if store is not None else MemoryDedupStore(self.options.lsh_bands)
        )

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
        return self._best(fp, docs, counts)

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
        batch = _Batch(opts)  # this batch's texts so far, as they will be stored
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
            match = self._best(fp, docs, counts)
            results[i] = match
            first = match.key if match is not None else key
            batch.add(i, key, fp, first, counts)
        self._store_batch(batch, fps, looks, results, counts)
        return results

    # -- internals ---------------------------------------------------------------------

    def _store_batch(
        self,
        batch: _Batch,
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
                match = self._best(fps[i], window, counts)
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
        return (fp.exact, list(dict.fromkeys(_looked_up(fp, self.options))), fp.signature)

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

    def _best(
        self, fp: Fingerprint, docs: Iterable[StoredDoc | None], counts: dict[int, int]
    ) -> Match | None:
        """The copy among ``docs`` that ``fp`` is most like (by the estimated Jaccard, then
        the shared sentences; the earlier on a tie), naming the first copy of its text."""
        found = [doc for doc in docs if doc is not None]
        if not found:
            return None
        # What the comparisons have in common, worked out once: this text's side of the
        # estimated Jaccard similarities, its long sentences and their length.
        similarities = jaccards(fp.signature, [doc.signature for doc in found])
        mine = dict(zip(fp.sentences, fp.sentence_chars, strict=True))
        own = sum(mine.values())
        best: Match | None = None
        for doc, jaccard in zip(found, similarities, strict=True):
            match = self._compare(fp, doc, counts, jaccard, mine, own)
            if match is not None and (
                best is None
                or (match.jaccard, match.containment) > (best.jaccard, best.containment)
            ):
                best = match
        return best

    def _similar_chars(self, fp: Fingerprint, doc: StoredDoc, counts: dict[int, int]) -> float:
        return _similar_chars_of(fp, doc, counts, self.options.boilerplate_docs)

    def _banded(self, fp: Fingerprint) -> bool:
        # Enough long sentences for the fingerprints to find any copy of a text: the LSH
        # bands (the heaviest part of the index) are kept for texts with few.
        return len(fp.sentences) < self.options.lsh_below_sentences

    def _compare(
        self,
        fp: Fingerprint,
        doc: StoredDoc,
        counts: dict[int, int],
        jaccard: float,
        mine: dict[int, int],
        own: int,
    ) -> Match | None:
        """Whether ``doc`` is a copy of the text of ``fp``, given their estimated Jaccard
        similarity, the text's long sentences (``mine``: hash -> characters, not changed)
        and their total length ``own``."""
        opts = self.options
        if not opts.near_rules:
            if jaccard < opts.min_jaccard:
                return None
            return Match(doc.first, "near", 1.0, round(jaccard, 3), doc.key)
        # Shared long sentences, weighted by their length, as a share of each text's long
        # sentences (boilerplate sentences left out on both sides).
        theirs = dict(zip(doc.sentences.tolist(), doc.sentence_chars.tolist(), strict=True))
        shared = mine.keys() & theirs.keys()
        if shared:
            # Boilerplate sentences (in more than ``boilerplate_docs`` documents) shared
            # by the two do not count, on either side. (Counting the candidate's own
            # sentences too would cost a read of all its sentences' counts, and changed
            # no answer on the labelled sets.)
            boilerplate = [d for d in shared if counts.get(d, 0) > opts.boilerplate_docs]
            if boilerplate:
                mine = mine.copy()
                for digest in boilerplate:
                    shared.discard(digest)
                    del mine[digest], theirs[digest]
                own = sum(mine.values())
        containment = coverage = 0.0
        excerpt = False
        common = sum(mine[d] for d in shared)
        others = sum(theirs.values())
        if shared:
            sizes = sorted((own, others))
            containment = common / sizes[0]
            coverage = common / sizes[1]
            # An excerpt: every long sentence of this text is in the earlier one, and they
            # are most of this text (a paragraph or two taken from a longer article; a
            # teaser, a much smaller part of it, is not).
            excerpt = (
                common == own
                and own >= opts.min_excerpt_share * fp.length
                and coverage >= opts.min_excerpt_coverage
            )
        if (
            not excerpt
            and (containment < opts.min_containment or coverage < opts.min_coverage)
            and jaccard >= opts.min_similar_jaccard
            and min(len(mine), len(theirs)) >= opts.min_similar_sentences
            and common >= opts.min_similar_anchor * own
            and len(doc.sketches)
        ):
            # Section 3's two-level similarity, for sentences edited (a word changed in
            # many sentences leaves few exact hashes): each long sentence counts by its
            # best sentence similarity with one of the other text's.
            similar = self._similar_chars(fp, doc, counts)
            sizes = sorted((own, others))
            if sizes[0]:
                containment = max(containment, similar / sizes[0])
                coverage = max(coverage, similar / sizes[1])
        # The shingle containment of the shorter text in the longer, from the Jaccard
        # estimate and the two sizes: |A & B| = J / (1 + J) * (|A| + |B|).
        small, large = sorted((max(fp.length, 1), max(doc.length, 1)))
        inside = jaccard / (1 + jaccard) * (small + large) / small if jaccard else 0.0
        if (
            excerpt
            or (
                containment >= opts.min_containment
                and coverage >= opts.min_coverage
                and jaccard >= opts.min_sentence_jaccard
            )
        ) or (
            jaccard >= opts.min_jaccard
            or (
                inside >= opts.min_shingle_containment
                and small >= opts.min_coverage * large
                # A short text inside a longer one by its shingles but sharing few of its
                # sentences is a shared frame (navigation, footer) around other text.
                and (containment >= opts.min_containment / 2 or not (mine and theirs))
            )
        ):
            # Each with figures and sentences of its own (a corrected figure alone changes
            # no sentence): two reports from one template, not one report twice.
            if (
                common < own
                and common < others
                and jaccard < opts.figures_below_jaccard
                and figures_disagree(fp.figures, doc.figures.tolist())
            ):
                return None
            return Match(doc.first, "near", round(containment, 3), round(jaccard, 3), doc.key)
        return None


def _similar_chars_of(fp: Fingerprint, doc: StoredDoc, counts: dict[int, int], limit: int) -> float:
    """The characters of ``fp``'s long sentences (boilerplate left out, on both sides),
    each weighted by its best sentence similarity with one of ``doc``'s (section 3's
    paragraph level, from the sentence level of ``fingerprint.sentence_similarity``)."""
    mine = [
        (chars, sketch)
        for digest, chars, sketch in zip(fp.sentences, fp.sentence_chars, fp.sketches, strict=False)
        if counts.get(digest, 0) <= limit
    ]
    if not mine:
        return 0.0
    keep = np.fromiter(
        (counts.get(d, 0) <= limit for d in doc.sentences.tolist()),
        dtype=bool,
        count=len(doc.sentences),
    )
    theirs = doc.sketches[keep[: len(doc.sketches)]]
    best = sentence_similarity(np.array([k for _, k in mine], dtype=np.int64), theirs)
    return float(np.dot([c for c, _ in mine], best))


def _looked_up(fp: Fingerprint, opts: DedupOptions) -> list[int]:
    """The sentence hashes a new text looks up: ``look_factor`` times as many of its
    longest and of its sample as a text posts (some may be in both)."""
    wide = opts.look_factor
    return (
        fp.longest[: opts.index_sentences * wide]
        + fp.sentences[: opts.sample_sentences * wide]
        + fp.fuzzy[: opts.fuzzy_sentences * wide]
    )


def _key_of(match: Match | None, own: str) -> str:
    return match.key if match is not None else own


class _Batch:
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
        for digest in _looked_up(fp, opts):
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
