"""The publication date a page shows, as ``YYYY-MM-DD``.

Sources, most reliable first (:func:`page_date`): the page's own metadata
(``article:published_time``, ``datePublished``, ``pubdate`` and similar ``<meta>`` tags,
other names with a word like ``published`` in them, microdata, JSON-LD's
``datePublished``, a ``<time>``'s ``datetime`` or text, the article's own before any
other), then the date/byline lines the segmentation marked as customised (C) blocks
(docs/algorithms.md section 4: the customised tags are the hook for exactly this; not a
line labelled as another date, a forum member's "Registered: ..."), then a
date in the page's address (:func:`url_date`: ``/2025/12/15/slug``), which also wins over a
``<meta>`` timestamp in UTC one day off it. The metadata's modified date
(``article:modified_time``, ``dateModified``) is never taken for the publication date (on
WCXB dev it named the wrong day more often than the right one); a date line that says
"Updated: ..." is read (skipping such lines cost WCXB dev 13 right dates of 708 in a
scratch scoring with ``benchmarks/fields.py``'s functions).
Dates are read in the forms pages use: ``2026-03-14``, ``2026/3/14``, ``2026年3月14日``,
``March 14, 2026``, ``14 March 2026`` (``text.datepatterns``, the forms the C mark looks
for).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import date

from lxml import etree

from scrapy_webclean.extraction.declared import ITEMPROP_XPATH
from scrapy_webclean.extraction.jsonld import json_ld_items, json_objects
from scrapy_webclean.html.pagemodel import within
from scrapy_webclean.text.datepatterns import (
    DAY_FIRST_DATE,
    MONTH_FIRST_DATE,
    NUMERIC_DATE,
    month_number,
)
from scrapy_webclean.text.wordlists import read_word_list

# (The date forms are the page model's too: its C mark sets date lines apart.)
_NUMERIC_RE = re.compile(NUMERIC_DATE)
_MONTH_FIRST_RE = re.compile(MONTH_FIRST_DATE)
_DAY_FIRST_RE = re.compile(DAY_FIRST_DATE)

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
        # (more spellings sites use: Open Graph variants, Dublin Core terms, Highwire
        # citation tags of journals, vendors' own)
        "article:published",
        "og:article:published_time",
        "article.published",
        "article_date_original",
        "original-publish-date",
        "originalpublicationdate",
        "published_time",
        "published-date",
        "published_date",
        "publication-date",
        "date_published",
        "pub_date",
        "dcterms.date",
        "dcterms.created",
        "dcterms.issued",
        "dc.date.created",
        "dc.created",
        "citation_publication_date",
        "citation_date",
        "citation_online_date",
        "prism.publicationdate",
        "shareaholic:article_published_time",
        "cxenseparse:recs:publishtime",
        "displaydate",
    ]
)

#: Words of a ``<meta>`` name (split at anything but letters and digits) that name a
#: publication date in the spellings :data:`META_DATE_KEYS` does not list
#: (``w-published-date``, ``og:publish_date``, ``date-pub``, ``cxenseparse:publishtime``)...
_PUBLISHED_WORD_RE = re.compile(r"^(?:pub|pubdate|publish\w*)$")
#: ...unless another of its words says it is no publication date.
_NOT_PUBLISHED_WORD_RE = re.compile(r"^(?:publisher\w*|\w*modif\w*|\w*updat\w*|last\w*|expir\w*)$")
_KEY_WORD_RE = re.compile(r"[a-z0-9]+")


def names_publication_date(key: str) -> bool:
    """True when a ``<meta>`` name or property (lower case) that :data:`META_DATE_KEYS`
    does not list names a publication date all the same: it has a word such as
    ``published`` or ``pubdate`` and none such as ``publisher``, ``modified``,
    ``updated``, ``last`` or ``expires``."""
    if "pub" not in key:
        return False
    words = _KEY_WORD_RE.findall(key)
    return any(_PUBLISHED_WORD_RE.match(w) for w in words) and not any(
        _NOT_PUBLISHED_WORD_RE.match(w) for w in words
    )


#: JSON-LD keys that carry a publication date, the most telling first.
JSON_LD_DATE_KEYS = ("datePublished", "dateCreated", "uploadDate")


def parse_date(text: str) -> str | None:
    """The first date in ``text`` as ``YYYY-MM-DD``, or None (impossible dates skipped)."""
    for match in _NUMERIC_RE.finditer(text):
        found = _valid(int(match.group(1)), int(match.group(2)), int(match.group(3)))
        if found:
            return found
    for match in _MONTH_FIRST_RE.finditer(text):
        found = _valid(int(match.group(3)), month_number(match.group(1)), int(match.group(2)))
        if found:
            return found
    for match in _DAY_FIRST_RE.finditer(text):
        found = _valid(int(match.group(3)), month_number(match.group(2)), int(match.group(1)))
        if found:
            return found
    return None


def _valid(year: int, month: int, day: int) -> str | None:
    try:
        return date(year, month, day).isoformat()
    except ValueError:
        return None


def metadata_date(root: etree._Element, source: str | None = None) -> str | None:
    """A publication date from ``<meta>`` tags (see :func:`meta_tag_date`), a microdata
    ``datePublished``, JSON-LD (see :func:`json_ld_date`) or a ``<time datetime>`` (see
    :func:`time_date`).

    ``source``, the page's decoded HTML, spares the search for ``itemprop`` elements (a
    look at every element of the tree) on the pages whose source has no ``itemprop``
    shortly before a mention of the property (see :func:`_names_itemprop_date`): a few
    substring searches of the source cost far less."""
    tag = meta_tag_date(root)
    return tag[0] if tag is not None else _markup_date(root, source)


def meta_tag_date(root: etree._Element) -> tuple[str, str] | None:
    """The publication date of the page's ``<meta>`` tags and the tag's ``content``: the
    first tag named one of :data:`META_DATE_KEYS` wherever it is, else the first of
    another spelling (:func:`names_publication_date`); None when no such tag holds a
    date."""
    other_spelling = None
    for meta in root.iterfind(".//meta"):
        key = (meta.get("property") or meta.get("name") or meta.get("itemprop") or "").lower()
        listed = key in META_DATE_KEYS
        if listed or (other_spelling is None and names_publication_date(key)):
            content = meta.get("content") or ""
            found = parse_date(content)
            if found and listed:
                return found, content
            if found:
                other_spelling = found, content
    return other_spelling


def _markup_date(root: etree._Element, source: str | None) -> str | None:
    """The publication date of the page's microdata, JSON-LD or ``<time>`` elements."""
    if source is None or _names_itemprop_date(source):
        found = _itemprop_date(root)
        if found:
            return found
    if source is None or "ld+json" in source:
        found = json_ld_date(root)
        if found:
            return found
    return time_date(root)


#: A timestamp in UTC (``2025-12-19T03:05:00+00:00``, ``...Z``): its day is Greenwich's,
#: which may be a day off the one the site's own clock showed.
_UTC_STAMP_RE = re.compile(r"T\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]00:?00)\s*$")


def page_date(
    root: etree._Element, source: str | None, date_lines: Iterable[str], url: str | None
) -> str | None:
    """The page's publication date: its metadata's (:func:`metadata_date`), else the
    first date of ``date_lines`` (its date and byline lines, in page order), else the
    date its address names (:func:`url_date`). A ``<meta>`` tag's timestamp in UTC one day
    off the address's date gives way to it: the address has the site's own calendar day
    (a post of 7 pm in California is dated the next day in Greenwich)."""
    in_url = url_date(url)
    tag = meta_tag_date(root)
    if tag is not None:
        day, content = tag
        if in_url and _UTC_STAMP_RE.search(content) and _days_apart(day, in_url) == 1:
            return in_url
        return day
    return _markup_date(root, source) or first_date(date_lines) or in_url


def _days_apart(first: str, second: str) -> int:
    """How many days lie between two ``YYYY-MM-DD`` dates."""
    return abs((date.fromisoformat(first) - date.fromisoformat(second)).days)


def json_ld_date(root: etree._Element) -> str | None:
    """The publication date of the page's JSON-LD (``<script type="application/ld+json">``):
    the first ``datePublished`` in reading order (objects before the ones nested in them,
    so an article's own date before its comments'), else ``dateCreated``, else a video's
    ``uploadDate``. A script that is not valid JSON is skipped."""
    items = json_ld_items(root, ("date",))
    if not items:
        return None
    objects = list(json_objects(items))
    for key in JSON_LD_DATE_KEYS:
        for obj in objects:
            value = obj.get(key)
            if isinstance(value, str):
                found = parse_date(value)
                if found:
                    return found
    return None


#: A ``<time>`` inside one of these is the article's own (its header's or byline's).
_ARTICLE_TAGS = ("article", "header", "main")


def _is_article(element: etree._Element) -> bool:
    return element.tag in _ARTICLE_TAGS


def time_date(root: etree._Element) -> str | None:
    """The date of a ``<time>`` (its ``datetime``, else its text: ``<time>Dec 19,
    2025</time>``): one marked ``pubdate`` (HTML5 drafts), else the first inside an
    ``<article>``, ``<header>`` or ``<main>``, else the first on the page (a sidebar's list
    of other posts may come before the article)."""
    first = own = None
    in_article: dict[etree._Element, bool] = {}  # (see pagemodel.within)
    for element in root.iter("time"):
        found = parse_date(element.get("datetime") or element.text or "")
        if not found:
            continue
        if element.get("pubdate") is not None:
            return found
        if first is None:
            first = found
        if own is None and within(element, _is_article, in_article):
            own = found
    return own or first


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
    does not count: the meta tags and JSON-LD are read otherwise), or too many mentions
    to look at (then the tree is searched)."""
    return _names_itemprop(source, _DATE_PUBLISHED_SPELLINGS)


def _itemprop_date(root: etree._Element) -> str | None:
    for element in ITEMPROP_XPATH(root):
        if "datepublished" in (element.get("itemprop") or "").lower().split():
            found = parse_date(element.get("content") or element.get("datetime") or "")
            if found:
                return found
    return None


#: A date in an address's path: ``/2025/12/15/``, ``/2025-12-15-slug``, ``/20251215/``
#: (year, month and day; a year and a month alone do not name a day).
_URL_DATE_RE = re.compile(
    r"/((?:19|20)\d\d)([-/_]?)(0[1-9]|1[0-2])\2(0[1-9]|[12]\d|3[01])(?:[/_.+%-]|$)"
)


def url_date(url: str | None) -> str | None:
    """The date a page's address names in its path (``/2025/12/15/slug``), or None."""
    if not url:
        return None
    path = url.split("?", 1)[0].split("#", 1)[0]
    match = _URL_DATE_RE.search(path)
    if match is None:
        return None
    return _valid(int(match.group(1)), int(match.group(3)), int(match.group(4)))


#: Labels of a date that is not the page's (a member's join date, a founding date).
OTHER_DATE_LABELS: tuple[str, ...] = read_word_list("extraction/data/other_date_labels.txt")
_OTHER_DATE_RE = re.compile(
    r"^\W*(?:" + "|".join(re.escape(label) for label in OTHER_DATE_LABELS) + r")\b", re.I
)


def first_date(lines: Iterable[str]) -> str | None:
    """The first date found in ``lines`` (date/byline lines, in page order), but in a
    line labelled as another date (:data:`OTHER_DATE_LABELS`: "Registered: 2024-01-27")."""
    for line in lines:
        if _OTHER_DATE_RE.match(line):
            continue
        found = parse_date(line)
        if found:
            return found
    return None


def date_start(text: str) -> int:
    """Where the first date in ``text`` (in any form :func:`parse_date` reads, impossible
    dates too) starts, or -1: a byline's name ends before it ("By Jane Doe Jan. 31,
    2026")."""
    starts = [
        match.start()
        for pattern in (_NUMERIC_RE, _MONTH_FIRST_RE, _DAY_FIRST_RE)
        if (match := pattern.search(text)) is not None
    ]
    return min(starts) if starts else -1


#: ``<meta>`` names and properties that carry the date a page was last changed, the most
#: telling first.
META_MODIFIED_KEYS = (
    "article:modified_time",
    "article:modified",
    "og:updated_time",
    "og:modified_time",
    "datemodified",
    "modified_time",
    "last-modified",
    "lastmod",
    "dcterms.modified",
    "dc.date.modified",
    "dc.modified",
    "revised",
)


def modified_date(
    root: etree._Element,
    source: str | None = None,
    meta_contents: Mapping[str, Sequence[str]] | None = None,
    objects: Iterable[dict[str, object]] | None = None,
) -> str | None:
    """The date the page was last changed, as ``YYYY-MM-DD``: a ``<meta>`` tag named one
    of :data:`META_MODIFIED_KEYS` (``article:modified_time``), else JSON-LD's first
    ``dateModified`` in reading order, else a microdata ``itemprop="dateModified"``; None
    when the page names none.

    ``meta_contents`` are the page's ``<meta>`` contents by lower-cased name and
    ``objects`` its JSON-LD objects (``jsonld.json_objects``), when the caller has read
    them already (else they are read here); ``source``, the decoded HTML, spares the
    JSON-LD and microdata look-ups on a page that never names the property."""
    if meta_contents is None:
        read: dict[str, list[str]] = {}
        for meta in root.iterfind(".//meta"):
            key = (meta.get("property") or meta.get("name") or meta.get("itemprop") or "").lower()
            if key in META_MODIFIED_KEYS:
                read.setdefault(key, []).append(meta.get("content") or "")
        meta_contents = read
    for key in META_MODIFIED_KEYS:
        for content in meta_contents.get(key, ()):
            found = parse_date(content)
            if found:
                return found
    if source is not None and "odified" not in source:
        return None
    if objects is None:
        objects = json_objects(json_ld_items(root, ("dateModified",)))
    for obj in objects:
        value = obj.get("dateModified")
        if isinstance(value, str):
            found = parse_date(value)
            if found:
                return found
    if source is None or _names_itemprop(source, _DATE_MODIFIED_SPELLINGS):
        for element in ITEMPROP_XPATH(root):
            if "datemodified" in (element.get("itemprop") or "").lower().split():
                found = parse_date(element.get("content") or element.get("datetime") or "")
                if found:
                    return found
    return None


#: The spellings of ``dateModified`` looked for, without the first letter (as
#: :data:`_DATE_PUBLISHED_SPELLINGS`; no upper-case one: each spelling is a search of the
#: whole source where it is absent, and none of WCXB dev's 1,358 pages writes it so).
_DATE_MODIFIED_SPELLINGS = ("ateModified", "atemodified")


def _names_itemprop(source: str, spellings: tuple[str, ...]) -> bool:
    """True when the source may hold an ``itemprop`` naming one of ``spellings``: a
    mention with ``itemprop`` shortly before it, or more mentions than are looked at."""
    for spelling in spellings:
        position = source.find(spelling)
        for _ in range(_MAX_MENTIONS):
            if position < 0:
                break
            window = source[max(0, position - _ITEMPROP_REACH) : position]
            if "itemprop" in window.lower():
                return True
            position = source.find(spelling, position + len(spelling))
        else:
            return True
    return False
