"""The container-name vocabulary of the class/id hints: which words in a container's
``class``, ``id``, ``role`` and ``itemprop`` mark it as reader comments, a Q&A post,
customer reviews, navigation, a side column, never the text (strong negative), rarely the
text (weak negative) or the text (positive), and how one container's words are read
(:func:`classify_parts`, token by token).

Only generic words are listed (never a site's own names). A new container word goes
here; where a hint applies on a page (the share of its prose a container holds, the tags
and ARIA roles read alike, the product and forum pages) is :mod:`hints`'s job.
"""

from __future__ import annotations

import re
from functools import lru_cache

#: The hint levels: what a container's words make of the lines inside it.
STRONG_NEGATIVE = -2
WEAK_NEGATIVE = -1
NEUTRAL = 0
POSITIVE = 1

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
#: named for it that holds prose, not links (:data:`~scrapy_webclean.extraction.hints.NAVIGATION_PROSE_MIN_UNITS`,
#: :data:`~scrapy_webclean.extraction.hints.NAVIGATION_MAX_LINK_SHARE`), is read for its other words ("content-nav-section":
#: a section of the text that an in-page menu points to).
_NAVIGATION_WORDS = r"navbar|menu|nav-|navigation|breadcrumb|pagination|pager"
NAVIGATION_RE = re.compile(_START + f"(?:{_NAVIGATION_WORDS})")
#: Containers that are never main content, whatever they hold. (A caption, its kind's
#: word before it or not, "thumbcaption", but not a type scale's size: "caption-s"
#: styles small text, as "body-m" styles body text. The references under an article
#: and their text, "references", "reference-text", "reflist"; a "stub" notice. An
#: author's box: the writer's biography under an article, "author-bio", "about-the-author".
#: A box of the site's latest posts or news beside the text: "latest-posts".)
STRONG_NEGATIVE_RE = re.compile(
    _START
    + r"(?:related|ticker|breaking-?news|recommend|more-stories|read-more|also-read|share|sharing|social|"
    r"sidebar|side-bar|footer|newsletter|subscri|cookie|consent|outbrain|signature|footnotes|"
    r"taboola|promo|sponsor|advert|adsense|dfp|masthead|popup|"
    r"modal|dialog|popover|signup|sign-up|login|trending|popular|most-read|mostread|tag-?list|tagcloud|"
    r"[a-z]{0,8}caption(?!-(?:xs|s|m|l|xl|sm|md|lg)(?![a-z0-9]))|credit|sr-only|"
    r"references(?![a-z])|reference-text|reflist|stub(?![a-z])|"
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


def names_consent(words: str) -> bool:
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


def naming_tokens(words: str) -> list[str]:
    """The lower-cased tokens of a container's words that may name what it is: not its
    post's own taxonomy ("category-advertising") nor a state ("has-ads")."""
    return [
        token
        for token in words.lower().split()
        if not _STATE_TOKEN_RE.fullmatch(token) and not _TAXONOMY_TOKEN_RE.match(token)
    ]


def names_comments(words: str) -> bool:
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


#: Class tokens that state a relation or a toggle ("has-sidebar", "hide-read-more-ad",
#: "with-share-bar"), or how a part is shown ("details-read-more-toggle",
#: "body--truncated"), not what the element is: they are not read. Nor are tokens naming
#: an embed ("social-media-embed" holds a quoted post: part of the article).
_STATE_TOKEN_RE = re.compile(
    r"(?<!\S)(?:(?:has|hide|hidden|with|without)[-_]\S*|\S*(?:embed|toggle|truncat)\S*)"
)


def classify_words(words: str, tag: str, forum: bool = False, product: bool = False) -> int:
    """The hint of a container named ``words`` (its class, id, role and itemprop)."""
    hint, side, review = classify_parts(words, tag, forum)
    return resolve_hint(hint, side, review, product)


def resolve_hint(hint: int, side: bool, review: bool, product: bool) -> int:
    """A side column is strong negative except on a product page (the buy box), reviews
    only on one (comments on the product)."""
    if hint != STRONG_NEGATIVE and ((side and not product) or (review and product)):
        return STRONG_NEGATIVE
    return hint


@lru_cache(maxsize=4096)
def classify_parts(
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
