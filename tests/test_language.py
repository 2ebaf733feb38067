"""Language guess (issue 19): py3langid with the page's declared language as a prior, on
texts the tests carry (``tests/multilingual.py``), alone and inside pages through clean_html."""

from __future__ import annotations

import pytest

from scrapy_webclean.cleaning import clean_html
from scrapy_webclean.text import language
from scrapy_webclean.text.language import declared_language, guess_language, reads_as_english
from tests.multilingual import ENCODABLE, TEXTS, language_of

# Danish and Norwegian (Bokmål) write this sentence alike: only the page can say which.
DANISH_OR_NORWEGIAN = "Tak for i dag, vi ses i morgen."


def page(text: str, lang: str | None = None) -> str:
    """A small article page around ``text``, one paragraph per sentence."""
    sentences = [s for s in text.replace("。", "。\n").replace(". ", ".\n").split("\n") if s]
    lang_attr = f' lang="{lang}"' if lang else ""
    paragraphs = "".join(f"<p>{s}</p>\n" for s in sentences)
    return (
        f"<!DOCTYPE html><html{lang_attr}><head><meta charset='utf-8'><title>News</title>"
        '</head><body><div class="nav"><a href="/">Home</a> <a href="/news/">News</a></div>'
        f'<div class="article">{paragraphs}</div><div class="footer">© 2026</div>'
        "</body></html>"
    )


def test_fixtures_cover_the_languages_and_encodings_of_issue_19() -> None:
    required = [
        "ru",
        "uk",
        "bg",
        "fa",
        "ar",
        "pl",
        "pt",
        "ca",
        "es",
        "zh",
        "ja",
        "ko",
        "el",
        "he",
        "tr",
        "de",
        "fr",
        "it",
        "nl",
        "cs",
        "hu",
        "vi",
        "th",
        "hi",
    ]
    assert set(required) <= set(TEXTS)
    assert len({language_of(key) for key in TEXTS}) >= 20
    for encoding, keys in ENCODABLE.items():
        for key in keys:
            assert TEXTS[key].encode(encoding).decode(encoding) == TEXTS[key], (encoding, key)


@pytest.mark.parametrize("key", sorted(TEXTS))
def test_every_fixture_language_from_its_text(key: str) -> None:
    assert guess_language(TEXTS[key]) == language_of(key)


@pytest.mark.parametrize("key", sorted(TEXTS))
def test_every_fixture_language_from_a_page(key: str) -> None:
    # No <html lang>: the text alone decides.
    result = clean_html(page(TEXTS[key]), "https://example.com/news/1")
    assert result.lang == language_of(key)


@pytest.mark.parametrize("key", ["uk", "bg", "fa", "pl", "ca"])
def test_the_old_guess_mistakes_are_fixed(key: str) -> None:
    # The previous guess said ru, ru, ar, pt and es for these.
    assert guess_language(TEXTS[key]) == key


def test_the_declared_language_decides_a_short_ambiguous_text() -> None:
    assert guess_language(DANISH_OR_NORWEGIAN, declared="no") == "no"
    assert guess_language(DANISH_OR_NORWEGIAN, declared="da") == "da"
    assert guess_language(DANISH_OR_NORWEGIAN, declared=None, content_language="nb-NO") == "no"
    # The page's own <html lang> wins over the HTTP header.
    assert guess_language(DANISH_OR_NORWEGIAN, declared="da", content_language="no") == "da"


def test_the_declared_language_decides_a_short_page() -> None:
    for lang in ("da", "no"):
        result = clean_html(page(DANISH_OR_NORWEGIAN, lang), "https://example.com/news/1")
        assert result.lang == lang


def test_a_declaration_the_text_contradicts_is_overruled() -> None:
    assert guess_language(TEXTS["zh"], declared="en") == "zh"
    assert guess_language(TEXTS["ru"], declared="en") == "ru"
    assert guess_language(TEXTS["es"], content_language="en-US") == "es"
    assert guess_language(DANISH_OR_NORWEGIAN, declared="zh") == "da"
    result = clean_html(page(TEXTS["de"], "en"), "https://example.com/news/1")
    assert result.lang == "de"


def test_a_region_or_script_in_the_declaration_is_read_as_its_language() -> None:
    assert guess_language(TEXTS["zh-Hant"], declared="zh-TW") == "zh"
    assert guess_language(TEXTS["pt"], declared="pt_BR") == "pt"
    assert guess_language(TEXTS["he"], declared="iw") == "he"


def test_und_for_too_little_text() -> None:
    for text in ("", "   ", "12345 !!! ...", "OK", "Home | Menu", "2026-01-01 12:00"):
        assert guess_language(text) == "und", text
    # A declaration cannot name the language of no words.
    assert guess_language("12345 !!! ...", declared="en") == "und"


def test_und_for_two_languages_half_and_half() -> None:
    mixed = f"{TEXTS['en']} {TEXTS['zh']}"
    assert guess_language(mixed) == "und"
    # ... unless the page says which of the two it is.
    assert guess_language(mixed, declared="zh") == "zh"


def test_english_is_told_by_its_function_words_without_the_identifier(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Declared English, or nothing declared: English prose never reaches the identifier
    # (whose tables are out of the caches after a page's cleaning).
    def no_identifier() -> None:
        raise AssertionError("the identifier was asked")

    monkeypatch.setattr(language, "_loaded_identifier", no_identifier)
    assert guess_language(TEXTS["en"]) == "en"
    assert guess_language(TEXTS["en"], declared="en-GB") == "en"


@pytest.mark.parametrize("key", sorted(key for key in TEXTS if language_of(key) != "en"))
def test_no_other_language_reads_as_english(key: str) -> None:
    assert not reads_as_english(TEXTS[key])
    # Declared English, the text still decides.
    assert guess_language(TEXTS[key], declared="en") == language_of(key)


def test_a_few_english_words_in_another_language_do_not_make_it_english() -> None:
    text = (
        "Der neue Film ist ein Remake von The Lord of the Rings und kommt im Herbst in die "
        "Kinos, sagte der Regisseur am Montag in Berlin vor Journalisten."
    )
    assert not reads_as_english(text)
    assert guess_language(text, declared="en") == "de"


def test_chinese_with_a_few_latin_words_stays_chinese() -> None:
    text = "苹果公司今天发布了新款 iPhone 手机和 Apple Watch 手表，价格与去年相同，下周开始在中国销售。"
    assert guess_language(text) == "zh"


@pytest.mark.parametrize(
    ("tag", "code"),
    [
        ("zh-CN", "zh"),
        ("zh-Hant-TW", "zh"),
        ("en_US", "en"),
        (" DE ", "de"),
        ("de, en", "de"),
        (b"fr-CA", "fr"),
        ("iw", "he"),
        ("nb", "no"),
        ("yue", "zh"),
        ("", None),
        (None, None),
        ("und", None),
        ("x-default", None),
        ("*", None),
        ("english", None),
    ],
)
def test_declared_language(tag: str | bytes | None, code: str | None) -> None:
    assert declared_language(tag) == code
