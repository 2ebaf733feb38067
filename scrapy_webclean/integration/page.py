"""``page_item(response)``: the page item CleanPipeline expects, built in one call.

    from scrapy_webclean import page_item

    def parse(self, response):
        yield page_item(response)

The item is a dict a feed can always write, whether cleaning is on, fails or is switched
off: ``url``; ``html``, the page decoded to text with the project's encoding policy (the
cleaner gets exactly what it would decode from the bytes); ``content_type``, the response's
``Content-Type`` header; ``encoding``, the codec the bytes were decoded with. A response that
is not an HTML page (a PDF, an image, an archive: by its media type or its first bytes) gets
an empty ``html`` and ``webclean_error = "not_html"``, which ``CleanPipeline`` counts under
``webclean/items/failed/not_html`` and passes on or drops as ``WEBCLEAN_ON_ERROR`` says.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from scrapy_webclean.errors import NotHtml
from scrapy_webclean.html.encoding import DEFAULT_FALLBACK_ENCODINGS, DecodedHtml, decode_html
from scrapy_webclean.html.loader import Limits
from scrapy_webclean.html.sniff import check_magic, check_media_type

if TYPE_CHECKING:
    from scrapy.http import Response

#: Each response's decoding, while the response lives: the ad filter decodes a page as it
#: arrives, and page_item() takes the same text instead of decoding it again.
_DECODED: WeakKeyDictionary[Response, DecodedHtml] = WeakKeyDictionary()


#: The largest body ``page_item`` decodes: the cleaner's own limit (``Limits.max_bytes``).
DEFAULT_MAX_BYTES = Limits().max_bytes


def content_type_of(response: Response) -> str | None:
    """The response's ``Content-Type`` header as text, or None."""
    header = response.headers.get(b"Content-Type")
    return header.decode("latin-1") if header else None


def decode_response(
    response: Response, fallback_encodings: tuple[str, ...] = DEFAULT_FALLBACK_ENCODINGS
) -> DecodedHtml:
    """The response's body decoded with the project's encoding policy (once per response).
    Raises :class:`~scrapy_webclean.errors.NotHtml` when it is no HTML page (its media type,
    its first bytes, or binary data)."""
    decoded = _DECODED.get(response)
    if decoded is None:
        content_type = content_type_of(response)
        check_media_type(content_type)
        check_magic(response.body)
        decoded = decode_html(response.body, content_type, fallback_encodings)
        _DECODED[response] = decoded
    return decoded


def remember_decoding(response: Response, decoded: DecodedHtml) -> None:
    """Record ``decoded`` as ``response``'s decoding (for a response made from another
    one with the same body, e.g. by ``response.replace(encoding=...)``)."""
    _DECODED[response] = decoded


def page_item(
    response: Response,
    *,
    fallback_encodings: tuple[str, ...] = DEFAULT_FALLBACK_ENCODINGS,
    error_field: str = "webclean_error",
    max_bytes: int = DEFAULT_MAX_BYTES,
    **fields: Any,
) -> dict[str, Any]:
    """The page item for ``response``: ``url``, ``html`` (str), ``content_type`` (str or
    None), ``encoding`` (str or None), then ``fields`` (the spider's own, which win).

    ``fallback_encodings``: the encodings tried for a page that declares none (give
    ``WEBCLEAN_FALLBACK_ENCODINGS`` here if the project changed it). ``error_field``: where
    the ``not_html`` and ``too_large`` verdicts go (``WEBCLEAN_ERROR_FIELD``).
    ``max_bytes``: a body over this many bytes (``WEBCLEAN_MAX_HTML_BYTES``'s default) is
    not decoded here, in the spider's callback on the reactor: its ``html`` is empty and
    the verdict ``too_large``, which ``CleanPipeline`` counts and passes on.
    """
    item: dict[str, Any] = {
        "url": response.url,
        "html": "",
        "content_type": content_type_of(response),
        "encoding": None,
    }
    if len(response.body) > max_bytes:
        item[error_field] = "too_large"
        item.update(fields)
        return item
    try:
        decoded = decode_response(response, fallback_encodings)
    except NotHtml:
        item[error_field] = NotHtml.reason
    else:
        item["html"] = decoded.text
        item["encoding"] = decoded.encoding
    item.update(fields)
    return item
