"""The extraction benchmark's snippet scoring report (the method of trafilatura's own
evaluation, on the sets whose pages list snippets: WCXB), with the truths' own figures as
its ceiling."""

from __future__ import annotations

import sys
from pathlib import Path

# The benchmarks folder is not a package: make its modules importable however this is run.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from datasets import Dataset
from extraction_runs import Summary
from metrics import SnippetCounts, snippet_counts
from report_tables import fmt, md_table


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
