"""How ``dedup_html.py`` runs the detectors: every page cleaned as a crawl cleans it
(:class:`Cleaner`, whose texts ``--cache`` keeps), ours (``PageIndex`` as ``DedupPipeline``
calls it) and the anchor (datasketch MinHash LSH), and what each said of each page of the
stream (:func:`evaluate`, an :class:`Outcome`).
"""

from __future__ import annotations

import hashlib
import pickle
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import astuple, dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from dedup import minhash_baseline
from htmlvariants import (
    KINDS,
    ORIGINAL,
    DevDoc,
)

from scrapy_webclean import clean_html
from scrapy_webclean.dedup import DedupOptions, MemoryDedupStore
from scrapy_webclean.dedup.pageindex import PageIndex
from scrapy_webclean.errors import CleanError

NEGATIVES = ("same site", "same topic", "other")
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
