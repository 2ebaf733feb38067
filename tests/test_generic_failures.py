"""Failure classes seen on held-out pages (issue 20, section 3), each fixed by a general rule:
markup left as text in ``<noscript>``, ruby annotations, a site-name ``<h1>`` as the title,
a body date over the page's metadata, share buttons' labels as text, a wrapper of the whole
page judged by its name, an inline icon's ``<title>`` as the page's, the site's part of a
title taken over the ``<h1>`` that repeats another part, a heading's button label and
permalink mark read as its text."""

from __future__ import annotations

import pytest

from scrapy_webclean import clean_html
from scrapy_webclean.extraction.dates import metadata_date
from scrapy_webclean.extraction.extract import is_ui_line
from scrapy_webclean.extraction.vocabulary import (
    is_call_to_action,
    is_related_heading,
    is_related_link_line,
    is_taxonomy_line,
)
from scrapy_webclean.html.loader import parse_html
from scrapy_webclean.html.pagewalk import build_page_model

PROSE = (
    "The committee met on Monday to review the proposal, and its members agreed that the "
    "plan needed more work before it could go to a vote."
)
ARTICLE = "".join(f"<p>{PROSE} Part {i}.</p>" for i in range(4))

#: What a parser that reads ``<noscript>`` as raw text leaves in it: the tags as text
#: (written here as entities, which parse to the same text node).
PIXEL = (
    "&lt;img src=&quot;//c.msn.com/c.gif?udc=true&amp;rid=1&quot; height=&quot;1&quot; "
    "width=&quot;1&quot; style=&quot;display:none&quot;&gt;"
)


def test_markup_left_as_text_in_noscript_is_not_text() -> None:
    html = (
        "<html><head><title>A story</title></head><body>"
        f"<noscript>{PIXEL}</noscript><div id='app'><noscript>{PIXEL}</noscript></div>"
        "<p>Short line.</p></body></html>"
    )
    result = clean_html(html)
    assert "c.gif" not in result.text and "<img" not in result.text
    root, _ = parse_html(html)
    assert not any("<" in run.text for run in build_page_model(root).runs)
    # Text around the tags in a <noscript> stays.
    root, _ = parse_html(
        "<html><body><noscript>&lt;p&gt;Please turn on JavaScript.&lt;/p&gt;</noscript>"
        "</body></html>"
    )
    assert [run.text.strip() for run in build_page_model(root).runs] == [
        "Please turn on JavaScript."
    ]
    root, _ = parse_html(
        "<html><body><noscript>Turn on JavaScript, or &lt;a href=&quot;/lite&quot;&gt;read"
        " the light page&lt;/a&gt;.</noscript></body></html>"
    )
    text = " ".join("".join(run.text for run in build_page_model(root).runs).split())
    assert text == "Turn on JavaScript, or read the light page ."
    # A script-rendered page's copy in <noscript> keeps a tag named in its sentences.
    root, _ = parse_html(
        "<html><body><noscript><div><p>Use a &lt;StaticQuery&gt; there.</p></div></noscript>"
        "</body></html>"
    )
    assert "".join(run.text for run in build_page_model(root).runs) == (
        "Use a <StaticQuery> there."
    )


def test_ruby_annotations_do_not_run_into_the_text() -> None:
    body = (
        "<p><ruby>子<rp>(</rp><rt>こ</rt><rp>)</rp>供<rt>ども</rt></ruby>への"
        "<ruby>虐待<rt>ぎゃくたい</rt></ruby>が増えている。" + "この問題は深刻である。" * 8 + "</p>"
    )
    html = (
        "<html><head><title>記事</title></head><body><article>"
        f"<h1><ruby>虐待<rt>ぎゃくたい</rt></ruby>の記事</h1>{body}</article></body></html>"
    )
    result = clean_html(html)
    assert "子供への虐待が増えている。" in result.text
    assert "こども" not in result.text and "(こ)" not in result.text
    assert "ぎゃくたい" not in result.text
    assert result.title == "虐待の記事"


def _titled(title: str, body: str, head: str = "") -> str:
    return f"<html><head><title>{title}</title>{head}</head><body>{body}</body></html>"


def test_a_logo_h1_linking_to_the_front_page_is_not_the_title() -> None:
    html = _titled(
        "Ant – Wikipedia",
        f"<header><a href='/'><h1>Wikipedia</h1></a></header><main><h2>Ant</h2>{ARTICLE}</main>",
    )
    assert clean_html(html).title == "Ant"


def test_the_h1_that_repeats_a_title_part_is_the_title() -> None:
    # The page's <h1> repeats the shorter part of its <title>, the longer one names the site.
    html = _titled("Sudo - ArchWiki", f"<main><h1>Sudo</h1>{ARTICLE}</main>")
    assert clean_html(html, "https://wiki.example.org/title/Sudo").title == "Sudo"
    # But not the last part, where a site (or a book) puts its name.
    html = _titled(
        "Traits: Defining Shared Behavior - The Rust Programming Language",
        f"<div class='menu'><h1>The Rust Programming Language</h1></div><main>{ARTICLE}</main>",
    )
    assert clean_html(html).title == "Traits: Defining Shared Behavior"


def test_a_headings_button_and_permalink_mark_are_not_its_text() -> None:
    html = _titled(
        "tokio - Rust",
        f"<main><h1>Crate <span>tokio</span> <button>Copy item path</button></h1>{ARTICLE}</main>",
    )
    assert clean_html(html).title == "Crate tokio"
    html = _titled(
        "Models | Django documentation",
        f"<main><h1>Models<a class='headerlink' href='#models'>\u00b6</a></h1>{ARTICLE}</main>",
    )
    assert clean_html(html).title == "Models"
    # A hash that is part of a name stays.
    html = _titled("C# | Docs", f"<main><h1>C#</h1>{ARTICLE}</main>")
    assert clean_html(html).title == "C#"


#: (the <title>, the body, more of the <head>, the title expected)
FORUM_AND_CUT_TITLES = {
    # A forum's label before a thread's title: XenForo's prefix, vBulletin's "Thread:".
    "xenforo prefix": (
        "News - Cameras as a status symbol | Camera Forum",
        "<h1 class='p-title-value'><span class='label label--green'>News</span>"
        "<span class='label-append'> </span>Cameras as a status symbol</h1>",
        "",
        "Cameras as a status symbol",
    ),
    "thread opener": (
        "Which host to buy? | Hosting Talk",
        "<h1> Thread: <span class='threadtitle'><a href='?t=1'>Which host to buy?</a></span></h1>",
        "",
        "Which host to buy?",
    ),
    # A label that is the whole heading stays; a word that only opens the title stays.
    "label alone": ("Tags", "<h1><span class='tag'>Tags</span></h1>", "", "Tags"),
    "opening word": (
        "Thread safety",
        "<h1>Thread safety in Rust</h1>",
        "",
        "Thread safety in Rust",
    ),
    # A spaced slash separates a title's parts, but not two numbers.
    "slash": (
        "What happened with the ISO in 2024 / Arch Discussion / Arch Linux Forums",
        "<header><a href='/'><h1>Arch Linux</h1></a></header>",
        "",
        "What happened with the ISO in 2024",
    ),
    "numbers": ("Tech conferences 2026 / 2027", "", "", "Tech conferences 2026 / 2027"),
    # A social card's title cut short gives way to the page's.
    "cut short": (
        "What will be the trend in the watch market in 2024? | Watch Forums",
        "",
        "<meta property='og:title' content='What will be the trend in the watch...'>",
        "What will be the trend in the watch market in 2024?",
    ),
}


@pytest.mark.parametrize("case", list(FORUM_AND_CUT_TITLES))
def test_forum_labels_slashes_and_cut_titles(case: str) -> None:
    title, heading, head, expected = FORUM_AND_CUT_TITLES[case]
    html = _titled(title, f"<main>{heading}{ARTICLE}</main>", head)
    assert clean_html(html).title == expected


def test_an_inline_icons_title_is_not_the_pages_title() -> None:
    # No <title> in the <head>: the first one in the page is an SVG icon's name.
    icon = (
        '<a href="/share"><svg viewBox="0 0 24 24"><title>LinkedIn</title><path d="M0"/></svg></a>'
    )
    html = f"<html><head></head><body>{icon}<h1>Standing Desk</h1>{ARTICLE}</body></html>"
    assert clean_html(html).title == "Standing Desk"
    # A <title> outside every drawing is still read.
    html = f"<html><body>{icon}<title>Standing Desk | Shop</title>{ARTICLE}</body></html>"
    assert clean_html(html).title == "Standing Desk"


def test_a_title_part_naming_the_site_is_not_the_title() -> None:
    # The site's name, declared by og:site_name, is the longest part of the <title> and an
    # <h1> repeats it.
    html = _titled(
        "Rain - The Springfield Evening Chronicle",
        f"<div><h1>The Springfield Evening Chronicle</h1></div><div>{ARTICLE}</div>",
        "<meta property='og:site_name' content='The Springfield Evening Chronicle'>",
    )
    assert clean_html(html).title == "Rain"
    # Named by the page's host.
    html = _titled("Cat - Wikipedia", f"<div><h1>Wikipedia</h1></div><div>{ARTICLE}</div>")
    assert clean_html(html, "https://en.wikipedia.org/wiki/Cat").title == "Cat"
    # The page's own <h1> still has the exact wording.
    html = _titled(
        "Storm hits the coast | The Springfield Evening Chronicle",
        f"<a href='/' class='logo'><h1>The Springfield Evening Chronicle</h1></a>"
        f"<article><h1>Storm hits the coast!</h1>{ARTICLE}</article>",
    )
    assert clean_html(html).title == "Storm hits the coast!"
    # A front page whose title is the site's name keeps it.
    html = _titled(
        "Springfield Chronicle",
        f"<a href='/'><h1>Springfield Chronicle</h1></a><div>{ARTICLE}</div>",
        "<meta property='og:site_name' content='Springfield Chronicle'>",
    )
    assert clean_html(html, "https://springfieldchronicle.com/").title == "Springfield Chronicle"


INFOBOX = (
    "<table class='infobox'><tr><th>Founded</th><td>12 May 1998</td></tr>"
    "<tr><th>Headquarters</th><td>Springfield</td></tr></table>"
)


def test_the_pages_json_ld_date_wins_over_a_date_in_the_body() -> None:
    head = (
        '<script type="application/ld+json">{"@context": "https://schema.org", '
        '"@type": "Article", "name": "Acme", "datePublished": "2024-05-06T10:00:00Z", '
        '"dateModified": "2025-01-02T00:00:00Z", "publisher": {"@type": "Organization", '
        '"foundingDate": "1998-05-12"}}</script>'
    )
    html = _titled("Acme - Wiki", f"<h1>Acme</h1>{INFOBOX}{ARTICLE}", head)
    assert clean_html(html).date == "2024-05-06"


@pytest.mark.parametrize(
    "meta",
    [
        '<meta name="citation_publication_date" content="2024/05/06">',
        '<meta name="dcterms.date" content="2024-05-06">',
        '<meta property="og:article:published_time" content="2024-05-06T08:00:00+02:00">',
        '<meta name="published_date" content="2024-05-06">',
    ],
)
def test_more_publication_date_meta_tags_are_read(meta: str) -> None:
    html = _titled("Acme", f"<h1>Acme</h1>{INFOBOX}{ARTICLE}", meta)
    assert clean_html(html).date == "2024-05-06"


@pytest.mark.parametrize(
    ("metas", "expected"),
    [
        # Other spellings with a word like "published" are publication dates...
        ('<meta name="w-published-date" content="2024-05-06T06:03:43.274Z">', "2024-05-06"),
        ('<meta name="published" content="May 6, 2024">', "2024-05-06"),
        ('<meta property="og:publish_date" content="2024-05-06">', "2024-05-06"),
        # ...but not a publisher, a modified, updated or expiry date...
        ('<meta property="article:publisher" content="2024-05-06">', None),
        ('<meta name="last-published-date" content="2024-05-06">', None),
        ('<meta name="published-date-modified" content="2024-05-06">', None),
        # ...and a name the list has goes first wherever it is.
        (
            '<meta name="published-time" content="2026-03-09T08:45:32.183Z">'
            '<meta name="published-date" content="2021-02-16">',
            "2021-02-16",
        ),
    ],
)
def test_other_spellings_of_a_publication_date_meta_tag(metas: str, expected: str | None) -> None:
    html = _titled("Acme", f"<h1>Acme</h1>{ARTICLE}", metas)
    assert clean_html(html).date == expected


def test_a_date_runs_into_the_next_word() -> None:
    # "Dec 17, 2025" and an author's name in two spans, with no space between them.
    byline = "<div class='meta'><span>Dec 17, 2025</span><span>Ann Lee</span></div>"
    html = _titled("A story", f"<article><h1>A story</h1>{byline}{ARTICLE}</article>")
    assert clean_html(html).date == "2025-12-17"
    from scrapy_webclean.extraction.dates import parse_date

    assert parse_date("Dec 17, 20251") is None  # (a longer number is no year)


def test_the_addresses_day_wins_over_a_utc_timestamp_one_day_off() -> None:
    # Posted at 7:05 pm in California on the 18th: Greenwich's clock says the 19th.
    utc = '<meta property="article:published_time" content="2025-12-19T03:05:00+00:00">'
    html = _titled("A story", f"<h1>A story</h1>{ARTICLE}", utc)
    assert clean_html(html, "https://example.com/2025/12/18/a-story").date == "2025-12-18"
    # Not two days off, nor a timestamp with the site's own offset, nor without an address.
    assert clean_html(html, "https://example.com/2025/12/17/a-story").date == "2025-12-19"
    assert clean_html(html).date == "2025-12-19"
    local = utc.replace("2025-12-19T03:05:00+00:00", "2025-12-19T03:05:00+09:00")
    html = _titled("A story", f"<h1>A story</h1>{ARTICLE}", local)
    assert clean_html(html, "https://example.com/2025/12/18/a-story").date == "2025-12-19"


def test_a_members_join_date_is_not_the_pages_date() -> None:
    post = "<div class='post'><dl><dd>Registered: 2024-01-27</dd><dd>Posts: 98</dd></dl>"
    html = _titled(
        "A thread",
        f"<h1>A thread</h1>{post}<p class='byline'>by Ann » Tue Aug 27, 2019</p>{ARTICLE}</div>",
    )
    assert clean_html(html).date == "2019-08-27"
    # An update is the page's date all the same (the dev sets' truths say so).
    html = _titled("A story", f"<h1>A story</h1><p>Updated: May 6, 2024</p>{ARTICLE}")
    assert clean_html(html).date == "2024-05-06"


def test_a_date_the_address_names_when_the_page_names_none() -> None:
    html = _titled("A story", f"<h1>A story</h1>{ARTICLE}")
    assert clean_html(html, "https://example.com/2024/05/06/a-story").date == "2024-05-06"
    assert clean_html(html, "https://example.com/articles/2024-05-06+A+story").date == "2024-05-06"
    # A year and a month name no day; a number that runs on is an id; the page's own date
    # wins over the address's.
    assert clean_html(html, "https://example.com/2024/05/a-story").date is None
    assert clean_html(html, "https://example.com/item/202405061234").date is None
    dated = _titled("A story", f"<h1>A story</h1>{ARTICLE}",
                    '<meta property="article:published_time" content="2024-05-07">')  # fmt: skip
    assert clean_html(dated, "https://example.com/2024/05/06/a-story").date == "2024-05-07"


def test_a_time_element_without_datetime_is_read_for_its_text() -> None:
    html = _titled(
        "A story",
        f"<article><h1>A story</h1><span><time>Dec 19, 2025</time></span>{ARTICLE}</article>",
    )
    assert clean_html(html).date == "2025-12-19"


def test_the_articles_time_wins_over_a_sidebars() -> None:
    html = _titled(
        "A story",
        "<aside><ul><li><a href='/old'>Older post</a> <time datetime='2019-01-01'>Jan 1</time>"
        "</li></ul></aside><article><header><h1>A story</h1>"
        f"<time datetime='2024-05-06T09:00'>May 6</time></header>{ARTICLE}</article>",
    )
    root, _ = parse_html(html)
    assert metadata_date(root) == "2024-05-06"


SHARE_LABELS = (
    *("转播到腾讯微博", "分享到微博", "分享到：", "分享到QQ空间", "Share on Facebook", "Tweet"),
    *("Pin it", "Email this", "Share this:", "Share via Email", "Share this article", "12 Shares"),
    *("Tweet 5", "Facebook teilen", "Auf Facebook teilen", "Partager sur Facebook"),
    *("Compartir en WhatsApp", "Поделиться", "シェアする", "Send to a friend", "Post to X"),
)


def test_share_button_labels_are_control_labels() -> None:
    for label in SHARE_LABELS:
        for variant in (label, label.upper(), label.lower()):
            assert is_ui_line(variant), variant
    for line in (
        "Share your story with us today",
        "Shares rose 5% in early trading",
        "Facebook is a company",
        "Facebook",
        "1. LinkedIn",
        "Email",
        "X",
        "Line",
        "Send",
        "Posted by John",
        "SharePoint",
    ):
        assert not is_ui_line(line), line


def test_share_labels_are_not_the_first_content_line() -> None:
    chinese = "委员会周一开会审议了这项提案，成员们一致认为该计划在付诸表决之前还需要更多工作。"
    html = _titled(
        "新闻",
        "<div class='article'><h1>新闻标题</h1><div><span>转播到腾讯微博</span></div>"
        + "".join(f"<p>{chinese}第{i}段。</p>" for i in range(5))
        + "</div>",
    )
    text = clean_html(html).text
    assert "转播" not in text and text.startswith(chinese[:10])
    html = _titled(
        "News",
        "<article><h1>Headline</h1><div><a href='#'>Tweet</a></div><div>Pin it</div>"
        f"<div>Email this</div>{ARTICLE}</article>",
    )
    text = clean_html(html).text
    assert text.startswith(PROSE[:20]), text[:80]


def test_a_call_to_action_is_dropped_from_the_text() -> None:
    for label in ("Learn more", "LEARN MORE »", "Get started", "Shop now", "Book now >"):
        assert is_call_to_action(label), label
    for line in ("Learn more about our history", "Buy now, pay later is growing", "Now"):
        assert not is_call_to_action(line), line
    # a service page's sections, each with its button
    sections = "".join(
        f"<section><h2>Feature {i}</h2><p>Teams plan their work on board number {i} and "
        "ship faster together every week.</p>"
        "<div><span class='btn'>Learn more</span></div></section>"
        for i in range(4)
    )
    html = _titled("Product", f"<main>{sections}</main>")
    text = clean_html(html, "https://example.com/product/board").text
    assert "ship faster together" in text
    assert "Learn more" not in text


def test_a_wrapper_of_the_whole_page_is_not_judged_by_its_name() -> None:
    """A layout wrapper around the whole page (``flex-wrap-footer``: the footer is kept at
    the bottom) holds more than ``WRAPPER_TEXT_SHARE`` of its text: its name is not read,
    or every line of a list page with little prose would count as footer."""
    titles = [
        f"Title: A study of {topic} in large language models"
        for topic in ("attention sinks", "sparse features", "judges", "puzzles", "tools")
    ]
    entries = "".join(
        f"<dt><a href='/abs/{i}'>[{i}] 2603.0{i}</a> [<a href='/pdf/{i}'>pdf</a>]</dt>"
        f"<dd><div class='list-title'>{title}</div>"
        f"<div class='list-authors'><a href='/a/{i}'>Ada Lovelace</a>, "
        f"<a href='/b/{i}'>Alan Turing</a></div>"
        "<div class='list-subjects'>Subjects: Artificial Intelligence (cs.AI)</div></dd>"
        for i, title in enumerate(titles)
    )
    html = (
        "<html><head><title>Recent submissions</title></head><body>"
        "<div class='flex-wrap-footer'><main><h1>Artificial Intelligence</h1>"
        f"<h2>Authors and titles for recent submissions</h2><dl>{entries}</dl></main>"
        "<footer><a href='/about'>About</a></footer></div></body></html>"
    )
    text = clean_html(html, "https://papers.example.org/list/cs.AI/recent").text
    assert all(title in text for title in titles), text
    assert "About" not in text


def test_a_post_whose_body_is_a_video_keeps_its_headline_and_byline() -> None:
    comment = (
        "<li class='comment'><p class='author'>Reader {i}</p><p>I loved this one, thank you "
        "so much for sharing it with all of us here today.</p></li>"
    )
    html = (
        "<html><head><title>A walk by the river | The Blog</title></head><body>"
        "<header><a href='/'>The Blog</a><nav><a href='/a'>About</a> <a href='/b'>Books</a>"
        " <a href='/c'>Contact</a></nav></header>"
        "<div id='main'><article class='post'><h1>A walk by the river</h1>"
        "<p class='byline'>by Jane Doe on June 29, 2012</p><div class='video'>"
        "<iframe src='https://www.youtube.com/embed/xyz' width='640' height='360'></iframe>"
        "</div></article><section id='comments'><h3>12 comments</h3><ol>"
        + "".join(comment.format(i=i) for i in range(12))
        + "</ol></section></div>"
        "<footer><p>Copyright 2012 The Blog. All rights reserved.</p></footer></body></html>"
    )
    result = clean_html(html, "http://blog.example.com/2012/06/29/a-walk-by-the-river/")
    # Not nothing, and not the readers' comments: the headline and the byline.
    assert result.text == "A walk by the river\nby Jane Doe on June 29, 2012"


def short_post_html() -> str:
    """A blog post of short lines and one linked line, its body declared by schema.org."""
    archive = "".join(f"<li><a href='/2012/{m:02d}/'>Month {m} (4)</a></li>" for m in range(1, 13))
    return (
        "<html><head><title>A note for friends | Sketch Blog</title></head><body>"
        "<div class='main'><div class='post' itemscope itemtype='http://schema.org/BlogPosting'>"
        "<h3 class='post-title'>A note for friends</h3>"
        "<div class='post-body' itemprop='articleBody'>Dear all,<br><br>"
        "Come and see <a href='https://shop.example.com/event/42'>the reading of the forgotten "
        "garden</a> at the corner bookshop next Saturday at eleven.<br><br>"
        "<div class='field'><div>Location:</div><div>The Corner Bookshop</div>"
        "<div>12 Elm Street,</div><div>Springfield</div></div>"
        "<div class='field'><div>Hope to see you there.</div><div>Cheers,</div>"
        "<div>Ann</div></div></div>"
        "<div class='post-footer'>Posted by <a href='/profile'>Ann Lee</a> at 9:22 AM</div>"
        "</div></div>"
        f"<div class='sidebar'><h2>Archive</h2><ul>{archive}</ul></div></body></html>"
    )


def test_a_short_posts_declared_article_body_is_its_text() -> None:
    url = "http://sketch.example.com/2012/10/a-note-for-friends.html"
    text = clean_html(short_post_html(), url).text
    # Its lines are too short, or too linked, to outweigh "Hope to see you there." alone:
    # the body that schema.org markup declares is the region.
    for line in ("Dear all,", "the forgotten garden", "12 Elm Street,", "Ann"):
        assert line in text, text
    assert "Month 3" not in text


def test_see_also_is_no_related_heading() -> None:
    assert not is_related_heading("See also")
    assert is_related_heading("Read also")
    assert is_related_heading("Related articles")


def test_a_posts_tag_lines_are_dropped_from_the_text() -> None:
    for line in ("Tags: python, lxml", "Filed under: News", "Posted in: Sidelines | comments"):
        assert is_taxonomy_line(line), line
    for line in ("Labels: Blog News", "标签：股市 基金", "TAGGED WITH: travel"):
        assert is_taxonomy_line(line), line
    for line in ("Category: Performance", "Tags are a way to group posts", "Posted by Jane"):
        assert not is_taxonomy_line(line), line
    html = _titled(
        "News",
        f"<article><h1>Headline</h1>{ARTICLE}<p>Tags: python, lxml, scraping</p></article>",
    )
    text = clean_html(html, "https://example.com/2024/05/a-post").text
    assert PROSE[:20] in text
    assert "Tags:" not in text


def test_a_related_link_line_inside_the_text_is_dropped() -> None:
    for line in ("Read more: A second story", ">> See Also: Another one", "RELATED: Third"):
        assert is_related_link_line(line), line
    for line in ("Also read: More news", "[Related: Fourth story]", "Read next: Fifth"):
        assert is_related_link_line(line), line
    for line in ("Read the full report here", "Related work shows", "More than a million"):
        assert not is_related_link_line(line), line
    paragraphs = "".join(
        f"<p>{PROSE} Part {i}.</p><p>Read more: <a href='/story-{i}'>Markets rally as the "
        f"index of tech stocks climbs to record number {i}</a></p>"
        for i in range(4)
    )
    html = _titled("News", f"<article><h1>Headline</h1>{paragraphs}</article>")
    text = clean_html(html, "https://example.com/2024/05/a-story").text
    assert text.count(PROSE[:20]) == 4
    assert "Read more" not in text and "Markets rally" not in text
    # A line that only names a related story in its own words is text.
    html = _titled(
        "News",
        f"<article><h1>Headline</h1>{ARTICLE}<p>Related: the council will publish its plan "
        "in <a href='/plan'>June</a> after the hearing.</p></article>",
    )
    assert "Related: the council" in clean_html(html, "https://example.com/2024/05/b").text
