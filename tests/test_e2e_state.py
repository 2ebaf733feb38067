"""End to end: what the crawl learned survives a pause/resume (JOBDIR) and is shared by two
crawler processes at once (Redis, with scrapy-redis sharing the request queue).

Real ``scrapy crawl`` subprocesses against the demo site on loopback, as in
``test_e2e_crawl``; the Redis server is the tests' own (see ``conftest.py``).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from demo_site.server import DemoServer
from tests.conftest import RedisServer
from tests.test_e2e_crawl import copy_groups

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ROOT / "example_project"
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp")

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def site() -> Iterator[DemoServer]:
    with DemoServer() as server:
        yield server


def command(server: DemoServer, out: Path, name: str, *settings: str) -> list[str]:
    args = [
        sys.executable, "-m", "scrapy", "crawl", "demo",
        "-a", f"port={server.port}",
        "-O", str(out / f"{name}.jsonl"),
        "-s", f"DEMO_STATS_FILE={out / f'{name}.stats.json'}",
        "-s", f"LOG_FILE={out / f'{name}.log'}",
        "-s", f"IMAGES_STORE={out / f'{name}-images'}",
    ]  # fmt: skip
    for setting in settings:
        args += ["-s", setting]
    return args


def start(args: list[str]) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return subprocess.Popen(args, cwd=PROJECT, env=env, stderr=subprocess.PIPE)


def finish(process: subprocess.Popen[bytes], out: Path, name: str) -> dict[str, Any]:
    _, stderr = process.communicate(timeout=600)
    log = (out / f"{name}.log").read_text("utf-8") if (out / f"{name}.log").exists() else ""
    assert process.returncode == 0, stderr.decode()[-3000:] + log[-3000:]
    lines = (out / f"{name}.jsonl").read_text("utf-8").splitlines()
    return {
        "items": [json.loads(line) for line in lines if line.strip()],
        "stats": json.loads((out / f"{name}.stats.json").read_text("utf-8")),
        "log": log,
    }


def pages_served(server: DemoServer) -> int:
    return sum(1 for url in list(server.served) if not url.endswith(IMAGE_SUFFIXES))


@pytest.fixture(scope="module")
def baseline(site: DemoServer, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """An uninterrupted single-process crawl with in-memory state."""
    out = tmp_path_factory.mktemp("baseline")
    return finish(start(command(site, out, "all")), out, "all")


def check_one_copy_each(
    truth: dict[str, Any], items: list[dict[str, Any]], baseline: list[dict[str, Any]]
) -> None:
    counts = Counter(item["url"] for item in items)
    assert not [url for url, n in counts.items() if n > 1]
    # The same pages as the uninterrupted crawl, but for which copy of an article came first.
    articles = {p["url"] for p in truth["pages"] if p["type"] == "article"}
    got, want = set(counts) - articles, {i["url"] for i in baseline} - articles
    assert (sorted(want - got), sorted(got - want)) == ([], [])
    assert len(items) == len(baseline)
    exported = {o: [u for u in urls if u in counts] for o, urls in copy_groups(truth).items()}
    assert not {original: urls for original, urls in exported.items() if len(urls) != 1}


def test_a_paused_and_resumed_crawl_ends_as_an_uninterrupted_one(
    site: DemoServer, baseline: dict[str, Any], tmp_path: Path
) -> None:
    state = ("WEBCLEAN_STATE=jobdir", f"JOBDIR={tmp_path / 'job'}")
    before = pages_served(site)
    first = start(command(site, tmp_path, "part1", *state, "CONCURRENT_REQUESTS=2"))
    deadline = time.monotonic() + 120
    while pages_served(site) - before < 60 and first.poll() is None:
        assert time.monotonic() < deadline, "the crawl did not get going"
        time.sleep(0.02)
    first.send_signal(signal.SIGINT)  # Ctrl-C: Scrapy stops gracefully, keeping JOBDIR
    part1 = finish(first, tmp_path, "part1")
    assert part1["stats"]["finish_reason"] == "shutdown"
    assert (tmp_path / "job" / "webclean-state.sqlite3").exists()
    assert (tmp_path / "job" / "webclean-state-templates.sqlite3").exists()
    part2 = finish(start(command(site, tmp_path, "part2", *state)), tmp_path, "part2")
    assert part1["items"] and part2["items"]
    items = part1["items"] + part2["items"]
    check_one_copy_each(site.truth, items, baseline["items"])
    # Part 2 found copies of part 1's articles in the reloaded index.
    drops = sum(part["stats"].get("webclean/dedup/dropped", 0) for part in (part1, part2))
    assert drops == baseline["stats"]["webclean/dedup/dropped"]


def test_two_processes_share_one_redis_state(
    site: DemoServer, baseline: dict[str, Any], redis_url: str, tmp_path: Path
) -> None:
    two_processes_share_the_state(site, baseline, tmp_path, f"REDIS_URL={redis_url}")


def test_two_processes_share_one_redis_cluster_state(
    site: DemoServer,
    baseline: dict[str, Any],
    redis_url: str,
    redis_cluster_url: str,
    tmp_path: Path,
) -> None:
    # The state on a 3-master cluster; scrapy-redis's queue stays on the single node.
    two_processes_share_the_state(
        site,
        baseline,
        tmp_path,
        f"REDIS_URL={redis_url}",
        f"WEBCLEAN_REDIS_URL={redis_cluster_url}",
        "WEBCLEAN_REDIS_BUCKETS=64",
    )


def two_processes_share_the_state(
    site: DemoServer, baseline: dict[str, Any], tmp_path: Path, *redis: str
) -> None:
    shared = (
        "WEBCLEAN_STATE=redis",
        *redis,
        "SCHEDULER=scrapy_redis.scheduler.Scheduler",
        "DUPEFILTER_CLASS=scrapy_redis.dupefilter.RFPDupeFilter",
        # Keep the shared queue when the first process to go idle closes, and do not
        # close while the other may still add to it.
        "SCHEDULER_PERSIST=True",
        "DEMO_IDLE_SECONDS=2",
    )
    served_before, pages_before = len(site.served), pages_served(site)
    # The second process joins a crawl under way, as a second machine would: it takes its
    # requests from the shared queue (its own start URLs are already seen there).
    processes = [start(command(site, tmp_path, "one", *shared, "CONCURRENT_REQUESTS=4"))]
    deadline = time.monotonic() + 120
    while pages_served(site) - pages_before < 15 and processes[0].poll() is None:
        assert time.monotonic() < deadline, "the crawl did not get going"
        time.sleep(0.02)
    processes.append(start(command(site, tmp_path, "two", *shared, "CONCURRENT_REQUESTS=4")))
    one, two = (
        finish(p, tmp_path, name) for p, name in zip(processes, ("one", "two"), strict=True)
    )
    assert one["items"] and two["items"], "both processes took part"
    assert "webclean state: Redis" in one["log"] and "webclean state: Redis" in two["log"]
    check_one_copy_each(site.truth, one["items"] + two["items"], baseline["items"])
    stats = [one["stats"], two["stats"]]
    assert (
        sum(s.get("webclean/dedup/dropped", 0) for s in stats)
        == baseline["stats"]["webclean/dedup/dropped"]
    )
    assert not [key for s in stats for key in s if key.startswith("webclean/dedup/unchecked")]
    assert [s.get("webclean/state/lost_writes") for s in stats] == [0, 0]
    kinds = {image["url"]: image["kind"] for image in site.truth["images"]}
    served = set(list(site.served)[served_before:])
    assert not sorted(url for url in served if kinds.get(url) == "ad")
    content = {url for url, kind in kinds.items() if kind == "content"}
    assert not sorted(content - served)


def test_redis_going_away_mid_crawl_loses_no_item(
    site: DemoServer, baseline: dict[str, Any], tmp_path: Path
) -> None:
    import shutil

    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (make system-deps installs it)")
    server = RedisServer(tmp_path / "redis", persist=True)
    server.workdir.mkdir()
    server.start()
    try:
        pages_before = pages_served(site)
        crawl = start(
            command(site, tmp_path, "outage", "WEBCLEAN_STATE=redis", f"REDIS_URL={server.url}",
                    "CONCURRENT_REQUESTS=2")
        )  # fmt: skip
        deadline = time.monotonic() + 120
        while pages_served(site) - pages_before < 40 and crawl.poll() is None:
            assert time.monotonic() < deadline, "the crawl did not get going"
            time.sleep(0.02)
        server.stop()  # Redis goes away (saving its append-only file) ...
        time.sleep(3)
        server.start()  # ... and comes back on the same port with its data
        result = finish(crawl, tmp_path, "outage")
    finally:
        server.stop()
    log, stats, items = result["log"], result["stats"], result["items"]
    assert "is unavailable" in log and "retrying in" in log and "is back" in log
    # Nothing lost, nothing exported twice: every page the crawl met is exported once or
    # dropped with its reason, and every article once, whichever copy came first.
    assert not [key for key in stats if key.startswith("webclean/dedup/unchecked")]
    assert "webclean/state/lost_writes" in stats
    drops = dict(re.findall(r"webclean: (\S+) is an? (?:exact|near) duplicate of (\S+)", log))
    assert len(drops) == stats["webclean/dedup/dropped"]
    assert stats["webclean/items/in"] == len(items) + len(drops)
    exported = Counter(item["url"] for item in items)
    assert not [url for url, n in exported.items() if n > 1]
    assert {i["url"] for i in baseline["items"]} <= set(exported) | set(drops)
    groups = copy_groups(site.truth)
    assert all(sum(u in exported for u in urls) == 1 for urls in groups.values())
