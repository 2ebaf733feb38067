"""Sentence splitting on Chinese and Western sentence punctuation."""

from __future__ import annotations

import re

# Chinese full stops, exclamation/question marks and semicolons end a sentence wherever
# they are; a Western . ! ? ; ends one when followed by space (or the end) -- so "3.14"
# and "e.g.," stay whole. Closing quotes and brackets stay with their sentence.
# (Linear: a run of Western marks is tried from its start only, the lookbehind, and
# every run is taken whole, possessive: a long run of "." not followed by a space was
# tried from each of its characters at each length, in the square of its length.)
_SENTENCE_END_RE = re.compile(
    r"""(?:[。！？；…]++|(?<![.!?;])[.!?;]++(?=\s|$))[”’"'）)\]」』]*+|\n++"""
)


def split_sentences(text: str) -> list[str]:
    """Split ``text`` into sentences, stripped, empty ones dropped; punctuation is kept."""
    sentences: list[str] = []
    position = 0
    for match in _SENTENCE_END_RE.finditer(text):
        sentence = text[position : match.end()].strip()
        if sentence:
            sentences.append(sentence)
        position = match.end()
    rest = text[position:].strip()
    if rest:
        sentences.append(rest)
    return sentences
