"""CleanPipeline on dict, scrapy.Item and dataclass items; stats; failures never crash."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from pathlib import Path
from typing import Any

import pytest
import scrapy
from scrapy.exceptions import DropItem, NotConfigured
from scrapy.utils.test import get_crawler

from scrapy_webclean import CleanPipeline
from scrapy_webclean.integration.settings import SettingError
from tests.conftest import drive

FIXTURES = Path(__file__).parent / "fixtures"
EN_HTML = (FIXTURES / "news_en.html").read_bytes()
ZH_HTML = (FIXTURES / "news_zh.html").read_text("utf-8").encode("gbk")
URL = "http://127.0.0.2/2026/01/14/x/"


def make_pipeline(**settings: Any) -> tuple[CleanPipeline, Any]:
    crawler = get_crawler(settings_dict=settings)
    return CleanPipeline.from_crawler(crawler), crawler.stats


class PageItem(scrapy.Item):
    url = scrapy.Field()
    html = scrapy.Field()
    title = scrapy.Field()
    text = scrapy.Field()
    lang = scrapy.Field()


@dataclasses.dataclass
class PageRecord:
    url: str
    html: bytes | str | None
    title: str = ""
    text: str = ""
    lang: str = ""
    links: dict | None = None


def test_dict_item_is_cleaned_and_html_dropped() -> None:
    pipeline, stats = make_pipeline()
    item = drive(pipeline.process_item({"url": URL, "html": EN_HTML, "content_type": "text/html"}))
    assert set(item) == {
        "url",
        "title",
        "text",
        "lang",
        "encoding",
        "page_type",
        "date",
        "date_modified",
        "author",
        "sitename",
        "description",
        "categories",
        "tags",
        "image",
        "canonical_url",
        "license",
        "text_source",
        "links",
        "page_images",
    }
    assert "comments" not in item  # (only with WEBCLEAN_INCLUDE_COMMENTS)
    assert item["text_source"] == "html"
    assert item["title"] == "Council votes to turn Harbour Exchange into library"
    assert item["text"].startswith("The city council voted")
    assert item["lang"] == "en"
    assert set(item["links"]) == {"content", "related", "noise"}
    assert stats.get_value("webclean/items/in") == 1
    assert stats.get_value("webclean/items/cleaned") == 1
    assert stats.get_value("webclean/pages/lang/en") == 1
    assert stats.get_value("webclean/blocks/content") >= 1


def test_gbk_bytes_decoded_with_the_content_type_field() -> None:
    pipeline, stats = make_pipeline()
    item = drive(
        pipeline.process_item(
            {
                "url": "http://127.0.0.4/news/9.htm",
                "html": ZH_HTML,
                "content_type": b"text/html; charset=gbk",
            }
        )
    )
    assert item["text"].startswith("记者从市林业部门获悉")
    assert item["encoding"] == "gb18030"
    assert stats.get_value("webclean/pages/encoding/gb18030") == 1


def test_scrapy_item_gets_only_declared_fields(caplog: pytest.LogCaptureFixture) -> None:
    pipeline, _ = make_pipeline()
    with caplog.at_level(logging.WARNING):
        item = drive(pipeline.process_item(PageItem(url=URL, html=EN_HTML)))
        drive(pipeline.process_item(PageItem(url=URL, html=EN_HTML)))
    assert isinstance(item, PageItem)
    assert "html" not in item
    assert item["text"].startswith("The city council voted") and item["lang"] == "en"
    warnings = [r for r in caplog.records if "declares no field" in r.getMessage()]
    assert len(warnings) == 1 and "links" in warnings[0].getMessage()


def test_dataclass_item() -> None:
    pipeline, _ = make_pipeline()
    item = drive(pipeline.process_item(PageRecord(url=URL, html=EN_HTML.decode("utf-8"))))
    assert item.html is None
    assert item.title.startswith("Council votes") and item.lang == "en"
    assert item.links is not None and item.links["related"]


def test_keep_html_and_blocks_and_renamed_fields() -> None:
    pipeline, _ = make_pipeline(
        WEBCLEAN_KEEP_HTML=True,
        WEBCLEAN_INCLUDE_BLOCKS=True,
        WEBCLEAN_OUTPUT_FIELDS={"text": "main_text", "links": None},
    )
    item = drive(pipeline.process_item({"url": URL, "html": EN_HTML}))
    assert item["html"] == EN_HTML.decode("utf-8")  # kept as text: a feed cannot write bytes
    assert "main_text" in item and "text" not in item and "links" not in item
    labels = {block["label"] for block in item["blocks"]}
    assert labels == {"content", "related", "noise"}


def test_the_noise_groups_can_be_left_out() -> None:
    everything = drive(make_pipeline()[0].process_item({"url": URL, "html": EN_HTML}))
    assert (
        set(everything["links"])
        == set(everything["page_images"])
        == {
            "content",
            "related",
            "noise",
        }
    )
    assert everything["links"]["noise"]
    pipeline, _ = make_pipeline(WEBCLEAN_OUTPUT_GROUPS=["content", "related"])
    item = drive(pipeline.process_item({"url": URL, "html": EN_HTML}))
    assert set(item["links"]) == set(item["page_images"]) == {"content", "related"}
    assert item["links"]["related"] == everything["links"]["related"]
    with pytest.raises(SettingError, match="WEBCLEAN_OUTPUT_GROUPS"):
        make_pipeline(WEBCLEAN_OUTPUT_GROUPS=["content", "noize"])


def test_item_without_html_passes_untouched() -> None:
    pipeline, stats = make_pipeline()
    item = {"url": URL, "price": 3}
    assert drive(pipeline.process_item(item)) == {"url": URL, "price": 3}
    assert stats.get_value("webclean/items/no_html") == 1


@pytest.mark.parametrize(
    ("html", "reason"),
    [(b"   ", "no_html_content"), (bytes(range(256)) * 4, "not_html"), (12345, "bad_html_type")],
)
def test_bad_pages_are_passed_on_with_a_reason(html: Any, reason: str) -> None:
    pipeline, stats = make_pipeline()
    item = drive(pipeline.process_item({"url": URL, "html": html}))
    expected = "empty" if reason == "no_html_content" else reason
    assert item["webclean_error"] == expected
    assert stats.get_value(f"webclean/items/failed/{expected}") == 1


def test_bad_pages_dropped_when_configured() -> None:
    pipeline, stats = make_pipeline(WEBCLEAN_ON_ERROR="drop")
    with pytest.raises(DropItem, match="not_html"):
        drive(pipeline.process_item({"url": URL, "html": bytes(range(256)) * 4}))
    assert stats.get_value("webclean/items/dropped/not_html") == 1


def test_disabled_raises_not_configured() -> None:
    with pytest.raises(NotConfigured):
        make_pipeline(WEBCLEAN_ENABLED=False)


def test_invalid_on_error_setting() -> None:
    with pytest.raises(ValueError, match="WEBCLEAN_ON_ERROR"):
        make_pipeline(WEBCLEAN_ON_ERROR="explode")


def test_summary_is_logged_when_the_spider_closes(caplog: pytest.LogCaptureFixture) -> None:
    pipeline, stats = make_pipeline()
    drive(pipeline.process_item({"url": URL, "html": EN_HTML}))
    drive(pipeline.process_item({"url": URL, "html": b""}))
    with caplog.at_level(logging.INFO):
        pipeline._log_summary()
    message = " ".join(r.getMessage() for r in caplog.records)
    assert "webclean summary: 2 items in, 1 cleaned, 0 without HTML, 1 failed (empty: 1)" in message
    assert stats.get_value("webclean/time/clean_seconds") is not None


def test_a_page_over_the_size_limit_is_never_sent_to_a_worker() -> None:
    pipeline, stats = make_pipeline(WEBCLEAN_WORKERS=1, WEBCLEAN_MAX_HTML_BYTES=1000)
    stats.open_spider()
    page = {"url": URL, "html": b"<html><body><p>" + b"word " * 400 + b"</p></body></html>"}

    async def run() -> tuple[Any, bool]:
        try:
            item = await pipeline.process_item(page)
            return item, pipeline._workers is None
        finally:
            pipeline.close_spider()

    item, no_worker_started = asyncio.run(run())
    assert item["webclean_error"] == "too_large" and no_worker_started
    assert stats.get_value("webclean/items/failed/too_large") == 1
