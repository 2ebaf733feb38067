"""Main-content extraction: scrapy_webclean against its peers, quality and CPU time.

Usage::

    .venv/bin/python benchmarks/extraction.py ../shared/datasets/extract \\
        [--sets scrapinghub,wcxb-dev,zh-news-silver,zh-netease-template] \\
        [--extractors ours,ours-stateless,trafilatura,...] [--limit N] \\
        [--json results.json] [--per-page out.jsonl] [--take-turns]

The argument is the ``extract/`` folder of the shared datasets (its README defines the data
formats and the metrics); nothing of it is copied. Everything runs in one process, one page
at a time, and every extractor sees the same pages in the same order: per set sorted by
site (domain), then by page id, as a crawl of each site would deliver them.

Inputs. ``ours`` and ``ours-stateless`` get the raw page bytes (our loader decodes them).
Every peer gets the same ``str``: the bytes decoded by our loader
(``decode_html(body, None).text``) with a leading ``<?xml ...?>`` declaration removed (lxml
refuses a ``str`` that declares an encoding), so that no peer loses by guessing the
encoding differently. Pages with a real URL pass it to the extractors that take one; the
Chinese sets have none and get a made-up ``http://<site>.invalid/<id>`` so that ``ours``
can tell sites apart.

Extractors:

* ``ours`` -- ``scrapy_webclean.Cleaner`` if the package has it (one Cleaner per set, fed
  the pages in crawl order, so it learns each site's template), else ``clean_html``;
* ``ours-stateless`` -- ``scrapy_webclean.clean_html``, one page at a time;
* ``ours+blocks`` -- as ``ours``, plus the page's blocks (segmented, classified, links and
  images grouped by label through ``to_dict()``): what the crawl's pipeline pays per page
  (``CleanResult.blocks`` is built on first access, so ``ours`` does not pay for it);
* ``trafilatura`` -- ``extract(html, url=..., include_comments=False)``;
* ``trafilatura+comments`` -- ``extract(html, url=...)``, the library default (comments in);
* ``trafilatura-precision`` -- ``extract(..., include_comments=False, favor_precision=True)``;
* ``readability`` -- readability-lxml ``Document(html).summary()``, then the text of that
  HTML with one line per block element (the conversion is inside the timed call);
* ``justext`` -- paragraphs not classified as boilerplate, one per line; the English
  stoplist on the English sets; jusText has no Chinese stoplist, so on Chinese sets it runs
  in its language-independent mode (empty stoplist, ``stopwords_low = stopwords_high = 0``:
  length and link density only) -- a handicap to keep in mind;
* ``gne`` -- ``GeneralNewsExtractor().extract(html)["content"]``;
* ``lxml`` -- the floor: ``lxml.html.fromstring(html)``; its CPU time is the parse alone and
  its "prediction" is ``text_content()`` of the whole page (scripts and styles included).

Timing: ``time.process_time()`` around the extractor call only (no IO, decoding or
scoring). Each extractor runs through a whole set before the next one starts, with its
code and data warm in the CPU's caches; ``--take-turns`` makes them take turns page by
page instead, each starting every page with colder caches. Each extractor makes one untimed warm-up call before a set starts (imports,
dictionaries, caches); ``ours`` warms up on a throw-away Cleaner. An exception counts as an
error and an empty prediction.

Scoring (``benchmarks/metrics.py``): token F1 (4-token shingles) and character F1 (LCS),
per-page P and R averaged over pages, F1 = harmonic mean of the averages. As in the
scrapinghub benchmark's script, a page where an extractor returns nothing has no precision
(left out of the P average) and recall 0; the tables count such pages ("empty"). Pages whose
ground truth is empty are run and timed but left out of the scores (reported). The
headline metric is token F1 on English sets and character F1 on Chinese sets.
"""

from __future__ import annotations

import argparse
import json
import logging
import platform
import re
import shlex
import statistics
import sys
import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

# The benchmarks folder is not a package: make ``metrics`` importable however this is run.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from datasets import ALL_SETS, LOADERS, WCXB_TYPES, Dataset, Page
from metrics import PRF, average, char_f1, token_f1

from scrapy_webclean.segmentation.tagclasses import BREAK_TAGS

ALL_EXTRACTORS = (
    "ours",
    "ours-stateless",
    "ours+blocks",
    "trafilatura",
    "trafilatura+comments",
    "trafilatura-precision",
    "readability",
    "justext",
    "gne",
    "lxml",
)
SLOW_MS = 1000.0

_XML_DECL_RE = re.compile(r"^\s*<\?xml[^>]*\?>", re.I)


# --------------------------------------------------------------------------- extractors

# An extractor is built per set (so stateful ones start fresh) and called per page.
Extract = Callable[[Page, str], str]

# The tags that start a new line of text: the same set our own text assembly uses, so
# readability's HTML output is turned into lines the way our text is.
_BLOCK_TAGS = BREAK_TAGS


def html_fragment_text(fragment: str) -> str:
    """Plain text of an HTML fragment: a line per block element, spaces collapsed."""
    import lxml.html

    if not fragment.strip():
        return ""
    root = lxml.html.fragment_fromstring(fragment, create_parent="div")
    parts: list[str] = []

    def walk(el: Any) -> None:
        tag = el.tag if isinstance(el.tag, str) else ""
        if tag in ("script", "style", "noscript", "template"):
            if el.tail:
                parts.append(el.tail)
            return
        block = tag in _BLOCK_TAGS
        if block:
            parts.append("\n")
        if el.text and tag:
            parts.append(el.text)
        for child in el:
            walk(child)
        if block:
            parts.append("\n")
        if el.tail:
            parts.append(el.tail)

    walk(root)
    lines = (" ".join(line.split()) for line in "".join(parts).split("\n"))
    return "\n".join(line for line in lines if line)


def _ours_factory(stateful: bool, with_blocks: bool = False) -> Callable[[], Extract]:
    def build() -> Extract:
        import scrapy_webclean

        cleaner_cls = getattr(scrapy_webclean, "Cleaner", None) if stateful else None
        if cleaner_cls is not None:
            cleaner = cleaner_cls()

            def run_cleaner(page: Page, _html: str) -> str:
                result = cleaner.clean(page.body, page.url)
                if with_blocks:  # what the crawl's pipeline exports: links/images by label
                    result.to_dict()
                return str(result.text)

            return run_cleaner

        def run_stateless(page: Page, _html: str) -> str:
            return scrapy_webclean.clean_html(page.body, page.url).text

        return run_stateless

    return build


def _trafilatura_factory(**kwargs: Any) -> Callable[[], Extract]:
    def build() -> Extract:
        import trafilatura

        def run(page: Page, html: str) -> str:
            return trafilatura.extract(html, url=page.url, **kwargs) or ""

        return run

    return build


def _readability_factory() -> Extract:
    from readability import Document  # type: ignore[import-untyped]

    def run(page: Page, html: str) -> str:
        return html_fragment_text(Document(html).summary(html_partial=True))

    return run


def _justext_factory_for(language: str) -> Callable[[], Extract]:
    def build() -> Extract:
        import justext  # type: ignore[import-untyped]

        if language == "en":
            stoplist = justext.get_stoplist("English")
            extra: dict[str, float] = {}
        else:
            stoplist = frozenset()
            extra = {"stopwords_low": 0.0, "stopwords_high": 0.0}

        def run(page: Page, html: str) -> str:
            paragraphs = justext.justext(html, stoplist, **extra)
            return "\n".join(p.text for p in paragraphs if not p.is_boilerplate)

        return run

    return build


def _gne_factory() -> Extract:
    from gne import GeneralNewsExtractor  # type: ignore[import-untyped]

    extractor = GeneralNewsExtractor()

    def run(page: Page, html: str) -> str:
        return str(extractor.extract(html).get("content") or "")

    return run


@dataclass(slots=True)
class Outcome:
    """What one extractor did on one page."""

    text: str
    ms: float
    error: str | None = None


def _run_lxml_floor(page: Page, html: str) -> Outcome:
    """Parse alone is timed; the whole-page text is taken afterwards."""
    import lxml.html

    start = time.process_time()
    root = lxml.html.fromstring(html)
    ms = (time.process_time() - start) * 1000
    return Outcome(root.text_content(), ms)


def _timed(fn: Extract, page: Page, html: str) -> Outcome:
    start = time.process_time()
    try:
        text = fn(page, html)
    except Exception as exc:  # a peer failing on a page is data, not a crash
        ms = (time.process_time() - start) * 1000
        return Outcome("", ms, f"{type(exc).__name__}: {str(exc)[:200]}")
    return Outcome(text, (time.process_time() - start) * 1000)


def build_extractor(name: str, language: str) -> Callable[[Page, str], Outcome]:
    """A fresh extractor for one set, wrapped to return an :class:`Outcome`."""
    if name == "lxml":

        def floor(page: Page, html: str) -> Outcome:
            try:
                return _run_lxml_floor(page, html)
            except Exception as exc:
                return Outcome("", 0.0, f"{type(exc).__name__}: {str(exc)[:200]}")

        return floor
    factories: dict[str, Callable[[], Extract]] = {
        "ours": _ours_factory(stateful=True),
        "ours-stateless": _ours_factory(stateful=False),
        "ours+blocks": _ours_factory(stateful=True, with_blocks=True),
        "trafilatura": _trafilatura_factory(include_comments=False),
        "trafilatura+comments": _trafilatura_factory(),
        "trafilatura-precision": _trafilatura_factory(include_comments=False, favor_precision=True),
        "readability": _readability_factory,
        "justext": _justext_factory_for(language),
        "gne": _gne_factory,
    }
    fn = factories[name]()
    return lambda page, html: _timed(fn, page, html)


def peer_html(body: bytes) -> str:
    """The ``str`` every peer gets: our loader's decode, minus a leading XML declaration."""
    from scrapy_webclean.html.loader import decode_html

    return _XML_DECL_RE.sub("", decode_html(body, None).text, count=1)


def data_notes(dataset: Dataset) -> list[str]:
    """What the data itself looks like: encodings found, undecodable bytes, empty truths."""
    from scrapy_webclean.html.loader import decode_html

    encodings: Counter[str] = Counter()
    replaced = []
    for page in dataset.pages:
        decoded = decode_html(page.body, None)
        encodings[f"{decoded.encoding} ({decoded.source})"] += 1
        if decoded.replaced:
            replaced.append(f"{page.id} ({decoded.replaced})")
    notes = ["decoded as " + ", ".join(f"{k} ×{v}" for k, v in encodings.most_common())]
    if replaced:
        notes.append("undecodable bytes replaced on " + ", ".join(replaced))
    for page in dataset.pages:
        if page.truth is not None and not page.truth.strip():
            kind = f"{page.page_type}, " if page.page_type else ""
            notes.append(f"{page.id} ({kind}{page.site}): empty ground truth, run but not scored")
    return notes


# --------------------------------------------------------------------------- running


@dataclass(slots=True)
class PageResult:
    """Scores and time of one extractor on one page (scores None when not scored)."""

    page: Page
    extractor: str
    ms: float
    chars: int
    empty: bool
    error: str | None
    token: PRF | None
    char: PRF | None


def _percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def warmed_extractor(name: str, dataset: Dataset, html: str) -> Callable[[Page, str], Outcome]:
    """An extractor for a set, after one untimed call on its first page (``html``)."""
    if name.startswith("ours"):
        # Warm up on a throw-away instance so that the measured Cleaner starts empty.
        build_extractor(name, dataset.language)(dataset.pages[0], html)
        return build_extractor(name, dataset.language)
    extractor = build_extractor(name, dataset.language)
    extractor(dataset.pages[0], html)
    return extractor


def _scored(name: str, page: Page, out: Outcome) -> PageResult:
    token = char = None
    if page.truth is not None and page.truth.strip():
        token = token_f1(out.text, page.truth)
        char = char_f1(out.text, page.truth)
    return PageResult(
        page, name, out.ms, len(out.text), not out.text.strip(), out.error, token, char
    )


def run_extractors(
    names: Sequence[str],
    dataset: Dataset,
    htmls: Sequence[str],
    log: Callable[[str], None],
    take_turns: bool = False,
) -> dict[str, list[PageResult]]:
    """Run the extractors over a set, in crawl order, and score every page that has truth.

    By default each extractor runs through the whole set before the next starts (its code
    and data stay in the CPU's caches, as in a worker that cleans page after page); with
    ``take_turns`` they take turns page by page (every extractor then starts each page
    with colder caches, as cleaning between a crawl's other work does)."""
    results: dict[str, list[PageResult]] = {name: [] for name in names}
    wall = time.perf_counter()
    pages = list(zip(dataset.pages, htmls, strict=True))
    if take_turns:
        extractors = {name: warmed_extractor(name, dataset, htmls[0]) for name in names}
        for page, html in pages:
            for name, extractor in extractors.items():
                results[name].append(_scored(name, page, extractor(page, html)))
    else:
        for name in names:
            extractor = warmed_extractor(name, dataset, htmls[0])
            results[name] = [_scored(name, page, extractor(page, html)) for page, html in pages]
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
    """Aggregates of one extractor on one set (or one page type)."""

    extractor: str
    pages: int
    scored: int
    token: PRF
    char: PRF
    median_ms: float
    p95_ms: float
    max_ms: float
    errors: int
    empty: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "extractor": self.extractor,
            "pages": self.pages,
            "scored_pages": self.scored,
            "token": self.token._asdict(),
            "char": self.char._asdict(),
            "median_ms": self.median_ms,
            "p95_ms": self.p95_ms,
            "max_ms": self.max_ms,
            "errors": self.errors,
            "empty_outputs": self.empty,
        }


def summarize(name: str, results: Iterable[PageResult]) -> Summary:
    """Average the scored pages' P and R; time statistics over all pages."""
    items = list(results)
    scored = [r for r in items if r.token is not None and r.char is not None]
    times = [r.ms for r in items]
    return Summary(
        extractor=name,
        pages=len(items),
        scored=len(scored),
        token=average(r.token for r in scored if r.token is not None),
        char=average(r.char for r in scored if r.char is not None),
        median_ms=statistics.median(times) if times else 0.0,
        p95_ms=_percentile(times, 0.95),
        max_ms=max(times) if times else 0.0,
        errors=sum(1 for r in items if r.error),
        empty=sum(1 for r in items if r.empty),
    )


# --------------------------------------------------------------------------- reporting


def _f(x: float | None) -> str:
    return "–" if x is None else f"{x:.3f}"


def _ms(x: float) -> str:
    return f"{x:.1f}" if x < 100 else f"{x:.0f}"


def _table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def set_report(
    dataset: Dataset, summaries: dict[str, Summary], results: dict[str, list[PageResult]]
) -> tuple[str, dict[str, Any]]:
    """Markdown for one set with truth, and its numbers for the JSON output."""
    headline = "token" if dataset.language == "en" else "char"
    ref = summaries.get("ours")
    out = [f"## {dataset.name}", ""]
    scored = max((s.scored for s in summaries.values()), default=0)
    out.append(
        f"{len(dataset.pages)} pages, {scored} scored. Headline metric: **{headline} F1** "
        f"({'English' if dataset.language == 'en' else 'Chinese'} set). "
        f"ΔF1 = ours − this extractor on the headline metric; ms ÷ ours = this extractor's "
        "median CPU ms divided by ours; empty = pages with no text extracted (errors "
        "included): left out of the P average, recall 0."
    )
    out.append("")
    header = [
        "extractor",
        "pages",
        "token F1",
        "token P",
        "token R",
        "char F1",
        "char P",
        "char R",
        "median ms",
        "p95 ms",
        "max ms",
        "errors",
        "empty",
        f"ΔF1 ({headline})",
        "ms ÷ ours",
    ]
    rows = []
    for name, s in summaries.items():
        delta = ratio = "–"
        if ref is not None and name != "ours":
            delta = f"{getattr(ref, headline).f1 - getattr(s, headline).f1:+.3f}"
            if ref.median_ms > 0:
                ratio = f"{s.median_ms / ref.median_ms:.2f}×"
        rows.append(
            [
                name,
                str(s.pages),
                _f(s.token.f1),
                _f(s.token.precision),
                _f(s.token.recall),
                _f(s.char.f1),
                _f(s.char.precision),
                _f(s.char.recall),
                _ms(s.median_ms),
                _ms(s.p95_ms),
                _ms(s.max_ms),
                str(s.errors),
                str(s.empty),
                delta,
                ratio,
            ]
        )
    out.append(_table(header, rows))
    out.append("")
    data: dict[str, Any] = {
        "pages": len(dataset.pages),
        "scored_pages": scored,
        "headline_metric": f"{headline}_f1",
        "extractors": {name: s.to_dict() for name, s in summaries.items()},
        "notes": list(dataset.notes),
    }
    floor = summaries.get("lxml")
    if ref is not None and floor is not None and floor.median_ms > 0:
        factor = ref.median_ms / floor.median_ms
        out.append(
            f"ours median {_ms(ref.median_ms)} ms = {factor:.1f}× the lxml parse floor "
            f"({_ms(floor.median_ms)} ms)."
        )
        data["ours_over_lxml_floor"] = factor
    if "ours" in results:
        slow = [(r.page.id, r.ms) for r in results["ours"] if r.ms > SLOW_MS]
        slow.sort(key=lambda x: -x[1])
        data["ours_pages_over_1s"] = [{"id": i, "ms": ms} for i, ms in slow]
        listed = ", ".join(f"{i} ({ms:.0f} ms)" for i, ms in slow) or "none"
        out.append(f"ours pages over 1 s: {len(slow)}: {listed}.")
    errs = {
        name: Counter((r.error or "").split(":", 1)[0] for r in rs if r.error)
        for name, rs in results.items()
    }
    err_lines = [
        f"{name}: " + ", ".join(f"{k} ×{v}" for k, v in c.most_common())
        for name, c in errs.items()
        if c
    ]
    data["errors"] = {
        name: [{"id": r.page.id, "error": r.error} for r in rs if r.error]
        for name, rs in results.items()
        if any(r.error for r in rs)
    }
    if err_lines:
        out.append("Errors: " + "; ".join(err_lines) + ".")
    for note in dataset.notes:
        out.append(f"Note: {note}.")
    out.append("")

    if dataset.name == "wcxb-dev":
        types = [t for t in WCXB_TYPES if any(p.page_type == t for p in dataset.pages)]
        counts = Counter(p.page_type for p in dataset.pages if p.truth and p.truth.strip())
        by_type: dict[str, dict[str, Any]] = {}
        trows = []
        for name, rs in results.items():
            row = [name]
            by_type[name] = {}
            for t in types:
                s = summarize(name, (r for r in rs if r.page.page_type == t))
                by_type[name][t] = {"token": s.token._asdict(), "char": s.char._asdict()}
                row.append(_f(s.token.f1))
            trows.append(row)
        out.append("### wcxb-dev token F1 per page type")
        out.append("")
        out.append(_table(["extractor"] + [f"{t} ({counts[t]})" for t in types], trows))
        out.append("")
        data["by_page_type"] = by_type
    return "\n".join(out), data


def template_report(dataset: Dataset, results: dict[str, list[PageResult]]) -> tuple[str, Any]:
    """For the set without truth: our CPU time and text length per page, in crawl order."""
    out = [f"## {dataset.name} (no ground truth)", ""]
    names = [n for n in ("ours", "ours-stateless") if n in results]
    if not names:
        return "", {}
    import scrapy_webclean

    stateful = hasattr(scrapy_webclean, "Cleaner")
    out.append(
        f"{len(dataset.pages)} pages of one site, in id order. `ours` is "
        + ("a Cleaner fed the pages in order" if stateful else "`clean_html` (no Cleaner yet)")
        + "; characters of extracted text and CPU ms per page."
    )
    out.append("")
    per_page = {n: [(r.chars, r.ms) for r in results[n]] for n in names}
    n_pages = len(dataset.pages)
    bounds = [(0, 1), (1, 2), (2, 10), (10, 25), (25, 50), (50, n_pages)]
    both = len(names) == 2
    header = ["pages"]
    for n in names:
        header += [f"{n} median chars", f"{n} median ms"]
    if both:
        header += ["pages where ours is shorter", "chars ours drops (sum)"]
    rows = []
    for lo, hi in bounds:
        hi = min(hi, n_pages)
        if lo >= hi:
            continue
        row = [f"{lo + 1}" if hi == lo + 1 else f"{lo + 1}–{hi}"]
        for n in names:
            chunk = per_page[n][lo:hi]
            row += [
                f"{statistics.median(c for c, _ in chunk):.0f}",
                _ms(statistics.median(m for _, m in chunk)),
            ]
        if both:
            pairs = list(
                zip(per_page["ours"][lo:hi], per_page["ours-stateless"][lo:hi], strict=True)
            )
            row += [
                str(sum(1 for a, b in pairs if a[0] < b[0])),
                str(sum(b[0] - a[0] for a, b in pairs)),
            ]
        rows.append(row)
    out.append(_table(header, rows))
    out.append("")
    if stateful and both:
        differ = [
            i
            for i, (a, b) in enumerate(
                zip(per_page["ours"], per_page["ours-stateless"], strict=True)
            )
            if a[0] != b[0]
        ]
        first = (
            f"the first is page {differ[0] + 1} (id {dataset.pages[differ[0]].id})"
            if differ
            else "none"
        )
        out.append(
            f"Pages where the Cleaner's text differs in length from clean_html's: "
            f"{len(differ)} of {n_pages}; {first}."
        )
        out.append("")
    for note in dataset.notes:
        out.append(f"Note: {note}.")
    if dataset.notes:
        out.append("")
    data = {
        "pages": n_pages,
        "cleaner": stateful,
        "notes": list(dataset.notes),
        "per_page": {
            n: [{"id": r.page.id, "chars": r.chars, "ms": r.ms} for r in results[n]] for n in names
        },
        "median_ms": {n: statistics.median(m for _, m in per_page[n]) for n in names},
    }
    return "\n".join(out), data


def _per_page_record(r: PageResult) -> dict[str, Any]:
    rec: dict[str, Any] = {
        "set": r.page.set_name,
        "id": r.page.id,
        "site": r.page.site,
        "url": r.page.url,
        "extractor": r.extractor,
        "ms": round(r.ms, 3),
        "chars": r.chars,
        "error": r.error,
    }
    if r.page.page_type:
        rec["page_type"] = r.page.page_type
    if r.token is not None and r.char is not None:
        rec.update(
            token_p=r.token.precision,
            token_r=r.token.recall,
            token_f1=r.token.f1,
            char_p=r.char.precision,
            char_r=r.char.recall,
            char_f1=r.char.f1,
        )
    return rec


def _git_state() -> str:
    """HEAD of the repository this script lives in, and whether the package has local edits."""
    import subprocess

    repo = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=repo, capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "scrapy_webclean"],
            cwd=repo,
            capture_output=True,
            text=True,
        ).stdout.strip()
    except OSError:
        return "unknown"
    return f"{head}{' + uncommitted changes in scrapy_webclean/' if dirty else ''}" or "unknown"


def _versions() -> dict[str, str]:
    found = {"python": platform.python_version(), "scrapy_webclean git": _git_state()}
    for dist in ("scrapy-webclean", "trafilatura", "readability-lxml", "justext", "gne", "lxml"):
        try:
            found[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            found[dist] = "missing"
    return found


def _csv(value: str, allowed: Sequence[str], what: str) -> list[str]:
    items = [v.strip() for v in value.split(",") if v.strip()]
    unknown = [v for v in items if v not in allowed]
    if unknown:
        raise SystemExit(f"unknown {what}: {', '.join(unknown)} (choose from {', '.join(allowed)})")
    return items


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("data", type=Path, help="the datasets' extract/ folder")
    parser.add_argument("--sets", default=",".join(ALL_SETS))
    parser.add_argument("--extractors", default=",".join(ALL_EXTRACTORS))
    parser.add_argument("--limit", type=int, default=None, help="first N pages per set")
    parser.add_argument("--json", type=Path, default=None, help="write all numbers here")
    parser.add_argument("--per-page", type=Path, default=None, help="JSON lines per page")
    parser.add_argument(
        "--take-turns",
        action="store_true",
        help="extractors take turns page by page (colder caches) instead of one set each",
    )
    args = parser.parse_args(argv)
    sets = _csv(args.sets, ALL_SETS, "set")
    extractors = _csv(args.extractors, ALL_EXTRACTORS, "extractor")

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    logging.disable(logging.WARNING)  # peers log per-page warnings; they are not results
    warnings.simplefilter("ignore")
    import scrapy_webclean

    started = time.perf_counter()
    cpu_started = time.process_time()
    report: dict[str, Any] = {
        "command": shlex.join([sys.executable, *sys.argv]),
        "versions": _versions(),
        "ours_uses_cleaner": hasattr(scrapy_webclean, "Cleaner"),
        "sets": {},
    }
    per_page_fh = args.per_page.open("w", encoding="utf-8") if args.per_page else None
    markdown = [
        "# Main-content extraction",
        "",
        f"ours = {'scrapy_webclean.Cleaner' if report['ours_uses_cleaner'] else 'clean_html'}; "
        + ", ".join(f"{k} {v}" for k, v in report["versions"].items())
        + ". CPU ms per page from time.process_time() around the extractor call; "
        "P and R averaged over pages, F1 = harmonic mean of the averages.",
        "",
    ]
    try:
        for set_name in sets:
            folder = args.data / set_name
            if not folder.is_dir():
                log(f"{set_name}: {folder} not found, skipped")
                continue
            dataset = LOADERS[set_name](folder)
            if args.limit is not None:
                dataset.pages = dataset.pages[: args.limit]
            names = extractors
            if not dataset.has_truth:
                names = [n for n in extractors if n in ("ours", "ours-stateless")]
            log(f"{set_name}: {len(dataset.pages)} pages, extractors: {', '.join(names)}")
            if not names or not dataset.pages:
                continue
            htmls = [peer_html(p.body) for p in dataset.pages]
            dataset.notes.extend(data_notes(dataset))
            results = run_extractors(names, dataset, htmls, log, args.take_turns)
            if per_page_fh is not None:
                for rs in results.values():
                    for r in rs:
                        per_page_fh.write(json.dumps(_per_page_record(r), ensure_ascii=False))
                        per_page_fh.write("\n")
            if dataset.has_truth:
                summaries = {name: summarize(name, rs) for name, rs in results.items()}
                text, data = set_report(dataset, summaries, results)
            else:
                text, data = template_report(dataset, results)
            markdown.append(text)
            report["sets"][set_name] = data
    finally:
        if per_page_fh is not None:
            per_page_fh.close()
    wall = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    report["runtime_s"] = {"wall": wall, "cpu": cpu}
    markdown.append(f"Total runtime: {wall:.0f} s wall, {cpu:.0f} s CPU (all sets, with scoring).")
    print("\n".join(markdown))
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2, ensure_ascii=False), encoding="utf-8")
    log(f"done in {wall:.0f} s")
    return 0


__all__ = ["html_fragment_text", "main", "summarize"]

if __name__ == "__main__":
    raise SystemExit(main())
