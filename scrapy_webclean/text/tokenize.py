"""The one tokenizer: jieba words for Chinese runs, a regex word tokenizer for the rest.

jieba is loaded lazily, once per process, and used with ``HMM=False``: feature tokens need
to be stable and fast more than they need new-word discovery.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterable
from typing import Any

from scrapy_webclean.text.stopwords import all_stopwords

# Runs of CJK ideographs (with the CJK extension A block) versus everything else.
_CJK_RUN_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_WORD_RE = re.compile(r"\w+", re.UNICODE)

_jieba_lock = threading.Lock()
_jieba: Any = None


def _get_jieba() -> Any:
    """Import and initialise jieba once per process (its dictionary load takes ~1 s)."""
    global _jieba
    if _jieba is None:
        with _jieba_lock:
            if _jieba is None:
                import jieba

                jieba.setLogLevel(logging.WARNING)
                jieba.initialize()
                _jieba = jieba
    return _jieba


def _split_cjk(run: str) -> list[str]:
    if len(run) == 1:
        return [run]
    return [w for w in _get_jieba().lcut(run, HMM=False) if w.strip()]


def tokenize(text: str) -> list[str]:
    """Split ``text`` into word tokens, lowercased; punctuation and spaces dropped.

    Chinese runs are segmented with jieba, other scripts with a ``\\w+`` regex, so mixed
    text ("Python 3.11 发布了") yields ``["python", "3", "11", "发布", "了"]``.
    """
    tokens: list[str] = []
    position = 0
    for match in _CJK_RUN_RE.finditer(text):
        if match.start() > position:
            tokens.extend(w.lower() for w in _WORD_RE.findall(text, position, match.start()))
        tokens.extend(_split_cjk(match.group()))
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

    Used where only "how much do two texts share" matters (block similarity): bigrams of
    Chinese text overlap about as words do, at a fraction of jieba's cost (jieba runs at
    ~150k characters/s here). Stop words and single Latin letters or digits are dropped.
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
