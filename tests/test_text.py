"""Text utilities: language guess, tokenizer (jieba where words matter), sentence split, stop
words."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from scrapy_webclean.dedup.fingerprint import logical_paragraphs
from scrapy_webclean.extraction.tfidf import cosine, prune_scores, tfidf_vectors
from scrapy_webclean.text import (
    content_tokens,
    guess_language,
    split_sentences,
    stopwords,
    tokenize,
)
from scrapy_webclean.text.tokenize import search_tokens

ROOT = Path(__file__).resolve().parent.parent


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


def test_search_tokens_find_words_inside_compounds_never_across_words() -> None:
    assert search_tokens("赞助商广告") == ["赞助", "赞助商", "广告"]
    assert "北京" in search_tokens("北京市政府") and "北京" not in tokenize("北京市政府")
    assert "广告" not in search_tokens("宽广告别")
    assert search_tokens("Sponsored 广告") == ["sponsored", "广告"]


def test_jieba_is_loaded_only_for_chinese_text() -> None:
    # A fresh interpreter: English text does not load jieba's dictionary; Chinese does.
    script = (
        "import sys\n"
        "from scrapy_webclean.text.tokenize import tokenize\n"
        "tokenize('The council approved the plan.')\n"
        "print('jieba' in sys.modules)\n"
        "print(tokenize('点击查看广告'))\n"
        "print('jieba' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:3] == ["False", "['点击', '查看', '广告']", "True"]


def test_in_page_tfidf_weighs_chinese_words() -> None:
    # 发展中国家 is one word: the block about developing countries shares no word with the
    # block about China (中国), though it holds the characters 中国.
    blocks = ["中国经济增长很快，中国出口增加。", "发展中国家的经济政策。", "中国出口增加。"]
    vectors = tfidf_vectors(blocks)
    assert "发展中国家" in vectors[1] and "中国" not in vectors[1]
    assert cosine(vectors[0], vectors[1]) < cosine(vectors[0], vectors[2])
    main, cosines = prune_scores(blocks)
    assert main == 0 and cosines[1] < cosines[2]


def test_logical_paragraphs_match_keyword_words() -> None:
    text = "第一段。\n北京市政府发布新规。\n第三段。\n第四段。\n宽广告别仪式。\n第六段。"
    # 北京 names the paragraph about 北京市 (a compound built on it) ...
    assert logical_paragraphs(text, ("北京",)) == "第一段。\n北京市政府发布新规。\n第三段。"
    # ... but 广告 does not name 宽广告别 (宽广 告别), which holds its characters.
    assert logical_paragraphs(text, ("广告",)) == ""
    # A Latin keyword is a word, or the start of one: harbour names harbours, not chart.
    assert logical_paragraphs("Harbours.\nA chart.", ("harbour",)) == "Harbours.\nA chart."
    assert logical_paragraphs("A.\nThe art of charts.\nC.\nD.", ("art",)) == (
        "A.\nThe art of charts.\nC."
    )
    assert logical_paragraphs("A.\nA chart.\nC.", ("art",)) == ""


# Chinese sentences of several registers (news, forum, product, classical, names and
# numbers written in characters), with characters outside jieba's Chinese range mixed in.
_SEGMENTER_SAMPLES = (
    "国务院总理李克强今天在人民大会堂会见了来访的德国总理默克尔双方就中德关系交换意见",
    "楼主说的对我也遇到过这个问题重启路由器之后就好了谢谢分享",
    "本店所有商品均为正品支持七天无理由退货满九十九元包邮",
    "学而时习之不亦说乎有朋自远方来不亦乐乎",
    "发展中国家的经济增长速度在二零一九年明显放缓",
    "南京市长江大桥欢迎您点击查看更多精彩内容广告赞助商",
    "㐀㑇中华人民共和国豈更车贾",
    "研究生命起源结婚的和尚未结婚的",
)


def test_segmenter_cuts_jiebas_words() -> None:
    # The faster cut gives jieba's own words, in both modes, for every sample and for
    # every substring window of them (runs of every length, starting anywhere).
    import jieba

    from scrapy_webclean.text.segmenter import Segmenter

    jieba.initialize()
    segmenter = Segmenter(jieba.dt)
    for sample in _SEGMENTER_SAMPLES:
        for start in range(len(sample)):
            for end in range(start + 1, min(len(sample), start + 24) + 1):
                run = sample[start:end]
                assert segmenter.cut(run) == jieba.lcut(run, HMM=False), run
                assert segmenter.cut_for_search(run) == jieba.lcut_for_search(run, HMM=False)


def test_date_forms_are_one_definition() -> None:
    # The C mark's date lines and the date reader share text.datepatterns: every month's
    # spelling is read with its number, the reader takes what the C mark leaves out.
    import calendar
    import re

    from scrapy_webclean.extraction.dates import parse_date
    from scrapy_webclean.html.pagewalk import DEFAULT_CUSTOM_PATTERNS
    from scrapy_webclean.text.datepatterns import MONTH_NAME, month_number

    for number in range(1, 13):
        full, short = calendar.month_name[number], calendar.month_abbr[number]
        for name in (full, short, full.upper(), short.lower()):
            assert re.fullmatch(MONTH_NAME, name) and month_number(name) == number, name
    assert re.fullmatch(MONTH_NAME, "Sept") and re.fullmatch(MONTH_NAME, "ſep") is None
    date_line = re.compile("|".join(f"(?:{p})" for p in DEFAULT_CUSTOM_PATTERNS))
    for line in ("2019年5月3日", "2019-05-03", "May 3, 2019", "3 MAY 2019"):
        assert date_line.search(line) and parse_date(line) == "2019-05-03", line
    for line in ("May 3rd, 2019", "3rd May 2019", "3 May, 2019"):
        assert date_line.search(line) is None and parse_date(line) == "2019-05-03", line
    assert all("\\d" in pattern for pattern in DEFAULT_CUSTOM_PATTERNS)  # (see pagewalk)


def test_noise_words_are_written_once() -> None:
    # The hard noise words are noise words too, written in their own file only.
    from scrapy_webclean.segmentation.classify import DEFAULT_NOISE_WORDS, HARD_NOISE_WORDS
    from scrapy_webclean.text.wordlists import read_word_list

    others = read_word_list("text/data/noise_words.txt")
    assert HARD_NOISE_WORDS and not set(HARD_NOISE_WORDS) & set(others)
    assert HARD_NOISE_WORDS + others == DEFAULT_NOISE_WORDS
    assert len(set(DEFAULT_NOISE_WORDS)) == len(DEFAULT_NOISE_WORDS)
