"""The extraction benchmark's report: Markdown (and the numbers behind it) for a set with
truth (every extractor's figures, the headline metric per fold, the precision/recall knob,
comments, snippet scoring, page types) and for the set without truth (template learning over one site's pages), with
the notes on the data itself. Its parts: the tables in ``report_tables.py``, the knob in
``extraction_favor.py``, the snippet scoring in ``extraction_snippets.py``, the page types in ``extraction_types.py``.
"""

from __future__ import annotations

import statistics
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

# The benchmarks folder is not a package: make its modules importable however this is run.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from datasets import Dataset
from extraction_favor import favor_report
from extraction_runs import (
    HEADLINE_LABEL,
    PageResult,
    Summary,
    fold_figures,
    headline_of,
    summarize,
)
from extraction_snippets import snippets_report, truth_snippets
from extraction_types import page_type_report
from extractors import FLOOR, OursSetup
from metrics import average
from report_tables import figures_table, fmt, fmt_ms, folds_table, md_table

#: A page that takes ``ours`` longer than this (CPU ms) is listed (issue 20: none may).
SLOW_MS = 1000.0


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


def set_report(
    dataset: Dataset, results: dict[str, list[PageResult]], setup: OursSetup
) -> tuple[str, dict[str, Any]]:
    """Markdown for one set with truth, and its numbers for the JSON output."""
    headline = headline_of(dataset)
    wcxb = headline == "wcxb"
    summaries = {name: summarize(name, rs) for name, rs in results.items()}
    scored = max((s.scored for s in summaries.values()), default=0)
    fold_pages = Counter(p.fold for p in dataset.pages if p.has_truth)
    domains = len({p.domain for p in dataset.pages})
    out = [f"## {dataset.name}", ""]
    out.append(
        f"{len(dataset.pages)} pages, {scored} scored, {domains} registered domains; pages "
        "scored per fold: "
        + ", ".join(f"{k}: {fold_pages[k]}" for k in sorted(fold_pages))
        + f". Headline metric: **{HEADLINE_LABEL[headline]}**. `ours` "
        + ("cross-validated" if setup.cross_validated else "NOT cross-validated (no --models)")
        + ". ours − this: the headline metric of ours minus this extractor's; ÷ trafilatura, "
        "÷ lxml parse: median CPU ms over theirs; empty = pages with no text (errors "
        "included): left out of the P average, recall 0, WCXB metric 0."
        + (
            " WCXB, blank truths in: WCXB's metric over every page, those with a blank truth "
            "too (1 for an empty prediction there, else 0)."
            if wcxb
            else ""
        )
    )
    out.append("")
    out.append(figures_table(summaries, dataset.language, headline, wcxb))
    out.append("")
    folds = {name: fold_figures(rs, headline) for name, rs in results.items()}
    out.append(
        f"{HEADLINE_LABEL[headline]} per fold (a fold's domains are held out of the model "
        "that `ours` uses on them); sd = standard deviation of the fold figures:"
    )
    out.append("")
    out.append(folds_table(folds))
    out.append("")
    data: dict[str, Any] = {
        "pages": len(dataset.pages),
        "scored_pages": scored,
        "domains": domains,
        "headline_metric": headline,
        "extractors": {name: s.to_dict() for name, s in summaries.items()},
        "folds": {name: f.to_dict() for name, f in folds.items()},
        "notes": list(dataset.notes),
    }
    favor_text, favor_data = favor_report(summaries, dataset.language)
    if favor_text:
        out.append(favor_text)
        data["favor"] = favor_data
    if any(p.comments is not None for p in dataset.pages):
        text, data["with_comments"] = comments_report(dataset, results, summaries)
        out.append(text)
    if wcxb:
        token_folds = {name: fold_figures(rs, "token") for name, rs in results.items()}
        out.append("token F1 per fold:")
        out.append("")
        out.append(folds_table(token_folds))
        out.append("")
        data["folds_token"] = {name: f.to_dict() for name, f in token_folds.items()}
    if any(s.snippets is not None for s in summaries.values()):
        ceiling = truth_snippets(dataset)
        out.append(snippets_report(summaries, ceiling))
        data["snippets_of_the_truths"] = ceiling.prf._asdict() if ceiling is not None else None
    ref = summaries.get("ours")
    floor = summaries.get(FLOOR)
    if ref is not None and floor is not None and floor.median_ms > 0:
        factor = ref.median_ms / floor.median_ms
        out.append(
            f"ours median {fmt_ms(ref.median_ms)} ms = {factor:.1f}× the lxml parse floor "
            f"({fmt_ms(floor.median_ms)} ms)."
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
    if wcxb:
        text, by_type = page_type_report(dataset, results, summaries)
        out.append(text)
        data["by_page_type"] = by_type
    return "\n".join(out), data


def comments_report(
    dataset: Dataset, results: dict[str, list[PageResult]], summaries: dict[str, Summary]
) -> tuple[str, dict[str, Any]]:
    """The headline figure beside token F1 against the gold's main text and marked
    comments together (how the set was scored before its comment marker was read)."""
    marked = sum(1 for p in dataset.pages if p.has_truth and p.comments)
    figures = {
        name: average(r.token_with_comments for r in rs if r.token_with_comments is not None)
        for name, rs in results.items()
    }
    rows = [
        [
            name,
            fmt(summaries[name].token.f1),
            fmt(prf.f1),
            fmt(prf.precision),
            fmt(prf.recall),
        ]
        for name, prf in figures.items()
    ]
    text = (
        f"The truth is the gold file's main text: {marked} gold files mark readers' comments "
        "apart from it (Dragnet's comment marker), and the main-content extractors leave "
        "comments out. Token F1 against the main text and the comments together:\n\n"
        + md_table(
            ["extractor", "token F1 (main text)", "token F1 (with comments)", "P", "R"], rows
        )
        + "\n"
    )
    return text, {
        "pages_with_comments": marked,
        "extractors": {name: prf._asdict() for name, prf in figures.items()},
    }


#: A line of the texts of one site's pages recurs when this many pages or more hold it.
RECURRING_MIN_PAGES = 3


def recurring_lines(results: Sequence[PageResult]) -> list[tuple[str, int]]:
    """The lines held by at least :data:`RECURRING_MIN_PAGES` of the texts, with how many
    hold each, most frequent first."""
    counts = Counter(line for r in results for line in (r.lines or ()))
    return sorted(
        ((line, n) for line, n in counts.items() if n >= RECURRING_MIN_PAGES),
        key=lambda item: (-item[1], item[0]),
    )


def _pages_holding(results: Sequence[PageResult], lines: Sequence[tuple[str, int]]) -> int:
    recurring = {line for line, _ in lines}
    return sum(1 for r in results if r.lines and not r.lines.isdisjoint(recurring))


def template_report(dataset: Dataset, results: dict[str, list[PageResult]]) -> tuple[str, Any]:
    """For the set without truth: our CPU time and text length per page, in crawl order."""
    out = [f"## {dataset.name} (no ground truth)", ""]
    names = [n for n in ("ours", "ours-stateless") if n in results]
    if not names:
        return "", {}
    out.append(
        f"{len(dataset.pages)} pages of one site, in id order. `ours` is a Cleaner fed the "
        "pages in order, `ours-stateless` is `clean_html`; characters of extracted text and "
        "CPU ms per page."
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
                fmt_ms(statistics.median(m for _, m in chunk)),
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
    out.append(md_table(header, rows))
    out.append("")
    if both:
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
    recurring = {n: recurring_lines(results[n]) for n in names}
    out.append(
        f"Lines of the texts that recur on at least {RECURRING_MIN_PAGES} pages: boilerplate "
        "that got through, or a line many of the site's articles share (a source's name):"
    )
    out.append("")
    out.append(
        md_table(
            ["extractor", "recurring lines", "pages with one", "the most frequent (pages)"],
            [
                [
                    n,
                    str(len(lines)),
                    str(_pages_holding(results[n], lines)),
                    "; ".join(f"{text[:40]} ({count})" for text, count in lines[:3]) or "–",
                ]
                for n, lines in recurring.items()
            ],
        )
    )
    out.append("")
    for note in dataset.notes:
        out.append(f"Note: {note}.")
    if dataset.notes:
        out.append("")
    data = {
        "pages": n_pages,
        "notes": list(dataset.notes),
        "per_page": {
            n: [{"id": r.page.id, "chars": r.chars, "ms": r.ms} for r in results[n]] for n in names
        },
        "median_ms": {n: statistics.median(m for _, m in per_page[n]) for n in names},
        "recurring_lines": {n: [list(item) for item in lines] for n, lines in recurring.items()},
    }
    return "\n".join(out), data
