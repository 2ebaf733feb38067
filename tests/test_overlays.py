"""Consent dialogs and ad slots (``extraction.overlays``) are taken out before the page is
read: the page reads as it does without them."""

from __future__ import annotations

import pytest

from scrapy_webclean import CleanOptions, clean_html
from scrapy_webclean.extraction.lines import build_lines
from scrapy_webclean.extraction.overlays import overlay_nodes, without_overlays
from scrapy_webclean.html.loader import parse_html
from scrapy_webclean.html.pagewalk import build_page_model

URL = "https://news.example/2024/05/harbour-reopens"
PARAGRAPHS = [
    "The harbour reopened on Monday after a week of repairs to the old pier, which the "
    "storm had broken in two places.",
    "Fishermen said the damage was the worst they had seen in years, and that the "
    "closure had cost them most of the spring catch.",
    "The council will vote next month on a plan to rebuild the pier in concrete, at a "
    "cost the engineers put at two million pounds.",
    "Until then, boats will moor at the new floating jetty beside the lifeboat station.",
]
COOKIE = (
    '<div id="cookie-consent" class="cookie-banner" role="dialog" style="position: fixed">'
    "<p>We use cookies to give you the best experience on our website. By continuing to "
    'browse, you agree to our use of cookies. Read our <a href="/privacy">privacy '
    'policy</a>.</p><button class="cookie-accept">Accept all</button>'
    '<button class="cookie-reject">Reject all</button></div>'
)
AD = (
    '<div class="ad-slot ad-300x250"><span class="ad-label">Advertisement</span>'
    '<a href="https://click.ads.example/c?cr=1"><img src="https://cdn.ads.example/b.jpg" '
    'width="300" height="250"></a><p class="ad-text">Sponsored: Book your summer getaway '
    "today and save up to 30%.</p></div>"
)


def article(before: str = "", inside: str = "", after: str = "") -> str:
    paragraphs = [f"<p>{text}</p>" for text in PARAGRAPHS]
    paragraphs.insert(2, inside)
    return (
        "<html><head><title>Harbour reopens</title></head><body>"
        f"{before}<div class='nav'><a href='/'>Home</a><a href='/news'>News</a></div>"
        f"<article><h1>Harbour reopens</h1>{''.join(paragraphs)}</article>"
        f"<div class='footer'>Copyright News Example</div>{after}</body></html>"
    )


@pytest.mark.parametrize("model", ["default", "none"])
@pytest.mark.parametrize(
    "where",
    [{"before": COOKIE}, {"after": COOKIE}, {"inside": AD}, {"before": COOKIE, "inside": AD}],
)
def test_a_page_reads_the_same_with_a_consent_banner_or_an_ad_slot(
    where: dict[str, str], model: str
) -> None:
    options = CleanOptions() if model == "default" else CleanOptions(line_model=None)
    plain = clean_html(article(), URL, options=options).text
    assert all(text in plain for text in PARAGRAPHS)
    assert clean_html(article(**where), URL, options=options).text == plain


def _texts(page: str) -> tuple[list[str], int]:
    """The page's lines less its overlays', and how many nodes are overlays."""
    root, _ = parse_html(page)
    model = build_page_model(root, URL)
    return [line.text for line in without_overlays(model, build_lines(model))], sum(
        overlay_nodes(model)
    )


def test_only_the_overlays_lines_are_taken_out() -> None:
    plain, none = _texts(article())
    assert none == 0 and "Harbour reopens" in plain and "HomeNews" in plain
    # A banner before the text and an ad slot in it: the same lines.
    texts, nodes = _texts(article(before=COOKIE, inside=AD))
    assert texts == plain and nodes > 2


def test_an_ad_named_wrapper_of_the_text_is_no_ad_slot() -> None:
    page = article().replace("<article>", "<div class='ad-container'>")
    page = page.replace("</article>", "</div>")
    assert _texts(page)[1] == 0
    # A post's taxonomy names nothing, nor does a link named for an ad.
    page = article().replace("<article>", "<article class='post category-advertising'>")
    assert _texts(page)[1] == 0
    assert _texts(article(inside="<a class='ad-label' href='/x'>Our ads policy</a>"))[1] == 0
