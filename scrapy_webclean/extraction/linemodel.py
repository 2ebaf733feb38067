"""The trained keep/drop decision per line: gradient-boosted trees over ``linefeatures``.

The hand rules of ``extract`` choose the region and give every line a verdict; the model
reads those verdicts beside the line's and the page's other features and makes the final
call, as section 4's Quark classifier does for blocks with its naive Bayes (here with
trees, which learn how the features combine). It is trained by
``benchmarks/train_extraction.py`` on the dev sets, fold by fold (sites disjoint), and
shipped as a JSON file of arrays (``data/line_model.json``), never a pickle.

The same file holds the page-type model (``pagetype``), whose probabilities are features
of every line and say which pages the model decides on. Inference walks the trees with
numpy (``trees``), a fraction of a millisecond for a page, with no thread pool spinning
beside the crawl.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

from scrapy_webclean.extraction.favor import shifted_thresholds
from scrapy_webclean.extraction.hintwords import STRONG_NEGATIVE
from scrapy_webclean.extraction.linefeatures import (
    FEATURE_NAMES,
    OTHER_PAGE_CODE,
    PAGE_TYPE_CODES,
    RuleState,
    line_features,
)
from scrapy_webclean.extraction.lines import Line
from scrapy_webclean.extraction.options import BALANCED
from scrapy_webclean.extraction.pagetype import PAGE_TYPES, PageTypeModel, uniform_probabilities
from scrapy_webclean.extraction.trees import TreeEnsemble, numpy_module

if TYPE_CHECKING:
    import numpy as np

    from scrapy_webclean.html.pagemodel import PageModel

#: The model shipped with the package (trained on all the dev sets).
DEFAULT_MODEL_PATH = Path(__file__).with_name("data") / "line_model.json"

_PAGE_TYPE = FEATURE_NAMES.index("page_type")
_RULE_KEEP = FEATURE_NAMES.index("rule_keep")
_TEMPLATE = FEATURE_NAMES.index("template")
_NOISE = FEATURE_NAMES.index("drop_noisy")
_HINT = FEATURE_NAMES.index("hint")
_STRUCTURAL = FEATURE_NAMES.index("structural_drop")
_METADATA = FEATURE_NAMES.index("rule_metadata")
_SEEN = FEATURE_NAMES.index("seen_on_site")
_TYPE_PROBS = slice(
    FEATURE_NAMES.index(f"type_{PAGE_TYPES[0]}"),
    FEATURE_NAMES.index(f"type_{PAGE_TYPES[-1]}") + 1,
)
#: The model file's format (the page-type model inside, the type columns among the
#: features).
MODEL_FORMAT = "webclean-line-trees-2"
#: A page is in a CJK script when more than this share of its first lines' characters
#: (:data:`SCRIPT_SAMPLE_CHARS`) are Chinese, Japanese or Korean: the article model,
#: trained on few such pages, leaves them to the rules.
CJK_PAGE_SHARE = 0.5
SCRIPT_SAMPLE_CHARS = 2000
_CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")


def vetoed(row: Sequence[float]) -> bool:
    """The rules' vetoes, which the model never overturns: a line the site's template
    repeats, a noise line (copyright, consent, share buttons ...), a line in a comment,
    share or related-links container (cross-validated: keeping them cost precision), a
    line a structural rule dropped (a "related" section, a ``<noscript>`` copy of kept
    text, a repeated buy box), a line the rules report apart as the page's metadata (its
    headline, its date or byline: the ``title`` and ``date`` fields, not the text)."""
    return bool(
        row[_TEMPLATE]
        or row[_NOISE]
        or row[_HINT] == STRONG_NEGATIVE
        or row[_STRUCTURAL]
        or row[_METADATA]
    )


def settled_lines(lines: Sequence[Line], rules: RuleState) -> list[bool]:
    """Per line, True when no probability changes its verdict (:func:`verdicts`): the
    rules veto it (:func:`vetoed`, read from ``rules`` instead of a feature row), or it
    was met on an earlier page of the site and the rules dropped it. Most lines of a
    site's later pages are settled: :meth:`LineModel.decide` computes no features and
    walks no trees for them."""
    n = len(lines)
    template = rules.template or [False] * n
    structural = rules.structural or [False] * n
    seen = rules.seen_on_site or [False] * n
    hints = rules.hints
    return [
        bool(
            template[i]
            or rules.drop_noisy[i]
            or hints[line.node] == STRONG_NEGATIVE
            or structural[i]
            or rules.metadata[i]
            or (seen[i] and not rules.kept[i])
        )
        for i, line in enumerate(lines)
    ]


class LineDecider(Protocol):
    """What ``extract_main`` asks for the final verdicts.

    ``page_type_probabilities`` gives a page's probability of each of
    ``pagetype.PAGE_TYPES`` from its ``pagetype.page_type_features`` (asked once a page);
    ``decides_on`` is asked next, with the rules' page type
    (``linefeatures.PAGE_TYPE_CODES``), those probabilities and the page's lines: the line
    features are computed only for a page it decides on; ``decide`` then gives keep flags
    for a page's lines from the rules' verdicts and measures (computing the line features
    it needs: ``linefeatures.line_features``), or None to leave the rules' verdicts as they
    are (a recorder of training data does that)."""

    def page_type_probabilities(self, features: Sequence[float]) -> list[float]: ...

    def decides_on(
        self, page_type: str, type_probs: Sequence[float] = (), lines: Sequence[Line] = ()
    ) -> bool: ...

    def decide(
        self, model: PageModel, lines: Sequence[Line], rules: RuleState
    ) -> list[bool] | None: ...


class ModelFileError(ValueError):
    """A model file that cannot be used (wrong format or other feature columns)."""


class LineModel:
    """Boosted trees that give each line a probability of being main content, with the
    page-type model (``pagetype.PageTypeModel``) trained beside them.

    A line is kept when its probability is at least ``keep_above``, or when the rules kept
    it and its probability is at least ``drop_below``: between the two, the rules' verdict
    stands, and the rules' vetoes (:func:`vetoed`) always stand; a line met on an earlier
    page of the site (``seen_on_site``) is kept only when the rules kept it; a page the
    model would leave empty keeps the rules' verdicts. ``RuleState.favor`` moves both
    thresholds (``favor.shifted_thresholds``: lower for recall, higher for precision). ``type_thresholds``
    gives other thresholds for pages of a most probable type (a collection's items are
    kept by the rules, not dropped by the model). The model decides on
    pages whose rules' page type (``linefeatures.PAGE_TYPE_CODES``) is one of
    ``page_types``, and on pages whose most probable type by the page-type model is one
    of ``model_types`` (``pagetype.PAGE_TYPES``); on the others it leaves the rules'
    verdicts (:meth:`decide` returns None), or to its ``article_model``: a second set of
    trees (the file's ``article_model``, same format, no page-type model of its own),
    trained on every dev set, that decides on the pages this one leaves (articles and
    documentation), except pages in a CJK script (:func:`mostly_cjk`). Instances compare
    by identity (they sit in the frozen, hashed ``CleanOptions``).
    """

    __slots__ = (
        "_spec",
        "article_model",
        "drop_below",
        "ensemble",
        "features",
        "keep_above",
        "model_types",
        "page_type_model",
        "page_types",
        "path",
        "type_thresholds",
    )

    def __init__(self, spec: dict[str, Any], path: Path | None = None) -> None:
        if spec.get("format") != MODEL_FORMAT:
            raise ModelFileError(
                f"{path}: not a webclean line model of format {MODEL_FORMAT}; "
                "retrain it with benchmarks/train_extraction.py"
            )
        features = tuple(spec["features"])
        if features != FEATURE_NAMES:
            raise ModelFileError(
                f"{path}: the model was trained on other features ({len(features)} columns); "
                "retrain it with benchmarks/train_extraction.py"
            )
        self.features = features
        self.path = path
        self._spec = spec
        self.keep_above = float(spec["keep_above"])
        self.drop_below = float(spec["drop_below"])
        self.page_types = frozenset(int(code) for code in spec["page_types"])
        self.model_types = frozenset(PAGE_TYPES.index(name) for name in spec["model_types"])
        self.type_thresholds = {
            PAGE_TYPES.index(name): (float(pair[0]), float(pair[1]))
            for name, pair in spec.get("type_thresholds", {}).items()
        }
        self.ensemble = TreeEnsemble(spec["trees"], [spec["base"]], spec["depth"])
        page_type_spec = spec.get("page_type_model")
        try:
            self.page_type_model = PageTypeModel(page_type_spec) if page_type_spec else None
        except (KeyError, ValueError) as exc:
            raise ModelFileError(f"{path}: page-type model: {exc}") from exc
        article_spec = spec.get("article_model")
        self.article_model = LineModel(article_spec, path) if article_spec else None

    @classmethod
    def load(cls, path: str | Path) -> LineModel:
        """Read a model file written by ``benchmarks/train_extraction.py``."""
        path = Path(path)
        with path.open(encoding="utf-8") as handle:
            return cls(json.load(handle), path)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its file's path (a worker process reads the file once, or takes the
        shipped model it has already read), or as its spec when it has no file."""
        if self.path is not None:
            return (_model_of_file, (str(self.path),))
        return (LineModel, (self._spec,))

    def probabilities(self, rows: Sequence[Sequence[float]]) -> np.ndarray:
        """Each row's probability of being content."""
        numpy = numpy_module()
        raw = self.ensemble.raw(rows)[:, 0]
        return cast("np.ndarray", 1.0 / (1.0 + numpy.exp(-raw)))

    def page_type_probabilities(self, features: Sequence[float]) -> list[float]:
        """The page's probability of each of ``pagetype.PAGE_TYPES`` (all alike without a
        page-type model)."""
        if self.page_type_model is None:
            return uniform_probabilities()
        return self.page_type_model.probabilities(features)

    def decides_on(
        self, page_type: str, type_probs: Sequence[float] = (), lines: Sequence[Line] = ()
    ) -> bool:
        """Whether the model decides on a page the rules read as ``page_type`` and the
        page-type model gives ``type_probs`` (``lines``: the page's lines, which the
        article model reads for their script)."""
        code = PAGE_TYPE_CODES.get(page_type, OTHER_PAGE_CODE)
        return self._deciding(code, type_probs, lines) is not None

    def decides_on_rows(self, rows: Sequence[Sequence[float]]) -> bool:
        """Whether the model decides on a page of these feature rows (its rules' page type
        and type probabilities are in every row)."""
        if not len(rows):
            return False
        first = rows[0]
        return model_decides(
            int(first[_PAGE_TYPE]), first[_TYPE_PROBS], self.page_types, self.model_types
        )

    def decide(
        self, model: PageModel, lines: Sequence[Line], rules: RuleState
    ) -> list[bool] | None:
        """Keep (True) or drop each line of a page the rules read (``rules``); None for a
        page the model leaves to the rules. The same verdicts as :meth:`decide_rows` on
        the page's full feature rows, but only the lines not :func:`settled_lines` have
        features computed and trees walked (a settled line's probability is never read)."""
        if not lines:
            return None
        type_probs = list(rules.type_probs) or uniform_probabilities()
        code = PAGE_TYPE_CODES.get(rules.page_type, OTHER_PAGE_CODE)
        trees = self._deciding(code, type_probs, lines)
        if trees is None:
            return None
        settled = settled_lines(lines, rules)
        open_lines = [i for i, done in enumerate(settled) if not done]
        probs = [0.0] * len(lines)
        if open_lines:
            rows = line_features(model, lines, rules, only=open_lines)
            for i, p in zip(open_lines, trees.probabilities(rows), strict=True):
                probs[i] = float(p)
        seen = rules.seen_on_site or [False] * len(lines)
        keep_above, drop_below = trees.thresholds(type_probs)
        if rules.favor != BALANCED:
            keep_above, drop_below = shifted_thresholds(keep_above, drop_below, rules.favor)
        return keep_flags(probs, rules.kept, seen, settled, keep_above, drop_below)

    def decide_rows(
        self, rows: Sequence[Sequence[float]], lines: Sequence[Line] = ()
    ) -> list[bool] | None:
        """:meth:`decide` from a page's full feature rows (``rows[i]`` is ``lines[i]``'s):
        keep (True) or drop each line; None for a page the model leaves to the rules."""
        if not len(rows):
            return None
        first = rows[0]
        trees = self._deciding(int(first[_PAGE_TYPE]), first[_TYPE_PROBS], lines)
        if trees is None:
            return None
        return verdicts(trees.probabilities(rows), rows, *trees.thresholds(first[_TYPE_PROBS]))

    def _deciding(
        self, code: int, type_probs: Sequence[float], lines: Sequence[Line]
    ) -> LineModel | None:
        """The trees that decide on a page of rules' type ``code`` and these type
        probabilities: these, the article model's (but on a page in a CJK script:
        :func:`mostly_cjk`), or none."""
        if model_decides(code, type_probs, self.page_types, self.model_types):
            return self
        article = self.article_model
        if (
            article is not None
            and model_decides(code, type_probs, article.page_types, article.model_types)
            and not mostly_cjk(lines)
        ):
            return article
        return None

    def thresholds(self, type_probs: Sequence[float]) -> tuple[float, float]:
        """``(keep_above, drop_below)`` for a page of these type probabilities."""
        return self.type_thresholds.get(
            most_probable(type_probs), (self.keep_above, self.drop_below)
        )


def mostly_cjk(lines: Sequence[Line]) -> bool:
    """True when most characters of the page's first lines (up to
    :data:`SCRIPT_SAMPLE_CHARS`) are Chinese, Japanese or Korean (:data:`CJK_PAGE_SHARE`)."""
    sample: list[str] = []
    size = 0
    for line in lines:
        sample.append(line.text)
        size += len(line.text)
        if size >= SCRIPT_SAMPLE_CHARS:
            break
    text = "".join(sample)[:SCRIPT_SAMPLE_CHARS]
    return bool(text) and len(_CJK_RE.findall(text)) > CJK_PAGE_SHARE * len(text)


def model_decides(
    rules_code: int,
    type_probs: Sequence[float],
    page_types: frozenset[int],
    model_types: frozenset[int],
) -> bool:
    """Whether a line model decides on a page: the rules read it as one of ``page_types``
    (``linefeatures.PAGE_TYPE_CODES``), or its most probable type is one of
    ``model_types`` (indexes of ``pagetype.PAGE_TYPES``)."""
    if rules_code in page_types:
        return True
    return len(type_probs) > 0 and most_probable(type_probs) in model_types


def verdicts(
    probs: Sequence[float] | np.ndarray,
    rows: Sequence[Sequence[float]],
    keep_above: float,
    drop_below: float,
) -> list[bool] | None:
    """:func:`keep_flags` of a page's lines from their feature rows (the rules' verdict,
    ``seen_on_site`` and the vetoes of :func:`vetoed`)."""
    return keep_flags(
        probs,
        [bool(row[_RULE_KEEP]) for row in rows],
        [bool(row[_SEEN]) for row in rows],
        [vetoed(row) for row in rows],
        keep_above,
        drop_below,
    )


def keep_flags(
    probs: Sequence[float] | np.ndarray,
    rule_keep: Sequence[bool],
    seen: Sequence[bool],
    vetoes: Sequence[bool],
    keep_above: float,
    drop_below: float,
) -> list[bool] | None:
    """The keep flags of a page's lines from their probabilities: kept at ``keep_above``
    (unless met on an earlier page of the site: ``seen``), or when the rules kept it at
    ``drop_below``; never a vetoed line. None when nothing would be kept of a page the
    rules kept something of: their verdicts stand."""
    keep = [
        bool((kept and p >= drop_below) or (p >= keep_above and not met)) and not veto
        for p, kept, met, veto in zip(probs, rule_keep, seen, vetoes, strict=True)
    ]
    if not any(keep) and any(rule_keep):
        return None
    return keep


def most_probable(type_probs: Sequence[float]) -> int:
    """The index of the most probable page type."""
    return max(range(len(type_probs)), key=type_probs.__getitem__)


@lru_cache(maxsize=8)
def _model_of_file(path: str) -> LineModel:
    """The model of a file, read once per process (the shipped model is
    :func:`default_line_model`'s): the settings check, the pipeline and each worker's
    unpickling ask for it."""
    if Path(path) == DEFAULT_MODEL_PATH:
        model = default_line_model()
        if model is not None:
            return model
    return LineModel.load(path)


@lru_cache(maxsize=1)
def default_line_model() -> LineModel | None:
    """The shipped model, read once per process; None when the package has none."""
    if not DEFAULT_MODEL_PATH.exists():
        return None
    return LineModel.load(DEFAULT_MODEL_PATH)


def line_model_named(name: str) -> LineModel | None:
    """The model a ``WEBCLEAN_LINE_MODEL`` value names: ``"default"`` the shipped model,
    ``"none"`` no model (the hand rules alone), anything else the file at that path
    (``OSError`` or :class:`ModelFileError` when it cannot be read as one)."""
    if name == "default":
        return default_line_model()
    if name == "none":
        return None
    return _model_of_file(name)
