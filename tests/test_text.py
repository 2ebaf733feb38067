"""Text utilities: language guess, tokenizer, sentence split, stop words."""

from __future__ import annotations

from scrapy_webclean.text import (
    content_tokens,
    guess_language,
    split_sentences,
    stopwords,
    tokenize,
)


def test_guess_language() -> None:
    assert guess_language("江城市政府今天宣布了新的公共交通计划，市民普遍欢迎。") == "zh"
    assert guess_language("The council said that the plan for the harbour was approved.") == "en"
    assert (
        guess_language("Der Rat hat die Pläne für den Hafen nicht genehmigt, und das ist gut.")
        == "de"
    )
    assert guess_language("これは日本語の文章です。") == "ja"
    assert guess_language("12345 !!! ...") == "und"
    assert guess_language("") == "und"


def test_tokenize_chinese_with_jieba_and_latin_with_regex() -> None:
    tokens = tokenize("江城市政府宣布 Python 3.11 发布")
    assert "市政府" in tokens and "宣布" in tokens
    assert "python" in tokens and "3" in tokens and "11" in tokens
    assert all(t.strip() for t in tokens)


def test_content_tokens_drop_stop_words() -> None:
    tokens = content_tokens("The council of the city said that 我们的城市很美丽")
    assert "the" not in tokens and "of" not in tokens and "的" not in tokens
    assert "council" in tokens and "城市" in tokens


def test_split_sentences_chinese_and_western() -> None:
    text = "他说：“今天开会。”会议很顺利！Prices rose 3.5 percent. Is that all? Yes"
    assert split_sentences(text) == [
        "他说：“今天开会。”",
        "会议很顺利！",
        "Prices rose 3.5 percent.",
        "Is that all?",
        "Yes",
    ]


def test_stop_word_lists() -> None:
    assert {"the", "and", "of"} <= stopwords("en")
    assert {"的", "了", "我们"} <= stopwords("zh")
    assert stopwords("xx") == frozenset()
