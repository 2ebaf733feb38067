"""QuarkRank (issue 24): the scipy power iteration against networkx's weighted PageRank,
the link-graph reader, and ``scrapy webclean rank`` end to end."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from scrapy.exceptions import NotConfigured

from scrapy_webclean.rank import (
    DEFAULT_WEIGHTS,
    GraphBuilder,
    LinkGraph,
    NotConvergedError,
    quark_rank,
    read_graph,
)

ROOT = Path(__file__).resolve().parent.parent


def random_graph(seed: int, pages: int, links: int) -> LinkGraph:
    """A random graph with dangling pages (a fifth of the pages link nowhere), self links
    and duplicate edges (targets drawn from few pages), weights by label."""
    rng = np.random.default_rng(seed)
    linking = rng.permutation(pages)[: max(1, pages * 4 // 5)]
    sources = rng.choice(linking, size=links)
    targets = rng.integers(0, pages, size=links)
    targets[: links // 10] = sources[: links // 10]  # self links
    sources[-links // 10 :] = sources[: links // 10]  # duplicate edges
    targets[-links // 10 :] = targets[: links // 10]
    labels = rng.choice(list(DEFAULT_WEIGHTS), size=links)
    weights = np.array([DEFAULT_WEIGHTS[label] for label in labels])
    return LinkGraph(
        urls=[f"http://example.com/{page}" for page in range(pages)],
        sources=sources.astype(np.int64),
        targets=targets.astype(np.int64),
        weights=weights,
    )


def networkx_rank(graph: LinkGraph) -> np.ndarray:
    digraph = nx.DiGraph()
    digraph.add_nodes_from(range(graph.size))
    for source, target, weight in zip(
        graph.sources.tolist(), graph.targets.tolist(), graph.weights.tolist(), strict=True
    ):
        if digraph.has_edge(source, target):  # networkx keeps one edge: sum the weights
            digraph[source][target]["weight"] += weight
        else:
            digraph.add_edge(source, target, weight=weight)
    ranks = nx.pagerank(digraph, alpha=0.85, weight="weight", tol=1e-15, max_iter=2000)
    return np.array([ranks[page] for page in range(graph.size)])


@pytest.mark.parametrize(("seed", "pages", "links"), [(0, 10, 30), (1, 200, 1500), (2, 2000, 9000)])
def test_equal_to_networkx_weighted_pagerank(seed: int, pages: int, links: int) -> None:
    graph = random_graph(seed, pages, links)
    matrix = graph.matrix()
    assert matrix.diagonal().any()  # self links
    assert matrix.nnz < links  # duplicates summed
    assert (np.asarray(matrix.sum(axis=1)).ravel() == 0).any()  # dangling pages
    changes: list[float] = []
    ranks = quark_rank(graph, tol=1e-14, max_iter=1000, progress=lambda i, c: changes.append(c))
    assert changes[-1] < 1e-14 and len(changes) > 5
    assert abs(ranks.sum() - 1) < 1e-12
    assert np.abs(ranks - networkx_rank(graph)).max() < 1e-9


def test_a_zero_weight_drops_the_label() -> None:
    builder = GraphBuilder({"content": 1.5, "related": 0.5, "noise": 0})
    builder.add_edge("http://a/", "http://b/", "content")
    builder.add_edge("http://a/", "http://c/", "noise")  # dropped: c is not a page
    builder.add_edge("http://b/", "http://a/", "related")
    builder.add_edge("http://b/", "http://a/", "other")  # a label without weight: dropped
    graph = builder.graph()
    assert graph.urls == ["http://a/", "http://b/"]
    assert graph.weights.tolist() == [1.5, 0.5]
    assert np.allclose(quark_rank(graph), [0.5, 0.5])


def test_weights_split_rank_by_label() -> None:
    """a links to b from content (1.5) and to c from noise (0.5): b gets three times c's share."""
    builder = GraphBuilder()
    builder.add_edge("http://a/", "http://b/", "content")
    builder.add_edge("http://a/", "http://c/", "noise")
    graph = builder.graph()
    ranks = quark_rank(graph, tol=1e-14)
    base = 0.15 / 3 + 0.85 * (ranks[1] + ranks[2]) / 3  # b and c dangle
    assert ranks[0] == pytest.approx(base)
    assert ranks[1] - base == pytest.approx(3 * (ranks[2] - base))


def test_not_converged() -> None:
    with pytest.raises(NotConvergedError):
        quark_rank(random_graph(3, 50, 200), tol=1e-14, max_iter=3)


def test_reading_exported_items_and_edge_files() -> None:
    items = [
        {"url": "http://s/a", "links": {
            "content": [{"url": "http://s/b", "text": "B"}, {"url": "http://s/b#top", "text": "B"}],
            "related": [{"url": "http://s/c", "text": "C"}],
            "noise": [{"url": "http://s/a", "text": "home"}],
        }},
        {"url": "http://s/b", "links": {"content": [], "related": [], "noise": []}},
        {"url": "http://s/d"},
    ]  # fmt: skip
    export = "".join(json.dumps(item) + "\n" for item in items) + "\n"
    edges = "http://s/c\thttp://s/e\tcontent\n"
    graph = read_graph([io.StringIO(export), io.StringIO(edges)])
    assert graph.urls == ["http://s/a", "http://s/b", "http://s/c", "http://s/d", "http://s/e"]
    dense = graph.matrix().toarray()
    assert dense[0].tolist() == [0.5, 3.0, 0.5, 0, 0]  # the #top link is b again: summed
    assert dense[2, 4] == 1.5 and dense[1].sum() == dense[3].sum() == 0
    assert graph.in_links().tolist() == [0, 1, 1, 0, 1]  # a's self link left out
    with pytest.raises(ValueError):
        read_graph([io.StringIO("not an edge\n")])


def test_the_command_end_to_end(tmp_path: Path) -> None:
    items = [
        {"url": "http://s/a", "links": {"content": [{"url": "http://s/b"}], "noise": [{"url": "http://s/c"}]}},
        {"url": "http://s/b", "links": {"content": [{"url": "http://s/a"}]}},
        {"url": "http://s/c", "links": {"noise": [{"url": "http://s/a"}, {"url": "http://s/b"}]}},
    ]  # fmt: skip
    export = tmp_path / "items.jsonl"
    export.write_text("".join(json.dumps(item) + "\n" for item in items), "utf-8")
    out = tmp_path / "ranks.csv"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))

    def rank(*args: str) -> subprocess.CompletedProcess[bytes]:
        command = [sys.executable, "-m", "scrapy", "webclean", "rank", str(export), *args]
        return subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, timeout=120)

    done = rank("-o", str(out), "--weight", "noise=0.25", "--tol", "1e-12")
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert "iteration 1: L1 change" in done.stderr.decode()
    rows = list(csv.DictReader(out.read_text("utf-8").splitlines()))
    assert [row["url"] for row in rows] == ["http://s/a", "http://s/b", "http://s/c"]
    assert [row["in_links"] for row in rows] == ["2", "2", "1"]
    ranks = [float(row["rank"]) for row in rows]
    assert ranks == sorted(ranks, reverse=True) and abs(sum(ranks) - 1) < 1e-9
    graph = read_graph([io.StringIO(export.read_text("utf-8"))], {**DEFAULT_WEIGHTS, "noise": 0.25})
    expected = quark_rank(graph, tol=1e-12)
    assert np.allclose(ranks, expected[[0, 1, 2]], rtol=0, atol=1e-12)
    bad = rank("--weight", "noise")
    assert bad.returncode != 0 and b"LABEL=WEIGHT" in bad.stderr
    # The weights as a setting of the project (here given with -s): the same ranks.
    by_setting = tmp_path / "by-setting.csv"
    done = rank(
        "-o", str(by_setting), "-s", 'WEBCLEAN_RANK_WEIGHTS={"noise": 0.25}', "--tol", "1e-12"
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert by_setting.read_text("utf-8") == out.read_text("utf-8")
    negative = rank("-s", 'WEBCLEAN_RANK_WEIGHTS={"noise": -1}')
    assert negative.returncode != 0 and b"WEBCLEAN_RANK_WEIGHTS" in negative.stderr


def test_the_crawl_writes_its_link_graph_as_it_goes(tmp_path: Path) -> None:
    # LinkGraphWriter, as the add-on installs it, writes each cleaned item's links as
    # gzipped edge lines; ranking them gives what ranking the exported items gives.
    import gzip

    from scrapy.utils.test import get_crawler

    from scrapy_webclean.integration.linkgraph import LinkGraphWriter

    edges = tmp_path / "links.tsv.gz"
    items = [
        {
            "url": "http://a.example/1",
            "links": {
                "content": [{"url": "http://a.example/2", "text": "two\tpages\n on"}],
                "related": [],
                "noise": [{"url": "http://a.example/", "text": "home"}],
            },
        },
        {"url": "http://a.example/2", "links": {"content": [], "related": [], "noise": []}},
    ]
    crawler = get_crawler(settings_dict={"WEBCLEAN_LINK_GRAPH": str(edges)})
    crawler.stats.open_spider()  # type: ignore[union-attr,call-arg]
    writer = LinkGraphWriter.from_crawler(crawler)
    writer.open_spider()
    for item in items:
        assert writer.process_item(dict(item)) == item
    writer.close_spider()
    with gzip.open(edges, "rt", encoding="utf-8") as written:
        lines = written.read().splitlines()
    assert lines == [
        "http://a.example/1\thttp://a.example/2\tcontent\ttwo pages on",
        "http://a.example/1\thttp://a.example/\tnoise\thome",
        "http://a.example/2\t\tpage",
    ]
    from_edges = read_graph([io.StringIO("\n".join(lines))])
    from_items = read_graph([io.StringIO("\n".join(json.dumps(i) for i in items))])
    assert from_edges.urls == from_items.urls
    assert np.allclose(quark_rank(from_edges), quark_rank(from_items))
    # Off unless a file is named.
    with pytest.raises(NotConfigured):
        LinkGraphWriter.from_crawler(get_crawler())


def test_the_addon_installs_the_link_graph_writer_when_a_file_is_named(tmp_path: Path) -> None:
    from scrapy_webclean.integration.linkgraph import LinkGraphWriter
    from tests.crawlers import crawler_with_engine

    edges = str(tmp_path / "links.tsv.gz")
    on = crawler_with_engine(
        {"ADDONS": {"scrapy_webclean.Addon": 100}, "WEBCLEAN_LINK_GRAPH": edges}
    )
    assert on.get_item_pipeline(LinkGraphWriter) is not None
    off = crawler_with_engine({"ADDONS": {"scrapy_webclean.Addon": 100}})
    assert off.get_item_pipeline(LinkGraphWriter) is None
