"""Near-duplicate detection: fingerprints, the index, and the pipeline."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from scrapy.exceptions import DropItem
from scrapy.utils.test import get_crawler

from scrapy_webclean.dedup import NearDuplicateIndex, long_sentences
from scrapy_webclean.dedup.fingerprint import normalize
from scrapy_webclean.integration.dedup import DedupPipeline

CONTENT = Path(__file__).resolve().parent.parent / "demo_site" / "content"


def article(lang: str, number: int) -> str:
    """The body of a demo article (the demo site's own texts)."""
    text = (CONTENT / lang / f"{lang}-{number:02d}.txt").read_text("utf-8")
    return text.split("\n\n", 1)[1].strip()


def paragraphs(text: str) -> list[str]:
    return [p for p in text.split("\n") if p.strip()]


def test_long_sentences_in_chinese_and_english() -> None:
    zh = normalize("今天天气很好。我们一起去公园散步吧，顺便看看新开的花展！短句。")
    assert long_sentences(zh) == ["我们一起去公园散步吧，顺便看看新开的花展"]
    # (the fingerprint drops the comma before comparing: see _INNER_PUNCT_RE)
    en = normalize("Short one. This sentence has well over eight words in it, surely. Yes.")
    assert long_sentences(en) == ["thissentencehaswellovereightwordsinit,surely"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_copies_are_found_and_distinct_articles_are_not(lang: str) -> None:
    index = NearDuplicateIndex()
    originals = [article(lang, n) for n in range(1, 9)]
    for n, text in enumerate(originals):
        assert index.check_and_add(f"orig-{n}", text) is None, n
    source = originals[0]
    parts = paragraphs(source)
    copies = {
        "exact": source,
        "spacing": "\n\n".join(" ".join(p.split()) + "  " for p in parts),
        "reprint": "Reprinted with permission.\n" + source + "\nAll rights belong to the author.",
        "truncated": "\n".join(parts[: max(2, int(len(parts) * 0.7))]),
        "paragraph dropped": "\n".join(parts[:1] + parts[2:]),
        "reordered": "\n".join(parts[1:] + parts[:1]),
        "edited": source.replace("the", "a", 2).replace("的", "之", 2),
    }
    for kind, text in copies.items():
        assert index.check_and_add(f"copy-{kind}", text) == "orig-0", kind
    # A new article that quotes one paragraph of the first one is not a copy of it.
    quoting = article(lang, 9) + "\n" + parts[1]
    assert index.check_and_add("quoting", quoting) is None


def test_shared_boilerplate_does_not_make_copies() -> None:
    index = NearDuplicateIndex()
    footer = (
        "Subscribe to our newsletter for the best stories of the week in your inbox every "
        "Friday morning.\nThis article is part of our weekly series on city life and its "
        "people, published every Tuesday."
    )
    for n in range(1, 12):
        short = paragraphs(article("en", n))[0]
        assert index.check_and_add(str(n), short + "\n" + footer) is None, n


def test_a_copy_of_a_copy_names_the_first_and_is_matched_with_the_nearest() -> None:
    index = NearDuplicateIndex()
    text = article("en", 4)
    edited = text + "\nA note from the editors: this story was updated on Friday."
    assert index.check_and_add("a", text) is None
    first = index.check("b", edited, add=True)
    assert first is not None and first.key == "a" and first.nearest == "a"
    again = index.check("c", edited + " Corrected.", add=True)
    # Most like "b" (it has the note too), and named by the copy that was kept, "a".
    assert again is not None and again.key == "a" and again.nearest == "b"
    exact = index.check("d", text, add=True)
    assert exact is not None and exact.kind == "exact" and exact.nearest == exact.key == "a"


def test_the_first_copy_wins() -> None:
    index = NearDuplicateIndex()
    text = article("en", 3)
    assert index.check_and_add("a", text) is None
    assert index.check_and_add("b", text + "\nA note from the editors.") == "a"
    assert index.check_and_add("c", text + "\nA note from the editors.") == "a"


def test_query_keywords_choose_the_logical_paragraphs() -> None:
    from scrapy_webclean.dedup.fingerprint import logical_paragraphs

    text = "First paragraph.\nSecond about harbours.\nThird.\nFourth.\nFifth about harbours."
    assert logical_paragraphs(text, ("harbour",)) == (
        "First paragraph.\nSecond about harbours.\nThird.\nFourth.\nFifth about harbours."
    )
    assert logical_paragraphs("A.\nB.\nC.\nD about x.\nE.", ("x",)) == "C.\nD about x.\nE."
    assert logical_paragraphs("nothing here", ("x",)) == ""


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
    # Hub pages are compared for exact copies only.
    hub = {"url": "http://b/list", "text": paragraphs(text)[0], "page_type": "listing"}
    assert run(dedup, hub) is hub
    assert run(dedup, {"url": "http://c", "text": "", "page_type": "other"})
    get = stats.get_value  # type: ignore[attr-defined]
    assert get("webclean/dedup/unique") == 2 and get("webclean/dedup/exact") == 1
    assert get("webclean/dedup/skipped/no_text") == 1


def test_pipeline_marks_when_asked() -> None:
    dedup, _ = pipeline(WEBCLEAN_DEDUP_POLICY="mark")
    text = article("en", 5)
    run(dedup, {"url": "http://a/1", "text": text})
    item = run(dedup, {"url": "http://b/1", "text": text + "\nReprinted."})
    assert item["duplicate_of"] == "http://a/1"
