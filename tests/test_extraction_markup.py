"""Main-content extraction by what the markup says: class and id hints, roles, dialogs and
notices, hidden, ``<noscript>`` and streamed content, bylines and the publication date."""

from __future__ import annotations

from scrapy_webclean import clean_html
from tests.pages import PROSE, RULES_AND_DEFAULT, RULES_ONLY, page


def test_comments_and_share_bars_are_left_out_by_their_names() -> None:
    html = page(
        f'<article class="post"><h1>Headline here</h1><p>{PROSE}</p><p>{PROSE}</p>'
        '<div class="share-buttons"><a href="/s">Share this story on your network</a></div>'
        f'<div id="comments"><p>{PROSE} A reader said so.</p></div></article>'
    )
    result = clean_html(html)
    assert result.text == f"{PROSE}\n{PROSE}"
    assert result.title == "Headline here"


def test_layout_word_on_a_wrapper_does_not_hide_the_article() -> None:
    html = page(
        f'<div class="container penci_sidebar"><article><p>{PROSE}</p><p>{PROSE}</p></article>'
        "<aside><p>About us: a small team.</p></aside></div>"
    )
    assert clean_html(html).text == f"{PROSE}\n{PROSE}"


def test_the_writers_biography_box_is_left_out_but_a_biography_page_is_read() -> None:
    bio = "Ann Lee has covered science for twenty years and lives in Lisbon with two cats."
    html = page(
        f'<article class="post"><h1>Headline here</h1><p>{PROSE}</p><p>{PROSE}</p>'
        f'<div class="author-bio"><p>{bio}</p></div></article>'
    )
    assert clean_html(html).text == f"{PROSE}\n{PROSE}"
    # A page that is the biography (the box holds most of its prose) keeps it.
    profile = page(f'<div class="author-bio"><h1>Ann Lee</h1><p>{PROSE}</p><p>{bio}</p></div>')
    assert clean_html(profile).text == f"{PROSE}\n{bio}"


def test_byline_is_metadata_not_text() -> None:
    html = page(
        f'<div class="story"><h1>Headline</h1><div>By Ann Lee | 2026-03-14</div><p>{PROSE}</p></div>'
    )
    assert clean_html(html).text == PROSE


def test_what_the_markup_names_as_never_the_text_is_left_out() -> None:
    # A mega menu of described products in the page's banner (a <header> outside every
    # sectioning element), placed after the article in the markup: its items read as a
    # listing's, and outweigh the article's sections, each in a container of its own.
    items = "".join(
        f'<div class="item"><a href="/products/{i}">Managed database service number {i}</a>'
        f"<span>Run your apps wherever you need them, number {i}.</span></div>"
        for i in range(60)
    )
    sections = "".join(
        f'<div class="module"><h2>Part {i}</h2><div><p>{PROSE} Part {i}.</p></div></div>'
        for i in range(4)
    )
    article = f'<div class="page"><h1>What is cloud computing?</h1>{sections}</div>'
    banner = f'<header class="top"><div class="menu-panel">{items}</div></header>'
    for options in RULES_AND_DEFAULT:
        result = clean_html(page(article + banner), options=options)
        assert result.page_type == "article", options
        assert "Part 3." in result.text and "number 7" not in result.text
    # A <header> inside the article heads it: its standfirst stays.
    headed = page(
        f"<article><header><p>{PROSE} Standfirst.</p></header><p>{PROSE}</p>"
        f"<p>{PROSE}</p></article>"
    )
    assert "Standfirst." in clean_html(headed, options=RULES_ONLY).text
    # A hero banner that holds the page's <h1> introduces the page: it is spared.
    hero = page(
        f"<header><h1>Fundamentals of electrical work</h1><p>{PROSE} Course intro.</p>"
        f"</header><main><p>{PROSE}</p><p>{PROSE}</p></main>"
    )
    assert "Course intro." in clean_html(hero, options=RULES_ONLY).text
    # ARIA's roles say the same of a <div>: the banner, the footer, a side part, a select
    # widget's options; and so does Google's data-nosnippet, and a <marquee> ticker.
    marks = [f'div role="{role}"' for role in ("banner", "contentinfo", "complementary")]
    marks += ['div role="listbox"', 'div role="option"', "div data-nosnippet", "marquee"]
    for mark in marks:
        marked = page(
            f"<div><p>{PROSE}</p><p>{PROSE}</p><p>{PROSE}</p></div>"
            f"<{mark}><p>{PROSE} Marked text.</p></{mark.split()[0]}>"
        )
        assert "Marked text." not in clean_html(marked, options=RULES_ONLY).text, mark


def test_a_dialog_is_a_popup_never_the_text() -> None:
    popup = page(
        f"<main><p>{PROSE}</p><p>{PROSE}</p></main>"
        f"<dialog><p>{PROSE} Join our list for weekly tips.</p></dialog>"
    )
    assert "weekly tips" not in clean_html(popup, options=RULES_ONLY).text


def test_reaction_bars_and_feedback_widgets_are_left_out_by_their_names() -> None:
    for name in ("post-reactions", "page-feedback"):
        html = page(
            f"<article><p>{PROSE}</p><p>{PROSE}</p>"
            f'<div class="{name}"><p>{PROSE} Was this page helpful to you?</p></div></article>'
        )
        assert "helpful" not in clean_html(html, options=RULES_ONLY).text, name


def test_a_posts_own_categories_do_not_name_its_wrapper() -> None:
    """WordPress writes a post's categories and tags as classes of its wrapper:
    ``category-cookbook-promo-trailer-videos`` says what the post is about, not that the
    container is a promotion."""
    post = page(
        '<div class="sidebar-left"><a href="/">Home</a></div>'
        '<div class="post-7 post hentry category-cookbook-promo-trailer-videos tag-share">'
        f"<h1>On turning 40</h1><p>{PROSE} Birthday.</p><p>{PROSE}</p></div>"
        '<div id="comments">'
        + "".join(f'<div class="comment"><p>{PROSE} Wishes {i}.</p></div>' for i in range(3))
        + "</div>"
    )
    text = clean_html(post, "https://example.com/2012/10/turning-40/", options=RULES_ONLY).text
    assert "Birthday." in text and "Wishes 1." not in text
    # TypePad's way: entry-category-social_media, entry-author-jane.
    typepad = post.replace(
        "post-7 post hentry category-cookbook-promo-trailer-videos tag-share",
        "entry-category-social_media entry-author-jane entry-type-post",
    )
    text = clean_html(typepad, "https://example.com/2012/10/turning-40/", options=RULES_ONLY).text
    assert "Birthday." in text and "Wishes 1." not in text


def test_content_shipped_hidden_for_a_script_is_read_when_nothing_else_shows() -> None:
    hidden = page(f'<div id="app"></div><div hidden id="S:0"><p>{PROSE}</p><p>{PROSE}</p></div>')
    assert clean_html(hidden).text == f"{PROSE}\n{PROSE}"
    shown = page(f"<p>{PROSE}</p><p>{PROSE}</p><div hidden><p>Secret {PROSE}</p></div>")
    assert "Secret" not in clean_html(shown).text


def test_publication_date() -> None:
    from scrapy_webclean.extraction.dates import parse_date

    assert parse_date("Updated 5:27 am CST, Wednesday, November 20, 2019") == "2019-11-20"
    assert parse_date("2026年02月10日 08:30 来源：江城晚报") == "2026-02-10"
    assert parse_date("14 March 2026") == "2026-03-14" and parse_date("2026/3/4") == "2026-03-04"
    assert parse_date("2026-13-45 and nothing else") is None
    byline = page(
        f'<div class="story"><h1>Headline</h1><div>By Ann Lee | 2026-03-14</div><p>{PROSE}</p></div>'
    )
    assert clean_html(byline).date == "2026-03-14"
    meta = '<meta property="article:published_time" content="2025-12-01T08:00:00Z">'
    html = f"<html><head>{meta}</head><body><p>{PROSE}</p><p>{PROSE}</p></body></html>"
    assert clean_html(html).date == "2025-12-01"
    # Microdata is read whatever the spelling's case, and before JSON-LD that names the
    # same property; JSON-LD alone is the page's metadata too.
    json_ld = '<script type="application/ld+json">{"datePublished": "2020-01-02"}</script>'
    for spelling in ("datePublished", "DATEPUBLISHED", "dateCreated datePublished"):
        micro = f'<span itemprop="{spelling}" content="2024-05-06"></span>'
        html = f"<html><head>{json_ld}</head><body>{micro}<p>{PROSE}</p></body></html>"
        assert clean_html(html).date == "2024-05-06", spelling
    html = f"<html><head>{json_ld}</head><body><p>{PROSE}</p></body></html>"
    assert clean_html(html).date == "2020-01-02"


def test_text_rendered_twice_for_noscript_is_kept_once() -> None:
    body = f"<p>{PROSE}</p><p>{PROSE} Second.</p>"
    html = page(f'<div class="app">{body}</div><noscript><div>{body}</div></noscript>')
    text = clean_html(html).text
    assert text.count("Second.") == 1


def test_react_streamed_segments_are_read_where_they_are_shown() -> None:
    html = page(
        '<nav><a href="/a">Pricing</a> <a href="/b">Docs</a></nav>'
        '<main><h1>Headline here</h1><template id="B:0"></template><p>Loading...</p>'
        '<div id="tail-note">Footnote after the boundary.</div></main>'
        f'<div hidden id="S:0"><article><p>{PROSE} First.</p>'
        f'<template id="P:1"></template></article></div>'
        f'<div hidden id="S:1"><p>{PROSE} Second.</p></div>'
        '<div hidden id="S:9"><p>A segment React never shows has no placeholder.</p></div>'
        "<script>$RC('B:0','S:0');$RS('S:1','P:1')</script>"
    )
    text = clean_html(html).text
    assert text.index("First.") < text.index("Second.")
    assert "never shows" not in text and "Pricing" not in text


def test_class_hints_read_roles_not_layout_or_state_words() -> None:
    from scrapy_webclean.extraction.hintwords import (
        NEUTRAL,
        POSITIVE,
        STRONG_NEGATIVE,
        WEAK_NEGATIVE,
        classify_words,
    )

    # (a container's words, its tag, the hint they give)
    cases = [
        ("sidebar widget-area", "div", STRONG_NEGATIVE),
        ("news-ticker", "div", STRONG_NEGATIVE),
        ("breaking-news", "div", STRONG_NEGATIVE),
        # Layout and state words are not roles.
        ("summary-item summary-item--side-by-side-align-center", "div", NEUTRAL),
        ("grid-items hide-read-more-ad", "div", NEUTRAL),
        ("post-content has-sidebar", "div", POSITIVE),
        # The side an icon sits on is no side column (its "icon" is a weak word); a type
        # scale's size is no caption.
        ("kt-accordion-wrap kt-accodion-icon-side-right", "div", WEAK_NEGATIVE),
        ("sidebar-right", "div", STRONG_NEGATIVE),
        ("caption-s", "p", NEUTRAL),
        ("caption-m text-gray", "div", POSITIVE),
        ("wp-caption-text", "p", STRONG_NEGATIVE),
        ("image-caption", "div", STRONG_NEGATIVE),
        ("caption-slide", "div", STRONG_NEGATIVE),
        # An embedded post quoted by the article is part of it; a share bar is not.
        ("social-media-embed", "div", NEUTRAL),
        ("social-share", "div", STRONG_NEGATIVE),
        # A forum post's signature (the poster's card on a Q&A site), a popover, footnotes
        # and an overlay (role="dialog") are not the text.
        ("post-signature owner", "div", STRONG_NEGATIVE),
        ("signaturecontainer", "div", STRONG_NEGATIVE),
        ("a-popover-content", "div", STRONG_NEGATIVE),
        ("footnotes", "section", STRONG_NEGATIVE),
        ("dialog", "div", STRONG_NEGATIVE),
        # The writer's biography box under an article, a box of the site's latest posts.
        ("author-bio", "div", STRONG_NEGATIVE),
        ("cs-entry__author-desc", "div", STRONG_NEGATIVE),
        ("about_the_author", "div", STRONG_NEGATIVE),
        ("bio", "div", STRONG_NEGATIVE),
        ("latest-posts", "div", STRONG_NEGATIVE),
        ("biotech-news", "div", POSITIVE),
    ]
    assert [classify_words(words, tag) for words, tag, _ in cases] == [hint for _, _, hint in cases]


def test_a_notice_by_its_aria_role_or_a_byline_by_its_microdata_is_not_text() -> None:
    """(But a callout whose class is named "alert" is.)"""
    notice = "Your item was added to the cart and will be kept for thirty minutes from now."
    callout = "Note that the setting is read once, when the crawl starts, and never again."
    body = "".join(f"<p>{PROSE} Step {i}.</p>" for i in range(5))
    html = page(
        f'<article class="post"><h1>Settings</h1>{body}'
        f'<div class="alert alert-info"><p>{callout}</p></div>'
        f'<div role="status" class="toast"><p>{notice}</p></div></article>'
    )
    text = clean_html(html, "https://example.com/docs/settings", options=RULES_ONLY).text
    assert "Step 4." in text and callout in text
    assert notice not in text
    # The byline that microdata names as the author is not the text either.
    byline = '<div itemprop="author" class="by">Written by Jane Doe, senior editor at Example</div>'
    text = clean_html(
        page(f'<article class="post"><h1>Settings</h1>{byline}{body}</article>'),
        "https://example.com/docs/settings",
        options=RULES_ONLY,
    ).text
    assert "Step 4." in text and "Jane Doe" not in text


def test_a_container_named_for_navigation_that_holds_prose_is_read_for_its_other_words() -> None:
    from scrapy_webclean.extraction.hintwords import POSITIVE, STRONG_NEGATIVE, classify_parts

    # Navigation is links: "content-nav-section" holding paragraphs is a section of the
    # text (an in-page menu points to it), and its "content" is read.
    assert classify_parts("content-nav-section", "div")[0] == STRONG_NEGATIVE
    assert classify_parts("content-nav-section", "div", prose=True)[0] == POSITIVE
    # Another strong word in the same token or another token still counts.
    assert classify_parts("nav-sidebar", "div", prose=True)[0] == STRONG_NEGATIVE
    assert classify_parts("menu related-posts", "div", prose=True)[0] == STRONG_NEGATIVE
    section = "".join(f"<h2>Part {i}</h2><p>{PROSE} Part {i} ends.</p>" for i in range(4))
    teasers = "".join(f'<li><a href="/a{i}">Another story number {i}</a></li>' for i in range(6))
    # (the page's other prose, in its footer, makes the section less than half of it: its
    # name is read)
    about = "".join(f"<p>{PROSE} About us {i}.</p>" for i in range(5))
    html = page(
        '<main><h1>How to budget</h1><div class="toc"><a href="#p1">Part 1</a></div>'
        f'<div class="content-nav-section">{section}</div>'
        f'<div class="menu-nav"><ul>{teasers}</ul></div></main><footer>{about}</footer>'
    )
    text = clean_html(html, "https://bank.example.com/learn/how-to-budget").text
    assert "Part 3 ends." in text and "Another story number" not in text
    assert "About us" not in text


def test_hidden_tab_panels_are_read_and_other_hidden_parts_are_not() -> None:
    details = (
        "The service covers the whole house: every room is inspected, treated and checked "
        "again after two weeks, and a written report follows."
    )
    body = (
        f"<main><h1>Pest control</h1><p>{PROSE}</p>"
        '<div role="tablist"><button>Overview</button><button>Details</button></div>'
        f'<div class="tab-pane" style="display: none"><p>{details}</p></div>'
        f'<div id="panel-2" role="tabpanel" hidden><p>{details} Twice.</p></div>'
        '<button aria-expanded="false">More</button>'
        f'<div id="react-collapsed-panel-3" style="display:none"><p>{details} Thrice.</p></div>'
        f'<div class="modal" hidden><p>{PROSE} A hidden dialog.</p></div></main>'
    )
    text = clean_html(page(body)).text
    assert details in text and f"{details} Twice." in text and f"{details} Thrice." in text
    assert "hidden dialog" not in text
