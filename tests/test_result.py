"""The result's dataclasses as dicts: their own ``to_dict`` gives what
``dataclasses.asdict`` gives, field for field and in the same order."""

from __future__ import annotations

from dataclasses import asdict

from scrapy_webclean import clean_html
from scrapy_webclean.result import Image, Link


def test_a_link_and_an_image_give_what_asdict_gives() -> None:
    link = Link("https://a.example/x", "Read more")
    image = Image("https://a.example/p.jpg", "A photo", "Title", 640, None, "https://a.example/")
    for value in (link, image, Image("https://a.example/q.png")):
        assert list(value.to_dict().items()) == list(asdict(value).items())


def test_a_cleaned_pages_links_and_images_are_the_dataclasses_fields() -> None:
    html = (
        "<html><body><nav><a href='/home'>Home</a></nav><article><h1>Title</h1>"
        "<p>A paragraph long enough to be the text of the page, with a "
        "<a href='/more'>link</a> in it and a photo below it, as articles have.</p>"
        "<img src='/p.jpg' alt='A photo' width='640' height='480'></article></body></html>"
    )
    result = clean_html(html, "https://a.example/story")
    data = result.to_dict()
    assert data["links"] == {
        k: [asdict(v) for v in vs] for k, vs in result.links_by_label().items()
    }
    assert data["images"] == {
        k: [asdict(v) for v in vs] for k, vs in result.images_by_label().items()
    }
    assert any(data["links"].values()) and any(data["images"].values())
