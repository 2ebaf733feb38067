"""The failure classes seen on held-out pages, each on a small page the test writes: a very
short page keeps its text, a one-paragraph article wins over its footnotes, notices and
captions, a documentation page keeps its other sections, formulas and table cells keep
their text, an AMP or print rendition reads as its document."""

from __future__ import annotations

import pytest

from scrapy_webclean import CleanOptions, clean_html

URL = "https://example.com/notes/page"

#: Pages of under 60 characters of text, each with the words it must keep.
SHORT_PAGES = {
    "a bare body": ("<html><body><p>Hello world.</p></body></html>", "Hello world."),
    "one div in wrappers": (
        "<html><head><title>Status</title></head><body><div class='wrap'>"
        "<div class='box'>All systems operational</div></div></body></html>",
        "All systems operational",
    ),
    "a notice under a menu": (
        "<html><head><title>Closed</title></head><body><div id='wrap'><div class='menu'>"
        "<a href='/a'>Shop</a><a href='/b'>Blog</a><a href='/c'>Help</a></div>"
        "<div><h2>We are closed for the holidays</h2><p>Back on 4 January.</p></div>"
        "</div></body></html>",
        "Back on 4 January.",
    ),
}


@pytest.mark.parametrize("model", ["default", "none"])
@pytest.mark.parametrize("name", sorted(SHORT_PAGES))
def test_a_very_short_page_keeps_its_text(name: str, model: str) -> None:
    html, expected = SHORT_PAGES[name]
    options = CleanOptions() if model == "default" else CleanOptions(line_model=None)
    text = clean_html(html.encode(), URL, options=options).text
    assert expected in text


#: A one-paragraph encyclopedia article, and what its page puts around it: a picture's
#: caption, a reference footnote, a "stub" notice (each as long as a sentence or two).
ARTICLE = (
    "<p><b>Glimmer Creek</b> is a tributary of the Red River in Marlow County, Oregon, in "
    "the United States. It is approximately 14 miles long and drains an area of about 38 "
    'square miles.<sup class="reference"><a href="#cite_note-1">[1]</a></sup> The creek '
    "was named for the mica flakes that glitter in its bed.</p>"
)
CAPTION = (
    "Glimmer Creek near its confluence with the Red River in the spring of 2009, seen "
    "from the old county bridge."
)
REFERENCE = (
    "United States Geological Survey. Geographic Names Information System: Glimmer Creek. "
    "Retrieved on March 3, 2011, from the national map database of the survey, which "
    "lists the creek's length and basin."
)
NOTICE = "This article about a river in Oregon is a stub. You can help by expanding it."
#: The markup around each of them, in the names two wiki engines and a blog engine use.
FIGURES = {
    "thumb": f'<div class="thumb tright"><div class="thumbinner"><img src="/x.jpg">'
    f'<div class="thumbcaption">{CAPTION}</div></div></div>',
    "wp": f'<div class="wp-caption"><img src="/x.jpg"><p class="wp-caption-text">{CAPTION}</p>'
    "</div>",
}
REFERENCES = {
    "references": f'<div class="mw-references-wrap"><ol class="references"><li>'
    f'<span class="reference-text">{REFERENCE}</span></li></ol></div>',
    "reflist": f'<div class="reflist"><ol><li>{REFERENCE}</li></ol></div>',
}
NOTICES = {
    "stub": f'<table class="metadata plainlinks stub"><tr><td>{NOTICE}</td></tr></table>',
    "stub-box": f'<div class="stub-notice"><p>{NOTICE}</p></div>',
}


def wiki_page(figure: str, reference: str, notice: str) -> str:
    return (
        "<html><head><title>Glimmer Creek</title></head><body>"
        "<div id='head'><ul><li><a href='/wiki/Main'>Main page</a></li>"
        "<li><a href='/wiki/Random'>Random article</a></li></ul></div>"
        "<div id='content'><h1>Glimmer Creek</h1><div class='body'>"
        f"{figure}{ARTICLE}{reference}{notice}"
        "</div></div><div id='footer'>Text is available under a free license.</div>"
        "</body></html>"
    )


@pytest.mark.parametrize("model", ["default", "none"])
@pytest.mark.parametrize("figure", sorted(FIGURES))
@pytest.mark.parametrize("reference", sorted(REFERENCES))
@pytest.mark.parametrize("notice", sorted(NOTICES))
def test_a_one_paragraph_article_wins_over_its_caption_footnote_and_notice(
    figure: str, reference: str, notice: str, model: str
) -> None:
    html = wiki_page(FIGURES[figure], REFERENCES[reference], NOTICES[notice])
    options = CleanOptions() if model == "default" else CleanOptions(line_model=None)
    text = clean_html(
        html.encode(), "https://wiki.example.org/wiki/Glimmer_Creek", options=options
    ).text
    assert "tributary of the Red River" in text and "mica flakes" in text
    assert CAPTION not in text
    assert "Geographic Names Information System" not in text
    assert "is a stub" not in text


#: A front page of short sections: read whole at its root address (a landing page).
LANDING = (
    "<html><head><title>Acme Rockets</title></head><body><div class='nav'>"
    "<a href='/a'>Home</a><a href='/b'>Pricing</a><a href='/c'>Blog</a></div><main>"
    "<section><h1>Rockets for everyone</h1><p>Launch your payload to orbit for less.</p>"
    "</section><section><h2>Reusable</h2><p>Every booster lands and flies again within a "
    "week.</p></section><section><h2>Reliable</h2><p>Ninety-nine launches without a single "
    "loss of payload.</p></section><section><h2>Affordable</h2><p>Prices start at one "
    "thousand dollars per kilogram to low orbit, with volume discounts for constellations "
    "and research institutions that fly with us every year.</p></section></main>"
    "<footer>Copyright Acme</footer></body></html>"
)


@pytest.mark.parametrize("model", ["default", "none"])
@pytest.mark.parametrize("tail", ["amp/", "print"])
def test_an_amp_or_print_rendition_reads_as_its_document(tail: str, model: str) -> None:
    options = CleanOptions() if model == "default" else CleanOptions(line_model=None)
    for html, url in ((LANDING, "https://acme.example/"), (wiki_page("", "", ""), URL + "/")):
        document = clean_html(html.encode(), url, options=options).text
        assert document
        assert clean_html(html.encode(), url + tail, options=options).text == document


PROSE = (
    "The quadratic formula gives the roots of any second-degree polynomial, and it "
    "follows from completing the square on the general equation."
)
#: One formula in the three forms pages write MathML in: with its TeX source, with an
#: ``alttext``, with its tokens alone.
FORMULAS = {
    "annotation": (
        "<math><semantics><mrow><mi>x</mi><mo>=</mo><mi>y</mi></mrow>"
        '<annotation encoding="application/x-tex">x = \\frac{-b}{2a}</annotation>'
        "</semantics></math>",
        "x = \\frac{-b}{2a}",
    ),
    "alttext": (
        '<math alttext="x = \\frac{-b}{2a}"><mi>x</mi><mo>=</mo><mi>y</mi></math>',
        "x = \\frac{-b}{2a}",
    ),
    "tokens": (
        "<math><mi>x</mi><mo>=</mo><mfrac><mrow><mo>-</mo><mi>b</mi></mrow>"
        "<mrow><mn>2</mn><mi>a</mi></mrow></mfrac></math>",
        "x=-b2a",
    ),
}
TABLE = (
    "<table><tr><th>Equation</th><th>Roots</th></tr><tr><td>x^2 - 1 = 0</td><td>1 and -1"
    "</td></tr><tr><td>x^2 - 4 = 0</td><td>2 and -2</td></tr><tr><td>x^2 + 1 = 0</td>"
    "<td>i and -i</td></tr></table>"
)


def maths_page(middle: str) -> str:
    return (
        "<html><head><title>Quadratic formula</title></head><body><div class='nav'>"
        "<a href='/'>Home</a><a href='/maths'>Maths</a></div><article><h1>Quadratic "
        f"formula</h1><p>{PROSE}</p>{middle}<p>{PROSE.replace('roots', 'solutions')}</p>"
        f"<p>{PROSE.replace('quadratic', 'general')}</p></article><footer>Copyright"
        "</footer></body></html>"
    )


@pytest.mark.parametrize("model", ["default", "none"])
@pytest.mark.parametrize("form", sorted(FORMULAS))
def test_a_formula_keeps_its_text(form: str, model: str) -> None:
    math, expected = FORMULAS[form]
    html = maths_page(f"<p>The roots are {math} for every equation with a leading term.</p>")
    options = CleanOptions() if model == "default" else CleanOptions(line_model=None)
    text = clean_html(html.encode(), "https://maths.example/quadratic", options=options).text
    assert f"The roots are {expected} for every equation" in text


@pytest.mark.parametrize("model", ["default", "none"])
def test_a_data_table_keeps_all_its_cells(model: str) -> None:
    options = CleanOptions() if model == "default" else CleanOptions(line_model=None)
    text = clean_html(maths_page(TABLE).encode(), "https://maths.example/q", options=options).text
    cells = ["Equation", "Roots", "x^2 - 1 = 0", "1 and -1", "x^2 + 1 = 0", "i and -i"]
    assert all(cell in text.split("\n") for cell in cells)


def test_a_documentation_pages_other_sections_join_its_region() -> None:
    from scrapy_webclean.extraction.region import join_same_sections
    from scrapy_webclean.html.loader import parse_html
    from scrapy_webclean.html.pagewalk import build_page_model

    root, _ = parse_html(
        "<html><body><div class='head'><section class='content-section' id='intro'>"
        "<p>Intro</p></section></div><aside class='toc'><a href='#a'>A</a></aside>"
        "<div class='body'><section class='content-section' id='a'><p>A</p></section>"
        "<section class='content-section' id='b'><p>B</p></section>"
        "<section class='other' id='c'><p>C</p></section>"
        "<section class='content-section' id='d'><p>D</p></section></div></body></html>"
    )
    model = build_page_model(root)
    node = {model.elements[i].get("id"): i for i in range(len(model))}
    # The sections' lines score positive but for D's.
    subtree = [1.0] * len(model)
    subtree[node["d"]] = -1.0
    intro = (node["intro"], node["intro"] + model.node_count[node["intro"]])
    joined = join_same_sections(model, [intro], subtree)
    assert [start for start, _ in joined] == [node["intro"], node["a"], node["b"]]
    # A region without a class, or no region: nothing to join.
    assert join_same_sections(model, [], subtree) == []
    body = model.tags.index("body")
    assert join_same_sections(model, [(body, body + 1)], subtree) == [(body, body + 1)]
