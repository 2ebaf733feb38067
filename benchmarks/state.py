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
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # scrapy_webclean, demo_site
sys.path.insert(0, str(Path(__file__).resolve().parent))  # dedup.py's helpers

from dedup import _char_edit, build_english, load_zh, sentence_pool, synthetic

from scrapy_webclean.dedup import NearDuplicateIndex
from scrapy_webclean.state import BackendDedupStore, SqliteBackend, StateUnavailable
from scrapy_webclean.state.redis import RedisBackend

ROOT = Path(__file__).resolve().parents[1]
SEED = 13
PREFIX = "bench:webclean:state:"
#: The demo crawl's keys (``WEBCLEAN_REDIS_PREFIX`` with the spider ``demo``).
CRAWL_PREFIX = "demo:webclean:"
PROGRESS_EVERY = 10_000
RELOAD_CHECKS = 1_000
#: The targets of issue 6.
TARGET_REDIS_DOCS_PER_SECOND = 1_000
TARGET_RELOAD_SECONDS = 5.0

Answer = str | None


# -- the document stream ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Stream:
    """Document ``i`` of a fixed stream, computed from ``i`` alone (nothing kept)."""

    pool: list[str]
    seed: int = SEED
    exact_share: float = 0.05
    near_share: float = 0.05

    def _rng(self, i: int) -> random.Random:
        return random.Random(f"{self.seed}:{i}")

    def kind(self, i: int) -> str:
        """``original``, ``exact`` or ``near`` (document 0 is an original)."""
        if i == 0:
            return "original"
        roll = self._rng(i).random()  # the first draw of the document's own generator
        if roll < self.exact_share:
            return "exact"
        return "near" if roll < self.exact_share + self.near_share else "original"

    def source(self, i: int) -> int:
        """The original that document ``i`` copies (``i`` itself for an original)."""
        return self._copy_of(i)[0] if self.kind(i) != "original" else i

    def _copy_of(self, i: int) -> tuple[int, random.Random]:
        """A copy's original, and the copy's generator past the draws made so far."""
        rng = self._rng(i)
        rng.random()  # the kind
        j = rng.randrange(i)
        while self.kind(j) != "original":
            j -= 1
        return j, rng

    def original(self, i: int) -> str:
        return next(synthetic(self.pool, 1, seed=(self.seed << 32) + i))

    def text(self, i: int) -> str:
        kind = self.kind(i)
        if kind == "original":
            return self.original(i)
        j, rng = self._copy_of(i)
        text = self.original(j)
        if kind == "exact":
            return text
        if rng.random() < 0.5:
            return text[: int(len(text) * rng.uniform(0.7, 0.95))]
        return _char_edit(text, rng, 0.005)


def make_stream(root: Path) -> Stream:
    return Stream(sentence_pool(load_zh(root), build_english(root)))


# -- indexing runs ---------------------------------------------------------------------


@dataclass(slots=True)
class IndexRun:
    name: str
    docs: int
    wall: float = 0.0
    cpu: float = 0.0
    answers: list[Answer] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def summary(self, stream: Stream, reference: list[Answer] | None) -> dict[str, Any]:
        copies = [i for i in range(self.docs) if stream.kind(i) != "original"]
        found = sum(1 for i in copies if self.answers[i] is not None)
        flagged = sum(1 for a in self.answers if a is not None) - found
        differ = None
        if reference is not None:
            differ = sum(1 for a, b in zip(self.answers, reference, strict=False) if a != b)
        return {
            "docs": self.docs,
            "wall_seconds": self.wall,
            "cpu_seconds": self.cpu,
            "docs_per_second": self.docs / self.wall if self.wall else 0.0,
            "docs_per_cpu_second": self.docs / self.cpu if self.cpu else 0.0,
            "copies": len(copies),
            "copies_found": found,
            "originals_flagged": flagged,
            "answers_differing_from_memory": differ,
            **self.extra,
        }


def index_stream(
    index: NearDuplicateIndex, stream: Stream, count: int, batch: int | None, label: str
) -> IndexRun:
    """Check and add documents 0 .. ``count - 1``: one ``check_and_add`` call each when
    ``batch`` is None, else ``check_many`` over ``batch`` documents at a time."""
    run = IndexRun(label, count)
    step = batch or 1
    started = time.perf_counter()
    for start in range(0, count, step):
        end = min(start + step, count)
        items = [(str(i), stream.text(i), False) for i in range(start, end)]
        wall, cpu = time.perf_counter(), time.process_time()
        if batch is None:
            run.answers.append(index.check_and_add(items[0][0], items[0][1]))
        else:
            run.answers += [m.key if m is not None else None for m in index.check_many(items)]
        run.cpu += time.process_time() - cpu
        run.wall += time.perf_counter() - wall
        if end // PROGRESS_EVERY > start // PROGRESS_EVERY or end == count:
            rate = end / run.wall if run.wall else 0.0
            print(
                f"  {label}: {end:,}/{count:,} documents, {rate:,.0f}/s "
                f"({time.perf_counter() - started:.0f} s)",
                file=sys.stderr,
                flush=True,
            )
    return run


def memory_run(root: Path, count: int, folder: Path) -> IndexRun:
    """The memory run, in a fresh process for a clean memory reading."""
    answers_file = folder / "memory-answers.json"
    command = [
        sys.executable, __file__, str(root),
        "--docs", str(count),
        "--memory-child", str(answers_file),
    ]  # fmt: skip
    completed = subprocess.run(command, stdout=subprocess.PIPE, text=True, check=True)
    result: dict[str, Any] = json.loads(completed.stdout.strip().splitlines()[-1])
    run = IndexRun("memory", count, result.pop("wall"), result.pop("cpu"))
    run.answers = json.loads(answers_file.read_text("utf-8"))
    run.extra = result
    return run


def _memory_child(root: Path, count: int, answers_file: Path) -> None:
    stream = make_stream(root)
    run = index_stream(NearDuplicateIndex(), stream, count, None, "memory")
    answers_file.write_text(json.dumps(run.answers), encoding="utf-8")
    wall, cpu = run.wall, run.cpu
    del run
    # A second pass under tracemalloc (slower, so not timed): what the index keeps.
    print("  memory: a second pass under tracemalloc", file=sys.stderr, flush=True)
    tracemalloc.start()
    index = NearDuplicateIndex()
    for i in range(count):
        index.check_and_add(str(i), stream.text(i))
    kept, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(json.dumps({"wall": wall, "cpu": cpu, "python_bytes_per_doc": kept / count}))


def sqlite_run(stream: Stream, count: int, path: Path) -> IndexRun:
    backend = SqliteBackend(path)
    run = index_stream(
        NearDuplicateIndex(store=BackendDedupStore(backend)), stream, count, None, "sqlite"
    )
    backend.flush()
    files = [path, path.with_name(path.name + "-wal")]
    open_size = sum(p.stat().st_size for p in files if p.exists())
    backend.close()
    closed_size = sum(p.stat().st_size for p in files if p.exists())
    run.extra = {
        "file_bytes_per_doc": open_size / count,
        "file_bytes": open_size,
        "file_bytes_after_close": closed_size,
    }
    return run


def redis_run(stream: Stream, count: int, url: str, batch: int | None, label: str) -> IndexRun:
    backend = RedisBackend(url, PREFIX)
    backend.delete_all()
    before_memory, before_cpu = _redis_memory(backend), _redis_cpu(backend)
    run = index_stream(
        NearDuplicateIndex(store=BackendDedupStore(backend)), stream, count, batch, label
    )
    run.extra = {
        "batch": batch or 1,
        "round_trips": backend.round_trips,
        "round_trips_per_doc": backend.round_trips / count,
        "redis_bytes_per_doc": (_redis_memory(backend) - before_memory) / count,
        "redis_cpu_seconds": _redis_cpu(backend) - before_cpu,
    }
    backend.delete_all()
    backend.close()
    return run


def _spread_originals(stream: Stream, count: int, wanted: int) -> list[int]:
    """Up to ``wanted`` originals spread evenly over documents 0 .. ``count - 1``."""
    picks: list[int] = []
    at = 0
    for k in range(wanted):
        at = max(at, k * count // wanted)
        while at < count and stream.kind(at) != "original":
            at += 1
        if at == count:
            break
        picks.append(at)
        at += 1
    return picks


def _redis_memory(backend: RedisBackend) -> int:
    return int(backend.client.info("memory")["used_memory"])


def _redis_cpu(backend: RedisBackend) -> float:
    info = backend.client.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def reload_run(stream: Stream, count: int, path: Path, answers: list[Answer]) -> dict[str, Any]:
    """Open the closed SQLite state again and check ``RELOAD_CHECKS`` indexed documents."""
    picks = _spread_originals(stream, count, RELOAD_CHECKS)
    texts = [stream.original(j) for j in picks]
    started = time.perf_counter()
    backend = SqliteBackend(path)
    index = NearDuplicateIndex(store=BackendDedupStore(backend))
    opened = time.perf_counter()
    matches = [index.check(str(picks[0]), texts[0])]
    first = time.perf_counter()
    matches += [index.check(str(j), text) for j, text in zip(picks[1:], texts[1:], strict=True)]
    done = time.perf_counter()
    stored = len(index)
    backend.close()
    exact = sum(1 for m in matches if m is not None and m.kind == "exact")
    same_key = sum(
        1
        for j, m in zip(picks, matches, strict=True)
        if m is not None and m.key == (answers[j] or str(j))
    )
    return {
        "docs_indexed": count,
        "docs_stored": stored,
        "checks": len(picks),
        "found_exact": exact,
        "found_with_first_key": same_key,
        "open_seconds": opened - started,
        "reload_seconds": first - started,
        "checks_seconds": done - opened,
        "target_seconds": TARGET_RELOAD_SECONDS,
        "target_met": first - started < TARGET_RELOAD_SECONDS and exact == len(picks),
    }


# -- Redis server ----------------------------------------------------------------------


@contextmanager
def private_redis(folder: Path) -> Iterator[str]:
    """A ``redis-server`` of our own on a free loopback port, without persistence; yields
    its URL and stops it on exit."""
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [
        binary, "--port", str(port), "--bind", "127.0.0.1",
        "--save", "", "--appendonly", "no", "--dir", str(folder),
    ]  # fmt: skip
    url = f"redis://127.0.0.1:{port}/0"
    with (folder / "redis.log").open("wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        try:
            _wait_for(url, process)
            yield url
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _wait_for(url: str, process: subprocess.Popen[bytes], timeout: float = 10.0) -> None:
    backend = RedisBackend(url)
    deadline = time.monotonic() + timeout
    try:
        while True:
            try:
                backend.ping()
                return
            except StateUnavailable:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"redis-server at {url} did not start") from None
                time.sleep(0.05)
    finally:
        backend.close()


def _keys_under(url: str, prefix: str) -> int:
    backend = RedisBackend(url, prefix)
    try:
        return sum(1 for _ in backend.client.scan_iter(match=prefix + "*", count=1000))
    finally:
        backend.close()


def _delete_under(url: str, prefix: str) -> None:
    backend = RedisBackend(url, prefix)
    try:
        backend.delete_all()
    finally:
        backend.close()


# -- the demo crawl --------------------------------------------------------------------


def crawl(state: str, redis_url: str, folder: Path) -> dict[str, Any]:
    """One ``scrapy crawl demo`` with ``WEBCLEAN_STATE=state``; never raises: a failed
    crawl is a result with an ``error``."""
    folder.mkdir(parents=True, exist_ok=True)
    out, stats_file, log_file = folder / "out.jsonl", folder / "stats.json", folder / "crawl.log"
    settings = [
        f"WEBCLEAN_STATE={state}",
        f"DEMO_STATS_FILE={stats_file}",
        f"LOG_FILE={log_file}",
        f"IMAGES_STORE={folder / 'images'}",
    ]
    if state == "redis":
        settings.append(f"REDIS_URL={redis_url}")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    result: dict[str, Any] = {"state": state}
    try:
        from demo_site.server import DemoServer

        with DemoServer() as server:
            command = [sys.executable, "-m", "scrapy", "crawl", "demo"]
            command += ["-a", f"port={server.port}", "-O", str(out)]
            for setting in settings:
                command += ["-s", setting]
            started = time.perf_counter()
            completed = subprocess.run(
                command,
                cwd=ROOT / "example_project",
                env=env,
                capture_output=True,
                text=True,
                timeout=1800,
            )
            wall = time.perf_counter() - started
    except Exception as exc:  # the demo site or the crawl itself: report, go on
        result["error"] = f"{type(exc).__name__}: {exc}"
        return result
    stats: dict[str, Any] = {}
    if stats_file.exists():
        stats = json.loads(stats_file.read_text("utf-8"))
    log = log_file.read_text("utf-8", errors="replace") if log_file.exists() else ""
    state_lines = [
        line.split("webclean state: ", 1)[1]
        for line in log.splitlines()
        if "webclean state: " in line
    ]
    problems = []
    if completed.returncode:
        problems.append(f"exit code {completed.returncode}")
    if not stats:
        problems.append("no stats written")
    elif stats.get("finish_reason") != "finished":
        problems.append(f"finish reason {stats.get('finish_reason')!r}")
    if state == "redis" and not any(line.startswith("Redis") for line in state_lines):
        problems.append("the log does not say that the Redis state was used")
    errors = [line for line in log.splitlines() if "] ERROR: " in line or " CRITICAL: " in line]
    if problems:
        tail = (errors or completed.stderr.strip().splitlines() or ["(no log)"])[-5:]
        result["error"] = "; ".join(problems) + " | " + " / ".join(tail)
    responses = int(stats.get("response_received_count", 0))
    elapsed = float(stats.get("elapsed_time_seconds", 0.0))
    result.update(
        {
            "exit_code": completed.returncode,
            "state_in_log": state_lines,
            "wall_seconds": wall,
            "elapsed_seconds": elapsed,
            "responses": responses,
            "pages_per_second": responses / elapsed if elapsed else 0.0,
            "pages_per_wall_second": responses / wall if wall else 0.0,
            "items": _count_lines(out),
            "dropped": int(stats.get("item_dropped_count", 0)),
            "log_errors": len(errors),
            "webclean_stats": {
                k: v
                for k, v in sorted(stats.items())
                if k.startswith(("webclean/dedup", "webclean/state"))
            },
        }
    )
    return result


def _count_lines(path: Path) -> int | None:
    if not path.exists():
        return None
    with path.open("rb") as handle:
        return sum(1 for line in handle if line.strip())


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
        _memory_child(args.data, args.docs, args.memory_child)
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
        with _redis(args.redis_url, folder) as url:
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


def crawl_both(url: str, runs: int, private: bool, folder: Path) -> list[dict[str, Any]]:
    """``runs`` demo crawls with each state, alternating, the crawl's keys deleted first."""
    crawls = []
    for number in range(runs):
        for state in ("memory", "redis"):
            print(f"crawl {number + 1}: {state} state", file=sys.stderr, flush=True)
            _clear_crawl_keys(url, private)
            run = crawl(state, url, folder / f"crawl-{number}-{state}")
            if state == "redis":
                run["redis_keys_after"] = _keys_under(url, CRAWL_PREFIX)
            crawls.append(run)
    _clear_crawl_keys(url, private)
    return crawls


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


@contextmanager
def _redis(url: str | None, folder: Path) -> Iterator[str]:
    if url is not None:
        yield url
        return
    with private_redis(folder) as own:
        yield own


def _clear_crawl_keys(url: str, private: bool) -> None:
    if private:
        backend = RedisBackend(url)
        try:
            backend.client.flushall()
        finally:
            backend.close()
    else:
        _delete_under(url, CRAWL_PREFIX)


if __name__ == "__main__":
    sys.exit(main())
