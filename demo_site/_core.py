"""Shared machinery for the demo site builder: resources, page contexts, ads.

Every site module renders HTML through a :class:`Builder`, which records the
ground truth (what is main text, which images are ads) as a side effect of
rendering, so the truth can never drift from the served pages.
"""

from __future__ import annotations

import html
import json
import random
import re
import zlib
from dataclasses import dataclass, field
from typing import Any

from .content import Article, normalize_ws
from .images import gif_bytes, png_bytes

HOST_COURIER = "127.0.0.2"
HOST_BYTE = "127.0.0.3"
HOST_JIANGCHENG = "127.0.0.4"
HOST_SHUMA = "127.0.0.5"
HOST_DIGEST = "127.0.0.6"
HOST_MIRROR = "127.0.0.7"
HOST_ADS = "127.0.0.10"
HOST_CDN = "127.0.0.11"

#: Hosts with crawlable HTML pages (the spider follows links only here).
CONTENT_HOSTS: tuple[str, ...] = (
    HOST_COURIER,
    HOST_BYTE,
    HOST_JIANGCHENG,
    HOST_SHUMA,
    HOST_DIGEST,
    HOST_MIRROR,
)
#: Hosts that serve nothing but advertising.
AD_HOSTS: tuple[str, ...] = (HOST_ADS, HOST_CDN)
ALL_HOSTS: tuple[str, ...] = CONTENT_HOSTS + AD_HOSTS


@dataclass
class Resource:
    """One HTTP response the demo server can send."""

    body: bytes
    content_type: str
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)


def rng(*parts: object) -> random.Random:
    """A private RNG per decision, so adding a page never reshuffles another.

    Seeds never include the port: the site must be identical on every port.
    """
    return random.Random("demo-site|" + "|".join(str(part) for part in parts))


def esc(text: str) -> str:
    """Escape text for an HTML text node."""
    return html.escape(text, quote=False)


def attr(text: str) -> str:
    """Escape text for a double-quoted HTML attribute."""
    return html.escape(text, quote=True)


def slugify(text: str) -> str:
    """ASCII slug for English article URLs."""
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return slug[:80].rstrip("-") or "article"


_EN_SENTENCE = re.compile(
    r"(?<!\bMr)(?<!\bMrs)(?<!\bMs)(?<!\bDr)(?<!\bSt)(?<!\bProf)"
    r"([.!?][\"'\u201d\u2019]?)\s+(?=[\"'\u201c\u2018(A-Z0-9])"
)
_ZH_SENTENCE = re.compile(r"(?<=[。！？])(?![”’」』）])")


def split_sentences(text: str, lang: str) -> list[str]:
    """Rough sentence split, good enough for summaries and reprint edits."""
    if lang == "zh":
        parts = _ZH_SENTENCE.split(text)
    else:
        pieces = _EN_SENTENCE.split(text)
        parts = [pieces[i] + pieces[i + 1] for i in range(0, len(pieces) - 1, 2)] + [pieces[-1]]
    return [part.strip() for part in parts if part.strip()] or [text]


def first_sentence(text: str, lang: str) -> str:
    """The teaser shown on hub pages."""
    return split_sentences(text, lang)[0]


@dataclass
class PageCtx:
    """Where a page lives and how it is encoded; images register against it."""

    host: str
    path: str
    url: str
    codec: str = "utf-8"
    charset: str = "utf-8"
    meta_charset: str = "utf-8"
    header_charset: bool = True

    @property
    def key(self) -> str:
        """Port-free identity used to seed per-page choices (ad rotation)."""
        return self.host + self.path


@dataclass(frozen=True)
class Story:
    """An article as placed on one site (a reprint may alter the paragraphs)."""

    article: Article
    path: str
    paragraphs: tuple[str, ...]
    time: str
    copy_of: str | None = None
    copy_kind: str | None = None
    source_name: str | None = None

    @property
    def title(self) -> str:
        """Headline, unchanged by reprints."""
        return self.article.title

    @property
    def lang(self) -> str:
        """Language of the article."""
        return self.article.lang


@dataclass
class _ImageSpec:
    url: str
    host: str
    kind: str
    width: int
    height: int
    seed: str
    fmt: str
    pages: list[str] = field(default_factory=list)


class Builder:
    """Collects resources and ground truth while the site modules render."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.resources: dict[str, Resource] = {}
        self.pages: list[dict[str, Any]] = []
        self.sites: dict[str, dict[str, Any]] = {}
        self._images: dict[str, _ImageSpec] = {}
        self._clicks: dict[int, str] = {}

    # -- URLs -----------------------------------------------------------------

    def url(self, host: str, path: str) -> str:
        """Absolute URL on one of the demo hosts."""
        return f"http://{host}:{self.port}{path}"

    def ctx(self, host: str, path: str) -> PageCtx:
        """A fresh UTF-8 page context; sites adjust the encoding fields."""
        return PageCtx(host=host, path=path, url=self.url(host, path))

    def link(self, ctx: PageCtx, host: str, path: str) -> str:
        """Root-relative link when on the same host, absolute otherwise."""
        return path if host == ctx.host else self.url(host, path)

    # -- images -----------------------------------------------------------------

    def image(
        self,
        ctx: PageCtx | None,
        host: str,
        path: str,
        *,
        kind: str,
        width: int,
        height: int,
        seed: str,
        fmt: str = "png",
    ) -> str:
        """Register an image shown on *ctx* and return the ``src`` to write."""
        url = self.url(host, path)
        spec = self._images.get(url)
        if spec is None:
            spec = self._images[url] = _ImageSpec(url, host, kind, width, height, seed, fmt)
        elif (spec.kind, spec.width, spec.height, spec.seed, spec.fmt) != (
            kind,
            width,
            height,
            seed,
            fmt,
        ):
            raise ValueError(f"image {url} registered twice with different specs")
        if ctx is None:
            return url
        if ctx.url not in spec.pages:
            spec.pages.append(ctx.url)
        return self.link(ctx, host, path)

    # -- ads --------------------------------------------------------------------

    def click_url(self, ctx: PageCtx, creative: str, advertiser: str) -> str:
        """Ad-network click-through URL; the landing page is generated later."""
        click_id = 10000 + zlib.crc32(creative.encode()) % 90000
        while self._clicks.get(click_id, advertiser) != advertiser:
            click_id += 1
        self._clicks[click_id] = advertiser
        return self.url(HOST_ADS, f"/click?id={click_id}")

    def ad(
        self,
        ctx: PageCtx,
        host: str,
        path: str,
        width: int,
        height: int,
        *,
        creative: str,
        fmt: str = "png",
        alt: str = "Advertisement",
        dims: bool = True,
        lazy_placeholder: str | None = None,
        img_class: str | None = None,
    ) -> str:
        """An ad ``<img>`` wrapped in a click-through link to the ad network."""
        src = self.image(
            ctx, host, path, kind="ad", width=width, height=height, seed=creative, fmt=fmt
        )
        advertiser = _ADVERTISERS[zlib.crc32(creative.encode()) % len(_ADVERTISERS)]
        href = self.click_url(ctx, creative, advertiser)
        parts = []
        if img_class:
            parts.append(f'class="{attr(img_class)}"')
        if lazy_placeholder:
            parts.append(f'src="{attr(lazy_placeholder)}" data-src="{attr(src)}"')
        else:
            parts.append(f'src="{attr(src)}"')
        if dims:
            parts.append(f'width="{width}" height="{height}"')
        parts.append(f'alt="{attr(alt)}"')
        return (
            f'<a href="{attr(href)}" target="_blank" rel="nofollow sponsored noopener">'
            f"<img {' '.join(parts)}></a>"
        )

    def adnet_leaderboard(self, ctx: PageCtx) -> str:
        """728x90 banner from the ad network, rotating among three creatives."""
        n = rng("leaderboard", ctx.key).randint(1, 3)
        return self.ad(
            ctx, HOST_ADS, f"/ads/banner-728x90-{n}.png", 728, 90, creative=f"adnet-728x90-{n}"
        )

    def adnet_inline(self, ctx: PageCtx) -> str:
        """468x60 in-article banner from the ad network."""
        n = rng("inline468", ctx.key).randint(1, 4)
        return self.ad(
            ctx, HOST_ADS, f"/ads/banner-468x60-{n}.png", 468, 60, creative=f"adnet-468x60-{n}"
        )

    def adnet_promo(self, ctx: PageCtx) -> str:
        """300x250 GIF whose cache-busting query differs on every page."""
        cb = rng("cb", ctx.key).randrange(10**8, 10**10)
        return self.ad(
            ctx,
            HOST_ADS,
            f"/sms/promo_300x250.gif?cb={cb}",
            300,
            250,
            creative="adnet-promo-300x250",
            fmt="gif",
        )

    def adnet_skyscraper(self, ctx: PageCtx) -> str:
        """160x600 skyscraper from the ad network."""
        return self.ad(
            ctx, HOST_ADS, "/banner/sky_160x600.png", 160, 600, creative="adnet-sky-160x600"
        )

    def tracking_pixel(self, ctx: PageCtx) -> str:
        """1x1 GIF beacon with a per-page query (not wrapped in a link)."""
        token = f"{zlib.crc32(ctx.key.encode()):08x}"
        src = self.image(
            ctx,
            HOST_ADS,
            f"/px.gif?u={token}",
            kind="ad",
            width=1,
            height=1,
            seed="pixel",
            fmt="gif",
        )
        return f'<img src="{attr(src)}" width="1" height="1" alt="" style="position:absolute;left:-9999px">'

    def cdn_fixed(self, ctx: PageCtx, width: int, height: int, **kwargs: Any) -> str:
        """CDN creative with an innocent-looking, fixed URL."""
        token, number = _CDN_FIXED[(width, height)]
        return self.ad(
            ctx,
            HOST_CDN,
            f"/c/{token}/img_{number}.png",
            width,
            height,
            creative=f"cdn-{token}",
            **kwargs,
        )

    def cdn_rotating(self, ctx: PageCtx, width: int, height: int, **kwargs: Any) -> str:
        """CDN creative picked per page; some distinct URLs carry identical bytes."""
        pool = _CDN_POOL[(width, height)]
        day, number, creative = pool[rng("cdn", width, height, ctx.key).randrange(len(pool))]
        return self.ad(
            ctx,
            HOST_CDN,
            f"/media/i/{day}/{number}.png",
            width,
            height,
            creative=creative,
            **kwargs,
        )

    # -- pages ------------------------------------------------------------------

    def add_page(
        self,
        ctx: PageCtx,
        markup: str,
        *,
        page_type: str,
        lang: str,
        title: str,
        article_id: str | None = None,
        byline: str | None = None,
        paragraphs: tuple[str, ...] | list[str] = (),
        comments: tuple[str, ...] | list[str] = (),
        copy_of: str | None = None,
        copy_kind: str | None = None,
    ) -> None:
        """Encode and store one HTML page and its ground-truth record."""
        if ctx.url in self.resources:
            raise ValueError(f"duplicate page {ctx.url}")
        body = markup.encode(ctx.codec, errors="xmlcharrefreplace")
        content_type = f"text/html; charset={ctx.charset}" if ctx.header_charset else "text/html"
        self.resources[ctx.url] = Resource(body, content_type)
        self.pages.append(
            {
                "url": ctx.url,
                "host": ctx.host,
                "type": page_type,
                "lang": lang,
                "charset": ctx.charset,
                "charset_in_header": ctx.header_charset,
                "article_id": article_id,
                "title": normalize_ws(title),
                "byline": normalize_ws(byline) if byline is not None else None,
                "paragraphs": [normalize_ws(p) for p in paragraphs],
                "comments": [normalize_ws(c) for c in comments],
                "copy_of": copy_of,
                "copy_kind": copy_kind,
            }
        )

    def add_asset(self, host: str, path: str, body: bytes, content_type: str) -> None:
        """Store a non-page resource such as a stylesheet."""
        self.resources[self.url(host, path)] = Resource(body, content_type)

    def add_site(self, host: str, name: str, lang: str, template_strings: list[str]) -> None:
        """Record a site's identity and the boilerplate strings its pages share."""
        self.sites[host] = {
            "name": name,
            "lang": lang,
            "home": self.url(host, "/"),
            "template_strings": [normalize_ws(s) for s in template_strings],
        }

    # -- finishing ----------------------------------------------------------------

    def finish(self) -> dict[str, Any]:
        """Materialise images, ad landing pages and robots.txt; return the truth."""
        for spec in self._images.values():
            if spec.fmt == "gif":
                body, content_type = gif_bytes(spec.width, spec.height, spec.seed), "image/gif"
            else:
                body, content_type = png_bytes(spec.width, spec.height, spec.seed), "image/png"
            headers = {
                "Cache-Control": "no-store" if spec.kind == "ad" else "public, max-age=86400"
            }
            self.resources.setdefault(spec.url, Resource(body, content_type, headers=headers))
        for click_id, advertiser in sorted(self._clicks.items()):
            page = (
                '<!DOCTYPE html><html><head><meta charset="utf-8">'
                f"<title>{esc(advertiser)}</title></head><body><h1>{esc(advertiser)}</h1>"
                f"<p>Thanks for your interest! Offer code {click_id}.</p></body></html>"
            )
            self.resources[self.url(HOST_ADS, f"/click?id={click_id}")] = Resource(
                page.encode(), "text/html; charset=utf-8"
            )
        robots = b"User-agent: *\nAllow: /\n"
        for host in ALL_HOSTS:
            self.resources[self.url(host, "/robots.txt")] = Resource(
                robots, "text/plain; charset=utf-8"
            )
        images = [
            {
                "url": spec.url,
                "host": spec.host,
                "kind": spec.kind,
                "width": spec.width,
                "height": spec.height,
                "pages": list(spec.pages),
            }
            for spec in sorted(self._images.values(), key=lambda s: s.url)
            if spec.pages
        ]
        return {"port": self.port, "sites": self.sites, "pages": self.pages, "images": images}


_ADVERTISERS = (
    "Acme Widgets Outlet",
    "SunnyDays Travel",
    "QuickLoan Express",
    "极速贷 官方旗舰店",
    "MegaMart Weekend Deals",
    "CloudNine Mattresses",
)

_CDN_FIXED: dict[tuple[int, int], tuple[str, int]] = {
    (300, 250): ("7f3k2", 4411),
    (728, 90): ("q8d1x", 5820),
    (468, 60): ("m2v9a", 3307),
}

# (day folder, file number, creative seed): two URLs per creative, so the same
# bytes show up under different names, as rotating ad servers do.
_CDN_POOL: dict[tuple[int, int], list[tuple[str, int, str]]] = {
    (300, 250): [
        ("20260311", 88213, "cdn-rot-a"),
        ("20260311", 88214, "cdn-rot-b"),
        ("20260312", 90102, "cdn-rot-c"),
        ("20260312", 90177, "cdn-rot-a"),
        ("20260313", 91420, "cdn-rot-b"),
        ("20260313", 91433, "cdn-rot-c"),
    ],
    (728, 90): [
        ("20260311", 77001, "cdn-rot-wide-a"),
        ("20260312", 77342, "cdn-rot-wide-b"),
        ("20260313", 77519, "cdn-rot-wide-a"),
    ],
}


#: Display names of the demo sites, by host.
SITE_NAMES: dict[str, str] = {
    HOST_COURIER: "The Riverside Courier",
    HOST_BYTE: "Byte Harbor",
    HOST_JIANGCHENG: "江城晚报",
    HOST_SHUMA: "数码前沿",
    HOST_DIGEST: "Daily Digest 每日文摘",
    HOST_MIRROR: "Byte Harbor mirror",
}

_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def long_date(iso: str) -> str:
    """``2026-03-14`` -> ``March 14, 2026``."""
    year, month, day = (int(part) for part in iso.split("-"))
    return f"{_MONTHS[month - 1]} {day}, {year}"


def zh_date(iso: str) -> str:
    """``2026-03-14`` -> ``2026年03月14日``."""
    year, month, day = iso.split("-")
    return f"{year}年{month}月{day}日"


def partner_sites(builder: Builder, own_host: str) -> list[tuple[str, str]]:
    """``(home URL, name)`` of the other original sites, for footer blogrolls."""
    hosts = (HOST_COURIER, HOST_BYTE, HOST_JIANGCHENG, HOST_SHUMA, HOST_DIGEST)
    return [(builder.url(host, "/"), SITE_NAMES[host]) for host in hosts if host != own_host]


_STOPWORDS = frozenset(
    [
        "about",
        "after",
        "again",
        "against",
        "among",
        "because",
        "before",
        "being",
        "between",
        "could",
        "first",
        "from",
        "have",
        "into",
        "more",
        "most",
        "other",
        "over",
        "should",
        "their",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "under",
        "until",
        "which",
        "while",
        "with",
        "would",
        "years",
        "year",
        "city",
        "council",
    ]
)

_ZH_TAGS: dict[str, tuple[str, str]] = {
    "city": ("本地", "民生"),
    "environment": ("环保", "生态"),
    "transport": ("交通", "出行"),
    "education": ("教育", "校园"),
    "technology": ("科技", "数码"),
    "science": ("科学", "科研"),
    "health": ("健康", "医疗"),
    "culture": ("文化", "生活"),
    "economy": ("财经", "产业"),
}


def tags_for(article: Article) -> list[str]:
    """Two or three tags: title keywords (English) or section words (Chinese)."""
    if article.lang == "zh":
        return list(_ZH_TAGS[article.category])
    words = [w.lower() for w in re.findall(r"[A-Za-z][A-Za-z-]{4,}", article.title)]
    keywords = [w for w in dict.fromkeys(words) if w not in _STOPWORDS]
    keywords.sort(key=len, reverse=True)
    return [article.category, *keywords[:2]]


def json_ld(data: dict[str, Any]) -> str:
    """Inline JSON-LD, escaped so the text cannot close the script element."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return '<script type="application/ld+json">' + text.replace("</", "<\\/") + "</script>"
