"""The training data of the line model: every dev page cleaned by the hand rules alone
(one stateful ``Cleaner`` per set, pages in crawl order), each line's features
(``linefeatures``) and text recorded (:class:`Recorder`), and its label from aligning the
gold text with the page's lines (:class:`Aligner`: a line is content when at least half of
its word trigrams, characters for Chinese, occur in the gold text). ``train_extraction.py``
says how it is used.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
from datasets import Page, load_set  # noqa: E402
from metrics import char_f1, token_f1, word_f1  # noqa: E402

from scrapy_webclean import Cleaner, CleanOptions  # noqa: E402
from scrapy_webclean.extraction.linefeatures import (  # noqa: E402
    FEATURE_NAMES,
    RuleState,
    line_features,
)
from scrapy_webclean.extraction.lines import Line  # noqa: E402
from scrapy_webclean.extraction.pagetype import (  # noqa: E402
    PAGE_FEATURE_NAMES,
    uniform_probabilities,
)
from scrapy_webclean.html.pagemodel import PageModel  # noqa: E402

DEFAULT_SETS = ("scrapinghub", "wcxb-dev", "dragnet-gold", "zh-news-silver")
#: A line is content when at least this share of its n-grams is in the gold text.
LABEL_COVERAGE = 0.5
_WORD_RE = re.compile(r"\w+", re.UNICODE)
_CJK_RE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


class Recorder:
    """A ``LineDecider`` that keeps the rules' verdicts and records the last page's rows
    and page-type features (its type probabilities are filled in later, out of fold)."""

    def __init__(self) -> None:
        self.rows: list[list[float]] = []
        self.texts: list[str] = []
        self.page_features: list[float] = []

    def page_type_probabilities(self, features: Sequence[float]) -> list[float]:
        self.page_features = list(features)
        return uniform_probabilities()

    def decides_on(
        self, page_type: str, type_probs: Sequence[float] = (), lines: Sequence[Line] = ()
    ) -> bool:
        return True

    def decide(self, model: PageModel, lines: Sequence[Line], rules: RuleState) -> None:
        self.rows = line_features(model, lines, rules)
        self.texts = [line.text for line in lines]


@dataclass(slots=True)
class PageLines:
    """One page's lines: features, labels, weights and what is needed to score a text."""

    set_name: str
    page_id: str
    fold: int
    page_type: str
    language: str
    truth: str
    texts: list[str]
    x: np.ndarray
    y: np.ndarray
    w: np.ndarray
    #: The page-type features (``pagetype.PAGE_FEATURE_NAMES``).
    page_x: np.ndarray


def units(text: str, chinese: bool) -> list[str]:
    """The words of a text, lower-cased (each CJK character is one)."""
    if chinese:
        return [c for c in text if not c.isspace()]
    out: list[str] = []
    for word in _WORD_RE.findall(text.lower()):
        if _CJK_RE.search(word):
            out.extend(word)
        else:
            out.append(word)
    return out


class Aligner:
    """Which lines of a page the gold text holds (n-gram coverage)."""

    def __init__(self, truth: str, chinese: bool) -> None:
        self.chinese = chinese
        words = units(truth, chinese)
        self.size = 4 if chinese else 3
        self.grams = [
            {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}
            for n in range(1, self.size + 1)
        ]

    def coverage(self, text: str) -> float:
        words = units(text, self.chinese)
        if not words:
            return 0.0
        n = min(self.size, len(words))
        grams = self.grams[n - 1]
        total = len(words) - n + 1
        hit = sum(tuple(words[i : i + n]) in grams for i in range(total))
        return hit / total


def collect(data: Path, sets: Sequence[str]) -> list[PageLines]:
    """Clean every page with the rules alone, recording each line's features and label
    and the page's type features (the rules do not read the page-type model: its
    probabilities, held out, fill the lines' type columns later)."""
    pages: list[PageLines] = []
    for name in sets:
        dataset = load_set(data, name)
        recorder = Recorder()
        cleaner = Cleaner(CleanOptions(line_model=recorder))
        started = time.monotonic()
        for page in dataset.pages:
            if page.truth is None:
                continue
            recorder.rows, recorder.texts, recorder.page_features = [], [], []
            try:
                cleaner.clean(page.html, page.url)
            except Exception:  # a page the cleaner refuses has no lines
                continue
            pages.append(_page_lines(page, recorder))
        print(
            f"  {name}: {len(dataset.pages)} pages in {time.monotonic() - started:.0f} s",
            file=sys.stderr,
        )
    return pages


def _page_lines(page: Page, recorder: Recorder) -> PageLines:
    chinese = page.language == "zh"
    truth = page.truth or ""
    aligner = Aligner(truth, chinese)
    cover = [aligner.coverage(text) for text in recorder.texts]
    sizes = np.asarray([max(1, len(units(t, chinese))) for t in recorder.texts], dtype=float)
    weights = sizes / sizes.sum() if len(sizes) else sizes
    return PageLines(
        set_name=page.set_name,
        page_id=page.id,
        fold=page.fold,
        page_type=page.page_type,
        language=page.language,
        truth=truth,
        texts=recorder.texts,
        x=np.asarray(recorder.rows, dtype=np.float64).reshape(-1, len(FEATURE_NAMES)),
        y=np.asarray([c >= LABEL_COVERAGE for c in cover], dtype=np.int8),
        w=weights,
        page_x=np.asarray(
            recorder.page_features or [0.0] * len(PAGE_FEATURE_NAMES), dtype=np.float64
        ),
    )


def score_page(page: PageLines, keep: Sequence[bool]) -> dict[str, float]:
    """The page's figures for the lines ``keep`` keeps."""
    text = "\n".join(t for t, k in zip(page.texts, keep, strict=False) if k)
    if page.language == "zh":
        prf = char_f1(text, page.truth)
        return {"p": prf.precision, "r": prf.recall}
    prf = token_f1(text, page.truth)
    out = {"p": prf.precision, "r": prf.recall}
    if page.set_name == "wcxb-dev":
        out["wcxb"] = word_f1(text, page.truth).f1
    return out
