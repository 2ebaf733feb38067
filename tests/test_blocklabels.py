"""The labels of a cleaned page's blocks, by which its images and links are grouped."""

from __future__ import annotations

from scrapy_webclean import clean_html
from scrapy_webclean.blocklabels import common_ancestor
from scrapy_webclean.html.loader import load_html
from scrapy_webclean.html.pagewalk import build_page_model

STORY = " ".join(f"Sentence {i} tells how the harbour works went on all winter." for i in range(10))


def page(figure: str) -> str:
    return (
        "<html><head><title>Harbour works - News</title></head><body>"
        '<div id="nav"><a href="/">Home</a> <a href="/city">City</a></div>'
        f'<div class="story"><h1>Harbour works</h1><div class="byline">By Sam</div>{figure}'
        f'<div class="story-text"><p>{STORY}</p><p>{STORY} Again.</p></div></div>'
        '<div class="sidebar"><a href="/other.html"><img src="/thumbs/other.jpg" width="300"'
        ' height="200" alt="Other story"></a></div></body></html>'
    )


def images(html: str) -> dict[str, list[str]]:
    result = clean_html(html, "https://news.example.com/2026/harbour.html")
    return {k: [i.src for i in v] for k, v in result.images_by_label().items()}


def test_a_photo_with_its_caption_beside_the_text_is_content() -> None:
    figure = (
        '<div class="story-image"><img src="/photos/pier.jpg" width="640" height="360">'
        "<p>The north pier at dawn, seen from the old quay.</p></div>"
    )
    grouped = images(page(figure))
    assert "https://news.example.com/photos/pier.jpg" in grouped["content"]
    # A teaser's thumbnail linking to another story, outside the article, is not.
    assert "https://news.example.com/thumbs/other.jpg" not in grouped["content"]


def test_a_small_icon_or_a_linked_image_beside_the_text_is_not_a_figure() -> None:
    icon = '<div class="tools"><img src="/icons/print.png" width="16" height="16"></div>'
    promo = '<div class="promo"><a href="/subscribe"><img src="/p.jpg" width="600"></a></div>'
    grouped = images(page(icon + promo))
    assert not grouped["content"]


def test_common_ancestor() -> None:
    model = build_page_model(
        load_html("<html><body><div><p>a</p><p>b</p></div><p>c</p></body></html>").root
    )
    paragraphs = [i for i, tag in enumerate(model.tags) if tag == "p"]
    div = next(i for i, tag in enumerate(model.tags) if tag == "div")
    assert common_ancestor(model, paragraphs[:2]) == div
    assert model.tags[common_ancestor(model, paragraphs)] == "body"
    assert common_ancestor(model, [paragraphs[0]]) == paragraphs[0]
    assert common_ancestor(model, []) == -1
