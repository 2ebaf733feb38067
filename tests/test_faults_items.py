"""Fault injection, items and settings: real ``scrapy runspider`` crawls of a small local
site whose pages go wrong in the ways a new user meets first (a PDF link, an image served as
a page, an empty page, a page over the size limit, a field no feed can write, a typo in a
setting), checked on what reaches the JSON-lines feed, the stats and the log.

The site is served by this module on loopback; the spider is ``tests/fixtures/
faults_spider.py``. Cleaning runs in the crawl's process (``WEBCLEAN_WORKERS = 0``) to keep
each crawl to a few seconds; the worker processes have their own fault tests.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import serving

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
SPIDER = FIXTURES / "faults_spider.py"
EN = (FIXTURES / "news_en.html").read_bytes()
ZH = (FIXTURES / "news_zh.html").read_bytes()

pytestmark = pytest.mark.e2e

#: path -> (Content-Type, body)
PAGES: dict[str, tuple[str, bytes]] = {
    "/article-en": ("text/html; charset=utf-8", EN),
    "/article-zh-gbk": (
        "text/html",
        ZH.decode("utf-8").replace("utf-8", "gbk").encode("gbk"),
    ),
    "/copy-of-en": ("text/html", EN.replace(b"The Riverside Courier", b"Courier Mirror")),
    "/report.pdf": ("application/pdf", b"%PDF-1.5\n1 0 obj << /Length 44 >> stream\nBT ET\n"),
    "/photo-as-page": ("text/html", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4),
    "/empty": ("text/html", b""),
    "/huge": ("text/html", b"<html><body><p>" + b"word " * 60_000 + b"</p></body></html>"),
    "/bad-field": (
        "text/html",
        b"<html><head><title>Ferry timetable changes</title></head><body><article>"
        b"<h1>Ferry timetable changes from Monday</h1><p>The harbour ferry will run every "
        b"twenty minutes on weekdays from Monday, the operator said, after a summer of "
        b"record passenger numbers on the crossing to the island.</p><p>Evening sailings "
        b"are extended until midnight on Fridays and Saturdays, and a new stop opens at the "
        b"marina in the autumn once the pier works are finished.</p></article></body></html>",
    ),
}
BAD_PAGES = {"/report.pdf": "not_html", "/photo-as-page": "not_html", "/empty": "empty"}


class _Handler(BaseHTTPRequestHandler):
    requests: list[str] = []  # noqa: RUF012 - shared by the test server's threads

    def do_GET(self) -> None:
        self.requests.append(self.path)
        content_type, body = PAGES.get(self.path, ("text/plain", b"not found"))
        self.send_response(200 if self.path in PAGES else 404)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with serving(_Handler) as base:
        yield base


@dataclass
class Crawl:
    returncode: int
    items: list[dict[str, Any]]
    stats: dict[str, Any]
    log: str
    stderr: str
    requests: list[str]


def crawl(
    site: str,
    tmp: Path,
    paths: list[str],
    *settings: str,
    shape: str = "page_item",
    extra: str = "",
) -> Crawl:
    out, log, stats = tmp / "items.jsonl", tmp / "crawl.log", tmp / "stats.json"
    for path in (out, log, stats):
        path.unlink(missing_ok=True)
    urls = ",".join(site + path for path in paths)
    command = [
        sys.executable, "-m", "scrapy", "runspider", str(SPIDER),
        "-a", f"urls={urls}", "-a", f"shape={shape}", "-a", f"extra={extra}",
        "-o", f"{out}:jsonlines",
        "-s", f"LOG_FILE={log}",
        "-s", "STATS_DUMP=True",
        "-s", "EXTENSIONS={\"tests.fixtures.stats_file.StatsFile\": 900}",
        "-s", f"STATS_FILE={stats}",
    ]  # fmt: skip
    for setting in settings:
        command += ["-s", setting]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    _Handler.requests.clear()
    done = subprocess.run(
        command, cwd=tmp, env=env, capture_output=True, text=True, timeout=180, check=False
    )
    items = (
        [json.loads(line) for line in out.read_text("utf-8").splitlines()] if out.exists() else []
    )
    return Crawl(
        done.returncode,
        items,
        json.loads(stats.read_text("utf-8")) if stats.exists() else {},
        log.read_text("utf-8") if log.exists() else "",
        done.stderr,
        list(_Handler.requests),
    )


ALL = list(PAGES)
COPIES = ("/article-en", "/copy-of-en")


def _copies(by_path: dict[str, Any]) -> tuple[str, str]:
    """(kept, dropped) of the two copies of the English article: the first to be cleaned
    is kept, and the crawl fetches pages concurrently."""
    kept = [path for path in COPIES if path in by_path]
    assert len(kept) == 1, kept
    return kept[0], COPIES[1 - COPIES.index(kept[0])]


def test_bad_pages_reach_the_feed_counted_with_their_reason(site: str, tmp_path: Path) -> None:
    result = crawl(site, tmp_path, ALL, "WEBCLEAN_MAX_HTML_BYTES=200000")
    assert result.returncode == 0, result.stderr[-2000:]
    by_path = {item["url"].removeprefix(site): item for item in result.items}
    # one of the two copies of the English article is dropped; every other page is in it
    kept, copy = _copies(by_path)
    assert set(by_path) == set(ALL) - {copy}
    for path, reason in {**BAD_PAGES, "/huge": "too_large"}.items():
        assert by_path[path]["webclean_error"] == reason, path
        assert "html" not in by_path[path]
    assert by_path["/article-zh-gbk"]["encoding"] == "gb18030"
    assert any("\u4e00" <= char <= "\u9fff" for char in by_path["/article-zh-gbk"]["text"])
    assert by_path[kept]["text"].startswith("The city council voted")
    stats = result.stats
    assert stats["webclean/items/failed/not_html"] == 2
    assert stats["webclean/items/failed/empty"] == 1
    assert stats["webclean/items/failed/too_large"] == 1
    assert stats["webclean/items/in"] == len(ALL)
    assert stats["webclean/items/exported"] == len(result.items) == len(ALL) - 1
    assert stats["webclean/items/dropped/duplicate"] == 1
    assert "Error caught on signal handler" not in result.log
    assert "webclean items: 8 in, 7 exported (4 of them uncleaned" in result.log
    # a drop is one line at INFO naming the page it matched, never the item's text
    drop = [line for line in result.log.splitlines() if "Dropped:" in line]
    assert len(drop) == 1 and "INFO" in drop[0]
    assert f"{site}{copy} is an exact duplicate of {site}{kept}" in drop[0]
    assert result.log.count("The city council voted on Tuesday night") == 0


def test_hand_written_items_with_bytes_reach_the_feed(site: str, tmp_path: Path) -> None:
    """A spider that yields ``response.body`` itself: failed pages lose their bytes, not
    their place in the feed."""
    result = crawl(site, tmp_path, ALL, "WEBCLEAN_MAX_HTML_BYTES=200000", shape="raw")
    assert result.returncode == 0, result.stderr[-2000:]
    by_path = {item["url"].removeprefix(site): item for item in result.items}
    assert set(by_path) == set(ALL) - {_copies(by_path)[1]}
    for path, reason in {**BAD_PAGES, "/huge": "too_large"}.items():
        assert by_path[path]["webclean_error"] == reason, path
    assert by_path["/article-zh-gbk"]["encoding"] == "gb18030"
    assert "Error caught on signal handler" not in result.log


def test_keep_html_keeps_text_never_bytes(site: str, tmp_path: Path) -> None:
    result = crawl(site, tmp_path, ALL, "WEBCLEAN_KEEP_HTML=True", shape="raw")
    assert result.returncode == 0, result.stderr[-2000:]
    by_path = {item["url"].removeprefix(site): item for item in result.items}
    assert len(by_path) == len(ALL) - 1
    assert by_path[_copies(by_path)[0]]["html"].startswith("<html>")
    assert "html" not in by_path["/report.pdf"]  # a PDF's bytes are never "HTML text"


def test_cleaning_switched_off_exports_every_item(site: str, tmp_path: Path) -> None:
    result = crawl(site, tmp_path, ALL, "WEBCLEAN_ENABLED=False")
    assert result.returncode == 0, result.stderr[-2000:]
    assert len(result.items) == len(ALL)
    assert "Error caught on signal handler" not in result.log
    assert all(isinstance(item["html"], str) for item in result.items)


def test_drop_on_error_counts_every_drop(site: str, tmp_path: Path) -> None:
    result = crawl(site, tmp_path, ALL, "WEBCLEAN_ON_ERROR=drop", "WEBCLEAN_MAX_HTML_BYTES=200000")
    assert result.returncode == 0, result.stderr[-2000:]
    assert len(result.items) == 3  # the two articles and bad-field
    stats = result.stats
    assert stats["webclean/items/dropped/not_html"] == 2
    assert stats["webclean/items/dropped/empty"] == 1
    assert stats["webclean/items/dropped/too_large"] == 1
    assert "word word word" not in result.log  # the huge page's body is not logged
    assert "webclean items: 8 in, 3 exported (0 of them uncleaned" in result.log


def test_an_item_no_feed_can_write_is_counted_as_lost(site: str, tmp_path: Path) -> None:
    result = crawl(site, tmp_path, ["/article-en", "/bad-field"], extra="unwritable")
    assert result.returncode == 0, result.stderr[-2000:]
    assert [item["url"] for item in result.items] == [f"{site}/article-en"]
    assert result.stats["webclean/items/lost/feed_error"] == 1
    assert result.stats["webclean/items/exported"] == 1
    assert f"the feed could not write {site}/bad-field" in result.log
    assert "1 lost (feed_error 1)" in result.log


@pytest.mark.parametrize(
    ("setting", "named"),
    [
        ("WEBCLEAN_STATE=redsi", "WEBCLEAN_STATE = 'redsi' is not allowed"),
        ("WEBCLEAN_OUTPUT_FORMAT=md", "WEBCLEAN_OUTPUT_FORMAT = 'md' is not allowed"),
        ("WEBCLEAN_DEDUP_POLICY=keep", "WEBCLEAN_DEDUP_POLICY = 'keep' is not allowed"),
        ("WEBCLEAN_ON_ERROR=skip", "WEBCLEAN_ON_ERROR = 'skip' is not allowed"),
        ("WEBCLEAN_WORKERS=two", "WEBCLEAN_WORKERS = 'two' is not allowed"),
        ("WEBCLEAN_STATE=jobdir", "'jobdir' needs JOBDIR"),
        ('WEBCLEAN_OUTPUT_FIELDS={"images": "images"}', "IMAGES_RESULT_FIELD = 'images'"),
    ],
)
def test_a_wrong_setting_stops_the_crawl_before_any_request(
    site: str, tmp_path: Path, setting: str, named: str
) -> None:
    extra = ["ITEM_PIPELINES={\"scrapy.pipelines.images.ImagesPipeline\": 1}",
             f"IMAGES_STORE={tmp_path / 'images'}"] if "images" in setting else []  # fmt: skip
    result = crawl(site, tmp_path, ["/article-en"], setting, *extra)
    assert result.returncode != 0
    assert named in result.log  # (on the console when the crawl has no LOG_FILE)
    assert result.requests == []
    assert result.items == []


def test_redis_state_without_redis_py_stops_the_crawl(site: str, tmp_path: Path) -> None:
    # A 'redis' module that cannot be imported, first on the path: redis-py "not installed".
    blocker = tmp_path / "no-redis"
    blocker.mkdir()
    (blocker / "redis.py").write_text("raise ImportError('redis-py is not installed')\n")
    os.environ["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(blocker), os.environ.get("PYTHONPATH")])
    )
    try:
        result = crawl(site, tmp_path, ["/article-en"], "WEBCLEAN_STATE=redis")
    finally:
        parts = os.environ["PYTHONPATH"].split(os.pathsep)[1:]
        if parts:
            os.environ["PYTHONPATH"] = os.pathsep.join(parts)
        else:
            del os.environ["PYTHONPATH"]
    assert result.returncode != 0
    assert "pip install 'scrapy-webclean[redis]'" in result.log
    assert result.requests == []


def test_typos_are_warned_with_the_nearest_name(site: str, tmp_path: Path) -> None:
    result = crawl(
        site, tmp_path, ["/article-en"], "WEBCLEAN_ENABLE=False", "WEBCLEAN_SIMILARITY_THRESHOLD=3"
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "WEBCLEAN_ENABLE is not a webclean setting and is ignored; did you mean " \
        "WEBCLEAN_ENABLED?" in result.log  # fmt: skip
    assert "WEBCLEAN_SIMILARITY_THRESHOLD is ignored: removed in 0.2" in result.log
    assert result.items[0]["text"].startswith("The city council voted")  # cleaning still on
    assert "Enabled addons:\n[scrapy_webclean.Addon]" in result.log
    assert "webclean settings (the rest at their defaults" in result.log
    assert "WEBCLEAN_WORKERS=0" in result.log  # the spider's own value
