"""The page model (html.pagemodel): per-node counts in one iterative pass."""

from __future__ import annotations

import sys

from scrapy_webclean.html.loader import parse_html
from scrapy_webclean.html.pagemodel import PageModel
from scrapy_webclean.html.pagewalk import build_page_model
from scrapy_webclean.html.tagclasses import TagClass, tag_class

PAGE = """<html><head><title> A  page </title></head><body>
<div id="nav"><ul><li><a href="/a">Home</a></li><li><a href="/b">News</a></li></ul></div>
<div id="main"><p>Hello, <b>world</b>! <a href="/x">Link text</a></p>
<img src="/i.png" width="10" height="20px" alt="An image"><br>
<img src="data:image/gif;base64,R0lGOD" data-src="/lazy.png"></div>
<script>var hidden = "not text";</script><style>p { color: red }</style>
<div style="display: none">invisible words</div>
</body></html>"""


def model_of(html: str, url: str | None = "http://example.com/dir/page.html"):
    root, _ = parse_html(html)
    return build_page_model(root, url)


def node(model, tag: str, attr_id: str | None = None) -> int:
    for i, element in enumerate(model.elements):
        if model.tags[i] == tag and (attr_id is None or element.get("id") == attr_id):
            return i
    raise AssertionError(f"no {tag}#{attr_id}")


def test_tag_classes() -> None:
    assert tag_class("script") is TagClass.S
    assert tag_class("div") is TagClass.B and tag_class("article") is TagClass.B
    assert tag_class("p") is TagClass.L and tag_class("img") is TagClass.L
    assert tag_class("span") is TagClass.D and tag_class("h1") is TagClass.D
    assert tag_class("tr") is TagClass.A
    assert tag_class("my-widget") is TagClass.B and tag_class("o:p") is TagClass.D


def test_counts_on_a_hand_made_page() -> None:
    model = model_of(PAGE)
    main = node(model, "div", "main")
    # "Hello," (6) + "world" (5) + "!" (1) + "Link text" (9): run edges' spaces not counted.
    assert model.text_len[main] == 21
    assert model.anchor_len[main] == 9
    assert model.link_count[main] == 1
    assert model.punct_count[main] == 2
    assert model.l_count[main] == 4  # p, img, br, img
    nav = node(model, "div", "nav")
    assert model.text_len[nav] == 8 and model.anchor_len[nav] == 8
    assert model.link_count[nav] == 2 and model.l_count[nav] == 3  # ul, li, li
    assert model.link_density(nav) == 1.0
    body = node(model, "body")
    assert model.text_len[body] == 29  # script, style and the hidden div count nothing
    assert model.title == "A page"


def test_links_and_images_are_absolute_with_lazy_sources() -> None:
    model = model_of(PAGE)
    assert [(link.url, link.text) for link in model.links] == [
        ("http://example.com/a", "Home"),
        ("http://example.com/b", "News"),
        ("http://example.com/x", "Link text"),
    ]
    first, lazy = model.images
    assert (first.src, first.width, first.height, first.alt) == (
        "http://example.com/i.png",
        10,
        20,
        "An image",
    )
    assert lazy.src == "http://example.com/lazy.png"


def test_invisible_subtrees_are_marked() -> None:
    model = model_of(PAGE)
    assert not model.visible[node(model, "script")]
    assert not model.visible[node(model, "style")]
    texts = " ".join(run.text for run in model.runs)
    assert "hidden" not in texts and "invisible" not in texts and "color" not in texts


def _deepest(model: PageModel) -> int:
    """Levels from the root to the most deeply nested node."""
    depth = [0] * len(model)
    for i in range(1, len(model)):
        depth[i] = depth[model.parents[i]] + 1
    return max(depth)


def test_deeper_than_the_recursion_limit_without_flattening() -> None:
    depth = sys.getrecursionlimit() + 500  # libxml2 keeps up to 2048 levels
    html = "<html><body>" + "<div>" * depth + "deep text" + "</div>" * depth + "</body></html>"
    root, flattened = parse_html(html)
    assert not flattened
    model = build_page_model(root)
    assert _deepest(model) > depth
    assert model.text_len[0] == len("deep text")


def test_hundred_thousand_nested_divs() -> None:
    depth = 100_000
    html = (
        "<html><body><p>top</p>"
        + "<div>" * depth
        + "deep text"
        + "</div>" * depth
        + "</body></html>"
    )
    root, _ = parse_html(html)
    model = build_page_model(root)
    assert model.text_len[0] == len("top") + len("deep text")
    assert _deepest(model) <= 1100


def test_link_resolution_matches_urljoin() -> None:
    from urllib.parse import urljoin

    from scrapy_webclean.html.pagemodel import UrlResolver

    hrefs = [
        "/a/b",
        "//cdn.example.org/x.png",
        "c/d.html",
        "../up.html",
        "./here.html",
        "?page=2",
        "#top",
        "https://other.org/",
        "mailto:someone@example.com",
        "tel:+123",
        " spaced.html ",
        "/x?#frag",
        "a/b?",
    ]
    for base in ("https://example.com/news/2024/story.html?x=1", "http://example.com", None):
        resolve = UrlResolver(base)
        for href in hrefs:
            expected = href.strip() if base is None else urljoin(base, href.strip())
            assert resolve(href) == expected, (base, href)


def test_an_images_link_is_made_absolute_like_its_source() -> None:
    from scrapy_webclean import clean_html

    story = "Long text of the story, told at length for the reader. " * 12
    html = (
        f'<html><body><div class="article"><p>{story}<a href="/full/big.jpg">'
        '<img src="/small.jpg" width="400" height="300"></a></p></div></body></html>'
    )
    result = clean_html(html.encode(), "http://example.com/a/b.html")
    images = [image for group in result.images_by_label().values() for image in group]
    assert [(i.src, i.link) for i in images] == [
        ("http://example.com/small.jpg", "http://example.com/full/big.jpg")
    ]
