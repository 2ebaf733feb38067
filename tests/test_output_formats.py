"""What CleanPipeline writes with the output settings of issue 55: the metadata fields,
``WEBCLEAN_OUTPUT_FORMAT = "html"`` (minimal, sanitized HTML in ``text``),
``WEBCLEAN_MARKDOWN_LINKS``/``WEBCLEAN_MARKDOWN_IMAGES``, and ``WEBCLEAN_INCLUDE_COMMENTS``;
and the dedup pipeline compares an HTML text by its words."""

from __future__ import annotations

from typing import Any

import pytest
from scrapy.utils.test import get_crawler

from scrapy_webclean import CleanPipeline
from scrapy_webclean.integration.dedup import plain_text
from scrapy_webclean.integration.settings import SettingError
from tests.conftest import drive

URL = "https://news.example.com/2026/03/02/harbour-library/"
PARAGRAPHS = [
    "The city council voted on Tuesday to turn the empty Harbour Exchange into an annex "
    "of the central library, ending a decade of debate over the building's future.",
    "Work on the roof and the reading rooms starts in May and should take eighteen months, "
    "the council's planning office said in a statement after the vote.",
    "Residents who spoke at the meeting asked for longer opening hours on weekends and for "
    "a room set aside for the harbour's archive of shipping records.",
]
PAGE = f"""<!doctype html>
<html lang="en"><head>
<title>Council turns Harbour Exchange into library annex - Harbour Gazette</title>
<meta name="author" content="Jane Doe">
<meta property="og:site_name" content="Harbour Gazette">
<meta name="description" content="The council votes to reopen the Harbour Exchange.">
<link rel="canonical" href="/2026/03/02/harbour-library/">
</head><body>
<nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></nav>
<article>
<h1>Council turns Harbour Exchange into library annex</h1>
<p class="byline">By Jane Doe</p>
<p>{PARAGRAPHS[0]} <a href="https://council.example.org/minutes">The minutes</a> are out.</p>
<h2>What happens next</h2>
<p>{PARAGRAPHS[1]}</p>
<p><img src="/photos/exchange.jpg" alt="The Harbour Exchange" width="640" height="400"></p>
<p>{PARAGRAPHS[2]}</p>
</article>
<section id="comments"><h3>3 comments</h3>
<ol class="commentlist">
<li class="comment"><div class="comment-author"><cite class="fn">Mary Smith</cite></div>
<div class="comment-meta"><time datetime="2026-03-03T08:00:00Z">March 3, 2026</time></div>
<div class="comment-content"><p>At last something is done with that lovely old building;
I hope the reading rooms keep the original windows.</p></div><a class="reply">Reply</a></li>
<li class="comment"><div class="comment-author"><cite class="fn">Tom Brown</cite></div>
<div class="comment-meta"><time datetime="2026-03-04T09:30:00Z">March 4, 2026</time></div>
<div class="comment-content"><p>Eighteen months sounds optimistic for a roof of that size,
but the archive room is a very good idea.</p></div><a class="reply">Reply</a></li>
</ol></section>
<footer>Copyright 2026 Harbour Gazette. All rights reserved.</footer>
</body></html>"""


def clean(**settings: Any) -> dict[str, Any]:
    crawler = get_crawler(settings_dict={"WEBCLEAN_WORKERS": 0, **settings})
    pipeline = CleanPipeline.from_crawler(crawler)
    item: dict[str, Any] = drive(pipeline.process_item({"url": URL, "html": PAGE}))
    return item


def test_the_item_carries_the_metadata_fields() -> None:
    item = clean()
    assert item["author"] == ["Jane Doe"]
    assert item["sitename"] == "Harbour Gazette"
    assert item["description"] == "The council votes to reopen the Harbour Exchange."
    assert item["canonical_url"] == URL
    assert item["text_source"] == "html"
    assert item["license"] is None and item["image"] is None
    assert "comments" not in item


def test_html_output_is_minimal_and_keeps_the_structure() -> None:
    item = clean(WEBCLEAN_OUTPUT_FORMAT="html")
    html = item["text"]
    assert html.startswith("<h1>Council turns Harbour Exchange into library annex</h1>")
    assert "<h2>What happens next</h2>" in html
    assert '<a href="https://council.example.org/minutes">The minutes</a>' in html
    assert "<nav" not in html and "Copyright" not in html and "Mary Smith" not in html
    assert "class=" not in html and "<img" not in html
    assert PARAGRAPHS[1] in plain_text(html, "html").splitlines()


def test_markdown_links_off_and_images_on() -> None:
    markdown = clean(
        WEBCLEAN_OUTPUT_FORMAT="markdown",
        WEBCLEAN_MARKDOWN_LINKS=False,
        WEBCLEAN_MARKDOWN_IMAGES=True,
    )["text"]
    assert "The minutes are out." in markdown and "](https://council" not in markdown
    assert "![The Harbour Exchange](https://news.example.com/photos/exchange.jpg)" in markdown


def test_comments_come_apart_from_the_text() -> None:
    plain = clean()["text"]
    item = clean(WEBCLEAN_INCLUDE_COMMENTS=True)
    assert item["text"] == plain and "Mary Smith" not in plain
    assert [(c["author"], c["date"]) for c in item["comments"]] == [
        ("Mary Smith", "2026-03-03"),
        ("Tom Brown", "2026-03-04"),
    ]
    assert item["comments"][0]["text"].startswith("At last something is done")
    assert "Reply" not in item["comments"][0]["text"]


@pytest.mark.parametrize(
    ("name", "value"),
    [("WEBCLEAN_OUTPUT_FORMAT", "pdf"), ("WEBCLEAN_INCLUDE_COMMENTS", "maybe")],
)
def test_a_wrong_output_setting_stops_the_crawl(name: str, value: str) -> None:
    with pytest.raises(SettingError, match=name):
        CleanPipeline.from_crawler(get_crawler(settings_dict={name: value}))


def test_plain_text_of_an_html_text_is_one_line_a_block() -> None:
    html = "<h1>Title</h1><p>One <em>two</em> three.</p><ul><li>a</li><li>b</li></ul>"
    assert plain_text(html, "html") == "Title\nOne two three.\na\nb"
    assert plain_text("# T\n\n*x*", "markdown") == "T\n\nx"
    assert plain_text("as it is", "text") == "as it is"
