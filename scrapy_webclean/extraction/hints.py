"""Class and id hints: what page authors call their containers, per node of a page.

Words in ``class`` and ``id`` attributes are the cheapest strong signal there is: a
container named ``comments``, ``related-posts`` or ``sidebar`` is not the article, one
named ``article-body`` or ``post-content`` probably is (the words, and how one container's
words are read, are :mod:`hintwords`'s). A hint is ignored on a container that holds most of the page's
prose (``prose`` per node, in text units): wrappers often carry layout words
(``has-sidebar``, ``penci_sidebar``, ``content-wrap``) that say nothing about the text inside,
except a consent dialog's and a comment section's names (a long thread under a short post).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable

from lxml import etree

from scrapy_webclean.extraction.hintwords import (
    NEUTRAL,
    QA_POST_RE,
    STRONG_NEGATIVE,
    classify_parts,
    names_comments,
    names_consent,
    resolve_hint,
)
from scrapy_webclean.html.pagemodel import PageModel, climb

#: A container named for navigation (:data:`~scrapy_webclean.extraction.hintwords.NAVIGATION_RE`)
#: is read for its other words when it holds at least this much prose (text units) and at
#: most this share of links: a section of the text that an in-page menu points to.
NAVIGATION_PROSE_MIN_UNITS = 100.0
NAVIGATION_MAX_LINK_SHARE = 0.2

#: A hinted container holding more than this share of the page's prose is not judged.
MAX_HINTED_SHARE = 0.5
#: Nor is one holding more than this share of the page's text, prose or not: a wrapper of
#: the whole page, whatever its name (``flex-wrap-footer`` around a list of papers).
WRAPPER_TEXT_SHARE = 0.9
#: A ``<nav>``, ``<aside>``, ``<footer>``, ``<figcaption>``, ``<dialog>`` or ``<marquee>``
#: (:data:`_NEGATIVE_TAGS`), or what its markup names as never the text
#: (:func:`_marked_not_text`), is strong negative unless it holds more than this share of
#: the page's prose (a page that wraps it all).
NEGATIVE_TAG_MAX_PROSE_SHARE = 0.9
#: A side column holding more than this share of the page's text is its main column (a
#: shop's "right column" beside the filters, holding the grid of items), not a sidebar.
SIDE_COLUMN_MAX_TEXT_SHARE = 0.25

#: Elements that are never main text by their tag alone: figure captions are image
#: descriptions (ground truths of the extraction benchmarks leave them out), a
#: ``<dialog>`` is a popup over the page (hidden until opened: a sign-up form, a notice)
#: and a ``<marquee>`` a ticker scrolling across it.
_NEGATIVE_TAGS = frozenset(("nav", "aside", "footer", "figcaption", "dialog", "marquee"))
#: HTML's sectioning elements (and ``<main>``): a ``<header>`` inside one heads that
#: section or article; a ``<header>`` outside them all is the page's banner.
SECTIONING_TAGS = frozenset(("article", "aside", "main", "nav", "section"))
#: ARIA roles of what is never the page's text: its footer (``contentinfo``) and a side
#: part (``complementary``), like the tags ``<footer>`` and ``<aside>``, and a select
#: widget's list of options (``listbox``, ``option``).
NOT_TEXT_ROLES = frozenset(("contentinfo", "complementary", "listbox", "option"))
#: Finds the roles that :func:`_marked_not_text` reads (and ``banner``) among a
#: container's words, where its ``role`` is (a quick test before the attribute's).
_NOT_TEXT_ROLE_WORDS = re.compile("|".join(sorted(NOT_TEXT_ROLES | {"banner"})))

_HINTED_TAGS = frozenset(
    [
        "div",
        "section",
        "article",
        "aside",
        "main",
        "header",
        "footer",
        "nav",
        "ul",
        "ol",
        "dl",
        "table",
        "td",
        "form",
        "span",
        "p",
    ]
)


#: ARIA roles of what a page shows beside its text: notices to the reader (``alert``,
#: ``status``, ``alertdialog``: "Added to cart", "Something went wrong") and ``tooltip``.
#: (Read from ``role`` alone: a class named "alert" is often a callout of the text.)
NOTICE_ROLES = frozenset(("alert", "status", "alertdialog", "tooltip"))
#: schema.org properties (microdata ``itemprop``) of what is said about the text: its
#: ``author`` (the byline, reported apart from the text).
ABOUT_TEXT_ITEMPROPS = frozenset(("author",))


def _beside_the_text(element: etree._Element) -> bool:
    """True for an element that its ARIA role or its microdata property names as
    something shown beside the text (:data:`NOTICE_ROLES`, :data:`ABOUT_TEXT_ITEMPROPS`)."""
    return element.get("role") in NOTICE_ROLES or element.get("itemprop") in ABOUT_TEXT_ITEMPROPS


#: Attributes whose words hint at a container's role.
_HINT_ATTRIBUTES = frozenset(("class", "id", "role", "itemprop"))


def node_hints(
    model: PageModel,
    prose: list[float],
    forum: bool = False,
    product: Callable[[], bool] | None = None,
) -> list[int]:
    """Per node: the hint of its nearest hinted ancestor-or-self (one of the constants).

    ``prose[i]`` is the prose (in text units) of node ``i``'s subtree; on a ``forum``
    thread, comment and reply containers are not negative (the posts are the content),
    but in a question or an answer of a Q&A thread (:data:`QA_POST_RE`) they are; a
    notice or a tooltip by its ARIA role (:data:`NOTICE_ROLES`) and a byline by its
    microdata property (:data:`ABOUT_TEXT_ITEMPROPS`) are strong negative, and so is
    what the markup names as never the text, like ``<nav>``, ``<aside>`` and ``<footer>``
    (:func:`_marked_not_text`: the page's banner, its footer and side parts as HTML or
    ARIA name them, ``data-nosnippet``), unless it holds nearly all of the page's prose;
    on a product page, review and rating containers are (``REVIEW_RE``) and side columns
    are not. A side column holding more than ``SIDE_COLUMN_MAX_TEXT_SHARE`` of the page's
    text is no sidebar on any page. A container holding more than ``MAX_HINTED_SHARE`` of
    the page's prose or ``WRAPPER_TEXT_SHARE`` of its text is a wrapper: its name is not
    read (but for a consent dialog's and, off a forum, a comment section's).
    ``product()`` says whether the page is a product's; it is asked only when a
    container's words make it matter (the look at the page's markup costs time).
    """
    n = len(model)
    total = prose[0] if n else 0.0
    limit = MAX_HINTED_SHARE * total
    negative_limit = NEGATIVE_TAG_MAX_PROSE_SHARE * total
    page_text = model.text_len[0] if n else 0
    wrapper_limit = WRAPPER_TEXT_SHARE * page_text
    side_limit = SIDE_COLUMN_MAX_TEXT_SHARE * page_text
    hints = [NEUTRAL] * n
    # (on a thread: whether a node is in a question or an answer, where comments are asides)
    in_qa_post = [False] * n
    tags, parents, elements, text_len = model.tags, model.parents, model.elements, model.text_len
    hinted, negative_tags, attributes = _HINTED_TAGS, _NEGATIVE_TAGS, _HINT_ATTRIBUTES
    for i in range(1, n):
        if not text_len[i]:
            # No visible text below: no line sits here, so its hint is never asked for.
            continue
        inherited = hints[parents[i]]
        if inherited == STRONG_NEGATIVE:
            # Inside a strong-negative container everything stays negative ("sidebar"
            # holding "post" widgets): its own words need not be read.
            hints[i] = inherited
            continue
        tag = tags[i]
        own = NEUTRAL
        in_post = forum and in_qa_post[parents[i]]
        if tag in hinted:
            words = " ".join([value for key, value in elements[i].items() if key in attributes])
            # Comments are posts on a thread, but not inside a question or an answer.
            posts = forum and not in_post
            if posts and words and QA_POST_RE.search(words.lower()):
                in_post = True
            if prose[i] > limit or text_len[i] > wrapper_limit:
                # A wrapper's layout words say nothing of the text in it, but a consent
                # dialog is never the page's text, however much of its prose it holds,
                # nor (but for a thread's posts) the readers' comments under a short post.
                if words and (names_consent(words) or (not posts and names_comments(words))):
                    own = STRONG_NEGATIVE
            else:
                if words:
                    prose_not_links = (
                        prose[i] >= NAVIGATION_PROSE_MIN_UNITS
                        and model.anchor_len[i] <= NAVIGATION_MAX_LINK_SHARE * text_len[i]
                    )
                    own, side, review = classify_parts(words, tag, posts, prose_not_links)
                    side = side and text_len[i] <= side_limit
                    if side or review:
                        own = resolve_hint(own, side, review, product is not None and product())
                if own == NEUTRAL and tag == "form" and _fill_in(model, i):
                    own = STRONG_NEGATIVE
                if own != STRONG_NEGATIVE and words and _beside_the_text(elements[i]):
                    own = STRONG_NEGATIVE
        # The tags themselves are reliable: only a page that wraps nearly all its prose in
        # one of them is spared, and a weak word in their names (the "nav" of
        # ``<nav class="site-nav">``) does not soften them.
        if own <= NEUTRAL and tag in negative_tags and prose[i] <= negative_limit:
            own = STRONG_NEGATIVE
        if (
            own != STRONG_NEGATIVE
            and tag in hinted
            and prose[i] <= negative_limit
            # (a quick test first: most elements have no such role, mark or tag)
            and (
                tag == "header"
                or (words and _NOT_TEXT_ROLE_WORDS.search(words) is not None)
                or elements[i].get("data-nosnippet") is not None
            )
            and _marked_not_text(model, i, own)
        ):
            own = STRONG_NEGATIVE
        # Otherwise the nearest hinted container decides.
        hints[i] = inherited if own == NEUTRAL else own
        in_qa_post[i] = in_post
    return hints


def _marked_not_text(model: PageModel, node: int, hint: int) -> bool:
    """True for an element that its markup names as never the page's text: an ARIA role
    of :data:`NOT_TEXT_ROLES`, whatever its class says (``contentinfo`` itself reads as
    "content"); Google's ``data-nosnippet`` (text kept out of search results: notices,
    widgets, print footers); or the page's banner (a ``<header>`` outside every
    sectioning element, :data:`SECTIONING_TAGS`, or ``role="banner"``), whose site name,
    menus and notices are never the text, unless its own words are positive (``hint``) or
    it holds the page's ``<h1>`` (a hero banner with the page's title and introduction)."""
    tags = model.tags
    element = model.elements[node]
    role = element.get("role")
    if role in NOT_TEXT_ROLES or element.get("data-nosnippet") is not None:
        return True
    banner = role == "banner" or (tags[node] == "header" and not _in_section(model, node))
    return banner and hint <= NEUTRAL and not _holds_h1(model, node)


def _holds_h1(model: PageModel, node: int) -> bool:
    """True when ``node``'s subtree holds an ``<h1>``: a search in the page's ``<h1>``
    positions (found once a page), not a scan of the subtree (headers in headers would
    each scan all below them)."""
    positions = model.memo.get(_H1_POSITIONS)
    if positions is None:
        positions = model.memo[_H1_POSITIONS] = [i for i, t in enumerate(model.tags) if t == "h1"]
    at = bisect_left(positions, node)
    return at < len(positions) and positions[at] < node + model.node_count[node]


_H1_POSITIONS = "hints: <h1> positions"


def _in_section(model: PageModel, node: int) -> bool:
    """True when an ancestor of ``node`` is a sectioning element (:data:`SECTIONING_TAGS`);
    each element is climbed through once a page (``pagemodel.climb``)."""
    tags, parents = model.tags, model.parents
    if parents[node] < 0:
        return False
    known = model.memo.setdefault(_NEAREST_SECTION, {})
    found = climb(parents, parents[node], lambda i: tags[i] not in SECTIONING_TAGS, known)
    return found >= 0 and tags[found] in SECTIONING_TAGS


_NEAREST_SECTION = "hints: nearest sectioning element"


#: A form to fill in has at least this many fields, and at most this many characters of
#: text per field (labels, consent and legal notices).
FORM_MIN_FIELDS = 3
FORM_MAX_CHARS_PER_FIELD = 300


def _fill_in(model: PageModel, node: int) -> bool:
    """True when a ``<form>`` is one for the reader to fill in (contact, sign-up, quote
    request): its text is labels and notices, not the page's. Forms that wrap content (a
    comment kept editable, a list of results with a sort box, an ASP.NET page) have few
    fields for their text."""
    # (Counted only as far as the answer needs: forms nested in forms would each count
    # all the fields below them.)
    needed = max(FORM_MIN_FIELDS, -(-model.text_len[node] // FORM_MAX_CHARS_PER_FIELD))
    fields = model.elements[node].iter("input", "textarea", "select")
    return any(count >= needed for count, _ in enumerate(fields, 1))
