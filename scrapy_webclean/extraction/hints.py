"""Class and id hints: what page authors call their containers.

Words in ``class`` and ``id`` attributes are the cheapest strong signal there is: a
container named ``comments``, ``related-posts`` or ``sidebar`` is not the article, one
named ``article-body`` or ``post-content`` probably is. Only generic words are listed
(never a site's own names). A hint is ignored on a container that holds most of the page's
prose (``prose`` per node, in text units): wrappers often carry layout words
(``has-sidebar``, ``penci_sidebar``, ``content-wrap``) that say nothing about the text inside,
except a consent dialog's and a comment section's names (a long thread under a short post).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from lxml import etree

from scrapy_webclean.html.pagemodel import PageModel

# Every word must start a class token or a part of one ("menu", "main-menu", "menu_item",
# "sidebarLeft"), so that "contextmenu" or "timeshare" do not count. The patterns read
# lower-cased words (case-insensitive patterns cost twice as much in Python's engine).
_START = r"(?<![a-z0-9])"

#: Reader comments: noise on an article, the content itself on a forum thread.
COMMENT_RE = re.compile(_START + r"(?:comment|disqus|respond|replies|reply)")
#: A question or an answer of a Q&A thread (Stack Exchange's ``question`` and ``answer``
#: containers): the comments inside one are asides to it, not the thread's posts.
QA_POST_RE = re.compile(_START + r"(?:answer|question)")
#: Customer reviews, ratings and questions: on a product page they are what comments are
#: on an article (the product's description is the content); elsewhere (a review site, a
#: product review article, a help page) they may be the text itself, so only product
#: pages read them.
REVIEW_RE = re.compile(_START + r"(?:(?:reviews?|ratings?|faqs?)(?![a-z])|customerreviews?|ugc)")
#: The navigation words of :data:`STRONG_NEGATIVE_RE`. Navigation is links: a container
#: named for it that holds prose, not links (:data:`NAVIGATION_PROSE_MIN_UNITS`,
#: :data:`NAVIGATION_MAX_LINK_SHARE`), is read for its other words ("content-nav-section":
#: a section of the text that an in-page menu points to).
_NAVIGATION_WORDS = r"navbar|menu|nav-|navigation|breadcrumb|pagination|pager"
NAVIGATION_RE = re.compile(_START + f"(?:{_NAVIGATION_WORDS})")
NAVIGATION_PROSE_MIN_UNITS = 100.0
NAVIGATION_MAX_LINK_SHARE = 0.2
#: Containers that are never main content, whatever they hold. (A caption, but not a
#: type scale's size: "caption-s" styles small text, as "body-m" styles body text. An
#: author's box: the writer's biography under an article, "author-bio", "about-the-author".
#: A box of the site's latest posts or news beside the text: "latest-posts".)
STRONG_NEGATIVE_RE = re.compile(
    _START
    + r"(?:related|ticker|breaking-?news|recommend|more-stories|read-more|also-read|share|sharing|social|"
    r"sidebar|side-bar|footer|newsletter|subscri|cookie|consent|outbrain|signature|footnotes|"
    r"taboola|promo|sponsor|advert|adsense|dfp|masthead|popup|"
    r"modal|dialog|popover|signup|sign-up|login|trending|popular|most-read|mostread|tag-?list|tagcloud|"
    r"caption(?!-(?:xs|s|m|l|xl|sm|md|lg)(?![a-z0-9]))|credit|sr-only|"
    r"visually-?hidden|screen-?reader|a11y-hidden|reactions?(?![a-z])|feedback|"
    r"author[-_]?(?:bio|box|info|desc|details|card|profile)|about[-_]?the[-_]?author|bio(?![a-z])|latest|"
    + _NAVIGATION_WORDS
    + ")",
)
#: Containers of a cookie or consent dialog: strong negative whatever share of the page's
#: prose they hold (a consent platform's purposes can outweigh a listing's text).
CONSENT_CONTAINER_RE = re.compile(_START + r"(?:cookie|consent|gdpr)")
#: Class tokens naming the post's own tags, categories and author (WordPress writes
#: ``tag-cookies category-recipes`` on a post's wrapper, TypePad
#: ``entry-category-social_media entry-author-jane``): the text's subject, not the
#: container's role.
_TAXONOMY_TOKEN_RE = re.compile(
    r"(?:tag|category|post_tag)-|(?:entry|post|article|node)-(?:tag|category|author)-"
)


def _names_consent(words: str) -> bool:
    """True when a container's words name a cookie or consent dialog."""
    return any(
        CONSENT_CONTAINER_RE.search(token) and not _TAXONOMY_TOKEN_RE.match(token)
        for token in words.lower().split()
    )


#: A class token part naming a comment section ("comments", "comment_list", "commentwrap",
#: "a2commentwrap", "disqus"); a short prefix is allowed, other words after it are not
#: ("commentOnSelection" names a feature, not a section).
_COMMENT_SECTION_PART_RE = re.compile(
    r"[a-z0-9]{0,3}(?:comments?|disqus|respond|replies)"
    r"(?:s|list|listing|wrap|area|thread|section|box|container|content)?"
)
#: A token of more parts than this is a slug (an id made from a heading, "receive-and-reply-
#: to-an-inbound-sms-message-section"), not a container's name.
_COMMENT_TOKEN_MAX_PARTS = 3
#: Words that make a comment section a forum's posts ("comments DiscussionBoard").
_BOARD_RE = re.compile(r"forum|board|bbs|topic")
_TOKEN_PARTS_RE = re.compile(r"[-_]+")


def _names_comments(words: str) -> bool:
    """True when a container's words name the readers' comments on the page (and no word
    names a forum's board). A state token ("has-comments") or the post's own taxonomy
    ("tag-comments") says nothing of the container's role."""
    tokens = words.lower().split()
    if any(_BOARD_RE.search(token) for token in tokens):
        return False
    for token in tokens:
        if _STATE_TOKEN_RE.fullmatch(token) or _TAXONOMY_TOKEN_RE.match(token):
            continue
        parts = _TOKEN_PARTS_RE.split(token)
        if len(parts) <= _COMMENT_TOKEN_MAX_PARTS and any(
            _COMMENT_SECTION_PART_RE.fullmatch(part) for part in parts
        ):
            return True
    return False


#: Side columns: a sidebar beside an article, but on a product page the column beside
#: the pictures is the buy box with the product's description. (Not the side an icon
#: sits on: "accordion-icon-side-right".)
SIDE_RE = re.compile(
    _START + r"(?:(?<!by-)(?<!icon-)side|rail|col-side|right-col|left-col)(?![a-z0-9]|-by-)"
)
#: Containers that rarely hold main content.
WEAK_NEGATIVE_RE = re.compile(
    _START + r"(?:nav(?![a-z])|header|meta(?![a-z])|widget|banner|toolbar|author|byline|search|"
    r"hidden|print|rss|button|btn|icon|ads?(?![a-z])|rail)",
)
#: Containers that usually hold main content.
POSITIVE_RE = re.compile(
    _START + r"(?:article|content|post|entry|story|body|main|text|blog|detail|prose|markdown|"
    r"rich-?text|news|zhengwen)|正文",
)

STRONG_NEGATIVE = -2
WEAK_NEGATIVE = -1
NEUTRAL = 0
POSITIVE = 1

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
                if words and (_names_consent(words) or (not posts and _names_comments(words))):
                    own = STRONG_NEGATIVE
            else:
                if words:
                    prose_not_links = (
                        prose[i] >= NAVIGATION_PROSE_MIN_UNITS
                        and model.anchor_len[i] <= NAVIGATION_MAX_LINK_SHARE * text_len[i]
                    )
                    own, side, review = _classify_parts(words, tag, posts, prose_not_links)
                    side = side and text_len[i] <= side_limit
                    if side or review:
                        own = _resolve(own, side, review, product is not None and product())
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
    return banner and hint <= NEUTRAL and "h1" not in tags[node : node + model.node_count[node]]


def _in_section(model: PageModel, node: int) -> bool:
    """True when an ancestor of ``node`` is a sectioning element (:data:`SECTIONING_TAGS`)."""
    tags, parents = model.tags, model.parents
    node = parents[node]
    while node >= 0:
        if tags[node] in SECTIONING_TAGS:
            return True
        node = parents[node]
    return False


#: A form to fill in has at least this many fields, and at most this many characters of
#: text per field (labels, consent and legal notices).
FORM_MIN_FIELDS = 3
FORM_MAX_CHARS_PER_FIELD = 300


def _fill_in(model: PageModel, node: int) -> bool:
    """True when a ``<form>`` is one for the reader to fill in (contact, sign-up, quote
    request): its text is labels and notices, not the page's. Forms that wrap content (a
    comment kept editable, a list of results with a sort box, an ASP.NET page) have few
    fields for their text."""
    fields = sum(1 for _ in model.elements[node].iter("input", "textarea", "select"))
    return fields >= FORM_MIN_FIELDS and model.text_len[node] <= FORM_MAX_CHARS_PER_FIELD * fields


#: Class tokens that state a relation or a toggle ("has-sidebar", "hide-read-more-ad",
#: "with-share-bar"), or how a part is shown ("details-read-more-toggle",
#: "body--truncated"), not what the element is: they are not read. Nor are tokens naming
#: an embed ("social-media-embed" holds a quoted post: part of the article).
_STATE_TOKEN_RE = re.compile(
    r"(?<!\S)(?:(?:has|hide|hidden|with|without)[-_]\S*|\S*(?:embed|toggle|truncat)\S*)"
)


def _classify(words: str, tag: str, forum: bool = False, product: bool = False) -> int:
    """The hint of a container named ``words`` (its class, id, role and itemprop)."""
    hint, side, review = _classify_parts(words, tag, forum)
    return _resolve(hint, side, review, product)


def _resolve(hint: int, side: bool, review: bool, product: bool) -> int:
    """A side column is strong negative except on a product page (the buy box), reviews
    only on one (comments on the product)."""
    if hint != STRONG_NEGATIVE and ((side and not product) or (review and product)):
        return STRONG_NEGATIVE
    return hint


@lru_cache(maxsize=4096)
def _classify_parts(
    words: str, tag: str, forum: bool = False, prose: bool = False
) -> tuple[int, bool, bool]:
    """The hint of a container's words whatever the page, and whether they name a side
    column and reviews (which depend on whether the page is a product's). Navigation
    words (:data:`NAVIGATION_RE`) are not read for a container of ``prose``."""
    found = 0
    for token in words.lower().split():
        flags = _TOKEN_FLAGS.get(token)
        if flags is None:
            flags = _token_flags(token)
        found |= flags
    side = bool(found & _SIDE)
    review = bool(found & _REVIEW)
    if found & _STRONG or (found & _NAVIGATION and not prose) or (not forum and found & _COMMENT):
        # "post-comments" is a comment section, "article-related" is related links.
        return STRONG_NEGATIVE, side, review
    positive = bool(found & _POSITIVE)
    if found & _WEAK and not positive:
        return WEAK_NEGATIVE, side, review
    if positive:
        return POSITIVE, side, review
    if tag in ("nav", "aside", "footer"):
        return STRONG_NEGATIVE, side, review
    return NEUTRAL, side, review


# What the patterns find in one class token (no pattern spans a space, so a container's
# words are judged token by token). Pages made with utility CSS (``flex px-4 mt-2``) give
# nearly every container its own combination of tokens, but few distinct tokens: each is
# read once, then looked up.
_SIDE, _REVIEW, _STRONG, _COMMENT, _POSITIVE, _WEAK, _NAVIGATION = 1, 2, 4, 8, 16, 32, 64
_TOKEN_FLAGS: dict[str, int] = {}
_MAX_TOKENS = 50_000


def _token_flags(token: str) -> int:
    """The patterns a lower-cased class token matches, as bits (0 for a state token and
    for a post's own tag or category, ``category-promo-videos``: its subject, not the
    container's role)."""
    flags = 0
    if not _STATE_TOKEN_RE.fullmatch(token) and not _TAXONOMY_TOKEN_RE.match(token):
        for pattern, bit in _TOKEN_PATTERNS:
            if pattern.search(token):
                flags |= bit
        # (strong by its navigation words alone, or by another word too?)
        if (
            flags & _STRONG
            and NAVIGATION_RE.search(token)
            and not STRONG_NEGATIVE_RE.search(NAVIGATION_RE.sub(" ", token))
        ):
            flags ^= _STRONG | _NAVIGATION
    if len(_TOKEN_FLAGS) >= _MAX_TOKENS:
        _TOKEN_FLAGS.clear()
    _TOKEN_FLAGS[token] = flags
    return flags


_TOKEN_PATTERNS = (
    (SIDE_RE, _SIDE),
    (REVIEW_RE, _REVIEW),
    (STRONG_NEGATIVE_RE, _STRONG),
    (COMMENT_RE, _COMMENT),
    (POSITIVE_RE, _POSITIVE),
    (WEAK_NEGATIVE_RE, _WEAK),
)
