"""Near-duplicate detection: fingerprints and the index (the pipeline: test_dedup_pipeline.py)."""

from __future__ import annotations

import pytest

from scrapy_webclean.dedup import NearDuplicateIndex, long_sentences
from scrapy_webclean.dedup.fingerprint import figures, figures_disagree, normalize
from scrapy_webclean.dedup.furniture import is_furniture, strip_furniture
from tests.demo_texts import article, paragraphs


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


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_copy_edited_in_every_sentence_is_found(lang: str) -> None:
    # A word changed in each sentence: no sentence hash survives, the edit-tolerant keys
    # of the sentences (their smallest 4-gram) mostly do.
    index = NearDuplicateIndex()
    originals = [article(lang, n) for n in range(1, 9)]
    for n, text in enumerate(originals):
        index.check_and_add(f"orig-{n}", text)
    stop = "." if lang == "en" else "。"
    swap = ("said", "stated") if lang == "en" else ("的", "之")
    edited = stop.join(
        sentence.replace(swap[0], swap[1], 1) if swap[0] in sentence else sentence + " x"
        for sentence in originals[3].split(stop)
    )
    assert index.check_and_add("edited", edited) == "orig-3"


def edit_words(sentence: str, lang: str) -> str:
    """Every 8th word (every 12th Chinese character) of a sentence changed, figures left
    alone (a copy with new figures is another report)."""
    if lang == "en":
        words = sentence.split()
        for j in range(2, len(words), 8):
            if words[j].isalpha():
                words[j] = "changed"
        return " ".join(words)
    return "".join(
        "某" if i % 12 == 3 and "\u4e00" <= c <= "\u9fff" else c for i, c in enumerate(sentence)
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_truncated_copy_edited_in_every_sentence_is_found_by_sentence_similarity(
    lang: str,
) -> None:
    # Half an article, words changed in every sentence but the first: few exact sentence
    # hashes and
    # a shingle Jaccard under the bar. The two-level similarity (each sentence counted by
    # its best sentence similarity with one of the other text's) finds it; the check
    # before (exact sentence hashes) did not.
    originals = [article(lang, n) for n in range(1, 9)]
    stop = ". " if lang == "en" else "。"
    sentences = originals[5].split(stop)
    kept = sentences[: len(sentences) // 2]
    # (its first sentence as it was: similar sentences count beside one shared exactly)
    edited = stop.join([kept[0], *(edit_words(sentence, lang) for sentence in kept[1:])])
    found = {}
    for two_level in (False, True):
        index = NearDuplicateIndex()
        if not two_level:
            index.judge.similar_chars = lambda *args: 0.0  # type: ignore[method-assign]
        for n, text in enumerate(originals):
            index.check_and_add(f"orig-{n}", text)
        found[two_level] = index.check_and_add("edited", edited)
        assert index.check_and_add("other", article(lang, 9)) is None
    assert found == {False: None, True: "orig-5"}


def test_sentence_similarity_weighs_word_forms_over_order() -> None:
    import numpy as np

    from scrapy_webclean.dedup.fingerprint import sentence_similarity, sentence_sketches

    one = sentence_sketches(["thecouncilvotedtoapprovethebudget"])
    same = sentence_sketches(["thecouncilvotedtoapprovethebudget"])
    other = sentence_sketches(["arainystartisforecastforthecoast"])
    array = lambda values: np.array(values, dtype=np.int64)  # noqa: E731
    assert sentence_similarity(array(one), array(same + other)).tolist() == [1.0]
    assert sentence_similarity(array(one), array(other)).tolist() == [0.0]
    assert sentence_similarity(array(one), array([])).tolist() == [0.0]


def test_fuzzy_keys_are_per_sentence() -> None:
    from scrapy_webclean.dedup.fingerprint import fuzzy_keys

    one, two = "thecouncilvotedonthebudget", "ameetingwasheldonmonday"
    assert fuzzy_keys([one, two]) == sorted(set(fuzzy_keys([one]) + fuzzy_keys([two])))
    assert fuzzy_keys(["abc"]) == []  # shorter than one gram


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


def test_reprint_furniture_is_left_out() -> None:
    lines = [
        "来源：新华网  编辑：张伟  2022-04-06",
        "本文转载自人民网，原标题如上。",
        "声明：本文系转载，版权归原作者所有，如有侵权请联系删除。",
        "（责任编辑：李娜）",
        "点击阅读全文，关注新浪网微信公众号获取更多资讯。",
        "【中新网讯】",
        "This article first appeared on Example News.",
        "Copyright 2019 Example Media Group. All rights reserved.",
    ]
    for line in lines:
        assert is_furniture(line), line
    prose = [
        "来源于群众的意见，市政府在三个月内逐条作了答复，并在官网上公布了办理结果和下一步计划。",
        "记者：您怎么看这次调整？",
        "The source: a leaked memo.",
        paragraphs(article("en", 1))[0],
    ]
    for line in prose:
        assert not is_furniture(line), line
    body = article("zh", 2)
    assert strip_furniture("\n".join([lines[0], body, lines[2], lines[3]])) == body
    # A page that is nothing but furniture is compared as it is.
    assert strip_furniture(lines[2] + "\n" + lines[3]) == lines[2] + "\n" + lines[3]


def test_a_short_copy_wrapped_in_reprint_lines_is_found() -> None:
    index = NearDuplicateIndex()
    short = paragraphs(article("zh", 3))[0].split("。")[0] + "。"  # one sentence
    assert index.check_and_add("original", short) is None
    for n in range(4, 10):  # other articles, reprinted with the same lines
        other = paragraphs(article("zh", n))[0]
        text = f"本文转载自新浪网，原标题如上。\n{other}\n声明：本文系转载，版权归原作者所有。"
        assert index.check_and_add(f"other-{n}", text) is None, n
    reprint = (
        f"来源：中新网  编辑：刘洋  2021-03-02\n{short}\n"
        "点击阅读全文，关注中新网微信公众号获取更多资讯。\n（责任编辑：张伟）"
    )
    assert index.check_and_add("reprint", reprint) == "original"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_excerpt_of_an_earlier_text_is_a_copy(lang: str) -> None:
    index = NearDuplicateIndex()
    text = article(lang, 5)
    assert index.check_and_add("article", text) is None
    # A paragraph or two of it, under a third of the article, is still a copy of it ...
    parts = paragraphs(text)[1:]
    excerpt = ""
    while len(excerpt) < 0.26 * len(text):
        excerpt = (excerpt + "\n" + parts.pop()).strip()
    assert len(excerpt) < 0.33 * len(text)
    assert index.check_and_add("excerpt", excerpt) == "article"
    # ... but a new article that quotes a paragraph of it is not.
    assert index.check_and_add("quoting", article(lang, 6) + "\n" + excerpt) is None


def test_reports_from_one_template_with_other_figures_are_not_copies() -> None:
    # Two price reports from one template share their frame and a paragraph, and each
    # states figures of its own in lines of its own: two reports. A report with a figure
    # corrected and the rest as it was (a minor edit, a new date line) is one report.
    index = NearDuplicateIndex()
    specs = paragraphs(article("zh", 7))[1:2]
    template = "佳能7D套机最新报价{price}元，经销商{shop}今日表示现货充足并赠送摄影包。"
    market = "本周{city}市场单反相机整体成交{deals}台，较上周{trend}{share}个百分点，{brand}系列最受欢迎。"
    first = "\n".join(
        [
            template.format(price=14780, shop="北京"),
            market.format(city="北京", deals=1260, trend="上涨", share=12, brand="入门"),
            *specs,
        ]
    )
    update = "\n".join(
        [
            template.format(price=10300, shop="上海"),
            market.format(city="上海", deals=980, trend="下降", share=35, brand="全画幅"),
            *specs,
        ]
    )
    assert index.check_and_add("monday", first) is None
    assert index.check_and_add("friday", update) is None
    # The same report again, cut short or edited, keeps its figures: a copy.
    assert index.check_and_add("again", first.replace("赠送", "附送")) == "monday"
    assert index.check_and_add("cut", first[: int(len(first) * 0.7)]) == "monday"
    corrected = first.replace("14780", "14680")
    assert index.check_and_add("corrected", corrected) == "monday"


def test_figures() -> None:
    one = figures(normalize("售价14780元，比上周的15,200元低，镜头15-85mm，ISO 100-6400，1台。"))
    assert sorted(one) == sorted(
        int("1" + d) for d in ["14780", "15200", "15", "85", "100", "6400"]
    )
    two = figures(normalize("售价10300元，镜头15-85mm，ISO 100-6400。"))
    assert figures_disagree(one, two)
    # A truncation that cuts the last figure short, or keeps fewer of them, agrees.
    assert not figures_disagree(one, figures(normalize("售价14780元，比上周的15,2")))
    assert not figures_disagree(one, [])


def test_dates_and_times_are_no_figures() -> None:
    text = normalize(
        "On March 14, 2026 at 10:30 (updated 2026-03-15 08:05:10, 3月16日) it sold 1,250 units for 35 euros."
    )
    assert sorted(figures(text)) == [int("135"), int("11250")]
    # An article carried in another site's dated frame (its date line and a "founded in"
    # line with years of its own) is a copy: the two state the same figures.
    body = paragraphs(article("en", 3))[:3]
    herald = "\n".join(
        [
            "Published on March 14, 2026 at 10:30 by the news desk of the Valley Herald in the morning.",
            *body,
        ]
    )
    courier = "\n".join(
        [
            "Posted 2025-06-02 08:15 in the regional section of the Daily Courier, which is read by our subscribers.",
            *body,
            "The Daily Courier was founded in 1967 and has covered the valley and its small towns since 1988.",
        ]
    )
    index = NearDuplicateIndex()
    assert index.check_and_add("herald", herald) is None
    assert index.check_and_add("courier", courier) == "herald"


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
