"""What an image link says about itself: URL tokens, noise words, size, host.

These are the per-link signals of docs/algorithms.md section 2 that need no statistics: the
keyword model NRelm1 (noise words in the link's description), the geometry of standard ad
units and tracking pixels, and ad-serving hosts. Nothing here is about one site.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from scrapy_webclean.ads.links import ImageLink
from scrapy_webclean.text.tokenize import chinese_words
from scrapy_webclean.urls import host_of, normalize_image_url, same_party

_TOKEN_RE = re.compile(r"[a-z0-9]+|[\u4e00-\u9fff]+")

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


def tokens(text: str) -> list[str]:
    """Lower-case word tokens of ``text``: ASCII alphanumeric runs, and jieba's words of
    Chinese runs (words matter here: the anchor-text entropy model NRelm3 counts each word
    over the links, and a whole Chinese anchor as one token would be seen once).
    Non-ASCII letters of other scripts are left out. The noise words of NRelm1 are matched
    on the same words (:func:`noise_words`): one cut per text."""
    return _tokens(text)


def _tokens(text: str) -> list[str]:
    found: list[str] = _TOKEN_RE.findall(text.lower())
    if text.isascii():
        return found
    words: list[str] = []
    for token in found:
        if token[0] >= "\u4e00":
            words.extend(chinese_words(token))
        else:
            words.append(token)
    return words


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


def is_ad_host(host: str) -> bool:
    """True when ``host`` is, or is under, a known ad-serving or tracking host. (Only its
    suffixes no longer than the longest known host are looked up: the host of a page's
    image address may be as long as the page makes it, and one copy per label took the
    square of that.)"""
    if len(host) > _LONGEST_AD_HOST:
        cut = host.find(".", len(host) - _LONGEST_AD_HOST - 1)
        if cut < 0:
            return False
        host = host[cut + 1 :]
    while host:
        if host in AD_HOSTS:
            return True
        _, dot, host = host.partition(".")
        if not dot:
            return False
    return False


_LONGEST_AD_HOST = max(map(len, AD_HOSTS))


#: A declared width or height of at most this many pixels: a tracking pixel, a spacer
#: (1x10, 760x1) or a rule drawn as an image. Never content.
PIXEL_MAX_SIDE = 2


def geometry(link: ImageLink) -> str | None:
    """'pixel' when a declared side is at most :data:`PIXEL_MAX_SIDE` (tracking pixels,
    spacers, rules; the other side may be missing or large), 'ad_size' for a standard ad
    unit, else None."""
    width, height = link.width, link.height
    if (width is not None and width <= PIXEL_MAX_SIDE) or (
        height is not None and height <= PIXEL_MAX_SIDE
    ):
        return "pixel"
    if width is not None and height is not None and (width, height) in AD_SIZES:
        return "ad_size"
    return None


#: A teaser's description (alt, title or anchor text) has at least this many words: a
#: headline, where a template image has a name ("Logo", "RSS") or nothing.
TEASER_MIN_WORDS = 4
#: An article's URL has an id (a number of this many digits) in its path ...
_ARTICLE_ID_RE = re.compile(r"\d{4,}")
#: ... or a slug of several words as its last segment (this many separators at least).
ARTICLE_SLUG_SEPARATORS = 3


def is_teaser(link: ImageLink, site: str) -> bool:
    """True for a teaser of another article of the site: an image linking to a page of the
    same site whose URL looks like an article's (a long slug or a number in the path), with
    a headline for description. Teasers come and go with the news (a "latest" box shows
    each for some pages): they are content, not template, and need stronger evidence of
    repetition."""
    if not link.link or not site or not same_party(host_of(link.link), site):
        return False
    path = urlsplit(link.link).path
    slug = path.rstrip("/").rsplit("/", 1)[-1]
    separators = slug.count("-") + slug.count("_")
    if separators < ARTICLE_SLUG_SEPARATORS and not _ARTICLE_ID_RE.search(path):
        return False
    words = max(len(text.split()) for text in (link.alt, link.title, link.anchor))
    return words >= TEASER_MIN_WORDS


#: An image of a page's main content with a declared side under this many pixels is an
#: icon (a share button, an author's thumbnail), not a photo of the content.
MIN_PHOTO_SIDE = 48
_IMAGE_FILE_RE = re.compile(r"\.(?:jpe?g|png|gif|webp|avif|bmp)(?:[?#]|$)", re.I)


def is_content_photo(width: int | None, height: int | None, link: str | None) -> bool:
    """Whether an image the cleaner found in a page's main content is one the ad filter
    must never drop as template: not declared smaller than :data:`MIN_PHOTO_SIDE` on a
    side, and linking nowhere or to an image file (its full size), not to another page
    (a teaser of another article)."""
    if (width is not None and width < MIN_PHOTO_SIDE) or (
        height is not None and height < MIN_PHOTO_SIDE
    ):
        return False
    return not link or _IMAGE_FILE_RE.search(link) is not None


def image_key(src: str) -> str:
    """The key an image URL is counted under across a site's pages: its URL without the
    parts that vary per request (:func:`~scrapy_webclean.urls.normalize_image_url`); on an
    ad server, whose every page view asks for another creative, without long numbers too."""
    return normalize_image_url(src, rotating=is_ad_host(host_of(src)))
