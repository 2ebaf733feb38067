"""What ``stability.py`` prints: per kind, per sort, per page type, per kind and page type
and per fold, the share of variants whose text is the original's (word 5-gram Jaccard of
at least :data:`STABLE`), ours beside trafilatura; the target, met or not; the least stable
versions (ids and figures, no page text).
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from datasets import WCXB_TYPES
from folds import FOLDS
from htmlvariants import KINDS, DevSet
from variantedits import DETAILS

#: A variant is stable when its text has at least this Jaccard with the original's ...
STABLE = 0.9
#: ... and mostly another text under this one.
UNSTABLE = 0.5
#: The target: this share of the versions of every kind stable (ours, cross-validated) ...
TARGET = 0.99
#: ... of the kinds the issue names (``minor_edit`` and ``content_swap`` are dedup's).
ISSUE_KINDS = (
    "timestamp",
    "ad_block",
    "url_only",
    "synonyms",
    "boilerplate",
    "sidebar",
    "cookie_banner",
)


@dataclass(slots=True)
class Version:
    """One variant compared with its cluster's original, by ours and by the peer."""

    key: str
    kind: str
    detail: str
    set_name: str
    page_id: str
    page_type: str
    fold: int
    compared_with: str  # the original page: the donor's for a content swap
    ours: float
    ours_char: float  # the character 5-gram Jaccard
    #: For a text edit: ours' original text with the edit's changes made, against the
    #: unedited one (what the edit alone costs a comparison of raw texts).
    ceiling: float | None
    ours_chars: int
    ours_original_chars: int
    ours_empty: bool
    peer: float | None
    peer_char: float | None
    peer_empty: bool
    peer_original_empty: bool


@dataclass(slots=True)
class Figures:
    versions: int
    stable: float
    unstable: float
    median: float
    empty: int

    def cells(self) -> str:
        return f"{self.stable:.3f} | {self.unstable:.3f} | {self.median:.3f} | {self.empty}"


def figures(rows: Sequence[Version], ours: bool = True) -> Figures | None:
    scores = [v.ours if ours else v.peer for v in rows]
    values = [s for s in scores if s is not None]
    if not values:
        return None
    return Figures(
        len(values),
        sum(s >= STABLE for s in values) / len(values),
        sum(s < UNSTABLE for s in values) / len(values),
        statistics.median(values),
        sum(v.ours_empty if ours else v.peer_empty for v in rows),
    )


def _groups(
    versions: Sequence[Version], key: Callable[[Version], Any], order: Sequence[Any]
) -> list[tuple[Any, list[Version]]]:
    return [(k, rows) for k in order if (rows := [v for v in versions if key(v) == k])]


def _table(label: str, groups: list[tuple[Any, list[Version]]], peer: bool) -> str:
    head = f"| {label} | versions | ours >= {STABLE} | ours < {UNSTABLE} | ours median | ours empty"
    if peer:
        head += f" | trafilatura >= {STABLE} | < {UNSTABLE} | median | empty"
    out = [head + " |", "|---" * (head.count("|")) + "|"]
    for name, rows in groups:
        mine = figures(rows)
        assert mine is not None
        line = f"| {name} | {mine.versions} | {mine.cells()}"
        theirs = figures(rows, ours=False) if peer else None
        if peer:
            line += f" | {theirs.cells()}" if theirs else " | | | |"
        out.append(line + " |")
    return "\n".join(out)


def _other_measures(groups: list[tuple[Any, list[Version]]], peer: bool) -> str:
    """Per kind: the share by character 5-grams, and the raw ceiling of the text edits."""
    out = [
        f"| kind | ours >= {STABLE}, char 5-grams | trafilatura >= {STABLE}, char 5-grams "
        f"| raw ceiling >= {STABLE} (text edits) | raw ceiling median |",
        "|---|---|---|---|---|",
    ]
    for name, rows in groups:
        chars = sum(v.ours_char >= STABLE for v in rows) / len(rows)
        theirs = [v.peer_char for v in rows if v.peer_char is not None]
        other = f"{sum(c >= STABLE for c in theirs) / len(theirs):.3f}" if peer and theirs else "-"
        top = [v.ceiling for v in rows if v.ceiling is not None]
        ceiling = f"{sum(c >= STABLE for c in top) / len(top):.3f}" if top else "-"
        median = f"{statistics.median(top):.3f}" if top else "-"
        out.append(f"| {name} | {chars:.3f} | {other} | {ceiling} | {median} |")
    return "\n".join(out)


def _cross(versions: Sequence[Version], types: Sequence[str], peer: bool) -> str:
    out = [
        "| kind | " + " | ".join(types) + " |",
        "|---" * (len(types) + 1) + "|",
    ]
    for kind in KINDS:
        cells = []
        for t in types:
            rows = [v for v in versions if v.kind == kind and v.page_type == t]
            mine, theirs = figures(rows), figures(rows, ours=False) if peer else None
            if mine is None:
                cells.append("-")
                continue
            cell = f"{mine.stable:.3f}" + (f" / {theirs.stable:.3f}" if theirs else "")
            cells.append(f"{cell} ({mine.versions})")
        out.append(f"| {kind} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def _folds(versions: Sequence[Version]) -> str:
    out = [
        f"| fold | versions | ours >= {STABLE} | its least stable kind |",
        "|---|---|---|---|",
    ]
    for fold in range(FOLDS):
        rows = [v for v in versions if v.fold == fold]
        mine = figures(rows)
        if mine is None:
            continue
        kinds = [
            (f.stable, k) for k, r in _groups(rows, lambda v: v.kind, KINDS) if (f := figures(r))
        ]
        low, kind = min(kinds)
        out.append(f"| {fold} | {mine.versions} | {mine.stable:.3f} | {kind} {low:.3f} |")
    return "\n".join(out)


def _targets(versions: Sequence[Version], peer: bool) -> tuple[str, list[dict[str, Any]]]:
    out = [
        f"| kind | ours >= {STABLE} | needed | | trafilatura >= {STABLE} |",
        "|---|---|---|---|---|",
    ]
    rows = []
    for kind, group in _groups(versions, lambda v: v.kind, KINDS):
        mine, theirs = figures(group), figures(group, ours=False) if peer else None
        assert mine is not None
        met = mine.stable >= TARGET
        named = kind in ISSUE_KINDS
        rows.append({"kind": kind, "ours": mine.stable, "met": met, "issue_kind": named})
        other = f"{theirs.stable:.3f}" if theirs else "-"
        verdict = ("met" if met else "NOT MET") if named else "(not the issue's kind)"
        out.append(f"| {kind} | {mine.stable:.3f} | >= {TARGET} | {verdict} | {other} |")
    every = all(r["met"] for r in rows if r["issue_kind"])
    out.append(f"| every kind the issue names | | | {'met' if every else 'NOT MET'} | |")
    return "\n".join(out), rows


def shortfall(v: Version) -> float:
    """How far ours falls below what the same text scores (1)."""
    return 1.0 - v.ours


def _worst(versions: Sequence[Version], count: int) -> str:
    out = [
        "| page | kind | sort | page type | fold | compared with | ours Jaccard | raw ceiling "
        "| trafilatura Jaccard | ours chars (original -> variant) |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    order = sorted(versions, key=lambda v: (-shortfall(v), KINDS.index(v.kind), v.key))
    for v in order[:count]:
        peer = "-" if v.peer is None else f"{v.peer:.3f}"
        other = v.compared_with if v.kind == "content_swap" else ""
        ceiling = "-" if v.ceiling is None else f"{v.ceiling:.3f}"
        out.append(
            f"| {v.set_name}:{v.page_id} | {v.kind} | {v.detail} | {v.page_type} "
            f"| {v.fold} | {other} | {v.ours:.3f} | {ceiling} | {peer} "
            f"| {v.ours_original_chars} -> {v.ours_chars} |"
        )
    return "\n".join(out)


def _summary(versions: Sequence[Version], types: Sequence[str]) -> dict[str, Any]:
    def both(rows: Sequence[Version]) -> dict[str, Any]:
        mine, theirs = figures(rows), figures(rows, ours=False)
        return {"ours": mine and vars_of(mine), "trafilatura": theirs and vars_of(theirs)}

    return {
        "by_kind": {k: both(r) for k, r in _groups(versions, lambda v: v.kind, KINDS)},
        "by_page_type": {t: both(r) for t, r in _groups(versions, lambda v: v.page_type, types)},
        "by_kind_and_page_type": {
            f"{k}/{t}": both(r)
            for k in KINDS
            for t, r in _groups([v for v in versions if v.kind == k], lambda v: v.page_type, types)
        },
    }


def vars_of(f: Figures) -> dict[str, Any]:
    return {
        "versions": f.versions,
        "stable": f.stable,
        "unstable": f.unstable,
        "median": f.median,
        "empty": f.empty,
    }


def report(
    dev: DevSet, versions: Sequence[Version], header: dict[str, Any], worst: int
) -> tuple[str, dict[str, Any]]:
    """The Markdown report and its figures (for ``--json``)."""
    peer = any(v.peer is not None for v in versions)
    types = [t for t in WCXB_TYPES if any(v.page_type == t for v in versions)]
    by_kind = _groups(versions, lambda v: v.kind, KINDS)
    lines = [
        "# Text stability on HTML variants of dev pages\n",
        f"Revision {header['revision']}; `{header['command']}`; {header['runtime']}.\n",
        f"{header['ours']} The peer: `trafilatura.extract(html, url=url)`, defaults. Each "
        f"variant's text is compared with its cluster's original text by the same extractor "
        f"(a content swap's with the donor's original; a text edit's aligned, the "
        f"original's date moved as the edit moved it and the edited words one token in "
        f"both texts, so the same text scores 1): word {5}-gram Jaccard; stable: "
        f">= {STABLE}; two texts without words count as the same text.\n",
        "## The set\n",
        *[f"- {name}: {value}" for name, value in dev.notes.items()],
        "- versions: " + ", ".join(f"{k} {len(r)}" for k, r in by_kind),
        "- skipped (the page allowed none of the kind): "
        + ", ".join(f"{k} {dev.skips[k]}" for k in KINDS),
        "- pages per page type (originals): "
        + ", ".join(
            f"{t} {len({v.compared_with for v in versions if v.page_type == t})}" for t in types
        ),
        *[f"- cost, {c}" for c in header["costs"]],
    ]
    control = header["control"]
    if control:
        low = sorted((j, page) for page, j in control.items() if j < 1 - 0.01)
        lines.append(
            f"- control, each original parsed and serialized again by lxml, no edit (ours): "
            f"{sum(c >= STABLE for c in control.values()) / len(control):.3f} of "
            f"{len(control)} at >= {STABLE}; under 0.99: "
            + (
                ", ".join(f"{page} {j:.3f}" for j, page in low)
                + " (their variants' changes are partly the serialization's)"
                if low
                else "none"
            )
        )
    if peer:
        lines.append(
            "- trafilatura's original text empty: "
            f"{len({v.compared_with for v in versions if v.peer_original_empty})} pages"
        )
    target_text, target_rows = _targets(versions, peer)
    lines += [
        "",
        "## Per kind\n",
        _table("kind", [*by_kind, ("all", list(versions))], peer) + "\n",
        "The same versions by the character 5-gram Jaccard (`dedup_html`'s), and the raw "
        "ceiling of the kinds that change the text itself (ours' original text with the "
        "edit's own changes made, the date or the words, against the unedited text: what "
        "the edit alone would cost a comparison that did not make the same changes):\n",
        _other_measures(by_kind, peer) + "\n",
        "Per sort of the kinds that have several:\n",
        _table(
            "kind: sort",
            [
                (f"{k}: {d}", r)
                for k in KINDS
                if len(DETAILS[k]) > 1
                for d, r in _groups(
                    [v for v in versions if v.kind == k], lambda v: v.detail, DETAILS[k]
                )
            ],
            peer,
        )
        + "\n",
        "## Per page type\n",
        _table("page type", _groups(versions, lambda v: v.page_type, types), peer) + "\n",
        f"Share of versions at >= {STABLE}, per kind and page type: ours"
        + (" / trafilatura" if peer else "")
        + " (versions):\n",
        _cross(versions, types, peer) + "\n",
        "## Per fold (ours)\n",
        _folds(versions) + "\n",
        "## Target\n",
        f"At least {TARGET} of the versions of every kind with a Jaccard >= {STABLE} (ours, "
        "cross-validated):\n",
        target_text + "\n",
        f"## The {worst} least stable versions of ours (content swaps apart)\n",
        "Ordered by the Jaccard; the page is the edited one (the template of a content swap).\n",
        _worst([v for v in versions if v.kind != "content_swap"], worst) + "\n",
        "The 10 least stable content swaps (compared with the donor's original):\n",
        _worst([v for v in versions if v.kind == "content_swap"], 10),
    ]
    summary = _summary(versions, types)
    summary["targets"] = target_rows
    return "\n".join(lines), summary
