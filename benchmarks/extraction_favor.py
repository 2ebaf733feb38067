"""The precision/recall knob in the extraction benchmark's report: P, R and F1 of ``ours``,
``ours-precision`` and ``ours-recall`` (``CleanOptions.favor``) beside every peer's, and
the knob's target, met or not: ``ours-recall``'s recall is at least the best peer's
recall, with a precision no lower than that peer's.

Token P and R (4-token shingles) on the English sets; character P and R on the others
(the metric that suits Chinese), each averaged over pages as in the set's main table.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

# The benchmarks folder is not a package: make its modules importable however this is run.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from extraction_runs import Summary
from extractors import FAVORED, is_peer
from metrics import PRF
from report_tables import fmt, md_table

#: The rows of ours, in the table's order.
OURS_ROWS = ("ours", *FAVORED)
#: The variant the target is about.
RECALL_ROW = "ours-recall"


def _prf(summary: Summary, language: str) -> PRF:
    if language != "en":
        return summary.char or PRF(None, None, 0.0)
    return summary.token


def favor_report(summaries: dict[str, Summary], language: str) -> tuple[str, dict[str, Any]]:
    """Markdown and numbers of the knob for one set ("" when neither variant ran)."""
    if not any(name in summaries for name in FAVORED):
        return "", {}
    metric = "token" if language == "en" else "char"
    peers = sorted(
        (name for name in summaries if is_peer(name)),
        key=lambda name: -(_prf(summaries[name], language).recall or 0.0),
    )
    names = [name for name in OURS_ROWS if name in summaries] + peers
    figures = {name: _prf(summaries[name], language) for name in names}
    rows = [
        [name, fmt(prf.precision), fmt(prf.recall), fmt(prf.f1)] for name, prf in figures.items()
    ]
    out = [
        f"Precision/recall knob (`CleanOptions.favor`, `WEBCLEAN_FAVOR`): {metric} P, R and "
        "F1; the peers by recall:",
        "",
        md_table(["extractor", f"{metric} P", f"{metric} R", f"{metric} F1"], rows),
        "",
    ]
    data: dict[str, Any] = {
        "metric": metric,
        "figures": {name: prf._asdict() for name, prf in figures.items()},
    }
    if RECALL_ROW in figures and peers:
        best = peers[0]
        ours, peer = figures[RECALL_ROW], figures[best]
        met = (ours.recall or 0.0) >= (peer.recall or 0.0) and (ours.precision or 0.0) >= (
            peer.precision or 0.0
        )
        out.append(
            f"Target (ours-recall's recall at least the best peer's, with a precision no "
            f"lower than that peer's): best peer by recall {best} (P {fmt(peer.precision)}, "
            f"R {fmt(peer.recall)}); ours-recall P {fmt(ours.precision)}, R "
            f"{fmt(ours.recall)}: **{'met' if met else 'not met'}**."
        )
        out.append("")
        data["target"] = {"best_peer": best, "met": met}
    return "\n".join(out), data
