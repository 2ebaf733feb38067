"""Image links as a crawler sees them before fetching (docs/algorithms.md section 2).

For every ``<img>`` of a page: its absolute URL (lazy-loading attributes first), the target
and text of the link around it, ``alt`` and ``title``, the declared size, and the class and
id words of its nearest containers. All of it is known from the page alone, before the image
is downloaded.
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from scrapy_webclean.html.pagemodel import collapse_ws, dimension, image_src
from scrapy_webclean.urls import UrlResolver, resolve_base

#: How many containers above an image lend their class/id words to its context.
CONTEXT_DEPTH = 4
_MAX_ANCHOR_CHARS = 200


@dataclass(slots=True, frozen=True)
class ImageLink:
    """One ``<img>`` occurrence on a page. Sizes are CSS pixels as declared (None when
    absent or not a number); ``context`` holds the id and class words of up to
    :data:`CONTEXT_DEPTH` containers, nearest first; ``hidden`` is True when a filter
    list's element-hiding rule hides the image or a container of it."""

    page_url: str
    src: str
    link: str | None = None
    anchor: str = ""
    alt: str = ""
    title: str = ""
    width: int | None = None
    height: int | None = None
    context: tuple[str, ...] = ()
    hidden: bool = False


def image_links(
    root: etree._Element, page_url: str, hidden: set[etree._Element] | None = None
) -> list[ImageLink]:
    """Every ``<img>`` of a parsed page with what is known of it before fetching (a lazy
    image gives two links: its real URL and the placeholder in ``src``);
    ``hidden`` are elements hidden by a filter list (see ``FilterList.hidden_elements``)."""
    base = root.find(".//base[@href]")
    resolve = UrlResolver(resolve_base(page_url, base.get("href") if base is not None else None))
    found: list[ImageLink] = []
    for img in root.iter("img"):
        raw = image_src(img)
        if not raw:
            continue
        sources = [resolve(raw)]
        plain = img.get("src")
        if plain and plain != raw and not plain.startswith("data:"):
            # A lazy image's placeholder in ``src`` is fetched by a crawler too.
            sources.append(resolve(plain))
        sources = [src for src in sources if src.startswith(("http://", "https://"))]
        if not sources:
            continue
        link: str | None = None
        anchor = ""
        link_title = ""
        context: list[str] = []
        is_hidden = bool(hidden) and img in hidden  # type: ignore[operator]
        parent = img.getparent()
        while parent is not None and len(context) < CONTEXT_DEPTH:
            tag = parent.tag
            if tag == "a" and link is None:
                href = (parent.get("href") or "").strip()
                if href and not href.startswith(("javascript:", "#")):
                    link = resolve(href)
                anchor = collapse_ws(parent.xpath("string()"))[:_MAX_ANCHOR_CHARS].strip()
                link_title = parent.get("title") or ""
            words = " ".join(filter(None, (parent.get("id"), parent.get("class"))))
            context.append(words.strip())
            if tag == "body":
                break
            parent = parent.getparent()
        if hidden and not is_hidden:
            is_hidden = any(ancestor in hidden for ancestor in img.iterancestors())
        alt = collapse_ws(img.get("alt") or "").strip()
        title = collapse_ws(img.get("title") or link_title).strip()
        width, height = dimension(img.get("width")), dimension(img.get("height"))
        for src in sources:
            found.append(
                ImageLink(
                    page_url=page_url,
                    src=src,
                    link=link,
                    anchor=anchor,
                    alt=alt,
                    title=title,
                    width=width,
                    height=height,
                    context=tuple(context),
                    hidden=is_hidden,
                )
            )
    return found
