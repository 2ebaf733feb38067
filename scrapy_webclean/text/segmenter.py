"""jieba's word segmentation of Chinese runs, in a tighter loop.

The words are jieba's: its dictionary (``jieba.dt.FREQ``, loaded once per process by
jieba itself) and its ``HMM=False`` algorithm, the most probable path through the graph of
dictionary words of a run (each word's probability its dictionary frequency over the
total). jieba computes that path with a generator, a dict of lists and a logarithm per
edge; this module keeps each word's log-probability once it is first needed and walks
plain lists, which cuts the same words about 1.6x faster (``benchmarks/jieba_cost.py``).
``tests/test_tokenize.py`` checks the output against ``jieba.lcut`` and
``jieba.lcut_for_search`` word for word.

Characters that jieba's own pattern does not treat as Chinese (outside U+4E00-U+9FD5: the
extension A block, the compatibility ideographs) are single words, as jieba yields them.
"""

from __future__ import annotations

import math
import re
import threading
from typing import Any

# What jieba's default cut reads as one block of Chinese (its ``re_han_default`` for the
# characters that reach this module): anything else is yielded one character at a time.
_JIEBA_HAN_RE = re.compile(r"[\u4e00-\u9fd5]+")


class Segmenter:
    """Cuts Chinese runs into jieba's words (``cut``) or its search-mode words
    (``cut_for_search``), with the dictionary of an initialised ``jieba.Tokenizer``."""

    def __init__(self, tokenizer: Any) -> None:
        self._freq: dict[str, int] = tokenizer.FREQ
        self._log_total = math.log(tokenizer.total)
        self._log_prob: dict[str, float] = {}
        self._lock = threading.Lock()

    def _word_log_prob(self, word: str) -> float:
        value = math.log(self._freq.get(word) or 1) - self._log_total
        with self._lock:
            self._log_prob[word] = value
        return value

    def cut(self, run: str) -> list[str]:
        """jieba's words of ``run`` (``jieba.lcut(run, HMM=False)`` for a Chinese run)."""
        words: list[str] = []
        position = 0
        for match in _JIEBA_HAN_RE.finditer(run):
            words.extend(run[position : match.start()])
            words.extend(self._best_path(match.group()))
            position = match.end()
        words.extend(run[position:])
        return words

    def cut_for_search(self, run: str) -> list[str]:
        """jieba's search mode: before each word longer than two characters, its dictionary
        words of two, then (longer than three) of three characters."""
        freq = self._freq
        words: list[str] = []
        for word in self.cut(run):
            size = len(word)
            if size > 2:
                words.extend(g for i in range(size - 1) if freq.get(g := word[i : i + 2]))
                if size > 3:
                    words.extend(g for i in range(size - 2) if freq.get(g := word[i : i + 3]))
            words.append(word)
        return words

    def _best_path(self, text: str) -> list[str]:
        n = len(text)
        freq = self._freq
        # The dictionary words starting at each position (their end positions); a prefix
        # with frequency 0 is in the dictionary only to let longer words be found.
        ends: list[list[int]] = []
        for start in range(n):
            here = []
            stop = start + 1
            piece = text[start]
            while stop <= n and piece in freq:
                if freq[piece]:
                    here.append(stop)
                stop += 1
                piece = text[start:stop]
            ends.append(here or [start + 1])
        # The most probable path from each position to the end, right to left; ties go
        # to the later end, as jieba's ``max`` over (probability, end) pairs does.
        score = [0.0] * (n + 1)
        step = [0] * (n + 1)
        log_prob = self._log_prob.get
        for start in range(n - 1, -1, -1):
            best = -math.inf
            best_end = 0
            for end in ends[start]:
                word = text[start:end]
                value = log_prob(word)
                if value is None:
                    value = self._word_log_prob(word)
                value += score[end]
                if value > best or (value == best and end > best_end):
                    best, best_end = value, end
            score[start] = best
            step[start] = best_end
        words = []
        start = 0
        while start < n:
            end = step[start]
            words.append(text[start:end])
            start = end
        return words
