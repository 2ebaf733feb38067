"""The publication date a page shows, as ``YYYY-MM-DD``.

Sources, most reliable first: the page's own metadata (``article:published_time``,
``datePublished``, ``pubdate`` and similar ``<meta>`` tags, a ``<time datetime>``), then the
date/byline lines the segmentation marked as customised (C) blocks (ALGORITHMS.md
section 4: the customised tags are the hook for exactly this), then any short line near the
top of the main text. Dates are read in the forms pages use: ``2026-03-14``,
``2026/3/14``, ``2026年3月14日``, ``March 14, 2026``, ``14 March 2026``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date

from lxml import etree

_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"),
            ("may",), ("jun", "june"), ("jul", "july"), ("aug", "august"),
            ("sep", "sept", "september"), ("oct", "october"), ("nov", "november"),
            ("dec", "december"),
        ),
        1,
    )
    for name in names
}  # fmt: skip

_NUMERIC_RE = re.compile(r"((?:19|20)\d\d)\s*[-/.年]\s*([01]?\d)\s*[-/.月]\s*([0-3]?\d)")
_MONTH_FIRST_RE = re.compile(
    r"\b([A-Za-z]{3,9})\.?\s+([0-3]?\d)(?:st|nd|rd|th)?,?\s+((?:19|20)\d\d)\b"
)
_DAY_FIRST_RE = re.compile(
    r"\b([0-3]?\d)(?:st|nd|rd|th)?\s+([A-Za-z]{3,9})\.?,?\s+((?:19|20)\d\d)\b"
)

#: ``<meta>`` names and properties that carry a publication date.
META_DATE_KEYS = frozenset(
    [
        "article:published_time",
        "og:published_time",
        "datepublished",
        "pubdate",
        "publishdate",
        "publish-date",
        "publish_date",
        "date",
        "dc.date",
        "dc.date.issued",
        "sailthru.date",
        "parsely-pub-date",
        "publication_date",
        "release_date",
    ]
)


def parse_date(text: str) -> str | None:
    """The first date in ``text`` as ``YYYY-MM-DD``, or None (impossible dates skipped)."""
    for match in _NUMERIC_RE.finditer(text):
        found = _valid(int(match.group(1)), int(match.group(2)), int(match.group(3)))
        if found:
            return found
    for match in _MONTH_FIRST_RE.finditer(text):
        month = _MONTHS.get(match.group(1).lower())
        if month:
            found = _valid(int(match.group(3)), month, int(match.group(2)))
            if found:
                return found
    for match in _DAY_FIRST_RE.finditer(text):
        month = _MONTHS.get(match.group(2).lower())
        if month:
            found = _valid(int(match.group(3)), month, int(match.group(1)))
            if found:
                return found
    return None


def _valid(year: int, month: int, day: int) -> str | None:
    try:
        return date(year, month, day).isoformat()
    except ValueError:
        return None


def metadata_date(root: etree._Element, source: str | None = None) -> str | None:
    """A publication date from ``<meta>`` tags, a microdata ``datePublished`` or the first
    ``<time datetime>``.

    ``source``, the page's decoded HTML, spares the search for ``itemprop`` elements (a
    look at every element of the tree) on the pages whose source has no ``itemprop``
    shortly before a mention of the property (see :func:`_names_itemprop_date`): a few
    substring searches of the source cost far less."""
    for meta in root.iterfind(".//meta"):
        key = (meta.get("property") or meta.get("name") or meta.get("itemprop") or "").lower()
        if key in META_DATE_KEYS:
            found = parse_date(meta.get("content") or "")
            if found:
                return found
    if source is None or _names_itemprop_date(source):
        found = _itemprop_date(root)
        if found:
            return found
    for element in root.iterfind(".//time[@datetime]"):
        found = parse_date(element.get("datetime") or "")
        if found:
            return found
    return None


#: The spellings of the property's name looked for (schema.org's, lower case, capitals),
#: without the first letter.
_DATE_PUBLISHED_SPELLINGS = ("atePublished", "atepublished", "ATEPUBLISHED")
#: How far before the property's name its ``itemprop`` may start (``itemprop =
#: "dateCreated datePublished"``).
_ITEMPROP_REACH = 48
#: At most this many mentions of the name are looked at (JSON-LD repeats it per item).
_MAX_MENTIONS = 50


def _names_itemprop_date(source: str) -> bool:
    """True when the source may hold an ``itemprop`` naming ``datePublished``: a mention
    of the name with ``itemprop`` shortly before it (JSON-LD's ``"datePublished":`` alone
    does not count: the meta tags and JSON-LD are read otherwise)."""
    for spelling in _DATE_PUBLISHED_SPELLINGS:
        position = source.find(spelling)
        for _ in range(_MAX_MENTIONS):
            if position < 0:
                break
            window = source[max(0, position - _ITEMPROP_REACH) : position]
            if "itemprop" in window.lower():
                return True
            position = source.find(spelling, position + len(spelling))
        else:
            return True  # (too many mentions to look at: search the tree)
    return False


def _itemprop_date(root: etree._Element) -> str | None:
    for element in root.iterfind(".//*[@itemprop]"):
        if "datepublished" in (element.get("itemprop") or "").lower().split():
            found = parse_date(element.get("content") or element.get("datetime") or "")
            if found:
                return found
    return None


def first_date(lines: Iterable[str]) -> str | None:
    """The first date found in ``lines`` (date/byline lines, in page order)."""
    for line in lines:
        found = parse_date(line)
        if found:
            return found
    return None
