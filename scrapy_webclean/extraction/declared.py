"""Lines a page declares as its own text in its structured data: the description of the
schema.org product that a product page publishes for search engines (in JSON-LD, or as
microdata: ``itemprop="description"`` inside the product's ``itemscope``).

A product page's description often sits in a tab, an accordion or a column of short
feature lines that the region choice passes over for a block of prose further down; the
page's own ``Product`` object names that text. A line of the page whose text is part of
the declared description is main content (lines too short to tell are left alone).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lxml import etree

from scrapy_webclean.extraction.jsonld import json_ld_items, json_objects, types_of
from scrapy_webclean.extraction.lines import Line

#: The schema.org types of a product (``pagetype.SCHEMA_GROUPS`` less the offers).
PRODUCT_TYPES = frozenset(("product", "productgroup", "productmodel", "individualproduct"))
#: A line is matched against the declared description from this many text units on
#: (about five words): shorter ones ("Free shipping") could be anywhere.
DECLARED_LINE_MIN_UNITS = 10.0
_SPACES_RE = re.compile(r"\s+")


def comparable(text: str) -> str:
    """``text`` lower-cased with its whitespace collapsed (how lines and the declared
    description are compared)."""
    return _SPACES_RE.sub(" ", text).strip().lower()


def declared_description(root: etree._Element, markup: str | None = None) -> str:
    """The descriptions of the page's product objects, JSON-LD and microdata
    (:func:`comparable`), or "" when it declares none. ``markup``, the page's source,
    spares the look at its scripts and items when it names no product."""
    if markup is not None and "roduct" not in markup:
        return ""
    parts: list[str] = []
    if markup is None or "ld+json" in markup:
        parts.extend(
            description
            for obj in json_objects(json_ld_items(root, "roduct"))
            if PRODUCT_TYPES.intersection(types_of(obj))
            and isinstance(description := obj.get("description"), str)
        )
    if markup is None or "itemprop" in markup:
        parts.extend(_microdata_descriptions(root))
    return comparable(" ".join(parts))


def _microdata_descriptions(root: etree._Element) -> list[str]:
    """The text of the microdata ``itemprop="description"`` elements of product items."""
    found = []
    for element in root.iterfind(".//*[@itemprop]"):
        if "description" not in (element.get("itemprop") or "").lower().split():
            continue
        scope = next(element.iterancestors(), None)
        while scope is not None and scope.get("itemtype") is None:
            scope = scope.getparent()
        if scope is None:
            continue
        kind = (scope.get("itemtype") or "").strip().rsplit("/", 1)[-1].lower()
        if kind in PRODUCT_TYPES:
            found.append(" ".join(element.itertext()))
    return found


def keep_declared_lines(
    lines: Sequence[Line], kept: list[bool], blocked: Sequence[bool], description: str
) -> None:
    """Keep the lines (not ``blocked``, of at least :data:`DECLARED_LINE_MIN_UNITS`)
    whose text is part of the page's declared product ``description``."""
    if not description:
        return
    for i, line in enumerate(lines):
        if kept[i] or blocked[i] or line.units < DECLARED_LINE_MIN_UNITS:
            continue
        if comparable(line.text) in description:
            kept[i] = True
