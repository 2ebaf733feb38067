"""Fault injection: a crawl killed with SIGKILL, then resumed with the same JOBDIR.

Real ``scrapy crawl demo`` subprocesses against the demo site on loopback, with cleaning
workers and the ``jobdir`` state (the helpers of ``test_faults_interrupt``), checked
against the site's truth (every page it serves, and which articles copy which). Scrapy
keeps no record of what it fetched when it is killed, so the resumed crawl fetches every
page again: the dedup claims are committed before an item is passed on, an item is marked
exported once the feed has it, and the template model remembers which pages it learned, so
no article is exported twice across the two runs (but the last one the feed flushed, if
the kill fell before its mark was committed: the window ``integration/dedup.py``
documents), none is lost, and no page is learned twice.
"""

from __future__ import annotations

import json
import re
import shutil
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
    pages = {page["url"] for page in site.truth["pages"]}  # every page the crawl meets
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
    part1 = [item["url"] for item in feed(exported)]
    assert 30 <= len(part1) < len(pages)
    # Scrapy's duplicate filter appends to requests.seen through a buffer that may reach
    # the disk before the kill while the request queue it stands for does not: those pages
    # would never be fetched by any resume (Scrapy's loss, not webclean's: 6 of 154 pages
    # in one CI run). And a disk queue of requests.queue killed mid-write keeps a cut
    # size header: the resumed crawl's scheduler fails on every request of that priority
    # ("struct.error: unpack requires a buffer of 4 bytes", 6 pages lost in about one run
    # of four, before and after issue 20). This test is about webclean's state, so
    # Scrapy's filter and queue start afresh; webclean's state in the JOBDIR stays.
    (job / "requests.seen").unlink(missing_ok=True)
    shutil.rmtree(job / "requests.queue", ignore_errors=True)
    part2 = Crawl(site, tmp_path, "resumed", *jobdir_state(job)).finish(CRAWL_SECONDS)
    stats, log = part2["stats"], part2["log"]
    assert stats["finish_reason"] == "finished"
    # The resumed crawl fetched every page again (Scrapy had saved nothing): what the
    # killed one exported it dropped, all of it and only that, and said so. The one
    # exception is the documented window (integration/dedup.py): the test kills the crawl
    # as soon as the feed holds 30 lines, so the kill can land between the flush of the
    # last line and the commit of its mark; that item alone may be exported again.
    assert stats["webclean/items/in"] == len(pages)
    again = re.findall(r"webclean: (\S+) was exported before", log)
    in_flight = set(part1[-1:])
    assert set(again) <= set(part1) and len(again) == len(set(again))
    assert set(part1) - set(again) <= in_flight
    assert stats["webclean/dedup/seen_before"] == len(again)
    # Every other page is exported now or dropped as a copy: none exported twice, none lost.
    part2_urls = [item["url"] for item in part2["items"]]
    copies = re.findall(r"webclean: (\S+) is an? (?:exact|near) duplicate of", log)
    counts = Counter(part1 + part2_urls)
    assert not [url for url, n in counts.items() if n > 1 and url not in in_flight]
    assert not set(copies) & set(counts)
    assert set(counts) | set(copies) == pages
    dropped = sum(v for k, v in stats.items() if k.startswith("webclean/items/dropped/"))
    assert stats["webclean/items/in"] == stats["webclean/items/exported"] + dropped
    for urls in copy_groups(site.truth).values():  # one copy of each article
        assert sum(url in counts for url in urls) == 1, urls
    # Each page learned once, though most were cleaned twice.
    assert pages_learned(job) == len(pages)
