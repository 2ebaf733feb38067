"""The page-type model: its features, its trees (several outputs, softmax), the shipped
model on pages of clear types, and the line model's gating by the predicted type."""

from __future__ import annotations

import math
from typing import Any

import pytest

from scrapy_webclean.extraction.linefeatures import FEATURE_NAMES, PAGE_TYPE_CODES
from scrapy_webclean.extraction.linemodel import LineModel, default_line_model
from scrapy_webclean.extraction.lines import build_lines
from scrapy_webclean.extraction.pagetype import (
    PAGE_FEATURE_NAMES,
    PAGE_TYPES,
    PRICE_RE,
    PageTypeModel,
    page_type_features,
)
from scrapy_webclean.extraction.trees import TreeEnsemble
from scrapy_webclean.html.loader import load_html
from scrapy_webclean.html.pagewalk import build_page_model
from tests.test_linemodel import spec, stump


def features(html: str, url: str | None) -> dict[str, float]:
    model = build_page_model(load_html(html, None).root, url)
    row = page_type_features(model, build_lines(model), url, html)
    assert len(row) == len(PAGE_FEATURE_NAMES)
    return dict(zip(PAGE_FEATURE_NAMES, row, strict=True))


PRODUCT = (
    "<html><head><meta property='og:type' content='product'>"
    '<script type="application/ld+json">{"@context": "https://schema.org", '
    '"@type": "Product", "name": "Kettle", "offers": {"@type": "Offer", "price": "39.00"}}'
    "</script></head><body><h1>Steel kettle 1.7 l</h1><p>$39.00</p>"
    "<form><select><option>Silver</option></select><button>Add to cart</button></form>"
    "<p>A quiet kettle that boils a litre in three minutes. It switches off by itself.</p>"
    "</body></html>"
)

THREAD = (
    "<html><body><h1>Which kettle boils fastest?</h1>"
    + "".join(
        f"<div class='post'><time>2026-01-0{i}</time><p>I think model {i} is quicker, "
        "it took two minutes in my kitchen.</p></div>"
        for i in range(1, 8)
    )
    + "</body></html>"
)


def test_features_read_the_address_the_declared_types_and_the_layout() -> None:
    product = features(PRODUCT, "https://shop.example.com/products/steel-kettle-17")
    assert product["url_product"] == 1.0  # "products"
    assert product["url_slug_words"] == 2.0  # "steel", "kettle"
    assert product["declares_product"] == 2.0  # Product and Offer
    assert product["og_product"] == 1.0
    assert product["prices"] == pytest.approx(math.log1p(1))
    assert product["controls"] == pytest.approx(math.log1p(3))  # form, select, button
    assert product["h1"] == 1.0
    thread = features(THREAD, "https://forum.example.org/t/which-kettle/1234")
    assert thread["url_forum"] == 1.0
    assert thread["time_tags"] == pytest.approx(math.log1p(7))
    assert thread["repeated_share"] > 0.5  # seven posts of one shape
    root = features("<p>Hello there.</p>", "https://example.org/")
    assert root["url_root"] == 1.0 and root["url_depth"] == 0.0
    assert features("<p>Hello there.</p>", None)["url_depth"] == 0.0


def test_trees_of_several_outputs_sum_per_output() -> None:
    # two rounds of three outputs: round-major, output within a round
    trees = [stump(0, 0.5, 1.0, 2.0), stump(0, 0.5, 0.0, 0.0), stump(1, 0.5, -1.0, 3.0)] * 2
    ensemble = TreeEnsemble(trees, [0.1, 0.2, 0.3], depth=1)
    raw = ensemble.raw([[0.0, 0.0], [1.0, 1.0]])
    assert raw.ravel().tolist() == pytest.approx([2.1, 0.2, -1.7, 4.1, 0.2, 6.3])
    with pytest.raises(ValueError, match="do not divide"):
        TreeEnsemble(trees[:5], [0.0, 0.0, 0.0], depth=1)


def page_type_spec() -> dict[str, Any]:
    """One round: "product" when the page declares a product, else "article"."""
    declares = PAGE_FEATURE_NAMES.index("declares_product")
    trees = [stump(declares, 0.5, 0.0, 0.0) for _ in PAGE_TYPES]
    trees[PAGE_TYPES.index("article")] = stump(declares, 0.5, 4.0, 0.0)
    trees[PAGE_TYPES.index("product")] = stump(declares, 0.5, 0.0, 4.0)
    return {
        "features": list(PAGE_FEATURE_NAMES),
        "classes": list(PAGE_TYPES),
        "trees": trees,
        "base": [0.0] * len(PAGE_TYPES),
        "depth": 1,
    }


def test_page_type_probabilities_are_a_softmax_of_the_outputs() -> None:
    model = PageTypeModel(page_type_spec())
    plain = [0.0] * len(PAGE_FEATURE_NAMES)
    probs = model.probabilities(plain)
    assert sum(probs) == pytest.approx(1.0)
    expected = math.exp(4.0) / (math.exp(4.0) + len(PAGE_TYPES) - 1)
    assert probs[PAGE_TYPES.index("article")] == pytest.approx(expected)
    plain[PAGE_FEATURE_NAMES.index("declares_product")] = 1.0
    assert max(range(7), key=model.probabilities(plain).__getitem__) == PAGE_TYPES.index("product")
    with pytest.raises(ValueError, match="other page types"):
        PageTypeModel({**page_type_spec(), "classes": ["article"]})


def line_spec() -> dict[str, Any]:
    """Keeps every line (base +50) of the pages it decides on: those of a most probable
    type "product"."""
    return spec(
        page_types=[],
        model_types=["product"],
        base=50.0,
        trees=[stump(0, 0.5, 0.0, 0.0)],
        page_type_model=page_type_spec(),
    )


def test_the_line_model_decides_on_the_types_it_was_trained_for() -> None:
    model = LineModel(line_spec())
    product = [0.0] * 7
    product[PAGE_TYPES.index("product")] = 0.9
    article = [0.0] * 7
    article[PAGE_TYPES.index("article")] = 0.9
    assert model.decides_on("article", product)
    assert not model.decides_on("article", article)
    assert not model.decides_on("article", ())
    row = [0.0] * len(FEATURE_NAMES)
    row[FEATURE_NAMES.index("page_type")] = float(PAGE_TYPE_CODES["article"])
    first = FEATURE_NAMES.index("type_article")
    row[first : first + 7] = product
    assert model.decide_rows([row]) == [True]
    row[first : first + 7] = article
    assert model.decide_rows([row]) is None


def test_the_shipped_page_type_model_names_clear_pages() -> None:
    model = default_line_model()
    assert model is not None and model.page_type_model is not None

    def predicted(html: str, url: str) -> str:
        page = build_page_model(load_html(html, None).root, url)
        probs = model.page_type_probabilities(
            page_type_features(page, build_lines(page), url, html)
        )
        return PAGE_TYPES[max(range(len(probs)), key=probs.__getitem__)]

    assert predicted(PRODUCT, "https://shop.example.com/products/steel-kettle-17") == "product"
    assert predicted(THREAD, "https://forum.example.org/t/which-kettle/1234") == "forum"


def test_tracking_parameters_do_not_change_the_page_type_features() -> None:
    """A crawl meets one page under ``?utm_source=...`` and without: the page type, so the
    cleaned text, must not depend on it. A query that chooses what is shown still counts."""
    url = "https://shop.example.com/c/kettles"
    plain = features(PRODUCT, url)
    assert features(PRODUCT, url + "?utm_source=news&srsltid=AfmBOo") == plain
    assert features(PRODUCT, url + "?gclid=1&fbclid=2") == plain
    assert features(PRODUCT, url + "?page=2") != plain


@pytest.mark.parametrize(
    ("text", "prices"),
    [
        ("$5 and € 12,50", ["$5", "€ 12,50"]),
        ("USD 1,200 or Rs. 100 or CAD5", ["USD 1,200", "Rs. 100", "CAD5"]),
        ("10 руб, 3.5kr, 20 zł, 7€", ["10 руб", "3.5kr", "20 zł", "7€"]),
        # A code inside a word, a bare code, a number's tail: no price.
        ("xUSD 5; ARs 5; USD; .5€", []),
    ],
)
def test_a_price_is_a_currency_sign_or_code_next_to_a_number(text: str, prices: list[str]) -> None:
    assert [match.group() for match in PRICE_RE.finditer(text)] == prices
