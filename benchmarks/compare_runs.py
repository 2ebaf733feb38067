"""Compare two runs of ``extraction.py --per-page``: a change judged page by page.

Usage::

    .venv/bin/python benchmarks/compare_runs.py BEFORE.jsonl AFTER.jsonl \\
        [--extractor ours] [--show 0.02]

For each set both runs scored, it prints the set's headline metric before and after, as
``extraction.py`` computes it (WCXB's metric on WCXB sets, token F1 of the averaged
precision and recall on the other English sets, character F1 on Chinese sets), the pages
whose own figure rose and fell, the change on each fold (the folds hold out the domains
their model was not trained on, so a change that helps only where it was made shows here)
and, on WCXB, on each page type. ``--show`` lists the pages that moved by more than that. Beside each change stands its
paired bootstrap 95% interval (:func:`paired_interval`): a change is kept only when its
interval excludes 0 on some set and no set falls beyond its own interval.
This is how a rule, a threshold or a retrained model is kept or left: only when the
cross-validated figure rises (``../shared/datasets/README.md``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from extraction_runs import HEADLINE_LABEL
from metrics import PRF, average
from report_tables import md_table

#: A page's own figure moved when it changed by more than this.
MOVED = 1e-9

Record = dict[str, Any]


def load_runs(path: Path, extractor: str) -> dict[tuple[str, str], Record]:
    """The scored pages of a per-page file that have ``extractor``'s scores, by (set, id)."""
    runs: dict[tuple[str, str], Record] = {}
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            rec = json.loads(line)
            if rec["scored"] and extractor in rec["extractors"]:
                runs[(rec["set"], rec["id"])] = rec
    return runs


def headline(set_name: str, entries: Sequence[dict[str, Any]]) -> tuple[str, str]:
    """The set's headline metric (its label, ``extraction_runs.HEADLINE_LABEL``'s) and the
    per-page field that stands for it. (The per-page records carry no language, so a set's
    metric is read from its name and its fields, not with ``extraction_runs.headline_of``.)"""
    if set_name.startswith("wcxb"):
        kind = "wcxb"
    elif entries and "char_f1" in entries[0]:
        kind = "char"
    else:
        kind = "token"
    return HEADLINE_LABEL[kind], f"{kind}_f1"


def set_figure(entries: Iterable[dict[str, Any]], field: str) -> float:
    """The headline metric over pages, as ``extraction.py`` computes it: the mean of WCXB's
    per-page figure, else the F1 of the averaged precision and recall (``metrics.average``;
    ``extraction_runs.summarize`` does the same over ``PageResult`` objects, which these
    JSON records are not)."""
    entries = list(entries)
    if not entries:
        return 0.0
    if field == "wcxb_f1":
        return sum(e.get(field) or 0.0 for e in entries) / len(entries)
    kind = field.split("_")[0]
    return average(
        PRF(e.get(f"{kind}_p"), e.get(f"{kind}_r"), e.get(field) or 0.0) for e in entries
    ).f1


#: Resamples of :func:`paired_interval` and its seed (fixed: a rerun prints the same interval).
RESAMPLES = 2000
BOOTSTRAP_SEED = 7


def _masked_means(entries: Sequence[dict[str, Any]], key: str, draws: np.ndarray) -> np.ndarray:
    """Per draw, the mean of ``key`` over the drawn pages that have one (``metrics.average``
    averages precision over the pages with a prediction, recall over those with a truth)."""
    values = np.array([e.get(key) or 0.0 for e in entries])[draws]
    present = np.array([e.get(key) is not None for e in entries])[draws]
    counts = present.sum(axis=1)
    return np.where(counts > 0, values.sum(axis=1) / np.maximum(counts, 1), 0.0)


def paired_interval(
    old: Sequence[dict[str, Any]],
    new: Sequence[dict[str, Any]],
    field: str,
    resamples: int = RESAMPLES,
    level: float = 0.95,
) -> tuple[float, float]:
    """The paired bootstrap interval of the headline metric's change (``new`` minus
    ``old``, page ``i`` of one against page ``i`` of the other): pages drawn with
    replacement ``resamples`` times, the set's figure (:func:`set_figure`'s way) computed
    on each draw for both runs, the central ``level`` share of the changes."""
    n = len(old)
    if n == 0:
        return 0.0, 0.0
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    draws = rng.integers(0, n, size=(resamples, n))

    def figures(entries: Sequence[dict[str, Any]]) -> np.ndarray:
        if field == "wcxb_f1":
            values = np.array([e.get(field) or 0.0 for e in entries])
            return values[draws].mean(axis=1)
        kind = field.split("_")[0]
        p, r = (_masked_means(entries, f"{kind}_{part}", draws) for part in ("p", "r"))
        total = p + r
        return np.where(total > 0, 2 * p * r / np.where(total > 0, total, 1.0), 0.0)

    changes = figures(new) - figures(old)
    tail = (1.0 - level) / 2 * 100
    low, high = np.percentile(changes, [tail, 100 - tail])
    return float(low), float(high)


def compare(
    before: dict[tuple[str, str], Record],
    after: dict[tuple[str, str], Record],
    extractor: str,
    show: float | None = None,
) -> str:
    """The comparison's Markdown: one section per set both runs scored."""
    out: list[str] = []
    sets = sorted({key[0] for key in before if key in after})
    for set_name in sets:
        keys = [key for key in before if key[0] == set_name and key in after]
        old = [before[key]["extractors"][extractor] for key in keys]
        new = [after[key]["extractors"][extractor] for key in keys]
        label, field = headline(set_name, old)
        moves = [
            (n.get(field) or 0.0) - (o.get(field) or 0.0) for o, n in zip(old, new, strict=True)
        ]
        up = sum(1 for m in moves if m > MOVED)
        down = sum(1 for m in moves if m < -MOVED)
        first, last = set_figure(old, field), set_figure(new, field)
        low, high = paired_interval(old, new, field)
        out.append(f"## {set_name} ({len(keys)} pages, {label})")
        out.append("")
        out.append(
            md_table(
                ["before", "after", "change", "95% interval", "pages up", "pages down"],
                [
                    [
                        f"{first:.5f}",
                        f"{last:.5f}",
                        f"{last - first:+.5f}",
                        f"[{low:+.5f}, {high:+.5f}]",
                        str(up),
                        str(down),
                    ]
                ],
            )
        )
        out.append("")
        groups = [("fold", lambda key: str(before[key]["fold"]))]
        if set_name.startswith("wcxb"):
            groups.append(("page type", lambda key: before[key]["page_type"] or "-"))
        for title, group_of in groups:
            members: dict[str, list[int]] = defaultdict(list)
            for i, key in enumerate(keys):
                members[group_of(key)].append(i)
            rows = []
            for group in sorted(members):
                idx = members[group]
                a = set_figure((old[i] for i in idx), field)
                b = set_figure((new[i] for i in idx), field)
                rows.append([group, str(len(idx)), f"{a:.5f}", f"{b:.5f}", f"{b - a:+.5f}"])
            out.append(md_table([title, "pages", "before", "after", "change"], rows))
            out.append("")
        if show is not None:
            moved = sorted((m, key[1]) for m, key in zip(moves, keys, strict=True) if abs(m) > show)
            if moved:
                out.append(f"Pages that moved by more than {show}:")
                out.append("")
                for m, page_id in moved:
                    rec = before[(set_name, page_id)]
                    where = rec["url"] or rec["site"]
                    out.append(f"- {page_id} ({rec['page_type'] or '-'}) {m:+.4f} {where}")
                out.append("")
    if not sets:
        out.append(f"No set has pages scored for {extractor} in both runs.")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path, help="per-page JSON lines of the first run")
    parser.add_argument("after", type=Path, help="per-page JSON lines of the second run")
    parser.add_argument("--extractor", default="ours", help="the extractor compared (ours)")
    parser.add_argument(
        "--show", type=float, default=None, help="list the pages that moved by more than this"
    )
    args = parser.parse_args(argv)
    before = load_runs(args.before, args.extractor)
    after = load_runs(args.after, args.extractor)
    print(compare(before, after, args.extractor, args.show))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
