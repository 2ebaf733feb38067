"""URLs: which site a page belongs to, links made absolute, image URLs as counting keys, and
the front-page test.

*Site* has one meaning in the project: the registrable domain of the URL's host by the Public
Suffix List, its private section included (``alice.github.io`` and ``bob.github.io`` are
two sites, as are two blogs on blogspot.com or two buckets of an S3 host), plus the blog
platforms of :data:`SHARED_PLATFORM_SUFFIXES` that the list does not name. Templates
(``extraction/template.py``), image statistics and anchor-text entropy (``ads/``) and the
worker a page goes to are all kept per site. Whether an image is a *third party's* is
another question, answered by :func:`same_party`: a blog's images on its platform's image
host (``1.bp.blogspot.com`` for ``alice.blogspot.com``) are its own. The list is
``tldextract``'s bundled snapshot, read from the package: never fetched from the network,
nothing cached on disk.
"""

from __future__ import annotations

import re
from functools import lru_cache
from ipaddress import ip_address
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

if TYPE_CHECKING:
    import tldextract

#: Platforms that give each author a subdomain but are not in the Public Suffix List (so
#: that ``alice.wordpress.com`` and ``bob.wordpress.com`` are two sites, not one).
SHARED_PLATFORM_SUFFIXES: tuple[str, ...] = (
    "wordpress.com",
    "substack.com",
    "tumblr.com",
    "livejournal.com",
    "typepad.com",
    "ghost.io",
    "weebly.com",
    "neocities.org",
    "lofter.com",
)


@lru_cache(maxsize=2)
def _extractor(private: bool = True) -> tldextract.TLDExtract:
    """tldextract on its bundled snapshot only: no suffix-list URL to fetch, no cache
    directory to write. With ``private``, the list's private section and
    :data:`SHARED_PLATFORM_SUFFIXES` count (sites); without, the ICANN section alone
    (organisations). Made on first use (importing tldextract takes about 0.1 s; the list
    is read on the first lookup)."""
    import tldextract

    return tldextract.TLDExtract(
        suffix_list_urls=(),
        cache_dir=None,
        include_psl_private_domains=private,
        extra_suffixes=SHARED_PLATFORM_SUFFIXES if private else (),
    )


def host_of(url: str | None) -> str:
    """The lower-case host name of a URL, without a trailing dot ('' when none)."""
    if not url:
        return ""
    try:
        host = urlsplit(url).hostname or ""
    except ValueError:
        return ""
    return host.lower().rstrip(".")


@lru_cache(maxsize=8192)
def registrable_domain(host: str) -> str:
    """A host's site: its registrable domain by the Public Suffix List with the private
    section (``news.bbc.co.uk`` -> ``bbc.co.uk``, ``alice.github.io`` stays whole).

    An IP address, a single-label host (``localhost``) and a host that is itself a public
    suffix (``github.io``) are their own site, returned whole (lower case, without
    ``www.``); '' stays ''."""
    return _registrable(host, private=True)


@lru_cache(maxsize=8192)
def organization_domain(host: str) -> str:
    """The domain of the organisation that runs a host: its registrable domain by the
    ICANN section of the Public Suffix List alone (``alice.blogspot.com`` and
    ``1.bp.blogspot.com`` -> ``blogspot.com``). Not a site: two blogs of one platform are
    two sites of one organisation. Same rules as :func:`registrable_domain` otherwise."""
    return _registrable(host, private=False)


def _registrable(host: str, private: bool) -> str:
    host = host.lower().rstrip(".")
    if not host or _is_ip(host):
        return host
    parts = _extractor(private)(host)
    if parts.domain and parts.suffix:
        return f"{parts.domain}.{parts.suffix}"
    return host[4:] if host.startswith("www.") else host


def site_of(url: str | None) -> str | None:
    """The site of a URL (:func:`registrable_domain` of its host), or None when it has no
    host."""
    return registrable_domain(host_of(url)) or None


def site_key(url: str | None) -> str:
    """:func:`site_of` as a key of per-site statistics: '' for a URL without a host."""
    return registrable_domain(host_of(url))


def same_party(host: str, site: str) -> bool:
    """True when ``host`` serves ``site`` (a site or a host of it) as a first party: it is
    of the site (``graphics8.nytimes.com`` on ``nytimes.com``) or of the organisation that
    hosts the site (``1.bp.blogspot.com``, Blogger's image host, on ``alice.blogspot.com``).
    For telling third-party images and links from the site's own; ``alice.github.io`` and
    ``bob.github.io`` are two sites but not third parties to each other."""
    if not host or not site:
        return False
    return (
        host == site
        or registrable_domain(host) == registrable_domain(site)
        or organization_domain(host) == organization_domain(site)
    )


def _is_ip(host: str) -> bool:
    try:
        ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


# --- links ---


def absolute_url(base: str | None, href: str) -> str:
    """``href`` made absolute against ``base`` (``urljoin``); ``href`` as it is when there
    is no base or it does not resolve."""
    href = href.strip()
    if base is None or href.startswith(("http://", "https://")):
        return href
    try:
        return urljoin(base, href)
    except ValueError:
        return href


_URL_WHITESPACE = str.maketrans("", "", "\t\n\r")


class UrlResolver:
    """``urljoin`` against one base URL, with fast paths for the common hrefs of a page
    (absolute, scheme-relative, root-relative and plain relative paths without dot
    segments); anything else goes to ``urljoin``."""

    __slots__ = ("base", "directory", "origin", "scheme")

    def __init__(self, base: str | None) -> None:
        self.base = base
        self.scheme = self.origin = self.directory = ""
        if base:
            try:
                parts = urlsplit(base)
            except ValueError:
                return
            if parts.scheme in ("http", "https") and parts.netloc:
                self.scheme = parts.scheme
                self.origin = f"{parts.scheme}://{parts.netloc}"
                path = parts.path or "/"
                self.directory = self.origin + path[: path.rfind("/") + 1]

    def __call__(self, href: str) -> str:
        href = href.strip()
        if "\n" in href or "\t" in href or "\r" in href:
            # Browsers drop tabs and newlines inside a URL (WHATWG URL parsing).
            href = href.translate(_URL_WHITESPACE)
        if self.base is None or href.startswith(("http://", "https://")):
            return href
        if self.origin and "/." not in href and "#" not in href and not href.endswith("?"):
            if href.startswith("//"):
                return f"{self.scheme}:{href}"
            if href.startswith("/"):
                return self.origin + href
            if href and href[0] not in "?#." and ":" not in href.split("/", 1)[0]:
                return self.directory + href
        return absolute_url(self.base, href)


def resolve_base(page_url: str, base_href: str | None) -> str:
    """The URL relative links of a page resolve against (its ``<base href>`` if any)."""
    if not base_href:
        return page_url
    return UrlResolver(page_url)(base_href)


# --- image URLs ---

#: A run of this many digits in an ad server's path, or a parameter value of
#: :data:`_LONG_NUMBER` digits, is a per-request number (rotating creatives, cache busters).
_DIGITS_RE = re.compile(r"\d{8,}")
_LONG_NUMBER = 6
#: Query keys whose values only defeat caches (a new number on every page view).
_CACHE_BUSTER_KEYS = frozenset(
    [
        "ord",
        "rnd",
        "rand",
        "random",
        "cb",
        "cachebuster",
        "cache_buster",
        "bust",
        "ts",
        "t",
        "timestamp",
        "time",
        "_",
        "nocache",
        "v",
        "ver",
        "version",
        "r",
        "z",
        "correlator",
    ]
)


def normalize_image_url(url: str, rotating: bool = False) -> str:
    """The key under which an image URL is counted across pages (NRelm2, docs/algorithms.md
    section 2).

    Scheme and fragment dropped, host lower-cased, and the parts that vary per request
    removed: query (and ``;key=value`` path) parameters named like cache busters
    (:data:`_CACHE_BUSTER_KEYS`). Everything else stays: ``?id=12`` names a different image,
    and a path is stable (news sites name every photo by a long number,
    ``/media/images/70815000/jpg/_70815172_70815171.jpg``: masking it would make all their
    photos one image, "redundant" after a few pages).

    ``rotating`` (an ad server's image, where each page view asks for another creative):
    also parameters holding a long number and runs of 8 or more digits in the path.
    """
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    path = parts.path
    if ";" in path:
        head, *params = path.split(";")
        kept = [p for p in params if not _is_cache_buster(*_split_param(p), rotating)]
        path = ";".join([head, *kept])
    if rotating:
        path = _DIGITS_RE.sub("#", path)
    query = ""
    if parts.query:
        pairs = [
            (k, v)
            for k, v in parse_qsl(parts.query, keep_blank_values=True)
            if not _is_cache_buster(k, v, rotating)
        ]
        query = urlencode(sorted(pairs))
    return urlunsplit(("", (parts.hostname or "").lower(), path, query, ""))[2:]


def _split_param(param: str) -> tuple[str, str]:
    key, _, value = param.partition("=")
    return key, value


def _is_cache_buster(key: str, value: str, rotating: bool) -> bool:
    return key.lower() in _CACHE_BUSTER_KEYS or (
        rotating and len(value) >= _LONG_NUMBER and value.isdigit()
    )


# --- front pages ---


def is_site_root(url: str | None) -> bool:
    """True for a site's front page: an http(s) URL with an empty path (or "/", or an
    index file) and no query other than tracking parameters."""
    if not url:
        return False
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return False
    path = parts.path.lower()
    if path not in ("", "/") and not _INDEX_PATH_RE.fullmatch(path):
        return False
    return not has_own_query(parts.query)


_INDEX_PATH_RE = re.compile(r"/(?:index|default|home)\.(?:html?|php|aspx?|jsp)")
_TRACKING_PREFIXES = ("utm_", "srsltid", "gclid", "fbclid", "ref", "source")


def has_own_query(query: str) -> bool:
    """True for a query string with a parameter other than tracking ones (``utm_*``,
    ``srsltid``, ``gclid``, ...): one that may choose what the page shows."""
    return any(not key.startswith(_TRACKING_PREFIXES) for key in parse_qs(query))


#: Trailing path segments that name another rendition of the same document: its AMP page
#: (``/story/amp/``) or its print view (``/story/print``).
RENDITION_SEGMENTS = frozenset(("amp", "print"))


def document_url(url: str | None) -> str | None:
    """The address of the document a URL renders: an AMP or print rendition's address
    without its trailing :data:`RENDITION_SEGMENTS` (and the query and fragment kept), so
    that the extractor reads a document's renditions alike; any other URL unchanged."""
    if not url:
        return url
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    segments = parts.path.split("/")
    end = len(segments)
    while end > 1 and (segments[end - 1] == "" or segments[end - 1].lower() in RENDITION_SEGMENTS):
        end -= 1
    if not any(s.lower() in RENDITION_SEGMENTS for s in segments[end:]):
        return url
    path = "/".join(segments[:end]) + "/"
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, parts.fragment))
