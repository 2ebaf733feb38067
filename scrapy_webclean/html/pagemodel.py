"""The page model every stage reads: per-node lists over an lxml tree, its text runs,
links and images (built by ``html.pagewalk.build_page_model`` in one iterative pass).

Nodes are numbered in document (pre-)order, so every descendant of node ``i`` has a larger
index than ``i`` and a reverse scan over the indices visits children before parents: the
subtree totals, the bottom-up segmentation and everything after them are plain loops over
lists, never recursion (a page with 100,000 nested ``<div>`` costs nothing special).

Text is kept as *runs*: each ``el.text`` belongs to ``el`` and each ``el.tail`` to the
parent of ``el``, whitespace collapsed to one space (a leading or trailing space is kept
so that inline pieces join correctly: "foo <b>bar</b>" stays "foo bar", 中文<b>词</b> stays
中文词). Lengths are counted on the stripped run, in characters.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from scrapy_webclean.html.tagclasses import TagClass
from scrapy_webclean.urls import UrlResolver as UrlResolver  # (re-exported)

_INT_RE = re.compile(r"\d+")

#: Characters counted as punctuation (Chinese full-width and ASCII), for the Quark features.
PUNCTUATION = "，。、；：？！“”‘’（）《》〈〉【】「」『』…—～·,.;:?!\"'()[]{}<>-–—…"
_PUNCT_DELETE = str.maketrans("", "", PUNCTUATION)

#: Lazy-loading attributes checked before ``src`` (a placeholder usually sits in ``src``).
LAZY_SRC_ATTRIBUTES = ("data-src", "data-original", "data-lazy-src", "data-url", "data-srcset")


@dataclass(slots=True)
class TextRun:
    """A piece of visible text: its owner node, collapsed text, layout flags, and its
    length in characters without the edge spaces."""

    owner: int
    text: str
    anchor: bool
    line_break: bool
    length: int = 0


@dataclass(slots=True)
class LinkRef:
    """An ``<a href>``: node index of the ``<a>``, the ``href`` as written, how many text
    runs precede it (its place in reading order) and where its runs end; :attr:`text` is
    the anchor text and :attr:`url` the absolute URL."""

    node: int
    href: str
    at_run: int
    end_run: int = -1
    resolver: UrlResolver | None = field(default=None, repr=False, compare=False)
    runs: list[TextRun] | None = field(default=None, repr=False, compare=False)
    anchor: str | None = field(default=None, repr=False, compare=False)

    @property
    def url(self) -> str:
        """The absolute URL (resolved when asked: most pages' links never are)."""
        return self.resolver(self.href) if self.resolver is not None else self.href

    @property
    def text(self) -> str:
        """The anchor text, whitespace collapsed (joined when asked: plain cleaning never
        asks; the blocks do)."""
        if self.anchor is None:
            if self.runs is None or self.end_run < 0:
                return ""
            pieces = self.runs[self.at_run : self.end_run]
            self.anchor = collapse_ws("".join(run.text for run in pieces)).strip()
        return self.anchor


@dataclass(slots=True)
class ImageRef:
    """An ``<img>`` with what can be known before fetching it (sizes in CSS pixels);
    ``at_run`` is how many text runs precede it, ``written`` its address as the page
    writes it, ``link`` the ``href`` of the link around it. The details (:attr:`src`,
    :attr:`alt`, :attr:`title`, :attr:`width`, :attr:`height`) are read when asked:
    plain cleaning never asks; the blocks do."""

    node: int
    at_run: int
    written: str
    link: str | None
    element: etree._Element = field(repr=False, compare=False)
    resolver: UrlResolver | None = field(default=None, repr=False, compare=False)

    @property
    def src(self) -> str:
        """The absolute URL the image loads (a lazy-loading attribute's first)."""
        return self.resolver(self.written) if self.resolver is not None else self.written

    @property
    def link_url(self) -> str | None:
        """The absolute URL of the link around the image (None without one)."""
        if self.link is None or self.resolver is None:
            return self.link
        return self.resolver(self.link)

    @property
    def alt(self) -> str:
        """The ``alt`` text, whitespace collapsed."""
        return collapse_ws(self.element.get("alt", "")).strip()

    @property
    def title(self) -> str:
        """The ``title`` text, whitespace collapsed."""
        return collapse_ws(self.element.get("title", "")).strip()

    @property
    def width(self) -> int | None:
        """The ``width`` attribute's leading integer, or None."""
        return dimension(self.element.get("width"))

    @property
    def height(self) -> int | None:
        """The ``height`` attribute's leading integer, or None."""
        return dimension(self.element.get("height"))


@dataclass(slots=True)
class PageModel:
    """Parallel per-node lists (index = document order) plus runs, links and images.

    ``own_*`` lists count what a node holds directly; the plain lists (``text_len`` ...)
    are subtree totals. ``visible[i]`` is False for S-class and hidden subtrees (whose
    descendants are not listed: the walk skips them).
    """

    elements: list[etree._Element] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    classes: list[TagClass] = field(default_factory=list)
    parents: list[int] = field(default_factory=list)
    visible: list[bool] = field(default_factory=list)
    custom: list[bool] = field(default_factory=list)
    own_text: list[int] = field(default_factory=list)
    own_anchor: list[int] = field(default_factory=list)
    own_links: list[int] = field(default_factory=list)
    text_len: list[int] = field(default_factory=list)
    anchor_len: list[int] = field(default_factory=list)
    link_count: list[int] = field(default_factory=list)
    node_count: list[int] = field(default_factory=list)
    runs: list[TextRun] = field(default_factory=list)
    links: list[LinkRef] = field(default_factory=list)
    images: list[ImageRef] = field(default_factory=list)
    title: str = ""
    meta_title: str = ""
    base_url: str | None = None
    lang_attr: str = ""
    hidden_nodes: int = 0
    #: The deepest nesting of a listed element below the root, in edges.
    depth: int = 0
    _own_punct: list[int] | None = None
    _l_count: list[int] | None = None
    #: Answers worked out from the lists above and kept for later questions of the same
    #: kind (the answers of :func:`climb`, a list of positions), by the asker's key.
    memo: dict[str | tuple[object, ...], Any] = field(
        default_factory=dict, repr=False, compare=False
    )

    @property
    def own_punct(self) -> list[int]:
        """Punctuation characters in each node's own text (counted on first use: only the
        Quark classifier needs them)."""
        if self._own_punct is None:
            counts = [0] * len(self.tags)
            for run in self.runs:
                if run.length:
                    counts[run.owner] += punctuation_count(run.text)
            self._own_punct = counts
        return self._own_punct

    @property
    def l_count(self) -> list[int]:
        """Subtree counts of visible L-class (line-level) elements (counted on first use:
        the extraction never asks)."""
        if self._l_count is None:
            l_class = TagClass.L
            counts = [
                1 if (cls is l_class and vis) else 0
                for cls, vis in zip(self.classes, self.visible, strict=False)
            ]
            parents = self.parents
            for i in range(len(counts) - 1, 0, -1):
                counts[parents[i]] += counts[i]
            self._l_count = counts
        return self._l_count

    @property
    def punct_count(self) -> list[int]:
        """Subtree totals of :attr:`own_punct`."""
        totals = self.own_punct[:]
        parents = self.parents
        for i in range(len(totals) - 1, 0, -1):
            totals[parents[i]] += totals[i]
        return totals

    def __len__(self) -> int:
        return len(self.tags)

    def link_density(self, node: int) -> float:
        """Anchor chars / all chars of a node's subtree (0-1; 0 without text)."""
        total = self.text_len[node]
        return self.anchor_len[node] / total if total else 0.0


def climb(
    parents: list[int], node: int, passes: Callable[[int], bool], known: dict[int, int]
) -> int:
    """The nearest ancestor-or-self of ``node`` that is the root (or above it) or that
    does not ``pass``: ``while node > 0 and passes(node): node = parents[node]``.

    ``known`` remembers the answer of every node climbed through, for later climbs with
    the same ``passes`` (``PageModel.memo`` keeps one per question): a climb stops at the
    first node already answered, so climbs from every node of a page cost its size, not
    its size times its depth."""
    climbed: list[int] = []
    while node > 0 and passes(node):
        answer = known.get(node)
        if answer is not None:
            node = answer
            break
        climbed.append(node)
        node = parents[node]
    for passed in climbed:
        known[passed] = node
    return node


def within(
    element: etree._Element,
    is_container: Callable[[etree._Element], bool],
    known: dict[etree._Element, bool],
) -> bool:
    """Whether an ancestor of ``element`` (not the element itself) ``is_container``:
    the lxml counterpart of :func:`climb`. ``known`` remembers, for every element climbed
    through, whether it is a container or sits in one, for later questions with the same
    ``is_container``: the elements of a page asked one by one cost its size, not its size
    times its depth. (The dict keeps each element's Python proxy alive, so identities hold
    while they are compared.)"""
    climbed: list[etree._Element] = []
    answer = False
    node = element.getparent()
    while node is not None:
        found = known.get(node)
        if found is not None:
            answer = found
            break
        climbed.append(node)
        if is_container(node):
            answer = True
            break
        node = node.getparent()
    for passed in climbed:
        known[passed] = answer
    return answer


def collapse_ws(text: str) -> str:
    """Collapse whitespace runs (including NBSP and U+3000) to one space; a leading or
    trailing run becomes one space too (``str.split`` is several times faster than a
    regular expression here, and uses the same Unicode whitespace)."""
    if not text:
        return text
    collapsed = " ".join(text.split())
    if text[0].isspace():
        collapsed = " " + collapsed if collapsed else " "
        if len(text) > 1 and text[-1].isspace() and collapsed != " ":
            collapsed += " "
    elif text[-1].isspace():
        collapsed += " "
    return collapsed


def punctuation_count(text: str) -> int:
    """Number of punctuation characters in ``text`` (see :data:`PUNCTUATION`)."""
    return len(text) - len(text.translate(_PUNCT_DELETE))


def dimension(value: str | None) -> int | None:
    """The leading integer of a ``width``/``height`` attribute ("300", "300px"), or None."""
    if not value:
        return None
    match = _INT_RE.match(value.strip())
    return int(match.group()) if match else None


def image_src(el: etree._Element) -> str | None:
    """The URL an ``<img>`` loads, as written: a lazy-loading attribute first (the ``src``
    of a lazy image is a placeholder), then ``src``; None for inline ``data:`` images."""
    for attribute in LAZY_SRC_ATTRIBUTES:
        value: str | None = el.get(attribute)
        if value and not value.startswith("data:"):
            return value.split()[0] if attribute.endswith("srcset") else value
    src: str | None = el.get("src")
    if src and not src.startswith("data:"):
        return src
    return None
