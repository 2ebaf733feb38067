"""Product pages: the description kept and the reviews and the repeated buy box left out,
the types a page declares, and a roundup article of products read as the article it is."""

from __future__ import annotations

from scrapy_webclean import clean_html
from tests.pages import PROSE, page


def test_product_page_keeps_its_description_and_leaves_out_customer_reviews() -> None:
    from scrapy_webclean.extraction.pagekind import looks_like_product

    description = (
        "This stoneware mug is thrown by hand from a clay we mix ourselves, glazed in two "
        "tones and fired twice, so it keeps your coffee warm for longer than you expect."
    )
    reviews = "".join(
        f'<div class="review-card"><p>{PROSE} Review {i}.</p><p>{PROSE}</p></div>' for i in range(4)
    )
    body = (
        '<div class="gallery"><img src="/m.jpg" alt="Mug"></div>'
        '<div id="listing-right-column"><h1>Stoneware mug</h1><p>$24.00</p>'
        "<button>Add to cart</button>"
        '<div class="content-toggle-details-read-more"><p>'
        + description
        + "</p><p>"
        + description
        + "</p></div></div>"
        f'<section id="reviews"><h2>Reviews (4)</h2>{reviews}</section>'
    )
    ld = (
        '<script type="application/ld+json">{"@context": "https://schema.org", '
        '"@type": "Product", "name": "Stoneware mug", '
        '"offers": {"@type": "Offer", "price": "24.00"}}</script>'
    )
    shop = f"<html><head><title>Mug</title>{ld}</head><body>{body}</body></html>"
    assert looks_like_product(shop)
    text = clean_html(shop, "https://shop.example.com/listing/123/stoneware-mug").text
    assert description in text and "Review 3." not in text
    # Without the shop's markup the same reviews are ordinary text (a review site's page).
    assert "Review 3." in clean_html(page(body)).text
    # A Product without an offer (rating stars for a service page) is no product page; nor
    # is og:type article.
    stars = '<script type="application/ld+json">{"@type": "Product", "name": "Pest control"}'
    assert not looks_like_product(f"<html><head>{stars}</script></head><body></body></html>")
    og = '<meta property="og:type" content="product.item">'
    assert looks_like_product(f"<html><head>{og}</head><body></body></html>")
    assert not looks_like_product('<meta property="og:type" content="article">')


def test_declared_types_are_read_once_a_page_and_from_the_whole_of_a_long_one() -> None:
    from scrapy_webclean.extraction.pagekind import (
        MAX_DECLARED_TYPES,
        MAX_MARKUP_CHARS,
        all_declared_types,
        declared_types,
        declares_discussion,
        looks_like_product,
    )

    ld = (
        '<script type="application/ld+json">{"@type": ["Product", "Thing"], "name": "Mug", '
        '"offers": {"@type": "Offer", "price": "24.00"}}</script>'
    )
    micro = '<div itemscope itemtype="https://schema.org/QAPage"><p>Why?</p></div>'
    og = '<meta property="og:type" content="website">'
    html = f"<html><head>{og}{ld}</head><body>{micro}</body></html>"
    types = declared_types(html)
    assert types.json_ld == ("Product", "Offer") and types.microdata == ("QAPage",)
    assert types.og == ("website",) and types.complete
    assert declared_types(html) is types  # (read once for the page's stages)
    assert declares_discussion(html) and looks_like_product(html)
    # The page-type features read the first MAX_MARKUP_CHARS characters; whether a page
    # sells a product is read from all of it.
    filler = "<p>" + "x" * 100 + "</p>"
    long = "<html><body>" + filler * (MAX_MARKUP_CHARS // len(filler) + 1) + ld + "</body></html>"
    assert declared_types(long).json_ld == () and not declared_types(long).complete
    assert all_declared_types(long).json_ld == ("Product", "Offer")
    assert all_declared_types(long) is all_declared_types(long)  # (read once too)
    assert looks_like_product(long)
    # ... and so from a page declaring more types than the features count.
    items = '<script type="application/ld+json">{"@type": "ListItem"}</script>' * MAX_DECLARED_TYPES
    many = f"<html><head>{items}{ld}</head><body></body></html>"
    assert "Product" not in declared_types(many).json_ld
    assert looks_like_product(many)


def test_a_roundup_article_of_products_is_no_product_page() -> None:
    """ "The best dishwashers of 2025" declares itself an article and each product it
    picks, with an offer: its sections, named for the products' reviews, are the text."""
    from scrapy_webclean.extraction.pagekind import looks_like_product

    def product(name: str) -> str:
        return (
            f'{{"@type": "Product", "name": "{name}", '
            '"offers": {"@type": "Offer", "price": "999.00"}}'
        )

    def markup(*objects: str) -> str:
        graph = ", ".join(objects)
        return (
            '<html><head><script type="application/ld+json">{"@context": '
            f'"https://schema.org", "@graph": [{graph}]}}</script></head><body>'
            + "".join(
                f'<div id="pick-{i}-review"><h2>Pick {i}</h2><p>{PROSE} Pick {i}.</p></div>'
                for i in range(3)
            )
            + "</body></html>"
        )

    article = '{"@type": "Article", "headline": "The best dishwashers"}'
    roundup = markup(article, product("Dishwasher A"), product("Dishwasher B"))
    assert not looks_like_product(roundup)
    text = clean_html(roundup, "https://reviews.example.com/best-dishwashers").text
    assert "Pick 0." in text and "Pick 1." in text
    # One product in an article, or several on a page that is no article: a product page
    # (a shop page declares its related products too), whose review sections are dropped.
    assert looks_like_product(markup(article, product("Dishwasher A")))
    shop = markup(product("Dishwasher A"), product("Dishwasher B"))
    assert looks_like_product(shop)
    assert "Pick 0." not in clean_html(shop, "https://shop.example.com/dishwasher-a").text


def test_product_page_buy_box_rendered_twice_and_its_faq_are_left_out() -> None:
    description = (
        "A standing desk frame of steel with two quiet motors that lift a top of up to one "
        "hundred kilograms from sitting to standing height in under twenty seconds."
    )
    box = f'<div class="buy-box"><h2>Standing desk</h2><p>{description}</p><p>$499</p></div>'
    body = (
        f'<div class="pdp">{box}</div><div class="pdp">{box}</div>'
        f"<p>{PROSE}</p>"
        f'<section class="product-faq"><h2>Questions</h2><p>{PROSE} Can it hold two '
        "screens?</p></section>"
        "<section><h2>Customers who viewed this also viewed</h2>"
        '<div class="carousel"><p>An oak desk top cut to size and oiled by hand, with '
        "rounded corners.</p></div></section>"
    )
    ld = (
        '<script type="application/ld+json">{"@type": "Product", "name": "Desk", '
        '"offers": {"@type": "Offer", "price": "499"}}</script>'
    )
    shop = f"<html><head><title>Desk</title>{ld}</head><body>{body}</body></html>"
    text = clean_html(shop, "https://shop.example.com/p/desk").text
    assert text.count(description) == 1
    assert "Can it hold" not in text and "oak desk" not in text
    # On a page that sells nothing, lines repeated in the same place of a repeating
    # structure are kept (a timetable, a meal plan; ``extraction.repeats``).
    assert clean_html(page(body)).text.count(description) == 2
