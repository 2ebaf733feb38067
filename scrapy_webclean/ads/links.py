"""Image links as a crawler sees them before fetching (docs/algorithms.md section 2).

For every ``<img>`` of a page: its absolute URL (lazy-loading attributes first), the target
and text of the link around it, ``alt`` and ``title``, the declared size, and the class and
id words of its nearest containers. All of it is known from the page alone, before the image
is downloaded.
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from scrapy_webclean.html.pagemodel import collapse_ws, dimension, image_src, within
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
    ``hidden`` are elements hidden by a filter list (see ``FilterList.hidden_elements``).

    Linear in the page: each link's text is read once, however many images it holds,
    and each element is asked once whether it is hidden."""
    base = root.find(".//base[@href]")
    resolve = UrlResolver(resolve_base(page_url, base.get("href") if base is not None else None))
    # (image, its sources, its link, the <a> its anchor text comes from, the link's title,
    # its context, hidden?)
    pending: list[
        tuple[etree._Element, list[str], str | None, etree._Element | None, str, list[str], bool]
    ] = []
    hidden_set = hidden or None
    hidden_above: dict[etree._Element, bool] = {}  # (see pagemodel.within)
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
        anchor_element: etree._Element | None = None
        link_title = ""
        context: list[str] = []
        parent = img.getparent()
        while parent is not None and len(context) < CONTEXT_DEPTH:
            tag = parent.tag
            if tag == "a" and link is None:
                href = (parent.get("href") or "").strip()
                if href and not href.startswith(("javascript:", "#")):
                    link = resolve(href)
                anchor_element = parent
                link_title = parent.get("title") or ""
            words = " ".join(filter(None, (parent.get("id"), parent.get("class"))))
            context.append(words.strip())
            if tag == "body":
                break
            parent = parent.getparent()
        is_hidden = hidden_set is not None and (
            img in hidden_set or within(img, hidden_set.__contains__, hidden_above)
        )
        pending.append((img, sources, link, anchor_element, link_title, context, is_hidden))
    anchors = _anchor_texts([entry[3] for entry in pending if entry[3] is not None])
    found: list[ImageLink] = []
    for img, sources, link, anchor_element, link_title, context, is_hidden in pending:
        anchor = anchors[anchor_element] if anchor_element is not None else ""
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


def _anchor_texts(anchors: list[etree._Element]) -> dict[etree._Element, str]:
    """Each ``<a>``'s text (its XPath ``string()``) with whitespace collapsed, cut to
    :data:`_MAX_ANCHOR_CHARS` and stripped: read in one walk over the outermost of them,
    so a link holding thousands of images, or links inside links, cost the page's size."""
    wanted = set(anchors)
    if not wanted:
        return {}
    inside: dict[etree._Element, bool] = {}  # (see pagemodel.within)
    outermost = [
        anchor
        for anchor in dict.fromkeys(anchors)
        if not within(anchor, wanted.__contains__, inside)
    ]
    text = _CollapsedText()
    spans: dict[etree._Element, tuple[int, int, bool]] = {}
    for outer in outermost:
        opened: list[tuple[etree._Element, int]] = []
        for event, element in etree.iterwalk(outer, events=("start", "end")):
            if event == "start":
                if element in wanted:
                    opened.append((element, text.length))
                    text.await_first(element)
                if isinstance(element.tag, str) and element.text:
                    text.add(element.text)
                continue
            if element in wanted:
                anchor, start = opened.pop()
                spans[anchor] = (start, text.length, text.starts_with_space(anchor))
            if element is not outer and element.tail:
                text.add(element.tail)
    joined = text.value()
    texts: dict[etree._Element, str] = {}
    for anchor, (start, end, leading_space) in spans.items():
        # (collapse_ws(string)[:limit].strip(): a leading space takes one place of the cut)
        limit = _MAX_ANCHOR_CHARS - 1 if leading_space else _MAX_ANCHOR_CHARS
        texts[anchor] = joined[start : min(end, start + limit + 1)].lstrip(" ")[:limit].rstrip()
    return texts


class _CollapsedText:
    """Text pieces joined as ``" ".join(text.split())`` joins their concatenation, built
    piece by piece; a span of it is the collapsed text of the pieces added meanwhile."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.length = 0
        self.space_pending = False  # the text so far ends with whitespace
        self.awaiting: list[etree._Element] = []  # spans that have no character yet
        self.first_is_space: dict[etree._Element, bool] = {}

    def await_first(self, anchor: etree._Element) -> None:
        self.awaiting.append(anchor)

    def starts_with_space(self, anchor: etree._Element) -> bool:
        return self.first_is_space.get(anchor, False)

    def add(self, piece: str) -> None:
        if self.awaiting:
            first = piece[0].isspace()
            for anchor in self.awaiting:
                self.first_is_space[anchor] = first
            self.awaiting.clear()
        words = piece.split()
        if words:
            if self.length and (self.space_pending or piece[0].isspace()):
                self._append(" ")
            self._append(" ".join(words))
        self.space_pending = piece[-1].isspace() or (self.space_pending and not words)

    def _append(self, part: str) -> None:
        self.parts.append(part)
        self.length += len(part)

    def value(self) -> str:
        return "".join(self.parts)
