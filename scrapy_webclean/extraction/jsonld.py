"""The page's JSON-LD (``<script type="application/ld+json">``), read as schema.org
objects: the publication date (``dates``) and the text a page declares, a product's
description and a FAQ (``declared``), come from it.

Memory: a script is parsed once per page though both readers read it, and the parses
are kept for that page only (:class:`_PageParses`: the next page's first read empties
them). A script over :data:`MAX_SCRIPT_CHARS`, and the scripts past
:data:`MAX_PAGE_CHARS` of a page, are not parsed: parsed JSON takes 5 to 25 times its
text's size in Python objects, so a page keeps at most about 25 MB of parses, and none
once the next page is read. A script nested deeper than the parser's recursion limit
(about 1,000 levels) is bad input, skipped like invalid JSON.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator

from lxml import etree

#: JSON-LD objects looked at per page, at most (a catalogue page may list thousands).
MAX_JSON_OBJECTS = 2000
#: A script longer than this (characters, about bytes: JSON is mostly ASCII) is not
#: parsed. The longest of 2,532 pages of the extraction sets is 153,116; the first
#: :data:`MAX_JSON_OBJECTS` objects, all that is read of one, take far less.
MAX_SCRIPT_CHARS = 512 * 1024
#: The scripts of a page are parsed up to this many characters in all, in page order;
#: the ones past it are not (the longest page of the extraction sets has 153,116).
MAX_PAGE_CHARS = 1024 * 1024


def json_ld_items(root: etree._Element, needles: tuple[str, ...] = ("",)) -> list[object]:
    """The parsed JSON-LD scripts of the page whose text holds one of ``needles`` (a
    cheap substring test before the parse); a script that is not valid JSON, nests
    too deep, is over :data:`MAX_SCRIPT_CHARS` or past :data:`MAX_PAGE_CHARS` of the
    page's scripts is skipped."""
    parses = _PAGE.of(root)
    items: list[object] = []
    budget = MAX_PAGE_CHARS
    for script in root.iter("script"):
        if "ld+json" not in (script.get("type") or "").lower():
            continue
        text = (script.text or "").strip()
        if not text or len(text) > MAX_SCRIPT_CHARS:
            continue
        budget -= len(text)
        if budget < 0:
            break
        if not any(needle in text for needle in needles):
            continue
        parsed = parses.parse(text)
        if parsed is not _INVALID:
            items.append(parsed)
    return items


#: What :func:`_parse` gives for a script that is not valid JSON (or nests too deep).
_INVALID = object()
_MISSING = object()


def _parse(text: str) -> object:
    """A script's JSON, or :data:`_INVALID` (callers read it, never change it)."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):  # (RecursionError: nested too deep to parse)
        return _INVALID


class _PageParses(threading.local):
    """The parsed scripts of the page last read in this thread, by script text.

    The page is told by its root element's identity: a read of another page's root
    empties them first. Two readers of one page (the date, the declared text) share
    one parse; a page's parses stay until the next page is read, never longer. They
    never hold more than :data:`MAX_PAGE_CHARS` of script text either (one page's
    readers parse at most that much: this only matters when a freed page's root and
    the next page's share an address), and a parse is only ever of the text that keys
    it, so a page never sees another's data.
    """

    def __init__(self) -> None:
        self.root_id = 0
        self.parses: dict[str, object] = {}
        self.chars = 0

    def of(self, root: etree._Element) -> _PageParses:
        """These parses, for ``root``'s page (emptied first when it is another page)."""
        if id(root) != self.root_id:
            self.root_id = id(root)
            self.forget()
        return self

    def forget(self) -> None:
        """Drop every parse kept."""
        self.parses, self.chars = {}, 0

    def parse(self, text: str) -> object:
        """``text`` parsed (:func:`_parse`), once per page."""
        parsed = self.parses.get(text, _MISSING)
        if parsed is _MISSING:
            if self.chars + len(text) > MAX_PAGE_CHARS:
                self.forget()
            parsed = self.parses[text] = _parse(text)
            self.chars += len(text)
        return parsed


_PAGE = _PageParses()


def json_objects(items: list[object]) -> Iterator[dict[str, object]]:
    """The JSON objects in ``items``, breadth first (iteratively), at most
    :data:`MAX_JSON_OBJECTS`: objects before the ones nested in them."""
    queue = list(items)
    seen = 0
    while queue and seen < MAX_JSON_OBJECTS:
        following: list[object] = []
        for item in queue:
            if isinstance(item, dict):
                seen += 1
                yield item
                following.extend(v for v in item.values() if isinstance(v, (dict, list)))
            elif isinstance(item, list):
                following.extend(v for v in item if isinstance(v, (dict, list)))
        queue = following


def types_of(obj: dict[str, object]) -> list[str]:
    """An object's ``@type`` names, lower-cased (one or a list; a full schema.org URL
    counts by its last part)."""
    declared = obj.get("@type")
    names = declared if isinstance(declared, list) else [declared]
    return [name.rsplit("/", 1)[-1].lower() for name in names if isinstance(name, str)]
