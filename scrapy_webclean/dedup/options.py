"""The thresholds of near-duplicate detection (:class:`DedupOptions`), read by
``dedup.index`` (what a text posts and looks up) and ``dedup.compare`` (when a document
is a copy)."""

from __future__ import annotations

from dataclasses import dataclass


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
