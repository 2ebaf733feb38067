"""The two statistical models of ALGORITHMS.md section 2, learned online per site.

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
        self.store.add(site, _PAGES, (("", 1.0),))
        self.store.add(site, _URL, ((key, 1.0) for key in set(keys)))

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
        counts = Counter(words)
        if not counts:
            return
        pairs = [f"{word}\x00{key}" for word in counts]
        old = self.store.get(site, _TF, pairs)
        self.store.add(site, _TF, zip(pairs, map(float, counts.values()), strict=True))
        sums = []
        xlogx = []
        for (word, tf), before in zip(counts.items(), old, strict=True):
            after = before + tf
            sums.append((word, float(tf)))
            xlogx.append((word, _xlogx(after) - _xlogx(before)))
        self.store.add(site, _SUM, sums)
        self.store.add(site, _XLOGX, xlogx)

    def entropy(self, site: str, words: Sequence[str], links: int) -> float:
        """Mean word entropy (0-1) of a link described by ``words``, ``links`` being the
        number of links in the site's matrix; 0 for a link without words."""
        unique = list(dict.fromkeys(words))
        if not unique or links < 2:
            return 0.0
        sums = self.store.get(site, _SUM, unique)
        xlogxs = self.store.get(site, _XLOGX, unique)
        log_n = math.log(links)
        total = 0.0
        for s, t in zip(sums, xlogxs, strict=True):
            if s > 0:
                total += max(0.0, (math.log(s) - t / s) / log_n)
        return min(total / len(unique), 1.0)


def _xlogx(x: float) -> float:
    return x * math.log(x) if x > 0 else 0.0
