"""Decode page bytes to text: the project's one encoding policy.

In order:

1. a byte-order mark (it wins over everything, as in browsers and ``w3lib``);
2. the charset of the HTTP ``Content-Type`` header, then the page's own declaration
   (``<meta charset>``, ``<meta http-equiv="Content-Type">``, an XML declaration) in its
   first 4 KiB, read with ``w3lib.encoding``;
3. for a page that declares nothing: the ``fallback_encodings`` tried strictly in order
   (UTF-8 by default: valid UTF-8 is UTF-8), then ``charset-normalizer``'s guess from the
   bytes, then Windows-1252 with the bad bytes replaced.

Labels are mapped the way browsers do (``w3lib.encoding.resolve_encoding``): gb2312/gbk
decode as GB18030, its superset; latin-1/ascii as Windows-1252; euc-kr as cp949; shift_jis
as cp932; big5 as big5hkscs. Two repairs keep what the project learned on real pages: a
declared legacy charset loses to strict UTF-8 when the bytes are valid multi-byte UTF-8
(legacy CJK text is practically never valid UTF-8), and a declaration whose decode fails
badly (many undecodable bytes) is treated as no declaration. Bytes that still do not
decode become U+FFFD: decoding never raises for bad bytes, only for binary data
(:class:`~scrapy_webclean.errors.NotHtml`).
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

from w3lib.encoding import (
    html_body_declared_encoding,
    http_content_type_encoding,
    read_bom,
    resolve_encoding,
)

from scrapy_webclean.errors import NotHtml
from scrapy_webclean.html.alphabets import decoding_fit

#: Encodings tried strictly, in order, for pages that declare none, before the bytes are
#: handed to the detector.
DEFAULT_FALLBACK_ENCODINGS: tuple[str, ...] = ("utf-8",)
#: What an undeclared page that nothing else explains is read as (bad bytes replaced).
LAST_RESORT_ENCODING = "cp1252"

#: Bytes of the page read for a ``<meta>`` or XML declaration.
META_SNIFF_BYTES = 4096
#: A declared charset is kept when at most this share of the bytes fail to decode
#: (with at least 2 tolerated): a few bad bytes are damage, many mean a wrong label.
TOLERATED_BAD_BYTES = 1 / 1000

#: Codecs the detector may answer with: the legacy encodings of the web (WHATWG's list,
#: as Python names them). Restricting it keeps it from "explaining" a page as an exotic
#: codec that happens to decode the bytes.
DETECTABLE_ENCODINGS: tuple[str, ...] = (
    "cp1252",
    "cp1250",
    "cp1251",
    "cp1253",
    "cp1254",
    "cp1255",
    "cp1256",
    "cp1257",
    "cp1258",
    "iso8859_2",
    "iso8859_4",
    "iso8859_5",
    "iso8859_7",
    "iso8859_8",
    "iso8859_13",
    "iso8859_15",
    "koi8_r",
    "koi8_u",
    "cp874",
    "gb18030",
    "big5",
    "cp932",
    "euc_jp",
    "cp949",
    "mac_cyrillic",
)

#: How much messier (charset-normalizer's chaos, 0-1) than the least messy decoding a
#: decoding may be and still be chosen for fitting a language's letters better.
CHAOS_MARGIN = 0.2

#: Characters of an undeclared page read for the language of its ASCII words, and bytes of
#: those words handed to the language guess (a tie-breaker between 8-bit decodings).
LANGUAGE_SNIFF_CHARS = 65_536
LANGUAGE_SAMPLE_BYTES = 1_000

#: The double-byte codecs of :data:`DETECTABLE_ENCODINGS`, as :func:`normalize_encoding`
#: names them.
MULTIBYTE_ENCODINGS = frozenset(("gb18030", "big5hkscs", "big5", "cp932", "euc_jp", "cp949"))

# Labels neither Python nor w3lib knows but pages use.
_EXTRA_LABELS = {
    "x-gbk": "gbk",
    "gb_2312-80": "gb2312",
    "csgb2312": "gb2312",
    "iso-ir-58": "gb2312",
    "chinese": "gb2312",
    "x-sjis": "shift_jis",
    "windows-31j": "cp932",
    "unicode": "utf-16",
}
# Markup, with the text of scripts and styles, for reading a page's words
# (:func:`without_markup`): where a script or style opens, and where it closes.
_RAW_TEXT_OPEN_RE = re.compile(r"<(script|style)\b", re.IGNORECASE)
_RAW_TEXT_CLOSE_RES = {
    name: re.compile(rf"</{name}\s*+>", re.IGNORECASE) for name in ("script", "style")
}
# Control bytes that never occur in text documents (tab, LF, FF, CR and ESC are allowed).
_BINARY_BYTES = bytes(b for b in range(32) if b not in (9, 10, 12, 13, 27))


@dataclass(frozen=True, slots=True)
class DecodedHtml:
    """Text of a page and how its encoding was chosen.

    ``encoding`` is the Python codec used; ``source`` is one of ``"str"`` (input was already
    text), ``"bom"``, ``"header"``, ``"meta"``, ``"utf-8-check"`` (a legacy declaration
    overruled by valid UTF-8), ``"fallback"`` (one of the fallback encodings decoded it
    strictly), ``"detected"`` (charset-normalizer's guess), ``"last-resort"``;
    ``replaced`` counts undecodable bytes that became U+FFFD; ``repaired`` the characters
    of UTF-8 read as Latin-1 that the loader decoded back (``text.mojibake``).
    """

    text: str
    encoding: str
    source: str
    replaced: int = 0
    repaired: int = 0


def normalize_encoding(label: str | bytes | None) -> str | None:
    """Map a charset label to the Python codec we decode with (browser-compatible
    supersets), or None when unknown."""
    if not label:
        return None
    if isinstance(label, bytes):
        label = label.decode("ascii", "ignore")
    name = label.strip().strip("'\"").lower()
    name = _EXTRA_LABELS.get(name, name)
    resolved = resolve_encoding(name)
    if resolved is None:
        return None
    try:
        return codecs.lookup(resolved).name
    except LookupError:  # pragma: no cover - w3lib resolved it through codecs already
        return None


def header_encoding(content_type: str | bytes | None) -> str | None:
    """The codec named by a ``Content-Type`` header's charset, or None."""
    if not content_type:
        return None
    if isinstance(content_type, bytes):
        content_type = content_type.decode("latin-1")
    label = http_content_type_encoding(content_type)
    return normalize_encoding(label) if label else None


def declared_encoding(head: bytes) -> str | None:
    """The codec the page's own ``<meta>`` or XML declaration names, or None. A meta tag
    read as ASCII cannot really declare UTF-16/32: the HTML spec reads it as UTF-8."""
    label = html_body_declared_encoding(head)
    encoding = normalize_encoding(label) if label else None
    if encoding is not None and encoding.startswith(("utf-16", "utf-32", "utf_16", "utf_32")):
        return "utf-8"
    return encoding


def check_binary(body: bytes) -> None:
    """Raise :class:`NotHtml` when over 10% of the first KiB are control bytes."""
    sample = body[:1024]
    if not sample:
        return
    control = len(sample) - len(sample.translate(None, _BINARY_BYTES))
    if control > 0.1 * len(sample):
        raise NotHtml(
            f"{control} control bytes in the first {len(sample)} bytes: not a text document"
        )


def decode_html(
    body: bytes | str,
    content_type: str | bytes | None = None,
    fallback_encodings: tuple[str, ...] = DEFAULT_FALLBACK_ENCODINGS,
) -> DecodedHtml:
    """Decode page bytes with the project's encoding policy (see the module docstring).

    ``content_type`` is the HTTP ``Content-Type`` header value, if known. A ``str`` body is
    returned as is. Raises :class:`NotHtml` for binary data; never raises for bad bytes.
    """
    if isinstance(body, str):
        return DecodedHtml(body, "utf-8", "str")
    bom_label, bom = read_bom(body)
    if bom_label is not None and bom is not None:
        codec = normalize_encoding(bom_label) or bom_label
        unmarked, bad = _replace_decode(body[len(bom) :], codec)
        return DecodedHtml(unmarked, codec, "bom", bad)
    check_binary(body)

    declared, source = header_encoding(content_type), "header"
    if declared is None:
        declared, source = declared_encoding(body[:META_SNIFF_BYTES]), "meta"
    best = None
    if declared is not None:
        # Valid multi-byte UTF-8 is never legacy CJK/Latin text in practice.
        if not declared.startswith(("utf-8", "utf-16", "utf-32")) and not body.isascii():
            text = _strict(body, "utf-8")
            if text is not None:
                return DecodedHtml(text, "utf-8", "utf-8-check")
        text = _strict(body, declared)
        if text is not None:
            return DecodedHtml(text, declared, source)
        text, replaced = _replace_decode(body, declared)
        if replaced <= max(2, int(len(body) * TOLERATED_BAD_BYTES)):
            return DecodedHtml(text, declared, source, replaced)
        best = DecodedHtml(text, declared, source, replaced)

    for label in fallback_encodings:
        encoding = normalize_encoding(label) or label
        text = _strict(body, encoding)
        if text is not None:
            return DecodedHtml(text, encoding, "fallback")
    detected = detect_encoding(body)
    if detected is not None:
        text, replaced = _replace_decode(body, detected)
        if best is None or replaced < best.replaced:
            return DecodedHtml(text, detected, "detected", replaced)
    if best is not None:
        return best
    text, replaced = _replace_decode(body, LAST_RESORT_ENCODING)
    return DecodedHtml(text, LAST_RESORT_ENCODING, "last-resort", replaced)


def detect_encoding(body: bytes) -> str | None:
    """The codec an undeclared, non-UTF-8 page was most likely written in (mapped to the
    codec we decode with), or None when none of :data:`DETECTABLE_ENCODINGS` fits.

    charset-normalizer ranks the codecs by how messy and how language-like their decodings
    are. The 8-bit Latin codecs often tie there: the page's ASCII dominates and they differ
    in a few accented letters only, and the CJK codecs on short texts. Among the matches no
    messier than the best by more than :data:`CHAOS_MARGIN`, the one that reads most like
    real text wins (:func:`~scrapy_webclean.html.alphabets.decoding_fit`: accented letters
    of one language, the language of the page's plain-ASCII words when they say one; words
    cased like words; CJK characters of common blocks), then a double-byte codec that
    decodes every byte; ties keep charset-normalizer's order. Imported on first use: most pages declare their encoding
    or are UTF-8."""
    from charset_normalizer import from_bytes

    matches = list(from_bytes(body, cp_isolation=list(DETECTABLE_ENCODINGS)))
    if not matches:
        return None
    least = min(match.chaos for match in matches)
    close = [match for match in matches if match.chaos <= least + CHAOS_MARGIN]
    best = close[0]
    if len(close) > 1:
        language = _ascii_language(str(best))
        scores = [_score(body, match.encoding, str(match), language) for match in close]
        best = close[scores.index(max(scores))]
    return normalize_encoding(best.encoding) or best.encoding


def _score(body: bytes, encoding: str, text: str, language: str | None) -> tuple[float, bool]:
    """A decoding's claim: how much it reads like real text, then whether a double-byte
    codec decoded every byte (its lead and trail bytes must pair up, which random bytes
    rarely do; an 8-bit codec decodes anything)."""
    multibyte = (normalize_encoding(encoding) or encoding) in MULTIBYTE_ENCODINGS
    fit = decoding_fit(text, language)
    return round(fit, 2), multibyte and _strict(body, encoding) is not None


def _ascii_language(html: str) -> str | None:
    """The language of a page's words written in plain ASCII (markup, scripts and styles
    left out), which every 8-bit decoding of the page reads alike; None when they do not
    say one (too few, or a page in another script). Reads the first
    :data:`LANGUAGE_SNIFF_CHARS` characters of the page."""
    from scrapy_webclean.text.language import guess_language  # (py3langid: on first use)

    text = without_markup(html[:LANGUAGE_SNIFF_CHARS])
    words = " ".join(word for word in text.split() if word.isascii() and word.isalpha())
    language = guess_language(words, sample_bytes=LANGUAGE_SAMPLE_BYTES)
    return None if language == "und" else language


def without_markup(html: str) -> str:
    """``html`` with a space in place of each tag (``<`` to the next ``>``) and of each
    script or style with its text (``<script`` to the first ``</script>``, in any case):
    what ``re.sub(r"<(script|style)\\b.*?</\\1\\s*>|<[^>]*>", " ", html, flags=re.I | re.S)``
    gives, in one pass. (The pattern looks from every ``<`` that has no ``>`` after it,
    and from every ``<script`` that is never closed, to the end of the text: in the
    square of its length.)"""
    last_close = html.rfind(">")  # (a "<" after it starts no tag)
    unclosed_from: dict[str, int] = {}  # a name's raw text is not closed from here on
    pieces: list[str] = []
    kept_from = 0
    start = html.find("<")
    while 0 <= start < last_close:
        end = -1
        opened = _RAW_TEXT_OPEN_RE.match(html, start)
        if opened is not None:
            end = _raw_text_end(html, opened.group(1).lower(), opened.end(), unclosed_from)
        if end < 0:
            end = html.index(">", start + 1) + 1
        pieces.append(html[kept_from:start])
        pieces.append(" ")
        kept_from = end
        start = html.find("<", end)
    pieces.append(html[kept_from:])
    return "".join(pieces)


def _raw_text_end(html: str, name: str, start: int, unclosed_from: dict[str, int]) -> int:
    """Where the first ``</name>`` at or after ``start`` ends, or -1; a search that finds
    none is remembered, so that a later one from further on is not made again."""
    if start >= unclosed_from.get(name, len(html) + 1):
        return -1
    close = _RAW_TEXT_CLOSE_RES[name].search(html, start)
    if close is None:
        unclosed_from[name] = start
        return -1
    return close.end()


def _strict(body: bytes, encoding: str) -> str | None:
    try:
        return body.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        return None


def _replace_decode(body: bytes, encoding: str) -> tuple[str, int]:
    text = body.decode(encoding, errors="replace")
    return text, text.count("\ufffd")
