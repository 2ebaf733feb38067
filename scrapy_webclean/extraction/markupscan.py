"""Reading a few elements of a page out of its source text, found by substring search.

Finding the elements whose class names a byline in the parsed tree means looking at
every element: an XPath with ``contains(@class, ...)`` took about 6 ms on WCXB dev's
median page (142 KB, about 1,000 elements), a third of the whole cleaning; a ``str.find``
for a word in its source takes about 0.07 ms. So this reader searches the source:
:func:`tags_with` finds the start tags with a word in one of their attributes' values
(as they are asked for: a caller that stops at the first searches no further),
:func:`texts_after` reads the text of the element a tag opens (its text pieces, up to
its end tag).

Every search is capped: at most ``limit`` hits looked at per word, a tag read up to
:data:`MAX_TAG_CHARS`, an element's text up to :data:`MAX_ELEMENT_CHARS` of source; each
step is a ``find`` within those bounds, so the cost is linear in the source's size.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass

#: A start tag longer than this (characters) is not read.
MAX_TAG_CHARS = 2000
#: An element's text is read from at most this many characters of source after its tag.
MAX_ELEMENT_CHARS = 3000
#: At most this many text pieces are read of an element.
MAX_PIECES = 12

_TAG_NAME_RE = re.compile(r"<(/?+)([A-Za-z][\w:-]*+)")
_ATTRIBUTE_RE = re.compile(
    r"""([^\s=/>"']++)(?:\s*+=\s*+(?:"([^"]*+)"|'([^']*+)'|([^\s>"']++)))?"""
)
_SPACES_RE = re.compile(r"\s++")
#: Elements without an end tag.
VOID_TAGS = frozenset(
    ("area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr")
)
#: Elements whose content is no text.
_RAW_TEXT_TAGS = ("script", "style", "template", "noscript", "svg")


@dataclass(slots=True)
class StartTag:
    """A start tag of the source: where it starts and ends (the index after its ``>``),
    its name (lower case) and its attributes (names lower case, values unescaped)."""

    start: int
    end: int
    name: str
    attributes: dict[str, str]


def tag_around(markup: str, position: int) -> StartTag | None:
    """The start tag ``position`` lies inside, or None (in text, in an end tag, in a tag
    longer than :data:`MAX_TAG_CHARS`)."""
    lt = markup.rfind("<", max(0, position - MAX_TAG_CHARS), position)
    if lt < 0 or markup.find(">", lt, position) >= 0:
        return None
    gt = markup.find(">", position, position + MAX_TAG_CHARS)
    name = _TAG_NAME_RE.match(markup, lt)
    if gt < 0 or name is None or name.group(1):
        return None
    attributes: dict[str, str] = {}
    for match in _ATTRIBUTE_RE.finditer(markup, name.end(), gt):
        value = match.group(2) or match.group(3) or match.group(4) or ""
        attributes.setdefault(match.group(1).lower(), html.unescape(value))
    return StartTag(lt, gt + 1, name.group(2).lower(), attributes)


def tags_with(
    markup: str,
    word: str,
    attributes: frozenset[str],
    limit: int,
    start: int = 0,
    end: int | None = None,
) -> Iterator[StartTag]:
    """The start tags between ``start`` and ``end`` (the source's end when None), in
    source order, with ``word`` (as written) in the value of one of ``attributes``; at
    most ``limit`` hits of the word are looked at (found as they are asked for: a caller
    that stops early searches no further)."""
    stop = len(markup) if end is None else end
    last = -1
    position = markup.find(word, start, stop)
    for _ in range(limit):
        if position < 0:
            return
        tag = tag_around(markup, position)
        if (
            tag is not None
            and tag.start != last
            and any(word in tag.attributes.get(name, "") for name in attributes)
        ):
            last = tag.start
            yield tag
        position = markup.find(word, position + len(word), stop)


_CLASS_ID_RE = re.compile(r"""\b(?:class|id)\s*+=\s*+(?:"([^"]*+)"|'([^']*+)'|([^\s>"']++))""")


def _name_and_class(markup: str, name: str, start: int, end: int) -> str:
    """A start tag's name and the values of its ``class`` and ``id``, space-separated."""
    values = [name]
    for match in _CLASS_ID_RE.finditer(markup, start, end):
        values.append(match.group(1) or match.group(2) or match.group(3) or "")
    return " ".join(values)


def texts_after(
    markup: str, start: int, levels: int = 1, skip: re.Pattern[str] | None = None
) -> Iterator[str]:
    """The text pieces (whitespace collapsed, entities unescaped, not blank) from
    ``start`` (just after a start tag, or in a text) to the end tag that closes the
    element ``start`` is in (with ``levels`` 2, its parent's), at most
    :data:`MAX_PIECES`, from at most :data:`MAX_ELEMENT_CHARS` of source; the text of an
    element is left out when ``skip`` finds something in its name and its class and id
    (:func:`_name_and_class`: ``"time"``, ``"span tag-link"``)."""
    end = min(len(markup), start + MAX_ELEMENT_CHARS)
    depth = 0
    count = 0
    position = start
    skipped = 0  # (the depth inside the element being left out; 0 when none is)
    while position < end and count < MAX_PIECES:
        lt = markup.find("<", position, end)
        text_end = end if lt < 0 else lt
        if text_end > position and not skipped:
            piece = _SPACES_RE.sub(" ", html.unescape(markup[position:text_end])).strip()
            if piece:
                count += 1
                yield piece
        if lt < 0:
            return
        if markup.startswith("<!--", lt):
            close = markup.find("-->", lt, end)
            position = close + 3 if close >= 0 else end
            continue
        gt = markup.find(">", lt, end)
        name = _TAG_NAME_RE.match(markup, lt)
        if gt < 0:
            return
        if name is None:
            position = lt + 1
            continue
        tag = name.group(2).lower()
        if name.group(1):
            depth -= 1
            if depth < 1 - levels:
                return
            if skipped and depth < skipped:
                skipped = 0
        elif tag in _RAW_TEXT_TAGS:
            # (its content is skipped, its end tag with it: the depth stays)
            close = markup.find(f"</{name.group(2)}", gt, end)
            close = markup.find(">", close, end) if close >= 0 else -1
            position = close + 1 if close >= 0 else end
            continue
        elif tag not in VOID_TAGS and markup[gt - 1] != "/":
            depth += 1
            if (
                not skipped
                and skip is not None
                and skip.search(_name_and_class(markup, tag, lt, gt))
            ):
                skipped = depth
        position = gt + 1
