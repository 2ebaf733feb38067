"""The one tokenizer: jieba words for Chinese runs, a regex word tokenizer for the rest.

Where words matter, Chinese text is cut into words by jieba: the noise words (NRelm1) and
the word-by-link matrix (NRelm3) of image links' anchor, alt and title text (``ads/``,
through :func:`chinese_words`), the in-page TF-IDF of the page's blocks
(``extraction/tfidf.py``: :func:`content_tokens`) and the paragraphs that query keywords
are looked for in (``dedup/fingerprint.py``: :func:`search_tokens`). Where only how much
two texts share matters (block similarity), character bigrams do as well at a fraction of
the cost: :func:`overlap_tokens`.

jieba is loaded lazily, once per process, on the first Chinese text to cut (its dictionary
load takes 1-1.5 s, about 70 MB), or up front by :func:`load_segmenter` (a crawl does so
before its first request, whether or not it will meet Chinese: a load on its first Chinese
page would block Scrapy's event loop for that long), and used with ``HMM=False``: feature tokens need to be stable and
fast more than they need new-word discovery. Its words are cut by
:class:`~scrapy_webclean.text.segmenter.Segmenter` (jieba's dictionary and algorithm, the
same words about 1.6x faster than ``jieba.lcut``): :func:`tokenize` reads about 480k
Chinese characters per CPU second here, character bigrams about 2 million
(``benchmarks/jieba_cost.py``); the last cuts are remembered (:data:`CUT_CACHE_RUNS`).
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterable
from functools import lru_cache

from scrapy_webclean.text.segmenter import Segmenter
from scrapy_webclean.text.stopwords import all_stopwords

# Runs of CJK ideographs (with the CJK extension A block) versus everything else.
_CJK_RUN_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_WORD_RE = re.compile(r"\w+", re.UNICODE)

#: Chinese runs whose cut is remembered: the pages of a site repeat their menus, footers
#: and image captions, and jieba's cut is the costly part of tokenizing Chinese text.
CUT_CACHE_RUNS = 32_768

_jieba_lock = threading.Lock()
_segmenter: Segmenter | None = None


def _get_segmenter() -> Segmenter:
    """Import and initialise jieba once per process (its dictionary load takes ~1 s)."""
    global _segmenter
    if _segmenter is None:
        with _jieba_lock:
            if _segmenter is None:
                import jieba

                jieba.setLogLevel(logging.WARNING)
                jieba.initialize()
                _segmenter = Segmenter(jieba.dt)
    return _segmenter


def load_segmenter() -> None:
    """Load jieba's dictionary now, once per process, instead of on the first Chinese text
    to cut (about a second of CPU)."""
    _get_segmenter()


def chinese_words(run: str, search: bool = False) -> list[str]:
    """jieba's words of a run of Chinese characters. With ``search`` (jieba's search mode),
    a long word is followed by the dictionary words inside it (北京市 gives 北京, 北京市),
    for matching a query or a word list against text."""
    if len(run) == 1:
        return [run]
    return list(_cut(run, search))


@lru_cache(maxsize=CUT_CACHE_RUNS)
def _cut(run: str, search: bool) -> tuple[str, ...]:
    segmenter = _get_segmenter()
    words = segmenter.cut_for_search(run) if search else segmenter.cut(run)
    return tuple(w for w in words if w.strip())


def is_chinese(text: str) -> bool:
    """True when ``text`` holds a CJK ideograph (the runs :func:`tokenize` gives jieba)."""
    return _CJK_RUN_RE.search(text) is not None


def tokenize(text: str) -> list[str]:
    """Split ``text`` into word tokens, lowercased; punctuation and spaces dropped.

    Chinese runs are segmented with jieba, other scripts with a ``\\w+`` regex, so mixed
    text ("Python 3.11 发布了") yields ``["python", "3", "11", "发布", "了"]``.
    """
    return _tokens(text, search=False)


def search_tokens(text: str) -> list[str]:
    """:func:`tokenize` with jieba's search mode for Chinese runs: each word, and the
    dictionary words inside a long one (赞助商 gives 赞助, 赞助商), so that a query word or
    a listed word matches the compounds built on it, never across two words (宽广告别 is
    宽广 告别: no 广告)."""
    return _tokens(text, search=True)


def _tokens(text: str, search: bool) -> list[str]:
    tokens: list[str] = []
    position = 0
    for match in _CJK_RUN_RE.finditer(text):
        if match.start() > position:
            tokens.extend(w.lower() for w in _WORD_RE.findall(text, position, match.start()))
        tokens.extend(chinese_words(match.group(), search))
        position = match.end()
    if position < len(text):
        tokens.extend(w.lower() for w in _WORD_RE.findall(text, position))
    return tokens


def content_tokens(text: str, stop: Iterable[str] | None = None) -> list[str]:
    """Tokens of ``text`` without stop words and without single Latin letters or digits.

    Single Chinese characters are kept (many carry meaning); ``stop`` defaults to the
    Chinese and English stop-word lists together.
    """
    stopset = all_stopwords() if stop is None else frozenset(stop)
    return [
        t
        for t in tokenize(text)
        if t not in stopset and not (len(t) == 1 and t.isascii()) and not t.isdigit()
    ]


def overlap_tokens(text: str, stop: Iterable[str] | None = None) -> list[str]:
    """Cheap tokens for overlap measures: character bigrams of CJK runs, words elsewhere.

    Used where only "how much do two texts share" matters (block similarity,
    ``segmentation/classify.py``): bigrams of Chinese text overlap about as words do, at a
    fraction of jieba's cost. Stop words and single Latin letters or digits are dropped.
    """
    stopset = all_stopwords() if stop is None else frozenset(stop)
    tokens: list[str] = []
    position = 0
    for match in _CJK_RUN_RE.finditer(text):
        if match.start() > position:
            tokens.extend(_latin_words(text, position, match.start(), stopset))
        run = match.group()
        if len(run) == 1:
            tokens.append(run)
        else:
            tokens.extend(run[i : i + 2] for i in range(len(run) - 1))
        position = match.end()
    if position < len(text):
        tokens.extend(_latin_words(text, position, len(text), stopset))
    return tokens


def _latin_words(text: str, start: int, end: int, stopset: frozenset[str]) -> list[str]:
    words = (w.lower() for w in _WORD_RE.findall(text, start, end))
    return [
        w
        for w in words
        if w not in stopset and not (len(w) == 1 and w.isascii()) and not w.isdigit()
    ]
