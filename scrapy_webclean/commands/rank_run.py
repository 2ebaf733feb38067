"""``scrapy webclean rank``: QuarkRank of a crawl's link graph, read from its exported
items or edge files, written as CSV (on one machine with scipy, or on Spark)."""

from __future__ import annotations

import gzip
import sys
from argparse import Namespace
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from scrapy.exceptions import UsageError


def parse_weights(
    specs: list[str] | None, base: Mapping[str, float] | None = None
) -> dict[str, float]:
    """The label weights: ``base`` (the ``WEBCLEAN_RANK_WEIGHTS`` setting; QuarkRank's
    defaults when None), with each ``LABEL=WEIGHT`` of ``specs`` over them."""
    from scrapy_webclean.rank import DEFAULT_WEIGHTS

    weights = dict(DEFAULT_WEIGHTS if base is None else base)
    for spec in specs or ():
        label, sep, value = spec.partition("=")
        try:
            weight = float(value)
        except ValueError:
            weight = -1.0
        if not sep or not label.strip() or not weight >= 0:
            raise UsageError(f"--weight wants LABEL=WEIGHT, a weight >= 0: {spec!r}")
        weights[label.strip()] = weight
    return weights


def run_rank(
    sources: list[str], opts: Namespace, base_weights: Mapping[str, float] | None = None
) -> int:
    """``scrapy webclean rank``: QuarkRank of the link graph of ``sources`` (exported items
    or edge files, ``-`` for standard input) as CSV ``url,rank,in_links``, the highest rank
    first, to ``opts.output`` or standard output; progress on standard error. The label
    weights are ``base_weights`` (the project's ``WEBCLEAN_RANK_WEIGHTS``) with
    ``opts.weight`` over them. The exit code."""
    from scrapy_webclean.rank import NotConvergedError, quark_rank, read_graph
    from scrapy_webclean.rank.output import write_ranks

    if not sources:
        raise UsageError("rank wants the crawl's exported items or edge files (or -)")
    weights = parse_weights(opts.weight, base_weights)
    for source in sources:
        if source != "-" and not Path(source).is_file():
            raise UsageError(f"{source} is not a file")
    if opts.engine == "spark":
        return _rank_with_spark(sources, weights, opts)
    if opts.spark_master is not None:
        raise UsageError("--spark-master is for --engine spark")
    files = [_open_text(source) for source in sources]
    try:
        graph = read_graph(files, weights)
    except (ValueError, TypeError) as exc:
        print(f"webclean rank: cannot read the link graph: {exc}", file=sys.stderr)
        return 1
    finally:
        for file in files:
            if file is not sys.stdin:
                file.close()
    _print_graph_size(graph.size, len(graph.sources))
    try:
        ranks = quark_rank(graph, progress=_print_progress, **_iteration_options(opts))
    except (NotConvergedError, ValueError) as exc:
        print(f"webclean rank: {exc}", file=sys.stderr)
        return 1
    with _rank_output(opts) as out:
        write_ranks(out, graph, ranks)
    return 0


def _iteration_options(opts: Namespace) -> dict[str, Any]:
    return {
        "damping": 0.85 if opts.damping is None else opts.damping,
        "tol": 1e-10 if opts.tol is None else opts.tol,
        "max_iter": 200 if opts.max_iter is None else opts.max_iter,
    }


def _print_graph_size(pages: int, links: int) -> None:
    print(f"webclean rank: {pages} pages, {links} links", file=sys.stderr)


def _print_progress(iteration: int, change: float) -> None:
    print(f"webclean rank: iteration {iteration}: L1 change {change:.3e}", file=sys.stderr)


@contextmanager
def _rank_output(opts: Namespace) -> Iterator[IO[str]]:
    """The file of ``-o`` (standard output for none or ``-``)."""
    if opts.output and opts.output != "-":
        with open(opts.output, "w", encoding="utf-8", newline="") as out:
            yield out
    else:
        yield sys.stdout


def _rank_with_spark(sources: list[str], weights: dict[str, float], opts: Namespace) -> int:
    """``rank --engine spark``: Spark reads the files itself (``spark_quark_rank``); the
    same CSV, written from the ranked DataFrame in rank order."""
    from scrapy_webclean.rank import NotConvergedError
    from scrapy_webclean.rank.output import write_rows
    from scrapy_webclean.rank.spark import spark_quark_rank, spark_session

    if "-" in sources:
        raise UsageError("--engine spark reads files, not standard input")
    try:
        spark = spark_session(opts.spark_master or "local[*]")
    except (ImportError, RuntimeError) as exc:
        print(f"webclean rank: {exc}", file=sys.stderr)
        return 1
    try:
        ranked = spark_quark_rank(
            sources,
            spark,
            weights=weights,
            progress=_print_progress,
            on_read=_print_graph_size,
            **_iteration_options(opts),
        )
    except ValueError as exc:
        print(f"webclean rank: cannot read the link graph: {exc}", file=sys.stderr)
        return 1
    except NotConvergedError as exc:
        print(f"webclean rank: {exc}", file=sys.stderr)
        return 1
    from pyspark.sql import functions as F

    rows = ranked.orderBy(F.desc("rank"), F.asc("id")).toLocalIterator()
    with _rank_output(opts) as out:
        write_rows(out, ((row["url"], row["rank"], row["in_links"]) for row in rows))
    return 0


def _open_text(source: str) -> IO[str]:
    """Standard input for ``-``, a gzipped file by its ``.gz`` name, else a UTF-8 file
    (the caller closes it)."""
    if source == "-":
        return sys.stdin
    if source.endswith(".gz"):
        return gzip.open(source, "rt", encoding="utf-8")
    return open(source, encoding="utf-8")
