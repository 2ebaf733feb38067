"""Articles and list pages, each compared with their own kind: ``PageIndex``.

An article (or a forum thread) is compared with the articles before it by every rule of
``NearDuplicateIndex`` (shared long sentences, excerpts, the two-level similarity, the
shingle Jaccard). A list page (a hub, a section front, a search result) is one text only
loosely: two pages of one section share teasers and are two pages, and an article must
never be taken for a copy of a list that quotes its first lines. So a list page is
compared with the articles for an exact copy only (it is not added to their index), and
with the list pages before it in an index of its own, where only a near-identical text
(estimated shingle Jaccard at least :data:`LIST_MIN_JACCARD`: the same list under another
address, with a date or a counter changed) is a copy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from scrapy_webclean.dedup.fingerprint import Fingerprint
from scrapy_webclean.dedup.index import DedupOptions, Match, NearDuplicateIndex
from scrapy_webclean.dedup.store import DedupStore

#: Estimated shingle Jaccard from which a list page copies an earlier one.
LIST_MIN_JACCARD = 0.9
#: List pages go into the LSH bands whatever their number of sentences: two copies of a
#: list share their teasers with the site's other lists, which the sentence postings
#: leave out as boilerplate.
_EVERY_LIST_BANDED = 1 << 30


def list_options(options: DedupOptions) -> DedupOptions:
    """The list pages' index's options, from the article index's."""
    return replace(
        options,
        near_rules=False,
        min_jaccard=LIST_MIN_JACCARD,
        lsh_below_sentences=_EVERY_LIST_BANDED,
    )


class PageIndex:
    """A ``NearDuplicateIndex`` of articles and one of list pages (see the module)."""

    def __init__(self, articles: NearDuplicateIndex, lists: NearDuplicateIndex) -> None:
        self.articles = articles
        self.lists = lists

    @classmethod
    def of_stores(cls, options: DedupOptions, articles: DedupStore, lists: DedupStore) -> PageIndex:
        """The two indexes over their stores (the list index's options: :func:`list_options`)."""
        return cls(
            NearDuplicateIndex(options, articles), NearDuplicateIndex(list_options(options), lists)
        )

    def __len__(self) -> int:
        return len(self.articles) + len(self.lists)

    def check_many(
        self,
        items: Sequence[tuple[str, str, bool]],
        fingerprints: Sequence[Fingerprint | None] = (),
    ) -> list[Match | None]:
        """For each ``(key, text, is_list)``, in order, its earlier copy or None; every
        text is added (see the module for what a list page is compared with).
        ``fingerprints`` are the texts' fingerprints where already computed (None where
        not, see ``NearDuplicateIndex.check_many``): each text is fingerprinted once, for
        both indexes (when their options have the same keywords, as ``of_stores`` makes them)."""
        fps = self.articles.fingerprints([text for _, text, _ in items], fingerprints)
        results = self.articles.check_many(items, fps)
        pending = [i for i, (_, _, is_list) in enumerate(items) if is_list and results[i] is None]
        if pending:
            same = self.lists.options.keywords == self.articles.options.keywords
            found = self.lists.check_many(
                [(items[i][0], items[i][1], False) for i in pending],
                [fps[i] for i in pending] if same else (),
            )
            for i, match in zip(pending, found, strict=True):
                results[i] = match
        return results
