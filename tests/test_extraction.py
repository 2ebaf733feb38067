"""Main-content extraction: the main region and the page's kind (article, listing,
landing page, front page, gallery, documentation, a short post); what the markup says about
its parts is ``test_extraction_markup.py``."""

from __future__ import annotations

from scrapy_webclean import CleanOptions, clean_html
from scrapy_webclean.extraction.options import ExtractOptions
from tests.pages import PROSE, RULES_AND_DEFAULT, RULES_ONLY, link_items, page


def test_paragraphs_split_over_sibling_containers_are_one_region() -> None:
    paragraphs = "".join(
        f'<div class="para">{PROSE} Paragraph {i}.</div><div class="ad">Advertisement</div>'
        for i in range(6)
    )
    html = page(
        '<ul class="menu">'
        + link_items("Item", 9)
        + f"</ul><section>{paragraphs}</section><footer>Copyright 2026 Example.</footer>"
    )
    text = clean_html(html).text
    assert [line.endswith(f"Paragraph {i}.") for i, line in enumerate(text.split("\n"))] == [
        True
    ] * 6
    assert "Item" not in text and "Copyright" not in text and "Advertisement" not in text


def test_in_page_tfidf_cosine_pruning() -> None:
    from scrapy_webclean.extraction.tfidf import prune_scores

    texts = [
        "harbour council library annex vote harbour library building council",
        "library annex opening harbour council",
        "subscribe newsletter deals",
    ]
    main, cosines = prune_scores(texts)
    assert main == 0 and cosines[0] == 1.0
    assert cosines[1] > 0.3 > cosines[2] == 0.0


def test_path_similarity_and_threshold() -> None:
    from scrapy_webclean.extraction.paths import path_similarity, path_threshold

    a = ["html", "body", "div", "p"]
    assert path_similarity(a, a) == 1 - 0.5**4
    assert path_similarity(a, ["html", "body", "div", "ul"]) == 1 - 0.5**3
    assert path_similarity(a, ["html", "body", "aside", "p"]) == 0.5 + 0.25 + 0.0625
    assert path_threshold(4) == 0.75  # a common grandparent of a depth-4 leaf


def test_page_types() -> None:
    assert (
        clean_html(page(f"<article><p>{PROSE}</p><p>{PROSE}</p></article>")).page_type == "article"
    )


def test_a_list_of_short_linked_names_with_details_is_a_listing() -> None:
    films = "".join(
        f'<li class="item"><a href="/film/{i}"><h3>Picture {i}</h3></a>'
        f"<span>{2000 + i}</span> <span>1h {40 + i}m</span> <span>Rated 7.{i} by 12K</span></li>"
        for i in range(12)
    )
    html = page(
        '<nav><a href="/">Home</a> <a href="/films">Films</a></nav>'
        "<main><h1>Most popular films</h1><p>Our charts rank the films people look up.</p>"
        f'<ul class="chart">{films}</ul></main>'
    )
    result = clean_html(html)
    assert result.page_type == "listing"
    assert "Picture 3" in result.text and "Rated 7.9 by 12K" in result.text
    # A menu of bare links is no listing: its entries have nothing beside the link.
    menu = link_items("Section", 12)
    plain = clean_html(page(f"<article><p>{PROSE}</p><p>{PROSE}</p></article><ul>{menu}</ul>"))
    assert plain.page_type == "article" and "Section 3" not in plain.text


def test_a_mega_menu_in_a_nav_element_named_nav_is_never_the_listing() -> None:
    # A shop's <nav class="site-nav"> whose drop-down lists long category names: its
    # class word "nav" is a weak hint, but the element is a <nav>, which makes it strong.
    groups = "".join(
        f'<li class="col"><a href="/c/{i}">Category {i} of instruments</a> '
        f'<a href="/c/{i}/a">Solidbody and semi-hollowbody kinds {i}</a></li>'
        for i in range(40)
    )
    html = page(
        f'<nav class="site-nav"><ul class="cols">{groups}</ul></nav>'
        '<main><section class="product"><h1>Audio interface</h1>'
        f"<p>{PROSE}</p><p>{PROSE}</p></section></main>"
    )
    for options in RULES_AND_DEFAULT:
        result = clean_html(html, options=options)
        assert result.page_type != "listing", options
        assert PROSE in result.text and "Category 3" not in result.text


def test_a_short_story_the_page_type_model_calls_an_article_is_not_read_as_a_listing() -> None:
    """A one-paragraph story over a long box of other videos: the rules alone read the box
    as the page's list; with the page-type model sure the page is an article, the box must
    hold ``listing_strong_factor`` times the story's text to win."""
    items = "".join(
        f'<li><a href="/2012/10/{i}/story-{i}.html">Watch: the mayor opens bridge number {i} '
        "across the river</a></li>"
        for i in range(14)
    )
    html = (
        '<html><head><title>Bridge vote delayed - The Daily</title><meta property="og:type" '
        'content="article"></head><body><article><h1>Bridge vote delayed</h1>'
        '<time datetime="2012-10-24">24 October 2012</time>'
        f'<p>{PROSE} Story.</p></article><div class="playlist"><h2>More video</h2><ul>{items}'
        "</ul></div></body></html>"
    )
    url = "https://news.example.com/2012/10/24/bridge-vote-delayed-after-committee-review.html"
    story = clean_html(html, url)
    assert story.page_type == "article" and "Story." in story.text
    assert "bridge number 3" not in story.text
    listing = clean_html(html, url, options=RULES_ONLY)
    assert listing.page_type == "listing" and "bridge number 3" in listing.text
    unsure = CleanOptions(extract=ExtractOptions(listing_article_probability=1.01))
    assert clean_html(html, url, options=unsure).page_type == "listing"


def test_paragraphs_written_straight_into_the_post_beside_a_list_are_kept() -> None:
    """Blogger writes a post's paragraphs as text separated by <br>s in the post's div; a
    nested list of long points is the best holder, and widening it to the region must take
    its parent's own lines too, not only its sibling elements."""
    points = "".join(f"<li>{PROSE} {PROSE} Point {i}.</li>" for i in range(5))
    older = link_items("Older post", 6, "/p/")
    html = page(
        '<div id="main-wrapper"><div class="widget"><p>Welcome to our blog about running.</p>'
        '</div><div class="post"><h3>Race report</h3><div class="post-body">'
        f"{PROSE} Opening.<br><br>{PROSE} Second.<br><br>{PROSE} Third.<br><br>"
        f'<div><div><ul>{points}</ul></div></div></div></div></div><div id="sidebar"><ul>'
        f"{older}</ul></div>"
    )
    for options in RULES_AND_DEFAULT:
        text = clean_html(html, "https://blog.example.com/2012/09/race.html", options=options).text
        for words in ("Opening.", "Second.", "Third.", "Point 4."):
            assert words in text, (words, options)


def test_a_gallery_slide_keeps_its_caption_and_an_article_does_not() -> None:
    """On a slide of a gallery the caption is the text (the page kept a headline's worth
    without it); under an article's paragraphs a caption stays out."""
    caption = (
        "Lindsay Lohan looked a tad too done up after a night of partying at the Chateau "
        "Marmont on July 21, and got into the driver's seat of her car (Photo Agency)"
    )
    slides = link_items("Slide", 8, "/s/")
    slide = page(
        '<div class="story"><h1>Heavy on makeup</h1><div class="dek">Her latest look '
        'featured a lot of lipstick.</div></div><div class="viewer"><div class="image">'
        f'<img src="/a.jpg"></div><div class="caption">{caption}</div></div>'
        f'<ul class="thumbs">{slides}</ul>'
    )
    url = "https://news.example.com/entertainment/slideshow/heavy-on-makeup-3161542"
    for options in RULES_AND_DEFAULT:
        assert caption in clean_html(slide, url, options=options).text, options
    story = page(
        "<article><h1>Report</h1>"
        + "".join(f"<p>{PROSE} P{i}.</p>" for i in range(4))
        + f'<figure><img src="/b.jpg"><figcaption>{caption}</figcaption></figure></article>'
    )
    text = clean_html(story, "https://news.example.com/2012/report.html").text
    assert "P3." in text and caption not in text


def front_page(hero: str, blurbs: bool = True) -> str:
    blurb = "<p>Teams use {} boards every day to see what is next and who does it.</p>"
    sections = "".join(
        f"<section><h3>{name}</h3><div>Faster {name.lower()}</div>"
        + (blurb.format(name.lower()) if blurbs else "")
        + "</section>"
        for name in ("Planning", "Tracking", "Reporting", "Sharing")
    )
    return page(
        '<header><a href="/">Logo</a><nav><a href="/p">Pricing</a> <a href="/d">Docs</a>'
        '<a href="/l">Log in</a></nav></header>'
        f"<div><h1>The tool for teams</h1><div class='hero'><div>{hero}"
        f"</div></div><div class='features'><div>{sections}</div></div></div>"
        "<footer>Copyright 2026 Example Inc. All rights reserved.</footer>"
    )


def test_a_front_page_is_read_as_a_landing_page() -> None:
    """The rules read a front page's whole main element; the trained line model, which
    decides on pages its page-type model finds to be service pages, keeps the sections'
    headings and blurbs and may leave out a two-word tagline."""
    html = front_page(f"<p>{PROSE}</p>")
    rules = clean_html(html, "https://example.com/", options=RULES_ONLY).text
    for name in ("Planning", "Tracking", "Reporting", "Sharing"):
        assert f"Faster {name.lower()}" in rules
    landing = clean_html(html, "https://example.com/").text
    for name in ("Planning", "Tracking", "Reporting", "Sharing"):
        assert f"{name}\nTeams use {name.lower()} boards" in landing
    for text in (rules, landing):
        assert "Pricing" not in text and "Copyright" not in text


def test_a_front_page_showing_one_post_is_read_as_that_article() -> None:
    """A blog's front page that shows its latest post in full: one paragraph holder has
    most of the page's score, so the page is read as that article, as it would be at the
    article's own URL, not as a landing page (whose text is its whole main element)."""
    post = "".join(f"<p>{PROSE} Part {i}.</p>" for i in range(6))
    front = clean_html(front_page(post, blurbs=False), "https://example.com/").text
    article = clean_html(front_page(post, blurbs=False), "https://example.com/blog/a.html").text
    assert "Part 5." in front and front == article and "Faster planning" not in front


def test_fill_in_forms_and_footnotes_do_not_take_the_page() -> None:
    menu = link_items("Menu entry", 30)
    steps = "".join(
        f"<section><h2>Step {i}</h2><div><p>{PROSE} Step {i}.</p></div></section>" for i in range(6)
    )
    fields = "".join(f'<label>Field {i}</label><input name="f{i}">' for i in range(5))
    consent = (
        "By checking this box, you confirm that you have read and understand this notice; "
        "sending us an email does not create a client relationship of any kind."
    )
    form = f'<form action="/contact">{fields}<p><input type="checkbox">{consent}</p></form>'
    notes = "".join(f"<p>{mark}{PROSE} Footnote {i}.</p>" for i, mark in enumerate("¹²³*"))
    html = page(
        f"<ul>{menu}</ul><div>{steps}</div>"
        f'<div><div><div class="fine">{notes}</div></div></div>{form}'
    )
    text = clean_html(html, "https://example.com/services/insurance").text
    # The steps, spread over short sections, are the page, beside its fine print (one
    # container of long paragraphs, which must not take the page); the contact form's
    # consent notice is not.
    assert all(f"Step {i}." in text for i in range(6)), text
    assert "By checking this box" not in text
    # A form with a single field around long text (a comment kept editable) is content.
    editable = page(f'<form action="#"><input type="hidden" name="id"><p>{PROSE}</p></form>')
    assert PROSE in clean_html(editable).text


def test_documentation_pages_keep_linked_headings_and_introduced_link_lists() -> None:
    # Documentation sites link every section heading to its own anchor (an index page's to
    # its chapters), and introduce lists of links to the pages they describe: all of it is
    # the text. A heading that links elsewhere is a teaser's title.
    intro = "The server stores values of several kinds, each with its own page:"
    types = "".join(
        f'<li><a href="/docs/types/{n}">{n}</a></li>' for n in ("Strings", "Lists", "Sets")
    )
    body = (
        '<nav class="docs-nav"><ul>' + link_items("Page", 8, "/docs/") + "</ul></nav>"
        '<main><article class="docs-content"><h1>Data types</h1>'
        f'<h2><a class="heading-anchor" href="#overview">Overview</a></h2><p>{PROSE}</p>'
        f"<p>{intro}</p><ul>{types}</ul>"
        f'<h2><a class="heading-anchor" href="#limits">Limits</a></h2><p>{PROSE}</p>'
        '<h3><a href="/types/streams/">Streams</a></h3><p>A chapter below this page.</p>'
        '<h3><a href="/blog/launch">Our launch party</a></h3>'
        "</article></main>"
    )
    # (The rules' verdicts: by default the article model decides a documentation page's
    # lines, and on so small a page it drops the list's first item.)
    text = clean_html(page(body), "https://docs.example.org/types/", options=RULES_ONLY).text
    lines = text.split("\n")
    assert lines == [
        "Overview",
        PROSE,
        intro,
        "Strings",
        "Lists",
        "Sets",
        "Limits",
        PROSE,
        "Streams",
        "A chapter below this page.",
    ]
    # Without the introducing line, a list of links in the article is navigation.
    bare = body.replace(f"<p>{intro}</p>", "")
    assert "Strings" not in clean_html(page(bare), "https://docs.example.org/types/").text


def test_a_short_post_keeps_its_few_lines() -> None:
    """A post of two short lines scores under the region minimum: its best subtree is
    still its text, not an empty page."""
    archive = "".join(f'<li><a href="/20{i:02d}">Archive {i}</a></li>' for i in range(30))
    html = page(
        '<div id="content"><div class="post"><h2>Pixel heroes</h2>'
        '<div class="storycontent"><p>I love pixels and I love superheroes, made by Sam.</p>'
        f'</div></div></div><div id="menu"><ul>{archive}</ul></div>'
    )
    assert "I love pixels and I love superheroes" in clean_html(html).text


def test_a_page_whose_only_text_is_the_sites_slogan_has_no_main_content() -> None:
    """A sitemap of bare links: the short-page reading found the header's slogan, which
    opens with the site's name (the logo's alt text), and that is no content; a short
    post's own line stays."""
    header = (
        '<div class="hd"><a class="logo" href="/"><img src="/logo.png" alt="Gadget Front"></a>'
        '<span class="slogan">Gadget Front · the next step in tech</span></div>'
    )
    links = link_items("Channel", 6, "/c/")
    sitemap = clean_html(page(f"{header}<ul>{links}</ul>"), "https://gadgets.example/sitemap/")
    assert sitemap.text == "" and sitemap.page_type == "other"
    post = clean_html(
        page(f"{header}<ul>{links}</ul><p>No stories in this section yet.</p>"),
        "https://gadgets.example/section/",
    )
    assert "No stories in this section yet." in post.text
