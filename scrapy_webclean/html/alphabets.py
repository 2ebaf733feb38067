"""Which decoding of a page reads like real text: the letters beyond ASCII that each
Latin-script language uses, and the Unicode blocks that CJK text is written in, as data for
telling apart legacy encodings that all decode the same bytes.

Windows-1252, Windows-1250, ISO-8859-2/-4/-13/-15 and Windows-1254/-1257 all decode most
bytes of a Latin-script page, and differ only in the few accented letters: a page decoded
with the wrong one reads "chčteau" or "stolicĄ" (:func:`letter_fit`). EUC-JP read as cp949
gives isolated Hangul jamo, GBK read as Big5 rare compatibility forms (:func:`cjk_fit`).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from itertools import pairwise

LATIN_ALPHABETS: dict[str, frozenset[str]] = {
    "ca": frozenset("àçèéíïòóúü·"),
    "cs": frozenset("áčďéěíňóřšťúůýž"),
    "da": frozenset("æøåéó"),
    "de": frozenset("äöüß"),
    "es": frozenset("áéíñóúü¡¿"),
    "et": frozenset("äõöüšž"),
    "fi": frozenset("äöåšž"),
    "fr": frozenset("àâæçéèêëîïôœùûüÿ"),
    "hr": frozenset("čćđšž"),
    "hu": frozenset("áéíóöőúüű"),
    "is": frozenset("áðéíóúýþæö"),
    "it": frozenset("àèéìíîòóùú"),
    "lt": frozenset("ąčęėįšųūž"),
    "lv": frozenset("āčēģīķļņšūž"),
    "nl": frozenset("éèëïöüáóú"),
    "no": frozenset("æøåéèóô"),
    "pl": frozenset("ąćęłńóśźż"),
    "pt": frozenset("áâãàçéêíóôõú"),
    "ro": frozenset("ăâîșşțţ"),
    "sk": frozenset("áäčďéíĺľňóôŕšťúýž"),
    "sl": frozenset("čšž"),
    "sq": frozenset("çë"),
    "sv": frozenset("åäöé"),
    "tr": frozenset("çğıöşüâîû"),
}


def letter_fit(text: str, language: str | None = None) -> float:
    """How well the letters beyond ASCII in ``text`` fit one Latin-script language (0-1);
    1.0 when there are none.

    The fit is the largest share of them that a single language of
    :data:`LATIN_ALPHABETS` uses; when ``language`` (the language of the page's words in
    plain ASCII, which every 8-bit decoding reads alike) has an alphabet there, the fit is
    the mean of that share and the share ``language`` itself uses, so that a Spanish page
    reads ``¿`` rather than ``ż`` or ``æ``, an Italian one ``è`` rather than ``č``. Symbols
    beyond ASCII inside a word (``stolic¹``) and characters of another script or combining
    marks inside a word of ASCII letters (``kalabalلk``, ``tr่s``) count as misfits."""
    return _letter_fit(_non_ascii_words(text), language)


def _letter_fit(words: Counter[str], language: str | None) -> float:
    letters: Counter[str] = Counter()
    misfits = 0
    for word, times in words.items():
        word = unicodedata.normalize("NFC", word)
        if not (word[0].isalnum() and word[-1].isalnum()):
            word = _strip_punctuation(word)
        latin_word = any(char.isascii() for char in word)
        for char in word:
            if "\x7f" < char < "\u0250" or "\u1e00" <= char <= "\u1eff":
                if char.isalpha() or char in _ALPHABET_SYMBOLS:
                    letters[char.lower()] += times
                else:
                    misfits += times
            elif latin_word and char > "\x7f":
                misfits += times
    total = sum(letters.values()) + misfits
    if not total:
        return 1.0
    # letters used by each alphabet, counted through the alphabets each letter is in
    used = [0] * len(_ALPHABET_NAMES)
    for letter, count in letters.items():
        for index in _ALPHABETS_OF.get(letter, ()):
            used[index] += count
    best = max(used)
    own = _ALPHABET_NAMES.get(language or "")
    if own is None:
        return best / total
    return (best + used[own]) / (2 * total)


#: A word: what lies between white space and ASCII punctuation. A wrong decoding puts
#: symbols (``¹``, ``³``), combining marks (Latin, Thai, Arabic) and letters of other scripts
#: inside words.
_WORD_RE = re.compile(r"[^\s!-/:-@\[-`{-~]+")
#: Characters of the alphabets that are not letters (Spanish ``¿¡``, Catalan ``·``).
_ALPHABET_SYMBOLS = frozenset(
    char for alphabet in LATIN_ALPHABETS.values() for char in alphabet if not char.isalpha()
)


#: Position of each language in the alphabets, and the positions of the alphabets each
#: letter is in.
_ALPHABET_NAMES: dict[str, int] = {code: index for index, code in enumerate(LATIN_ALPHABETS)}
_ALPHABETS_OF: dict[str, tuple[int, ...]] = {
    letter: tuple(
        index for index, alphabet in enumerate(LATIN_ALPHABETS.values()) if letter in alphabet
    )
    for letter in frozenset().union(*LATIN_ALPHABETS.values())
}


def _non_ascii_words(text: str) -> Counter[str]:
    """The distinct words of ``text`` with a character beyond ASCII, with their counts."""
    return Counter(word for word in _WORD_RE.findall(text) if not word.isascii())


def _strip_punctuation(word: str) -> str:
    """``word`` without the punctuation around it (quotes, dashes, ``«»``), unless the
    punctuation belongs to an alphabet (``¿Qué``)."""
    start, end = 0, len(word)
    while start < end and _is_outer_punctuation(word[start]):
        start += 1
    while end > start and _is_outer_punctuation(word[end - 1]):
        end -= 1
    return word[start:end]


def _is_outer_punctuation(char: str) -> bool:
    return char not in _ALPHABET_SYMBOLS and unicodedata.category(char).startswith("P")


def case_fit(text: str) -> float:
    """The share (0-1) of the words of ``text`` with cased letters beyond ASCII that are
    cased like words (all lower, all upper, or capitalised); 1.0 when there are none.

    A Cyrillic or Greek page read with the other alphabet's 8-bit codec swaps the cases
    (KOI8-R puts lower case where Windows-1253 has upper case): ``гЙОИМ`` for ``Ηκοιν``.
    Real words almost never go from a lower-case to an upper-case letter."""
    return _case_fit(_non_ascii_words(text))


def _case_fit(words: Counter[str]) -> float:
    cased = wrong = 0
    for word, times in words.items():
        if len(word) < 2:
            continue
        if word.islower() or word.isupper():
            cased += times
        elif any(a.islower() and b.isupper() for a, b in pairwise(word)):
            cased += times
            wrong += times
    return 1.0 - wrong / cased if cased else 1.0


#: Unicode blocks that CJK text is written in (start, end inclusive): kana, CJK unified
#: ideographs (and extension A), Hangul syllables, CJK punctuation, fullwidth forms. Not the
#: halfwidth katakana and Hangul (U+FF61-U+FFDC): rare in real text, they are what a KOI8 or
#: other 8-bit Cyrillic page read as Shift_JIS decodes to.
COMMON_CJK_BLOCKS: tuple[tuple[int, int], ...] = (
    (0x3000, 0x303F),
    (0x3040, 0x30FF),
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xAC00, 0xD7AF),
    (0xFF00, 0xFF60),
    (0xFFE0, 0xFFEF),
)
#: Characters beyond Latin-1 in these ranges are what a double-byte encoding decodes to.
_WIDE_RE = re.compile("[\u2e80-\U0010ffff]")
_COMMON_CJK_RE = re.compile(
    "[" + "".join(f"{chr(start)}-{chr(end)}" for start, end in COMMON_CJK_BLOCKS) + "]"
)


def cjk_fit(text: str) -> float:
    """The share (0-1) of the wide characters (U+2E80 and up) of ``text`` that lie in the
    blocks real CJK text uses (:data:`COMMON_CJK_BLOCKS`); 1.0 when there are none."""
    wide = len(_WIDE_RE.findall(text))
    return len(_COMMON_CJK_RE.findall(text)) / wide if wide else 1.0


def decoding_fit(text: str, language: str | None = None) -> float:
    """How much a decoding reads like real text (0-1): its Latin letters fit one language
    (``language``, the page's, when known: :func:`letter_fit`), its words are cased like
    words, and its wide characters lie in the blocks CJK text uses."""
    words = _non_ascii_words(text)
    return _letter_fit(words, language) * _case_fit(words) * cjk_fit(text)
