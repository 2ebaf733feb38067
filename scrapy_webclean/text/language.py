"""The language of a page's text: py3langid's identifier, with the page's own declaration
(``<html lang>``, the HTTP ``Content-Language``) as a prior.

py3langid (a maintained fork of langid.py: byte n-grams and naive Bayes over about 140
languages, its model inside the package) was measured against lingua in low-accuracy mode and
the previous hand-written guess in ``benchmarks/language.py``: it is as accurate on texts of
200+ characters (99.2% against lingua's 99.3%), more accurate on short ones (97% against
92%), and a third of lingua's cost on texts of 200+ characters. Its model loads once per
process, on the first call (about 0.4 s; the process peaks about 100 MB larger). English
text, declared or not, is told by its function words before the identifier is asked
(:func:`reads_as_english`): after a page's cleaning the identifier's tables are out of the
caches, and asking it costs five to six times as much.
"""

from __future__ import annotations

import re
import threading
from array import array
from typing import Any

from py3langid.langid import MODEL_FILE, LanguageIdentifier

from scrapy_webclean.text.wordlists import read_word_list

_HAN_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LETTER_RE = re.compile(r"[^\W\d_]", re.UNICODE)
_NOT_LETTERS_RE = re.compile(r"[\W\d_]+", re.UNICODE)
_LATIN_LETTERS_RE = re.compile(r"[A-Za-z\u00c0-\u024f\u1e00-\u1eff]")
# Kana and Hangul: Japanese and Korean, never Chinese.
_KANA_HANGUL_RE = re.compile(r"[\u3040-\u30ff\uac00-\ud7af]")

#: Bytes of UTF-8 text the identifier reads: 300 Latin letters or 100 Chinese characters.
#: Its cost grows with them (about 0.13 ms per 1,000 bytes on its own, two to three times that
#: inside a page's cleaning, where its tables are out of the caches); the benchmark's accuracy
#: is the same from 250 bytes on (on texts of 200+ characters and of 2-5 KB).
SAMPLE_BYTES = 300
#: Below this much text, in letters (a Chinese, Japanese or Korean character counts as 3,
#: about one word), no language is guessed: only a declared one is kept. On the benchmark's
#: single sentences the identifier is right on 98% of those with 10-19 letters, 79% below.
MIN_LETTERS = 10
#: Below this much text (same count), a declared language is kept whenever the identifier
#: gives it any chance: a few words do not say enough to overrule the page's author.
SHORT_LETTERS = 100
#: Share (0-1) of a sample's letters that, all Han characters with no kana or Hangul beside
#: them, make it Chinese without asking the identifier (which says zh, or Wu or Cantonese, on
#: such text, at a cost): the project's Chinese pages are the usual case.
CHINESE_HAN_SHARE = 0.8
#: Least probability (0-1) of the best language for an answer; below it, ``und`` (the
#: identifier's answers below 0.3 are right about 60% of the time on short texts).
MIN_CONFIDENCE = 0.3
#: A declared language is kept when it is among this many best candidates of the identifier
#: and has at least ``PRIOR_MIN_PROBABILITY`` (0-1), however long the text.
PRIOR_TOP = 3
PRIOR_MIN_PROBABILITY = 0.05
#: Probability (0-1) a declared language must keep on a short text to be trusted over the
#: identifier: enough to rule out a text in another script or plainly another language. On
#: the benchmark's short texts, a right declaration is then always kept and a wrong one
#: costs 2-3% of the answers (0.001 would cost 4-5%, 0.1 would drop right declarations).
SHORT_PRIOR_MIN_PROBABILITY = 0.03
#: A sample whose letters are two scripts, Latin and another, each at least this share (0-1)
#: of them, is read in two halves: two halves sure (0-1) of two languages that the other
#: half gives little chance to make the text mixed (``und``). Texts of one script are read
#: whole (reading halves costs a second call), so two languages of one script are not told
#: apart as mixed.
SCRIPT_MIX_SHARE = 0.2
MIXED_CONFIDENCE = 0.7
MIXED_OTHER_MAX = 0.05
#: Shortest sample (UTF-8 bytes) that is split into halves to look for mixed text.
MIXED_MIN_BYTES = 200

# The identifier's labels that are not ISO 639-1 codes, to the ISO 639-1 code of their
# macrolanguage: Wu and Cantonese are Chinese (``zh``), Moroccan and Egyptian Arabic are ``ar``.
# ``zxx`` is the identifier's "no linguistic content". Other labels without an ISO 639-1 code
# (``grc``, ``gom``, ...) are returned as the identifier gives them (ISO 639-3, as BCP 47 does).
_MACROLANGUAGE: dict[str, str] = {
    "wuu": "zh",
    "yue": "zh",
    "cmn": "zh",
    "ary": "ar",
    "arz": "ar",
    "uzs": "uz",
    "ltg": "lv",
    "sdh": "ku",
    "gug": "gn",
    "fuv": "ff",
    "kik": "ki",
    "hbo": "he",
    "zxx": "und",
}
# Declared tags that name a language by an old or three-letter code.
_DECLARED_ALIASES: dict[str, str] = {
    **_MACROLANGUAGE,
    "iw": "he",
    "in": "id",
    "ji": "yi",
    "jw": "jv",
    "nb": "no",
    "zho": "zh",
    "chi": "zh",
}
#: English function words that other Latin-script languages rarely use as words
#: (``text/data/english_markers.txt``).
ENGLISH_MARKERS = frozenset(read_word_list("text/data/english_markers.txt"))
#: A sample of one script with at least this many of :data:`ENGLISH_MARKERS`, making at
#: least this share (0-1) of its words, is English without asking the identifier, when the
#: page declares English or nothing: on the 2,458 pages of the extraction dev sets the
#: identifier's answer is the same on every page this takes, and inside a page's cleaning
#: the guess costs about 0.065 ms instead of 0.34-0.41 (``benchmarks/language.py``; the
#: identifier's 67 MB of tables are out of the caches by then). In the first 300 bytes of
#: the English news texts of the dev sets such words are 18% of the words at the median,
#: 14% at the first quartile (the quarter below 15% is asked of the identifier).
ENGLISH_MARKER_MIN = 5
ENGLISH_MARKER_SHARE = 0.15
_WORD_RE = re.compile(r"[^\W\d_]+", re.UNICODE)

# Languages whose text may be all Han characters for a while: a page declaring one of them
# is asked of the identifier.
_OTHER_HAN_WRITERS = frozenset({"ja", "ko", "vi"})
_TAG_RE = re.compile(r"([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]{1,8})*")

_identifier: Any = None
_identifier_lock = threading.Lock()


def guess_language(
    text: str,
    declared: str | None = None,
    content_language: str | None = None,
    sample_bytes: int = SAMPLE_BYTES,
) -> str:
    """Return the ISO 639-1 code of ``text``'s language ("zh", "en", "uk", ...) or "und".

    ``declared`` is the page's own ``<html lang>`` and ``content_language`` the HTTP
    ``Content-Language`` header (its first tag); either may be None or empty, and the page's
    own declaration wins when both are given. A declared language is kept when the
    identifier ranks it among its best candidates or the text is short; it is overruled when
    the text clearly is in another language. ``und`` when there is too little text to tell
    (and nothing declared that fits it), when the best guess is unsure, or when the sample
    read is two languages of two scripts half and half. Reads the first ``sample_bytes``
    bytes of UTF-8 text only, so the cost is bounded (about 0.1 ms alone, 0.4 ms after a
    page's cleaning; the model loads on the first call). A sample of one script dense with
    English function words (:func:`reads_as_english`) is English without the identifier
    when the page declares English or nothing.
    """
    prior = declared_language(declared) or declared_language(content_language)
    sample = _sample(text, sample_bytes)
    letters_only = _NOT_LETTERS_RE.sub("", sample)
    if not letters_only:
        return "und"
    han = len(_HAN_RE.findall(letters_only))
    kana_hangul = len(_KANA_HANGUL_RE.findall(letters_only))
    # (a Chinese, Japanese or Korean character is about one word: it counts as 3 letters)
    letters = len(letters_only) + 2 * (han + kana_hangul)
    if (
        han >= CHINESE_HAN_SHARE * len(letters_only)
        and not kana_hangul
        and letters >= MIN_LETTERS
        and prior not in _OTHER_HAN_WRITERS
    ):
        return "zh"
    latin = len(_LATIN_LETTERS_RE.findall(letters_only))
    two_scripts = min(latin, len(letters_only) - latin) >= SCRIPT_MIX_SHARE * len(letters_only)
    if not two_scripts and prior in (None, "en") and reads_as_english(sample):
        return "en"
    if not two_scripts and letters >= MIN_LETTERS:
        # The usual page: one script, enough text. The identifier's best label alone
        # (cheaper than its ranking) answers when it is sure or agrees with the declaration.
        label, probability = _loaded_identifier().classify(sample)
        code = _MACROLANGUAGE.get(label, label)
        if code == prior or (probability >= MIN_CONFIDENCE and prior is None):
            return str(code)
    ranked, mixed = _rank(sample, split=two_scripts)
    if prior is not None:
        chance = ranked.get(prior, 0.0)
        if letters < SHORT_LETTERS and chance >= SHORT_PRIOR_MIN_PROBABILITY:
            return prior
        best = sorted(ranked, key=ranked.__getitem__, reverse=True)[:PRIOR_TOP]
        if prior in best and chance >= PRIOR_MIN_PROBABILITY:
            return prior
        if mixed and prior in mixed:
            return prior
    if letters < MIN_LETTERS or mixed:
        return "und"
    top = max(ranked, key=ranked.__getitem__)
    return top if ranked[top] >= MIN_CONFIDENCE else "und"


def reads_as_english(sample: str) -> bool:
    """True when ``sample``'s words are dense with English function words
    (:data:`ENGLISH_MARKERS`: at least :data:`ENGLISH_MARKER_MIN` of them, and
    :data:`ENGLISH_MARKER_SHARE` of the words)."""
    words = _WORD_RE.findall(sample.lower())
    hits = sum(1 for word in words if word in ENGLISH_MARKERS)
    return hits >= ENGLISH_MARKER_MIN and hits >= ENGLISH_MARKER_SHARE * len(words)


def declared_language(tag: str | bytes | None) -> str | None:
    """The ISO 639-1 code of a language tag ("zh-CN" -> "zh", "en_US" -> "en"), or None.

    For a ``Content-Language`` list the first tag counts. None for an empty, malformed or
    non-language tag ("und", "mul", "zxx", "x-default", "*").
    """
    if not tag:
        return None
    if isinstance(tag, bytes):
        tag = tag.decode("latin-1")
    match = _TAG_RE.fullmatch(tag.split(",", 1)[0].strip())
    if match is None:
        return None
    code = match.group(1).lower()
    code = _DECLARED_ALIASES.get(code, code)
    return None if code in {"und", "mul", "zxx", "mis"} else code


def han_share(text: str) -> float:
    """Share (0-1) of letters in ``text`` that are Han characters."""
    letters = len(_LETTER_RE.findall(text))
    return len(_HAN_RE.findall(text)) / letters if letters else 0.0


def _sample(text: str, sample_bytes: int) -> str:
    # A character takes 1 to 4 bytes: cut the characters first, then the bytes.
    head = text.lstrip()[:sample_bytes].rstrip()
    encoded = head.encode("utf-8", "surrogatepass")
    if len(encoded) <= sample_bytes:
        return head
    return encoded[:sample_bytes].decode("utf-8", "ignore")


def _rank(sample: str, split: bool) -> tuple[dict[str, float], frozenset[str]]:
    """Probability (0-1) of each language, and the two languages of a mixed text (else empty).

    With ``split``, a long enough sample is read in two halves whose probabilities are
    averaged; two halves sure of two different languages make it mixed.
    """
    if not split or len(sample.encode("utf-8", "surrogatepass")) < MIXED_MIN_BYTES:
        return _probabilities(sample), frozenset()
    middle = len(sample) // 2
    space = sample.find(" ", middle, middle + 40)
    cut = space if space > 0 else middle
    first, second = _probabilities(sample[:cut]), _probabilities(sample[cut:])
    top_first = max(first, key=first.__getitem__)
    top_second = max(second, key=second.__getitem__)
    mixed: frozenset[str] = frozenset()
    if (
        top_first != top_second
        and first[top_first] >= MIXED_CONFIDENCE
        and second[top_second] >= MIXED_CONFIDENCE
        and first.get(top_second, 0.0) < MIXED_OTHER_MAX
        and second.get(top_first, 0.0) < MIXED_OTHER_MAX
    ):
        mixed = frozenset({top_first, top_second})
    averaged = {
        code: (first.get(code, 0.0) + second.get(code, 0.0)) / 2 for code in first.keys() | second
    }
    return averaged, mixed


def _probabilities(text: str) -> dict[str, float]:
    """The identifier's probability (0-1) per ISO 639-1 code, the varieties of one
    macrolanguage summed."""
    merged: dict[str, float] = {}
    for label, probability in _loaded_identifier().rank(text):
        code = _MACROLANGUAGE.get(label, label)
        merged[code] = merged.get(code, 0.0) + probability
    return merged


def _loaded_identifier() -> Any:
    """py3langid's identifier with probabilities, loaded on first use, once per process."""
    global _identifier
    if _identifier is None:
        with _identifier_lock:
            if _identifier is None:
                identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
                rows = getattr(identifier, "_rowbase", None)
                if isinstance(rows, list):
                    # py3langid 0.4 keeps its DFA's row offsets as a list of about 100,000
                    # Python ints, which every full garbage collection of the process walks
                    # (2-3% of a page's cleaning in benchmarks/language.py); an array holds
                    # the same numbers out of the collector's sight.
                    identifier._rowbase = array("q", rows)
                _identifier = identifier
    return _identifier
