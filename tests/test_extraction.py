"""Main-content extraction: lines, hints, the main region, and the online template model."""

from __future__ import annotations

from demo_site.site import build_site
from scrapy_webclean import Cleaner, clean_html
from scrapy_webclean.extraction.template import MemoryTemplateStore, TemplateModel, site_of
from scrapy_webclean.segmentation.blockmodel import collapse_ws

PROSE = (
    "The committee met on Monday to review the proposal, and its members agreed that the "
    "plan needed more work before it could go to a vote."
)


def page(body: str) -> str:
    return f"<html><head><title>T</title></head><body>{body}</body></html>"


def test_paragraphs_split_over_sibling_containers_are_one_region() -> None:
    paragraphs = "".join(
        f'<div class="para">{PROSE} Paragraph {i}.</div><div class="ad">Advertisement</div>'
        for i in range(6)
    )
    html = page(
        '<ul class="menu">'
        + "".join(f'<li><a href="/{i}">Item {i}</a></li>' for i in range(9))
        + f"</ul><section>{paragraphs}</section><footer>Copyright 2026 Example.</footer>"
    )
    text = clean_html(html).text
    assert [line.endswith(f"Paragraph {i}.") for i, line in enumerate(text.split("\n"))] == [
        True
    ] * 6
    assert "Item" not in text and "Copyright" not in text and "Advertisement" not in text


def test_comments_and_share_bars_are_left_out_by_their_names() -> None:
    html = page(
        f'<article class="post"><h1>Headline here</h1><p>{PROSE}</p><p>{PROSE}</p>'
        '<div class="share-buttons"><a href="/s">Share this story on your network</a></div>'
        f'<div id="comments"><p>{PROSE} A reader said so.</p></div></article>'
    )
    result = clean_html(html)
    assert result.text == f"{PROSE}\n{PROSE}"
    assert result.title == "Headline here"


def test_layout_word_on_a_wrapper_does_not_hide_the_article() -> None:
    html = page(
        f'<div class="container penci_sidebar"><article><p>{PROSE}</p><p>{PROSE}</p></article>'
        "<aside><p>About us: a small team.</p></aside></div>"
    )
    assert clean_html(html).text == f"{PROSE}\n{PROSE}"


def test_byline_is_metadata_not_text() -> None:
    html = page(
        f'<div class="story"><h1>Headline</h1><div>By Ann Lee | 2026-03-14</div><p>{PROSE}</p></div>'
    )
    assert clean_html(html).text == PROSE


def test_template_store_is_bounded() -> None:
    store = MemoryTemplateStore(max_sites=2, max_keys_per_site=10)
    for site in ("a", "b", "c"):
        store.add_page(site, range(5))
    assert len(store) == 2 and store.pages("a") == 0  # least recently used evicted
    store.add_page("c", range(5))
    store.add_page("c", range(100, 120))
    assert store.signature_count("c") <= 10
    assert store.counts("c", [0, 1]) == [2, 2]  # the frequent keys survive pruning


def test_template_model_needs_repeats_on_enough_pages() -> None:
    model = TemplateModel(min_pages=2, min_share=0.3)
    assert model.template_flags("s", [1, 2]) == [False, False]
    model.learn("s", [1, 2])
    model.learn("s", [1, 3])
    assert model.template_flags("s", [1, 2, 4]) == [True, False, False]


def test_site_of() -> None:
    assert site_of("https://www.Example.com:8080/a") == "example.com"
    assert site_of("http://127.0.0.2:8800/x") == "127.0.0.2"
    assert site_of(None) is None and site_of("not a url") is None


def test_cleaner_learns_a_sites_template_from_the_second_page_on() -> None:
    site = build_site(8800)
    truth = site.truth
    host = "127.0.0.6"  # the digest: short service pages whose sidebar box looks like prose
    templates = [collapse_ws(s).strip() for s in truth["sites"][host]["template_strings"]]
    pages = sorted((p for p in truth["pages"] if p["host"] == host), key=lambda p: p["url"])
    cleaner = Cleaner()
    for number, info in enumerate(pages):
        resource = site.resources[info["url"]]
        result = cleaner.clean(resource.body, info["url"], content_type=resource.content_type)
        text = collapse_ws(result.text)
        for paragraph in info["paragraphs"] if info["type"] == "article" else []:
            assert collapse_ws(paragraph).strip() in text, (info["url"], paragraph)
        if number >= 2:
            assert not [t for t in templates if t in text], info["url"]
    assert cleaner.template_model.store.pages(host) == len(pages)
