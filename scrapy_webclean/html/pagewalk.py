"""The walk that builds a page's :class:`~scrapy_webclean.html.pagemodel.PageModel`: one
iterative pass over an lxml tree (``lxml.etree.iterwalk``), then the per-node counts in
bulk.

The walk reads each element's tag class and role once per distinct tag (a cached table),
skips invisible subtrees (S-class tags, ``hidden`` and inline ``display: none`` elements,
but not tab panels), collects the text runs, links and images, and marks the customised
(C) nodes of docs/algorithms.md section 4: the default tags and the date-line patterns.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from lxml import etree

from scrapy_webclean.html.pagemodel import (
    ImageRef,
    LinkRef,
    PageModel,
    TextRun,
    UrlResolver,
    collapse_ws,
    image_src,
    within,
)
from scrapy_webclean.html.tagclasses import BREAK_TAGS, TAG_CLASSES, TagClass, tag_class
from scrapy_webclean.text.datepatterns import DATE_LINE_PATTERNS
from scrapy_webclean.urls import absolute_url

_HIDDEN_STYLE_RE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)
_DIGIT_RE = re.compile(r"\d")

#: Default customised (C) tags: the headline is its own block.
DEFAULT_CUSTOM_TAGS: tuple[str, ...] = ("h1",)

#: Default customised patterns: a date line (news byline) becomes its own block (the date
#: forms of ``text.datepatterns``, the ones ``extraction.dates`` reads a date in, less the
#: ordinal day and the comma after the month).
DEFAULT_CUSTOM_PATTERNS: tuple[str, ...] = DATE_LINE_PATTERNS

_DATE_PATTERN_SOURCES = frozenset(
    (*DEFAULT_CUSTOM_PATTERNS, "|".join(f"(?:{p})" for p in DEFAULT_CUSTOM_PATTERNS))
)

#: A pattern-matched line longer than this (chars) is body text, not a byline.
CUSTOM_PATTERN_MAX_CHARS = 100


def _read_head(root: etree._Element, model: PageModel, url: str | None) -> None:
    # Searched in <head> first (a whole-tree search costs as much as a tenth of the walk).
    head = root.find("head")
    scope = head if head is not None else root
    title = scope.find("title")
    if title is None:
        title = _document_title(root)
    if title is not None:
        model.title = collapse_ws(title.xpath("string()")).strip()
    base = scope.find("base[@href]")
    model.base_url = absolute_url(url, base.get("href", "")) if base is not None else url
    for meta in scope.iterfind("meta[@property='og:title']"):
        model.meta_title = collapse_ws(meta.get("content", "")).strip()
        break
    model.lang_attr = (root.get("lang") or "").strip().lower()


#: Elements whose ``<title>`` names a drawing, not the page: an SVG icon's ("LinkedIn")
#: or a formula's.
_GRAPHICS_TAGS = frozenset(("svg", "math"))


def _document_title(root: etree._Element) -> etree._Element | None:
    """The first ``<title>`` of a page whose ``<head>`` has none, outside any SVG or MathML
    drawing (the title of an inline icon is the icon's name). Each element is asked once
    whether it is in a drawing: many icons' titles deep down cost the page's size, not
    its size times its depth."""
    drawn: dict[etree._Element, bool] = {}
    for title in root.iter("title"):
        if not within(title, _is_drawing, drawn):
            return title
    return None


def _is_drawing(element: etree._Element) -> bool:
    return element.tag in _GRAPHICS_TAGS


# The walk's roles of a tag.
_PLAIN, _BREAK, _ANCHOR, _IMAGE, _INVISIBLE, _NOSCRIPT = 0, 1, 2, 3, 4, 5

#: Ruby annotations (the reading of a word printed above it) and their fallback
#: parentheses: the walk reads the base text only ("子供", not "子こども供").
RUBY_ANNOTATION_TAGS = frozenset(("rt", "rp"))

#: Markup in the text of a ``<noscript>``: a parser that reads ``<noscript>`` as raw text
#: (as browsers running scripts do) leaves its tags as text, e.g. a tracking pixel's
#: ``<img src="//example.com/pixel.gif?...">``. Tags (whole, or cut off at the end) and
#: comments; what is left between them is the text.
_NOSCRIPT_MARKUP_RE = re.compile(r"<(?:/?[A-Za-z][^<>]*(?:>|$)|!--.*?(?:-->|$)|![^<>]*>)", re.S)
#: A tag's or a comment's start.
_MARKUP_START_RE = re.compile(r"<(?:/?[A-Za-z][-\w:]*+(?:[\s/>]|$)|!)")


def _has_markup(text: str) -> bool:
    """True for text with a tag (``<img src=...``, ``</p>``) or a comment in it."""
    return _MARKUP_START_RE.search(text) is not None


def markup_free(text: str) -> str:
    """``text`` without the tags and comments written in it (see
    :data:`_NOSCRIPT_MARKUP_RE`); a tag leaves a space so that words do not run together."""
    return _NOSCRIPT_MARKUP_RE.sub(" ", text)


# The walk's per-tag table: (name, Quark class, role in the walk).
_WALK_INFO: dict[object, tuple[str, TagClass, int]] = {}
#: Distinct tags the table keeps at most (custom element names are unlimited).
_WALK_INFO_MAX_TAGS = 10_000
_NO_INFO = ("", TagClass.A, _PLAIN)


def _walk_info(tag: object) -> tuple[str, TagClass, int]:
    """The walk's facts about a tag (computed once per distinct tag, then cached)."""
    if not isinstance(tag, str):  # a comment or processing instruction
        return _NO_INFO
    cls = TAG_CLASSES.get(tag) or tag_class(tag)
    if cls is TagClass.S or tag in RUBY_ANNOTATION_TAGS:
        role = _INVISIBLE
    elif tag == "noscript":
        role = _NOSCRIPT
    elif tag == "a":
        role = _ANCHOR
    elif tag == "img":
        role = _IMAGE
    elif tag in BREAK_TAGS:
        role = _BREAK
    else:
        role = _PLAIN
    info = (tag, cls, role)
    if len(_WALK_INFO) < _WALK_INFO_MAX_TAGS:
        _WALK_INFO[tag] = info
    return info


#: Tab panels, accordion sections and collapsed panels: hidden until their tab or toggle is
#: chosen, but content (a product's description, a service's details, a documentation
#: page's examples).
_PANEL_RE = re.compile(
    r"(?<![a-z0-9])(?:tab-?pane|tab-?panel|tab-?content|accordion|collaps)", re.I
)


def _is_panel(el: etree._Element) -> bool:
    """True for a tab panel (ARIA ``role="tabpanel"``, or a class or id naming one)."""
    if el.get("role") == "tabpanel":
        return True
    words = (el.get("class") or "") + " " + (el.get("id") or "")
    return _PANEL_RE.search(words) is not None


def build_page_model(
    root: etree._Element,
    url: str | None = None,
    custom_tags: Iterable[str] = DEFAULT_CUSTOM_TAGS,
    custom_patterns: Iterable[str | re.Pattern[str]] = DEFAULT_CUSTOM_PATTERNS,
    honor_hidden: bool = True,
) -> PageModel:
    """Walk the tree once (iteratively) and return its :class:`PageModel`.

    ``custom_tags`` (lower-case tag names) and ``custom_patterns`` (regular expressions over
    a node's own text) set the C mark of docs/algorithms.md section 4: a node carrying it becomes
    its own block. A pattern marks the nearest B or L ancestor-or-self of the text, and only
    when that node holds at most :data:`CUSTOM_PATTERN_MAX_CHARS` characters.

    Elements with the ``hidden`` attribute or an inline ``display: none`` are invisible
    (counted in ``hidden_nodes``) unless ``honor_hidden`` is False: script-driven pages
    (React streaming, for one) ship their whole content hidden and reveal it with script.
    Hidden tab panels and accordion sections stay visible: a click shows them.

    Ruby annotations (``<rt>``, ``<rp>``) are not read (their tails are): the base text
    stays whole. Tags that a parser left as text inside a ``<noscript>`` (a tracking
    pixel's ``<img src=...>``) are removed from that text (:func:`markup_free`).
    """
    model = PageModel()
    _read_head(root, model, url)
    resolve = UrlResolver(model.base_url)
    custom_tag_set = frozenset(t.lower() for t in custom_tags)

    elements, tags, classes, parents = model.elements, model.tags, model.classes, model.parents
    visible, runs, links, images = model.visible, model.runs, model.links, model.images
    add_element, add_tag, add_class = elements.append, tags.append, classes.append
    add_parent, add_visible = parents.append, visible.append

    # This loop runs once per element of every page cleaned: it is kept lean on purpose
    # (per-node counts are filled in afterwards from the runs and links, in bulk; one dict
    # lookup per tag gives its class and role in the walk).
    # The open elements: their nodes (after -1, the parent of the root) and their roles
    # in the walk (_PLAIN when hidden), two stacks so that no tuple is built per element.
    # Only the children of visible elements are walked, so a tail's owner is visible.
    nodes: list[int] = [-1]
    roles: list[int] = []
    push_node, pop_node, push_role, pop_role = nodes.append, nodes.pop, roles.append, roles.pop
    anchor_stack: list[tuple[int, LinkRef | None, str | None]] = []  # (node, link, href)
    pending_break = False
    pending_space = False
    in_noscript = 0  # open <noscript> elements
    hidden_count = 0
    deepest = 0
    index = -1
    walk_info = _WALK_INFO.get

    walker = etree.iterwalk(root, events=("start", "end"))
    for event, el in walker:
        if event == "start":
            index += 1
            tag = el.tag
            info = walk_info(tag)
            if info is None:
                info = _walk_info(tag)
            name, cls, role = info
            parent = nodes[-1]
            is_visible = role != _INVISIBLE
            # (aria-hidden hides from screen readers only: such text is on screen.)
            if is_visible and honor_hidden:
                style = el.get("style")
                if (
                    (style and _HIDDEN_STYLE_RE.search(style)) or el.get("hidden") is not None
                ) and not _is_panel(el):
                    is_visible = False
                    hidden_count += 1
            add_element(el)
            add_tag(name)
            add_class(cls)
            add_parent(parent)
            add_visible(is_visible)
            push_node(index)
            if len(nodes) > deepest:
                deepest = len(nodes)
            if not is_visible:
                push_role(_PLAIN)
                walker.skip_subtree()
                continue
            push_role(role)
            if role:
                if role == _BREAK:
                    pending_break = True
                elif role == _ANCHOR:
                    href = el.get("href")
                    href = href.strip() if href else None
                    link = None
                    if href and not href.startswith(("javascript:", "#")):
                        link = LinkRef(index, href, len(runs), -1, resolve, runs)
                        links.append(link)
                    else:
                        href = None
                    anchor_stack.append((index, link, href))
                elif role == _NOSCRIPT:
                    in_noscript += 1
                elif role == _IMAGE:
                    src = image_src(el)
                    if src:
                        images.append(
                            ImageRef(
                                index,
                                len(runs),
                                src,
                                anchor_stack[-1][2] if anchor_stack else None,
                                el,
                                resolve,
                            )
                        )
            raw = el.text
            owner = index
        else:
            closed, role = pop_node(), pop_role()
            if role:
                if role == _BREAK:
                    pending_break = True
                elif role == _ANCHOR and anchor_stack and anchor_stack[-1][0] == closed:
                    link = anchor_stack.pop()[1]
                    if link is not None:
                        link.end_run = len(runs)
                elif role == _NOSCRIPT:
                    in_noscript -= 1
            raw = el.tail
            owner = nodes[-1]
            if not raw or owner < 0:
                continue
        # One piece of text, owned by ``owner`` (an element's text or a child's tail).
        if not raw:
            continue
        if in_noscript and "<" in raw and tags[owner] == "noscript" and _has_markup(raw):
            # Markup a parser left as text inside <noscript> is not text. (Only the
            # noscript's own text: a script-rendered page's copy in <noscript> has its
            # text in elements, where "<div>" is the name of a tag in a sentence.)
            raw = markup_free(raw)
        if raw.isspace():  # indentation between tags: most text nodes, no regex needed
            pending_space = True
            continue
        # (Printable text has no whitespace but the ASCII space: without a double space it
        # is collapsed already, the common case, and spared the split and join.)
        text = raw if raw.isprintable() and "  " not in raw else collapse_ws(raw)
        if pending_space and text[0] != " ":
            text = " " + text
        pending_space = False
        # (the collapsed text has at most one space at each end, and a non-space inside)
        length = len(text) - (text[0] == " ") - (text[-1] == " ")
        runs.append(TextRun(owner, text, bool(anchor_stack), pending_break, length))
        pending_break = False

    model.hidden_nodes = hidden_count
    model.depth = max(deepest - 2, 0)  # (the stack holds -1 and the root at depth 0)
    _own_counts(model, custom_tag_set)
    _subtree_totals(model)
    if custom_patterns:
        _mark_custom_patterns(model, custom_patterns)
    return model


def _own_counts(model: PageModel, custom_tag_set: frozenset[str]) -> None:
    n = len(model.tags)
    own_text = [0] * n
    own_anchor = [0] * n
    for run in model.runs:
        own_text[run.owner] += run.length
        if run.anchor:
            own_anchor[run.owner] += run.length
    own_links = [0] * n
    for link in model.links:
        own_links[link.node] = 1
    model.own_text, model.own_anchor, model.own_links = own_text, own_anchor, own_links
    model.custom = [name in custom_tag_set for name in model.tags]


def _subtree_totals(model: PageModel) -> None:
    n = len(model.tags)
    text_len = model.own_text[:]
    anchor_len = model.own_anchor[:]
    link_count = model.own_links[:]
    node_count = [1] * n
    parents = model.parents
    for i in range(n - 1, 0, -1):
        p = parents[i]
        text_len[p] += text_len[i]
        anchor_len[p] += anchor_len[i]
        link_count[p] += link_count[i]
        node_count[p] += node_count[i]
    model.text_len, model.anchor_len = text_len, anchor_len
    model.link_count, model.node_count = link_count, node_count


def _mark_custom_patterns(model: PageModel, patterns: Iterable[str | re.Pattern[str]]) -> None:
    compiled = [p if isinstance(p, re.Pattern) else re.compile(p) for p in patterns]
    if not compiled:
        return
    classes, parents, text_len = model.classes, model.parents, model.text_len
    # Every default pattern is a date: no digit, no match (a cheap first test).
    digits_needed = all(p.pattern in _DATE_PATTERN_SOURCES for p in compiled)
    longest = CUSTOM_PATTERN_MAX_CHARS + 2  # (a run may keep a space at each end)
    has_digit = _DIGIT_RE.search
    # (The short runs with a digit are found in one comprehension: most runs are not.)
    candidates = [
        run
        for run in model.runs
        if len(run.text) <= longest and (not digits_needed or has_digit(run.text))
    ]
    for run in candidates:
        if not any(p.search(run.text) for p in compiled):
            continue
        node = run.owner
        while node > 0 and classes[node] not in (TagClass.B, TagClass.L):
            node = parents[node]
        if node > 0 and text_len[node] <= CUSTOM_PATTERN_MAX_CHARS:
            model.custom[node] = True
