"""Decode page bytes and parse them into one lxml tree.

Encoding policy (one for the whole project):

1. the charset of the HTTP ``Content-Type`` header, then
2. a byte-order mark, then
3. ``<meta charset>`` / ``<meta http-equiv="Content-Type">`` in the first 4 KiB,
4. otherwise a fallback order (UTF-8, then GB18030 when the bytes look like GB text, then
   Windows-1252).

Labels are mapped the way browsers do: gb2312/gbk (and aliases) decode as GB18030, its
superset; latin-1/ascii decode as Windows-1252. A declared legacy charset loses to strict
UTF-8 when the bytes are valid multi-byte UTF-8 (legacy CJK text is practically never valid
UTF-8), and a declaration whose decode fails badly is retried with the fallbacks. Bytes that
still do not decode are replaced with U+FFFD: decoding never raises.

Parsing uses libxml2's HTML parser with no network access, no entity expansion from DTDs,
comments and processing instructions dropped. libxml2 stops at 2048 levels of nesting and
silently loses the rest of the page; a page that hits that limit is re-parsed after the
tags nested deeper than ``max_depth`` are removed (their text is kept).
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable
from dataclasses import dataclass

from lxml import etree

from scrapy_webclean.errors import EmptyDocument, NotHtml, OverLimit, ParseFailure
from scrapy_webclean.html.sniff import check_magic, check_media_type

#: Fallback order for pages that declare no charset.
DEFAULT_FALLBACK_ENCODINGS: tuple[str, ...] = ("utf-8", "gb18030", "cp1252")

#: Nesting depth beyond which tags are dropped (text kept) when libxml2 gives up.
DEFAULT_MAX_DEPTH = 1000

_META_SNIFF_BYTES = 4096


@dataclass(frozen=True, slots=True)
class Limits:
    """The largest page the cleaner takes; a page over any of them is skipped whole
    (:class:`~scrapy_webclean.errors.OverLimit` with the limit as its reason)."""

    #: Bytes of HTML (characters, for a ``str``).
    max_bytes: int = 10_000_000
    #: Levels of element nesting.
    max_depth: int = DEFAULT_MAX_DEPTH
    #: Tags: a page with more ``<`` than this is not parsed.
    max_nodes: int = 500_000
    #: Characters of the longest run of visible text (one text node; scripts, styles and
    #: attributes do not count).
    max_text: int = 1_000_000

    def check_size(self, body: bytes | str) -> None:
        if len(body) > self.max_bytes:
            raise OverLimit(
                f"the page is {len(body):,} bytes, over the limit of {self.max_bytes:,}",
                reason="too_large",
            )

    def check_text(self, text: str) -> None:
        tags = text.count("<")
        if tags > self.max_nodes:
            raise OverLimit(
                f"the page has {tags:,} tags, over the limit of {self.max_nodes:,}",
                reason="too_many_nodes",
            )

    def check_runs(self, lengths: Iterable[int]) -> None:
        """Raise when a run of visible text (scripts and styles are not text) is longer
        than ``max_text`` characters."""
        longest = max(lengths, default=0)
        if longest > self.max_text:
            raise OverLimit(
                f"the page has a run of {longest:,} characters of text, over the limit of "
                f"{self.max_text:,}",
                reason="text_too_long",
            )

    def check_depth(self, parents: list[int], depth: int | None = None) -> None:
        """Raise when the tree (``parents[i]``: the parent of node ``i``, node 0 the root)
        is nested deeper than ``max_depth``; ``depth``, when the caller knows it, spares
        working it out."""
        if len(parents) <= self.max_depth:
            return
        if (tree_depth(parents) if depth is None else depth) > self.max_depth:
            raise OverLimit(
                f"the page nests elements over {self.max_depth:,} levels deep",
                reason="too_deep",
            )


def tree_depth(parents: list[int]) -> int:
    """The depth of a tree given by its parent indices (node 0 the root, a parent before
    its children), in edges: one pass. (Plain Python on purpose: importing numpy here
    started OpenBLAS's threads, whose spinning a process pays for a while after.)"""
    depths = [0] * len(parents)
    deepest = 0
    for node in range(1, len(parents)):
        depth = depths[node] = depths[parents[node]] + 1
        if depth > deepest:
            deepest = depth
    return deepest


# Python codec name -> the codec we decode with (browser-compatible supersets).
_SUPERSETS = {
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "gb18030": "gb18030",
    "iso8859-1": "cp1252",
    "ascii": "cp1252",
    "cp1252": "cp1252",
    "big5": "big5hkscs",
    "euc_kr": "cp949",
    "shift_jis": "cp932",
}
# Labels Python does not know but pages use.
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

_HEADER_CHARSET_RE = re.compile(r"""charset\s*=\s*["']?\s*([-\w.:]+)""", re.I)
_META_RE = re.compile(
    rb"""<meta\s[^>]*?(?:charset\s*=\s*["']?\s*([-\w.:]+)|"""
    rb"""content\s*=\s*["'][^"']*?charset\s*=\s*([-\w.:]+))""",
    re.I,
)
_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
# Control bytes that never occur in text documents (tab, LF, FF, CR and ESC are allowed).
_BINARY_BYTES = bytes(b for b in range(32) if b not in (9, 10, 12, 13, 27))
_GB_PAIR_RE = re.compile(rb"[\x81-\xfe][\x40-\xfe]")
# (Attributes stop at the next "<" too: a page of unclosed "<a" is scanned once.)
_TAG_RE = re.compile(r"<(/?)([a-zA-Z][-\w:]*)([^<>]*)>")
_VOID_TAGS = frozenset(
    [
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
    ]
)


@dataclass(frozen=True, slots=True)
class DecodedHtml:
    """Text of a page and how its encoding was chosen.

    ``encoding`` is the Python codec used; ``source`` is one of ``"str"`` (input was already
    text), ``"header"``, ``"bom"``, ``"meta"``, ``"utf-8-check"`` (a legacy declaration
    overruled by valid UTF-8), ``"fallback"``; ``replaced`` counts undecodable bytes that
    became U+FFFD.
    """

    text: str
    encoding: str
    source: str
    replaced: int = 0


@dataclass(frozen=True, slots=True)
class LoadedPage:
    """A parsed page: its lxml root, the decode record, and whether it was flattened."""

    root: etree._Element
    decoded: DecodedHtml
    flattened: bool = False


def normalize_encoding(label: str | bytes | None) -> str | None:
    """Map a charset label to the Python codec we decode with, or None when unknown."""
    if not label:
        return None
    if isinstance(label, bytes):
        label = label.decode("ascii", "ignore")
    name = label.strip().strip("'\"").lower()
    name = _EXTRA_LABELS.get(name, name)
    try:
        codec = codecs.lookup(name).name
    except LookupError:
        return None
    return _SUPERSETS.get(codec, codec)


def _header_charset(content_type: str | bytes | None) -> str | None:
    if not content_type:
        return None
    if isinstance(content_type, bytes):
        content_type = content_type.decode("latin-1")
    match = _HEADER_CHARSET_RE.search(content_type)
    return normalize_encoding(match.group(1)) if match else None


def _meta_charset(head: bytes) -> str | None:
    for match in _META_RE.finditer(head):
        encoding = normalize_encoding(match.group(1) or match.group(2))
        if encoding is None:
            continue
        # A meta tag read as ASCII cannot really declare UTF-16/32 (HTML spec: use UTF-8).
        if encoding.startswith(("utf-16", "utf-32", "utf_16", "utf_32")):
            return "utf-8"
        return encoding
    return None


def _strict(body: bytes, encoding: str) -> str | None:
    try:
        return body.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        return None


def _looks_like_gb(body: bytes) -> bool:
    """True when most double-byte pairs fall in the GB2312 area, as real Chinese text does."""
    pairs = _GB_PAIR_RE.findall(body)
    if not pairs:
        return False
    gb2312 = sum(1 for pair in pairs if pair[0] >= 0xA1 and pair[1] >= 0xA1)
    return gb2312 >= 0.9 * len(pairs)


def _replace_decode(body: bytes, encoding: str) -> tuple[str, int]:
    text = body.decode(encoding, errors="replace")
    return text, text.count("\ufffd")


def _check_binary(body: bytes) -> None:
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
    bom_encoding = None
    for bom, name in _BOMS:
        if body.startswith(bom):
            bom_encoding = name
            body = body[len(bom) :]
            break
    if bom_encoding is None or not bom_encoding.startswith(("utf-16", "utf-32")):
        _check_binary(body)

    declared, source = _header_charset(content_type), "header"
    if declared is None and bom_encoding is not None:
        declared, source = bom_encoding, "bom"
    if declared is None:
        declared, source = _meta_charset(body[:_META_SNIFF_BYTES]), "meta"

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
        # A few bad bytes: keep the declaration. Many: the label is wrong, try the fallbacks.
        if replaced <= max(2, len(body) // 1000):
            return DecodedHtml(text, declared, source, replaced)
        best = DecodedHtml(text, declared, source, replaced)
    else:
        best = None

    for encoding in fallback_encodings:
        encoding = normalize_encoding(encoding) or encoding
        if encoding == "gb18030" and not _looks_like_gb(body):
            continue
        text = _strict(body, encoding)
        if text is not None:
            return DecodedHtml(text, encoding, "fallback")
    if best is not None:
        return best
    first = normalize_encoding(fallback_encodings[0]) if fallback_encodings else "utf-8"
    text, replaced = _replace_decode(body, first or "utf-8")
    return DecodedHtml(text, first or "utf-8", "fallback", replaced)


def _parser() -> etree.HTMLParser:
    return etree.HTMLParser(
        encoding="utf-8",
        huge_tree=True,
        no_network=True,
        remove_comments=True,
        remove_pis=True,
        remove_blank_text=False,
        default_doctype=False,
        # Nothing looks elements up by id: the id table would cost 5% of the parse.
        collect_ids=False,
    )


def _hit_depth_limit(parser: etree.HTMLParser) -> bool:
    # The depth error is fatal: libxml2 stops there, so it is the last error logged
    # (reading only that one spares building an object for each of a page's many
    # harmless HTML errors).
    last = parser.error_log.last_error
    return last is not None and "Excessive depth" in last.message


def flatten_deep_tags(text: str, max_depth: int = DEFAULT_MAX_DEPTH) -> str:
    """Drop the tags nested deeper than ``max_depth`` (their text stays), iteratively."""
    out: list[str] = []
    stack: list[tuple[str, bool]] = []  # (tag name, kept?)
    depth = 0
    position = 0
    for match in _TAG_RE.finditer(text):
        out.append(text[position : match.start()])
        position = match.end()
        closing, name = match.group(1), match.group(2).lower()
        if not closing:
            if name in _VOID_TAGS or match.group(3).rstrip().endswith("/"):
                out.append(match.group(0))
                continue
            keep = depth < max_depth
            stack.append((name, keep))
            if keep:
                depth += 1
                out.append(match.group(0))
            continue
        # Pop to the matching open tag, if any; unmatched end tags are left to libxml2.
        for index in range(len(stack) - 1, -1, -1):
            if stack[index][0] == name:
                for _, kept in stack[index:]:
                    depth -= kept
                keep = stack[index][1]
                del stack[index:]
                if keep:
                    out.append(match.group(0))
                break
        else:
            out.append(match.group(0))
    out.append(text[position:])
    return "".join(out)


def parse_html(
    text: str, max_depth: int = DEFAULT_MAX_DEPTH, utf8: bytes | None = None
) -> tuple[etree._Element, bool]:
    """Parse decoded HTML into an lxml root; returns ``(root, flattened)``.

    ``utf8``, when given, is ``text`` already encoded as UTF-8 (the page's own bytes, when
    they were valid UTF-8): it spares encoding the text again.

    Raises :class:`EmptyDocument` for blank input and :class:`ParseFailure` when libxml2
    builds nothing.
    """
    if not text or text.isspace():
        raise EmptyDocument("the page is empty")
    data = utf8 if utf8 is not None else text.encode("utf-8", errors="replace")
    parser = _parser()
    try:
        root = etree.fromstring(data, parser)
    except etree.LxmlError as exc:  # pragma: no cover - libxml2 recovers from nearly all
        raise ParseFailure(f"lxml could not parse the page: {exc}") from exc
    flattened = False
    if _hit_depth_limit(parser):
        parser = _parser()
        data = flatten_deep_tags(text, max_depth).encode("utf-8", errors="replace")
        root = etree.fromstring(data, parser)
        flattened = True
    if root is None:
        raise EmptyDocument("the page has no elements")
    if _STREAMED_MARK in text:
        place_streamed_segments(root)
    return root, flattened


#: React's streamed server rendering (React 18+, Next.js app router) sends the page's late
#: parts at the end of the body as ``<div hidden id="S:n">`` and script calls
#: (``$RC("B:n", "S:n")``, ``$RS("S:n", "P:n")``) move each into its placeholder
#: (``<template id="B:n">`` or ``<template id="P:n">``) at once.
_STREAMED_MARK = 'id="S:'
_STREAMED_XPATH = etree.XPath("//div[@hidden][starts-with(@id, 'S:')]")


def place_streamed_segments(root: etree._Element) -> int:
    """Do what React's ``$RC``/``$RS`` do on load: put each streamed segment where its
    placeholder is, visible. Returns how many segments were placed.

    The placeholder's fallback (a spinner or skeleton, usually without text) stays; a
    segment without a placeholder is left hidden, as React leaves it.
    """
    templates = {
        template.get("id"): template
        for template in root.iter("template")
        if (template.get("id") or "").startswith(("B:", "P:"))
    }
    placed = 0
    for segment in _STREAMED_XPATH(root):
        number = segment.get("id", "")[2:]
        target = templates.get("B:" + number)
        if target is None:
            target = templates.get("P:" + number)
        if target is None or target.getparent() is None:
            continue
        _keep_tail(segment)
        target.addprevious(segment)  # lxml moves the element
        del segment.attrib["hidden"]
        placed += 1
    return placed


def _keep_tail(element: etree._Element) -> None:
    """Leave an element's tail text where it is before the element is moved."""
    tail, element.tail = element.tail, None
    if not tail:
        return
    previous = element.getprevious()
    if previous is not None:
        previous.tail = (previous.tail or "") + tail
    else:
        parent = element.getparent()
        if parent is not None:
            parent.text = (parent.text or "") + tail


def load_html(
    body: bytes | str,
    content_type: str | bytes | None = None,
    fallback_encodings: tuple[str, ...] = DEFAULT_FALLBACK_ENCODINGS,
    max_depth: int = DEFAULT_MAX_DEPTH,
    limits: Limits | None = None,
) -> LoadedPage:
    """Decode (if bytes) and parse a page: the single entry point for HTML in this project.

    A ``content_type`` naming a media type that is not a page, or a body that starts like a
    PDF, an image or an archive, raises :class:`NotHtml` (see :mod:`.sniff`).
    With ``limits``, a page over one is refused before it is parsed (size, tags, text run)
    or right after (nesting: libxml2 stops at 2048 levels, deeper pages are refused too).
    """
    check_media_type(content_type)
    check_magic(body)
    if limits is not None:
        limits.check_size(body)
    decoded = decode_html(body, content_type, fallback_encodings)
    if limits is not None:
        limits.check_text(decoded.text)
    utf8 = None
    if isinstance(body, bytes) and not decoded.replaced and decoded.source != "str":
        # Bytes that decoded cleanly as UTF-8 (or are plain ASCII) are the UTF-8 encoding
        # of the text already: libxml2 gets them as they came.
        raw = body[len(codecs.BOM_UTF8) :] if body.startswith(codecs.BOM_UTF8) else body
        if decoded.encoding == "utf-8" or raw.isascii():
            utf8 = raw
    root, flattened = parse_html(decoded.text, max_depth, utf8)
    if flattened and limits is not None:
        raise OverLimit(
            f"the page nests elements over {limits.max_depth:,} levels deep", reason="too_deep"
        )
    return LoadedPage(root, decoded, flattened)
