"""The page's reader comments (``CleanOptions(include_comments=True)``), apart from its text.

1. *Threads*: an element whose ``class``, ``id``, microdata ``itemtype`` or ``itemprop``
   names reader comments (:func:`names_thread`: ``comments``, ``commentlist``,
   ``disqus_thread``, ``discussion``, ``replies``, a schema.org ``Comment`` ...) and that
   does not wrap the extraction's region (a body class ``comments-open`` says nothing of
   the article) starts a thread, unless it is a side column's or a widget's (a box of
   "Recent comments" on other posts: :data:`ASIDE_RE`) or a banner's; the thread is the
   outermost such element. Its lines that
   the extraction did not keep (nor report as metadata) are the thread's; ``text`` is
   never touched.
2. *Items*: the thread is split by its repeated child structure (:func:`_thread_items`):
   of every element in the thread, its children are grouped by tag and first class word
   (:func:`signature`, with the numbering and the odd/even variants left out); the group
   of at least two that holds the most text (twice over when its members name comments)
   is the list of comments. A child that begins the repeat ("dt" in Blogger's ``dt``,
   ``dd``, ``dd`` triples) starts a comment, the rest of one period follow it; an element
   deeper in the thread with the first's signature (a reply in ``ol.children``) is a
   comment of its own. A ``<form>``, and an item holding a ``<textarea>`` (the reply
   form), are never comments. A thread without a repeat is one comment.
3. *Fields* (:mod:`comment_fields`): each comment's author, date and text, and the
   JSON-LD ``comment`` objects of the page the markup's threads did not show.

Cost: nothing runs without the option. With it, one pass over the page's nodes (the
name test reads the attributes of the elements holding text, outside the threads found),
then passes over each thread's nodes (threads never nest: the outermost is taken), so
linear in the page's size; at most :data:`MAX_COMMENTS` comments are read.
"""

from __future__ import annotations

import re
from collections import Counter

from lxml import etree

from scrapy_webclean.extraction.comment_fields import (
    MAX_TOKEN_PARTS,
    CommentNodes,
    json_ld_comments,
    read_comment,
    token_parts,
)
from scrapy_webclean.extraction.extract import Extraction
from scrapy_webclean.html.pagemodel import PageModel
from scrapy_webclean.html.tagclasses import TagClass
from scrapy_webclean.result import Comment

#: Comments read per page, at most.
MAX_COMMENTS = 500
#: A class or id part naming a comment thread, or a comment ("comments", "commentlist",
#: "comment_list", "commentsContainer", "disqus_thread", "discussion", "replies").
THREAD_PART_RE = re.compile(
    r"(?:comments?|disqus|discussions?|replies|responses)"
    r"(?:list|listing|wrap|wrapper|area|threads?|section|box|container|content|holder|block|body|entry|text|s)?"
)
#: A quick test on a whole lower-cased ``class`` and ``id`` before the parts are read.
_THREAD_HINT_RE = re.compile(r"comment|disqus|discussion|replies|responses")
#: Class or id parts that make a comment word name something else: a count, a link or a
#: button to the thread, a state of the page, the form to write one, a box of the site's
#: latest or most commented posts ("widget_recent_comments", "most-commented").
NOT_THREAD_PARTS = frozenset(
    (
        "has", "no", "with", "without", "hide", "show", "toggle", "count", "counts",
        "number", "num", "link", "links", "icon", "btn", "button", "closed", "open",
        "form", "field", "input", "textarea", "submit", "rss", "feed", "policy", "rules",
        "guidelines", "notes", "login", "bubble", "tab", "tabs", "panel", "nav",
        "pagination", "legend", "recent", "latest", "popular", "most", "widget", "sidebar",
    )
)  # fmt: skip
#: Words of a side column or a widget box (lower-cased ``class`` and ``id``): no thread
#: inside one is the page's (a "Recent comments" box lists other posts' comments).
ASIDE_RE = re.compile(r"(?<![a-z0-9])(?:sidebar|side-bar|widget)")
#: Words of a page's or a section's header or footer (lower-cased ``class`` and ``id``):
#: no thread starts there ("comment footer" is the site's footer, in one style).
_BANNER_RE = re.compile(r"(?<![a-z0-9])(?:footer|header|masthead)")
#: Tags no thread starts at.
_BANNER_TAGS = frozenset(("header", "footer", "nav"))
#: schema.org types (the last part of a microdata ``itemtype``) and ``itemprop`` names
#: of reader comments.
THREAD_ITEMTYPES = frozenset(("comment", "usercomments"))
THREAD_ITEMPROPS = frozenset(("comment", "comments"))
#: The tags a comment item may have (a paragraph or a link is a part of one).
ITEM_TAGS = frozenset(
    (
        *("div", "li", "article", "section", "dd", "dt", "tr", "tbody", "table"),
        *("blockquote", "aside", "ul", "ol", "dl"),
    )
)
#: Class parts that say how an item is shown, not what it is (alternating rows, the
#: thread's levels): left out of :func:`signature`.
VARIANT_PARTS = frozenset(
    (
        "odd", "even", "alt", "first", "last", "parent", "child", "children", "new",
        "highlight", "highlighted", "selected", "active", "clearfix", "cf", "clear",
        "item", "byuser", "bypostauthor", "thread", "depth", "level", "top", "reply",
    )
)  # fmt: skip

_BLOCK_CLASSES = (TagClass.B, TagClass.L)
_FORM_TAGS = frozenset(("form", "textarea"))
_DIGIT_RE = re.compile(r"\d")


def page_comments(model: PageModel, extraction: Extraction) -> list[Comment]:
    """The page's reader comments, in page order (see the module docstring): the
    threads' comments, then the JSON-LD comments they did not show; at most
    :data:`MAX_COMMENTS`."""
    if not model.elements:
        return []
    found: list[Comment] = []
    lines = extraction.lines
    for thread, line_indexes in _threads(model, extraction).items():
        items = _thread_items(model, thread)
        by_node = {node: item for item in items for node in item.nodes}
        for i in line_indexes:
            item = by_node.get(lines[i].node)
            if item is not None:
                item.lines.append(lines[i])
        for item in items:
            if len(found) >= MAX_COMMENTS:
                return found
            comment = read_comment(model, item)
            if comment is not None:
                found.append(comment)
    seen = {comment.text for comment in found}
    for comment in json_ld_comments(model.elements[0]):
        if len(found) >= MAX_COMMENTS:
            break
        if comment.text not in seen:
            seen.add(comment.text)
            found.append(comment)
    return found


def names_thread(element: etree._Element) -> bool:
    """True when an element's microdata or its ``class`` and ``id`` words name reader
    comments (a thread or one comment: :data:`THREAD_PART_RE`, :data:`THREAD_ITEMTYPES`,
    :data:`THREAD_ITEMPROPS`), not a count, a link or a form (:data:`NOT_THREAD_PARTS`)."""
    if _names_thread_item(element):
        return True
    return names_thread_words(f"{element.get('id') or ''} {element.get('class') or ''}".lower())


def _names_thread_item(element: etree._Element) -> bool:
    """True when an element's microdata names a comment or the comments."""
    itemtype = element.get("itemtype")
    if itemtype and itemtype.rstrip("/").rsplit("/", 1)[-1].lower() in THREAD_ITEMTYPES:
        return True
    itemprop = element.get("itemprop")
    return bool(itemprop) and itemprop.lower() in THREAD_ITEMPROPS


def names_thread_words(words: str) -> bool:
    """True when lower-cased ``class`` and ``id`` words name reader comments (see
    :func:`names_thread`)."""
    if not _THREAD_HINT_RE.search(words):
        return False
    for token in words.split():
        parts = token_parts(token)
        if len(parts) > MAX_TOKEN_PARTS or not NOT_THREAD_PARTS.isdisjoint(parts):
            continue
        if any(THREAD_PART_RE.fullmatch(part) for part in parts):
            return True
    return False


def signature(element: etree._Element, tag: str) -> tuple[str, str]:
    """An item's tag and its first class word that is not a number's or a variant's
    (:data:`VARIANT_PARTS`): ``li.comment.even.depth-1`` and ``li.comment.odd`` are one."""
    for token in (element.get("class") or "").lower().split():
        if _DIGIT_RE.search(token):
            continue
        parts = [part for part in token_parts(token) if part not in VARIANT_PARTS]
        if parts:
            return tag, "-".join(parts)
    return tag, ""


def _threads(model: PageModel, extraction: Extraction) -> dict[int, list[int]]:
    """Thread node -> the indexes of its lines that were neither kept nor metadata."""
    lines = extraction.lines
    wanted = [
        i
        for i, (keep, meta) in enumerate(zip(extraction.kept, extraction.metadata, strict=False))
        if not keep and not meta
    ]
    if not wanted:
        return {}
    region = extraction.region
    elements, parents, classes = model.elements, model.parents, model.classes
    text_len, node_count = model.text_len, model.node_count
    tags = model.tags
    # (-1: in no thread; -2: in a side column, where no thread starts)
    thread = [-1] * len(elements)
    for i in range(1, len(elements)):
        above = thread[parents[i]]
        if above != -1:
            thread[i] = above
            continue
        if not text_len[i] or classes[i] not in _BLOCK_CLASSES:
            continue
        element = elements[i]
        words = f"{element.get('id') or ''} {element.get('class') or ''}".lower()
        if i <= region < i + node_count[i]:  # (a wrapper of the text is neither)
            continue
        if tags[i] == "aside" or ASIDE_RE.search(words):
            thread[i] = -2
        elif tags[i] in _BANNER_TAGS or _BANNER_RE.search(words):
            continue
        elif names_thread_words(words) or _names_thread_item(element):
            thread[i] = i
    threads: dict[int, list[int]] = {}
    for i in wanted:
        found = thread[lines[i].node]
        if found >= 0:
            threads.setdefault(found, []).append(i)
    return threads


def _form_parts(model: PageModel, start: int, end: int) -> tuple[list[bool], list[bool]]:
    """Per node of ``start .. end - 1`` (relative): whether it is or lies in a ``<form>``
    or a ``<textarea>``, and whether it holds a ``<textarea>`` (where a comment is
    written: the reply form)."""
    tags, parents = model.tags, model.parents
    size = end - start
    holds = [False] * size
    for c in range(end - 1, start, -1):
        if tags[c] == "textarea":
            holds[c - start] = True
        if holds[c - start]:
            holds[parents[c] - start] = True
    inside = [False] * size
    for c in range(start + 1, end):
        inside[c - start] = tags[c] in _FORM_TAGS or inside[parents[c] - start]
    return inside, holds


def _thread_items(model: PageModel, thread: int) -> list[CommentNodes]:
    """The comments of a thread, each as the nodes that are its own (in page order)."""
    tags, parents, elements = model.tags, model.parents, model.elements
    text_len, anchor_len = model.text_len, model.anchor_len
    end = thread + model.node_count[thread]
    in_form, holds_field = _form_parts(model, thread, end)
    signatures: dict[int, tuple[str, str]] = {}

    def sig(node: int) -> tuple[str, str]:
        found = signatures.get(node)
        if found is None:
            found = signatures[node] = signature(elements[node], tags[node])
        return found

    groups: dict[tuple[int, tuple[str, str]], list[int]] = {}
    # (a schema.org Comment is one comment, its replies aside)
    single = _names_thread_item(elements[thread])
    for c in range(thread + 1, end if not single else thread + 1):
        k = c - thread
        if text_len[c] and tags[c] in ITEM_TAGS and not in_form[k] and not holds_field[k]:
            groups.setdefault((parents[c], sig(c)), []).append(c)
    best: tuple[int, tuple[str, str]] | None = None
    best_score = 0
    for key, members in groups.items():
        if len(members) < 2:
            continue
        score = sum(text_len[m] - anchor_len[m] for m in members)
        if 2 * sum(1 for m in members if names_thread(elements[m])) > len(members):
            score *= 2
        if score > best_score:
            best, best_score = key, score
    owner = [-1] * (end - thread)
    if best is None:  # no repeat: the thread is one comment
        for c in range(thread, end):
            if c == thread or not in_form[c - thread]:
                owner[c - thread] = thread
        return _collect(model, thread, end, owner)
    container, chosen = best
    kids = [
        c
        for c in range(container + 1, container + model.node_count[container])
        if parents[c] == container
        and text_len[c]
        and not in_form[c - thread]
        and not holds_field[c - thread]
    ]
    counts = Counter(sig(k) for k in kids)
    period = counts[chosen]
    first = next(i for i, k in enumerate(kids) if sig(k) == chosen)
    while first > 0 and counts[sig(kids[first - 1])] == period:
        first -= 1
    start_sig = sig(kids[first])
    followers = {key for key, count in counts.items() if count == period and key != start_sig}
    segment = -1
    nested = bool(start_sig[1])
    for c in range(thread + 1, end):
        k = c - thread
        if in_form[k]:
            continue
        p = parents[c]
        if p == container:
            if not text_len[c] or holds_field[k]:
                continue
            kid_sig = sig(c)
            if kid_sig == start_sig:
                segment = c
            elif kid_sig not in followers:
                continue
            owner[k] = segment
        elif nested and tags[c] == start_sig[0] and text_len[c] and sig(c) == start_sig:
            owner[k] = c
        elif p > thread:
            owner[k] = owner[p - thread]
    return _collect(model, thread, end, owner)


def _collect(model: PageModel, thread: int, end: int, owner: list[int]) -> list[CommentNodes]:
    """The comments' own nodes by their first node (``owner``, relative to ``thread``),
    in the order the comments begin."""
    by_start: dict[int, CommentNodes] = {}
    tags, text_len = model.tags, model.text_len
    for c in range(thread, end):
        start = owner[c - thread]
        if start < 0 or not (text_len[c] or tags[c] in ("time", "meta")):
            continue
        nodes = by_start.get(start)
        if nodes is None:
            nodes = by_start[start] = CommentNodes(start, [], [])
        nodes.nodes.append(c)
    return list(by_start.values())
