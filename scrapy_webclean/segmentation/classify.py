"""Quark block classification (docs/algorithms.md section 4): two judges, intersected.

1. Text similarity: the longest block is content; another block is content when
   ``shared tokens / tokens of the smaller block`` (stop words out) reaches a threshold.
2. Naive Bayes over the thesis's 7 binary features and priors; content when the posterior
   is above 0.5.

A block is *content* only when both judges say so. A block that is not content but is
mostly links whose anchors read like titles is *related* (links to other pages on the same
subject); everything else is *noise*.

Our reading of the thesis, stated where it is silent:

- "Longest" is by non-anchor text, so a big navigation menu never becomes the reference.
- Lengths are counted in *text units*: a CJK character is one unit, three other
  non-space characters are one unit. The thesis measured Chinese pages (200 characters,
  0.3 punctuation marks per 10 characters); counting Latin text in units makes the same
  thresholds fit English prose, where a word of ~5 letters carries about what 1-2 Chinese
  characters do.
- Tokens for the similarity judge are only computed for blocks the Bayes judge accepts
  (the intersection needs nothing else), and they are character bigrams for Chinese
  (``overlap_tokens``), not jieba words: for an overlap ratio they serve as well, at a
  fraction of the cost.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum

from scrapy_webclean.html.pagemodel import PageModel
from scrapy_webclean.segmentation.quark import Segment
from scrapy_webclean.text.tokenize import overlap_tokens
from scrapy_webclean.text.wordlists import read_word_list


class BlockLabel(str, Enum):
    """What a block is: main content, related links, or noise."""

    CONTENT = "content"
    RELATED = "related"
    NOISE = "noise"

    def __str__(self) -> str:
        return self.value


#: Noise words that mark a line as boilerplate even in a sentence
#: (``text/data/hard_noise_words.txt``; the extraction's ``vocabulary.HARD_NOISE``).
HARD_NOISE_WORDS: tuple[str, ...] = read_word_list("text/data/hard_noise_words.txt")

#: Words that mark template and service blocks (English and Chinese), our own list: the
#: hard noise words and the others (``text/data/noise_words.txt``), each written once.
DEFAULT_NOISE_WORDS: tuple[str, ...] = HARD_NOISE_WORDS + read_word_list(
    "text/data/noise_words.txt"
)

_ASCII_WORD_RE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]")


@dataclass(frozen=True, slots=True)
class NaiveBayesPriors:
    """P(feature | content) and P(feature | noise) for the 7 features, and P(content).

    Defaults are the figures the Quark thesis measured on hand-labelled Chinese pages.
    """

    p_content: float = 0.16
    custom_tag: tuple[float, float] = (0.29, 0.01)
    noise_word_short: tuple[float, float] = (0.04, 0.45)
    punct_density: tuple[float, float] = (0.85, 0.25)
    punct_many: tuple[float, float] = (0.77, 0.34)
    long_text: tuple[float, float] = (0.84, 0.06)
    many_links: tuple[float, float] = (0.10, 0.71)
    anchor_ratio: tuple[float, float] = (0.08, 0.85)

    def table(self) -> dict[str, tuple[float, float]]:
        """Feature name -> (P(f | content), P(f | noise))."""
        return {name: getattr(self, name) for name in FEATURE_NAMES}


# The cut-offs of the 7 features and of the posterior: the thesis's figures (docs/algorithms.md
# section 4), lengths in text units (see :func:`text_units`).
#: A block shorter than this is short (the "short block with a noise word" feature).
SHORT_BLOCK_UNITS = 100
#: Punctuation marks per 10 units above which punctuation is dense.
PUNCT_PER_10_UNITS = 0.3
#: More punctuation marks than this are many.
MANY_PUNCT_MARKS = 4
#: Non-anchor text longer than this is long.
LONG_TEXT_UNITS = 200
#: More links than this are many.
MANY_LINKS = 20
#: Anchor text above this share of the other text is a high anchor ratio.
ANCHOR_RATIO = 0.3
#: The naive Bayes judge says content above this posterior.
CONTENT_PROBABILITY = 0.5
#: A related block has at least this many links (ours).
RELATED_MIN_LINKS = 2

FEATURE_NAMES: tuple[str, ...] = (
    "custom_tag",
    "noise_word_short",
    "punct_density",
    "punct_many",
    "long_text",
    "many_links",
    "anchor_ratio",
)


@dataclass(frozen=True, slots=True)
class ClassifierOptions:
    """Thresholds of the classifier; similarity and shares are 0-1, lengths in text units."""

    similarity_threshold: float = 0.3
    noise_words: tuple[str, ...] = DEFAULT_NOISE_WORDS
    priors: NaiveBayesPriors = field(default_factory=NaiveBayesPriors)
    related_anchor_share: float = 0.5
    related_min_anchor_units: float = 6.0


@dataclass(slots=True)
class Judgement:
    """Why a block got its label: both judges' outputs and the features used."""

    label: BlockLabel
    similarity: float
    content_probability: float
    features: dict[str, bool]
    units: float


def text_units(text: str) -> float:
    """Length of ``text`` in units: 1 per CJK character, 1 per 3 other non-space chars."""
    cjk = 0 if text.isascii() else len(_CJK_RE.findall(text))
    other = len(text) - cjk - text.count(" ") - text.count("\n")
    return cjk + max(other, 0) / 3.0


class NoiseWords:
    """Finds noise words in text, case-insensitively; ASCII words match whole words only.

    The text is lower-cased once; all ASCII words and phrases are one regular expression
    over it (a word matches where a token of ``[a-z0-9]`` runs joined by single hyphens
    equals it: "share" in "Share this", not in "market-share" or "shares"); other scripts'
    words (版权, ©) are substring tests.

    Most lines hold no noise word: a quick pattern that only looks for the words as
    substrings (grouped by their first character, so the regex engine skips the positions
    that cannot start one) rules them out; the whole-word pattern runs on the rest. On
    English pages this halves the time of the noise test, which runs on every short line.
    """

    def __init__(self, words: Iterable[str]) -> None:
        unique = {w.lower() for w in words if w}
        ascii_words = {w for w in unique if w.isascii() and w[:1].isalnum()}
        plain = sorted(unique - ascii_words)
        self._plain = substring_pattern(plain) if plain else None
        single = sorted((w for w in ascii_words if w.isalnum()), key=len, reverse=True)
        phrases = sorted(ascii_words.difference(single), key=len, reverse=True)
        parts = []
        if single:
            parts.append(
                r"(?<![a-z0-9])(?<![a-z0-9]-)(?:"
                + "|".join(map(re.escape, single))
                + r")(?![a-z0-9]|-[a-z0-9])"
            )
        if phrases:
            parts.append(r"(?<![a-z0-9])(?:" + "|".join(map(re.escape, phrases)) + r")(?![a-z0-9])")
        self._ascii = re.compile("|".join(parts)) if parts else None
        self._quick = substring_pattern(sorted(ascii_words)) if ascii_words else None

    def search(self, text: str) -> bool:
        """True when ``text`` holds one of the words."""
        lowered = text.lower()
        if (
            self._plain is not None
            and not lowered.isascii()
            and self._plain.search(lowered) is not None
        ):
            return True
        if self._quick is None or self._quick.search(lowered) is None:
            return False
        return self._ascii is not None and self._ascii.search(lowered) is not None


def substring_pattern(words: Iterable[str]) -> re.Pattern[str]:
    """A pattern that finds any of ``words`` as a substring: one alternative per first
    character, each starting with that character as a literal (the regex engine then
    skips ahead to the characters that can start a word)."""
    by_first: dict[str, list[str]] = {}
    for word in sorted(set(words), key=len, reverse=True):
        by_first.setdefault(word[0], []).append(re.escape(word[1:]))
    return re.compile(
        "|".join(
            re.escape(first) + "(?:" + "|".join(rests) + ")" for first, rests in by_first.items()
        )
    )


def compile_noise_words(words: Iterable[str]) -> NoiseWords:
    """A matcher for the noise words (case-insensitive; ASCII words match whole words)."""
    return NoiseWords(words)


def token_overlap(a: Counter[str], b: Counter[str]) -> float:
    """Shared tokens (with multiplicity) / tokens of the smaller block (0-1)."""
    return _overlap(a, a.total(), b)


def _overlap(reference: Counter[str], reference_total: int, tokens: Counter[str]) -> float:
    """:func:`token_overlap` of a reference whose total is known, in the size of the
    smaller counter: a page's every block against its longest one was the longest one's
    size per block, in the square of the page's size."""
    smaller = min(reference_total, tokens.total())
    if smaller == 0:
        return 0.0
    few, many = (tokens, reference) if len(tokens) <= len(reference) else (reference, tokens)
    shared = 0
    for token, count in few.items():
        other = many.get(token, 0)
        if count > 0 and other > 0:
            shared += min(count, other)
    return shared / smaller


def content_probability(features: dict[str, bool], priors: NaiveBayesPriors) -> float:
    """Naive Bayes posterior P(content | features) (0-1)."""
    p_content = priors.p_content
    p_noise = 1.0 - p_content
    for name, (given_content, given_noise) in priors.table().items():
        if features[name]:
            p_content *= given_content
            p_noise *= given_noise
        else:
            p_content *= 1.0 - given_content
            p_noise *= 1.0 - given_noise
    total = p_content + p_noise
    return p_content / total if total else 0.0


class QuarkClassifier:
    """Labels the blocks of one page; reusable across pages (holds compiled options only)."""

    def __init__(self, options: ClassifierOptions | None = None) -> None:
        self.options = options or ClassifierOptions()
        self.noise_re = compile_noise_words(self.options.noise_words)

    def features(self, text: str, segment: Segment, units: float) -> dict[str, bool]:
        """The 7 binary features of the thesis for one block."""
        anchor_units = units * (segment.anchor_len / segment.text_len) if segment.text_len else 0.0
        non_anchor_units = units - anchor_units
        return {
            "custom_tag": segment.custom,
            "noise_word_short": units < SHORT_BLOCK_UNITS and self.noise_re.search(text),
            "punct_density": units > 0 and segment.punct_count * 10.0 / units > PUNCT_PER_10_UNITS,
            "punct_many": segment.punct_count > MANY_PUNCT_MARKS,
            "long_text": non_anchor_units > LONG_TEXT_UNITS,
            "many_links": segment.link_count > MANY_LINKS,
            "anchor_ratio": (
                segment.anchor_len > ANCHOR_RATIO * (segment.text_len - segment.anchor_len)
                if segment.anchor_len
                else False
            ),
        }

    def classify(
        self,
        model: PageModel,
        segments: Sequence[Segment],
        texts: Sequence[str],
        similarity: bool = True,
    ) -> list[Judgement]:
        """Label each block; ``texts[i]`` is the text of ``segments[i]``.

        With ``similarity=False`` the text-similarity judge is skipped (its scores stay 0)
        and the naive Bayes judge alone decides "content": for callers that only need the
        related/noise split and the Bayes signal, at a fraction of the cost.
        """
        opts = self.options
        units = [text_units(t) for t in texts]
        judgements: list[Judgement] = []
        for segment, text, size in zip(segments, texts, units, strict=False):
            feats = self.features(text, segment, size)
            probability = content_probability(feats, opts.priors)
            judgements.append(Judgement(BlockLabel.NOISE, 0.0, probability, feats, size))
        if not segments:
            return judgements
        if not similarity:
            for i, judgement in enumerate(judgements):
                if judgement.content_probability > CONTENT_PROBABILITY:
                    judgement.label = BlockLabel.CONTENT
                elif self._is_related(model, segments[i]):
                    judgement.label = BlockLabel.RELATED
            return judgements

        def non_anchor(i: int) -> float:
            s = segments[i]
            return units[i] * (1 - s.anchor_len / s.text_len) if s.text_len else 0.0

        longest = max(range(len(segments)), key=non_anchor)
        judgements[longest].similarity = 1.0
        reference: Counter[str] | None = None
        reference_total = 0
        for i, judgement in enumerate(judgements):
            if judgement.content_probability <= CONTENT_PROBABILITY:
                continue
            if i != longest:
                if reference is None:
                    reference = Counter(overlap_tokens(texts[longest]))
                    reference_total = reference.total()
                tokens = Counter(overlap_tokens(texts[i]))
                judgement.similarity = _overlap(reference, reference_total, tokens)
                if judgement.similarity < opts.similarity_threshold:
                    continue
            judgement.label = BlockLabel.CONTENT
        for i, judgement in enumerate(judgements):
            if judgement.label is BlockLabel.NOISE and self._is_related(model, segments[i]):
                judgement.label = BlockLabel.RELATED
        return judgements

    def _is_related(self, model: PageModel, segment: Segment) -> bool:
        opts = self.options
        if segment.link_count < RELATED_MIN_LINKS or not segment.text_len:
            return False
        if segment.anchor_len < opts.related_anchor_share * segment.text_len:
            return False
        anchors = [model.links[i].text for i in segment.links]
        mean_units = sum(text_units(a) for a in anchors) / max(len(anchors), 1)
        return mean_units >= opts.related_min_anchor_units
