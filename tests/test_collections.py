"""A shop's category page keeps its grid of items beside its introduction
(``ExtractOptions.collection_grid_probability``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scrapy_webclean import CleanOptions, clean_html
from scrapy_webclean.extraction.linemodel import default_line_model
from scrapy_webclean.extraction.lines import Line
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


class PageTypesOnly:
    """A line decider that gives the shipped model's page-type probabilities and leaves
    every line to the rules (as ``LineDecider`` allows: a training recorder does so)."""

    def __init__(self) -> None:
        model = default_line_model()
        assert model is not None
        self.model = model

    def page_type_probabilities(self, features: Sequence[float]) -> list[float]:
        return self.model.page_type_probabilities(features)

    def decides_on(
        self, page_type: str, type_probs: Sequence[float] = (), lines: Sequence[Line] = ()
    ) -> bool:
        return False

    def decide(self, model: Any, lines: Sequence[Line], rules: Any) -> None:
        return None


def test_a_category_page_read_as_a_listing_keeps_its_introduction() -> None:
    """The grid outweighs the introduction, so the rules read a listing; as a collection
    the page keeps the introduction too."""
    names = [f"{name} {wood}" for name in NAMES for wood in ("oak", "ash")]
    cards = "".join(
        f'<div class="card"><a href="/p/{i}"><img src="/i/{i}.jpg" alt=""></a>'
        f'<a href="/p/{i}"><h3>{name}</h3><span class="price">${199 + 100 * i}.00</span></a>'
        "<button>Add to cart</button></div>"
        for i, name in enumerate(names)
    )
    html = (
        "<html><head><title>Sofas</title></head><body><nav><a href='/'>Home</a></nav>"
        f"<div class='intro'><h1>Sofas &amp; sectionals</h1><p>{INTRO}</p></div>"
        f"<main><div class='grid'>{cards}</div></main></body></html>"
    )
    # (the shipped model gives this small page a collection probability near one half)
    on = CleanOptions(
        line_model=PageTypesOnly(), extract=ExtractOptions(collection_grid_probability=0.3)
    )
    result = clean_html(html, URL, options=on)
    assert result.page_type == "listing"
    assert INTRO in result.text and all(name in result.text for name in names)
    off = CleanOptions(
        line_model=PageTypesOnly(), extract=ExtractOptions(collection_grid_probability=1.01)
    )
    result = clean_html(html, URL, options=off)
    assert INTRO not in result.text and all(name in result.text for name in names)


def test_a_side_column_holding_the_grid_is_the_main_column() -> None:
    """A two-column shop page names its wide column "right-col" (beside the filters): a
    side column holding a quarter of the page's text or more is no sidebar
    (``hints.SIDE_COLUMN_MAX_TEXT_SHARE``); a small one still is."""
    from scrapy_webclean.extraction.hints import node_hints
    from scrapy_webclean.extraction.hintwords import STRONG_NEGATIVE
    from scrapy_webclean.html.loader import load_html
    from scrapy_webclean.html.pagewalk import build_page_model

    names = [f"{name} {wood}" for name in NAMES for wood in ("oak", "ash", "elm")]
    cards = "".join(
        f'<li class="item"><a href="/p/{i}"><img src="/i/{i}.jpg" alt=""></a>'
        f'<a href="/p/{i}">{name}</a><span class="price">${199 + 100 * i}.00</span></li>'
        for i, name in enumerate(names)
    )
    filters = "".join(f"<li><a href='/f/{i}'>Filter {i}</a></li>" for i in range(6))
    html = (
        "<html><head><title>Best sellers</title></head><body>"
        f"<div id='left-col'><ul>{filters}</ul></div>"
        f"<div id='right-col'><h1>Best sellers in sofas</h1><p>{INTRO}</p>"
        f"<ol class='grid'>{cards}</ol></div>"
        "<div id='side-col'><p>Sign in for the best experience.</p></div>"
        "</body></html>"
    )
    text = clean_html(html, "https://shop.example.com/best-sellers/sofas").text
    assert INTRO in text and sum(name in text for name in names) >= len(names) - 2, text
    assert "Filter 3" not in text and "Sign in" not in text
    model = build_page_model(load_html(html).root)
    prose = [0.0] * len(model)
    hints = node_hints(model, prose)
    ids = {el.get("id"): i for i, el in enumerate(model.elements)}
    assert hints[ids["right-col"]] != STRONG_NEGATIVE
    assert hints[ids["side-col"]] == STRONG_NEGATIVE
