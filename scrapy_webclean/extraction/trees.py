"""Boosted decision trees read from plain arrays, evaluated with numpy.

The trained models of the extractor (the line model, ``linemodel``, and the page-type
model, ``pagetype``) are gradient-boosted trees exported by
``benchmarks/train_extraction.py`` as JSON arrays (never a pickle): per tree, each node's
feature, threshold, left and right child (-1 for a leaf) and value. A model has one output
(a binary decision: one tree per boosting round) or several (``outputs`` of them: one
tree per class in each round, the trees stored round after round).

Inference walks every tree for every row at once (one gather per tree level), a fraction
of a millisecond for a page. numpy does no BLAS work here; its BLAS and OpenMP pools are
pinned to one thread before numpy is first imported (``scrapy_webclean.threads``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    import numpy as np


def numpy_module() -> Any:
    """numpy, imported on first use (the package's import has pinned its thread pools:
    ``scrapy_webclean.threads``)."""
    import numpy

    return numpy


class TreeEnsemble:
    """Trees of one or more outputs: ``raw(rows)`` is, per row and output, the base value
    plus the sum of the output's trees' leaf values."""

    __slots__ = ("_arrays", "base", "depth", "outputs", "trees")

    def __init__(
        self, trees: list[dict[str, list[Any]]], base: Sequence[float], depth: int
    ) -> None:
        self.trees = trees
        self.base = [float(b) for b in base]
        self.outputs = len(self.base)
        if self.outputs < 1 or len(trees) % self.outputs:
            raise ValueError(f"{len(trees)} trees do not divide among {self.outputs} outputs")
        self.depth = int(depth)
        self._arrays: tuple[Any, ...] | None = None

    def _flat(self) -> tuple[Any, ...]:
        """All trees' nodes in one set of arrays; a leaf points to itself both ways, so a
        walk of ``depth`` steps ends on every row's leaf whatever the tree's shape."""
        if self._arrays is None:
            np = numpy_module()
            feature: list[int] = []
            threshold: list[float] = []
            left: list[int] = []
            right: list[int] = []
            value: list[float] = []
            roots: list[int] = []
            for tree in self.trees:
                offset = len(feature)
                roots.append(offset)
                for f, t, lo, hi, v in zip(
                    tree["feature"],
                    tree["threshold"],
                    tree["left"],
                    tree["right"],
                    tree["value"],
                    strict=True,
                ):
                    leaf = lo < 0
                    me = len(feature)
                    feature.append(0 if leaf else f)
                    threshold.append(0.0 if leaf else t)
                    left.append(me if leaf else offset + lo)
                    right.append(me if leaf else offset + hi)
                    value.append(v if leaf else 0.0)
            # children[2 * node] is the left child, children[2 * node + 1] the right one
            children = [child for pair in zip(left, right, strict=True) for child in pair]
            self._arrays = (
                np.asarray(feature, dtype=np.intp),
                np.asarray(threshold, dtype=np.float64),
                np.asarray(children, dtype=np.intp),
                np.asarray(value, dtype=np.float64),
                np.asarray(roots, dtype=np.intp),
            )
        return self._arrays

    def raw(self, rows: Sequence[Sequence[float]]) -> np.ndarray:
        """Per row, the raw score of each output: shape ``(len(rows), outputs)``."""
        numpy = numpy_module()
        feature, threshold, children, value, roots = self._flat()
        x = numpy.asarray(rows, dtype=numpy.float64)
        if x.size == 0:
            return cast("np.ndarray", numpy.zeros((0, self.outputs)))
        lines, width = x.shape
        flat = x.ravel()
        # Every (row, tree) pair's node, row after row; each step reads the rows' values
        # of the nodes' features from the flat matrix and moves to the left child when
        # the value is at most the threshold, else (NaN too) to the right one.
        at = numpy.tile(roots, lines)
        row_start = numpy.repeat(numpy.arange(0, lines * width, width), roots.shape[0])
        for _ in range(self.depth):
            goes_right = flat.take(row_start + feature.take(at)) <= threshold.take(at)
            numpy.logical_not(goes_right, out=goes_right)
            at = children.take(2 * at + goes_right)
        leaves = value.take(at).reshape(lines, -1, self.outputs)
        return cast("np.ndarray", leaves.sum(axis=1) + numpy.asarray(self.base))


def export_trees(model: Any) -> dict[str, Any]:
    """A fitted scikit-learn ``HistGradientBoostingClassifier`` as :class:`TreeEnsemble`
    arrays (``trees``, ``base``, ``depth``); used by the training script only."""
    np = numpy_module()
    trees = []
    depth = 0
    for predictors in model._predictors:  # one round: one predictor per output
        for predictor in predictors:
            nodes = predictor.nodes
            trees.append(
                {
                    "feature": [int(f) for f in nodes["feature_idx"]],
                    "threshold": [float(t) for t in nodes["num_threshold"]],
                    "left": [
                        -1 if leaf else int(i)
                        for leaf, i in zip(nodes["is_leaf"], nodes["left"], strict=True)
                    ],
                    "right": [
                        -1 if leaf else int(i)
                        for leaf, i in zip(nodes["is_leaf"], nodes["right"], strict=True)
                    ],
                    "value": [round(float(v), 7) for v in nodes["value"]],
                }
            )
            depth = max(depth, int(nodes["depth"].max()))
    base = [float(b) for b in np.ravel(model._baseline_prediction)]
    return {"trees": trees, "base": base, "depth": depth}
