"""In-page TF-IDF and cosine pruning (docs/algorithms.md section 1).

The blocks of one page are the "documents": ``w(t, b) = tf(t, b) * log(N / n_t)``,
L2-normalised per block, ``N`` the number of blocks, ``n_t`` the blocks containing ``t``.
No corpus statistics are needed. The block with the most feature words is the main block;
a block whose cosine to it is *below* ``lambda`` is unrelated to the main text (the paper's
pseudo-code says "above"; its own text says unrelated blocks are the noise).

Feature words are :func:`scrapy_webclean.text.tokenize.content_tokens`: jieba's words for
Chinese text, as the paper segments it, and words elsewhere, stop words out. Words matter
here: a word's weight is its share of the blocks, and a character bigram straddling two
words (the 中国 of 发展中国家) counts in blocks that do not hold it. Its cost is paid
rarely: the TF-IDF is computed only when a line outside the main region passes the cheap
path-similarity judge first (``extraction/recovery.py``).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from scrapy_webclean.text.tokenize import content_tokens


def tfidf_vectors(texts: Sequence[str]) -> list[dict[str, float]]:
    """One L2-normalised TF-IDF vector per text, document frequencies from ``texts``."""
    counts = [Counter(content_tokens(text)) for text in texts]
    n = len(counts)
    df: Counter[str] = Counter()
    for c in counts:
        df.update(c.keys())
    vectors = []
    for c in counts:
        vector = {t: tf * math.log(n / df[t]) for t, tf in c.items() if df[t] < n}
        norm = math.sqrt(sum(w * w for w in vector.values()))
        vectors.append({t: w / norm for t, w in vector.items()} if norm else {})
    return vectors


def cosine(a: dict[str, float], b: dict[str, float]) -> float:
    """Cosine of two normalised sparse vectors (0-1)."""
    if len(a) > len(b):
        a, b = b, a
    return sum(w * b.get(t, 0.0) for t, w in a.items())


def prune_scores(texts: Sequence[str]) -> tuple[int, list[float]]:
    """The main block (most feature words) and every block's cosine to it (0-1)."""
    if not texts:
        return -1, []
    vectors = tfidf_vectors(texts)
    main = max(range(len(texts)), key=lambda i: len(vectors[i]))
    return main, [1.0 if i == main else cosine(vectors[main], v) for i, v in enumerate(vectors)]
