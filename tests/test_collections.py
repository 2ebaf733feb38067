"""A shop's category page keeps its grid of items beside its introduction
(``ExtractOptions.collection_grid_probability``)."""

from __future__ import annotations

from scrapy_webclean import CleanOptions, clean_html
from scrapy_webclean.extraction.options import ExtractOptions

INTRO = (
    "Sit back and relax; it is one of life's simple pleasures, and it is all about comfort. "
    "With a sofa and an armchair everyone in the family can get comfortable, and we have many "
    "cozy and affordable sofas to choose from, so you can find a seat that matches your room."
)
NAMES = (
    "GLOSTAD Sofa, Knisa dark gray",
    "UPPLAND Sofa, Blekinge white",
    "KIVIK Sofa, Grann black",
    "KLIPPAN Loveseat, Tingetorp yellow",
    "HYLTARP Sofa, Tallmyra blue",
    "LINANAS Sofa with chaise",
    "MORABO Sofa, Gunnared light green",
    "FRIHETEN Sleeper sectional, 3 seat",
)


GUIDE = (
    "A sofa should fit the room before it fits the eye: measure the wall and the doorways.",
    "Fabric covers can be washed or replaced, which keeps a family sofa fresh for years.",
    "A deeper seat invites lounging, while a firmer and higher seat is easier to leave.",
    "Sleeper sofas and sectionals with storage turn a small living room into a guest room.",
)


def category_page() -> str:
    """An introduction, product cards (an image link, a linked name and price, a button)
    and a buying guide: more prose than the grid has text, so an article's reading."""
    cards = "".join(
        f'<div class="card"><a href="/p/{i}"><img src="/i/{i}.jpg" alt=""></a>'
        f'<a href="/p/{i}"><h3>{name}</h3><span class="price">${199 + 100 * i}.00</span></a>'
        "<button>Add to cart</button></div>"
        for i, name in enumerate(NAMES)
    )
    guide = "".join(f"<p>{INTRO} {tip}</p>" for tip in GUIDE)
    return (
        "<html><head><title>Sofas</title></head><body><nav><a href='/'>Home</a></nav><main>"
        f"<h1>Sofas &amp; sectionals</h1><p>{INTRO}</p><div class='grid'>{cards}</div>"
        f"<section class='guide'><h2>How to choose a sofa</h2>{guide}</section>"
        "</main></body></html>"
    )


URL = "https://shop.example.com/collections/sofas"


def test_a_category_page_keeps_its_introduction_and_its_grid() -> None:
    text = clean_html(category_page(), URL).text
    assert INTRO in text and GUIDE[3] in text
    assert all(name in text for name in NAMES), text
    # Without the page-type model's word (a probability no model gives), the introduction
    # is the article and the grid is left to the line model, which keeps part of it.
    off = CleanOptions(extract=ExtractOptions(collection_grid_probability=1.01))
    text = clean_html(category_page(), URL, options=off).text
    assert INTRO in text and sum(name in text for name in NAMES) < len(NAMES)
