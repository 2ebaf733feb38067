"""Main-content extraction: lines, hints, the main region, and the online template model."""

from __future__ import annotations

from demo_site.site import build_site
from scrapy_webclean import Cleaner, CleanOptions, clean_html
from scrapy_webclean.cleaning import SHORT_LINE_UNITS
from scrapy_webclean.extraction.options import ExtractOptions
from scrapy_webclean.extraction.template import MemoryTemplateStore, TemplateModel, site_of
from scrapy_webclean.html.pagemodel import collapse_ws
from scrapy_webclean.segmentation.classify import text_units

PROSE = (
    "The committee met on Monday to review the proposal, and its members agreed that the "
    "plan needed more work before it could go to a vote."
)


#: The hand rules alone, without the trained line model.
RULES_ONLY = CleanOptions(line_model=None)


def link_items(label: str, count: int, path: str = "/") -> str:
    """``count`` list items, each a link to ``<path><i>`` named ``<label> <i>``."""
    return "".join(f'<li><a href="{path}{i}">{label} {i}</a></li>' for i in range(count))


def page(body: str) -> str:
    return f"<html><head><title>T</title></head><body>{body}</body></html>"


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


def test_byline_is_metadata_not_text() -> None:
    html = page(
        f'<div class="story"><h1>Headline</h1><div>By Ann Lee | 2026-03-14</div><p>{PROSE}</p></div>'
    )
    assert clean_html(html).text == PROSE


def test_template_store_is_bounded() -> None:
    store = MemoryTemplateStore(max_sites=2, max_keys_per_site=10)
    for site in ("a", "b", "c"):
        store.add_page(site, range(5))
    assert len(store) == 2 and store.pages("a") == 0  # least recently used evicted
    store.add_page("c", range(5))
    store.add_page("c", range(100, 120))
    assert store.signature_count("c") <= 10
    assert store.counts("c", [0, 1]) == [2, 2]  # the frequent keys survive pruning


def test_template_model_needs_repeats_on_enough_pages() -> None:
    model = TemplateModel(min_pages=2, min_share=0.3)
    assert model.template_flags("s", [1, 2]) == [False, False]
    model.learn("s", [1, 2])
    # After one page only short lines can be template; a long one needs two pages.
    assert model.template_flags("s", [1, 2], short=[True, False]) == [True, False]
    model.learn("s", [1, 3])
    assert model.template_flags("s", [1, 2, 4]) == [True, False, False]
    assert model.template_flags("s", [1, 2, 4], short=[False, True, True]) == [True, True, False]


def test_template_evidence_also_says_which_lines_were_seen_before() -> None:
    """A long line met on one earlier page is no template yet, but it was seen: the line
    model may not add it (a sidebar box on a site's second page)."""
    model = TemplateModel(min_pages=2, min_share=0.3)
    assert model.template_evidence("s", [1, 2])[:2] == ([False, False], [False, False])
    model.learn("s", [1, 2])
    flags, seen, _ = model.template_evidence("s", [1, 2, 3], short=[False, False, False])
    assert flags == [False, False, False] and seen == [True, True, False]


def test_site_of() -> None:
    assert site_of("https://www.Example.com:8080/a") == "example.com"
    assert site_of("http://127.0.0.2:8800/x") == "127.0.0.2"
    assert site_of(None) is None and site_of("not a url") is None


def test_cleaner_learns_a_sites_template_from_the_second_page_on() -> None:
    site = build_site(8800)
    truth = site.truth
    host = "127.0.0.6"  # the digest: short service pages whose sidebar box looks like prose
    templates = [collapse_ws(s).strip() for s in truth["sites"][host]["template_strings"]]
    pages = sorted((p for p in truth["pages"] if p["host"] == host), key=lambda p: p["url"])
    cleaner = Cleaner()
    for number, info in enumerate(pages):
        resource = site.resources[info["url"]]
        result = cleaner.clean(resource.body, info["url"], content_type=resource.content_type)
        text = collapse_ws(result.text)
        for paragraph in info["paragraphs"] if info["type"] == "article" else []:
            assert collapse_ws(paragraph).strip() in text, (info["url"], paragraph)
        # Short template lines go from the second page on, longer ones from the third.
        short = [t for t in templates if text_units(t) < SHORT_LINE_UNITS]
        assert short
        if number >= 1:
            assert not [t for t in short if t in text], info["url"]
        if number >= 2:
            assert not [t for t in templates if t in text], info["url"]
    assert cleaner.template_model.store.pages(host) == len(pages)


def test_link_density_segmentation_splits_where_density_changes() -> None:
    from scrapy_webclean.html.loader import parse_html
    from scrapy_webclean.html.pagemodel import build_page_model
    from scrapy_webclean.segmentation.linkdensity import (
        link_density_blocks,
        neighbour_similarity,
    )

    assert neighbour_similarity(0.0, 0.0) == 1.0
    assert neighbour_similarity(0.2, 0.8) == 0.25
    html = page(
        '<div id="nav">'
        + "".join(f'<a href="/{i}">Section {i}</a> ' for i in range(5))
        + f'</div><div id="story"><p>{PROSE}</p><p>{PROSE}</p></div>'
    )
    root, _ = parse_html(html)
    model = build_page_model(root)
    blocks = link_density_blocks(model)
    ids = [model.elements[b.node].get("id") for b in blocks]
    assert ids == ["nav", "story"]
    assert blocks[0].density == 1.0 and blocks[1].density == 0.0


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
    for options in (RULES_ONLY, CleanOptions()):
        result = clean_html(html, options=options)
        assert result.page_type != "listing", options
        assert PROSE in result.text and "Category 3" not in result.text


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
    for options in (RULES_ONLY, CleanOptions()):
        text = clean_html(html, options=options).text
        assert "purpose 3" not in text and "tomato sauce number 3" in text, options
    # A post tagged "cookies" (its wrapper's class says tag-cookies) is still the text.
    post = page(
        '<div class="post-1 post hentry tag-cookies category-recipes">'
        f"<h1>Dog biscuits</h1><p>{PROSE}</p><p>{PROSE}</p></div>"
    )
    assert PROSE in clean_html(post, options=RULES_ONLY).text


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
    for options in (RULES_ONLY, CleanOptions()):
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
    for options in (RULES_ONLY, CleanOptions()):
        assert caption in clean_html(slide, url, options=options).text, options
    story = page(
        "<article><h1>Report</h1>"
        + "".join(f"<p>{PROSE} P{i}.</p>" for i in range(4))
        + f'<figure><img src="/b.jpg"><figcaption>{caption}</figcaption></figure></article>'
    )
    text = clean_html(story, "https://news.example.com/2012/report.html").text
    assert "P3." in text and caption not in text


def test_a_comment_thread_longer_than_the_post_is_never_the_text() -> None:
    """A short post under a long thread: the comment section holds most of the page's
    prose, but it is named for comments, so it is left out whatever its share."""
    thread = "".join(
        f'<dt class="comment-author">Reader {i} 07.08.12 at 13:2{i}</dt>'
        f'<dd class="comment"><p>{PROSE} Opinion {i}.</p></dd>'
        for i in range(8)
    )
    html = page(
        f'<div class="post_box hentry"><h1>Wrong and unnecessary</h1><p>{PROSE} Post.</p></div>'
        f'<div id="comments"><dl id="comment_list">{thread}</dl></div>'
    )
    url = "https://example.com/blog/2012/07/07/wrong-and-unnecessary/"
    for options in (RULES_ONLY, CleanOptions()):
        text = clean_html(html, url, options=options).text
        assert "Post." in text and "Opinion 3." not in text, options
    # Words that only contain "comment" or "reply" do not name a comment section: a
    # reader's feature (comment on a selection) or an id made from a heading.
    # Nor does a post's state or taxonomy on its wrapper (Squarespace's "has-comments").
    for words in (
        'class="commentOnSelection"',
        'id="receive-and-reply-to-an-inbound-message"',
        'class="BlogItem hentry has-comments tag-comments"',
    ):
        wrapped = page(
            f"<div {words}><h1>Receiving messages</h1>"
            + "".join(f"<p>{PROSE} Step {i}.</p>" for i in range(6))
            + "</div>"
        )
        result = clean_html(wrapped, url, options=RULES_ONLY)
        # (read as the article it is, not rescued as a discussion thread)
        assert "Step 5." in result.text and result.page_type == "article", words
    # A forum's board named "comments" is the thread itself.
    board = page(
        '<section class="comments DiscussionBoard">'
        + "".join(f'<div class="post"><p>{PROSE} Post {i}.</p></div>' for i in range(6))
        + "</section>"
    )
    assert "Post 5." in clean_html(board, url, options=RULES_ONLY).text


def test_forum_thread_keeps_its_replies_and_who_wrote_them() -> None:
    posts = "".join(
        f'<div class="reply"><div class="author">user{i} · 2026-03-0{i + 1}</div>'
        f"<p>{PROSE} Reply {i}.</p>"
        f'<div class="signature">My rig: a 2009 camera body and two old prime lenses, {i}.'
        "</div></div>"
        for i in range(4)
    )
    html = page(f'<div class="thread"><h1>Which lens?</h1>{posts}</div>')
    forum = clean_html(html, "https://example.com/t/which-lens/123")
    assert forum.page_type == "forum"
    assert "Reply 3." in forum.text and "user0 · 2026-03-01" in forum.text
    # (each poster's signature is not the thread's text)
    assert "My rig" not in forum.text
    # Below an article, replies are comments: dropped.
    story = f'<article class="story"><h1>Which lens?</h1><p>{PROSE} Body.</p></article>'
    article = clean_html(page(story + posts), "https://example.com/news/which-lens.html")
    assert article.page_type == "article" and "Body." in article.text
    assert "Reply 3." not in article.text


def test_comments_under_a_question_or_an_answer_are_asides_not_posts() -> None:
    """On a Q&A thread (Stack Exchange's markup) the question and the answers are the
    content and the comments inside them are dropped; on a thread whose posts are named
    "comment", outside any question or answer, the posts stay."""

    def comments(post: str) -> str:
        return (
            '<div class="comments js-comments-container"><ul class="comments-list">'
            + "".join(
                f'<li class="comment"><span class="comment-copy">Thanks, that helped with '
                f"the {post} a lot, I will try it tomorrow at work. Aside {post}{i}.</span>"
                f'<a class="comment-user">user{i}</a></li>'
                for i in range(3)
            )
            + "</ul></div>"
        )

    answers = "".join(
        f'<div class="answer js-answer"><div class="s-prose js-post-body"><p>{PROSE} '
        f"Answer {i}.</p></div>{comments(f'answer{i}')}</div>"
        for i in range(3)
    )
    question = (
        '<div class="question js-question"><h1>How do I focus the file pane?</h1>'
        f'<div class="s-prose js-post-body"><p>{PROSE} Question.</p></div>'
        f"{comments('question')}</div>"
    )
    url = "https://example.com/questions/442960/how-do-i-focus-the-file-pane"
    result = clean_html(page(f'<div id="mainbar">{question}{answers}</div>'), url)
    assert result.page_type == "forum"
    assert "Question." in result.text and "Answer 2." in result.text
    assert "Aside" not in result.text
    # A thread whose posts are its "comments" keeps them.
    posts = "".join(
        f'<div class="comment"><div class="comment-body"><p>{PROSE} Post {i}.</p></div></div>'
        for i in range(4)
    )
    thread = clean_html(page(f'<div class="comments">{posts}</div>'), url)
    assert "Post 0." in thread.text and "Post 3." in thread.text


def test_a_page_that_is_only_a_discussion_is_read_as_a_thread() -> None:
    """An address that does not say "thread", and nothing but replies on the page: the
    replies are the content (read as a forum), not an empty page."""
    posts = "".join(
        f'<div class="comment"><div class="byline">user{i} 1 year ago</div>'
        f"<p>{PROSE} Reply {i}.</p></div>"
        for i in range(4)
    )
    result = clean_html(page(f'<ol class="comments">{posts}</ol>'), "https://example.com/s/abc")
    assert result.page_type == "forum"
    assert "Reply 0." in result.text and "Reply 3." in result.text


def test_a_dated_posts_comments_are_not_read_as_its_text() -> None:
    """A dated permalink (a blog's video post: nothing but its title above the comments):
    the comments are the post's, not a discussion thread's posts; no text is better."""
    posts = "".join(
        f'<div class="comment"><div class="byline">user{i} 1 year ago</div>'
        f"<p>{PROSE} Reply {i}.</p></div>"
        for i in range(4)
    )
    html = page(f'<ol class="comments">{posts}</ol>')
    dated = clean_html(html, "https://example.com/2012/11/next-up-pumpkin-pie.html")
    assert "Reply" not in dated.text and dated.page_type != "forum"
    from scrapy_webclean.extraction.pagekind import looks_like_dated_post

    assert looks_like_dated_post("http://example.com/2012/06/29/conversation/")
    assert not looks_like_dated_post("https://example.com/s/abc/2012")
    assert not looks_like_dated_post("https://example.com/2012/13/x")


def test_content_shipped_hidden_for_a_script_is_read_when_nothing_else_shows() -> None:
    hidden = page(f'<div id="app"></div><div hidden id="S:0"><p>{PROSE}</p><p>{PROSE}</p></div>')
    assert clean_html(hidden).text == f"{PROSE}\n{PROSE}"
    shown = page(f"<p>{PROSE}</p><p>{PROSE}</p><div hidden><p>Secret {PROSE}</p></div>")
    assert "Secret" not in clean_html(shown).text


def test_section_opened_by_a_related_heading_is_dropped() -> None:
    teasers = "".join(f'<div class="post"><p>{PROSE} Teaser {i}.</p></div>' for i in range(3))
    html = page(
        f'<div id="primary"><article><h2>Main story</h2><p>{PROSE}</p><p>{PROSE}</p></article>'
        f"<section>Você pode gostar...{teasers}</section></div>"
    )
    text = clean_html(html).text
    assert "Teaser" not in text and text.count(PROSE) == 2


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


def test_class_hints_read_roles_not_layout_or_state_words() -> None:
    from scrapy_webclean.extraction.hints import (
        NEUTRAL,
        POSITIVE,
        STRONG_NEGATIVE,
        _classify,
    )

    assert _classify("sidebar widget-area", "div") == STRONG_NEGATIVE
    assert _classify("news-ticker", "div") == STRONG_NEGATIVE
    assert _classify("breaking-news", "div") == STRONG_NEGATIVE
    # Layout and state words are not roles.
    assert _classify("summary-item summary-item--side-by-side-align-center", "div") == NEUTRAL
    assert _classify("grid-items hide-read-more-ad", "div") == NEUTRAL
    assert _classify("post-content has-sidebar", "div") == POSITIVE
    # The side an icon sits on is no side column; a type scale's size is no caption.
    assert _classify("kt-accordion-wrap kt-accodion-icon-side-right", "div") != STRONG_NEGATIVE
    assert _classify("sidebar-right", "div") == STRONG_NEGATIVE
    assert _classify("caption-s", "p") == NEUTRAL
    assert _classify("caption-m text-gray", "div") != STRONG_NEGATIVE
    assert _classify("wp-caption-text", "p") == STRONG_NEGATIVE
    assert _classify("image-caption", "div") == STRONG_NEGATIVE
    assert _classify("caption-slide", "div") == STRONG_NEGATIVE
    # An embedded post quoted by the article is part of it; a share bar is not.
    assert _classify("social-media-embed", "div") == NEUTRAL
    assert _classify("social-share", "div") == STRONG_NEGATIVE
    # A forum post's signature (the poster's card on a Q&A site) and a popover are not
    # the text.
    assert _classify("post-signature owner", "div") == STRONG_NEGATIVE
    assert _classify("signaturecontainer", "div") == STRONG_NEGATIVE
    assert _classify("a-popover-content", "div") == STRONG_NEGATIVE
    assert _classify("footnotes", "section") == STRONG_NEGATIVE
    assert _classify("dialog", "div") == STRONG_NEGATIVE  # (role="dialog": an overlay)


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
    from scrapy_webclean.extraction.hints import POSITIVE, STRONG_NEGATIVE, _classify_parts

    # Navigation is links: "content-nav-section" holding paragraphs is a section of the
    # text (an in-page menu points to it), and its "content" is read.
    assert _classify_parts("content-nav-section", "div")[0] == STRONG_NEGATIVE
    assert _classify_parts("content-nav-section", "div", prose=True)[0] == POSITIVE
    # Another strong word in the same token or another token still counts.
    assert _classify_parts("nav-sidebar", "div", prose=True)[0] == STRONG_NEGATIVE
    assert _classify_parts("menu related-posts", "div", prose=True)[0] == STRONG_NEGATIVE
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
    ):
        assert not is_ui_line(line), line
    html = page(
        f"<article><h1>Headline here</h1><p>{PROSE}</p><p>{PROSE} Again.</p>"
        "<div class='gallery-nav'>Back to Gallery</div><div>View Comments</div></article>"
    )
    text = clean_html(html).text
    assert "Gallery" not in text and "View Comments" not in text and "Again." in text


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
    rules = CleanOptions(line_model=None)
    text = clean_html(page(body), "https://docs.example.org/types/", options=rules).text
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


def test_a_long_comment_thread_does_not_take_the_region_from_the_article() -> None:
    """Hundreds of comments whose author lines score outweigh a short article in the same
    container; their own text is dropped as comments, so the article is the region."""
    comments = "".join(
        f'<dt id="comment-{i}">Reader{i} July {1 + i % 28}, 2012 at 8:{10 + i % 50} pm</dt>'
        f'<dd><div class="comment-body"><p>Thanks, lovely words number {i}!</p></div></dd>'
        for i in range(300)
    )
    html = page(
        f'<div id="content"><div id="post-1"><h1>Vacations</h1><div class="format_text">'
        f"<p>{PROSE} Away.</p><p>{PROSE} Back in August.</p></div></div>"
        f'<div id="comments"><dl id="comment_list">{comments}</dl></div></div>'
    )
    result = clean_html(html, "https://blog.example.com/2012/07/17/vacations/")
    assert result.page_type == "article"
    assert "Back in August." in result.text
    assert "lovely words" not in result.text


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
