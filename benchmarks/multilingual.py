"""A multilingual text corpus for benchmarks, generated from the word lists and sentences that
two PyPI packages ship per locale (the ``bench`` extra installs both).

- ``mimesis`` ships real sentences per locale (``datasets/<locale>/text.json``): used where its
  pool holds at least 15 sentences in the language.
- ``Faker`` ships per-locale word lists (its ``lorem`` providers): used for the languages that
  mimesis lacks; each sentence is 5-12 real words in random order. Locales whose list is Latin
  lorem ipsum (``en_PH``, ``la``) or invented words (``he_IL``) are left out.

:func:`texts` is a plain function: the same arguments give the same corpus (for the same
package versions), and nothing outside it changes.
"""

from __future__ import annotations

import json
import random
from importlib import resources

from faker import Faker

#: Language (ISO 639-1) -> mimesis locale whose ``text`` pool is real sentences.
MIMESIS_LOCALES: dict[str, str] = {
    code: code
    for code in (
        "ar",
        "az",
        "de",
        "el",
        "en",
        "es",
        "et",
        "fi",
        "fr",
        "hr",
        "hu",
        "is",
        "it",
        "ja",
        "ko",
        "nl",
        "no",
        "pl",
        "pt",
        "ru",
        "sv",
        "tr",
        "uk",
        "zh",
    )
}
#: Language (ISO 639-1) -> Faker locale whose lorem word list is real words of the language.
FAKER_LOCALES: dict[str, str] = {
    "bn": "bn_BD",
    "cs": "cs_CZ",
    "da": "da_DK",
    "fa": "fa_IR",
    "hy": "hy_AM",
    "mk": "mk_MK",
    "th": "th_TH",
    "tl": "fil_PH",
    "vi": "vi_VN",
}
#: Faker locale of the Traditional Chinese texts: every other ``zh`` text is written in
#: Traditional characters (Big5 can write those, not the Simplified ones).
TRADITIONAL_CHINESE = "zh_TW"
#: Languages written without spaces between sentences.
_UNSPACED = frozenset({"ja", "zh"})
#: mimesis's Portuguese pool ends in a block of Latin filler from this sentence on.
_LATIN_FILLER = "Lorem ipsum dolor"


def languages() -> list[str]:
    """The ISO 639-1 codes :func:`texts` writes, sorted."""
    return sorted({*MIMESIS_LOCALES, *FAKER_LOCALES})


def texts(seed: int, per_language: int, min_chars: int = 200) -> list[tuple[str, str]]:
    """``per_language`` texts of each language in :func:`languages`, as ``(code, text)``.

    Each text is whole sentences added until it holds at least ``min_chars`` characters
    (a text of one sentence may be shorter than a small ``min_chars`` asks for only if the
    sentence is). ``seed`` fixes the choice; the order is by language, then text.
    """
    rng = random.Random(seed)
    corpus: list[tuple[str, str]] = []
    for code in languages():
        if code in MIMESIS_LOCALES:
            pool = _mimesis_sentences(MIMESIS_LOCALES[code])
            for index in range(per_language):
                if code == "zh" and index % 2:
                    text = _faker_text(code, TRADITIONAL_CHINESE, rng.randrange(2**32), min_chars)
                else:
                    text = _join(code, pool, rng, min_chars)
                corpus.append((code, text))
        else:
            for _ in range(per_language):
                corpus.append(
                    (code, _faker_text(code, FAKER_LOCALES[code], rng.randrange(2**32), min_chars))
                )
    return corpus


def _mimesis_sentences(locale: str) -> list[str]:
    data = (resources.files("mimesis.datasets") / locale / "text.json").read_text("utf-8")
    sentences: list[str] = json.loads(data)["text"]
    pool = []
    for sentence in sentences:
        if sentence.startswith(_LATIN_FILLER):
            break
        pool.append(sentence.strip())
    return [sentence for sentence in pool if sentence]


def _join(code: str, pool: list[str], rng: random.Random, min_chars: int) -> str:
    parts: list[str] = []
    length = 0
    while length < min_chars:
        sentence = rng.choice(pool)
        if code in _UNSPACED and sentence[-1] not in "。！？.!?":
            sentence += "。"
        parts.append(sentence)
        length += len(sentence) + (0 if code in _UNSPACED else 1)
    return ("" if code in _UNSPACED else " ").join(parts)


def _faker_text(code: str, locale: str, seed: int, min_chars: int) -> str:
    fake = Faker(locale)
    fake.seed_instance(seed)
    parts: list[str] = []
    length = 0
    while length < min_chars:
        sentence = fake.sentence(nb_words=8)  # 4-11 words: Faker varies the count by 40%
        parts.append(sentence)
        length += len(sentence) + (0 if code in _UNSPACED else 1)
    return ("" if code in _UNSPACED else " ").join(parts)
