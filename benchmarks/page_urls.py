"""Where the extraction sets' pages get their URLs (``datasets.py`` loads the sets): the URL
a page declares for itself, a made-up URL for a page of a set without URLs, a URL of its
own for a page that was given another page's, and a URL's host."""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:  # (datasets.py imports this module)
    from datasets import Page

_LINK_RE = re.compile(rb"<link\b[^>]*>", re.I)
_META_RE = re.compile(rb"<meta\b[^>]*>", re.I)


def _attribute(tag: bytes, name: bytes) -> bytes | None:
    match = re.search(rb"\b" + name + rb"""\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", tag, re.I)
    if match is None:
        return None
    return next(g for g in match.groups() if g is not None)


def declared_url(html: bytes) -> str | None:
    """The absolute URL a page declares for itself: ``<link rel=canonical href>``, else
    ``<meta property=og:url content>``; None when it declares neither."""
    candidates = [
        _attribute(tag, b"href")
        for tag in _LINK_RE.findall(html)
        if (_attribute(tag, b"rel") or b"").lower() == b"canonical"
    ]
    candidates += [
        _attribute(tag, b"content")
        for tag in _META_RE.findall(html)
        if (_attribute(tag, b"property") or b"").lower() == b"og:url"
    ]
    for raw in candidates:
        url = (raw or b"").decode("utf-8", "replace").strip()
        if url.startswith(("http://", "https://")):
            return url
    return None


def host_of(url: str) -> str:
    """A URL's host, lower-cased, without a leading ``www.``."""
    host = (urlsplit(url).hostname or "").lower()
    return host.removeprefix("www.")


def fake_url(set_name: str, site: str, page_id: str) -> str:
    """The made-up URL of a page of a set without URLs."""
    return f"http://{site}.{set_name}.invalid/{page_id.rsplit('/', 1)[-1]}"


def unshare_urls(pages: list[Page]) -> list[str]:
    """Give a page of its own URL when several pages of the set were given one: 147
    dragnet-gold pages (articles, each with its own gold text) share the front-page URLs of
    22 sites, which a crawl would never give an article. Such a page takes the URL it
    declares (``<link rel=canonical>``, else ``og:url``) when that one is its own, else
    ``<the shared URL's site>/<set>/<id>`` (made up: ``url_is_real`` False; the host, so the
    site, registered domain and fold, stay the same). Returns the notes to report."""
    counts = Counter(p.url for p in pages)
    declared = {p.id: declared_url(p.html) for p in pages if counts[p.url] > 1}
    declared_counts = Counter(declared.values())
    shared = {p.url for p in pages if counts[p.url] > 1}
    made_up = own = 0
    for page in pages:
        if page.url not in shared:
            continue
        mine = declared[page.id]
        if mine and declared_counts[mine] == 1 and mine not in shared:
            page.url = mine
            own += 1
        else:
            parts = urlsplit(page.url or "")
            page.url = f"{parts.scheme}://{parts.netloc}/{page.set_name}/{page.id}"
            page.url_is_real = False
            made_up += 1
    if not shared:
        return []
    return [
        f"{own + made_up} pages shared {len(shared)} URLs (sites' front pages): {own} take the "
        f"URL they declare, {made_up} a made-up one, <site>/{pages[0].set_name}/<id>"
    ]
