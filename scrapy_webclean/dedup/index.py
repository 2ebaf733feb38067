"""``NearDuplicateIndex``: is this text a copy of one seen before? (ALGORITHMS.md section 3)

Three ways to find the earlier copy, cheapest first:

1. **exact**: the hash of the normalised text (reprints that change nothing but spacing);
2. **long-sentence fingerprints**: the documents that share a long sentence with this one
   (an inverted index over the hashes of each document's longest sentences). A sentence
   found in more than ``boilerplate_docs`` documents is boilerplate (a shared navigation
   line, a widely quoted sentence) and no longer counts, the method's known weak spot;
3. **MinHash LSH** (datasketch) on character shingles: partial copies whose sentences were
   all touched (edits inside every sentence, new punctuation).

Every candidate is then checked: by the share of its long sentences the two documents
have in common (of the shorter one's, and of the longer one's, so that a truncated copy
matches and a page quoting one paragraph of another does not), and by the Jaccard
similarity estimated from the two MinHash signatures. The first document seen wins: a later
copy names it.

Memory per document: an exact-hash entry, up to ``index_sentences + sample_sentences``
postings, up to ``MAX_SENTENCES`` 8-byte sentence hashes, a ``NUM_PERM`` x 4-byte
signature, and LSH band keys for texts with few long sentences; see ``DedupStore`` for
where they live.
"""

from __future__ import annotations

from dataclasses import dataclass

from datasketch import LeanMinHash, MinHashLSH

from scrapy_webclean.dedup.fingerprint import NUM_PERM, Fingerprint, fingerprint
from scrapy_webclean.dedup.fingerprint import jaccard as estimated_jaccard
from scrapy_webclean.dedup.store import DedupStore, MemoryDedupStore, StoredDoc


@dataclass(slots=True, frozen=True)
class DedupOptions:
    """Thresholds of :class:`NearDuplicateIndex` (all shares 0-1)."""

    #: Sentences a document posts in the inverted index: its longest (the paper's m) ...
    index_sentences: int = 4
    #: ... and a sample that edits cannot bias: those with the smallest hashes (a bottom-k
    #: sketch of its sentences; near copies share most of it).
    sample_sentences: int = 6
    #: A sentence in more documents than this is boilerplate.
    boilerplate_docs: int = 5
    #: Long sentences shared, as a share of the document with fewer of them ...
    min_containment: float = 0.6
    #: ... and of the one with more (a 60% truncation shares 60% of the original's).
    min_coverage: float = 0.3
    #: ... with at least this estimated Jaccard of the shingle sets (sentences shared by
    #: two short texts can be a shared footer).
    min_sentence_jaccard: float = 0.2
    #: Estimated Jaccard of the shingle sets that alone makes a copy.
    min_jaccard: float = 0.6
    #: Estimated share of the shorter text's shingles found in the longer one (a
    #: truncated or edited copy), with the shorter at least ``min_coverage`` of the longer.
    min_shingle_containment: float = 0.9
    #: LSH bands x rows over the signature (b * r = NUM_PERM); 16 x 4 finds pairs from a
    #: Jaccard of about 0.5 up.
    lsh_bands: int = 16
    #: Texts with fewer long sentences than this go into the LSH (all are looked up in it).
    lsh_below_sentences: int = 6
    #: Query keywords: long sentences from the logical paragraphs around them.
    keywords: tuple[str, ...] = ()


@dataclass(slots=True, frozen=True)
class Match:
    """An earlier copy: its key, how it was found (``exact``/``near``) and the evidence."""

    key: str
    kind: str
    containment: float = 1.0
    jaccard: float = 1.0


class NearDuplicateIndex:
    """Finds the earlier copy of a text among the texts added so far."""

    def __init__(
        self, options: DedupOptions | None = None, store: DedupStore | None = None
    ) -> None:
        self.options = options or DedupOptions()
        self.store: DedupStore = store if store is not None else MemoryDedupStore()
        rows = NUM_PERM // self.options.lsh_bands
        self.lsh = MinHashLSH(num_perm=NUM_PERM, params=(self.options.lsh_bands, rows))

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
        fp = fingerprint(text, self.options.keywords)
        if exact_only:
            earlier = self.store.exact(fp.exact)
            if add and earlier is None:
                self.store.add_exact(key, fp.exact)
            return Match(self.store.first(earlier), "exact") if earlier is not None else None
        match = self._find(fp)
        if add:
            self._add(key, fp, match.key if match is not None else None)
        return match

    # -- internals ---------------------------------------------------------------------

    def _find(self, fp: Fingerprint) -> Match | None:
        earlier = self.store.exact(fp.exact)
        if earlier is not None:
            return Match(self.store.first(earlier), "exact")
        opts = self.options
        candidates: set[int] = set()
        if fp.sentences:
            for posting in self.store.postings(fp.longest[: opts.index_sentences * 2]):
                if len(posting) <= opts.boilerplate_docs:
                    candidates.update(posting)
            for posting in self.store.postings(fp.sentences[: opts.sample_sentences * 2]):
                if len(posting) <= opts.boilerplate_docs:
                    candidates.update(posting)
        lean = LeanMinHash(seed=1, hashvalues=fp.signature, scheme="affine32")
        candidates.update(self.lsh.query(lean))
        best: tuple[int, Match] | None = None
        for doc_id in sorted(candidates):
            doc = self.store.doc(doc_id)
            if doc is None:  # an exact-only entry
                continue
            match = self._compare(fp, doc)
            if match is not None and (best is None or doc_id < best[0]):
                best = (doc_id, match)
                break  # candidates are in insertion order: the first copy wins
        return best[1] if best is not None else None

    def _compare(self, fp: Fingerprint, doc: StoredDoc) -> Match | None:
        opts = self.options
        jaccard = estimated_jaccard(fp.signature, doc.signature)
        # Shared long sentences, weighted by their length, as a share of each text's long
        # sentences (boilerplate sentences left out on both sides).
        mine = dict(zip(fp.sentences, fp.sentence_chars, strict=True))
        theirs = dict(zip(doc.sentences.tolist(), doc.sentence_chars.tolist(), strict=True))
        shared = mine.keys() & theirs.keys()
        if shared:
            for digest in self.store.boilerplate(shared, opts.boilerplate_docs):
                shared.discard(digest)
                mine.pop(digest, None)
                theirs.pop(digest, None)
        containment = coverage = 0.0
        if shared:
            common = sum(mine[d] for d in shared)
            sizes = sorted((sum(mine.values()), sum(theirs.values())))
            containment = common / sizes[0]
            coverage = common / sizes[1]
        # The shingle containment of the shorter text in the longer, from the Jaccard
        # estimate and the two sizes: |A & B| = J / (1 + J) * (|A| + |B|).
        small, large = sorted((max(fp.length, 1), max(doc.length, 1)))
        inside = jaccard / (1 + jaccard) * (small + large) / small if jaccard else 0.0
        if (
            containment >= opts.min_containment
            and coverage >= opts.min_coverage
            and jaccard >= opts.min_sentence_jaccard
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
            return Match(doc.first, "near", round(containment, 3), round(jaccard, 3))
        return None

    def _add(self, key: str, fp: Fingerprint, first: str | None = None) -> None:
        opts = self.options
        posted = dict.fromkeys(fp.longest[: opts.index_sentences])
        posted.update(dict.fromkeys(fp.sentences[: opts.sample_sentences]))
        doc_id = self.store.add(key, fp, list(posted), first)
        if len(fp.sentences) >= opts.lsh_below_sentences:
            # Enough long sentences for the fingerprints to find any copy of it: the LSH
            # (the heaviest part of the index) is kept for texts with few.
            return
        self.lsh.insert(
            doc_id,
            LeanMinHash(seed=1, hashvalues=fp.signature, scheme="affine32"),
            check_duplication=False,
        )
