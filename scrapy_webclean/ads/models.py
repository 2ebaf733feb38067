"""The two statistical models of docs/algorithms.md section 2, learned online per site.

* :class:`UrlRedundancyModel` (NRelm2): ``p(u) = |Prev(u)| / |pages of the site crawled|``,
  the share of the site's pages seen so far that link image ``u``. Templates put the same
  logo, icon or ad on every page, so a high share marks noise.
* :class:`AnchorEntropyModel` (NRelm3): over the site's word-by-link matrix (a link's words:
  anchor text, alt, title and its file name's words), ``w_ij = tf_ij / sum_k tf_ik`` and
  ``E(t_i) = -sum_j w_ij log_n w_ij`` with ``n`` the number of links; a link's entropy is
  the mean entropy of its words. Words spread over many links carry little information:
  high entropy means noise.

Both keep plain counters in an :class:`~scrapy_webclean.ads.stats.AdStatsStore`. The
entropy is kept incrementally: per word ``S = sum_j tf_ij`` and ``T = sum_j tf_ij ln tf_ij``
give ``E = (ln S - T / S) / ln n`` without revisiting the matrix.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence

from scrapy_webclean.ads.stats import AdStatsStore

_PAGES = "pages"
_URL = "url"
_TF = "word_tf"
_SUM = "word_sum"
_XLOGX = "word_xlogx"


class UrlRedundancyModel:
    """NRelm2: on what share of a site's pages seen so far each image URL occurs."""

    def __init__(self, store: AdStatsStore) -> None:
        self.store = store

    def pages(self, site: str) -> int:
        """Pages of ``site`` observed so far."""
        return int(self.store.get(site, _PAGES, ("",))[0])

    def add_page(self, site: str, keys: Iterable[str]) -> None:
        """Count one more page of ``site`` and the (distinct) image keys on it."""
        self.store.add_many(site, self.page_updates(keys))

    @staticmethod
    def page_updates(keys: Iterable[str]) -> list[tuple[str, list[tuple[str, float]]]]:
        """The counter updates of :meth:`add_page`, for the store's ``add_many``."""
        return [(_PAGES, [("", 1.0)]), (_URL, [(key, 1.0) for key in set(keys)])]

    #: The family whose size is the number of distinct image keys (:meth:`links`).
    LINKS_FAMILY = _URL

    @staticmethod
    def reads(key: str) -> list[tuple[str, tuple[str, ...]]]:
        """What :meth:`share` needs for image ``key`` (the site's pages, the key's count),
        for the store's ``fetch``."""
        return [(_PAGES, ("",)), (_URL, (key,))]

    @staticmethod
    def share(count: float, pages: int) -> float:
        """``p(u)`` from the key's count and the site's pages."""
        return min(count / pages, 1.0) if pages else 0.0

    def redundancy(self, site: str, keys: Sequence[str]) -> list[float]:
        """``p(u)`` (0-1) for each key; 0 before any page of the site was seen."""
        pages = self.pages(site)
        if not pages:
            return [0.0] * len(keys)
        return [min(count / pages, 1.0) for count in self.store.get(site, _URL, keys)]

    def links(self, site: str) -> int:
        """Distinct image keys seen on ``site`` (the ``n`` of the entropy model)."""
        return self.store.size(site, _URL)


class AnchorEntropyModel:
    """NRelm3: the entropy of a link's words over the site's word-by-link matrix."""

    def __init__(self, store: AdStatsStore) -> None:
        self.store = store

    def add_link(self, site: str, key: str, words: Iterable[str]) -> None:
        """Add one occurrence of link ``key`` described by ``words``."""
        self.store.add_many(site, self.updates(site, [(key, words)]))

    def updates(
        self, site: str, links: Iterable[tuple[str, Iterable[str]]]
    ) -> list[tuple[str, list[tuple[str, float]]]]:
        """The counter updates that add the occurrences of links ``(key, words)`` (a
        page's), for the store's ``add_many``: one read of the matrix cells they touch."""
        cells: Counter[str] = Counter()
        for key, words in links:
            for word in words:
                cells[f"{word}\x00{key}"] += 1
        if not cells:
            return []
        pairs = list(cells)
        old = self.store.get(site, _TF, pairs)
        sums: Counter[str] = Counter()
        xlogx: dict[str, float] = {}
        for (pair, tf), before in zip(cells.items(), old, strict=True):
            word = pair.split("\x00", 1)[0]
            sums[word] += tf
            xlogx[word] = xlogx.get(word, 0.0) + _xlogx(before + tf) - _xlogx(before)
        return [
            (_TF, [(pair, float(tf)) for pair, tf in cells.items()]),
            (_SUM, [(word, float(total)) for word, total in sums.items()]),
            (_XLOGX, list(xlogx.items())),
        ]

    def entropy(self, site: str, words: Sequence[str], links: int) -> float:
        """Mean word entropy (0-1) of a link described by ``words``, ``links`` being the
        number of links in the site's matrix; 0 for a link without words."""
        unique = list(dict.fromkeys(words))
        if not unique or links < 2:
            return 0.0
        (sums, xlogxs), _ = self.store.fetch(site, [(_SUM, unique), (_XLOGX, unique)])
        return self.entropy_of(sums, xlogxs, links)

    @staticmethod
    def reads(words: Sequence[str]) -> list[tuple[str, list[str]]]:
        """What :meth:`entropy_of` needs, for the store's ``fetch`` (distinct words)."""
        unique = list(dict.fromkeys(words))
        return [(_SUM, unique), (_XLOGX, unique)]

    @staticmethod
    def entropy_of(sums: Sequence[float], xlogxs: Sequence[float], links: int) -> float:
        """:meth:`entropy` from the words' ``S`` and ``T`` counters (see the module)."""
        if not sums or links < 2:
            return 0.0
        log_n = math.log(links)
        total = 0.0
        for s, t in zip(sums, xlogxs, strict=True):
            if s > 0:
                total += max(0.0, (math.log(s) - t / s) / log_n)
        return min(total / len(sums), 1.0)


def _xlogx(x: float) -> float:
    return x * math.log(x) if x > 0 else 0.0
