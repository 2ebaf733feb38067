"""Text-overlap metrics for main-content extraction benchmarks.

Three per-page metrics, all returning precision, recall and F1 of a prediction against a
ground-truth text, and one way to average them over pages:

* :func:`token_f1` -- overlap of 4-token shingles (the method of the scrapinghub
  article-extraction benchmark). Each CJK character (Han ideographs, kana) is one token;
  other tokens are runs of letters and digits, split on whitespace and punctuation.
  Comparison is case-sensitive and uses multisets (a shingle that occurs twice in the
  truth can be matched twice).
* :func:`char_f1` -- all whitespace removed, matched characters = length of the longest
  common subsequence of prediction and truth. The LCS is exact, computed with a
  bit-parallel algorithm over Python integers (one big-integer pass per character of the
  longer text), which takes a few milliseconds on 20,000-character pages.
* :func:`word_f1` -- WCXB's metric (``../shared/datasets/README.md``): the lower-cased texts
  become multisets of ``\\w+`` tokens (Python's Unicode ``\\w``: a run of Han characters is one
  token), matched words = multiset intersection, per-page F1 of that precision and recall.
  Averaged with :func:`mean_f1`, the plain mean of per-page F1s.
* :func:`snippet_counts` -- the method of trafilatura's own evaluation: a page's truth is
  a few snippets that the text must hold ("with") and a few it must not ("without"); a
  "with" snippet found is a true positive, one missing a false negative, a "without"
  snippet found a false positive, one missing a true negative. Counts are summed over
  pages (:class:`SnippetCounts`) before precision, recall and F1 are taken. A snippet is
  found when its ``\\w+`` words (lower-cased, :func:`words`) occur in a row among the
  text's, its last word possibly cut short (WCXB cuts some snippets in the middle of a
  word: "... simplify hr and payrol", which whole words never match; how many of its own
  snippets each truth holds is printed under the extraction benchmark's snippet table):
  the same words with other quotes, dashes or spaces count (WCXB's snippets write the
  page's curly quotes straight).
* :func:`average` -- per-page precision and recall are averaged over pages, and F1 is the
  harmonic mean of the two averages (not the mean of per-page F1s). Token F1 and character
  F1 are averaged this way; the WCXB metric is not (:func:`mean_f1`).

Edge cases, the same for all three metrics, chosen as in the scrapinghub benchmark's
``evaluate.py`` so that its published figures stay comparable:

* an empty prediction has no precision (``None``): it is left out of the precision average
  and counts 0 in the recall average. An extractor that returns nothing (or fails) on a
  page therefore loses recall only; benchmarks should show how often that happens;
* an empty truth has no recall (``None``), and a non-empty prediction on it has precision 0.
  Benchmarks should rather leave such pages out of the scores and say so;
* both empty: no precision and no recall, per-page F1 = 1;
* the per-page F1 is 0 when either side is undefined (empty prediction or empty truth):
  so for the WCXB metric, whose average is the mean of per-page F1s, a page with an empty
  prediction scores 0, as the datasets' README defines WCXB's metric;
* shingles: when either text has fewer than 4 tokens, both texts are shingled with
  n = the smaller token count (down to unigrams), so a 2-word truth can still be matched.
  (The scrapinghub script makes a single short shingle of the short text instead.)

All functions are pure and depend on the standard library only.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import NamedTuple

#: Shingle size of the token metric.
SHINGLE_SIZE = 4

# Han ideographs (unified, extensions A-F, compatibility), CJK radicals, and the kana.
# Hangul is not here: Korean separates words with spaces, so a Hangul word is one token.
_CJK_RANGES = (
    "\u2e80-\u2fdf"  # CJK radicals, Kangxi radicals
    "\u3005\u3007"  # iteration mark, ideographic zero
    "\u3040-\u30ff"  # hiragana, katakana
    "\u3400-\u4dbf"  # extension A
    "\u4e00-\u9fff"  # unified ideographs
    "\uf900-\ufaff"  # compatibility ideographs
    "\U00020000-\U0003134f"  # extensions B-G
)
# A CJK character alone, or a run of word characters that are neither CJK nor "_".
_TOKEN_RE = re.compile(f"[{_CJK_RANGES}]|[^\\W_{_CJK_RANGES}]+")
_WHITESPACE_RE = re.compile(r"\s+")
_WORD_RE = re.compile(r"\w+")


class PRF(NamedTuple):
    """Precision, recall and F1, each in [0, 1].

    For one page, ``precision`` is None when the prediction is empty and ``recall`` is None
    when the truth is empty (see the module docstring); averages are always numbers.
    """

    precision: float | None
    recall: float | None
    f1: float


def harmonic_mean(precision: float, recall: float) -> float:
    """F1 of a precision and a recall: their harmonic mean, 0 when both are 0."""
    total = precision + recall
    return 2 * precision * recall / total if total > 0 else 0.0


def _from_counts(matched: int, predicted: int, truth: int) -> PRF:
    """P, R, F1 from a match count and the sizes of both sides, with the edge cases above."""
    if predicted == 0 and truth == 0:
        return PRF(None, None, 1.0)
    precision = matched / predicted if predicted else None
    recall = matched / truth if truth else None
    if precision is None or recall is None:
        return PRF(precision, recall, 0.0)
    return PRF(precision, recall, harmonic_mean(precision, recall))


def tokenize(text: str) -> list[str]:
    """Tokens of ``text``: each CJK character alone, other words split on spaces and punctuation.

    >>> tokenize("Hello, world! 中文abc")
    ['Hello', 'world', '中', '文', 'abc']
    """
    return _TOKEN_RE.findall(text)


def shingles(tokens: Sequence[str], size: int = SHINGLE_SIZE) -> Counter[tuple[str, ...]]:
    """Multiset of the ``size``-token windows of ``tokens`` (empty if there are fewer tokens)."""
    if size <= 0 or len(tokens) < size:
        return Counter()
    return Counter(tuple(tokens[i : i + size]) for i in range(len(tokens) - size + 1))


def token_f1(prediction: str, truth: str, size: int = SHINGLE_SIZE) -> PRF:
    """Shingle overlap of ``prediction`` and ``truth`` for one page.

    precision = shared shingles / predicted shingles, recall = shared / truth shingles,
    shared counted as a multiset intersection. Texts with fewer than ``size`` tokens are
    compared with shorter shingles (see the module docstring).
    """
    pred_tokens = tokenize(prediction)
    truth_tokens = tokenize(truth)
    if not pred_tokens or not truth_tokens:
        return _from_counts(0, len(pred_tokens), len(truth_tokens))
    n = min(size, len(pred_tokens), len(truth_tokens))
    pred = shingles(pred_tokens, n)
    gold = shingles(truth_tokens, n)
    matched = sum((pred & gold).values())
    return _from_counts(matched, sum(pred.values()), sum(gold.values()))


def strip_whitespace(text: str) -> str:
    """``text`` with every whitespace character removed."""
    return _WHITESPACE_RE.sub("", text)


def lcs_length(a: str, b: str) -> int:
    """Length of the longest common subsequence of two strings (exact).

    Bit-parallel LCS (Allison and Dix 1986; Hyyro 2004): bit ``i`` of a row vector stands for
    position ``i`` of the shorter string, and each character of the longer string updates
    the whole row with a few big-integer operations, O(len(a) * len(b) / 64) word
    operations in C. Characters of the longer string absent from the shorter one cannot
    change the row and are skipped.
    """
    if len(a) < len(b):
        a, b = b, a
    m = len(b)
    if m == 0:
        return 0
    positions: dict[str, list[int]] = {}
    for i, ch in enumerate(b):
        positions.setdefault(ch, []).append(i)
    masks: dict[str, int] = {}
    for ch, where in positions.items():
        bits = bytearray((where[-1] >> 3) + 1)
        for i in where:
            bits[i >> 3] |= 1 << (i & 7)
        masks[ch] = int.from_bytes(bits, "little")
    full = (1 << m) - 1
    row = full
    get = masks.get
    for ch in a:
        match = get(ch)
        if match is None:
            continue
        u = row & match
        row = ((row + u) | (row - u)) & full
    return m - row.bit_count()


def char_f1(prediction: str, truth: str) -> PRF:
    """Character overlap of ``prediction`` and ``truth`` for one page, whitespace removed.

    matched = LCS length; precision = matched / predicted characters, recall = matched /
    truth characters.
    """
    pred = strip_whitespace(prediction)
    gold = strip_whitespace(truth)
    if not pred or not gold:
        return _from_counts(0, len(pred), len(gold))
    return _from_counts(lcs_length(pred, gold), len(pred), len(gold))


def words(text: str) -> list[str]:
    """The ``\\w+`` tokens of the lower-cased ``text`` (WCXB's tokenization).

    >>> words("Hello, World! it's 2024")
    ['hello', 'world', 'it', 's', '2024']
    """
    return _WORD_RE.findall(text.lower())


def word_f1(prediction: str, truth: str) -> PRF:
    """WCXB's per-page metric: word overlap of the lower-cased texts, as multisets.

    precision = shared words / predicted words, recall = shared / truth words; an empty
    prediction has F1 0 (see the module docstring for the other edge cases).
    """
    pred = Counter(words(prediction))
    gold = Counter(words(truth))
    matched = sum((pred & gold).values())
    return _from_counts(matched, sum(pred.values()), sum(gold.values()))


class SnippetCounts(NamedTuple):
    """Snippets found and missed (see :func:`snippet_counts`), summed with ``+``."""

    true_positives: int = 0
    false_negatives: int = 0
    false_positives: int = 0
    true_negatives: int = 0

    def __add__(self, other: object) -> SnippetCounts:
        if not isinstance(other, SnippetCounts):
            return NotImplemented
        return SnippetCounts(*(a + b for a, b in zip(self, other, strict=True)))

    @property
    def prf(self) -> PRF:
        """Precision, recall and F1 of the counts (0.0 where nothing was counted)."""
        tp, fn, fp = self.true_positives, self.false_negatives, self.false_positives
        precision = tp / (tp + fp) if tp + fp else 0.0
        recall = tp / (tp + fn) if tp + fn else 0.0
        return PRF(precision, recall, harmonic_mean(precision, recall))

    @property
    def accuracy(self) -> float:
        """The share of snippets judged right (found "with", missing "without")."""
        total = sum(self)
        return (self.true_positives + self.true_negatives) / total if total else 0.0


def snippet_counts(
    prediction: str, with_snippets: Iterable[str], without_snippets: Iterable[str]
) -> SnippetCounts:
    """The snippets of one page that ``prediction`` holds and misses (a snippet without a
    word is not counted; its last word may be cut short).

    >>> snippet_counts("It’s here. Not there.", ["it's here"], ["not there", "menu"])
    SnippetCounts(true_positives=1, false_negatives=0, false_positives=1, true_negatives=1)
    >>> snippet_counts("Simplify HR and payroll.", ["simplify hr and payrol"], [])
    SnippetCounts(true_positives=1, false_negatives=0, false_positives=0, true_negatives=0)
    """
    text = " " + " ".join(words(prediction)) + " "

    def found(snippets: Iterable[str]) -> list[bool]:
        # (a snippet without a word, "—", is not counted; its words start at a word of
        # the text, and its last one may end inside one: a snippet cut mid-word)
        wanted = [" ".join(words(snippet)) for snippet in snippets]
        return [f" {w}" in text for w in wanted if w]

    hits = found(with_snippets)
    leaks = found(without_snippets)
    return SnippetCounts(sum(hits), len(hits) - sum(hits), sum(leaks), len(leaks) - sum(leaks))


def mean_f1(scores: Iterable[PRF]) -> float:
    """The mean of per-page F1s (WCXB's average); 0.0 for no pages."""
    values = [s.f1 for s in scores]
    return sum(values) / len(values) if values else 0.0


def average(scores: Iterable[PRF]) -> PRF:
    """Average per-page scores: mean precision, mean recall, F1 = their harmonic mean.

    Precision is averaged over the pages that have one (non-empty prediction), recall over
    the pages that have one (non-empty truth). No pages give ``PRF(0.0, 0.0, 0.0)``.
    """
    precisions = []
    recalls = []
    for s in scores:
        if s.precision is not None:
            precisions.append(s.precision)
        if s.recall is not None:
            recalls.append(s.recall)
    precision = sum(precisions) / len(precisions) if precisions else 0.0
    recall = sum(recalls) / len(recalls) if recalls else 0.0
    return PRF(precision, recall, harmonic_mean(precision, recall))
