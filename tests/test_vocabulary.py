"""The boilerplate vocabulary: lines that are never the text (consent and rights notices,
picture credits, control labels, related-section headings, browser and status notices),
and sentences that only name a noise word, which are."""

from __future__ import annotations

from scrapy_webclean import clean_html
from tests.pages import PROSE, RULES_AND_DEFAULT, RULES_ONLY, page


def test_a_consent_dialog_is_never_the_text_however_much_prose_it_holds() -> None:
    purposes = "".join(
        f"<p>We and our partners process data to store and access information on a device, "
        f"to select advertising and to measure content, purpose {i} of the framework.</p>"
        for i in range(12)
    )
    cards = "".join(
        f'<li class="card"><a href="/recipe/{i}">Slow-cooked tomato sauce number {i}</a></li>'
        for i in range(12)
    )
    html = page(
        f'<div id="onetrust-consent-sdk"><div class="banner">{purposes}</div></div>'
        f'<main><h1>Tomato sauces</h1><ul class="cards">{cards}</ul></main>'
    )
    for options in RULES_AND_DEFAULT:
        text = clean_html(html, options=options).text
        assert "purpose 3" not in text and "tomato sauce number 3" in text, options
    # A post tagged "cookies" (its wrapper's class says tag-cookies) is still the text.
    post = page(
        '<div class="post-1 post hentry tag-cookies category-recipes">'
        f"<h1>Dog biscuits</h1><p>{PROSE}</p><p>{PROSE}</p></div>"
    )
    assert PROSE in clean_html(post, options=RULES_ONLY).text


def test_section_opened_by_a_related_heading_is_dropped() -> None:
    teasers = "".join(f'<div class="post"><p>{PROSE} Teaser {i}.</p></div>' for i in range(3))
    html = page(
        f'<div id="primary"><article><h2>Main story</h2><p>{PROSE}</p><p>{PROSE}</p></article>'
        f"<section>Você pode gostar...{teasers}</section></div>"
    )
    text = clean_html(html).text
    assert "Teaser" not in text and text.count(PROSE) == 2


def test_cookie_banners_and_footers_are_never_the_content() -> None:
    consent = (
        "We and our 228 partners use cookies and similar methods to recognise visitors, "
        "measure audiences and show ads; you can accept or change your preferences."
    )
    html = page(
        f'<div class="banner"><p>{consent}</p></div><ul class="grid">'
        + "".join(
            f'<li><a href="/s/{i}">Story number {i} about the harbour city</a></li>'
            for i in range(8)
        )
        + f"</ul><footer><p>{PROSE}</p></footer>"
    )
    result = clean_html(html)
    assert "cookies" not in result.text and PROSE not in result.text


def test_a_long_rights_notice_never_outscores_the_article() -> None:
    # A footer's paragraph of trademarks ending "All Rights Reserved" is longer than each
    # of the article's paragraphs; its container's class says nothing (a sports site's).
    notice = (
        "Harbour.com is the official web site of the Harbour League. Harbour, the Harbour "
        "Shield, the word mark and image of the Harbour Cup, the Centre Quay name and logo "
        "and the Harbour Conference logos are registered trademarks and the names and logos "
        "of the league's clubs are the property of the clubs and may not be reproduced "
        "without the prior written consent of the league. "
        * 3
        + "© Harbour League 2012. All Rights Reserved."
    )
    article = "".join(
        f"<p>Paragraph {i}: the harbour works went on through the winter months, and the "
        "council expects the north pier to reopen in the spring after the storms.</p>"
        for i in range(5)
    )
    html = page(f'<div class="story">{article}</div><div class="c_legal"><p>{notice}</p></div>')
    result = clean_html(html)
    assert result.text.startswith("Paragraph 0:") and "Rights Reserved" not in result.text
    notice_de = notice.replace("All Rights Reserved", "Alle Rechte vorbehalten")
    html_de = page(f'<div class="story">{article}</div><div><p>{notice_de}</p></div>')
    assert "vorbehalten" not in clean_html(html_de).text


def test_picture_credits_and_bare_addresses_are_not_text() -> None:
    html = page(
        f"<article><h1>Headline here</h1><p>{PROSE}</p>"
        '<div class="photo">Protesters gathered outside the court (Image: GETTY )</div>'
        f"<p>{PROSE} Again.</p><div>Jane Doe | Bloomberg | Getty Images</div>"
        f"<p>{PROSE} Once more.</p><p>The Reuters report said the deal was done.</p>"
        '<div class="print-header">https://example.com/news/article/the-story-123.php</div>'
        "</article>"
    )
    text = clean_html(html).text
    assert "GETTY" not in text and "Getty Images" not in text and "https://" not in text
    assert "Once more." in text and "The Reuters report said" in text


RELATED_HEADINGS = (
    *("You may also like", "Related articles", "Read also", "See more", "More from CNN"),
    *("Recommended for you", "Also read", "Você também pode gostar", "Leia também"),
    *("Te puede interesar", "Artículos relacionados", "Noticias relacionadas"),
    *("Vous aimerez aussi", "À lire aussi", "Lire aussi", "Das könnte Sie auch interessieren"),
    *("Weitere Artikel", "Ti potrebbe interessare", "相关阅读", "推荐阅读", "猜你喜欢"),
    *("延伸阅读", "热门推荐", "更多新闻", "Most popular", "Popular posts", "Читайте также"),
    *("Смотрите также", "Похожие статьи", "Самые популярные", "Популярное", "Рекомендуем"),
    *("Customers who viewed this item also viewed", "People also bought"),
    *("Shoppers also searched", "Similar items", "Frequently bought together"),
    *("Often bought together", "Recently viewed items", "You might also love"),
    *("Customers may also want", "Related products", "More items like this"),
    *("Complete the look", "Shop the look", "Sponsored products related to this item"),
    # a "related" or "similar" heading of any noun, other posts, a section named for a site
    *("Related services", "Related questions", "Related reads", "Similar seminars"),
    *("Recommended reading", "Other posts you may enjoy", "More related articles"),
    *("Explore related items", "Popular on IndieWire", "You may also check"),
    # an author's bio, which the text does not hold either
    *("About the author", "About the authors"),
    # the next story to read
    *("Read next",),
)


def test_related_heading_quick_test_lets_every_kind_through() -> None:
    # The quick first-word test must let through a heading of every alternative of the
    # pattern, in any case.
    from scrapy_webclean.extraction.extract import (
        RELATED_HEADING_RE,
        is_related_heading,
        is_ui_line,
    )

    for heading in RELATED_HEADINGS:
        for variant in (heading, heading.upper(), heading.lower()):
            assert RELATED_HEADING_RE.match(variant), variant
            assert is_related_heading(variant), variant
            assert is_ui_line(variant), variant
    assert not is_related_heading("Relatedness of species") and not is_ui_line("Seen")
    for line in (
        "The F1 logo and related marks are trademarks",
        "Similar to the first study, the second",
        "Explore the network",
        "Other posts were deleted by the moderators.",
        "About the author of this book, little is known.",
    ):
        assert not is_related_heading(line), line


def test_control_labels_are_not_text() -> None:
    from scrapy_webclean.extraction.extract import is_ui_line

    for label in (
        "Comments",
        "View Comments",
        "12 comments",
        "Back to Gallery",
        "Topics",
        "You may also like...",
        "评论",
        "Комментарии",
        "LOAD 34 COMMENTS",
        "Kommentare",
        "Comentários",
        "Добавить комментарий",
        "查看评论",
        "Trending now",
        "This slideshow requires JavaScript.",
        "Close the photos",
        "Open media 3 in modal",
        "Load image 2 in gallery view",
        "Slide 2 of 5",
        "Image 1 of 12",
        "Add to Cart",
        "Add to Wishlist",
        "Loading...",
        "Show more",
        "Table of Contents",
        "5 min read",
        "12 minutes read",
        "View all",
        "Load more",
        "Expand all",
        "Collapse all",
        "On this page",
        "Previous Next",
        "Start your free trial",
        "No posts yet",
        "Email address",
        "Joined",
        "Copy code",
        "Copied!",
        "Show caption",
        "See more reviews",
        "12 likes",
        "1 Like",
        "Written by",
        "Edited by",
        "Show more  Show less",
        "See less See more",
        "Previous slide",
        "Play video",
        "Read full review",
        "Get started for free",
        "Posted on",
        "Read the article",
        "Read case study",
        "See all features",
    ):
        assert is_ui_line(label), label
    for line in (
        "Comments from readers shaped the final plan.",
        "The table of contents lists every chapter.",
        "Read 5 minutes a day.",
        "Topics of the day were grim.",
        "Video 1",
        "Image 1: the river at dawn",
        "Add to cart and check out in one step, as the shop promises.",
        "View all the results of the survey",
        "On this page you will find the schedule.",
        "Joined the army in 1990.",
        "Copy the file to the folder.",
        "See more reviews of the film below.",
        "I like it.",
        "12 likes and a dislike decided the vote.",
        "Written by hand, the letter arrived late.",
        "Play video games for an hour.",
        "Posted on the door, the notice was ignored.",
        "Read the article twice before you answer.",
    ):
        assert not is_ui_line(line), line
    html = page(
        f"<article><h1>Headline here</h1><p>{PROSE}</p><p>{PROSE} Again.</p>"
        "<div class='gallery-nav'>Back to Gallery</div><div>View Comments</div></article>"
    )
    text = clean_html(html).text
    assert "Gallery" not in text and "View Comments" not in text and "Again." in text


def test_noise_words_in_sentences_and_code_are_text() -> None:
    sentence = (
        "Each request carries the session cookies, so the server knows which user is logged "
        "in before it answers."
    )
    code = "session['login'] = user.name"
    body = (
        f"<article><p>{PROSE}</p><p>{sentence}</p><pre><code>{code}</code></pre><p>{PROSE}</p>"
        "<p>Share</p><p>Copyright 2026 Example Media, all rights reserved to its authors.</p>"
        "</article>"
    )
    text = clean_html(page(body)).text
    assert sentence in text and code in text
    # A noise word alone, or a hard one (copyright) in a sentence, is still boilerplate.
    assert "Share" not in text.split("\n") and "Copyright" not in text


def _assert_notices_left_out(body: str, notices: list[str], about: str) -> None:
    """The page's text keeps the prose and the sentence ``about`` the notices' words, and
    none of the ``notices``."""
    text = clean_html(page(body)).text
    assert about in text and PROSE in text
    for notice in notices:
        assert notice not in text, notice


def test_a_browser_notice_is_not_text_but_a_sentence_about_browsers_is() -> None:
    notices = [
        "Your browser does not support the video tag.",
        "Please enable JavaScript to watch this video.",
        "JavaScript is disabled. For a better experience, please enable JavaScript in your "
        "browser before proceeding.",
        "Media requires JavaScript and Adobe Flash to play.",
    ]
    about = "Open the JavaScript console in your browser's developer tools and paste the code."
    body = (
        f"<article><p>{PROSE}</p><video><p>{notices[0]}</p></video><p>{notices[1]}</p>"
        f"<p>{about}</p><p>{PROSE}</p><p>{notices[2]}</p><p>{notices[3]}</p></article>"
    )
    _assert_notices_left_out(body, notices, about)


def test_a_status_notice_of_a_form_or_a_thread_is_not_text() -> None:
    notices = [
        "Thank you! Your submission has been received!",
        "Oops! Something went wrong while submitting the form.",
        "This comment has been removed by the author.",
    ]
    about = "Thank you for your submission, said the clerk, and something went wrong after."
    body = (
        f"<article><p>{PROSE}</p><form><p>{notices[0]}</p><p>{notices[1]}</p></form>"
        f"<p>{about}</p><p>{PROSE} Again.</p><div class='note'>{notices[2]}</div></article>"
    )
    _assert_notices_left_out(body, notices, about)


def test_a_line_that_shows_nothing_is_not_output() -> None:
    # A paragraph of a lone zero-width joiner (an emoji picker's or an editor's leftover)
    # takes no room on screen: neither the text nor the Markdown holds it.
    body = f"<article><p>{PROSE}</p><p>\u200d</p><p>\u200b\u00ad</p><p>{PROSE} Again.</p></article>"
    result = clean_html(page(body))
    assert result.text.split("\n") == [PROSE, f"{PROSE} Again."]
    assert "\u200d" not in result.markdown and "\u200b" not in result.markdown


def test_a_lines_noise_verdict_is_remembered_across_pages_and_per_word_list() -> None:
    from scrapy_webclean.extraction.lines import Line
    from scrapy_webclean.extraction.options import ExtractOptions
    from scrapy_webclean.extraction.verdicts import is_noise_text, noise_flags
    from scrapy_webclean.segmentation.classify import NoiseWords

    def line(text: str) -> Line:
        return Line(0, 1, 1, text, len(text), 0, len(text) / 3.0)

    opts = ExtractOptions()
    footer = [line("Lorem dolor sit"), line("Ipsum dolor sit")]
    lorems, ipsums = NoiseWords(["lorem"]), NoiseWords(["ipsum"])
    is_noise_text.cache_clear()
    assert noise_flags(footer, lorems, opts) == [True, False]
    misses = is_noise_text.cache_info().misses
    # the next page of the site: the same footer under a new paragraph
    page_two = [line("A new paragraph of the next article, a sentence long."), *footer]
    assert noise_flags(page_two, lorems, opts) == [False, True, False]
    info = is_noise_text.cache_info()
    assert (info.misses, info.hits) == (misses + 1, 2)
    # another word list's verdicts are its own, not the first list's remembered ones
    assert noise_flags(footer, ipsums, opts) == [False, True]
