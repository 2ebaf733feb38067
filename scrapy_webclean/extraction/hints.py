"""Class and id hints: what page authors call their containers.

Words in ``class`` and ``id`` attributes are the cheapest strong signal there is: a
container named ``comments``, ``related-posts`` or ``sidebar`` is not the article, one
named ``article-body`` or ``post-content`` probably is. Only generic words are listed
(never a site's own names). A hint is ignored on a container that holds most of the page's
prose (``prose`` per node, in text units): wrappers often carry layout words
(``has-sidebar``, ``penci_sidebar``, ``content-wrap``) that say nothing about the text inside.
"""

from __future__ import annotations

import re
from functools import lru_cache

from scrapy_webclean.segmentation.blockmodel import PageModel

# Every word must start a class token or a part of one ("menu", "main-menu", "menu_item",
# "sidebarLeft"), so that "contextmenu" or "timeshare" do not count.
_START = r"(?<![a-z0-9])"

#: Reader comments: noise on an article, the content itself on a forum thread.
COMMENT_RE = re.compile(_START + r"(?:comment|disqus|respond|replies|reply)", re.I)
#: Containers that are never main content, whatever they hold.
STRONG_NEGATIVE_RE = re.compile(
    _START
    + r"(?:related|ticker|breaking-?news|recommend|more-stories|read-more|also-read|share|sharing|social|"
    r"sidebar|side-bar|footer|breadcrumb|newsletter|subscri|cookie|consent|outbrain|"
    r"taboola|promo|sponsor|advert|adsense|dfp|navbar|menu|nav-|navigation|masthead|popup|"
    r"modal|signup|sign-up|login|trending|popular|most-read|mostread|tag-?list|tagcloud|"
    r"pagination|pager|caption|credit|sr-only|visually-?hidden|screen-?reader|a11y-hidden|"
    r"(?:(?<!by-)side|rail|col-side|right-col|left-col)(?![a-z0-9]|-by-))",
    re.I,
)
#: Containers that rarely hold main content.
WEAK_NEGATIVE_RE = re.compile(
    _START + r"(?:nav(?![a-z])|header|meta(?![a-z])|widget|banner|toolbar|author|byline|search|"
    r"hidden|print|rss|button|btn|icon|ads?(?![a-z])|rail)",
    re.I,
)
#: Containers that usually hold main content.
POSITIVE_RE = re.compile(
    _START + r"(?:article|content|post|entry|story|body|main|text|blog|detail|prose|markdown|"
    r"rich-?text|news|zhengwen)|正文",
    re.I,
)

STRONG_NEGATIVE = -2
WEAK_NEGATIVE = -1
NEUTRAL = 0
POSITIVE = 1

#: A hinted container holding more than this share of the page's prose is not judged.
MAX_HINTED_SHARE = 0.5

#: Elements that are never main text by their tag alone: figure captions are image
#: descriptions (ground truths of the extraction benchmarks leave them out).
_NEGATIVE_TAGS = frozenset(("nav", "aside", "footer", "figcaption"))

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


#: Attributes whose words hint at a container's role.
_HINT_ATTRIBUTES = frozenset(("class", "id", "role", "itemprop"))


def node_hints(model: PageModel, prose: list[float], forum: bool = False) -> list[int]:
    """Per node: the hint of its nearest hinted ancestor-or-self (one of the constants).

    ``prose[i]`` is the prose (in text units) of node ``i``'s subtree; on a ``forum``
    thread, comment and reply containers are not negative (the posts are the content).
    """
    n = len(model)
    total = prose[0] if n else 0.0
    limit = MAX_HINTED_SHARE * total
    hints = [NEUTRAL] * n
    tags, parents, elements, text_len = model.tags, model.parents, model.elements, model.text_len
    for i in range(1, n):
        if not text_len[i]:
            # No visible text below: no line sits here, so its hint is never asked for.
            continue
        inherited = hints[parents[i]]
        own = NEUTRAL
        if tags[i] in _HINTED_TAGS and prose[i] <= limit:
            words = " ".join(value for key, value in elements[i].items() if key in _HINT_ATTRIBUTES)
            if words:
                own = _classify(words, tags[i], forum)
        # The tags themselves are reliable: only a page that wraps nearly all its prose in
        # one of them is spared.
        if own == NEUTRAL and tags[i] in _NEGATIVE_TAGS and prose[i] <= 0.9 * total:
            own = STRONG_NEGATIVE
        # Inside a strong-negative container everything stays negative ("sidebar" holding
        # "post" widgets); otherwise the nearest hinted container decides.
        if inherited == STRONG_NEGATIVE or own == NEUTRAL:
            hints[i] = inherited
        else:
            hints[i] = own
    return hints


#: Class tokens that state a relation or a toggle ("has-sidebar", "hide-read-more-ad",
#: "with-share-bar"), not what the element is: they are not read. Nor are tokens naming
#: an embed ("social-media-embed" holds a quoted post: part of the article).
_STATE_TOKEN_RE = re.compile(
    r"(?<!\S)(?:(?:has|hide|hidden|with|without)[-_]\S*|\S*embed\S*)", re.I
)


@lru_cache(maxsize=4096)
def _classify(words: str, tag: str, forum: bool = False) -> int:
    words = _STATE_TOKEN_RE.sub(" ", words)
    if STRONG_NEGATIVE_RE.search(words) or (not forum and COMMENT_RE.search(words)):
        # "post-comments" is a comment section, "article-related" is related links.
        return STRONG_NEGATIVE
    positive = bool(POSITIVE_RE.search(words))
    if WEAK_NEGATIVE_RE.search(words) and not positive:
        return WEAK_NEGATIVE
    if positive:
        return POSITIVE
    if tag in ("nav", "aside", "footer"):
        return STRONG_NEGATIVE
    return NEUTRAL


#: URL paths of forum and Q&A software (Discourse, phpBB, vBulletin, XenForo, Discuz!,
#: NodeBB, Flarum, Invision, Reddit-style): conventions of the software, not of a site.
FORUM_URL_RE = re.compile(
    r"/(?:t|d)/[^/?#]+/\d+|/(?:t|d)/\d+|/topics?/\d+|/threads?/(?:[^/?#]*[.-])?\d+|"
    r"/discussions?/\d+|/questions/\d+|/comments/[a-z0-9]{5,}/|/forums?/[^?#]*\d|"
    r"viewtopic\.php|showthread\.php|forumdisplay\.php|thread-\d+|[?&]tid=\d|"
    r"://(?:forums?|community|discuss|bbs|boards)\.",
    re.I,
)


def looks_like_forum(url: str | None) -> bool:
    """True when the URL follows the path conventions of forum software."""
    return bool(url) and FORUM_URL_RE.search(url) is not None  # type: ignore[arg-type]
