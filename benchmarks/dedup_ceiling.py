"""How good can any near-duplicate detector be on these sets? An audit of the labels.

Usage::

    python benchmarks/dedup_ceiling.py ../shared/datasets [--recall 0.99] [--precision 0.998]

``benchmarks/dedup.py`` measures detectors; this asks what the labels allow. It feeds the
documents in the protocol's order (same seed) and, for every document, measures its exact
similarity to every earlier document that shares a shingle: the Jaccard similarity of the
two sets of character 5-grams (punctuation and whitespace removed, case folded) and their
containment (shared shingles over the smaller set).

A detector is *monotone* when a pair at least as similar as a pair it calls a copy, by both
measures, is also called a copy: every threshold rule on Jaccard, containment, or both, is
monotone, and so is every detector that looks at nothing but how much of the text two
documents share. For such detectors the script computes two bounds that hold whatever the
thresholds (the detector is even granted the right earlier copy whenever it flags one):

* the best precision at the required recall: catching a copy whose pair scores ``(J, C)``
  forces a false positive on every unrelated document that has an earlier document of
  another cluster scoring at least ``(J, C)`` on both. The script finds the copies it can
  afford to miss that avoid the most such forced false positives (exhaustively);
* the best recall at the required precision, the same way round.

Each forced false positive is listed with the copy that forces it, by the dataset's ``id``
(no text is printed). A bound below a target means that target can only be met by reading
the labels, not the texts.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import re
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.dedup import SEED, Doc, build_english, load_zh

_STRIP_RE = re.compile(r"[\W_]+")
SHINGLE = 5


@dataclass(slots=True)
class Pairs:
    """One document in protocol order: is it a copy, its pairs with earlier documents of its
    own cluster (``true``) and of other clusters (``cross``), as ``(jaccard, containment)``."""

    doc: Doc
    copy: bool
    true: list[tuple[float, float]]
    cross: list[tuple[float, float, int]]  # (jaccard, containment, earlier id)


def shingles(text: str) -> set[str]:
    compact = _STRIP_RE.sub("", text.lower())
    return {compact[i : i + SHINGLE] for i in range(max(1, len(compact) - SHINGLE + 1))}


def measure(docs: list[Doc], seed: int = SEED) -> list[Pairs]:
    order = list(range(len(docs)))
    random.Random(seed).shuffle(order)
    sets = [shingles(doc.text) for doc in docs]
    postings: dict[str, list[int]] = defaultdict(list)
    seen: set[int] = set()
    rows = []
    for position in order:
        doc, mine = docs[position], sets[position]
        shared: dict[int, int] = defaultdict(int)
        for gram in mine:
            for earlier in postings[gram]:
                shared[earlier] += 1
        true, cross = [], []
        for earlier, common in shared.items():
            other = sets[earlier]
            pair = (common / len(mine | other), common / min(len(mine), len(other)))
            if docs[earlier].cluster == doc.cluster:
                true.append(pair)
            else:
                cross.append((*pair, docs[earlier].id))
        rows.append(Pairs(doc, doc.cluster in seen, true, cross))
        seen.add(doc.cluster)
        for gram in mine:
            postings[gram].append(position)
    return rows


def forced(rows: list[Pairs]) -> tuple[list[Pairs], list[int]]:
    """The copies, and for each the documents that are not copies but must be flagged by a
    monotone detector that catches it (a bit set over ``rows``), whichever of its pairs the
    detector's rule admits."""
    copies = [r for r in rows if r.copy]
    masks = []
    for row in copies:
        mask = -1 if row.true else 0  # a copy sharing nothing with its cluster: never caught
        for j, c in row.true:
            bits = 0
            for index, other in enumerate(rows):
                if not other.copy and any(oj >= j and oc >= c for oj, oc, _ in other.cross):
                    bits |= 1 << index
            mask &= bits
        masks.append(mask if row.true else -1)
    return copies, masks


def best_precision(
    copies: list[Pairs], masks: list[int], recall: float
) -> tuple[float, int, int, set[int]]:
    """(precision, copies caught, forced false positives, the copies left out) at
    ``recall`` at least."""
    total = len(copies)
    catchable = [i for i, m in enumerate(masks) if m != -1]
    misses = total - math.ceil(recall * total - 1e-9)
    never = total - len(catchable)
    if never > misses:
        return 0.0, 0, 0, set()
    spare = misses - never
    costly = [i for i in catchable if masks[i]]
    best: tuple[float, int, int, set[int]] = (-1.0, 0, 0, set())
    for size in range(spare + 1):
        for left_out in itertools.combinations(costly, size):
            skip = set(left_out)
            union = 0
            for i in costly:
                if i not in skip:
                    union |= masks[i]
            caught = len(catchable) - size
            fps = union.bit_count()
            precision = caught / (caught + fps) if caught + fps else 0.0
            if precision > best[0]:
                best = (precision, caught, fps, skip)
    return best


def best_recall(copies: list[Pairs], masks: list[int], precision: float) -> tuple[float, int]:
    """(recall, copies caught) at ``precision`` at least: greedy from the copies that force
    the fewest false positives (exact when no false positive is allowed, as at 0.998 with
    fewer than 500 copies)."""
    order = sorted((m.bit_count(), i) for i, m in enumerate(masks) if m != -1)
    union, caught, best = 0, 0, (0.0, 0)
    for _, i in order:
        trial = union | masks[i]
        fps = trial.bit_count()
        if (caught + 1) / (caught + 1 + fps) < precision:
            continue
        union, caught = trial, caught + 1
        best = (caught / len(copies), caught)
    return best


def witnesses(rows: list[Pairs], copies: list[Pairs], masks: list[int], left_out: set[int]) -> str:
    """The forced false positives of the best choice, each with the most similar copy caught
    that forces it and its pair that is at least as similar."""
    lines = [
        "| unrelated document (type) | earlier document | J | C "
        "| copy that forces it (type) | its J | its C |",
        "|---|---|---|---|---|---|---|",
    ]
    for index, row in enumerate(rows):
        if row.copy:
            continue
        forcing = [
            (max(copy.true), copy)
            for i, (copy, mask) in enumerate(zip(copies, masks, strict=True))
            if i not in left_out and mask != -1 and mask >> index & 1
        ]
        if not forcing:
            continue
        (tj, tc), strongest = max(forcing, key=lambda x: x[0])
        # The pair with an earlier document that is at least as similar, by both measures.
        j, c, earlier = max(p for p in row.cross if p[0] >= tj and p[1] >= tc)
        lines.append(
            f"| {row.doc.id} ({row.doc.type}) | {earlier} | {j:.2f} | {c:.2f} | "
            f"{strongest.doc.id} ({strongest.doc.type}) | {tj:.2f} | {tc:.2f} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, help="the shared datasets/ folder")
    parser.add_argument("--recall", type=float, default=0.99)
    parser.add_argument("--precision", type=float, default=0.998)
    args = parser.parse_args(argv)
    print("# What the labels allow: bounds for detectors monotone in text similarity\n")
    for name, docs in (
        ("zh-news-neardup", load_zh(args.data)),
        (f"English (built from scrapinghub, seed {SEED})", build_english(args.data)),
    ):
        rows = measure(docs)
        copies, masks = forced(rows)
        never = sum(1 for m in masks if m == -1)
        precision, caught, fps, left_out = best_precision(copies, masks, args.recall)
        recall, caught_r = best_recall(copies, masks, args.precision)
        print(f"## {name}\n")
        print(
            f"{len(copies)} copies; {never} share no 5-gram with any earlier copy of their "
            f"article (no detector reading the text can find them).\n"
        )
        print("| bound | value |")
        print("|---|---|")
        if caught:
            print(
                f"| best precision at recall >= {args.recall} | {precision:.4f} "
                f"({caught} caught, {fps} forced false positives) |"
            )
        else:
            print(
                f"| best precision at recall >= {args.recall} | unreachable: recall at most "
                f"{(len(copies) - never) / len(copies):.4f} |"
            )
        print(
            f"| best recall at precision >= {args.precision} | {recall:.4f} ({caught_r} caught) |\n"
        )
        table = witnesses(rows, copies, masks, left_out)
        if table.count("\n") > 1:
            print(
                f"The false positives forced at recall >= {args.recall}: unrelated documents "
                "at least as similar to an earlier document (by both measures) as a labelled "
                "copy is to its original (J: Jaccard, C: containment of the 5-gram sets; "
                "the copy shown is the most similar one that forces it):\n"
            )
            print(table + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
