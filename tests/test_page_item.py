"""page_item builds the recommended page item; sniffing refuses what is not a page."""

from __future__ import annotations

import json

import pytest
from scrapy.http import HtmlResponse, Response, TextResponse

from scrapy_webclean import NotHtml, clean_html, page_item
from scrapy_webclean.html.sniff import check_magic, check_media_type, media_type

ZH = (
    "<html><body><article><p>"
    + "江城新开四条夜班公交线路，方便市民晚归。" * 8
    + "</p></article></body></html>"
)


def test_page_item_is_text_a_feed_can_write() -> None:
    response = HtmlResponse(
        "http://example.com/a", body=ZH.encode("gbk"), headers={"Content-Type": "text/html"}
    )
    item = page_item(response, section="news")
    assert item["html"] == ZH and item["encoding"] == "gb18030"
    assert item["content_type"] == "text/html" and item["section"] == "news"
    json.dumps(item)  # no bytes anywhere
    assert "江城" in clean_html(item["html"], item["url"]).text


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("application/pdf", b"%PDF-1.5\n1 0 obj"),
        ("text/html", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"),
        ("text/html", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"),
        (None, b"\xff\xd8\xff\xe0\x00\x10JFIF"),
        ("image/webp", b"RIFF\x00\x00\x00\x00WEBPVP8 "),
    ],
)
def test_page_item_marks_what_is_no_page(content_type: str | None, body: bytes) -> None:
    headers = {"Content-Type": content_type} if content_type else {}
    response = Response("http://example.com/file", body=body, headers=headers)
    item = page_item(response)
    assert item["html"] == "" and item["webclean_error"] == "not_html"
    json.dumps(item)


def test_page_item_does_not_decode_a_body_over_the_cap() -> None:
    body = ZH.encode("gbk")
    response = HtmlResponse(
        "http://example.com/a", body=body, headers={"Content-Type": "text/html"}
    )
    item = page_item(response, max_bytes=len(body) - 1)
    assert item["html"] == "" and item["webclean_error"] == "too_large"
    assert item["encoding"] is None and "gb18030" not in json.dumps(item)
    assert page_item(response, max_bytes=len(body))["html"] == ZH  # at the cap: decoded


def test_media_types() -> None:
    assert media_type(b"Text/HTML; charset=GBK") == "text/html"
    for ok in ("text/html", "application/xhtml+xml", "application/octet-stream", None, ""):
        check_media_type(ok)
    for refused in ("application/pdf", "image/png", "application/json", "video/mp4"):
        with pytest.raises(NotHtml, match=refused):
            check_media_type(refused)


def test_magic_numbers_and_html_that_starts_like_text() -> None:
    check_magic(b"<!doctype html><html>")
    check_magic("  <html><p>%PDF- is how a PDF starts</p></html>")
    with pytest.raises(NotHtml, match="PDF"):
        check_magic("\n%PDF-1.4 decoded as text")
    with pytest.raises(NotHtml, match="a PDF document"):
        clean_html(b"%PDF-1.5\n1 0 obj << /Length 44 >> stream\nBT ET\n")
    with pytest.raises(NotHtml):
        clean_html("<html><body>x</body></html>", content_type="application/pdf")


def test_text_response_without_header() -> None:
    response = TextResponse("http://example.com/", body=b"<html><p>plain</p></html>")
    assert page_item(response)["html"] == "<html><p>plain</p></html>"
