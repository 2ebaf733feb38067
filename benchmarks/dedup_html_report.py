"""What ``dedup_html.py`` prints: the tables of ours and the anchor (per kind, per sort of
variant, per negative type), the targets of issue 22, and where ours misses (the exact
character n-gram Jaccard of a missed page to its cluster, and the share of its article's
truth its cleaned text holds).
"""

from __future__ import annotations

import difflib
import statistics
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from dedup_html_runs import COLUMNS, NEGATIVES, Outcome, Stream
from htmlvariants import (
    KINDS,
    ORIGINAL,
)
from variantedits import DETAILS
from variantpage import shingles

#: Character n-grams of the exact Jaccard reported for misses and false positives.
GRAM = 5
#: Targets of issue 22.
TARGET_RECALL = 0.98
TARGET_RECALL_OVER_ANCHOR = 0.02
TARGET_PRECISION = 0.998
TARGET_SPEED_RATIO = 3.0
#: A missed page whose cleaned text holds less than this share of its article's truth
#: (word 4-grams) lost the article in cleaning.
LOST_ARTICLE_SHARE = 0.5
#: Jaccard bands of the misses: at least HIGH is plainly the same text ...
JACCARD_HIGH = 0.8
#: ... below LOW the two cleaned texts are mostly different.
JACCARD_LOW = 0.5
#: A duplicate is within reach of a text-similarity detector when an earlier page of its
#: cluster has this 5-gram Jaccard with it, or this containment.
REACH_JACCARD = 0.5
REACH_CONTAINMENT = 0.8


# -- text comparisons -----------------------------------------------------------------------


def grams(text: str) -> set[str]:
    return {text[i : i + GRAM] for i in range(max(1, len(text) - GRAM + 1))}


def jaccard(a: str, b: str) -> float:
    x, y = grams(a), grams(b)
    return len(x & y) / len(x | y) if x | y else 0.0


def truth_share(text: str, truth: str) -> float:
    """Share of the truth's word 4-grams that ``text`` holds."""
    own = shingles(truth)
    return len(own & shingles(text)) / len(own) if own else 0.0


def reachable(stream: Stream) -> tuple[int, int]:
    """(duplicates whose cleaned text has an earlier page of its cluster with a 5-gram
    Jaccard of at least :data:`REACH_JACCARD` or a containment of the smaller in the larger
    of at least :data:`REACH_CONTAINMENT`, duplicates): what a detector of text
    similarity can find at most."""
    sets = {d.key: grams(t) for d in stream.docs if (t := stream.texts[d.key]).strip()}
    earlier: dict[int, list[set[str]]] = {}
    found = total = 0
    for doc in stream.docs:
        before = earlier.get(doc.cluster)
        mine = sets.get(doc.key)
        if before:
            total += 1
            if mine is not None and any(
                len(mine & other) >= REACH_JACCARD * len(mine | other)
                or len(mine & other) >= REACH_CONTAINMENT * min(len(mine), len(other))
                for other in before
            ):
                found += 1
        if mine is not None:
            earlier.setdefault(doc.cluster, []).append(mine)
    return found, total


@dataclass(slots=True)
class Miss:
    key: str
    kind: str
    nearest: str  # the earlier page of its cluster most like it
    jaccard: float
    chars: int
    nearest_chars: int
    article_share: float  # of its article's truth in its text
    anchor_found: bool


def misses(stream: Stream, out: Outcome, other: Outcome, truths: dict[int, str]) -> list[Miss]:
    position = {d.key: i for i, d in enumerate(stream.docs)}
    found_by_other = set(other.missed)
    rows = []
    for key in out.missed:
        doc = stream.docs[position[key]]
        text = stream.texts[key]
        earlier = [
            d
            for d in stream.docs[: position[key]]
            if d.cluster == doc.cluster and stream.texts[d.key].strip()
        ]
        scored = [(jaccard(text, stream.texts[d.key]), d.key) for d in earlier]
        best_j, best = max(scored, default=(0.0, ""))
        rows.append(
            Miss(
                key,
                doc.kind,
                best,
                best_j,
                len(text),
                len(stream.texts.get(best, "")),
                truth_share(text, truths[doc.cluster]),
                key not in found_by_other,
            )
        )
    return rows


# -- printing -------------------------------------------------------------------------------


def main_table(rows: Sequence[tuple[str, Outcome]]) -> str:
    out = [
        "| detector | pages checked | precision | recall | F1 | docs per CPU-s "
        "| false positives | missed |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, r in rows:
        out.append(
            f"| {name} | {r.checked} | {r.precision:.4f} | {r.recall:.4f} | {r.f1:.4f} "
            f"| {r.speed:.0f} | {r.fp} | {r.fn} |"
        )
    o, a = rows[0][1], rows[1][1]
    pairs = ((o.precision, a.precision), (o.recall, a.recall), (o.f1, a.f1), (o.speed, a.speed))
    cells = [f"{x / y:.2f}x" if y else "-" for x, y in pairs]
    out.append(f"| ours ÷ anchor | | {' | '.join(cells)} | | |")
    return "\n".join(out)


def kind_table(rows: Sequence[tuple[str, Outcome]]) -> str:
    first = rows[0][1]
    out = [
        "| detector | " + " | ".join(COLUMNS) + " |",
        "|---" * (len(COLUMNS) + 1) + "|",
        "| duplicates | " + " | ".join(str(first.duplicates[k]) for k in COLUMNS) + " |",
    ]
    for name, r in rows:
        cells = []
        for kind in COLUMNS:
            value = r.recall_of(kind)
            cells.append("-" if value is None else f"{value:.3f} ({r.found[kind]})")
        out.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def detail_table(rows: Sequence[tuple[str, Outcome]]) -> str:
    """Recall per sort of each kind (the kinds that have several), ours and the anchor."""
    (mine, o), (theirs, a) = rows[0], rows[1]
    out = [
        f"| kind | sort | duplicates | {mine} | {theirs} |",
        "|---|---|---|---|---|",
    ]
    for kind in KINDS:
        if len(DETAILS[kind]) < 2:
            continue
        for detail in DETAILS[kind]:
            n = o.duplicates_detail[kind, detail]
            if not n:
                continue
            out.append(
                f"| {kind} | {detail} | {n} | {o.found_detail[kind, detail] / n:.3f} "
                f"| {a.found_detail[kind, detail] / n:.3f} |"
            )
    return "\n".join(out)


def negative_table(rows: Sequence[tuple[str, Outcome]]) -> str:
    out = ["| detector | " + " | ".join(NEGATIVES) + " |", "|---" * (len(NEGATIVES) + 1) + "|"]
    for name, r in rows:
        out.append(f"| {name} | " + " | ".join(str(r.false_positives[n]) for n in NEGATIVES) + " |")
    return "\n".join(out)


def targets(o: Outcome, a: Outcome) -> tuple[str, list[dict[str, Any]]]:
    checks: list[tuple[str, str, str, bool]] = [
        (
            f"recall >= anchor + {TARGET_RECALL_OVER_ANCHOR} and >= {TARGET_RECALL}",
            f"{o.recall:.4f}",
            f">= {max(a.recall + TARGET_RECALL_OVER_ANCHOR, TARGET_RECALL):.4f}",
            o.recall >= a.recall + TARGET_RECALL_OVER_ANCHOR and o.recall >= TARGET_RECALL,
        ),
        (
            f"precision >= {TARGET_PRECISION}",
            f"{o.precision:.4f}",
            f">= {TARGET_PRECISION}",
            o.precision >= TARGET_PRECISION,
        ),
    ]
    for kind in KINDS:
        mine, theirs = o.recall_of(kind), a.recall_of(kind)
        if mine is None or theirs is None:
            continue
        checks.append(
            (f"recall of {kind} >= anchor's", f"{mine:.3f}", f">= {theirs:.3f}", mine >= theirs)
        )
    checks.append(
        (
            f"docs per CPU-second >= {TARGET_SPEED_RATIO:g}x anchor's",
            f"{o.speed:.0f} ({o.speed / a.speed if a.speed else 0:.2f}x)",
            f">= {TARGET_SPEED_RATIO * a.speed:.0f}",
            o.speed >= TARGET_SPEED_RATIO * a.speed,
        )
    )
    lines = ["| target | ours | needed | |", "|---|---|---|---|"]
    lines += [f"| {t} | {v} | {n} | {'met' if ok else 'NOT MET'} |" for t, v, n, ok in checks]
    return "\n".join(lines), [
        {"target": t, "ours": v, "needed": n, "met": ok} for t, v, n, ok in checks
    ]


def texts_table(stream: Stream) -> str:
    """Per kind: how the cleaned variant compares with its cluster's original."""
    original = {d.cluster: d.key for d in stream.docs if d.kind == ORIGINAL}
    out = [
        "| kind | pages | empty text | same text as its cluster's original "
        "| median 5-gram Jaccard to it | under 0.5 |",
        "|---|---|---|---|---|---|",
    ]
    for kind in COLUMNS:
        docs = [d for d in stream.docs if d.kind == kind]
        empty = sum(not stream.texts[d.key].strip() for d in docs)
        if kind == ORIGINAL:
            out.append(f"| {kind} | {len(docs)} | {empty} | | | |")
            continue
        scores = [
            jaccard(stream.texts[d.key], stream.texts[original[d.cluster]])
            for d in docs
            if d.cluster in original
        ]
        same = sum(stream.texts[d.key] == stream.texts[original[d.cluster]] for d in docs)
        median = statistics.median(scores) if scores else 0.0
        low = sum(s < JACCARD_LOW for s in scores)
        out.append(f"| {kind} | {len(docs)} | {empty} | {same} | {median:.3f} | {low} |")
    return "\n".join(out)


def miss_table(rows: list[Miss]) -> str:
    out = [
        f"| kind | missed | anchor found | Jaccard >= {JACCARD_HIGH} | {JACCARD_LOW}-{JACCARD_HIGH} "
        f"| < {JACCARD_LOW} | text lost the article (< {LOST_ARTICLE_SHARE} of its truth) |",
        "|---|---|---|---|---|---|---|",
    ]
    for kind in COLUMNS:
        mine = [m for m in rows if m.kind == kind]
        if not mine:
            continue
        high = sum(m.jaccard >= JACCARD_HIGH for m in mine)
        low = sum(m.jaccard < JACCARD_LOW for m in mine)
        out.append(
            f"| {kind} | {len(mine)} | {sum(m.anchor_found for m in mine)} | {high} "
            f"| {len(mine) - high - low} | {low} "
            f"| {sum(m.article_share < LOST_ARTICLE_SHARE for m in mine)} |"
        )
    return "\n".join(out)


def miss_list(rows: list[Miss]) -> str:
    out = [
        "| missed page | kind | nearest earlier page of its cluster | Jaccard | chars "
        "| its chars | article truth held | anchor found it |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for m in sorted(rows, key=lambda m: (COLUMNS.index(m.kind), -m.jaccard)):
        out.append(
            f"| {m.key} | {m.kind} | {m.nearest or '-'} | {m.jaccard:.3f} | {m.chars} "
            f"| {m.nearest_chars} | {m.article_share:.2f} | {'yes' if m.anchor_found else 'no'} |"
        )
    return "\n".join(out)


def wrong_list(stream: Stream, wrong: list[tuple[str, str, str]]) -> str:
    if not wrong:
        return "(none)"
    out = ["| page | earlier page named | negative type | Jaccard |", "|---|---|---|---|"]
    for key, named, kind in wrong:
        score = jaccard(stream.texts[key], stream.texts[named])
        out.append(f"| {key} | {named} | {kind} | {score:.3f} |")
    return "\n".join(out)


def show_diffs(stream: Stream, rows: list[Miss], per_kind: int) -> None:
    """The line differences of a few misses per kind (page text: not for the results file)."""
    for kind in COLUMNS:
        for m in [m for m in rows if m.kind == kind][:per_kind]:
            print(f"\n### {m.kind} {m.key} ~ {m.nearest} (Jaccard {m.jaccard:.3f})\n")
            a = stream.texts.get(m.nearest, "").splitlines()
            b = stream.texts[m.key].splitlines()
            for line in list(difflib.unified_diff(a, b, lineterm="", n=0))[2:60]:
                print("    " + line[:240])


def revision() -> str:
    root = Path(__file__).resolve().parents[1]

    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True)
        return done.stdout.strip()

    head = git("rev-parse", "--short", "HEAD") or "unknown"
    changed = git("status", "--porcelain", "--", "scrapy_webclean")
    count = len(changed.splitlines())
    return head + (f" (+ {count} uncommitted files under scrapy_webclean/)" if count else "")
