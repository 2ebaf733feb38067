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

The code, one job a module: ``dedup_html_runs.py`` cleans the pages and runs the
detectors over the stream, ``dedup_html_report.py`` makes the tables and finds the misses,
this file reads the arguments and prints the report in its order.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from dataclasses import asdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from datasets import load_sets
from dedup_html_report import (
    GRAM,
    REACH_CONTAINMENT,
    REACH_JACCARD,
    detail_table,
    kind_table,
    main_table,
    miss_list,
    miss_table,
    misses,
    negative_table,
    reachable,
    revision,
    show_diffs,
    targets,
    texts_table,
    wrong_list,
)
from dedup_html_runs import COLUMNS, Cleaner, Stream, anchor, evaluate, ours
from htmlvariants import (
    DEFAULT_ARTICLES,
    KINDS,
    SEED,
    SETS,
    DevSet,
    build_dev_set,
)

from scrapy_webclean.integration.dedup import NEAR_PAGE_TYPES

ROW_OURS = "ours (PageIndex, as DedupPipeline)"
ROW_ANCHOR = "anchor (datasketch MinHash LSH, 5-grams, 128, 0.5 + exact Jaccard)"
ROW_OURS_ALL = "ours, every page compared for near copies (diagnostic)"


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
    measured = revision()  # (the code the run measures: taken before it runs)
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
        f"Revision {measured}; seed {args.seed}; {args.articles} articles asked; "
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
            "revision": measured,
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
