"""QuarkRank as a PySpark job, for link graphs beyond one machine.

The same computation as :func:`scrapy_webclean.rank.quark_rank` (the scipy engine), on
Spark DataFrames: the edges ``(src, dst, weight)``, duplicates summed, each divided by its
source's out-weight (``share``); the ranks ``(id, dangling, rank)``. Each iteration joins
the shares with the ranks on the source, sums the products per target and adds what every
page gets, ``(damping * leaked + 1 - damping) / n`` (``leaked`` the rank of the dangling
pages); one aggregate then gives the L1 change and the next ``leaked``. Both tables are
hash-partitioned by page (``spark.sql.shuffle.partitions`` parts) so that the join does not
move the edges again; the ranks are cached each iteration and check-pointed locally every
``checkpoint_every`` iterations, so that the plan does not grow with the iterations.

The input is a :class:`LinkGraph` (ranked in memory first: the tests and small graphs) or
edge files and exports that Spark reads itself (``sc.textFile``: plain or ``.gz``, local
paths or any Hadoop file system, ``*`` globs), parsed line by line with the same
:func:`~scrapy_webclean.rank.graph.line_edges` as :func:`~scrapy_webclean.rank.read_graph`:
pages get the ids ``read_graph`` would give them (the order in which they first appear),
so the ranks, and the ties in the output, are the same.

PySpark is the ``spark`` extra (``pip install 'scrapy-webclean[spark]'``), imported only
here and only when called; Spark wants a Java runtime (17 or later).
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, overload

import numpy as np
import numpy.typing as npt

from scrapy_webclean.rank.graph import LinkGraph, checked_weights, line_edges
from scrapy_webclean.rank.quarkrank import NotConvergedError, Progress

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

#: How to install what the engine imports.
INSTALL_HINT = "pip install 'scrapy-webclean[spark]'"

#: ``on_read(pages, links)``: the size of the graph once read (links before duplicates are
#: summed, as ``len(LinkGraph.sources)``).
GraphRead = Callable[[int, int], None]

#: What :func:`spark_session` sets unless told otherwise: no console progress bars (the
#: engine reports each iteration itself).
DEFAULT_CONFIG: dict[str, str] = {"spark.ui.showConsoleProgress": "false"}

#: Edges shipped from a :class:`LinkGraph` to the executors per task.
_CHUNK = 200_000


def _require_pyspark() -> None:
    try:
        import pyspark  # noqa: F401
    except ImportError as exc:
        raise ImportError(f"the spark engine needs PySpark: {INSTALL_HINT}") from exc


def java_command() -> str | None:
    """The ``java`` Spark will start: ``$JAVA_HOME/bin/java``, else the one on the PATH."""
    java_home = os.environ.get("JAVA_HOME")
    if java_home and (Path(java_home) / "bin" / "java").is_file():
        return str(Path(java_home) / "bin" / "java")
    return shutil.which("java")


def spark_session(
    master: str = "local[*]",
    config: Mapping[str, str] | None = None,
    app_name: str = "webclean-rank",
) -> SparkSession:
    """A SparkSession (the active one if there is one: Spark has one per process) with
    :data:`DEFAULT_CONFIG` and ``config``. With a ``local`` master the Python workers run
    this interpreter (``PYSPARK_PYTHON``, unless set). A clear error when PySpark or Java
    is missing."""
    _require_pyspark()
    if java_command() is None:
        raise RuntimeError(
            "the spark engine needs a Java runtime (17 or later): no java on the PATH nor "
            "in $JAVA_HOME (Debian: apt-get install default-jre-headless)"
        )
    from pyspark.sql import SparkSession

    if master.startswith("local"):
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = SparkSession.builder.master(master).appName(app_name)
    for key, value in {**DEFAULT_CONFIG, **(config or {})}.items():
        builder = builder.config(key, value)
    return builder.getOrCreate()


#: One path, or several, of edge files and exports.
Paths = str | os.PathLike[str] | Sequence[str | os.PathLike[str]]


@overload
def spark_quark_rank(
    graph: LinkGraph, spark: SparkSession | None = None, **options: Any
) -> npt.NDArray[np.float64]: ...


@overload
def spark_quark_rank(
    graph: Paths, spark: SparkSession | None = None, **options: Any
) -> DataFrame: ...


def spark_quark_rank(
    graph: LinkGraph | Paths, spark: SparkSession | None = None, **options: Any
) -> npt.NDArray[np.float64] | DataFrame:
    """QuarkRank by a Spark job: what :func:`~scrapy_webclean.rank.quark_rank` computes.

    ``graph`` is a :class:`LinkGraph` (its weights are the edges'; ``weights`` must be
    ``None``): the result is the array of ranks by page id. Or it is a path, or several,
    of edge files and exports (one ``source<TAB>target<TAB>label[<TAB>anchor]`` or JSON item a line,
    ``.gz`` too) that Spark reads, each link weighing its label's ``weights`` (the default
    weights when ``None``): the result is a Spark DataFrame, already computed (locally
    check-pointed), with the columns ``id`` (as :func:`read_graph` numbers the pages),
    ``url``, ``rank`` and ``in_links``, in no order.

    ``spark`` is the session to run on (default: :func:`spark_session`, ``local[*]``).
    The options, by keyword: ``weights``; ``damping`` (0.85), ``tol`` (1e-10),
    ``max_iter`` (200) and ``progress(iteration, l1_change)``, which mean what they mean
    for ``quark_rank``, and :class:`NotConvergedError` is raised the same way (for files
    with the last ranks as its ``frame``, its ``ranks`` empty); ``on_read(pages, links)``
    once the graph is read; ``checkpoint_every`` (1): the ranks are check-pointed locally
    every so many iterations and cached in between (where the plan grows by a join an
    iteration: 1 was the fastest in local mode). An unknown option is a ``TypeError``.
    """
    return _rank(graph, spark, **options)


def _rank(
    graph: LinkGraph | Paths,
    spark: SparkSession | None,
    *,
    weights: Mapping[str, float] | None = None,
    damping: float = 0.85,
    tol: float = 1e-10,
    max_iter: int = 200,
    progress: Progress | None = None,
    on_read: GraphRead | None = None,
    checkpoint_every: int = 1,
) -> npt.NDArray[np.float64] | DataFrame:
    if not 0 <= damping < 1:
        raise ValueError(f"damping must be in [0, 1): {damping}")
    if checkpoint_every < 1:
        raise ValueError(f"checkpoint_every must be at least 1: {checkpoint_every}")
    session = spark if spark is not None else spark_session()
    iterate = _PowerIteration(session, damping, tol, max_iter, progress, checkpoint_every)
    if isinstance(graph, LinkGraph):
        if weights is not None:
            raise ValueError("a LinkGraph carries its weights: weights is for edge files")
        return _rank_link_graph(iterate, graph, on_read)
    if isinstance(graph, (str, os.PathLike)):
        paths = [os.fspath(graph)]
    else:
        paths = [os.fspath(path) for path in graph]
    if not paths:
        raise ValueError("no edge files to rank")
    return _rank_files(iterate, paths, checked_weights(weights), on_read)


class _PowerIteration:
    """The iteration itself, over ``pages (id)`` and summed ``edges (src, dst, weight)``."""

    def __init__(
        self,
        spark: SparkSession,
        damping: float,
        tol: float,
        max_iter: int,
        progress: Progress | None,
        checkpoint_every: int,
    ) -> None:
        from pyspark import StorageLevel

        self.spark = spark
        self.damping = damping
        self.tol = tol
        self.max_iter = max_iter
        self.progress = progress
        self.checkpoint_every = checkpoint_every
        self.level = StorageLevel.MEMORY_AND_DISK
        self.partitions = int(spark.conf.get("spark.sql.shuffle.partitions") or "200")
        self.pages = 0

    def run(self, n: int, pages: DataFrame, edges: DataFrame) -> DataFrame:
        """The final ranks, ``(id, dangling, rank, previous)``, computed and cached (the
        caller unpersists them). :class:`NotConvergedError` with the last ones as ``frame``
        after ``max_iter`` iterations."""
        from pyspark.sql import functions as F

        self.pages = n
        edges = edges.where(F.col("weight") > 0)
        out = edges.groupBy("src").agg(F.sum("weight").alias("out_weight"))
        # Each page carries its own rank to the next iteration through a link to itself
        # that passes on nothing (``carry``): an iteration is then one join (the shares
        # with the ranks, on the source) and one aggregate (per target), and the plan of
        # the ranks grows by one join an iteration (not twofold, as two joins would).
        carried = pages.select(
            F.col("id").alias("src"),
            F.col("id").alias("dst"),
            F.lit(0.0).alias("share"),
            F.lit(True).alias("carry"),
        )
        spread = (
            edges.join(out, "src")
            .select(
                "src",
                "dst",
                (F.col("weight") / F.col("out_weight")).alias("share"),
                F.lit(False).alias("carry"),
            )
            .unionByName(carried)
            .repartition(self.partitions, "src")
            .persist(self.level)
        )
        linking = out.select(F.col("src").alias("id"), F.lit(False).alias("dangling"))
        state = (
            pages.join(linking, "id", "left")
            .select(
                "id",
                F.coalesce(F.col("dangling"), F.lit(True)).alias("dangling"),
                F.lit(1.0 / n).alias("rank"),
                F.lit(None).cast("double").alias("previous"),
            )
            .repartition(self.partitions, "id")
            .persist(self.level)
        )
        try:
            leaked = state.where(F.col("dangling")).count() / n
            change = float("inf")
            for iteration in range(1, self.max_iter + 1):
                new = self._step(spread, state, leaked, iteration)
                totals = new.agg(
                    F.sum(F.abs(F.col("rank") - F.col("previous"))).alias("change"),
                    F.sum(F.when(F.col("dangling"), F.col("rank")).otherwise(0.0)).alias("leaked"),
                ).first()
                assert totals is not None
                change = float(totals["change"] or 0.0)
                leaked = float(totals["leaked"] or 0.0)
                state.unpersist()
                state = new
                if self.progress is not None:
                    self.progress(iteration, change)
                if change < self.tol:
                    return state
            raise NotConvergedError(self.max_iter, change, np.zeros(0), frame=state)
        finally:
            spread.unpersist()

    def _step(
        self, spread: DataFrame, state: DataFrame, leaked: float, iteration: int
    ) -> DataFrame:
        """The next ranks (``previous`` the current ones), cached, or check-pointed locally
        every ``checkpoint_every`` iterations (which cuts the plan short)."""
        from pyspark.sql import functions as F

        d = self.damping
        ranks = state.select(F.col("id").alias("src"), "dangling", "rank")
        teleport = (d * leaked + 1.0 - d) / self.pages
        new = (
            spread.join(ranks, "src")
            .groupBy(F.col("dst").alias("id"))
            .agg(
                F.max(F.when(F.col("carry"), F.col("dangling"))).alias("dangling"),
                F.sum(F.col("share") * F.col("rank")).alias("inflow"),
                F.max(F.when(F.col("carry"), F.col("rank"))).alias("previous"),
            )
            .select(
                "id",
                "dangling",
                (F.lit(d) * F.col("inflow") + F.lit(teleport)).alias("rank"),
                "previous",
            )
        )
        if iteration % self.checkpoint_every == 0:
            return new.localCheckpoint(eager=True)
        return new.persist(self.level)


def _rank_link_graph(
    iterate: _PowerIteration, graph: LinkGraph, on_read: GraphRead | None
) -> npt.NDArray[np.float64]:
    n = graph.size
    if on_read is not None:
        on_read(n, len(graph.sources))
    if n == 0:
        return np.zeros(0, dtype=np.float64)
    if len(graph.weights) and graph.weights.min() < 0:
        raise ValueError("negative link weight")
    summed = graph.matrix().tocoo()  # duplicates summed, as the scipy engine has them
    columns = (
        summed.row.astype(np.int64),
        summed.col.astype(np.int64),
        summed.data.astype(np.float64),
    )
    sc = iterate.spark.sparkContext
    shipped = sc.broadcast(columns)

    def chunk(start: int) -> Iterator[tuple[int, int, float]]:
        sources, targets, weights = shipped.value
        stop = start + _CHUNK
        return zip(
            sources[start:stop].tolist(),
            targets[start:stop].tolist(),
            weights[start:stop].tolist(),
            strict=True,
        )

    starts = range(0, len(columns[0]), _CHUNK)
    rows = sc.parallelize(starts, max(1, len(starts))).flatMap(chunk)
    edges = iterate.spark.createDataFrame(rows, "src long, dst long, weight double")
    pages = iterate.spark.range(n)
    try:
        final = iterate.run(n, pages, edges)
    except NotConvergedError as exc:
        ranks = _collect(exc.frame, n)
        exc.frame.unpersist()
        raise NotConvergedError(exc.iterations, exc.change, ranks) from None
    finally:
        shipped.unpersist()
    ranks = _collect(final, n)
    final.unpersist()
    return ranks


def _collect(state: DataFrame, n: int) -> npt.NDArray[np.float64]:
    ranks = np.zeros(n, dtype=np.float64)
    rows = state.select("id", "rank").collect()
    ranks[np.array([row["id"] for row in rows], dtype=np.int64)] = [row["rank"] for row in rows]
    return ranks


#: One row a page or edge of the input (:func:`_parse`): where it was seen (the
#: partition, the line in it, the place in the line) and why a line could not be read.
_PARSED = "src string, dst string, weight double, part int, line long, place int, error string"


def _parse(
    weights: Mapping[str, float],
) -> Callable[[int, Iterable[str]], Iterator[tuple[Any, ...]]]:
    def parse(part: int, lines: Iterable[str]) -> Iterator[tuple[Any, ...]]:
        for number, line in enumerate(lines):
            try:
                for place, (source, target, weight) in enumerate(line_edges(line, weights)):
                    yield source, target, weight, part, number, place, None
            except (ValueError, TypeError) as exc:
                yield "", None, 0.0, part, number, 0, f"{type(exc).__name__}: {exc}"

    return parse


def _rank_files(
    iterate: _PowerIteration,
    paths: list[str],
    weights: dict[str, float],
    on_read: GraphRead | None,
) -> DataFrame:
    from pyspark.sql import functions as F

    spark = iterate.spark
    lines = spark.sparkContext.textFile(",".join(paths))
    parsed = spark.createDataFrame(lines.mapPartitionsWithIndex(_parse(weights)), _PARSED)
    parsed = parsed.persist(iterate.level)
    cached: list[DataFrame] = [parsed]
    try:
        read = parsed.agg(
            F.count("error").alias("errors"),
            F.first("error", ignorenulls=True).alias("error"),
            F.count("dst").alias("links"),
        ).first()
        assert read is not None
        if read["errors"]:
            raise ValueError(f"{read['errors']} line(s) unreadable, the first: {read['error']}")
        links = parsed.where(F.col("dst").isNotNull())
        # A page's id: the order in which it first appears (the source of an edge before
        # its target), as GraphBuilder numbers it.
        seen = F.struct("part", "line", "place", F.col("side"))
        first = (
            parsed.select(
                F.col("src").alias("url"), "part", "line", "place", F.lit(0).alias("side")
            )
            .unionByName(
                links.select(
                    F.col("dst").alias("url"), "part", "line", "place", F.lit(1).alias("side")
                )
            )
            .groupBy("url")
            .agg(F.min(seen).alias("seen"))
            .orderBy("seen")
            .select("url")
        )
        numbered = first.rdd.zipWithIndex().map(lambda row_id: (row_id[0][0], row_id[1]))
        ids = spark.createDataFrame(numbered, "url string, id long").persist(iterate.level)
        cached.append(ids)
        n = ids.count()
        if on_read is not None:
            on_read(n, int(read["links"]))
        sources = ids.select(F.col("url").alias("src"), F.col("id").alias("src_id"))
        targets = ids.select(F.col("url").alias("dst"), F.col("id").alias("dst_id"))
        edges = (
            links.join(sources, "src")
            .join(targets, "dst")
            .groupBy(F.col("src_id").alias("src"), F.col("dst_id").alias("dst"))
            .agg(F.sum("weight").alias("weight"))
            .persist(iterate.level)
        )
        cached.append(edges)
        in_links = (
            edges.where(F.col("src") != F.col("dst"))
            .groupBy(F.col("dst").alias("id"))
            .agg(F.count("*").alias("in_links"))
        )

        def result(state: DataFrame) -> DataFrame:
            ranked = (
                state.join(ids, "id")
                .join(in_links, "id", "left")
                .select(
                    "id", "url", "rank", F.coalesce(F.col("in_links"), F.lit(0)).alias("in_links")
                )
                .localCheckpoint(eager=True)
            )
            state.unpersist()
            return ranked

        if n == 0:
            return spark.createDataFrame([], "id long, url string, rank double, in_links long")
        try:
            final = iterate.run(n, ids.select("id"), edges)
        except NotConvergedError as exc:
            raise NotConvergedError(
                exc.iterations, exc.change, exc.ranks, frame=result(exc.frame)
            ) from None
        return result(final)
    finally:
        for frame in cached:
            frame.unpersist()
