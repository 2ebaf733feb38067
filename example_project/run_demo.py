"""Run the whole demo: serve the offline demo web, crawl it with cleaning on, summarise.

Usage (from the repository root)::

    python example_project/run_demo.py --out cleaned.jsonl

The demo server runs in this process on a free port; the crawl is a real
``scrapy crawl demo`` in a subprocess (cwd ``example_project/``), whose log goes
to ``demo-crawl.log`` while the console shows only progress dots and a summary.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

PROJECT_DIR = Path(__file__).resolve().parent
REPO_ROOT = PROJECT_DIR.parent

if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from demo_site.server import DemoServer  # noqa: E402 - needs the path set above


def crawl_command(port: int, out: Path, stats_file: Path, settings: list[str]) -> list[str]:
    """The ``scrapy crawl`` command line for one demo run."""
    command = [
        sys.executable, "-m", "scrapy", "crawl", "demo",
        "-a", f"port={port}",
        "-O", str(out),
        "-s", f"DEMO_STATS_FILE={stats_file}",
    ]  # fmt: skip
    for setting in settings:
        command += ["-s", setting]
    return command


def run_crawl(command: list[str], log_path: Path) -> int:
    """Run the crawl, printing a dot per second; return its exit code."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            command, cwd=PROJECT_DIR, env=env, stdout=log, stderr=subprocess.STDOUT
        )
        try:
            while True:
                try:
                    return process.wait(timeout=1)
                except subprocess.TimeoutExpired:
                    print(".", end="", flush=True)
        except KeyboardInterrupt:
            # A terminal Ctrl+C reaches Scrapy too and it shuts down cleanly; a
            # second SIGINT would force an unclean stop, so only nudge it late.
            for nudge in (None, signal.SIGINT, signal.SIGKILL):
                if nudge is not None and process.poll() is None:
                    process.send_signal(nudge)
                try:
                    process.wait(timeout=10)
                    break
                except subprocess.TimeoutExpired:
                    continue
            raise


def count_lines(path: Path) -> int | None:
    """Non-empty lines of the output file, or ``None`` if it was not written."""
    if not path.exists():
        return None
    with path.open("rb") as handle:
        return sum(1 for line in handle if line.strip())


def summarise(stats: dict[str, Any], written: int | None, elapsed: float) -> list[str]:
    """Human-readable summary lines."""
    dropped = int(stats.get("item_dropped_count", 0))
    lines = [
        f"Pages fetched:     {stats.get('demo/html_pages', 0)}"
        f" (of {stats.get('response_received_count', 0)} responses)",
        f"Items written:     {written if written is not None else 'none (no output file)'}",
        f"Items dropped:     {dropped}",
    ]
    for key in sorted(stats):
        if key.startswith("item_dropped_reasons_count/"):
            lines.append(f"  {key.split('/', 1)[1]}: {stats[key]}")
    webclean = [key for key in sorted(stats) if key.startswith("webclean/")]
    if webclean:
        lines.append("Cleaning stats:")
        lines += [f"  {key}: {stats[key]}" for key in webclean]
    downloaded = int(stats.get("file_status_count/downloaded", 0))
    cached = int(stats.get("file_status_count/uptodate", 0))
    lines.append(f"Images downloaded: {downloaded} (+{cached} already in the image store)")
    lines.append(f"Elapsed:           {elapsed:.1f} s")
    return lines


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the process exit code."""
    parser = argparse.ArgumentParser(
        description="Serve the demo web and crawl it with cleaning on."
    )
    parser.add_argument("--out", type=Path, default=Path("cleaned.jsonl"), help="JSON lines output")
    parser.add_argument("--log", type=Path, default=Path("demo-crawl.log"), help="Scrapy log file")
    parser.add_argument(
        "--port", type=int, default=None, help="demo server port (default: random free)"
    )
    parser.add_argument(
        "-s",
        "--set",
        dest="settings",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="extra Scrapy setting for the crawl (repeatable)",
    )
    args = parser.parse_args(argv)
    out = args.out.resolve()
    log_path = args.log.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    log_path.parent.mkdir(parents=True, exist_ok=True)

    with tempfile.TemporaryDirectory(prefix="webclean-demo-") as tmp:
        stats_file = Path(tmp) / "stats.json"
        with DemoServer(args.port) as server:
            print(f"Demo site serving on port {server.port}; crawling", end="", flush=True)
            started = time.monotonic()
            try:
                code = run_crawl(
                    crawl_command(server.port, out, stats_file, args.settings), log_path
                )
            except KeyboardInterrupt:
                print("\ninterrupted")
                return 130
            elapsed = time.monotonic() - started
        print(" done")
        stats: dict[str, Any] = (
            json.loads(stats_file.read_text("utf-8")) if stats_file.exists() else {}
        )

    written = count_lines(out)
    print(f"Output: {out}")
    print(f"Log:    {log_path}")
    for line in summarise(stats, written, elapsed):
        print(line)

    problems = []
    if code != 0:
        problems.append(f"scrapy exited with code {code}")
    if not stats:
        problems.append("no stats were written (the crawl did not finish)")
    elif stats.get("finish_reason") != "finished":
        problems.append(f"finish reason {stats.get('finish_reason')!r}")
    if not written:
        problems.append("no items were written")
    errors = int(stats.get("log_count/ERROR", 0))
    if errors:
        print(f"Warning: {errors} error(s) in the log, see {log_path}")
    if problems:
        print("Crawl FAILED: " + "; ".join(problems) + f" (see {log_path})", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
