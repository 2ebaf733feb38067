"""The one HTML loader: bytes to text with one encoding policy, text to one lxml tree."""

from scrapy_webclean.html.encoding import DecodedHtml, decode_html, normalize_encoding
from scrapy_webclean.html.loader import LoadedPage, load_html, parse_html

__all__ = [
    "DecodedHtml",
    "LoadedPage",
    "decode_html",
    "load_html",
    "normalize_encoding",
    "parse_html",
]
