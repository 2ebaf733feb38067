"""Fault injection: a crawl killed with SIGKILL, then resumed with the same JOBDIR.

Real ``scrapy crawl demo`` subprocesses against the demo site on loopback, with cleaning
workers and the ``jobdir`` state (the helpers of ``test_faults_interrupt``). Scrapy keeps
no record of what it fetched when it is killed, so the resumed crawl fetches most pages
again: the dedup claims are committed before an item is passed on and the template model
remembers which pages it learned, so no article is exported twice across the two runs, none
is lost, and no page is learned twice.
"""

from __future__ import annotations

import json
import signal
import sqlite3
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from demo_site.server import DemoServer
from tests.test_e2e_crawl import copy_groups
from tests.test_faults_interrupt import (  # noqa: F401 (no_process_left: the clean-up)
    WORKERS,
    Crawl,
    no_process_left,
    still_running,
)

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc"),
]

#: A crawl of the demo site takes about 10 s; these are hang-guards.
CRAWL_SECONDS = 180


@pytest.fixture(scope="module")
def site() -> Iterator[DemoServer]:
    with DemoServer() as server:
        yield server


def jobdir_state(job: Path) -> tuple[str, ...]:
    return (WORKERS, "WEBCLEAN_STATE=jobdir", f"JOBDIR={job}")


def feed(path: Path) -> list[dict[str, Any]]:
    """The items of a JSON-lines feed (a killed crawl's last line may be cut short)."""
    lines = path.read_text("utf-8").splitlines()
    items = []
    for n, line in enumerate(lines):
        try:
            items.append(json.loads(line))
        except json.JSONDecodeError:
            assert n == len(lines) - 1, f"a broken line mid-feed: {line[:200]}"
    return items


def pages_learned(job: Path) -> int:
    """Pages the template model counted, over all sites (the JOBDIR's template file)."""
    db = sqlite3.connect(str(job / "webclean-state-templates.sqlite3"))
    try:
        (total,) = db.execute(
            "SELECT COALESCE(SUM(value), 0) FROM counters WHERE key = '#pages'"
        ).fetchone()
    finally:
        db.close()
    return int(total)


def test_sigkill_then_resume_exports_each_article_once_and_learns_each_page_once(
    site: DemoServer, tmp_path: Path
) -> None:
    # The uninterrupted crawl runs alongside (the demo site serves both).
    baseline = Crawl(site, tmp_path, "all", *jobdir_state(tmp_path / "all-job"))
    job = tmp_path / "job"
    first = Crawl(site, tmp_path, "killed", *jobdir_state(job))
    exported = tmp_path / "killed.jsonl"
    # Killed while items are being exported (their claims committed before each one went).
    first.wait_until(
        lambda: exported.exists() and exported.read_bytes().count(b"\n") >= 30, "30 items"
    )
    first.process.kill()
    first.process.communicate(timeout=30)
    assert first.process.returncode == -signal.SIGKILL
    assert not still_running(first)
    part1 = feed(exported)
    whole = baseline.finish(CRAWL_SECONDS)
    assert whole["stats"]["finish_reason"] == "finished"
    assert 30 <= len(part1) < len(whole["items"])
    part2 = Crawl(site, tmp_path, "resumed", *jobdir_state(job)).finish(CRAWL_SECONDS)
    stats = part2["stats"]
    assert stats["finish_reason"] == "finished"
    # The resumed crawl fetched again what the killed one had passed on, and said so.
    assert stats["webclean/dedup/seen_before"] > 0
    assert f"{part1[0]['url']} was exported before" in part2["log"]
    items = part1 + part2["items"]
    counts = Counter(item["url"] for item in items)
    assert not [url for url, n in counts.items() if n > 1]
    # Nothing lost: the pages of the uninterrupted crawl, one copy of each article.
    articles = {url for urls in copy_groups(site.truth).values() for url in urls}
    assert set(counts) - articles == {i["url"] for i in whole["items"]} - articles
    for urls in copy_groups(site.truth).values():
        assert sum(url in counts for url in urls) == 1, urls
    assert len(items) == len(whole["items"])
    # Each page learned once: as many as the uninterrupted crawl learned (every page
    # cleaned), however many the two runs cleaned.
    learned = pages_learned(tmp_path / "all-job")
    assert learned == whole["stats"]["webclean/items/cleaned"]
    assert pages_learned(job) == learned
    assert stats["webclean/items/cleaned"] + len(part1) > learned
