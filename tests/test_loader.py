"""The one HTML loader: encoding policy and parsing limits."""

from __future__ import annotations

import codecs

import pytest

from scrapy_webclean.errors import EmptyDocument, NotHtml
from scrapy_webclean.html.loader import (
    decode_html,
    flatten_deep_tags,
    load_html,
    normalize_encoding,
    parse_html,
)

ZH = "江城晚报：梧桐巷社区首批加装电梯正式投入使用，居民们纷纷表示出行方便了许多。"
# Characters outside GBK that GB18030 encodes with four bytes.
ZH_EXT = "𠀀𠀁 and 䶵 are GB18030 four-byte characters."


def page(body: str, head: str = "") -> str:
    return f"<html><head>{head}<title>t</title></head><body><p>{body}</p></body></html>"


@pytest.mark.parametrize(
    ("label", "codec"),
    [
        ("gb2312", "gb18030"),
        ("GBK", "gb18030"),
        ("x-gbk", "gb18030"),
        ("gb18030", "gb18030"),
        ("iso-8859-1", "cp1252"),
        ("latin1", "cp1252"),
        ("US-ASCII", "cp1252"),
        ("utf8", "utf-8"),
        ("UTF-8", "utf-8"),
        ("no-such-charset", None),
        ("", None),
        (None, None),
    ],
)
def test_normalize_encoding(label: str | None, codec: str | None) -> None:
    assert normalize_encoding(label) == codec


def test_header_charset_decodes_gbk() -> None:
    body = page(ZH).encode("gbk")
    decoded = decode_html(body, "text/html; charset=gbk")
    assert ZH in decoded.text
    assert (decoded.encoding, decoded.source) == ("gb18030", "header")


def test_meta_http_equiv_gb2312_decodes_as_gb18030() -> None:
    head = '<meta http-equiv="Content-Type" content="text/html; charset=gb2312">'
    body = page(ZH, head).encode("gbk")
    decoded = decode_html(body, "text/html")
    assert ZH in decoded.text
    assert (decoded.encoding, decoded.source) == ("gb18030", "meta")


def test_meta_charset_gb18030_four_byte_characters() -> None:
    body = page(ZH + ZH_EXT, '<meta charset="gb18030">').encode("gb18030")
    decoded = decode_html(body)
    assert ZH_EXT in decoded.text
    assert decoded.source == "meta"


def test_header_wins_over_meta() -> None:
    body = page(ZH, '<meta charset="utf-8">').encode("gbk")
    decoded = decode_html(body, b"text/html;charset=GB2312")
    assert ZH in decoded.text and decoded.source == "header"


def test_bom_used_when_no_header() -> None:
    body = codecs.BOM_UTF8 + page(ZH, '<meta charset="gbk">').encode("utf-8")
    decoded = decode_html(body)
    assert ZH in decoded.text and decoded.source == "bom"
    assert not decoded.text.startswith("\ufeff")


def test_utf16_bom() -> None:
    body = codecs.BOM_UTF16_LE + page(ZH).encode("utf-16-le")
    assert ZH in decode_html(body).text


def test_undeclared_gbk_is_detected_as_gb18030() -> None:
    decoded = decode_html(page(ZH).encode("gbk"))
    assert ZH in decoded.text
    assert (decoded.encoding, decoded.source) == ("gb18030", "detected")


def test_a_bom_wins_over_the_header() -> None:
    body = codecs.BOM_UTF16_LE + page(ZH).encode("utf-16-le")
    decoded = decode_html(body, "text/html; charset=utf-8")
    assert ZH in decoded.text and "\x00" not in decoded.text
    assert (decoded.encoding, decoded.source) == ("utf-16-le", "bom")


def test_undeclared_utf8() -> None:
    decoded = decode_html(page(ZH).encode("utf-8"))
    assert ZH in decoded.text and decoded.encoding == "utf-8"


def test_undeclared_latin_text_is_not_read_as_gb() -> None:
    text = "Café au lait, crème brûlée et façade élégante à Zürich."
    decoded = decode_html(page(text).encode("cp1252"))
    assert text in decoded.text and decoded.encoding == "cp1252"


def test_gbk_labelled_utf8_is_recovered() -> None:
    decoded = decode_html(page(ZH * 3).encode("gbk"), "text/html; charset=utf-8")
    assert ZH in decoded.text and decoded.encoding == "gb18030"


def test_utf8_labelled_gbk_is_recovered() -> None:
    decoded = decode_html(page(ZH).encode("utf-8"), "text/html; charset=gbk")
    assert ZH in decoded.text and decoded.encoding == "utf-8"


def test_bad_bytes_are_replaced_not_fatal() -> None:
    body = page("ok").encode("utf-8").replace(b"ok", b"o\xffk")
    decoded = decode_html(body, "text/html; charset=utf-8")
    assert "o\ufffdk" in decoded.text and decoded.replaced == 1


def test_binary_body_is_not_html() -> None:
    with pytest.raises(NotHtml):
        decode_html(bytes(range(256)) * 8, "text/html")


@pytest.mark.parametrize("body", [b"", b"   \n\t ", ""])
def test_empty_document(body: bytes | str) -> None:
    with pytest.raises(EmptyDocument):
        load_html(body)


def test_str_input_is_taken_as_is() -> None:
    loaded = load_html(page(ZH))
    assert loaded.decoded.source == "str"
    assert ZH in loaded.root.xpath("string(//p)")


def test_deep_nesting_keeps_text_after_the_deep_part() -> None:
    depth = 100_000
    html = "<html><body><p>before</p>" + "<div>" * depth + "deep text" + "</div>" * depth
    html += "<p>after</p></body></html>"
    root, flattened = parse_html(html)
    assert flattened
    text = root.xpath("string()")
    assert "before" in text and "deep text" in text and "after" in text


def test_flatten_keeps_shallow_structure() -> None:
    html = "<div><p>a</p>" + "<span>" * 5 + "x" + "</span>" * 5 + "</div>"
    flat = flatten_deep_tags(html, max_depth=3)
    assert flat.startswith("<div><p>a</p><span><span>x")
    assert flat.count("<span>") == flat.count("</span>") == 2


def test_content_after_an_early_end_of_the_document_is_parsed() -> None:
    """libxml2 builds nothing after the first </html>: a header include that ends with
    </body></html> before the article would lose the article."""
    article = "HR is about people, and this article says why at some length."
    html = (
        "<html><head><title>t</title></head><body><nav><a href='/'>Home</a></nav>"
        "</body>\n</html>\n<div class='post'><h1>Six types</h1>"
        f"<p>{article}</p></div><footer>Contact</footer></body></html>"
    )
    root, _ = parse_html(html)
    assert article in "".join(root.itertext())
    # (a late script after the real end is no content: the page is read as it is)
    tail = page("Body text.") + "<script>var x = 1;</script>"
    assert "Body text." in "".join(parse_html(tail)[0].itertext())
    # (upper-case end tags of old pages too)
    upper = html.replace("</html>", "</HTML>")
    assert article in "".join(parse_html(upper)[0].itertext())
