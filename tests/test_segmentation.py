"""Quark segmentation and classification on small hand-made pages, Chinese and English."""

from __future__ import annotations

from pathlib import Path

import pytest

from scrapy_webclean import BlockLabel, CleanOptions, CleanResult, clean_html
from scrapy_webclean.html.loader import parse_html
from scrapy_webclean.html.pagewalk import build_page_model
from scrapy_webclean.segmentation import segment_page, segment_text
from scrapy_webclean.segmentation.classify import (
    NaiveBayesPriors,
    content_probability,
    text_units,
    token_overlap,
)
from tests.pages import PROSE, page

FIXTURES = Path(__file__).parent / "fixtures"


def labels(result: CleanResult) -> dict[str, BlockLabel]:
    return {block.path: block.label for block in result.blocks}


@pytest.fixture(scope="module")
def english() -> CleanResult:
    return clean_html((FIXTURES / "news_en.html").read_bytes(), "http://127.0.0.2/2026/01/14/x/")


@pytest.fixture(scope="module")
def chinese() -> CleanResult:
    html = (FIXTURES / "news_zh.html").read_text("utf-8").encode("gbk")
    return clean_html(html, "http://127.0.0.4/news/9.htm", content_type="text/html")


def test_english_blocks_and_labels(english: CleanResult) -> None:
    got = labels(english)
    assert got["body>div#main>div.article"] is BlockLabel.CONTENT
    assert got["body>div#header>ul.nav"] is BlockLabel.NOISE
    assert got["body>div#footer"] is BlockLabel.NOISE
    assert got["body>div#main>div.article>div.related>ul"] is BlockLabel.RELATED
    assert got["body>div#main>div#sidebar>ul"] is BlockLabel.RELATED
    # The headline is its own customised block, recognised as content.
    assert got["body>div#main>div.article>h1"] is BlockLabel.CONTENT


def test_english_text_title_language(english: CleanResult) -> None:
    assert english.title == "Council votes to turn Harbour Exchange into library"
    assert english.lang == "en"
    lines = english.text.split("\n")
    assert len(lines) == 3
    assert lines[0].startswith("The city council voted on Tuesday night")
    assert lines[2].endswith("by the end of next year.")
    for noise in ("Home", "Most Read", "Related articles", "All rights reserved", "Privacy"):
        assert noise not in english.text


def test_english_links_and_images_by_label(english: CleanResult) -> None:
    links = english.links_by_label()
    assert {link.url for link in links["related"]} >= {
        "http://127.0.0.2/a/1",
        "http://127.0.0.2/a/4",
    }
    assert "http://127.0.0.2/about" in {link.url for link in links["noise"]}
    images = english.images_by_label()
    assert [image.src for image in images["noise"]] == ["http://127.0.0.2/static/logo.png"]


def test_chinese_gbk_page(chinese: CleanResult) -> None:
    assert chinese.encoding == "gb18030"
    assert chinese.lang == "zh"
    assert chinese.title == "北湖湿地今冬越冬候鸟数量创新高"
    assert chinese.text.startswith("记者从市林业部门获悉")
    assert chinese.text.endswith("共同守护这片来之不易的生态家园。")
    assert chinese.text.count("\n") == 3
    for noise in ("首页", "相关新闻", "热点排行", "版权所有", "梧桐巷社区", "清溪河"):
        assert noise not in chinese.text
    got = labels(chinese)
    assert got["body>table>tr>td.left>div.xg>ul"] is BlockLabel.RELATED
    assert got["body>table>tr>td.right>div.hot>ol"] is BlockLabel.RELATED


def test_blocks_never_contain_each_other_and_lose_no_text() -> None:
    html = (FIXTURES / "news_en.html").read_text("utf-8")
    root, _ = parse_html(html)
    model = build_page_model(root)
    segments = segment_page(model)
    owned = [run for segment in segments for run in segment.runs]
    assert sorted(owned) == list(range(len(model.runs)))  # every run in exactly one block
    total = sum(len(segment_text(model, s).replace("\n", "")) for s in segments)
    assert total >= sum(len(run.text.strip()) for run in model.runs)


def test_custom_pattern_makes_byline_its_own_block(english: CleanResult) -> None:
    byline = [b for b in english.blocks if b.path.endswith("div.byline")]
    assert len(byline) == 1 and byline[0].features["custom_tag"]


def test_custom_tags_setting_changes_segmentation() -> None:

    html = (FIXTURES / "news_en.html").read_bytes()
    result = clean_html(html, options=CleanOptions(custom_tags=(), custom_patterns=()))
    assert not any(b.path.endswith(">h1") or b.path.endswith("div.byline") for b in result.blocks)


def test_naive_bayes_uses_the_thesis_priors() -> None:
    priors = NaiveBayesPriors()
    long_prose = dict.fromkeys(
        ["custom_tag", "noise_word_short", "many_links", "anchor_ratio"], False
    ) | dict.fromkeys(["punct_density", "punct_many", "long_text"], True)
    link_list = dict.fromkeys(priors.table(), False) | {"many_links": True, "anchor_ratio": True}
    assert content_probability(long_prose, priors) > 0.99
    assert content_probability(link_list, priors) < 0.001


def test_overlap_and_units() -> None:
    from collections import Counter

    assert token_overlap(Counter(["a", "b", "c"]), Counter(["b", "c", "d", "e", "f"])) == 2 / 3
    assert token_overlap(Counter(), Counter(["x"])) == 0.0
    assert text_units("中文字") == 3
    assert text_units("abcdef") == 2


def test_hub_page_is_a_listing_whose_items_are_the_text() -> None:
    items = "".join(
        f'<li><a href="/p/{i}">Story number {i} about the harbour and the city</a></li>'
        for i in range(30)
    )
    menu = "".join(f'<li><a href="/c/{i}">Menu {i}</a></li>' for i in range(8))
    html = f"<html><body><nav><ul>{menu}</ul></nav><div class='list'><ul>{items}</ul></div></body></html>"
    result = clean_html(html)
    assert result.page_type == "listing"
    lines = result.text.split("\n")
    assert len(lines) == 30 and lines[0] == "Story number 0 about the harbour and the city"
    assert "Menu" not in result.text


def test_page_without_content_is_other() -> None:
    result = clean_html("<html><body><ul><li><a href='/'>Home</a></li></ul></body></html>")
    assert (result.text, result.page_type) == ("", "other")


def test_explain_computes_the_quark_similarity_judge() -> None:

    html = (FIXTURES / "news_en.html").read_bytes()
    plain = clean_html(html)
    explained = clean_html(html, options=CleanOptions(explain=True))
    assert plain.text == explained.text
    assert all(b.similarity == 0.0 for b in plain.blocks)
    article = next(b for b in explained.blocks if b.path == "body>div#main>div.article")
    assert article.similarity == 1.0  # the longest block is the reference


def test_link_density_segmentation_splits_where_density_changes() -> None:
    from scrapy_webclean.html.loader import parse_html
    from scrapy_webclean.html.pagewalk import build_page_model
    from scrapy_webclean.segmentation.linkdensity import (
        link_density_blocks,
        neighbour_similarity,
    )

    assert neighbour_similarity(0.0, 0.0) == 1.0
    assert neighbour_similarity(0.2, 0.8) == 0.25
    html = page(
        '<div id="nav">'
        + "".join(f'<a href="/{i}">Section {i}</a> ' for i in range(5))
        + f'</div><div id="story"><p>{PROSE}</p><p>{PROSE}</p></div>'
    )
    root, _ = parse_html(html)
    model = build_page_model(root)
    blocks = link_density_blocks(model)
    ids = [model.elements[b.node].get("id") for b in blocks]
    assert ids == ["nav", "story"]
    assert blocks[0].density == 1.0 and blocks[1].density == 0.0
