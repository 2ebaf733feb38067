"""QuarkRank's engines, the scipy power iteration and the PySpark job: seconds and peak
memory on a generated web graph.

Usage::

    python benchmarks/rank.py [--pages 1000000] [--links 10000000] [--seed 0] [--tol 1e-10]
    python benchmarks/rank.py --engine spark [--spark-master 'local[*]'] [--driver-memory 6g]

The graph (fixed seed): in-degrees follow a power law (a link's target is page ``k`` of a
random order with probability proportional to ``(k + 1) ** -alpha``, ``--alpha 1`` by
default), out-degrees are uniform over four pages in five (the fifth dangle); each link's
label is drawn with the shares of the demo crawl (content 6%, related 19%, noise 75%) and
weighs the default weight of its label. Timed on one core (``OMP_NUM_THREADS`` and the BLAS
pools set to 1 before numpy loads): building the matrix (``LinkGraph.matrix``, summing the
duplicate links) and the power iteration (``quark_rank``), not the generation. Peak memory
is the process's peak resident set size (``ru_maxrss``), generation included. The goal of
issue 24: at most 60 s and 4 GB for 1M pages and 10M links.

``--engine spark`` writes the graph as an edge file (``p<id><TAB>p<id><TAB>label`` lines,
not timed) and ranks it with ``spark_quark_rank`` from that file, as the command does: Spark
reads and parses the lines, numbers the pages, sums the duplicate links and iterates
(timed: all of it, and the iterations alone). Peak memory is the driver's peak RSS plus
the peak RSS of each process it started (the JVM, Spark's Python workers), read from
``/proc`` before the session stops: an upper bound of what was resident at once.
"""

from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import argparse  # noqa: E402
import resource  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

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


def descendants_peak_mb() -> float:
    """The summed peak RSS (``VmHWM``) of the processes this one started, and theirs."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    ours = {os.getpid()}
    grew = True
    while grew:
        found = {pid for pid, parent in parents.items() if parent in ours} - ours
        grew = bool(found)
        ours |= found
    total = 0.0
    for pid in ours - {os.getpid()}:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                total += int(line.split()[1]) / 1024
    return total


def write_edges(graph: LinkGraph, path: Path) -> None:
    """The graph as an edge file: ``p<source><TAB>p<target><TAB>label`` a line."""
    labels = {weight: label for label, weight in DEFAULT_WEIGHTS.items()}
    names = np.array([labels[weight] for weight in sorted(labels)])
    label_of = names[np.searchsorted(sorted(labels), graph.weights)]
    with path.open("w", encoding="utf-8") as out:
        step = 1_000_000
        for start in range(0, len(graph.sources), step):
            rows = zip(
                graph.sources[start : start + step].tolist(),
                graph.targets[start : start + step].tolist(),
                label_of[start : start + step].tolist(),
                strict=True,
            )
            out.write("".join(f"p{s}\tp{t}\t{label}\n" for s, t, label in rows))


def run_spark(graph: LinkGraph, args: argparse.Namespace) -> None:
    """The PySpark job on the graph written as an edge file (see the module's docstring)."""
    from scrapy_webclean.rank.spark import spark_quark_rank, spark_session

    with tempfile.TemporaryDirectory() as folder:
        edges = Path(folder) / "edges.tsv"
        write_edges(graph, edges)
        del graph
        spark = spark_session(
            args.spark_master,
            {
                "spark.driver.memory": args.driver_memory,
                "spark.sql.shuffle.partitions": str(args.partitions),
                "spark.ui.enabled": "false",
            },
        )
        spark.sparkContext.setLogLevel("ERROR")
        marks: list[float] = []
        started = time.perf_counter()
        ranked = spark_quark_rank(
            str(edges),
            spark,
            tol=args.tol,
            max_iter=args.max_iter,
            on_read=lambda pages, links: marks.append(time.perf_counter()),
            progress=lambda iteration, change: marks.append(time.perf_counter()),
        )
        total = ranked.agg({"rank": "sum"}).first()
        ranked_in = time.perf_counter() - started
        jvm_mb = descendants_peak_mb()
        spark.stop()
    iterations = len(marks) - 1
    print(
        f"spark ({args.spark_master}, {args.partitions} partitions): {ranked_in:.1f} s "
        f"(read, number and sum the links {marks[0] - started:.1f} s; {iterations} "
        f"iterations {marks[-1] - marks[0]:.1f} s; sum of ranks {total[0] if total else 0:.12f})"
    )
    print(
        f"peak RSS: driver {peak_rss_mb():,.0f} MB + JVM and workers {jvm_mb:,.0f} MB "
        f"= {peak_rss_mb() + jvm_mb:,.0f} MB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=1_000_000)
    parser.add_argument("--links", type=int, default=10_000_000)
    parser.add_argument("--alpha", type=float, default=1.0, help="in-degree power-law exponent")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tol", type=float, default=1e-10)
    parser.add_argument("--max-iter", type=int, default=200)
    parser.add_argument("--engine", choices=("scipy", "spark"), default="scipy")
    parser.add_argument("--spark-master", default="local[*]")
    parser.add_argument("--driver-memory", default="6g", help="spark.driver.memory")
    parser.add_argument("--partitions", type=int, default=8, help="spark.sql.shuffle.partitions")
    args = parser.parse_args()

    started = time.perf_counter()
    graph = generate(args.pages, args.links, args.alpha, args.seed)
    generated = time.perf_counter() - started
    print(f"generated {args.pages:,} pages, {args.links:,} links in {generated:.1f} s")
    if args.engine == "spark":
        run_spark(graph, args)
        return

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
