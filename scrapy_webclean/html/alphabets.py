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
from collections import Counter

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


def letter_fit(text: str) -> float:
    """How well the letters beyond ASCII in ``text`` fit one Latin-script language: the
    largest share (0-1) of them that a single language of :data:`LATIN_ALPHABETS` uses;
    1.0 when there are none. Symbols beyond ASCII inside a word (``stolic¹``) and letters of
    another script inside a word of ASCII letters (``kalabalلk``) count as misfits."""
    letters: Counter[str] = Counter()
    misfits = 0
    for word in _WORD_RE.findall(text):
        if word.isascii():
            continue
        latin_word = any(char.isascii() for char in word)
        for char in word:
            if "\x7f" < char < "\u0250" or "\u1e00" <= char <= "\u1eff":
                if char.isalpha():
                    letters[char.lower()] += 1
                else:
                    misfits += 1
            elif latin_word and char > "\x7f":
                misfits += 1
    total = sum(letters.values()) + misfits
    if not total:
        return 1.0
    best = max(
        sum(count for letter, count in letters.items() if letter in alphabet)
        for alphabet in LATIN_ALPHABETS.values()
    )
    return best / total


#: A word, with the symbols a wrong 8-bit decoding puts inside words (¹, ³, ¼, ...).
_WORD_RE = re.compile(r"[\w\u00a1-\u00bf\u00d7\u00f7]+")


#: Unicode blocks that CJK text is written in (start, end inclusive): kana, CJK unified
#: ideographs (and extension A), Hangul syllables, CJK punctuation, fullwidth forms.
COMMON_CJK_BLOCKS: tuple[tuple[int, int], ...] = (
    (0x3000, 0x303F),
    (0x3040, 0x30FF),
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xAC00, 0xD7AF),
    (0xFF00, 0xFFEF),
)
#: Characters beyond Latin-1 in these ranges are what a double-byte encoding decodes to.
_WIDE = 0x2E80


def cjk_fit(text: str) -> float:
    """The share (0-1) of the wide characters (U+2E80 and up) of ``text`` that lie in the
    blocks real CJK text uses (:data:`COMMON_CJK_BLOCKS`); 1.0 when there are none."""
    wide = common = 0
    for char in text:
        code = ord(char)
        if code >= _WIDE:
            wide += 1
            if any(start <= code <= end for start, end in COMMON_CJK_BLOCKS):
                common += 1
    return common / wide if wide else 1.0


def decoding_fit(text: str) -> float:
    """How much a decoding reads like real text (0-1): its Latin letters fit one language
    and its wide characters lie in the blocks CJK text uses."""
    return letter_fit(text) * cjk_fit(text)
