"""Text that was UTF-8, read as Latin-1 and written out again as UTF-8
(``"Investorâ\\x80\\x99s"`` for ``"Investor’s"``): repaired where it can be told.

A page whose database or template layer read its UTF-8 text as ISO-8859-1 and encoded it
again carries, for each non-ASCII character, two to four: a letter from ``Â`` to ``ô``
(the lead byte) and C1 control characters (U+0080-U+009F) or Latin-1 signs (the
continuation bytes). C1 controls are not text (HTML forbids them), so only a text that
holds one is looked at, and there each lead-and-continuations sequence that is the
Latin-1 reading of valid UTF-8 is decoded back. A text without a C1 control is never
changed (its cost: one search of the page's bytes, or of its text when it came as text).
The Windows-1252 form of the same damage (``"â€™"``) is left as it is: without a C1
control, nothing tells it from real text.
"""

from __future__ import annotations

import re

#: A C1 control character: in a page's text, the mark of this damage.
C1_CONTROL_RE = re.compile("[\u0080-\u009f]")
#: The same in a page's UTF-8 bytes (a search of the bytes costs a fraction of one of the
#: decoded text: 30-85 µs on the dev sets' median pages, against 150-840).
C1_CONTROL_UTF8_RE = re.compile(b"\xc2[\x80-\x9f]")
#: One UTF-8 sequence read as Latin-1: a lead byte and as many continuation bytes as it
#: announces.
_SEQUENCE_RE = re.compile(
    "[\u00c2-\u00df][\u0080-\u00bf]|[\u00e0-\u00ef][\u0080-\u00bf]{2}|[\u00f0-\u00f4][\u0080-\u00bf]{3}"
)


def repair_mojibake(text: str, utf8: bytes | None = None) -> tuple[str, int]:
    """``text`` with its UTF-8-read-as-Latin-1 sequences decoded back, and how many were
    (``text`` itself and 0 when it holds no C1 control character). ``utf8``, when given,
    is ``text`` encoded as UTF-8 (the page's own bytes): it is searched instead."""
    if utf8 is not None:
        if utf8.isascii() or C1_CONTROL_UTF8_RE.search(utf8) is None:
            return text, 0
    elif text.isascii() or C1_CONTROL_RE.search(text) is None:
        return text, 0
    repaired = 0

    def decode(match: re.Match[str]) -> str:
        nonlocal repaired
        sequence = match.group()
        try:
            character = sequence.encode("latin-1").decode("utf-8")
        except UnicodeError:
            return sequence
        repaired += 1
        return character

    return _SEQUENCE_RE.sub(decode, text), repaired
