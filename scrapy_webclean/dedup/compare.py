"""Whether a stored document is a copy of a new text, and which of several is its copy
(docs/algorithms.md section 3): the shared long sentences (exactly, then by section 3's
two-level similarity), the excerpt rule, the estimated shingle Jaccard and containment,
and the figures that tell two reports from one template apart. The rules are described
in ``dedup.index``; their thresholds are :class:`~scrapy_webclean.dedup.options.DedupOptions`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from scrapy_webclean.dedup.fingerprint import (
    Fingerprint,
    figures_disagree,
    jaccards,
    sentence_similarity,
)
from scrapy_webclean.dedup.options import DedupOptions
from scrapy_webclean.dedup.store import StoredDoc


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


class CopyJudge:
    """Judges stored documents as copies of a new text, with the thresholds of
    ``options``."""

    def __init__(self, options: DedupOptions) -> None:
        self.options = options

    def best(
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
            match = self.compare(fp, doc, counts, jaccard, mine, own)
            if match is not None and (
                best is None
                or (match.jaccard, match.containment) > (best.jaccard, best.containment)
            ):
                best = match
        return best

    def similar_chars(self, fp: Fingerprint, doc: StoredDoc, counts: dict[int, int]) -> float:
        """The characters of ``fp``'s long sentences (boilerplate left out, on both sides),
        each weighted by its best sentence similarity with one of ``doc``'s (section 3's
        paragraph level, from the sentence level of ``fingerprint.sentence_similarity``)."""
        limit = self.options.boilerplate_docs
        mine = [
            (chars, sketch)
            for digest, chars, sketch in zip(
                fp.sentences, fp.sentence_chars, fp.sketches, strict=False
            )
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

    def compare(
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
            similar = self.similar_chars(fp, doc, counts)
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
