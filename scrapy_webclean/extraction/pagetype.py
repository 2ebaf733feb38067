"""What kind of page this is: WCXB's seven page types, from features that mean the same
on any site.

A page is an article, documentation, a service page (a company's about, pricing or
support page), a forum thread, a listing (a hub of teasers), a product page or a
collection (a gallery, a list of resources). The extractor reads each kind differently:
a forum's posts are its content, a listing's item titles are, a product page's repeated
buy boxes are not. The hand rules guess three kinds from the page's layout
(``extract``); this model guesses all seven from a page's features, and the line model
(``linemodel``) reads its probabilities beside each line's features (rs-trafilatura's
gain on forums, listings and products comes from such a classifier).

The features (:data:`PAGE_FEATURE_NAMES`) are the page's address (depth, numbers, words
of the path from ``data/page_type_url_words.txt``), the schema.org and Open Graph types
its markup declares, and its layout: how much of its text is prose, list items, table
cells, code, links; its headings, forms, prices, dates, images and repeated line shapes.
Nothing names a site. The model is boosted trees (``trees``) trained by
``benchmarks/train_extraction.py`` on the dev sets, fold by fold, and shipped inside the
line model's file.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

from scrapy_webclean.extraction.lines import Line
from scrapy_webclean.extraction.pagekind import FORUM_URL_RE, declared_types
from scrapy_webclean.extraction.trees import TreeEnsemble, numpy_module
from scrapy_webclean.html.pagemodel import PageModel
from scrapy_webclean.text.wordlists import read_word_list
from scrapy_webclean.urls import has_own_query

#: WCXB's page types, in the order of the model's outputs.
PAGE_TYPES: tuple[str, ...] = (
    "article",
    "documentation",
    "service",
    "forum",
    "listing",
    "product",
    "collection",
)


def _url_word_groups() -> dict[str, frozenset[str]]:
    groups: dict[str, frozenset[str]] = {}
    for entry in read_word_list("extraction/data/page_type_url_words.txt"):
        name, _, words = entry.partition(":")
        groups[name.strip()] = frozenset(words.split())
    return groups


#: Words of a URL's path that hint at a page type (one group per type).
URL_WORD_GROUPS: dict[str, frozenset[str]] = _url_word_groups()

#: schema.org types (JSON-LD ``@type`` or microdata ``itemtype``) and ``og:type`` values
#: that a page of each kind declares, lower-cased.
SCHEMA_GROUPS: dict[str, frozenset[str]] = {
    "article": frozenset(
        (
            "article",
            "newsarticle",
            "blogposting",
            "reportagenewsarticle",
            "opinionnewsarticle",
            "analysisnewsarticle",
            "scholarlyarticle",
            "report",
            "liveblogposting",
        )
    ),
    "documentation": frozenset(
        ("techarticle", "apireference", "howto", "softwaresourcecode", "course")
    ),
    "service": frozenset(
        (
            "organization",
            "corporation",
            "localbusiness",
            "service",
            "contactpage",
            "aboutpage",
            "faqpage",
            "webapplication",
            "softwareapplication",
            "professionalservice",
        )
    ),
    "forum": frozenset(
        (
            "discussionforumposting",
            "qapage",
            "question",
            "answer",
            "comment",
            "socialmediaposting",
        )
    ),
    "listing": frozenset(("itemlist", "collectionpage", "searchresultspage", "listitem")),
    "product": frozenset(
        ("product", "productgroup", "productmodel", "offer", "aggregateoffer", "individualproduct")
    ),
    "collection": frozenset(("imagegallery", "mediagallery", "videogallery", "recipe")),
}

#: A price: a currency sign or code next to a number. Each alternative starts with a
#: character, not an assertion, so the regex engine skips to the characters that can start
#: one (half the time of the same pattern written with its assertions first); a number is
#: only tried from its first digit, so a long run of digits costs one pass.
PRICE_RE = re.compile(
    # a currency sign, then the number
    r"[$€£¥₹]\s?\d[\d.,]*|"
    # a currency code that starts a word (no word character before its first letter),
    # then the number
    r"[UEGCAR](?<!\w[UEGCAR])(?:(?<=U)SD|(?<=E)UR|(?<=G)BP|(?<=C)AD|(?<=A)UD|(?<=R)s\.?)"
    r"\s?\s?\d[\d.,]*|"
    # a number (no digit, point or comma before its first digit), then a currency
    r"\d(?<![\d.,]\d)[\d.,]*\s?(?:€|USD|EUR|kr|zł|руб)"
)
#: What every price names (:data:`PRICE_RE` matches only where one of these is; a
#: substring test for each is far cheaper than a pattern tried at every character).
CURRENCY_MARKS = (
    "$",
    "€",
    "£",
    "¥",
    "₹",
    "USD",
    "EUR",
    "GBP",
    "CAD",
    "AUD",
    "Rs",
    "kr",
    "zł",
    "руб",
)
#: Prices are looked for in lines shorter than this (characters): a price tag, not prose.
PRICE_LINE_MAX_CHARS = 200
#: A URL path's words: split at separators and digits.
_PATH_WORD_RE = re.compile(r"[^\W\d_]+")
_YEAR_RE = re.compile(r"/(?:19|20)\d\d/")
#: A line that lists many such items is a repeated shape from this many lines on.
REPEAT_MIN_LINES = 5

_HEADINGS_TOP = frozenset(("h2", "h3"))
_HEADINGS_LOW = frozenset(("h4", "h5", "h6"))
_CELLS = frozenset(("td", "th"))
_CODE = frozenset(("pre", "code"))
_ITEMS = frozenset(("li", "dd", "dt"))
_CONTROLS = ("input", "button", "select", "textarea", "form")

#: The feature columns, in order (the model file names them).
PAGE_FEATURE_NAMES: tuple[str, ...] = (
    *(f"url_{name}" for name in PAGE_TYPES),
    "url_depth",
    "url_numbers",
    "url_year",
    "url_query",  # (a parameter other than tracking ones: urls.has_own_query)
    "url_root",
    "url_slug_words",
    "url_forum",
    *(f"declares_{name}" for name in PAGE_TYPES),
    "og_article",
    "og_product",
    "log_lines",
    "log_chars",
    "link_density",
    "prose_share",
    "item_share",
    "cell_share",
    "code_share",
    "linked_line_share",
    "longest_line_share",
    "mean_line_units",
    "h1",
    "headings_top",
    "headings_low",
    "controls",
    "images",
    "prices",
    "date_lines",
    "repeated_share",
    "repeated_groups",
    "time_tags",
    "article_tags",
)


def _url_features(url: str | None) -> list[float]:
    if not url:
        return [0.0] * (len(PAGE_TYPES) + 7)
    parts = urlsplit(url)
    path = parts.path or "/"
    segments = [s for s in path.split("/") if s]
    words = [w.lower() for w in _PATH_WORD_RE.findall(path)]
    wordset = set(words)
    groups = [float(len(wordset & URL_WORD_GROUPS.get(name, frozenset()))) for name in PAGE_TYPES]
    last = segments[-1] if segments else ""
    own_query = has_own_query(parts.query)
    return [
        *groups,
        float(len(segments)),
        float(sum(1 for s in segments if any(c.isdigit() for c in s))),
        1.0 if _YEAR_RE.search(path) else 0.0,
        1.0 if own_query else 0.0,
        1.0 if not segments and not own_query else 0.0,
        float(min(20, len(_PATH_WORD_RE.findall(last)))),
        1.0 if FORUM_URL_RE.search(url) else 0.0,
    ]


def _declared_features(markup: str | None) -> list[float]:
    counts = dict.fromkeys(PAGE_TYPES, 0.0)
    types = declared_types(markup)
    for value in (name.lower() for name in types.schema):
        for name, names in SCHEMA_GROUPS.items():
            if value in names:
                counts[name] += 1.0
    og = {value.lower() for value in types.og}
    return [
        *(min(5.0, counts[name]) for name in PAGE_TYPES),
        float("article" in og),
        float("product" in og),
    ]


def page_type_features(
    model: PageModel, lines: Sequence[Line], url: str | None, markup: str | None
) -> list[float]:
    """One row of :data:`PAGE_FEATURE_NAMES` for a page (``markup`` is its decoded
    source, searched for declared types; ``lines`` are ``build_lines``'s)."""
    tags = model.tags
    parents = model.parents
    n = len(lines)
    total_units = units_prose = units_items = units_cells = units_code = longest = 0.0
    total_chars = anchor_chars = linked = date_lines = 0
    short_texts: list[str] = []
    line_shapes: list[tuple[str, str]] = []  # (counted at once after the loop)
    add_shape = line_shapes.append
    for line in lines:
        units = line.units
        node = line.node
        tag = tags[node]
        chars = line.chars
        anchor = line.anchor_chars
        total_units += units
        total_chars += chars
        anchor_chars += anchor
        if units > longest:
            longest = units
        if line.prose:
            units_prose += units
        if tag in _ITEMS:
            units_items += units
        elif tag in _CELLS:
            units_cells += units
        elif tag in _CODE:
            units_code += units
        if chars and anchor * 2 > chars:
            linked += 1
        if line.custom and tag != "h1":
            date_lines += 1
        if chars < PRICE_LINE_MAX_CHARS:
            short_texts.append(line.text)
        add_shape((tag, tags[parents[node]] if node else ""))
    shapes = Counter(line_shapes)
    total_units = total_units or 1.0
    total_chars = total_chars or 1
    repeated = [count for count in shapes.values() if count >= REPEAT_MIN_LINES]
    tag_counts = Counter(tags)
    # (one search over the short lines joined, not one per line, and only when a currency
    # is named at all: most pages name none)
    joined = "\n".join(short_texts)
    named = any(mark in joined for mark in CURRENCY_MARKS)
    prices = sum(1 for _ in PRICE_RE.finditer(joined)) if named else 0
    return [
        *_url_features(url),
        *_declared_features(markup),
        math.log1p(n),
        math.log1p(total_chars),
        anchor_chars / total_chars,
        units_prose / total_units,
        units_items / total_units,
        units_cells / total_units,
        units_code / total_units,
        linked / (n or 1),
        longest / total_units,
        math.log1p(total_units / (n or 1)),
        float(min(5, tag_counts["h1"])),
        math.log1p(sum(tag_counts[h] for h in _HEADINGS_TOP)),
        math.log1p(sum(tag_counts[h] for h in _HEADINGS_LOW)),
        math.log1p(sum(tag_counts[t] for t in _CONTROLS)),
        math.log1p(len(model.images)),
        math.log1p(prices),
        math.log1p(date_lines),
        sum(repeated) / (n or 1),
        float(min(20, len(repeated))),
        math.log1p(tag_counts["time"]),
        math.log1p(tag_counts["article"]),
    ]


class PageTypeModel:
    """Boosted trees that give a page a probability for each of :data:`PAGE_TYPES`."""

    __slots__ = ("ensemble",)

    def __init__(self, spec: dict[str, Any]) -> None:
        if tuple(spec["features"]) != PAGE_FEATURE_NAMES:
            raise ValueError("the page-type model was trained on other features")
        if tuple(spec["classes"]) != PAGE_TYPES:
            raise ValueError("the page-type model was trained on other page types")
        self.ensemble = TreeEnsemble(spec["trees"], spec["base"], spec["depth"])

    def probabilities(self, features: Sequence[float]) -> list[float]:
        """The page's probability of each type, in :data:`PAGE_TYPES` order."""
        np = numpy_module()
        raw = self.ensemble.raw([features])[0]
        exp = np.exp(raw - raw.max())
        return [float(p) for p in exp / exp.sum()]


def uniform_probabilities() -> list[float]:
    """What a page's type probabilities are without a model: every type alike."""
    return [1.0 / len(PAGE_TYPES)] * len(PAGE_TYPES)
