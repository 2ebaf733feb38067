"""What a page, or a long crawl, may make the cleaner keep: each cache and table is capped
(entries counted, memory measured with tracemalloc; no timings)."""

from __future__ import annotations

import gc
import json
import random
import tracemalloc
from dataclasses import replace
from pathlib import Path

import pytest
from datasketch import LeanMinHash, MinHashLSH
from lxml import etree

from scrapy_webclean import Cleaner, CleanOptions
from scrapy_webclean.ads import AdImageModel, ImageLink
from scrapy_webclean.ads import model as ad_model
from scrapy_webclean.dedup import NearDuplicateIndex
from scrapy_webclean.dedup.store import MemoryDedupStore
from scrapy_webclean.extraction import jsonld
from scrapy_webclean.extraction.dates import json_ld_date
from scrapy_webclean.extraction.declared import declared_text
from scrapy_webclean.html.loader import load_html
from scrapy_webclean.integration.workers import clean_page
from scrapy_webclean.state.backend import MemoryBackend, StateBackend
from scrapy_webclean.state.sqlite import SqliteBackend
from scrapy_webclean.state.stores import MAX_LEARNED_URLS_PER_SITE, BackendTemplateStore
from scrapy_webclean.urls import site_key
from tests.demo_texts import article

PROSE = "The council voted on Tuesday to approve the plan for the old trading hall. " * 12


def html_page(*scripts: str, body: str = "") -> str:
    tags = "".join(f'<script type="application/ld+json">{s}</script>' for s in scripts)
    return (
        f"<html><head><title>Harbour plan</title>{tags}</head><body><article>"
        f"<h1>Harbour plan</h1><p>{PROSE}</p>{body}</article></body></html>"
    )


def root_of(html: str) -> etree._Element:
    return load_html(html).root


def dated(day: int, padding: int = 0) -> str:
    """A JSON-LD article of that day, with ``padding`` empty objects (a parse about 25
    times its text)."""
    filler = ",".join(["{}"] * padding)
    return (
        json.dumps({"@type": "NewsArticle", "datePublished": f"2024-05-{day:02d}"})[:-1]
        + f', "x": [{filler}]}}'
    )


# -- JSON-LD -----------------------------------------------------------------------------


def test_a_json_ld_nested_too_deep_is_bad_input_and_the_page_cleans() -> None:
    deep = '{"@type": "Product", "datePublished": "2024-05-01", "offers": ' + "[" * 100_000
    deep += "]" * 100_000 + "}"
    html = html_page(deep, dated(3))
    cleaned = clean_page(Cleaner(CleanOptions()), html, "https://shop.example.com/a", None, False)
    assert cleaned.reason == "" and cleaned.data is not None
    assert cleaned.data["date"] == "2024-05-03"  # (the other script is still read)
    root = root_of(html)
    assert declared_text(root) == "" and len(jsonld.json_ld_items(root)) == 1


def test_a_deep_but_parseable_json_ld_is_walked_without_recursion() -> None:
    nested = '{"@type": "Thing", "a": ' * 500 + '{"@type": "NewsArticle"}' + "}" * 500
    objects = list(jsonld.json_objects(jsonld.json_ld_items(root_of(html_page(nested)))))
    assert len(objects) == 501 and jsonld.types_of(objects[-1]) == ["newsarticle"]


def test_scripts_over_the_script_cap_or_past_the_page_cap_are_not_parsed() -> None:
    too_long = dated(1, jsonld.MAX_SCRIPT_CHARS // 3 + 1)
    assert len(too_long) > jsonld.MAX_SCRIPT_CHARS
    assert json_ld_date(root_of(html_page(too_long, dated(2)))) == "2024-05-02"
    # Three scripts of 40% of the page's cap each: the third is past it.
    part = dated(4, int(jsonld.MAX_PAGE_CHARS * 0.4) // 3)
    items = jsonld.json_ld_items(root_of(html_page(part, part.replace("05-04", "05-05"), part)))
    assert len(items) == 2


def test_a_script_is_parsed_once_per_page_and_forgotten_with_the_page(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    parsed: list[str] = []
    real = jsonld._parse

    def counted(text: str) -> object:
        parsed.append(text)
        return real(text)

    monkeypatch.setattr(jsonld, "_parse", counted)
    product = json.dumps(
        {"@type": "Product", "description": "A lamp.", "datePublished": "2024-05-01"}
    )
    first = root_of(html_page(product))
    assert json_ld_date(first) == "2024-05-01" and declared_text(first) == "a lamp."
    assert len(parsed) == 1  # (the date and the declared text share the parse)
    second = root_of(html_page(dated(9)))
    assert json_ld_date(second) == "2024-05-09"
    assert list(jsonld._PAGE.parses) == [dated(9)]  # (the first page's parse is gone)
    assert json_ld_date(first) == "2024-05-01" and len(parsed) == 3  # (parsed again)


def test_pages_of_json_ld_leave_at_most_one_pages_parses_behind() -> None:
    pages = [root_of(html_page(dated(day, 60_000))) for day in range(1, 5)]  # 180 KB each
    json_ld_date(root_of(html_page(dated(28))))  # (warm: the module's first objects)
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        json_ld_date(pages[0])
        one = tracemalloc.get_traced_memory()[0] - base
        for root in pages[1:]:
            json_ld_date(root)
        gc.collect()
        four = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    assert one > 2_000_000  # (a page's parse is kept while it is the page read)
    assert four < 1.3 * one  # (the lru_cache before kept all four: 4x)


# -- the ad model's recent images ----------------------------------------------------------


def links_of(page_url: str, count: int) -> list[ImageLink]:
    return [
        ImageLink(page_url, f"https://cdn.example.com/{page_url[-3:]}/{i}.jpg", None, f"item {i}")
        for i in range(count)
    ]


def test_the_ad_model_remembers_at_most_so_many_images_of_a_page() -> None:
    model = AdImageModel()
    url = "https://shop.example.com/p/001"
    links = links_of(url, ad_model.MAX_IMAGES_PER_PAGE + 500)
    for at in (0, -1):  # two tracking pixels, the first and the last image
        links[at] = replace(links[at], width=1, height=1)
    model.observe_links(url, links)
    assert len(model._recent.get(url) or ()) == ad_model.MAX_IMAGES_PER_PAGE
    assert model.seen_image(links[0].src) and not model.seen_image(links[-1].src)
    # Every image counts in the site's statistics, remembered or not.
    assert model.redundancy.links(site_key(url)) == len(links)
    # One past the cap is judged as an image never seen: by its URL, not its size.
    assert model.judge(links[0].src, url).kind == "pixel"
    assert model.judge(links[-1].src, url).kind == "content"
    model.note_main_content(url, [link.src for link in links])
    assert model._cleaned.entries == ad_model.MAX_IMAGES_PER_PAGE


def test_the_ad_model_remembers_at_most_so_many_images_in_all() -> None:
    model = AdImageModel()
    per_page = 900
    pages = ad_model.MAX_RECENT_IMAGES // per_page + 5
    for number in range(pages):
        url = f"https://shop.example.com/p/{number:03d}"
        model.observe_links(url, links_of(url, per_page))
        model.note_main_content(url, [link.src for link in links_of(url, per_page)])
        assert model._recent.entries <= ad_model.MAX_RECENT_IMAGES
        assert model._cleaned.entries <= ad_model.MAX_RECENT_IMAGES
    assert len(model._recent) == ad_model.MAX_RECENT_IMAGES // per_page
    assert model.main_content_known(url) and not model.main_content_known(
        "https://shop.example.com/p/000"
    )


# -- tplurl: the pages of a site already learned ----------------------------------------------


@pytest.fixture(params=["memory", "sqlite"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> StateBackend:
    if request.param == "sqlite":
        return SqliteBackend(tmp_path / "state.sqlite3")
    return MemoryBackend()


def learn(store: BackendTemplateStore, url: str) -> None:
    with store.page(url):
        store.add_page("example.com", [1, 2, 3])


def test_the_learned_urls_of_a_site_are_capped(backend: StateBackend) -> None:
    cap = 200
    store = BackendTemplateStore(backend, max_urls_per_site=cap)
    for n in range(2_000):
        learn(store, f"https://example.com/a/{n}")
        assert backend.count_keys("tplurl:example.com") <= cap + 64
    assert store.pages("example.com") == 2_000 and store.relearned == 0
    assert MAX_LEARNED_URLS_PER_SITE == 10_000  # (the docs give its cost)


def test_a_page_cleaned_again_within_the_window_is_not_learned_again(
    backend: StateBackend,
) -> None:
    cap = 200  # (at least the last 100 claims are remembered)
    store = BackendTemplateStore(backend, max_urls_per_site=cap)
    for n in range(1_000):
        learn(store, f"https://example.com/a/{n}")
        if n % 20 == 0:  # a page fetched again and again (a start page): remembered
            learn(store, "https://example.com/")
        if n >= 25:  # a page fetched again soon after (a crawl resumed)
            learn(store, f"https://example.com/a/{n - 25}")
    assert store.pages("example.com") == 1_001
    assert store.relearned == 49 + 975
    # Long after, a page is forgotten: cleaned again, it is learned a second time.
    learn(store, "https://example.com/a/0")
    assert store.pages("example.com") == 1_002


# -- the near-duplicate index in memory --------------------------------------------------------


def texts(count: int, sentences: int, seed: int = 54) -> list[str]:
    """Distinct texts of ``sentences`` sentences of the demo articles' words."""
    words = [word.strip(".,;:!?\"'()") for n in range(1, 17) for word in article("en", n).split()]
    words = [word for word in words if word]
    rng = random.Random(seed)
    return [
        " ".join(
            " ".join(rng.choice(words) for _ in range(rng.randint(14, 24))).capitalize() + "."
            for _ in range(sentences)
        )
        for _ in range(count)
    ]


def kept_per_doc(docs: list[str]) -> float:
    """Bytes a :class:`NearDuplicateIndex` in memory keeps per text of ``docs`` (each
    checked, then added; tracemalloc)."""
    index = NearDuplicateIndex()
    index.check_and_add("warm", texts(1, 4, seed=1)[0])
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        for n, text in enumerate(docs):
            index.check_and_add(f"https://example.com/news/{n}.html", text)
        gc.collect()
        return (tracemalloc.get_traced_memory()[0] - base) / len(docs)
    finally:
        tracemalloc.stop()


def test_what_a_document_costs_the_memory_store() -> None:
    # Texts of many long sentences: their record, postings and exact hash, about 2 KB.
    # Texts of four long sentences (about 600 characters) keep their LSH bands too, in
    # datasketch's MinHashLSH: about 5 KB more (docs/memory.md).
    judge = NearDuplicateIndex()
    long_docs, short_docs = texts(300, 12), texts(300, 4)
    assert not any(judge._banded(judge.fingerprint(text)) for text in long_docs[:20])
    assert all(judge._banded(judge.fingerprint(text)) for text in short_docs[:20])
    unbanded, banded = kept_per_doc(long_docs), kept_per_doc(short_docs)
    assert unbanded < 2_600, unbanded
    assert 4_000 < banded - unbanded < 6_000 and banded < 7_500, (banded, unbanded)


def test_the_lsh_bands_are_in_datasketchs_minhash_lsh() -> None:
    store = MemoryDedupStore(max_docs=None)
    index = NearDuplicateIndex(store=store)
    first = texts(1, 4, seed=3)[0]
    index.check_and_add("a", first)
    (generation,) = store._generations
    assert isinstance(generation.lsh, MinHashLSH) and generation.lsh.keys.has_key(0)
    lean = LeanMinHash(seed=1, hashvalues=index.fingerprint(first).signature, scheme="affine32")
    assert generation.lsh.query(lean) == [0]


def test_the_memory_store_holds_at_most_max_docs_and_forgets_the_oldest() -> None:
    docs = texts(1_000, 8, seed=7)
    bounded = NearDuplicateIndex(store=MemoryDedupStore(max_docs=200))
    unbounded = NearDuplicateIndex(store=MemoryDedupStore(max_docs=None))
    copies = 0
    for n, text in enumerate(docs[:200]):  # (until it is full: the same answers)
        key = f"d{n}"
        copy = docs[n // 2] if n % 10 == 9 else text
        found = bounded.check_and_add(key, copy)
        assert found == unbounded.check_and_add(key, copy)
        copies += found is not None
    assert copies >= 10
    for n, text in enumerate(docs[200:], 200):
        assert bounded.check_and_add(f"d{n}", text) is None
    store = bounded.store
    assert isinstance(store, MemoryDedupStore)
    assert store.count() == 1_000 - copies and 100 <= store.held() <= 200
    assert sum(len(g.exact) for g in store._generations) <= 200
    last = store.count() - 1
    assert store.docs([0, last])[0] is None and store.docs([last])[0] is not None
    assert bounded.check_and_add("again", docs[990]) == "d990"  # (recent: found)
    assert bounded.check_and_add("old", docs[10]) is None  # (forgotten: new again)


def test_the_lsh_bands_beyond_the_bound_are_forgotten_with_their_documents() -> None:
    docs = texts(400, 4, seed=11)  # (all banded)
    index = NearDuplicateIndex(store=MemoryDedupStore(max_docs=60))
    store = index.store
    assert isinstance(store, MemoryDedupStore)
    for n, text in enumerate(docs):
        index.check_and_add(f"d{n}", text)
        assert store.held() <= 60
        banded = sum(g.lsh.keys.size() for g in store._generations)
        assert banded == store.held()  # (every band of a forgotten document is gone)
    for generation in store._generations:  # (each keeps the bands of its own documents)
        numbers = range(generation.first_id, generation.first_id + generation.docs)
        assert sorted(generation.lsh.keys.keys()) == list(numbers)
    lean = LeanMinHash(seed=1, hashvalues=index.fingerprint(docs[0]).signature, scheme="affine32")
    assert not any(g.lsh.query(lean) for g in store._generations)  # (the oldest: gone)
    assert index.check_and_add("old", docs[0]) is None
    assert index.check_and_add("recent", docs[-1]) == "d399"
