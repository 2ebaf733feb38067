"""The garbage collector's share of the crawl's per-page work: cleaning a page and building
its item (``integration.workers.clean_page``, blocks included, as ``CleanPipeline`` asks).

Usage::

    .venv/bin/python benchmarks/gc_share.py ../shared/datasets/extract \\
        [--sets dragnet-gold,wcxb-dev,scrapinghub]

Two ways of pausing the cyclic collector (``gcpause.gc_paused``), each run over a set's
pages in crawl order with one ``Cleaner``, each in a process of its own (the collector's
counts are the process's):

- *the page's whole work*: ``clean_page`` as the crawl runs it, paused until the item is
  made;
- *the cleaning only*: the same work with the pause inside ``Cleaner.clean`` alone (the
  crawl's way before 35390b6), so the collector runs while the item's blocks are built,
  with the page model alive.

Per set and way: CPU seconds of the pages' work, CPU seconds inside the collector (timed
with ``gc.callbacks``), its share, per page, and the collections of each generation. The
collector's time is what the two ways differ in; the totals also carry the machine's noise.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

WAYS = ("whole", "cleaning")
WAY_LABEL = {"whole": "the page's whole work", "cleaning": "the cleaning only"}
DEFAULT_SETS = ("dragnet-gold", "wcxb-dev", "scrapinghub")
#: Pages cleaned first and left out (the models load, the caches warm).
WARM_UP_PAGES = 10


def measure(data: Path, set_name: str, way: str) -> dict[str, object]:
    """Run one set one way in this process; the figures as a dict."""
    import gc

    from datasets import load_set

    from scrapy_webclean import Cleaner
    from scrapy_webclean.integration import workers

    # (the cleaning only: the undecorated function, with Cleaner.clean's own pause alone)
    clean_page = workers.clean_page if way == "whole" else workers.clean_page.__wrapped__

    def run(cleaner: Cleaner, body: bytes, url: str | None) -> object:
        return clean_page(cleaner, body, url, None, True)

    pages = load_set(data, set_name).pages
    warm = Cleaner()
    for page in pages[:WARM_UP_PAGES]:
        run(warm, page.body, page.url)
    cleaner = Cleaner()
    seconds = [0.0, 0.0, 0.0]
    counts = [0, 0, 0]
    started = [0.0]

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[0] = time.process_time()
        else:
            seconds[info["generation"]] += time.process_time() - started[0]
            counts[info["generation"]] += 1

    gc.callbacks.append(watch)
    begin = time.process_time()
    for page in pages:
        run(cleaner, page.body, page.url)
    total = time.process_time() - begin
    gc.callbacks.remove(watch)
    return {
        "set": set_name,
        "way": way,
        "pages": len(pages),
        "cpu_s": total,
        "gc_s": sum(seconds),
        "gc_s_by_generation": seconds,
        "collections": counts,
    }


def table(rows: list[dict[str, object]]) -> str:
    lines = [
        "| set | collector paused over | pages | CPU s | collector s | collector share | "
        "collector ms / page | collections (gen 0 / 1 / 2) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        pages = int(str(row["pages"]))
        cpu, gc_s = float(str(row["cpu_s"])), float(str(row["gc_s"]))
        counts = row["collections"]
        assert isinstance(counts, list)
        lines.append(
            f"| {row['set']} | {WAY_LABEL[str(row['way'])]} | {pages} | {cpu:.1f} | "
            f"{gc_s:.2f} | {gc_s / cpu:.1%} | {1000 * gc_s / pages:.2f} | "
            f"{' / '.join(str(c) for c in counts)} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, help="the datasets' extract/ folder")
    parser.add_argument("--sets", default=",".join(DEFAULT_SETS))
    parser.add_argument("--one", nargs=2, metavar=("SET", "WAY"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(measure(args.data, args.one[0], args.one[1])))
        return 0
    rows = []
    for set_name in (s for s in args.sets.split(",") if s):
        for way in WAYS:
            done = subprocess.run(
                [sys.executable, __file__, str(args.data), "--one", set_name, way],
                capture_output=True,
                text=True,
                check=True,
            )
            rows.append(json.loads(done.stdout.strip().splitlines()[-1]))
            print(f"  {set_name} {way} done", file=sys.stderr)
    print("# The garbage collector's share of a page's work in the crawl\n")
    print(f"(`benchmarks/gc_share.py {args.data}`; one process per row.)\n")
    print(table(rows))
    for set_name in dict.fromkeys(str(r["set"]) for r in rows):
        mine = {str(r["way"]): r for r in rows if r["set"] == set_name}
        if len(mine) == 2:
            whole, before = (float(str(mine[w]["gc_s"])) for w in WAYS)
            print(
                f"\n{set_name}: the collector's time with the page-long pause is "
                f"{whole / before:.2f}x its time with the pause over the cleaning only."
                if before
                else ""
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
