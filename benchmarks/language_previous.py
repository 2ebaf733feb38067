"""The project's language guess before issue 19 (``scrapy_webclean/text/language.py`` then),
unchanged: scripts first, then Latin stop words. ``language.py`` measures it beside ours,
for that comparison only.
"""

from __future__ import annotations

import re
from collections import Counter

_HAN_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_KANA_RE = re.compile(r"[\u3040-\u30ff]")
_HANGUL_RE = re.compile(r"[\uac00-\ud7af]")
_CYRILLIC_RE = re.compile(r"[\u0400-\u04ff]")
_ARABIC_RE = re.compile(r"[\u0600-\u06ff]")
_LETTER_RE = re.compile(r"[^\W\d_]", re.UNICODE)
_OTHER_SCRIPTS_RE = re.compile(
    r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af\u0400-\u04ff\u0600-\u06ff]"
)
_WORD_RE = re.compile(r"[^\W\d_]+", re.UNICODE)
_LATIN_MARKERS: dict[str, frozenset[str]] = {
    "en": frozenset(
        [
            "the",
            "and",
            "of",
            "to",
            "in",
            "is",
            "that",
            "for",
            "it",
            "with",
            "as",
            "was",
            "on",
            "are",
            "be",
            "by",
            "this",
            "have",
            "from",
        ]
    ),
    "de": frozenset(
        [
            "der",
            "die",
            "und",
            "das",
            "ist",
            "nicht",
            "mit",
            "sich",
            "des",
            "auf",
            "für",
            "ein",
            "eine",
            "dem",
            "den",
            "von",
            "zu",
        ]
    ),
    "fr": frozenset(
        [
            "le",
            "la",
            "les",
            "et",
            "des",
            "est",
            "une",
            "pour",
            "que",
            "dans",
            "qui",
            "sur",
            "pas",
            "du",
            "au",
            "avec",
            "par",
        ]
    ),
    "es": frozenset(
        [
            "el",
            "la",
            "los",
            "las",
            "y",
            "que",
            "del",
            "en",
            "por",
            "con",
            "una",
            "para",
            "es",
            "se",
            "al",
            "como",
            "más",
        ]
    ),
    "it": frozenset(
        [
            "il",
            "la",
            "che",
            "di",
            "e",
            "per",
            "una",
            "sono",
            "del",
            "della",
            "con",
            "non",
            "gli",
            "nel",
            "alla",
            "anche",
        ]
    ),
    "pt": frozenset(
        [
            "o",
            "a",
            "os",
            "as",
            "que",
            "de",
            "do",
            "da",
            "em",
            "um",
            "uma",
            "para",
            "com",
            "não",
            "por",
            "mais",
            "dos",
            "das",
        ]
    ),
    "nl": frozenset(
        [
            "de",
            "het",
            "een",
            "en",
            "van",
            "is",
            "dat",
            "op",
            "te",
            "in",
            "voor",
            "met",
            "zijn",
            "niet",
            "aan",
            "ook",
        ]
    ),
}
_HAN_SHARE = 0.2


def previous_guess(text: str, sample_chars: int = 4000) -> str:
    """The project's language guess before issue 19: scripts, then Latin stop words."""
    sample = text[:sample_chars]
    if sample.isascii() or not _OTHER_SCRIPTS_RE.search(sample):
        return _previous_latin(sample)
    letters = len(_LETTER_RE.findall(sample))
    if letters == 0:
        return "und"
    kana = len(_KANA_RE.findall(sample))
    if kana > 0.05 * letters:
        return "ja"
    han = len(_HAN_RE.findall(sample))
    if han >= _HAN_SHARE * letters:
        return "zh"
    if len(_HANGUL_RE.findall(sample)) > 0.3 * letters:
        return "ko"
    if len(_CYRILLIC_RE.findall(sample)) > 0.3 * letters:
        return "ru"
    if len(_ARABIC_RE.findall(sample)) > 0.3 * letters:
        return "ar"
    return _previous_latin(sample)


def _previous_latin(sample: str) -> str:
    head = sample[:1500]
    lowered = head.lower()
    if len(lowered) == len(head):
        words = _WORD_RE.findall(lowered)
    else:
        words = [w.lower() for w in _WORD_RE.findall(head)]
    if not words:
        return "und"
    counts = Counter(words)
    scores = {
        lang: sum(map(counts.__getitem__, markers.intersection(counts)))
        for lang, markers in _LATIN_MARKERS.items()
    }
    best = max(scores, key=lambda lang: scores[lang])
    return best if scores[best] >= max(1, 0.05 * len(words)) else "und"
