"""The categories and tags a page files itself under (:func:`page_taxonomy`).

Sources, most telling first, the first that names any giving the field. Categories: the
JSON-LD main item's ``articleSection``, ``<meta property="article:section">``, the links
marked ``rel="category tag"`` (WordPress's), a line "Categories: a, b" ("Filed under",
"Posted in"). Tags: ``<meta property="article:tag">``, the main item's ``keywords``, the
links marked ``rel="tag"``, a line "Tags: a, b" ("Tagged", "Topics"), ``<meta
name="keywords">`` (``news_keywords``). A term is kept once (case aside), at most
:data:`MAX_TERM_CHARS` long, at most :data:`MAX_TERMS` of them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from scrapy_webclean.extraction.bylines import line_at
from scrapy_webclean.extraction.metatags import HeadTags, JsonLd, values_of
from scrapy_webclean.html.pagemodel import LinkRef, PageModel, collapse_ws

#: At most this many categories, and this many tags, are kept per page.
MAX_TERMS = 20
#: A term longer than this (characters) is no term: a sentence.
MAX_TERM_CHARS = 100
#: A taxonomy line is read up to this many characters.
MAX_LINE_CHARS = 600
#: At most this many text runs of a page are looked at, and at most this many lines that
#: open with a taxonomy label.
MAX_RUNS = 5000
MAX_LABELS = 10

#: A line's taxonomy label: which list it opens (the group: categories, tags).
_LABEL_RE = re.compile(
    r"(?:^|(?<=[\s.|•·]))(?:(categor(?:y|ies)|filed\s++under|posted\s++in|sections?)|"
    r"(tags?|tagged(?:\s++(?:with|in|as))?|topics?|keywords))\s*+(?::\s*+|(?<=under)\s++|"
    r"(?<=in)\s++(?=[A-Z]))",
    re.I,
)
#: Where a list of terms splits.
_TERM_SPLIT_RE = re.compile(r"[,;|•·]|\s/\s")


def page_taxonomy(
    model: PageModel,
    tags: HeadTags,
    data: JsonLd,
    meta_lines: Sequence[str],
    marked: Sequence[tuple[LinkRef, str]],
) -> tuple[list[str], list[str]]:
    """The page's categories and tags (see the module docstring): ``model`` is its page
    model (its text runs), ``tags`` and ``data`` its ``<meta>`` tags and JSON-LD,
    ``meta_lines`` its byline and date lines, ``marked`` its links with a ``rel``
    (``metatags.marked_links``)."""
    main = data.main or {}
    categories = _terms(_strings(main.get("articleSection")), split=False)
    categories = categories or _terms(tags.meta.get("article:section", ()), split=False)
    found_tags = _terms(tags.meta.get("article:tag", ()), split=True)
    found_tags = found_tags or _terms(_strings(main.get("keywords")), split=True)
    if categories and found_tags:
        return categories, found_tags
    links = _tag_links(marked)
    categories = categories or links[0]
    found_tags = found_tags or links[1]
    if not (categories and found_tags):
        lines = _label_lines(model, meta_lines)
        categories = categories or lines[0]
        found_tags = found_tags or lines[1]
    if not found_tags:
        keywords = tags.meta.get("keywords") or tags.meta.get("news_keywords") or []
        found_tags = _terms(keywords, split=True)
    return categories, found_tags


def _strings(value: object) -> list[str]:
    return [item for item in values_of(value) if isinstance(item, str)]


def _terms(values: Iterable[str], split: bool) -> list[str]:
    """The terms of ``values`` (each split at commas and the like when ``split``), edges
    stripped, without repeats (case aside), at most :data:`MAX_TERMS`."""
    terms: list[str] = []
    seen: set[str] = set()
    for value in values:
        for part in _TERM_SPLIT_RE.split(value[:MAX_LINE_CHARS]) if split else [value]:
            term = collapse_ws(part).strip(" #.:;,-")
            key = term.casefold()
            if not term or len(term) > MAX_TERM_CHARS or key in seen:
                continue
            seen.add(key)
            terms.append(term)
            if len(terms) >= MAX_TERMS:
                return terms
    return terms


def _tag_links(marked: Sequence[tuple[LinkRef, str]]) -> tuple[list[str], list[str]]:
    """The texts of the links marked ``rel="category tag"`` (categories) and ``rel="tag"``
    (tags) among ``marked`` (links and their ``rel``)."""
    categories: list[str] = []
    tags: list[str] = []
    for link, rel in marked:
        if "tag" in rel:
            words = rel.split()
            if "tag" in words:
                (categories if "category" in words else tags).append(link.text)
    return _terms(categories, split=False), _terms(tags, split=False)


#: A run that may open a taxonomy line opens with one of these (a cheap look first; a
#: run's text has at most one space before it).
_LABEL_PREFIXES = tuple(
    space + word
    for word in ("Tag", "TAG", "tag", "Cat", "CAT", "Fil", "FIL", "Pos", "Top", "TOP", "Key")
    for space in ("", " ")
)


def _label_lines(model: PageModel, meta_lines: Sequence[str]) -> tuple[list[str], list[str]]:
    """The terms of the page's lines that open with a taxonomy label ("Tags: a, b"):
    among ``meta_lines``, then among the page's text lines (of its first
    :data:`MAX_RUNS` text runs; at most :data:`MAX_LABELS` labelled lines)."""
    found: tuple[list[str], list[str]] = ([], [])
    texts = list(meta_lines)
    runs = model.runs
    count = min(len(runs), MAX_RUNS)
    prefixes = _LABEL_PREFIXES
    for index in range(count):
        text = runs[index].text
        if text.startswith(prefixes) and _LABEL_RE.match(text.lstrip()):
            texts.append(line_at(runs, index, count, MAX_LINE_CHARS)[0])
            if len(texts) >= len(meta_lines) + MAX_LABELS:
                break
    for text in texts:
        for match in _LABEL_RE.finditer(text[:MAX_LINE_CHARS]):
            group = 0 if match.group(1) else 1
            if found[group]:
                continue
            rest = text[match.end() : MAX_LINE_CHARS]
            following = _LABEL_RE.search(rest)
            if following is not None:
                rest = rest[: following.start()]
            found[group].extend(_terms([rest], split=True))
        if found[0] and found[1]:
            break
    return found
