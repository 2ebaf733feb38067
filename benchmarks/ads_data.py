"""The sets ``ads.py`` judges: the records of the ``ads/`` folder with their labels by the
set's README (:func:`label_of`: ad, pixel, template or content; :func:`load_ads_set`) and
the demo site's known truth (:func:`load_demo_set`), as sites of pages in crawl order.
"""

from __future__ import annotations

import gzip
import json
import re
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))


from scrapy_webclean.ads.links import image_links
from scrapy_webclean.html.loader import load_html


@dataclass(slots=True)
class Record:
    page_url: str
    img_src: str
    kind: str  # ad / pixel / template / content
    raw: dict[str, Any]


@dataclass(slots=True)
class Page:
    url: str
    html: bytes
    records: list[Record]


@dataclass(slots=True)
class Site:
    name: str
    pages: list[Page]


# -- data ----------------------------------------------------------------------------------


#: A host with this many pages in the set has a template of its own (the labels' rule).
HOST_TEMPLATE_MIN_PAGES = 4
#: A declared width or height at most this is a pixel, spacer or rule (the labels' rule).
PIXEL_MAX_SIDE = 2


def label_of(
    record: dict[str, Any],
    site_pages: dict[str, set[str]],
    host_pages: dict[str, set[str]],
    on_site: dict[tuple[str, str], set[str]],
    on_host: dict[tuple[str, str], set[str]],
) -> str:
    """A record's kind by the set's rules: ad, pixel, template or content."""
    if record["label_ad"]:
        return "ad"
    sides = (_declared(record.get("width")), _declared(record.get("height")))
    if any(side is not None and side <= PIXEL_MAX_SIDE for side in sides):
        return "pixel"
    site, host, src = record["site"], record["host"], record["img_src"]
    if 2 * len(on_site[(site, src)]) >= len(site_pages[site]):
        return "template"
    pages = len(host_pages[host])
    if pages >= HOST_TEMPLATE_MIN_PAGES and 2 * len(on_host[(host, src)]) >= pages:
        return "template"
    return "content"


def load_ads_set(root: Path, limit_sites: int | None = None) -> list[Site]:
    records = [json.loads(line) for line in (root / "image-links.jsonl").open(encoding="utf-8")]
    # Pages are the set's files (one page may have been saved twice under one URL).
    site_pages: dict[str, set[str]] = defaultdict(set)
    host_pages: dict[str, set[str]] = defaultdict(set)
    on_site: dict[tuple[str, str], set[str]] = defaultdict(set)
    on_host: dict[tuple[str, str], set[str]] = defaultdict(set)
    for r in records:
        site_pages[r["site"]].add(r["file"])
        host_pages[r["host"]].add(r["file"])
        on_site[(r["site"], r["img_src"])].add(r["file"])
        on_host[(r["host"], r["img_src"])].add(r["file"])
    pages: dict[tuple[str, str], Page] = {}
    for r in records:
        kind = label_of(r, site_pages, host_pages, on_site, on_host)
        key = (r["site"], r["file"])
        if key not in pages:
            pages[key] = Page(r["page_url"], b"", [])
        pages[key].records.append(Record(r["page_url"], r["img_src"], kind, r))
    by_site: dict[str, list[tuple[str, Page]]] = defaultdict(list)
    for (site, file), page in pages.items():
        by_site[site].append((file, page))
    sites = []
    for name in sorted(by_site)[:limit_sites]:
        ordered = sorted(by_site[name], key=lambda file_page: file_page[0])
        for file, page in ordered:
            with gzip.open(root / file) as handle:
                page.html = handle.read()
        sites.append(Site(name, [page for _, page in ordered]))
    return sites


def load_demo_set() -> list[Site]:
    from demo_site.site import build_site

    site = build_site(8800)
    truth = site.truth
    kinds: dict[str, str] = {img["url"]: img["kind"] for img in truth["images"]}
    by_host: dict[str, list[Page]] = defaultdict(list)
    for info in sorted(truth["pages"], key=lambda p: p["url"]):
        resource = site.resources[info["url"]]
        if b"html" not in resource.content_type.encode():
            continue
        page = Page(info["url"], resource.body, [])
        for link in image_links(load_html(resource.body).root, info["url"]):
            kind = kinds.get(link.src)
            if kind is not None:
                page.records.append(Record(info["url"], link.src, kind, {}))
        by_host[info["host"]].append(page)
    return [Site(host, pages) for host, pages in sorted(by_host.items())]


_PIXELS_RE = re.compile(r"\s*(\d+)\s*(?:px)?\s*$", re.I)


def _declared(value: Any) -> int | None:
    """A declared size in CSS pixels, as a browser reads the attribute ("1", "1px"); None
    for none or a percentage."""
    if isinstance(value, int):
        return value
    match = _PIXELS_RE.match(value) if isinstance(value, str) else None
    return int(match.group(1)) if match else None


def as_int(value: Any) -> int | None:
    """A record's field as an integer (a declared size, "120"); None when it is not one."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
