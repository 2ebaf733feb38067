"""The trained keep/drop decision per line: gradient-boosted trees over ``linefeatures``.

The hand rules of ``extract`` choose the region and give every line a verdict; the model
reads those verdicts beside the line's and the page's other features and makes the final
call, as section 4's Quark classifier does for blocks with its naive Bayes (here with
trees, which learn how the features combine). It is trained by
``benchmarks/train_extraction.py`` on the dev sets, fold by fold (sites disjoint), and
shipped as a JSON file of arrays (``data/line_model.json``), never a pickle.

Inference evaluates every tree for every line at once with numpy (one gather per tree
level), a fraction of a millisecond for a page. numpy does no BLAS work here; its BLAS and
OpenMP pools are pinned to one thread before numpy is first imported (``threads``), so no
thread pool spins beside the crawl.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

from scrapy_webclean.extraction.hints import STRONG_NEGATIVE
from scrapy_webclean.extraction.linefeatures import FEATURE_NAMES, PAGE_TYPE_CODES
from scrapy_webclean.extraction.lines import Line

if TYPE_CHECKING:
    import numpy as np

#: The model shipped with the package (trained on all the dev sets).
DEFAULT_MODEL_PATH = Path(__file__).with_name("data") / "line_model.json"

_PAGE_TYPE = FEATURE_NAMES.index("page_type")
_RULE_KEEP = FEATURE_NAMES.index("rule_keep")
_TEMPLATE = FEATURE_NAMES.index("template")
_NOISE = FEATURE_NAMES.index("drop_noisy")
_HINT = FEATURE_NAMES.index("hint")


def _vetoed(row: Sequence[float]) -> bool:
    """The rules' vetoes, which the model never overturns: a line the site's template
    repeats, a noise line (copyright, consent, share buttons ...), a line in a comment,
    share or related-links container (cross-validated: keeping them cost precision)."""
    return bool(row[_TEMPLATE] or row[_NOISE] or row[_HINT] == STRONG_NEGATIVE)


def _numpy() -> Any:
    """numpy, imported on first use (the package's import has pinned its thread pools:
    ``scrapy_webclean.threads``)."""
    import numpy

    return numpy


class LineDecider(Protocol):
    """What ``extract_main`` asks for the final verdicts: keep flags for the feature rows
    of a page's lines (``lines[i]`` is row ``i``'s line), or None to leave the rules'
    verdicts as they are (a recorder of training data does that). ``decides_on`` is asked
    first, with the rules' page type (``linefeatures.PAGE_TYPE_CODES``): the features are
    computed only for a page it decides on."""

    def decides_on(self, page_type: str) -> bool: ...

    def decide(
        self, rows: Sequence[Sequence[float]], lines: Sequence[Line]
    ) -> list[bool] | None: ...


class ModelFileError(ValueError):
    """A model file that cannot be used (wrong format or other feature columns)."""


class LineModel:
    """Boosted trees that give each line a probability of being main content.

    A line is kept when its probability is at least ``keep_above``, or when the rules kept
    it and its probability is at least ``drop_below``: between the two, the rules' verdict
    stands, and the rules' vetoes (:func:`_vetoed`) always stand. The model decides only on pages whose rules' page type (``page_type`` feature,
    ``linefeatures.PAGE_TYPE_CODES``) is one of ``page_types``; on the others it leaves
    the rules' verdicts (:meth:`decide` returns None). Instances compare by identity (they
    sit in the frozen, hashed ``CleanOptions``).
    """

    __slots__ = (
        "_arrays",
        "base",
        "depth",
        "drop_below",
        "features",
        "keep_above",
        "page_types",
        "path",
        "trees",
    )

    def __init__(self, spec: dict[str, Any], path: Path | None = None) -> None:
        if spec.get("format") != "webclean-line-trees-1":
            raise ModelFileError(f"{path}: not a webclean line model")
        features = tuple(spec["features"])
        if features != FEATURE_NAMES:
            raise ModelFileError(
                f"{path}: the model was trained on other features ({len(features)} columns); "
                "retrain it with benchmarks/train_extraction.py"
            )
        self.features = features
        self.path = path
        self.keep_above = float(spec["keep_above"])
        self.drop_below = float(spec["drop_below"])
        self.page_types = frozenset(int(code) for code in spec["page_types"])
        self.base = float(spec["base"])
        self.trees: list[dict[str, list[Any]]] = spec["trees"]
        self.depth = int(spec["depth"])
        self._arrays: tuple[Any, ...] | None = None

    @classmethod
    def load(cls, path: str | Path) -> LineModel:
        """Read a model file written by ``benchmarks/train_extraction.py``."""
        path = Path(path)
        with path.open(encoding="utf-8") as handle:
            return cls(json.load(handle), path)

    def _flat(self) -> tuple[Any, ...]:
        """All trees' nodes in one set of arrays; a leaf points to itself both ways, so a
        walk of ``depth`` steps ends on every line's leaf whatever the tree's shape."""
        if self._arrays is None:
            np = _numpy()
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
            self._arrays = (
                np.asarray(feature, dtype=np.intp),
                np.asarray(threshold, dtype=np.float64),
                np.asarray(left, dtype=np.intp),
                np.asarray(right, dtype=np.intp),
                np.asarray(value, dtype=np.float64),
                np.asarray(roots, dtype=np.intp),
            )
        return self._arrays

    def probabilities(self, rows: Sequence[Sequence[float]]) -> np.ndarray:
        """Each row's probability of being content."""
        numpy = _numpy()
        feature, threshold, left, right, value, roots = self._flat()
        x = numpy.asarray(rows, dtype=numpy.float64)
        if x.size == 0:
            return cast("np.ndarray", numpy.zeros(0))
        at = numpy.broadcast_to(roots, (x.shape[0], roots.shape[0])).copy()
        line = numpy.arange(x.shape[0])[:, None]
        for _ in range(self.depth):
            goes_left = x[line, feature[at]] <= threshold[at]
            at = numpy.where(goes_left, left[at], right[at])
        raw = self.base + value[at].sum(axis=1)
        return cast("np.ndarray", 1.0 / (1.0 + numpy.exp(-raw)))

    def decides_on(self, page_type: str) -> bool:
        """Whether the model decides on pages the rules read as ``page_type``."""
        return PAGE_TYPE_CODES.get(page_type, -1) in self.page_types

    def decide(
        self, rows: Sequence[Sequence[float]], lines: Sequence[Line] = ()
    ) -> list[bool] | None:
        """Keep (True) or drop each line; None for a page of a type the model leaves."""
        if not len(rows) or int(rows[0][_PAGE_TYPE]) not in self.page_types:
            return None
        keep_above, drop_below = self.keep_above, self.drop_below
        return [
            bool(p >= keep_above or (row[_RULE_KEEP] and p >= drop_below)) and not _vetoed(row)
            for p, row in zip(self.probabilities(rows), rows, strict=True)
        ]


@lru_cache(maxsize=1)
def default_line_model() -> LineModel | None:
    """The shipped model, read once per process; None when the package has none."""
    if not DEFAULT_MODEL_PATH.exists():
        return None
    return LineModel.load(DEFAULT_MODEL_PATH)
