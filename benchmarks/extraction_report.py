"""The extraction benchmark's report: Markdown (and the numbers behind it) for a set with
truth (every extractor's figures, the headline metric per fold, comments, snippet scoring,
page types) and for the set without truth (template learning over one site's pages), with
the notes on the data itself.
"""

from __future__ import annotations

import statistics
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

# The benchmarks folder is not a package: make its modules importable however this is run.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from datasets import WCXB_TYPES, Dataset
from extraction_runs import (
    HEADLINE_LABEL,
    FoldFigures,
    PageResult,
    Summary,
    fold_figures,
    headline_of,
    summarize,
)
from extractors import FLOOR, OursSetup
from metrics import PRF, SnippetCounts, average, snippet_counts

#: A page that takes ``ours`` longer than this (CPU ms) is listed (issue 20: none may).
SLOW_MS = 1000.0

#: rs-trafilatura's published WCXB dev figures (WCXB's metric), the reference row.
RS_TRAFILATURA_DEV = {
    "all": 0.859,
    "article": 0.932,
    "documentation": 0.932,
    "service": 0.844,
    "forum": 0.808,
    "collection": 0.716,
    "listing": 0.707,
    "product": 0.641,
}


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


def fmt(x: float | None) -> str:
    return "–" if x is None else f"{x:.3f}"


def fmt_ms(x: float) -> str:
    return f"{x:.1f}" if x < 100 else f"{x:.0f}"


def _ratio(a: float, b: float | None) -> str:
    return f"{a / b:.2f}×" if b else "–"


def md_table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def figures_table(summaries: dict[str, Summary], language: str, headline: str, wcxb: bool) -> str:
    """One row per extractor: quality, empty pages, errors and CPU time with ratios."""
    ref = summaries.get("ours")
    traf = summaries.get("trafilatura")
    floor = summaries.get(FLOOR)
    header = ["extractor", "scored", "token F1", "token P", "token R"]
    if wcxb:
        header += ["WCXB metric", "WCXB, blank truths in"]
    if language != "en":
        header += ["char F1", "char P", "char R"]
    header += [
        f"ours − this ({HEADLINE_LABEL[headline]})",
        "empty",
        "errors",
        "median ms",
        "÷ trafilatura",
        "÷ lxml parse",
        "p95 ms",
        "max ms",
    ]
    rows = []
    for name, s in summaries.items():
        row = [name, str(s.scored), fmt(s.token.f1), fmt(s.token.precision), fmt(s.token.recall)]
        if wcxb:
            row += [fmt(s.wcxb), fmt(s.wcxb_all)]
        if language != "en":
            c = s.char or PRF(None, None, 0.0)
            row += [fmt(c.f1), fmt(c.precision), fmt(c.recall)]
        delta = "–"
        if ref is not None and name != "ours":
            delta = f"{ref.metric(headline) - s.metric(headline):+.3f}"
        row += [
            delta,
            str(s.empty),
            str(s.errors),
            fmt_ms(s.median_ms),
            _ratio(s.median_ms, traf.median_ms if traf else None),
            _ratio(s.median_ms, floor.median_ms if floor else None),
            fmt_ms(s.p95_ms),
            fmt_ms(s.max_ms),
        ]
        rows.append(row)
    return md_table(header, rows)


def folds_table(folds: dict[str, FoldFigures]) -> str:
    """Extractor x fold of one metric, with the mean, standard deviation and range."""
    present = sorted({k for f in folds.values() for k in f.values})
    pages = {k: max(f.pages.get(k, 0) for f in folds.values()) for k in present}
    header = ["extractor"] + [f"fold {k} ({pages[k]})" for k in present]
    header += ["mean of folds", "sd", "min – max"]
    rows = []
    for name, f in folds.items():
        values = list(f.values.values())
        row = [name] + [fmt(f.values.get(k)) for k in present]
        span = f"{min(values):.3f} – {max(values):.3f}" if values else "–"
        row += [fmt(f.mean), fmt(f.sd), span]
        rows.append(row)
    return md_table(header, rows)


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


def _snippet_f1(summary: Summary) -> str:
    return fmt(summary.snippets.prf.f1) if summary.snippets is not None else "–"


def truth_snippets(dataset: Dataset) -> SnippetCounts | None:
    """The snippets the truths themselves hold and miss, scored as an extractor's text is
    (the ceiling of the snippet figures), summed over the pages that list some."""
    counts = [
        snippet_counts(page.truth or "", *page.snippets)
        for page in dataset.pages
        if page.snippets is not None
    ]
    return sum(counts, SnippetCounts()) if counts else None


def snippets_report(summaries: dict[str, Summary], ceiling: SnippetCounts | None = None) -> str:
    """The snippets every extractor's text holds and misses (``metrics.snippet_counts``:
    the method of trafilatura's own evaluation), summed over the pages run, and what the
    truths themselves hold (``ceiling``, when given)."""
    ref = summaries.get("ours")
    rows = []
    for name, s in summaries.items():
        if s.snippets is None:
            continue
        prf = s.snippets.prf
        delta = "–"
        if ref is not None and ref.snippets is not None and name != "ours":
            delta = f"{ref.snippets.prf.f1 - prf.f1:+.3f}"
        rows.append(
            [
                name,
                str(sum(s.snippets)),
                fmt(prf.precision),
                fmt(prf.recall),
                fmt(prf.f1),
                fmt(s.snippets.accuracy),
                delta,
            ]
        )
    header = ["extractor", "snippets", "P", "R", "F1", "accuracy", "ours − this (F1)"]
    truth_line = ""
    if ceiling is not None:
        prf = ceiling.prf
        truth_line = (
            f"\nThe truths themselves, scored the same way (the ceiling of these figures): "
            f"P {fmt(prf.precision)}, R {fmt(prf.recall)}, F1 {fmt(prf.f1)} "
            f"({ceiling.false_negatives} of their {ceiling.true_positives + ceiling.false_negatives} "
            f'"with" snippets not found in them).\n'
        )
    return (
        "Snippet scoring, the method of trafilatura's own evaluation: a snippet of the truth's "
        '"with" list found in the text is a true positive, one of its "without" list found '
        "a false positive; counts summed over every page run (blank truths too), a snippet "
        "found when its words occur in a row in the text, its last word possibly cut short "
        "(WCXB cuts some snippets mid-word):\n\n" + md_table(header, rows) + "\n" + truth_line
    )


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


def page_type_report(
    dataset: Dataset, results: dict[str, list[PageResult]], summaries: dict[str, Summary]
) -> tuple[str, dict[str, Any]]:
    """WCXB's metric and token F1 per page type (with rs-trafilatura's published row and the
    fold spread of ours), then every figure per type."""
    types = [t for t in WCXB_TYPES if any(p.page_type == t for p in dataset.pages)]
    counts = Counter(p.page_type for p in dataset.pages if p.has_truth)
    by_type = {
        name: {t: summarize(name, (r for r in rs if r.page.page_type == t)) for t in types}
        for name, rs in results.items()
    }
    name = dataset.name
    out = [f"### {name} per page type", ""]
    header = ["extractor", f"all ({sum(counts.values())})"]
    header += [f"{t} ({counts[t]})" for t in types]
    rows = [["rs-trafilatura (published, dev)", fmt(RS_TRAFILATURA_DEV["all"])]]
    rows[0] += [fmt(RS_TRAFILATURA_DEV.get(t)) for t in types]
    for extractor, per in by_type.items():
        rows.append([extractor, fmt(summaries[extractor].wcxb)] + [fmt(per[t].wcxb) for t in types])
    spread: dict[str, Any] = {}
    if "ours" in results:
        row = ["ours: mean ± sd of the folds"]
        for t in ["all", *types]:
            rs = [r for r in results["ours"] if t == "all" or r.page.page_type == t]
            f = fold_figures(rs, "wcxb")
            spread[t] = f.to_dict()
            row.append(f"{f.mean:.3f} ± {f.sd:.3f}")
        rows.append(row)
    out.append("WCXB metric per page type (pages scored):")
    out.append("")
    out.append(md_table(header, rows))
    out.append("")
    rows = [
        [extractor, fmt(summaries[extractor].token.f1)] + [fmt(per[t].token.f1) for t in types]
        for extractor, per in by_type.items()
    ]
    out.append("token F1 per page type:")
    out.append("")
    out.append(md_table(header, rows))
    out.append("")
    if any(s.snippets is not None for s in summaries.values()):
        rows = [
            [extractor, _snippet_f1(summaries[extractor])] + [_snippet_f1(per[t]) for t in types]
            for extractor, per in by_type.items()
        ]
        out.append("snippet F1 per page type (snippets of every page run):")
        out.append("")
        out.append(md_table(header, rows))
        out.append("")
    for t in types:
        out.append(f"#### {name}: {t} ({counts[t]} pages scored)")
        out.append("")
        out.append(
            figures_table({e: per[t] for e, per in by_type.items()}, dataset.language, "wcxb", True)
        )
        out.append("")
    data: dict[str, Any] = {
        extractor: {t: s.to_dict() for t, s in per.items()} for extractor, per in by_type.items()
    }
    data["rs-trafilatura (published)"] = dict(RS_TRAFILATURA_DEV)
    if spread:
        data["ours_folds"] = spread
    return "\n".join(out), data


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
    }
    return "\n".join(out), data
