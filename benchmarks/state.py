"""Learned-state backends: the near-duplicate index over memory, SQLite (the crawl's JOBDIR)
and Redis at 100,000 documents, the JOBDIR reload, and the demo crawl with memory and
Redis state.

Usage::

    python benchmarks/state.py ../shared/datasets [--docs 100000] [--batch 64]
        [--single-docs 20000] [--crawl-runs 3] [--redis-url URL] [--skip-crawl]
        [--json out.json]

The argument is the shared ``datasets/`` folder, read only for real sentences (the loaders
of ``benchmarks/dedup.py``). Without ``--redis-url`` a private ``redis-server`` is started
on a free loopback port (no persistence) and stopped at the end; with it, only keys under
this benchmark's prefix and the demo crawl's (``demo:webclean:``) are written and deleted.

Documents: ``synthetic()`` texts of about 1,000 characters from real sentences, each
generated from its own seed, so every run sees the same stream and a copy can be made of
any earlier document without keeping it. About 5% of the stream are exact copies of an
earlier document and 5% near copies (truncated to 70-95%, or 0.5% of the letters changed).

Runs, each on a fresh index:

* ``memory``: the default in-process store, ``check_and_add`` one document at a time, in a
  fresh process (a timed pass, then a pass under tracemalloc for the memory it keeps);
* ``sqlite``: ``SqliteBackend`` in a temporary file (commits every second, as in a crawl);
* ``redis, one at a time``: ``check_and_add`` (``--single-docs`` documents: it is slow);
* ``redis, batched``: ``check_many`` over ``--batch`` documents (the crawl's dedup batch).

Wall and CPU seconds are taken around the index calls only (``time.perf_counter()`` and
``time.process_time()``: the client's CPU; Redis's own is read from ``INFO cpu``). Every
run's answers are compared, document by document, with the memory run's.

JOBDIR reload: the SQLite file of the ``sqlite`` run is closed, then opened again under a
new index, and 1,000 indexed documents are checked: each must come back as an exact copy.

Crawl: ``scrapy crawl demo`` of ``example_project`` against the demo site, alternating
``WEBCLEAN_STATE=memory`` and ``WEBCLEAN_STATE=redis`` ``--crawl-runs`` times each.

The code, one job a module: ``state_index.py`` makes the stream and runs the indexes and
the reload, ``state_crawl.py`` runs the crawls and the private Redis server, this file
reads the arguments and writes the report.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # scrapy_webclean, demo_site
sys.path.insert(0, str(Path(__file__).resolve().parent))  # dedup.py's helpers

from state_crawl import crawl_both, redis_server
from state_index import (
    make_stream,
    memory_child,
    memory_run,
    redis_run,
    reload_run,
    sqlite_run,
)

ROOT = Path(__file__).resolve().parents[1]
#: The targets of issue 6.
TARGET_REDIS_DOCS_PER_SECOND = 1_000
TARGET_RELOAD_SECONDS = 5.0


# -- report ----------------------------------------------------------------------------


def _ratio(value: float, reference: float) -> str:
    return f"{value / reference:.2f}x" if reference else "–"


def index_table(rows: list[dict[str, Any]]) -> str:
    out = [
        "| backend | documents | docs/s (wall) | ÷ memory | docs per CPU-s (client) "
        "| Redis CPU s | round trips per doc | kept per doc | copies found | answers ≠ memory |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    reference = rows[0]["docs_per_second"]
    for r in rows:
        if "python_bytes_per_doc" in r:
            kept = f"{r['python_bytes_per_doc']:,.0f} B Python (tracemalloc)"
        elif "file_bytes_per_doc" in r:
            kept = f"{r['file_bytes_per_doc']:,.0f} B file (db + wal)"
        else:
            kept = f"{r['redis_bytes_per_doc']:,.0f} B Redis used_memory"
        redis_cpu = f"{r['redis_cpu_seconds']:.1f}" if "redis_cpu_seconds" in r else "–"
        trips = f"{r['round_trips_per_doc']:.3f}" if "round_trips_per_doc" in r else "–"
        differ = r["answers_differing_from_memory"]
        out.append(
            f"| {r['name']} | {r['docs']:,} | {r['docs_per_second']:,.0f} "
            f"| {_ratio(r['docs_per_second'], reference)} | {r['docs_per_cpu_second']:,.0f} "
            f"| {redis_cpu} | {trips} | {kept} | {r['copies_found']:,} of {r['copies']:,} "
            f"({r['originals_flagged']} originals flagged) "
            f"| {'–' if differ is None else differ} |"
        )
    return "\n".join(out)


def reload_table(r: dict[str, Any]) -> str:
    return "\n".join(
        [
            "| documents indexed | stored | open | open + first check | "
            f"{r['checks']:,} checks | found as exact copies | same first key |",
            "|---|---|---|---|---|---|---|",
            f"| {r['docs_indexed']:,} | {r['docs_stored']:,} | {r['open_seconds'] * 1000:.1f} ms "
            f"| {r['reload_seconds'] * 1000:.1f} ms | {r['checks_seconds']:.2f} s "
            f"({r['checks_seconds'] / r['checks'] * 1000:.2f} ms each) "
            f"| {r['found_exact']:,} of {r['checks']:,} | {r['found_with_first_key']:,} |",
        ]
    )


def crawl_table(runs: list[dict[str, Any]]) -> str:
    out = [
        "| run | state | responses | items exported | items dropped | elapsed (stats) "
        "| pages/s (stats elapsed) | wall | pages/s (wall) | crawl's Redis keys after | error |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for n, r in enumerate(runs, 1):
        if "responses" not in r:
            out.append(f"| {n} | {r['state']} | | | | | | | | | {r['error']} |")
            continue
        out.append(
            f"| {n} | {r['state']} | {r['responses']} | {r['items']} | {r['dropped']} "
            f"| {r['elapsed_seconds']:.2f} s | {r['pages_per_second']:.1f} "
            f"| {r['wall_seconds']:.2f} s | {r['pages_per_wall_second']:.1f} "
            f"| {r.get('redis_keys_after', '–')} | {r.get('error', '')} |"
        )
    return "\n".join(out)


def crawl_summary(runs: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    summary: dict[str, dict[str, Any]] = {}
    for state in ("memory", "redis"):
        good = [r for r in runs if r["state"] == state and "error" not in r]
        summary[state] = {
            "runs": len([r for r in runs if r["state"] == state]),
            "ok": len(good),
            "median_pages_per_second": (
                statistics.median(r["pages_per_second"] for r in good) if good else None
            ),
            "median_pages_per_wall_second": (
                statistics.median(r["pages_per_wall_second"] for r in good) if good else None
            ),
            "items": sorted({r["items"] for r in good}),
        }
    return summary


def _git_commit() -> str:
    try:
        completed = subprocess.run(
            ["git", "describe", "--always", "--dirty"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return completed.stdout.strip()


class Report:
    """Markdown printed as it is made, kept for the results file."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def __call__(self, text: str = "") -> None:
        print(text, flush=True)
        self.parts.append(text)

    def text(self) -> str:
        return "\n".join(self.parts) + "\n"


# -- main ------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, help="the shared datasets/ folder")
    parser.add_argument("--docs", type=int, default=100_000, help="documents per index run")
    parser.add_argument("--batch", type=int, default=64, help="documents per check_many call")
    parser.add_argument(
        "--single-docs",
        type=int,
        default=20_000,
        help="documents of the Redis one-at-a-time run (at most --docs)",
    )
    parser.add_argument("--crawl-runs", type=int, default=3, help="demo crawls per state")
    parser.add_argument("--redis-url", default=None, help="use this server (default: start one)")
    parser.add_argument("--skip-crawl", action="store_true")
    parser.add_argument("--json", type=Path, default=None, help="write all numbers here too")
    parser.add_argument("--memory-child", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.memory_child:
        memory_child(args.data, args.docs, args.memory_child)
        return 0

    started = time.time()
    count, single = args.docs, min(args.single_docs, args.docs)
    command = " ".join(["python", "benchmarks/state.py", *(argv or sys.argv[1:])])
    results: dict[str, Any] = {
        "command": command,
        "date": f"{datetime.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}",
        "python": sys.version.split()[0],
        "git": _git_commit(),
        "cpus": os.cpu_count(),
        "docs": count,
        "single_docs": single,
        "batch": args.batch,
    }
    with tempfile.TemporaryDirectory(prefix="webclean-state-bench-") as tmp:
        folder = Path(tmp)
        with redis_server(args.redis_url, folder) as url:
            results["redis"] = "private redis-server" if args.redis_url is None else url
            stream = make_stream(args.data)
            print(f"memory: {count:,} documents in a fresh process", file=sys.stderr)
            memory = memory_run(args.data, count, folder)
            runs = [memory]
            path = folder / "jobdir" / "webclean-state.sqlite3"
            runs.append(sqlite_run(stream, count, path))
            results["reload"] = reload_run(stream, count, path, memory.answers)
            runs.append(redis_run(stream, single, url, None, "redis, one at a time"))
            runs.append(redis_run(stream, count, url, args.batch, f"redis, batched ({args.batch})"))
            results["index"] = [
                {"name": r.name, **r.summary(stream, None if r is memory else memory.answers)}
                for r in runs
            ]
            crawls: list[dict[str, Any]] = []
            if not args.skip_crawl:
                crawls = crawl_both(url, args.crawl_runs, args.redis_url is None, folder)
                results["crawl"] = {"runs": crawls, "summary": crawl_summary(crawls)}
    results["runtime_seconds"] = time.time() - started

    report, failures = render(results)
    out_dir = ROOT / "benchmarks" / "results"
    out_dir.mkdir(exist_ok=True)
    (out_dir / "state.md").write_text(report.text(), encoding="utf-8")
    numbers = json.dumps(results, indent=2, default=str)
    (out_dir / "state.json").write_text(numbers, encoding="utf-8")
    if args.json:
        args.json.write_text(numbers, encoding="utf-8")
    for failure in failures:
        print(f"FAILED: {failure}", file=sys.stderr)
    return 1 if failures else 0


def render(results: dict[str, Any]) -> tuple[Report, list[str]]:
    """The Markdown report, and what went wrong (a correctness check that failed)."""
    rows, reload = results["index"], results["reload"]
    count, single = results["docs"], results["single_docs"]
    failures = []
    report = Report()
    report("# Learned-state backends\n")
    report(
        f"Command: `{results['command']}`; {results['date']}; python {results['python']}, "
        f"scrapy_webclean git {results['git']}, {results['cpus']} CPUs (shared machine); "
        f"Redis: {results['redis']}.\n"
    )
    report(
        f"## Near-duplicate index, {count:,} documents\n\n"
        "Synthetic ~1,000-character documents from real sentences (the zh set and the "
        "English set of `dedup.py`), 5% exact and 5% near copies of earlier ones; the same "
        "stream for every backend. docs/s: wall clock around the index calls; CPU: this "
        "process's only (the server's is the Redis CPU column). Kept per doc: memory = "
        "Python memory the index holds (tracemalloc, fresh process, after the last "
        "document); sqlite = database file and its WAL after the last commit; Redis = growth "
        "of `INFO memory` used_memory. The one-at-a-time Redis run indexes the first "
        f"{single:,} documents only (its answers are compared with the memory run's first "
        f"{single:,}). Originals flagged: originals that share one of the pool's very long "
        '"sentences" (unsplit paragraphs of up to 2,000 characters) with an earlier '
        "document, so are near copies by content.\n"
    )
    report(index_table(rows) + "\n")
    for row in rows[1:]:
        if row["answers_differing_from_memory"]:
            failures.append(
                f"{row['name']}: {row['answers_differing_from_memory']} answers differ from memory"
            )
    report("## JOBDIR reload\n")
    report(
        f"The SQLite file of the run above ({reload['docs_indexed']:,} documents indexed; exact "
        "copies are not stored again) closed, then opened by a new `SqliteBackend` under a new "
        f"`NearDuplicateIndex`, and {reload['checks']:,} indexed originals checked (`check`, "
        "nothing added): each must be found as an exact copy. The file was just written, so "
        "it is in the page cache.\n"
    )
    report(reload_table(reload) + "\n")
    if reload["found_exact"] != reload["checks"]:
        failures.append(
            f"JOBDIR reload: only {reload['found_exact']} of {reload['checks']} indexed "
            "documents found as exact copies"
        )
    batched = rows[-1]
    redis_met = batched["docs_per_second"] >= TARGET_REDIS_DOCS_PER_SECOND
    reload_met = reload["target_met"] and count >= 100_000
    reload_note = "" if count >= 100_000 else f" (only {count:,} documents indexed)"
    results["targets"] = {
        "redis_batched_docs_per_second": batched["docs_per_second"],
        "redis_batched_met": redis_met,
        "reload_seconds": reload["reload_seconds"],
        "reload_met": reload_met,
    }
    report("## Targets (issue 6)\n")
    report("| target | measured | met |\n|---|---|---|")
    report(
        f"| Redis-backed dedup ≥ {TARGET_REDIS_DOCS_PER_SECOND:,} documents/s from one process "
        f"with batching | {batched['docs_per_second']:,.0f} documents/s (batches of "
        f"{results['batch']}, wall) | {'yes' if redis_met else 'NO'} |"
    )
    report(
        f"| JOBDIR state reloads 100k indexed documents in < {TARGET_RELOAD_SECONDS:.0f} s "
        f"| {reload['reload_seconds']:.3f} s to open and answer a first check; all "
        f"{reload['checks']:,} checks {reload['open_seconds'] + reload['checks_seconds']:.2f} s"
        f"{reload_note} | {'yes' if reload_met else 'NO'} |\n"
    )
    if "crawl" in results:
        failures += render_crawl(report, results["crawl"])
    report(f"Total runtime: {results['runtime_seconds']:.0f} s")
    return report, failures


def render_crawl(report: Report, crawled: dict[str, Any]) -> list[str]:
    runs, summary = crawled["runs"], crawled["summary"]
    report("## Demo crawl, memory vs Redis state\n")
    report(
        "`scrapy crawl demo` (example_project) against the demo site on loopback, the two "
        "states alternating, the Redis keys of the crawl deleted before each run. Pages/s = "
        "the stats' `response_received_count` ÷ `elapsed_time_seconds` (the crawl from "
        "engine start to close); wall = the whole subprocess (Python start-up included).\n"
    )
    report(crawl_table(runs) + "\n")
    failures = [
        f"crawl {n} ({r['state']}): {r['error']}" for n, r in enumerate(runs, 1) if "error" in r
    ]
    mem, red = summary["memory"], summary["redis"]
    if not (mem["median_pages_per_second"] and red["median_pages_per_second"]):
        report(
            f"Crawls that finished: memory {mem['ok']} of {mem['runs']}, "
            f"Redis {red['ok']} of {red['runs']}.\n"
        )
        return failures
    equal = len(mem["items"]) == 1 and mem["items"] == red["items"]
    if not equal:
        failures.append(f"items exported differ: memory {mem['items']}, Redis {red['items']}")
    report(
        f"Median pages/s: memory {mem['median_pages_per_second']:.1f}, Redis "
        f"{red['median_pages_per_second']:.1f} "
        f"({_ratio(red['median_pages_per_second'], mem['median_pages_per_second'])} "
        f"of memory); wall: memory {mem['median_pages_per_wall_second']:.1f}, Redis "
        f"{red['median_pages_per_wall_second']:.1f}. Items exported: memory "
        f"{mem['items']}, Redis {red['items']}{' (equal)' if equal else ' (DIFFERENT)'}.\n"
    )
    return failures


if __name__ == "__main__":
    sys.exit(main())
