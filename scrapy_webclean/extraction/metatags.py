"""What a page declares about itself, read once for every metadata field
(``extraction.metadata``): its ``<meta>`` and ``<link>`` tags (:func:`read_head_tags`: one
walk of its head, contents capped), its JSON-LD's main item (:func:`json_ld_main`: the
article, post or question the page is, from the parses ``extraction.jsonld`` keeps for
the page) and its links marked with a ``rel`` (:func:`marked_links`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from lxml import etree

from scrapy_webclean.extraction.jsonld import json_ld_items, json_objects, types_of
from scrapy_webclean.html.pagemodel import LinkRef, PageModel

#: At most this many ``<meta>`` and ``<link>`` elements are read per page.
MAX_TAGS = 3000
#: A tag's ``content`` or ``href`` is read up to this many characters.
MAX_CONTENT_CHARS = 4096
#: A name (``name``, ``property``, ``itemprop``, ``rel``) longer than this is skipped.
MAX_KEY_CHARS = 100
#: At most this many values are kept per name (``article:tag`` repeats, one a tag).
MAX_VALUES = 30


@dataclass(slots=True)
class HeadTags:
    """The page's ``<meta>`` contents by lower-cased ``property``, ``name`` or
    ``itemprop`` (a tag with two is listed under both), and its ``<link>`` addresses by
    lower-cased ``rel`` word, each in page order."""

    meta: dict[str, list[str]] = field(default_factory=dict)
    links: dict[str, list[str]] = field(default_factory=dict)

    def first(self, *keys: str) -> str | None:
        """The first ``<meta>`` content of the first of ``keys`` the page has that is not
        blank (whitespace collapsed), or None."""
        for key in keys:
            for value in self.meta.get(key, ()):
                text = " ".join(value.split())
                if text:
                    return text
        return None

    def labelled(self, labels: frozenset[str]) -> str | None:
        """The value of a Twitter card's label/data pair whose label is one of ``labels``
        (lower case): ``twitter:label1`` "Written by", ``twitter:data1`` the name."""
        for number in range(1, 5):
            label = self.first(f"twitter:label{number}")
            if label is not None and label.lower() in labels:
                return self.first(f"twitter:data{number}")
        return None


#: A ``<head>`` with none of these names is read with the body: the parser closed it
#: early (a stray element in it) and its tags landed in the body.
_HEAD_KEYS = ("description", "og:title", "og:site_name", "og:url", "og:type", "author")


def read_head_tags(root: etree._Element) -> HeadTags:
    """The page's ``<meta>`` and ``<link>`` tags (at most :data:`MAX_TAGS`): its
    ``<head>``'s, or the whole page's when the head has none of :data:`_HEAD_KEYS`
    (walking the head alone costs a tenth of walking the page)."""
    head = root.find("head")
    tags = _read_tags(head if head is not None else root)
    if head is not None and not any(key in tags.meta for key in _HEAD_KEYS):
        tags = _read_tags(root)
    return tags


def _read_tags(scope: etree._Element) -> HeadTags:
    tags = HeadTags()
    meta, links = tags.meta, tags.links
    for count, element in enumerate(scope.iter("meta", "link")):
        if count >= MAX_TAGS:
            break
        get = element.get
        if element.tag == "meta":
            content = get("content")
            if content is None:
                continue
            key = get("property")
            other = get("name")
            if key is None:
                key, other = other or get("itemprop"), None
            if key is not None:
                _add(meta, key, content)
            if other is not None:  # (``<meta property="og:title" name="title">``)
                _add(meta, other, content)
        else:
            href = get("href")
            rel = get("rel")
            if href is None or not rel or len(rel) > MAX_KEY_CHARS:
                continue
            for word in rel.split():
                _add(links, word, href)
    return tags


def _add(table: dict[str, list[str]], key: str, value: str) -> None:
    """``value`` (cut at :data:`MAX_CONTENT_CHARS`) listed under ``key`` lower-cased, unless
    the key is too long or has :data:`MAX_VALUES` already."""
    if len(key) > MAX_KEY_CHARS:
        return
    key = key.lower()
    if key[:1] == " " or key[-1:] == " ":
        key = key.strip()
    values = table.get(key)
    if values is None:
        table[key] = [value[:MAX_CONTENT_CHARS]]
    elif len(values) < MAX_VALUES:
        values.append(value[:MAX_CONTENT_CHARS])


#: At most this many links of a page are looked at for their ``rel``.
MAX_LINKS = 3000


def marked_links(model: PageModel) -> list[tuple[LinkRef, str]]:
    """The page's links (its first :data:`MAX_LINKS`) that carry a ``rel`` (``tag``,
    ``category tag``, ``license``, ``author``), each with its ``rel`` lower-cased."""
    elements = model.elements
    marked = []
    for link in model.links[:MAX_LINKS]:
        rel = elements[link.node].get("rel")
        if rel:
            marked.append((link, rel.lower()))
    return marked


#: Schema.org types of the item a page is about: an article, a post, a question.
MAIN_TYPES = frozenset(
    (
        *("article", "newsarticle", "blogposting", "reportagenewsarticle", "analysisnewsarticle"),
        *("opinionnewsarticle", "backgroundnewsarticle", "reviewnewsarticle", "techarticle"),
        *("scholarlyarticle", "medicalscholarlyarticle", "report", "liveblogposting"),
        *("socialmediaposting", "discussionforumposting", "question", "recipe", "howto"),
        *("videoobject", "podcastepisode", "episode", "creativework", "book", "course"),
    )
)
#: Types of a page as a whole: their item is the main one when no :data:`MAIN_TYPES` is.
PAGE_TYPES = frozenset(
    (
        *("webpage", "itempage", "aboutpage", "profilepage", "collectionpage"),
        *("faqpage", "qapage", "medicalwebpage", "searchresultspage", "contactpage"),
    )
)
#: Types whose author is someone else than the page's: a review's, a comment's, an
#: answer's.
OTHERS_TYPES = frozenset(("review", "comment", "answer", "rating", "aggregaterating"))


@dataclass(slots=True)
class JsonLd:
    """The page's JSON-LD objects (breadth first, capped: ``jsonld.json_objects``), its
    main item (None without one) and the names of the objects other objects refer to by
    ``@id`` (Yoast's ``"author": {"@id": ".../#/schema/person/1"}``)."""

    objects: list[dict[str, object]]
    main: dict[str, object] | None
    names_by_id: dict[str, str]

    def of_type(self, names: frozenset[str]) -> Iterator[dict[str, object]]:
        """The objects with one of the type names ``names`` (lower case)."""
        for obj in self.objects:
            if not names.isdisjoint(types_of(obj)):
                yield obj

    def name_of(self, value: object) -> str | None:
        """The name of an object or a reference to one (its ``name``, else the name of the
        object its ``@id`` names); a string as it is; None otherwise."""
        if isinstance(value, str):
            return value
        if not isinstance(value, dict):
            return None
        name = value.get("name")
        if isinstance(name, list):
            name = next((item for item in name if isinstance(item, str)), None)
        if isinstance(name, str):
            return name
        ref = value.get("@id")
        return self.names_by_id.get(ref) if isinstance(ref, str) else None


def json_ld_main(root: etree._Element, source: str | None) -> JsonLd:
    """The page's JSON-LD: its objects, the first with a type of :data:`MAIN_TYPES` as the
    main item (else the first of :data:`PAGE_TYPES`), and the names by ``@id``. ``source``,
    the decoded HTML, spares the look on a page without JSON-LD."""
    if source is not None and "ld+json" not in source:
        return JsonLd([], None, {})
    objects = list(json_objects(json_ld_items(root)))
    main = next((obj for obj in objects if not MAIN_TYPES.isdisjoint(types_of(obj))), None)
    if main is None:
        main = next((obj for obj in objects if not PAGE_TYPES.isdisjoint(types_of(obj))), None)
    names: dict[str, str] = {}
    for obj in objects:
        ref, name = obj.get("@id"), obj.get("name")
        if isinstance(ref, str) and isinstance(name, str):
            names.setdefault(ref, name)
    return JsonLd(objects, main, names)


def values_of(value: object) -> list[object]:
    """A JSON-LD value as a list (one value or a list of them)."""
    return value if isinstance(value, list) else [value]
