"""Tell an HTML document from other media before it is decoded: by the ``Content-Type``
header's media type and by the body's first bytes (its "magic number").

A crawl hands the cleaner whatever the server sent: a PDF, an image or a zip served to a
page URL would otherwise be decoded as text and "cleaned" into an article of binary junk.
Both checks raise :class:`~scrapy_webclean.errors.NotHtml` (reason ``not_html``).
"""

from __future__ import annotations

from scrapy_webclean.errors import NotHtml

#: Media types a page can be served as. A missing header, or one that says nothing about
#: the content (``application/octet-stream``, ``binary/octet-stream``), leaves the decision
#: to the body; every other media type is not a page.
HTML_MEDIA_TYPES = frozenset(
    (
        "text/html",
        "application/xhtml+xml",
        "application/xml",
        "text/xml",
        "text/plain",
        "application/vnd.wap.xhtml+xml",
    )
)
UNSPECIFIC_MEDIA_TYPES = frozenset(("application/octet-stream", "binary/octet-stream", "*/*"))

#: Leading bytes of common non-HTML files, with the kind each one names.
MAGIC_NUMBERS: tuple[tuple[bytes, str], ...] = (
    (b"%PDF-", "a PDF document"),
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"PK\x03\x04", "a zip archive (or an Office document)"),
    (b"\x1f\x8b", "gzip-compressed data"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an old Office document"),
    (b"wOFF", "a web font"),
    (b"wOF2", "a web font"),
    (b"OggS", "an Ogg file"),
    (b"ID3", "an MP3 file"),
    (b"\x00\x00\x01\x00", "an icon"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-zip archive"),
    (b"Rar!\x1a\x07", "a RAR archive"),
)


def media_type(content_type: str | bytes | None) -> str | None:
    """The lower-cased media type of a ``Content-Type`` value (``text/html``), or None."""
    if not content_type:
        return None
    if isinstance(content_type, bytes):
        content_type = content_type.decode("latin-1")
    kind = content_type.split(";", 1)[0].strip().lower()
    return kind or None


def check_media_type(content_type: str | bytes | None) -> None:
    """Raise :class:`NotHtml` when the header names a media type that is not a page."""
    kind = media_type(content_type)
    if kind is None or kind in HTML_MEDIA_TYPES or kind in UNSPECIFIC_MEDIA_TYPES:
        return
    if kind.endswith(("+xml", "/html")):  # other XHTML and XML dialects
        return
    raise NotHtml(f"served as {kind}, not as an HTML page")


def check_magic(body: bytes | str) -> None:
    """Raise :class:`NotHtml` when the body starts like a known non-HTML file (leading
    whitespace ignored; a ``str`` is checked as its Latin-1 bytes)."""
    head = body[:64].lstrip()
    start = head.encode("latin-1", "replace") if isinstance(head, str) else head
    for magic, kind in MAGIC_NUMBERS:
        if start.startswith(magic):
            raise NotHtml(f"the body is {kind}, not an HTML page")
    if start[4:8] == b"ftyp":
        raise NotHtml("the body is an MP4/HEIF file, not an HTML page")
    if start.startswith(b"RIFF") and start[8:12] in (b"WEBP", b"WAVE", b"AVI "):
        raise NotHtml("the body is a RIFF media file, not an HTML page")
