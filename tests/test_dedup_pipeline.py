"""Near-duplicate detection in the crawl: the pipeline (drop or mark, counts), list pages
against articles, and fingerprints made in another process."""

from __future__ import annotations

from typing import Any

import pytest
from scrapy.exceptions import DropItem
from scrapy.settings import Settings
from scrapy.utils.test import get_crawler

from scrapy_webclean.dedup import DedupOptions, MemoryDedupStore
from scrapy_webclean.dedup.pageindex import LIST_MIN_JACCARD, PageIndex
from scrapy_webclean.integration.dedup import DedupPipeline
from scrapy_webclean.integration.settings import SettingError, check_settings
from tests.demo_texts import article, paragraphs


def run(dedup: DedupPipeline, item: dict[str, Any]) -> Any:
    """``process_item`` with the in-memory state, which never waits: driven by hand."""
    coro = dedup.process_item(item)
    try:
        coro.send(None)
    except StopIteration as stop:
        return stop.value
    raise AssertionError("process_item waited with in-memory state")


def pipeline(**settings: object) -> tuple[DedupPipeline, object]:
    crawler = get_crawler(settings_dict=settings)
    crawler.stats.open_spider()  # type: ignore[union-attr,call-arg]
    return DedupPipeline.from_crawler(crawler), crawler.stats


def test_pipeline_drops_later_copies_and_counts() -> None:
    dedup, stats = pipeline()
    text = article("zh", 2)
    run(dedup, {"url": "http://a/1", "text": text, "page_type": "article"})
    with pytest.raises(DropItem, match="duplicate of http://a/1"):
        run(dedup, {"url": "http://b/1", "text": text, "page_type": "article"})
    # Hub pages are compared with the articles for exact copies only, and with the hub
    # pages before them for near-identical ones.
    hub = {"url": "http://b/list", "text": paragraphs(text)[0], "page_type": "listing"}
    assert run(dedup, hub) is hub
    hub_again = {"url": "http://b/list?utm=x", "text": hub["text"], "page_type": "listing"}
    with pytest.raises(DropItem, match="duplicate of http://b/list"):
        run(dedup, hub_again)
    assert run(dedup, {"url": "http://c", "text": "", "page_type": "other"})
    # A page of a few lines ("other") is not compared: two sections with the same
    # placeholder are two pages.
    empty = "There are no stories in this section yet."
    for section in ("health", "economy"):
        page = {"url": f"http://a/{section}", "text": empty, "page_type": "other"}
        assert run(dedup, page) is page
    get = stats.get_value  # type: ignore[attr-defined]
    assert get("webclean/dedup/unique") == 2 and get("webclean/dedup/exact") == 2
    assert get("webclean/dedup/skipped/no_text") == 3


def test_pipeline_marks_when_asked() -> None:
    dedup, _ = pipeline(WEBCLEAN_DEDUP_POLICY="mark")
    text = article("en", 5)
    run(dedup, {"url": "http://a/1", "text": text})
    item = run(dedup, {"url": "http://b/1", "text": text + "\nReprinted."})
    assert item["duplicate_of"] == "http://a/1"


def teaser_list(numbers: range, stamp: str) -> str:
    """A section page: a teaser line of each demo article of ``numbers``, then a date."""
    lines = [paragraphs(article("en", n))[0] for n in numbers]
    return "\n".join([*lines, f"Updated {stamp}."])


def test_list_pages_are_copies_only_when_near_identical() -> None:
    index = PageIndex.of_stores(DedupOptions(), MemoryDedupStore(), MemoryDedupStore())
    first = teaser_list(range(1, 9), "9 March 2024, 10:02")
    # The same section under another address an hour later: a copy.
    again = teaser_list(range(1, 9), "9 March 2024, 11:15")
    # The section's next page shares two teasers: another page.
    older = teaser_list(range(7, 13), "9 March 2024, 11:20")
    results = index.check_many([("http://a/news", first, True), ("http://a/news?p=1", again, True)])
    assert results[0] is None
    assert results[1] is not None and results[1].key == "http://a/news"
    assert results[1].kind == "near" and results[1].jaccard >= LIST_MIN_JACCARD
    assert index.check_many([("http://a/news?page=2", older, True)]) == [None]


def test_an_article_is_never_a_copy_of_a_list_page_quoting_it() -> None:
    index = PageIndex.of_stores(DedupOptions(), MemoryDedupStore(), MemoryDedupStore())
    text = article("en", 3)
    hub = "\n".join(paragraphs(text)[:3])  # a list that quotes the article's first lines
    assert index.check_many([("http://a/", hub, True)]) == [None]
    assert index.check_many([("http://a/story-3", text, False)]) == [None]
    # An article's exact text under a list's page type is still its exact copy.
    (match,) = index.check_many([("http://b/story-3", text, True)])
    assert match is not None and match.kind == "exact" and match.key == "http://a/story-3"
    assert len(index) == 2  # the hub in the lists' index, the article in the articles'


def test_a_front_page_is_compared_as_a_list_whatever_its_type() -> None:
    # A digest's front page whose long teasers read as prose ("article"), and a section
    # page quoting most of them: two pages, whichever the crawl meets first.
    teasers = [paragraphs(article("en", n))[0] for n in range(1, 9)]
    front = "\n".join([*teasers, "Updated 9 March 2024."])
    section = "\n".join([*teasers[:7], "Updated 9 March 2024, 11:15."])
    pages = [("http://d/", front), ("http://d/list/en/", section)]
    for order in (pages, pages[::-1]):
        dedup, stats = pipeline()
        for url, text in order:
            item = {"url": url, "text": text, "page_type": "article"}
            assert run(dedup, item) is item
        assert stats.get_value("webclean/dedup/unique") == 2  # type: ignore[attr-defined]


def test_fingerprints_made_elsewhere_give_the_same_answers() -> None:
    texts = [
        ("http://a/1", article("en", 1), False),
        ("http://b/1", article("en", 1) + "\nReprinted with permission.", False),
        ("http://a/list", "\n".join(paragraphs(article("en", 2))[:3]), True),
        ("http://b/list", "\n".join(paragraphs(article("en", 2))[:3]), True),
        ("http://a/2", article("zh", 4), False),
    ]
    fresh = PageIndex.of_stores(DedupOptions(), MemoryDedupStore(), MemoryDedupStore())
    made = PageIndex.of_stores(DedupOptions(), MemoryDedupStore(), MemoryDedupStore())
    expected = fresh.check_many(texts)
    fps = [made.articles.fingerprint(text) for _, text, _ in texts]
    fps[0] = None  # (one not made elsewhere: fingerprinted by the index)
    assert made.check_many(texts, fps) == expected
    assert [m.key if m else None for m in expected] == [
        None,
        "http://a/1",
        None,
        "http://a/list",
        None,
    ]


def test_the_pipeline_takes_a_handed_fingerprint_for_its_own_text_only() -> None:
    dedup, stats = pipeline()
    text = article("en", 6)
    first = {"url": "http://a/1", "text": text, "page_type": "article"}
    dedup.hand_fingerprint(first, text, dedup.index.articles.fingerprint(text))
    assert run(dedup, first) is first
    # A fingerprint of another text (the item's text changed since) is not used.
    copy = {"url": "http://b/1", "text": text, "page_type": "article"}
    other = article("en", 7)
    dedup.hand_fingerprint(copy, other, dedup.index.articles.fingerprint(other))
    with pytest.raises(DropItem, match="duplicate of http://a/1"):
        run(dedup, copy)
    assert stats.get_value("webclean/dedup/fingerprints_handed") == 1  # type: ignore[attr-defined]
    assert not dedup._handed


def test_a_markdown_item_is_compared_by_the_fingerprint_handed_with_its_stored_text() -> None:
    from scrapy_webclean.markdown import markdown_to_text

    dedup, stats = pipeline(WEBCLEAN_OUTPUT_FORMAT="markdown")
    plain = article("en", 8)
    stored = "\n\n".join(f"[{line}](http://a/{i})" for i, line in enumerate(paragraphs(plain)))
    fp = dedup.index.articles.fingerprint(markdown_to_text(stored))
    first = {"url": "http://a/1", "text": stored, "page_type": "article"}
    dedup.hand_fingerprint(first, stored, fp)
    assert run(dedup, first) is first
    # The same words under other link targets, fingerprinted here: a copy of the first.
    copy = {
        "url": "http://b/1",
        "text": stored.replace("http://a/", "http://b/"),
        "page_type": "article",
    }
    with pytest.raises(DropItem, match="duplicate of http://a/1"):
        run(dedup, copy)
    assert stats.get_value("webclean/dedup/fingerprints_handed") == 1  # type: ignore[attr-defined]


def test_the_dedup_max_docs_setting_bounds_the_memory_index() -> None:
    dedup, stats = pipeline(WEBCLEAN_DEDUP_MAX_DOCS=4, WEBCLEAN_STATE="memory")
    stores = [dedup.index.articles.store, dedup.index.lists.store]
    assert all(isinstance(s, MemoryDedupStore) and s.max_docs == 4 for s in stores)
    articles = stores[0]
    assert isinstance(articles, MemoryDedupStore)
    for n in range(1, 11):
        item = {"url": f"http://a/{n}", "text": article("en", n), "page_type": "article"}
        assert run(dedup, item) is item
        assert articles.held() <= 4
    assert articles.count() == 10 and articles.held() >= 2
    # A copy of a recent article is still dropped; of the first, forgotten, exported again.
    with pytest.raises(DropItem, match="duplicate of http://a/10"):
        run(dedup, {"url": "http://b/10", "text": article("en", 10), "page_type": "article"})
    again = {"url": "http://b/1", "text": article("en", 1), "page_type": "article"}
    assert run(dedup, again) is again
    assert stats.get_value("webclean/dedup/unique") == 11  # type: ignore[attr-defined]


def test_the_dedup_max_docs_setting_is_checked() -> None:
    with pytest.raises(SettingError, match="WEBCLEAN_DEDUP_MAX_DOCS = 1 is not allowed"):
        check_settings(Settings({"WEBCLEAN_DEDUP_MAX_DOCS": 1}))
    assert pipeline()[0].max_docs == 1_000_000
