"""QuarkRank on one machine (the scipy power iteration): seconds and peak memory on a
generated web graph.

Usage::

    python benchmarks/rank.py [--pages 1000000] [--links 10000000] [--seed 0] [--tol 1e-10]

The graph (fixed seed): in-degrees follow a power law (a link's target is page ``k`` of a
random order with probability proportional to ``(k + 1) ** -alpha``, ``--alpha 1`` by
default), out-degrees are uniform over four pages in five (the fifth dangle); each link's
label is drawn with the shares of the demo crawl (content 6%, related 19%, noise 75%) and
weighs the default weight of its label. Timed on one core (``OMP_NUM_THREADS`` and the BLAS
pools set to 1 before numpy loads): building the matrix (``LinkGraph.matrix``, summing the
duplicate links) and the power iteration (``quark_rank``), not the generation. Peak memory
is the process's peak resident set size (``ru_maxrss``), generation included. The goal of
issue 24: at most 60 s and 4 GB for 1M pages and 10M links.
"""

from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import argparse  # noqa: E402
import resource  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from scrapy_webclean.rank import DEFAULT_WEIGHTS, LinkGraph, quark_rank  # noqa: E402

#: The share of each label among the links of the demo crawl.
LABEL_SHARES = {"content": 0.06, "related": 0.19, "noise": 0.75}


def generate(pages: int, links: int, alpha: float, seed: int) -> LinkGraph:
    """A web graph with power-law in-degrees (see the module's docstring)."""
    rng = np.random.default_rng(seed)
    popularity = np.arange(1, pages + 1, dtype=np.float64) ** -alpha
    popularity /= popularity.sum()
    order = rng.permutation(pages)
    targets = order[rng.choice(pages, size=links, p=popularity)]
    linking = rng.permutation(pages)[: max(1, pages * 4 // 5)]
    sources = linking[rng.integers(0, len(linking), size=links)]
    label_weights = np.array([DEFAULT_WEIGHTS[label] for label in LABEL_SHARES])
    labels = rng.choice(len(LABEL_SHARES), size=links, p=list(LABEL_SHARES.values()))
    return LinkGraph(
        urls=[""] * pages,  # not needed to rank: one placeholder a page
        sources=sources.astype(np.int64),
        targets=targets.astype(np.int64),
        weights=label_weights[labels],
    )


def peak_rss_mb() -> float:
    """The process's peak resident set size in MB (``ru_maxrss`` is in KB on Linux)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=1_000_000)
    parser.add_argument("--links", type=int, default=10_000_000)
    parser.add_argument("--alpha", type=float, default=1.0, help="in-degree power-law exponent")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tol", type=float, default=1e-10)
    parser.add_argument("--max-iter", type=int, default=200)
    args = parser.parse_args()

    started = time.perf_counter()
    graph = generate(args.pages, args.links, args.alpha, args.seed)
    generated = time.perf_counter() - started
    print(f"generated {args.pages:,} pages, {args.links:,} links in {generated:.1f} s")

    started = time.perf_counter()
    matrix = graph.matrix()
    built = time.perf_counter() - started
    del graph
    iterations: list[float] = []
    started = time.perf_counter()
    ranks = quark_rank(
        matrix,
        tol=args.tol,
        max_iter=args.max_iter,
        progress=lambda iteration, change: iterations.append(change),
    )
    ranked = time.perf_counter() - started
    in_degrees = np.bincount(matrix.indices, minlength=args.pages)
    print(
        f"matrix: {built:.1f} s ({matrix.nnz:,} distinct links; max in-degree "
        f"{in_degrees.max():,}, median {int(np.median(in_degrees))})"
    )
    print(
        f"quark_rank: {ranked:.1f} s, {len(iterations)} iterations "
        f"(last L1 change {iterations[-1]:.2e}; sum of ranks {ranks.sum():.12f})"
    )
    print(f"total (matrix + rank): {built + ranked:.1f} s; peak RSS {peak_rss_mb():,.0f} MB")


if __name__ == "__main__":
    main()
