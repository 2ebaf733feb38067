"""Near-duplicate detection: ``NearDuplicateIndex`` against plain MinHash LSH and the bare
long-sentence fingerprint, on the Chinese dev set and an English set built the same way.

Usage::

    python benchmarks/dedup.py ../shared/datasets [--scale 10000,100000] [--json out.json]

The argument is the shared ``datasets/`` folder: ``dedup/zh-news-neardup.jsonl`` (its README
gives the protocol) and, to build the English set, ``extract/scrapinghub/ground-truth.json``
(the real article bodies). Nothing of either is copied; the English set is rebuilt in memory
with a fixed seed on every run.

Protocol (the dataset README's): documents in a random order (fixed seed); each is checked
against all earlier ones and then added, as a pipeline would. A document is a true duplicate
when an earlier document has its cluster; a reported duplicate counts as right only when the
earlier document it names is of its cluster (for ours, ``Match.nearest``: the earlier document
it is most like, as each baseline names the document it matched). CPU seconds are ``time.process_time()`` around
the check-and-add calls only.

Baselines in the same run:

* ``minhash-lsh``: what a user would assemble today: datasketch MinHash on character
  5-grams, 128 permutations, ``MinHashLSH`` threshold 0.5, each candidate checked by the
  exact Jaccard of the stored shingle sets >= 0.5;
* ``fingerprint``: the paper's bare long-sentence fingerprint (k = 9 CJK characters or 8
  words, the m = 5 longest, MD5): a copy when it shares a digest with an earlier document.

The scale run indexes synthetic documents of about 1,000 characters assembled from real
sentences of both sets (never stored: generated on the fly), and reports documents per
CPU-second and the growth of the process's peak memory per indexed document.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import subprocess
import sys
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from datasketch import MinHash, MinHashLSH

from scrapy_webclean.dedup import NearDuplicateIndex
from scrapy_webclean.dedup.fingerprint import _INNER_PUNCT_RE, long_sentences, normalize

SEED = 13


@dataclass(slots=True)
class Doc:
    id: int
    cluster: int
    type: str
    text: str


# -- data ----------------------------------------------------------------------------------


def load_zh(root: Path) -> list[Doc]:
    path = root / "dedup" / "zh-news-neardup.jsonl"
    docs = []
    for line in path.open(encoding="utf-8"):
        r = json.loads(line)
        docs.append(Doc(r["id"], r["cluster"], r["type"], r["text"]))
    return docs


NAV = (
    "Home | News | Business | Sport | Culture | Opinion | Subscribe to our newsletter for "
    "the day's most important stories, delivered every morning to your inbox."
)
FOOTER = (
    "Copyright 2019 Example Media Group. All rights reserved. This material may not be "
    "published, broadcast, rewritten or redistributed without written permission."
)


def build_english(root: Path, seed: int = SEED) -> list[Doc]:
    """An English set built like the Chinese one from real article texts.

    Articles with copies: the scrapinghub ground-truth bodies. Per original: an exact copy
    with probability 205/1000, a near copy with 295/1000 (one of the edit types, or a mix of
    two). Hard negatives, from other real articles (the WCXB dev set's article truths, never
    copied): pairs of different articles wrapped in one site's navigation and footer, and
    articles that quote one paragraph of a scrapinghub article."""
    truth = json.loads((root / "extract" / "scrapinghub" / "ground-truth.json").read_text("utf-8"))
    rng = random.Random(seed)
    bodies = [v["articleBody"].strip() for _, v in sorted(truth.items())]
    bodies = [b for b in bodies if len(b) >= 400]
    others = _wcxb_articles(root)
    rng.shuffle(others)
    docs: list[Doc] = []

    def add(cluster: int, kind: str, text: str) -> None:
        docs.append(Doc(len(docs), cluster, kind, text))

    edits: dict[str, Callable[[str], str]] = {
        "format": _reformat,
        "reprint": lambda t: f"This article first appeared on Example News.\n{t}\n{FOOTER}",
        "para_drop": lambda t: _drop_paragraph(t, rng),
        "reorder": lambda t: _reorder(t, rng),
        "char_edit": lambda t: _char_edit(t, rng, 0.005),
        "truncate": lambda t: t[: int(len(t) * rng.uniform(0.6, 0.8))],
    }
    names = sorted(edits)
    for cluster, body in enumerate(bodies):
        add(cluster, "original", body)
        if rng.random() < 0.205:
            add(cluster, "exact", body)
        if rng.random() < 0.295:
            kind = rng.choice([*names, "mixed"])
            if kind == "mixed":
                first, second = rng.sample(names, 2)
                text = edits[second](edits[first](body))
            else:
                text = edits[kind](body)
            add(cluster, kind, text)
    next_cluster = len(bodies)
    half = len(others) // 2
    for text in others[:half]:  # one site's navigation and footer around different articles
        add(next_cluster, "template_neg", f"{NAV}\n{text}\n{FOOTER}")
        next_cluster += 1
    for text in others[half:]:  # an article quoting one paragraph of another
        quote = rng.choice(_paragraphs(rng.choice(bodies)))
        add(next_cluster, "quote_neg", f'{text}\nAs another report put it: "{quote}"')
        next_cluster += 1
    return docs


def _wcxb_articles(root: Path, limit: int = 120) -> list[str]:
    folder = root / "extract" / "wcxb-dev"
    meta = json.loads((folder / "metadata.json").read_text("utf-8"))["files"]
    texts = []
    for page_id, info in sorted(meta.items()):
        if info.get("page_type") != "article":
            continue
        path = folder / "ground-truth" / f"{page_id}.json"
        text = json.loads(path.read_text("utf-8"))["ground_truth"].get("main_content", "")
        if len(text) >= 800:
            texts.append(text.strip())
    return texts[:limit]


def _paragraphs(text: str) -> list[str]:
    return [p for p in text.split("\n") if p.strip()]


def _reformat(text: str) -> str:
    return "\n\n".join("  " + " ".join(p.split()) for p in _paragraphs(text))


def _drop_paragraph(text: str, rng: random.Random) -> str:
    parts = _paragraphs(text)
    if len(parts) > 2:
        del parts[rng.randrange(len(parts))]
    return "\n".join(parts)


def _reorder(text: str, rng: random.Random) -> str:
    parts = _paragraphs(text)
    rng.shuffle(parts)
    return "\n".join(parts)


def _char_edit(text: str, rng: random.Random, share: float) -> str:
    chars = list(text)
    for _ in range(max(1, int(len(chars) * share))):
        i = rng.randrange(len(chars))
        if chars[i].isalpha():
            chars[i] = rng.choice("abcdefghijklmnopqrstuvwxyz")
    return "".join(chars)


# -- detectors -----------------------------------------------------------------------------


Detector = Callable[[str, str], "str | None"]


def ours() -> Detector:
    index = NearDuplicateIndex()

    def check_and_add(key: str, text: str) -> str | None:
        # The document it is most like, as the baselines name the candidate they matched
        # (``check_and_add`` names the first copy of the text, which a pipeline keeps).
        match = index.check(key, text, add=True)
        return match.nearest if match is not None else None

    return check_and_add


def minhash_baseline(threshold: float = 0.5, num_perm: int = 128) -> Detector:
    lsh = MinHashLSH(threshold=threshold, num_perm=num_perm)
    shingles: dict[str, set[bytes]] = {}

    def check_and_add(key: str, text: str) -> str | None:
        grams = {text[i : i + 5].encode("utf-8") for i in range(max(1, len(text) - 4))}
        minhash = MinHash(num_perm=num_perm)
        minhash.update_batch(list(grams))
        found = None
        for candidate in sorted(lsh.query(minhash), key=int):
            other = shingles[candidate]
            if len(grams & other) / len(grams | other) >= threshold:
                found = candidate
                break
        lsh.insert(key, minhash)
        shingles[key] = grams
        return found

    return check_and_add


def fingerprint_baseline(m: int = 5) -> Detector:
    first: dict[str, str] = {}

    def check_and_add(key: str, text: str) -> str | None:
        compared = _INNER_PUNCT_RE.sub("", normalize(text))  # as ours compares sentences
        sentences = sorted(long_sentences(compared), key=len, reverse=True)[:m]
        digests = [hashlib.md5(s.encode("utf-8")).hexdigest() for s in sentences]
        found = min((first[d] for d in digests if d in first), key=int, default=None)
        for digest in digests:
            first.setdefault(digest, key)
        return found

    return check_and_add


# -- runs ----------------------------------------------------------------------------------


def evaluate(docs: list[Doc], detector: Detector, seed: int = SEED) -> dict[str, Any]:
    order = list(range(len(docs)))
    random.Random(seed).shuffle(order)
    by_key = {str(d.id): d for d in docs}
    seen: set[int] = set()
    tp = fp = fn = 0
    dups_by_type: Counter[str] = Counter()
    found_by_type: Counter[str] = Counter()
    fp_by_type: Counter[str] = Counter()
    cpu = 0.0
    for position in order:
        doc = docs[position]
        started = time.process_time()
        earlier = detector(str(doc.id), doc.text)
        cpu += time.process_time() - started
        truth = doc.cluster in seen
        if truth:
            dups_by_type[doc.type] += 1
        if earlier is not None:
            if truth and by_key[earlier].cluster == doc.cluster:
                tp += 1
                found_by_type[doc.type] += 1
            else:
                fp += 1
                fp_by_type[doc.type] += 1
        elif truth:
            fn += 1
        seen.add(doc.cluster)
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    return {
        "docs": len(docs),
        "precision": precision,
        "recall": recall,
        "f1": 2 * precision * recall / (precision + recall) if precision + recall else 0.0,
        "docs_per_cpu_second": len(docs) / cpu if cpu else 0.0,
        "recall_by_type": {t: found_by_type[t] / n for t, n in sorted(dups_by_type.items())},
        "false_positives_by_type": dict(sorted(fp_by_type.items())),
        "fp": fp,
        "fn": fn,
    }


def sentence_pool(zh: list[Doc], en: list[Doc]) -> list[str]:
    pool: list[str] = []
    for doc in zh + en:
        if doc.type == "original":
            pool.extend(s for s in re.split(r"(?<=[。！？.!?])\s*", doc.text) if len(s) >= 20)
    return pool


def synthetic(pool: list[str], count: int, seed: int) -> Iterator[str]:
    rng = random.Random(seed)
    for _ in range(count):
        parts: list[str] = []
        size = 0
        while size < 1000:
            sentence = rng.choice(pool)
            parts.append(sentence)
            size += len(sentence)
        yield "".join(parts)


def scale(root: Path, count: int, detector_name: str) -> dict[str, float]:
    """Index ``count`` synthetic documents in a fresh process (for a clean memory reading)."""
    command = [sys.executable, __file__, str(root), "--scale-child", f"{detector_name}:{count}"]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    result: dict[str, float] = json.loads(output.strip().splitlines()[-1])
    return result


def _scale_child(root: Path, spec: str) -> None:
    name, count_text = spec.split(":")
    count = int(count_text)
    pool = sentence_pool(load_zh(root), build_english(root))
    make = {"ours": ours, "minhash-lsh": minhash_baseline}[name]
    detector = make()
    cpu = 0.0
    for number, text in enumerate(synthetic(pool, count, seed=count)):
        started = time.process_time()
        detector(str(number), text)
        cpu += time.process_time() - started
    del detector
    # A second pass with tracemalloc (slower, so not timed): what the index keeps.
    tracemalloc.start()
    detector = make()
    for number, text in enumerate(synthetic(pool, count, seed=count)):
        detector(str(number), text)
    kept, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(
        json.dumps(
            {
                "docs": count,
                "docs_per_cpu_second": count / cpu if cpu else 0.0,
                "memory_bytes_per_doc": kept / count,
            }
        )
    )


def table(rows: list[tuple[str, dict[str, Any]]]) -> str:
    out = [
        "| detector | docs | precision | recall | F1 | docs per CPU-s | false positives | missed |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, r in rows:
        out.append(
            f"| {name} | {r['docs']} | {r['precision']:.4f} | {r['recall']:.4f} | {r['f1']:.4f} "
            f"| {r['docs_per_cpu_second']:.0f} | {r['fp']} | {r['fn']} |"
        )
    return "\n".join(out)


def by_type(rows: list[tuple[str, dict[str, Any]]], key: str) -> str:
    kinds = sorted({k for _, r in rows for k in r[key]})
    if not kinds:
        return "(none)"
    out = ["| detector | " + " | ".join(kinds) + " |", "|---" * (len(kinds) + 1) + "|"]
    for name, r in rows:
        cells = []
        for kind in kinds:
            value = r[key].get(kind, 0)
            cells.append(f"{value:.3f}" if isinstance(value, float) else str(value))
        out.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, help="the shared datasets/ folder")
    parser.add_argument("--scale", default="10000,100000", help="document counts, comma-separated")
    parser.add_argument("--baseline-scale", type=int, default=10000)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--scale-child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.scale_child:
        _scale_child(args.data, args.scale_child)
        return 0

    started = time.time()
    zh = load_zh(args.data)
    en = build_english(args.data)
    results: dict[str, Any] = {}
    print("# Near-duplicate detection\n")
    for name, docs in (
        ("zh-news-neardup", zh),
        (f"English (built from scrapinghub, seed {SEED})", en),
    ):
        rows = [
            ("ours (NearDuplicateIndex)", evaluate(docs, ours())),
            (
                "minhash-lsh (datasketch, 5-grams, 128, 0.5 + exact Jaccard)",
                evaluate(docs, minhash_baseline()),
            ),
            ("fingerprint (bare long sentences, m = 5)", evaluate(docs, fingerprint_baseline())),
        ]
        results[name] = dict(rows)
        counts = Counter(d.type for d in docs)
        print(
            f"## {name}\n\n{len(docs)} documents: "
            + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
            + "\n"
        )
        print(table(rows) + "\n")
        print("Recall per edit type (of the documents that are copies):\n")
        print(by_type(rows, "recall_by_type") + "\n")
        print("False positives per document type:\n")
        print(by_type(rows, "false_positives_by_type") + "\n")
        ratio = rows[0][1]["docs_per_cpu_second"] / rows[1][1]["docs_per_cpu_second"]
        print(f"ours ÷ minhash-lsh, documents per CPU-second: {ratio:.2f}x\n")

    print("## Scale (synthetic ~1,000-character documents from real sentences)\n")
    print("| detector | documents | docs per CPU-s | memory kept per doc |")
    print("|---|---|---|---|")
    scale_rows = []
    runs = [("ours", int(c)) for c in args.scale.split(",") if c]
    if args.baseline_scale:
        runs.append(("minhash-lsh", args.baseline_scale))
    for name, count in runs:
        r = scale(args.data, count, name)
        scale_rows.append((name, r))
        print(
            f"| {name} | {count} | {r['docs_per_cpu_second']:.0f} | "
            f"{r['memory_bytes_per_doc']:.0f} B |"
        )
    results["scale"] = scale_rows
    print(
        "\nEach scale row runs in a fresh process: a timed pass, then a pass under tracemalloc "
        "whose traced memory at the end (everything the detector keeps, numpy arrays included; "
        "the documents are generated one at a time and not kept) is divided by the count.\n"
        f"\nTotal runtime: {time.time() - started:.0f} s"
    )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
