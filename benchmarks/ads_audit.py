"""What the content images an ads benchmark run dropped are: an audit of the labels
(``ads.py`` prints it under its tables, which keep the labels as they are)."""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ads_data import Record, Site, as_int

from scrapy_webclean.ads.features import is_ad_host

#: URL words of images that carry no content: tracking pixels and layout spacers.
_PIXEL_WORDS = frozenset({"pixel", "spacer", "beacon", "blank", "clear", "transparent", "1x1"})
#: URL path words of ad and sponsor images (ad servers' paths included).
_AD_PATH_WORDS = frozenset(
    {
        "ad",
        "ads",
        "adx",
        "adv",
        "advert",
        "adverts",
        "advertisement",
        "advertisers",
        "adserver",
        "nserver",
        "sponsor",
        "sponsors",
        "banner",
        "banners",
    }
)
_URL_WORD_RE = re.compile(r"[a-z0-9]+")


def audit_content_losses(
    sites: list[Site], content_lost: Iterable[tuple[str, int, Record]]
) -> list[tuple[str, int]]:
    """Sort the content links a run dropped (``content_lost``: site, page number, record)
    into what they are, by explicit rules applied in
    order (the labels call "content" whatever is neither an EasyList ad nor on half of the
    site's pages): tracking pixels and spacers (declared at most 2x2 pixels, or a URL word
    among :data:`_PIXEL_WORDS`); files the same page draws at most 2 px on a side
    elsewhere; images served by an ad server or linking to one (``is_ad_host``); ad or
    sponsor images by their URL path or their link's; images on at least
    half the pages of their page's own host where the site spans several hosts (one blog of
    a blog host); images repeated on three or more of the site's pages (sidebars, author
    pictures); and the rest."""
    pages_by_site = {site.name: site.pages for site in sites}
    carried: dict[tuple[str, str, str], set[int]] = defaultdict(set)  # (site, host, src)
    host_pages: dict[tuple[str, str], int] = defaultdict(int)
    site_carried: dict[tuple[str, str], set[int]] = defaultdict(set)
    for site in sites:
        for number, page in enumerate(site.pages, 1):
            host = urlsplit(page.url).hostname or ""
            host_pages[(site.name, host)] += 1
            for record in page.records:
                carried[(site.name, host, record.img_src)].add(number)
                site_carried[(site.name, record.img_src)].add(number)
    # The files a page draws at most 2 px on a side somewhere (spacers drawn larger too).
    pixel_files: set[tuple[str, str]] = set()
    for site in sites:
        for page in site.pages:
            for record in page.records:
                if record.kind == "pixel":
                    pixel_files.add((page.url, record.img_src))
    counts: dict[str, int] = defaultdict(int)
    for site_name, _, record in content_lost:
        src = record.img_src
        parts = urlsplit(src.lower())
        words = set(_URL_WORD_RE.findall(parts.path + " " + parts.query))
        width, height = as_int(record.raw.get("width")), as_int(record.raw.get("height"))
        host = urlsplit(record.page_url).hostname or ""
        hosts = {h for (name, h) in host_pages if name == site_name}
        on_host = len(carried[(site_name, host, src)])
        link = urlsplit((record.raw.get("link_href") or "").lower())
        if (width is not None and height is not None and width <= 2 and height <= 2) or (
            words & _PIXEL_WORDS
        ):
            kind = "tracking pixel or spacer"
        elif (record.page_url, src) in pixel_files:
            kind = "a spacer file (drawn at most 2 px elsewhere on the page)"
        elif is_ad_host(parts.hostname or "") or is_ad_host(link.hostname or ""):
            kind = "served by an ad server or linking to one"
        elif set(_URL_WORD_RE.findall(parts.path + " " + link.path)) & _AD_PATH_WORDS:
            kind = "ad or sponsor image by its URL path or its link's"
        elif len(hosts) > 1 and on_host * 2 >= host_pages[(site_name, host)] >= 2:
            kind = "on half its own host's pages (a site of several hosts)"
        elif len(site_carried[(site_name, src)]) >= 3 and len(pages_by_site[site_name]) >= 3:
            kind = "repeated on 3+ of the site's pages, under half"
        else:
            kind = "other"
        counts[kind] += 1
    return sorted(counts.items(), key=lambda kv: -kv[1])
