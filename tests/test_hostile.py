"""Hostile and broken pages: each is cleaned or refused with a stated reason, without
touching the network; nothing escapes as an exception from the pipeline. No test here
asserts a time: how the cost of each hostile input class grows with its size is
``tests/test_linear_time.py``'s (a ratio, in one process).

The pages are made here (nothing big is shipped): see each test.
"""

from __future__ import annotations

import codecs
import contextlib
import http.server
import threading
import time
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest
from scrapy.utils.test import get_crawler

from scrapy_webclean import clean_html
from scrapy_webclean.errors import CleanError
from scrapy_webclean.integration.pipelines import CleanPipeline
from tests.conftest import drive

ZH = "江城新开四条夜班公交线路，方便市民晚归。市交通局表示，新线路将覆盖主要居住区和商业区。"
EN = "The council voted on Tuesday to turn the old harbour exchange into a library annex."


def page(body: str, head: str = "") -> str:
    return f"<html><head>{head}<title>t</title></head><body>{body}</body></html>"


def reason(html: bytes | str, content_type: str | None = None) -> str:
    with pytest.raises(CleanError) as caught:
        clean_html(html, "http://example.com/a", content_type=content_type)
    return caught.value.reason


def test_empty_and_binary_bodies_are_refused_with_their_reason() -> None:
    assert reason(b"") == "empty"
    assert reason("   \n ") == "empty"
    binary = bytes(range(256)) * 200
    assert reason(binary, "text/html") == "not_html"


def test_pages_over_a_limit_are_skipped_whole() -> None:
    huge = page("<p>" + EN + "</p>" * 1).encode() + b" " * 20_000_000  # a 20 MB page
    assert reason(huge) == "too_large"
    deep = page("<div>" * 100_000 + EN + "</div>" * 100_000)
    assert reason(deep) == "too_deep"
    siblings = page("<i>x</i>" * 1_000_000)
    assert reason(siblings) == "too_many_nodes"
    run = page("<p>" + "a" * 1_200_000 + "</p>")
    assert reason(run) == "text_too_long"
    # Moderately deep (but under the limit) is cleaned.
    nested = page("<div>" * 900 + f"<p>{EN}</p>" + "</div>" * 900)
    assert EN in clean_html(nested).text


def test_gbk_labelled_utf8_and_the_reverse() -> None:
    gbk = page(f"<article><p>{ZH}</p><p>{ZH}</p></article>").encode("gbk")
    result = clean_html(gbk, content_type="text/html; charset=utf-8")
    assert ZH in result.text and result.encoding == "gb18030"
    utf8 = page(f"<article><p>{ZH}</p><p>{ZH}</p></article>", '<meta charset="gbk">').encode(
        "utf-8"
    )
    result = clean_html(utf8, content_type="text/html; charset=gbk")
    assert ZH in result.text and result.encoding == "utf-8"
    missing = page(f"<article><p>{ZH}</p><p>{ZH}</p></article>").encode("gb18030")
    assert ZH in clean_html(missing).text


def test_a_bom_that_disagrees_with_the_meta_charset_wins() -> None:
    body = page(f"<article><p>{ZH}</p><p>{ZH}</p></article>", '<meta charset="gbk">')
    result = clean_html(codecs.BOM_UTF8 + body.encode("utf-8"))
    assert ZH in result.text and result.encoding == "utf-8"
    utf16 = codecs.BOM_UTF16_LE + body.encode("utf-16-le")
    assert ZH in clean_html(utf16).text


def test_frames_only_and_script_only_pages() -> None:
    frames = (
        "<html><head><title>f</title></head><frameset cols='50%,50%'>"
        "<frame src='a.html'><frame src='b.html'></frameset></html>"
    )
    result = clean_html(frames)
    assert result.text == "" and result.page_type == "other"
    scripts = (
        "<html><head><script>var secret = 'SCRIPTTEXT';</script></head><body>"
        + ("<script>document.write('SCRIPTTEXT " + "x" * 100 + "');</script>" * 50)
        + "<style>.a{color:red} STYLETEXT</style><noscript>Enable JavaScript.</noscript></body></html>"
    )
    result = clean_html(scripts)
    assert "SCRIPTTEXT" not in result.text and "STYLETEXT" not in result.text


class _Recorder(http.server.BaseHTTPRequestHandler):
    hits: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        self.hits.append(self.path)
        body = b'<!ENTITY leak "LEAKED-BY-DTD">'
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture()
def recorder() -> Iterator[tuple[str, list[str]]]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    _Recorder.hits = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", _Recorder.hits
    finally:
        server.shutdown()


def test_xhtml_entities_are_not_expanded_and_nothing_is_fetched(
    recorder: tuple[str, list[str]],
) -> None:
    base, hits = recorder
    entities = [(n, f"&lol{n - 1};" * 10) for n in range(1, 10)]
    laughs = "".join(f'<!ENTITY lol{n} "{value}">' for n, value in entities)
    xhtml = (
        '<?xml version="1.0"?>\n'
        f'<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "{base}/xhtml1.dtd" [\n'
        f'<!ENTITY lol0 "lol">{laughs}<!ENTITY xxe SYSTEM "{base}/secret">\n'
        f'<!ENTITY % remote SYSTEM "{base}/remote.dtd"> %remote;\n]>\n'
        '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>x</title></head><body>'
        f"<article><p>{EN} &lol9; &xxe; &leak; &amp; &eacute;</p><p>{EN}</p></article>"
        "</body></html>"
    )
    result = clean_html(xhtml.encode("utf-8"), "http://example.com/x")
    assert EN in result.text
    assert "lollol" not in result.text and "LEAKED" not in result.text
    assert len(result.text) < 10 * len(EN)
    time.sleep(0.2)
    assert hits == []


#: Text that makes backtracking regular expressions explode: long runs of one class,
#: alternations of two, almost-matches repeated.
_NASTY = [
    "a" * 30_000,
    " " * 30_000,
    "a " * 15_000,
    "\t\n" * 15_000,
    "1" * 30_000,
    "1-" * 15_000,
    "。" * 30_000,
    "中" * 30_000,
    "<" * 30_000,
    "<a " * 10_000,
    "http://" + "a." * 15_000,
    "@" * 10_000 + "a" * 10_000,
    "Photo: " * 5_000,
    "2026-" * 6_000,
    "&#" * 15_000,
    "=" * 30_000,
    "'\"" * 15_000,
    "aaaa.bbbb " * 3_000 + "!",
]


def test_nasty_text_in_a_page_is_cleaned_or_refused() -> None:
    # (How the time grows with such text is tests/test_linear_time.py's: no time here.)
    for text in _NASTY:
        html = page(f"<article><h1>{text[:200]}</h1><p>{text}</p><p>{EN}</p></article>")
        with contextlib.suppress(CleanError):
            clean_html(html, "http://example.com/n")


def test_the_pipeline_counts_refused_pages_and_passes_them_on() -> None:
    crawler = get_crawler(settings_dict={"WEBCLEAN_MAX_HTML_BYTES": 1000})
    crawler.stats.open_spider()  # type: ignore[union-attr,call-arg]
    pipeline = CleanPipeline.from_crawler(crawler)
    items = [
        {"url": "http://a/1", "html": b""},
        {"url": "http://a/2", "html": bytes(range(256)) * 2, "content_type": "text/html"},
        {"url": "http://a/3", "html": page("<p>" + EN * 20 + "</p>")},
        {"url": "http://a/4", "html": 42},
        {"url": "http://a/5", "html": page(f"<p>{EN}</p>")},
    ]
    out = [drive(pipeline.process_item(item)) for item in items]
    assert [item.get("webclean_error") for item in out] == [
        "empty",  # counted as a page that could not be cleaned
        "not_html",
        "too_large",
        "bad_html_type",
        None,
    ]
    get = crawler.stats.get_value  # type: ignore[union-attr]
    assert get("webclean/items/failed/empty") == 1
    assert get("webclean/items/failed/not_html") == 1
    assert get("webclean/items/failed/too_large") == 1
    assert not any(isinstance(v, bytes) for item in out for v in item.values())
    assert get("webclean/items/in") == 5
