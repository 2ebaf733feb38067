"""What kind of page the markup and the address say a page is: the types its structured
data declares (:func:`declared_types`, read once a page and shared by the page-type
features, the declared text and the tests below), a forum thread (by the address
conventions of forum software, or the discussion types it declares) or a product's page
in a shop (by the product and offer it declares for search engines). Substring searches
of the page's source, with a look at the few characters around each hit: these run on
every page, before any tree is walked for them.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass

#: URL paths of forum and Q&A software (Discourse, phpBB, vBulletin, XenForo, Discuz!,
#: NodeBB, Flarum, Invision, Reddit-style, bbPress's ``/forums/topic/<slug>``, Simple
#: Machines' ``?topic=<n>``): conventions of the software, not of a site. (Searched for
#: whether it matches, in time linear in the URL: a ``/forum/`` followed by a number
#: before the query looks ahead no further than the next ``/forum/``, which is tried on
#: its own; "/forum" repeated 2,700 times was scanned to the end from each.)
FORUM_URL_RE = re.compile(
    r"/(?:t|d)/[^/?#]++/\d+|/(?:t|d)/\d+|/topics?/\d+|/threads?/(?:[^/?#]*[.-])?\d+|"
    r"/discussions?/\d+|/questions/\d+|/comments/[a-z0-9]{5,}+/|"
    r"/forums?/(?:[^?#\d/]|/(?!forums?/))*+\d|"
    r"viewtopic\.php|showthread\.php|forumdisplay\.php|thread-\d+|[?&]tid=\d|[?&]topic=\d|"
    r"/(?:forums?|discussions?|community)/topics?/[^/?#]|"
    r"://(?:forums?|community|discuss|bbs|boards)\.",
    re.I,
)


def looks_like_forum(url: str | None) -> bool:
    """True when the URL follows the path conventions of forum software."""
    return bool(url) and FORUM_URL_RE.search(url) is not None  # type: ignore[arg-type]


#: A dated permalink: a year and a month as path segments (``/2012/06/29/slug``,
#: ``/2012/11/slug.html``), the addresses blog and news software give an article.
DATED_POST_URL_RE = re.compile(r"/(?:19|20)\d\d/(?:0?[1-9]|1[0-2])/")


def looks_like_dated_post(url: str | None) -> bool:
    """True when the URL is a dated permalink (:data:`DATED_POST_URL_RE`): an article or
    a blog post, whose comments are never its text."""
    return bool(url) and DATED_POST_URL_RE.search(url) is not None  # type: ignore[arg-type]


#: The page-type features read the types declared in this many characters of a page's
#: markup, at most :data:`MAX_DECLARED_TYPES` of them (:func:`declared_types`).
MAX_MARKUP_CHARS = 400_000
MAX_DECLARED_TYPES = 60
#: Whether a page declares a product or a question is read from its whole markup, at most
#: this many types (:func:`all_declared_types`).
MAX_ALL_DECLARED_TYPES = 1000
#: A declared type: JSON-LD ``"@type": "X"`` (maybe in a list, maybe a full URL),
#: microdata ``itemtype=".../X"``, or ``og:type`` (the tag's ``content`` follows); matched
#: where one of :data:`_DECLARED_ANCHORS` starts.
_DECLARED_TYPE_RE = re.compile(
    r""""@type"\s*:\s*\[?\s*"(?:https?://schema\.org/)?([A-Za-z]+)"|"""
    r"""itemtype\s*=\s*["']?https?://schema\.org/([A-Za-z]+)|"""
    r"""og:type["']\s+content\s*=\s*["']([A-Za-z]+)"""
)
_DECLARED_ANCHORS = ('"@type"', "itemtype", "og:type")


@dataclass(frozen=True, slots=True)
class DeclaredTypes:
    """The types a page's markup declares, as written, in the order found: schema.org
    types of its JSON-LD (``"@type"``) and of its microdata (``itemtype``), and its Open
    Graph ``og:type`` values. ``complete`` when they were read from the whole markup and
    none was left out for their number."""

    json_ld: tuple[str, ...] = ()
    microdata: tuple[str, ...] = ()
    og: tuple[str, ...] = ()
    complete: bool = True

    @property
    def schema(self) -> tuple[str, ...]:
        """The schema.org types, JSON-LD's then microdata's."""
        return self.json_ld + self.microdata


_NONE_DECLARED = DeclaredTypes()


class _LastPage(threading.local):
    """The last markup :func:`declared_types` read in this thread, and its types: the
    stages of one page ask for them one after the other, with the same string."""

    markup: str | None = None
    types: DeclaredTypes = _NONE_DECLARED
    #: What :func:`all_declared_types` read of the same markup (None: not asked yet).
    all_types: DeclaredTypes | None = None


_last_page = _LastPage()


def declared_types(markup: str | None) -> DeclaredTypes:
    """The types that the first :data:`MAX_MARKUP_CHARS` characters of ``markup`` (a
    page's decoded source) declare, at most :data:`MAX_DECLARED_TYPES`: what the
    page-type features count. Read once however many stages ask (the answer for the last
    string asked is kept)."""
    if not markup:
        return _NONE_DECLARED
    last = _last_page
    if last.markup is markup:
        return last.types
    types = _read_types(markup, MAX_MARKUP_CHARS, MAX_DECLARED_TYPES)
    last.markup, last.types, last.all_types = markup, types, None
    return types


def all_declared_types(markup: str | None) -> DeclaredTypes:
    """The types the whole of ``markup`` declares (at most
    :data:`MAX_ALL_DECLARED_TYPES`): :func:`declared_types`, unless a long page or a page
    of many types has more to read (read once however many stages ask, as there)."""
    types = declared_types(markup)
    if types.complete or not markup:
        return types
    last = _last_page  # (declared_types has just made ``markup`` the last page read)
    if last.all_types is None:
        last.all_types = _read_types(markup, len(markup), MAX_ALL_DECLARED_TYPES)
    return last.all_types


def _read_types(markup: str, chars: int, most: int) -> DeclaredTypes:
    """The types declared in ``markup``'s first ``chars`` characters, at most ``most``:
    a search for each of :data:`_DECLARED_ANCHORS`, and a look at each place found (far
    cheaper than a pattern tried at every character of the page)."""
    found: tuple[list[str], list[str], list[str]] = ([], [], [])
    end = min(len(markup), chars)
    seen = 0
    for anchor in _DECLARED_ANCHORS:
        position = markup.find(anchor, 0, end)
        while position >= 0 and seen < most:
            match = _DECLARED_TYPE_RE.match(markup, position)
            position = markup.find(anchor, position + len(anchor), end)
            if match is None:
                continue
            seen += 1
            for values, value in zip(found, match.groups(), strict=True):
                if value is not None:
                    values.append(value)
    complete = end == len(markup) and seen < most
    json_ld, microdata, og = found
    return DeclaredTypes(tuple(json_ld), tuple(microdata), tuple(og), complete)


#: The schema.org types a thread's markup declares (forum software publishes them for
#: search engines: XenForo, Discourse, vBulletin, phpBB extensions; Stack Exchange's
#: ``QAPage``). Case-sensitive, as schema.org's names are.
DISCUSSION_TYPES = frozenset(("DiscussionForumPosting", "QAPage"))


def declares_discussion(markup: str | None) -> bool:
    """True when a page's markup declares a discussion type of schema.org
    (:data:`DISCUSSION_TYPES`), in JSON-LD or microdata: a thread whose address does not
    follow the forum conventions (``looks_like_forum``)."""
    return any(name in DISCUSSION_TYPES for name in declared_types(markup).schema)


#: The ``content`` of an ``og:type`` meta tag that names a product.
_OG_PRODUCT_RE = re.compile(r"""content\s*=\s*["']\s*product""", re.I)
#: The schema.org types of a product for sale, as schema.org spells them.
PRODUCT_TYPE_NAMES = frozenset(("Product", "ProductGroup", "ProductModel"))
#: An offer in JSON-LD or microdata.
_OFFER_MARKS = ('"offers"', '"Offer"', '"AggregateOffer"', 'itemprop="offers"', 'itemprop="price"')
#: At most this many occurrences of "og:type" are looked at.
_MAX_MARKS = 200
#: The JSON-LD article types: a page that declares one and :data:`ROUNDUP_MIN_PRODUCTS`
#: products is a roundup ("the best dishwashers of 2025"), not a product's page.
_ARTICLE_TYPES = frozenset(("Article", "NewsArticle", "BlogPosting", "TechArticle"))
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
    types = all_declared_types(html)
    products = sum(1 for name in types.schema if name in PRODUCT_TYPE_NAMES)
    if not products or not any(mark in html for mark in _OFFER_MARKS):
        return False
    return products < ROUNDUP_MIN_PRODUCTS or _ARTICLE_TYPES.isdisjoint(types.json_ld)
