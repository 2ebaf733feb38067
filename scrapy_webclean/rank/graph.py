"""The link graph of a crawl, read from its exported items (JSON lines) or edge files.

An exported item is ``{"url": ..., "links": {"content": [{"url", "text"}, ...],
"related": [...], "noise": [...]}, ...}``: each link is an edge (the item's URL, the
link's URL, the label of the block the link sits in). An edge file has one edge a line,
``source<TAB>target<TAB>label[<TAB>anchor]`` (a page without links: ``source<TAB><TAB>page``), as the
crawl writes it with ``WEBCLEAN_LINK_GRAPH``. Both may be mixed in one input, line by line.

Every source and every target is a page (a node): a target that was never crawled is a
dangling page (no out-links). URLs are taken as written, less their ``#fragment``.
An edge weighs its label's weight; a label of weight 0 (or not in the weights) is dropped,
and duplicate edges are summed (:meth:`LinkGraph.matrix`).
"""

from __future__ import annotations

import json
from array import array
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import IO, Any

import numpy as np
import numpy.typing as npt
from scipy import sparse  # type: ignore[import-untyped]

#: docs/algorithms.md, section 4: a page's rank goes to its out-links in proportion to the
#: weight of the block each link sits in.
DEFAULT_WEIGHTS: dict[str, float] = {"content": 1.5, "related": 0.5, "noise": 0.5}


@dataclass
class LinkGraph:
    """Pages (``urls[i]`` is page ``i``) and weighted edges ``sources[k] -> targets[k]``
    (duplicates not yet summed)."""

    urls: list[str]
    sources: npt.NDArray[np.int64]
    targets: npt.NDArray[np.int64]
    weights: npt.NDArray[np.float64]

    @property
    def size(self) -> int:
        """The number of pages."""
        return len(self.urls)

    def matrix(self) -> Any:
        """The weighted adjacency matrix, ``scipy.sparse.csr_matrix`` of shape (n, n):
        entry (i, j) is the summed weight of the edges from page i to page j."""
        n = self.size
        coo = sparse.coo_matrix((self.weights, (self.sources, self.targets)), shape=(n, n))
        csr = coo.tocsr()  # sums duplicate entries
        csr.sum_duplicates()
        return csr

    def in_links(self) -> npt.NDArray[np.int64]:
        """For each page, how many distinct other pages link to it (self links left out)."""
        n = self.size
        other = self.sources != self.targets
        pairs = np.unique(self.sources[other] * np.int64(n) + self.targets[other])
        return np.bincount(pairs % n, minlength=n).astype(np.int64)


#: ``(source, target, weight)`` of an edge kept, ``(page, None, 0.0)`` for a page alone;
#: URLs less their ``#fragment``.
Edge = tuple[str, str | None, float]


def _page_url(url: str) -> str:
    return url.split("#", 1)[0]


def _edge(source: str, target: str, label: str, weights: Mapping[str, float]) -> Iterator[Edge]:
    """A link from ``source`` to ``target`` in a block labelled ``label``: nothing when the
    label weighs 0 or is not among the weights, or when either URL is empty."""
    weight = weights.get(label, 0.0)
    if weight > 0 and source and target:
        yield _page_url(source), _page_url(target), weight


def item_edges(item: Mapping[str, Any], weights: Mapping[str, float]) -> Iterator[Edge]:
    """An exported item's page (its URL, even with no links), then each of its links."""
    url = item.get("url")
    if not isinstance(url, str) or not url:
        return
    yield _page_url(url), None, 0.0
    links = item.get("links") or {}
    if not isinstance(links, Mapping):
        return
    for label, group in links.items():
        for link in group or ():
            target = link.get("url") if isinstance(link, Mapping) else None
            if isinstance(target, str):
                yield from _edge(url, target, str(label), weights)


def line_edges(line: str, weights: Mapping[str, float]) -> Iterator[Edge]:
    """The pages and edges of one line of an export (a JSON item) or of an edge file
    (tab-separated), in the order they appear: what :class:`GraphBuilder` takes from it,
    and what the PySpark engine (:mod:`scrapy_webclean.rank.spark`) reads, line by line."""
    line = line.strip()
    if not line:
        return
    if line.startswith("{"):
        yield from item_edges(json.loads(line), weights)
        return
    fields = line.split("\t")
    if len(fields) not in (3, 4):  # (the fourth field, the anchor text, is not read)
        raise ValueError(
            f"neither a JSON item nor source<TAB>target<TAB>label[<TAB>anchor]: {line[:80]}"
        )
    source, target, label = fields[:3]
    if not target:  # a page without links (the crawl's edge writer: ``page``)
        if source:
            yield _page_url(source), None, 0.0
        return
    yield from _edge(source, target, label, weights)


def checked_weights(weights: Mapping[str, float] | None) -> dict[str, float]:
    """The label weights (the defaults when ``None``); a negative one is a ``ValueError``."""
    checked = dict(DEFAULT_WEIGHTS if weights is None else weights)
    for label, weight in checked.items():
        if weight < 0:
            raise ValueError(f"weight of {label!r} is negative: {weight}")
    return checked


class GraphBuilder:
    """Collects edges with URLs turned into integer ids as they come."""

    def __init__(self, weights: Mapping[str, float] | None = None) -> None:
        self.weights = checked_weights(weights)
        self.ids: dict[str, int] = {}
        self.urls: list[str] = []
        self._sources = array("q")
        self._targets = array("q")
        self._weights = array("d")

    def page(self, url: str) -> int:
        """The id of ``url`` (less its fragment), a new one the first time."""
        url = _page_url(url)
        found = self.ids.get(url)
        if found is None:
            found = self.ids[url] = len(self.urls)
            self.urls.append(url)
        return found

    def add_edges(self, edges: Iterable[Edge]) -> None:
        """Pages and edges as :func:`line_edges` gives them."""
        for source, target, weight in edges:
            page = self.page(source)
            if target is not None:
                self._sources.append(page)
                self._targets.append(self.page(target))
                self._weights.append(weight)

    def add_edge(self, source: str, target: str, label: str) -> None:
        """One link from ``source`` to ``target`` in a block labelled ``label``; dropped
        when the label weighs 0 or is not among the weights."""
        self.add_edges(_edge(source, target, label, self.weights))

    def add_item(self, item: Mapping[str, Any]) -> None:
        """An exported item: its URL is a page (even with no links), each link an edge."""
        self.add_edges(item_edges(item, self.weights))

    def add_line(self, line: str) -> None:
        """One line of an export (a JSON item) or of an edge file (tab-separated)."""
        self.add_edges(line_edges(line, self.weights))

    def add_lines(self, lines: Iterable[str]) -> None:
        """Every line of an input (see :meth:`add_line`)."""
        for line in lines:
            self.add_line(line)

    def graph(self) -> LinkGraph:
        """The graph so far."""
        return LinkGraph(
            urls=list(self.urls),
            sources=np.frombuffer(self._sources, dtype=np.int64).copy(),
            targets=np.frombuffer(self._targets, dtype=np.int64).copy(),
            weights=np.frombuffer(self._weights, dtype=np.float64).copy(),
        )


def read_graph(files: Iterable[IO[str]], weights: Mapping[str, float] | None = None) -> LinkGraph:
    """The link graph of exported items (JSON lines) and/or edge files, open as text."""
    builder = GraphBuilder(weights)
    for file in files:
        builder.add_lines(file)
    return builder.graph()
