"""Decoding on the whole web (issue 19): pages the tests write in each encoding the issue
lists, declared in the HTTP header, in a ``<meta>``, by a byte-order mark, undeclared and
mis-declared; the text decodes exactly, and the cleaned page's language is right."""

from __future__ import annotations

import codecs

import pytest

from scrapy_webclean.cleaning import clean_html
from scrapy_webclean.html.alphabets import case_fit, cjk_fit, letter_fit
from scrapy_webclean.html.encoding import decode_html, detect_encoding
from tests.multilingual import TEXTS, language_of

URL = "https://example.com/news/1"

#: Each legacy encoding of issue 19 (Python codec) -> the texts of ``tests/multilingual.py``
#: it writes whole, and the codec a page in it is decoded with (browsers read GBK as its
#: superset GB18030, Big5 as Big5-HKSCS, Shift_JIS as cp932, EUC-KR as cp949).
LEGACY: dict[str, tuple[tuple[str, ...], str]] = {
    "gb18030": (("zh", "zh-Hant"), "gb18030"),
    "gbk": (("zh", "zh-Hant"), "gb18030"),
    "big5": (("zh-Hant",), "big5hkscs"),
    "shift_jis": (("ja",), "cp932"),
    "euc_kr": (("ko",), "cp949"),
    "cp1251": (("ru", "uk", "bg"), "cp1251"),
    "koi8_r": (("ru", "bg"), "koi8-r"),
    "cp1250": (("pl", "cs", "hu"), "cp1250"),
    "cp1256": (("ar",), "cp1256"),
    "iso8859_2": (("pl", "cs", "hu"), "iso8859-2"),
    "iso8859_7": (("el",), "iso8859-7"),
}
LEGACY_CASES = [(enc, key) for enc, (keys, _) in LEGACY.items() for key in keys]


def page(text: str, head: str = "") -> str:
    """A small article page around ``text``, one paragraph per sentence, no ``lang``."""
    sentences = [s for s in text.replace("。", "。\n").replace(". ", ".\n").split("\n") if s]
    paragraphs = "".join(f"<p>{s}</p>\n" for s in sentences)
    return (
        f"<!DOCTYPE html><html><head>{head}<title>News</title></head><body>"
        '<div class="nav"><a href="/">Home</a> <a href="/news/">News</a></div>'
        f'<div class="article">{paragraphs}</div><div class="footer">&copy; 2026</div>'
        "</body></html>"
    )


def check(body: bytes, content_type: str | None, html: str, key: str) -> str:
    """Assert that ``body`` decodes to ``html`` exactly and cleans to ``key``'s language;
    return the codec used."""
    decoded = decode_html(body, content_type)
    assert decoded.text == html
    assert decoded.replaced == 0
    result = clean_html(body, URL, content_type=content_type)
    assert result.lang == language_of(key)
    assert result.encoding == decoded.encoding
    return decoded.encoding


def test_the_fixtures_write_every_encoding_of_issue_19() -> None:
    for encoding, (keys, _) in LEGACY.items():
        for key in keys:
            assert TEXTS[key].encode(encoding).decode(encoding) == TEXTS[key]
    # the text must need the codec: not plain ASCII, and different from its cp1252 reading
    for encoding, key in LEGACY_CASES:
        encoded = page(TEXTS[key]).encode(encoding)
        assert not encoded.isascii()
        assert encoded.decode("cp1252", "replace") != page(TEXTS[key])


@pytest.mark.parametrize(("encoding", "key"), LEGACY_CASES)
def test_legacy_page_declared_in_the_header(encoding: str, key: str) -> None:
    html = page(TEXTS[key])
    label = codecs.lookup(encoding).name
    codec = check(html.encode(encoding), f"text/html; charset={label}", html, key)
    assert codec == LEGACY[encoding][1]


@pytest.mark.parametrize(("encoding", "key"), LEGACY_CASES)
def test_legacy_page_declared_in_a_meta(encoding: str, key: str) -> None:
    html = page(TEXTS[key], f'<meta charset="{codecs.lookup(encoding).name}">')
    assert check(html.encode(encoding), "text/html", html, key) == LEGACY[encoding][1]


@pytest.mark.parametrize(("encoding", "key"), LEGACY_CASES)
def test_legacy_page_undeclared(encoding: str, key: str) -> None:
    html = page(TEXTS[key])
    codec = check(html.encode(encoding), "text/html", html, key)
    # ISO-8859-2 and Windows-1250 read these texts alike, as do ISO-8859-7 and Windows-1253,
    # and GBK and Big5 pages are read with their supersets
    assert decode_html(html.encode(encoding)).source == "detected"
    assert html.encode(encoding).decode(codec) == html


@pytest.mark.parametrize("key", sorted(TEXTS))
@pytest.mark.parametrize("how", ["header", "meta", "undeclared"])
def test_utf8_page(key: str, how: str) -> None:
    head = '<meta charset="utf-8">' if how == "meta" else ""
    content_type = "text/html; charset=utf-8" if how == "header" else "text/html"
    html = page(TEXTS[key], head)
    assert check(html.encode("utf-8"), content_type, html, key) == "utf-8"


@pytest.mark.parametrize("key", sorted(key for key, text in TEXTS.items() if not text.isascii()))
@pytest.mark.parametrize("where", ["header", "meta"])
def test_utf8_page_wrongly_declared_as_latin1(key: str, where: str) -> None:
    # Valid multi-byte UTF-8 is never latin-1 text: the declaration loses.
    head = '<meta charset="iso-8859-1">' if where == "meta" else ""
    content_type = "text/html; charset=iso-8859-1" if where == "header" else "text/html"
    html = page(TEXTS[key], head)
    assert check(html.encode("utf-8"), content_type, html, key) == "utf-8"
    assert decode_html(html.encode("utf-8"), content_type).source == "utf-8-check"


@pytest.mark.parametrize("key", ["en", "ru", "zh", "ar", "ja", "hi", "th"])
@pytest.mark.parametrize(
    ("codec", "bom"), [("utf-16-le", codecs.BOM_UTF16_LE), ("utf-16-be", codecs.BOM_UTF16_BE)]
)
@pytest.mark.parametrize("content_type", ["text/html; charset=utf-8", "text/html", None])
def test_utf16_page_with_a_bom(key: str, codec: str, bom: bytes, content_type: str | None) -> None:
    # The byte-order mark wins over a header that says UTF-8 (browsers and w3lib agree).
    html = page(TEXTS[key])
    assert check(bom + html.encode(codec), content_type, html, key) == codec


@pytest.mark.parametrize(
    ("text", "encoding"),
    [
        # Before the language of the page's ASCII words broke the ties, each of these was
        # read wrong: ¿ as Arabic (cp1256), è, õ, ï as č, ő, ď (Windows-1250), Cyrillic in
        # KOI8 as halfwidth katakana (cp932), Greek as KOI8-R.
        ("¿Por qué no viene el autobus? ¿Y cuando llega?", "cp1252"),
        ("¿Vienes a la fiesta? ¿Sabes la hora? No lo se.", "cp1252"),
        ("Il consiglio comunale è d'accordo, e la giunta è pronta.", "cp1252"),
        ("Linnavolikogu kiitis heaks uue plaani, bussid sõidavad õhtuti.", "cp1252"),
        ("Het naïeve plan van de gemeente werd gisteren goedgekeurd.", "cp1252"),
        ("Il le répète très souvent: le père de Hélène est très fier.", "cp1252"),
        ("Городской совет утвердил новый план развития общественного транспорта.", "koi8_r"),
        ("Міська рада ухвалила новий план розвитку громадського транспорту.", "koi8_u"),
        (TEXTS["el"], "cp1253"),
    ],
)
def test_undeclared_page_is_read_in_its_language(text: str, encoding: str) -> None:
    html = page(text)
    assert decode_html(html.encode(encoding)).text == html


def test_detection_answers_a_codec_or_none() -> None:
    assert detect_encoding(page(TEXTS["ru"]).encode("cp1251")) == "cp1251"
    assert detect_encoding(page(TEXTS["ko"]).encode("euc_kr")) == "cp949"


def test_letter_fit_prefers_the_pages_language() -> None:
    # Both readings use letters of some Latin alphabet; only one uses Spanish letters.
    assert letter_fit("¿Qué pasa?", "es") == 1.0
    assert letter_fit("æQué pasa?", "es") == 0.75
    assert letter_fit("æQué pasa?") == 1.0  # (Danish has æ and é)
    assert letter_fit("plain ascii") == 1.0
    # A symbol or another script's mark inside a Latin word is a misfit.
    assert letter_fit("stolic¹") == 0.0
    assert letter_fit("tr\u0e48s bien") == 0.0


def test_case_fit_spots_swapped_cases() -> None:
    assert case_fit("Городской совет УТВЕРДИЛ план") == 1.0
    assert case_fit("гОРОДСКОЙ сОВЕТ") == 0.0
    assert case_fit("iPhone and eBay") == 1.0  # ASCII words are not judged


def test_cjk_fit_leaves_out_halfwidth_katakana() -> None:
    assert cjk_fit("漢字とかな") == 1.0
    assert cjk_fit("ﾐﾏﾄﾅ") == 0.0
    assert cjk_fit("no wide characters") == 1.0


def test_utf8_read_as_latin1_on_its_way_to_the_page_is_repaired() -> None:
    """A site that read its UTF-8 text as Latin-1 and wrote it out again as UTF-8 serves
    "Investor\u00e2\\x80\\x99s" for "Investor’s": the C1 controls give it away."""
    from scrapy_webclean.text.mojibake import repair_mojibake

    damaged = "Investor’s guide: café at 360° for €25 😀".encode().decode("latin-1")
    assert repair_mojibake(damaged) == ("Investor’s guide: café at 360° for €25 😀", 5)
    # Text without a C1 control is never changed, even where it looks like the damage.
    assert repair_mojibake("Ã© and Â° in a text about encodings") == (
        "Ã© and Â° in a text about encodings",
        0,
    )
    assert repair_mojibake("plain") == ("plain", 0)
    # The page's bytes are valid UTF-8 (the damage is in the text itself): the cleaned
    # title and text read right.
    body = (
        f"<html><head><title>{damaged}</title></head><body><h1>{damaged}</h1>"
        f"<p>{damaged} {'The committee met on Monday to review the plan. ' * 5}</p></body></html>"
    ).encode()
    result = clean_html(body, URL)
    assert result.title == "Investor’s guide: café at 360° for €25 😀"
    assert "café at 360° for €25" in result.text and "\u00e2\x80" not in result.text
