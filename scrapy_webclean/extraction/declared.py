"""Lines a page declares as its own text in its structured data: the description of the
schema.org product that a product page publishes for search engines (in JSON-LD, or as
microdata: ``itemprop="description"`` inside the product's ``itemscope``), and the
questions and answers of a JSON-LD FAQ.

A product page's description often sits in a tab, an accordion or a column of short
feature lines that the region choice passes over for a block of prose further down, and
a FAQ in an accordion whose container is named like a menu; the page's own structured
data names that text. A line of the page whose text is part of the declared text is main
content (lines too short to tell are left alone). A JSON-LD ``articleBody`` is not read
this way: WCXB's truths leave out parts of what pages declare as their body.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from lxml import etree

from scrapy_webclean.extraction.jsonld import json_ld_items, json_objects, types_of
from scrapy_webclean.extraction.lines import Line
from scrapy_webclean.extraction.pagekind import PRODUCT_TYPE_NAMES, all_declared_types

#: The schema.org types of a product (``pagetype.SCHEMA_GROUPS`` less the offers),
#: lower-cased: ``pagekind.PRODUCT_TYPE_NAMES`` and ``IndividualProduct``.
PRODUCT_TYPES = frozenset((*(name.lower() for name in PRODUCT_TYPE_NAMES), "individualproduct"))
#: A line is matched against the declared text from this many text units on
#: (about five words): shorter ones ("Free shipping") could be anywhere.
DECLARED_LINE_MIN_UNITS = 10.0
_SPACES_RE = re.compile(r"\s+")
#: Markup inside a declared text (FAQ answers are HTML).
_TAG_RE = re.compile(r"<[^>]*+>")
#: The elements with an ``itemprop``, in document order (libxml2's XPath: ElementPath's
#: ``iterfind`` took the square of the depth on deep pages).
ITEMPROP_XPATH = etree.XPath(".//*[@itemprop]")
#: What a JSON-LD script read for declared text holds (a product or a question).
_JSON_LD_NEEDLES = ("roduct", "Question")


def comparable(text: str) -> str:
    """``text`` lower-cased with its whitespace collapsed (how lines and the declared
    text are compared)."""
    return _SPACES_RE.sub(" ", text).strip().lower()


def declared_text(root: etree._Element, markup: str | None = None) -> str:
    """The descriptions of the page's product objects, JSON-LD and microdata, and the
    questions and answers of its JSON-LD FAQ (:func:`comparable`), or "" when it
    declares none. ``markup``, the page's source, spares the look at its scripts and
    items when it declares no product and no question (``pagekind.all_declared_types``)."""
    json_ld = microdata = True
    if markup is not None:
        declared = all_declared_types(markup)
        json_ld = any(_declares_text(name) for name in declared.json_ld)
        microdata = any(name.lower() in PRODUCT_TYPES for name in declared.microdata)
        if not json_ld and not microdata:
            return ""
    parts: list[str] = []
    if json_ld:
        for obj in json_objects(json_ld_items(root, _JSON_LD_NEEDLES)):
            types = types_of(obj)
            if PRODUCT_TYPES.intersection(types):
                parts.extend(_strings(obj.get("description")))
            elif "question" in types:
                parts.extend(_strings(obj.get("name")))
                for answer in _objects(obj.get("acceptedAnswer")):
                    parts.extend(_strings(answer.get("text")))
    if microdata:
        parts.extend(_microdata_descriptions(root))
    return comparable(html.unescape(replace_tags(" ".join(parts), " ")))


def replace_tags(text: str, replacement: str) -> str:
    """``text`` with each tag (``<`` to the next ``>``, :data:`_TAG_RE`) replaced, in one
    pass. A ``<`` with no ``>`` after it is no tag: only the text up to the last ``>`` is
    searched (from each of a run of ``<`` with none, the pattern would scan to the end)."""
    last = text.rfind(">")
    if last < 0:
        return text
    return _TAG_RE.sub(replacement, text[: last + 1]) + text[last + 1 :]


def _declares_text(name: str) -> bool:
    """Whether a JSON-LD object of this type is read for declared text."""
    return name.lower() in PRODUCT_TYPES or name == "Question"


def _strings(value: object) -> list[str]:
    return [value] if isinstance(value, str) else []


def _objects(value: object) -> list[dict[str, object]]:
    items = value if isinstance(value, list) else [value]
    return [item for item in items if isinstance(item, dict)]


def _microdata_descriptions(root: etree._Element) -> list[str]:
    """The text of the microdata ``itemprop="description"`` elements of product items.

    A description inside one already taken is not taken again (its text is part of that
    one's): nested descriptions cost the page's size, not its size times their depth.
    The item an element belongs to is found once per element climbed through."""
    found = []
    above: dict[etree._Element, tuple[str | None, bool]] = {}
    for element in ITEMPROP_XPATH(root):
        if "description" not in (element.get("itemprop") or "").lower().split():
            continue
        # (the item it belongs to: the nearest ancestor with an itemtype)
        itemtype, inside_taken = _item_above(element, above)
        if inside_taken:
            continue
        if itemtype is not None and itemtype.strip().rsplit("/", 1)[-1].lower() in PRODUCT_TYPES:
            found.append(" ".join(element.itertext()))
            own = element.get("itemtype")
            above[element] = (own if own is not None else itemtype, True)
    return found


def _item_above(
    element: etree._Element, above: dict[etree._Element, tuple[str | None, bool]]
) -> tuple[str | None, bool]:
    """The ``itemtype`` of ``element``'s nearest ancestor that has one (None for none),
    and whether an ancestor is a description taken already. ``above`` holds both for
    every element climbed through (its own ``itemtype`` counting), and is filled in here."""
    climbed: list[etree._Element] = []
    itemtype: str | None = None
    inside_taken = False
    node = element.getparent()
    while node is not None:
        known = above.get(node)
        if known is not None:
            itemtype, inside_taken = known
            break
        climbed.append(node)
        node = node.getparent()
    for passed in reversed(climbed):  # (from the top down)
        own = passed.get("itemtype")
        if own is not None:
            itemtype = own
        above[passed] = (itemtype, inside_taken)
    return itemtype, inside_taken


def keep_declared_lines(
    lines: Sequence[Line], kept: list[bool], blocked: Sequence[bool], declared: str
) -> None:
    """Keep the lines (not ``blocked``, of at least :data:`DECLARED_LINE_MIN_UNITS`)
    whose text is part of the page's ``declared`` text (:func:`declared_text`)."""
    if not declared:
        return
    for i, line in enumerate(lines):
        if kept[i] or blocked[i] or line.units < DECLARED_LINE_MIN_UNITS:
            continue
        if comparable(line.text) in declared:
            kept[i] = True
