"""The one HTML loader: bytes to text with one encoding policy, text to one lxml tree."""

from scrapy_webclean.html.loader import (
    DecodedHtml,
    LoadedPage,
    decode_html,
    load_html,
    normalize_encoding,
    parse_html,
)

__all__ = [
    "DecodedHtml",
    "LoadedPage",
    "decode_html",
    "load_html",
    "normalize_encoding",
    "parse_html",
]
