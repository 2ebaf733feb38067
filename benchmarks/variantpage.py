"""The page an edit of ``htmlvariants`` works on: an article taken as an original
(:class:`Article`), parsed as the cleaner decodes it, and its anatomy (:func:`anatomy`: the
article's blocks, headline, region, the furniture around it and its sidebar boxes), with
the text and HTML helpers the edits share. What an edit did is an :class:`Edit`; the sorts
of each kind are ``variantedits.DETAILS``.
"""

from __future__ import annotations

import copy
import re
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import lxml.html
from lxml import etree

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from datasets import Page

from scrapy_webclean.html.encoding import decode_html

#: An element is an article block when it has at least this many words ...
MIN_BLOCK_WORDS = 6
#: ... of which this share of the word 4-grams are in the page's truth.
BLOCK_TRUTH_SHARE = 0.7
BLOCK_TAGS = frozenset(("p", "h2", "h3", "h4", "h5", "h6", "li", "blockquote", "pre"))
#: The article's region: the deepest element that holds this share of its blocks' text
#: (navigation and headers inside it are the article's own, never swapped).
REGION_SHARE = 0.8
FURNITURE_RE = re.compile(r"nav|menu|header|footer|masthead", re.I)
FOOTER_RE = re.compile(r"foot", re.I)
FURNITURE_TAGS = frozenset(("nav", "header", "footer"))
#: A sidebar box: an ``<aside>``, or an element with an id or class (a word of them) that
#: names one of these (the bare words ``widget`` and ``rail`` only whole, not inside a page
#: builder's ``elementor-widget-wrap``) ...
SIDEBAR_RE = re.compile(
    r"sidebar|side-bar|side_bar|related|recommend|more-?stories|more_stories|popular"
    r"|trending|widget-?area|widget_area|widgets|^widget$|(?:^|[-_])rail(?:$|[-_])",
    re.I,
)
SIDEBAR_TAGS = frozenset(("aside",))
#: ... that is not furniture nor inside it (the boilerplate swap's), holds no article block
#: nor the headline, and of whose word 4-grams at most this share are in the page's truth.
SIDEBAR_TRUTH_MAX = 0.1
#: Never a sidebar box, whatever its class.
NOT_SIDEBAR_TAGS = frozenset(("html", "head", "body", "main", "title", "meta", "link"))
SKIPPED_TAGS = frozenset(("script", "style", "noscript", "template"))
XML_DECLARATION_RE = re.compile(r"^\s*<\?xml[^>]*\?>", re.I)
WORD_RE = re.compile(r"\w+")
BOM = "\ufeff"


@dataclass(slots=True)
class Article:
    """A page taken as an original: its cluster number, page and cleaned text."""

    cluster: int
    page: Page
    text: str


@dataclass(slots=True, frozen=True)
class Edit:
    """What an edit did (``note``, free text) and its sort (one of ``variantedits.DETAILS``)."""

    note: str
    detail: str


# -- text helpers ---------------------------------------------------------------------------


def words(text: str) -> list[str]:
    return WORD_RE.findall(text.lower())


def shingles(text: str, n: int = 4) -> set[int]:
    """Hashes of the word n-grams of ``text`` (lower-cased)."""
    tokens = words(text)
    return {hash(tuple(tokens[i : i + n])) for i in range(max(1, len(tokens) - n + 1))}


def share_in(part: set[int], whole: set[int]) -> float:
    return len(part & whole) / len(part) if part else 0.0


# -- HTML helpers ---------------------------------------------------------------------------


def parse(html: bytes) -> lxml.html.HtmlElement:
    """The page decoded as the cleaner decodes it, parsed by lxml."""
    text = XML_DECLARATION_RE.sub("", decode_html(html).text, count=1).replace("\x00", "")
    return lxml.html.document_fromstring(text)


def serialize(root: lxml.html.HtmlElement) -> bytes:
    doctype = root.getroottree().docinfo.doctype
    markup: str = lxml.html.tostring(root, encoding="unicode", doctype=doctype or None)
    return (BOM + markup).encode("utf-8")


def element_text(el: etree._Element) -> str:
    return " ".join(el.text_content().split())


def body_of(root: lxml.html.HtmlElement) -> lxml.html.HtmlElement:
    body = root.find("body")
    return body if body is not None else root


def visible_text(el: etree._Element) -> str:
    """The text of ``el`` outside scripts, styles and comments, spaces collapsed."""
    parts: list[str] = []
    hidden = 0
    for event, node in etree.iterwalk(el, events=("start", "end")):
        skipped = not isinstance(node.tag, str) or node.tag in SKIPPED_TAGS
        if event == "start":
            hidden += skipped
            if not hidden and node.text:
                parts.append(node.text)
            continue
        hidden -= skipped
        if node is not el and not hidden and node.tail:
            parts.append(node.tail)
    return " ".join(" ".join(parts).split())


def _names(el: etree._Element) -> str:
    return f"{el.get('id', '')} {el.get('class', '')}"


def is_skipped(el: etree._Element) -> bool:
    return not isinstance(el.tag, str) or any(
        a.tag in SKIPPED_TAGS for a in (el, *el.iterancestors())
    )


@dataclass(slots=True)
class Anatomy:
    """Where an article's parts are in its tree, as positions in ``root.iter()`` order (so
    that they can be found again in a copy of the tree)."""

    blocks: list[int]
    paragraphs: list[int]
    furniture: list[int]
    headline: int | None
    truth: set[int]
    donor_share: float  # share of the truth's 4-grams its blocks hold
    #: The article's region (see :func:`_region`), None when it has no blocks.
    region: int | None = None
    #: The top-most sidebar boxes (:func:`_sidebars`), in document order, and their words.
    sidebars: list[int] = field(default_factory=list)
    sidebar_words: list[int] = field(default_factory=list)


def anatomy(root: lxml.html.HtmlElement, truth: str) -> Anatomy:
    grams = shingles(truth)
    elements = list(root.iter())
    position = {el: i for i, el in enumerate(elements)}
    blocks: list[int] = []
    taken: set[etree._Element] = set()
    held: set[int] = set()
    for el in elements:
        if not isinstance(el.tag, str) or el.tag not in BLOCK_TAGS:
            continue
        if any(a in taken for a in el.iterancestors()) or is_skipped(el):
            continue
        text = element_text(el)
        if len(words(text)) < MIN_BLOCK_WORDS:
            continue
        own = shingles(text)
        if share_in(own, grams) >= BLOCK_TRUTH_SHARE:
            blocks.append(position[el])
            taken.add(el)
            held |= own & grams
    headline = _headline(root)
    block_elements = [elements[i] for i in blocks]
    furniture = _furniture(root, block_elements, headline)
    region = _region(block_elements)
    sidebars = _sidebars(root, block_elements, headline, grams)
    return Anatomy(
        blocks=blocks,
        paragraphs=[i for i in blocks if elements[i].tag == "p"],
        furniture=[position[el] for el in furniture],
        headline=position[headline] if headline is not None else None,
        truth=grams,
        donor_share=len(held) / len(grams) if grams else 0.0,
        region=position[region] if region is not None else None,
        sidebars=[position[el] for el in sidebars],
        sidebar_words=[len(words(visible_text(el))) for el in sidebars],
    )


def _headline(root: lxml.html.HtmlElement) -> etree._Element | None:
    """The ``h1`` that shares most words with the ``<title>`` (at least one), else the only
    ``h1``."""
    title = root.find(".//title")
    title_words = set(words(title.text_content())) if title is not None else set()
    heads = [h for h in root.iter("h1") if words(h.text_content())]
    if not heads:
        return None
    scored = [(len(set(words(h.text_content())) & title_words), -i, h) for i, h in enumerate(heads)]
    best = max(scored, key=lambda s: (s[0], s[1]))
    return best[2] if best[0] > 0 or len(heads) == 1 else None


def _region(blocks: Sequence[etree._Element]) -> etree._Element | None:
    """The deepest element that holds :data:`REGION_SHARE` of the article blocks' text."""
    sizes: Counter[etree._Element] = Counter()
    total = 0
    for block in blocks:
        size = len(element_text(block))
        total += size
        for ancestor in block.iterancestors():
            sizes[ancestor] += size
    held = [el for el, size in sizes.items() if size >= REGION_SHARE * total]
    return max(held, key=lambda el: sum(1 for _ in el.iterancestors()), default=None)


def _furniture(
    root: lxml.html.HtmlElement, blocks: Sequence[etree._Element], headline: etree._Element | None
) -> list[etree._Element]:
    """The top-most navigation, header and footer elements outside the article's region
    that hold no article block and not the headline."""
    region = _region(blocks)
    protected, holding = _protected([*blocks, *(e for e in (headline, region) if e is not None)])
    # Elements that hold a protected one, or sit inside one, are never furniture.
    found: list[etree._Element] = []
    chosen: set[etree._Element] = set()
    for el in body_of(root).iterdescendants():
        if not isinstance(el.tag, str) or el in holding or el.tag in SKIPPED_TAGS:
            continue
        names = f"{el.get('id', '')} {el.get('class', '')}"
        if el.tag not in FURNITURE_TAGS and not FURNITURE_RE.search(names):
            continue
        if any(a in chosen or a in protected for a in el.iterancestors()):
            continue
        found.append(el)
        chosen.add(el)
    return found


def _protected(
    elements: Sequence[etree._Element],
) -> tuple[set[etree._Element], set[etree._Element]]:
    """The elements an edit must keep, and every element that holds one of them."""
    protected = set(elements)
    holding: set[etree._Element] = set()
    for el in protected:
        holding.update(el.iterancestors())
    return protected, holding


def _sidebars(
    root: lxml.html.HtmlElement,
    blocks: Sequence[etree._Element],
    headline: etree._Element | None,
    truth: set[int],
) -> list[etree._Element]:
    """The top-most sidebar and related-stories boxes (an ``<aside>``, or an id or class of
    :data:`SIDEBAR_RE`) that hold no article block and not the headline, sit inside none,
    and hold at most :data:`SIDEBAR_TRUTH_MAX` of their word 4-grams in the truth; inside
    the article's region too (a related box in the article's column is one); never
    furniture (a tag of :data:`FURNITURE_TAGS` or a name of :data:`FURNITURE_RE`) nor inside
    it."""
    protected, holding = _protected([*blocks, *([headline] if headline is not None else [])])
    found: list[etree._Element] = []
    chosen: set[etree._Element] = set()
    for el in body_of(root).iterdescendants():
        if not isinstance(el.tag, str) or el in holding or el in protected:
            continue
        if el.tag in NOT_SIDEBAR_TAGS:
            continue
        names = _names(el)
        if el.tag not in SIDEBAR_TAGS and not any(SIDEBAR_RE.search(n) for n in names.split()):
            continue
        if is_skipped(el) or any(_is_furniture(a) for a in (el, *el.iterancestors())):
            continue
        if any(a in chosen or a in protected for a in el.iterancestors()):
            continue
        if share_in(shingles(visible_text(el)), truth) > SIDEBAR_TRUTH_MAX:
            continue
        found.append(el)
        chosen.add(el)
    return found


def _is_furniture(el: etree._Element) -> bool:
    return isinstance(el.tag, str) and (
        el.tag in FURNITURE_TAGS or bool(FURNITURE_RE.search(_names(el)))
    )


def is_footer(el: etree._Element) -> bool:
    return el.tag == "footer" or bool(FOOTER_RE.search(f"{el.get('id', '')} {el.get('class', '')}"))


def drop(el: etree._Element) -> None:
    """Remove an element, keeping its tail text."""
    if isinstance(el, lxml.html.HtmlElement):
        el.drop_tree()
    else:
        parent = el.getparent()
        if parent is not None:
            parent.remove(el)


# -- the variants ---------------------------------------------------------------------------


@dataclass(slots=True)
class Source:
    """An article ready to be edited: its parsed tree (never edited itself) and anatomy."""

    article: Article
    root: lxml.html.HtmlElement
    parts: Anatomy

    def copy(self) -> lxml.html.HtmlElement:
        """A copy of the tree, to edit (positions in ``iter()`` order are the same)."""
        return copy.deepcopy(self.root)
