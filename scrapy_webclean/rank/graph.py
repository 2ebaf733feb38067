"""The link graph of a crawl, read from its exported items (JSON lines) or edge files.

An exported item is ``{"url": ..., "links": {"content": [{"url", "text"}, ...],
"related": [...], "noise": [...]}, ...}``: each link is an edge (the item's URL, the
link's URL, the label of the block the link sits in). An edge file has one edge a line,
``source<TAB>target<TAB>label`` (a page without links: ``source<TAB><TAB>page``), as the
crawl writes it with ``WEBCLEAN_LINK_GRAPH``. Both may be mixed in one input, line by line.

Every source and every target is a page (a node): a target that was never crawled is a
dangling page (no out-links). URLs are taken as written, less their ``#fragment``.
An edge weighs its label's weight; a label of weight 0 (or not in the weights) is dropped,
and duplicate edges are summed (:meth:`LinkGraph.matrix`).
"""

from __future__ import annotations

import json
from array import array
from collections.abc import Iterable, Mapping
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


class GraphBuilder:
    """Collects edges with URLs turned into integer ids as they come."""

    def __init__(self, weights: Mapping[str, float] | None = None) -> None:
        self.weights = dict(DEFAULT_WEIGHTS if weights is None else weights)
        for label, weight in self.weights.items():
            if weight < 0:
                raise ValueError(f"weight of {label!r} is negative: {weight}")
        self.ids: dict[str, int] = {}
        self.urls: list[str] = []
        self._sources = array("q")
        self._targets = array("q")
        self._weights = array("d")

    def page(self, url: str) -> int:
        """The id of ``url`` (less its fragment), a new one the first time."""
        url = url.split("#", 1)[0]
        found = self.ids.get(url)
        if found is None:
            found = self.ids[url] = len(self.urls)
            self.urls.append(url)
        return found

    def add_edge(self, source: str, target: str, label: str) -> None:
        """One link from ``source`` to ``target`` in a block labelled ``label``; dropped
        when the label weighs 0 or is not among the weights."""
        weight = self.weights.get(label, 0.0)
        if weight <= 0 or not source or not target:
            return
        self._sources.append(self.page(source))
        self._targets.append(self.page(target))
        self._weights.append(weight)

    def add_item(self, item: Mapping[str, Any]) -> None:
        """An exported item: its URL is a page (even with no links), each link an edge."""
        url = item.get("url")
        if not isinstance(url, str) or not url:
            return
        self.page(url)
        links = item.get("links") or {}
        if not isinstance(links, Mapping):
            return
        for label, group in links.items():
            for link in group or ():
                target = link.get("url") if isinstance(link, Mapping) else None
                if isinstance(target, str):
                    self.add_edge(url, target, str(label))

    def add_line(self, line: str) -> None:
        """One line of an export (a JSON item) or of an edge file (tab-separated)."""
        line = line.strip()
        if not line:
            return
        if line.startswith("{"):
            self.add_item(json.loads(line))
            return
        fields = line.split("\t")
        if len(fields) != 3:
            raise ValueError(f"neither a JSON item nor source<TAB>target<TAB>label: {line[:80]}")
        source, target, label = fields
        if not target:  # a page without links (the crawl's edge writer: ``page``)
            if source:
                self.page(source)
            return
        self.add_edge(source, target, label)

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
