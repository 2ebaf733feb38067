"""A discussion thread's region is the container of its posts (``region.thread_region``)."""

from __future__ import annotations

from scrapy_webclean import CleanOptions, clean_html
from scrapy_webclean.extraction.options import ExtractOptions
from scrapy_webclean.extraction.region import thread_region
from scrapy_webclean.html.loader import load_html
from scrapy_webclean.html.pagemodel import build_page_model

RULES_ONLY = CleanOptions(line_model=None)

LONG_POST = (
    "Same here on my updated 64-bit Windows 7 host: after installing the release every "
    "guest lost its internet access, while the beta before it worked fine. "
) * 4


def post(number: int, body: str) -> str:
    """One phpBB-like post: its author card, its linked "Re:" heading, its body and a "Top"
    link (classes alternate ``bg1`` / ``bg2``)."""
    return (
        f'<div class="post has-profile bg{number % 2 + 1}" id="p{number}"><div class="inner">'
        f'<dl class="postprofile"><dt><a href="/member/{number}">user{number}</a></dt>'
        f"<dd>Posts: {number * 7}</dd></dl>"
        f'<div class="postbody"><h3><a href="#p{number}">Re: Discuss the 7.1.0 release here</a>'
        f'</h3><p class="author">Post by user{number} » 12. Sep 2024</p>'
        f'<div class="content">{body}</div></div>'
        '<div class="back2top"><a href="#top">Top</a></div></div></div>'
    )


def thread_page() -> str:
    posts = [post(i, f"Short reply number {i} about the network.") for i in range(6)]
    posts.insert(3, post(9, LONG_POST))
    return (
        "<html><head><title>Discuss the 7.1.0 release here</title></head><body>"
        '<div class="page-body"><h2>Discuss the 7.1.0 release here</h2>'
        f"{''.join(posts)}</div></body></html>"
    )


URL = "https://forums.example.org/viewtopic.php?t=112320"


def test_a_thread_is_every_post_not_its_longest() -> None:
    for options in (RULES_ONLY, CleanOptions()):
        text = clean_html(thread_page(), URL, options=options).text
        assert "guest lost its internet access" in text, options
        for i in (0, 2, 5):
            assert f"Short reply number {i} about the network." in text, (i, options)
    # With the thread rule off, the longest post alone is the region.
    off = CleanOptions(line_model=None, extract=ExtractOptions(thread_min_posts=10_000))
    assert "Short reply number 0" not in clean_html(thread_page(), URL, options=off).text


def test_thread_region_needs_alike_siblings() -> None:
    model = build_page_model(load_html(thread_page().encode(), None).root, URL)
    content = next(
        i
        for i, el in enumerate(model.elements)
        if el.get("class") == "content" and "guest lost" in "".join(el.itertext())
    )
    thread = thread_region(model, content, 3)
    assert model.elements[thread].get("class") == "page-body"
    # The page has seven posts (the element itself counts among its alike siblings).
    assert thread_region(model, content, 8) == -1
