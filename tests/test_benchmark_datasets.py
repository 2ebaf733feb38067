"""The benchmark loaders' readings of the data (no data needed: made-up gold files)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from datasets import Page
from dragnet_gold import split_comments
from page_urls import unshare_urls


def test_dragnet_comments_are_split_from_the_main_text_at_every_variant_of_the_marker() -> None:
    for marker in (
        "!@#$%^&*()  COMMENTS",
        "!@#$%^&*() COMMENTS\r",
        "!@ $%^&*()  COMMENTS",
        "@#$%^&*() COMMENTS",
        "!@#$%^&*()  COMMNENTS",
        "!@#$%^&*()  CORRECTED",
        "!@#$%^&*()",
    ):
        main, comments = split_comments(f"Title\n\nThe story.\n{marker}\nReader: nice!\n")
        assert (main, comments) == ("Title\n\nThe story.", "Reader: nice!"), marker
    assert split_comments("The story. Wow!!! @#$ COMMENTS are welcome.\n") == (
        "The story. Wow!!! @#$ COMMENTS are welcome.\n",
        "",
    )


def _page(page_id: str, url: str, html: bytes = b"<html></html>") -> Page:
    return Page("dragnet-gold", page_id, url, html, "text", "example.com", "example.com", 0)


def test_pages_given_one_front_page_url_get_urls_of_their_own() -> None:
    declared = b'<html><head><link rel="canonical" href="https://example.com/2012/07/a.html">'
    pages = [
        _page("1", "http://example.com/", declared),
        _page("2", "http://example.com/"),
        _page("3", "http://example.com/2012/07/c.html"),
    ]
    notes = unshare_urls(pages)
    assert [p.url for p in pages] == [
        "https://example.com/2012/07/a.html",
        "http://example.com/dragnet-gold/2",
        "http://example.com/2012/07/c.html",
    ]
    assert [p.url_is_real for p in pages] == [True, False, True]
    assert notes and "2 pages shared 1 URLs" in notes[0]
