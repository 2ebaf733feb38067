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

from scrapy_webclean.errors import NotHtml
from scrapy_webclean.html.loader import DEFAULT_FALLBACK_ENCODINGS, decode_html
from scrapy_webclean.html.sniff import check_magic, check_media_type

if TYPE_CHECKING:
    from scrapy.http import Response


def page_item(
    response: Response,
    *,
    fallback_encodings: tuple[str, ...] = DEFAULT_FALLBACK_ENCODINGS,
    error_field: str = "webclean_error",
    **fields: Any,
) -> dict[str, Any]:
    """The page item for ``response``: ``url``, ``html`` (str), ``content_type`` (str or
    None), ``encoding`` (str or None), then ``fields`` (the spider's own, which win).

    ``fallback_encodings``: the encodings tried for a page that declares none (give
    ``WEBCLEAN_FALLBACK_ENCODINGS`` here if the project changed it). ``error_field``: where
    the ``not_html`` verdict goes (``WEBCLEAN_ERROR_FIELD``).
    """
    header = response.headers.get(b"Content-Type")
    content_type = header.decode("latin-1") if header else None
    item: dict[str, Any] = {
        "url": response.url,
        "html": "",
        "content_type": content_type,
        "encoding": None,
    }
    try:
        check_media_type(content_type)
        check_magic(response.body)
        decoded = decode_html(response.body, content_type, fallback_encodings)
    except NotHtml:
        item[error_field] = NotHtml.reason
    else:
        item["html"] = decoded.text
        item["encoding"] = decoded.encoding
    item.update(fields)
    return item
