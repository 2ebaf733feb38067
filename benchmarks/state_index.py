"""The indexing runs of ``state.py``: a stream of synthetic documents made from real
sentences (:func:`make_stream`), indexed by ``NearDuplicateIndex`` over each state backend
(memory in a fresh process, SQLite, Redis one at a time and batched), and the JOBDIR
reload. Each run keeps its answers, compared with the memory run's in the report.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # scrapy_webclean, demo_site
sys.path.insert(0, str(Path(__file__).resolve().parent))  # dedup.py's helpers

from dedup import _char_edit, build_english, load_zh, sentence_pool, synthetic

from scrapy_webclean.dedup import NearDuplicateIndex
from scrapy_webclean.state import BackendDedupStore, SqliteBackend
from scrapy_webclean.state.redis import RedisBackend

#: The benchmark's script, which runs the memory run's child process (``--memory-child``).
STATE_SCRIPT = Path(__file__).with_name("state.py")
SEED = 13
PREFIX = "bench:webclean:state:"
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
        sys.executable, str(STATE_SCRIPT), str(root),
        "--docs", str(count),
        "--memory-child", str(answers_file),
    ]  # fmt: skip
    completed = subprocess.run(command, stdout=subprocess.PIPE, text=True, check=True)
    result: dict[str, Any] = json.loads(completed.stdout.strip().splitlines()[-1])
    run = IndexRun("memory", count, result.pop("wall"), result.pop("cpu"))
    run.answers = json.loads(answers_file.read_text("utf-8"))
    run.extra = result
    return run


def memory_child(root: Path, count: int, answers_file: Path) -> None:
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
