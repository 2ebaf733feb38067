"""The per-site template model, learned online (docs/algorithms.md section 5, generalised).

The paper walks the target page and two other pages of the same site in step and calls
template whatever text they share. During a crawl we have seen more than two pages of a
site, so we count instead: each line of a cleaned page leaves a *signature* (a 64-bit hash
of its text and the tag names of its last few containers) in the site's counter, and a
line of a later page is template when its signature was seen on enough earlier pages of
that site. It helps from the second page of a site on: a short line (a menu entry, a
button, a footer notice) is template once one earlier page had it; a longer line needs
``min_pages`` earlier pages.

Why this never removes a page's own article text because a site repeats a short phrase:
a signature is the whole line, so a phrase inside a paragraph never matches; and a line
must recur on at least ``min_pages`` earlier pages *and* on ``min_share`` of the site's
pages, which an article's own paragraphs do not (a mirrored copy on one more URL of the
same site is still below the bar).

Memory is bounded: at most ``max_sites`` sites (least recently used evicted) and
``max_keys_per_site`` signatures per site (the rarest pruned first). The counts live behind
:class:`TemplateStore`: in memory here, in the JOBDIR or Redis through
``scrapy_webclean.state`` (``WEBCLEAN_STATE``).
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

from scrapy_webclean.extraction.lines import Line
from scrapy_webclean.html.pagemodel import PageModel
from scrapy_webclean.urls import site_of as site_of  # (re-exported: the one meaning of site)

#: How many container tag names go into a line's signature.
PATH_DEPTH = 4


class TemplateStore(Protocol):
    """Where the template model keeps its counts: in memory, or (``scrapy_webclean.state``)
    in the JOBDIR's SQLite file or in Redis."""

    def pages(self, site: str) -> int:
        """Pages of ``site`` learned so far."""
        ...

    def counts(self, site: str, keys: Sequence[int]) -> list[int]:
        """For each signature, on how many learned pages of ``site`` it occurred."""
        ...

    def add_page(self, site: str, keys: Iterable[int]) -> None:
        """Learn one page of ``site``: its distinct signatures."""
        ...


@dataclass(slots=True)
class _SiteCounts:
    pages: int = 0
    counts: dict[int, int] = field(default_factory=dict)


class MemoryTemplateStore:
    """In-process :class:`TemplateStore`, bounded in sites and signatures per site."""

    def __init__(self, max_sites: int = 512, max_keys_per_site: int = 4096) -> None:
        self.max_sites = max_sites
        self.max_keys_per_site = max_keys_per_site
        self._sites: OrderedDict[str, _SiteCounts] = OrderedDict()

    def __len__(self) -> int:
        return len(self._sites)

    def pages(self, site: str) -> int:
        entry = self._sites.get(site)
        return entry.pages if entry else 0

    def counts(self, site: str, keys: Sequence[int]) -> list[int]:
        entry = self._sites.get(site)
        if entry is None:
            return [0] * len(keys)
        self._sites.move_to_end(site)
        get = entry.counts.get
        return [get(key, 0) for key in keys]

    def add_page(self, site: str, keys: Iterable[int]) -> None:
        entry = self._sites.get(site)
        if entry is None:
            entry = self._sites[site] = _SiteCounts()
            while len(self._sites) > self.max_sites:
                self._sites.popitem(last=False)
        else:
            self._sites.move_to_end(site)
        entry.pages += 1
        counts = entry.counts
        for key in set(keys):
            counts[key] = counts.get(key, 0) + 1
        if len(counts) > self.max_keys_per_site:
            self._prune(entry)

    def _prune(self, entry: _SiteCounts) -> None:
        # Keep the most frequent half: template lines are the frequent ones.
        keep = sorted(entry.counts.items(), key=lambda kv: kv[1], reverse=True)
        entry.counts = dict(keep[: self.max_keys_per_site // 2])

    def signature_count(self, site: str) -> int:
        """Signatures stored for ``site`` (for tests and memory reports)."""
        entry = self._sites.get(site)
        return len(entry.counts) if entry else 0


def line_signatures(model: PageModel, lines: Sequence[Line]) -> list[int]:
    """A 64-bit signature per line: its text and the tag names of its last containers."""
    tags, parents = model.tags, model.parents
    above: dict[int, str] = {}  # parent node -> its own path (lines share parents)
    signatures = []
    blake2b, from_bytes = hashlib.blake2b, int.from_bytes
    for line in lines:
        node = line.node
        parent = parents[node] if node > 0 else -1
        path = above.get(parent)
        if path is None:
            names: list[str] = []
            walk = parent
            while walk > 0 and len(names) < PATH_DEPTH - 1:
                names.append(tags[walk])
                walk = parents[walk]
            path = above[parent] = "/".join(names)
        if node > 0:
            path = tags[node] + "/" + path if path else tags[node]
        data = (line.text + "\x00" + path).encode("utf-8", "surrogatepass")
        signatures.append(from_bytes(blake2b(data, digest_size=8).digest(), "big"))
    return signatures


class TemplateEvidence(NamedTuple):
    """What the template model knows of a page's lines (``template_evidence``)."""

    #: Each line recurs on enough earlier pages of the site to be template.
    flags: list[bool]
    #: Each line was met on at least one earlier page of the site.
    seen: list[bool]
    #: Pages of the site learned so far.
    pages: int


class TemplateModel:
    """Learns, per site, which lines recur across pages; flags them on later pages."""

    def __init__(
        self,
        store: TemplateStore | None = None,
        min_pages: int = 2,
        min_share: float = 0.3,
        min_pages_short: int = 1,
    ) -> None:
        self.store: TemplateStore = store if store is not None else MemoryTemplateStore()
        self.min_pages = min_pages
        self.min_share = min_share
        self.min_pages_short = min_pages_short

    def template_flags(
        self, site: str, signatures: Sequence[int], short: Sequence[bool] | None = None
    ) -> list[bool]:
        """True for each line already seen on enough earlier pages of ``site``.

        A line must have been seen on ``min_pages`` earlier pages and on ``min_share`` of
        them; a *short* line (``short[i]``: a menu entry, a footer notice, a button) on
        ``min_pages_short`` pages already, so the model helps from a site's second page
        on, while a long paragraph met on just one other page (a copy, a quotation) is
        never taken for template.
        """
        return self.template_evidence(site, signatures, short).flags

    def template_evidence(
        self, site: str, signatures: Sequence[int], short: Sequence[bool] | None = None
    ) -> TemplateEvidence:
        """:meth:`template_flags`, for each line whether it was seen on any earlier page of
        ``site`` at all, and how many pages of ``site`` were learned (one look-up of the
        store for all three). With no earlier page of the site the flags are all False."""
        pages = self.store.pages(site)
        if pages < 1 or not signatures:
            none = [False] * len(signatures)
            return TemplateEvidence(none, none[:], pages)
        counts = self.store.counts(site, signatures)
        seen = [count >= 1 for count in counts]
        floor = min(self.min_pages, self.min_pages_short) if short is not None else self.min_pages
        if pages < floor:
            return TemplateEvidence([False] * len(signatures), seen, pages)
        share = self.min_share * pages
        needed = max(self.min_pages, share)
        needed_short = max(self.min_pages_short, share)
        if short is None:
            return TemplateEvidence([count >= needed for count in counts], seen, pages)
        flags = [
            count >= (needed_short if is_short else needed)
            for count, is_short in zip(counts, short, strict=False)
        ]
        return TemplateEvidence(flags, seen, pages)

    def learn(self, site: str, signatures: Iterable[int]) -> None:
        """Count one more page of ``site``."""
        self.store.add_page(site, signatures)
