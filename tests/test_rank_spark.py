"""QuarkRank's PySpark engine (issue 24) against the scipy one: the same ranks within 1e-6,
from a LinkGraph and from edge files and exports Spark reads itself, and ``scrapy webclean
rank --engine spark``. Spark runs in local mode (one session for the module); it needs a
Java runtime, which .ci/run installs: without one these tests fail, saying so."""

from __future__ import annotations

import csv
import gzip
import io
import json
from argparse import ArgumentParser
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from scrapy.settings import Settings

from scrapy_webclean.rank import NotConvergedError, quark_rank, read_graph
from scrapy_webclean.rank.spark import spark_quark_rank, spark_session
from tests.test_rank import random_graph

LOCAL = {
    "spark.sql.shuffle.partitions": "2",
    "spark.default.parallelism": "2",
    "spark.sql.adaptive.enabled": "false",
    "spark.ui.enabled": "false",
}


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    session = spark_session("local[2]", LOCAL, app_name="webclean-rank-tests")
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def iterations(changes: list[float]) -> Any:
    return lambda iteration, change: changes.append(change)


def test_equal_to_the_scipy_engine(spark: Any) -> None:
    # Dangling pages, self links, duplicate edges (tests/test_rank.py), and labels of weight 0.
    graph = random_graph(2, 300, 2000)
    graph.weights[::7] = 0.0  # edges of a label weighing 0: a page may dangle by them
    scipy_changes: list[float] = []
    spark_changes: list[float] = []
    expected = quark_rank(graph, tol=1e-7, progress=iterations(scipy_changes))
    ranks = spark_quark_rank(graph, spark, tol=1e-7, progress=iterations(spark_changes))
    assert np.abs(ranks - expected).max() < 1e-6
    assert abs(ranks.sum() - 1) < 1e-9
    assert len(spark_changes) == len(scipy_changes)  # the same iterations
    assert np.allclose(spark_changes, scipy_changes, rtol=1e-6, atol=1e-12)


def test_not_converged_and_bad_arguments(spark: Any) -> None:
    graph = random_graph(3, 50, 200)
    with pytest.raises(NotConvergedError) as raised:
        spark_quark_rank(graph, spark, tol=1e-14, max_iter=2)
    assert raised.value.iterations == 2 and len(raised.value.ranks) == 50
    with pytest.raises(ValueError):
        spark_quark_rank(graph, spark, damping=1.0)
    with pytest.raises(ValueError):
        spark_quark_rank(graph, spark, weights={"content": 1.0})  # a LinkGraph has its own


def write_inputs(tmp_path: Path) -> list[Path]:
    """A gzipped edge file, a plain one and an export: labels of weight 0 and without a
    weight, self links, duplicate edges, #fragments, a page line, a page without links."""
    rng = np.random.default_rng(24)
    labels = ["content", "related", "noise", "other"]
    edges = [
        f"http://s/{rng.integers(60)}\thttp://s/{rng.integers(80)}#x\t{rng.choice(labels)}"
        for _ in range(400)
    ]
    edges += ["http://s/1\thttp://s/1\tcontent", "http://s/1\thttp://s/1\tcontent"]
    gzipped = tmp_path / "links.tsv.gz"
    with gzip.open(gzipped, "wt", encoding="utf-8") as out:
        out.write("\n".join(edges[:250]) + "\n")
    plain = tmp_path / "more.tsv"
    plain.write_text("\n".join(edges[250:]) + "\nhttp://s/alone\t\tpage\n\n", "utf-8")
    items = [
        {"url": "http://s/3", "links": {"content": [{"url": "http://s/90"}], "noise": []}},
        {"url": "http://s/91"},
    ]
    export = tmp_path / "items.jsonl"
    export.write_text("".join(json.dumps(item) + "\n" for item in items), "utf-8")
    return [gzipped, plain, export]


def scipy_graph(paths: list[Path], weights: dict[str, float]) -> Any:
    texts = [
        gzip.decompress(p.read_bytes()).decode() if p.suffix == ".gz" else p.read_text("utf-8")
        for p in paths
    ]
    return read_graph([io.StringIO(text) for text in texts], weights)


def test_edge_files_read_by_spark(spark: Any, tmp_path: Path) -> None:
    paths = write_inputs(tmp_path)
    weights = {"content": 1.5, "related": 0.5, "noise": 0.0}
    graph = scipy_graph(paths, weights)
    expected = quark_rank(graph, tol=1e-7)
    sizes: list[tuple[int, int]] = []
    ranked = spark_quark_rank(
        [str(path) for path in paths],
        spark,
        weights=weights,
        tol=1e-7,
        on_read=lambda pages, links: sizes.append((pages, links)),
    )
    rows = sorted(ranked.collect(), key=lambda row: row["id"])
    assert sizes == [(graph.size, len(graph.sources))]
    assert [row["url"] for row in rows] == graph.urls  # the ids read_graph gives
    ranks = np.array([row["rank"] for row in rows])
    assert np.abs(ranks - expected).max() < 1e-6
    assert [row["in_links"] for row in rows] == graph.in_links().tolist()
    bad = tmp_path / "bad.tsv"
    bad.write_text("http://s/1\thttp://s/2\tcontent\nnot an edge\n", "utf-8")
    with pytest.raises(ValueError, match="not an edge"):
        spark_quark_rank(str(bad), spark)


def test_the_command_with_the_spark_engine(
    spark: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from scrapy_webclean.commands.rank_run import run_rank
    from scrapy_webclean.commands.webclean import Command

    paths = [str(path) for path in write_inputs(tmp_path)]
    command = Command()
    command.settings = Settings()
    parser = ArgumentParser()
    command.add_options(parser)
    outputs = {}
    for engine in ("scipy", "spark"):
        out = tmp_path / f"{engine}.csv"
        opts = parser.parse_args(["--engine", engine, "-o", str(out), "--tol", "1e-7"])
        assert run_rank(paths, opts) == 0  # the session of the module: getOrCreate
        outputs[engine] = list(csv.DictReader(out.read_text("utf-8").splitlines()))
        assert "iteration 1: L1 change" in capsys.readouterr().err
    scipy_rows, spark_rows = outputs["scipy"], outputs["spark"]
    assert [row["url"] for row in spark_rows] == [row["url"] for row in scipy_rows]
    assert [row["in_links"] for row in spark_rows] == [row["in_links"] for row in scipy_rows]
    difference = [
        float(a["rank"]) - float(b["rank"]) for a, b in zip(spark_rows, scipy_rows, strict=True)
    ]
    assert max(map(abs, difference)) < 1e-6
    opts = parser.parse_args(["--engine", "spark"])
    with pytest.raises(Exception, match="standard input"):
        run_rank(["-"], opts)


def test_a_missing_java_is_an_error_that_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    import scrapy_webclean.rank.spark as engine

    monkeypatch.setattr(engine, "java_command", lambda: None)
    with pytest.raises(RuntimeError, match="Java runtime"):
        spark_session("local[1]")
