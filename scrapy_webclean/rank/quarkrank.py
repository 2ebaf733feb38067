"""QuarkRank on one machine: weighted PageRank by power iteration over scipy sparse matrices.

A page's rank goes to its out-links in proportion to their weights (the weight of the block
each link sits in, summed over duplicate links); a dangling page (no out-weight) spreads
its rank over every page, as standard PageRank does; the rest, ``1 - damping``, is spread
uniformly. Iterations stop when the L1 change of the rank vector is below ``tol``. Each
iteration is a sparse matrix-vector product: no Python loop over the edges.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy import sparse  # type: ignore[import-untyped]

from scrapy_webclean.rank.graph import LinkGraph

#: ``progress(iteration, l1_change)``, called after each iteration (from 1).
Progress = Callable[[int, float], None]


class NotConvergedError(RuntimeError):
    """The power iteration did not reach the tolerance within ``max_iter`` iterations.

    ``ranks`` are the last iteration's ranks; the PySpark engine, ranking edge files, leaves
    them empty and gives its last ranks as a Spark DataFrame, ``frame``."""

    def __init__(
        self,
        iterations: int,
        change: float,
        ranks: npt.NDArray[np.float64],
        frame: Any = None,
    ) -> None:
        super().__init__(
            f"QuarkRank did not converge in {iterations} iterations (L1 change {change:.3g})"
        )
        self.iterations = iterations
        self.change = change
        self.ranks = ranks
        self.frame = frame


def quark_rank(
    graph: LinkGraph | Any,
    damping: float = 0.85,
    tol: float = 1e-10,
    max_iter: int = 200,
    progress: Progress | None = None,
) -> npt.NDArray[np.float64]:
    """The QuarkRank of every page: an array of ``graph.size`` ranks summing to 1.

    ``graph`` is a :class:`LinkGraph` or a square weighted adjacency matrix (scipy sparse or
    dense; entry (i, j) the weight of the links from i to j, non-negative). Stops when the
    L1 norm of the change between two iterations is below ``tol``; raises
    :class:`NotConvergedError` if that takes more than ``max_iter`` iterations.
    """
    if not 0 <= damping < 1:
        raise ValueError(f"damping must be in [0, 1): {damping}")
    weights = graph.matrix() if isinstance(graph, LinkGraph) else sparse.csr_matrix(graph)
    n = weights.shape[0]
    if weights.shape != (n, n):
        raise ValueError(f"the adjacency matrix is not square: {weights.shape}")
    if n == 0:
        return np.zeros(0, dtype=np.float64)
    weights = sparse.csr_matrix(weights, dtype=np.float64)
    if weights.nnz and weights.data.min() < 0:
        raise ValueError("negative link weight")
    out_weight = np.asarray(weights.sum(axis=1), dtype=np.float64).ravel()
    dangling = out_weight == 0
    scale = np.divide(1.0, out_weight, out=np.zeros(n), where=~dangling)
    # Row-normalised, then transposed once (CSR) so that each iteration is one product.
    spread = sparse.csr_matrix(sparse.diags(scale) @ weights).T.tocsr()
    ranks = np.full(n, 1.0 / n)
    change = float("inf")
    for iteration in range(1, max_iter + 1):
        leaked = float(ranks[dangling].sum())
        new = damping * np.asarray(spread @ ranks).ravel()
        new += (damping * leaked + 1.0 - damping) / n
        change = float(np.abs(new - ranks).sum())
        ranks = new
        if progress is not None:
            progress(iteration, change)
        if change < tol:
            return ranks
    raise NotConvergedError(max_iter, change, ranks)
