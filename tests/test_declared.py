"""A product page's own description, declared in its JSON-LD, is main content, and so is
its name (the ``<h1>`` its title names)."""

from __future__ import annotations

from scrapy_webclean import clean_html
from scrapy_webclean.extraction.declared import (
    declared_text,
    keep_declared_lines,
)
from scrapy_webclean.extraction.lines import build_lines
from scrapy_webclean.html.loader import parse_html
from scrapy_webclean.html.pagewalk import build_page_model
from tests.pages import RULES_AND_DEFAULT

URL = "https://peak.example.com/products/trail-runner-2"
DESCRIPTION = (
    "A light trail shoe with a rock plate and a grippy outsole.\\n"
    "Breathable mesh upper keeps your feet cool on long mountain runs."
)
# (the product in a @graph beside the page's own object, its type given as a list)
PRODUCT_LD = (
    '<script type="application/ld+json">{"@context": "https://schema.org", "@graph": ['
    '{"@type": "WebPage", "name": "Shop", "description": "Peak Shoes, running shoes since 1987"}, '
    '{"@type": ["Product"], "name": "Trail Runner 2", "description": "' + DESCRIPTION + '"}]}'
    "</script>"
)
STORY = (
    "Our workshop in the valley has built running shoes since 1987. Every pair is still "
    "checked by hand before it leaves the bench, and every sole is glued by the same "
    "three people who have done it for twenty years."
)


def page(head: str) -> str:
    return (
        "<html><head><title>Trail Runner 2 | Peak Shoes</title>" + head + "</head><body>"
        "<nav><a href='/'>Home</a> <a href='/men'>Men</a> <a href='/women'>Women</a></nav>"
        "<main><h1>Trail Runner 2</h1><div class='price'>$120.00</div>"
        "<button>Add to cart</button><div class='details'><ul>"
        "<li>A light trail shoe with a rock plate and a grippy outsole.</li>"
        "<li>Breathable mesh upper keeps your feet cool on long mountain runs.</li></ul></div>"
        "<section class='story'><h2>Our story</h2><p>"
        + STORY
        + "</p><p>"
        + STORY.replace("valley", "hills")
        + "</p></section></main><footer>Copyright 2026 Peak Shoes</footer></body></html>"
    )


def test_the_declared_product_description_is_read_from_json_ld() -> None:
    root, _ = parse_html(page(PRODUCT_LD))
    description = declared_text(root)
    assert "a light trail shoe with a rock plate" in description
    assert "long mountain runs." in description
    assert "since 1987" not in description  # (the web page's own description is not read)
    # No product declared, or no JSON-LD at all: nothing.
    webpage_only = PRODUCT_LD.replace('["Product"]', '"Thing"')
    root, _ = parse_html(page(webpage_only))
    assert declared_text(root, page(webpage_only)) == ""
    root, _ = parse_html(page(""))
    assert declared_text(root, page("")) == ""


def test_a_microdata_products_description_is_read_too() -> None:
    html = (
        "<html><body><div itemscope itemtype='https://schema.org/Product'>"
        "<h1 itemprop='name'>Trail Runner 2</h1><div itemprop='description'><p>A light "
        "trail shoe with a rock plate.</p><p>Breathable mesh upper.</p></div></div>"
        "<div itemscope itemtype='https://schema.org/Organization'><p itemprop='description'>"
        "Peak Shoes, running shoes since 1987</p></div></body></html>"
    )
    root, _ = parse_html(html)
    description = declared_text(root, html)
    assert "a light trail shoe with a rock plate." in description
    assert "breathable mesh upper." in description
    assert "since 1987" not in description  # (an organisation's description is not read)


def test_a_json_ld_faqs_questions_and_answers_are_read() -> None:
    faq = (
        '<script type="application/ld+json">{"@context": "https://schema.org", '
        '"@type": "FAQPage", "mainEntity": [{"@type": "Question", "name": "How long do '
        'the soles last?", "acceptedAnswer": {"@type": "Answer", "text": "<p>About '
        '800&nbsp;km of <b>trail</b> running.</p>"}}]}</script>'
    )
    root, _ = parse_html(page(faq))
    description = declared_text(root, page(faq))
    assert "how long do the soles last?" in description
    # (tags out, entities read: the no-break space is whitespace, as in the lines)
    assert "about 800 km of trail running." in description


def test_only_lines_long_enough_and_not_blocked_are_kept() -> None:
    root, _ = parse_html(page(PRODUCT_LD))
    lines = build_lines(build_page_model(root, URL))
    description = declared_text(root) + " trail runner 2"
    kept = [False] * len(lines)
    blocked = [line.text.startswith("Breathable") for line in lines]
    keep_declared_lines(lines, kept, blocked, description)
    kept_texts = [line.text for line, keep in zip(lines, kept, strict=True) if keep]
    # The headline is in the description too, but too short to tell.
    assert kept_texts == ["A light trail shoe with a rock plate and a grippy outsole."]


def test_the_cleaner_keeps_the_description_the_page_declares() -> None:
    """On a page that declares a product, the shipped model drops the description's short
    feature lines for the story's prose; the page's own Product object names them."""
    for options in RULES_AND_DEFAULT:
        text = clean_html(page(PRODUCT_LD), URL, options=options).text
        assert "A light trail shoe with a rock plate and a grippy outsole." in text
        assert "Breathable mesh upper keeps your feet cool on long mountain runs." in text
        assert "Copyright" not in text
