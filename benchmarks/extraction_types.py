"""The extraction benchmark's report per WCXB page type: WCXB's metric, token F1 and
snippet F1 per type beside rs-trafilatura's published dev row and the fold spread of ours,
then every figure per type."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any

# The benchmarks folder is not a package: make its modules importable however this is run.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from datasets import WCXB_TYPES, Dataset
from extraction_runs import PageResult, Summary, fold_figures, summarize
from report_tables import figures_table, fmt, md_table, snippet_f1

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
            [extractor, snippet_f1(summaries[extractor])] + [snippet_f1(per[t]) for t in types]
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
