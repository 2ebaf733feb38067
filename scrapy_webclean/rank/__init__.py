"""QuarkRank (issue 24): weighted PageRank over the crawl's link graph, each link weighing
the label of the block it sits in. ``scrapy webclean rank`` is the command."""

from scrapy_webclean.rank.graph import DEFAULT_WEIGHTS, GraphBuilder, LinkGraph, read_graph
from scrapy_webclean.rank.quarkrank import NotConvergedError, quark_rank

__all__ = [
    "DEFAULT_WEIGHTS",
    "GraphBuilder",
    "LinkGraph",
    "NotConvergedError",
    "quark_rank",
    "read_graph",
]
