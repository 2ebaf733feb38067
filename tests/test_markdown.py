"""Markdown output: the main content's structure kept, nothing of the template."""

from __future__ import annotations

from typing import Any

from scrapy.utils.test import get_crawler

from scrapy_webclean import clean_html
from scrapy_webclean.html.pagemodel import collapse_ws
from scrapy_webclean.integration.dedup import DedupPipeline
from scrapy_webclean.integration.pipelines import CleanPipeline
from scrapy_webclean.markdown import markdown_to_text
from tests.conftest import drive

EN = """<html><head><title>Harbour plan approved - The Courier</title></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></nav>
<article><h1>Harbour plan approved</h1>
<p>The council <b>voted 31 to 9</b> on Tuesday to approve the <a href="/plans/harbour">£6.4
million plan</a> for the <em>Victorian</em> trading hall, empty since 2011.</p>
<h2>What happens next</h2>
<p>Work starts in spring. The building will reopen as a library annex with around 120 desks
and rooms for community groups, the council said in a statement.</p>
<ul><li>A reading room with 120 desks on the ground floor</li>
<li>Bookable rooms upstairs for local community groups</li></ul>
<table><tr><th>Year</th><th>Event</th></tr>
<tr><td>1868</td><td>Hall completed for grain and timber contracts</td></tr>
<tr><td>2011</td><td>Closed after a structural survey found rot in the roof</td></tr></table>
<blockquote>It is a building the whole city remembers, and now it will be open again.</blockquote>
<p>Campaigners said they were delighted after years of open-air readings on its steps.</p>
</article>
<aside><h3>Most read</h3><ul><li><a href="/a">Bus fares rise</a></li><li><a href="/b">Tide
tables</a></li></ul></aside>
<footer>Copyright 2026 The Courier. All rights reserved.</footer></body></html>"""

ZH = """<html><head><meta charset="utf-8"><title>江城新开四条夜班公交线路_江城晚报</title></head>
<body><div class="nav"><a href="/">首页</a> <a href="/bendi/">本地</a> <a href="/caijing/">财经</a></div>
<div class="article"><h1>江城新开四条夜班公交线路</h1>
<p>市交通局昨日宣布，自下月起新开四条夜班公交线路，覆盖主要居住区和商业区，方便市民晚归。</p>
<h2>线路安排</h2>
<ol><li>夜1路：火车站至东港新区，每二十分钟一班。</li><li>夜2路：北湖公园至南塘街道，每半小时一班。</li></ol>
<p>交通局表示，将根据客流情况调整班次，并欢迎市民通过热线提出意见和建议。</p></div>
<div class="footer">版权所有 江城晚报社 联系我们</div></body></html>"""


def test_english_structure_is_kept() -> None:
    md = clean_html(EN, "http://example.com/news/harbour").markdown
    assert md.startswith("# Harbour plan approved\n")
    assert "**voted 31 to 9**" in md and "*Victorian*" in md
    assert "[£6.4 million plan](http://example.com/plans/harbour)" in md
    assert "\n## What happens next\n" in md
    assert "- A reading room with 120 desks on the ground floor" in md
    assert "| Year | Event |\n| --- | --- |\n| 1868 | Hall completed" in md
    assert "> It is a building the whole city remembers" in md
    for template in ("Home", "Sport", "Most read", "Bus fares", "Copyright"):
        assert template not in md


def test_chinese_structure_is_kept() -> None:
    result = clean_html(ZH.encode("utf-8"), "http://jiangcheng.example/news/1.htm")
    md = result.markdown
    assert md.startswith("# 江城新开四条夜班公交线路\n")
    assert "\n## 线路安排\n" in md
    assert "1. 夜1路：火车站至东港新区，每二十分钟一班。" in md
    for template in ("首页", "本地", "版权所有", "联系我们"):
        assert template not in md
    # The plain text of the Markdown is the main text.
    assert (
        collapse_ws(markdown_to_text(md))
        .replace(" ", "")
        .endswith(result.text.replace("\n", "").replace(" ", ""))
    )


def test_the_pipeline_writes_markdown_and_dedup_compares_its_words() -> None:
    settings: dict[str, Any] = {"WEBCLEAN_OUTPUT_FORMAT": "markdown", "WEBCLEAN_WORKERS": 0}
    crawler = get_crawler(settings_dict=settings)
    assert crawler.stats is not None
    crawler.stats.open_spider()
    clean = CleanPipeline.from_crawler(crawler)
    dedup = DedupPipeline.from_crawler(crawler)
    first = drive(clean.process_item({"url": "http://a.example/news/1", "html": EN}))
    assert (
        first["text"].startswith("# Harbour plan approved")
        and "](http://a.example/" in first["text"]
    )
    drive(dedup.process_item(first))
    # The same article on another host: other link targets, the same words.
    mirror = drive(clean.process_item({"url": "http://b.example/1", "html": EN}))
    assert "](http://b.example/" in mirror["text"]
    try:
        drive(dedup.process_item(mirror))
    except Exception as exc:  # DropItem
        assert "duplicate of http://a.example/news/1" in str(exc)
    else:
        raise AssertionError("the mirror was not found to be a copy")
