"""The page's metadata (:func:`page_metadata`): its authors, its site's name, its
description, categories and tags, lead image, canonical address, last-modified date and
license, each None (or an empty list) when the page does not give it.

Every field is read from what the page declares first, its ``<meta>``/``<link>`` tags
and its JSON-LD's main item (``extraction.metatags``: one walk of the tags, the JSON-LD
parses the date already made), and from the markup only when those give none: the
authors from the byline lines the extractor set apart and the elements and lines named
as a byline (``extraction.pageauthors``), the categories and tags from the links and lines
that list them (``extraction.taxonomy``), the license from a link marked as one or to a
Creative Commons license.
The sources of each field, most telling first:

* ``author``: ``extraction.pageauthors``: the JSON-LD main item's ``author``, the
  ``<meta>`` tags (``author``, ``article:author``, ``citation_author``...; a Twitter
  card's "Written by"), the byline lines ("By Jane Doe | May 6, 2025"), the page's byline
  elements and lines; names as ``authors.author_names`` reads them (no date, no handle,
  no "Staff" alone; not the site's name unless the page declares it);
* ``sitename``: ``og:site_name``, the JSON-LD ``WebSite``'s or publisher's name,
  ``application-name``, the part of the ``<title>`` beside the headline ("Headline - Site");
* ``description``: ``<meta name=description>``, ``og:description``,
  ``twitter:description``, the JSON-LD main item's ``description``;
* ``image``: ``og:image``, ``twitter:image``, the main item's ``image``,
  ``<link rel=image_src>``; absolute, http(s), no logo and no 1x1 pixel or spacer;
* ``canonical_url``: ``<link rel=canonical>``, else ``og:url``; absolute, http(s) only;
* ``date_modified``: ``dates.modified_date``;
* ``license``: ``<link rel=license>``, a ``license`` ``<meta>`` tag or JSON-LD
  ``license``, an ``<a rel=license>``, a link to a Creative Commons license.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, fields

from lxml import etree

from scrapy_webclean.extraction.authors import name_key
from scrapy_webclean.extraction.dates import modified_date
from scrapy_webclean.extraction.metatags import (
    MAX_LINKS,
    HeadTags,
    JsonLd,
    json_ld_main,
    marked_links,
    read_head_tags,
    values_of,
)
from scrapy_webclean.extraction.pageauthors import page_authors
from scrapy_webclean.extraction.taxonomy import page_taxonomy
from scrapy_webclean.extraction.title import TITLE_SEPARATORS_RE
from scrapy_webclean.html.pagemodel import LinkRef, PageModel
from scrapy_webclean.urls import UrlResolver


@dataclass(slots=True)
class PageMetadata:
    """The page's metadata, each None (or empty) when the page does not give it."""

    author: list[str] = field(default_factory=list)
    sitename: str | None = None
    description: str | None = None
    categories: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    image: str | None = None
    canonical_url: str | None = None
    date_modified: str | None = None
    license: str | None = None


#: At most this many characters of a site name and a description are kept.
MAX_SITENAME_CHARS = 200
MAX_DESCRIPTION_CHARS = 4096


#: The fields of :class:`PageMetadata`, each a field of ``CleanResult`` of the same name.
METADATA_FIELDS: tuple[str, ...] = tuple(item.name for item in fields(PageMetadata))


def page_metadata(
    root: etree._Element,
    model: PageModel,
    url: str | None,
    title: str,
    meta_lines: Sequence[str],
    markup: str,
) -> PageMetadata:
    """The page's metadata (see the module docstring): ``root`` is its parsed tree,
    ``model`` its page model (``model.base_url`` resolves relative addresses, else
    ``url``), ``title`` its headline (the ``<title>``'s other part names the site),
    ``meta_lines`` the texts of its byline and date lines, ``markup`` its decoded HTML."""
    tags = read_head_tags(root)
    data = json_ld_main(root, markup)
    resolve = UrlResolver(model.base_url or url)
    sitename = _sitename(tags, data, model.title, title)
    site_keys = {name_key(sitename)} if sitename else set()
    marked = marked_links(model)
    categories, found_tags = page_taxonomy(model, tags, data, meta_lines, marked)
    return PageMetadata(
        author=page_authors(markup, model.runs, tags, data, meta_lines, site_keys),
        sitename=sitename,
        description=_description(tags, data),
        categories=categories,
        tags=found_tags,
        image=_image(tags, data, resolve),
        canonical_url=_canonical(tags, resolve),
        date_modified=modified_date(root, markup, tags.meta, data.objects),
        license=_license(model, marked, tags, data, resolve),
    )


# --------------------------------------------------------------------------- site name


def _sitename(tags: HeadTags, data: JsonLd, title_tag: str, headline: str) -> str | None:
    """The site's name (module docstring)."""
    found = tags.first("og:site_name")
    if found is None:
        for obj in data.of_type(frozenset(("website",))):
            found = _text(data.name_of(obj))
            if found:
                break
    if not found and data.main is not None:
        found = _text(data.name_of(data.main.get("publisher")))
    found = found or tags.first("application-name", "apple-mobile-web-app-title")
    found = found or _title_site_part(title_tag, headline)
    return found[:MAX_SITENAME_CHARS] if found else None


def _title_site_part(title_tag: str, headline: str) -> str | None:
    """The part of the ``<title>`` at its end (else its start) beside the part that is
    the headline ("Headline - Site", "Site | Headline"), or None."""
    parts = [part.strip() for part in TITLE_SEPARATORS_RE.split(title_tag) if part.strip()]
    key = name_key(headline)
    if len(parts) < 2 or not key:
        return None
    keys = [name_key(part) for part in parts]
    if keys[-1] != key and key in keys[:-1]:
        return parts[-1]
    if keys[0] != key and key in keys[1:]:
        return parts[0]
    return None


def _text(value: object) -> str | None:
    """A string's text, whitespace collapsed; None for anything else or a blank."""
    if not isinstance(value, str):
        return None
    return " ".join(value.split()) or None


# --------------------------------------------------------------------------- the others


def _description(tags: HeadTags, data: JsonLd) -> str | None:
    """The page's description (module docstring)."""
    found = tags.first("description", "og:description", "twitter:description")
    if found is None and data.main is not None:
        found = _text(data.main.get("description"))
    return found[:MAX_DESCRIPTION_CHARS] if found else None


#: ``<meta>`` names of the lead image, the most telling first.
IMAGE_KEYS = (
    "og:image",
    "og:image:url",
    "og:image:secure_url",
    "twitter:image",
    "twitter:image:src",
)
#: An image's address that names a logo, an icon or a spacer, or a one-pixel image.
_NOT_LEAD_IMAGE_RE = re.compile(
    r"(?<![a-z])(?:logo|favicon|apple-touch-icon|sprite)|"
    r"(?<![a-z0-9])(?:pixel|spacer|blank|1x1|transparent|clear|empty)\.(?:gif|png|webp)",
    re.I,
)


def _image(tags: HeadTags, data: JsonLd, resolve: UrlResolver) -> str | None:
    """The lead image's absolute address (module docstring): not one whose address names
    a logo, an icon or a spacer, nor the logo of the page's JSON-LD (its publisher's), nor
    a ``<meta>`` image the page sizes 1x1."""
    if tags.first("og:image:width") == "1" or tags.first("og:image:height") == "1":
        candidates: list[str] = []
    else:
        candidates = [value for key in IMAGE_KEYS for value in tags.meta.get(key, ())]
    if data.main is not None:
        candidates += _image_urls(data.main.get("image"))
    candidates += tags.links.get("image_src", [])
    logos: set[str] | None = None
    for candidate in candidates:
        address = _http_url(candidate, resolve)
        if not address or _NOT_LEAD_IMAGE_RE.search(address):
            continue
        if logos is None:  # (read when an image is found only)
            logos = {
                logo
                for obj in data.objects
                for value in _image_urls(obj.get("logo"))
                if (logo := _http_url(value, resolve))
            }
        if address not in logos:
            return address
    return None


def _image_urls(value: object) -> list[str]:
    """The addresses of a JSON-LD image value (an address, an ``ImageObject``'s ``url`` or
    ``contentUrl``, or a list of them; at most five)."""
    urls = []
    for item in values_of(value)[:5]:
        if isinstance(item, dict):
            item = item.get("url") or item.get("contentUrl")
        if isinstance(item, str):
            urls.append(item)
    return urls


def _http_url(href: str, resolve: UrlResolver) -> str | None:
    """``href`` made absolute, when it is an http(s) address with a host; else None."""
    href = href.strip()
    if not href or href.startswith("data:"):
        return None
    address = resolve(href)
    scheme, _, rest = address.partition("://")
    if scheme.lower() not in ("http", "https") or not rest or rest.startswith("/"):
        return None
    return address


def _canonical(tags: HeadTags, resolve: UrlResolver) -> str | None:
    """The page's canonical address: its ``<link rel=canonical>``, else its ``og:url``;
    absolute, http(s) only."""
    for href in [*tags.links.get("canonical", []), *tags.meta.get("og:url", [])]:
        address = _http_url(href, resolve)
        if address:
            return address
    return None


#: ``<meta>`` names of the page's license.
LICENSE_KEYS = ("license", "dc.rights", "dcterms.license", "dc.rights.license", "dcterms.rights")
#: Where a link to a Creative Commons license points.
_CC_LICENSE_RE = re.compile(r"creativecommons\.org/(?:licenses|publicdomain)/")


def _license(
    model: PageModel,
    marked: Sequence[tuple[LinkRef, str]],
    tags: HeadTags,
    data: JsonLd,
    resolve: UrlResolver,
) -> str | None:
    """The page's license: the address its ``<link rel=license>`` names, else the
    ``license`` ``<meta>`` tag's or JSON-LD ``license`` (an address made absolute, a text
    as it is), else the first link marked ``rel=license`` (of ``marked``), else the first
    link to a Creative Commons license (among the first :data:`MAX_LINKS` links)."""
    for href in tags.links.get("license", []):
        address = _http_url(href, resolve)
        if address:
            return address
    found = tags.first(*LICENSE_KEYS)
    if found is None and data.main is not None:
        value = data.main.get("license")
        found = _text(value.get("url") if isinstance(value, dict) else value)
    if found:
        return _http_url(found, resolve) if "/" in found and " " not in found else found
    for link, rel in marked:
        if "license" in rel:
            address = _http_url(link.href, resolve)
            if address:
                return address
    for link in model.links[:MAX_LINKS]:
        href = link.href
        if "creativecommons.org/" in href and _CC_LICENSE_RE.search(href):
            address = _http_url(href, resolve)
            if address:
                return address
    return None
