"""What an image link says about itself: URL tokens, noise words, size, host.

These are the per-link signals of ALGORITHMS.md section 2 that need no statistics: the
keyword model NRelm1 (noise words in the link's description), the geometry of standard ad
units and tracking pixels, and ad-serving hosts. Nothing here is about one site.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from scrapy_webclean.ads.links import ImageLink

_TOKEN_RE = re.compile(r"[a-z0-9]+|[\u4e00-\u9fff]+")
_DIGITS_RE = re.compile(r"\d{8,}")

#: Tokens that say nothing about an image (file extensions, URL furniture).
_NEUTRAL_TOKENS = frozenset(
    [
        "http",
        "https",
        "www",
        "com",
        "net",
        "org",
        "cn",
        "jpg",
        "jpeg",
        "png",
        "gif",
        "webp",
        "svg",
        "bmp",
        "ico",
        "img",
        "image",
        "images",
        "static",
        "cdn",
        "media",
        "assets",
        "files",
        "upload",
        "uploads",
    ]
)

#: Noise words of the keyword model (NRelm1) with their weights: in URL tokens, link
#: targets, container class/id words, anchor/alt/title words. Extendable in settings.
DEFAULT_AD_WORDS: dict[str, float] = {
    "ad": 1.0,
    "ads": 1.0,
    "adv": 1.0,
    "advert": 1.0,
    "adverts": 1.0,
    "advertisement": 1.0,
    "advertising": 1.0,
    "adserver": 1.0,
    "adserving": 1.0,
    "adimg": 1.0,
    "adclick": 1.0,
    "adspace": 1.0,
    "adslot": 1.0,
    "adunit": 1.0,
    "banner": 0.5,
    "banners": 0.5,
    "sponsor": 1.0,
    "sponsored": 1.0,
    "sponsors": 1.0,
    "doubleclick": 1.0,
    "promo": 0.5,
    "affiliate": 0.5,
    "pixel": 0.5,
    "beacon": 0.5,
    "tracking": 0.5,
    "广告": 1.0,
    "推广": 1.0,
    "赞助": 1.0,
}

#: Hosts (and their subdomains) that serve ads, not page content. (Analytics beacons,
#: scorecardresearch.com and the like, are not ads: their 1x1 images are left to the
#: other signals.)
AD_HOSTS: frozenset[str] = frozenset(
    [
        "doubleclick.net",
        "googlesyndication.com",
        "googleadservices.com",
        "adservice.google.com",
        "adnxs.com",
        "adsrvr.org",
        "amazon-adsystem.com",
        "assoc-amazon.com",
        "taboola.com",
        "outbrain.com",
        "criteo.com",
        "criteo.net",
        "pubmatic.com",
        "rubiconproject.com",
        "openx.net",
        "advertising.com",
        "adform.net",
        "smartadserver.com",
        "adtech.de",
        "atdmt.com",
        "mediaplex.com",
        "serving-sys.com",
        "yieldmanager.com",
        "adbrite.com",
        "adroll.com",
        "bidswitch.net",
        "casalemedia.com",
        "contextweb.com",
        "revcontent.com",
        "zedo.com",
        "2mdn.net",
        "tribalfusion.com",
        "adblade.com",
        "lijit.com",
        "sharethrough.com",
        "admob.com",
        "turn.com",
        "adzerk.net",
        "media.net",
        "chitika.net",
        "infolinks.com",
        "buysellads.com",
        "carbonads.net",
        "yahoo-ads.com",
        "adsonar.com",
        "adbureau.net",
        "tiser.com.au",
        "ads.yahoo.com",
        "cpro.baidu.com",
        "pos.baidu.com",
        "tanx.com",
    ]
)

#: Standard (IAB and common legacy) ad unit sizes, width x height in CSS pixels.
AD_SIZES: frozenset[tuple[int, int]] = frozenset(
    {
        (468, 60),
        (728, 90),
        (300, 250),
        (160, 600),
        (120, 600),
        (300, 600),
        (970, 90),
        (970, 250),
        (320, 50),
        (300, 50),
        (336, 280),
        (234, 60),
        (120, 240),
        (120, 90),
        (120, 60),
        (88, 31),
        (180, 150),
        (300, 100),
        (250, 250),
        (125, 125),
        (200, 200),
        (320, 100),
        (970, 66),
        (980, 120),
        (960, 90),
        (640, 100),
    }
)

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


def tokens(text: str) -> list[str]:
    """Lower-case word tokens (ASCII alphanumeric runs, Chinese runs) of ``text``."""
    return _TOKEN_RE.findall(text.lower())


def url_tokens(url: str | None) -> list[str]:
    """Tokens of a URL's host, path and query (camelCase split: ``featuredSponsor`` gives
    featured, sponsor), without digits-only and neutral tokens."""
    if not url:
        return []
    spaced = _CAMEL_RE.sub(r"\1 \2", url)
    return [t for t in tokens(spaced) if not t.isdigit() and t not in _NEUTRAL_TOKENS]


_CAMEL_RE = re.compile(r"([a-z])([A-Z])")


def file_name_tokens(url: str) -> list[str]:
    """Word tokens of a URL's last path segment (``hero-banner_2x.png`` -> hero, banner,
    2x), for the anchor-text entropy model."""
    path = urlsplit(url).path
    name = path.rsplit("/", 1)[-1]
    return [t for t in tokens(name) if not t.isdigit() and t not in _NEUTRAL_TOKENS]


def normalize_image_url(url: str) -> str:
    """The key under which an image URL is counted across pages (NRelm2).

    Scheme and fragment dropped, host lower-cased; cache-busting parts removed so that a
    rotating ad creative keeps one key: query (and ``;key=value`` path) parameters named
    like cache busters or holding a long number, and runs of 8 or more digits in the path.
    Other parameters stay (``?id=12`` names a different image).
    """
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    path = parts.path
    if ";" in path:
        head, *params = path.split(";")
        kept = [p for p in params if not _is_cache_buster(*_split_param(p))]
        path = ";".join([head, *kept])
    path = _DIGITS_RE.sub("#", path)
    query = ""
    if parts.query:
        pairs = [
            (k, v)
            for k, v in parse_qsl(parts.query, keep_blank_values=True)
            if not _is_cache_buster(k, v)
        ]
        query = urlencode(sorted(pairs))
    return urlunsplit(("", (parts.hostname or "").lower(), path, query, ""))[2:]


def _split_param(param: str) -> tuple[str, str]:
    key, _, value = param.partition("=")
    return key, value


def _is_cache_buster(key: str, value: str) -> bool:
    return key.lower() in _CACHE_BUSTER_KEYS or (len(value) >= 6 and value.isdigit())


def site_key(url: str | None) -> str:
    """The site an image link's statistics are kept under: the registered domain of the
    page's host (a site's subdomains share one template and one set of ads)."""
    return registered_domain(host_of(url))


def host_of(url: str | None) -> str:
    """Lower-case host name of a URL ('' when none)."""
    if not url:
        return ""
    try:
        return (urlsplit(url).hostname or "").lower()
    except ValueError:
        return ""


def is_ad_host(host: str) -> bool:
    """True when ``host`` is, or is under, a known ad-serving or tracking host."""
    while host:
        if host in AD_HOSTS:
            return True
        _, dot, host = host.partition(".")
        if not dot:
            return False
    return False


def same_site(host: str, site: str) -> bool:
    """True when ``host`` belongs to ``site`` (a host name without ``www.``), counting
    sibling subdomains of the same registered name (``graphics8.nytimes.com`` on
    ``nytimes.com``, ``img.example.co.uk`` on ``news.example.co.uk``)."""
    if not host or not site:
        return False
    return (
        host == site
        or host.endswith("." + site)
        or registered_domain(host) == registered_domain(site)
    )


def registered_domain(host: str) -> str:
    """The registered name of a host (``uk.reuters.com`` -> ``reuters.com``,
    ``news.bbc.co.uk`` -> ``bbc.co.uk``); IP addresses are returned whole."""
    if not host or host.replace(".", "").isdigit() or ":" in host:
        return host
    labels = host.split(".")
    # Two-level public suffixes (co.uk, com.cn, com.au ...): keep three labels.
    if len(labels) >= 3 and len(labels[-1]) == 2 and labels[-2] in _SECOND_LEVEL:
        return ".".join(labels[-3:])
    return ".".join(labels[-2:])


_SECOND_LEVEL = frozenset(["co", "com", "net", "org", "gov", "edu", "ac", "ne", "or", "go"])


def geometry(link: ImageLink) -> str | None:
    """'pixel' for a 1x1 (or 0-sized) tracking image, 'ad_size' for a standard ad unit,
    else None."""
    width, height = link.width, link.height
    if width is not None and height is not None:
        if width <= 2 and height <= 2:
            return "pixel"
        if (width, height) in AD_SIZES:
            return "ad_size"
    return None
