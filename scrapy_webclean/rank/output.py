"""QuarkRank's output: CSV ``url,rank,in_links``, the highest rank first."""

from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import IO

import numpy as np
import numpy.typing as npt

from scrapy_webclean.rank.graph import LinkGraph


def ranking(ranks: npt.NDArray[np.float64]) -> npt.NDArray[np.int64]:
    """Page ids by rank, highest first (ties in id order)."""
    return np.lexsort((np.arange(len(ranks)), -ranks)).astype(np.int64)


def write_ranks(out: IO[str], graph: LinkGraph, ranks: npt.NDArray[np.float64]) -> None:
    """Write ``url,rank,in_links`` (a header, then one row a page, highest rank first)."""
    in_links = graph.in_links()
    write_rows(
        out,
        ((graph.urls[page], ranks[page], in_links[page]) for page in ranking(ranks).tolist()),
    )


def write_rows(out: IO[str], rows: Iterable[tuple[str, float, int]]) -> None:
    """Write the header, then ``rows`` of ``(url, rank, in_links)`` as they come (already
    sorted: the PySpark engine sorts its own)."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["url", "rank", "in_links"])
    for url, rank, in_links in rows:
        writer.writerow([url, repr(float(rank)), int(in_links)])
