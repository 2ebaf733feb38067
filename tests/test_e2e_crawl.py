"""End to end: the real ``scrapy crawl`` of example_project against the demo site on loopback.

The demo site is served in this process (threads, 127.0.0.x addresses); the crawl runs in a
subprocess exactly as a user runs it, and the JSON lines it writes are checked against the
truth the site generator recorded.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from demo_site.server import DemoServer
from scrapy_webclean.html.pagemodel import collapse_ws

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ROOT / "example_project"

pytestmark = pytest.mark.e2e


def norm(text: str) -> str:
    return collapse_ws(text).strip()


@pytest.fixture(scope="module")
def crawl(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    out_dir = tmp_path_factory.mktemp("crawl")
    output = out_dir / "cleaned.jsonl"
    stats_file = out_dir / "stats.json"
    log_file = out_dir / "crawl.log"
    with DemoServer() as server:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        command = [
            sys.executable, "-m", "scrapy", "crawl", "demo",
            "-a", f"port={server.port}",
            "-O", str(output),
            "-s", f"DEMO_STATS_FILE={stats_file}",
            "-s", f"LOG_FILE={log_file}",
            "-s", f"IMAGES_STORE={out_dir / 'images'}",
            "-s", f"WEBCLEAN_REJECTS_FEED={out_dir / 'rejects-%(spider)s.jsonl'}",
            "-s", "LOGSTATS_INTERVAL=0.5",
        ]  # fmt: skip
        completed = subprocess.run(
            command, cwd=PROJECT, env=env, capture_output=True, text=True, timeout=600
        )
        truth = server.truth
        served = list(server.served)
    log = log_file.read_text("utf-8") if log_file.exists() else ""
    assert completed.returncode == 0, completed.stderr[-3000:] + log[-3000:]
    raw = output.read_bytes()
    items = [json.loads(line) for line in raw.decode("utf-8").splitlines() if line.strip()]
    yield {
        "truth": truth,
        "raw": raw,
        "items": items,
        "stats": json.loads(stats_file.read_text("utf-8")),
        "log": log,
        "served": served,
        "rejects": [
            json.loads(line)
            for line in (out_dir / "rejects-demo.jsonl").read_text("utf-8").splitlines()
        ],
    }


def article_pages(truth: dict[str, Any]) -> list[dict[str, Any]]:
    return [page for page in truth["pages"] if page["type"] == "article"]


def copy_groups(truth: dict[str, Any]) -> dict[str, list[str]]:
    """Each original article's URL with the URLs of all its copies (reprints, mirrors)."""
    groups: dict[str, list[str]] = {}
    for page in article_pages(truth):
        original = page.get("copy_of") or page["url"]
        groups.setdefault(original, []).append(page["url"])
    return groups


def test_every_distinct_article_exported_exactly_once(crawl: dict[str, Any]) -> None:
    counts = Counter(item["url"] for item in crawl["items"])
    assert all(n == 1 for n in counts.values()), [u for u, n in counts.items() if n > 1]
    groups = copy_groups(crawl["truth"])
    assert len(groups) >= 60 and any(len(urls) > 1 for urls in groups.values())
    # One page of each article is exported, whichever copy the crawl met first.
    exported = {original: [u for u in urls if u in counts] for original, urls in groups.items()}
    assert not {original: urls for original, urls in exported.items() if len(urls) != 1}


def test_main_text_of_every_article(crawl: dict[str, Any]) -> None:
    by_url = {item["url"]: item for item in crawl["items"]}
    problems = []
    for page in article_pages(crawl["truth"]):
        item = by_url.get(page["url"])
        if item is None:  # a copy dropped as a duplicate (checked above)
            continue
        text = norm(item["text"])
        lost = [p for p in page["paragraphs"] if norm(p) not in text]
        if lost:
            problems.append((page["url"], f"{len(lost)} of {len(page['paragraphs'])} lost"))
        if norm(item["title"]) != norm(page["title"]):
            problems.append((page["url"], f"title {item['title']!r}"))
    assert not problems


def test_authors_come_from_the_bylines(crawl: dict[str, Any]) -> None:
    by_url = {item["url"]: item for item in crawl["items"]}
    named = 0
    for page in article_pages(crawl["truth"]):
        item = by_url.get(page["url"])
        if item is None:
            continue
        assert all(name in (page["byline"] or "") for name in item["author"]), item["url"]
        assert item["sitename"] and item["text_source"] == "html"
        named += bool(item["author"])
    # (the digest site's bylines name a source, not a person: "Source: ... | date")
    assert named >= 40


def test_no_template_text_in_main_text(crawl: dict[str, Any]) -> None:
    truth = crawl["truth"]
    problems = []
    for item in crawl["items"]:
        host = item["url"].split("/")[2].split(":")[0]
        for template in truth["sites"][host]["template_strings"]:
            if norm(template) and norm(template) in norm(item["text"]):
                problems.append((item["url"], template))
    assert not problems


def test_chinese_is_written_as_utf8(crawl: dict[str, Any]) -> None:
    raw = crawl["raw"]
    assert "江城".encode() in raw
    assert b"\\u6c5f" not in raw  # 江 escaped would mean FEED_EXPORT_ENCODING was not set
    zh = [item for item in crawl["items"] if item.get("lang") == "zh"]
    assert len(zh) >= 30
    gbk_pages = {p["url"] for p in crawl["truth"]["pages"] if p["charset"] == "gbk"}
    gbk_items = [item for item in crawl["items"] if item["url"] in gbk_pages]
    assert gbk_items and all(item["encoding"] == "gb18030" for item in gbk_items)


def test_raw_html_is_not_exported_and_stats_add_up(crawl: dict[str, Any]) -> None:
    items, stats = crawl["items"], crawl["stats"]
    assert all("html" not in item and "content_type" not in item for item in items)
    dropped = stats.get("webclean/dedup/dropped", 0)
    # Every article copy but one per article is dropped, plus hub pages that repeat another
    # hub page's teasers (the mirror site's, the digest's lists): never an article for a hub.
    copies = {url for urls in copy_groups(crawl["truth"]).values() for url in urls[1:]}
    assert dropped >= len(copies)
    drops = re.findall(r"webclean: (\S+) is an? (?:exact|near) duplicate of (\S+)", crawl["log"])
    assert len(drops) == dropped
    pages = {page["url"]: page for page in crawl["truth"]["pages"]}
    mixed = [
        (u, f)
        for u, f in drops
        if (pages[u]["type"] == "article") != (pages[f]["type"] == "article")
    ]
    assert not mixed
    assert len(items) == stats["item_scraped_count"]
    assert stats["webclean/items/in"] == stats["webclean/items/cleaned"] == len(items) + dropped
    assert (
        stats["webclean/dedup/unique"] + dropped + stats.get("webclean/dedup/skipped/no_text", 0)
        == stats["webclean/items/in"]
    )
    # Every text compared was fingerprinted where it was cleaned, not in the crawl's process.
    assert stats["webclean/dedup/fingerprints_handed"] == stats["webclean/dedup/unique"] + dropped
    assert "webclean dedup:" in crawl["log"]
    assert not [key for key in stats if key.startswith("webclean/items/failed")]
    assert "webclean summary:" in crawl["log"]


def test_no_ad_image_is_fetched_and_every_content_image_is(crawl: dict[str, Any]) -> None:
    kinds = {image["url"]: image["kind"] for image in crawl["truth"]["images"]}
    served = set(crawl["served"])
    assert not sorted(url for url in served if kinds.get(url) == "ad")
    content = {url for url, kind in kinds.items() if kind == "content"}
    assert content and not sorted(content - served)
    stats = crawl["stats"]
    saved = stats.get("webclean/images/saved", 0)
    # Every ad URL is a download saved; template images fetched early (before the site had
    # enough pages) are not.
    # (the demo's truth counts tracking pixels as ads and its spacer as template; the
    # filter files every image with a side of 1 or 2 pixels as a pixel)
    pixels = {
        image["url"]
        for image in crawl["truth"]["images"]
        if min(image["width"], image["height"]) <= 2
    }
    ads = {url for url, kind in kinds.items() if kind == "ad"}
    assert stats.get("webclean/images/saved/ad", 0) + stats.get(
        "webclean/images/saved/pixel", 0
    ) == len(ads | pixels)
    # A template image is a download saved when it was never fetched (one fetched before
    # the site had pages enough to tell is not).
    # (An image ImageUrlsFilterPipeline let through while its verdict was uncertain is
    # judged again by the middleware; dropped there, it is a download saved too.)
    templates = {url for url, kind in kinds.items() if kind == "template"} - pixels
    assert stats.get("webclean/images/saved/template", 0) == len(templates - served)
    assert stats["webclean/images/dropped"] >= saved
    assert f"webclean: {saved} image downloads saved" in crawl["log"]


def test_every_item_is_exported_or_dropped_for_a_stated_reason(crawl: dict[str, Any]) -> None:
    stats, rejects = crawl["stats"], crawl["rejects"]
    dropped = {k: v for k, v in stats.items() if k.startswith("webclean/items/dropped/")}
    assert stats["webclean/items/in"] == stats["item_scraped_count"] + sum(dropped.values())
    assert stats.get("item_dropped_count", 0) == sum(dropped.values()) == len(rejects)
    exported = {item["url"] for item in crawl["items"]}
    for reject in rejects:
        assert reject["reason"] == "duplicate" and reject["url"] not in exported
        assert reject["duplicate_of"] in exported, reject
    assert "webclean items: " in crawl["log"] and "went elsewhere" not in crawl["log"]


def test_progress_and_summary_in_the_log(crawl: dict[str, Any]) -> None:
    log = crawl["log"]
    assert re.search(r"webclean: cleaned \d+ pages \(at \d+ pages/min\), exported \d+ items", log)
    summary = log.split("webclean at the end of the crawl:", 1)[1]
    # (every article copy, 18, and the hub pages that repeat another hub's teasers)
    dropped = crawl["stats"]["webclean/dedup/dropped"]
    assert dropped >= 18 and re.search(rf"duplicates\s+{dropped}\n", summary)
    assert re.search(r"cleaned\s+154\n", summary)
    assert "slowest pages:" in summary and " ms  http://" in summary
