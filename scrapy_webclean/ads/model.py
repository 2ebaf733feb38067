"""``AdImageModel``: one verdict per image link, from everything the crawl has seen.

``observe_page`` records a page's image links (and teaches the per-site models);
``judge`` decides on one image URL before it is fetched. The signals (docs/algorithms.md
section 2) and how they combine, in the order a verdict is reached:

* a filter-list match (optional): an ad outright;
* ad evidence, each with a weight: an ad-serving host for the image or its link (2), a
  standard ad-unit size or a pixel's (1), the noise words of NRelm1
  (``ads/keywords.py``: their summed weights, at most 2), a third-party image behind a third-party link (0.5), and, for an
  image with some evidence already, a third-party host that served ads on
  ``ad_host_pages`` pages of the site before (1); an ad when the evidence reaches
  ``ad_threshold``;
* a declared width or height of at most 2 pixels (tracking pixels, spacers, rules): a
  pixel, dropped as noise;
* template evidence: URL redundancy (NRelm2, ``ads/models.py``) once the site has
  ``min_pages`` pages, its Wilson lower bound at ``redundancy_z`` (``teaser_redundancy_z``
  for a teaser of another article, which repeats for a while and is content) reaching
  ``redundancy_threshold``; the same test over all the pages of the shared platform a
  site is a blog of (the platform's own furniture: ``redundant_on_platform``) and over
  the pages of the page's host, for a site of several hosts (a host's own template:
  ``redundant_on_host``); an image on that share of the pages whose bound falls short is
  not certain yet (a crawler waits for more pages: ``borderline_waits``); or anchor-text
  entropy (NRelm3)
  at or above ``entropy_threshold``. An image the cleaner found in a main content of the
  site (:meth:`AdImageModel.note_main_content`) is never template;
* otherwise content. A verdict is *certain* once the site (or, for a platform's or a
  host's template, the platform or host) has ``min_pages`` pages, or for an ad or pixel found by its own evidence;
  before that a crawler may wait for more pages.

Each verdict names its kind (``ad``, ``pixel``, ``template``, ``content``) and the rules
that fired (``Verdict.reasons``; ``Verdict.reason`` the main one): the words of the crawl's
stats (``webclean/images/dropped/<reason>``) and of ``scrapy webclean --images``.

Memory: the links of the last ``recent_pages`` pages are remembered for ``judge`` (what
their anchors, sizes and links say), at most :data:`MAX_IMAGES_PER_PAGE` of a page and
:data:`MAX_RECENT_IMAGES` in all (about 700 bytes each), the oldest pages forgotten
first; the images a cleaner found in a page's main content likewise. Every image of a
page counts in the site's statistics, remembered or not. An image past a page's cap, or
of a page forgotten, is judged as an image never seen on its page: by the last
remembered occurrence of its URL on another page, else by its URL alone (host, file
name, the site's statistics), so its anchor, alt text and declared size no longer count
(a 1x1 pixel past the cap is not caught by its size).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Sequence, Sized
from dataclasses import dataclass
from itertools import islice
from typing import Generic, TypeVar

from lxml import etree

from scrapy_webclean.ads.features import (
    file_name_tokens,
    geometry,
    image_key,
    is_ad_host,
    is_teaser,
    tokens,
)
from scrapy_webclean.ads.filterlist import FilterList
from scrapy_webclean.ads.keywords import NoiseWordModel
from scrapy_webclean.ads.links import ImageLink, image_links
from scrapy_webclean.ads.models import AnchorEntropyModel, UrlRedundancyModel
from scrapy_webclean.ads.options import AdModelOptions
from scrapy_webclean.ads.scopes import wider_scopes
from scrapy_webclean.ads.stats import AdStatsStore, MemoryAdStatsStore
from scrapy_webclean.ads.verdict import Verdict
from scrapy_webclean.html.loader import load_html
from scrapy_webclean.text.stopwords import all_stopwords
from scrapy_webclean.urls import host_of, same_party, site_key

_AD_HOSTS = "ad_hosts"
_MAIN = "main_content"
#: Per image key, the cleaned pages (``note_main_content``) that show it.
_SHOWN_CLEANED = "shown_cleaned"
#: The images of the recent pages remembered by URL: at most this many per recent page
#: (``AdModelOptions.recent_pages``), the oldest forgotten first.
IMAGES_PER_RECENT_PAGE = 50
#: Images of one page remembered for ``judge``, in page order (the 2,532 pages of the
#: extraction sets and the 1,037 of the ad set have at most 693 ``<img>`` tags).
MAX_IMAGES_PER_PAGE = 1_000
#: Images of all the recent pages remembered for ``judge``, and as many main-content
#: images: the oldest pages are forgotten first (50 a page for 512 pages; those sets'
#: pages average 34).
MAX_RECENT_IMAGES = 25_600


class AdImageModel:
    """Observe pages, judge image links (the middleware is a thin shell over this)."""

    def __init__(
        self,
        options: AdModelOptions | None = None,
        store: AdStatsStore | None = None,
        filter_list: FilterList | None = None,
    ) -> None:
        self.options = options or AdModelOptions()
        self.store: AdStatsStore = store if store is not None else MemoryAdStatsStore()
        self.redundancy = UrlRedundancyModel(self.store)
        self.entropy = AnchorEntropyModel(self.store)
        self.keywords = NoiseWordModel(self.options.words, self.options.keyword_cap)
        self.filter_list = filter_list
        self._recent: _RecentPages[dict[str, _Observed]] = _RecentPages(
            self.options.recent_pages, MAX_RECENT_IMAGES
        )
        self._by_src: OrderedDict[str, _Observed] = OrderedDict()
        self._described: dict[
            tuple[object, ...], tuple[str, list[str], float, tuple[str, ...]]
        ] = {}
        self._stop = all_stopwords()
        #: Pages whose main content a cleaner reported (:meth:`note_main_content`), with
        #: the keys of the images found in it (the first ``MAX_IMAGES_PER_PAGE``).
        self._cleaned: _RecentPages[frozenset[str]] = _RecentPages(
            self.options.recent_pages, MAX_RECENT_IMAGES
        )

    # -- observing -----------------------------------------------------------------------

    def observe_page(self, page_url: str, html: str | bytes | etree._Element) -> list[ImageLink]:
        """Record a page's image links and learn from them; returns the links."""
        root = html if isinstance(html, etree._Element) else load_html(html).root
        hidden = None
        if self.filter_list is not None:
            hidden = self.filter_list.hidden_elements(root, page_url)
        links = image_links(root, page_url, hidden)
        self.observe_links(page_url, links)
        return links

    def note_main_content(self, page_url: str, image_srcs: list[str]) -> None:
        """Record the images a cleaner found inside a page's main content (none, too).

        An image is never template when judged for a page whose main content holds it,
        nor on any page of the site once it was in the main content of at least
        ``main_content_share`` of the cleaned pages that show it (an article photo the
        site repeats); an icon a cleaner took in with the text of one page of many (a
        print button, a spinner) is protected on that page only. The page's main content
        is then known (:meth:`main_content_known`)."""
        site = site_key(page_url)
        keys = {image_key(src) for src in image_srcs}
        kept = keys
        if len(keys) > MAX_IMAGES_PER_PAGE:  # (the first ones of the page)
            kept = set(islice(dict.fromkeys(map(image_key, image_srcs)), MAX_IMAGES_PER_PAGE))
        self._cleaned.put(page_url, frozenset(kept))
        updates: list[tuple[str, list[tuple[str, float]]]] = []
        if keys:
            updates.append((_MAIN, [(key, 1.0) for key in keys]))
        observed = self._recent.get(page_url)
        if observed:
            shown = {entry.key for entry in observed.values()}
            updates.append((_SHOWN_CLEANED, [(key, 1.0) for key in shown]))
        if updates:
            self.store.add_many(site, updates)

    def observe_links(self, page_url: str, links: list[ImageLink]) -> None:
        """Record already extracted image links of a page (see :func:`image_links`)."""
        site = site_key(page_url)
        observed: dict[str, _Observed] = {}
        ad_hosts: dict[str, float] = {}
        described: list[tuple[str, list[str]]] = []
        for link in links:
            key, words, evidence, reasons = self._describe(link, site)
            known = observed.get(link.src)
            # An image is judged by its first occurrence on the page, unless a later one
            # declares it a pixel: a file the page stretches to 1 px anywhere (a spacer
            # also drawn 10x10, a rule) is a spacer file, whatever its first size.
            if known is None or ("pixel" in reasons and "pixel" not in known.reasons):
                observed[link.src] = _Observed(
                    link, key, words, evidence, reasons, is_teaser(link, site)
                )
                if evidence >= self.options.ad_threshold:
                    ad_hosts[host_of(link.src)] = 1.0
            described.append((key, words))
        # One read (the matrix cells the page touches) and one write for the whole page.
        updates = self.entropy.updates(site, described)
        if ad_hosts:
            # Hosts that served ads on this site: their other images are suspect too.
            updates.append((_AD_HOSTS, list(ad_hosts.items())))
        keys = [entry.key for entry in observed.values()]
        updates += self.redundancy.page_updates(keys)
        self.store.add_many(site, updates)
        for scope, _ in wider_scopes(page_url, site):
            # A blog of a shared platform: its pages count for the platform's furniture
            # too; a host of a site of several hosts may have a template of its own.
            self.store.add_many(scope, self.redundancy.page_updates(keys))
        self._remember(page_url, observed)

    def _describe(
        self, link: ImageLink, site: str
    ) -> tuple[str, list[str], float, tuple[str, ...]]:
        """A link's key, words and ad evidence: the same on every page of a site that
        shows the same image the same way (template images), so remembered (bounded)."""
        memo = (site, link.src, link.link, link.anchor, link.alt, link.title, link.width,
                link.height, link.context, link.hidden)  # fmt: skip
        known = self._described.get(memo)
        if known is None:
            reasons: list[str] = []
            evidence = self._ad_evidence(link, site, reasons)
            known = (image_key(link.src), self._words(link), evidence, tuple(reasons))
            if len(self._described) >= _DESCRIBED_CAP:
                self._described.clear()
            self._described[memo] = known
        return known

    def _words(self, link: ImageLink) -> list[str]:
        # NRelm3's words: jieba's words of Chinese text (a whole Chinese anchor as one token
        # would occur once and carry no entropy), then the image file name's words.
        text = " ".join((link.anchor, link.alt, link.title))
        words = [w for w in tokens(text) if w not in self._stop and not w.isdigit()]
        words.extend(file_name_tokens(link.src))
        return words

    def _remember(self, page_url: str, observed: dict[str, _Observed]) -> None:
        if len(observed) > MAX_IMAGES_PER_PAGE:
            observed = dict(islice(observed.items(), MAX_IMAGES_PER_PAGE))
        self._recent.put(page_url, observed)
        for src, entry in observed.items():
            self._by_src[src] = entry
            self._by_src.move_to_end(src)
        while len(self._by_src) > IMAGES_PER_RECENT_PAGE * self.options.recent_pages:
            self._by_src.popitem(last=False)

    def main_content_known(self, page_url: str) -> bool:
        """True when a cleaner reported the page's main content (one of the last
        ``recent_pages`` pages it reported)."""
        return page_url in self._cleaned

    def seen_image(self, src: str) -> bool:
        """True when ``src`` was seen as an ``<img>`` on a recently observed page."""
        return src in self._by_src

    def pages_seen(self, url: str) -> int:
        """Pages observed so far of the site ``url`` belongs to."""
        return self.redundancy.pages(site_key(url))

    # -- judging -------------------------------------------------------------------------

    def judge(self, img_src: str, page_url: str | None = None) -> Verdict:
        """The verdict on image ``img_src`` linked from ``page_url`` (if known)."""
        opts = self.options
        entry = None
        if page_url is not None:
            page = self._recent.get(page_url)
            entry = page.get(img_src) if page is not None else None
        if entry is None:
            entry = self._by_src.get(img_src)
        site = site_key(page_url or (entry.link.page_url if entry is not None else img_src))
        teaser = False
        if entry is not None:
            link, key, words, teaser = entry.link, entry.key, entry.words, entry.teaser
            page_url = page_url or link.page_url
            score, reasons = entry.evidence, list(entry.reasons)
        else:
            link = ImageLink(page_url or "", img_src)
            key, words = image_key(img_src), file_name_tokens(img_src)
            reasons = []
            score = self._ad_evidence(link, site, reasons)

        if self.filter_list is not None and (
            link.hidden or self.filter_list.blocks(img_src, page_url)
        ):
            return Verdict(True, "ad", 10.0, ("filter_list",))

        if score >= opts.ad_threshold:
            return Verdict(True, "ad", score, tuple(reasons))
        if "pixel" in reasons:
            return Verdict(True, "pixel", score, tuple(reasons))
        # Everything the verdict may need from the site's statistics, in one read (one
        # round trip when they live in Redis).
        img_host = host_of(img_src) if score > 0 else ""
        ask_host = bool(img_host) and not same_party(img_host, site)
        gets: list[tuple[str, Sequence[str]]] = [
            *UrlRedundancyModel.reads(key),
            (_MAIN, (key,)),
            (_SHOWN_CLEANED, (key,)),
        ]
        gets += AnchorEntropyModel.reads(words)
        if ask_host:
            gets.append((_AD_HOSTS, (img_host,)))
        found, (links_seen,) = self.store.fetch(site, gets, (UrlRedundancyModel.LINKS_FAMILY,))
        (pages_count,), (url_count,), (in_main,), (shown_cleaned,), sums, xlogxs = found[:6]
        # In this page's main content, or in that of a share of the cleaned pages that
        # show it: a photo of the content (see note_main_content).
        in_this_page = page_url is not None and key in (self._cleaned.get(page_url) or ())
        in_main_content = in_this_page or (
            in_main > 0 and in_main >= opts.main_content_share * shown_cleaned
        )
        if ask_host and found[6][0] >= opts.ad_host_pages:
            reasons.append("serves_ads_here")
            score += opts.learned_ad_host_weight
            if score >= opts.ad_threshold:
                return Verdict(True, "ad", score, tuple(reasons))

        pages = int(pages_count)
        certain = pages >= opts.min_pages
        z = opts.teaser_redundancy_z if teaser else opts.redundancy_z
        if certain:
            share = UrlRedundancyModel.share(url_count, pages)
            if _lower_bound(share, pages, z) >= opts.redundancy_threshold:
                reasons.append("redundant")
                score += share
            elif opts.borderline_waits and share >= opts.redundancy_threshold:
                # On most of the pages so far, too few pages to be sure: wait for more.
                certain = False
        for scope, reason in wider_scopes(page_url or img_src, site):
            if "redundant" in reasons or reason in reasons or in_main_content:
                break
            # The same test over a platform's pages (its icons, its default avatars are
            # on every blog of it) or over one host's pages (its own template).
            (scope_pages,), (scope_count,) = self.store.fetch(scope, UrlRedundancyModel.reads(key))[
                0
            ]
            pages_there = int(scope_pages)
            if pages_there >= opts.min_pages:
                share = UrlRedundancyModel.share(scope_count, pages_there)
                if _lower_bound(share, pages_there, z) >= opts.redundancy_threshold:
                    reasons.append(reason)
                    score += share
                    certain = True
        entropy = AnchorEntropyModel.entropy_of(sums, xlogxs, links_seen)
        if entropy >= opts.entropy_threshold and certain:
            reasons.append("anchor_entropy")
            score += entropy
        if (
            "redundant" in reasons
            or "redundant_on_platform" in reasons
            or "redundant_on_host" in reasons
            or ("anchor_entropy" in reasons)
        ):
            if in_main_content:
                reasons.append("in_main_content")
                return Verdict(False, "content", score, tuple(reasons), certain)
            return Verdict(opts.drop_template, "template", score, tuple(reasons), certain)
        return Verdict(False, "content", score, tuple(reasons), certain)

    def _ad_evidence(self, link: ImageLink, site: str, reasons: list[str]) -> float:
        opts = self.options
        score = 0.0
        img_host, link_host = host_of(link.src), host_of(link.link)
        if is_ad_host(img_host) or (link_host and is_ad_host(link_host)):
            reasons.append("ad_host")
            score += opts.ad_host_weight
        shape = geometry(link)
        if shape == "pixel":
            reasons.append("pixel")
            score += opts.pixel_weight
        elif shape == "ad_size":
            reasons.append("ad_size")
            score += opts.ad_size_weight
        keyword = self.keywords.score(link)
        if keyword:
            reasons.append("noise_words")
            score += keyword
        if (
            site
            and img_host
            and not same_party(img_host, site)
            and (not link_host or not same_party(link_host, site))
        ):
            reasons.append("third_party")
            score += opts.third_party_weight
        return score


#: Link descriptions remembered (cleared when full).
_DESCRIBED_CAP = 20_000

_Entries = TypeVar("_Entries", bound=Sized)


class _RecentPages(Generic[_Entries]):
    """Something per page (a collection of its images) for the last pages put: at most
    ``max_pages`` pages and ``max_entries`` entries in all (the sizes of what is kept),
    the least recently put forgotten first (the last page put is kept, whatever its
    size)."""

    def __init__(self, max_pages: int, max_entries: int) -> None:
        self.max_pages = max_pages
        self.max_entries = max_entries
        self._pages: OrderedDict[str, _Entries] = OrderedDict()
        #: Entries kept, over all pages.
        self.entries = 0

    def __len__(self) -> int:
        return len(self._pages)

    def __contains__(self, page_url: object) -> bool:
        return page_url in self._pages

    def get(self, page_url: str) -> _Entries | None:
        return self._pages.get(page_url)

    def put(self, page_url: str, value: _Entries) -> None:
        """Keep ``value`` for ``page_url`` (replacing what was kept), as the newest."""
        old = self._pages.pop(page_url, None)
        if old is not None:
            self.entries -= len(old)
        self._pages[page_url] = value
        self.entries += len(value)
        while len(self._pages) > 1 and (
            len(self._pages) > self.max_pages or self.entries > self.max_entries
        ):
            _, gone = self._pages.popitem(last=False)
            self.entries -= len(gone)


@dataclass(slots=True)
class _Observed:
    """An observed link with what does not change later: its key, words, ad evidence."""

    link: ImageLink
    key: str
    words: list[str]
    evidence: float
    reasons: tuple[str, ...]
    teaser: bool = False


def _lower_bound(share: float, pages: int, z: float) -> float:
    """Wilson score lower bound of a share (0-1) observed over ``pages`` pages."""
    if pages <= 0:
        return 0.0
    z2 = z * z
    centre = share + z2 / (2 * pages)
    spread = z * math.sqrt(max(share * (1 - share) / pages + z2 / (4 * pages * pages), 0.0))
    return (centre - spread) / (1 + z2 / pages)
