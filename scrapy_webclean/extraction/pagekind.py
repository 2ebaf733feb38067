"""What kind of page the markup and the address say a page is: a forum thread (by the
address conventions of forum software, or the discussion types its structured data
declares) or a product's page in a shop (by the product and offer it declares for search
engines). Substring searches of the page's source, with a look at the few characters
around each hit: these run on every page, before any tree is walked for them.
"""

from __future__ import annotations

import re

#: URL paths of forum and Q&A software (Discourse, phpBB, vBulletin, XenForo, Discuz!,
#: NodeBB, Flarum, Invision, Reddit-style, bbPress's ``/forums/topic/<slug>``, Simple
#: Machines' ``?topic=<n>``): conventions of the software, not of a site.
FORUM_URL_RE = re.compile(
    r"/(?:t|d)/[^/?#]+/\d+|/(?:t|d)/\d+|/topics?/\d+|/threads?/(?:[^/?#]*[.-])?\d+|"
    r"/discussions?/\d+|/questions/\d+|/comments/[a-z0-9]{5,}/|/forums?/[^?#]*\d|"
    r"viewtopic\.php|showthread\.php|forumdisplay\.php|thread-\d+|[?&]tid=\d|[?&]topic=\d|"
    r"/(?:forums?|discussions?|community)/topics?/[^/?#]|"
    r"://(?:forums?|community|discuss|bbs|boards)\.",
    re.I,
)


def looks_like_forum(url: str | None) -> bool:
    """True when the URL follows the path conventions of forum software."""
    return bool(url) and FORUM_URL_RE.search(url) is not None  # type: ignore[arg-type]


#: The schema.org types a thread's markup declares (forum software publishes them for
#: search engines: XenForo, Discourse, vBulletin, phpBB extensions; Stack Exchange's
#: ``QAPage``). Case-sensitive, as schema.org's names are.
DISCUSSION_TYPES = ("DiscussionForumPosting", "QAPage")
#: Only this many characters of a page's markup are searched for declared types (for
#: these, and for the page-type features' in ``pagetype``).
MAX_MARKUP_CHARS = 400_000


def declares_discussion(markup: str | None) -> bool:
    """True when a page's markup names a discussion type of schema.org
    (:data:`DISCUSSION_TYPES`), in JSON-LD or microdata: a thread whose address does not
    follow the forum conventions (``looks_like_forum``)."""
    if not markup:
        return False
    end = min(len(markup), MAX_MARKUP_CHARS)
    return any(markup.find(name, 0, end) >= 0 for name in DISCUSSION_TYPES)


#: The ``content`` of an ``og:type`` meta tag that names a product.
_OG_PRODUCT_RE = re.compile(r"""content\s*=\s*["']\s*product""", re.I)
#: What comes before "Product" when it is a schema.org type: ``"@type": "`` (JSON-LD,
#: maybe a list, maybe a full URL) or ``itemtype="https://schema.org/`` (microdata).
_SCHEMA_TYPE_BEFORE_RE = re.compile(
    r"""(?:"@type"\s*:\s*\[?\s*"(?:https?://schema\.org/)?|schema\.org/)$"""
)
#: The schema.org product types, from "Product" to the end of the name.
_PRODUCT_TYPE_RE = re.compile(r"Product(?:Group|Model)?(?![A-Za-z])")
#: An offer in JSON-LD or microdata.
_OFFER_MARKS = ('"offers"', '"Offer"', '"AggregateOffer"', 'itemprop="offers"', 'itemprop="price"')
#: At most this many occurrences of "og:type" and of "Product" are looked at.
_MAX_MARKS = 200
#: A JSON-LD article type: a page that declares one and :data:`ROUNDUP_MIN_PRODUCTS`
#: products is a roundup ("the best dishwashers of 2025"), not a product's page.
_ARTICLE_TYPE_RE = re.compile(
    r'"@type"\s*:\s*\[?\s*"(?:https?://schema\.org/)?'
    r'(?:Article|NewsArticle|BlogPosting|TechArticle)"'
)
ROUNDUP_MIN_PRODUCTS = 2


def looks_like_product(html: str) -> bool:
    """True when a page's markup says it offers a product for sale: ``og:type``
    ``product`` (``product.item``, ``product.group``), or a schema.org ``Product`` (JSON-LD
    or microdata) together with an offer (the markup shops publish for search engines).
    A ``Product`` without an offer is not enough: service and article pages publish one
    to get rating stars in search results. Nor is an article that declares several
    products (:data:`ROUNDUP_MIN_PRODUCTS`), each with its offer: a roundup of the best
    ones, whose sections are named for reviews.

    ``html`` is the page's decoded source. Substring searches of it, with a look at the
    few characters around each hit, cost far less than walking the parsed tree.
    """
    head_end = html.find("</head>")  # (meta tags live in the head)
    if head_end < 0:
        head_end = len(html)
    position = html.find("og:type", 0, head_end)
    for _ in range(_MAX_MARKS):
        if position < 0:
            break
        start, end = html.rfind("<", 0, position), html.find(">", position)
        if start >= 0 and _OG_PRODUCT_RE.search(html, start, end if end > 0 else len(html)):
            return True
        position = html.find("og:type", position + 7, head_end)
    products = _declared_products(html, ROUNDUP_MIN_PRODUCTS)
    if not products or not any(mark in html for mark in _OFFER_MARKS):
        return False
    return products < ROUNDUP_MIN_PRODUCTS or _ARTICLE_TYPE_RE.search(html) is None


def _declared_products(html: str, most: int) -> int:
    """How many schema.org product types the markup declares (counted up to ``most``)."""
    found = 0
    position = html.find("Product")
    for _ in range(_MAX_MARKS):
        if position < 0 or found >= most:
            break
        if _PRODUCT_TYPE_RE.match(html, position) and _SCHEMA_TYPE_BEFORE_RE.search(
            html, max(0, position - 40), position
        ):
            found += 1
        position = html.find("Product", position + 7)
    return found
