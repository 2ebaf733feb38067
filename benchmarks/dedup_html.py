"""Near-duplicate detection on English HTML variants (issue 22): ``PageIndex``
against the datasketch MinHash LSH anchor, on pages cleaned as a crawl cleans them.

Usage::

    python benchmarks/dedup_html.py ../shared/datasets [--articles 300] [--seed 13]
        [--json out.json] [--cache /tmp/dedup_html.pkl] [--show-misses 3]

The argument is the shared ``datasets/`` folder; the pages are those of ``extract/``
(WCXB dev articles, scrapinghub, dragnet-gold). ``benchmarks/htmlvariants.py`` builds the
dev set in memory with the seed: a few hundred originals, their HTML variants of each kind
(a date moved, an ad block injected, only the URL changed, a word changed in 3-5
paragraphs, the navigation and footer of another site, another article's body in the
page's template) and the hard negatives (the articles of one site; pairs of articles on
one topic). Nothing of the data is written to the repository; ``--cache`` keeps the
cleaned texts in a file of your choice, to iterate on the index without cleaning again.

What is measured:

* every page (originals and variants) is cleaned with ``scrapy_webclean.clean_html(html,
  url)``; a page whose text is empty (or that cannot be cleaned) is counted per kind, is
  never checked (``DedupPipeline`` skips items without text) and does not make a later
  page a duplicate, but it is a miss when it is a duplicate itself;
* the pages are streamed in a random order (the seed); each is checked against all earlier
  ones and then added. A page is a true duplicate when an earlier page (with text) is of
  its cluster; a reported duplicate is right only when the earlier page it names is of its
  cluster. A variant's cluster is its article's, a content swap's the article whose body it
  carries. An original is a duplicate when one of its variants came first;
* ours: ``PageIndex.check_many`` as ``DedupPipeline`` calls it (a page of a type other
  than article and forum, by the cleaner's ``page_type``, is a list page: compared with the
  articles for an exact copy and with the list pages for a near-identical one), naming
  ``Match.nearest``, the earlier page it is most like; a diagnostic row compares every page
  as an article;
* the anchor: datasketch MinHash on character 5-grams of the same text, 128 permutations,
  ``MinHashLSH(threshold=0.5)``, each candidate checked by the exact Jaccard of the stored
  shingle sets >= 0.5 (``benchmarks/dedup.py``'s ``minhash-lsh``);
* precision, recall, F1; recall per kind (of the pages that are duplicates); false
  positives per negative type (the clusters of the page and of the earlier page it names:
  ``same topic`` for a topic pair, ``same site`` when the two share a site or a template,
  else ``other``); documents per CPU-second, ``time.process_time()`` around the
  check-and-add calls only (cleaning is timed apart);
* the targets of issue 22, met or not; and where ours misses: per kind, with the exact
  5-gram Jaccard of the missed page's text to the nearest earlier page of its cluster and
  the share of its article's ground truth that its cleaned text holds (a cleaner that lost
  the article is not the index's miss).
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import pickle
import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, astuple, dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from datasets import load_sets
from dedup import minhash_baseline
from htmlvariants import (
    DEFAULT_ARTICLES,
    KINDS,
    ORIGINAL,
    SEED,
    SETS,
    DevDoc,
    DevSet,
    build_dev_set,
)
from variantedits import DETAILS
from variantpage import shingles

from scrapy_webclean import clean_html
from scrapy_webclean.dedup import DedupOptions, MemoryDedupStore
from scrapy_webclean.dedup.pageindex import PageIndex
from scrapy_webclean.errors import CleanError
from scrapy_webclean.integration.dedup import NEAR_PAGE_TYPES

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
NEGATIVES = ("same site", "same topic", "other")
ROW_OURS = "ours (PageIndex, as DedupPipeline)"
ROW_ANCHOR = "anchor (datasketch MinHash LSH, 5-grams, 128, 0.5 + exact Jaccard)"
ROW_OURS_ALL = "ours, every page compared for near copies (diagnostic)"
COLUMNS = (ORIGINAL, *KINDS)

#: (key, text, exact_only) -> the key of the earlier page it copies, or None.
Detector = Callable[[str, str, bool], "str | None"]


# -- cleaning -------------------------------------------------------------------------------


@dataclass(slots=True)
class Cleaned:
    text: str
    page_type: str
    cpu_seconds: float
    error: str = ""


class Cleaner:
    """``clean_html`` with an optional pickle cache (keyed by a hash of URL and bytes)."""

    def __init__(self, cache: Path | None) -> None:
        self.path = cache
        self.cached: dict[str, Cleaned] = {}
        if cache is not None and cache.exists():
            with cache.open("rb") as fh:  # plain tuples, readable by any script
                self.cached = {k: Cleaned(*v) for k, v in pickle.load(fh).items()}
        self.loaded = set(self.cached)
        self.from_file = 0  # pages read from the cache file
        self.cpu_seconds = 0.0
        self.pages = 0

    def __call__(self, html: bytes, url: str | None) -> Cleaned:
        key = hashlib.sha1((url or "").encode("utf-8") + b"\0" + html).hexdigest()
        found = self.cached.get(key)
        if found is not None:
            self.from_file += key in self.loaded
            return found
        started = time.process_time()
        try:
            result = clean_html(html, url)
            cleaned = Cleaned(result.text or "", result.page_type, 0.0)
        except CleanError as exc:
            cleaned = Cleaned("", "", 0.0, exc.reason)
        cleaned.cpu_seconds = time.process_time() - started
        self.cpu_seconds += cleaned.cpu_seconds
        self.pages += 1
        self.cached[key] = cleaned
        return cleaned

    def text(self, html: bytes, url: str | None) -> str:
        return self(html, url).text

    def save(self) -> None:
        if self.path is not None:
            with self.path.open("wb") as fh:
                pickle.dump({k: astuple(v) for k, v in self.cached.items()}, fh)


# -- detectors ------------------------------------------------------------------------------


def ours(near_for_all: bool = False) -> Detector:
    """``PageIndex`` as ``DedupPipeline`` builds it (list pages: exact copies of articles,
    near-identical copies of lists); ``near_for_all`` compares every page as an article."""
    index = PageIndex.of_stores(DedupOptions(), MemoryDedupStore(), MemoryDedupStore())

    def check(key: str, text: str, is_list: bool) -> str | None:
        (match,) = index.check_many([(key, text, is_list and not near_for_all)])
        return match.nearest if match is not None else None

    return check


def anchor() -> Detector:
    check_and_add = minhash_baseline()
    keys: list[str] = []  # it names pages by number (the earliest candidate first)

    def check(key: str, text: str, exact_only: bool) -> str | None:
        keys.append(key)
        found = check_and_add(str(len(keys) - 1), text)
        return keys[int(found)] if found is not None else None

    return check


# -- the run --------------------------------------------------------------------------------


@dataclass(slots=True)
class Outcome:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    checked: int = 0
    cpu_seconds: float = 0.0
    duplicates: Counter[str] = field(default_factory=Counter)
    found: Counter[str] = field(default_factory=Counter)
    #: The same by (kind, detail).
    duplicates_detail: Counter[tuple[str, str]] = field(default_factory=Counter)
    found_detail: Counter[tuple[str, str]] = field(default_factory=Counter)
    false_positives: Counter[str] = field(default_factory=Counter)
    #: (page, earlier page named, negative type)
    wrong: list[tuple[str, str, str]] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def speed(self) -> float:
        return self.checked / self.cpu_seconds if self.cpu_seconds else 0.0

    def recall_of(self, kind: str) -> float | None:
        n = self.duplicates[kind]
        return self.found[kind] / n if n else None

    def summary(self) -> dict[str, Any]:
        return {
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
            "docs_per_cpu_second": self.speed,
            "checked": self.checked,
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "recall_by_kind": {k: self.recall_of(k) for k in COLUMNS},
            "duplicates_by_kind": dict(self.duplicates),
            "false_positives_by_negative": {n: self.false_positives[n] for n in NEGATIVES},
            "false_positives": self.wrong,
            "missed": self.missed,
        }


@dataclass(slots=True)
class Stream:
    """The dev set's pages in stream order, with their cleaned texts."""

    docs: list[DevDoc]
    texts: dict[str, str]
    exact_only: dict[str, bool]
    topics: set[frozenset[int]]
    site_of: dict[int, str]

    def negative(self, doc: DevDoc, earlier: DevDoc) -> str:
        if frozenset((doc.cluster, earlier.cluster)) in self.topics:
            return "same topic"
        if doc.site == earlier.site or self.site_of[doc.cluster] == self.site_of[earlier.cluster]:
            return "same site"
        return "other"


def evaluate(stream: Stream, detector: Detector) -> Outcome:
    by_key = {d.key: d for d in stream.docs}
    seen: set[int] = set()
    out = Outcome()
    for doc in stream.docs:
        text = stream.texts[doc.key]
        duplicate = doc.cluster in seen
        if duplicate:
            out.duplicates[doc.kind] += 1
            out.duplicates_detail[doc.kind, doc.detail] += 1
        if not text.strip():  # never checked nor added, as the pipeline skips it
            if duplicate:
                out.fn += 1
                out.missed.append(doc.key)
            continue
        started = time.process_time()
        named = detector(doc.key, text, stream.exact_only[doc.key])
        out.cpu_seconds += time.process_time() - started
        out.checked += 1
        if named is not None:
            earlier = by_key[named]
            if duplicate and earlier.cluster == doc.cluster:
                out.tp += 1
                out.found[doc.kind] += 1
                out.found_detail[doc.kind, doc.detail] += 1
            else:
                kind = stream.negative(doc, earlier)
                out.fp += 1
                out.false_positives[kind] += 1
                out.wrong.append((doc.key, named, kind))
        elif duplicate:
            out.fn += 1
            out.missed.append(doc.key)
        seen.add(doc.cluster)
    return out


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, help="the shared datasets/ folder")
    parser.add_argument("--articles", type=int, default=DEFAULT_ARTICLES)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--cache", type=Path, default=None, help="pickle of cleaned texts")
    parser.add_argument(
        "--show-misses", type=int, default=0, help="print the text diffs of N misses per kind"
    )
    args = parser.parse_args(argv)
    started = time.time()
    cleaner = Cleaner(args.cache)
    sets = load_sets(args.data / "extract", SETS)
    dev: DevSet = build_dev_set(sets, cleaner.text, args.articles, args.seed)
    pool_cleaning = (cleaner.pages, cleaner.cpu_seconds)
    cleaned = {d.key: cleaner(d.html, d.url) for d in dev.docs}
    cleaner.save()
    docs = list(dev.docs)
    random.Random(args.seed).shuffle(docs)
    stream = Stream(
        docs,
        {k: c.text for k, c in cleaned.items()},
        {k: c.page_type not in NEAR_PAGE_TYPES for k, c in cleaned.items()},
        {frozenset((a, b)) for a, b, _ in dev.topic_pairs},
        {a.cluster: a.page.site for a in dev.articles},
    )
    truths = {a.cluster: a.page.truth or "" for a in dev.articles}
    rows = [(ROW_OURS, evaluate(stream, ours())), (ROW_ANCHOR, evaluate(stream, anchor()))]
    exact_only = Counter(cleaned[d.key].page_type for d in docs if stream.exact_only[d.key])
    if exact_only:
        rows.append((ROW_OURS_ALL, evaluate(stream, ours(near_for_all=True))))
    mine, theirs = rows[0][1], rows[1][1]
    missed = misses(stream, mine, theirs, truths)
    kinds = Counter(d.kind for d in docs)

    print("# Near-duplicate detection on English HTML variants (issue 22)\n")
    print(
        f"Revision {revision()}; seed {args.seed}; {args.articles} articles asked; "
        f"`python benchmarks/dedup_html.py <datasets> --articles {args.articles} "
        f"--seed {args.seed}`.\n"
    )
    print("## The dev set\n")
    for name, value in dev.notes.items():
        print(f"- {name}: {value}")
    print(f"- topic pairs (hard negatives): {len(dev.topic_pairs)}", end="")
    if dev.topic_pairs:
        scores = [s for _, _, s in dev.topic_pairs]
        print(f", TF-IDF cosine {min(scores):.2f}-{max(scores):.2f}")
    print(
        f"\n{len(docs)} pages: "
        + ", ".join(f"{k} {kinds[k]}" for k in COLUMNS)
        + ". Variants skipped (the page allowed none of the kind): "
        + ", ".join(f"{k} {dev.skips[k]}" for k in KINDS)
        + ".\n"
    )
    errors = Counter(c.error for c in cleaned.values() if c.error)
    print(
        "Pages compared for exact copies only by ours (the cleaner's page type is not "
        "article or forum): "
        + (", ".join(f"{t or '(none)'} {n}" for t, n in sorted(exact_only.items())) or "none")
        + ". Pages that could not be cleaned: "
        + (", ".join(f"{e} {n}" for e, n in sorted(errors.items())) or "none")
        + ".\n"
    )
    print("Cleaned texts, per kind, against the cleaned original of the page's cluster:\n")
    print(texts_table(stream) + "\n")
    fresh = cleaner.pages - pool_cleaning[0]
    print(
        f"Cleaning (not in docs per CPU-second): {pool_cleaning[0]} pool pages "
        f"{pool_cleaning[1]:.1f} CPU-s (the originals among them), {fresh} variants "
        f"{cleaner.cpu_seconds - pool_cleaning[1]:.1f} CPU-s"
        + (
            f" ({1000 * (cleaner.cpu_seconds - pool_cleaning[1]) / fresh:.1f} ms a page)"
            if fresh
            else ""
        )
        + (f"; {cleaner.from_file} pages read from {args.cache}" if cleaner.from_file else "")
        + ".\n"
    )
    reach, duplicates = reachable(stream)
    print(
        f"Duplicates within reach of a detector of text similarity (an earlier page of the "
        f"cluster with a {GRAM}-gram Jaccard >= {REACH_JACCARD} or a containment >= "
        f"{REACH_CONTAINMENT}): {reach} of {duplicates} (recall {reach / max(duplicates, 1):.4f}); "
        "the others' cleaned texts differ from their cluster's (mostly content swaps whose "
        "cleaned text is not the donor's article).\n"
    )
    print("## Ours and the anchor\n")
    print(main_table(rows) + "\n")
    print(
        "Recall per kind (found / duplicates; an original is a duplicate when a variant came first):\n"
    )
    print(kind_table(rows) + "\n")
    print("Recall per sort of variant:\n")
    print(detail_table(rows) + "\n")
    print("False positives per negative type:\n")
    print(negative_table(rows) + "\n")
    target_text, target_rows = targets(mine, theirs)
    print("## Targets\n")
    print(target_text + "\n")
    print("## Where ours misses\n")
    print(
        f"Jaccard: exact character {GRAM}-gram Jaccard of the missed page's cleaned text and the "
        "earlier page of its cluster most like it; the article's truth held: share of its "
        "article's ground-truth word 4-grams in its cleaned text.\n"
    )
    print(miss_table(missed) + "\n")
    print(miss_list(missed) + "\n")
    print("False positives of ours:\n")
    print(wrong_list(stream, mine.wrong) + "\n")
    print("False positives of the anchor:\n")
    print(wrong_list(stream, theirs.wrong) + "\n")
    print(f"Total runtime: {time.time() - started:.0f} s")
    if args.show_misses:
        show_diffs(stream, missed, args.show_misses)
    if args.json:
        results = {
            "revision": revision(),
            "seed": args.seed,
            "articles": args.articles,
            "notes": dev.notes,
            "topic_pairs": dev.topic_pairs,
            "pages": dict(kinds),
            "skips": {k: dev.skips[k] for k in KINDS},
            "empty_text": {
                k: sum(not stream.texts[d.key].strip() for d in docs if d.kind == k)
                for k in COLUMNS
            },
            "rows": {name: r.summary() for name, r in rows},
            "targets": target_rows,
            "misses": [asdict(m) for m in missed],
        }
        args.json.write_text(json.dumps(results, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
