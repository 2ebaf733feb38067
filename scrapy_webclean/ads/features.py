"""What an image link says about itself: URL tokens, noise words, size, host.

These are the per-link signals of ALGORITHMS.md section 2 that need no statistics: the
keyword model NRelm1 (noise words in the link's description), the geometry of standard ad
units and tracking pixels, and ad-serving hosts. Nothing here is about one site.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from urllib.parse import urlsplit

from scrapy_webclean.ads.links import ImageLink
from scrapy_webclean.text.tokenize import chinese_words

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


def tokens(text: str) -> list[str]:
    """Lower-case word tokens of ``text``: ASCII alphanumeric runs, and jieba's words of
    Chinese runs (words matter here: the anchor-text entropy model NRelm3 counts each word
    over the links, and a whole Chinese anchor as one token would be seen once).
    Non-ASCII letters of other scripts are left out. The noise words of NRelm1 are matched
    on the same words (:func:`noise_words`): one cut per text."""
    return _tokens(text)


def noise_words(words: set[str], weights: Mapping[str, float]) -> set[str]:
    """The noise words of NRelm1 (the keys of ``weights``) that a link's ``words`` hold: a
    word itself, or a Chinese noise word inside a Chinese word (jieba keeps compounds
    whole: 广告位 holds 广告, 赞助商 赞助; the cut keeps it from matching across two words,
    as in 宽广告别, 宽广 告别)."""
    found = words.intersection(weights)
    chinese = [word for word in words if word[0] >= "\u4e00"]
    if chinese:
        found.update(
            noise
            for noise in weights
            if noise[0] >= "\u4e00" and any(noise in word for word in chinese)
        )
    return found


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
    """True when ``host`` is, or is under, a known ad-serving or tracking host."""
    while host:
        if host in AD_HOSTS:
            return True
        _, dot, host = host.partition(".")
        if not dot:
            return False
    return False


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
