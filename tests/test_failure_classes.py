"""The failure classes seen on held-out pages, each on a small page the test writes: a very
short page keeps its text, a one-paragraph article wins over its footnotes, notices and
captions, a documentation page keeps all its sections."""

from __future__ import annotations

import pytest

from scrapy_webclean import CleanOptions, clean_html

URL = "https://example.com/notes/page"

#: Pages of under 60 characters of text, each with the words it must keep.
SHORT_PAGES = {
    "a bare body": ("<html><body><p>Hello world.</p></body></html>", "Hello world."),
    "one div in wrappers": (
        "<html><head><title>Status</title></head><body><div class='wrap'>"
        "<div class='box'>All systems operational</div></div></body></html>",
        "All systems operational",
    ),
    "a notice under a menu": (
        "<html><head><title>Closed</title></head><body><div id='wrap'><div class='menu'>"
        "<a href='/a'>Shop</a><a href='/b'>Blog</a><a href='/c'>Help</a></div>"
        "<div><h2>We are closed for the holidays</h2><p>Back on 4 January.</p></div>"
        "</div></body></html>",
        "Back on 4 January.",
    ),
}


@pytest.mark.parametrize("model", ["default", "none"])
@pytest.mark.parametrize("name", sorted(SHORT_PAGES))
def test_a_very_short_page_keeps_its_text(name: str, model: str) -> None:
    html, expected = SHORT_PAGES[name]
    options = CleanOptions() if model == "default" else CleanOptions(line_model=None)
    text = clean_html(html.encode(), URL, options=options).text
    assert expected in text
