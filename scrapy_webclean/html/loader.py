"""Load a page: decode it (:mod:`scrapy_webclean.html.encoding`, the project's one
encoding policy), repair UTF-8 text that was read as Latin-1 on its way to the page
(:mod:`scrapy_webclean.text.mojibake`) and parse it into one lxml tree.

Parsing uses libxml2's HTML parser with no network access, no entity expansion from DTDs,
comments and processing instructions dropped. libxml2 stops at 2048 levels of nesting and
silently loses the rest of the page; a page that hits that limit is re-parsed after the
tags nested deeper than ``max_depth`` are removed (their text is kept).
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from lxml import etree

from scrapy_webclean.errors import EmptyDocument, OverLimit, ParseFailure
from scrapy_webclean.html.encoding import (
    DEFAULT_FALLBACK_ENCODINGS,
    DecodedHtml,
    decode_html,
    normalize_encoding,
)
from scrapy_webclean.html.sniff import check_magic, check_media_type
from scrapy_webclean.text.mojibake import repair_mojibake

__all__ = [
    "DEFAULT_FALLBACK_ENCODINGS",
    "DEFAULT_MAX_DEPTH",
    "DecodedHtml",
    "Limits",
    "LoadedPage",
    "decode_html",
    "load_html",
    "normalize_encoding",
    "parse_html",
]

#: Nesting depth beyond which tags are dropped (text kept) when libxml2 gives up.
DEFAULT_MAX_DEPTH = 1000


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


# (Attributes stop at the next "<" too: a page of unclosed "<a" is scanned once. The
# quantifiers are possessive: a name or attributes without their ">" are given up at
# once, not tried again at every shorter length.)
_TAG_RE = re.compile(r"<(/?)([a-zA-Z][-\w:]*+)([^<>]*+)>")
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
class LoadedPage:
    """A parsed page: its lxml root, the decode record, and whether it was flattened."""

    root: etree._Element
    decoded: DecodedHtml
    flattened: bool = False


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
    """Drop the tags nested deeper than ``max_depth`` (their text stays), iteratively, in
    one pass: an end tag finds its open tag through a map from names to their places on
    the stack (a scan down the stack for each of ``n`` stray end tags took ``n`` squared)."""
    out: list[str] = []
    stack: list[tuple[str, bool]] = []  # (tag name, kept?)
    # Where each name is open: stack indices, increasing.
    open_at: dict[str, list[int]] = {}
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
            open_at.setdefault(name, []).append(len(stack))
            stack.append((name, keep))
            if keep:
                depth += 1
                out.append(match.group(0))
            continue
        # Pop to the matching open tag, if any; unmatched end tags are left to libxml2.
        places = open_at.get(name)
        if not places:
            out.append(match.group(0))
            continue
        index = places[-1]
        keep = stack[index][1]
        while len(stack) > index:
            popped, kept = stack.pop()
            open_at[popped].pop()  # (the popped entry is the last place of its name)
            depth -= kept
        if keep:
            out.append(match.group(0))
    out.append(text[position:])
    return "".join(out)


#: libxml2 builds nothing after a document's first ``</html>``; some templates end their
#: header include with ``</body></html>``, before the page's content.
_HTML_END_TAG_RE = re.compile(rb"</html\s*>", re.I)
#: An element after a ``</html>`` (a late script is no loss).
_ELEMENT_AFTER_RE = re.compile(rb"<(?![sS][cC][rR][iI][pP][tT])[A-Za-z]")


def whole_document(data: bytes) -> bytes:
    """``data`` without its ``</html>`` end tags when an element follows the first of them:
    libxml2 stops there and the page's content after it would be lost (the search costs
    about 0.08 ms for a page of 150 KB)."""
    first = data.find(b"</html")
    if first < 0:
        first = data.find(b"</HTML")
        if first < 0:
            return data
    if _ELEMENT_AFTER_RE.search(data, first + 6) is None:
        return data
    return _HTML_END_TAG_RE.sub(b"", data)


def parse_html(
    text: str, max_depth: int = DEFAULT_MAX_DEPTH, utf8: bytes | None = None
) -> tuple[etree._Element, bool]:
    """Parse decoded HTML into an lxml root; returns ``(root, flattened)``.

    ``utf8``, when given, is ``text`` already encoded as UTF-8 (the page's own bytes, when
    they were valid UTF-8): it spares encoding the text again.

    Raises :class:`EmptyDocument` for blank input and :class:`ParseFailure` when libxml2
    builds nothing.
    """
    root, too_deep = _parse(text, utf8)
    if too_deep:
        data = flatten_deep_tags(text, max_depth).encode("utf-8", errors="replace")
        root = etree.fromstring(whole_document(data), _parser())
    return _finish(root, text), too_deep


def _parse(text: str, utf8: bytes | None) -> tuple[etree._Element | None, bool]:
    """libxml2's tree of ``text`` and whether it stopped at its nesting limit."""
    if not text or text.isspace():
        raise EmptyDocument("the page is empty")
    data = whole_document(utf8 if utf8 is not None else text.encode("utf-8", errors="replace"))
    parser = _parser()
    try:
        root = etree.fromstring(data, parser)
    except etree.LxmlError as exc:  # pragma: no cover - libxml2 recovers from nearly all
        raise ParseFailure(f"lxml could not parse the page: {exc}") from exc
    return root, _hit_depth_limit(parser)


def _finish(root: etree._Element | None, text: str) -> etree._Element:
    if root is None:
        raise EmptyDocument("the page has no elements")
    if _STREAMED_MARK in text:
        place_streamed_segments(root)
    return root


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
    PDF, an image or an archive, raises :class:`NotHtml` (see :mod:`.sniff`). Text that
    holds C1 control characters has its UTF-8-read-as-Latin-1 sequences decoded back
    (``decoded.repaired`` counts them).
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
    if utf8 is not None or decoded.source == "str":
        # (UTF-8 read as Latin-1 on its way to the page: only a page in UTF-8 can carry it)
        text, repaired = repair_mojibake(decoded.text, utf8)
        if repaired:
            decoded = replace(decoded, text=text, repaired=repaired)
            utf8 = None
    if limits is None:
        root, flattened = parse_html(decoded.text, max_depth, utf8)
        return LoadedPage(root, decoded, flattened)
    # (A page that libxml2 gives up on is refused as it is, not flattened first: the
    # flattening would be thrown away.)
    parsed, too_deep = _parse(decoded.text, utf8)
    if too_deep:
        raise OverLimit(
            f"the page nests elements over {limits.max_depth:,} levels deep", reason="too_deep"
        )
    return LoadedPage(_finish(parsed, decoded.text), decoded)
