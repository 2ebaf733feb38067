"""Main-content extraction: scrapy_webclean against its peers, cross-validated by domain.

Usage::

    .venv/bin/python benchmarks/extraction.py ../shared/datasets/extract \\
        [--models DIR] [--sets scrapinghub,wcxb-dev,dragnet-gold,...] \\
        [--extractors ours,ours-heldin,trafilatura,...] [--limit N] \\
        [--json results.json] [--per-page out.jsonl] [--peers-from earlier.jsonl] \\
        [--take-turns] [--passes N]

The argument is the ``extract/`` folder of the shared datasets (its README defines the data
formats and the metrics); the sets are read by ``benchmarks/datasets.py`` and nothing of
them is copied. Everything runs in one process, one page at a time, and every extractor
sees the same pages in the same order: per set sorted by site, then by page id, as a crawl
of each site would deliver them.

Folds. Every page has a fold, ``0 .. 4``: a fixed hash of its registered domain
(``benchmarks/folds.py``; the Chinese sets, which have no real URLs, hash their site names).
With ``--models DIR``, ``ours`` is cross-validated: a page of fold ``k`` is cleaned with the
line model ``DIR/fold{k}.json``, trained on the other four folds only (by
``benchmarks/train_extraction.py``), so every figure of ``ours`` is a held-out figure.
``ours`` keeps one ``Cleaner`` per fold per set, fed its pages in crawl order: a site is
always in one fold, so the Cleaner still learns each site's template. Without
``--models``, ``ours`` runs the package's default options (``CleanOptions()``, whatever line
model they hold: none since the model became opt-in) and the report says its figures are
*not* cross-validated. ``--models`` needs ``scrapy_webclean.extraction.linemodel`` and
``CleanOptions.line_model``; without them it stops with an error, and ``ours-heldin`` and
``ours-rules`` both run the default options (the report says so).

Inputs. The ``ours*`` extractors get the raw page bytes (our loader decodes them). Every
peer gets the same ``str``: the bytes decoded by our loader (``decode_html(body,
None).text``) with a leading ``<?xml ...?>`` declaration removed (lxml refuses a ``str``
that declares an encoding), so that no peer loses by guessing the encoding differently.
Pages with a real URL pass it to the extractors that take one; the Chinese sets have none
and get a made-up ``http://<site>.<set>.invalid/<n>`` so that ``ours`` can tell sites apart.

Extractors (the default list leaves out the ones marked *optional*: slower or redundant
variants, still selectable with ``--extractors``):

* ``ours`` -- ``scrapy_webclean.Cleaner``, one per fold per set, cross-validated with
  ``--models`` (above);
* ``ours-precision``, ``ours-recall`` -- as ``ours`` (the same fold models), with
  ``CleanOptions(favor="precision")`` and ``favor="recall"``: the precision/recall knob
  (``WEBCLEAN_FAVOR``); each set's report gives the P, R and F1 of all three beside the
  peers' and checks the knob's target (``extraction_favor.py``);
* ``ours-heldin`` -- one ``Cleaner`` per set with the model shipped in the package
  (``CleanOptions(line_model=default_line_model())``), trained on all the dev data, so its
  figures are held-in (the ceiling of what training could fit); the default options when
  the package ships no model;
* ``ours-rules`` -- one ``Cleaner(CleanOptions(line_model=None))`` per set: the hand rules
  alone, no trained model;
* ``ours-stateless`` (optional) -- ``scrapy_webclean.clean_html``, one page at a time, default
  options; on the set without truth it runs beside ``ours`` whenever ``ours`` does;
* ``ours+blocks`` (optional) -- as ``ours``, plus the page's blocks (segmented, classified,
  links and images grouped by label through ``to_dict()``): what the crawl's pipeline pays
  per page;
* ``trafilatura`` -- ``extract(html, url=..., include_comments=False)``;
* ``trafilatura+comments`` (optional) -- ``extract(html, url=...)``, the library default;
* ``trafilatura-precision`` (optional) -- ``extract(..., include_comments=False,
  favor_precision=True)``;
* ``trafilatura-recall`` (optional) -- ``extract(..., include_comments=False,
  favor_recall=True)``;
* ``readability`` -- readability-lxml ``Document(html).summary()``, then the text of that
  HTML with one line per block element (the conversion is inside the timed call);
* ``justext`` -- paragraphs not classified as boilerplate, one per line; the English
  stoplist on the English sets; jusText has no Chinese stoplist, so on Chinese sets it runs
  in its language-independent mode (empty stoplist, ``stopwords_low = stopwords_high = 0``:
  length and link density only) -- a handicap to keep in mind;
* ``gne`` -- ``GeneralNewsExtractor().extract(html)["content"]``;
* ``resiliparse`` -- ``resiliparse.extract.html2text.extract_plain_text(html,
  main_content=True)`` (its parse is inside the timed call);
* ``lxml`` -- the floor: ``lxml.html.fromstring(html)``; its CPU time is the parse alone and
  its "prediction" is ``text_content()`` of the whole page (scripts and styles included).

Timing: ``time.process_time()`` around the extractor call only (no IO, decoding or
scoring). Each extractor runs through a whole set before the next one starts, with its code
and data warm in the CPU's caches; ``--take-turns`` makes them take turns page by page
instead, each starting every page with colder caches. ``--passes N`` makes the whole run N
times, with fresh extractors each time, and keeps each page's least time (on a machine
others load, the time they added to a pass drops out; the scores are the first pass's).
Before a set, each extractor makes untimed warm-up calls (imports, dictionaries, caches,
the fold models) on a throw-away instance: on the first page of each fold for ``ours*``, on
the first page for the peers. Then the process's memo caches (ours and the peers', per
text or per host: ``memo_caches.py``) are emptied, so that no row and no pass reuses what
one before it memoized on the same pages. (``--take-turns`` cannot do that: there a row
still finds the memos of the rows that cleaned the same page just before it.) An
exception counts as an error and an empty prediction.

Scoring (``benchmarks/metrics.py``), per page, then over pages:

* token F1 (4-token shingles): per-page P and R averaged over pages, F1 = harmonic mean of
  the averages; as in the scrapinghub benchmark's script, a page where an extractor returns
  nothing has no precision (left out of the P average) and recall 0;
* WCXB's metric (``word_f1``): per-page word F1 over ``\\w+`` tokens of the lower-cased
  texts, averaged over pages (an empty prediction scores 0); shown on ``wcxb-dev``, overall
  and per page type, with rs-trafilatura's published dev figures as a reference row; the
  set's table also gives it over every page, those with a blank truth too (there, 1 for an
  empty prediction, else 0: how the issue's WCXB dev figures seem to have been counted);
* character F1 (LCS, whitespace removed), P and R averaged as for tokens: Chinese sets only;
* snippet scoring (``snippet_counts``), the method of trafilatura's own evaluation: on
  ``wcxb-dev``, whose truths list snippets the text must hold ("with") and must not
  ("without"), the snippets found and missed, summed over every page run; P, R, F1 and
  accuracy of the sums, overall and per page type.

On ``dragnet-gold`` the truth is a gold file's main text: the readers' comments its
annotators marked apart (``dragnet_gold.split_comments``) are scored in a second table only,
token F1 against main text and comments together (how the set was scored before the marker
was read: 227 of its 881 files mark comments).

The headline metric is WCXB's on ``wcxb-dev``, token F1 on the other English sets and
character F1 on the Chinese sets. Pages whose ground truth is empty are run and timed but
left out of the scores (listed as notes), except in that one column. Per set the report gives each extractor's
figures, empty pages, errors, median CPU ms and its ratio to trafilatura's and to the lxml
parse's, p95 and max ms; then the headline metric per fold (all extractors, so the CV
spread of ``ours`` shows beside the peers' spread over the same folds: mean, standard
deviation and range of the five fold figures); on ``wcxb-dev`` the same per page type. The
report ends with the issue 20 targets, met or not, for ``ours`` (and, for reference, the
held-in and rules-only figures).

``--per-page FILE`` writes one JSON line per page and set: ``set``, ``id``, ``site``,
``domain``, ``fold``, ``page_type``, ``url``, ``scored`` and ``extractors``, a map from
extractor to ``ms``, ``chars``, ``empty``, ``error`` and, on scored pages, ``token_p``,
``token_r``, ``token_f1``, ``wcxb_f1`` (and ``char_p``, ``char_r``, ``char_f1`` on Chinese
sets; ``snippets``, ``[tp, fn, fp, tn]``, on ``wcxb-dev``). ``--json FILE`` writes every
aggregate. ``--peers-from FILE`` reads the peers (every extractor of an earlier run's
``--per-page`` file that is not ``ours*`` and not named by ``--extractors``) from that file
instead of running them, so that a change to ``ours`` can be judged in a few minutes
against the peers' figures; their CPU times are that run's (each set's notes say so), so
the time targets are only checked properly in a run of everything, and the
new ``--per-page`` file carries those stored records on.

The code, one job a module: ``extractors.py`` builds and times the extractors (``ours`` with
its fold models, the peers, the parse floor); ``extraction_runs.py`` runs them over a set
and scores the pages (and writes and reads the per-page records); ``extraction_report.py``
writes each set's Markdown (its tables from ``report_tables.py``, the precision/recall knob's
from ``extraction_favor.py``, its snippet scoring from
``extraction_snippets.py``, its page types from ``extraction_types.py``);
``extraction_targets.py`` checks issue 20's targets; this file
reads the arguments and the sets and puts the report together.
"""

from __future__ import annotations

import argparse
import json
import logging
import platform
import shlex
import sys
import time
import warnings
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

# The benchmarks folder is not a package: make its modules importable however this is run.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from datasets import ALL_SETS, LOADERS, Dataset
from extraction_report import data_notes, set_report, template_report
from extraction_runs import PageResult, per_page_records, run_extractors, stored_results
from extraction_targets import targets_report
from extractors import ALL_EXTRACTORS, DEFAULT_EXTRACTORS, ours_setup, peer_html


def _git_state() -> str:
    """HEAD of the repository this script lives in, and whether the package has local edits."""
    import subprocess

    repo = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=repo, capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "scrapy_webclean"],
            cwd=repo,
            capture_output=True,
            text=True,
        ).stdout.strip()
    except OSError:
        return "unknown"
    return f"{head}{' + uncommitted changes in scrapy_webclean/' if dirty else ''}" or "unknown"


def _versions() -> dict[str, str]:
    found = {"python": platform.python_version(), "scrapy_webclean git": _git_state()}
    for dist in (
        "scrapy-webclean",
        "trafilatura",
        "readability-lxml",
        "justext",
        "gne",
        "resiliparse",
        "lxml",
    ):
        try:
            found[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            found[dist] = "missing"
    return found


def _csv(value: str, allowed: Sequence[str], what: str) -> list[str]:
    items = [v.strip() for v in value.split(",") if v.strip()]
    unknown = [v for v in items if v not in allowed]
    if unknown:
        raise SystemExit(f"unknown {what}: {', '.join(unknown)} (choose from {', '.join(allowed)})")
    return items


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("data", type=Path, help="the datasets' extract/ folder")
    parser.add_argument(
        "--models",
        type=Path,
        default=None,
        help="folder of fold{k}.json line models, each trained without fold k: "
        "cross-validates `ours`",
    )
    parser.add_argument("--sets", default=",".join(ALL_SETS))
    parser.add_argument(
        "--extractors",
        default=",".join(DEFAULT_EXTRACTORS),
        help=f"comma-separated, from {', '.join(ALL_EXTRACTORS)}",
    )
    parser.add_argument("--limit", type=int, default=None, help="first N pages per set")
    parser.add_argument("--json", type=Path, default=None, help="write all numbers here")
    parser.add_argument(
        "--per-page", type=Path, default=None, help="JSON lines, one per page and set"
    )
    parser.add_argument(
        "--peers-from",
        type=Path,
        default=None,
        help="an earlier run's --per-page file: the peers in it that --extractors does not "
        "name are read from it instead of run (their CPU times are that run's)",
    )
    parser.add_argument(
        "--take-turns",
        action="store_true",
        help="extractors take turns page by page (colder caches) instead of one set each",
    )
    parser.add_argument(
        "--passes",
        type=int,
        default=1,
        help="time every page N times, fresh extractors each pass, and keep its least "
        "time (the scores are the first pass's)",
    )
    args = parser.parse_args(argv)
    if args.passes < 1:
        parser.error("--passes must be at least 1")
    sets = _csv(args.sets, ALL_SETS, "set")
    extractors = _csv(args.extractors, ALL_EXTRACTORS, "extractor")
    setup = ours_setup(args.models)

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    logging.disable(logging.WARNING)  # peers log per-page warnings; they are not results
    warnings.simplefilter("ignore")

    started = time.perf_counter()
    cpu_started = time.process_time()
    report: dict[str, Any] = {
        "command": shlex.join([sys.executable, *sys.argv]),
        "versions": _versions(),
        "ours": {
            "cross_validated": setup.cross_validated,
            "models": str(setup.models_dir) if setup.models_dir else None,
            "line_model_support": setup.line_model_support,
            "shipped_model": setup.shipped_model,
            "default_options_model": setup.default_model,
        },
        "sets": {},
    }
    per_page_fh = args.per_page.open("w", encoding="utf-8") if args.per_page else None
    markdown = [
        "# Main-content extraction",
        "",
        setup.describe(),
        "",
        ", ".join(f"{k} {v}" for k, v in report["versions"].items())
        + ". CPU ms per page from time.process_time() around the extractor call"
        + (
            f" (a page's least over {args.passes} passes, fresh extractors each pass; "
            "process-wide caches stay warm after the first)"
            if args.passes > 1
            else ""
        )
        + "; token and "
        "char F1: P and R averaged over pages, F1 = harmonic mean of the averages; WCXB "
        "metric: mean of per-page word F1s. Folds: 5, by registered domain "
        "(benchmarks/folds.py).",
        "",
    ]
    loaded: dict[str, Dataset] = {}
    all_results: dict[str, dict[str, list[PageResult]]] = {}
    try:
        for set_name in sets:
            folder = args.data / set_name
            if not folder.is_dir():
                log(f"{set_name}: {folder} not found, skipped")
                continue
            dataset = LOADERS[set_name](folder)
            if args.limit is not None:
                dataset.pages = dataset.pages[: args.limit]
            names = extractors
            if not dataset.has_truth:
                names = [n for n in extractors if n in ("ours", "ours-stateless")]
                if "ours" in names and "ours-stateless" not in names:
                    names.append("ours-stateless")
            log(f"{set_name}: {len(dataset.pages)} pages, extractors: {', '.join(names)}")
            if not names or not dataset.pages:
                continue
            htmls = [peer_html(p.body) for p in dataset.pages]
            dataset.notes.extend(data_notes(dataset))
            results = run_extractors(
                names, dataset, htmls, log, args.take_turns, setup, args.passes
            )
            if args.peers_from is not None and dataset.has_truth:
                stored, missing = stored_results(args.peers_from, dataset, names)
                results.update(stored)
                if stored:
                    dataset.notes.append(
                        f"{', '.join(stored)} read from {args.peers_from} (an earlier run: "
                        "their CPU times and ratios are from that run)"
                    )
                if missing:
                    dataset.notes.append(
                        f"{', '.join(missing)} in {args.peers_from} without every page: left out"
                    )
            if per_page_fh is not None:
                for rec in per_page_records(dataset, results):
                    per_page_fh.write(json.dumps(rec, ensure_ascii=False))
                    per_page_fh.write("\n")
            if dataset.has_truth:
                text, data = set_report(dataset, results, setup)
                loaded[set_name] = dataset
                all_results[set_name] = results
            else:
                text, data = template_report(dataset, results)
            markdown.append(text)
            report["sets"][set_name] = data
    finally:
        if per_page_fh is not None:
            per_page_fh.close()
    if all_results:
        text, targets = targets_report(loaded, all_results)
        markdown.append(text)
        report["targets"] = targets
    wall = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    report["runtime_s"] = {"wall": wall, "cpu": cpu}
    markdown.append(f"Total runtime: {wall:.0f} s wall, {cpu:.0f} s CPU (all sets, with scoring).")
    print("\n".join(markdown))
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2, ensure_ascii=False), encoding="utf-8")
    log(f"done in {wall:.0f} s")
    return 0


__all__ = ["main"]

if __name__ == "__main__":
    raise SystemExit(main())
