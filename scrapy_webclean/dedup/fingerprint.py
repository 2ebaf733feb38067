"""What a document leaves in the near-duplicate index (docs/algorithms.md section 3).

* an exact hash of the normalised text (case, width and whitespace folded);
* its *long sentences*, hashed: a sentence of at least 9 CJK characters (the paper's
  ``k``) or, in space-separated languages, at least :data:`MIN_WORDS` words. Eight words:
  a dateline, byline, caption credit or menu entry is shorter, nearly every sentence of
  news prose is longer (English news averages about 20 words a sentence), and two
  independent 8-word sentences are as unlikely to coincide as two 9-character Chinese ones;
* a MinHash signature of its character 5-gram shingles (over the text with whitespace
  and punctuation removed, so the same shingles arise in Chinese and English), by one
  permutation hashing in numpy.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from scrapy_webclean.dedup.furniture import strip_furniture
from scrapy_webclean.text.datepatterns import DATE_OR_TIME_DIGITS
from scrapy_webclean.text.tokenize import is_chinese, search_tokens, tokenize

#: Minimum length of a long sentence: CJK characters (the paper's k) / words elsewhere.
MIN_CJK_CHARS = 9
MIN_WORDS = 8
#: Long sentences kept per document (a sample: those with the smallest hashes).
MAX_SENTENCES = 48
#: Longest long sentences remembered for the candidate look-up.
LONGEST = 16
#: Figures kept per document (see :func:`figures`).
MAX_FIGURES = 24
#: Shingle length (characters) and MinHash size.
SHINGLE = 5
NUM_PERM = 64
#: A long sentence's *edit-tolerant key*: the smallest hash of its character 4-grams
#: (digits masked, no whitespace). Two sentences share it with a probability of about the
#: Jaccard similarity of their 4-gram sets: a word changed in a 20-word sentence keeps it
#: nine times in ten, where the sentence's exact hash is lost.
FUZZY_GRAM = 4
#: Edit-tolerant keys kept per document (the smallest: a bottom-k sample).
MAX_FUZZY = 32
_FUZZY_TAG = 0x5BD1E9955BD1E995  # keeps the keys apart from the sentences' exact hashes
#: The two-level similarity's sentence level (section 3): ``l1 * WordSim + l2 * OrdSim``,
#: word forms dominant; word order from grams long enough to span two words.
WORD_WEIGHT = 0.7
ORDER_WEIGHT = 0.3
ORDER_GRAM = 8
#: A sentence similarity under this is chance (see :func:`sentence_similarity`): two of
#: the three minima must agree (0.7, or 0.35 + 0.3).
MIN_SENTENCE_SIMILARITY = 0.6


def _runs(chars: str) -> str:
    """A run of the characters of the class ``chars``: ``[chars]+``, written
    ``[chars][chars]*``, the same pattern, because the regex engine scans fast for a
    pattern that opens with a character class (and not for one that opens with a repeat)."""
    return f"[{chars}][{chars}]*"


_ENDS = "。！？!?；;…\n"
#: A sentence end: a run of end marks, or a full stop after a word (not in "3.5", "a . b").
#: (One class opens the pattern, the full stop included, for the same fast scan.)
_SENTENCE_END_RE = re.compile(rf"[{_ENDS}.](?:(?<=[{_ENDS}])[{_ENDS}]*|(?<=[^\d\s]\.)(?=\s|$))")
#: A figure: digits, with inner separators ("3.5", "82,484"); at least two characters.
_FIGURE_RE = re.compile(r"[0-9][0-9.,]*[0-9]")
#: The dates and times of day of a text, which are not figures (see :func:`figures`).
_DATE_OR_TIME_RE = re.compile(DATE_OR_TIME_DIGITS)
_DIGITS_RE = re.compile(_runs("0-9"))
_CJK = "\u3400-\u9fff\uf900-\ufaff"
_CJK_RUN_RE = re.compile(_runs(_CJK))
_WORD_RE = re.compile(_runs(r"^\W_"))
_STRIP_RE = re.compile(_runs(r"\W_"))
#: Punctuation inside sentences (not the sentence ends): dropped before the sentences are
#: compared, so that a reformatted copy's "，" and "," agree.
_INNER_PUNCT_RE = re.compile(_runs(r"，、：:“”‘’\"'（）()《》〈〉【】\[\]「」『』«»·,\-–—/"))

_BASE = np.uint64(1_000_003)
_MIX = np.uint64(0x9E3779B97F4A7C15)  # 2^64 / golden ratio: a multiplicative mixer
_BIN_BITS = NUM_PERM.bit_length() - 1  # NUM_PERM is a power of two
#: The value of a bin no shingle fell into.
EMPTY = np.uint32(0xFFFFFFFF)
_EMPTY_SIGNATURE: npt.NDArray[np.uint32] = np.full(NUM_PERM, EMPTY, dtype=np.uint32)
_MIX_SHIFT = np.uint64(29)
_MIX_2 = np.uint64(0xC2B2AE3D27D4EB4F)  # a second mixer: another minimum of the same grams
_BIN_SHIFT = np.uint64(64 - _BIN_BITS)


@dataclass(slots=True)
class Fingerprint:
    """A document's traces: ``exact`` (64-bit), ``sentences`` (64-bit hashes of its long
    sentences: the :data:`MAX_SENTENCES` smallest, in hash order, a sample that truncation
    and edits do not bias), ``signature`` (MinHash, ``NUM_PERM`` 32-bit values), ``length``
    (characters of the compared text), ``sentence_chars`` and ``longest``."""

    exact: int
    sentences: list[int]
    signature: npt.NDArray[np.uint32]
    length: int
    #: Characters of each long sentence (same order as ``sentences``).
    sentence_chars: list[int]
    #: Hashes of the longest long sentences, longest first (the paper's m longest).
    longest: list[int]
    #: The figures the text states (see :func:`figures`).
    figures: list[int]
    #: The edit-tolerant keys of its long sentences (:func:`fuzzy_keys`), smallest first.
    fuzzy: list[int] = field(default_factory=list)
    #: Each sampled sentence's sketch (:func:`sentence_sketches`; same order as
    #: ``sentences``).
    sketches: list[int] = field(default_factory=list)


#: Full-width digits and letters to ASCII: the part of NFKC that changes how a text
#: compares (punctuation is dropped anyway), at a fraction of its cost.
_WIDTH = {
    code: code - 0xFEE0
    for start, end in ((0xFF10, 0xFF1A), (0xFF21, 0xFF3B), (0xFF41, 0xFF5B))
    for code in range(start, end)
}
_WIDE_RE = re.compile("[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]")


def normalize(text: str) -> str:
    """Full-width digits and letters folded to ASCII, lower case, whitespace runs (the
    ideographic space included) to one space."""
    if _WIDE_RE.search(text):
        text = text.translate(_WIDTH)
    return " ".join(text.lower().split())


def _hash64(data: str) -> int:
    digest = hashlib.blake2b(data.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def long_sentences(text: str) -> list[str]:
    """The long sentences of normalised ``text``, as compared: without whitespace;
    distinct, longest first."""
    found: dict[str, None] = {}
    for piece in _SENTENCE_END_RE.split(text):
        if len(piece) < MIN_CJK_CHARS:  # too short for either kind of long sentence
            continue
        # (counted with findall, linear; a pattern that counts by repetition backtracks
        # without bound on a long run of the other kind of character)
        if piece.isascii():
            long = len(_WORD_RE.findall(piece)) >= MIN_WORDS
        else:
            cjk = sum(map(len, _CJK_RUN_RE.findall(piece)))
            long = cjk >= MIN_CJK_CHARS or len(_WORD_RE.findall(piece)) - cjk >= MIN_WORDS
        if long:
            found.setdefault("".join(piece.split()), None)
    return sorted(found, key=len, reverse=True)


def signature(compact: str) -> npt.NDArray[np.uint32]:
    """MinHash of the character shingles of ``compact`` (text without whitespace), by one
    permutation hashing: each shingle's 64-bit hash (a polynomial over code points, then
    mixed) picks one of ``NUM_PERM`` bins by its top bits, and each bin keeps its smallest
    low 32 bits. One pass over the shingles instead of one per permutation; two texts agree
    on a bin with probability their Jaccard similarity. An empty bin holds :data:`EMPTY`.
    """
    codes = np.frombuffer(compact.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    if len(codes) < SHINGLE:
        codes = np.concatenate([codes, np.zeros(SHINGLE - len(codes), dtype=np.uint64)])
    count = len(codes) - SHINGLE + 1
    # (Horner's rule, in place: ((c0 * B + c1) * B + ...) * B + c4)
    hashes = codes[:count] * _BASE
    for offset in range(1, SHINGLE - 1):
        hashes += codes[offset : offset + count]
        hashes *= _BASE
    hashes += codes[SHINGLE - 1 :]
    hashes *= _MIX
    hashes ^= hashes >> _MIX_SHIFT
    hashes *= _MIX
    # (the bin numbers, below NUM_PERM, read as signed integers in place: a valid index)
    bins = (hashes >> _BIN_SHIFT).view(np.int64)
    values = hashes.astype(np.uint32)  # the low 32 bits
    result: npt.NDArray[np.uint32] = _EMPTY_SIGNATURE.copy()
    np.minimum.at(result, bins, values)
    return result


_LARGEST = np.uint64(0xFFFFFFFFFFFFFFFF)


def _gram_minima(sentences: Sequence[str]) -> tuple[npt.NDArray[np.uint64], ...]:
    """The smallest hash of each sentence's character 4-grams, the same under a second
    mixer, and of its 8-grams (one numpy pass over all the sentences; an 8-gram's hash is
    mixed from its two 4-grams').
    A sentence shorter than a gram gets the largest value for it."""
    lengths = np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))
    codes = np.frombuffer("".join(sentences).encode("utf-32-le"), dtype=np.uint32)
    codes = codes.astype(np.uint64)
    ends = np.cumsum(lengths)
    starts = ends - lengths
    found = []
    hashes = None
    for gram, mix in ((FUZZY_GRAM, _MIX), (FUZZY_GRAM, _MIX_2), (ORDER_GRAM, _MIX)):
        count = len(codes) - gram + 1
        if count <= 0:
            found.append(np.full(len(sentences), _LARGEST, dtype=np.uint64))
            continue
        if hashes is None:
            hashes = codes[:count] * _BASE
            for offset in range(1, gram - 1):
                hashes += codes[offset : offset + count]
                hashes *= _BASE
            hashes += codes[gram - 1 :]
        if gram == FUZZY_GRAM:
            grams = hashes * mix
        else:  # an 8-gram from its first and its last 4-gram
            grams = (hashes[:count] * _BASE + hashes[FUZZY_GRAM : FUZZY_GRAM + count]) * mix
        grams ^= grams >> _MIX_SHIFT
        grams *= mix
        # A sentence's grams start at its first character and end inside it: those
        # starting in its last gram - 1 characters cross into the next sentence.
        crossing = (ends[:-1, None] - np.arange(1, gram, dtype=np.int64)).ravel()
        grams[crossing[(crossing >= 0) & (crossing < count)]] = _LARGEST
        short = lengths < gram
        minima = np.minimum.reduceat(grams, np.minimum(starts, count - 1))
        minima[short] = _LARGEST
        found.append(minima)
    return tuple(found)


def fuzzy_keys(sentences: Sequence[str]) -> list[int]:
    """The edit-tolerant key of each sentence (see :data:`FUZZY_GRAM`), distinct, smallest
    first (a sentence shorter than one gram has none)."""
    return _keys_of(sentences)[0]


def sentence_sketches(sentences: Sequence[str]) -> list[int]:
    """Each sentence's sketch for the two-level similarity (:func:`sentence_similarity`),
    one 32-bit value: 11 bits of its smallest 4-gram hash and 10 bits of its smallest
    under a second mixer (word forms: a word changed costs a few grams), and 11 bits of
    its smallest 8-gram hash (grams spanning words: their order)."""
    return _keys_of(sentences)[1]


def _keys_of(sentences: Sequence[str]) -> tuple[list[int], list[int]]:
    """:func:`fuzzy_keys` and :func:`sentence_sketches` of ``sentences``, from one pass of
    4-grams."""
    if not sentences:
        return [], []
    forms, second, order = _gram_minima(sentences)
    usable = forms[forms != _LARGEST]
    with np.errstate(over="ignore"):
        keys = (usable ^ np.uint64(_FUZZY_TAG)).view(np.int64)
    sketches = (
        ((forms & np.uint64(0x7FF)) << np.uint64(21))
        | ((second & np.uint64(0x3FF)) << np.uint64(11))
        | (order & np.uint64(0x7FF))
    )
    return sorted({int(k) for k in keys}), [int(v) for v in sketches]


def sentence_similarity(
    mine: npt.NDArray[np.int64], theirs: npt.NDArray[np.int64]
) -> npt.NDArray[np.float64]:
    """For each sketch of ``mine``, its best sentence similarity with one of ``theirs``:
    ``WORD_WEIGHT * WordSim + ORDER_WEIGHT * OrdSim`` (section 3's ``l1`` and ``l2``).
    WordSim is the share of the two 4-gram minima the sentences share, OrdSim whether they
    share the 8-gram minimum: each minimum is shared with a probability of about the
    Jaccard similarity of the two gram sets. The best of many sentences is often a chance
    match on one minimum: a similarity under :data:`MIN_SENTENCE_SIMILARITY` (two of the
    three minima) counts nothing."""
    if not len(mine) or not len(theirs):
        return np.zeros(len(mine))
    a, b = mine[:, None], theirs[None, :]
    forms = ((a >> 21) == (b >> 21)).astype(np.float64)
    forms += ((a >> 11) & 0x3FF) == ((b >> 11) & 0x3FF)
    order = (a & 0x7FF) == (b & 0x7FF)
    similarity = WORD_WEIGHT * forms / 2 + ORDER_WEIGHT * order
    best: npt.NDArray[np.float64] = similarity.max(axis=1)
    best[best < MIN_SENTENCE_SIMILARITY] = 0.0
    return best


def jaccard(a: npt.NDArray[np.uint32], b: npt.NDArray[np.uint32]) -> float:
    """Estimated Jaccard similarity (0-1) of two signatures: the share of agreeing bins
    among the bins either text filled."""
    filled = (a != EMPTY) | (b != EMPTY)
    total = int(np.count_nonzero(filled))
    return int(np.count_nonzero((a == b) & filled)) / total if total else 0.0


def jaccards(
    signature: npt.NDArray[np.uint32], others: Sequence[npt.NDArray[np.uint32]]
) -> list[float]:
    """:func:`jaccard` of ``signature`` with each of ``others``."""
    if signature.max() != EMPTY:
        # Every bin of this text filled, so every bin is filled in one text or the other:
        # the share of agreeing bins is all there is to count (the common case, cheaper).
        size = len(signature)
        return [np.count_nonzero(signature == other) / size for other in others]
    return [jaccard(signature, other) for other in others]


def fingerprint(text: str, keywords: tuple[str, ...] = ()) -> Fingerprint:
    """The fingerprint of a document's main text. With query ``keywords``, long sentences
    come from the logical paragraphs around the paragraphs that name a keyword (section 3),
    so that a short page on the topic does not degenerate into whole-text comparison.
    Editorial furniture (source and editor lines, reprint notices, disclaimers: see
    :mod:`~scrapy_webclean.dedup.furniture`) is left out first."""
    text = strip_furniture(text)
    normal = normalize(text)
    source = logical_paragraphs(text, keywords) if keywords else None
    compared = _INNER_PUNCT_RE.sub("", normalize(source) if source else normal)
    # (without the spaces and the inner punctuation first: fewer runs for _STRIP_RE, the
    # same text in the end)
    compact = _STRIP_RE.sub("", (normal if source else compared).replace(" ", ""))
    found = long_sentences(compared)
    # Sentences are compared by their words: a copy whose figure was corrected in place
    # keeps the sentence (the figures themselves are compared apart, see figures_disagree).
    # (The sentences are masked in one pass: they hold no line break, so no run of digits
    # crosses one.)
    masked = _DIGITS_RE.sub("#", "\n".join(found)).split("\n") if found else []
    fuzzy, sketches = _keys_of(masked)
    hashed = [
        (_hash64(words), min(len(sentence), 65535), sketch)
        for words, sentence, sketch in zip(masked, found, sketches, strict=True)
    ]
    sample = sorted(hashed)[:MAX_SENTENCES]
    return Fingerprint(
        fuzzy=fuzzy[:MAX_FUZZY],
        sketches=[sketch for _, _, sketch in sample],
        exact=_hash64(compact),
        sentences=[digest for digest, _, _ in sample],
        signature=signature(compact or normal),
        length=len(compact),
        sentence_chars=[chars for _, chars, _ in sample],
        longest=[digest for digest, _, _ in hashed[:LONGEST]],
        figures=figures(normal),
    )


def figures(normal: str) -> list[int]:
    """The figures (numbers of two digits or more) a normalised text states, at most
    :data:`MAX_FIGURES`: those with the smallest codes, a sample two texts agree on. A figure
    is coded as an integer: its digits (separators left out) behind a leading 1, so that
    :func:`figure_digits` gives them back; a longer figure keeps its last 17 digits.

    Dates, years and times of day are no figures (``text.datepatterns.DATE_OR_TIME_DIGITS``):
    a copy whose date line was changed, or that another site's template dates, states the
    same figures; two reports from one template do not."""
    found = set(_FIGURE_RE.findall(_DATE_OR_TIME_RE.sub(" ", normal)))
    codes = {int("1" + figure.replace(".", "").replace(",", "")[-17:]) for figure in found}
    # (by _figure_order, inlined: a code is below 2**64 and the multiplier odd, so no two
    # codes have the same order)
    ordered = sorted([((code * _ORDER_MIX) & _MASK64, code) for code in codes])
    return [code for _, code in ordered[:MAX_FIGURES]]


def figure_digits(code: int) -> str:
    """The digits of a figure coded by :func:`figures`."""
    return str(code)[1:]


_ORDER_MIX = 0x9E3779B97F4A7C15
_MASK64 = 0xFFFFFFFFFFFFFFFF


def _figure_order(code: int) -> int:
    return (code * _ORDER_MIX) & _MASK64


def figures_disagree(mine: Sequence[int], theirs: Sequence[int]) -> bool:
    """Whether each of two texts states a figure the other does not (with
    :class:`~scrapy_webclean.dedup.NearDuplicateIndex`'s other test, in words of its own:
    two reports from one template, a price update, a match line-up, not one report twice).
    An edited copy keeps the figures of what it keeps; a truncation may cut the last
    figure short, so a figure inside one of the other's does not count as its own. The two
    samples are compared where both are complete (below the smaller of their cut-offs)."""
    if not mine or not theirs:
        return False
    mine_set, theirs_set = set(mine), set(theirs)
    limit = min(
        _figure_order(mine[-1]) if len(mine) >= MAX_FIGURES else 1 << 64,
        _figure_order(theirs[-1]) if len(theirs) >= MAX_FIGURES else 1 << 64,
    )
    return _owns(mine_set - theirs_set, theirs_set, limit) and _owns(
        theirs_set - mine_set, mine_set, limit
    )


def _owns(own: set[int], other: set[int], limit: int) -> bool:
    digits = [figure_digits(code) for code in other]
    return any(
        _figure_order(code) <= limit and not any(figure_digits(code) in d for d in digits)
        for code in own
    )


def logical_paragraphs(text: str, keywords: tuple[str, ...]) -> str:
    """The paragraphs that name a keyword, each with its neighbours (one before, one
    after), in order; '' when no paragraph names one.

    Words matter: keywords and paragraphs are cut into words (jieba for Chinese, the
    paragraphs in its search mode, so that 北京 names a paragraph about 北京市 but 广告
    does not name one about 宽广告别), and a paragraph names a keyword when it holds each
    of the keyword's words; a word in another script may also begin a longer one (harbour
    names harbours)."""
    paragraphs = [p for p in text.split("\n") if p.strip()]
    wanted = [words for words in (tokenize(k) for k in keywords) if words]
    if not wanted:
        return ""
    chosen: set[int] = set()
    for index, paragraph in enumerate(paragraphs):
        held = set(search_tokens(paragraph))
        if any(all(_holds(held, word) for word in words) for words in wanted):
            chosen.update((index - 1, index, index + 1))
    return "\n".join(paragraphs[i] for i in sorted(chosen) if 0 <= i < len(paragraphs))


def _holds(words: set[str], word: str) -> bool:
    if word in words:
        return True
    return not is_chinese(word) and any(held.startswith(word) for held in words)
