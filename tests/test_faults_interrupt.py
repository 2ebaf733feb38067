"""Fault injection: a crawl interrupted by Ctrl-C or killed outright, with cleaning workers.

Real ``scrapy crawl demo`` subprocesses against the demo site on loopback, as in
``test_e2e_crawl``, each in a session (process group) of its own, so that a Ctrl-C can be
sent the way a terminal sends it: SIGINT to every process of the group, the crawl and its
cleaning workers alike. Processes are found and checked through ``/proc`` (Linux).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from demo_site.server import DemoServer
from tests.test_e2e_crawl import copy_groups
from tests.test_e2e_state import command

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ROOT / "example_project"
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp")
#: Longest wait for a crawl to end by itself after one Ctrl-C (it takes 1-3 s).
STOP_SECONDS = 30
WORKERS = "WEBCLEAN_WORKERS=2"
#: What a worker interrupted by Ctrl-C left in the log or on stderr before.
INTERRUPTED = ("KeyboardInterrupt", "worker_crashed", "a cleaning worker died")

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc"),
]


@pytest.fixture(scope="module")
def site() -> Iterator[DemoServer]:
    with DemoServer() as server:
        yield server


#: The crawls a test started, for the clean-up after it.
STARTED: list[Crawl] = []


@pytest.fixture(autouse=True)
def no_process_left() -> Iterator[None]:
    """After each test, whatever it found: SIGKILL to what its crawls left running (by pid
    and start time, never by name), so that a failing test leaves no orphan behind."""
    yield
    while STARTED:
        crawl = STARTED.pop()
        if crawl.process.poll() is None:
            crawl.process.kill()
            crawl.process.communicate()
        for pid, (start_time, _) in crawl.descendants.items():
            if running(pid, start_time):
                os.kill(pid, signal.SIGKILL)


class Crawl:
    """One ``scrapy crawl demo`` process, in a process group of its own."""

    def __init__(self, server: DemoServer, out: Path, name: str, *settings: str) -> None:
        self.out, self.name, self.server = out, name, server
        self.served_before = pages_served(server)
        args = command(server, out, name, *settings)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        self.process = subprocess.Popen(
            args,
            cwd=PROJECT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        self.started = time.monotonic()
        #: Every process the crawl started, seen while it ran: pid -> (start time, command).
        self.descendants: dict[int, tuple[int, str]] = {}
        STARTED.append(self)

    @property
    def pid(self) -> int:
        return self.process.pid

    def wait_until(self, ready: Callable[[], bool], what: str, seconds: float = 120) -> None:
        """Poll until ``ready()`` (noting the crawl's processes meanwhile)."""
        deadline = time.monotonic() + seconds
        while not ready():
            assert self.process.poll() is None, f"the crawl ended before {what}"
            assert time.monotonic() < deadline, f"no {what} within {seconds} s"
            self.note_descendants()
            time.sleep(0.01)
        self.note_descendants()

    def wait_for_pages(self, count: int) -> None:
        self.wait_until(lambda: pages_served(self.server) - self.served_before >= count, "pages")

    def note_descendants(self) -> None:
        for pid in children(self.pid):
            # The latest command (a child may be seen before its exec), but not the empty
            # one of a process that is exiting.
            identity = process_identity(pid)
            if identity is not None and identity[1]:
                self.descendants[pid] = identity

    def workers(self) -> list[int]:
        return [pid for pid, (_, cmd) in self.descendants.items() if "spawn_main" in cmd]

    def ctrl_c(self) -> None:
        """SIGINT to the whole process group, as a terminal sends it."""
        os.killpg(self.pid, signal.SIGINT)

    def finish(self, seconds: float = 600) -> dict[str, Any]:
        """Wait for the crawl's end (failing after ``seconds``: a hang) and read its output."""
        try:
            _, stderr = self.process.communicate(timeout=seconds)
        except subprocess.TimeoutExpired:
            os.killpg(self.pid, signal.SIGKILL)
            self.process.communicate()
            pytest.fail(f"{self.name}: the crawl hung (still running after {seconds} s)")
        log_path = self.out / f"{self.name}.log"
        log = log_path.read_text("utf-8") if log_path.exists() else ""
        assert self.process.returncode == 0, stderr.decode()[-3000:] + log[-3000:]
        feed = self.out / f"{self.name}.jsonl"
        if not feed.exists() and "Crawled (" not in log:
            # Scrapy itself leaves out the graceful stop when Ctrl-C lands while its engine
            # is still starting: the process exits 0 before any spider closes (no feed,
            # no stats), having fetched nothing, so nothing can be lost.
            return {"items": [], "stats": {}, "log": log, "stderr": stderr.decode(), "seconds": 0.0}
        lines = feed.read_text("utf-8").splitlines()
        return {
            "items": [json.loads(line) for line in lines if line.strip()],
            "stats": json.loads((self.out / f"{self.name}.stats.json").read_text("utf-8")),
            "log": log,
            "stderr": stderr.decode("utf-8", "replace"),
            "seconds": time.monotonic() - self.started,
        }


def pages_served(server: DemoServer) -> int:
    return sum(1 for url in list(server.served) if not url.endswith(IMAGE_SUFFIXES))


def _stat(pid: int) -> list[str] | None:
    """``/proc/<pid>/stat`` from the field after the command name on (state first)."""
    try:
        data = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return data[data.rindex(")") + 2 :].split()


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields is not None and int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def process_identity(pid: int) -> tuple[int, str] | None:
    """A process's start time (which tells it from a later one with its pid) and command."""
    fields = _stat(pid)
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return None
    return (int(fields[19]), command) if fields is not None else None


def running(pid: int, start_time: int) -> bool:
    """Whether that very process still runs (a zombie has exited: it holds nothing)."""
    fields = _stat(pid)
    return fields is not None and fields[0] not in ("Z", "X") and int(fields[19]) == start_time


def still_running(crawl: Crawl, seconds: float = 10) -> list[str]:
    """The crawl's processes still running after ``seconds`` at most."""
    deadline = time.monotonic() + seconds
    while True:
        left = [cmd for pid, (st, cmd) in crawl.descendants.items() if running(pid, st)]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


def sigint_blocked(pid: int) -> bool:
    """Whether SIGINT is blocked in that process: a worker before its initializer."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    blocked = re.search(r"^SigBlk:\s*([0-9a-f]+)$", status, re.MULTILINE)
    return blocked is not None and bool(int(blocked.group(1), 16) & (1 << (signal.SIGINT - 1)))


def holders_of(directory: Path) -> list[int]:
    """Processes with a file under ``directory`` open."""
    holders = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            for fd in (entry / "fd").iterdir():
                if os.readlink(fd).startswith(str(directory)):
                    holders.add(int(entry.name))
        except OSError:  # gone meanwhile, or not ours to look at
            continue
    return sorted(holders)


def check_graceful(part: dict[str, Any]) -> None:
    """The crawl stopped on one Ctrl-C as Scrapy stops: every page that came in was cleaned
    (none passed on uncleaned by a dead worker) and is exported or dropped as a duplicate.
    (A Ctrl-C before the first page came in leaves the item counters unset: none in, none
    cleaned.)"""
    stats = part["stats"]
    assert stats["finish_reason"] == "shutdown"
    assert not [k for k in stats if k.startswith(("webclean/items/failed", "webclean/workers/re"))]
    came_in = stats.get("webclean/items/in", 0)
    assert came_in == stats.get("webclean/items/cleaned", 0)
    dropped = stats.get("webclean/items/dropped/duplicate", 0)
    assert came_in == stats.get("item_scraped_count", 0) + dropped
    assert all("text" in item and "webclean_error" not in item for item in part["items"])
    assert not [word for word in INTERRUPTED if word in part["log"] + part["stderr"]]
    assert "Traceback" not in part["stderr"]


def test_ctrl_c_then_resume_exports_what_an_uninterrupted_crawl_does(
    site: DemoServer, tmp_path: Path
) -> None:
    baseline = Crawl(
        site, tmp_path, "all", WORKERS, "WEBCLEAN_STATE=jobdir", f"JOBDIR={tmp_path / 'all-job'}"
    ).finish()
    job = tmp_path / "job"
    state = (WORKERS, "WEBCLEAN_STATE=jobdir", f"JOBDIR={job}")
    first = Crawl(site, tmp_path, "part1", *state, "CONCURRENT_REQUESTS=2")
    first.wait_for_pages(50)
    assert len(first.workers()) == 2
    first.ctrl_c()
    part1 = first.finish(STOP_SECONDS)
    check_graceful(part1)
    assert not still_running(first)
    # Scrapy saved the job: its seen requests and the queue of those not yet fetched.
    assert (job / "requests.seen").stat().st_size > 0 and (job / "requests.queue").is_dir()
    part2 = Crawl(site, tmp_path, "part2", *state).finish()
    assert part2["stats"]["finish_reason"] == "finished"
    assert part1["items"] and part2["items"]
    items = part1["items"] + part2["items"]
    counts = Counter(item["url"] for item in items)
    assert not [url for url, n in counts.items() if n > 1]
    assert len(items) == len(baseline["items"])
    # The same pages; of each article one copy (which copy is met first may differ).
    articles = {p["url"] for p in site.truth["pages"] if p["type"] == "article"}
    assert {i["url"] for i in items} - articles == {i["url"] for i in baseline["items"]} - articles
    groups = copy_groups(site.truth)
    for urls in ([u for u in urls if u in counts] for urls in groups.values()):
        assert len(urls) == 1, urls
    drops = sum(part["stats"].get("webclean/dedup/dropped", 0) for part in (part1, part2))
    assert drops == baseline["stats"]["webclean/dedup/dropped"]


@pytest.mark.parametrize("pages", [0, 1, 10, 40, 90])
def test_one_ctrl_c_stops_the_crawl_without_a_hang(
    site: DemoServer, tmp_path: Path, pages: int
) -> None:
    """Ctrl-C after ``pages`` pages were served, or (0) while the workers are still
    starting: each time the crawl ends by itself within ``STOP_SECONDS``, gracefully,
    and leaves no process behind."""
    crawl = Crawl(
        site, tmp_path, "crawl", WORKERS, "WEBCLEAN_STATE=jobdir", f"JOBDIR={tmp_path / 'job'}"
    )
    if pages:
        crawl.wait_for_pages(pages)
        assert len(crawl.workers()) == 2
        crawl.ctrl_c()
    else:
        crawl.wait_until(lambda: len(crawl.workers()) == 2, "workers")
        starting = [pid for pid in crawl.workers() if sigint_blocked(pid)]
        crawl.ctrl_c()
        assert starting, "the workers were started already"
    part = crawl.finish(STOP_SECONDS)
    if pages or part["stats"]:
        check_graceful(part)
        assert (tmp_path / "job" / "requests.seen").exists()
    else:  # (stopped by Scrapy before its engine ran: see Crawl.finish)
        assert "Traceback" not in part["stderr"]
    assert not still_running(crawl)


def test_sigkill_leaves_no_process_behind(site: DemoServer, tmp_path: Path) -> None:
    """After SIGKILL of the crawl (its process only: nothing is sent to the workers) the
    workers and the resource tracker exit, and nothing keeps the JOBDIR's files open."""
    job = tmp_path / "job"
    crawl = Crawl(site, tmp_path, "killed", WORKERS, "WEBCLEAN_STATE=jobdir", f"JOBDIR={job}")
    crawl.wait_for_pages(40)
    commands = [cmd for _, cmd in crawl.descendants.values()]
    assert len(crawl.workers()) == 2
    assert any("resource_tracker" in cmd for cmd in commands), commands
    assert set(holders_of(job)) & set(crawl.workers())  # the workers' template state
    crawl.process.kill()
    # Nothing else holds the crawl's stderr: it ends with the crawl.
    try:
        crawl.process.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the crawl's stderr is still open, held by: {still_running(crawl, 0)}")
    assert crawl.process.returncode == -signal.SIGKILL
    assert not still_running(crawl)
    assert not holders_of(job)


def test_worker_log_lines_reach_the_crawl_log(site: DemoServer, tmp_path: Path) -> None:
    """Records logged in the workers are written by the crawl's log handler, in Scrapy's
    format, and the workers print nothing to stderr."""
    crawl = Crawl(site, tmp_path, "logged", WORKERS, "LOG_LEVEL=DEBUG", "CLOSESPIDER_ITEMCOUNT=5")
    while crawl.process.poll() is None:  # note the workers while they run
        crawl.note_descendants()
        time.sleep(0.01)
    part = crawl.finish()
    started = re.findall(
        r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \[scrapy_webclean\.integration\.workers\] DEBUG: "
        r"webclean: cleaning worker started \(pid (\d+), template state: memory\)$",
        part["log"],
        re.MULTILINE,
    )
    assert sorted(int(pid) for pid in started) == sorted(crawl.workers())
    assert part["stderr"] == ""
