"""The extraction benchmark's tables: number formats, a Markdown table, and the two tables
every set's report has (each extractor's figures; the headline metric per fold)."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

# The benchmarks folder is not a package: make its modules importable however this is run.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from extraction_runs import HEADLINE_LABEL, FoldFigures, Summary
from extractors import FLOOR
from metrics import PRF


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


def snippet_f1(summary: Summary) -> str:
    return fmt(summary.snippets.prf.f1) if summary.snippets is not None else "–"
