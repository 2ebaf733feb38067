"""Stop words for Chinese and English (our own lists, in ``data/``)."""

from __future__ import annotations

from functools import cache
from importlib import resources


def _read(name: str) -> frozenset[str]:
    text = (
        resources.files("scrapy_webclean.text").joinpath("data").joinpath(name).read_text("utf-8")
    )
    words: set[str] = set()
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        words.update(line.split())
    return frozenset(words)


@cache
def stopwords(lang: str) -> frozenset[str]:
    """Stop words for ``lang`` ("zh" or "en"); an empty set for other languages."""
    if lang == "zh":
        return _read("stopwords_zh.txt")
    if lang == "en":
        return _read("stopwords_en.txt")
    return frozenset()


@cache
def all_stopwords() -> frozenset[str]:
    """Chinese and English stop words together, for mixed-language text."""
    return stopwords("zh") | stopwords("en")
