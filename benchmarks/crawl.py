"""Crawl speed with cleaning off and on: the demo site scaled up, one run, side by side.

Usage::

    python benchmarks/crawl.py [--articles 800] [--runs 1] [--setting NAME=VALUE ...]

The demo site (``demo_site``) is built from ``--articles`` articles per language: its own
32 and, beyond them, articles made of paragraphs drawn at random from all of them (new
titles and dates; a seeded generator, so every run crawls the same web), written to a
temporary content folder. The whole web is served on loopback and ``scrapy crawl demo``
(``example_project``) runs against it in a subprocess: with ``WEBCLEAN_ENABLED=False``, with
cleaning on as installed (worker processes: ``WEBCLEAN_WORKERS`` at its default), and with
cleaning on in the crawl's own process (``WEBCLEAN_WORKERS=0``), ``--runs`` times each.
Two scenarios: *pages only* (``ITEM_PIPELINES={}``: the example project's ImagesPipeline
left out, the add-on's pipelines stay), where the crawls fetch the same pages and the
difference is the cleaning; and *with images* (``--image-runs``), the example project as it
is, where cleaning also saves the ad and template image downloads.

Reported per run: HTML pages per second over the crawl's own elapsed time (pages = items
that reached the pipelines), responses, items exported, peak memory (Scrapy's
``memusage/max``), and the longest time the event loop was blocked (``LoopLag`` in the
example project: a 10 ms timer and how late it fires). Targets (issue 7): with cleaning on,
at least 70% of the pages per second with it off, and no event-loop stall over 250 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PROJECT = ROOT / "example_project"
sys.path.insert(0, str(ROOT))

from demo_site.content import CONTENT_DIR, load_articles  # noqa: E402
from demo_site.server import DemoServer  # noqa: E402

SEED = 7


def scaled_content(per_language: int, out: Path, seed: int = SEED) -> None:
    """Write ``per_language`` articles per language under ``out`` (see the module doc)."""
    articles = load_articles()
    rng = random.Random(seed)
    for lang in ("en", "zh"):
        own = [a for a in articles if a.lang == lang]
        pool = [p for a in own for p in a.paragraphs]
        folder = out / lang
        folder.mkdir(parents=True, exist_ok=True)
        for n in range(1, per_language + 1):
            base = own[(n - 1) % len(own)]
            if n <= len(own):
                text = (CONTENT_DIR / lang / f"{base.id}.txt").read_text("utf-8")
            else:
                title = f"{base.title} ({n})" if lang == "en" else f"{base.title}（{n}）"
                date = f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
                head = f"title: {title}\ndate: {date}\nauthor: {base.author}\n"
                body = "\n\n".join(rng.sample(pool, rng.randint(4, 7)))
                text = f"{head}category: {base.category}\n\n{body}\n"
            (folder / f"{lang}-{n:02d}.txt").write_text(text, "utf-8")


def crawl(server: DemoServer, work: Path, name: str, settings: list[str]) -> dict[str, Any]:
    stats_file = work / f"{name}.stats.json"
    command = [
        sys.executable, "-m", "scrapy", "crawl", "demo",
        "-a", f"port={server.port}",
        "-O", str(work / f"{name}.jsonl"),
        "-s", f"DEMO_STATS_FILE={stats_file}",
        "-s", f"LOG_FILE={work / f'{name}.log'}",
        "-s", f"IMAGES_STORE={work / f'{name}-images'}",
        "-s", "DEMO_LOOP_LAG=True",
        "-s", "LOG_LEVEL=INFO",
    ]  # fmt: skip
    for setting in settings:
        command += ["-s", setting]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    started = time.monotonic()
    before = resource.getrusage(resource.RUSAGE_CHILDREN), resource.getrusage(resource.RUSAGE_SELF)
    done = subprocess.run(command, cwd=PROJECT, env=env, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN), resource.getrusage(resource.RUSAGE_SELF)
    wall = time.monotonic() - started
    # The crawl's CPU (its worker processes included: they are waited for) and the demo
    # server's (threads of this process), which share the machine's cores.
    crawl_cpu = sum(getattr(after[0], f) - getattr(before[0], f) for f in ("ru_utime", "ru_stime"))
    server_cpu = sum(getattr(after[1], f) - getattr(before[1], f) for f in ("ru_utime", "ru_stime"))
    if done.returncode != 0 or not stats_file.exists():
        raise RuntimeError(f"crawl {name} failed: {done.stderr[-2000:]}")
    stats = json.loads(stats_file.read_text("utf-8"))
    elapsed = float(stats["elapsed_time_seconds"])
    responses = int(stats.get("response_received_count", 0))
    pages = int(stats.get("webclean/items/in", stats.get("item_scraped_count", 0)))
    return {
        "run": name,
        "pages": pages,
        "responses": responses,
        "items": int(stats.get("item_scraped_count", 0)),
        "elapsed_s": round(elapsed, 2),
        "wall_s": round(wall, 2),
        "pages_per_s": round(pages / elapsed, 1),
        "peak_mb": round(int(stats.get("memusage/max", 0)) / 2**20, 1),
        "worker_peak_mb": round(int(stats.get("webclean/workers/max_rss", 0)) / 2**20, 1),
        "loop_lag_max_ms": float(stats.get("demo/loop_lag_max_ms", -1)),
        "stalls_over_250ms": int(stats.get("demo/loop_stalls_over_250ms", -1)),
        "crawl_cpu_s": round(crawl_cpu, 1),
        "server_cpu_s": round(server_cpu, 1),
    }


def table(rows: list[dict[str, Any]]) -> str:
    head = (
        "| run | cleaning | pages | responses | items exported | elapsed | pages/s | "
        "peak memory (crawl + worker) | longest loop stall | stalls > 250 ms | crawl CPU | "
        "server CPU |"
    )
    lines = [head, "|" + "---|" * 12]
    for row in rows:
        lines.append(
            f"| {row['run']} | {row['cleaning']} | {row['pages']:,} | {row['responses']:,} | "
            f"{row['items']:,} | "
            f"{row['elapsed_s']:.1f} s | {row['pages_per_s']:.1f} | {row['peak_mb']:.0f} + {row['worker_peak_mb']:.0f} MB | "
            f"{row['loop_lag_max_ms']:.0f} ms | {row['stalls_over_250ms']} | "
            f"{row['crawl_cpu_s']:.1f} s | {row['server_cpu_s']:.1f} s |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--articles", type=int, default=800, help="articles per language")
    parser.add_argument("--runs", type=int, default=1, help="crawls of each kind")
    parser.add_argument(
        "--setting", action="append", default=[], help="extra -s NAME=VALUE for both crawls"
    )
    parser.add_argument(
        "--image-runs", type=int, default=1, help="runs of each kind with image downloads on"
    )
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="webclean-crawl-") as tmp:
        work = Path(tmp)
        scaled_content(args.articles, work / "content")
        with DemoServer(content_dir=work / "content") as server:
            pages = sum(
                1 for r in server.site.resources.values() if r.content_type.startswith("text/html")
            )
            print(f"demo web: {pages:,} HTML pages ({args.articles} articles a language)")
            variants = [
                ("off", ["WEBCLEAN_ENABLED=False"]),
                ("on", []),
                ("on, inline", ["WEBCLEAN_WORKERS=0"]),
            ]
            scenarios = [("pages only", ["ITEM_PIPELINES={}"], args.runs)]
            if args.image_runs:
                scenarios.append(("with images", [], args.image_runs))
            for scenario, base, runs in scenarios:
                for n in range(1, runs + 1):
                    for cleaning, extra in variants:
                        name = f"{cleaning.replace(', ', '-')}-{n}" + (
                            "-images" if base == [] else ""
                        )
                        row = crawl(server, work, name, [*base, *extra, *args.setting])
                        row["cleaning"], row["scenario"] = cleaning, scenario
                        rows.append(row)
                        print(
                            f"  {scenario}, {name}: {row['pages_per_s']} pages/s, "
                            f"stall {row['loop_lag_max_ms']} ms",
                            file=sys.stderr,
                        )
    report = [
        "# Crawl speed, cleaning off and on",
        "",
        f"Command: `python benchmarks/crawl.py --articles {args.articles} --runs {args.runs} "
        f"--image-runs {args.image_runs}`; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
        f"; {os.cpu_count()} CPUs (shared machine); demo web of {pages:,} HTML pages.",
        "",
    ]
    summary: dict[str, Any] = {}
    for scenario in dict.fromkeys(row["scenario"] for row in rows):
        mine = [row for row in rows if row["scenario"] == scenario]
        off = statistics.median(r["pages_per_s"] for r in mine if r["cleaning"] == "off")
        on = statistics.median(r["pages_per_s"] for r in mine if r["cleaning"] == "on")
        inline = statistics.median(r["pages_per_s"] for r in mine if r["cleaning"] == "on, inline")
        stall = max(r["loop_lag_max_ms"] for r in mine if r["cleaning"] != "off")
        summary[scenario] = {"off": off, "on": on, "inline": inline, "stall_ms": stall}
        report += [
            f"## {scenario.capitalize()}",
            "",
            table(mine),
            "",
            f"Median pages/s with cleaning on / off: {on:.1f} / {off:.1f} = **{on / off:.2f}** "
            f"(target >= 0.70: {'met' if on / off >= 0.70 else 'NOT met'}); longest "
            f"event-loop stall with cleaning on: **{stall:.0f} ms** (target <= 250: "
            f"{'met' if stall <= 250 else 'NOT met'}); cleaning in the crawl's process instead "
            f"of worker processes: {inline:.1f} pages/s ({inline / off:.2f} of off).",
            "",
        ]
    text = "\n".join(report)
    print()
    print(text)
    results = ROOT / "benchmarks" / "results"
    (results / "crawl.md").write_text(text, "utf-8")
    data = json.dumps({"rows": rows, "summary": summary}, indent=2)
    (results / "crawl.json").write_text(data, "utf-8")
    if args.json is not None:
        args.json.write_text(data, "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
