"""Running the extraction benchmark's extractors over a set and scoring them: per page
(:class:`PageResult`, token F1, WCXB's word F1, character F1 on Chinese sets), then per
set, fold or page type (:class:`Summary`, :class:`FoldFigures`); the per-page records of
``--per-page`` written and read back (``--peers-from``).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# The benchmarks folder is not a package: make its modules importable however this is run.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from datasets import Dataset, Page
from extractors import OursSetup, Outcome, is_ours, warmed_extractor
from folds import FOLDS
from metrics import (
    PRF,
    SnippetCounts,
    average,
    char_f1,
    mean_f1,
    snippet_counts,
    token_f1,
    word_f1,
)


def headline_of(dataset: Dataset) -> str:
    """``wcxb`` on WCXB sets, ``token`` on the other English sets, ``char`` on Chinese sets."""
    if dataset.language != "en":
        return "char"
    return "wcxb" if dataset.name.startswith("wcxb") else "token"


HEADLINE_LABEL = {"wcxb": "WCXB metric", "token": "token F1", "char": "char F1"}


@dataclass(slots=True)
class PageResult:
    """Scores and time of one extractor on one page (scores None when not scored; ``char``
    only on Chinese sets)."""

    page: Page
    extractor: str
    ms: float
    chars: int
    empty: bool
    error: str | None
    token: PRF | None
    word: PRF | None
    char: PRF | None
    #: Token F1 against the gold's main text and its marked comments together (Dragnet's
    #: gold files; None on other sets).
    token_with_comments: PRF | None = None
    #: The page's snippets the text holds and misses (WCXB's; None on other sets).
    snippets: SnippetCounts | None = None
    #: The text's distinct lines, kept only for a page without truth (what recurs across
    #: a site's texts is the only sign of boilerplate there).
    lines: frozenset[str] | None = None

    @property
    def scored(self) -> bool:
        return self.token is not None


def _percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def score_outcome(name: str, page: Page, out: Outcome) -> PageResult:
    token = word = char = None
    if page.has_truth:
        truth = page.truth or ""
        token = token_f1(out.text, truth)
        word = word_f1(out.text, truth)
        if page.language != "en":
            char = char_f1(out.text, truth)
    with_comments = None
    if page.has_truth and page.comments is not None:
        with_comments = (
            token_f1(out.text, f"{page.truth}\n{page.comments}") if page.comments else token
        )
    # (snippets are counted on every page that has some, a blank main text or not)
    snippets = snippet_counts(out.text, *page.snippets) if page.snippets is not None else None
    return PageResult(
        page,
        name,
        out.ms,
        len(out.text),
        not out.text.strip(),
        out.error,
        token,
        word,
        char,
        with_comments,
        snippets,
        None if page.has_truth else text_lines(out.text),
    )


def text_lines(text: str) -> frozenset[str]:
    """The distinct non-blank lines of a text, stripped."""
    return frozenset(line.strip() for line in text.splitlines() if line.strip())


def run_extractors(
    names: Sequence[str],
    dataset: Dataset,
    htmls: Sequence[str],
    log: Callable[[str], None],
    take_turns: bool = False,
    setup: OursSetup | None = None,
    passes: int = 1,
) -> dict[str, list[PageResult]]:
    """Run the extractors over a set, in crawl order, and score every page that has truth.

    By default each extractor runs through the whole set before the next starts (its code
    and data stay in the CPU's caches, as in a worker that cleans page after page); with
    ``take_turns`` they take turns page by page (every extractor then starts each page
    with colder caches, as cleaning between a crawl's other work does). With ``passes`` > 1
    the whole run is made that many times, each time with fresh extractors, and a page's
    time is its least over the passes (what the machine's other load added is left out;
    the scores are the first pass's)."""
    results = _run_once(names, dataset, htmls, log, take_turns, setup)
    for number in range(2, passes + 1):
        log(f"  {dataset.name:<20} pass {number} of {passes} (times only)")
        again = _run_once(names, dataset, htmls, log, take_turns, setup, score=False)
        for name, rs in results.items():
            for r, other in zip(rs, again[name], strict=True):
                r.ms = min(r.ms, other.ms)
    return results


def _time_only(name: str, page: Page, out: Outcome) -> PageResult:
    """An extractor's outcome on a page, timed and not scored."""
    return PageResult(
        page, name, out.ms, len(out.text), not out.text.strip(), out.error, None, None, None
    )


def _run_once(
    names: Sequence[str],
    dataset: Dataset,
    htmls: Sequence[str],
    log: Callable[[str], None],
    take_turns: bool,
    setup: OursSetup | None,
    score: bool = True,
) -> dict[str, list[PageResult]]:
    """One pass of :func:`run_extractors`; without ``score``, the results carry the times
    only (no page scored)."""
    results: dict[str, list[PageResult]] = {name: [] for name in names}
    wall = time.perf_counter()
    pages = list(zip(dataset.pages, htmls, strict=True))
    judge = score_outcome if score else _time_only
    if take_turns:
        extractors = {name: warmed_extractor(name, dataset, htmls, setup) for name in names}
        for page, html in pages:
            for name, extractor in extractors.items():
                results[name].append(judge(name, page, extractor(page, html)))
    else:
        for name in names:
            extractor = warmed_extractor(name, dataset, htmls, setup)
            results[name] = [judge(name, page, extractor(page, html)) for page, html in pages]
            log(f"  {dataset.name:<20} {name:<22} done")
    for name, rs in results.items():
        errors = sum(1 for r in rs if r.error)
        cpu = sum(r.ms for r in rs) / 1000
        log(
            f"  {dataset.name:<20} {name:<22} {len(rs)} pages, {errors} errors, "
            f"{cpu:.1f} s CPU in the extractor"
        )
    log(f"  {dataset.name:<20} {time.perf_counter() - wall:.1f} s wall with scoring")
    return results


@dataclass(slots=True)
class Summary:
    """Aggregates of one extractor on one set (or one fold, or one page type)."""

    extractor: str
    pages: int
    scored: int
    token: PRF
    wcxb: float
    #: WCXB's metric over every page with a truth, blank truths included (1 for an empty
    #: prediction, else 0); None when there are none.
    wcxb_all: float | None
    char: PRF | None
    median_ms: float
    p95_ms: float
    max_ms: float
    errors: int
    empty: int
    #: The snippets of every page run that has some, summed; None when none has.
    snippets: SnippetCounts | None = None

    def metric(self, name: str) -> float:
        """The F1 of a headline metric: ``token``, ``wcxb`` or ``char``."""
        if name == "wcxb":
            return self.wcxb
        if name == "char":
            return self.char.f1 if self.char is not None else 0.0
        return self.token.f1

    def to_dict(self) -> dict[str, Any]:
        return {
            "extractor": self.extractor,
            "pages": self.pages,
            "scored_pages": self.scored,
            "token": self.token._asdict(),
            "wcxb": self.wcxb,
            "wcxb_all_pages": self.wcxb_all,
            "char": self.char._asdict() if self.char is not None else None,
            "median_ms": self.median_ms,
            "p95_ms": self.p95_ms,
            "max_ms": self.max_ms,
            "errors": self.errors,
            "empty_outputs": self.empty,
            "snippets": None
            if self.snippets is None
            else {
                **self.snippets._asdict(),
                **self.snippets.prf._asdict(),
                "accuracy": self.snippets.accuracy,
            },
        }


def summarize(name: str, results: Iterable[PageResult]) -> Summary:
    """Average the scored pages' scores; time statistics over all pages."""
    items = list(results)
    scored = [r for r in items if r.scored]
    chars = [r.char for r in scored if r.char is not None]
    times = [r.ms for r in items]
    judged = [r for r in items if r.page.truth is not None]
    all_pages = [r.word.f1 if r.word is not None else float(r.empty) for r in judged]
    snippets = [r.snippets for r in items if r.snippets is not None]
    return Summary(
        extractor=name,
        pages=len(items),
        scored=len(scored),
        token=average(r.token for r in scored if r.token is not None),
        wcxb=mean_f1(r.word for r in scored if r.word is not None),
        wcxb_all=statistics.fmean(all_pages) if all_pages else None,
        char=average(chars) if chars else None,
        median_ms=statistics.median(times) if times else 0.0,
        p95_ms=_percentile(times, 0.95),
        max_ms=max(times) if times else 0.0,
        errors=sum(1 for r in items if r.error),
        empty=sum(1 for r in items if r.empty),
        snippets=sum(snippets, SnippetCounts()) if snippets else None,
    )


@dataclass(slots=True)
class FoldFigures:
    """One extractor's headline metric on each fold, and the spread of the five."""

    values: dict[int, float]
    pages: dict[int, int]

    @property
    def mean(self) -> float:
        return statistics.fmean(self.values.values()) if self.values else 0.0

    @property
    def sd(self) -> float:
        return statistics.stdev(self.values.values()) if len(self.values) > 1 else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "per_fold": {str(k): v for k, v in self.values.items()},
            "pages": {str(k): n for k, n in self.pages.items()},
            "mean": self.mean,
            "sd": self.sd,
        }


def fold_figures(results: Sequence[PageResult], metric: str) -> FoldFigures:
    """The headline metric per fold, over the folds that have scored pages."""
    values: dict[int, float] = {}
    pages: dict[int, int] = {}
    for k in range(FOLDS):
        rs = [r for r in results if r.page.fold == k and r.scored]
        if rs:
            values[k] = summarize("", rs).metric(metric)
            pages[k] = len(rs)
    return FoldFigures(values, pages)


def per_page_records(
    dataset: Dataset, results: dict[str, list[PageResult]]
) -> list[dict[str, Any]]:
    """One record per page: its identity, fold and type, and every extractor's scores."""
    records = []
    for i, page in enumerate(dataset.pages):
        rec: dict[str, Any] = {
            "set": page.set_name,
            "id": page.id,
            "site": page.site,
            "domain": page.domain,
            "fold": page.fold,
            "page_type": page.page_type,
            "url": page.url,
            "scored": page.has_truth,
            "extractors": {},
        }
        for name, rs in results.items():
            r = rs[i]
            entry: dict[str, Any] = {
                "ms": round(r.ms, 3),
                "chars": r.chars,
                "empty": r.empty,
                "error": r.error,
            }
            if r.token is not None:
                entry.update(token_p=r.token.precision, token_r=r.token.recall, token_f1=r.token.f1)
            if r.word is not None:
                entry["wcxb_f1"] = r.word.f1
            if r.char is not None:
                entry.update(char_p=r.char.precision, char_r=r.char.recall, char_f1=r.char.f1)
            if r.token_with_comments is not None:
                c = r.token_with_comments
                entry.update(token_wc_p=c.precision, token_wc_r=c.recall, token_wc_f1=c.f1)
            if r.snippets is not None:
                entry["snippets"] = list(r.snippets)
            rec["extractors"][name] = entry
        records.append(rec)
    return records


def _stored_prf(entry: dict[str, Any], prefix: str) -> PRF | None:
    if f"{prefix}_f1" not in entry:
        return None
    return PRF(entry.get(f"{prefix}_p"), entry.get(f"{prefix}_r"), entry[f"{prefix}_f1"])


def stored_results(
    path: Path, dataset: Dataset, skip: Iterable[str]
) -> tuple[dict[str, list[PageResult]], list[str]]:
    """The peers' results on ``dataset`` from an earlier run's ``--per-page`` file: every
    extractor there that is not ours and not in ``skip``, when it has every page of the
    set; returns them and the names left out (pages missing)."""
    wanted = {(p.set_name, p.id) for p in dataset.pages}
    records: dict[str, dict[str, Any]] = {}
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            if (rec.get("set"), rec.get("id")) in wanted:
                records[rec["id"]] = rec
    names: list[str] = []
    for rec in records.values():
        names += [n for n in rec["extractors"] if n not in names]
    skipped = set(skip)
    found: dict[str, list[PageResult]] = {}
    missing: list[str] = []
    for name in names:
        if is_ours(name) or name in skipped:
            continue
        entries = [records.get(p.id, {}).get("extractors", {}).get(name) for p in dataset.pages]
        if any(e is None for e in entries):
            missing.append(name)
            continue
        found[name] = [
            PageResult(
                page,
                name,
                float(e["ms"]),
                int(e["chars"]),
                bool(e["empty"]),
                e.get("error"),
                _stored_prf(e, "token"),
                PRF(None, None, e["wcxb_f1"]) if "wcxb_f1" in e else None,
                _stored_prf(e, "char"),
                _stored_prf(e, "token_wc"),
                SnippetCounts(*e["snippets"]) if "snippets" in e else None,
            )
            for page, e in zip(dataset.pages, entries, strict=True)
            if e is not None
        ]
    return found, missing
