"""The page's authors (:func:`page_authors`), from the first source that names one.

Sources, most telling first: the JSON-LD main item's ``author`` (else ``creator``; else
the first object's that is no review, comment or answer), the ``<meta>`` tags
(:data:`META_AUTHOR_KEYS`: ``author``, ``article:author``, ``citation_author``...; a
Twitter card's "Written by"); then the byline lines the extractor set apart ("By Jane
Doe | May 6, 2025"), the page's byline elements (``bylines.markup_authors``) and its text
lines with a byline's label (``bylines.line_authors``). Names are read as
``authors.author_names`` reads them.

A name the page declares (JSON-LD, ``<meta>``) stands though it is the site's: a company's
post by the company. But when every declared name is an organisation's (the site's, the
publisher's, a JSON-LD ``Organization``'s) and the byline names someone, the byline's
person is the author ("USA TODAY" declared, "By Brian Truitt" shown). A name read off the
markup is never the site's: a logo's, a header's. (On WCXB dev folds 0-3, refusing the
site's name where the page declares it cost 5.3 points of exact-name author F1, 0.845 to
0.792; taking the declared organisation over the byline's person cost 0.6.)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from scrapy_webclean.extraction.authors import (
    MAX_NAMES,
    ZH_AUTHOR_LABEL_RE,
    author_names,
    name_key,
    one_name,
)
from scrapy_webclean.extraction.bylines import line_authors, markup_authors
from scrapy_webclean.extraction.jsonld import types_of
from scrapy_webclean.extraction.metatags import OTHERS_TYPES, HeadTags, JsonLd, values_of
from scrapy_webclean.html.pagemodel import TextRun

#: ``<meta>`` names and properties of the page's author, the most telling first.
META_AUTHOR_KEYS = (
    "author",
    "article:author",
    "article:author_name",
    "dc.creator",
    "dcterms.creator",
    "citation_author",
    "parsely-author",
    "sailthru.author",
    "byl",
    "og:article:author",
    "book:author",
)
#: ``<meta>`` names whose tags name one author each, surname first maybe ("Roy, A.").
ONE_AUTHOR_KEYS = frozenset(("citation_author",))
#: A Twitter card's labels of the author's name (Yoast: "Written by").
AUTHOR_LABELS = frozenset(("written by", "author", "by", "authored by"))
#: Schema.org types of an organisation whose name has no "organization" in it.
ORGANISATION_TYPES = frozenset(("corporation", "localbusiness", "ngo", "project", "website"))


def page_authors(
    markup: str,
    runs: Sequence[TextRun],
    tags: HeadTags,
    data: JsonLd,
    meta_lines: Sequence[str],
    site_keys: set[str],
) -> list[str]:
    """The page's authors (see the module docstring): ``markup`` is its decoded HTML,
    ``runs`` its text runs, ``tags`` and ``data`` its ``<meta>`` tags and JSON-LD,
    ``meta_lines`` its byline and date lines, ``site_keys`` the ``name_key`` of its site's
    name."""
    declared = _json_ld_authors(data) or _meta_authors(tags)
    if declared and not _all_organisations(declared, data, site_keys):
        return declared
    # (the site or an organisation declared as the author gives way to the person its
    # byline names, when it names one: "USA TODAY" for the reporter of its byline; else
    # it stands, a company's post by the company; a name read off the markup is never
    # the site's, though: a logo's, a header's)
    return (
        _byline_authors(meta_lines, site_keys)
        or markup_authors(markup, site_keys)
        or line_authors(runs, site_keys)
        or declared
    )


def _all_organisations(names: list[str], data: JsonLd, site_keys: set[str]) -> bool:
    """True when every name is the site's (``site_keys``), its publisher's or that of an
    organisation of the page's JSON-LD."""
    keys = set(site_keys)
    if data.main is not None:
        publisher = data.name_of(data.main.get("publisher"))
        if publisher:
            keys.add(name_key(publisher))
    for obj in data.objects:
        if any("organization" in kind or kind in ORGANISATION_TYPES for kind in types_of(obj)):
            name = data.name_of(obj)
            if name:
                keys.add(name_key(name))
    return all(name_key(name) in keys for name in names)


def _json_ld_authors(data: JsonLd) -> list[str]:
    """The names of the main item's ``author`` (else ``creator``), else of the first
    object's that is no review, comment or answer."""
    owners = [data.main] if data.main is not None else []
    owners += [obj for obj in data.objects if "author" in obj]
    for owner in owners:
        value = owner.get("author") or owner.get("creator")
        if value is None or (owner is not data.main and _is_others(owner)):
            continue
        names = _collect(data.name_of(item) or "" for item in values_of(value)[:MAX_NAMES])
        if names:
            return names
    return []


def _is_others(obj: dict[str, object]) -> bool:
    """True for a review, a comment or an answer (someone else's words)."""
    return not OTHERS_TYPES.isdisjoint(types_of(obj))


def _meta_authors(tags: HeadTags) -> list[str]:
    """The names of the first author ``<meta>`` tag that holds one, else of a Twitter
    card's "Written by"."""
    for key in META_AUTHOR_KEYS:
        values = tags.meta.get(key, ())
        if key in ONE_AUTHOR_KEYS:
            values = [one_name(value) for value in values]
        names = _collect(values)
        if names:
            return names
    labelled = tags.labelled(AUTHOR_LABELS)
    return author_names(labelled, byline=False) if labelled else []


#: A byline line opens with its label: "By ...", "Written by ...", "Author: ...".
_BYLINE_RE = re.compile(
    r"^\W*+(?:(?:written|posted|published|authored|words|story)\s++)?by\b|^\W*+authors?\s*+:",
    re.I,
)


def _byline_authors(lines: Sequence[str], site_keys: set[str]) -> list[str]:
    """The names of the first byline line ("By Jane Doe • May 6, 2025", "来源：晚报
    作者：张三": a Chinese byline's label may come after its date and source) that holds
    one."""
    for line in lines:
        if _BYLINE_RE.match(line) or ZH_AUTHOR_LABEL_RE.search(line):
            names = author_names(line, site_keys)
            if names:
                return names
    return []


def _collect(texts: Iterable[str]) -> list[str]:
    """The names of ``texts`` (an iterable of strings), in order, without repeats, at most
    :data:`MAX_NAMES`."""
    names: list[str] = []
    keys: set[str] = set()
    for text in texts:
        for name in author_names(text, byline=False):
            key = name_key(name)
            if key not in keys:
                keys.add(key)
                names.append(name)
        if len(names) >= MAX_NAMES:
            break
    return names[:MAX_NAMES]
