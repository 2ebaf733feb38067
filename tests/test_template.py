"""The per-site template model, learned online: its store, its evidence, and a cleaner that
learns a site's template from the second page on."""

from __future__ import annotations

from demo_site.site import build_site
from scrapy_webclean import Cleaner
from scrapy_webclean.cleaning import SHORT_LINE_UNITS
from scrapy_webclean.extraction.template import MemoryTemplateStore, TemplateModel, site_of
from scrapy_webclean.html.pagemodel import collapse_ws
from scrapy_webclean.segmentation.classify import text_units


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
    # After one page only short lines can be template; a long one needs two pages.
    assert model.template_flags("s", [1, 2], short=[True, False]) == [True, False]
    model.learn("s", [1, 3])
    assert model.template_flags("s", [1, 2, 4]) == [True, False, False]
    assert model.template_flags("s", [1, 2, 4], short=[False, True, True]) == [True, True, False]


def test_template_evidence_also_says_which_lines_were_seen_before() -> None:
    """A long line met on one earlier page is no template yet, but it was seen: the line
    model may not add it (a sidebar box on a site's second page)."""
    model = TemplateModel(min_pages=2, min_share=0.3)
    assert model.template_evidence("s", [1, 2])[:2] == ([False, False], [False, False])
    model.learn("s", [1, 2])
    flags, seen, _ = model.template_evidence("s", [1, 2, 3], short=[False, False, False])
    assert flags == [False, False, False] and seen == [True, True, False]


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
        # Short template lines go from the second page on, longer ones from the third.
        short = [t for t in templates if text_units(t) < SHORT_LINE_UNITS]
        assert short
        if number >= 1:
            assert not [t for t in short if t in text], info["url"]
        if number >= 2:
            assert not [t for t in templates if t in text], info["url"]
    assert cleaner.template_model.store.pages(host) == len(pages)
